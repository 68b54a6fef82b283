"""Property tests: generated documents survive every round trip their format can hold."""

from __future__ import annotations

import unicodedata

import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from convertables import ReadOptions, WriteOptions, grid
from convertables.diagnostics import Diagnostics
from convertables.formats import canonical_json, icdar
from convertables.model import BBox, Cell, Document, Frame, Instruction, Page, Region, Table
from convertables.validation import validate_json, validate_xml

# XML 1.0 cannot carry control characters, and it normalises CR to LF on reading.
xml_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"),
    max_size=12,
) | st.sampled_from(["a\nb", "\t", "  x  "])
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
coordinate = st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 3)) | st.integers(-5000, 5000).map(float)


@st.composite
def boxes(draw, frame: Frame | None = None, polygons: bool = True) -> BBox:
    x1, x2 = sorted((draw(coordinate), draw(coordinate)))
    y1, y2 = sorted((draw(coordinate), draw(coordinate)))
    frame = frame or draw(st.sampled_from(list(Frame)))
    polygon = None
    if polygons and draw(st.booleans()):
        polygon = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
    return BBox(x1, y1, x2, y2, frame, polygon)


@st.composite
def cells(draw, text, frame, polygons, instructions, markup=False) -> Cell:
    row, col = draw(st.integers(0, 30)), draw(st.integers(0, 30))
    return Cell(
        start_row=row,
        start_col=col,
        end_row=row + draw(st.integers(0, 3)),
        end_col=col + draw(st.integers(0, 3)),
        content=draw(st.none() | text),
        id=draw(st.none() | st.integers(0, 10_000)),
        bbox=draw(st.none() | boxes(frame, polygons)),
        header=draw(st.booleans()) if frame is None else False,
        instructions=tuple(draw(st.lists(instructions, max_size=2))),
        markup=draw(st.none() | st.lists(tokens, max_size=5).map(tuple)) if markup else None,
    )


tokens = st.sampled_from(["<b>", "</b>", "<sup>", " ", "\n"]) | any_text
"""A cell's markup tokens (Cell.markup) and a table's HTML skeleton (Table.html_structure)."""

instruction = st.builds(Instruction, st.integers(-5, 10_000), st.none() | st.integers(-1, 50))


@st.composite
def documents(draw, text=any_text, frame: Frame | None = None, polygons=True, pages=True, markup=False) -> Document:
    """Generated documents; ``markup``: with cells' markup tokens and tables' HTML
    skeletons (which only the canonical JSON and HTML-like formats hold)."""
    tables = []
    for t in range(draw(st.integers(0, 3))):
        regions = []
        for r in range(draw(st.integers(1, 2))):
            regions.append(
                Region(
                    id=draw(st.integers(0, 50)),
                    page=draw(st.integers(1, 400)),
                    bbox=draw(st.none() | boxes(frame, polygons)),
                    row_increment=draw(st.integers(0, 40)),
                    col_increment=draw(st.integers(0, 40)),
                    cells=draw(st.lists(cells(text, frame, polygons, instruction, markup), max_size=6)),
                    instructions=tuple(draw(st.lists(instruction, max_size=2))),
                )
            )
        structure = draw(st.none() | st.lists(tokens, max_size=6).map(tuple)) if markup else None
        tables.append(Table(draw(st.integers(0, 100)), regions, structure))
    doc_pages = []
    if pages:
        doc_pages = draw(st.lists(st.builds(Page, st.integers(1, 9), st.none() | st.floats(1, 5000),
                                            st.none() | st.floats(1, 5000), st.sampled_from(list(Frame)),
                                            st.none() | st.floats(1, 1200)), max_size=2))
    return Document(
        filename=draw(st.none() | text),
        tables=tables,
        pages=doc_pages,
        metadata=draw(st.dictionaries(any_text, any_text, max_size=2)),
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(markup=True))
def test_json_holds_every_document(doc):
    data = canonical_json.write(doc, Diagnostics())
    assert validate_json(json.loads(data)) == []
    assert canonical_json.read(data, Diagnostics()) == doc


def _as_icdar_keeps_it(doc: Document, keep_blank: bool) -> Document:
    """What ICDAR 2013 XML can hold of a document: no pages, metadata, polygons or
    header flags; empty content reads as unknown; blank cells only when kept."""
    doc = Document(filename=doc.filename or "", tables=doc.tables)
    for region in doc.regions():
        region.cells = [c for c in region.cells if keep_blank or not c.is_blank]
        for cell in region.cells:
            cell.content = cell.content or None
            cell.header = False
    return doc


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(text=xml_text, frame=Frame.PDF, polygons=False, pages=False), st.booleans())
def test_icdar_structure_model_holds_what_it_can(doc, keep_blank):
    xml = icdar.write(doc, Diagnostics(), WriteOptions(model="structure", keep_blank=keep_blank))
    assert validate_xml(etree.fromstring(xml), "structure") == []
    back = icdar.read(xml, Diagnostics(), ReadOptions(keep_instructions=True)).document
    assert back == _as_icdar_keeps_it(doc, keep_blank)


def _slots(cell: Cell) -> set[tuple[int, int]]:
    return {(r, c) for r in range(cell.start_row, cell.end_row + 1) for c in range(cell.start_col, cell.end_col + 1)}


_small_cell = st.builds(
    lambda r, c, h, w: Cell(start_row=r, start_col=c, end_row=r + h, end_col=c + w),
    st.integers(-2, 6), st.integers(-2, 6), st.integers(0, 3) | st.just(0), st.integers(0, 3) | st.just(0),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(_small_cell, max_size=25) | st.lists(_small_cell.filter(lambda c: c.end_row == c.start_row), max_size=40)
       | st.lists(st.builds(lambda r, c: Cell(r, c, r, c), st.integers(-3, 6), st.integers(-3, 6)), max_size=40))
def test_overlaps_are_found_exactly_when_two_cells_share_a_slot(cells):
    pairs = grid.overlapping_cells(cells)
    shared = any(_slots(a) & _slots(b) for i, a in enumerate(cells) for b in cells[i + 1:])
    assert bool(pairs) == shared
    for first, second in pairs:
        assert _slots(first) & _slots(second)


@given(st.one_of(st.none(), st.integers(-10, 10**11).map(str), st.text("0123456789 \t\n+-_x\u00b2\u0661.", max_size=12)))
def test_a_non_negative_int_is_a_run_of_decimal_digits_within_the_limit(text):
    value = grid.non_negative_int(text)
    digits = None if text is None else text.strip()
    if digits and all(unicodedata.category(ch) == "Nd" for ch in digits) and int(digits) <= grid.NUMBER_LIMIT:
        assert value == int(digits) and type(value) is int
    else:
        assert value is None


@given(st.lists(st.one_of(st.integers(-10**12, 10**12).map(str), st.text("0123456789+- _x\u0661", max_size=6)),
                max_size=30))
def test_parsed_ints_are_what_int_gives_each_spelling(spellings):
    parsed = grid.ParsedInts()
    for text in spellings + spellings:  # each spelling again: from the cache the second time
        try:
            expected = int(text)
        except ValueError:
            with pytest.raises(ValueError):
                parsed[text]
            continue
        value = parsed[text]
        assert value == expected and type(value) is int
    assert set(parsed) <= set(spellings)


_TOKENS = st.lists(st.sampled_from(["<b>", "</b>", "<i>", "</i>", "a", " ", "\n", "é", '"', ' colspan="2"']),
                   max_size=6).map(tuple)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_json_holds_cell_markup_and_the_html_skeleton(doc, data):
    for table in doc.tables:
        table.html_structure = data.draw(st.none() | _TOKENS)
        for cell in table.cells():
            cell.markup = data.draw(st.none() | _TOKENS)
    written = canonical_json.write(doc, Diagnostics())
    assert validate_json(json.loads(written)) == []
    assert canonical_json.read(written, Diagnostics()) == doc
