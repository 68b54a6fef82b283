"""The reader contract: a reader returns what it found, a Document or a Reading
(the document, the line of each cell, the regions the grid check must look at),
and nothing else travels beside it; files.read_document takes both."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from convertables import registry
from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.model import BBox, Cell, Document, Reading, Region, Table, make_cell
from convertables.options import ReadOptions
from tests.conftest import ROOT

SAMPLES = ROOT / "samples"
CASES = ROOT / "tests" / "cases"


def test_diagnostics_hold_findings_and_nothing_a_reader_hands_back():
    assert [f.name for f in fields(Diagnostics)] == ["file", "items"]


# Every built-in reader that knows its cells' lines, with a file of its format.
WITH_LINES = {
    "icdar": SAMPLES / "icdar" / "sample-str.xml",
    "ctdar": SAMPLES / "ctdar" / "sample.xml",
    "abbyy": SAMPLES / "abbyy" / "sample.xml",
    "wtw": CASES / "wtw" / "two-tables-quadrilaterals-and-spans" / "input.xml",
    "pagexml": CASES / "pagexml" / "two-tables-point-coords" / "input.xml",
}


@pytest.mark.parametrize("name", sorted(WITH_LINES))
def test_a_reader_returns_its_cells_lines_with_the_document(name: str):
    data = WITH_LINES[name].read_bytes()
    diagnostics = Diagnostics(str(WITH_LINES[name]))
    found = registry.get(name).reader()(data, diagnostics, ReadOptions())
    assert isinstance(found, Reading)
    cells = [cell for table in found.document.tables for cell in table.cells()]
    assert cells
    line_count = data.count(b"\n") + 1
    for cell in cells:
        line = found.source_lines.get(id(cell))
        assert line is not None and 1 <= line <= line_count, (name, cell)
    # The first cell's line is the line of its element in the file (after the document's start).
    first = found.source_lines.get(id(cells[0]))
    assert first > 1


# Every built-in reader that builds grids which keep the invariants, and says which may not.
BY_CONSTRUCTION = {
    "html": b"<table><tr><td>a</td><td>b</td></tr></table>",
    "csv": b"a,b\n1,2\n",
    "pubtabnet-html": b'{"t.png": "<table><tr><td>a</td></tr></table>"}',
    "xlsx": (SAMPLES / "xlsx" / "sample.xlsx").read_bytes(),
}


@pytest.mark.parametrize("name", sorted(BY_CONSTRUCTION))
def test_a_reader_returns_the_regions_the_grid_check_must_see(name: str):
    found = registry.get(name).reader()(BY_CONSTRUCTION[name], Diagnostics("t"), ReadOptions())
    assert isinstance(found, Reading)
    assert found.document.tables
    if name == "xlsx":  # a sheet's merged cells are checked; the sample's first table has some
        assert found.regions_to_check and all(any(c.row_span > 1 or c.col_span > 1 for c in region.cells)
                                              for _, region in found.regions_to_check)
    else:
        assert found.regions_to_check == []  # a clean grid: nothing for the check to look at


def test_an_html_table_model_fault_reaches_the_grid_check_through_the_reading():
    # The second row's colspan reaches the slot the first row's rowspan holds.
    data = b"<table><tr><td>a</td><td rowspan=2>b</td></tr><tr><td colspan=2>c</td></tr></table>"
    found = registry.get("html").reader()(data, Diagnostics("t.html"), ReadOptions())
    assert [(table_id, region.id) for table_id, region in found.regions_to_check] == [(0, 0)]
    diagnostics = Diagnostics("t.html")
    read_document(data, registry.get("html"), "t.html", diagnostics=diagnostics)
    assert "slot-overlap" in diagnostics.codes()


def test_an_icdar_cells_line_is_in_the_grid_checks_finding():
    text = ('<?xml version="1.0"?>\n<document filename="x.pdf">\n<table id="0">\n<region id="0" page="1">\n'
            '<cell id="0" start-row="0" start-col="0"><content>a</content></cell>\n'
            '<cell id="1" start-row="0" start-col="0"><content>b</content></cell>\n'
            '</region>\n</table>\n</document>\n')
    diagnostics = Diagnostics("x.xml")
    read_document(text.encode(), registry.get("icdar"), "x.xml", diagnostics=diagnostics)
    overlaps = [d for d in diagnostics if d.code == "slot-overlap"]
    assert overlaps and overlaps[0].line in (5, 6)


def test_a_reader_that_returns_a_plain_document_is_read_and_its_grid_checked(monkeypatch):
    """Plugins written to ``read(data, diagnostics, options) -> Document`` keep working."""

    def read_overlapping(data, diagnostics, options):
        cells = [Cell(0, 0, 0, 0, text) for text in data.decode().split()]
        return Document(tables=[Table(0, [Region(0, 1, cells=cells)])])

    monkeypatch.setattr(registry, "_REGISTERED", [])
    fmt = registry.register(registry.Format("words", "words on one slot", (".words",), lambda head: False,
                                            ("structure",), read_overlapping))
    try:
        diagnostics = Diagnostics("t.words")
        doc = read_document(b"a b", fmt, "t.words", diagnostics=diagnostics)
        assert isinstance(doc, Document)
        assert [c.content for c in doc.tables[0].cells()] == ["a", "b"]
        assert doc.filename == "t.words"
        overlap = next(d for d in diagnostics if d.code == "slot-overlap")
        assert overlap.line is None  # the reader gave no lines
    finally:
        monkeypatch.setattr(registry, "_REGISTERED", [])
        registry._forget()


def test_the_shouting_plugin_returns_a_document_and_converts(tmp_path: Path, monkeypatch):
    from convertables import read
    from tests.plugins import shouting

    monkeypatch.setattr(registry, "_REGISTERED", [])
    registry.register(shouting.FORMAT)
    try:
        source = tmp_path / "t.shout"
        source.write_text("a|b\nc|d\n")
        assert isinstance(registry.get("shouting").reader()(b"a|b\n", Diagnostics(), ReadOptions(shout=True)), Document)
        doc = read(source)
        assert [c.content for c in doc.tables[0].cells()] == ["a", "b", "c", "d"]
    finally:
        monkeypatch.setattr(registry, "_REGISTERED", [])
        registry._forget()


def test_make_cell_makes_the_cell_the_constructor_makes():
    box = BBox(1.0, 2.0, 3.0, 4.0)
    assert make_cell(1, 2, 3, 4) == Cell(1, 2, 3, 4)
    assert (make_cell(1, 2, 3, 4, "x", 7, True, ("x",), box)
            == Cell(1, 2, 3, 4, "x", 7, box, True, (), ("x",)))
    made = make_cell(0, 0, 0, 0)
    for field in fields(Cell):  # a field Cell gains and make_cell does not set is unset here
        assert getattr(made, field.name) == getattr(Cell(0, 0, 0, 0), field.name), field.name


# -- one way to read a source, for convert, check and score ---------------------------------

def _failing_on_b(monkeypatch):
    """A reader bug on res/b-str.xml alone, wherever it is read from."""
    import convertables.files as files_module

    real = files_module.read_document

    def read_document_or_fail(data, fmt, name, *args, **named):
        if Path(name).name == "b-str.xml" and Path(name).parent.name == "res":
            raise ZeroDivisionError("division by zero")
        return real(data, fmt, name, *args, **named)

    monkeypatch.setattr(files_module, "read_document", read_document_or_fail)


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    gt, res = tmp_path / "gt", tmp_path / "res"
    for folder in (gt, res):
        folder.mkdir()
        for name in ("a", "b"):
            (folder / f"{name}-str.xml").write_bytes((SAMPLES / "icdar" / "sample-str.xml").read_bytes())
    return gt, res


def test_a_reader_bug_is_the_same_one_line_in_convert_check_and_score(tmp_path: Path, monkeypatch):
    from convertables.scoring import ScoreSettings, score_paths
    from tests.acceptance.test_cli import invoke

    gt, res = _corpus(tmp_path)
    _failing_on_b(monkeypatch)
    line = (f"{res / 'b-str.xml'}: error internal-error unexpected ZeroDivisionError: division by zero "
            "(hint: please report this with the input file)")

    converted = invoke("convert", res, "--to", "json", "-o", tmp_path / "out")
    assert converted.exit_code == 1 and "Traceback" not in converted.output
    assert line in converted.output.splitlines()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a-str.json"]

    checked = invoke("check", res)
    assert checked.exit_code == 1 and "Traceback" not in checked.output
    assert [text for text in checked.output.splitlines() if " error " in text] == [line]

    report = score_paths(gt, res, ScoreSettings(metric="structure"), jobs=1)
    assert report["errors"] == [line]
    # A bug of ours is not the result's fault: that document is not scored as an empty result.
    assert [(d["document"], d.get("counted")) for d in report["documents"]] == [("a", True), ("b", False)]


def test_convert_check_and_score_read_a_source_through_read_source(tmp_path: Path, monkeypatch):
    import convertables.reading as reading
    from convertables.scoring import ScoreSettings, score_paths
    from tests.acceptance.test_cli import invoke

    gt, res = _corpus(tmp_path)
    seen: list[str] = []
    real = reading.read_source

    def noting(source, *args, **named):
        seen.append(Path(str(source)).name)
        return real(source, *args, **named)

    for module in ("convertables.batch", "convertables.checks", "convertables.scoring.runner"):
        monkeypatch.setattr(f"{module}.read_source", noting)
    assert invoke("convert", res / "a-str.xml", "--to", "json", "-o", tmp_path / "a.json").exit_code == 0
    assert seen == ["a-str.xml"]
    assert invoke("check", res / "b-str.xml").exit_code == 0 and seen[1:] == ["b-str.xml"]
    score_paths(gt, res, ScoreSettings(metric="structure"), jobs=1)
    assert sorted(seen[2:]) == ["a-str.xml", "a-str.xml", "b-str.xml", "b-str.xml"]
