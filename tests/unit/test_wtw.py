"""WTW annotation XML (convertables/formats/wtw.py), read only: a file of two tables
read through the real command (convert, check, score). The reader's rules are in
tests/cases/wtw/."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from convertables import read
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats import ctdar
from convertables.model import BBox, Frame, Page
from tests.conftest import CASES

runner = CliRunner()
CASE = CASES / "wtw" / "two-tables-quadrilaterals-and-spans" / "input.xml"


def test_tables_by_tableid_with_quadrilaterals_in_pixels():
    doc = read(CASE)
    assert doc.filename == "wild_0001.jpg" and doc.pages == [Page(1, 1024.0, 768.0, Frame.IMAGE)]
    assert [t.id for t in doc.tables] == [0, 1]  # by tableid, not by the order of the objects
    skewed = doc.tables[1]
    first = next(c for c in skewed.cells() if (c.start_row, c.start_col) == (0, 0))
    assert first.bbox == BBox(100, 52, 398, 101, Frame.IMAGE, ((102, 52), (398, 60), (396, 101), (100, 95)))
    assert skewed.regions[0].bbox[:4] == (97, 52, 398, 192)  # the envelope of its cells
    assert all(c.content is None for t in doc.tables for c in t.cells())


def test_the_command_converts_checks_and_scores_wtw(tmp_path):
    listed = runner.invoke(app, ["formats"])
    assert any(line.split()[:3] == ["wtw", "yes", "no"] for line in listed.output.splitlines()), listed.output
    out = tmp_path / "wild_0001-ctdar.xml"
    converted = runner.invoke(app, ["convert", str(CASE), "--to", "ctdar", "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    written = ctdar.read(out.read_bytes(), Diagnostics()).document
    assert [sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in t.cells()) for t in written.tables] == [
        [(0, 0, 0, 0), (0, 1, 0, 1), (1, 0, 1, 1)], [(0, 0, 0, 1), (1, 0, 2, 0), (1, 1, 1, 1), (2, 1, 2, 1)]]
    icdar_out = tmp_path / "wild_0001-str.xml"
    assert runner.invoke(app, ["convert", str(CASE), "--to", "icdar", "-o", str(icdar_out)]).exit_code == 0
    assert runner.invoke(app, ["check", str(CASE)]).exit_code == 0
    bad = runner.invoke(app, ["check", str(CASES / "wtw" / "bad-objects-left-out" / "input.xml")])
    assert bad.exit_code == 1 and "cell-dropped" in bad.output
    # WTW has no text: the structure of its tables is scored (TEDS-struct, GriTS_Top and _Loc, cTDaR Track B)
    for metric, key in (("teds", "teds_struct"), ("grits", "grits_top"), ("grits", "grits_loc"),
                        ("ctdar-b", "wavg_f1")):
        scored = runner.invoke(app, ["score", "--gt", str(CASE), "--result", str(out), "--metric", metric,
                                     "--format", "json"])
        assert scored.exit_code == 0, scored.output
        assert json.loads(scored.stdout)["total"][key] == 1.0
    # a result that merges two cells of the skewed table scores below 1
    merged = out.read_text().replace('end-col="0"', 'end-col="1"', 1)
    (tmp_path / "merged.xml").write_text(merged)
    scored = runner.invoke(app, ["score", "--gt", str(CASE), "--result", str(tmp_path / "merged.xml"), "--metric",
                                 "grits", "--format", "json"])
    assert json.loads(scored.stdout)["total"]["grits_top"] < 1.0
