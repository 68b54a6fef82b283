"""DocTags with OTSL tables (convertables/formats/doctags.py): docling's own DocTags of
a paper read as its DocTags JSON of the same paper reads, the OTSL span rules both
ways they are written, round trips, and the real command. The reader's rules are in
tests/cases/doctags/."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import read
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats import doctags, icdar
from convertables.geometry import PageFrame, convert_box
from convertables.model import BBox, Cell, Document, Frame, Region, Table
from tests.conftest import corpus_path

runner = CliRunner()
PAPER_DOCTAGS = ("doctags", "2203.01017v2.doctags.txt")
PAPER_JSON = ("doctags", "2203.01017v2.json")


def _read(text: str) -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics()
    return doctags.read(text.encode(), diagnostics), diagnostics


def _cells(table: Table, blank: bool = True) -> list[tuple]:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in table.cells()
                  if blank or c.content)


def test_the_papers_doctags_tables_are_its_json_tables():
    tags = read(corpus_path(*PAPER_DOCTAGS), "doctags")
    docling = read(corpus_path(*PAPER_JSON), "docling")
    assert len(tags.tables) == len(docling.tables) == 7
    assert [t.page for t in tags.tables] == [t.page for t in docling.tables] == [1, 1, 4, 7, 7, 7, 13]
    for ours, theirs in zip(tags.tables, docling.tables):
        # text, spans, places and header flags of every cell with text; the JSON leaves out what OTSL writes
        # as <ecel> (a slot no cell covers in docling's grid), which reads as a blank cell
        assert _cells(ours, blank=False) == _cells(theirs)
        with_text = {(c.start_row, c.start_col) for c in theirs.cells() if c.content}
        assert all((c.start_row, c.start_col) not in with_text for c in ours.cells() if not c.content)
        # the outlines agree to the location grid's step (1/500 of the page, docling rounds)
        page = PageFrame(None, 792.0, 612.0)
        expected = convert_box(theirs.regions[0].bbox, Frame.PAGE, page)
        got = ours.regions[0].bbox
        assert got.frame is Frame.PAGE
        assert max(abs(a - b) for a, b in zip(got[:4], expected[:4])) <= 1 / 500
    # a cell spanning three columns, and the empty corner OTSL writes as <ecel>
    assert (0, 1, 0, 3, "1 2 1", False) in _cells(tags.tables[1])
    assert (0, 0, 0, 0, "", False) in _cells(tags.tables[2])
    assert sum(len(t.cells()) for t in tags.tables) == 153 and tags.tables[6].cells() == []


def test_docling_style_and_paper_style_spans_read_alike():
    # a 2 x 2 cell at (1, 1) beside and below 1 x 1 cells: docling writes every covered slot xcel,
    # the OTSL paper lcel in its first row, ucel in its first column
    docling_style = "<otsl><fcel>a<fcel>b<fcel>c<nl><fcel>d<fcel>X<xcel><nl><fcel>e<xcel><xcel><nl></otsl>"
    paper_style = "<otsl><fcel>a<fcel>b<fcel>c<nl><fcel>d<fcel>X<lcel><nl><fcel>e<ucel><xcel><nl></otsl>"
    expected = [(0, 0, 0, 0, "a", False), (0, 1, 0, 1, "b", False), (0, 2, 0, 2, "c", False),
                (1, 0, 1, 0, "d", False), (1, 1, 2, 2, "X", False), (2, 0, 2, 0, "e", False)]
    for text in (docling_style, paper_style):
        doc, diagnostics = _read(text)
        assert _cells(doc.tables[0]) == expected and diagnostics.codes() == []
    # a one-row cell written with lcel, and a 2 x 2 cell starting below-left of it (docling's tokens)
    doc, _ = _read("<otsl><ecel><fcel>wide<lcel><nl><fcel>tall<xcel><ecel><nl><xcel><xcel><ecel><nl></otsl>")
    assert _cells(doc.tables[0]) == [(0, 0, 0, 0, "", False), (0, 1, 0, 2, "wide", False),
                                     (1, 0, 2, 1, "tall", False), (1, 2, 1, 2, "", False), (2, 2, 2, 2, "", False)]


def test_what_is_written_is_what_docling_writes():
    box = BBox(0.1, 0.2, 0.5, 0.4, Frame.PAGE)
    cells = [Cell(0, 0, 0, 0, "Name", header=True), Cell(0, 1, 0, 2, "Scores", header=True),
             Cell(1, 0, 1, 0, "Ann", header=True), Cell(1, 1, 2, 2, "big", bbox=BBox(0.2, 0.3, 0.4, 0.35, Frame.PAGE)),
             Cell(2, 0, 2, 0, "   "), Cell(3, 1, 3, 1, "7")]
    doc = Document(tables=[Table(0, [Region(0, 1, box, cells=cells)]), Table(1, [Region(0, 3, None, cells=[
        Cell(0, 0, 1, 0, "down")])])])
    written = doctags.write(doc, Diagnostics()).decode()
    assert written == ("<doctag>\n"
                       "<otsl><loc_50><loc_100><loc_250><loc_200><ched>Name<ched>Scores<lcel><nl>"
                       "<rhed>Ann<fcel><loc_100><loc_150><loc_200><loc_175>big<xcel><nl>"
                       "<ecel><xcel><xcel><nl><ecel><fcel>7<ecel><nl></otsl>\n"
                       "<page_break>\n<page_break>\n"
                       "<otsl><fcel>down<nl><ucel><nl></otsl>\n</doctag>\n")
    back = doctags.read(written.encode(), Diagnostics())
    assert [t.page for t in back.tables] == [1, 3]
    assert _cells(back.tables[0], blank=False) == [(0, 0, 0, 0, "Name", True), (0, 1, 0, 2, "Scores", True),
                                                   (1, 0, 1, 0, "Ann", True), (1, 1, 2, 2, "big", False),
                                                   (3, 1, 3, 1, "7", False)]
    assert back.tables[0].regions[0].bbox == box
    assert next(c for c in back.tables[0].cells() if c.content == "big").bbox == BBox(0.2, 0.3, 0.4, 0.35, Frame.PAGE)


def test_blank_header_cells_and_holes_in_the_header_rows_stay_header_cells():
    """An ecel is no header: a blank header cell, or a hole among the header rows' cells, written as
    one would make its row a body row (TEDS's <thead> changes)."""
    cells = [Cell(0, 1, 0, 1, "Tags", header=True), Cell(0, 2, 0, 2, "", header=True),
             Cell(1, 0, 1, 0, "a"), Cell(1, 1, 1, 1, ""), Cell(1, 2, 1, 2, "2")]
    written = doctags.write(Document(tables=[Table(0, [Region(0, 1, cells=cells)])]), Diagnostics())
    assert b"<otsl><ched><ched>Tags<ched><nl><fcel>a<ecel><fcel>2<nl></otsl>" in written
    back = doctags.read(written, Diagnostics()).tables[0]
    assert [(c.start_row, c.start_col, c.content, c.header) for c in back.cells()] == [
        (0, 0, "", True), (0, 1, "Tags", True), (0, 2, "", True), (1, 0, "a", False), (1, 1, "", False),
        (1, 2, "2", False)]


def test_where_docling_style_would_read_back_as_other_cells_the_papers_style_is_written():
    """Two 2 x 2 cells over a 3 x 2 and a 3 x 3 cell: docling's style writes every covered slot xcel, and
    the upper right cell would read as reaching down through the lower right one's xcel slots."""
    cells = [Cell(0, 0, 1, 2, "a"), Cell(0, 3, 1, 4, "b"), Cell(2, 0, 4, 1, "c"), Cell(2, 2, 4, 4, "d")]
    written = doctags.write(Document(tables=[Table(0, [Region(0, 1, cells=cells)])]), Diagnostics())
    assert b"<otsl><fcel>a<lcel><lcel><fcel>b<lcel><nl><ucel><xcel><xcel><ucel><xcel><nl>" in written
    back = doctags.read(written, Diagnostics()).tables[0]
    assert [(c.start_row, c.start_col, c.end_row, c.end_col) for c in back.cells()] == [
        (0, 0, 1, 2), (0, 3, 1, 4), (2, 0, 4, 1), (2, 2, 4, 4)]
    plain = [Cell(0, 0, 1, 1, "X"), Cell(0, 2, 0, 2, "y"), Cell(1, 2, 1, 2, "z")]
    assert b"<fcel>X<xcel><fcel>y<nl><xcel><xcel><fcel>z<nl>" in doctags.write(
        Document(tables=[Table(0, [Region(0, 1, cells=plain)])]), Diagnostics())  # (docling's, where it reads back)


@st.composite
def _grids(draw):
    """Tables whose cells tile the grid (spans included), as OTSL can hold them."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    taken: set[tuple[int, int]] = set()
    cells = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in taken:
                continue
            height = draw(st.integers(1, rows - r))
            width = 1
            while c + width < cols and (r, c + width) not in taken and width < draw(st.integers(1, 3)):
                width += 1
            if any((y, x) in taken for y in range(r, r + height) for x in range(c, c + width)):
                height = 1
            taken.update((y, x) for y in range(r, r + height) for x in range(c, c + width))
            text = draw(st.sampled_from(["", "a", "b c", "12.5"]))
            cells.append(Cell(r, c, r + height - 1, c + width - 1, text, header=draw(st.booleans()) and bool(text)))
    return cells


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_grids())
def test_any_tiling_reads_back_as_written(cells):
    doc = Document(tables=[Table(0, [Region(0, 1, cells=cells)])])
    back = doctags.read(doctags.write(doc, Diagnostics()), Diagnostics())
    assert [(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in back.tables[0].cells()] == [
        (c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in cells]


def test_the_command_converts_checks_and_scores_doctags(tmp_path):
    paper = corpus_path(*PAPER_DOCTAGS)
    listed = runner.invoke(app, ["formats"])
    assert any(line.split()[:3] == ["doctags", "yes", "yes"] for line in listed.output.splitlines()), listed.output
    out = tmp_path / "paper-str.xml"
    converted = runner.invoke(app, ["convert", str(paper), "--to", "icdar", "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    back = icdar.read(out.read_bytes(), Diagnostics()).document
    assert [t.page for t in back.tables] == [1, 1, 4, 7, 7, 7, 13]
    assert runner.invoke(app, ["check", str(paper)]).exit_code == 0
    # docling's DocTags scored against its own JSON of the paper: the same tables
    for metric, key in (("structure", "f1"), ("teds", "teds"), ("grits", "grits_con")):
        scored = runner.invoke(app, ["score", "--gt", str(corpus_path(*PAPER_JSON)), "--result", str(paper),
                                     "--metric", metric, "--format", "json"])
        assert scored.exit_code == 0, scored.output
        report = json.loads(scored.stdout)
        if metric != "teds":
            assert report["total"][key] == 1.0, scored.stdout
            continue
        # TEDS builds its tree from the grid: table 2's corner, a hole in the JSON (docling leaves the cell
        # out) and a blank cell in DocTags (<ecel>), is the one difference
        scores = [t["teds"] for t in report["documents"][0]["tables"]]
        assert scores[:2] + scores[3:] == [1.0] * 6 and 0.9 < scores[2] < 1.0
    # and written: the JSON's boxes converted to fractions of its 612 x 792 pages
    written = tmp_path / "paper.doctags"
    result = runner.invoke(app, ["convert", str(corpus_path(*PAPER_JSON)), "--to", "doctags", "-o", str(written),
                                 "--page-width", "612", "--page-height", "792"])
    assert result.exit_code == 0, result.output
    assert "frame-foreign" not in result.output
    again = read(written)
    assert [_cells(t, blank=False) for t in again.tables] == [_cells(t, blank=False)
                                                             for t in read(paper).tables]
