"""Markdown pages as olmOCR-bench finds their tables (docs/formats.md,
`olmocr-markdown`): the tables its table tests look in
(:mod:`convertables.olmocr_tables`), so that the ``table-facts`` metric's
verdicts are the benchmark's (``score --profile olmocr``). Read only, and
only when named: its files are Markdown, which the ``markdown`` format reads by
GitHub's rules.

The file is read as the benchmark opens it: UTF-8 (a byte-order mark is a
character of the text), line endings made ``\\n``. Its pipe tables come first,
then its HTML tables; each cell is placed where the benchmark places it, its
text as the benchmark takes it (not yet normalised), a heading where the
benchmark counts it one (``header``). ``metadata["olmocr_pipe_tables"]`` says
how many of the tables are pipe tables; ``metadata["olmocr_fails"]``, where
the benchmark's own reading of the page fails, says why (its tests then fail
there). A file that is not UTF-8 is refused (``olmocr-not-utf8``): the
benchmark cannot open it, and counts the repeat failed.
"""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Document, Region, Table, make_cell
from ..olmocr_tables import NeighbourGrid, page_tables
from ..options import ReadOptions
from .declarations import DECLARED


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise diagnostics.fail("olmocr-not-utf8", f"not UTF-8 (byte {exc.start}): olmOCR-bench cannot read it") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    page = options.page or 1
    doc = Document()
    try:
        found = page_tables(text)
    except AssertionError as exc:  # (Python's HTML parser gives up on some markup: so does the benchmark's)
        doc.metadata["olmocr_fails"] = f"its HTML parser gives up: {exc}"
        found = []
    pipes = 0
    for number, table in enumerate(found):
        cells = [make_cell(row, col, last_row, last_col, text, header=heading)
                 for row, col, last_row, last_col, text, heading in table.cells]
        doc.tables.append(Table(id=number, regions=[Region(id=0, page=page, cells=cells)]))
        pipes += table.piped
        if (not doc.metadata.get("olmocr_fails") and not table.piped
                and NeighbourGrid(table.cells, table.rows).crashes):  # (a pipe table has no spans to reach past)
            doc.metadata["olmocr_fails"] = (f"table {number + 1}: a cell spans rows that a later cell took over, "
                                           "past the table's last row (IndexError)")
    doc.metadata["olmocr_pipe_tables"] = str(pipes)
    return doc


def sniff(head: bytes) -> bool:
    return False  # Markdown is the markdown format's; this reading is chosen by name


FORMAT = DECLARED["olmocr_markdown"]
