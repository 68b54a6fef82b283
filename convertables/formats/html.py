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
from ..export_names import camelot_page
from ..html_tables import read_document
from ..html_writing import escape, table_html
from ..model import Document, Reading
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..sniffing import xml_root


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    if not data.strip():
        raise diagnostics.fail("html-empty", "the file is empty")
    base_page = options.page or 1
    if options.page is None:
        base_page = camelot_page(diagnostics.file or "") or base_page
    return read_document(data, diagnostics, page=base_page, keep_pandas_labels=bool(options.keep_pandas_labels),
                         cell_placement=options.cell_placement or "whatwg")


# -- writing ---------------------------------------------------------------------------------

def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    title = escape(doc.filename or "tables")
    header_cells = options.header_cells or "source"
    lost = [0]
    body = "\n".join(table_html(t, diagnostics, header_cells, lost) for t in doc.tables)
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
