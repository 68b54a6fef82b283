"""ICDAR 2019 cTDaR XML (docs/formats.md, `ctdar`): Track A (tables), Track B (cells), and the
result hybrid some systems write.

Ground truth::

    document[@filename]/table/(Coords[@points], cell[@start-row,@end-row,@start-col,@end-col]/Coords)*

Result hybrid (written by the tools of Namysl et al.)::

    document/table[@id]/region[@id,@page]/(Coords, cell[...]/(Coords, content))

``points`` are ``x,y`` pairs in image pixels, origin top-left, in any corner
order; polygons may be skewed quadrilaterals or have 40+ vertices. Each box
keeps its polygon, the box being its envelope (frame ``image``). Decimal
coordinates are accepted (the official tool crashes on them). As the official
tool does, a table's outline is the first ``Coords`` inside the table element
and a cell's the first ``Coords`` inside the cell.

Cells have *unknown* content (``None``) unless a ``<content>`` is there. Filler
cells whose points are all ``0,0`` (ABBYY results) are left out of the
structure and counted in one ``ctdar-filler`` diagnostic; the scorer keeps them
(``ReadOptions.extra["keep_filler_cells"]``) because the official tool counts
their relations. Track A files (tables without cells) read as the region model.

The writer writes the ground-truth shape, Track B (cells) by default or Track A
(``WriteOptions.extra["track"] = "A"``); boxes without a polygon are written as
rectangles, clockwise from the top-left corner.
"""

from __future__ import annotations

import functools
import math
import operator
import re
from itertools import compress, repeat

from lxml import etree

from ..diagnostics import Diagnostics
from ..geometry import coordinate_text, envelope, foreign_frame_note, outline_points, parse_points, polygon_envelope
from ..grid import LazySourceLines, ParsedInts, non_negative_int
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import Option, ReadOptions, WriteOptions
from ..registry import Format
from ..sniffing import has_coords, xml_root
from ..xmlsafe import local_name, parse_xml, xml_text

_INDEX_LIMIT = 10**9
_NUMBER = "[-+0-9.eE]+"
_PAIRS = rf"{_NUMBER},{_NUMBER}(?:\s+{_NUMBER},{_NUMBER})*"
# A whole points attribute of well-formed pairs: read in one go, without a match per pair.
_POINTS = re.compile(rf"\s*{_PAIRS}\s*")
# All the cells' points joined by spaces, some perhaps empty (a pair holds no
# space, so it never spans two cells' points).
_ALL_POINTS = re.compile(rf"\s*(?:{_PAIRS})?\s*")


def _numbers(points: str) -> list[float]:
    """The numbers of ``points`` (pairs, already checked by _POINTS or _ALL_POINTS) as
    float() reads each (raises ValueError where float() does)."""
    return list(map(float, points.replace(",", " ").split()))


_CELL_ATTRIBUTES = ("start-row", "end-row", "start-col", "end-col", "id", "type")


def _in_one_layout(rows: list[list], layouts: list[tuple[int, list[str]]]) -> list[tuple]:
    """Rows of cells' attribute values then points, their attribute names given
    where they change (``layouts``: first row, names), as rows of the values of
    _CELL_ATTRIBUTES (None for one a cell does not have) then the points."""
    out = []
    ends = [start for start, _ in layouts[1:]] + [len(rows)]
    for (start, keys), end in zip(layouts, ends):
        points_at, none_at = len(keys), len(keys) + 1
        take = operator.itemgetter(*(keys.index(name) if name in keys else none_at for name in _CELL_ATTRIBUTES),
                                   points_at)
        for values in rows[start:end]:
            values.append(None)
            out.append(take(values))
    return out


def _cell_elements(region_el, positions: list[int]) -> list:
    """The elements of a region's cells that were kept, by their positions."""
    elements = list(region_el.iter("{*}cell"))
    return [elements[p] for p in positions]


def _children(el, name: str):
    """Child elements called ``name`` in any namespace or none."""
    return list(el.iterchildren("{*}" + name))


def _first(el, name: str):
    """The first element called ``name`` at or below ``el`` (document order)."""
    if len(el) and el[0].tag == name:  # the usual place, found without an iterator
        return el[0]
    return next(el.iter("{*}" + name), None)


class _Reader:
    def __init__(self, diagnostics: Diagnostics, options: ReadOptions):
        self.diagnostics = diagnostics
        self.keep_filler = bool(options.keep_filler_cells)
        self.fillers = 0
        self.lines = LazySourceLines()
        self.ints = ParsedInts()

    def points(self, coords) -> tuple[tuple[float, float], ...] | None:
        raw = coords.get("points")
        if raw is None:
            self.diagnostics.error("missing-attribute", "<Coords> has no points", line=coords.sourceline)
            return None
        pts, problem = parse_points(raw)  # the careful way, pair by pair, saying which pair is wrong
        if problem:
            self.diagnostics.error("bad-number", f"<Coords> {problem}; the outline is dropped", line=coords.sourceline)
        return pts

    def outline(self, el) -> BBox | None:
        coords = _first(el, "Coords")
        if coords is None:
            return None
        raw = coords.get("points")
        if raw is not None and _POINTS.fullmatch(raw):  # the common case, in one go
            try:
                numbers = _numbers(raw)
            except ValueError:
                numbers = None
            if numbers is not None:
                xs, ys = numbers[::2], numbers[1::2]
                x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
                if -math.inf < x1 and x2 < math.inf and -math.inf < y1 and y2 < math.inf:
                    return BBox(x1, y1, x2, y2, Frame.IMAGE, tuple(zip(xs, ys)))
        pts = self.points(coords)
        return polygon_envelope(pts, Frame.IMAGE) if pts else None

    def index(self, el, name: str, default: int | None) -> int | None:
        raw = el.get(name)
        if raw is None:
            if default is None:
                self.diagnostics.error("missing-attribute", f"<cell> has no {name}", line=el.sourceline)
            return default
        try:
            value = int(raw.strip())
        except ValueError:
            self.diagnostics.error("bad-number", f"<cell> {name}={raw!r} is not an integer", line=el.sourceline)
            return None
        if not 0 <= value <= _INDEX_LIMIT:
            self.diagnostics.error("bad-number", f"<cell> {name}={value} is out of range", line=el.sourceline)
            return None
        return value

    def cell(self, el) -> Cell | None:
        get = el.get
        try:  # the common case, fast; anything unusual takes the careful path below
            start_row, end_row = int(get("start-row")), int(get("end-row"))
            start_col, end_col = int(get("start-col")), int(get("end-col"))
            fast = 0 <= min(start_row, end_row, start_col, end_col) and max(
                start_row, end_row, start_col, end_col) <= _INDEX_LIMIT
        except (TypeError, ValueError):
            fast = False
        if not fast:
            start_row = self.index(el, "start-row", None)
            start_col = self.index(el, "start-col", None)
            if start_row is None or start_col is None:
                self.diagnostics.error("cell-dropped", "cell without a valid start row/column is left out",
                                       line=el.sourceline)
                return None
            end_row = self.index(el, "end-row", start_row)
            end_col = self.index(el, "end-col", start_col)
        box = self.outline(el)
        if box is not None and box.x1 == box.x2 == box.y1 == box.y2 == 0.0:
            self.fillers += 1
            if not self.keep_filler:
                return None
        # a ground-truth cell holds its Coords alone: no search for a <content>
        content_el = None if len(el) == 1 and el[0].tag == "Coords" else next(el.iterchildren("{*}content"), None)
        content = None if content_el is None else "".join(content_el.itertext())
        cell_id = el.get("id")
        cell = Cell(
            start_row=start_row,
            start_col=start_col,
            end_row=start_row if end_row is None else end_row,
            end_col=start_col if end_col is None else end_col,
            content=content,
            id=non_negative_int(cell_id),
            bbox=box,
            header=el.get("type") == "header",
        )
        self.lines[id(cell)] = el.sourceline
        return cell

    def plain_cells(self, el) -> list[Cell] | None:
        """The region's cells read in bulk, or None unless every cell is plain:
        the ground truth's shape, four indices (an id and a type optional) and
        one child, a ``<Coords>`` with well-formed points. All the points are
        parsed in one go, not cell by cell. Anything else is read by :meth:`cell`,
        which says what is wrong."""
        rows = []
        layouts = []  # (first row, attribute names in order) where the names change: rarely
        keys = None
        for cell_el in el.iter("{*}cell"):
            if len(cell_el) != 1:
                return None
            coords = cell_el[0]
            if coords.tag != "Coords":
                return None
            names = cell_el.keys()
            if names != keys:
                keys = names
                layouts.append((len(rows), keys))
            values = cell_el.values()  # (one call for all, not a get() for each: this runs once a cell)
            values.append(coords.get("points"))
            rows.append(values)
        if not rows:
            return []
        if len(layouts) > 1:
            rows, keys = _in_one_layout(rows, layouts), _CELL_ATTRIBUTES
        columns = list(zip(*rows))
        absent = (None,) * len(rows)
        start_rows, end_rows, start_cols, end_cols, ids, types = (
            columns[keys.index(name)] if name in keys else absent for name in _CELL_ATTRIBUTES)
        points = columns[-1]
        if None in points:
            return None
        joined = " ".join(points)
        if not _ALL_POINTS.fullmatch(joined):
            return None
        pairs = [p.count(",") for p in points]
        try:
            parsed = self.ints.__getitem__  # int() of each spelling, parsed once a document
            indices = [list(map(parsed, column)) for column in (start_rows, end_rows, start_cols, end_cols)]
            numbers = _numbers(joined)
        except (TypeError, ValueError):  # an index missing or not an integer, or a number float() refuses
            return None
        if 0 in pairs or not all(map(math.isfinite, numbers)) or min(map(min, indices)) < 0 or max(
                map(max, indices)) > _INDEX_LIMIT:
            return None
        if ids is not absent:
            ids = list(map(non_negative_int, ids))
        headers = [kind == "header" for kind in types]
        if 1 < pairs[0] and pairs.count(pairs[0]) == len(pairs):
            cells, positions = self._same_shaped(indices, pairs[0], numbers, ids, headers)
            self.lines.later(cells, functools.partial(_cell_elements, el, positions))
            return cells
        cells, positions = [], []
        end = 0
        image = Frame.IMAGE
        for position, (start_row, end_row, start_col, end_col, n, cell_id, header) in enumerate(
                zip(*indices, pairs, ids, headers)):
            start = end
            end = start + 2 * n
            xs, ys = numbers[start:end:2], numbers[start + 1:end:2]
            x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
            if x1 == x2 == y1 == y2 == 0.0:
                self.fillers += 1
                if not self.keep_filler:
                    continue
            # positional: start_row, start_col, end_row, end_col, content, id, bbox, header
            cells.append(Cell(start_row, start_col, end_row, end_col, None, cell_id,
                              BBox(x1, y1, x2, y2, image, tuple(zip(xs, ys))), header))
            positions.append(position)
        self.lines.later(cells, functools.partial(_cell_elements, el, positions))
        return cells

    def _same_shaped(self, indices, corners: int, numbers, ids, headers) -> tuple[list[Cell], list[int]]:
        """Cells whose outlines all have ``corners`` points (rectangles: 4),
        made column by column: each step a C loop over all the cells."""
        xs = [numbers[2 * k::2 * corners] for k in range(corners)]  # xs[k][i]: cell i's k-th x
        ys = [numbers[2 * k + 1::2 * corners] for k in range(corners)]
        x1, y1, x2, y2 = list(map(min, *xs)), list(map(min, *ys)), list(map(max, *xs)), list(map(max, *ys))
        polygons = zip(*(zip(x, y) for x, y in zip(xs, ys)))
        # tuple.__new__ makes each BBox in C, as BBox._make does, without a Python call a box
        boxes = map(tuple.__new__, repeat(BBox), zip(x1, y1, x2, y2, repeat(Frame.IMAGE), polygons))
        start_rows, end_rows, start_cols, end_cols = indices
        # positional: start_row, start_col, end_row, end_col, content, id, bbox, header
        cells = list(map(Cell, start_rows, start_cols, end_rows, end_cols, repeat(None), ids, boxes, headers))
        outlined = list(map(any, zip(x1, y1, x2, y2)))  # False for a filler: all its points are 0,0
        if all(outlined):
            return cells, list(range(len(cells)))
        self.fillers += outlined.count(False)
        if self.keep_filler:
            return cells, list(range(len(cells)))
        return list(compress(cells, outlined)), list(compress(range(len(cells)), outlined))

    def region(self, el, region_id: int, page: int) -> Region:
        region = Region(id=region_id, page=page, bbox=self.outline(el))
        plain = self.plain_cells(el)
        if plain is not None:
            region.cells = plain
            return region
        for cell_el in el.iter("{*}cell"):
            cell = self.cell(cell_el)
            if cell is not None:
                region.cells.append(cell)
        return region

    def table(self, el, index: int) -> Table:
        table_id = non_negative_int(el.get("id"))
        table = Table(id=index if table_id is None else table_id)
        region_els = _children(el, "region")
        if not region_els:
            table.regions.append(self.region(el, 0, 1))
            return table
        for position, region_el in enumerate(region_els):
            region_id = non_negative_int(region_el.get("id"))
            page = non_negative_int(region_el.get("page"))
            region = self.region(region_el, position if region_id is None else region_id, page or 1)
            table.regions.append(region)
        # The official tool takes the first Coords inside the table element as its outline:
        # the table's own where it comes before the first region's.
        first = _first(el, "Coords")
        if first is not None and region_els[0] not in first.iterancestors():
            if table.regions[0].bbox is not None:
                self.diagnostics.info("ctdar-outline", f"table {table.id}: its own <Coords>, the first in it, is its "
                                                       "outline (as the official tool takes it), not its region's",
                                      line=first.sourceline)
            table.regions[0].bbox = self.outline(el)
        return table

    def document(self, root) -> Document:
        if local_name(root.tag) != "document":
            raise self.diagnostics.fail(
                "ctdar-root", f"root element is <{local_name(root.tag)}>, not <document>", line=root.sourceline
            )
        doc = Document(filename=root.get("filename"), pages=[Page(1, frame=Frame.IMAGE)])
        for index, table_el in enumerate(root.iter("{*}table")):
            doc.tables.append(self.table(table_el, index))
        if self.fillers:
            kept = "kept for scoring" if self.keep_filler else "left out"
            self.diagnostics.info(
                "ctdar-filler", f"{self.fillers} filler cell(s) with all-zero coordinates {kept}"
            )
        self.diagnostics.source_lines = self.lines
        return doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    root = parse_xml(data, diagnostics)
    return _Reader(diagnostics, options).document(root)


# -- writing ---------------------------------------------------------------------------------

def _points(box: BBox) -> str:
    return " ".join(f"{coordinate_text(x)},{coordinate_text(y)}" for x, y in outline_points(box))


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    track = str(options.track or "B").upper()
    if track not in ("A", "B"):
        raise diagnostics.fail("ctdar-track", f"track must be A or B, not {track!r}")
    root = etree.Element("document", {"filename": xml_text(doc.filename or "", diagnostics)})
    frames = set()
    for table in doc.tables:
        table_el = etree.SubElement(root, "table")
        boxes = [r.bbox for r in table.regions if r.bbox is not None]
        if not boxes:
            cell_boxes = [c.bbox for c in table.cells() if c.bbox is not None]
            if cell_boxes and len({b.frame for b in cell_boxes}) == 1:
                boxes = [envelope(cell_boxes)]
        if not boxes:
            raise diagnostics.fail("missing-bbox", f"table {table.id} has no outline, which cTDaR requires")
        frames.add(boxes[0].frame)
        etree.SubElement(table_el, "Coords", {"points": _points(boxes[0])})
        if track == "A":
            continue
        for region in table.regions:
            for cell in region.cells:
                if cell.bbox is None:
                    diagnostics.warning("missing-bbox", f"table {table.id}: a cell without a box is left out")
                    continue
                frames.add(cell.bbox.frame)
                cell_el = etree.SubElement(table_el, "cell", {
                    "start-row": str(cell.start_row + region.row_increment),
                    "end-row": str(cell.end_row + region.row_increment),
                    "start-col": str(cell.start_col + region.col_increment),
                    "end-col": str(cell.end_col + region.col_increment),
                })
                etree.SubElement(cell_el, "Coords", {"points": _points(cell.bbox)})
    note = foreign_frame_note(frames, Frame.IMAGE, "cTDaR", diagnostics)
    if note:
        root.insert(0, etree.Comment(note))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    return xml_root(head) == "document" and b"neighbors=" not in head and has_coords(head)


FORMAT = Format(
    "ctdar", "ICDAR 2019 cTDaR XML (Track A and B, and results)", (".xml",), sniff, ("region", "structure"),
    read, write,
    options=(
        Option("keep_filler_cells", "--keep-filler-cells", bool,
               "cTDaR input: keep cells whose points are all 0,0 (the official scorer counts them).", False),
        Option("track", "--track", str, "cTDaR output: A (tables) or B (cells).", "B", "write",
               choices=("A", "B"), case_sensitive=False),
    ),
    native_frame="image", holds=frozenset({"empty", "overlaps", "spans", "blank", "unknown", "boxes", "header-span"}),
)
