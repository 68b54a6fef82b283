"""A table's HTML skeleton: PubTabNet's structure tokens and the cells they open.

TEDS builds its tree from the skeleton, and the PubTabNet writer writes it. A
table read from HTML or PubTabNet keeps its source's own
(:attr:`~convertables.model.Table.html_structure`); any other table gets one
made from its grid, as PubTabNet's tables are made, from its first row and
column with a cell (as GriTS counts a grid): the leading rows whose
cells are all header cells in ``<thead>``, the rest in ``<tbody>``, a ``<tr>``
for every row (also one that only spanning cells from above cover), and a
``<td>`` for every cell in row-major order, its spans as attributes. A slot no
cell covers gets an empty ``<td>`` of its own, as in PubTabNet, where every
slot of the grid is some cell's (ICDAR 2013 files leave empty cells out).
"""

from __future__ import annotations

from .grid import check_grid_size
from .model import Cell, Table

CELL_OPENINGS = frozenset({"<td>", "<th>", "<td", "<th"})


def placed(table: Table) -> list[tuple[int, int, int, int, Cell]]:
    """Each cell's (start row, start column, end row, end column) in the table's
    grid (its region's increments added), with the cell, in row-major order."""
    found = []
    for region in table.regions:
        dr, dc = region.row_increment, region.col_increment
        for cell in region.cells:
            found.append((cell.start_row + dr, cell.start_col + dc, cell.end_row + dr, cell.end_col + dc, cell))
    found.sort(key=lambda entry: (entry[0], entry[1]))
    return found


def cells_on_covered_slots(placed_cells: list) -> set[int]:
    """The ids of the cells of :func:`placed` (row-major) that start on a slot an earlier
    cell covers: a grid of slots (HTML, CSV, PubTabNet) cannot hold them."""
    found: set[int] = set()
    covering: list[tuple[int, int, int]] = []  # (first column, last column, last row) of cells from rows above
    row, x = None, 0
    spanning: list[tuple[int, int, int]] = []
    for r0, c0, r1, c1, cell in placed_cells:
        if r0 != row:
            covering = [c for c in covering + spanning if c[2] >= r0]
            spanning = []
            row, x = r0, 0
        if c0 < x or any(c[0] <= c1 and c0 <= c[1] for c in covering):
            found.add(id(cell))
            continue
        if r1 > r0:
            spanning.append((c0, c1, r1))
        x = c1 + 1
    return found


def span_tokens(tag: str, colspan: int, rowspan: int) -> list[str]:
    """A cell's opening as PubTabNet writes it."""
    if colspan == 1 and rowspan == 1:
        return [f"<{tag}>"]
    tokens = [f"<{tag}"]
    if rowspan != 1:
        tokens.append(f' rowspan="{rowspan}"')
    if colspan != 1:
        tokens.append(f' colspan="{colspan}"')
    tokens.append(">")
    return tokens


def span_leaves_its_row_group(tokens: list[str], cells: list[Cell]) -> bool:
    """Whether a cell of the skeleton spans rows below the end of its row group
    (a header cell spanning into the body): HTML ends every rowspan at its row
    group's end, so written as HTML the grid would change."""
    row = -1
    needed = -1  # the last row the group's cells reach
    index = 0
    for token in tokens:
        if token in CELL_OPENINGS:
            cell = cells[index]
            index += 1
            needed = max(needed, row + cell.end_row - cell.start_row)
        elif token == "<tr>":
            row += 1
        elif token in ("</thead>", "</tbody>", "</tfoot>"):
            if needed > row:
                return True
            needed = -1
    return False


def own_skeleton_fits(table: Table) -> bool:
    """Whether the table's own skeleton opens exactly one cell per cell."""
    structure = table.html_structure
    if structure is None:
        return False
    openings = sum(1 for token in structure if token in CELL_OPENINGS)
    return openings == sum(len(region.cells) for region in table.regions)


def skeleton(table: Table) -> tuple[list[str], list[Cell]]:
    """The structure tokens and the cells in the order of their openings."""
    if own_skeleton_fits(table):
        return list(table.html_structure), table.cells()
    return derived_skeleton(table)


def derived_skeleton(table: Table) -> tuple[list[str], list[Cell]]:
    """The skeleton made from the grid (see the module's docstring): a cell a
    slot at most, so :class:`~convertables.grid.GridTooLarge` where the grid has
    more slots than :data:`~convertables.grid.MAX_GRID_SLOTS`."""
    check_grid_size(table, from_zero=True)
    cells = placed(table)
    if not cells:
        return ["<tbody>", "</tbody>"], []
    first_row = min(entry[0] for entry in cells)
    last_row = max(max(entry[0], entry[2]) for entry in cells)
    by_row: dict[int, list[tuple[int, int, int, int, Cell]]] = {}
    for entry in cells:
        by_row.setdefault(entry[0], []).append(entry)
    header_rows = 0
    for row in range(first_row, last_row + 1):
        starting = by_row.get(row, [])
        if not starting or not all(entry[4].header for entry in starting):
            break
        header_rows += 1
    width = max(entry[3] for entry in cells) + 1
    first_col = min(entry[1] for entry in cells)  # (rows and columns before the first cell are no part of it)
    tokens: list[str] = []
    ordered: list[Cell] = []
    covering: list[tuple[int, int, int]] = []  # (first column, last column, last row) of cells from rows above

    def fill(row: int, x: int, to: int) -> int:
        """Empty cells on the free slots of ``row`` from column ``x`` up to ``to``."""
        while x < to:
            cover = next((c for c in covering if c[0] <= x <= c[1]), None)
            if cover is not None:
                x = cover[1] + 1
                continue
            tokens.extend(("<td>", "</td>"))
            ordered.append(Cell(row, x, row, x, ""))
            x += 1
        return x

    for group, rows in (("thead", range(first_row, first_row + header_rows)),
                        ("tbody", range(first_row + header_rows, last_row + 1))):
        if not rows:
            continue
        tokens.append(f"<{group}>")
        for row in rows:
            covering = [c for c in covering if c[2] >= row]
            tokens.append("<tr>")
            x = first_col
            for r0, c0, r1, c1, cell in by_row.get(row, []):
                x = max(fill(row, x, c0), c1 + 1)
                tokens.extend(span_tokens("td", c1 - c0 + 1, r1 - r0 + 1))
                tokens.append("</td>")
                ordered.append(cell)
                if r1 > row:
                    covering.append((c0, c1, r1))
            fill(row, x, width)
            tokens.append("</tr>")
        tokens.append(f"</{group}>")
    return tokens, ordered
