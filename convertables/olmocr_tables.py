"""Tables as olmOCR-bench finds them in a page of Markdown, and the relations
its table tests ask about (the ``olmocr-markdown`` reading and the
``table-facts`` metric share them).

A page's tables are its pipe tables (a run of lines that hold a ``|``, at least
two; the first row and the first column are headings) and then every
``<table>`` of the page parsed as HTML by Python's ``html.parser`` with
beautifulsoup's tree building over it (no implied end tags: a ``<td>`` left
open holds the next one; ``<th>`` cells and the rows under a ``<thead>`` are
headings). Cells are placed on a grid as HTML places them, each after the
columns that rows above still hold, and a later cell that covers a column a
cell above still spans takes it over.

Each cell's neighbours are, for each row (column) it spans, the first cell
found stepping away from it; its top (left) headings are the heading cells
reached by walking up (left) from it, or, where none is reached, the cells
where the walk ends.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .soup_tree import Element, parse

# -- text ------------------------------------------------------------------------------------

_REPLACEMENTS = {"‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"', "＿": "_", "–": "-", "—": "-",
                 "‑": "-", "‒": "-", "−": "-", "\u00b5": "\u03bc"}
_BR = re.compile(r"<br/?>")
_BOLD_STARS = re.compile(r"\*\*(.*?)\*\*")
_BOLD_UNDERSCORES = re.compile(r"__(.*?)__")
_B_TAG = re.compile(r"</?b>")
_I_TAG = re.compile(r"</?i>")
_BOLD = re.compile(r"(\*\*|__)(.*?)\1")
_ITALIC = re.compile(r"(\*|_)(.*?)\1")
_SPACES = re.compile(r"\s+")


_CHANGED = re.compile(r"[<*_\t\n\r\f\v\x1c-\x1f]|  ")  # what can change an ASCII text


def normalise(text: str) -> str:
    """A text as the benchmark compares it: ``<br>`` a space, Markdown bold and
    italics and ``<b>``, ``<i>`` tags taken out, whitespace runs one space (not
    trimmed), NFC, typographic quotes, dashes and the micro sign made plain."""
    if text.isascii() and _CHANGED.search(text) is None:
        return text
    text = _BR.sub(" ", text)
    text = _BOLD_STARS.sub(r"\1", text)
    text = _BOLD_UNDERSCORES.sub(r"\1", text)
    text = _B_TAG.sub("", text)
    text = _I_TAG.sub("", text)
    text = _BOLD.sub(r"\2", text)
    text = _ITALIC.sub(r"\2", text)
    text = _SPACES.sub(" ", text)
    text = unicodedata.normalize("NFC", text)
    for fancy, plain in _REPLACEMENTS.items():
        text = text.replace(fancy, plain)
    return text


# -- cells and their placement ---------------------------------------------------------------

class CellSpec(NamedTuple):
    """A cell as a table's source gives it, before placement."""

    text: str
    rowspan: int
    colspan: int
    heading: bool


class PlacedCell(NamedTuple):
    """A cell placed on the grid: its first row and column, and its spans."""

    row: int
    col: int
    rowspan: int
    colspan: int
    text: str
    heading: bool


def place(rows: list[list[CellSpec]]) -> list[PlacedCell]:
    """The cells of ``rows`` placed on the grid, in source order."""
    if all(cell.rowspan == 1 and cell.colspan == 1 for row in rows for cell in row):  # (each at its own place)
        return [PlacedCell(r, c, 1, 1, cell.text, cell.heading) for r, row in enumerate(rows)
                for c, cell in enumerate(row)]
    placed: list[PlacedCell] = []
    active: list[int] = []  # per column: the rows a cell above still spans below this one
    for row_index, cells in enumerate(rows):
        col = 0
        taken = 0
        while taken < len(cells) or col < len(active):
            if col < len(active) and active[col]:
                active[col] -= 1
                col += 1
                continue
            if taken >= len(cells):
                col += 1
                continue
            cell = cells[taken]
            taken += 1
            placed.append(PlacedCell(row_index, col, cell.rowspan, cell.colspan, cell.text, cell.heading))
            if len(active) < col + cell.colspan:
                active.extend([0] * (col + cell.colspan - len(active)))
            for offset in range(cell.colspan):
                active[col + offset] = cell.rowspan - 1
            col += cell.colspan
    return placed


class NeighbourGrid:
    """A table's grid of placed cells and their relations. Cells are known by
    their first row and column, and relations are sets of those, iterated as
    the benchmark iterates them (the first of equally good neighbours is the
    one its explanations name). Made of ``(row, col, last_row, last_col, text,
    heading)`` tuples in source order (:meth:`of` makes one of placed cells);
    ``rows``: the source's rows (those without cells of their own count)."""

    def __init__(self, cells, rows: int = 0):
        self.text: dict[tuple[int, int], str] = {}
        self.headings: set[tuple[int, int]] = set()
        self._last: dict[tuple[int, int], tuple[int, int]] = {}
        for row, col, last_row, last_col, text, heading in cells:
            key = (row, col)
            self.text[key] = text
            self._last[key] = (last_row, last_col)
            if heading:
                self.headings.add(key)
        self._rows = rows
        self._occupied: list | None = None  # (laid out when a relation is first asked for)
        self._found: dict[tuple[str, tuple[int, int]], set] = {}

    @classmethod
    def of(cls, cells: list[PlacedCell], rows: int = 0) -> NeighbourGrid:
        return cls(((c.row, c.col, c.row + c.rowspan - 1, c.col + c.colspan - 1, c.text, c.heading) for c in cells),
                   rows)

    def _lay_out(self) -> None:
        occupancy = self._occupancy()
        self._height = len(occupancy)
        self._width = width = max((len(row) for row in occupancy), default=0)
        self._source_height = max(self._height, self._rows)
        for row in occupancy:
            row.extend([None] * (width - len(row)))
        self._occupied = occupancy

    @property
    def crashes(self) -> bool:
        """Whether the benchmark's own reading of the table fails: a cell's rows
        reach past the last row (a later cell took them over) where it looks
        beside it, and it indexes a row that is not there."""
        if self._occupied is None:
            self._lay_out()
        return any(last_row >= self._source_height and (last_col + 1 < self._width or col > 0)
                   for (_, col), (last_row, last_col) in self._last.items())

    def up(self, key: tuple[int, int]) -> set:
        return self._related("up", key)

    def down(self, key: tuple[int, int]) -> set:
        return self._related("down", key)

    def left(self, key: tuple[int, int]) -> set:
        return self._related("left", key)

    def right(self, key: tuple[int, int]) -> set:
        return self._related("right", key)

    def _related(self, direction: str, key: tuple[int, int]) -> set:
        """The cells next to ``key``'s in ``direction``: for each row (column) it spans, the first other cell."""
        found = self._found.get((direction, key))
        if found is None:
            if self._occupied is None:
                self._lay_out()
            grid, height, width = self._occupied, self._height, self._width
            (row, col), (last_row, last_col) = key, self._last[key]
            rows = range(row, min(last_row + 1, height))
            cols = range(col, last_col + 1)
            if direction == "right":
                lines = ((grid[r][c] for c in range(last_col + 1, width)) for r in rows)
            elif direction == "left":
                lines = ((grid[r][c] for c in range(col - 1, -1, -1)) for r in rows)
            elif direction == "down":
                lines = ((grid[r][c] for r in range(last_row + 1, height)) for c in cols)
            else:
                lines = ((grid[r][c] for r in range(row - 1, -1, -1)) for c in cols)
            found = self._found[direction, key] = set(_first_each(key, lines))
        return found

    def _occupancy(self) -> list[list[tuple[int, int] | None]]:
        """Which cell holds each grid position (None: none), rows as many as the
        cells' spans reach, and a cell's rows below its first as placement left
        them to it (a later cell over the same column takes the rows after its own)."""
        occupancy: list[list[tuple[int, int] | None]] = []
        if all(key == last for key, last in self._last.items()):  # (each cell its own place)
            for key in self._last:
                while len(occupancy) <= key[0]:
                    occupancy.append([])
                row = occupancy[key[0]]
                if key[1] == len(row):
                    row.append(key)
                else:
                    _put(row, key[1], key)
            return occupancy
        spanning: dict[int, tuple[tuple[int, int], int]] = {}  # column -> (cell, rows it still takes)
        by_row: dict[int, list[tuple[int, int]]] = {}
        for key in self._last:
            by_row.setdefault(key[0], []).append(key)
        last = max(by_row, default=-1)
        row_index = 0
        while row_index <= last or any(rows for _, rows in spanning.values()):
            row: list[tuple[int, int] | None] = []
            for col, (key, rows) in list(spanning.items()):
                if rows:
                    _put(row, col, key)
                    spanning[col] = (key, rows - 1)
            for key in by_row.get(row_index, ()):
                last_row, last_col = self._last[key]
                for col in range(key[1], last_col + 1):
                    _put(row, col, key)
                    spanning[col] = (key, last_row - key[0])
            occupancy.append(row)
            row_index += 1
        return occupancy

    def _walk(self, start: tuple[int, int], relation) -> set:
        headings, ends = set(), set()
        to_visit = {start}
        while to_visit:
            current = to_visit.pop()
            if current in self.headings:
                headings.add(current)
            related = relation(current)
            if related:
                to_visit |= related
            else:
                ends.add(current)
        headings -= {start}
        ends -= {start}
        return headings or ends

    def top_headings(self, key: tuple[int, int]) -> set:
        return self._walk(key, self.up)

    def left_headings(self, key: tuple[int, int]) -> set:
        return self._walk(key, self.left)


def _put(row: list, col: int, value) -> None:
    if len(row) <= col:
        row.extend([None] * (col + 1 - len(row)))
    row[col] = value


def _first_each(own, lines) -> set:
    """The first cell other than ``own`` along each line, added to a set in the order found."""
    found: set = set()
    for line in lines:
        for key in line:
            if key is not None and key != own:
                found.add(key)
                break
    return found


# -- pipe tables -----------------------------------------------------------------------------

def pipe_tables(text: str) -> list[list[list[str]]]:
    """The page's pipe tables, each as its rows of cell texts (headings: the first row and column)."""
    tables = []
    block: list[str] = []
    for line in [*text.strip().split("\n"), ""]:  # (a line without a pipe ends the last table too)
        if "|" in line:
            block.append(line)
            continue
        if len(block) >= 2:
            rows = _pipe_rows(block)
            if rows:
                tables.append(rows)
        block = []
    return tables


def _pipe_rows(lines: list[str]) -> list[list[str]]:
    separator = next((i for i, line in enumerate(lines)
                      if (bare := line.replace("|", "").strip()) and all(c in "- :" for c in bare)), None)
    rows = []
    for i, line in enumerate(lines):
        if i == separator or (line.strip() and all(c in "- :|" for c in line)):
            continue
        cells = [cell.strip() for cell in line.split("|")]
        if cells and cells[0] == "":
            cells = cells[1:]
        if cells and cells[-1] == "":
            cells = cells[:-1]
        if cells:
            rows.append(cells)
    return rows


# -- HTML tables -----------------------------------------------------------------------------

_TABLE, _ROW, _CELL = frozenset({"table"}), frozenset({"tr"}), frozenset({"th", "td"})


def _cell_text(cell: Element) -> str:
    """A cell's text: every string under it, a ``<br>`` a line break."""
    return "".join(node if type(node) is not Element else "\n" for node in cell.descendants()
                   if type(node) is not Element or node.name == "br")


def _span(value) -> int:
    if value in (None, ""):
        return 1
    try:
        span = int(value)
    except ValueError:
        return 1
    return span if span > 0 else 1


def html_tables(text: str) -> list[list[list[CellSpec]]]:
    """Every ``<table>`` of the page, in document order (nested ones too, after
    the table holding them), as its rows of cells: every ``<tr>`` under it (those
    of tables inside it too), each row's ``<th>`` and ``<td>`` children."""
    if "<table" not in text.lower():  # (no element of that name can start without that tag)
        return []
    tables = []
    for table in parse(text).find_all(_TABLE):
        rows = table.find_all(_ROW)
        found = []
        for row in rows:
            heading_row = _under(row, "thead")
            cells = []
            for cell in (n for n in row.children if type(n) is Element and n.name in _CELL):
                raw_rowspan = cell.attrs.get("rowspan")
                rowspan = _span(raw_rowspan)
                if raw_rowspan is not None and raw_rowspan.strip() == "0":  # to the end of the table
                    rowspan = max(1, len(rows) - len(found))
                cells.append(CellSpec(_cell_text(cell).strip(), rowspan, _span(cell.attrs.get("colspan")),
                                      cell.name == "th" or heading_row))
            found.append(cells)
        if rows:
            tables.append(found)
    return tables


def _under(element: Element, name: str) -> bool:
    parent = element.parent
    while parent is not None:
        if parent.name == name:
            return True
        parent = parent.parent
    return False


Spans = tuple[int, int, int, int, str, bool]
"""A cell as :class:`NeighbourGrid` takes it: row, column, last row, last column, text, heading."""


class PageTable(NamedTuple):
    """A table of a page: its cells placed (:data:`Spans`, in source order), its
    source's rows, and whether it is a pipe table."""

    cells: list[Spans]
    rows: int
    piped: bool


def page_tables(text: str) -> list[PageTable]:
    """The page's tables placed (those without a cell left out): its pipe
    tables, then its HTML tables."""
    found = [PageTable([(r, c, r, c, cell, r == 0 or c == 0) for r, row in enumerate(rows)
                        for c, cell in enumerate(row)], len(rows), True) for rows in pipe_tables(text)]
    found += [PageTable([(c.row, c.col, c.row + c.rowspan - 1, c.col + c.colspan - 1, c.text, c.heading)
                         for c in place(rows)], len(rows), False) for rows in html_tables(text)]
    return [table for table in found if table.cells]
