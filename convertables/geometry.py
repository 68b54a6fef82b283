"""Geometry: the one module that owns coordinate frames.

Frames (SPEC 1): ``pdf`` is PDF points, origin bottom-left, y up; ``image`` is
pixels, origin top-left, y down. Converting needs the DPI and the page height::

    x_pt = x_px * 72 / dpi
    y_pt = page_height_pt - y_px * 72 / dpi

No other module flips a y coordinate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .model import BBox, Frame, Point


@dataclass(frozen=True)
class PageFrame:
    """What a conversion between frames needs for one page."""

    dpi: float
    page_height_pt: float

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


def convert_box(box: BBox, target: Frame, page: PageFrame) -> BBox:
    """``box`` expressed in ``target`` (unchanged if already there)."""
    if box.frame is target:
        return box
    move = _pixel_to_point if target is Frame.PDF else _point_to_pixel
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


_FRAME_WORDS = {Frame.PDF: "PDF points, origin bottom-left", Frame.IMAGE: "image pixels, origin top-left"}


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
        hint="pass --dpi and --page-height (or --pdf) to convert them",
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


# -- polygons: area and IoU ------------------------------------------------------------------
# shapely is imported where these are first used: converting files never needs it.

def _outline_points(box: BBox) -> tuple[Point, ...]:
    if box.polygon:
        return box.polygon
    return ((box.x1, box.y1), (box.x2, box.y1), (box.x2, box.y2), (box.x1, box.y2))


def shapes(boxes: list[BBox | None]):
    """Repaired shapely polygons of ``boxes`` (a missing or degenerate one is empty).

    Every polygon goes through ``buffer(0)``, as the official cTDaR tool does:
    a self-intersecting outline (a bow-tie) becomes the valid area it encloses.
    """
    import numpy as np
    import shapely

    out = []
    for box in boxes:
        pts = _outline_points(box) if box is not None else ()
        try:
            out.append(shapely.Polygon(pts) if len(pts) >= 3 else shapely.Polygon())
        except (ValueError, shapely.errors.GEOSException):
            out.append(shapely.Polygon())
    return shapely.buffer(np.array(out, dtype=object), 0)


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


def _integer_rectangles(boxes: list[BBox | None]):
    """``[n, 4]`` corners (x1, y1, x2, y2) when every outline is an axis-parallel
    rectangle with integer corners (or has no area at all); otherwise None."""
    import numpy as np

    rows = []
    for box in boxes:
        if box is None:
            rows.append((0.0, 0.0, 0.0, 0.0))
            continue
        pts = box.polygon
        if pts and not _is_rectangle(pts):
            return None
        rows.append((box.x1, box.y1, box.x2, box.y2))
    corners = np.array(rows, dtype=float)
    if not (np.all(corners == np.round(corners)) and np.all(np.abs(corners) < _EXACT_LIMIT)):
        return None
    # a box given corner-swapped encloses the same area
    x1, x2 = np.minimum(corners[:, 0], corners[:, 2]), np.maximum(corners[:, 0], corners[:, 2])
    y1, y2 = np.minimum(corners[:, 1], corners[:, 3]), np.maximum(corners[:, 1], corners[:, 3])
    return np.stack([x1, y1, x2, y2], axis=1)


def _rectangle_iou(a, b):
    """IoU of every pair of rectangles ``a[n, 4]`` x ``b[m, 4]``; 0 where both have no area."""
    import numpy as np

    width = np.minimum.outer(a[:, 2], b[:, 2]) - np.maximum.outer(a[:, 0], b[:, 0])
    height = np.minimum.outer(a[:, 3], b[:, 3]) - np.maximum.outer(a[:, 1], b[:, 1])
    np.maximum(width, 0.0, out=width)
    np.maximum(height, 0.0, out=height)
    inter = width * height
    union = np.add.outer((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]), (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])) - inter
    iou = np.zeros_like(inter)
    np.divide(inter, union, out=iou, where=union > 0)
    return iou


def iou_matrix(gt: list[BBox | None], result: list[BBox | None]):
    """IoU of every pair, as a numpy array ``[len(gt), len(result)]``.

    Each IoU is intersection area over union area, 0 where the union has no
    area (both outlines degenerate). When every outline is an axis-parallel
    rectangle with integer corners (the usual case: pixel boxes) the areas are
    computed directly, exactly as GEOS would; otherwise GEOS computes them, for
    the pairs whose envelopes intersect (an STR-tree finds them).
    """
    import numpy as np

    matrix = np.zeros((len(gt), len(result)))
    if not gt or not result:
        return matrix
    rect_a = _integer_rectangles(gt)
    rect_b = _integer_rectangles(result) if rect_a is not None else None
    if rect_b is not None:
        return _rectangle_iou(rect_a, rect_b)
    return geos_iou_matrix(gt, result)


def geos_iou_matrix(gt: list[BBox | None], result: list[BBox | None]):
    """:func:`iou_matrix` with every area computed by GEOS (any polygon)."""
    import numpy as np
    import shapely

    matrix = np.zeros((len(gt), len(result)))
    if not gt or not result:
        return matrix
    a, b = shapes(gt), shapes(result)
    tree = shapely.STRtree(b)
    i, j = tree.query(a, predicate="intersects")
    if len(i):
        inter = shapely.area(shapely.intersection(a[i], b[j]))
        union = shapely.area(shapely.union(a[i], b[j]))
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)
        matrix[i, j] = values
    return matrix


def polygon_iou(a: BBox | None, b: BBox | None) -> float:
    return float(iou_matrix([a], [b])[0, 0])


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
                if page is None:
                    left += 1
                    continue
                holder.bbox = convert_box(box, target, page)
    return doc, left
