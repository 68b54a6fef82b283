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
``Document.metadata["teds_table"]``.

The writer writes one ``<table>`` per table, its regions merged by their
increments, with ``rowspan``/``colspan``, ``<th>`` for header cells and empty
``<td>`` where a row has a hole, so that a browser puts every cell where the
model has it.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..grid import MAX_GRID_SLOTS
from ..export_names import camelot_page
from ..html_tables import read_document
from ..model import Document, Reading, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
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


def _table_html(table: Table, diagnostics: Diagnostics) -> str:
    cells = []
    for region in table.regions:
        for c in region.cells:
            cells.append((c.start_row + region.row_increment, c.start_col + region.col_increment,
                          c.end_row + region.row_increment, c.end_col + region.col_increment, c))
    cells.sort(key=lambda t: (t[0], t[1]))
    page = table.page or 1
    out = [f'<table data-table="{table.id}" data-page="{page}">']
    if not cells:
        out.append("</table>")
        return "\n".join(out)
    covering: list[tuple[int, int, int]] = []  # (x0, x1, last row) of cells from rows above
    rows: dict[int, list] = {}
    for entry in cells:
        rows.setdefault(entry[0], []).append(entry)
    last_row = max(e[2] for e in cells)
    height, width = last_row - min(rows) + 1, max(e[3] for e in cells) + 1
    if height * width > MAX_WRITTEN_SLOTS:
        raise diagnostics.fail("html-too-large", f"table {table.id} spans {height:,} rows and {width:,} columns; "
                                                 f"tables of more than {MAX_WRITTEN_SLOTS:,} slots are not written")
    for y in range(min(rows), last_row + 1):
        covering = [c for c in covering if c[2] >= y]
        line = ["<tr>"]
        x = 0
        for r0, c0, r1, c1, cell in rows.get(y, []):
            if c0 < x:
                diagnostics.warning("html-overlap", f"table {table.id}: overlapping cells cannot be written "
                                                    "as HTML; one is left out")
                continue
            while x < c0:
                cover = next((c for c in covering if c[0] <= x <= c[1]), None)
                if cover:
                    x = cover[1] + 1
                else:
                    line.append("<td></td>")
                    x += 1
            if x > c0:
                diagnostics.warning("html-overlap", f"table {table.id}: a cell at row {r0}, column {c0} lies "
                                                    "under a spanning cell; left out")
                continue
            tag = "th" if cell.header else "td"
            attrs = ""
            if r1 > r0:
                attrs += f' rowspan="{r1 - r0 + 1}"'
            if c1 > c0:
                attrs += f' colspan="{c1 - c0 + 1}"'
            text = "<br>".join(_escape(part) for part in (cell.content or "").split("\n"))
            line.append(f"<{tag}{attrs}>{text}</{tag}>")
            if r1 > y:
                covering.append((c0, c1, r1))
            x = c1 + 1
        line.append("</tr>")
        out.append("".join(line))
    out.append("</table>")
    return "\n".join(out)


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    title = _escape(doc.filename or "tables")
    body = "\n".join(_table_html(t, diagnostics) for t in doc.tables)
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
