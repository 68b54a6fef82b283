"""Grid invariants, checked in one place for every reader.

Readers only parse; :func:`validate_document`, which ``files.read_document`` runs
after every reader, then checks what every table must satisfy and reports each
violation as a diagnostic:

* ``span-inverted`` (error): a cell whose end row/column is before its start;
  the cell is reduced to its start row/column so that later stages see a
  valid model, and the diagnostic says so;
* ``slot-overlap`` (warning): two cells of one region cover the same grid slot;
* ``grid-negative`` (error): a cell before the table's first row or column
  (indices may be negative only where the region's increment makes up for it);
* ``duplicate-id`` (info, or warning for ``check``): cell ids repeat within a
  region (the real ICDAR 2013 ground truth does this; one diagnostic per region).

No dense grid is ever allocated: a cell may claim 65,534 rows and 1,000
columns, so overlaps are found by sweeping rectangles, not by filling slots.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections import Counter
from itertools import compress, repeat
from typing import Callable, Mapping, Sequence

from .diagnostics import Diagnostics, Severity
from .model import Cell, Document, Region

MAX_GRID_SLOTS = 1_000_000
"""The most slots (rows x columns of a table's extent) that any work walking a
table's grid slot by slot takes on (writers, skeletons, metrics, the HTML
report): a few cells may claim far more (a cell at row 10^6, one at A1 and one
at XFD1048576), and such a table is refused (``too-large``) before any work."""


class GridTooLarge(ValueError):
    """A table whose grid extent is beyond :data:`MAX_GRID_SLOTS`, or too large
    for one metric's own work (the message names the table and its size)."""


def grid_extent(table) -> tuple[int, int]:
    """The rows and columns a table's cells span (its regions' increments
    added), from its first row and column to its last; (0, 0) without cells."""
    top = left = bottom = right = None
    for region in table.regions:
        dr, dc = region.row_increment, region.col_increment
        for cell in region.cells:
            r0, r1, c0, c1 = cell.start_row + dr, cell.end_row + dr, cell.start_col + dc, cell.end_col + dc
            if top is None:
                top, bottom, left, right = r0, r1, c0, c1
                continue
            top, bottom = min(top, r0), max(bottom, r1)
            left, right = min(left, c0), max(right, c1)
    if top is None:
        return 0, 0
    return bottom - top + 1, right - left + 1


def check_grid_size(table, limit: int = MAX_GRID_SLOTS, from_zero: bool = False) -> tuple[int, int]:
    """The table's extent (:func:`grid_extent`; with ``from_zero``, from row and
    column 0, as writers lay it out); :class:`GridTooLarge` beyond ``limit`` slots."""
    rows, cols = grid_extent(table)
    if from_zero and rows:
        dr_top = min(c.start_row + r.row_increment for r in table.regions for c in r.cells)
        dc_left = min(c.start_col + r.col_increment for r in table.regions for c in r.cells)
        rows, cols = rows + max(dr_top, 0), cols + max(dc_left, 0)
    if rows * cols > limit:
        raise GridTooLarge(f"table {table.id} spans {rows:,} rows and {cols:,} columns ({rows * cols:,} slots), "
                           f"more than the {limit:,} taken on")
    return rows, cols

# Where each model object was found in its source, keyed by id(object).
SourceLines = Mapping[int, int]


class LazySourceLines(dict):
    """:data:`SourceLines` that readers fill cheaply: besides lines set directly,
    cells may be registered with their elements (``later``), and their lines are
    looked up only when a diagnostic first asks for one. Most files raise none,
    and asking an element for its line is a call into lxml for every cell."""

    def __init__(self):
        super().__init__()
        self._pending: list[tuple[Sequence[Cell], Sequence | Callable[[], Sequence]]] = []

    def later(self, cells: Sequence[Cell], elements: Sequence | Callable[[], Sequence]) -> None:
        """``elements`` (or a function giving them): the cells' elements, in order."""
        self._pending.append((cells, elements))

    def get(self, key, default=None):
        if self._pending and key not in self:
            for cells, elements in self._pending:
                for cell, el in zip(cells, elements() if callable(elements) else elements):
                    self[id(cell)] = el.sourceline
            self._pending = []
        return super().get(key, default)


# No real grid, page or id comes near; a larger number is taken as no number.
NUMBER_LIMIT = 10**9


def non_negative_int(text: str | None) -> int | None:
    """The number that ``text`` writes in decimal digits (whitespace around them
    allowed) if it is at most :data:`NUMBER_LIMIT`, else None: for ids and page
    numbers that readers take when they are numbers. (``str.isdigit`` also admits
    digits such as "²", which ``int`` refuses.)"""
    if text is None:
        return None
    text = text.strip()
    if not text.isdecimal() or len(text) > 10:
        return None
    value = int(text)
    return value if value <= NUMBER_LIMIT else None


def html_non_negative_int(value: str | None) -> int | None:
    """The HTML rules for parsing non-negative integers (spans, ``data-page``):
    leading whitespace, an optional '+', then digits; anything after the digits
    is ignored (``"2]"`` is 2). None where no digits come first."""
    if value is None:
        return None
    match = _HTML_NON_NEGATIVE.match(value)
    return int(match.group(1)) if match else None


_HTML_NON_NEGATIVE = re.compile(r"[ \t\n\f\r]*\+?([0-9]+)")


class ParsedInts(dict):
    """``int(text)`` for each text looked up, each spelling parsed once. A
    document's indices repeat (a row's in each of its cells), and looking one up
    is cheaper than ``int()`` on a str; values and errors are int()'s own. One
    per document: its spellings are all it holds."""

    __slots__ = ()

    def __missing__(self, text):
        value = self[text] = int(text)
        return value


def validate_document(
    doc: Document,
    diagnostics: Diagnostics,
    lines: SourceLines | None = None,
    duplicate_ids: Severity = Severity.INFO,
    regions: list[tuple[int, Region]] | None = None,
) -> None:
    """Check every region (or only ``regions``, ``(table id, region)`` pairs, where
    the reader knows the others keep the invariants). Repeated cell ids are ``info``
    for readers (the real ground truth is full of them); ``check`` asks for ``warning``."""
    lines = {} if lines is None else lines
    if regions is None:
        regions = [(table.id, region) for table in doc.tables for region in table.regions]
    for table_id, region in regions:
        validate_region(region, diagnostics, lines, table_id=table_id, duplicate_ids=duplicate_ids)


def validate_region(
    region: Region,
    diagnostics: Diagnostics,
    lines: SourceLines,
    table_id: int | None = None,
    duplicate_ids: Severity = Severity.INFO,
) -> None:
    where = f"table {table_id}, region {region.id}"
    cells = region.cells
    columns = _Columns(cells)
    if columns.inverted() or columns.negative(region.row_increment, region.col_increment):
        _check_cells_one_by_one(region, diagnostics, lines, where)
        columns = _Columns(cells)  # inverted spans were mended
    for first, second in overlapping_cells(cells, columns):
        diagnostics.warning(
            "slot-overlap",
            f"{where}: cell at row {second.start_row}, column {second.start_col} covers a grid slot "
            f"already covered by the cell at row {first.start_row}, column {first.start_col}",
            line=lines.get(id(second)),
            hint="the two cells' spans cross; scored with the ICDAR 2013 structure metric, the later cell keeps "
                 "the shared slot, as its official scorer does",
        )
    if columns.ids.count(None) == len(cells):
        return
    repeated = [cid for cid, n in Counter(cid for cid in columns.ids if cid is not None).items() if n > 1]
    if repeated:
        first_line = next((lines.get(id(c)) for c in cells if c.id in repeated), None)
        shown = ", ".join(str(i) for i in sorted(repeated)[:5]) + (", ..." if len(repeated) > 5 else "")
        diagnostics.add(
            "duplicate-id",
            duplicate_ids,
            f"{where}: {len(repeated)} cell id(s) repeat ({shown})",
            line=first_line,
        )


class _Columns:
    """A region's cells' indices and ids as lists, taken in C (attrgetter), so
    that the checks of a valid region run without a Python step per cell."""

    def __init__(self, cells: list[Cell]):
        self.start_rows = list(map(_START_ROW, cells))
        self.start_cols = list(map(_START_COL, cells))
        self.end_rows = list(map(_END_ROW, cells))
        self.end_cols = list(map(_END_COL, cells))
        self.ids = list(map(_ID, cells))

    def inverted(self) -> bool:
        return any(map(operator.gt, self.start_rows, self.end_rows)) or any(
            map(operator.gt, self.start_cols, self.end_cols))

    def negative(self, row_increment: int, col_increment: int) -> bool:
        return bool(self.start_rows) and (min(self.start_rows) + row_increment < 0
                                          or min(self.start_cols) + col_increment < 0)


_START_ROW, _START_COL, _END_ROW, _END_COL, _ID = (
    operator.attrgetter(name) for name in ("start_row", "start_col", "end_row", "end_col", "id"))


def _check_cells_one_by_one(region: Region, diagnostics: Diagnostics, lines: SourceLines, where: str) -> None:
    """Inverted spans (mended) and cells before the table's first row or column."""
    for cell in region.cells:
        if cell.end_row < cell.start_row or cell.end_col < cell.start_col:
            diagnostics.error(
                "span-inverted",
                f"{where}: cell ends before it starts (rows {cell.start_row}-{cell.end_row}, "
                f"columns {cell.start_col}-{cell.end_col}); read as a 1x1 cell, where the official ICDAR 2013 "
                "tool places such a cell nowhere",
                line=lines.get(id(cell)),
            )
            cell.end_row = max(cell.end_row, cell.start_row)
            cell.end_col = max(cell.end_col, cell.start_col)
        if cell.start_row + region.row_increment < 0 or cell.start_col + region.col_increment < 0:
            diagnostics.error(
                "grid-negative",
                f"{where}: cell at row {cell.start_row}, column {cell.start_col} lies before the table's "
                f"first row or column, even with the region's increments",
                line=lines.get(id(cell)),
            )


def _no_shared_slot(columns: _Columns) -> bool:
    """True when the cells plainly cover no slot twice: their slots, counted
    one by one, are all different. Only tried while they are few (most tables
    are mostly 1x1 cells, whose slots are counted in C); False means "look
    closer", not "they overlap"."""
    top, left, bottom, right = columns.start_rows, columns.start_cols, columns.end_rows, columns.end_cols
    if not top:
        return True
    # a slot as one int, row * width + column (no tuple to build and hash for each slot)
    first_col = min(left)
    width = max(max(right), max(left)) - first_col + 1
    taken = set(map(operator.add, map(operator.mul, top, repeat(width)), map(operator.sub, left, repeat(first_col))))
    if len(taken) != len(top):
        return False
    spanning = set(compress(range(len(top)), map(operator.ne, top, bottom)))
    spanning.update(compress(range(len(top)), map(operator.ne, left, right)))
    slots = len(top)
    budget = 3 * len(top) + 64
    for i in spanning:
        if bottom[i] < top[i] or right[i] < left[i]:
            return False
        extra = (bottom[i] - top[i] + 1) * (right[i] - left[i] + 1) - 1
        slots += extra
        if slots > budget:
            return False
        taken.update(row * width + col - first_col for row in range(top[i], bottom[i] + 1)
                     for col in range(left[i], right[i] + 1) if row != top[i] or col != left[i])
    return len(taken) == slots


def overlapping_cells(cells: list[Cell], columns: _Columns | None = None) -> list[tuple[Cell, Cell]]:
    """Pairs ``(earlier, later)`` of cells (in document order) sharing a grid slot.
    Spans must not be inverted (``validate_region`` mends those first).

    A sweep over rows keeps the column intervals of the cells still open,
    sorted by start column; a new cell is checked against the open interval
    that starts last at or before its end. While the open intervals are
    disjoint (a valid grid) this finds every overlap exactly; once two overlap,
    at least one overlap per new cell is found. The cost follows the number of
    cells, never the area of the grid.
    """
    if columns is None:
        columns = _Columns(cells)
    if _no_shared_slot(columns):
        return []
    order = sorted(range(len(cells)), key=lambda i: (cells[i].start_row, cells[i].start_col))
    starts: list[int] = []
    open_cells: list[int] = []
    row = None
    pairs: set[tuple[int, int]] = set()
    for i in order:
        cell = cells[i]
        if cell.start_row != row:
            row = cell.start_row
            if any(cells[j].end_row < row for j in open_cells):
                open_cells = [j for j in open_cells if cells[j].end_row >= row]
                starts = [cells[j].start_col for j in open_cells]
        position = bisect.bisect_right(starts, cell.end_col) - 1
        if position >= 0 and cells[open_cells[position]].end_col >= cell.start_col:
            j = open_cells[position]
            pairs.add((min(i, j), max(i, j)))
        insert_at = bisect.bisect_right(starts, cell.start_col)
        starts.insert(insert_at, cell.start_col)
        open_cells.insert(insert_at, i)
    return [(cells[a], cells[b]) for a, b in sorted(pairs)]


def drop_pandas_default_labels(cells: list[Cell]) -> list[Cell] | None:
    """``cells`` without pandas' default labels, or None if they are not there.

    ``DataFrame.to_html``/``to_excel`` add a header row ``["", "0", "1", ...]``
    and an index column ``0, 1, ...``; when both are pandas' defaults they are
    not part of the extracted table. The rest moves up and left by one.
    """
    top = sorted((c for c in cells if c.start_row == 0), key=lambda c: c.start_col)
    corner = [c for c in top if c.start_col == 0]
    labels = [c for c in top if c.start_col > 0]
    if any(c.content for c in corner) or not labels:  # the corner is empty, or absent (Excel)
        return None
    if [(c.start_col, c.content) for c in labels] != [(i + 1, str(i)) for i in range(len(labels))]:
        return None
    body_rows = sorted({c.start_row for c in cells if c.start_row > 0})
    index = sorted((c for c in cells if c.start_col == 0 and c.start_row > 0), key=lambda c: c.start_row)
    if [c.content for c in index] != [str(i) for i in range(len(body_rows))] or len(index) != len(body_rows):
        return None
    kept = [c for c in cells if c.start_row > 0 and c.start_col > 0]
    for c in kept:
        c.start_row -= 1
        c.end_row -= 1
        c.start_col -= 1
        c.end_col -= 1
    return kept
