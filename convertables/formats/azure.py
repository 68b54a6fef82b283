"""Azure AI Document Intelligence (Form Recognizer) analyze results, layout and
prebuilt models (docs/formats.md, `azure`). Read only.

What is read: the whole response of the analyze-result GET (``{"status":
"succeeded", "analyzeResult": {...}}``) or the bare ``analyzeResult``, in two
shapes:

* API 2022-08-31 and later (also the 2021 previews of v3): ``tables[]`` with
  ``rowCount``/``columnCount``, ``boundingRegions[]`` and ``cells[]``:
  ``rowIndex``/``columnIndex`` (0-based), ``rowSpan``/``columnSpan`` (absent
  means 1), ``kind`` (absent for plain cells; ``columnHeader``, ``rowHeader``,
  ``stubHead``, ``description``), ``content`` and ``boundingRegions[]``
  (``pageNumber``, ``polygon``). Pages come from ``pages[]`` (``pageNumber``,
  ``width``, ``height``, ``unit``).
* v2.0/v2.1: ``pageResults[]`` (``page``), each with ``tables[]`` (``rows``,
  ``columns``, ``boundingBox``) and ``cells[]`` with ``text``, ``boundingBox``
  and ``isHeader``; page sizes from ``readResults[]`` (``page``, ``width``,
  ``height``, ``unit``).

Choices where the format is loose:

* **Headers**: ``columnHeader``, ``rowHeader`` and ``stubHead`` cells are headers
  (the model's one flag means a header cell, ``<th>``, of either direction);
  ``description`` and plain cells are not. v2.1: ``isHeader``. Every cell's
  ``kind`` other than plain content is kept in ``Document.metadata
  ["azure_cell_kinds"]`` (JSON text: ``{"<table>": {"<kind>": [[row, column],
  ...]}}``, table positions), as the cell has no field for it.
* **Text**: ``content`` (v2.1: ``text``) as given, selection marks
  (``:selected:``, ``:unselected:``) and line breaks included; ``""`` is a
  blank cell, a missing or non-string one is unknown (``azure-value``).
* **Pages**: a table on several pages (several ``boundingRegions`` with
  different ``pageNumber``) is one table with one region per page, in the order
  of its bounding regions. A cell goes to the region of the page of its own
  first bounding region (cells on pages the table does not list add regions,
  in page order); a cell with none goes to the table's first region. In a
  table on several pages each region's cells are numbered from the region's
  first row, which its ``row_increment`` gives (ICDAR 2013's convention); a
  table on one page keeps Azure's numbers. Either way the table's grid is
  Azure's: a row that spans from above cover entirely is still a row.
* **Geometry**: a page in ``inch`` (PDF input) gives PDF points, origin
  bottom-left (``x * 72``, ``(height - y) * 72``: inches taken as pixels at
  1 DPI through :mod:`convertables.geometry`); a page in ``pixel`` (images)
  gives image pixels as they are. Polygons are kept as the boxes' outlines.
  Boxes on a page whose unit or height is unknown are left out (``azure-page``).
* **Hostile input**: the JSON parser's limits (size, nesting); numbers written
  as strings, negative or fractional indices and missing keys are not taken:
  a cell without a usable ``rowIndex``/``columnIndex`` is left out
  (``azure-cell-dropped``), a bad span, page number, polygon or text is replaced
  by its default (``azure-value``), one warning per table and problem. Spans
  past the table's ``rowCount``/``columnCount`` end at its last row or column.
  ``spans`` (offsets into ``content``) and ``elements`` are not followed, so
  nothing there can cycle.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..diagnostics import Diagnostics
from ..geometry import PageFrame, convert_box, polygon_envelope
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, number, parse_json
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED

HEADER_KINDS = frozenset({"columnHeader", "rowHeader", "stubHead"})
"""The cell kinds read as headers."""

# A box maker: the page's polygon points (in the page's unit) -> a box in the model's frame.
BoxMaker = Callable[[tuple], BBox]


class _Problems:
    """Problems of one table, one warning per code: the first said, the rest counted."""

    def __init__(self, diagnostics: Diagnostics, where: str):
        self.diagnostics, self.where = diagnostics, where
        self.found: dict[str, list] = {}

    def add(self, code: str, message: str) -> None:
        entry = self.found.setdefault(code, [message, 0])
        entry[1] += 1

    def report(self) -> None:
        for code, (message, count) in self.found.items():
            more = f" (and {count - 1} more with this code)" if count > 1 else ""
            # (a cell left out is content lost: an error, as for every format; the rest is mended)
            say = self.diagnostics.error if code in _LOSSES else self.diagnostics.warning
            say(code, f"{self.where}: {message}{more}")


_LOSSES = {"azure-cell-dropped", "azure-table-dropped"}


def _said(value: Any) -> str:
    """A value as a message quotes it: short (a hostile file's values may be megabytes)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _index(value: Any) -> int | None:
    """A 0-based index or a page number as Azure writes it: a JSON integer in range."""
    value = integer(value)
    return value if value is not None and 0 <= value <= NUMBER_LIMIT else None


def _points(raw: Any) -> tuple | None:
    """The points of a polygon: flat ``[x1, y1, x2, y2, ...]`` (v3, v2.1's
    ``boundingBox``) or ``[{"x": .., "y": ..}, ...]``; None if not numbers."""
    if type(raw) is not list or not raw:
        return None
    if type(raw[0]) is dict:
        pts = tuple((number(p.get("x")), number(p.get("y"))) if type(p) is dict else (None, None) for p in raw)
    elif len(raw) % 2 == 0:
        values = [number(v) for v in raw]
        pts = tuple(zip(values[0::2], values[1::2]))
    else:
        return None
    if any(x is None or y is None for x, y in pts):
        return None
    return pts


# -- pages -----------------------------------------------------------------------------------

def _pages(entries: Any, number_key: str, doc: Document, diagnostics: Diagnostics) -> dict[int, BoxMaker | None]:
    """The box maker of each page (None: its boxes cannot be placed), and the
    document's pages, from ``pages[]`` (v3) or ``readResults[]`` (v2)."""
    makers: dict[int, BoxMaker | None] = {}
    for entry in entries if type(entries) is list else ():
        if type(entry) is not dict:
            continue
        page = _index(entry.get(number_key))
        if not page or page in makers:
            continue
        unit, width, height = entry.get("unit"), number(entry.get("width")), number(entry.get("height"))
        width = width if width is not None and width > 0 else None
        height = height if height is not None and height > 0 else None
        if unit == "pixel":
            makers[page] = lambda pts: polygon_envelope(pts, Frame.IMAGE)
            doc.pages.append(Page(page, width, height, Frame.IMAGE))
        elif unit == "inch" and height is not None:
            frame = PageFrame(1.0, height * 72.0)  # inches are pixels at 1 DPI
            makers[page] = lambda pts, frame=frame: convert_box(polygon_envelope(pts, Frame.IMAGE), Frame.PDF, frame)
            doc.pages.append(Page(page, width * 72.0 if width else None, height * 72.0, Frame.PDF))
        else:
            makers[page] = None
            what = f"unit {_said(unit)}" if unit not in ("inch", "pixel") else "no usable height"
            diagnostics.warning("azure-page", f"page {page} has {what}: its boxes are left out")
    doc.pages.sort(key=lambda p: p.number)
    return makers


class _Geometry:
    """Boxes from polygons, page by page (one warning for pages not described)."""

    def __init__(self, makers: dict[int, BoxMaker | None], diagnostics: Diagnostics):
        self.makers, self.diagnostics = makers, diagnostics
        self.undescribed: set[int] = set()

    def box(self, page: int, raw: Any, problems: _Problems, what: str) -> BBox | None:
        if raw is None:
            return None
        pts = _points(raw)
        if pts is None:
            problems.add("azure-value", f"{what}: the polygon is not a list of numbers; no box")
            return None
        if page not in self.makers:
            if page not in self.undescribed:
                self.undescribed.add(page)
                self.diagnostics.warning("azure-page", f"page {page} is not described (no unit or size): "
                                                       "its boxes are left out")
            return None
        maker = self.makers[page]
        return maker(pts) if maker is not None else None


# -- tables ----------------------------------------------------------------------------------

def _span(cell: dict, key: str, problems: _Problems, where: str) -> int:
    raw = cell.get(key)
    if raw is None:
        return 1
    value = _index(raw)
    if not value:
        problems.add("azure-value", f"{where}: {key} {_said(raw)} is not a positive integer; read as 1")
        return 1
    return value


def _cell(raw: Any, k: int, problems: _Problems, v2: bool) -> tuple[Cell, int | None, Any, str | None] | None:
    """A cell at its table position, the page and polygon of its first bounding
    region (v3), and its kind; None (counted) for one that cannot be placed."""
    if type(raw) is not dict:
        problems.add("azure-cell-dropped", f"cell {k} is not an object; left out")
        return None
    row, col = _index(raw.get("rowIndex")), _index(raw.get("columnIndex"))
    if row is None or col is None:
        key, value = ("rowIndex", raw.get("rowIndex")) if row is None else ("columnIndex", raw.get("columnIndex"))
        said = "is missing" if value is None else f"{_said(value)} is not an index"
        problems.add("azure-cell-dropped", f"cell {k}: {key} {said}; left out")
        return None
    where = f"cell {k} at ({row}, {col})"
    rows, cols = _span(raw, "rowSpan", problems, where), _span(raw, "columnSpan", problems, where)
    text = raw.get("text" if v2 else "content")
    if type(text) is not str:
        problems.add("azure-value", f"{where}: {'text' if v2 else 'content'} "
                                    f"{'is missing' if text is None else 'is not a string'}; unknown content")
        text = None
    kind = raw.get("kind")
    if kind is not None and (type(kind) is not str or len(kind) > 40):
        problems.add("azure-value", f"{where}: kind {_said(kind)} is not a kind's name; a plain cell")
        kind = None
    header = raw.get("isHeader", False) if v2 else kind in HEADER_KINDS
    if type(header) is not bool:
        problems.add("azure-value", f"{where}: isHeader {_said(header)} is not true or false; not a header")
        header = False
    page = polygon = None
    if v2:
        polygon = raw.get("boundingBox")
    else:
        page, polygon = _first_region(raw.get("boundingRegions"), problems, where)
    cell = Cell(row, col, min(row + rows - 1, NUMBER_LIMIT), min(col + cols - 1, NUMBER_LIMIT), text, header=header)
    return cell, page, polygon, kind


def _first_region(regions: Any, problems: _Problems, where: str) -> tuple[int | None, Any]:
    """The page and polygon of the first usable bounding region."""
    if not regions:  # (none, or an empty list)
        return None, None
    for region in regions if type(regions) is list else ():
        page = _index(region.get("pageNumber")) if type(region) is dict else None
        if page:
            return page, region.get("polygon")
    problems.add("azure-value", f"{where}: no bounding region with a page number; no page or box of its own")
    return None, None


def _table(table_id: int, raw: Any, geometry: _Geometry, diagnostics: Diagnostics, kinds: dict,
           v2_page: int | None = None) -> Table | None:
    """A table of either shape (``v2_page``: the page of a v2 ``pageResults`` entry)."""
    v2 = v2_page is not None
    where = f"table {table_id}" + (f" (page {v2_page})" if v2 else "")
    if type(raw) is not dict or type(raw.get("cells")) is not list:
        diagnostics.error("azure-table-dropped", f"{where}: not an object with a list of cells; left out")
        return None
    problems = _Problems(diagnostics, where)
    counts = [_index(raw.get(key)) for key in (("rows", "columns") if v2 else ("rowCount", "columnCount"))]
    # the table's pages, in the order of its bounding regions, and the polygon of each
    polygons: dict[int, Any] = {}
    if v2:
        polygons[v2_page] = raw.get("boundingBox")
    else:
        regions = raw.get("boundingRegions")
        for region in regions if type(regions) is list else ():
            page = _index(region.get("pageNumber")) if type(region) is dict else None
            if page:
                polygons.setdefault(page, region.get("polygon"))
            else:
                problems.add("azure-value", "a bounding region without a page number; ignored")
    by_page: dict[int | None, list[Cell]] = {page: [] for page in polygons}
    first_page = next(iter(polygons), None)
    for k, entry in enumerate(raw["cells"]):
        found = _cell(entry, k, problems, v2)
        if found is None:
            continue
        cell, page, polygon, kind = found
        for axis, count, end in (("row", counts[0], "end_row"), ("column", counts[1], "end_col")):
            start = cell.start_row if axis == "row" else cell.start_col
            if count and start < count < getattr(cell, end) + 1:
                problems.add("azure-value", f"cell {k} spans past the table's {count} {axis}s; cut at the last")
                setattr(cell, end, count - 1)
        if kind is not None and kind != "content":
            kinds.setdefault(str(table_id), {}).setdefault(kind, []).append([cell.start_row, cell.start_col])
        page = v2_page if v2 else page
        if page is None:
            page = first_page
        cell.bbox = geometry.box(page, polygon, problems, f"cell {k}") if page is not None else None
        by_page.setdefault(page, []).append(cell)
    loose = by_page.pop(None, [])  # (cells without a page, in a table without any)
    pages = [*polygons, *sorted(p for p in by_page if p not in polygons)] or [1]
    if loose:  # on the table's first page
        by_page.setdefault(pages[0], []).extend(loose)
    table = Table(table_id)
    for region_id, page in enumerate(pages):
        cells = by_page.get(page, [])
        # on several pages, each region's rows from its first (a table on one page keeps Azure's numbers)
        shift = min((c.start_row for c in cells), default=0) if len(pages) > 1 else 0
        if shift:
            for c in cells:
                c.start_row -= shift
                c.end_row -= shift
        bbox = geometry.box(page, polygons.get(page), problems, "the table") if page in polygons else None
        table.regions.append(Region(region_id, page, bbox, row_increment=shift, cells=cells))
    problems.report()
    return table


# -- reading ---------------------------------------------------------------------------------

def _analyze_result(value: Any, diagnostics: Diagnostics) -> dict:
    """The ``analyzeResult`` of a whole response, or a bare one."""
    if type(value) is not dict:
        raise diagnostics.fail("azure-shape", f"the JSON is a {type(value).__name__}, not an Azure analyze response")
    if "analyzeResult" in value or "status" in value:
        result = value.get("analyzeResult")
        status = value.get("status")
        if type(result) is not dict and status is not None and status != "succeeded":
            error = value.get("error")
            said = error.get("message") if type(error) is dict else None
            said = f": {said[:200]}" if type(said) is str else ""
            raise diagnostics.fail("azure-status", f"the analysis has status {_said(status)}, and no "
                                                   f"result{said}")
        if type(result) is not dict:
            raise diagnostics.fail("azure-shape", "analyzeResult is missing or not an object")
        return result
    if any(key in value for key in ("tables", "pageResults", "apiVersion", "readResults")):
        return value
    raise diagnostics.fail("azure-shape", "neither an analyze response (analyzeResult) nor an analyzeResult "
                                          "(tables, pageResults)")


def _list(result: dict, key: str, diagnostics: Diagnostics) -> list:
    value = result.get(key)
    if value is None:
        return []
    if type(value) is not list:
        raise diagnostics.fail("azure-shape", f"analyzeResult.{key} is a {type(value).__name__}, not a list")
    return value


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    result = _analyze_result(parse_json(data, diagnostics), diagnostics)
    doc = Document()
    kinds: dict[str, dict[str, list]] = {}
    v2 = "tables" not in result and ("pageResults" in result or "readResults" in result)
    version = result.get("version" if v2 else "apiVersion")
    model = result.get("modelId")
    if type(version) is str and len(version) <= 40:
        doc.metadata["azure_api_version"] = version
    if type(model) is str and len(model) <= 200:
        doc.metadata["azure_model_id"] = model
    doc.metadata["generator"] = " ".join(["Azure AI Document Intelligence", doc.metadata.get("azure_model_id", ""),
                                          f"(API {version})" if "azure_api_version" in doc.metadata else ""]
                                         ).replace("  ", " ").strip()
    if v2:
        geometry = _Geometry(_pages(_list(result, "readResults", diagnostics), "page", doc, diagnostics), diagnostics)
        for entry in _list(result, "pageResults", diagnostics):
            page = _index(entry.get("page")) if type(entry) is dict else None
            if not page:
                diagnostics.error("azure-table-dropped", "a pageResults entry without a page number; its tables "
                                                           "are left out")
                continue
            tables = entry.get("tables")
            for raw in tables if type(tables) is list else ():
                table = _table(len(doc.tables), raw, geometry, diagnostics, kinds, v2_page=page)
                if table is not None:
                    doc.tables.append(table)
    else:
        geometry = _Geometry(_pages(_list(result, "pages", diagnostics), "pageNumber", doc, diagnostics), diagnostics)
        for k, raw in enumerate(_list(result, "tables", diagnostics)):
            table = _table(k, raw, geometry, diagnostics, kinds)
            if table is not None:
                doc.tables.append(table)
    if kinds:
        doc.metadata["azure_cell_kinds"] = json.dumps(kinds, separators=(",", ":"))
    return doc


# -- the format ------------------------------------------------------------------------------

_CANONICAL = re.compile(rb'^\s*\{\s*"format"\s*:\s*"convertables"')
_RESPONSE = re.compile(rb'(?<!\\)"analyzeResult"\s*:\s*(?:\{|null)')
# an operation not (yet) succeeded: Azure's long-running operation status, with both its dates
_OPERATION = re.compile(rb'(?<!\\)"status"\s*:\s*"(?:notStarted|running|failed|canceled)"')
_OPERATION_DATES = (re.compile(rb'(?<!\\)"createdDateTime"\s*:'), re.compile(rb'(?<!\\)"lastUpdatedDateTime"\s*:'))
_V3_VERSION = re.compile(rb'(?<!\\)"apiVersion"\s*:\s*"\d{4}-\d\d-\d\d')
_V3_KEY = re.compile(rb'(?<!\\)"(?:modelId|stringIndexType)"\s*:')
_V2_VERSION = re.compile(rb'(?<!\\)"version"\s*:\s*"2\.\d')
_V2_KEY = re.compile(rb'(?<!\\)"(?:readResults|pageResults)"\s*:')


def sniff(head: bytes) -> bool:
    """A JSON object with an ``"analyzeResult": {`` (the whole response; or a
    ``status`` other than succeeded with ``createdDateTime`` and
    ``lastUpdatedDateTime``: an analysis that gave no result), or a bare
    analyzeResult: a dated ``apiVersion`` with ``modelId`` or
    ``stringIndexType`` (v3 and later), or a ``"version": "2.x"`` with
    ``readResults`` or ``pageResults`` (v2)."""
    head = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    if not head.lstrip().startswith(b"{") or _CANONICAL.match(head):
        return False
    # (a plain substring test first: most JSON files have none of these keys, and the patterns scan slower)
    if not any(key in head for key in (b'"analyzeResult"', b'DateTime"', b'"apiVersion"', b'Results"')):
        return False
    if _RESPONSE.search(head):
        return True
    if _OPERATION.search(head) and all(key.search(head) for key in _OPERATION_DATES):
        return True  # (read to say which status: azure-status)
    if _V3_VERSION.search(head):
        return _V3_KEY.search(head) is not None
    return _V2_VERSION.search(head) is not None and _V2_KEY.search(head) is not None


FORMAT = DECLARED["azure"]
