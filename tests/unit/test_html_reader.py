"""The HTML reader on what its data-driven cases cannot hold: failures, empty
documents, and pages nested deeper than libxml2 builds its own tree."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.formats import html
from convertables.grid import validate_document
from tests.conftest import CASES


def _read(data: bytes):
    diagnostics = Diagnostics("page.html")
    return read_document(data, html.FORMAT, "<input>", diagnostics=diagnostics), diagnostics


def _cells(table) -> list:
    return sorted([c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header] for c in table.cells())


@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n "], ids=["empty", "whitespace"])
def test_an_empty_or_blank_file_is_html_empty(data: bytes):
    with pytest.raises(InputError) as error:
        _read(data)
    assert error.value.diagnostic.code == "html-empty"


@pytest.mark.parametrize("data", [
    b"<!-- nothing but a comment -->",
    b"  <!-- a -->\n<!-- b -->\n",
    b"<!DOCTYPE html>\n",
    b"<?xml version='1.0' encoding='utf-8'?>",
    b"\xff\xfe" + "   ".encode("utf-16-le"),  # blank, but only once decoded
], ids=["comment", "comments", "doctype", "xml-declaration", "utf16-blank"])
def test_a_document_without_elements_reads_as_no_tables(data: bytes):
    # lxml's parser gives no root element here (lxml.html would raise "Document is empty")
    doc, diagnostics = _read(data)
    assert doc.tables == [] and doc.filename is None and not doc.metadata
    assert diagnostics.codes() == []


def test_title_is_the_filename_and_entities_are_text():
    doc, _ = _read((CASES / "html" / "comments-entities-and-tails" / "input.html").read_bytes())
    assert doc.filename == "Tables & more"
    assert doc.metadata == {"generator": "Hand & Co", "teds_table": "0"}  # (the table TEDS's reference scores)


def test_an_xml_declaration_naming_another_encoding_is_not_obeyed_twice():
    # decode() reads the bytes as UTF-8; the declaration inside must not make the parser re-decode them
    doc, _ = _read("<?xml version='1.0' encoding='iso-8859-1'?><table><tr><td>café</td></tr></table>".encode())
    assert _cells(doc.tables[0]) == [[0, 0, 0, 0, "café", False]]


def test_control_characters_and_nul_do_not_stop_the_reader():
    doc, _ = _read(b"<table><tr><td>a\x00b</td><td>c\x01d</td></tr></table>")
    assert _cells(doc.tables[0]) == [[0, 0, 0, 0, "a\ufffdb", False], [0, 1, 0, 1, "c\x01d", False]]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [300, 20_000])
def test_nesting_deeper_than_libxml2s_tree_keeps_the_rest_of_the_page(depth: int):
    # libxml2 stops building its tree at 256 nested elements and drops what follows
    page = ("<table><tr><td>" + "<div>a" * depth + "deep" + "</div>" * depth + "tail</td><td>next</td></tr></table>"
            "<table><tr><td>second table</td></tr></table>")
    doc, diagnostics = _read(page.encode())
    assert [len(t.cells()) for t in doc.tables] == [2, 1]
    first, second = _cells(doc.tables[0])
    assert first[4] == "a\n" * (depth - 1) + "adeep\ntail"  # the innermost <div> holds "a" and "deep"
    assert second == [0, 1, 0, 1, "next", False]
    assert _cells(doc.tables[1]) == [[0, 0, 0, 0, "second table", False]]
    assert diagnostics.codes() == []


_SPAN = st.sampled_from([None, "0", "1", "2", "3", "5", "-1", "x", " 2", "1000000"])


@st.composite
def _html_tables(draw):
    """Tables as pages write them, and as they should not: row groups, loose
    cells, spans of every kind (zero, past the group's end, invalid)."""
    parts = ["<html><body>"]
    for _ in range(draw(st.integers(1, 3))):
        parts.append("<table>")
        for _ in range(draw(st.integers(0, 3))):
            group = draw(st.sampled_from(["", "thead", "tbody", "tfoot"]))
            parts.append(f"<{group}>" if group else "")
            for _ in range(draw(st.integers(0, 4))):
                loose = draw(st.booleans()) and not group
                parts.append("" if loose else "<tr>")
                for _ in range(draw(st.integers(0, 4))):
                    tag = draw(st.sampled_from(["td", "th"]))
                    colspan, rowspan = draw(_SPAN), draw(_SPAN)
                    attributes = "".join(f' {name}="{value}"' for name, value in
                                         (("colspan", colspan), ("rowspan", rowspan)) if value is not None)
                    parts.append(f"<{tag}{attributes}>x</{tag}>")
                parts.append("" if loose else "</tr>")
            parts.append(f"</{group}>" if group else "")
        parts.append("</table>")
    return "".join(parts + ["</body></html>"]).encode()


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_html_tables())
def test_the_table_model_reports_every_grid_fault_the_grid_check_finds(data):
    """Only tables whose formation counted a fault get the grid check; the full
    check of every table must find nothing more."""
    doc, diagnostics = _read(data)
    full = Diagnostics("page.html")
    validate_document(doc, full)
    grid_codes = {"slot-overlap", "span-inverted", "grid-negative", "duplicate-id"}
    assert [d.message for d in diagnostics if d.code in grid_codes] == [d.message for d in full]


@pytest.mark.parametrize("attribute", ["STYLE", "Style", "sTyLe"])
def test_a_page_break_in_an_attribute_named_in_capitals_still_counts(attribute: str):
    # libxml2 lower-cases attribute names; the quick look for "style" in the page must see these too
    page = (f'<table><tr><td>a</td></tr></table><div {attribute}="PAGE-BREAK-BEFORE: ALWAYS"></div>'
            '<table><tr><td>b</td></tr></table>')
    doc, _ = _read(page.encode())
    assert [t.page for t in doc.tables] == [1, 2]
