"""Unstructured's elements JSON (docs/formats.md, `unstructured`): what
``partition`` writes (``elements_to_json``) and the table ground truth its
evaluation reads, read only.

The input is a JSON list of elements. Each element of ``type: "Table"`` is a
table, on ``metadata.page_number`` (1 where there is none). Its cells come
from the first of:

* ``metadata.text_as_html``, read by the HTML table model (Unstructured has
  been seen to write ``<thead><th>...</th></thead>`` without a ``<tr>``: the
  model reads cells outside a row as one row, as a browser does);
* ``metadata.table_as_cells``, cells of ``x`` (column), ``y`` (row), ``w``
  (columns spanned), ``h`` (rows spanned) and ``content``;
* ``text`` when it is a list of such cells: Unstructured's own table ground
  truth (its evaluation's "deckerd" format, each cell also with an ``id``).

A table element with none of them (only its flat ``text``) is a table without
cells (``unstructured-no-cells``). Other elements are passed over.

Boxes: ``metadata.coordinates`` with ``system: "PixelSpace"`` (hi_res and OCR
strategies) is an image polygon, origin top-left, its ``points`` kept as the
region's outline and ``layout_width``/``layout_height`` as the page's size in
pixels. Other systems (``PointSpace``, ``RelativeCoordinateSystem``) are not
read (``unstructured-coordinates``).
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, number
from ..model import Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from ..parser_json import Findings, one_table, point_box, short, unstructured_elements
from .declarations import DECLARED


MAX_SPAN = 65534
"""The largest ``w`` or ``h`` read (the HTML model's rowspan cap)."""


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()
        self.pages: dict[int, Page] = {}

    def page(self, metadata: dict, where: str) -> int:
        value = metadata.get("page_number")
        if value is None:
            return 1
        found = integer(value)
        if found is not None and 1 <= found <= NUMBER_LIMIT:
            return found
        self.findings.add("unstructured-bad-value", "a page_number that is not a whole number from 1: read as "
                                                    "page 1", f"page_number={short(value)} in {where}")
        return 1

    def box(self, metadata: dict, page: int, where: str):
        coordinates = metadata.get("coordinates")
        if coordinates is None:
            return None
        if type(coordinates) is not dict:
            self.findings.add("unstructured-bad-value", "coordinates that are not an object: no box", where,
                              error=True)
            return None
        system = coordinates.get("system")
        if system != "PixelSpace":
            self.findings.add("unstructured-coordinates", "coordinates in a system other than PixelSpace are not "
                                                          "read: no box", f"system={short(system)} in {where}",
                              error=True)
            return None
        box = point_box(coordinates.get("points"), 1.0, Frame.IMAGE, self.findings, where)
        width, height = number(coordinates.get("layout_width")), number(coordinates.get("layout_height"))
        if width and height and width > 0 and height > 0 and page not in self.pages:
            self.pages[page] = Page(page, width, height, Frame.IMAGE)
        return box

    def cells(self, value: list, where: str) -> list[Cell]:
        """Cells of ``x``, ``y``, ``w``, ``h`` and ``content``."""
        cells = []
        for k, item in enumerate(value):
            get = item.get if type(item) is dict else None
            numbers = [integer(get(key, 1 if key in "wh" else None)) for key in "xywh"] if get else [None]
            if None in numbers:
                self.findings.add("unstructured-bad-value", "a cell without whole numbers x, y, w and h: left out",
                                  f"cell {k} of {where}", error=True)
                continue
            x, y, w, h = numbers
            if not (0 <= x <= NUMBER_LIMIT and 0 <= y <= NUMBER_LIMIT and 1 <= w <= MAX_SPAN and 1 <= h <= MAX_SPAN):
                self.findings.add("unstructured-bad-value", f"a cell whose x and y are not from 0 or whose w and h "
                                                            f"are not from 1 to {MAX_SPAN}: left out",
                                  f"cell {k} of {where} (x={x}, y={y}, w={w}, h={h})", error=True)
                continue
            content = get("content", "")
            if type(content) is not str:
                self.findings.add("unstructured-bad-value", "a cell whose content is not text: read as blank",
                                  f"cell {k} of {where}", error=True)
                content = ""
            cells.append(Cell(y, x, y + h - 1, x + w - 1, content))
        return cells

    def table(self, element: dict, where: str) -> None:
        metadata = element.get("metadata")
        if metadata is None:
            metadata = {}
        elif type(metadata) is not dict:
            self.findings.add("unstructured-bad-value", "metadata that is not an object: not read", where)
            metadata = {}
        page = self.page(metadata, where)
        box = self.box(metadata, page, where)
        first = len(self.doc.tables)
        html, as_cells, text = metadata.get("text_as_html"), metadata.get("table_as_cells"), element.get("text")
        if type(html) is str and html.strip():
            self.doc.tables += one_table(html, self.diagnostics, where, first, page, box)
        elif type(as_cells) is list:
            self.doc.tables.append(Table(first, [Region(0, page, box, cells=self.cells(as_cells, where))]))
        elif type(text) is list:
            self.doc.tables.append(Table(first, [Region(0, page, box, cells=self.cells(text, where))]))
        else:
            self.findings.add("unstructured-no-cells", "a Table element without text_as_html, table_as_cells or "
                                                       "a list of cells (partitioned without infer_table_structure?): "
                                                       "a table without cells", where)
            self.doc.tables.append(Table(first, [Region(0, page, box)]))

    def read(self, elements: list) -> Document:
        for k, element in enumerate(elements):
            if type(element) is not dict:
                self.findings.add("unstructured-bad-value", "an element that is not an object: left out",
                                  f"element {k}")
                continue
            if element.get("type") == "Table":
                name = element.get("element_id")
                self.table(element, f"element {k}" + (f" ({name[:40]})" if type(name) is str else ""))
        self.findings.report(self.diagnostics)
        self.doc.pages = sorted(self.pages.values(), key=lambda p: p.number)
        return self.doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    return _Reader(diagnostics).read(unstructured_elements(data, diagnostics))


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\[\s*\{")
_ELEMENT_ID = re.compile(rb'(?<!\\)"element_id"\s*:\s*"')
_TYPE = re.compile(rb'(?<!\\)"type"\s*:\s*"[A-Z][A-Za-z]*"')
_GOLD_TABLE = re.compile(rb'(?<!\\)"type"\s*:\s*"Table"\s*,\s*"text"\s*:\s*\[')


def sniff(head: bytes) -> bool:
    """A JSON list of objects with an ``element_id`` and a capitalised
    ``type`` (partition's elements), or with a ``"type": "Table"`` whose
    ``text`` is a list (the table ground truth)."""
    if _START.match(head) is None or _TYPE.search(head) is None:
        return False
    return (b'"element_id"' in head and _ELEMENT_ID.search(head) is not None) or (  # (the plain search first)
        _GOLD_TABLE.search(head) is not None)


FORMAT = DECLARED["unstructured"]
