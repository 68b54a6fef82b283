"""PAGE XML tables (convertables/formats/pagexml.py): a real Transkribus table read
cell for cell, round trips, the writer, and the real command. The reader's rules
are in tests/cases/pagexml/."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import read
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import icdar, pagexml
from convertables.model import BBox, Cell, Document, Frame, Page, Region, Table
from tests.conftest import ROOT, corpus_path

runner = CliRunner()
SAMPLE = ("pagexml", "example_table.xml")

# The Transkribus export's 23 rows (its TableCells' TextLines, each line a line break; the
# cells' own TextEquivs are empty); every cell 1x1, column 0 the page numbers.
SAMPLE_ROWS = [
    ('', "Per't engelsch snauw scheepje the Mercury."),
    ('1-2', 'Een brief van den gouverneur Rijk Tulbagh en den raad aan\nde Kamer Amsterdam in dato 26 September 1763.'),
    ('3-8', "Een dito aan de vergadering van 17en in dato als even.\nPer't fransche oorlogschip le Comte d'Argenson."),
    ('9-12', 'Een dito aan de vergadering van 17en in dato 22 October\n1763.'),
    ('', "Per de fransche scheepen le Comte d'Artois, le Conde\nen le Massiac."),
    ('13-15', 'Een dito aan de vergadering van 17en in dato 12 November\n1763.'),
    ('16-17', 'Een dito aan de Kamer Amsterdam in dato als boven.\nPerütoengelsch schip The Royal George.'),
    ('18-23', 'Een dito aan de vergadering van 17en in dato 2 January\n1764.'),
    ('', "Per't vroegschip Baarsande."),
    ('24-26', 'Register der papieren.'),
    ('27-38', 'Origineele missive van den gouverneur Rijk Tulbagh en der\nraad aan de vergadering van 17en in dato 7 '
              'January 1764.'),
    ('39-41', 'Origineele missive van den gouverneur en raad aan de Ka¬\nmer Amsterdam in dato 7 January 1764.'),
    ('42-49', 'Copia missive van generaal en raden aan den gouverneur\nRijk Tulbagh beneevens den raad in dato 18 '
              'October 1763.'),
    ('', 'Dito dito in dato 1 November 1763.'),
    ('', 'Rapport van gecommitteerde zeelieden nopens de examina¬\ntie der journalen van het schip Baarsande.'),
    ('', 'Dito van gecommitteerdens uyt den raad van justitie die\nde afgescheepte wijnen geproeft en welbevonden '
         'hebben.'),
    ('-', 'Origineele missive van den gouverneur Rijk Tulbagh bene¬\nvens den raad aan de vergadering van 17en in '
          'dato 10\nJanuary 1764.'),
    ('56-57', 'Dito aan de Kamer Amsterdam in dato als boven.'),
    ('', "Per't engels snauw scheepje the Mercury."),
    ('58-60', 'Origineele missive van den gouverneur R. Tulbagh bene¬\nvens den raad aan de vergadering van 17en in '
              'dato 16\nJanuary 1764.'),
    ('', 'Per de engelsche scheepen the Plassey en the Harl\nof Asburnham.'),
    ('61-62', 'Dito dito aan de vergadering van 17en in dato 11 Febru¬\nary 1764.\nPer de schepen de Geertruyda, '
              'Burg, Bleyswijk, Blij-\ndorp en Oosthuysen.'),
    ('63-65', 'Register der papieren.'),
]


def _cells(table: Table) -> list[tuple]:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in table.cells())


def test_the_transkribus_table_is_read_cell_for_cell():
    doc = read(corpus_path(*SAMPLE))
    assert doc.filename == "0001_NL-HaNA_0.00.00_1206_0338_contrast.png"
    assert doc.pages == [Page(1, 9430.0, 7208.0, Frame.IMAGE)]
    (table,) = doc.tables
    assert table.page == 1
    expected = sorted((r, c, r, c, text, False) for r, row in enumerate(SAMPLE_ROWS) for c, text in enumerate(row))
    assert _cells(table) == expected
    # the outline and a cell's: their polygons in image pixels, as written
    assert table.regions[0].bbox.polygon == ((4936, 931), (4936, 6463), (8674, 6428), (8730, 900))
    first = next(c for c in table.cells() if (c.start_row, c.start_col) == (0, 1))
    assert first.bbox == BBox(5546, 900, 8730, 1084, Frame.IMAGE,
                              ((5546, 926), (5546, 1083), (8728, 1084), (8730, 900)))


def test_what_is_written_reads_back_as_it_was():
    doc = read(corpus_path(*SAMPLE))
    data = pagexml.write(doc, Diagnostics())
    assert b'xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15"' in data
    back = pagexml.read(data, Diagnostics()).document
    assert back.tables == doc.tables and back.pages == doc.pages and back.filename == doc.filename


def test_spans_headers_and_unknown_text_are_written_as_page_holds_them():
    box = BBox(0, 0, 10, 10, Frame.IMAGE)
    cells = [Cell(0, 0, 0, 1, "Head", bbox=box, header=True), Cell(1, 0, 2, 0, "a\nb", bbox=box),
             Cell(1, 1, 1, 1, None, bbox=box), Cell(2, 1, 2, 1, "no box")]
    doc = Document("scan.png", [Table(0, [Region(0, 1, None, cells=cells)])], [Page(1, 640, 480, Frame.IMAGE)])
    diagnostics = Diagnostics()
    back = pagexml.read(pagexml.write(doc, diagnostics), Diagnostics()).document
    assert "missing-bbox" in diagnostics.codes()
    # PAGE's TableCell has no header flag; a cell of unknown text reads back blank beside cells with text
    assert _cells(back.tables[0]) == [(0, 0, 0, 1, "Head", False), (1, 0, 2, 0, "a\nb", False),
                                      (1, 1, 1, 1, "", False)]
    assert back.pages == [Page(1, 640.0, 480.0, Frame.IMAGE)] and back.tables[0].regions[0].bbox[:4] == (0, 0, 10, 10)


def test_a_document_of_several_pages_is_refused():
    box = BBox(0, 0, 1, 1, Frame.IMAGE)
    doc = Document(tables=[Table(k, [Region(0, k + 1, box, cells=[Cell(0, 0, 0, 0, "x", bbox=box)])])
                           for k in range(2)])
    with pytest.raises(InputError) as caught:
        pagexml.write(doc, Diagnostics())
    assert caught.value.diagnostic.code == "pagexml-pages" and "pages 1, 2" in caught.value.diagnostic.message


def test_a_layout_only_file_has_unknown_text_and_is_written_without_text_equiv():
    doc = read(ROOT / "tests" / "cases" / "pagexml" / "layout-only-unknown-text" / "input.xml")
    data = pagexml.write(doc, Diagnostics())
    assert b"TextEquiv" not in data
    assert [c.content for c in pagexml.read(data, Diagnostics()).document.tables[0].cells()] == [None, None, None]


def test_the_command_converts_checks_and_scores_page_xml(tmp_path):
    sample = corpus_path(*SAMPLE)
    listed = runner.invoke(app, ["formats"])
    assert any(line.split()[:3] == ["pagexml", "yes", "yes"] for line in listed.output.splitlines()), listed.output
    out = tmp_path / "example-str.xml"
    converted = runner.invoke(app, ["convert", str(sample), "--to", "icdar", "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    gt = icdar.read(out.read_bytes(), Diagnostics()).document
    assert sorted((c.start_row, c.start_col, c.content) for c in gt.tables[0].cells()) == sorted(
        (r, c, text) for r, row in enumerate(SAMPLE_ROWS) for c, text in enumerate(row) if text)
    checked = runner.invoke(app, ["check", str(sample)])
    assert checked.exit_code == 0 and "empty-content" in checked.output, checked.output
    # scored against its own conversions: ICDAR 2013 (whose boxes say no frame) and the canonical JSON
    # (which keeps the image pixels, so that GriTS_Loc compares boxes)
    kept = tmp_path / "example.json"
    assert runner.invoke(app, ["convert", str(sample), "--to", "json", "-o", str(kept)]).exit_code == 0
    for gt, metric, key in ((out, "structure", "f1"), (out, "teds", "teds"), (kept, "grits", "grits_con"),
                            (kept, "grits", "grits_loc")):
        scored = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(sample), "--metric", metric,
                                     "--format", "json"])
        assert scored.exit_code == 0, scored.output
        assert json.loads(scored.stdout)["total"][key] == 1.0
    # and back: ICDAR 2013 in PDF points, converted to pixels of a 300 DPI scan
    page = tmp_path / "sample.xml"
    back = runner.invoke(app, ["convert", str(ROOT / "samples" / "icdar" / "sample-str.xml"), "--to", "pagexml",
                               "-o", str(page), "--dpi", "300", "--page-height", "792"])
    assert back.exit_code == 0, back.output
    assert "frame-foreign" not in back.output
    written = read(page)
    assert written.tables[0].cells()[0].bbox.frame is Frame.IMAGE
    scored = runner.invoke(app, ["score", "--gt", str(ROOT / "samples" / "icdar" / "sample-str.xml"),
                                 "--result", str(page), "--format", "json"])
    assert json.loads(scored.stdout)["total"]["f1"] == 1.0


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t "), max_size=12)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(1, 3), st.integers(1, 3), _TEXT,
                          st.integers(0, 5000), st.integers(0, 5000)), max_size=12))
def test_any_cells_read_back_as_written(raw):
    cells = [Cell(r, c, r + h - 1, c + w - 1, text, bbox=BBox(x, y, x + 10.5, y + 7, Frame.IMAGE))
             for r, c, h, w, text, x, y in raw]
    doc = Document("scan.png", [Table(0, [Region(0, 1, BBox(0, 0, 6000, 6000, Frame.IMAGE), cells=cells)])],
                   [Page(1, 6000, 6000, Frame.IMAGE)])
    back = pagexml.read(pagexml.write(doc, Diagnostics()), Diagnostics()).document
    # a blank text reads back empty (PAGE has no line for it); any other exactly, line breaks included
    got = [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.bbox[:4]) for c in back.tables[0].cells()]
    assert got == [(c.start_row, c.start_col, c.end_row, c.end_col, c.content if c.content.strip() else "",
                    c.bbox[:4]) for c in cells]
