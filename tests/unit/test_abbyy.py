"""ABBYY FineReader XML (convertables/formats/abbyy.py): the real FineReader 8 export's table, the
command line, boxes added up from sizes, text, and what hostile files give. Reader cases are in
tests/cases/abbyy/, hostile files in tests/cases/hostile/ (``*abbyy*``)."""

from __future__ import annotations

from itertools import accumulate
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from convertables import registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError, Severity
from convertables.files import read, read_document
from convertables.formats.abbyy import cell_text, grid_lines
from convertables.model import BBox, Frame
from tests.conftest import CASES, ROOT, corpus_path

ABBYY = registry.FORMATS["abbyy"]
NS8 = "http://www.abbyy.com/FineReader_xml/FineReader8-schema-v2.xml"
runner = CliRunner()

# The table of fr8v2.xml (page 131), read off the XML by hand: each row's three cells, "" for
# a cell holding FineReader's dummy line; row 27's first cell spans two columns.
SAMPLE_ROWS = [
    ("Baldwin", "", "Dellinger"), ("Brice", "", "Duncan"), ("Bugg", "", "Durham, B. J."),
    ("Burger", "", "Durham, H. H."), ("Bussell, J", "A.", "Graham, T. L."), ("Callahan", "", "Griffin"),
    ("Carr", "", "Hadas"), ("Cheney", "", "Holliday"), ("Easley", "", "Holtzendorf, B. O"),
    ("Garrett", "", "Holtzendorf, H. L"), ("Gleeson", "", "Jones, D. W."), ("Grubbs", "", "Lanford"),
    ("Hartsfield", "", "Lozier"), ("Head", "", "Meckel, Mrs."), ("Hogan", "", "Meetze"),
    ("Ingram", "", "Miller, W. H."), ("McDonald", "", "Patillo"), ("Levie", "", "Powell"),
    ("Link", "", "Summerlin"), ("Maddox", "", "Taylor, R."), ("Munford", "", "Todd"),
    ("Parks, M.", "M.", "Toomey"), ("Parsons", "", "Tuggle"), ("Reed", "", "White, Joel"),
    ("Sanders", "", "Withers"), ("Wells\nWesley", "", "Zetterower\nBussell, Lee"), ("Wheless", "", "Chait"),
    ("White, Donald", None, "Jones, P. H."), ("White, E.", "I.", "McKemie"), ("Anderson,", "E. D.", "Powell, W. H."),
    ("Anderson,", "F. W.", "Strickland"), ("Andrews", "", "Turner, C. F."), ("Bridges", "", "Wade, C. R."),
]
# the rows' heights (every cell of a row has its row's), and the columns' widths: 168, 210, 424
SAMPLE_HEIGHTS = [44, 39, 44, 43, 40, 42, 42, 46, 40, 41, 41, 43, 43, 42, 45, 41, 41, 41, 42, 44, 40, 45, 42, 39, 42,
                  84, 42, 43, 42, 42, 42, 42, 48]


def _sample() -> Path:
    return corpus_path("exports", "abbyy", "fr8v2.xml")


def _read(data: bytes):
    diagnostics = Diagnostics("test.xml")
    return read_document(data, ABBYY, "test.xml", diagnostics=diagnostics), diagnostics


def _doc(rows: str, block='l="0" t="0" r="300" b="100"', ns=NS8) -> bytes:
    return (f'<document xmlns="{ns}"><page width="1000" height="800" resolution="150">'
            f'<block blockType="Table" {block}>{rows}</block></page></document>').encode()


# -- the real export -------------------------------------------------------------------------

def test_the_real_export_is_recognised_and_its_table_read_cell_for_cell():
    path = _sample()
    assert registry.detect(path, path.read_bytes()[:65536]).name == "abbyy"
    diagnostics = Diagnostics()
    doc = read(path, diagnostics=diagnostics)
    assert list(diagnostics) == []
    assert doc.metadata == {"generator": "FineReader 8.0", "schema": "FineReader8-schema-v2"}
    assert len(doc.pages) == 186 and [p.number for p in doc.pages] == list(range(1, 187))
    page = doc.pages[130]
    assert (page.number, page.width, page.height, page.frame, page.dpi) == (131, 2182, 3093, Frame.IMAGE, 300)
    (table,) = doc.tables
    (region,) = table.regions
    assert (table.id, region.page) == (0, 131)
    assert region.bbox == BBox(640, 1030, 1442, 2467, Frame.IMAGE)

    expected = []
    for row, texts in enumerate(SAMPLE_ROWS):
        if texts[1] is None:
            expected += [(row, 0, row, 1, texts[0]), (row, 2, row, 2, texts[2])]
        else:
            expected += [(row, col, row, col, text) for col, text in enumerate(texts)]
    got = [(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in region.cells]
    assert got == expected  # document order: row by row, left to right
    assert len(got) == 98 and sum(1 for c in region.cells if c.content == "") == 27
    assert not any(c.header for c in region.cells)

    # boxes: columns 640 | 808 | 1018 | 1442 (168, 210, 424 wide), rows from 1030 by their heights
    tops = list(accumulate(SAMPLE_HEIGHTS, initial=1030))
    assert tops[-1] == 2467  # the heights add up to the block's exactly
    edges = [640, 808, 1018, 1442]
    for cell in region.cells:
        assert cell.bbox == BBox(edges[cell.start_col], tops[cell.start_row], edges[cell.end_col + 1],
                                 tops[cell.end_row + 1], Frame.IMAGE)
    by_text = {c.content: c.bbox[:4] for c in region.cells}
    assert by_text["Baldwin"] == (640, 1030, 808, 1074)
    assert by_text["White, Donald"] == (640, 2208, 1018, 2251)  # colSpan="2" width="378"
    assert by_text["Wells\nWesley"] == (640, 2082, 808, 2166)  # two paragraphs, height 84
    assert by_text["Wade, C. R."] == (1018, 2419, 1442, 2467)  # the block's bottom-right corner


def test_every_recognised_line_of_the_real_table_lies_in_its_cells_box():
    root = etree.parse(str(_sample())).getroot()
    (block,) = [b for b in root.iter(f"{{{NS8}}}block") if b.get("blockType") == "Table"]
    cells = read(_sample()).tables[0].regions[0].cells
    elements = list(block.iter(f"{{{NS8}}}cell"))
    lines = 0
    for cell, element in zip(cells, elements, strict=True):
        for line in element.iter(f"{{{NS8}}}line"):
            left, top, right, bottom = (int(line.get(k)) for k in "ltrb")
            if left == top == right == bottom == 0:  # the dummy line of an empty cell
                assert cell.content == ""
                continue
            box = cell.bbox
            assert box.x1 <= left <= right <= box.x2 and box.y1 <= top <= bottom <= box.y2, (cell.content, line.attrib)
            lines += 1
    assert lines == 73


def test_convert_to_icdar_needs_no_from(tmp_path):
    out = tmp_path / "fr8v2-str.xml"
    result = runner.invoke(app, ["convert", str(_sample()), "--to", "icdar", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert 'page="131"' in text and "<content>White, Donald</content>" in text
    back = read(out, "icdar")
    cells = {(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in back.tables[0].cells()}
    assert (27, 0, 27, 1, "White, Donald") in cells and (25, 2, 25, 2, "Zetterower\nBussell, Lee") in cells
    assert len(cells) == 98 - 27  # blank cells are left out of ICDAR 2013 output (--keep-blank keeps them)


# -- recognition -----------------------------------------------------------------------------

@pytest.mark.parametrize("schema", ["FineReader6-schema-v1", "FineReader8-schema-v2", "FineReader10-schema-v1"])
def test_the_sniffer_asks_for_the_finereader_namespace(schema):
    head = f'<?xml version="1.0"?>\n<document xmlns="http://www.abbyy.com/FineReader_xml/{schema}.xml">'.encode()
    assert registry.detect(Path("x.xml"), head).name == "abbyy"
    # an ICDAR 2013 document, and a FineReader one without its namespace, are not claimed
    assert registry.detect(Path("x.xml"), b'<document filename="a.pdf"><table id="0">').name == "icdar"
    assert registry.detect(Path("x.xml"), b'<document producer="FineReader 8.0"><page>').name == "icdar"
    assert registry.detect(Path("x.xml"), (ROOT / "samples" / "icdar" / "sample-str.xml").read_bytes()).name == "icdar"


def test_the_cases_schemas_pages_and_resolution():
    doc = read(CASES / "abbyy" / "fr10-recognition-variants" / "input.xml")  # detected, not named
    assert doc.metadata["schema"] == "FineReader10-schema-v1"
    assert [(p.number, p.width, p.height, p.dpi, p.frame) for p in doc.pages] == [
        (1, 2550, 3300, 300, Frame.IMAGE), (2, 2550, 3300, 300, Frame.IMAGE)]
    doc = read(CASES / "abbyy" / "several-tables-and-pages" / "input.xml")
    assert [t.id for t in doc.tables] == [0, 1, 2] and [t.page for t in doc.tables] == [2, 3, 3]
    assert len(doc.pages) == 3 and doc.tables[2].regions[0].bbox == BBox(100, 700, 300, 800, Frame.IMAGE)


# -- boxes -----------------------------------------------------------------------------------

def test_boxes_add_up_past_cells_held_from_rows_above():
    doc = read(CASES / "abbyy" / "rowspan-colspan-placement" / "input.xml")
    boxes = {c.content: c.bbox[:4] for c in doc.tables[0].cells()}
    # widths 100, 200, 300 from l=100; rows 60 high from t=200
    assert boxes == {"A": (100, 200, 200, 320), "B": (200, 200, 700, 260), "C": (200, 260, 400, 320),
                     "D": (400, 260, 700, 380), "E": (100, 320, 400, 380)}
    boxes = {c.content: c.bbox[:4] for c in doc.tables[1].cells()}
    assert boxes["e"] == (100, 600, 200, 700) and boxes["f"] == (300, 600, 400, 700)  # c's column passed over
    assert boxes["h"] == (200, 700, 300, 800) and boxes["i"] == (300, 700, 400, 800)


def test_a_grid_line_no_cell_ends_at_is_estimated_and_said_so():
    # both cells of row 0 span two rows; row 1's cell (a third column) starts at a line none ends at
    rows = ('<row><cell rowSpan="2" width="100" height="100"/><cell rowSpan="2" width="100" height="100"/></row>'
            '<row><cell width="100" height="50"/></row>')
    doc, diagnostics = _read(_doc(rows))
    assert [c.bbox[:4] for c in doc.tables[0].cells()] == [(0, 0, 100, 100), (100, 0, 200, 100), (200, 50, 300, 100)]
    assert "abbyy-geometry" in diagnostics.codes()


def test_boxes_out_of_their_block_are_said_so():
    doc, diagnostics = _read(_doc('<row><cell width="250" height="100"/><cell width="250" height="100"/></row>'))
    assert doc.tables[0].cells()[1].bbox[:4] == (250, 0, 500, 100)
    (note,) = [d for d in diagnostics if d.code == "abbyy-geometry"]
    assert note.severity is Severity.INFO and "1 cell box(es)" in note.message


def test_grid_lines():
    assert grid_lines([(0, 1, 10.0), (1, 2, 20.0), (0, 2, 35.0), (2, 3, 5.0)], 100.0) == ({0: 100, 1: 110, 2: 130}, 0)
    # line 1: no cell ends there; the cell across it gives its share
    assert grid_lines([(0, 3, 90.0), (1, 2, 10.0)], 0.0) == ({0: 0, 1: 30}, 1)
    # no size at all: the line before
    assert grid_lines([(0, 1, None), (1, 2, 10.0)], 5.0) == ({0: 5, 1: 5}, 1)


# -- text ------------------------------------------------------------------------------------

def test_text_from_runs_characters_and_lines():
    cell = etree.fromstring(
        '<cell><text><par><line><formatting>\n<charParams>a</charParams>\n<charParams> </charParams>\n'
        '<charParams><charRecVariants><charRecVariant>8</charRecVariant></charRecVariants>B</charParams>\n'
        '<wordRecVariants><wordRecVariant><variantText><charParams>x</charParams></variantText>'
        '</wordRecVariant></wordRecVariants></formatting></line>'
        '<line baseline="2147483647" l="0" t="0" r="0" b="0"></line>'
        '<line><formatting>  c  </formatting><formatting>d</formatting></line></par>'
        '<par><line>bare</line></par></text></cell>')
    assert cell_text(cell) == "a B\nc  d\nbare"
    assert cell_text(etree.fromstring("<cell/>")) == ""


# -- what is wrong ---------------------------------------------------------------------------

def test_hostile_spans_are_read_as_one_or_cut_and_warned():
    doc, diagnostics = _read((CASES / "hostile" / "ok--abbyy-huge-spans.xml").read_bytes())
    assert [(c.start_row, c.start_col, c.end_row, c.end_col) for c in doc.tables[0].cells()] == [
        (0, 0, 1, 999), (0, 1000, 0, 1999), (1, 1000, 1, 1000)]
    assert diagnostics.codes().count("abbyy-span") == 4
    doc, diagnostics = _read((CASES / "hostile" / "ok--abbyy-negative-zero-and-garbage-spans.xml").read_bytes())
    assert all(c.row_span == c.col_span == 1 for c in doc.tables[0].cells())
    assert diagnostics.codes().count("abbyy-span") == 11
    assert {d.severity for d in diagnostics} == {Severity.WARNING}


def test_widths_that_are_not_numbers_leave_boxes_out():
    doc, diagnostics = _read((CASES / "hostile" / "bad-number--abbyy-non-numeric-widths.xml").read_bytes())
    assert (doc.pages[0].width, doc.pages[0].height, doc.pages[0].dpi) == (None, None, None)
    first, second = doc.tables
    assert [c.bbox is not None for c in first.cells()] == [False] * 5 + [True]
    assert second.regions[0].bbox is None and second.cells()[0].bbox is None  # no origin: no boxes
    assert diagnostics.codes().count("bad-number") == 12 and "missing-attribute" in diagnostics.codes()


@pytest.mark.parametrize("data, code", [
    (b'<document xmlns="http://www.abbyy.com/FineReader_xml/FineReader8-schema-v2.xml"><page/></document>',
     "abbyy-no-table"),
    (b'<document xmlns="http://www.abbyy.com/FineReader_xml/FineReader8-schema-v2.xml"><page>'
     b'<block blockType="Table" l="1" t="2" r="3" b="4"></block></page></document>', "abbyy-empty-table"),
    (b'<document xmlns="urn:other"><page/></document>', "abbyy-namespace"),
])
def test_what_is_read_with_a_note(data, code):
    _, diagnostics = _read(data)
    assert code in diagnostics.codes()


@pytest.mark.parametrize("data, code", [
    (b'<Page xmlns="http://www.abbyy.com/FineReader_xml/FineReader8-schema-v2.xml"/>', "abbyy-root"),
    (b"", "xml-empty"),
    ((CASES / "hostile" / "xml-entity--abbyy-xxe-local-file.xml").read_bytes(), "xml-entity"),
    ((CASES / "hostile" / "abbyy-too-large--spans-held-over-a-thousand-rows.xml").read_bytes(), "abbyy-too-large"),
])
def test_what_is_refused(data, code):
    with pytest.raises(InputError) as caught:
        _read(data)
    assert caught.value.diagnostic.code == code


def test_the_too_large_file_is_one_the_limit_just_refuses():
    # the same shape a row shorter passes (999 rows each passing 1001 spanning cells: 999,999 times)
    data = (CASES / "hostile" / "abbyy-too-large--spans-held-over-a-thousand-rows.xml").read_bytes()
    cut = data.rsplit(b"<row>", 1)[0] + b"</block></page></document>"
    doc, _ = _read(cut)
    assert len(doc.tables[0].cells()) == 1001 + 999
