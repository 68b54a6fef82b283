"""Round trips through HTML and Excel: model -> file -> model keeps every cell,
span, text, header flag and page that the format can hold."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import html, xlsx, xlsx_workbook
from convertables.model import BBox, Cell, Document, Frame, Region, Table

# Texts as both formats keep them: no leading/trailing or repeated whitespace
# (HTML collapses it), no control characters.
word = st.text(st.characters(whitelist_categories=("L", "N", "P", "S")), min_size=1, max_size=6)
text = st.lists(word, min_size=1, max_size=3).map(" ".join) | st.sampled_from(["=SUM(A1)", "0012", "3.50", "a\nb"])


@st.composite
def tiled_table(draw, table_id: int, page: int) -> Table:
    """A grid filled with non-overlapping rectangles (no holes)."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    taken = [[False] * cols for _ in range(rows)]
    cells = []
    for r in range(rows):
        for c in range(cols):
            if taken[r][c]:
                continue
            max_w = 1
            while c + max_w < cols and not taken[r][c + max_w]:
                max_w += 1
            w = draw(st.integers(1, max_w))
            h = draw(st.integers(1, rows - r))
            for rr in range(r, r + h):
                for cc in range(c, c + w):
                    taken[rr][cc] = True
            cells.append(Cell(r, c, r + h - 1, c + w - 1, draw(text), header=draw(st.booleans())))
    return Table(table_id, [Region(0, page, cells=cells)])


@st.composite
def documents(draw) -> Document:
    n = draw(st.integers(1, 3))
    pages = sorted(draw(st.lists(st.integers(1, 5), min_size=n, max_size=n, unique=True)))
    return Document(None, [draw(tiled_table(i, p)) for i, p in enumerate(pages)])


def _cells(doc: Document) -> list:
    return [(t.page, sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in t.cells()))
            for t in doc.tables]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_html_round_trip(doc):
    data = html.write(doc, Diagnostics())
    assert _cells(html.read(data, Diagnostics("t.html")).document) == _cells(doc)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_xlsx_round_trip(doc):
    data = xlsx.write(doc, Diagnostics())
    assert _cells(xlsx.read(data, Diagnostics("t.xlsx")).document) == _cells(doc)


@st.composite
def ctdar_documents(draw) -> Document:
    """Tables of cells with integer outlines in image pixels (what cTDaR holds)."""
    from convertables.geometry import polygon_envelope
    from convertables.model import Frame

    def outline():
        x, y = draw(st.integers(0, 2000)), draw(st.integers(0, 2000))
        w, h = draw(st.integers(1, 300)), draw(st.integers(1, 300))
        skew = draw(st.integers(-3, 3))
        return polygon_envelope(((x, y), (x + w, y + skew), (x + w, y + h), (x, y + h)), Frame.IMAGE)

    tables = []
    for t in range(draw(st.integers(1, 3))):
        tiled = draw(tiled_table(t, 1))
        for cell in tiled.regions[0].cells:
            cell.content, cell.header, cell.bbox = None, False, outline()
        tiled.regions[0].bbox = outline()
        tables.append(tiled)
    return Document("page.jpg", tables)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctdar_documents())
def test_ctdar_round_trip(doc):
    from convertables.formats import ctdar

    back = ctdar.read(ctdar.write(doc, Diagnostics()), Diagnostics("t.xml")).document
    assert [[(c.start_row, c.start_col, c.end_row, c.end_col, c.bbox) for c in t.cells()] for t in back.tables] == \
        [[(c.start_row, c.start_col, c.end_row, c.end_col, c.bbox) for c in t.cells()] for t in doc.tables]
    assert [t.regions[0].bbox for t in back.tables] == [t.regions[0].bbox for t in doc.tables]


_spots = st.tuples(st.integers(1, 12), st.integers(1, 12))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sets(_spots, max_size=60), st.lists(st.tuples(_spots, st.integers(0, 5), st.integers(0, 5)), max_size=6))
def test_cells_covered_by_merged_ranges(positions, ranges):
    """Cells inside a merged range other than its top-left one, overlapping ranges included,
    found exactly as the definition says (the definition costs cells x ranges; the reader does not)."""
    merged = {(r0, c0): (r0 + h, c0 + w) for (r0, c0), h, w in ranges}
    expected = {(r, c) for r, c in positions for (r0, c0), (r1, c1) in merged.items()
                if r0 <= r <= r1 and c0 <= c <= c1 and (r, c) != (r0, c0)}
    assert xlsx_workbook._covered_cells(positions, merged) == expected


def _one_table(*cells: Cell, row_increment: int = 0) -> Document:
    return Document("t", [Table(0, [Region(0, 1, row_increment=row_increment, cells=list(cells))])])


def test_the_excel_writer_leaves_out_what_a_sheet_cannot_hold_and_says_so():
    doc = _one_table(Cell(0, 0, 1, 0, "tall"), Cell(1, 0, 1, 0, "under the tall one"), Cell(-1, 1, -1, 1, "before"),
                     Cell(0, 1, 0, 1, "a\x01b\x0c"))
    diagnostics = Diagnostics()
    back = xlsx.read(xlsx.write(doc, diagnostics), Diagnostics()).document
    assert _cells(back) == [(1, [(0, 0, 1, 0, "tall", False), (0, 1, 0, 1, "ab", False)])]
    assert sorted(diagnostics.codes()) == ["xlsx-cell-left-out", "xlsx-cell-left-out", "xml-invalid-char"]


@pytest.mark.slow
@pytest.mark.parametrize("cell, row_increment, reaches", [
    (Cell(0, 0, 0, 16_384), 0, "column 16,385"),
    (Cell(1_048_575, 0, 1_048_575, 0), 1, "row 1,048,577"),
    (Cell(0, 0, 9_999, 999), 0, "cover 10,000,000 cells"),
])
def test_the_excel_writer_refuses_a_page_beyond_a_sheet(cell, row_increment, reaches):
    with pytest.raises(InputError) as error:
        xlsx.write(_one_table(cell, row_increment=row_increment), Diagnostics())
    assert error.value.diagnostic.code == "xlsx-too-large" and reaches in str(error.value)


def test_the_html_writer_refuses_a_table_of_more_slots_than_it_writes():
    doc = _one_table(Cell(0, 0, 0, 0, "a"), Cell(10_000_000, 0, 10_000_000, 0, "far below"))
    with pytest.raises(InputError) as error:
        html.write(doc, Diagnostics())
    assert error.value.diagnostic.code == "html-too-large" and "10,000,001 rows" in str(error.value)
    # (at the limit of every walk of a grid, grid.MAX_GRID_SLOTS: 1,000 x 1,000 slots)
    assert html.write(_one_table(Cell(0, 0, 0, 0, "a"), Cell(999, 999, 999, 999, "b")), Diagnostics())


def test_the_ctdar_writer_drops_what_xml_cannot_carry_from_the_file_name():
    from convertables.formats import ctdar

    doc = Document("page\x01.jpg", [Table(0, [Region(0, 1, bbox=BBox(0, 0, 9, 9, Frame.IMAGE))])])
    diagnostics = Diagnostics()
    assert ctdar.read(ctdar.write(doc, diagnostics), Diagnostics()).document.filename == "page.jpg"
    assert diagnostics.codes() == ["xml-invalid-char"]
