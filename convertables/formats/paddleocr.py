"""PaddleOCR's table results (docs/formats.md, `paddleocr`): what PP-StructureV3
and the table recognition pipelines save (``save_to_json``), read only.

A result is a JSON object (or ``{"res": {...}}`` around it, as printed); a
file may hold one, or a list of them (a PDF's pages). Each item of its
``table_res_list`` is a table: ``pred_html`` is its HTML (read by the HTML
table model), ``cell_box_list`` the boxes of its cells, ``[x1, y1, x2, y2]``
(or eight numbers, a quadrilateral) in the page image's pixels, one for
each cell of the HTML in the same order: where they are as many, each gives
its cell a box; otherwise the cells have no box (``paddleocr-cell-boxes``).
The table's box is the ``coordinate`` of the layout detection's box
labelled ``table`` at the same place among them (``layout_det_res.boxes``)
where there are as many; else the box enclosing its cells. The page is
``page_index`` (from 0; ``null`` for an image: page 1, or the result's
place in a list).

PP-Structure 2.x results (a list of regions, each with ``type``, ``bbox``
and ``res``) are read too: a region of ``type: "table"`` is a table, its
``res.html`` the HTML, ``res.cell_bbox`` the cells' boxes (eight numbers
each), ``bbox`` the table's box, ``img_idx`` its page from 0.

Boxes are image pixels, origin top-left (the ``image`` frame); PaddleOCR
does not save the image's size or DPI.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import envelope
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, parse_json
from ..model import BBox, Document, Frame
from ..options import ReadOptions
from ..parser_json import Findings, corner_box, one_table, point_box, short
from .declarations import DECLARED


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()

    def box(self, value, where: str) -> BBox | None:
        """Four numbers (a rectangle) or eight (a quadrilateral's corners)."""
        if type(value) is list and len(value) == 8:
            points = [value[k:k + 2] for k in range(0, 8, 2)]
            return point_box(points, 1.0, Frame.IMAGE, self.findings, where)
        return corner_box(value, 1.0, Frame.IMAGE, self.findings, where)

    def page(self, value, default: int, where: str) -> int:
        if value is None:
            return default
        found = integer(value)
        if found is not None and 0 <= found < NUMBER_LIMIT:
            return found + 1
        self.findings.add("paddleocr-bad-value", "a page_index that is not a whole number from 0: read as the "
                                                 "result's place", f"{short(value)} in {where}")
        return default

    def table(self, html, cell_boxes, table_box, page: int, where: str) -> None:
        if type(html) is not str:
            self.findings.add("paddleocr-bad-value", "a table whose HTML is not a string: left out",
                              f"{short(html)} in {where}", error=True)
            return
        tables = one_table(html, self.diagnostics, where, len(self.doc.tables), page)
        self.doc.tables += tables
        if not tables:
            return
        region = tables[0].regions[0]
        if cell_boxes is not None and type(cell_boxes) is not list:
            self.findings.add("paddleocr-bad-value", "cell boxes that are not a list: not read", where)
            cell_boxes = None
        if cell_boxes and len(cell_boxes) == len(region.cells):
            for k, (cell, value) in enumerate(zip(region.cells, cell_boxes)):
                cell.bbox = self.box(value, f"cell box {k} of {where}")
        elif cell_boxes:
            self.findings.add("paddleocr-cell-boxes", "a table whose cell boxes are not as many as its HTML's cells: "
                                                      "its cells have no box",
                              f"{where}: {len(cell_boxes)} box(es), {len(region.cells)} cell(s)")
        own = [c.bbox for c in region.cells if c.bbox is not None]
        region.bbox = table_box or (envelope(own) if own else None)

    def result(self, value, default_page: int, where: str) -> None:
        """One saved result (PP-StructureV3, table recognition)."""
        if type(value) is dict and type(value.get("res")) is dict:
            value = value["res"]
        if type(value) is not dict:
            self.findings.add("paddleocr-bad-value", "a result that is not an object: left out", where)
            return
        page = self.page(value.get("page_index"), default_page, where)
        tables = value.get("table_res_list")
        if tables is None:
            return
        if type(tables) is not list:
            self.findings.add("paddleocr-bad-value", "a table_res_list that is not a list: left out", where,
                              error=True)
            return
        layout = value.get("layout_det_res")
        boxes = layout.get("boxes") if type(layout) is dict else None
        table_boxes = [b.get("coordinate") for b in boxes if type(b) is dict and b.get("label") == "table"] \
            if type(boxes) is list else []
        if len(table_boxes) != len(tables):
            table_boxes = [None] * len(tables)
        for k, (item, box_value) in enumerate(zip(tables, table_boxes)):
            item_where = f"{where} table {k}"
            if type(item) is not dict:
                self.findings.add("paddleocr-bad-value", "a table result that is not an object: left out",
                                  item_where, error=True)
                continue
            box = self.box(box_value, f"the layout box of {item_where}") if box_value is not None else None
            self.table(item.get("pred_html"), item.get("cell_box_list"), box, page, item_where)

    def regions(self, regions: list) -> None:
        """PP-Structure 2.x: a list of regions."""
        for k, region in enumerate(regions):
            where = f"region {k}"
            if type(region) is not dict:
                self.findings.add("paddleocr-bad-value", "a region that is not an object: left out", where)
                continue
            if region.get("type") != "table":
                continue
            res = region.get("res")
            if type(res) is not dict:
                self.findings.add("paddleocr-bad-value", "a table region whose res is not an object: left out",
                                  where, error=True)
                continue
            page = self.page(region.get("img_idx"), 1, where)
            box = self.box(region.get("bbox"), where) if region.get("bbox") is not None else None
            self.table(res.get("html"), res.get("cell_bbox"), box, page, where)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    reader = _Reader(diagnostics)
    if type(value) is dict:
        reader.result(value, 1, "the result")
    elif type(value) is list and any(type(v) is dict and "res" in v and "type" in v for v in value):
        reader.regions(value)
    elif type(value) is list:
        for k, result in enumerate(value):
            reader.result(result, k + 1, f"result {k}")
    else:
        raise diagnostics.fail("paddleocr-invalid", f"not a PaddleOCR result: a JSON {type(value).__name__}")
    reader.findings.report(diagnostics)
    return reader.doc


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*[\[{]")
_RESULT_KEY = re.compile(rb'(?<!\\)"(?:table_res_list|parsing_res_list)"\s*:')
_V2_TABLE = re.compile(rb'(?<!\\)"cell_bbox"\s*:\s*\[')


def sniff(head: bytes) -> bool:
    """A JSON value with a ``table_res_list`` or ``parsing_res_list`` (PaddleOCR 3),
    or a ``cell_bbox`` list (PP-Structure 2.x)."""
    if _START.match(head) is None or not (b'_res_list"' in head or b'"cell_bbox"' in head):
        return False  # (a plain substring test first: the patterns scan slower)
    return _RESULT_KEY.search(head) is not None or _V2_TABLE.search(head) is not None


FORMAT = DECLARED["paddleocr"]
