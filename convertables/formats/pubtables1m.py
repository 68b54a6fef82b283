"""PubTables-1M structure annotations (docs/formats.md, `pubtables1m`): PASCAL VOC XML, read only.

    annotation/(filename, size/(width, height), object/(name, bndbox/(xmin, ymin, xmax, ymax)))*

Objects are named ``table``, ``table row``, ``table column``, ``table column
header``, ``table projected row header`` and ``table spanning cell``; boxes are
in the table image's pixels, origin top-left (frame ``image``). Cells are not
listed: they are made as microsoft/table-transformer's evaluation makes its
ground-truth cells from the same objects (its ``postprocess.objects_to_cells``,
the cells GriTS is computed on), so that a table read here is the table the
official scores see:

* rows are put in order by their vertical centre, columns by their horizontal
  one; rows then take the columns' width and columns the rows' height;
* the column header marks the rows it covers by half their height, as a run from
  row 0; a spanning cell takes the rows and the columns it covers by half, is
  dropped where that is a single grid cell, and gives way to an earlier one it
  overlaps (it loses rows or columns until they no longer share a grid cell);
  a spanning cell in the header is kept only where each header row above it has
  exactly one header spanning cell over its columns;
* the grid cells are the row x column intersections; one that a spanning cell
  covers by more than half its area is part of that spanning cell.

With the words of the table image (``--words``), rows and columns holding no
word are left out (as the official code leaves them out), each word goes to the
cell holding the largest share of it (at least 0.1%), a cell's text is its words
in reading order (block, line, word) joined by spaces, and cell boxes shrink to
their words' extent as the official code shrinks them. Without words, content is
unknown (``None``) and boxes are the row x column intersections.

Projected row headers are header cells (the model has one header flag, for
column and row headers alike); where they are is kept in
``Document.metadata["pubtables1m_projected_row_headers"]``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from itertools import accumulate
from pathlib import Path
from typing import NamedTuple

from ..diagnostics import Diagnostics, InputError
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml

TABLE, ROW, COLUMN, HEADER, PROJECTED, SPANNING = (
    "table", "table row", "table column", "table column header", "table projected row header", "table spanning cell")
KINDS = (TABLE, ROW, COLUMN, HEADER, PROJECTED, SPANNING)

MAX_SLOTS = 250_000
"""The most grid slots (rows x columns) a table may have."""
MAX_WORK = 1_000_000
"""The most box comparisons the rules may make for one file (a real table needs thousands; overlapping
rows, columns or spanning cells by the thousand compare each with each)."""
_COORDINATE_LIMIT = 1e9

Box = tuple[float, float, float, float]
"""x1, y1, x2, y2 with x1 <= x2 and y1 <= y2."""


# -- boxes ----------------------------------------------------------------------------------------
# As the official code measures them (PyMuPDF's Rect): an intersection that is
# empty has no area; a union passes over boxes without area.

def _area(box: Box | None) -> float:
    if box is None:
        return 0.0
    w, h = box[2] - box[0], box[3] - box[1]
    return w * h if w > 0 and h > 0 else 0.0


def _intersection(a: Box | None, b: Box | None) -> Box | None:
    if a is None or b is None:
        return None
    x1, y1, x2, y2 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x1, y1, x2, y2) if x1 < x2 and y1 < y2 else None


def _overlap_area(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _union(boxes) -> Box | None:
    """The smallest box holding every box with an area (None: none has one)."""
    found = None
    for box in boxes:
        if box[2] > box[0] and box[3] > box[1]:
            found = box if found is None else (min(found[0], box[0]), min(found[1], box[1]),
                                               max(found[2], box[2]), max(found[3], box[3]))
    return found


class _Work:
    """The box comparisons made for one file, refused past :data:`MAX_WORK`."""

    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.done = 0

    def spend(self, count: int, where: str) -> None:
        self.done += count
        if self.done > MAX_WORK:
            raise self.diagnostics.fail("pubtables1m-too-large", f"{where}: more than {MAX_WORK:,} box comparisons "
                                                                 "(thousands of overlapping objects or words)")


class _Axis:
    """Intervals along one axis, to find those an interval overlaps by a positive
    length, as indices into the list given: by bisection on their starts, then
    back from there while an interval so far ends after the query's start."""

    def __init__(self, intervals: list[tuple[float, float]], work: _Work, where: str):
        self.order = sorted(range(len(intervals)), key=lambda i: intervals[i][0])
        self.starts = [intervals[i][0] for i in self.order]
        self.ends = [intervals[i][1] for i in self.order]
        self.reach = list(accumulate(self.ends, max))  # the furthest end of the intervals up to each
        self.regular = all(self.ends[k] <= self.starts[k + 1] for k in range(len(self.order) - 1))
        """Whether they follow one another without overlapping (a grid's rows or columns)."""
        self.work, self.where = work, where

    def overlapping(self, lo: float, hi: float) -> list[int]:
        found = []
        k = bisect_left(self.starts, hi) - 1 if lo < hi else -1
        first = k
        starts, ends, reach = self.starts, self.ends, self.reach
        while k >= 0 and reach[k] > lo:
            if ends[k] > lo and starts[k] < ends[k]:
                found.append(self.order[k])
            k -= 1
        self.work.spend(first - k + 1, self.where)
        return found


# -- the objects ----------------------------------------------------------------------------------

class _Object(NamedTuple):
    kind: str
    box: Box
    line: int | None


class _Word(NamedTuple):
    box: Box
    area: float
    text: str
    order: tuple[int, int, int]
    """block, line and word number: the reading order."""


_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")


def _number(text: str | None) -> float | None:
    if text is None or not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if abs(value) <= _COORDINATE_LIMIT else None


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.left_out: dict[str, list] = {}  # what was left out, by why: [count, first example]
        self.inverted = 0

    def leave_out(self, why: str, example: str) -> None:
        entry = self.left_out.setdefault(why, [0, example])
        entry[0] += 1

    def objects(self, root) -> list[_Object]:
        found = []
        for el in root.iter("{*}object"):
            name_el = next(el.iterchildren("{*}name"), None)
            name = " ".join((name_el.text or "").split()) if name_el is not None else ""
            where = f"line {el.sourceline}"
            if name not in KINDS:
                self.leave_out("objects with another name", f"{name!r}, {where}" if name else f"no name, {where}")
                continue
            boxes = list(el.iterchildren("{*}bndbox"))
            if not boxes:
                self.leave_out("objects without a <bndbox>", f"{name!r}, {where}")
                continue
            box_el = boxes[-1]  # (where there are several, the last: what the official reader takes)
            values = [_number(box_el.findtext(f"{{*}}{key}")) for key in ("xmin", "ymin", "xmax", "ymax")]
            if None in values:
                self.diagnostics.error("bad-number", f"a {name!r} box whose xmin, ymin, xmax and ymax are not all "
                                                     f"numbers within 10^9: the object is left out",
                                       line=box_el.sourceline)
                continue
            x1, y1, x2, y2 = values
            if x1 > x2 or y1 > y2:
                self.inverted += 1
                x1, x2, y1, y2 = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
            if (name == ROW and y1 == y2) or (name == COLUMN and x1 == x2):
                # (the official code divides by a row's height and a column's width)
                self.leave_out("rows without height and columns without width", f"{name!r}, {where}")
                continue
            found.append(_Object(name, (x1, y1, x2, y2), el.sourceline))
        return found

    def report(self) -> None:
        if self.inverted:
            self.diagnostics.warning("box-inverted", f"{self.inverted} box(es) with xmin > xmax or ymin > ymax: "
                                                     "corners swapped")
        for why, (count, example) in self.left_out.items():
            self.diagnostics.warning("pubtables1m-object", f"{why}: {count} left out (the first: {example})")


def _iob(box: Box, container: Box) -> float:
    """The share of ``box``'s area inside ``container`` (0 for a box without area)."""
    area = _area(box)
    return _overlap_area(box, container) / area if area else 0.0


def _tables(objects: list[_Object], reader: _Reader, work: _Work) -> list[tuple[_Object | None, list[_Object]]]:
    """Each table object and the objects that belong to it. One table (or none):
    every object is its, as the official evaluation takes them; several: each
    object belongs to the table holding the largest share of it, at least half."""
    tables = [o for o in objects if o.kind == TABLE]
    others = [o for o in objects if o.kind != TABLE]
    if len(tables) <= 1:
        if not tables and others:
            reader.diagnostics.warning("pubtables1m-table", "no 'table' object: the rows and columns are read as "
                                                            "one table")
        return [(tables[0] if tables else None, others)] if tables or others else []
    members: list[list[_Object]] = [[] for _ in tables]
    work.spend(len(others) * len(tables), f"{len(tables):,} tables")
    for obj in others:
        shares = [_iob(obj.box, t.box) for t in tables]
        best = max(range(len(tables)), key=lambda i: (shares[i], -i))
        if shares[best] >= 0.5:
            members[best].append(obj)
        else:
            reader.leave_out("objects outside every table", f"{obj.kind!r}, line {obj.line}")
    return list(zip(tables, members))


# -- words ----------------------------------------------------------------------------------------

def _words_file(setting, diagnostics: Diagnostics, image_name: str | None) -> Path | None:
    """The words file for this annotation: ``setting`` itself, or in a folder,
    ``<name>_words.json`` by the annotation's file name, else by its image's."""
    path = Path(setting)
    if not path.is_dir():
        return path
    stems = []
    if diagnostics.file and not diagnostics.file.startswith("<"):
        stems.append(Path(diagnostics.file).stem)
    if image_name:
        stems.append(Path(image_name).stem)
    for stem in stems:
        candidate = path / f"{stem}_words.json"
        if candidate.is_file():
            return candidate
    diagnostics.warning("pubtables1m-no-words", f"{path} has no {stems[0] if stems else '<name>'}_words.json: "
                                                "read without words (content unknown)")
    return None


def _load_words(path: Path, diagnostics: Diagnostics) -> list[_Word]:
    from ..files import read_bytes_of
    from ..jsonsafe import MAX_JSON_BYTES, integer, number, parse_json

    own = Diagnostics(str(path))
    try:
        value = parse_json(read_bytes_of(path, MAX_JSON_BYTES), own)
    except InputError as exc:  # said of the annotation being read, naming the words file
        d = exc.diagnostic
        where = f", line {d.line}" if d.line else ""
        raise diagnostics.fail(d.code, f"words file {path}{where}: {d.message}") from None
    if isinstance(value, dict) and isinstance(value.get("words"), list):
        value = value["words"]
    if not isinstance(value, list):
        raise diagnostics.fail("pubtables1m-words", f"words file {path}: not a list of words "
                                                    "(objects with a bbox and a text)")
    words, bad, empty, inverted = [], [], 0, 0
    for index, entry in enumerate(value):
        box = entry.get("bbox") if isinstance(entry, dict) else None
        text = entry.get("text") if isinstance(entry, dict) else None
        coordinates = [number(v) for v in box] if isinstance(box, list) and len(box) == 4 else [None]
        if None in coordinates or not isinstance(text, str) or any(abs(v) > _COORDINATE_LIMIT for v in coordinates):
            bad.append(index)
            continue
        x1, y1, x2, y2 = coordinates
        if x1 > x2 or y1 > y2:
            inverted += 1
            x1, x2, y1, y2 = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
        area = (x2 - x1) * (y2 - y1)
        if area <= 0:  # (the official code divides by a word's area)
            empty += 1
            continue
        # Reading order: block, line, word numbers, each 0 where absent but the word's, its place
        # in the list (what the official inference takes where a words file lacks them).
        numbers = [integer(entry.get(key)) for key in ("block_num", "line_num", "span_num")]
        order = (numbers[0] or 0, numbers[1] or 0, index if numbers[2] is None else numbers[2])
        words.append(_Word((x1, y1, x2, y2), area, text, order))
    if bad:
        diagnostics.warning("pubtables1m-words", f"words file {path}: {len(bad)} word(s) without a bbox of four "
                                                 f"numbers and a text left out (the first: #{bad[0]})")
    if empty:
        diagnostics.warning("pubtables1m-words", f"words file {path}: {empty} word(s) without an area left out")
    if inverted:
        diagnostics.warning("box-inverted", f"words file {path}: {inverted} word box(es) with x1 > x2 or y1 > y2: "
                                            "corners swapped")
    return words


def _text(words: list[_Word]) -> str:
    """Words as one text, as the official code joins a cell's words: in reading
    order, a line's words joined by spaces, lines by spaces, the ends stripped."""
    if not words:
        return ""
    words = sorted(words, key=lambda w: w.order)
    lines: list[list[str]] = [[words[0].text]]
    for before, word in zip(words, words[1:]):
        if word.order[:2] != before.order[:2]:
            lines.append([])
        lines[-1].append(word.text)
    texts = [" ".join(line).strip() for line in lines[:-1]] + [" ".join(lines[-1])]
    return " ".join(texts).strip()


# -- one table ------------------------------------------------------------------------------------

class _Spanning:
    """A spanning cell or projected row header on its way through the official rules."""

    __slots__ = ("box", "projected", "header", "rows", "columns")

    def __init__(self, box: Box, projected: bool):
        self.box: Box | None = box
        self.projected = projected
        self.header = False
        self.rows: list[int] = []
        self.columns: list[int] = []


class _Structure:
    def __init__(self, members: list[_Object], words: list[_Word] | None, where: str, diagnostics: Diagnostics,
                 work: _Work):
        self.words = words
        self.where = where
        self.diagnostics = diagnostics
        self.work = work
        self.notes: list[str] = []
        of = {kind: [o.box for o in members if o.kind == kind] for kind in KINDS}
        self.rows, self.columns, self.headers = of[ROW], of[COLUMN], of[HEADER]
        self.spanning = [_Spanning(b, False) for b in of[SPANNING]] + [_Spanning(b, True) for b in of[PROJECTED]]

    def axis(self, intervals: list[tuple[float, float]]) -> _Axis:
        return _Axis(intervals, self.work, self.where)

    def note(self, count: int, what: str) -> None:
        if count:
            self.notes.append(f"{what} ({count})")

    # The rows and the columns kept, in order.

    def kept(self, boxes: list[Box], axis: int, overlap: float, what: str) -> list[Box]:
        if self.words:
            kept = self.holding_words(boxes, axis)
            self.note(len(boxes) - len(kept), f"{what} without words")
        else:
            kept = self.without_overlaps(boxes, overlap, axis)
            self.note(len(boxes) - len(kept), f"{what} mostly inside an earlier one")
        return sorted(kept, key=lambda b: b[axis] + b[axis + 2])

    def holding_words(self, boxes: list[Box], axis: int) -> list[Box]:
        """The boxes that some word has the largest share of itself in (at least
        half), the first box always, and only those with a word at least half
        inside them that is not all whitespace."""
        index = self.axis([(b[axis], b[axis + 2]) for b in boxes])
        has_word = [False] * len(boxes)
        has_text = [False] * len(boxes)
        for word in self.words:
            best, best_share = -1, -1.0
            for i in sorted(index.overlapping(word.box[axis], word.box[axis + 2])):
                share = _overlap_area(boxes[i], word.box) / word.area
                if share > best_share:
                    best, best_share = i, share
                if share >= 0.5 and word.text.strip():
                    has_text[i] = True
            if best_share >= 0.5:
                has_word[best] = True
        return [b for i, b in enumerate(boxes) if (has_word[i] or i == 0) and has_text[i]]

    def without_overlaps(self, boxes: list[Box], threshold: float, axis: int) -> list[Box]:
        """Each box but those that have ``threshold`` of their area or more inside an earlier one kept."""
        index = self.axis([(b[axis], b[axis + 2]) for b in boxes])
        kept = [False] * len(boxes)
        for k, box in enumerate(boxes):
            area = _area(box)
            kept[k] = not area or not any(
                j < k and kept[j] and _overlap_area(boxes[j], box) / area >= threshold
                for j in index.overlapping(box[axis], box[axis + 2]))
        return [box for box, keep in zip(boxes, kept) if keep]

    # The column header's rows, and the spanning cells.

    def header_rows(self, rows: list[Box]) -> list[bool]:
        headers = self.without_overlaps(self.headers, 0.05, 1)
        self.note(len(self.headers) - len(headers), "column headers overlapping an earlier one")
        index = self.axis([(row[1], row[3]) for row in rows])
        covered = [r for h in headers for r in sorted(index.overlapping(h[1], h[3]))
                   if (min(rows[r][3], h[3]) - max(rows[r][1], h[1])) / (rows[r][3] - rows[r][1]) >= 0.5]
        flags = [False] * len(rows)
        if not covered:
            return flags
        if covered[0] > 0:  # the rows above the header's first are header rows too
            covered = list(range(covered[0] + 1)) + covered
        for expected, r in enumerate(covered):  # a run from row 0; the first break ends it
            if r != expected:
                break
            flags[r] = True
        return flags

    def aligned(self, rows: list[Box], columns: list[Box], header: list[bool]) -> list[_Spanning]:
        """Each spanning cell on the rows and columns it covers by half their
        height or width (header and body rows not mixed: the fewer give way),
        its box theirs; dropped where that is one grid cell or none."""
        kept = []
        row_index = self.axis([(row[1], row[3]) for row in rows])
        column_index = self.axis([(column[0], column[2]) for column in columns])
        for cell in self.spanning:
            box = cell.box
            covered = [r for r in sorted(row_index.overlapping(box[1], box[3]))
                       if (min(rows[r][3], box[3]) - max(rows[r][1], box[1])) / (rows[r][3] - rows[r][1]) >= 0.5]
            in_header = [r for r in covered if header[r]]
            in_body = [r for r in covered if not header[r]]
            if in_header and in_body:
                if len(in_body) > len(in_header):
                    in_header = []
                else:
                    in_body = []
            cell.header = bool(in_header)
            cell.rows = in_body + in_header
            cell.columns = [c for c in sorted(column_index.overlapping(box[0], box[2]))
                            if (min(columns[c][2], box[2]) - max(columns[c][0], box[0]))
                            / (columns[c][2] - columns[c][0]) >= 0.5]
            if not cell.rows or not cell.columns:
                continue
            cell.box = _intersection(_union(rows[r] for r in cell.rows), _union(columns[c] for c in cell.columns))
            if len(cell.rows) > 1 or len(cell.columns) > 1:
                kept.append(cell)
        self.note(len(self.spanning) - len(kept), "spanning cells over one grid cell or none")
        return kept

    def without_shared_slots(self, cells: list[_Spanning]) -> list[_Spanning]:
        """Each spanning cell after the first loses rows or columns until it shares
        no grid slot with any earlier one (dropped ones included); dropped where
        one grid cell or none is left. Its box stays as aligned."""
        kept = cells[:1]
        for k in range(1, len(cells)):
            later = cells[k]
            compared = 0
            for earlier in cells[:k]:
                if not (later.rows and later.columns):
                    break  # (nothing left to share)
                compared += 1
                if (earlier.rows and earlier.columns and earlier.rows[0] <= later.rows[-1]
                        and later.rows[0] <= earlier.rows[-1] and earlier.columns[0] <= later.columns[-1]
                        and later.columns[0] <= earlier.columns[-1]):  # (else they share no slot)
                    self.work.spend(len(earlier.rows) + len(earlier.columns) + len(later.rows)
                                    + len(later.columns), self.where)
                    _give_way(earlier, later)
            self.work.spend(compared, self.where)
            if len(later.rows) >= 2 or len(later.columns) >= 2:
                if later.rows and later.columns:
                    kept.append(later)
        self.note(len(cells) - len(kept), "spanning cells sharing grid cells with an earlier one")
        return kept

    def header_tree(self, cells: list[_Spanning]) -> list[_Spanning]:
        """Header spanning cells kept only where every header row above has exactly
        one header spanning cell whose columns hold theirs."""
        headers = [c for c in cells if c.header]
        dropped = set()
        self.work.spend(len(headers) * len(headers), self.where)
        for cell in headers:
            top = min(cell.rows)
            columns = set(cell.columns)
            above = [0] * top
            for other in headers:
                if max(other.rows) < top and columns <= set(other.columns):
                    for r in other.rows:
                        above[r] += 1
            if any(count != 1 for count in above):
                dropped.add(id(cell))
        self.note(len(dropped), "header spanning cells not under one spanning cell in each header row above")
        return [c for c in cells if id(c) not in dropped]

    # The cells.

    def cells(self) -> tuple[list[Cell], list[tuple[int, int]]]:
        """The table's cells in row-major order, and where its projected row headers are."""
        rows = self.kept(self.rows, 1, 0.5, "rows")
        columns = self.kept(self.columns, 0, 0.25, "columns")
        if not rows or not columns:
            self.diagnostics.warning("pubtables1m-empty", f"{self.where}: no {'rows' if not rows else 'columns'}: "
                                                          "a table without cells")
            return [], []
        self.work.spend(len(rows) * len(columns), self.where)
        if len(rows) * len(columns) > MAX_SLOTS:
            raise self.diagnostics.fail("pubtables1m-too-large", f"{self.where}: {len(rows):,} rows x "
                                                                 f"{len(columns):,} columns, more than "
                                                                 f"{MAX_SLOTS:,} grid cells")
        # (the header flag of a row from the column header's boxes, until the rules below decide it)
        header = [any(_iob(row, h) >= 0.5 for h in self.headers) for row in rows]
        across = _union(columns) or (0.0, 0.0, 0.0, 0.0)
        down = _union(rows) or (0.0, 0.0, 0.0, 0.0)
        rows = [(across[0], r[1], across[2], r[3]) for r in rows]
        columns = [(c[0], down[1], c[2], down[3]) for c in columns]
        if len(columns) > 1:
            header = self.header_rows(rows)
            spanning = self.header_tree(self.without_shared_slots(self.aligned(rows, columns, header)))
        else:  # (the official code refines nothing then: spanning cells as drawn)
            spanning = self.spanning
        grid = _Grid(rows, columns, header, spanning, self)
        self.report()
        return grid.cells, grid.projected

    def report(self) -> None:
        if self.notes:
            self.diagnostics.info("pubtables1m-refined", f"{self.where}: left out as the official code leaves them "
                                                         f"out: {', '.join(self.notes)}")


def _give_way(earlier: _Spanning, later: _Spanning) -> None:
    """``later`` loses its last (else first) column or row shared with
    ``earlier``, columns where it has more of them than rows, until the two
    share no grid slot (or it has nothing left to lose on that side)."""
    rows = set(earlier.rows) & set(later.rows)
    columns = set(earlier.columns) & set(later.columns)
    while rows and columns:
        if len(later.rows) < len(later.columns):
            lose, shared = later.columns, columns
        else:
            lose, shared = later.rows, rows
        last, first = lose[-1], lose[0]  # (the lists are in order)
        if last in shared:
            shared.discard(last)
            lose.pop()
        elif first in shared:
            shared.discard(first)
            lose.pop(0)
        else:
            lose.clear()
            shared.clear()


class _Grid:
    """The cells of rows x columns and the spanning cells over them."""

    def __init__(self, rows: list[Box], columns: list[Box], header: list[bool], spanning: list[_Spanning],
                 structure: _Structure):
        self.rows, self.columns = rows, columns
        n_rows, n_columns = len(rows), len(columns)
        slot_area = [[_area(_intersection(row, column)) for column in columns] for row in rows]
        row_axis = structure.axis([(r[1], r[3]) for r in rows])
        column_axis = structure.axis([(c[0], c[2]) for c in columns])
        # Which grid cells each spanning cell holds more than half of.
        held: list[list[tuple[int, int]]] = []
        for cell in spanning:
            box = cell.box
            slots = []
            if box is not None:
                hit_rows = row_axis.overlapping(box[1], box[3])
                hit_columns = column_axis.overlapping(box[0], box[2])
                structure.work.spend(len(hit_rows) * len(hit_columns), structure.where)
                for r in sorted(hit_rows):
                    for c in sorted(hit_columns):
                        area = slot_area[r][c]
                        if area and _area(_intersection(box, _intersection(rows[r], columns[c]))) / area > 0.5:
                            slots.append((r, c))
            held.append(slots)
        part_of_spanning = {slot for slots in held for slot in slots}
        # (rank: the place of each cell in the official list, which decides a word's cell on a tie:
        # the grid cells column by column, then the spanning cells)
        made: list[tuple[int, int, int, int, bool, list[int], list[int], bool]] = []
        for c in range(n_columns):
            for r in range(n_rows):
                if (r, c) not in part_of_spanning:
                    made.append((r, c, r, c, header[r], [r], [c], False))
        for cell, slots in zip(spanning, held):
            if slots:
                rows_of = sorted({r for r, _ in slots})
                columns_of = sorted({c for _, c in slots})
                made.append((rows_of[0], columns_of[0], rows_of[-1], columns_of[-1],
                             all(header[r] for r, _ in slots), rows_of, columns_of, cell.projected))
        boxes = [_intersection(_union(columns[c] for c in cols), _union(rows[r] for r in rws))
                 for _, _, _, _, _, rws, cols, _ in made]
        texts: list[str | None] = [None] * len(made)
        if structure.words is not None:
            words_of = self.assign(structure, made, boxes)
            texts = [_text(words) for words in words_of]
            boxes = self.shrunk(made, boxes, words_of)
        order = sorted(range(len(made)), key=lambda i: (made[i][0], made[i][1]))
        self.cells: list[Cell] = []
        self.projected: list[tuple[int, int]] = []
        for i in order:
            r0, c0, r1, c1, is_header, _, _, projected = made[i]
            box = boxes[i]
            self.cells.append(Cell(r0, c0, r1, c1, texts[i], None,
                                   None if box is None else BBox(*box, Frame.IMAGE), is_header or projected))
            if projected:
                self.projected.append((r0, c0))

    def assign(self, structure: _Structure, made, boxes) -> list[list[_Word]]:
        """Each word to the cell holding the largest share of it, at least 0.1%
        (the first in the official order on a tie)."""
        words_of: list[list[_Word]] = [[] for _ in made]
        row_axis = structure.axis([(r[1], r[3]) for r in self.rows])
        column_axis = structure.axis([(c[0], c[2]) for c in self.columns])
        contiguous = all(rws == list(range(rws[0], rws[-1] + 1)) and cols == list(range(cols[0], cols[-1] + 1))
                         for *_, rws, cols, _ in made)
        by_slot: dict[tuple[int, int], list[int]] = {}
        indexed = row_axis.regular and column_axis.regular and contiguous
        across = structure.axis([(b[0], b[2]) if b is not None else (0.0, 0.0) for b in boxes])
        if indexed:
            for i, (r0, c0, r1, c1, *_) in enumerate(made):
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        by_slot.setdefault((r, c), []).append(i)
        for word in structure.words:
            x1, y1, x2, y2 = word.box
            candidates = None
            if indexed:  # by the grid slots the word meets
                hit_rows = row_axis.overlapping(y1, y2)
                hit_columns = column_axis.overlapping(x1, x2)
                # (a word that meets no row or no column lies in a gap, perhaps inside a spanning cell
                # across it: looked for as in an irregular grid)
                if hit_rows and hit_columns:
                    candidates = sorted({i for r in hit_rows for c in hit_columns for i in by_slot.get((r, c), ())})
            if candidates is None:  # the cells whose boxes it overlaps across, then down
                candidates = sorted(i for i in across.overlapping(x1, x2) if boxes[i][1] < y2 and y1 < boxes[i][3])
            structure.work.spend(len(candidates), structure.where)
            best, best_share = -1, -1.0
            for i in candidates:
                box = boxes[i]
                share = _overlap_area(box, word.box) / word.area if box is not None else 0.0
                if share > best_share:
                    best, best_share = i, share
            if best_share >= 0.001:
                words_of[best].append(word)
        return words_of

    def shrunk(self, made, boxes, words_of) -> list[Box | None]:
        """Cell boxes after the rows and columns shrink to their words, as the
        official code shrinks them: a row's top and bottom to the words of the
        cells starting and ending in it, its left and right to those of the cells
        starting in the first column and ending in the last (a column's alike);
        a cell's box is then its rows' and columns' intersection, where it has an area."""
        n_rows, n_columns = len(self.rows), len(self.columns)
        left: dict[int, list[float]] = {}
        top: dict[int, list[float]] = {}
        right: dict[int, list[float]] = {}
        bottom: dict[int, list[float]] = {}
        for (r0, c0, r1, c1, *_), words in zip(made, words_of):
            for word in words:
                left.setdefault(c0, []).append(word.box[0])
                top.setdefault(r0, []).append(word.box[1])
                right.setdefault(c1, []).append(word.box[2])
                bottom.setdefault(r1, []).append(word.box[3])

        def edges(box: Box, x1, y1, x2, y2) -> Box:
            return (min(x1) if x1 else box[0], min(y1) if y1 else box[1],
                    max(x2) if x2 else box[2], max(y2) if y2 else box[3])

        rows = [edges(row, left.get(0), top.get(r), right.get(n_columns - 1), bottom.get(r))
                for r, row in enumerate(self.rows)]
        columns = [edges(column, left.get(c), top.get(0), right.get(c), bottom.get(n_rows - 1))
                   for c, column in enumerate(self.columns)]
        out = []
        for (*_, rws, cols, _), box in zip(made, boxes):
            tight = _intersection(_union(rows[r] for r in rws), _union(columns[c] for c in cols))
            out.append(tight if tight is not None else box)
        return out


# -- reading --------------------------------------------------------------------------------------

def _size(root, diagnostics: Diagnostics) -> Page:
    size = next(root.iterchildren("{*}size"), None)
    if size is None:
        return Page(1, frame=Frame.IMAGE)
    width, height = (_number(size.findtext(f"{{*}}{key}")) for key in ("width", "height"))
    if width is None or height is None or width <= 0 or height <= 0:
        diagnostics.error("bad-number", "<size> without a positive width and height: the page has no size",
                          line=size.sourceline)
        return Page(1, frame=Frame.IMAGE)
    return Page(1, width, height, Frame.IMAGE)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    root = parse_xml(data, diagnostics)
    if local_name(root.tag) != "annotation":
        raise diagnostics.fail("pubtables1m-root", f"the root element is <{local_name(root.tag)}>, not <annotation>")
    image = (root.findtext("{*}filename") or "").strip() or None
    doc = Document(filename=image, pages=[_size(root, diagnostics)])
    reader = _Reader(diagnostics)
    work = _Work(diagnostics)
    tables = _tables(reader.objects(root), reader, work)
    reader.report()
    words = None
    if options.words:
        path = _words_file(options.words, diagnostics, image)
        words = _load_words(path, diagnostics) if path is not None else None
    projected: dict[str, list[list[int]]] = {}
    for table_id, (table_object, members) in enumerate(tables):
        table_box = table_object.box if table_object is not None else None
        table_words = words
        where = f"table {table_id}" + (f" (line {table_object.line})" if table_object is not None else "")
        if words is not None and table_box is not None:  # the words at least half inside the table
            work.spend(len(words), where)
            table_words = [w for w in words if _overlap_area(w.box, table_box) / w.area >= 0.5]
        cells, prh = _Structure(members, table_words, where, diagnostics, work).cells()
        region = Region(0, 1, None if table_box is None else BBox(*table_box, Frame.IMAGE), cells=cells)
        doc.tables.append(Table(table_id, [region]))
        if prh:
            projected[str(table_id)] = [list(slot) for slot in prh]
    if projected:
        doc.metadata["pubtables1m_projected_row_headers"] = json.dumps(projected, separators=(",", ":"))
    return doc


# -- the format -----------------------------------------------------------------------------------

_OBJECT_NAME = re.compile(rb"<name>\s*table(?: row| column| column header| projected row header| spanning cell)?"
                          rb"\s*</name>")


def sniff(head: bytes) -> bool:
    return xml_root(head) == "annotation" and _OBJECT_NAME.search(head) is not None


FORMAT = DECLARED["pubtables1m"]
