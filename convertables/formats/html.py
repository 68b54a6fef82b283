"""HTML tables (SPEC 2.2), including FineReader, Acrobat and pandas exports.

Parsing: beautifulsoup4 with lxml as the tree builder. lxml closes implied
``</td>``, ``</tr>`` and ``</p>`` as browsers do and is fast; where it differs
from a browser's HTML5 parser for tables (it does not insert the implied
``<tr>`` around cells written directly under ``<table>`` or ``<tbody>``), this
module does what the browser's parser would: consecutive cells outside a row
form one row. Encoding: from the BOM, ``<meta charset>``, or the content
(beautifulsoup's detection; a Latin-1 file without a meta tag reads correctly).

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
line break. ``<th>`` sets the header flag. Every ``<table>`` is a table, in
document order; a nested table is a table of its own.

Pages: a ``data-page`` attribute on the table (written by convertables), else
page breaks marked in CSS (``page-break-before/after: always``, ``break-before:
page``) counted in document order, else a ``-page-<p>-`` in the file name
(Camelot, tabula-py), else ``--page`` or 1. ``<meta name="generator">`` goes to
``Document.metadata["generator"]``.

pandas' ``DataFrame.to_html`` (``<table class="dataframe">``) adds a header row
of column labels and an index column; when they are pandas' default integer
labels they are dropped (``pandas-labels`` info), unless
``ReadOptions.extra["keep_pandas_labels"]``.

The writer writes one ``<table>`` per table, its regions merged by their
increments, with ``rowspan``/``colspan``, ``<th>`` for header cells and empty
``<td>`` where a row has a hole, so that a browser puts every cell where the
model has it.
"""

from __future__ import annotations

import html as html_escape
import re
import warnings
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..grid import drop_pandas_default_labels, validate_document
from ..model import Cell, Document, Region, Table
from ..options import ReadOptions, WriteOptions

COLSPAN_MAX = 1000  # the WHATWG caps
ROWSPAN_MAX = 65534
_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
           "dl", "dt", "dd", "section", "article", "header", "footer", "address", "hr"}
_INVISIBLE = {"script", "style", "template", "noscript", "head", "title"}
_PAGE_BREAK = re.compile(r"(page-break-(before|after)\s*:\s*always|break-(before|after)\s*:\s*page)", re.I)
_PAGE_IN_NAME = re.compile(r"-page-(\d+)-table-\d+", re.I)
_WS = re.compile(r"[ \t\n\r\f]+")


def parse_non_negative(value: str | None) -> int | None:
    """The HTML rules for parsing non-negative integers: leading whitespace,
    optional '+', then digits; anything after the digits is ignored."""
    if value is None:
        return None
    match = re.match(r"[ \t\n\f\r]*\+?([0-9]+)", value)
    return int(match.group(1)) if match else None


# -- the table model -------------------------------------------------------------------------

@dataclass
class _Slot:
    x0: int
    x1: int  # inclusive
    y0: int
    y1: float  # inclusive; inf while the cell grows downward
    element: object
    header: bool


@dataclass
class _Model:
    cells: list[_Slot] = field(default_factory=list)
    active: list[_Slot] = field(default_factory=list)
    """Cells that may still cover the current row or a later one."""
    height: int = 0
    width: int = 0
    y: int = 0
    growing: list[_Slot] = field(default_factory=list)
    overlaps: int = 0
    bad_spans: list[str] = field(default_factory=list)

    def occupied(self) -> list[tuple[int, int]]:
        """Occupied x-intervals of row ``y``, sorted (cells that ended are dropped)."""
        self.active = [c for c in self.active if c.y1 >= self.y]
        return sorted((c.x0, c.x1) for c in self.active if c.y0 <= self.y)

    def row(self, cells: list) -> None:
        if self.height == self.y:
            self.height += 1
        x = 0
        # Slots taken by cells from rows above, sorted; cells of this row always
        # lie left of x, so one forward pass finds every first free slot.
        intervals = self.occupied()
        k = 0
        for element in cells:
            while k < len(intervals) and intervals[k][1] < x:
                k += 1
            while k < len(intervals) and intervals[k][0] <= x:
                x = max(x, intervals[k][1] + 1)
                k += 1
                while k < len(intervals) and intervals[k][1] < x:
                    k += 1
            if x == self.width:
                self.width += 1
            colspan = parse_non_negative(element.get("colspan"))
            rowspan = parse_non_negative(element.get("rowspan"))
            for name, raw, parsed in (("colspan", element.get("colspan"), colspan),
                                      ("rowspan", element.get("rowspan"), rowspan)):
                if raw is not None and (parsed is None or str(parsed) != raw.strip().lstrip("+")):
                    self.bad_spans.append(f"{name}={raw!r}")
            if colspan is None or colspan == 0:
                colspan = 1
            colspan = min(colspan, COLSPAN_MAX)
            if rowspan is None:
                rowspan = 1
            grows = rowspan == 0
            rowspan = 1 if grows else min(rowspan, ROWSPAN_MAX)
            self.width = max(self.width, x + colspan)
            self.height = max(self.height, self.y + rowspan)
            slot = _Slot(x, x + colspan - 1, self.y, float("inf") if grows else self.y + rowspan - 1, element,
                         element.name == "th")
            if k < len(intervals) and intervals[k][0] <= slot.x1:
                self.overlaps += 1  # a table model error: two cells on one slot
            self.cells.append(slot)
            if slot.y1 > self.y:
                self.active.append(slot)
            if grows:
                self.growing.append(slot)
            x += colspan
        self.y += 1

    def end_row_group(self) -> None:
        # Growing cells reach the last row of the group; no loop over rows.
        self.y = max(self.y, self.height)
        for slot in self.growing:
            slot.y1 = max(slot.y0, self.height - 1)
        self.growing = []


def _children(el):
    return [c for c in el.children if getattr(c, "name", None)]


def _rows_of(container) -> list[list]:
    """The rows of a row group (or of the table itself): ``<tr>``s, and runs of
    cells outside any ``<tr>`` (a browser's parser wraps them in one)."""
    rows, loose = [], []
    for child in _children(container):
        if child.name == "tr":
            if loose:
                rows.append(loose)
                loose = []
            rows.append([c for c in _children(child) if c.name in ("td", "th")])
        elif child.name in ("td", "th"):
            loose.append(child)
    if loose:
        rows.append(loose)
    return rows


def form_table(table_el) -> _Model:
    model = _Model()
    pending_tfoot = []
    loose: list = []
    for child in _children(table_el):
        name = child.name
        if name in ("tr", "td", "th"):
            loose.append(child)
            continue
        if loose:  # rows directly under <table>
            for row in _rows_of_list(loose):
                model.row(row)
            loose = []
        if name == "tfoot":
            model.end_row_group()
            pending_tfoot.append(child)
        elif name in ("thead", "tbody"):
            model.end_row_group()
            for row in _rows_of(child):
                model.row(row)
            model.end_row_group()
    for row in _rows_of_list(loose):
        model.row(row)
    model.end_row_group()
    for tfoot in pending_tfoot:
        for row in _rows_of(tfoot):
            model.row(row)
        model.end_row_group()
    return model


def _rows_of_list(elements: list) -> list[list]:
    rows, loose = [], []
    for el in elements:
        if el.name == "tr":
            if loose:
                rows.append(loose)
                loose = []
            rows.append([c for c in _children(el) if c.name in ("td", "th")])
        else:
            loose.append(el)
    if loose:
        rows.append(loose)
    return rows


# -- text ------------------------------------------------------------------------------------

def cell_text(element) -> str:
    parts: list[str] = []

    def walk(node) -> None:
        for child in node.children:
            name = getattr(child, "name", None)
            if name is None:
                if type(child).__name__ in ("Comment", "Doctype", "Declaration", "ProcessingInstruction", "CData"):
                    continue
                parts.append(_WS.sub(" ", str(child)))
            elif name == "br":
                parts.append("\n")
            elif name in _INVISIBLE or name == "table":
                continue  # a nested table is a table of its own
            elif name in _BLOCKS:
                parts.append("\n")
                walk(child)
                parts.append("\n")
            else:
                walk(child)

    walk(element)
    text = "".join(parts)
    # Line breaks (from <br> and block boundaries) separate lines; empty lines go.
    lines = (_WS.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


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
    return "dataframe" in (table_el.get("class") or [])


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    from bs4 import BeautifulSoup  # imported here: only HTML needs it

    if not data.strip():
        raise diagnostics.fail("html-empty", "the file is empty")
    text = decode(data)
    try:
        with warnings.catch_warnings():  # bs4 warns on XML-looking input; the tables are what we read
            warnings.simplefilter("ignore")
            soup = BeautifulSoup(text, "lxml")
    except Exception as exc:  # the parser's own failure on garbage
        raise diagnostics.fail("html-unreadable", f"cannot be parsed as HTML: {exc}") from None
    doc = Document()
    generator = soup.find("meta", attrs={"name": re.compile("^generator$", re.I)})
    if generator is not None and generator.get("content"):
        doc.metadata["generator"] = generator["content"]
    title = soup.find("title")
    if title is not None and title.get_text(strip=True):
        doc.filename = title.get_text(strip=True)
    base_page = options.page or 1
    name_match = _PAGE_IN_NAME.search(diagnostics.file or "")
    if name_match and options.page is None:
        base_page = int(name_match.group(1))
    keep_labels = bool(options.extra.get("keep_pandas_labels", False))

    page = base_page
    table_index = 0
    for element in soup.find_all(True):
        style = element.get("style") or ""
        if _PAGE_BREAK.search(style) and re.search(r"before", _PAGE_BREAK.search(style).group(0), re.I):
            page += 1
        if element.name == "table":
            model = form_table(element)
            explicit = parse_non_negative(element.get("data-page"))
            cells = [
                Cell(
                    start_row=slot.y0, start_col=slot.x0, end_row=int(slot.y1), end_col=slot.x1,
                    content=cell_text(slot.element), header=slot.header,
                )
                for slot in model.cells
            ]
            if model.bad_spans:
                diagnostics.warning(
                    "html-span", f"table {table_index}: span value(s) {', '.join(model.bad_spans[:3])} read by the "
                                 "HTML rules (invalid values count as 1)",
                    line=getattr(element, "sourceline", None),
                )
            if _is_pandas(element) and not keep_labels:
                dropped = drop_pandas_default_labels(cells)
                if dropped is not None:
                    cells = dropped
                    diagnostics.info("pandas-labels", f"table {table_index}: pandas' default integer header row "
                                                      "and index column dropped (--keep-index keeps them)")
            doc.tables.append(Table(table_index, [Region(0, explicit or page, cells=cells)]))
            table_index += 1
        if _PAGE_BREAK.search(style) and re.search(r"after", _PAGE_BREAK.search(style).group(0), re.I):
            page += 1
    validate_document(doc, diagnostics)
    return doc


# -- writing ---------------------------------------------------------------------------------

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
            text = "<br>".join(html_escape.escape(part) for part in (cell.content or "").split("\n"))
            line.append(f"<{tag}{attrs}>{text}</{tag}>")
            if r1 > y:
                covering.append((c0, c1, r1))
            x = c1 + 1
        line.append("</tr>")
        out.append("".join(line))
    out.append("</table>")
    return "\n".join(out)


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    title = html_escape.escape(doc.filename or "tables")
    body = "\n".join(_table_html(t, diagnostics) for t in doc.tables)
    page = (
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="generator" content="convertables">\n'
        f"<title>{title}</title>\n"
        "<style>table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:2px 6px}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
    return page.encode("utf-8")
