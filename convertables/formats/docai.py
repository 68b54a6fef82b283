"""Google Document AI's Document JSON (docs/formats.md, `docai`): what a processor
returns (``ProcessResponse``: ``{"document": {...}}``) and what batch processing
writes, one file a shard (a bare Document). Read only.

Fields are read by their proto3 JSON names (``headerRows``) or by their proto
names (``header_rows``, what ``preserving_proto_field_name`` writes); proto3
omits defaults, so a missing number is 0, a missing list empty, a ``null`` the
same as missing.

Tables: ``pages[].tables[]``, one table a region on its page (``pageNumber``,
else the page's position, 1-based), in document order. Their rows are the
``headerRows`` then the ``bodyRows``; each row's cells go to the first free slot
(left of it, slots taken by row spans from above are passed over) and cover
``rowSpan`` x ``colSpan`` slots (missing or 0: 1; negative: 1, ``docai-span``;
past the table's last row or over :data:`MAX_COLSPAN` columns: clipped,
``docai-span``). Cells of ``headerRows`` are headers.

Text: ``layout.textAnchor.textSegments`` are ``[startIndex, endIndex)`` offsets
into the document's ``text`` (code points, as Python and the service's own
toolbox slice them), less the shard's ``shardInfo.textOffset``, written as
int64s are in proto3 JSON: decimal strings (``"123"``), or numbers. The
segments' texts are joined, and whitespace at both ends is stripped (every line
Document AI reads ends with ``"\\n"``); line breaks inside are kept. Without
segments, ``textAnchor.content`` is the text, and without that the cell is
blank (``""``). A segment outside the text (another shard's), negative or
inverted makes the cell's text unknown (``None``, ``docai-text-offset``), as
does a document without ``text`` (``docai-no-text``; ``content`` still counts).

Boxes: ``layout.boundingPoly``: ``normalizedVertices`` (fractions of the page,
frame ``page``) where there are any, else ``vertices`` (pixels, frame
``image``); a missing ``x`` or ``y`` is 0. The box is the polygon's envelope;
the polygon is kept where it is not that rectangle (a skewed scan). Page sizes
come from ``pages[].dimension`` (``pixels``: frame ``image``; ``points`` and
``inches``: PDF points).

Values: int32 and float fields (spans, ``pageNumber``, coordinates, sizes) take
JSON numbers, int64 ones (offsets) numbers or decimal strings; anything else is
a ``docai-bad-value`` warning and the default (the cell's text unknown for an
offset, no box for a coordinate). The first :data:`SAID_PER_CODE` findings of
a code are said with their paths, the rest counted. Limits: :data:`MAX_CELL_ROWS`,
:data:`MAX_EXTRA_TEXT` and the JSON parser's own (``convertables.jsonsafe``:
size, depth). The grid check runs after this reader, as after every reader.
"""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import Diagnostics
from ..jsonsafe import integer, number, parse_json
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED

MAX_COLSPAN = 1000
"""A wider ``colSpan`` is clipped (HTML's cap)."""
MAX_CELL_ROWS = 2_000_000
"""Documents whose cells, each counted once for every row it spans, number more are refused."""
MAX_EXTRA_TEXT = 50_000_000
"""Cells' texts may add up to the document's text and this many characters more
(texts that overlap); beyond it the document is refused."""

SAID_PER_CODE = 5
"""Findings said one by one for each code; the rest are counted in one more."""

_DOCUMENT_KEYS = {"uri", "content", "docid", "mimeType", "mime_type", "text", "textStyles", "text_styles", "pages",
                  "entities", "shardInfo", "shard_info", "error", "revisions", "documentLayout", "document_layout",
                  "document", "humanReviewStatus", "human_review_status"}
_FIRST_KEY = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(\w+)"\s*:')
_ANCHOR_KEY = re.compile(rb'"text_?[aA]nchor"\s*:|"text_?[sS]egments"\s*:')
_MIME_THEN_TEXT = re.compile(rb'"mime_?[tT]ype"\s*:\s*"[^"\\]*"\s*,\s*"text"\s*:')
_INT64 = re.compile(r"-?[0-9]{1,19}\Z")
_NUMBERS = (int, float)  # (JSON numbers: json.loads makes no others; bool is not one, by class)
_UNITS = {"pixels": (Frame.IMAGE, 1.0), "points": (Frame.PDF, 1.0), "inches": (Frame.PDF, 72.0)}


def sniff(head: bytes) -> bool:
    """A JSON object whose first key is a Document's (or a ProcessResponse's) and
    that has a ``textAnchor`` key, or whose ``mimeType`` is followed by ``text``
    (the Document's field order; the text may be longer than the head)."""
    match = _FIRST_KEY.match(head)
    if match is None or match.group(1).decode() not in _DOCUMENT_KEYS:
        return False
    return _ANCHOR_KEY.search(head) is not None or _MIME_THEN_TEXT.search(head) is not None


_PROTO_NAMES = {name: re.sub("([A-Z])", lambda m: "_" + m.group(1).lower(), name) for name in (
    "pages", "pageNumber", "dimension", "tables", "headerRows", "bodyRows", "cells", "rowSpan", "colSpan", "layout",
    "textAnchor", "textSegments", "startIndex", "endIndex", "content", "boundingPoly", "normalizedVertices",
    "vertices", "text", "shardInfo", "textOffset", "uri", "documentLayout")}


def _get(obj: dict, name: str) -> Any:
    """A field by its JSON name, else by its proto name (``headerRows``, ``header_rows``)."""
    value = obj.get(name)
    return obj.get(_PROTO_NAMES[name]) if value is None else value


# What the messages of lost content say (a cell passed over, a box left out).
_LOSSES = ("passed over", "no box", "without a box", "left out")


class _At(tuple):
    """Where a cell is (its row's path and its position), made into text only when said."""

    def __new__(cls, row: str, n: int):
        return tuple.__new__(cls, (row, n))

    def __str__(self) -> str:
        return f"{self[0]}.cells[{self[1]}]"


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.notes: dict[str, list] = {}  # code -> [severity, the first messages, count]
        self.text: str | None = None
        self.text_offset = 0
        self.cell_rows = 0
        self.text_budget = MAX_EXTRA_TEXT

    def note(self, code: str, message: str, severity: str = "warning") -> None:
        seen = self.notes.setdefault(code, [severity, [], 0])
        if seen[2] < SAID_PER_CODE:
            seen[1].append(message)
        seen[2] += 1

    def said(self) -> None:
        for code, (severity, messages, count) in self.notes.items():
            if severity == "warning" and any(_LOST in m for m in messages for _LOST in _LOSSES):
                severity = "error"  # (a cell or box passed over is content lost: an error, as for every format)
            say = getattr(self.diagnostics, severity)
            for message in messages:
                say(code, message)
            if count > len(messages):
                say(code, f"{count - len(messages):,} more like these")

    def objects(self, value: Any, where: str, what: str) -> list[tuple[int, dict]]:
        """The objects of a list field with their positions in it (missing: none);
        anything else is noted and passed over."""
        if value is None:
            return []
        if value.__class__ is not list:
            self.note("docai-bad-value", f"{where}: {what} is not a list; read as empty")
            return []
        found = [(k, item) for k, item in enumerate(value) if item.__class__ is dict]
        if len(found) < len(value):
            self.note("docai-bad-value", f"{where}: {what} holds something other than an object; passed over")
        return found

    def count(self, obj: dict, name: str, where: str, instead: str) -> int | None:
        """An int32 field: a JSON integer; None where it is missing, or is not one (noted)."""
        value = _get(obj, name)
        if value is None:
            return None
        found = integer(value)
        if found is None:
            self.note("docai-bad-value", f"{where}: {name} {value!r:.40} is not a JSON integer; {instead}")
        return found

    def offset(self, obj: dict, name: str) -> int | None:
        """An int64 field: a decimal string as proto3 JSON writes it, or a JSON
        integer; missing: 0; None for anything else."""
        value = _get(obj, name)
        if value is None:
            return 0
        if isinstance(value, str):
            return int(value) if _INT64.match(value) else None
        return integer(value)

    # -- text ------------------------------------------------------------------------------

    def cell_text(self, layout: dict, where: str) -> str | None:
        anchor = _get(layout, "textAnchor")
        if anchor.__class__ is not dict:
            if anchor is not None:
                self.note("docai-bad-value", f"{where}: textAnchor is not an object; the cell is read as blank")
            return ""
        segments = _get(anchor, "textSegments")
        if not segments:
            content = _get(anchor, "content")
            return content.strip() if content.__class__ is str else ""
        if segments.__class__ is not list:
            self.note("docai-bad-value", f"{where}: textSegments is not a list; the cell's text is unknown")
            return None
        text = self.text
        if text is None:
            content = _get(anchor, "content")
            if content.__class__ is str:
                return content.strip()
            self.note("docai-no-text", f"{where}: the cell's text is in the document's text, which it does not "
                                       "have; read as unknown")
            return None
        parts = []
        for segment in segments:
            if segment.__class__ is not dict:
                self.note("docai-bad-value", f"{where}: a text segment is not an object; the cell's text is unknown")
                return None
            start, end = self.offset(segment, "startIndex"), self.offset(segment, "endIndex")
            if start is None or end is None:
                self.note("docai-bad-value", f"{where}: a text segment's startIndex or endIndex is not an integer "
                                             f"({segment!r:.80}); the cell's text is unknown")
                return None
            start -= self.text_offset
            end -= self.text_offset
            if not 0 <= start <= end <= len(text):
                shard = f" from {self.text_offset:,} (the shard's)" if self.text_offset else ""
                self.note("docai-text-offset", f"{where}: text segment [{start + self.text_offset}, "
                                               f"{end + self.text_offset}) is not within the document's text "
                                               f"({len(text):,} characters{shard}); the cell's text is unknown")
                return None
            self.text_budget -= end - start
            if self.text_budget < 0:
                raise self.diagnostics.fail("docai-too-large", "the cells' texts add up to more than the "
                                                               f"document's text and {MAX_EXTRA_TEXT:,} characters")
            parts.append(text[start:end])
        return (parts[0] if len(parts) == 1 else "".join(parts)).strip()

    # -- boxes -----------------------------------------------------------------------------

    def box(self, layout: Any, where: str) -> BBox | None:
        poly = _get(layout, "boundingPoly") if layout.__class__ is dict else None
        if poly.__class__ is not dict:
            return None
        frame = Frame.PAGE
        vertices = _get(poly, "normalizedVertices")
        if not vertices:
            frame = Frame.IMAGE
            vertices = _get(poly, "vertices")
            if not vertices:
                return None
        xs, ys = [], []
        try:
            for vertex in vertices:
                x, y = vertex.get("x"), vertex.get("y")  # (AttributeError: not an object)
                if x is None:
                    x = 0
                if y is None:
                    y = 0
                if x.__class__ not in _NUMBERS or y.__class__ not in _NUMBERS:
                    raise TypeError
                xs.append(x)
                ys.append(y)
        except (AttributeError, TypeError):
            self.note("docai-bad-value", f"{where}: boundingPoly vertices {vertices!r:.80} are not objects of "
                                         "numbers; no box")
            return None
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        rectangle = len(xs) == 4 and x1 != x2 and y1 != y2 and (
            (xs[0] == xs[3] and xs[1] == xs[2] and ys[0] == ys[1] and ys[2] == ys[3])
            or (xs[0] == xs[1] and xs[2] == xs[3] and ys[1] == ys[2] and ys[3] == ys[0]))
        return BBox(float(x1), float(y1), float(x2), float(y2), frame,
                    None if rectangle else tuple((float(x), float(y)) for x, y in zip(xs, ys)))

    # -- tables ----------------------------------------------------------------------------

    def span(self, cell: dict, name: str, where: str) -> int:
        value = self.count(cell, name, where, "read as 1")
        if value is None or value == 0:
            return 1
        if value < 0:
            self.note("docai-span", f"{where}: {name} {value} is negative; read as 1")
            return 1
        return value

    def spans(self, cell: dict, at: _At) -> tuple[int, int]:
        rowspan, colspan = cell.get("rowSpan"), cell.get("colSpan")  # (the usual case, quickly)
        if rowspan.__class__ is not int or rowspan < 1:
            rowspan = self.span(cell, "rowSpan", at)
        if colspan.__class__ is not int or colspan < 1:
            colspan = self.span(cell, "colSpan", at)
        return rowspan, colspan

    def table(self, table_id: int, table: dict, page: int, where: str) -> Table:
        rows = [(row, True, f"{where}.headerRows[{k}]")
                for k, row in self.objects(_get(table, "headerRows"), where, "headerRows")]
        rows += [(row, False, f"{where}.bodyRows[{k}]")
                 for k, row in self.objects(_get(table, "bodyRows"), where, "bodyRows")]
        last_row = len(rows) - 1
        cells: list[Cell] = []
        above: list[Cell] = []  # cells of earlier rows that reach a later one
        taken: list[tuple[int, int]] = []  # their columns, sorted
        changed = False
        for y, (row, header, row_at) in enumerate(rows):
            if above and (changed or min(c.end_row for c in above) < y):
                above = [c for c in above if c.end_row >= y]
                taken = sorted((c.start_col, c.end_col) for c in above)
                changed = False
            k, x = 0, 0
            for n, cell in self.objects(_get(row, "cells"), row_at, "cells"):
                at = _At(row_at, n)
                while k < len(taken) and taken[k][0] <= x:  # the first free slot
                    x = max(x, taken[k][1] + 1)
                    k += 1
                rowspan, colspan = self.spans(cell, at)
                if y + rowspan - 1 > last_row:
                    self.note("docai-span", f"{at}: rowSpan {rowspan} reaches past the table's last row; clipped")
                    rowspan = last_row - y + 1
                if colspan > MAX_COLSPAN:
                    self.note("docai-span", f"{at}: colSpan {colspan} is over {MAX_COLSPAN}; clipped")
                    colspan = MAX_COLSPAN
                self.cell_rows += rowspan
                if self.cell_rows > MAX_CELL_ROWS:
                    raise self.diagnostics.fail("docai-too-large", f"more than {MAX_CELL_ROWS:,} cells, each "
                                                                   "counted once for every row it spans; refused")
                layout = _get(cell, "layout")
                if layout.__class__ is not dict:
                    if layout is not None:
                        self.note("docai-bad-value", f"{at}: layout is not an object; read as blank, without a box")
                    layout = {}
                made = Cell(y, x, y + rowspan - 1, x + colspan - 1, self.cell_text(layout, at),
                            bbox=self.box(layout, at), header=header)
                cells.append(made)
                if rowspan > 1:
                    above.append(made)
                    changed = True
                x += colspan
        return Table(table_id, [Region(0, page, self.box(_get(table, "layout"), where), cells=cells)])

    def page(self, index: int, page: dict, doc: Document) -> None:
        where = f"pages[{index}]"
        page_number = self.count(page, "pageNumber", where, "its position is used")
        if page_number is None or not 1 <= page_number <= 10**9:
            if page_number:  # (0 is proto3's default: not set)
                self.note("docai-bad-value", f"{where}: pageNumber {page_number} is not a page number; its "
                                             "position is used")
            page_number = index + 1
        dimension = _get(page, "dimension")
        if isinstance(dimension, dict):
            width, height = number(dimension.get("width")), number(dimension.get("height"))
            unit = dimension.get("unit")
            if width is not None and height is not None and width > 0 and height > 0:
                if unit is None or (isinstance(unit, str) and unit in _UNITS):
                    frame, scale = _UNITS[unit or "pixels"]
                    doc.pages.append(Page(page_number, width * scale, height * scale, frame))
                else:
                    self.note("docai-unit", f"{where}: a dimension in {unit!r:.40}, not pixels, points or inches; "
                                            "its size is not kept", "info")
        for k, table in self.objects(_get(page, "tables"), where, "tables"):
            doc.tables.append(self.table(len(doc.tables), table, page_number, f"{where}.tables[{k}]"))


_RESPONSE_KEYS = {"document", "humanReviewStatus", "human_review_status"}


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    root = parse_json(data, diagnostics)
    if isinstance(root, dict) and isinstance(root.get("document"), dict) and _get(root, "pages") is None:
        root = root["document"]  # a ProcessResponse
    if not isinstance(root, dict) or not root.keys() & (_DOCUMENT_KEYS - _RESPONSE_KEYS):
        raise diagnostics.fail("docai-structure", "not a Document AI Document: "
                                                  + ("no pages, text or other field of one" if isinstance(root, dict)
                                                     else "the JSON is not an object"))
    pages = _get(root, "pages")
    if pages is not None and not isinstance(pages, list):
        raise diagnostics.fail("docai-structure", "not a Document AI Document: its pages are not a list")
    reader = _Reader(diagnostics)
    text = _get(root, "text")
    if isinstance(text, str):
        reader.text = text
        reader.text_budget += len(text)
    elif text is not None:
        reader.note("docai-bad-value", f"the document's text is a {type(text).__name__}, not a string; read as "
                                       "missing")
    shard = _get(root, "shardInfo")
    if isinstance(shard, dict):
        offset = reader.offset(shard, "textOffset")
        if offset is None:
            reader.note("docai-bad-value", "shardInfo.textOffset is not an integer; read as 0")
        reader.text_offset = offset or 0
    doc = Document()
    uri = _get(root, "uri")
    if isinstance(uri, str) and uri.rstrip("/"):
        doc.filename = uri.rstrip("/").rpartition("/")[2]
    for index, page in reader.objects(pages, "the document", "pages"):
        reader.page(index, page, doc)
    if _get(root, "documentLayout") is not None and not doc.tables:
        reader.note("docai-layout-parser", "the document holds Layout Parser blocks (documentLayout), whose tables "
                                           "are not read; it has no pages[].tables", "info")
    reader.said()
    return doc


FORMAT = DECLARED["docai"]
