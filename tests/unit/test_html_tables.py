"""The HTML table model as a module of its own (convertables.html_tables), as
the formats that carry HTML tables inside other text call it, and the small
helpers that readers share (byte-order marks, Camelot's names, integers)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from convertables import html_tables
from convertables.diagnostics import Diagnostics
from convertables.export_names import camelot_page
from convertables.grid import html_non_negative_int, non_negative_int
from convertables.text_encoding import split_bom

PACKAGE = Path(html_tables.__file__).parent


def test_read_tables_gives_cells_markup_headers_and_the_skeleton():
    html = ('<p>before</p>\n<table><tr><th colspan="2">Name</th></tr>\n'
            '<tr><td><b>A</b>  1</td><td rowspan="0">x</td></tr><tr><td>2</td></tr></table>\n'
            '<table><tr><td>only</td></tr></table>')
    diagnostics = Diagnostics("page.md")
    tables = html_tables.read_tables(html, diagnostics, page=4, first_id=7)
    assert [t.id for t in tables] == [7, 8]
    assert [t.page for t in tables] == [4, 4]
    cells = [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in tables[0].cells()]
    assert cells == [(0, 0, 0, 1, "Name", True), (1, 0, 1, 0, "A 1", False), (1, 1, 2, 1, "x", False),
                     (2, 0, 2, 0, "2", False)]
    assert tables[0].cells()[1].markup == ("<b>", "A", "</b>", " ", " ", "1")
    assert tables[0].html_structure == (
        "<tr>", "<th", ' colspan="2"', ">", "</th>", "</tr>", "<tr>", "<td>", "</td>", "<td", ' rowspan="0"', ">",
        "</td>", "</tr>", "<tr>", "<td>", "</td>", "</tr>")
    assert diagnostics.items == []


def test_read_tables_reads_bytes_and_places_findings_at_the_lines_of_the_larger_file():
    html = '\ufeff\n\n<table><tr><td colspan="2]">a</td></tr></table>'.encode("utf-16-le")
    html = codecs.BOM_UTF16_LE + html[2:]
    diagnostics = Diagnostics("page.md")
    (table,) = html_tables.read_tables(html, diagnostics, line_offset=10)
    assert [(c.start_col, c.end_col, c.content) for c in table.cells()] == [(0, 1, "a")]
    (finding,) = diagnostics.items
    assert (finding.code, finding.line) == ("html-span", 13)
    assert "colspan='2]'" in finding.message


def test_read_tables_on_text_without_tables_is_empty():
    assert html_tables.read_tables("just <em>text</em>", Diagnostics()) == []
    assert html_tables.read_tables("", Diagnostics()) == []


def test_read_page_says_the_generator_title_and_the_table_teds_scores():
    page = html_tables.read_page(
        '<!DOCTYPE html><html><head><meta name="Generator" content="Camelot"><title> A &amp; B </title></head>'
        '<body><div><table><tr><td>1</td></tr></table></div><table><tr><td>2</td></tr></table></body></html>',
        Diagnostics())
    assert (page.generator, page.title, page.reference_table) == ("Camelot", "A & B", 1)


def test_byte_order_marks_are_one_table_that_knows_utf32():
    assert split_bom(codecs.BOM_UTF32_LE + b"a\0\0\0") == ("utf-32-le", b"a\0\0\0")
    assert split_bom(codecs.BOM_UTF16_LE + b"a\0") == ("utf-16-le", b"a\0")
    assert split_bom(codecs.BOM_UTF8 + b"a") == ("utf-8", b"a")
    assert split_bom(b"a") == (None, b"a")


@pytest.mark.parametrize(("name", "sheet", "page"), [
    ("out/doc-page-3-table-1.csv", False, 3),
    ("doc-PAGE-12-Table-2.html", False, 12),
    ("page-3-table-1.csv", False, None),  # a file name: the document's name comes first
    ("page-5-table-2", True, 5),
    ("Page-5-table-2 copy", True, None),
    ("doc.csv", False, None),
])
def test_camelot_names_say_the_page(name: str, sheet: bool, page: int | None):
    assert camelot_page(name, sheet=sheet) == page


def test_the_two_integer_parsers_live_together_and_differ_as_documented():
    assert html_non_negative_int(" +2]") == 2 and non_negative_int(" +2]") is None
    assert html_non_negative_int("-1") is None and non_negative_int("-1") is None
    assert html_non_negative_int(" 7 ") == 7 == non_negative_int(" 7 ")


def test_no_module_is_over_800_lines():
    lengths = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
               for path in PACKAGE.rglob("*.py")}
    assert {name: n for name, n in lengths.items() if n > 800} == {}
