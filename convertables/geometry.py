"""Geometry: the one module that owns coordinate frames.

Frames (docs/formats.md, "Coordinate frames"): ``pdf`` is PDF points, origin bottom-left, y up; ``image`` is
pixels, origin top-left, y down; ``page`` is fractions of the page's width and height, origin top-left, y down.
Converting pixels needs the DPI and the page height, fractions the page's size::

    x_pt = x_px * 72 / dpi                 x_pt = fx * page_width_pt
    y_pt = page_height_pt - y_px * 72 / dpi     y_pt = page_height_pt * (1 - fy)

No other module flips a y coordinate.
"""

from __future__ import annotations

import math
import re
import warnings

from dataclasses import dataclass
from typing import Iterable

from .model import BBox, Frame, Point


@dataclass(frozen=True)
class PageFrame:
    """What a conversion between frames needs for one page: the DPI of its image
    (pixels), its height and, for fractions of the page, its width in points."""

    dpi: float | None
    page_height_pt: float
    page_width_pt: float | None = None

    def can_convert(self, source: Frame, target: Frame) -> bool:
        """Whether it says enough to take boxes from ``source`` to ``target``."""
        needs_dpi = Frame.IMAGE in (source, target)
        needs_width = Frame.PAGE in (source, target)
        return (not needs_dpi or self.dpi is not None) and (not needs_width or self.page_width_pt is not None)

    @property
    def scale(self) -> float:
        """Points per pixel."""
        return 72.0 / self.dpi


def _pixel_to_point(point: Point, page: PageFrame) -> Point:
    x, y = point
    return (x * page.scale, page.page_height_pt - y * page.scale)


def _point_to_pixel(point: Point, page: PageFrame) -> Point:
    x, y = point
    return (x / page.scale, (page.page_height_pt - y) / page.scale)


def _fraction_to_point(point: Point, page: PageFrame) -> Point:
    x, y = point
    return (x * page.page_width_pt, page.page_height_pt * (1.0 - y))


def _point_to_fraction(point: Point, page: PageFrame) -> Point:
    x, y = point
    return (x / page.page_width_pt, 1.0 - y / page.page_height_pt)


def _move(source: Frame, target: Frame):
    """The function taking a point from ``source`` to ``target`` (through PDF points)."""
    to_points = {Frame.PDF: None, Frame.IMAGE: _pixel_to_point, Frame.PAGE: _fraction_to_point}[source]
    from_points = {Frame.PDF: None, Frame.IMAGE: _point_to_pixel, Frame.PAGE: _point_to_fraction}[target]
    if to_points is None:
        return from_points
    if from_points is None:
        return to_points
    return lambda point, page: from_points(to_points(point, page), page)


def convert_box(box: BBox, target: Frame, page: PageFrame) -> BBox:
    """``box`` expressed in ``target`` (unchanged if already there)."""
    if box.frame is target:
        return box
    move = _move(box.frame, target)
    (ax, ay), (bx, by) = move((box.x1, box.y1), page), move((box.x2, box.y2), page)
    polygon = tuple(move(p, page) for p in box.polygon) if box.polygon else None
    return BBox(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), target, polygon)


def displayed_rotated_90(point: Point, mediabox: tuple[float, float, float, float]) -> Point:
    """A point of a page that is displayed rotated by 90 degrees, in the
    displayed page's frame (PDF points, y up): (x, y) -> (y - y0, x1 - x)."""
    x, y = point
    return (y - mediabox[1], mediabox[2] - x)


def ordered(box: BBox) -> BBox:
    """``box`` with its corners swapped where needed so that x1 <= x2 and y1 <= y2."""
    if box.is_ordered:
        return box
    return BBox(min(box.x1, box.x2), min(box.y1, box.y2), max(box.x1, box.x2), max(box.y1, box.y2),
                box.frame, box.polygon)


_FRAME_WORDS = {Frame.PDF: "PDF points, origin bottom-left", Frame.IMAGE: "image pixels, origin top-left",
                Frame.PAGE: "fractions of the page, origin top-left"}


def foreign_frame_note(frames: set[Frame], native: Frame, format_title: str, diagnostics) -> str | None:
    """When a writer's boxes are not in its format's ``native`` frame: warn
    (``frame-foreign``) and return the text of the comment the file should carry."""
    foreign = sorted(f.value for f in frames - {native})
    if not foreign:
        return None
    words = _FRAME_WORDS[Frame(foreign[0])]
    diagnostics.warning(
        "frame-foreign",
        f"boxes are in {words.split(',')[0]}, not the {_FRAME_WORDS[native].split(',')[0]} of {format_title}; "
        "written as they are",
        hint=("pass --page-width and --page-height (or --pdf) to convert them" if Frame.PAGE in frames - {native}
              else "pass --dpi and --page-height (or --pdf) to convert them"),
    )
    return f" coordinates: {words} (not {_FRAME_WORDS[native].split(',')[0]}) "


def envelope(boxes: Iterable[BBox]) -> BBox | None:
    """The smallest box enclosing ``boxes`` (all in one frame), or None if there are none."""
    boxes = list(boxes)
    if not boxes:
        return None
    frames = {b.frame for b in boxes}
    if len(frames) > 1:
        raise ValueError("cannot enclose boxes of different frames")
    return BBox(
        min(b.x1 for b in boxes),
        min(b.y1 for b in boxes),
        max(b.x2 for b in boxes),
        max(b.y2 for b in boxes),
        boxes[0].frame,
    )


def polygon_envelope(points: Iterable[Point], frame: Frame) -> BBox:
    """The box enclosing a polygon, keeping the polygon."""
    pts = tuple(points)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return BBox(min(xs), min(ys), max(xs), max(ys), frame, pts)


_POINT_PAIR = re.compile(r"^\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*$")


def parse_points(raw: str) -> tuple[tuple[Point, ...] | None, str | None]:
    """The points of a ``points`` attribute (``x,y`` pairs separated by
    whitespace, as cTDaR and POD write them), or None and what is wrong,
    said of the element: a pair that is not two finite numbers, or no pair at all."""
    pts = []
    for pair in raw.split():
        match = _POINT_PAIR.match(pair)
        x = y = math.nan
        if match:
            try:
                x, y = float(match.group(1)), float(match.group(2))
            except ValueError:
                pass
        if not (math.isfinite(x) and math.isfinite(y)):
            return None, f"point {pair!r} is not a pair of finite numbers"  # (one said, the first)
        pts.append((x, y))
    if not pts:
        return None, "has no points"
    return tuple(pts), None


def outline_points(box: BBox) -> tuple[Point, ...]:
    """The box's polygon, or its rectangle clockwise from the top-left corner (in
    a y-down frame; the bottom-left in a y-up one)."""
    if box.polygon:
        return box.polygon
    return ((box.x1, box.y1), (box.x2, box.y1), (box.x2, box.y2), (box.x1, box.y2))


def coordinate_text(value: float) -> str:
    """A coordinate as the XML formats write it: an integral value as an integer
    (up to 1e15, where a float's integers are still exact and short), any other
    as repr() spells the float."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


# -- polygons: area and IoU ------------------------------------------------------------------
# shapely is imported where these are first used: converting files never needs it.


class GeometryFailed(ValueError):
    """GEOS could not measure an outline (coordinates near the float limit)."""


def shapes(boxes: list[BBox | None]):
    """Repaired shapely polygons of ``boxes`` (a missing or degenerate one is empty).

    Every polygon goes through ``buffer(0)``, as the official cTDaR tool does:
    a self-intersecting outline (a bow-tie) becomes the valid area it encloses.
    """
    import numpy as np
    import shapely

    out = []
    for box in boxes:
        pts = outline_points(box) if box is not None else ()
        try:
            out.append(shapely.Polygon(pts) if len(pts) >= 3 else shapely.Polygon())
        except (ValueError, shapely.errors.GEOSException):
            out.append(shapely.Polygon())
    with warnings.catch_warnings():  # (coordinates near the float limit overflow: no lines on stderr)
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return shapely.buffer(np.array(out, dtype=object), 0)
        except shapely.errors.GEOSException as exc:
            raise GeometryFailed(f"an outline cannot be repaired ({exc})") from None


# Integer corners below this bound give areas (products below 2**48) and sums that
# floats hold exactly, so the arithmetic below equals GEOS's to the last bit.
_EXACT_LIMIT = 2**24


def _is_rectangle(pts: tuple[Point, ...]) -> bool:
    """Whether a polygon encloses exactly its envelope: four corners joined by
    axis-parallel edges (in either turning order), or no area at all."""
    if len(pts) == 5 and pts[0] == pts[4]:
        pts = pts[:4]
    if len(pts) == 4:
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = pts
        if (ax == bx and by == cy and cx == dx and dy == ay) or (ay == by and bx == cx and cy == dy and dx == ax):
            return True
    # a polygon on one line has no area, as its envelope then has none
    return len({p[0] for p in pts}) == 1 or len({p[1] for p in pts}) == 1


class Overlaps:
    """The pairs of two lists of outlines whose IoU reaches a floor, kept sparse.

    ``rows[i]`` maps each outline ``j`` of the second list whose IoU with
    outline ``i`` of the first reaches the floor to that IoU, in increasing
    ``j``: the order first-fit matching walks. A page's cells each match one or
    two, so these pairs are found without the full matrix (and without numpy,
    a heavy import that scoring a small set should not pay for).
    """

    __slots__ = ("rows", "n_columns")

    def __init__(self, rows: list[dict[int, float]], n_columns: int):
        self.rows = rows
        self.n_columns = n_columns

    def get(self, i: int, j: int) -> float:
        return self.rows[i].get(j, 0.0)

    def tolist(self) -> list[list[float]]:
        """The full matrix, ``[len(first)][len(second)]`` (0.0 below the floor)."""
        dense = []
        for row in self.rows:
            line = [0.0] * self.n_columns
            for j, value in row.items():
                line[j] = value
            dense.append(line)
        return dense


def _integer_rectangles(boxes: list[BBox | None]) -> list[tuple[int, int, int, int] | None] | None:
    """Corners (x1, y1, x2, y2), ordered, of every outline with an area (None for
    the others), when every outline is an axis-parallel rectangle with integer
    corners or has no area at all; otherwise None."""
    corners: list[float] = []
    for box in boxes:
        if box is not None:
            pts = box.polygon
            if pts and not _is_rectangle(pts):
                return None
            corners += box[:4]
    try:
        ints = list(map(int, corners))
    except (ValueError, OverflowError):  # NaN, infinities
        return None
    # integers, and small enough to keep the arithmetic exact
    if ints != corners or (ints and (min(ints) <= -_EXACT_LIMIT or max(ints) >= _EXACT_LIMIT)):
        return None
    rows: list[tuple[int, int, int, int] | None] = []
    take = iter(ints)
    quads = zip(take, take, take, take)
    for box in boxes:
        if box is None:
            rows.append(None)
            continue
        x1, y1, x2, y2 = quad = next(quads)
        if x1 < x2 and y1 < y2:
            rows.append(quad)
            continue
        if x1 > x2:  # a box given corner-swapped encloses the same area
            x1, x2 = x2, x1
        if y1 > y2:
            y1, y2 = y2, y1
        rows.append((x1, y1, x2, y2) if x1 < x2 and y1 < y2 else None)
    return rows


def _rectangle_overlaps(a, b, at_least: float) -> list[dict[int, float]]:
    """:class:`Overlaps` rows (IoU >= ``at_least`` > 0.5) of two lists from
    :func:`_integer_rectangles`.

    Two rectangles with an IoU above 0.5 hold each other's centres: were the
    centre of ``r`` outside ``q``, at most half of ``r`` would be inside it, and
    the IoU at most 0.5. So ``b``'s rectangles are put in buckets of a grid by
    their centres (each in one bucket, sized as a typical one of them), and a
    rectangle of ``a`` is measured only against the centres it holds. Areas are
    integers below 2**48, held exactly, so each IoU is the correctly rounded
    quotient GEOS gives too.
    """
    rows: list[dict[int, float]] = [{} for _ in a]
    present = [r for r in b if r is not None]
    if not present:
        return rows
    size_x = sorted(r[2] - r[0] for r in present)[len(present) // 2]
    size_y = sorted(r[3] - r[1] for r in present)[len(present) // 2]
    # centres doubled, to stay integers
    double_x, double_y = 2 * size_x, 2 * size_y
    buckets: dict[tuple[int, int], list[int]] = {}
    for j, r in enumerate(b):
        if r is not None:
            key = ((r[0] + r[2]) // double_x, (r[1] + r[3]) // double_y)
            if key in buckets:
                buckets[key].append(j)
            else:
                buckets[key] = [j]
    everything = [j for j, r in enumerate(b) if r is not None]
    for i, r in enumerate(a):
        if r is None:
            continue
        ax1, ay1, ax2, ay2 = r
        cols = range(ax1 // size_x, ax2 // size_x + 1)
        lines = range(ay1 // size_y, ay2 // size_y + 1)
        if len(cols) * len(lines) > len(buckets):
            candidates = everything
        else:
            candidates = []
            for u in cols:
                for v in lines:
                    found = buckets.get((u, v))
                    if found:
                        candidates += found
            if len(candidates) > 1:
                candidates.sort()
        area = (ax2 - ax1) * (ay2 - ay1)
        row = rows[i]
        for j in candidates:
            bx1, by1, bx2, by2 = b[j]
            width = (ax2 if ax2 < bx2 else bx2) - (ax1 if ax1 > bx1 else bx1)
            height = (ay2 if ay2 < by2 else by2) - (ay1 if ay1 > by1 else by1)
            if width > 0 and height > 0:
                inter = width * height
                iou = inter / (area + (bx2 - bx1) * (by2 - by1) - inter)
                if iou >= at_least:
                    row[j] = iou
    return rows


def iou_matrix(gt: list[BBox | None], result: list[BBox | None], at_least: float) -> Overlaps:
    """The pairs with an IoU of ``at_least`` or more (any more than 0), as :class:`Overlaps`.

    Each IoU is intersection area over union area, 0 where the union has no
    area (both outlines degenerate). When every outline is an axis-parallel
    rectangle with integer corners (the usual case: pixel boxes) and
    ``at_least`` is above 0.5, the areas are computed directly, exactly as GEOS
    would; otherwise GEOS computes them, for the pairs whose envelopes
    intersect (an STR-tree finds them).
    """
    if not gt or not result:
        return Overlaps([{} for _ in gt], len(result))
    if at_least > 0.5:
        rect_a = _integer_rectangles(gt)
        rect_b = _integer_rectangles(result) if rect_a is not None else None
        if rect_b is not None:
            return Overlaps(_rectangle_overlaps(rect_a, rect_b, at_least), len(result))
    return geos_iou_matrix(gt, result, at_least)


def geos_iou_matrix(gt: list[BBox | None], result: list[BBox | None], at_least: float) -> Overlaps:
    """:func:`iou_matrix` with every area computed by GEOS (any polygon)."""
    import numpy as np
    import shapely

    rows: list[dict[int, float]] = [{} for _ in gt]
    if not gt or not result:
        return Overlaps(rows, len(result))
    a, b = shapes(gt), shapes(result)
    tree = shapely.STRtree(b)
    # (areas of coordinates near the float limit overflow: shapely warns on stderr, the IoU is 0 or nan)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            i, j = tree.query(a, predicate="intersects")
            if len(i):
                inter = shapely.area(shapely.intersection(a[i], b[j]))
                union = shapely.area(shapely.union(a[i], b[j]))
                values = np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)
        except shapely.errors.GEOSException as exc:
            raise GeometryFailed(f"two outlines cannot be intersected ({exc})") from None
    if len(i):
        for gi, rj, value in sorted(zip(i.tolist(), j.tolist(), values.tolist())):
            if value >= at_least and value > 0:
                rows[gi][rj] = value
    return Overlaps(rows, len(result))


def polygon_iou(a: BBox | None, b: BBox | None) -> float:
    return geos_iou_matrix([a], [b], 0.0).get(0, 0)


def convert_document(doc, target: Frame, frame_of_page) -> tuple[object, int]:
    """A copy of ``doc`` with every box in ``target``; ``frame_of_page(page)``
    gives the :class:`PageFrame` of a page (or None: that page's boxes stay).
    Returns the copy and the number of boxes left unconverted."""
    import copy

    doc = copy.deepcopy(doc)
    left = 0
    for table in doc.tables:
        for region in table.regions:
            page = frame_of_page(region.page)
            for holder in [region, *region.cells]:
                box = holder.bbox
                if box is None or box.frame is target:
                    continue
                if page is None or not page.can_convert(box.frame, target):
                    left += 1
                    continue
                holder.bbox = convert_box(box, target, page)
    return doc, left


# -- boxes of two documents, in one frame ---------------------------------------------------------

_FRAME_NEEDS = {
    Frame.PAGE: ("the page's size in points", "--page-width and --page-height (or --pdf)"),
    Frame.IMAGE: ("the image's DPI and the page's height", "--dpi and --page-height (or --pdf, or --image)"),
}


class FramesIncomparable(ValueError):
    """Boxes of two documents in frames that what is known of their pages cannot
    convert into each other; the message names both frames and what would convert them."""


def box_frames(doc) -> set[Frame]:
    """The frames of a document's boxes (its regions' and cells')."""
    return {box.frame for table in doc.tables for region in table.regions
            for box in (region.bbox, *(c.bbox for c in region.cells)) if box is not None}


def _known_pages(docs, sizes: dict[int, tuple[float, float]] | None) -> dict[int, PageFrame]:
    """What the documents (the first one first) and ``sizes`` (page -> width and height in
    PDF points, a PDF's) say of each page: its DPI and its size in points."""
    dpi: dict[int, float] = {}
    points: dict[int, tuple[float | None, float]] = {}
    for number, (width, height) in (sizes or {}).items():
        if height:
            points[number] = (width, height)
    for doc in docs:
        for page in doc.pages:
            if page.dpi and page.number not in dpi:
                dpi[page.number] = page.dpi
            if page.number in points or not page.height:
                continue
            if page.frame is Frame.PDF:
                points[page.number] = (page.width, page.height)
            elif page.frame is Frame.IMAGE and page.dpi:
                scale = 72.0 / page.dpi
                points[page.number] = (page.width * scale if page.width else None, page.height * scale)
    return {n: PageFrame(dpi.get(n), height, width) for n, (width, height) in points.items()}


def in_one_frame(gt, result, target: Frame | None = None,
                 sizes: dict[int, tuple[float, float]] | None = None) -> tuple[object, object]:
    """``gt`` and ``result`` with every box in one frame: ``target``, else (where
    their boxes are in several) PDF points, the frame every other converts into.
    Pages are converted with what the two documents and ``sizes``
    (page -> PDF width and height, a PDF's) say of them. Documents already in that
    frame are returned as they are. Raises :class:`FramesIncomparable` where some box
    cannot be converted (fractions of the page without the page's size, pixels
    without the DPI)."""
    gt_frames, result_frames = box_frames(gt), box_frames(result)
    if target is None:
        if not gt_frames or not result_frames or len(gt_frames | result_frames) == 1:
            return gt, result
        target = Frame.PDF  # (an IoU is the same in any frame the boxes are converted into)
    if gt_frames <= {target} and result_frames <= {target}:
        return gt, result
    pages = _known_pages((gt, result), sizes)
    out = []
    for doc, frames, whose in ((gt, gt_frames, "ground truth"), (result, result_frames, "result")):
        if frames <= {target}:
            out.append(doc)
            continue
        converted, left = convert_document(doc, target, pages.get)
        if left:
            raise FramesIncomparable(_incomparable(gt_frames, result_frames, whose, frames, target, left))
        out.append(converted)
    return out[0], out[1]


def _words(frames: set[Frame]) -> str:
    if not frames:
        return "none"
    return " and ".join(_FRAME_WORDS[f].split(",")[0] for f in sorted(frames, key=lambda f: f.value))


def _incomparable(gt_frames: set[Frame], result_frames: set[Frame], whose: str, frames: set[Frame], target: Frame,
                  left: int) -> str:
    """What :class:`FramesIncomparable` says: both sides' frames, what the side
    ``whose`` (its boxes in ``frames``) lacks to reach ``target``, and how to convert it."""
    involved = frames | {target}
    odd = next((f for f in (Frame.PAGE, Frame.IMAGE) if f in involved), Frame.IMAGE)
    missing, flags = _FRAME_NEEDS[odd]
    return (f"the ground truth's boxes are in {_words(gt_frames)}, the result's in {_words(result_frames)}; "
            f"{left} box(es) of the {whose} cannot be converted into {_words({target})} without {missing}, which "
            f"neither file says: convert the {whose} with {flags} (convertables convert)")
