"""Real LaTeX tables read into the grid LaTeXML makes of them, spans included.

tests/data/latexml_real.json (written by tests/make_latexml_real_fixture.py)
holds, for each real table, where it comes from and LaTeXML's grid: its shape,
its spanning cells and a digest of its cells' texts. The tables themselves are
read here from where they are: OmniDocBench's annotations in the shared corpus,
the vendored ones under tests/data/latex_real/, and the others from a local
cache of the GitHub sources (``CONVERTABLES_LATEX_SOURCES``, laid out as
``owner+name/path``; the generator's ``--fetch`` fills it)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from convertables.latex_tables import find_tables
from tests.make_latexml_real_fixture import FIXTURE, OMNIDOCBENCH, VENDORED, latexml_grid, omnidocbench_tables, \
    outer_tables, shape_of, without_empty_columns

RECORDED = json.loads(FIXTURE.read_text(encoding="utf-8"))["tables"]
SOURCES = os.environ.get("CONVERTABLES_LATEX_SOURCES")


def _ours(latex: str) -> dict:
    (table,) = find_tables(latex)
    return shape_of([[c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells])


def _assert_read_as_latexml_reads(latex: str, record: dict) -> None:
    """The grid LaTeXML made, spans and texts; where a difference is documented
    (docs/formats.md), the same grid and texts that still differ."""
    ours = _ours(latex)
    if "difference" not in record:
        assert ours == record["latexml"]
    elif record["difference"] == "empty-columns":
        assert ours != record["latexml"]
        (table,) = find_tables(latex)
        cells = [[c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells]
        assert shape_of(without_empty_columns(cells)) == record["latexml"]
    else:
        assert {k: v for k, v in ours.items() if k != "digest"} == \
            {k: v for k, v in record["latexml"].items() if k != "digest"}
        assert ours["digest"] != record["latexml"]["digest"], f"no longer differs: {record['why']}"


def _name(record: dict) -> str:
    where = record.get("key") or f"{record['repo']}/{record['path']}"
    return f"{record['source']}:{where}#{record['index']}"


CORPUS_TABLES = [r for r in RECORDED if r["source"] == "corpus"]
VENDORED_TABLES = [r for r in RECORDED if r.get("vendored")]
CACHED_TABLES = [r for r in RECORDED if r["source"] == "github" and not r.get("vendored")]


def test_the_fixture_covers_real_tables_with_spans_and_both_origins():
    assert len(RECORDED) == 34
    assert {r["source"] for r in RECORDED} == {"corpus", "github"}
    assert sum(bool(r["latexml"]["spans"]) for r in RECORDED) == 5
    assert sum(r.get("difference") == "text" for r in RECORDED) == 2
    assert sum(r.get("difference") == "empty-columns" for r in RECORDED) == 12
    assert all(len(r["latexml"]["digest"]) == 64 for r in RECORDED)
    for record in RECORDED:
        if record["source"] == "github":
            assert len(record["commit"]) == 40 and record["repo"].count("/") == 1


@pytest.mark.parametrize("record", CORPUS_TABLES, ids=_name)
def test_omnidocbench_annotations_read_as_latexml_reads_them(record, corpus):
    key, latex = omnidocbench_tables(corpus(*OMNIDOCBENCH))[record["index"]]
    assert key == record["key"]
    _assert_read_as_latexml_reads(latex, record)


@pytest.mark.parametrize("record", VENDORED_TABLES, ids=_name)
def test_vendored_paper_tables_read_as_latexml_reads_them(record):
    _assert_read_as_latexml_reads((VENDORED / record["vendored"]).read_text(encoding="utf-8"), record)


@pytest.mark.skipif(not SOURCES, reason="CONVERTABLES_LATEX_SOURCES (a cache of the GitHub paper sources) is not set")
@pytest.mark.parametrize("record", CACHED_TABLES, ids=_name)
def test_cached_paper_tables_read_as_latexml_reads_them(record):
    source = Path(SOURCES) / record["repo"].replace("/", "+") / record["path"]
    if not source.exists():
        pytest.skip(f"{source} is not in the cache (tests/make_latexml_real_fixture.py --fetch fetches it)")
    tables = outer_tables(source.read_text(encoding="utf-8"))
    _assert_read_as_latexml_reads(tables[record["index"]], record)


@pytest.mark.skipif(shutil.which("latexmlc") is None, reason="LaTeXML (latexmlc) is not installed")
@pytest.mark.parametrize("record", VENDORED_TABLES, ids=_name)
def test_latexml_itself_makes_the_recorded_grids_of_the_vendored_tables(record, tmp_path):
    assert shape_of(latexml_grid((VENDORED / record["vendored"]).read_text(encoding="utf-8"), tmp_path)) == \
        record["latexml"]
