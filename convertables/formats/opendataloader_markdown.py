"""Markdown pages as opendataloader-bench reads them (docs/formats.md,
`opendataloader-markdown`): the benchmark's own way of finding tables in a
parser's Markdown, so that its scores come out exactly (``score --profile
opendataloader``). Read only, and only when named: its files are Markdown, which
the ``markdown`` format reads by GitHub's rules.

The page's pipe tables are first turned into HTML tables, line by line:

* a row is a line holding ``|``, split at every ``|`` (a backslash escapes
  nothing), a leading and a trailing ``|`` dropped, each cell stripped;
* a table starts at a row followed by a delimiter row (every cell, its spaces
  taken out, nonempty and made of ``-`` and ``:`` only) and takes every row
  after it up to the first line that is no row (a blank line or one without
  ``|``); its width is the larger of the two first rows';
* each row is fitted to the width: a header of exactly three cells in a wider
  table spreads its middle cell over every middle column; a shorter row ends in
  empty cells, a longer one loses its last cells;
* a header of empty cells only is replaced by the first body row;
* the header's cells become ``<th>``, the others ``<td>``, their text written
  as it is (Markdown marks such as ``**`` stay text), HTML-escaped.

Then every ``<table>`` element of the text is a table, in the order they
start, wherever it is (in code blocks and quotes too), as an HTML parser that
follows the tags as written finds them: a ``</table>`` closes the last table
opened, one never closed runs to the end of the text. Each outermost one is
read alone through the HTML table model (:mod:`convertables.html_tables`):
spans, header cells, the cells' inline tags and text, and the tables inside it
as tables of their own, after it. A file is one page (``--page``). A page
whose pipe tables would make more than :data:`MAX_CELLS` cells is refused
(``markdown-too-large``).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from ..diagnostics import Diagnostics
from ..html_tables import read_tables
from ..model import Document
from ..options import ReadOptions
from ..text_encoding import decode_text
from .declarations import DECLARED


MAX_CELLS = 1_000_000
"""Pages whose pipe tables hold more cells (rows fitted to their tables' widths) are refused."""


class _TooLarge(Exception):
    pass


def _row(line: str) -> list[str] | None:
    stripped = line.strip()
    if not stripped or "|" not in stripped:
        return None
    cells = stripped.split("|")
    if stripped.startswith("|"):
        cells = cells[1:]
    if cells and stripped.endswith("|"):
        cells = cells[:-1]
    return [cell.strip() for cell in cells] or None


def _is_delimiter(cells: list[str]) -> bool:
    for cell in cells:
        marks = cell.replace(" ", "")
        if not marks or marks.strip("-:"):
            return False
    return True


def _fitted(cells: list[str], width: int) -> list[str]:
    if len(cells) == width:
        return cells
    if len(cells) == 3 and width > 3:
        return [cells[0], *([cells[1]] * (width - 2)), cells[2]]
    if len(cells) < width:
        return cells + [""] * (width - len(cells))
    return cells[:width]


def _html_row(cells: list[str], tag: str) -> str:
    return "<tr>" + "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in cells) + "</tr>"


def pipe_tables_as_html(text: str) -> str:
    """The page with each pipe table replaced by an HTML table (see the module's docstring).
    Raises :class:`_TooLarge` past :data:`MAX_CELLS` cells."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    cells_made = 0
    k = 0
    while k < len(lines):
        if "|" not in lines[k]:  # (no row: the line as it is)
            out.append(lines[k])
            k += 1
            continue
        header = _row(lines[k])
        delimiter = _row(lines[k + 1]) if header and k + 1 < len(lines) else None
        if not delimiter or not _is_delimiter(delimiter):
            out.append(lines[k])
            k += 1
            continue
        width = max(len(header), len(delimiter))
        header = _fitted(header, width)
        body: list[list[str]] = []
        end = k + 2
        cells_made += width
        while end < len(lines):
            cells = _row(lines[end])
            if cells is None:
                break
            cells_made += width
            if cells_made > MAX_CELLS:
                raise _TooLarge(f"line {end + 1}: its pipe tables hold more than {MAX_CELLS:,} cells (rows "
                                "fitted to their tables' widths); such pages are refused")
            body.append(_fitted(cells, width))
            end += 1
        if body and all(cell == "" for cell in header):
            header = body.pop(0)
        first = lines[k]
        ending = first[len(first.rstrip("\r\n")):]
        out.append("<table>" + _html_row(header, "th") + "".join(_html_row(row, "td") for row in body) + "</table>"
                   + ending)
        k = end
    return "".join(out)


_LINE_END = re.compile("\n")  # (the parser counts lines by these alone)


class _TableFinder(HTMLParser):
    """The extent of every ``<table>`` element, as (start, end) offsets."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.line_starts = [0, *(match.end() for match in _LINE_END.finditer(text))]
        self.text = text
        self.open: list[int] = []
        self.found: list[tuple[int, int]] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.open.append(self._offset())

    def handle_startendtag(self, tag, attrs):
        if tag == "table":
            start = self._offset()
            self.found.append((start, self.text.index(">", start) + 1))

    def handle_endtag(self, tag):
        if tag == "table" and self.open:
            start = self.open.pop()
            at = self._offset()
            close = self.text.find(">", at)
            self.found.append((start, close + 1 if close >= 0 else len(self.text)))


def table_sources(text: str) -> list[str]:
    """The HTML of every table of the text (pipe tables already made HTML) that is inside no other,
    in the order they start (a table inside another is read with it)."""
    if "<table" not in text.lower():
        return []
    finder = _TableFinder(text)
    finder.feed(text)
    finder.close()
    outermost: list[tuple[int, int]] = []
    for start, end in sorted(finder.found + [(start, len(text)) for start in finder.open]):
        if not outermost or start >= outermost[-1][1]:
            outermost.append((start, end))
    return [text[start:end] for start, end in outermost]


def decode(data: bytes) -> str:
    """The text as Python reads a text file (:func:`~convertables.text_encoding.decode_text`)."""
    return decode_text(data, newlines=True)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    try:
        text = pipe_tables_as_html(decode(data))
    except _TooLarge as exc:
        raise diagnostics.fail("markdown-too-large", str(exc)) from None
    page = options.page or 1
    doc = Document()
    for source in table_sources(text):  # (each with the tables inside it, each a table too)
        doc.tables += read_tables(source, diagnostics, page=page, first_id=len(doc.tables),
                                  cell_placement=options.cell_placement or "whatwg")
    return doc


def sniff(head: bytes) -> bool:
    return False  # Markdown is the markdown format's; this reading is chosen by name


FORMAT = DECLARED["opendataloader_markdown"]
