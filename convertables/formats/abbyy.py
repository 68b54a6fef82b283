"""ABBYY FineReader XML (docs/formats.md, `abbyy`): the tables of a FineReader 6, 8 or 10 export.

    document[@producer]/page[@width,@height,@resolution]
        /block[@blockType="Table",@l,@t,@r,@b]/row/cell[@colSpan,@rowSpan,@width,@height]
            /text/par/line/formatting (text, or one charParams element a character)

The namespace is ``http://www.abbyy.com/FineReader_xml/FineReader<N>-schema-v<M>.xml``
(6v1, 8v2, 10v1); elements are read by their local names, so a file without it
reads too (``abbyy-namespace`` warning). Each ``page`` is a page, numbered in
document order from 1 (``Page``: its ``width`` and ``height`` in pixels, frame
``image``, ``resolution`` as its ``dpi``). Each table block (``blockType`` Table,
any case) is a table with one region on its page, the block's ``l t r b`` its
box; tables are numbered in document order. A table block without cells is kept
as a region without cells (``abbyy-empty-table`` info); a file without table
blocks has no tables (``abbyy-no-table`` info). ``producer`` goes to ``metadata["generator"]``, the schema's
name (``FineReader8-schema-v2``) to ``metadata["schema"]``.

Cells are placed as HTML places them: each row's cells left to right in the first
slot that no cell from a row above still covers; ``colSpan``/``rowSpan``
default to 1. A span that is not a whole number of at least 1 reads as 1, a
``rowSpan`` past the block's last row ends there, a ``colSpan`` over
:data:`COLSPAN_MAX` is that (``abbyy-span`` warning each). FineReader marks no
header cells.

Text: the lines of a cell (in every paragraph) joined by ``"\\n"``, each line
stripped and those left empty dropped: a paragraph break is a line break, as
the HTML reader reads ``<p>``, and the dummy line FineReader gives an empty
cell (``baseline="2147483647" l="0" t="0" r="0" b="0"``, no text) is no text, so
that cell is blank (``""``). A line's text is its ``formatting`` runs
concatenated; a run holding ``charParams`` elements is their characters, else
its own text. Recognition variants (``wordRecVariants``, ``charRecVariants``)
are not text, nor is pretty-printing whitespace (text with a line break and
nothing else).

Boxes (image pixels, origin top-left): cells have a size and no position. A
cell's left edge is the block's ``l`` plus the widths of the columns left of it,
each column's right edge the left edge of a cell ending there plus that cell's
``width`` (the cell starting furthest right where several end at one column
line); in a row without spans from above, this is the widths of the row's
cells before it added to ``l``. Top edges add up ``height`` from ``t`` row by row
alike. A cell's box is its left and top edge and its own width and height. A grid
line no cell ends at (all cells across it span further) is placed by the share
of a spanning cell, else at the line before it; such estimates, and cell boxes
that reach more than 2 pixels out of their block, are reported
(``abbyy-geometry`` info). A cell whose width or height is missing or not a
number has no box (``missing-attribute``, ``bad-number``); a block without a
number for ``l`` or ``t`` gives its cells none.

A table whose placing passes over cells spanning from rows above more than
:data:`PLACEMENT_LIMIT` times (a thousand rows each passing a thousand such
cells: no real export) is refused (``abbyy-too-large``), so that a small file
cannot make the reader run for hours.
"""

from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_left, insort

from lxml import etree

from ..diagnostics import Diagnostics
from ..grid import NUMBER_LIMIT
from ..model import BBox, Cell, Document, Frame, Page, Reading, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml

NAMESPACE = re.compile(r"http://www\.abbyy\.com/FineReader_xml/(FineReader\d+-schema-v\d+)\.xml")
COLSPAN_MAX = 1000
"""The widest ``colSpan`` taken (as for HTML)."""
PLACEMENT_LIMIT = 1_000_000
"""How many times placing a table's cells may pass over a cell spanning from a row above (``abbyy-too-large``)."""
SLACK = 2.0
"""Pixels a cell box may reach out of its block before ``abbyy-geometry`` says so."""

_SPAN = re.compile(r"\s*\+?([0-9]+)\s*")
_NUMBER = re.compile(r"\s*[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?\s*")


def _own_text(el) -> str:
    """The text directly in ``el`` (not in its child elements), without
    pretty-printing whitespace (runs of whitespace holding a line break)."""
    parts = [el.text, *(child.tail for child in el)]
    return "".join(p for p in parts if p and not (p.isspace() and ("\n" in p or "\r" in p)))


def _run_text(el) -> str:
    chars = list(el.iterchildren("{*}charParams"))
    if chars:
        return "".join(map(_own_text, chars))
    return _own_text(el)


def cell_text(cell_el) -> str:
    """The text of a cell: its lines, stripped, the empty ones (dummy lines) left out, joined by "\\n"."""
    lines = []
    for line in cell_el.iter("{*}line"):
        runs = list(line.iterchildren("{*}formatting")) or [line]
        text = "".join(map(_run_text, runs)).strip()
        if text:
            lines.append(text)
    return "\n".join(lines)


def grid_lines(spans: list[tuple[int, int, float | None]], origin: float) -> tuple[dict[int, float], int]:
    """Where the grid lines that cells start at lie: ``spans`` are the cells'
    (first line, line after their end, size or None), line 0 lies at ``origin``.
    Also gives how many lines had to be estimated."""
    ending: dict[int, list[tuple[int, float]]] = {}  # the cells ending before each line, in document order
    for start, end, size in spans:
        if size is not None:
            ending.setdefault(end, []).append((start, size))
    sized = sorted((start, end, size) for start, end, size in spans if size is not None)
    starts = [start for start, _, _ in sized]
    lines = {0: origin}
    last = origin
    estimated = 0
    for line in sorted({start for start, _, _ in spans} - {0}):
        here = ending.get(line)
        if here:  # (every start before this line is placed already)
            start, size = max(here, key=lambda pair: pair[0])  # the cell that starts last (the first of those)
            last = lines[line] = lines[start] + size
            continue
        estimated += 1
        position = last
        for i in range(bisect_left(starts, line) - 1, max(-1, bisect_left(starts, line) - 1001), -1):
            start, end, size = sized[i]
            if end > line:  # a cell across this line: its share
                position = lines[start] + size * (line - start) / (end - start)
                break
        last = lines[line] = position
    return lines, estimated


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.lines: dict[int, int] = {}

    def number(self, el, name: str, required: bool, minimum: float = -NUMBER_LIMIT) -> float | None:
        raw = el.get(name)
        what = f"<{local_name(el.tag)}>"
        if raw is None:
            if required:
                self.diagnostics.error("missing-attribute", f"{what} has no {name}", line=el.sourceline)
            return None
        value = float(raw) if _NUMBER.fullmatch(raw) else math.nan
        if not minimum <= value <= NUMBER_LIMIT:  # (False for NaN)
            self.diagnostics.error("bad-number", f"{what} {name}={raw!r} is not a number from {minimum:g} to "
                                                 f"{NUMBER_LIMIT:g}", line=el.sourceline)
            return None
        return value

    def span(self, el, name: str, limit: int, why: str) -> int:
        raw = el.get(name)
        if raw is None:
            return 1
        match = _SPAN.fullmatch(raw)
        digits = match.group(1).lstrip("0") if match else ""
        value = int(digits or "0") if len(digits) <= 10 else NUMBER_LIMIT + 1  # (a longer number is as big)
        if value < 1:
            self.diagnostics.warning("abbyy-span", f"<cell> {name}={raw!r} is not a whole number of at least 1; "
                                                   "read as 1", line=el.sourceline)
            return 1
        if value > limit:
            self.diagnostics.warning("abbyy-span", f"<cell> {name}={raw!r} {why}; read as {limit}",
                                     line=el.sourceline)
            return limit
        return value

    def page(self, el, number: int) -> Page:
        width, height = self.number(el, "width", False, 0), self.number(el, "height", False, 0)
        dpi = self.number(el, "resolution", False, 0)
        return Page(number, width, height, Frame.IMAGE, dpi or None)

    def block_box(self, block) -> tuple[BBox | None, float | None, float | None]:
        """The block's box, and its left and top edges (the cells' origin)."""
        left, top, right, bottom = (self.number(block, name, True) for name in "ltrb")
        if None in (left, top, right, bottom):
            return None, left, top
        if left > right or top > bottom:
            self.diagnostics.warning("box-inverted", f"table block l={left:g} t={top:g} r={right:g} b={bottom:g} "
                                                     "is inverted; its corners were swapped", line=block.sourceline)
        box = BBox(min(left, right), min(top, bottom), max(left, right), max(top, bottom), Frame.IMAGE)
        return box, box.x1, box.y1

    def place(self, block, table_id: int) -> list[tuple[Cell, etree._Element]]:
        """The block's cells in their slots, by the HTML table model."""
        rows = list(block.iterchildren("{*}row"))
        taken: list[tuple[int, int]] = []  # (first, last column) of cells from rows above still covering, sorted
        expiry: list[tuple[int, int, int]] = []  # (last row, first, last column) of those
        placed = []
        passed = 0
        for y, row in enumerate(rows):
            while expiry and expiry[0][0] < y:
                _, first, last = heapq.heappop(expiry)
                del taken[bisect_left(taken, (first, last))]
            k, n, x = 0, len(taken), 0
            spanning = []
            for el in row.iterchildren("{*}cell"):
                while k < n and taken[k][0] <= x:  # the first slot no cell from above covers
                    x = max(x, taken[k][1] + 1)
                    k += 1
                colspan = self.span(el, "colSpan", COLSPAN_MAX, f"is over {COLSPAN_MAX}")
                rowspan = self.span(el, "rowSpan", len(rows) - y, "reaches past the block's last row")
                cell = Cell(y, x, y + rowspan - 1, x + colspan - 1, cell_text(el))
                self.lines[id(cell)] = el.sourceline
                placed.append((cell, el))
                if rowspan > 1:
                    spanning.append(cell)
                x = cell.end_col + 1
            passed += k
            if passed > PLACEMENT_LIMIT:
                raise self.diagnostics.fail("abbyy-too-large", f"table {table_id}: placing its cells passes over "
                                                               f"cells spanning from rows above more than "
                                                               f"{PLACEMENT_LIMIT:,} times",
                                            line=row.sourceline)
            for cell in spanning:
                insort(taken, (cell.start_col, cell.end_col))
                heapq.heappush(expiry, (cell.end_row, cell.start_col, cell.end_col))
        return placed

    def boxes(self, placed, table_id: int, block_box: BBox | None, left: float | None, top: float | None) -> None:
        widths = [self.number(el, "width", True, 0) for _, el in placed]
        heights = [self.number(el, "height", True, 0) for _, el in placed]
        if left is None or top is None:
            return
        cells = [cell for cell, _ in placed]
        xs, estimated_x = grid_lines([(c.start_col, c.end_col + 1, w) for c, w in zip(cells, widths)], left)
        ys, estimated_y = grid_lines([(c.start_row, c.end_row + 1, h) for c, h in zip(cells, heights)], top)
        outside = 0
        for cell, width, height in zip(cells, widths, heights):
            if width is None or height is None:
                continue
            x1, y1 = xs[cell.start_col], ys[cell.start_row]
            cell.bbox = box = BBox(x1, y1, x1 + width, y1 + height, Frame.IMAGE)
            if block_box is not None and (box.x1 < block_box.x1 - SLACK or box.y1 < block_box.y1 - SLACK
                                          or box.x2 > block_box.x2 + SLACK or box.y2 > block_box.y2 + SLACK):
                outside += 1
        notes = []
        if estimated_x or estimated_y:
            notes.append(f"{estimated_x + estimated_y} grid line(s) that no cell with a size ends at were estimated")
        if outside:
            notes.append(f"{outside} cell box(es) reach more than {SLACK:g} pixels out of the block "
                         "(the cells' widths and heights do not add up to it)")
        if notes:
            self.diagnostics.info("abbyy-geometry", f"table {table_id}: " + "; ".join(notes))

    def table(self, block, table_id: int, page: int) -> Table:
        block_box, left, top = self.block_box(block)
        placed = self.place(block, table_id)
        if not placed:
            self.diagnostics.info("abbyy-empty-table", f"table {table_id} (page {page}) has no cells; kept as a "
                                                       "region", line=block.sourceline)
        self.boxes(placed, table_id, block_box, left, top)
        return Table(table_id, [Region(0, page, bbox=block_box, cells=[cell for cell, _ in placed])])


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    root = parse_xml(data, diagnostics)
    if local_name(root.tag) != "document":
        raise diagnostics.fail("abbyy-root", f"root element is <{local_name(root.tag)}>, not <document>",
                               line=root.sourceline)
    namespace = etree.QName(root).namespace
    schema = NAMESPACE.fullmatch(namespace or "")
    if schema is None:
        diagnostics.warning("abbyy-namespace", f"the root's namespace is {namespace or 'none'}, not FineReader's; "
                                               "read by element names", line=root.sourceline)
    doc = Document()
    if root.get("producer"):
        doc.metadata["generator"] = root.get("producer")
    if schema is not None:
        doc.metadata["schema"] = schema.group(1)
    reader = _Reader(diagnostics)
    for number, page_el in enumerate(root.iterchildren("{*}page"), 1):
        doc.pages.append(reader.page(page_el, number))
        for block in page_el.iter("{*}block"):
            if (block.get("blockType") or "").strip().lower() == "table":
                doc.tables.append(reader.table(block, len(doc.tables), number))
    if not doc.tables:
        diagnostics.info("abbyy-no-table", f"no table block on {len(doc.pages)} page(s)")
    return Reading(doc, source_lines=reader.lines)


# -- the format ------------------------------------------------------------------------------

_ROOT_TAG = re.compile(rb"<(?:[\w.-]+:)?document\b[^>]*>")


def sniff(head: bytes) -> bool:
    """A <document> root whose own start tag names the FineReader namespace (the
    URL in a cell's text of another format's file is no FineReader file)."""
    if xml_root(head) != "document":
        return False
    tag = _ROOT_TAG.search(head)
    return tag is not None and b"abbyy.com/FineReader_xml/" in tag.group()


FORMAT = DECLARED["abbyy"]
