"""Generated tables written as LaTeX and as Markdown read back cell for cell:
positions, spans, text (LaTeX's and Markdown's special characters included),
and, for Markdown, header flags."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from convertables import ReadOptions, registry
from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.model import Cell, Document, Region, Table

WORD = st.text(st.sampled_from("ab1 |*_`<>&$%{}~^#[]-'\"\\:!é"), min_size=1, max_size=6)
TEXT = st.lists(WORD.map(lambda w: " ".join(w.split())).filter(bool), min_size=0, max_size=3).map(" ".join) | \
    st.sampled_from(["two\nlines", "$x_1$", "a--b", "[1] x", "*", "100%"])


@st.composite
def tables(draw, header_rows: bool) -> Table:
    """A grid of 1-6 rows and columns tiled by cells of 1-3 rows and columns."""
    height, width = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    taken: set[tuple[int, int]] = set()
    cells = []
    heads = draw(st.integers(0, 1)) if header_rows else 0
    for y in range(height):
        for x in range(width):
            if (y, x) in taken:
                continue
            rows = draw(st.integers(1, 3))
            columns = draw(st.integers(1, 3))
            rows = min(rows, height - y)
            columns = next(c for c in range(columns, 0, -1)
                           if all((y + dy, x + dx) not in taken for dy in range(rows) for dx in range(c))
                           and x + c <= width)
            taken |= {(y + dy, x + dx) for dy in range(rows) for dx in range(columns)}
            cells.append(Cell(y, x, y + rows - 1, x + columns - 1, draw(TEXT), header=y < heads))
    return Table(0, [Region(0, 1, cells=cells)])


def _round_trip(name: str, table: Table) -> Document:
    fmt = registry.FORMATS[name]
    written = fmt.writer()(Document(tables=[table]), Diagnostics())
    return read_document(written, fmt, f"t.{fmt.default_suffix}", ReadOptions(), Diagnostics())


def _kept(cells, headers: bool) -> list:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header and headers)
                  for c in cells if c.content and c.content.strip())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(header_rows=False))
def test_latex_round_trip(table):
    (back,) = _round_trip("latex", table).tables
    assert _kept(back.cells(), False) == _kept(table.cells(), False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(header_rows=True))
def test_markdown_round_trip(table):
    (back,) = _round_trip("markdown", table).tables
    assert _kept(back.cells(), True) == _kept(table.cells(), True)
