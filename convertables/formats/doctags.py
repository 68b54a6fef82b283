"""DocTags documents and their OTSL tables (docs/formats.md, `doctags`): what docling,
SmolDocling/GraniteDocling and docling-eval's OTSL datasets write; read and written.

DocTags is a tagged text, not XML: ``<doctag>`` holds the page's items in
reading order, each ``<tag><loc_x0><loc_y0><loc_x1><loc_y1>text</tag>``, and
``<page_break>`` separates pages (as does a second ``<doctag>``: pages' outputs
one after another). Locations are on a 500 x 500 grid over the
page, origin top-left: ``loc_N`` is the fraction N / 500 of the page's width or
height (the ``page`` frame). A table is an ``<otsl>`` element: its location,
then its grid row by row in OTSL tokens, each row ended by ``<nl>``:

* a cell starts with ``<fcel>`` (a cell with text), ``<ecel>`` (an empty cell),
  ``<ched>`` (a column header), ``<rhed>`` (a row header) or ``<srow>`` (a
  section row), optionally followed by its own four ``loc`` tokens, then its
  text up to the next tag;
* the other slots a spanning cell covers are ``<lcel>`` (merged with the slot to
  the left), ``<ucel>`` (merged with the slot above) and ``<xcel>`` (merged both
  ways: inside a cell spanning rows and columns).

Reading: each cell start, in reading order, claims its rectangle: to the right
the ``lcel``/``xcel`` tokens after it in its row not yet claimed, and down the
rows that continue it, as both the OTSL paper and docling's serializer write
spans (:func:`_continues`). (docling-core's own parser counts every
``lcel``/``xcel`` to the right and ``ucel``/``xcel`` below a start, so it reads a
cell to the left of, or above, a cell spanning rows and columns as reaching into
it; the tables it reads the same are read the same here.) ``ched`` and ``rhed`` cells
are headers; ``srow`` is a section row of the body, not a header (as docling's
JSON says). A cell's text is stripped of surrounding whitespace (docling writes
it so); ``ecel`` cells are blank. Span tokens no cell reaches are reported
(``doctags-span``), and rows shorter than the longest leave holes
(``doctags-ragged``). A ``<caption>`` or ``<footnote>`` inside the table is not a
cell (the first caption's text is the table's caption, as docling-core links it); any other tag inside a cell's text is kept as text. A table whose
``</otsl>`` is missing (a model's output cut short) is read to the end of the
file (``doctags-unclosed``). Charts' data (bare OTSL tokens inside a
``<chart>`` or ``<picture>``) are not tables of the page and are not read. A
file that is a bare OTSL sequence (``<fcel>..<nl>..`` without ``<otsl>``: a
dataset's ``otsl`` field written out) is one table on page 1.

Writing: a ``<doctag>`` of the tables, in page order, with ``<page_break>``
between pages (one per page passed, so that page numbers read back), each an
``<otsl>`` with its location and its cells' where their boxes are fractions of
the page, the grid written as docling's serializer writes it (a blank cell or a
hole as ``ecel``, but a blank header cell, and a hole in the leading rows of
header cells, as an empty ``ched``, so that the header rows read back; every
covered slot ``ucel`` in the cell's first column of a one-column cell,
``lcel`` in the first row of a one-row cell, else ``xcel``; where a table so
written would read back as other cells, in the OTSL paper's way, ``lcel`` along
a cell's first row and ``ucel`` down its first column).
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import envelope
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED

GRID = 500
"""DocTags' location grid: ``loc_N`` is N / GRID of the page (docling's default ``xsize``/``ysize``)."""
MAX_TEXT_BYTES = 256 << 20
MAX_WRITTEN_SLOTS = 10_000_000
"""A table is written slot by slot: one of more slots (rows x columns) is refused."""

_STARTS = {"fcel", "ecel", "ched", "rhed", "srow"}
_SPANS = {"lcel", "ucel", "xcel"}
_SKIPPED = {"caption", "footnote"}
_TAG = re.compile(r"<(/?)([A-Za-z_][A-Za-z0-9_]*)>")
_LOC = re.compile(r"loc_(\d{1,6})\Z")
_LOCS = re.compile(r"<loc_\d{1,6}>")


class _Slot:
    """One token of the grid: its kind, and for a cell start its text and locations."""

    __slots__ = ("kind", "text", "locs")

    def __init__(self, kind: str):
        self.kind = kind
        self.text: list[str] = []
        self.locs: list[int] = []


def _box(locs: list[int]) -> BBox | None:
    if len(locs) != 4:
        return None
    x0, y0, x1, y1 = (v / GRID for v in locs)
    return BBox(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), Frame.PAGE)


def _continues(row: list[_Slot], r: int, first: int, end: int, crossed: bool, claimed: set) -> bool:
    """Whether row ``r`` continues the cell of columns ``first`` to ``end - 1``.
    OTSL is written two ways: the OTSL paper's (a cell's first row continued by
    ``lcel``, its first column by ``ucel``, the rest ``xcel``) and docling's
    serializer's (``lcel`` and ``ucel`` only for a cell one row high or one column
    wide, every other covered slot ``xcel``). A cell one column wide continues
    through ``ucel``; a wider one whose first row has an ``xcel`` (docling's) through
    a row of ``xcel`` (or ``ucel`` then ``xcel``), and one whose first row is all
    ``lcel`` through ``ucel`` then ``xcel`` (the paper's: docling's would be a cell
    one row high, and the ``xcel`` below it another's)."""
    kinds = [row[x].kind if x < len(row) and (r, x) not in claimed else None for x in range(first, end)]
    if len(kinds) == 1:
        return kinds[0] == "ucel"
    rest = all(kind == "xcel" for kind in kinds[1:])
    return rest and (kinds[0] == "ucel" or (crossed and kinds[0] == "xcel"))


class _Reader:
    def __init__(self, text: str, diagnostics: Diagnostics):
        self.text = text
        self.diagnostics = diagnostics
        self.stray_spans = 0
        self.ragged: list[int] = []
        self.unclosed = 0

    def table(self, tags: list[re.Match], start: int, end: int, index: int, page: int, bare: bool = False) -> Table:
        """The table whose tags are ``tags[start:end]`` (after ``<otsl>``, before
        ``</otsl>``; ``bare``: the whole text, an OTSL sequence without them)."""
        text = self.text
        rows: list[list[_Slot]] = [[]]
        table_locs: list[int] = []
        current: _Slot | None = None
        skipping: str | None = None
        caption: str | None = None
        caption_start = 0
        position = 0 if bare else tags[start - 1].end()
        for k in range(start, end):
            match = tags[k]
            between = text[position:match.start()]
            position = match.end()
            closing, name = match.group(1), match.group(2)
            if skipping is not None:
                if closing and name == skipping:
                    skipping = None
                    if name == "caption" and caption is None:  # (docling-core links the first to the table)
                        caption = _LOCS.sub("", text[caption_start:match.start()]).strip()
                continue
            if current is not None and between:
                current.text.append(between)
            loc = _LOC.match(name) if not closing else None
            if loc is not None:
                if current is None and len(rows) == 1 and not rows[0]:  # the table's own, before its first slot
                    table_locs.append(int(loc.group(1)))
                elif current is not None and not current.text and len(current.locs) < 4:
                    current.locs.append(int(loc.group(1)))
                continue
            if not closing and name in _STARTS:
                current = _Slot(name)
                rows[-1].append(current)
            elif not closing and name in _SPANS:
                current = None
                rows[-1].append(_Slot(name))
            elif not closing and name == "nl":
                current = None
                rows.append([])
            elif not closing and name in _SKIPPED:
                current = None
                skipping = name
                caption_start = match.end()
            elif current is not None:  # another tag inside a cell's text: text
                current.text.append(match.group(0))
        if current is not None:
            current.text.append(text[position:tags[end].start() if end < len(tags) else len(text)])
        if not rows[-1]:
            rows.pop()
        region = Region(0, page, _box(table_locs[:4]), cells=self.cells(rows, index))
        table = Table(index, [region])
        declared = (len(rows), max((len(row) for row in rows), default=0))
        cells = region.cells
        if declared != (max((c.end_row + 1 for c in cells), default=0), max((c.end_col + 1 for c in cells), default=0)):
            table.declared_size = declared  # (trailing empty slots: a grid larger than its cells reach)
        table.captions = (caption,) if caption is not None else ()
        return table

    def cells(self, rows: list[list[_Slot]], index: int) -> list[Cell]:
        """Each cell start claims its rectangle, in reading order: to the right the
        unclaimed ``lcel``/``xcel`` after it; down the rows that continue it (see
        :func:`_continues`)."""
        width = max((len(row) for row in rows), default=0)
        if any(len(row) != width for row in rows):
            self.ragged.append(index)
        claimed: set[tuple[int, int]] = set()
        cells = []
        for r, row in enumerate(rows):
            for c, slot in enumerate(row):
                if slot.kind not in _STARTS:
                    continue
                right = c + 1
                while right < len(row) and row[right].kind in ("lcel", "xcel") and (r, right) not in claimed:
                    right += 1
                crossed = any(row[x].kind == "xcel" for x in range(c + 1, right))
                down = r + 1
                while down < len(rows) and _continues(rows[down], down, c, right, crossed, claimed):
                    down += 1
                claimed.update((y, x) for y in range(r, down) for x in range(c, right))
                content = "" if slot.kind == "ecel" else "".join(slot.text).strip()
                cells.append(Cell(r, c, down - 1, right - 1, content, None, _box(slot.locs),
                                  slot.kind in ("ched", "rhed")))
        self.stray_spans += sum(1 for r, row in enumerate(rows) for c, slot in enumerate(row)
                                if slot.kind in _SPANS and (r, c) not in claimed)
        return cells

    def document(self) -> Document:
        tags = list(_TAG.finditer(self.text))
        doc = Document()
        page = 1
        k = 0
        seen_doctags = False
        while k < len(tags):
            closing, name = tags[k].group(1), tags[k].group(2)
            if not closing and name == "page_break":
                page += 1
            elif not closing and name == "doctag":
                if seen_doctags:  # pages' DocTags one after another (a model's output page by page)
                    page += 1
                seen_doctags = True
            elif not closing and name == "otsl":
                end = k + 1
                while end < len(tags) and not (tags[end].group(1) and tags[end].group(2) == "otsl"):
                    end += 1
                if end == len(tags):
                    self.unclosed += 1
                doc.tables.append(self.table(tags, k + 1, end, len(doc.tables), page))
                k = end
            k += 1
        if not seen_doctags and not doc.tables:
            first = tags[0] if tags else None
            if first is None or first.start() != len(self.text) - len(self.text.lstrip()) or first.group(1) or \
                    first.group(2) not in _STARTS | _SPANS | {"nl"}:
                raise self.diagnostics.fail("doctags-invalid", "no <doctag> and no <otsl> table: not DocTags")
            # a bare OTSL sequence (a dataset's otsl field written out): one table, the whole text
            doc.tables.append(self.table(tags, 0, len(tags), 0, 1, bare=True))
        if self.stray_spans:
            self.diagnostics.warning("doctags-span", f"{self.stray_spans} lcel/ucel/xcel token(s) that no cell to "
                                                     "their left or above spans to: left as holes")
        if self.ragged:
            self.diagnostics.info("doctags-ragged", f"table(s) {', '.join(map(str, self.ragged[:5]))}: rows of "
                                                    "different lengths; the slots shorter rows lack are holes")
        if self.unclosed:
            self.diagnostics.warning("doctags-unclosed", "the last <otsl> is not closed (the output was cut short?): "
                                                         "read to the end of the file")
        doc.pages = [Page(n, frame=Frame.PAGE) for n in sorted({t.page for t in doc.tables})]
        return doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    if len(data) > MAX_TEXT_BYTES:
        raise diagnostics.fail("too-large", f"the file has {len(data):,} bytes, more than the {MAX_TEXT_BYTES:,} read")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise diagnostics.fail("doctags-invalid", f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    return _Reader(text, diagnostics).document()


# -- writing ---------------------------------------------------------------------------------

def _locs(box: BBox | None) -> str:
    if box is None or box.frame is not Frame.PAGE:
        return ""
    return "".join(f"<loc_{min(GRID - 1, max(0, round(v * GRID)))}>" for v in (box.x1, box.y1, box.x2, box.y2))


def _row_header_reach(cells: list[tuple]) -> dict[int, int]:
    """For each row, the last column where a body cell (not a header, not blank)
    starts: a header cell with body cells to its right is a row header."""
    reach: dict[int, int] = {}
    for r0, c0, _, _, cell in cells:
        if not cell.header and (cell.content or "").strip() and c0 > reach.get(r0, -1):
            reach[r0] = c0
    return reach


def _header_rows(cells: list[tuple]) -> int:
    """How many leading rows have only header cells starting in them."""
    starting: dict[int, list[bool]] = {}
    for r0, _, _, _, cell in cells:
        starting.setdefault(r0, []).append(cell.header)
    row = 0
    while starting.get(row) and all(starting[row]):
        row += 1
    return row


def _otsl(table: Table, diagnostics: Diagnostics, counts: dict[str, int]) -> str:
    placed = []
    for region in table.regions:
        for cell in region.cells:
            r0, c0 = cell.start_row + region.row_increment, cell.start_col + region.col_increment
            r1 = max(cell.end_row, cell.start_row) + region.row_increment
            c1 = max(cell.end_col, cell.start_col) + region.col_increment
            if r0 < 0 or c0 < 0:
                counts["before"] += 1
                continue
            placed.append((r0, c0, r1, c1, cell))
    rows = max((p[2] for p in placed), default=-1) + 1
    cols = max((p[3] for p in placed), default=-1) + 1
    if rows * cols > MAX_WRITTEN_SLOTS:
        raise diagnostics.fail("doctags-too-large", f"table {table.id} spans {rows:,} rows and {cols:,} columns; "
                                                    f"tables of more than {MAX_WRITTEN_SLOTS:,} slots are not written")
    owner: dict[tuple[int, int], tuple] = {}
    for entry in sorted(placed, key=lambda p: (p[0], p[1])):
        r0, c0, r1, c1, _ = entry
        slots = [(y, x) for y in range(r0, r1 + 1) for x in range(c0, c1 + 1)]
        if any(slot in owner for slot in slots):
            counts["overlap"] += 1
            continue
        for slot in slots:
            owner[slot] = entry
    reach = _row_header_reach(placed)
    header_rows = _header_rows(placed)
    outline = table.regions[0].bbox if table.regions and table.regions[0].bbox is not None else None
    if outline is None:
        own = [c.bbox for c in table.cells() if c.bbox is not None and c.bbox.frame is Frame.PAGE]
        outline = envelope(own) if own else None
    parts = ["<otsl>", _locs(outline)]
    if outline is not None and outline.frame is not Frame.PAGE:
        counts["foreign"] += 1
    paper = _docling_style_is_ambiguous(rows, cols, owner)
    for y in range(rows):
        for x in range(cols):
            entry = owner.get((y, x))
            if entry is None:
                # (a hole in the header rows is inside <thead> as the skeleton made from the grid has it:
                # an empty ched keeps the row a header row; an ecel would make it a body row)
                parts.append("<ched>" if y < header_rows else "<ecel>")
                continue
            r0, c0, r1, c1, cell = entry
            if (y, x) == (r0, c0):
                text = (cell.content or "").strip()
                if not text and not cell.header:  # (a blank header cell is a ched or rhed: ecel is no header)
                    parts.append("<ecel>")
                    continue
                if _TAG.search(text):
                    counts["tagged"] += 1
                kind = "fcel" if not cell.header else ("rhed" if reach.get(r0, -1) > c1 else "ched")
                if cell.bbox is not None and cell.bbox.frame is not Frame.PAGE:
                    counts["foreign"] += 1
                parts.append(f"<{kind}>{_locs(cell.bbox)}{text}")
            else:
                parts.append(_covered(y, x, entry, paper))
        parts.append("<nl>")
    parts.append("</otsl>")
    return "".join(parts)


def _covered(y: int, x: int, entry: tuple, paper: bool) -> str:
    """The token of a slot a cell covers other than its first: docling's serializer's
    (``ucel``/``lcel`` only in a cell one column wide / one row high), or the OTSL paper's
    (``lcel`` along the first row, ``ucel`` down the first column)."""
    r0, c0, r1, c1, _ = entry
    if y != r0 and (c1 == c0 or (paper and x == c0)):
        return "<ucel>"
    if x != c0 and (r1 == r0 or (paper and y == r0)):
        return "<lcel>"
    return "<xcel>"


def _docling_style_is_ambiguous(rows: int, cols: int, owner: dict) -> bool:
    """Whether the grid written in docling's style reads back as other cells (a cell
    spanning rows and columns above another's ``xcel`` slots can read as reaching into
    them): then it is written in the paper's, which says where each cell ends."""
    starts = {entry[:4] for entry in owner.values()}
    if not any(r1 > r0 and c1 > c0 for r0, c0, r1, c1 in starts):
        return False
    tokens = []
    for y in range(rows):
        for x in range(cols):
            entry = owner.get((y, x))
            tokens.append("<fcel>" if entry is None or (y, x) == entry[:2] else _covered(y, x, entry, False))
        tokens.append("<nl>")
    back = _Reader("<otsl>" + "".join(tokens) + "</otsl>", Diagnostics()).document()
    read_back = {(c.start_row, c.start_col, c.end_row, c.end_col) for t in back.tables for c in t.cells()}
    return not starts <= read_back


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    counts = {"before": 0, "overlap": 0, "foreign": 0, "tagged": 0}
    lines = ["<doctag>"]
    page = 1
    for table in sorted(doc.tables, key=lambda t: t.page or 1):  # (stable: a page's tables keep their order)
        while page < (table.page or 1):
            lines.append("<page_break>")
            page += 1
        lines.append(_otsl(table, diagnostics, counts))
    lines.append("</doctag>")
    if counts["before"]:
        diagnostics.warning("doctags-cell-left-out", f"{counts['before']} cell(s) before the first row or column "
                                                     "left out")
    if counts["overlap"]:
        diagnostics.warning("doctags-overlap", f"{counts['overlap']} cell(s) on slots another cell covers cannot be "
                                               "written in OTSL; left out")
    if counts["foreign"]:
        diagnostics.warning("frame-foreign", "boxes not in fractions of the page, which DocTags locations are: "
                                             "written without locations",
                            hint="pass --page-width and --page-height (or --pdf) to convert them")
    if counts["tagged"]:
        diagnostics.warning("doctags-text-tag", f"{counts['tagged']} cell text(s) hold something written like a tag "
                                                "(<...>), which DocTags cannot escape: they may read back otherwise")
    try:
        return ("\n".join(lines) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None


# -- the format ------------------------------------------------------------------------------

_OTSL_TABLE = re.compile(rb"<otsl>.*?<(?:fcel|ecel|ched|rhed|srow|nl)>", re.S)
_BARE = re.compile(rb"<(?:fcel|ecel|ched|rhed|srow)>[^<]*(?:<(?:fcel|ecel|ched|rhed|srow|lcel|ucel|xcel)>[^<]*)*<nl>")


def sniff(head: bytes) -> bool:
    """Text that starts with ``<doctag>`` or ``<otsl>``, or with a row of OTSL
    tokens ended by ``<nl>``, or that holds an ``<otsl>`` table."""
    start = (head[3:] if head.startswith(b"\xef\xbb\xbf") else head).lstrip()
    return (start.startswith((b"<doctag>", b"<otsl>")) or _BARE.match(start) is not None
            or _OTSL_TABLE.search(head) is not None)


FORMAT = DECLARED["doctags"]
