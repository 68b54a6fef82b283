"""WTW ("Parsing Table Structures in the Wild") annotation XML (docs/formats.md, `wtw`):
one file a photographed or scanned image, its tables' cells; read only.

The file is PASCAL VOC-like::

    annotation/(filename, size/(width, height),
                object/(name, bndbox/(xmin, ymin, xmax, ymax, x1, y1, x2, y2, x3, y3, x4, y4,
                                      startcol, endcol, startrow, endrow, tableid)))*

one ``object`` a cell: its grid place (0-based, inclusive), the table it belongs
to (``tableid``: several tables an image), its axis-aligned box and the
quadrilateral ``x1,y1 .. x4,y4`` of a cell photographed at an angle, in pixels of
the image (``image`` frame). The fields are read wherever they are inside the
object (``bndbox`` in the dataset; a ``tablecell`` element in some conversions).
The quadrilateral is the cell's polygon and its envelope the box; without it,
the ``xmin..ymax`` box. Tables are ordered by ``tableid``, each one region on
page 1 whose outline is the envelope of its cells (WTW gives no table box).
WTW has no text: cells have unknown content. An object whose four indices are
not whole numbers from 0 to 10^9 is left out (``cell-dropped``).
"""

from __future__ import annotations

import math

from ..diagnostics import Diagnostics
from ..geometry import envelope, polygon_envelope
from ..grid import NUMBER_LIMIT, non_negative_int
from ..model import BBox, Cell, Document, Frame, Page, Reading, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml

_INDICES = ("startrow", "endrow", "startcol", "endcol")
_FIELDS = {"xmin", "ymin", "xmax", "ymax", "x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4", *_INDICES, "tableid"}


def _fields(obj) -> tuple[dict[str, str], dict[str, int]]:
    """The object's fields by name (the first of each, in document order) and their lines."""
    found: dict[str, str] = {}
    lines: dict[str, int] = {}
    for el in obj.iter():
        name = local_name(el.tag)
        if name in _FIELDS and name not in found:
            found[name] = (el.text or "").strip()
            lines[name] = el.sourceline
    return found, lines


def _number(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) and abs(value) <= NUMBER_LIMIT else None


def _box(fields: dict[str, str], problems: list[str]) -> BBox | None:
    corners = [(fields.get(f"x{k}"), fields.get(f"y{k}")) for k in range(1, 5)]
    if all(x is not None and y is not None for x, y in corners):
        points = [(_number(x), _number(y)) for x, y in corners]
        if all(x is not None and y is not None for x, y in points):
            return polygon_envelope(points, Frame.IMAGE)
        problems.append(f"x1..y4 {' '.join(f'{x},{y}' for x, y in corners)}")
    sides = [fields.get(name) for name in ("xmin", "ymin", "xmax", "ymax")]
    if all(side is not None for side in sides):
        x1, y1, x2, y2 = (_number(side) for side in sides)
        if None not in (x1, y1, x2, y2):
            return BBox(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2), Frame.IMAGE)
        problems.append(f"xmin..ymax {' '.join(sides)}")
    return None


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    root = parse_xml(data, diagnostics)
    if local_name(root.tag) != "annotation":
        raise diagnostics.fail("wtw-root", f"root element is <{local_name(root.tag)}>, not <annotation>",
                               line=root.sourceline)
    doc = Document()
    size = {}
    for child in root:
        name = local_name(child.tag)
        if name == "filename" and child.text and child.text.strip():
            doc.filename = child.text.strip()
        elif name == "size":
            for part in child:
                if local_name(part.tag) in ("width", "height"):
                    value = _number((part.text or "").strip())
                    if value is None or value <= 0:
                        diagnostics.error("bad-number", f"<size> <{local_name(part.tag)}> {part.text!r} is not a "
                                                        "positive number", line=part.sourceline)
                    else:
                        size[local_name(part.tag)] = value
    doc.pages = [Page(1, size.get("width"), size.get("height"), Frame.IMAGE)]
    tables: dict[int, list[Cell]] = {}
    lines: dict[int, int] = {}
    dropped: list[str] = []
    bad_boxes: list[str] = []
    for obj in root.iterchildren("{*}object"):
        fields, where = _fields(obj)
        indices = [non_negative_int(fields.get(name)) for name in _INDICES]
        if None in indices:
            name = _INDICES[indices.index(None)]
            dropped.append(f"line {where.get(name, obj.sourceline)}: {name} "
                           f"{fields[name]!r}" if name in fields else f"line {obj.sourceline}: no {name}")
            continue
        table_id = non_negative_int(fields.get("tableid", "0"))
        if table_id is None:
            dropped.append(f"line {where['tableid']}: tableid {fields['tableid']!r}")
            continue
        start_row, end_row, start_col, end_col = indices
        problems: list[str] = []
        box = _box(fields, problems)
        if problems:
            bad_boxes.append(f"line {obj.sourceline}: {problems[0]}")
        cell = Cell(start_row, start_col, end_row, end_col, None, None, box)
        lines[id(cell)] = obj.sourceline
        tables.setdefault(table_id, []).append(cell)
    if dropped:
        diagnostics.error("cell-dropped", f"{len(dropped)} cell(s) without four whole-number indices (and tableid) "
                                          f"from 0 to 10^9 left out: {dropped[0]}")
    if bad_boxes:
        diagnostics.error("bad-number", f"{len(bad_boxes)} cell outline(s) not finite numbers within 10^9: a bad "
                                        "quadrilateral gives way to the box, a bad box to none "
                                        f"({bad_boxes[0]})")
    for table_id in sorted(tables):
        cells = tables[table_id]
        boxes = [c.bbox for c in cells if c.bbox is not None]
        doc.tables.append(Table(table_id, [Region(0, 1, envelope(boxes) if boxes else None, cells=cells)]))
    return Reading(doc, source_lines=lines)


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    """An XML root ``annotation`` whose objects have ``startrow`` or ``tableid`` fields."""
    return xml_root(head) == "annotation" and (b"<startrow>" in head or b"<tableid>" in head)


FORMAT = DECLARED["wtw"]
