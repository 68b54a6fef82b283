"""An HTML ``<table>`` as convertables writes it, for the formats that write HTML tables
(``html``, and ``markdown``'s HTML blocks): the table's skeleton (:mod:`convertables.skeleton`,
the tree TEDS compares: the source's own where it still fits the cells, else one made from the
grid, header rows in ``<thead>``, the rest in ``<tbody>``, an empty ``<td>`` where a row has a
hole), ``rowspan``/``colspan``, and each cell's inline markup or its text, line breaks as ``<br>``.
"""

from __future__ import annotations

import re

from .diagnostics import Diagnostics
from .grid import MAX_GRID_SLOTS
from .model import Cell, Region, Table
from .skeleton import (CELL_OPENINGS, cells_on_covered_slots, own_skeleton_fits, placed, skeleton,
                       span_leaves_its_row_group, span_tokens)


# A table is written slot by slot (an empty <td> for each hole, a <tr> for every row):
# one whose grid holds more slots than this is refused rather than written for hours.
MAX_WRITTEN_SLOTS = MAX_GRID_SLOTS


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """As html.escape (whose module loads every named entity on import)."""
    return text.translate(_ESCAPES)


_MARKUP_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)>")
_VOID = {"br", "hr", "img", "wbr"}  # written without a closing tag, which a parser would drop or misread
_ROW_GROUPS = {"<thead>", "</thead>", "<tbody>", "</tbody>", "<tfoot>", "</tfoot>"}


def cell_inner_html(cell: Cell) -> str:
    """The HTML inside a cell: its ``markup`` where it has one (inline tags as
    written, characters escaped), else its content, line breaks as ``<br>``."""
    if cell.markup is None:
        return "<br>".join(escape(part) for part in (cell.content or "").split("\n"))
    out = []
    for token in cell.markup:
        tag = _MARKUP_TAG.fullmatch(token) if len(token) > 2 else None
        if tag is None:
            out.append(escape(token))
        elif not (token[1] == "/" and tag.group(1).lower() in _VOID):
            out.append(token)
    return "".join(out)


def _header_tag(cell: Cell, in_head: bool, header_cells: str) -> str:
    """The opening of a cell as ``--header-cells`` writes it (without ``>``)."""
    if not cell.header:
        return "<td"
    if header_cells == "th":
        return "<th"
    if in_head:
        return "<td"
    # A header cell outside the header rows: <td scope> (HTML 4's header-and-data
    # cell) keeps the flag without changing the tree TEDS compares.
    return "<td" if header_cells == "td" else '<td scope="row"'


def table_html(table: Table, diagnostics: Diagnostics, header_cells: str, lost: list[int], code: str = "html",
               opening: str | None = None) -> str:
    """The table as HTML: its skeleton (:mod:`convertables.skeleton`, the tree
    TEDS compares: the source's own where it fits, else made from the grid) with
    each cell's inner HTML, header cells as ``header_cells`` says. ``code``: the writing
    format's name, which its diagnostics' codes start with; ``opening``: the ``<table>`` tag
    (by default one naming the table and its page)."""
    placed_cells = placed(table)
    page = table.page or 1
    out = [opening or f'<table data-table="{table.id}" data-page="{page}">']
    if placed_cells:
        first, last = placed_cells[0][0], max(e[2] for e in placed_cells)
        height, width = last - first + 1, max(e[3] for e in placed_cells) + 1
        if height * width > MAX_WRITTEN_SLOTS:
            raise diagnostics.fail(f"{code}-too-large", f"table {table.id} spans {height:,} rows and {width:,} "
                                                        f"columns; tables of more than {MAX_WRITTEN_SLOTS:,} slots are "
                                                        "not written")
    own = own_skeleton_fits(table)
    if not own:
        overlapping = cells_on_covered_slots(placed_cells)
        if overlapping:
            diagnostics.warning(f"{code}-overlap", f"table {table.id}: {len(overlapping)} cell(s) on slots another "
                                                "cell covers cannot be written as HTML; left out")
            kept = [cell for *_, cell in placed_cells if id(cell) not in overlapping]
            table = Table(table.id, [Region(0, page, cells=kept)])
    tokens, cells = skeleton(table)
    if span_leaves_its_row_group(tokens, cells):
        # HTML ends a rowspan with its row group: one group keeps the grid (and <td scope> the header flags)
        diagnostics.warning("lossy-header", f"table {table.id}: a header cell spans rows below the header rows, "
                                            "which HTML's <thead> cannot hold: written without <thead>")
        tokens = ["<tbody>", *(t for t in tokens if t not in _ROW_GROUPS), "</tbody>"]
        own = False
    line: list[str] = []
    in_head = False
    k = index = 0
    while k < len(tokens):
        token = tokens[k]
        if token in CELL_OPENINGS:
            cell = cells[index]
            index += 1
            if len(token) == 3:  # "<td" / "<th": the spans follow until ">"
                k += 1
                while k < len(tokens) and tokens[k] != ">":
                    k += 1
            # The spans are written from the cell, never copied from the skeleton's tokens (a source's own
            # tokens are text from the input, not HTML to pass on).
            attributes = "".join(span_tokens("td", cell.end_col - cell.start_col + 1,
                                             cell.end_row - cell.start_row + 1)[1:-1])
            tag = token[:3]
            if not own or header_cells == "th":
                tag = _header_tag(cell, in_head, header_cells)
            elif header_cells == "td" and tag == "<th":
                tag = "<td"
            if cell.header and not in_head and header_cells == "td":
                lost[0] += 1
            name = tag[1:3]
            line.append(f"{tag}{attributes}>{cell_inner_html(cell)}</{name}>")
            k += 1
            while k < len(tokens) and tokens[k] in ("</td>", "</th>"):
                k += 1
            continue
        if token == "<thead>":
            in_head = True
        elif token == "</thead>":
            in_head = False
        if token == "<tr>":
            line = [token]
        elif token == "</tr>":
            line.append(token)
            out.append("".join(line))
            line = []
        elif token in _ROW_GROUPS:
            out.append(token)
        # (anything else of a skeleton, FinTabNet's own <table> and </table> tokens, is no element of
        # the table's tree: the writer writes the table element itself)
        k += 1
    out.append("</table>")
    return "\n".join(out)
