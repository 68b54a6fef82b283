"""PAGE XML tables (docs/formats.md, `pagexml`): PRImA's page format as Transkribus
and archival table datasets write it; read and written.

Read::

    PcGts/Page[@imageWidth,@imageHeight]/TableRegion/(Coords[@points],
        TableCell[@row,@col,@rowSpan,@colSpan]/(Coords, TextLine/TextEquiv/Unicode, TextEquiv/Unicode))

in the 2013-07-15 and 2019-07-15 namespaces (and 2010-03-19's; any other, or
none, is read by element names and reported). The 2019 schema's own cells, ``TextRegion`` children of the table
with ``Roles/TableCellRole[@rowIndex,@columnIndex,@rowSpan,@colSpan,@header]``,
are read too. Each ``TableRegion`` is a table of one region on the page of its
``Page`` (counted from 1); its outline and its cells' are their ``Coords``
(``points`` pairs, or the 2010 schema's ``Point`` children) in pixels of the
page image (``image`` frame), polygons kept. ``rowSpan``/``colSpan`` default
to 1. A cell's text is its own ``TextEquiv/Unicode`` where that is not blank,
else its ``TextLine``s' (each line's ``TextEquiv``, or its words' joined by a
space), joined by a line break; a cell with neither is blank, unless the file
holds no ``TextEquiv`` at all (a layout-only file), whose cells have unknown
content.

Written in the 2013 namespace as Transkribus writes tables: one ``Page`` (a PAGE
file is one page image; a document with tables on several pages is refused,
``pagexml-pages``), a ``TableRegion`` a table, a ``TableCell`` a cell with its
``Coords``, one ``TextLine`` per line of its text, and its own ``TextEquiv``.
PAGE needs outlines: cells without a box are left out (``missing-bbox``), and a
table with no box at all is refused.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

from lxml import etree

from ..diagnostics import Diagnostics
from ..geometry import coordinate_text, envelope, foreign_frame_note, outline_points, parse_points, polygon_envelope
from ..grid import NUMBER_LIMIT, non_negative_int
from ..model import BBox, Cell, Document, Frame, Page, Reading, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml, xml_text

NAMESPACE_2013 = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15"
NAMESPACE_2019 = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"
_KNOWN = (NAMESPACE_2013, NAMESPACE_2019, "http://schema.primaresearch.org/PAGE/gts/pagecontent/2010-03-19")
IMAGE_NAME = "pagexml_image"
"""The metadata key keeping ``Page/@imageFilename``."""


def _children(el, name: str) -> list:
    return [child for child in el if local_name(child.tag) == name]


def _child(el, name: str):
    return next((child for child in el if local_name(child.tag) == name), None)


def _unicode(text_equiv) -> str | None:
    """The text of a ``TextEquiv``: its ``Unicode`` child's."""
    if text_equiv is None:
        return None
    found = _child(text_equiv, "Unicode")
    return None if found is None else "".join(found.itertext())


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.lines: dict[int, int] = {}
        self.any_text = False

    def outline(self, el) -> BBox | None:
        coords = _child(el, "Coords")
        if coords is None:
            return None
        raw = coords.get("points")
        if raw is None:
            pts_els = _children(coords, "Point")
            if not pts_els:
                self.diagnostics.error("missing-attribute", "<Coords> has no points", line=coords.sourceline)
                return None
            raw = " ".join(f"{p.get('x', '')},{p.get('y', '')}" for p in pts_els)
        pts, problem = parse_points(raw)
        if problem:
            self.diagnostics.error("bad-number", f"<Coords> {problem}; the outline is dropped", line=coords.sourceline)
            return None
        if any(abs(v) > NUMBER_LIMIT for point in pts for v in point):
            self.diagnostics.error("bad-number", "<Coords> has a coordinate beyond 10^9; the outline is dropped",
                                   line=coords.sourceline)
            return None
        return polygon_envelope(pts, Frame.IMAGE)

    def index(self, el, name: str, default: int | None) -> int | None:
        raw = el.get(name)
        if raw is None:
            if default is None:
                self.diagnostics.error("missing-attribute", f"<{local_name(el.tag)}> has no {name}", line=el.sourceline)
            return default
        value = non_negative_int(raw)
        if value is None:
            self.diagnostics.error("bad-number", f"<{local_name(el.tag)}> {name}={raw!r} is not a whole number from 0 "
                                                 "to 10^9", line=el.sourceline)
        return value

    def span(self, el, name: str) -> int:
        raw = el.get(name)
        if raw is None:
            return 1
        value = non_negative_int(raw)
        if value is None:
            self.diagnostics.error("bad-number", f"<{local_name(el.tag)}> {name}={raw!r} is not a whole number; read "
                                                 "as 1", line=el.sourceline)
            return 1
        return value  # (0 makes the end fall before the start: the grid check says so)

    def text(self, cell_el) -> str:
        own = _unicode(_child(cell_el, "TextEquiv"))
        if own is not None:
            self.any_text = True
            if own.strip():
                return own
        lines = []
        for line_el in _children(cell_el, "TextLine"):
            text = _unicode(_child(line_el, "TextEquiv"))
            if text is None:
                words = [_unicode(_child(w, "TextEquiv")) for w in _children(line_el, "Word")]
                words = [w for w in words if w is not None]
                text = " ".join(words) if words else None
            if text is not None:
                self.any_text = True
                lines.append(text)
        return "\n".join(lines)

    def cell(self, el, position: tuple[str, str, str, str], header: bool, where) -> Cell | None:
        row_name, col_name, row_span_name, col_span_name = position
        row = self.index(where, row_name, None)
        col = self.index(where, col_name, None)
        if row is None or col is None:
            self.diagnostics.error("cell-dropped", "a cell without a valid row or column is left out",
                                   line=el.sourceline)
            return None
        row_span, col_span = self.span(where, row_span_name), self.span(where, col_span_name)
        cell = Cell(row, col, row + row_span - 1, col + col_span - 1, self.text(el), None,
                    self.outline(el), header)
        self.lines[id(cell)] = el.sourceline
        return cell

    def table(self, el, index: int, page: int) -> Table:
        region = Region(0, page, self.outline(el))
        for child in el:
            name = local_name(child.tag)
            cell = None
            if name == "TableCell":
                cell = self.cell(child, ("row", "col", "rowSpan", "colSpan"), False, child)
            elif name == "TextRegion":
                roles = _child(child, "Roles")
                role = None if roles is None else _child(roles, "TableCellRole")
                if role is not None:
                    header = role.get("header", "").strip().lower() in ("true", "1")
                    cell = self.cell(child, ("rowIndex", "columnIndex", "rowSpan", "colSpan"), header, role)
            if cell is not None:
                region.cells.append(cell)
        return Table(index, [region])

    def document(self, root) -> Reading:
        if local_name(root.tag) != "PcGts":
            raise self.diagnostics.fail("pagexml-root", f"root element is <{local_name(root.tag)}>, not <PcGts>",
                                        line=root.sourceline)
        namespace = etree.QName(root).namespace
        if namespace not in _KNOWN:
            named = "no namespace" if namespace is None else f"namespace {namespace!r}"
            self.diagnostics.warning("pagexml-namespace", f"{named}, not PAGE's (2013 or 2019): read as PAGE all the "
                                                          "same", line=root.sourceline)
        doc = Document()
        for number, page_el in enumerate(_children(root, "Page"), start=1):
            sizes = []
            for name in ("imageWidth", "imageHeight"):
                raw = page_el.get(name)
                value = non_negative_int(raw)
                if raw is not None and value is None:
                    self.diagnostics.error("bad-number", f"<Page> {name}={raw!r} is not a whole number",
                                           line=page_el.sourceline)
                sizes.append(float(value) if value else None)
            doc.pages.append(Page(number, sizes[0], sizes[1], Frame.IMAGE))
            image = page_el.get("imageFilename")
            if number == 1 and image:
                doc.filename = image
                doc.metadata[IMAGE_NAME] = image
            for table_el in page_el.iter("{*}TableRegion"):
                doc.tables.append(self.table(table_el, len(doc.tables), number))
        if not doc.pages:
            raise self.diagnostics.fail("pagexml-root", "<PcGts> holds no <Page>", line=root.sourceline)
        if not self.any_text:  # a layout-only file: its cells' text is unknown, not blank
            for table in doc.tables:
                for cell in table.cells():
                    cell.content = None
        return Reading(doc, source_lines=self.lines)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    return _Reader(diagnostics).document(parse_xml(data, diagnostics))


# -- writing ---------------------------------------------------------------------------------

def _points(box: BBox) -> str:
    return " ".join(f"{coordinate_text(x)},{coordinate_text(y)}" for x, y in outline_points(box))


def _sub(parent, name: str, attributes: dict | None = None):
    return etree.SubElement(parent, f"{{{NAMESPACE_2013}}}{name}", attributes or {})


def _text_equiv(parent, text: str) -> None:
    _sub(_sub(parent, "TextEquiv"), "Unicode").text = text


def _image_size(doc: Document, boxes: list[BBox], diagnostics: Diagnostics) -> tuple[int, int]:
    page = next((p for p in doc.pages if p.number == 1), None)
    if page is not None and page.frame is Frame.IMAGE and page.width and page.height:
        return math.ceil(page.width), math.ceil(page.height)
    image_boxes = [b for b in boxes if b.frame is Frame.IMAGE]
    if image_boxes:
        outer = envelope(image_boxes)
        diagnostics.info("pagexml-image-size", "the page image's size is not known: written as the extent of the "
                                               "boxes")
        return max(0, math.ceil(outer.x2)), max(0, math.ceil(outer.y2))
    diagnostics.warning("pagexml-image-size", "the page image's size is not known: imageWidth and imageHeight "
                                              "written as 0")
    return 0, 0


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    pages = sorted({t.page or 1 for t in doc.tables})
    if len(pages) > 1:
        raise diagnostics.fail("pagexml-pages", f"a PAGE file is one page; the document has tables on pages "
                                                f"{', '.join(map(str, pages))}",
                               hint="convert each page's tables apart (one file a page)")
    root = etree.Element(f"{{{NAMESPACE_2013}}}PcGts", nsmap={None: NAMESPACE_2013,
                                                             "xsi": "http://www.w3.org/2001/XMLSchema-instance"})
    root.set("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation",
             f"{NAMESPACE_2013} {NAMESPACE_2013}/pagecontent.xsd")
    metadata = _sub(root, "Metadata")
    _sub(metadata, "Creator").text = "convertables"
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    _sub(metadata, "Created").text = now
    _sub(metadata, "LastChange").text = now
    all_boxes = [b for t in doc.tables for r in t.regions for b in [r.bbox, *(c.bbox for c in r.cells)] if b]
    width, height = _image_size(doc, all_boxes, diagnostics)
    name = doc.metadata.get(IMAGE_NAME) or doc.filename or "document"
    page_el = _sub(root, "Page", {"imageFilename": xml_text(name, diagnostics), "imageWidth": str(width),
                                  "imageHeight": str(height)})
    frames: set[Frame] = set()
    unboxed = 0
    for k, table in enumerate(doc.tables, start=1):
        outline = next((r.bbox for r in table.regions if r.bbox is not None), None)
        if outline is None:
            cell_boxes = [c.bbox for c in table.cells() if c.bbox is not None]
            if cell_boxes and len({b.frame for b in cell_boxes}) == 1:
                outline = envelope(cell_boxes)
        if outline is None:
            raise diagnostics.fail("missing-bbox", f"table {table.id} has no outline, which PAGE requires")
        frames.add(outline.frame)
        table_el = _sub(page_el, "TableRegion", {"id": f"t{k}"})
        _sub(table_el, "Coords", {"points": _points(outline)})
        n = 0
        for region in table.regions:
            for cell in region.cells:
                if cell.bbox is None:
                    unboxed += 1
                    continue
                n += 1
                frames.add(cell.bbox.frame)
                cell_id = f"t{k}c{n}"
                row, col = cell.start_row + region.row_increment, cell.start_col + region.col_increment
                cell_el = _sub(table_el, "TableCell", {"row": str(row), "col": str(col),
                                                       "rowSpan": str(cell.row_span), "colSpan": str(cell.col_span),
                                                       "id": cell_id})
                points = _points(cell.bbox)
                _sub(cell_el, "Coords", {"points": points})
                text = xml_text(cell.content or "", diagnostics)
                for m, line in enumerate(text.split("\n") if text.strip() else [], start=1):
                    line_el = _sub(cell_el, "TextLine", {"id": f"{cell_id}_l{m}"})
                    _sub(line_el, "Coords", {"points": points})
                    _text_equiv(line_el, line)
                if cell.content is not None:
                    _text_equiv(cell_el, text)
    if unboxed:
        diagnostics.warning("missing-bbox", f"{unboxed} cell(s) without a box left out (PAGE cells need Coords)")
    note = foreign_frame_note(frames, Frame.IMAGE, "PAGE XML", diagnostics)
    if note:
        root.insert(0, etree.Comment(note))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    """An XML root ``PcGts`` (PAGE's root, in any namespace)."""
    return xml_root(head) == "PcGts"


FORMAT = DECLARED["pagexml"]
