"""HTML tables (docs/formats.md, `html`), including FineReader, Acrobat and pandas exports.

Parsing: lxml's HTML parser (libxml2's, in recovery mode, no network, no
``huge_tree``), its tree read directly. It is the parser that beautifulsoup's
lxml tree builder drives, fed the same text, so the tree and therefore the
tables are the ones beautifulsoup gave (a thousand pages compared, malformed ones
included), without building beautifulsoup's own tree of Python objects on top of
the parse.
libxml2 closes implied ``</td>``, ``</tr>`` and ``</p>`` as browsers do; where it
differs from a browser's HTML5 parser for tables (it does not insert the implied
``<tr>`` around cells written directly under ``<table>`` or ``<tbody>``), this
module does what the browser's parser would: consecutive cells outside a row
form one row. Elements after ``</html>`` (further top-level elements in
libxml2's tree) are read too. libxml2 stops building its own tree at 256 nested
elements and drops the rest of the page; such a page is parsed again and its
tree built from the parser's events, as beautifulsoup did, with no limit on
depth. Encoding: from the BOM, ``<meta charset>`` in the first 1024 bytes, else
UTF-8 if the bytes are valid UTF-8, else windows-1252 (a Latin-1 file without a
meta tag reads correctly); the parser gets the decoded text.

Grid positions follow the WHATWG table-processing model ("forming a table"):
row groups in order with every ``<tfoot>`` after the rest, rows directly under
``<table>``, the first free slot for each cell, ``rowspan=0`` growing to the end
of its row group, spans parsed by the rules for non-negative integers (``"2]"``
is 2; ``"abc"``, ``""``, ``"-1"`` and ``colspan="0"`` are 1), ``colspan`` capped
at 1000 and ``rowspan`` at 65534. Slots are never allocated one by one: the
occupied parts of the current row are intervals, so a cell spanning 65534 rows
or 100,000 cells of colspan 1000 cost their number of cells, not their area.

Content is the cell's visible text (scripts, styles and nested tables left
out), whitespace runs collapsed to one space, ``<br>`` and block boundaries as a
line break, a no-break space (and any other space but ASCII whitespace) kept as text, as browsers keep
it; comments, processing instructions and doctypes are not text, the
text after them is. A ``<th>``, a cell in ``<thead>`` and a ``<td scope>`` are
header cells. Every ``<table>`` is a table, in
document order; a nested table is a table of its own.

Pages: a ``data-page`` attribute on the table (written by convertables), else
page breaks marked in CSS (``page-break-before/after: always``, ``break-before:
page``) counted in document order, else a ``-page-<p>-`` in the file name
(Camelot, tabula-py), else ``--page`` or 1. ``<meta name="generator">`` goes to
``Document.metadata["generator"]``, the first ``<title>``'s text (each text
run stripped, the runs joined) to ``Document.filename``.

pandas' ``DataFrame.to_html`` (``<table class="dataframe">``) writes a line
break, tab or carriage return in a cell as ``\n``, ``\t``, ``\r`` (two
characters): they are read back as the characters. It adds a header row
of column labels and an index column; when they are pandas' default integer
labels they are dropped (``pandas-labels`` info), unless
``ReadOptions.extra["keep_pandas_labels"]``.

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

from lxml import etree

from ..diagnostics import Diagnostics
from ..grid import drop_pandas_default_labels
from ..model import Cell, Document, Region, Table
from ..options import PAGE, PANDAS_LABELS, Option, ReadOptions, WriteOptions
from ..registry import Format
from ..skeleton import (CELL_OPENINGS, cells_on_covered_slots, own_skeleton_fits, placed, skeleton,
                        span_leaves_its_row_group, span_tokens)
from ..sniffing import xml_root

COLSPAN_MAX = 1000  # the WHATWG caps
ROWSPAN_MAX = 65534
_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
           "dl", "dt", "dd", "section", "article", "header", "footer", "address", "hr"}
_INVISIBLE = {"script", "style", "template", "noscript", "head", "title"}
_PAGE_BREAK = re.compile(r"(page-break-(before|after)\s*:\s*always|break-(before|after)\s*:\s*page)", re.I)
_PAGE_IN_NAME = re.compile(r"-page-(\d+)-table-\d+", re.I)
_WS = re.compile(r"[ \t\n\r\f]+")
_HTML_SPACE = " \t\n\r\f"  # what HTML collapses and a browser trims; a no-break space is text
_LEFT_OUT = _INVISIBLE | {"table"}
_STRING_CONTAINERS = {"script", "style", "template", "rt", "rp"}  # beautifulsoup's: their text is not text
_GENERATOR = re.compile("^generator$", re.I)
_RESOURCE_LIMIT = etree.ErrorTypes.ERR_RESOURCE_LIMIT
# Every <table>, and every element that may carry a page break, in document order.
_TABLES_AND_STYLES = etree.XPath("descendant-or-self::table | descendant-or-self::*[@style]")


def _tables_and_styles(top, may_have_styles: bool):
    if isinstance(top, _Node):
        return top.tables_and_styles()
    if not may_have_styles:
        return top.iter("table")  # found faster than by the XPath
    return _TABLES_AND_STYLES(top)


def parse_non_negative(value: str | None) -> int | None:
    """The HTML rules for parsing non-negative integers: leading whitespace,
    optional '+', then digits; anything after the digits is ignored."""
    if value is None:
        return None
    match = re.match(r"[ \t\n\f\r]*\+?([0-9]+)", value)
    return int(match.group(1)) if match else None


# -- the table model -------------------------------------------------------------------------

_GROWING = 1 << 62  # the end row of a rowspan=0 cell until its row group ends

# Cells are made field by field in _Model.row, once for every cell of a page: calling
# Cell() runs its dataclass __init__ in a new interpreter frame entered from C, which
# making the object and storing its nine fields here avoids. (A field added
# to Cell and not set here fails tests/test_format_cases.py.)
_new = object.__new__


def _spans(element, bad_spans: list[str]) -> tuple[int, int]:
    """(colspan, rowspan) by the HTML rules, rowspan 0 for a cell that grows to
    the end of its row group; values that the rules read differently from how
    they are written are noted in ``bad_spans``."""
    raw_colspan = element.get("colspan")
    raw_rowspan = element.get("rowspan")
    colspan = parse_non_negative(raw_colspan)
    rowspan = parse_non_negative(raw_rowspan)
    for name, raw, parsed in (("colspan", raw_colspan, colspan), ("rowspan", raw_rowspan, rowspan)):
        if raw is not None and (parsed is None or str(parsed) != raw.strip().lstrip("+")):
            bad_spans.append(f"{name}={raw!r}")
    if colspan is None or colspan == 0:
        colspan = 1
    if rowspan is None:
        rowspan = 1
    return min(colspan, COLSPAN_MAX), min(rowspan, ROWSPAN_MAX)


class _Model:
    """The slots of one table: its cells, in document order, each made once."""

    def __init__(self):
        self.cells: list[Cell] = []
        self.active: list[Cell] = []
        """Cells that may still cover the current row or a later one."""
        self.height = 0
        self.width = 0
        self.y = 0
        self.growing: list[Cell] = []
        self.overlaps = 0
        self.bad_spans: list[str] = []
        self.in_head = False
        """Rows of a <thead>: their cells are header cells, <td> or <th>."""
        self.structure: list[str] = []
        """The table's skeleton as PubTabNet's structure tokens (Table.html_structure)."""

    def row(self, elements) -> None:
        """One row: ``elements`` are the row's children (a ``<tr>``, or a run of
        cells outside one); those that are not ``<td>`` or ``<th>`` are passed over."""
        structure = self.structure
        in_tr = elements.__class__ is not list
        if in_tr:
            structure.append("<tr>")
        y = self.y
        height = self.height
        if height == y:
            height += 1
        width = self.width
        if self.active:
            # Slots taken by cells from rows above, sorted; cells of this row always
            # lie left of x, so one forward pass finds every first free slot.
            self.active = active = [c for c in self.active if c.end_row >= y]
            intervals = sorted((c.start_col, c.end_col) for c in active if c.start_row <= y)
        else:
            intervals = []
        n = len(intervals)
        k = 0
        x = 0
        cells = self.cells
        in_head = self.in_head
        for element in elements:
            tag = element.tag
            if tag != "td" and tag != "th":
                continue
            header = in_head or tag == "th"
            if k < n:
                while k < n and intervals[k][1] < x:
                    k += 1
                while k < n and intervals[k][0] <= x:
                    x = max(x, intervals[k][1] + 1)
                    k += 1
                    while k < n and intervals[k][1] < x:
                        k += 1
            if element.items():
                if element.get("scope") is not None:  # a <td scope>: HTML 4's cell both header and data
                    header = True
                colspan, rowspan = _spans(element, self.bad_spans)
                x1 = x + colspan - 1
                if rowspan == 0:
                    y1 = _GROWING
                else:
                    y1 = y + rowspan - 1
                    if y1 >= height:
                        height = y1 + 1
                if colspan != 1 or rowspan != 1:
                    structure.append("<" + tag)
                    if rowspan != 1:
                        structure.append(f' rowspan="{rowspan}"')
                    if colspan != 1:
                        structure.append(f' colspan="{colspan}"')
                    structure.append(">")
                else:
                    structure.append("<td>" if tag == "td" else "<th>")
            else:  # most cells have no attributes at all: one slot
                x1 = x
                y1 = y
                structure.append("<td>" if tag == "td" else "<th>")
            structure.append("</td>" if tag == "td" else "</th>")
            if x1 >= width:
                width = x1 + 1
            if len(element):
                text = cell_text(element)
                markup = cell_markup(element)
                if len(markup) == len(text) and "".join(markup) == text:
                    markup = None
            else:  # cell_text's common case, inline: text only
                raw = text = element.text
                if text:
                    text = text.strip(_HTML_SPACE)
                    if not text.isprintable() or "  " in text:
                        text = _WS.sub(" ", text)
                    markup = None if raw == text else tuple(raw)
                else:
                    text = ""
                    markup = None
            cell = _new(Cell)  # (every field set, as Cell(y, x, y1, x1, text, header=tag == "th") sets them)
            cell.start_row = y
            cell.start_col = x
            cell.end_row = y1
            cell.end_col = x1
            cell.content = text
            cell.id = cell.bbox = None
            cell.header = header
            cell.instructions = ()
            cell.markup = markup
            if k < n and intervals[k][0] <= x1:
                self.overlaps += 1  # a table model error: two cells on one slot
            cells.append(cell)
            if y1 > y:
                self.active.append(cell)
                if y1 == _GROWING:
                    self.growing.append(cell)
            x = x1 + 1
        if in_tr:
            structure.append("</tr>")
        self.y = y + 1
        self.height = height
        self.width = width

    def end_row_group(self) -> None:
        # Growing cells reach the last row of the group; no loop over rows.
        self.y = max(self.y, self.height)
        for cell in self.growing:
            cell.end_row = max(cell.start_row, self.height - 1)
        self.growing = []


def _rows_of(container) -> list:
    """The rows of a row group (or of the table itself): each ``<tr>``'s children,
    and runs of cells outside any ``<tr>`` (a browser's parser wraps them in one)."""
    rows, loose = [], []
    for child in container:  # comments are children too; their tag is not a string
        tag = child.tag
        if tag == "tr":
            if loose:
                rows.append(loose)
                loose = []
            rows.append(child)
        elif tag == "td" or tag == "th":
            loose.append(child)
    if loose:
        rows.append(loose)
    return rows


def form_table(table_el) -> _Model:
    model = _Model()
    pending_tfoot = []
    loose: list = []
    for child in table_el:
        name = child.tag
        if name.__class__ is not str:
            continue  # a comment does not end a run of loose cells
        if name == "tr" or name == "td" or name == "th":
            loose.append(child)
            continue
        if loose:  # rows directly under <table>
            for row in _rows_of(loose):
                model.row(row)
            loose = []
        if name == "tfoot":
            model.end_row_group()
            pending_tfoot.append(child)
        elif name == "thead" or name == "tbody":
            model.end_row_group()
            model.structure.append(f"<{name}>")
            model.in_head = name == "thead"
            for row in _rows_of(child):
                model.row(row)
            model.in_head = False
            model.structure.append(f"</{name}>")
            model.end_row_group()
    for row in _rows_of(loose):
        model.row(row)
    model.end_row_group()
    for tfoot in pending_tfoot:  # the skeleton follows the cells' order: footers last
        model.structure.append("<tfoot>")
        for row in _rows_of(tfoot):
            model.row(row)
        model.structure.append("</tfoot>")
        model.end_row_group()
    return model


# -- text ------------------------------------------------------------------------------------

# A line break while the text is gathered. Text never holds NUL: libxml2's parser
# gives U+FFFD for it (to its tree and to its events alike).
_BREAK = "\0"


def cell_text(element) -> str:
    """The visible text of a cell. The tree is walked without recursion (a cell
    may hold thousands of nested elements); the text runs are each element's
    ``.text`` and ``.tail``, and a comment's tail is text like any other."""
    if len(element) == 0:  # the common case: text only
        text = element.text
        if not text:
            return ""
        text = text.strip(_HTML_SPACE)  # stripping first is the same: runs of whitespace never cross the ends
        if text.isprintable() and "  " not in text:
            return text  # no tab, newline, CR, form feed or double space: nothing to collapse
        return _WS.sub(" ", text)
    parts: list[str] = []
    if element.text:
        parts.append(element.text)
    stack = [iter(element)]
    after: list[tuple[str, str | None]] = []  # for each element entered: its closing break and its tail
    while stack:
        for child in stack[-1]:
            tag = child.tag
            if tag.__class__ is str:  # else a comment or processing instruction: left out, its tail kept
                if tag == "br":
                    parts.append(_BREAK)
                elif tag in _LEFT_OUT:
                    pass  # a nested table is a table of its own
                else:
                    block = tag in _BLOCKS
                    if block:
                        parts.append(_BREAK)
                    if child.text:
                        parts.append(child.text)
                    stack.append(iter(child))
                    after.append((_BREAK if block else "", child.tail))
                    break
            if child.tail:
                parts.append(child.tail)
        else:
            stack.pop()
            if after:
                closing, tail = after.pop()
                if closing:
                    parts.append(closing)
                if tail:
                    parts.append(tail)
    # Line breaks (from <br> and block boundaries) separate lines; empty lines go.
    lines = (line.strip(" ") for line in _WS.sub(" ", "".join(parts)).split(_BREAK))
    return "\n".join(line for line in lines if line)


def cell_markup(element) -> tuple[str, ...]:
    """The cell's tokens as TEDS reads a cell (PubTabNet's ``metric.py``): each
    character of every text run as given (whitespace included), and each element
    inside as ``<tag>`` ... ``</tag>`` tokens of its own, its tail after it.
    Comments and processing instructions are no tokens; their tails are text.
    Walked without recursion, as :func:`cell_text` is."""
    tokens: list[str] = list(element.text or "")
    stack = [iter(element)]
    closing: list[tuple[str, str | None]] = []  # for each element entered: its closing tag and its tail
    while stack:
        for child in stack[-1]:
            tag = child.tag
            if tag.__class__ is str:
                tokens.append(f"<{tag}>")
                if child.text:
                    tokens.extend(child.text)
                stack.append(iter(child))
                # As PubTabNet's tokenizer: no closing token for <unk>, and no tail
                # after a <td> (of a table nested in the cell).
                closing.append(("" if tag == "unk" else f"</{tag}>", None if tag == "td" else child.tail))
                break
            if child.tail:
                tokens.extend(child.tail)
        else:
            stack.pop()
            if closing:
                end, tail = closing.pop()
                if end:
                    tokens.append(end)
                if tail:
                    tokens.extend(tail)
    return tuple(tokens)


# -- reading ---------------------------------------------------------------------------------

_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def decode(data: bytes) -> str:
    """The document's text: BOM, then <meta charset> in the first 1024 bytes,
    then UTF-8 if the bytes are valid UTF-8, else windows-1252 (what browsers
    use for unlabelled Western pages, a superset of Latin-1)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, "replace")
    match = _META_CHARSET.search(data[:1024])
    if match:
        try:
            return data.decode(match.group(1).decode("ascii"), "replace")
        except LookupError:
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def _is_pandas(table_el) -> bool:
    # class is a list of tokens separated by whitespace (as beautifulsoup split it)
    return "dataframe" in (table_el.get("class") or "").split()


# DataFrame.to_html writes a tab, line feed or carriage return inside a cell as
# the two characters \t, \n, \r (and a backslash as itself, so a text that
# held those two characters is read as the control character too).
_PANDAS_ESCAPED = re.compile(r"\\[ntr]")
_PANDAS_UNESCAPED = {"\\n": "\n", "\\t": "\t", "\\r": "\r"}


def _unescape_pandas(cells: list[Cell]) -> None:
    for cell in cells:
        if cell.content and "\\" in cell.content:
            cell.content = _PANDAS_ESCAPED.sub(lambda match: _PANDAS_UNESCAPED[match.group()], cell.content)


def _parser(**target) -> etree.HTMLParser:
    # A new parser each call (lxml parsers are not thread-safe to share). libxml2's
    # HTML parser in recovery mode, as beautifulsoup's lxml builder set it up: no
    # network, no huge_tree (libxml2's limits stay), blank text kept; comments and
    # processing instructions are kept in the tree (their tails are text) and skipped.
    return etree.HTMLParser(
        recover=True, no_network=True, huge_tree=False, remove_blank_text=False,
        remove_comments=False, remove_pis=False, collect_ids=False, default_doctype=False, **target,
    )


class _Node:
    """An element (or a comment) of a tree built from parse events, with the part
    of lxml's element interface that this module uses. Such a tree holds what
    lxml's cannot: any depth, and any name and text that the HTML parser gave."""

    __slots__ = ("tag", "attrib", "text", "tail", "parent", "children")
    sourceline = None

    def __init__(self, tag, attrib: dict, parent: _Node | None):
        self.tag = tag
        self.attrib = attrib
        self.text = self.tail = None
        self.parent = parent
        self.children: list[_Node] = []

    def get(self, key: str, default=None):
        return self.attrib.get(key, default)

    def items(self) -> list[tuple[str, str]]:
        return list(self.attrib.items())

    def __iter__(self):
        return iter(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def iter(self, tag: str):
        """The elements named ``tag`` in this subtree, in document order."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node.tag == tag:
                yield node
            stack.extend(reversed(node.children))

    def iterancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def tables_and_styles(self) -> list[_Node]:
        stack, found = [self], []
        while stack:
            node = stack.pop()
            if node.tag == "table" or "style" in node.attrib:
                found.append(node)
            stack.extend(reversed(node.children))
        return found


class _Events:
    """A parser target that builds a tree of :class:`_Node` from the parse
    events, as beautifulsoup did: every top-level element kept, text runs
    joined, what is left open at the end closed."""

    def __init__(self):
        self.tops: list[_Node] = []
        self._open: list[_Node] = []
        self._last: _Node | None = None  # the node whose text (or, once ended, tail) comes next
        self._in_tail = False
        self._data: list[str] = []

    def _flush(self) -> None:
        if self._data and self._last is not None:
            text = "".join(self._data)
            if self._in_tail:
                self._last.tail = (self._last.tail or "") + text
            else:
                self._last.text = (self._last.text or "") + text
        self._data = []

    def _add(self, tag, attrib: dict) -> _Node:
        self._flush()
        parent = self._open[-1] if self._open else None
        node = _Node(tag, attrib, parent)
        if parent is not None:
            parent.children.append(node)
        self._last = node
        return node

    def start(self, tag, attrib):
        node = self._add(tag, dict(attrib))
        if not self._open:
            self.tops.append(node)
        self._open.append(node)
        self._in_tail = False

    def end(self, tag):
        self._flush()
        self._last = self._open.pop()
        self._in_tail = True

    def data(self, data):
        self._data.append(data)

    def comment(self, text):
        self._add(etree.Comment, {}).text = text
        self._in_tail = True

    def pi(self, target, data=None):
        self._add(etree.PI, {}).text = data
        self._in_tail = True

    def close(self):
        while self._open:
            self.end(None)
        self._flush()
        return self.tops


def _parse(text: str) -> list:
    """The top-level elements of ``text`` parsed as HTML, in document order: none
    for a document of only whitespace, comments or a doctype, and more than one
    where elements follow ``</html>``."""
    parser = _parser()
    parser.feed(text)  # a str is fed to libxml2 as UTF-8: the <meta charset> is not obeyed twice
    root = parser.close()
    if any(e.type == _RESOURCE_LIMIT for e in parser.feed_error_log):
        # libxml2 stops building its own tree at a limit (elements nested 256 deep)
        # and drops the rest of the page; its parse events have no such limit. The
        # tree is built from them instead (slower; what beautifulsoup did).
        parser = _parser(target=_Events())
        parser.feed(text)
        return parser.close()
    if root is None:
        return []
    return [root, *(e for e in root.itersiblings() if e.tag.__class__ is str)]


def _title_text(title) -> str:
    """bs4's ``get_text(strip=True)``: each text run stripped, the non-empty ones
    joined with nothing; text inside script, style, template, rt and rp elements
    (anywhere above it too) is not text."""
    for ancestor in title.iterancestors():
        if ancestor.tag in _STRING_CONTAINERS:
            return ""
    pieces = [title.text]
    stack = [iter(title)]
    tails: list[str | None] = []
    while stack:
        for child in stack[-1]:
            if child.tag.__class__ is str and child.tag not in _STRING_CONTAINERS:
                pieces.append(child.text)
                stack.append(iter(child))
                tails.append(child.tail)
                break
            pieces.append(child.tail)
        else:
            stack.pop()
            if tails:
                pieces.append(tails.pop())
    return "".join(piece.strip() for piece in pieces if piece)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    if not data.strip():
        raise diagnostics.fail("html-empty", "the file is empty")
    text = decode(data)
    if text.startswith("\ufeff"):  # a second byte-order mark is not text (lxml would keep it)
        text = text[1:]
    try:
        tops = _parse(text)
    except Exception as exc:  # the parser's own failure on garbage
        raise diagnostics.fail("html-unreadable", f"cannot be parsed as HTML: {exc}") from None
    doc = Document()
    generator = next((m for top in tops for m in top.iter("meta") if _GENERATOR.search(m.get("name") or "")), None)
    if generator is not None and generator.get("content"):
        doc.metadata["generator"] = generator.get("content")
    title = next((t for top in tops for t in top.iter("title")), None)
    if title is not None:
        title_text = _title_text(title)
        if title_text:
            doc.filename = title_text
    base_page = options.page or 1
    name_match = _PAGE_IN_NAME.search(diagnostics.file or "")
    if name_match and options.page is None:
        base_page = int(name_match.group(1))
    keep_labels = bool(options.keep_pandas_labels)

    page = base_page
    table_index = 0
    suspects: list[tuple[int, Region]] = []  # tables whose formation counted a fault
    # No page break without a style attribute, and no style attribute without these
    # five letters in the page in some case (libxml2 lower-cases ASCII letters in
    # names). lower() may also make them of other letters (the Kelvin sign): then the
    # XPath looks, no harm done. (lower() and a plain search, not a case-insensitive
    # regex: the page is scanned once, and this is the cheaper scan.)
    may_have_styles = "style" in text.lower()
    reference_table = _reference_table(text, tops)
    for element in (e for top in tops for e in _tables_and_styles(top, may_have_styles)):
        if element is reference_table:
            doc.metadata["teds_table"] = str(table_index)
        style = element.get("style") or ""
        found = _PAGE_BREAK.search(style) if style else None
        if found and re.search(r"before", found.group(0), re.I):
            page += 1
        if element.tag == "table":
            model = form_table(element)
            explicit = parse_non_negative(element.get("data-page"))
            cells = model.cells
            if model.bad_spans:
                diagnostics.warning(
                    "html-span", f"table {table_index}: span value(s) {', '.join(model.bad_spans[:3])} read by the "
                                 "HTML rules (invalid values count as 1)",
                    line=element.sourceline,
                )
            if _is_pandas(element):
                _unescape_pandas(cells)
            if _is_pandas(element) and not keep_labels:
                dropped = drop_pandas_default_labels(cells)
                if dropped is not None:
                    cells = dropped
                    diagnostics.info("pandas-labels", f"table {table_index}: pandas' default integer header row "
                                                      "and index column dropped (--keep-index keeps them)",
                                     line=element.sourceline)
            # The skeleton holds one opening per cell formed; where pandas' labels were
            # dropped it no longer fits the cells, and TEDS builds its tree from the grid.
            structure = tuple(model.structure) if cells is model.cells else None
            table = Table(table_index, [Region(0, explicit or page, cells=cells)], structure)
            doc.tables.append(table)
            if model.overlaps:
                suspects.append((table.id, table.regions[0]))
            table_index += 1
        if found and re.search(r"after", found.group(0), re.I):
            page += 1
    # The grid check needs no look at the other tables: the table model places
    # every cell on free slots, from row 0 and column 0 on, with ends at or after
    # its start and no ids; the one error it lets through (a colspan reaching a
    # slot a cell from a row above holds) is counted as it happens.
    diagnostics.regions_to_check = suspects
    if doc.tables:
        doc.metadata.setdefault("teds_table", "none")
    return doc


_FULL_DOCUMENT = re.compile(r"\s*<(html|!doctype)\b", re.I)


def _reference_table(text: str, tops: list):
    """The table PubTabNet's TEDS reference scores of this page: lxml.html reads a
    string that starts with ``<html`` or ``<!doctype`` as a document and scores
    the first table directly inside its ``<body>``; any other string as a
    fragment, with no ``<body>``, so nothing (TEDS 0). None where there is none."""
    if not _FULL_DOCUMENT.match(text):
        return None
    for top in tops:
        if top.tag != "html":
            continue
        for body in top:
            if body.tag == "body":
                return next((child for child in body if child.tag == "table"), None)
    return None


# -- writing ---------------------------------------------------------------------------------

# A table is written slot by slot (an empty <td> for each hole, a <tr> for every row):
# one whose grid holds more slots than this is refused rather than written for hours.
MAX_WRITTEN_SLOTS = 10_000_000


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


HEADER_CELLS = Option(
    "header_cells", "--header-cells", str,
    "HTML output: source (as the table's own HTML skeleton has them, else as PubTabNet writes them: <td> in "
    "<thead>, <td scope> elsewhere), th (every header cell as <th>) or td (every one as <td>).",
    "source", "write", choices=("source", "th", "td"))

FORMAT = Format(
    "html", "HTML tables (also FineReader, Acrobat and pandas exports)", (".html", ".htm", ".xhtml"), sniff,
    ("structure",), read, write, options=(PAGE, PANDAS_LABELS, HEADER_CELLS),
    holds=frozenset({"empty", "text", "spans", "blank", "unknown", "header-rows", "header-cells",
                    "markup", "skeleton", "pages"}),
)
