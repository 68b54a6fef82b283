"""The HTML table model, shared by every format that carries HTML tables
(``html``, ``pubtabnet-html``, and pages whose tables are written as HTML).

:func:`read_tables` reads every ``<table>`` of an HTML text (str or bytes) into
model :class:`~convertables.model.Table` objects; :func:`read_page` also gives
what a whole page says beside its tables (its generator, title, the table
PubTabNet's TEDS scores, the regions the grid check must look at), and
:func:`read_document` makes a :class:`~convertables.model.Document` of it.

Parsing: :mod:`convertables.html_tree` (libxml2's HTML parser, as
beautifulsoup's lxml builder drives it, with a tree of its own for pages
nested too deep for libxml2's). libxml2 closes implied ``</td>``, ``</tr>`` and
``</p>`` as browsers do; where it differs from a browser's HTML5 parser for
tables (it does not insert the implied ``<tr>`` around cells written directly
under ``<table>`` or ``<tbody>``), this module does what the browser's parser
would: consecutive cells outside a row form one row. Encoding of bytes: from
the BOM, ``<meta charset>`` in the first 1024 bytes, else UTF-8 if the bytes
are valid UTF-8, else windows-1252 (a Latin-1 file without a meta tag reads
correctly); the parser gets the decoded text.

Grid positions follow the WHATWG table-processing model ("forming a table"):
row groups in order with every ``<tfoot>`` after the rest, rows directly under
``<table>``, the first free slot for each cell, ``rowspan=0`` growing to the end
of its row group, spans parsed by the rules for non-negative integers (``"2]"``
is 2; ``"abc"``, ``""``, ``"-1"`` and ``colspan="0"`` are 1; ``html-span``
warns), ``colspan`` capped at 1000 and ``rowspan`` at 65534. Slots are never
allocated one by one: the occupied parts of the current row are intervals, so
a cell spanning 65534 rows or 100,000 cells of colspan 1000 cost their number
of cells, not their area.

Content is the cell's visible text (scripts, styles and nested tables left
out), whitespace runs collapsed to one space, ``<br>`` and block boundaries as a
line break; comments, processing instructions and doctypes are not text, the
text after them is. Where the cell holds more than its text (inline tags,
whitespace), ``Cell.markup`` holds its tokens as TEDS reads them. ``<th>`` sets
the header flag. Every ``<table>`` is a table, in document order; a nested
table is a table of its own. Each table's skeleton is its ``html_structure``.

Pages: a ``data-page`` attribute on the table (written by convertables), else
page breaks marked in CSS (``page-break-before/after: always``, ``break-before:
page``) counted in document order from the first page given.

pandas' ``DataFrame.to_html`` (``<table class="dataframe">``) writes a line
break, tab or carriage return in a cell as ``\\n``, ``\\t``, ``\\r`` (two
characters): they are read back as the characters. It adds a header row
of column labels and an index column; when they are pandas' default integer
labels they are dropped (``pandas-labels`` info), unless asked to keep them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostics import Diagnostics
from .grid import drop_pandas_default_labels, html_non_negative_int
from .html_tree import parse, tables_and_styles, title_text
from .model import Cell, Document, Reading, Region, Table, make_cell
from .text_encoding import split_bom

COLSPAN_MAX = 1000  # the WHATWG caps
ROWSPAN_MAX = 65534
_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
           "dl", "dt", "dd", "section", "article", "header", "footer", "address", "hr"}
_INVISIBLE = {"script", "style", "template", "noscript", "head", "title"}
_PAGE_BREAK = re.compile(r"(page-break-(before|after)\s*:\s*always|break-(before|after)\s*:\s*page)", re.I)
_WS = re.compile(r"[ \t\n\r\f]+")
_HTML_SPACE = " \t\n\r\f"  # what HTML collapses and a browser trims; a no-break space is text
_LEFT_OUT = _INVISIBLE | {"table"}
_GENERATOR = re.compile("^generator$", re.I)

# -- the table model -------------------------------------------------------------------------

_GROWING = 1 << 62  # the end row of a rowspan=0 cell until its row group ends

def _spans(element, bad_spans: list[str]) -> tuple[int, int]:
    """(colspan, rowspan) by the HTML rules, rowspan 0 for a cell that grows to
    the end of its row group; values that the rules read differently from how
    they are written are noted in ``bad_spans``."""
    raw_colspan = element.get("colspan")
    raw_rowspan = element.get("rowspan")
    colspan = html_non_negative_int(raw_colspan)
    rowspan = html_non_negative_int(raw_rowspan)
    for name, raw, parsed in (("colspan", raw_colspan, colspan), ("rowspan", raw_rowspan, rowspan)):
        if raw is not None and (parsed is None or str(parsed) != raw.strip().lstrip("+")):
            bad_spans.append(f"{name}={raw!r}")
    if colspan is None or colspan == 0:
        colspan = 1
    if rowspan is None:
        rowspan = 1
    return min(colspan, COLSPAN_MAX), min(rowspan, ROWSPAN_MAX)


class TableModel:
    """The slots of one table: its cells, in document order, each made once.
    ``document_order``: rows numbered as written, with no row group ending the
    spans of another (see :func:`form_table`)."""

    def __init__(self, document_order: bool = False):
        self.document_order = document_order
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
                if rowspan == 0 and not self.document_order:
                    y1 = _GROWING
                else:
                    y1 = y + max(rowspan, 1) - 1
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
            cell = make_cell(y, x, y1, x1, text, None, header, markup)
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


def form_table(table_el, placement: str = "whatwg") -> TableModel:
    """The table's slots, by the WHATWG model (``placement`` "whatwg"), or with
    its rows numbered in the order they are written ("document-order", as
    readers that walk the rows do, grits-metric's among them): a ``<tfoot>``
    where it stands, a row group's spans running on into the next, and
    ``rowspan=0`` one row. Either way each cell takes the first free slot of
    its row."""
    if placement == "document-order":
        return _form_in_document_order(table_el)
    model = TableModel()
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


def _form_in_document_order(table_el) -> TableModel:
    model = TableModel(document_order=True)
    loose: list = []
    for child in table_el:
        name = child.tag
        if name.__class__ is not str:
            continue
        if name == "tr" or name == "td" or name == "th":
            loose.append(child)
            continue
        if name in ("thead", "tbody", "tfoot"):
            for row in _rows_of(loose):
                model.row(row)
            loose = []
            model.structure.append(f"<{name}>")
            model.in_head = name == "thead"
            for row in _rows_of(child):
                model.row(row)
            model.in_head = False
            model.structure.append(f"</{name}>")
    for row in _rows_of(loose):
        model.row(row)
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

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def decode(data: bytes) -> str:
    """The document's text: BOM, then <meta charset> in the first 1024 bytes,
    then UTF-8 if the bytes are valid UTF-8, else windows-1252 (what browsers
    use for unlabelled Western pages, a superset of Latin-1)."""
    encoding, body = split_bom(data)
    if encoding is not None:
        return body.decode(encoding, "replace")
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


@dataclass
class HtmlPage:
    """What an HTML text holds: its tables, and what the page says beside them."""

    tables: list[Table] = field(default_factory=list)
    to_check: list[tuple[int, Region]] = field(default_factory=list)
    """The ``(table id, region)`` pairs whose formation counted a fault (two cells
    on one slot), for ``Reading.regions_to_check``: the table model keeps
    every other table's grid invariants."""
    reference_table: int | None = None
    """The position in :attr:`tables` of the table PubTabNet's TEDS reference
    scores for this page (see :func:`_reference_table`), None where it scores none."""
    generator: str | None = None
    """``<meta name="generator">``'s content."""
    title: str | None = None
    """The first ``<title>``'s text (each text run stripped, the runs joined)."""


MARKUP_PER_CHARACTER = 8
"""The most markup tokens (TEDS's) the cells of a page may hold in all, per
character of the page: a cell's markup holds every table nested in it, so tables
nested in one another repeat their inner tables' markup once a level, which
would grow with the square of the page's size."""


def read_page(source: str | bytes, diagnostics: Diagnostics, *, page: int = 1, first_id: int = 0,
              keep_pandas_labels: bool = False, line_offset: int = 0, cell_placement: str = "whatwg") -> HtmlPage:
    """Every table of the HTML ``source`` (bytes are decoded as :func:`decode`
    says), numbered from ``first_id``, on ``page`` unless a ``data-page`` or a
    CSS page break says otherwise; findings go to ``diagnostics``, their lines
    the source's plus ``line_offset`` (where the HTML sits inside a larger file);
    ``cell_placement``: how cells take their slots (:func:`form_table`).
    Raises (``html-unreadable``) where the parser itself fails."""
    text = decode(source) if isinstance(source, (bytes, bytearray)) else source
    if text.startswith("\ufeff"):  # a second byte-order mark is not text (lxml would keep it)
        text = text[1:]
    try:
        tops = parse(text)
    except Exception as exc:  # the parser's own failure on garbage
        raise diagnostics.fail("html-unreadable", f"cannot be parsed as HTML: {exc}") from None
    found = HtmlPage()
    generator = next((m for top in tops for m in top.iter("meta") if _GENERATOR.search(m.get("name") or "")), None)
    if generator is not None and generator.get("content"):
        found.generator = generator.get("content")
    title = next((t for top in tops for t in top.iter("title")), None)
    if title is not None:
        found.title = title_text(title) or None

    def line_of(element) -> int | None:
        line = element.sourceline
        return line + line_offset if line is not None else None

    table_id = first_id
    # No page break without a style attribute, and no style attribute without these
    # five letters in the page in some case (libxml2 lower-cases ASCII letters in
    # names). lower() may also make them of other letters (the Kelvin sign): then the
    # XPath looks, no harm done. (lower() and a plain search, not a case-insensitive
    # regex: the page is scanned once, and this is the cheaper scan.)
    may_have_styles = "style" in text.lower()
    reference_table = _reference_table(text, tops)
    markup_left = MARKUP_PER_CHARACTER * len(text) + 100_000
    for element in (e for top in tops for e in tables_and_styles(top, may_have_styles)):
        if element is reference_table:
            found.reference_table = len(found.tables)
        style = element.get("style") or ""
        page_break = _PAGE_BREAK.search(style) if style else None
        if page_break and re.search(r"before", page_break.group(0), re.I):
            page += 1
        if element.tag == "table":
            model = form_table(element, cell_placement)
            explicit = html_non_negative_int(element.get("data-page"))
            cells = model.cells
            markup_left -= sum(len(cell.markup) for cell in cells if cell.markup is not None)
            if markup_left < 0:
                raise diagnostics.fail("too-large", f"table {table_id}: the cells' markup adds up to more than "
                                                    f"{MARKUP_PER_CHARACTER} tokens a character of the file (a cell "
                                                    "holds the markup of every table nested in it)",
                                       line=line_of(element))
            if model.bad_spans:
                diagnostics.warning(
                    "html-span", f"table {table_id}: span value(s) {', '.join(model.bad_spans[:3])} read by the "
                                 "HTML rules (invalid values count as 1)",
                    line=line_of(element),
                )
            if _is_pandas(element):
                _unescape_pandas(cells)
                if not keep_pandas_labels:
                    dropped = drop_pandas_default_labels(cells)
                    if dropped is not None:
                        cells = dropped
                        diagnostics.info("pandas-labels", f"table {table_id}: pandas' default integer header row "
                                                          "and index column dropped (--keep-index keeps them)",
                                         line=line_of(element))
            # The skeleton holds one opening per cell formed; where pandas' labels were
            # dropped it no longer fits the cells, and TEDS builds its tree from the grid.
            structure = tuple(model.structure) if cells is model.cells else None
            table = Table(table_id, [Region(0, explicit or page, cells=cells)], structure)
            found.tables.append(table)
            if model.overlaps:
                found.to_check.append((table.id, table.regions[0]))
            table_id += 1
        if page_break and re.search(r"after", page_break.group(0), re.I):
            page += 1
    return found


def read_tables(source: str | bytes, diagnostics: Diagnostics, *, page: int = 1, first_id: int = 0,
                keep_pandas_labels: bool = False, line_offset: int = 0,
                cell_placement: str = "whatwg") -> list[Table]:
    """The tables of the HTML ``source`` (see :func:`read_page`), each with its
    cells' text and markup, header flags and ``html_structure``."""
    return read_page(source, diagnostics, page=page, first_id=first_id, keep_pandas_labels=keep_pandas_labels,
                     line_offset=line_offset, cell_placement=cell_placement).tables


def read_document(source: str | bytes, diagnostics: Diagnostics, *, page: int = 1,
                  keep_pandas_labels: bool = False, cell_placement: str = "whatwg") -> Reading:
    """An HTML page as a document (see :func:`read_page`): its tables, the
    generator in ``metadata["generator"]``, the title as ``filename``, the
    table TEDS scores in ``metadata["teds_table"]``, with the regions the grid
    check must look at."""
    found = read_page(source, diagnostics, page=page, keep_pandas_labels=keep_pandas_labels,
                      cell_placement=cell_placement)
    doc = Document(tables=found.tables)
    if found.generator:
        doc.metadata["generator"] = found.generator
    if found.title:
        doc.filename = found.title
    # The grid check needs no look at the other tables: the table model places
    # every cell on free slots, from row 0 and column 0 on, with ends at or after
    # its start and no ids; the one error it lets through (a colspan reaching a
    # slot a cell from a row above holds) is counted as it happens.
    if doc.tables:
        doc.metadata["teds_table"] = "none" if found.reference_table is None else str(found.reference_table)
    return Reading(doc, regions_to_check=found.to_check)


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
