"""Every format of parsers' pages and datasets' annotations through every
command: converted to ICDAR 2013, checked, scored with the HTML report, and
joined from per-table files. The inputs are the formats' own data-driven cases
(tests/cases/<format>/), so a new case of these formats is covered here too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.files import read
from tests.conftest import CASES

PAGE_FORMATS = ("markdown", "latex", "pagexml", "scitsr", "doctags", "wtw", "mineru", "unstructured", "marker",
                "paddleocr", "upstage", "llamaparse")

runner = CliRunner()


def _case(fmt: str) -> tuple[Path, dict]:
    """The format's first case with tables of several cells and no finding expected."""
    for case in sorted((CASES / fmt).iterdir()):
        expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
        tables = expected.get("tables", [])
        if tables and all(len(t["cells"]) > 1 for t in tables) and not expected.get("diagnostics"):
            return next(case.glob("input*")), expected
    raise AssertionError(f"no case of {fmt} with cells")


def _cells(expected: dict) -> list[int]:
    return [len(t["cells"]) for t in expected["tables"]]


def _texts(tables) -> list[set]:
    """Each table's cells that hold text, as (start row, start column, end row, end column, text)."""
    return [{tuple(c[:5]) for c in t["cells"] if c[4]} for t in tables]


@pytest.mark.parametrize("fmt", PAGE_FORMATS)
def test_converted_to_icdar_with_every_cell(fmt, tmp_path):
    source, expected = _case(fmt)
    out = tmp_path / "doc-str.xml"
    result = runner.invoke(app, ["convert", str(source), "--from", fmt, "--to", "icdar", "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = read(out, "icdar")
    got = [[(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in t.cells()] for t in doc.tables]
    assert _texts({"cells": cells} for cells in got) == _texts(expected["tables"])


@pytest.mark.parametrize("fmt", PAGE_FORMATS)
def test_checked_without_an_error(fmt):
    source, _ = _case(fmt)
    result = runner.invoke(app, ["check", str(source), "--format", "json"])
    findings = json.loads(result.stdout)
    errors = [f for f in findings["findings"] if f["severity"] == "error"]
    assert result.exit_code == 0 and errors == [], result.output


@pytest.mark.parametrize("fmt", PAGE_FORMATS)
def test_scored_against_itself_with_the_html_report(fmt, tmp_path):
    source, expected = _case(fmt)
    page = tmp_path / "report.html"
    result = runner.invoke(app, ["score", "--gt", str(source), "--result", str(source), "--metric", "grits",
                                 "--format", "json", "--html", str(page)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["total"]["grits_top"] == 1.0
    assert report["total"]["tables"] == len(expected["tables"])
    html = page.read_text(encoding="utf-8")
    assert "GriTS_Con" in html and source.stem in html


@pytest.mark.parametrize("fmt", PAGE_FORMATS)
def test_per_table_files_join_into_one_document(fmt, tmp_path):
    source, expected = _case(fmt)
    folder = tmp_path / "tables"
    folder.mkdir()
    suffix = "".join(source.suffixes)
    for page in (1, 2):
        shutil.copyfile(source, folder / f"report-page-{page}-table-1{suffix}")
    out = tmp_path / "out"
    result = runner.invoke(app, ["convert", str(folder), "--from", fmt, "--join", "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    doc = read(out / "report.json", "json")
    assert [len(t.cells()) for t in doc.tables] == _cells(expected) * 2
    assert [t.page for t in doc.tables] == [1] * len(expected["tables"]) + [2] * len(expected["tables"])
