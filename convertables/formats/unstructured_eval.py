"""Unstructured's elements JSON as Unstructured's own table evaluation reads it
(docs/formats.md, `unstructured-eval`; ``score --profile unstructured``). Read
only, and only when named: its files are the ``unstructured`` format's, which
reads them as a browser would.

A JSON list of elements; each element of ``type: "Table"`` may be a table:

* ``text`` a list of cells (the evaluation's ground truth, "deckerd" cells):
  each cell is at row ``y`` and column ``x`` with its ``content`` (``w`` and
  ``h`` are kept as its extent, which the evaluation compares nowhere). A
  table whose list is empty is a table without cells. Where a cell lacks
  whole numbers ``x`` and ``y`` or a ``content``, the evaluation cannot sort
  the table's cells and reads it as a table without cells, and so does this
  reading (``unstructured-bad-value``); where no cell is sound, the evaluation
  reads a blank cell at no position for each (``unstructured-eval-differs``).
* else ``metadata.text_as_html`` holding the literal ``<table>`` (so not
  ``<table border="1">`` nor ``<TABLE>``): the first ``table`` element of that
  HTML, parsed as BeautifulSoup's ``html.parser`` builder parses it (tags
  nest as written: an end tag closes the last open element of its name and
  what is open inside it, an unmatched one is ignored, nothing closes
  implicitly; ``<td/>`` is an empty cell). Its rows are all the ``tr``
  elements inside it in document order (nested tables' too), a row's cells
  all the ``td`` and ``th`` inside that row; a cell's text is all the text
  inside it, exactly as written (entities decoded; comments, scripts, styles,
  templates and ruby annotations left out; ``<br>`` nothing; whitespace kept,
  but a run of it alone between two tags is one line break, or one space). Row ``y`` is the row's index; column ``x`` starts as the cell's
  index in its row and moves right, with the cells after it, while a slot
  covered by an earlier cell's span holds it, the spans taken where the cells
  stood when they were met (a spanning cell that moves leaves its span behind,
  as the evaluation places them). A table without any cell, or whose
  ``colspan``/``rowspan`` Python's ``int()`` cannot read, is not a table.
  ``table_as_cells`` is not read.

Other elements are passed over. Pages are not read: the evaluation pairs a
document's tables regardless of their page. The cells' order is the
evaluation's: by row, then column, the first first on ties.

Where the evaluation itself fails on a document (a cell content that is not
text, ``metadata`` that is not an object, ``text_as_html`` that is neither
text, a list, an object nor null), ``unstructured-eval-fails`` says so: it
would leave the document out of its figures; here it is read as well as can
be. A ``Table`` element without ``metadata`` nor a list of cells is not read
(``unstructured-eval-differs``: the evaluation fails on it in a prediction).
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..jsonsafe import integer
from ..model import Document, Region, Table, make_cell
from ..options import ReadOptions
from ..parser_json import Findings, short, unstructured_elements
from ..soup_tree import ASCII_SPACES, SoupTreeBuilder
from .declarations import DECLARED

CELL_TABLES, HTML_TABLES = "unstructured_eval_cell_tables", "unstructured_eval_html_tables"
"""The keys of a document's metadata that count its tables read from cell lists
and from ``text_as_html`` (as text)."""

MAX_SPAN = 65534
"""The largest span read (an HTML table's rowspan cap); larger ones are read as
this, with ``unstructured-eval-differs``."""

_PLAIN_MARKUP = re.compile(r'(?:</?(?:table|thead|tbody|tfoot|tr|td|th)>|<t[dh](?: (?:col|row)span=(?:"\d+"|\d+))++>'
                           r'|[^<&]++|&[a-zA-Z][a-zA-Z0-9]*+;|&#(?:[0-9]++|[xX][0-9a-fA-F]++);)*+')
"""Markup of table tags without attributes but spans (digits), text, and
references closed by a semicolon: what html.parser reads as those tags, that
text and those references, whose tokens are read here without it."""
_PLAIN_TOKEN = re.compile(r"<(/?)([a-z]+)([^>]*)>|&#([^;]+);|&([^;]+);|[^<&]+")
_PLAIN_ATTRIBUTE = re.compile(r' ([a-z]+)="?(\d+)')


def _feed(tree: SoupTreeBuilder, source: str) -> None:
    if _PLAIN_MARKUP.fullmatch(source) is None:
        tree.feed(source)
        tree.close()
        return
    for token in _PLAIN_TOKEN.finditer(source):
        tag = token[2]
        if tag is not None:
            if token[1]:
                tree.handle_endtag(tag)
            else:
                tree.handle_starttag(tag, _PLAIN_ATTRIBUTE.findall(token[3]) if token[3] else [])
        elif token[4] is not None:
            tree.handle_charref(token[4])
        elif token[5] is not None:
            tree.handle_entityref(token[5])
        else:
            tree.handle_data(token[0])
    tree._flush()


_CELL_TAGS = frozenset({"td", "th"})
_ROW_TAGS = frozenset({"tr"})


_FLAT_TEXT = r"(?:[^<&]++|&[a-zA-Z][a-zA-Z0-9]*+;|&#(?:[0-9]++|[xX][0-9a-fA-F]++);)*+"
_FLAT_TABLE = re.compile(r'<table>(?:<tr>(?:<(t[dh])(?: (?:col|row)span=(?:"\d+"|\d+))*+>' + _FLAT_TEXT
                         + r"</\1>)*+</tr>)*+</table>")
"""One table of rows of cells, each closed, without attributes but spans,
without nesting: each cell's text is the one run of text inside it (its
references decoded)."""
_FLAT_ROW = re.compile(r"<tr>(.*?)</tr>", re.DOTALL)
_FLAT_CELL = re.compile(r"<t[dh]([^>]*)>([^<]*)</t[dh]>")
_BARE_TABLE = re.compile(r"<table>(?:<tr>(?:<td>[^<&]*+</td>|<th>[^<&]*+</th>)*+</tr>)*+</table>")
"""The commonest flat table: no attributes, no references."""
_BARE_CELL = re.compile(r"<t[dh]>([^<]*)</t[dh]>")


def _flat_text(text: str) -> str:
    """A cell's one run of text, as the tree keeps it."""
    if "&" in text:
        tree = SoupTreeBuilder()
        _feed(tree, text)
        return "".join(tree.root.children)
    if text.strip(ASCII_SPACES):
        return text
    return "" if not text else "\n" if "\n" in text else " "


def _table_rows(source: str) -> list[list[tuple[dict, str]]] | None:
    """The rows of the first table of ``source``: each cell's attributes and
    text; None where there is no table."""
    if _FLAT_TABLE.fullmatch(source):
        return [[(dict(_PLAIN_ATTRIBUTE.findall(spans)) if spans else {}, _flat_text(text))
                 for spans, text in _FLAT_CELL.findall(row)] for row in _FLAT_ROW.findall(source)]
    tree = SoupTreeBuilder()
    try:
        _feed(tree, source)
    except (AssertionError, ValueError):  # (html.parser's refusals of some markup)
        return None
    tables = tree.root.find_all(frozenset({"table"}))
    if not tables:
        return None
    return [[(cell.attrs, cell.text()) for cell in row.find_all(_CELL_TAGS)]
            for row in tables[0].find_all(_ROW_TAGS)]


def html_cells(source: str) -> list[tuple[int, int, int, int, str]] | None:
    """The cells of the first table of ``source`` as the evaluation places them:
    (row, column, colspan, rowspan, text), by row then column; None where the
    evaluation finds no table (no ``table`` element, or a span ``int()`` refuses)."""
    if _BARE_TABLE.fullmatch(source):  # (no spans: each cell where it stands)
        return [(y, x, 1, 1, _flat_text(text)) for y, row in enumerate(_FLAT_ROW.findall(source))
                for x, text in enumerate(_BARE_CELL.findall(row))]
    rows = _table_rows(source)
    if rows is None:
        return None
    placed = []
    # The slots covered by spans, a row's as intervals [start, end) of columns
    # (a cell's own slot is not covered by its span).
    covered: list[list[tuple[int, int]]] = [[] for _ in rows]
    for y, row in enumerate(rows):
        shift = 0  # (a cell that moves right moves the cells after it in its row too)
        for x, (attrs, text) in enumerate(row):
            if not attrs:
                w = h = 1
            else:
                try:
                    w, h = int(attrs.get("colspan", 1)), int(attrs.get("rowspan", 1))
                except (TypeError, ValueError):
                    return None
            at = x + shift
            if (w > 1 or h > 1) and w > 0:
                if w > 1:
                    covered[y].append((at + 1, at + w))
                for i in range(y + 1, min(y + h, len(rows))):
                    covered[i].append((at, at + w))
            while covered[y] and any(start <= at < end for start, end in covered[y]):
                shift += 1
                at += 1
            placed.append((y, at, w, h, text))
    return placed


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()
        self.from_cells = self.from_html = 0

    def fails(self, kind: str, where: str) -> None:
        self.findings.add("unstructured-eval-fails", f"Unstructured's evaluation fails on this document ({kind}): "
                                                     "it would leave it out of its figures", where)

    def differs(self, kind: str, where: str) -> None:
        self.findings.add("unstructured-eval-differs", kind, where)

    def add(self, cells: list, where: str) -> None:
        made = []
        for y, x, w, h, text in cells:
            if w == 1 and h == 1 and type(w) is int and type(h) is int:  # (the common cell)
                made.append(make_cell(y, x, y, x, text))
                continue
            w, h = (w if type(w) is int and w >= 1 else 1), (h if type(h) is int and h >= 1 else 1)
            if w > MAX_SPAN or h > MAX_SPAN:
                self.differs(f"a span larger than {MAX_SPAN} read as {MAX_SPAN}", where)
                w, h = min(w, MAX_SPAN), min(h, MAX_SPAN)
            made.append(make_cell(y, x, y + h - 1, x + w - 1, text))
        table_id = len(self.doc.tables)
        self.doc.tables.append(Table(table_id, [Region(0, 1, cells=made)]))

    def gt_table(self, value: list, where: str) -> None:
        cells, sound = [], 0
        for k, item in enumerate(value):
            if type(item) is dict:  # (the common cell: whole numbers x and y, a text)
                x, y, content = item.get("x"), item.get("y"), item.get("content")
                if type(x) is int and type(y) is int and type(content) is str:
                    sound += 1
                    if cells is not None:
                        cells.append((y, x, item.get("w", 1), item.get("h", 1), content))
                    continue
            get = item.get if type(item) is dict else None
            x, y = (integer(get("x")), integer(get("y"))) if get else (None, None)
            if get and ((type(get("x")) is not int and x is not None) or (type(get("y")) is not int and y is not None)):
                self.differs("a cell whose x or y is a whole number written as a fraction (3.0): the evaluation "
                             "compares its content with that text", f"cell {k} of {where}")
            content = get("content") if get else None
            if get and "content" in item and type(content) is not str:
                self.fails(f"a cell whose content is not text: {short(content)}", f"cell {k} of {where}")
                content = "" if content is None else str(content)
            if x is None or y is None or content is None:
                cells = None
                continue
            sound += 1
            if cells is not None:
                cells.append((y, x, get("w", 1), get("h", 1), content))
        if cells is None:
            if sound:
                self.findings.add("unstructured-bad-value", "a cell without whole numbers x and y or without "
                                  "content: the evaluation cannot sort the table's cells and reads it as a table "
                                  "without cells; so does this reading", where)
            else:
                self.differs("no cell with whole numbers x and y and content: the evaluation reads a blank cell "
                             "at no position for each; this reading a table without cells", where)
            cells = []
        cells.sort(key=lambda c: (c[0], c[1]))
        self.add(cells, where)

    def table(self, element: dict, where: str) -> None:
        text = element.get("text")
        if type(text) is list:
            self.gt_table(text, where)
            self.from_cells += 1
            return
        if "metadata" not in element:
            self.differs("a Table element without metadata nor a list of cells: the evaluation fails on it in a "
                         "prediction, and reads a table of blank cells at no position from it in a ground truth; "
                         "not read", where)
            return
        metadata = element["metadata"]
        if type(metadata) is not dict:
            self.fails(f"metadata that is not an object: {short(metadata)}", where)
            return
        html = metadata.get("text_as_html")
        if html is not None and type(html) is not str:
            if type(html) not in (list, dict):
                self.fails(f"text_as_html that is not text: {short(html)}", where)
            return
        if not html or "<table>" not in html:
            return
        cells = html_cells(html)
        if cells:
            self.add(cells, where)
            self.from_html += 1

    def read(self, elements: list) -> Document:
        for k, element in enumerate(elements):
            if type(element) is not dict:
                self.fails("an element that is not an object", f"element {k}")
                continue
            if element.get("type") == "Table":
                name = element.get("element_id")
                self.table(element, f"element {k}" + (f" ({name[:40]})" if type(name) is str else ""))
        self.findings.report(self.diagnostics)
        # (the evaluation reads a ground truth's cell lists only, a prediction's HTML only: the metric says
        # where a document is read from the other)
        self.doc.metadata[CELL_TABLES], self.doc.metadata[HTML_TABLES] = str(self.from_cells), str(self.from_html)
        return self.doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    return _Reader(diagnostics).read(unstructured_elements(data, diagnostics))


def sniff(head: bytes) -> bool:
    return False  # the files are the unstructured format's; this reading is chosen by name


FORMAT = DECLARED["unstructured_eval"]
