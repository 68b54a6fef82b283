"""HTML tables (docs/formats.md, `html`), including FineReader, Acrobat and pandas exports.

The tables are read by the HTML table model (:mod:`convertables.html_tables`:
the parse, the WHATWG table algorithm, cell text and markup, pandas' exports).
This module adds what a page file says: the page its tables are on, from a
``data-page`` attribute on the table (written by convertables), else page
breaks marked in CSS counted in document order, else a ``-page-<p>-`` in the
file name (Camelot, tabula-py), else ``--page`` or 1. ``<meta
name="generator">`` goes to ``Document.metadata["generator"]``, the first
``<title>``'s text (each text run stripped, the runs joined) to
``Document.filename``; the table PubTabNet's TEDS reference scores to
``Document.metadata["teds_table"]``. A ``<th>``, a cell in
``<thead>`` and a ``<td scope>`` are header cells.

The writer writes one ``<table>`` per table, its regions merged by their
increments: the table's HTML skeleton (:mod:`convertables.skeleton`, the tree
TEDS compares: the source's own where it still fits the cells, else one made
from the grid, header rows in ``<thead>``, the rest in ``<tbody>``, an empty
``<td>`` where a row has a hole), ``rowspan``/``colspan``, and each cell's
inline markup (``Cell.markup``: ``<b>``, ``<sup>``...) or its text, line breaks
as ``<br>``. Header cells (``--header-cells``): by default as the source's
skeleton has them, else as PubTabNet writes them (``<td>`` in ``<thead>``) and
``<td scope="row">`` outside the header rows, all read back as header cells,
so that TEDS compares the same tree; ``th`` writes every one as ``<th>``
(which TEDS reads without its text), ``td`` every one as ``<td>``.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..grid import MAX_GRID_SLOTS
from ..export_names import camelot_page
from ..html_tables import read_document
from ..model import Cell, Document, Reading, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..skeleton import (CELL_OPENINGS, cells_on_covered_slots, own_skeleton_fits, placed, skeleton,
                        span_leaves_its_row_group, span_tokens)
from ..sniffing import xml_root


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    if not data.strip():
        raise diagnostics.fail("html-empty", "the file is empty")
    base_page = options.page or 1
    if options.page is None:
        base_page = camelot_page(diagnostics.file or "") or base_page
    return read_document(data, diagnostics, page=base_page, keep_pandas_labels=bool(options.keep_pandas_labels))


# -- writing ---------------------------------------------------------------------------------

# A table is written slot by slot (an empty <td> for each hole, a <tr> for every row):
# one whose grid holds more slots than this is refused rather than written for hours.
MAX_WRITTEN_SLOTS = MAX_GRID_SLOTS


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def _escape(text: str) -> str:
    """As html.escape (whose module loads every named entity on import)."""
    return text.translate(_ESCAPES)


_MARKUP_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)>")
_VOID = {"br", "hr", "img", "wbr"}  # written without a closing tag, which a parser would drop or misread
_ROW_GROUPS = {"<thead>", "</thead>", "<tbody>", "</tbody>", "<tfoot>", "</tfoot>"}


def cell_inner_html(cell: Cell) -> str:
    """The HTML inside a cell: its ``markup`` where it has one (inline tags as
    written, characters escaped), else its content, line breaks as ``<br>``."""
    if cell.markup is None:
        return "<br>".join(_escape(part) for part in (cell.content or "").split("\n"))
    out = []
    for token in cell.markup:
        tag = _MARKUP_TAG.fullmatch(token) if len(token) > 2 else None
        if tag is None:
            out.append(_escape(token))
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


def _table_html(table: Table, diagnostics: Diagnostics, header_cells: str, lost: list[int]) -> str:
    """The table as HTML: its skeleton (:mod:`convertables.skeleton`, the tree
    TEDS compares: the source's own where it fits, else made from the grid) with
    each cell's inner HTML, header cells as ``header_cells`` says."""
    placed_cells = placed(table)
    page = table.page or 1
    out = [f'<table data-table="{table.id}" data-page="{page}">']
    if placed_cells:
        first, last = placed_cells[0][0], max(e[2] for e in placed_cells)
        height, width = last - first + 1, max(e[3] for e in placed_cells) + 1
        if height * width > MAX_WRITTEN_SLOTS:
            raise diagnostics.fail("html-too-large", f"table {table.id} spans {height:,} rows and {width:,} columns; "
                                                     f"tables of more than {MAX_WRITTEN_SLOTS:,} slots are not written")
    own = own_skeleton_fits(table)
    if not own:
        overlapping = cells_on_covered_slots(placed_cells)
        if overlapping:
            diagnostics.warning("html-overlap", f"table {table.id}: {len(overlapping)} cell(s) on slots another "
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


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    title = _escape(doc.filename or "tables")
    header_cells = options.header_cells or "source"
    lost = [0]
    body = "\n".join(_table_html(t, diagnostics, header_cells, lost) for t in doc.tables)
    if lost[0]:
        diagnostics.warning("lossy-header", f"{lost[0]} header cell(s) outside the header rows written as <td> "
                                            "(--header-cells td): read back, they are data cells")
    page = (
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="generator" content="convertables">\n'
        f"<title>{title}</title>\n"
        "<style>table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:2px 6px}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
    return page.encode("utf-8")


# -- the format ------------------------------------------------------------------------------

_HTML_ROOTS = {"html", "head", "body", "table", "meta", "title", "div", "p"}
_DOCTYPE_HTML = re.compile(rb"<!doctype\s+html", re.I)


def sniff(head: bytes) -> bool:
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):  # JSON, whose texts may hold markup
        return False
    if _DOCTYPE_HTML.search(head[:4096]):
        return True
    root = xml_root(head[:4096])
    return root is not None and root.lower() in _HTML_ROOTS


FORMAT = DECLARED["html"]
