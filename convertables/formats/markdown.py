"""Markdown pages (docs/formats.md, `markdown`): what today's PDF and image
parsers write (MinerU, Marker, docling, olmOCR, markitdown, pymupdf4llm,
vision-language models), and the ground truth of the benchmarks that score them.

A file is a document; every table in it, in order, is a table, whichever of
three dialects it is written in; text outside tables is not read:

* GitHub pipe tables: a row of cells separated by ``|``, then a delimiter row
  of as many cells of ``-`` with an optional ``:`` at either end; the rows
  after it up to a blank line or the start of another block (a heading, a
  quote, a fence, a list item, a rule, HTML). Leading and trailing pipes are
  optional; ``\\|`` is a pipe in a cell. The first row is the header row (its
  cells are header cells); a header row of blank cells only, which parsers
  write for a table without a header, is no row where rows follow it
  (``markdown-empty-header`` info). A shorter row ends in blank cells; cells
  past the header's are left out (``markdown-ragged`` warning), as GitHub does. A cell's text is its
  inline Markdown rendered plain (``**bold**``, ``*it*``, ``_it_``, code spans,
  backslash escapes, entities, inline HTML tags; ``<br>`` a line break), and
  where it has any markup, its tokens (``<b>``, ``<i>``, ``<code>``, ``<br>``,
  and the HTML tags written) are kept beside the text as the HTML model keeps
  a cell's inline tags.
* HTML ``<table>`` blocks, anywhere in the text, through the HTML table model
  (:mod:`convertables.html_tables`: spans, unquoted attributes such as
  MinerU's ``rowspan=2``, header cells, tables inside tables as tables of
  their own). A ``<table>`` never closed is read to the end
  (``markdown-unclosed``).
* LaTeX ``tabular`` environments (``tabular*``, ``tabularx``, ``tabulary``,
  ``longtable``) through :mod:`convertables.latex_tables`; math's ``array`` is
  math, not a table.

Fenced code blocks (```` ``` ```` or ``~~~``), HTML comments and inline code
spans hold no tables.
Encoding: the one a byte-order mark names, else UTF-8, else windows-1252.
Pages: a file is page 1 (or ``--page``), and where the parser marks page
breaks, each mark starts the next page: a form feed, docling's ``<!-- page
break -->``, Marker's paginated output (a line ``{N}`` and 48 dashes starts
page N + 1).

The writer writes each table as a pipe table where one holds it exactly (a
cell on every slot, no spans, header cells (if any) exactly its first row, no
inline markup, no HTML skeleton of its own, text that reads back as written; a
table without header cells gets an empty header row, which the reader leaves
out again), else as an HTML block, the table as the ``html`` writer writes it
(:mod:`convertables.html_writing`); ``<!-- page break -->`` between pages; no
other text. In pipe cells ``|`` and the characters Markdown would read as
markup are escaped (``<`` as ``&lt;``), a line break is ``<br>``.
"""

from __future__ import annotations

import bisect
import html as html_entities
import re

from ..diagnostics import Diagnostics
from ..html_tables import read_tables
from ..html_writing import table_html
from ..latex_tables import find_tables
from ..model import Cell, Document, Reading, Region, Table
from ..options import ReadOptions, WriteOptions
from ..text_encoding import decode_text
from .declarations import DECLARED

MAX_CELLS = 10_000_000
"""Pages whose pipe tables hold more cells (short rows filled up) are refused."""
MAX_INLINE = 1024
"""Emphasis is not looked for in pipe cells longer than this (it is matched by a search to its closing mark)."""

# -- the page: what holds no tables, and where tables are --------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_COMMENT = re.compile(r"(?<!\\)<!--.*?(?:-->|\Z)", re.S)
_TABLE_TAG = re.compile(r"<(/?)table(?=[\s/>]|$)[^>]{0,4096}>?", re.I)
_CODE_SPAN = re.compile(r"(`+)[^`\n]+?(?<!`)\1(?!`)")
_PAGE_MARK = re.compile(r"\f|<!--\s*page[ _-]?break\s*-->|^\{(\d+)\}-{48}[ \t]*$", re.M | re.I)


def _blank(text: str, start: int, end: int) -> str:
    """``text[start:end]`` as spaces, its line breaks kept (offsets and lines stay)."""
    return re.sub(r"[^\n]", " ", text[start:end])


class _Page:
    """A page's text with what holds no tables blanked out, and its tables as they are found."""

    def __init__(self, text: str):
        self.text = text
        self.page_marks: list[tuple[int, int | None]] = []  # (offset, page it starts where it says)
        for match in _PAGE_MARK.finditer(text):
            self.page_marks.append((match.start(), int(match.group(1)) + 1 if match.group(1) else None))
        self.blanked = self._without_code_and_comments(text)

    def _without_code_and_comments(self, text: str) -> str:
        pieces = []
        position = 0
        fence: str | None = None
        fence_start = 0
        offset = 0
        if "```" in text or "~~~" in text:
            for line in text.splitlines(keepends=True):
                match = _FENCE.match(line.rstrip("\r\n"))
                if fence is None and match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                    fence, fence_start = match.group(1), offset
                elif fence is not None and match and match.group(1)[0] == fence[0] and \
                        len(match.group(1)) >= len(fence) and not match.group(2).strip():
                    pieces.append(text[position:fence_start])
                    pieces.append(_blank(text, fence_start, offset + len(line)))
                    position = offset + len(line)
                    fence = None
                offset += len(line)
            if fence is not None:  # a fence never closed runs to the end
                pieces.append(text[position:fence_start])
                pieces.append(_blank(text, fence_start, len(text)))
                position = len(text)
        pieces.append(text[position:])
        blanked = "".join(pieces)
        if "<!--" in blanked:
            blanked = _COMMENT.sub(lambda m: _blank(m.string, m.start(), m.end()), blanked)
        return blanked

    def page_at(self, offset: int, first: int) -> int:
        page = first
        for at, says in self.page_marks:
            if at >= offset:
                break
            page = says if says is not None else page + 1
        return page


class _CodeSpans:
    """The inline code spans of a page (`` `<table>` `` is text about a table, not one)."""

    def __init__(self, blanked: str):
        self.starts: list[int] = []
        self.ends: list[int] = []
        if "`" in blanked:
            for match in _CODE_SPAN.finditer(blanked):
                self.starts.append(match.start())
                self.ends.append(match.end())

    def holds(self, offset: int) -> bool:
        k = bisect.bisect_right(self.starts, offset) - 1
        return k >= 0 and offset < self.ends[k]


def _html_blocks(blanked: str, code: _CodeSpans) -> list[tuple[int, int, bool]]:
    """(start, end, closed) of each outermost ``<table>`` ... ``</table>`` outside code spans."""
    blocks = []
    depth = 0
    start = 0
    for match in _TABLE_TAG.finditer(blanked):
        if code.starts and code.holds(match.start()):
            continue
        if match.group(1):  # </table>
            if depth:
                depth -= 1
                if depth == 0:
                    blocks.append((start, match.end(), True))
        else:
            if depth == 0:
                start = match.start()
            depth += 1
    if depth:
        blocks.append((start, len(blanked), False))
    return blocks


# -- pipe tables -------------------------------------------------------------------------------

_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_SPLIT = re.compile(r"(?<!\\)\|")
_BLOCK_START = re.compile(r"^ {0,3}(?:#{1,6}(?:\s|$)|>|```|~~~|[-*+]\s|\d{1,9}[.)]\s|(?:[-*_]\s*){3,}$"
                          r"|<(?:!--|/?(?:table|div|p|pre|ul|ol|dl|h[1-6]|blockquote|hr|details|section|figure)"
                          r"(?=[\s/>]|$)))", re.I)


def _row_cells(line: str) -> list[str] | None:
    """The cells of a pipe table row (None: no pipe outside an escape)."""
    stripped = line.strip()
    if "|" not in stripped:
        return None
    parts = _SPLIT.split(stripped) if "\\" in stripped else stripped.split("|")
    if len(parts) == 1:
        return None
    if stripped[0] == "|":
        parts = parts[1:]
    if len(parts) > 1 and stripped[-1] == "|" and stripped[-2:] != "\\|":
        parts = parts[:-1]
    return parts


def _is_delimiter(cells: list[str]) -> bool:
    for cell in cells:
        if not _DELIMITER_CELL.match(cell):
            return False
    return True


def _pipe_tables(blanked: str, taken: list[tuple[int, int]]):
    """(start offset, end offset, line, rows of cell sources) of each pipe table
    in the lines that lie outside ``taken`` ranges."""
    found = []
    lines = blanked.split("\n")
    offsets = []
    offset = 0
    for line in lines:
        offsets.append(offset)
        offset += len(line) + 1
    candidates = [k for k, line in enumerate(lines) if "-" in line and "|" in line]
    k_limit = len(lines)
    next_free = 0
    for k in candidates:
        if k == 0 or k - 1 < next_free:
            continue
        delimiter = _row_cells(lines[k])
        if delimiter is None or not _is_delimiter(delimiter):
            continue
        header = _row_cells(lines[k - 1])
        if header is None or len(header) != len(delimiter):
            continue
        rows = [header]
        end = k + 1
        while end < k_limit:
            line = lines[end]
            if not line.strip() or _BLOCK_START.match(line):
                break
            cells = _row_cells(line)
            rows.append(cells if cells is not None else [line])
            end += 1
        found.append((offsets[k - 1], offsets[end - 1] + len(lines[end - 1]), k, rows))
        next_free = end
    if taken and found:
        found = [t for t in found if not any(a < t[1] and t[0] < b for a, b in taken)]
    return found


# Inline Markdown in a pipe cell: code spans, escapes, HTML tags, entities, emphasis.
_INLINE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?<!`)(?P=code)(?!`)"
    r"|\\(?P<escaped>[!-/:-@\[-`{-~])"
    r"|(?P<tag><(?P<closing>/?)(?P<name>[A-Za-z][A-Za-z0-9]*)(?:\s[^<>]*)?/?>)"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|(?P<strong>\*\*(?=\S)(?P<strong_text>.+?)(?<=\S)\*\*"
    r"|(?<![A-Za-z0-9])__(?=\S)(?P<strong_under>.+?)(?<=\S)__(?![A-Za-z0-9]))"
    r"|(?P<em>\*(?=[^\s*])(?P<em_text>.+?)(?<=[^\s*])\*"
    r"|(?<![A-Za-z0-9_])_(?=[^\s_])(?P<em_under>.+?)(?<=[^\s_])_(?![A-Za-z0-9_]))",
    re.S,
)
_INLINE_PLAIN = re.compile(_INLINE.pattern.split("|(?P<strong>")[0], re.S)  # no emphasis
_MARKED = re.compile(r"[`\\<&*_]")
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_VOID = {"br", "img", "hr", "wbr"}
_new = object.__new__


def _inline_tokens(source: str, tokens: list[str], depth: int = 0) -> None:
    if depth > 50:
        tokens.extend(source)
        return
    position = 0
    # (emphasis is found by a search to its closing mark: in a long cell, not looked for)
    for match in (_INLINE if len(source) <= MAX_INLINE else _INLINE_PLAIN).finditer(source):
        tokens.extend(source[position:match.start()])
        position = match.end()
        if match.group("code") is not None:
            tokens.append("<code>")
            tokens.extend(match.group("code_text").strip() if match.group("code_text").strip() else
                          match.group("code_text"))
            tokens.append("</code>")
        elif match.group("escaped") is not None:
            tokens.append(match.group("escaped"))
        elif match.group("tag") is not None:
            name = match.group("name").lower()
            if name in _VOID:
                if not match.group("closing"):
                    tokens.append(f"<{name}>")
                    tokens.append(f"</{name}>")
            else:
                tokens.append(f"<{match.group('closing')}{name}>")
        elif match.group("entity") is not None:
            tokens.extend(html_entities.unescape(match.group("entity")))
        elif match.group("strong") is not None:
            tokens.append("<b>")
            _inline_tokens(match.group("strong_text") or match.group("strong_under") or "", tokens, depth + 1)
            tokens.append("</b>")
        elif match.group("em") is not None:
            tokens.append("<i>")
            _inline_tokens(match.group("em_text") or match.group("em_under") or "", tokens, depth + 1)
            tokens.append("</i>")
    tokens.extend(source[position:])


def pipe_cell(source: str) -> tuple[str, tuple[str, ...] | None]:
    """A pipe cell's plain text, and its tokens where it has markup."""
    source = source.strip()
    if not _MARKED.search(source):
        if "  " in source or "\t" in source:
            source = _SPACES.sub(" ", source)
        return source, None
    tokens: list[str] = []
    _inline_tokens(source.replace("\\|", "|"), tokens)
    pieces = []
    tagged = False
    for token in tokens:
        if len(token) == 1:
            pieces.append(token)
        else:
            tagged = True
            if token == "<br>":
                pieces.append("\n")
    text = "\n".join(line for line in (_SPACES.sub(" ", part).strip() for part in "".join(pieces).split("\n"))
                     if line)
    return text, tuple(tokens) if tagged else None


def _pipe_table(table_id: int, rows: list[list[str]], page: int, line: int, diagnostics: Diagnostics) -> Table:
    width = len(rows[0])
    if width * len(rows) > MAX_CELLS:
        raise diagnostics.fail("markdown-too-large", f"table {table_id}: {len(rows):,} rows of {width:,} cells; "
                                                     f"tables of more than {MAX_CELLS:,} cells are refused", line=line)
    header_rows = 1
    cells: list[Cell] = []
    texts = [pipe_cell(source) for source in rows[0]]
    if len(rows) > 1 and all(not text for text, _ in texts):
        diagnostics.info("markdown-empty-header", f"table {table_id}: a header row of blank cells is no row",
                         line=line)
        rows = rows[1:]
        header_rows = 0
    ragged = 0
    marked = _MARKED.search
    collapse = _SPACES.sub
    append = cells.append
    new = _new
    for y, row in enumerate(rows):
        if len(row) > width:
            ragged += 1
            row = row[:width]
        header = y < header_rows
        if not header and len(row) == width and marked("".join(row)) is None:
            # No markup in the row, as most rows: each cell's text as written, made field by field
            # (Cell()'s generated __init__ costs more than the rest of the loop).
            for x, source in enumerate(row):
                text = source.strip()
                if "  " in text or "\t" in text:
                    text = collapse(" ", text)
                cell = new(Cell)
                cell.start_row = cell.end_row = y
                cell.start_col = cell.end_col = x
                cell.content = text
                cell.id = cell.bbox = cell.markup = None
                cell.header = False
                cell.instructions = ()
                append(cell)
            continue
        for x in range(width):
            if header:
                text, markup = texts[x]
            elif x < len(row):
                text, markup = pipe_cell(row[x])
            else:
                text, markup = "", None
            append(Cell(y, x, y, x, text, None, None, header, (), markup))
    if ragged:
        diagnostics.warning("markdown-ragged", f"table {table_id}: {ragged} row(s) with more cells than the header "
                                               "row; the cells past it are left out", line=line)
    return Table(table_id, [Region(0, page, cells=cells)])


# -- reading -----------------------------------------------------------------------------------

def decode(data: bytes) -> str:
    """The text as Python reads a text file (:func:`~convertables.text_encoding.decode_text`)."""
    return decode_text(data, newlines=True)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    text = decode(data)
    first_page = options.page or 1
    page = _Page(text)
    blanked = page.blanked
    newlines = [m.start() for m in re.finditer("\n", text)] if "\n" in text else []

    def line_of(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    found: list[tuple[int, object]] = []  # (offset, what to make the tables of)
    taken: list[tuple[int, int]] = []
    code = _CodeSpans(blanked)
    if "<" in blanked:
        for start, end, closed in _html_blocks(blanked, code):
            if not closed:
                diagnostics.warning("markdown-unclosed", "a <table> is never closed: read to the end",
                                    line=line_of(start))
            found.append((start, ("html", text[start:end])))
            taken.append((start, end))
        for start, end in taken:
            blanked = blanked[:start] + _blank(blanked, start, end) + blanked[end:]
    if "\\begin" in blanked:
        for latex in find_tables(blanked, arrays=False):
            if code.starts and code.holds(latex.start):
                continue
            found.append((latex.start, ("latex", latex)))
            taken.append((latex.start, latex.end))
    if "|" in blanked:
        for start, end, line, rows in _pipe_tables(blanked, taken):
            found.append((start, ("pipe", (rows, line))))
    found.sort(key=lambda item: item[0])
    doc = Document()
    to_check = []
    for offset, (kind, what) in found:
        table_page = page.page_at(offset, first_page)
        first_id = len(doc.tables)
        if kind == "html":
            tables = read_tables(what, diagnostics, page=table_page, first_id=first_id,
                                 line_offset=line_of(offset) - 1, cell_placement=options.cell_placement or "whatwg")
            to_check.extend((t.id, t.regions[0]) for t in tables)
            doc.tables.extend(tables)
        elif kind == "latex":
            for code, message in what.warnings:
                diagnostics.warning(code, f"table {first_id}: {message}", line=line_of(what.start))
            doc.tables.append(Table(first_id, [Region(0, table_page, cells=what.cells)]))
        else:
            rows, line = what
            doc.tables.append(_pipe_table(first_id, rows, table_page, line, diagnostics))
    # Pipe and LaTeX tables are placed row by row from column 0 with no overlap; HTML tables
    # are checked where the HTML table model counted a fault.
    return Reading(doc, regions_to_check=to_check)


# -- writing -----------------------------------------------------------------------------------

_PIPE_ESCAPES = str.maketrans({"|": "\\|", "\\": "\\\\", "*": "\\*", "_": "\\_", "`": "\\`", "<": "&lt;",
                               "&": "\\&", "[": "\\[", "]": "\\]", "#": "\\#"})


def _pipe_text(cell: Cell) -> str:
    tokens = cell.markup if cell.markup is not None else tuple(cell.content or "")
    out = []
    for token in tokens:
        if len(token) == 1:
            out.append("<br>" if token == "\n" else token.translate(_PIPE_ESCAPES))
        elif token in ("<b>", "</b>"):
            out.append("**")
        elif token in ("<i>", "</i>"):
            out.append("*")
        elif token == "<br>":
            out.append("<br>")
    text = "".join(out).strip()
    return text


def _entries(table: Table) -> list[tuple[int, int, int, int, Cell]]:
    entries = []
    for region in table.regions:
        for c in region.cells:
            entries.append((c.start_row + region.row_increment, c.start_col + region.col_increment,
                            c.end_row + region.row_increment, c.end_col + region.col_increment, c))
    entries.sort(key=lambda e: (e[0], e[1]))
    return entries


def _as_pipe_table(table: Table, entries: list) -> str | None:
    """The table as a pipe table, or None where one cannot hold it: spans, header
    cells other than exactly the first row, overlapping cells, inline markup, a
    skeleton of its own (an HTML block holds them)."""
    if table.html_structure is not None:
        return None
    if any(r0 != r1 or c0 != c1 or r0 < 0 or c0 < 0 or cell.markup is not None
           for r0, c0, r1, c1, cell in entries):
        return None
    headers = {r0 for r0, _, _, _, cell in entries if cell.header}
    first_row = [e for e in entries if e[0] == 0]
    if headers and (headers != {0} or not all(cell.header for *_, cell in first_row)):
        return None
    height = entries[-1][0] + 1
    width = max(e[1] for e in entries) + 1
    if entries[0][0] != 0 or len(entries) != height * width:
        return None  # (a pipe table has a cell on every slot: a hole would read back as a blank cell)
    grid = [[""] * width for _ in range(height)]
    seen = set()
    for r0, c0, _, _, cell in entries:
        if (r0, c0) in seen:
            return None
        seen.add((r0, c0))
        text = _pipe_text(cell)
        if pipe_cell(text)[0] != (cell.content or ""):
            return None  # (text whose whitespace Markdown would not keep)
        grid[r0][c0] = text
    if not any(grid[0]) and (headers or height == 1):
        return None  # (a header row of blank cells reads as no row; a table of one such row as none)
    lines = []
    if not headers:
        lines.append("|" + " |" * width)
    for y, row in enumerate(grid):
        lines.append("| " + " | ".join(row) + " |")
        if y == 0 and headers:
            lines.append("|" + "---|" * width)
    if not headers:
        lines.insert(1, "|" + "---|" * width)
    return "\n".join(lines)


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    blocks = []
    page = 1
    for table in doc.tables:
        table_page = table.page or 1
        while page < table_page:
            blocks.append("<!-- page break -->")
            page += 1
        entries = _entries(table)
        written = _as_pipe_table(table, entries) if entries else None
        if written is None:  # an HTML block, as the html format writes the table
            written = table_html(table, diagnostics, "source", [0], code="markdown", opening="<table>")
        blocks.append(written)
    return ("\n\n".join(blocks) + "\n").encode("utf-8") if blocks else b""


# -- the format --------------------------------------------------------------------------------

# (The repeated cell is atomic: a run of dashes is one cell's, never split
# between several, which a line that fails at its end would try in every way.)
_SNIFF_DELIMITER = re.compile(rb"^[ \t]*\|?[ \t]*:?-+:?[ \t]*\|[ \t]*(?>:?-+:?[ \t]*\|?[ \t]*)*$", re.M)
_SNIFF_HTML_OR_LATEX = re.compile(rb"<table\b|\\begin\{(?:tabular\*?|tabularx|tabulary|longtable)\}", re.I)


def sniff(head: bytes) -> bool:
    """Text (not JSON, not XML) with a pipe table's delimiter row, or with an
    HTML or LaTeX table after some text (a file that starts with the table is
    HTML's or LaTeX's)."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start in (b"{", b"[", b"<", b"\\", b"%") or not start:
        return False
    return _SNIFF_DELIMITER.search(head) is not None or _SNIFF_HTML_OR_LATEX.search(head) is not None


FORMAT = DECLARED["markdown"]
