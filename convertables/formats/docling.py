"""docling's DoclingDocument JSON (docs/formats.md, `docling`): the tables of what
docling converts, read, and written so that docling-eval can take ground truth
from any format here.

Reading takes ``tables[]`` in array order (table N is ``#/tables/N``), each
``data.table_cells[]`` cell at its offsets (``start_*_offset_idx`` inclusive,
``end_*_offset_idx`` exclusive: rows ``start .. end - 1`` of the model); the
offsets decide, ``row_span``/``col_span`` that disagree are reported
(``docling-span-mismatch``). ``data.grid`` is not read: docling derives it from
the cells (slots no cell covers are blank cells there, holes here). ``text`` is
the content; a cell is a header if docling calls it a ``column_header`` or a
``row_header`` (``row_section`` is not a header). Each ``prov[]`` item is a
region: its ``page_no`` and ``bbox``; the cells are in the first (docling does
not say which page a cell of a table across pages is on); a table without
``prov`` is on page 1 (``docling-no-page``). ``pages`` give the page sizes. A table keeps the texts of its captions and, where
it differs from its cells' reach, its declared ``num_rows`` x ``num_cols``
(what docling-core's HTML export of it writes: TEDS's ``--table-html docling``).

Boxes (``l t r b``, points): ``BOTTOMLEFT`` ones are PDF boxes as they are;
``TOPLEFT`` ones (docling's default) are flipped with the page's height from
``pages``; a cell's page is its table's first. Without that height they stay
in the ``image`` frame at 72 DPI, which they are (``docling-no-page-size``).

References are never followed as a walk: each table's ``parent`` chain is
climbed once, with every item seen marked, so a cycle or a ``$ref`` to nothing is
reported (``docling-ref``) and reading goes on. Anything docling's own schema
refuses (a missing key, a value of the wrong type, a number written as a string,
which docling's lax parsing would take) stops reading with ``docling-invalid``
and the JSON path; sizes and nesting are bounded by :mod:`convertables.jsonsafe`.

The writer writes a DoclingDocument of schema version 1.0.0 (docling-core reads
any 1.x version up to its own: the oldest is the safest) holding tables only: ``body`` lists them, each with a
``prov`` item per region (BOTTOMLEFT boxes), ``data.table_cells`` with offsets,
spans, text and header flags, ``num_rows``/``num_cols``, its captions as ``texts``,
and ``pages`` where sizes are known. See docs/formats.md for every choice.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import PurePath

from ..diagnostics import Diagnostics
from ..geometry import PageFrame, convert_box, envelope, foreign_frame_note, ordered
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, number, parse_json
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED

SCHEMA_NAME = "DoclingDocument"
VERSION = "1.0.0"
"""The schema version written: the oldest (docling-core refuses only newer minor versions than its own)."""
MAX_TABLE_SLOTS = 1_000_000
MAX_DOCUMENT_SLOTS = 5_000_000
"""docling-core's limits on the rows x columns of one table and of all tables
(``max_table_cells``, ``max_total_table_cells``): larger ones are not written."""

_LISTS = ("groups", "texts", "pictures", "tables", "key_value_items", "form_items", "field_regions", "field_items")
_POINTER = re.compile(r"#/(\w+)(?:/(\d{1,9}))?\Z")
_ROOTS = ("body", "furniture")
_OFFSETS = ("start_row_offset_idx", "end_row_offset_idx", "start_col_offset_idx", "end_col_offset_idx")


class _Path(tuple):
    """A JSON path made into text only when a finding needs it (most cells have none)."""

    def __new__(cls, parent, key):
        return tuple.__new__(cls, (parent, key))

    def __str__(self) -> str:
        parent, key = self
        return f"{parent}[{key}]" if isinstance(key, int) else f"{parent}.{key}"


# -- reading ---------------------------------------------------------------------------------

class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.heights: dict[int, float] = {}  # page -> its height in points, from "pages"
        self.flat: set[int] = set()  # pages of TOPLEFT boxes without a height
        self.inverted: list[str] = []  # boxes whose corners were swapped
        self.below_one = False  # a page number below 1 was said

    def invalid(self, path: str, what: str):
        return self.diagnostics.fail("docling-invalid", f"{path}: {what}")

    def as_object(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.invalid(path, "missing" if value is None else f"{_shown(value)} is not an object")
        return value

    def as_list(self, value, path: str) -> list:
        if not isinstance(value, list):
            raise self.invalid(path, "missing" if value is None else f"{_shown(value)} is not a list")
        return value

    def as_int(self, value, path: str) -> int:
        found = integer(value)
        if found is None:
            raise self.invalid(path, "missing" if value is None else f"{_shown(value)} is not an integer" +
                               (" (a number written as a string)" if isinstance(value, str) else ""))
        if abs(found) > NUMBER_LIMIT:
            raise self.invalid(path, f"{found} is out of range")
        return found

    def as_number(self, value, path: str) -> float:
        found = number(value)
        if found is None:
            raise self.invalid(path, "missing" if value is None else f"{_shown(value)} is not a finite number" +
                               (" (a number written as a string)" if isinstance(value, str) else ""))
        return found

    def page_no(self, value, path: str) -> int:
        """A page number: any integer, as docling-core's schema takes it (its own
        documents number pages from 0 as well as from 1); one below 1 is kept as it
        is, and said once."""
        page = self.as_int(value, path)
        if page < 1 and not self.below_one:
            self.below_one = True
            self.diagnostics.info("docling-page-below-one", f"{path}: page {page}; docling-core takes any page "
                                                            "number: kept as it is (ICDAR 2013 numbers pages from 1)")
        return page

    def box(self, value, path: str, page: int) -> BBox | None:
        """A docling box as a PDF box (an image box at 72 DPI where a TOPLEFT
        box's page height is unknown). ``path`` is made into text only for a finding."""
        if value is None:
            return None
        get = value.get if value.__class__ is dict else None
        coordinates = (get("l"), get("t"), get("r"), get("b")) if get else ()
        if not (coordinates and all(v.__class__ is float or v.__class__ is int for v in coordinates)
                and math.isfinite(sum(coordinates))):  # (the quick test; the slow one says what is wrong)
            box = self.as_object(value, str(path))
            coordinates = tuple(self.as_number(box.get(k), f"{path}.{k}") for k in "ltrb")
            get = box.get
        left, top, right, bottom = coordinates
        origin = get("coord_origin", "TOPLEFT")
        if origin == "BOTTOMLEFT":
            found = BBox(left, bottom, right, top, Frame.PDF)
        elif origin == "TOPLEFT":
            found = BBox(left, top, right, bottom, Frame.IMAGE)
        else:
            raise self.invalid(f"{path}.coord_origin", f"{_shown(origin)} is neither TOPLEFT nor BOTTOMLEFT")
        if not (left <= right and found.y1 <= found.y2):
            self.inverted.append(f"{path}: l={left:g}, t={top:g}, r={right:g}, b={bottom:g} ({origin})")
            found = ordered(found)
        if found.frame is Frame.IMAGE:
            if page in self.heights:
                return convert_box(found, Frame.PDF, PageFrame(72.0, self.heights[page]))
            self.flat.add(page)
        return found

    def cell(self, value, path: _Path, page: int, odd: list) -> Cell:
        get = value.get if value.__class__ is dict else None
        offsets = tuple(map(get, _OFFSETS)) if get else ()
        if not (offsets and all(v.__class__ is int and -NUMBER_LIMIT <= v <= NUMBER_LIMIT for v in offsets)):
            data = self.as_object(value, str(path))  # (the quick test failed: the slow one says what is wrong)
            offsets = tuple(self.as_int(data.get(k), f"{path}.{k}") for k in _OFFSETS)
            get = data.get
        r0, r1, c0, c1 = offsets
        for key, span in (("row_span", r1 - r0), ("col_span", c1 - c0)):
            given = get(key, span)
            if given != span or given.__class__ is not int and integer(given) != span:
                odd.append(f"{path}.{key} is {_shown(given)}, its offsets say {span}")
        text = get("text")
        if text.__class__ is not str:
            raise self.invalid(f"{path}.text", "missing" if text is None else f"{_shown(text)} is not a text")
        column_header, row_header = get("column_header", False), get("row_header", False)
        for key, flag in (("column_header", column_header), ("row_header", row_header)):
            if flag.__class__ is not bool:
                raise self.invalid(f"{path}.{key}", f"{_shown(flag)} is not true or false")
        box = get("bbox")
        if box is not None:
            box = self.box(box, _Path(path, "bbox"), page)
        return Cell(r0, c0, r1 - 1, c1 - 1, text, None, box, column_header or row_header)

    def table(self, value, index: int, texts: list) -> Table:
        path = f"tables[{index}]"
        item = self.as_object(value, path)
        regions = []
        for k, prov in enumerate(self.as_list(item.get("prov", []), f"{path}.prov")):
            where = f"{path}.prov[{k}]"
            prov = self.as_object(prov, where)
            page = self.page_no(prov.get("page_no"), f"{where}.page_no")
            box = self.box(self.as_object(prov.get("bbox"), f"{where}.bbox"), f"{where}.bbox", page)
            regions.append(Region(k, page, box))
        if not regions:
            self.diagnostics.info("docling-no-page", f"{path} has no provenance (no page, no box): read as on page 1")
            regions.append(Region(0, 1))
        data = self.as_object(item.get("data"), f"{path}.data")
        odd: list[str] = []
        cells_path = f"{path}.data.table_cells"
        page = regions[0].page
        cells = regions[0].cells
        for k, cell in enumerate(self.as_list(data.get("table_cells", []), cells_path)):
            cells.append(self.cell(cell, _Path(cells_path, k), page, odd))
        if odd:
            self.diagnostics.warning("docling-span-mismatch", f"{len(odd)} cell(s) whose spans disagree with their "
                                                              f"offsets, which decide: {odd[0]}")
        limits = [self.as_int(data[k], f"{path}.data.{k}") if k in data else None for k in ("num_rows", "num_cols")]
        if any(n is not None and n < 0 for n in limits):
            raise self.invalid(f"{path}.data", f"num_rows {limits[0]}, num_cols {limits[1]}: negative")
        rows, cols = (n if n is not None else NUMBER_LIMIT for n in limits)
        outside = sum(c.end_row >= rows or c.end_col >= cols for c in cells)
        if outside:
            self.diagnostics.warning("docling-outside-grid", f"{path}: {outside} cell(s) reach beyond the declared "
                                                             f"{rows} rows x {cols} columns (kept; docling's grid "
                                                             "cuts them)")
        table = Table(index, regions)
        # docling-core takes a missing num_rows or num_cols as 0 (its grid then has no slot); a
        # size other than the cells' reach from row and column 0 is kept
        declared = tuple(n if n is not None else 0 for n in limits)
        if declared != (max((c.end_row + 1 for c in cells), default=0), max((c.end_col + 1 for c in cells), default=0)):
            table.declared_size = declared
        table.captions = _captions(item.get("captions"), texts)
        return table


def _captions(refs, texts: list) -> tuple[str, ...]:
    """The texts of a table's captions that docling-core's HTML export writes:
    those its references name among ``texts``, in the body's layer."""
    found = []
    for ref in refs if isinstance(refs, list) else ():
        match = _POINTER.match(_ref(ref) or "")
        if match is None or match.group(1) != "texts" or match.group(2) is None or int(match.group(2)) >= len(texts):
            continue
        item = texts[int(match.group(2))]
        if isinstance(item, dict) and item.get("content_layer", "body") == "body":
            text = item.get("text")
            found.append(text if isinstance(text, str) else "")
    return tuple(found)


def _shown(value) -> str:
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _resolve(pointer, doc: dict):
    """The item a JSON pointer names (``#/body``, ``#/groups/3``), or None."""
    match = _POINTER.match(pointer) if isinstance(pointer, str) else None
    if match is None:
        return None
    name, index = match.groups()
    if index is None:
        return doc.get(name) if name in _ROOTS else None
    items = doc.get(name) if name in _LISTS else None
    return items[int(index)] if isinstance(items, list) and int(index) < len(items) else None


def _ref(value):
    """The pointer of a reference object (``{"$ref": ...}``, or ``cref`` as 1.0.0 files write it)."""
    return value.get("$ref", value.get("cref")) if isinstance(value, dict) else None


def _check_references(doc: dict, diagnostics: Diagnostics) -> None:
    """Report references to nothing and ``parent`` chains in a cycle. Each
    table's chain is climbed until the body, an item already settled, or an item
    of this climb (a cycle); every item climbed is then settled, so no item is
    looked at twice, whatever the references say."""
    problems: list[str] = []
    body = doc.get("body")
    children = body.get("children") if isinstance(body, dict) else None
    for k, child in enumerate(children if isinstance(children, list) else []):
        if _resolve(_ref(child), doc) is None:
            problems.append(f"body.children[{k}] refers to {_shown(_ref(child))}, which is not there")
    roots = [doc.get(root) for root in _ROOTS]
    settled: dict[int, bool] = {}  # id(item) -> whether its parents lead to the body
    for index, table in enumerate(doc.get("tables", [])):
        if table.get("self_ref") != f"#/tables/{index}":
            problems.append(f"tables[{index}].self_ref is {_shown(table.get('self_ref'))}, not \"#/tables/{index}\"")
        item, climbed, on_climb, reaches = table, [], set(), False
        while True:
            if any(item is root for root in roots):
                reaches = True
                break
            if id(item) in settled:
                reaches = settled[id(item)]
                break
            if id(item) in on_climb:
                problems.append(f"the parents of tables[{index}] go round in a cycle")
                break
            on_climb.add(id(item))
            climbed.append(item)
            pointer = _ref(item.get("parent"))
            parent = _resolve(pointer, doc)
            if not isinstance(parent, dict):
                problems.append(f"a parent of tables[{index}] is {_shown(pointer)}, which is not there")
                break
            item = parent
        for seen in climbed:
            settled[id(seen)] = reaches
    if problems:
        diagnostics.warning("docling-ref", f"{len(problems)} reference(s) point to nothing or go round in a cycle "
                                           f"(not followed; the tables are read in their list's order): {problems[0]}")


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    if not isinstance(value, dict) or value.get("schema_name") != SCHEMA_NAME:
        raise diagnostics.fail("docling-not-document", "not a DoclingDocument: the JSON object has no "
                                                       "\"schema_name\": \"DoclingDocument\"")
    reader = _Reader(diagnostics)
    version = value.get("version")
    if not (isinstance(version, str) and re.match(r"1\.\d+\.\d+", version)):
        diagnostics.warning("docling-version", f"version {_shown(version)}: read as the 1.x schema it may not be")
    pages = []
    for key, page in reader.as_object(value.get("pages", {}), "pages").items():
        page = reader.as_object(page, f"pages.{key}")
        number_ = reader.page_no(page.get("page_no"), f"pages.{key}.page_no")
        size = reader.as_object(page.get("size"), f"pages.{key}.size")
        width, height = (reader.as_number(size.get(k, 0.0), f"pages.{key}.size.{k}") for k in ("width", "height"))
        pages.append(Page(number_, width if width > 0 else None, height if height > 0 else None, Frame.PDF))
        if height > 0:
            reader.heights[number_] = height
    texts = value.get("texts")
    texts = texts if isinstance(texts, list) else []
    listed = reader.as_list(value.get("tables", []), "tables")
    tables = [reader.table(t, k, texts) for k, t in enumerate(listed)]
    _check_references(value, diagnostics)
    if reader.inverted:
        diagnostics.warning("box-inverted", f"{len(reader.inverted)} box(es) with corners swapped, read ordered: "
                                            f"{reader.inverted[0]}")
    if reader.flat:
        unsized = sorted(reader.flat)
        diagnostics.warning("docling-no-page-size", f"TOPLEFT boxes on page(s) {', '.join(map(str, unsized[:5]))} "
                                                    "without a size in \"pages\": kept from the top, in the image "
                                                    "frame at 72 DPI (--dpi 72 --page-height converts them)")
        pages += [Page(n, frame=Frame.IMAGE, dpi=72.0) for n in unsized if n not in {p.number for p in pages}]
    doc = Document(tables=tables, pages=sorted(pages, key=lambda p: p.number))
    for k, item in enumerate(listed):
        label = item.get("label", "table")
        if label != "table" and isinstance(label, str):  # (a document_index: docling-eval does not score it)
            doc.metadata[f"table_{k}_label"] = label
    name = value.get("name")
    if isinstance(name, str):
        doc.metadata["docling_name"] = name
    origin = value.get("origin")
    if isinstance(origin, dict) and isinstance(origin.get("filename"), str):
        doc.filename = origin["filename"]
        for key in ("mimetype", "binary_hash"):
            if isinstance(origin.get(key), (str, int)) and not isinstance(origin.get(key), bool):
                doc.metadata[f"docling_{key}"] = str(origin[key])
    return doc


# -- writing ---------------------------------------------------------------------------------

def _body_reaches(cells: list[tuple]) -> dict[int, int]:
    """For each row, the last column where a cell of the body (not a header, not
    blank) starts: a header cell with body cells to its right in its row is a
    row header, any other a column header (the model has one header flag)."""
    reach: dict[int, int] = {}
    for r0, c0, _, _, text, header, *_ in cells:
        if not header and text and not text.isspace() and c0 > reach.get(r0, -1):
            reach[r0] = c0
    return reach


class _Boxes:
    """Model boxes as docling boxes: PDF ones BOTTOMLEFT, image ones TOPLEFT in
    points where the page's DPI is known (else as they are, with a warning)."""

    def __init__(self, doc: Document):
        self.dpi = {p.number: p.dpi for p in doc.pages if p.frame is Frame.IMAGE and p.dpi}
        self.foreign: set[Frame] = set()

    def __call__(self, box: BBox | None, page: int) -> dict | None:
        if box is None:
            return None
        if box.frame is Frame.PDF:
            return {"l": box.x1, "t": box.y2, "r": box.x2, "b": box.y1, "coord_origin": "BOTTOMLEFT"}
        if box.frame is Frame.IMAGE and page in self.dpi:
            scale = 72.0 / self.dpi[page]
        else:
            scale = 1.0
            self.foreign.add(box.frame)
        return {"l": box.x1 * scale, "t": box.y1 * scale, "r": box.x2 * scale, "b": box.y2 * scale,
                "coord_origin": "TOPLEFT"}


def _table(table: Table, index: int, boxes: _Boxes, diagnostics: Diagnostics, no_box: list,
           texts: list) -> tuple[dict, int]:
    entries = []  # (first row, first column, last row, last column, text, header, box, page)
    for region in table.regions:
        dr, dc = region.row_increment, region.col_increment
        entries += [(c.start_row + dr, c.start_col + dc, max(c.end_row, c.start_row) + dr,
                     max(c.end_col, c.start_col) + dc, c.content, c.header, c.bbox, region.page)
                    for c in region.cells]
    kept = [e for e in entries if e[0] >= 0 and e[1] >= 0]
    if len(kept) < len(entries):
        diagnostics.warning("docling-cell-left-out", f"table {table.id}: {len(entries) - len(kept)} cell(s) before "
                                                     "the first row or column left out")
    rows = max((e[2] for e in kept), default=-1) + 1
    cols = max((e[3] for e in kept), default=-1) + 1
    if table.declared_size is not None:  # (a grid declared larger than its cells reach stays so)
        rows, cols = max(rows, table.declared_size[0]), max(cols, table.declared_size[1])
    if rows * cols > MAX_TABLE_SLOTS:
        raise diagnostics.fail("docling-too-large", f"table {table.id} spans {rows:,} rows and {cols:,} columns; "
                                                    f"docling reads no table of more than {MAX_TABLE_SLOTS:,} slots")
    reach = _body_reaches(kept)
    cells = [{"bbox": boxes(box, page), "row_span": r1 - r0 + 1, "col_span": c1 - c0 + 1,
              "start_row_offset_idx": r0, "end_row_offset_idx": r1 + 1,
              "start_col_offset_idx": c0, "end_col_offset_idx": c1 + 1, "text": text or "",
              "column_header": header and reach.get(r0, -1) <= c1, "row_header": header and reach.get(r0, -1) > c1,
              "row_section": False}
             for r0, c0, r1, c1, text, header, box, page in kept]
    prov = []
    for region in table.regions:
        box = region.bbox
        if box is None:
            own = [c.bbox for c in region.cells if c.bbox is not None]
            box = envelope(b for b in own if b.frame is own[0].frame) if own else None
        if box is None:
            no_box.append(f"table {table.id}, page {region.page}")
            continue
        prov.append({"page_no": region.page, "bbox": boxes(box, region.page), "charspan": [0, 0]})
    captions = []
    for text in table.captions:
        captions.append({"$ref": f"#/texts/{len(texts)}"})
        texts.append({"self_ref": captions[-1]["$ref"], "parent": {"$ref": f"#/tables/{index}"}, "children": [],
                      "label": "caption", "prov": [], "orig": text, "text": text})
    item = {"self_ref": f"#/tables/{index}", "parent": {"$ref": "#/body"}, "children": captions, "label": "table",
            "prov": prov, "captions": captions, "references": [], "footnotes": [],
            "data": {"table_cells": cells, "num_rows": rows, "num_cols": cols}}
    return item, rows * cols


def _pages(doc: Document) -> dict:
    pages = {}
    for page in sorted(doc.pages, key=lambda p: p.number):
        if page.width is None or page.height is None or page.frame is Frame.PAGE or str(page.number) in pages:
            continue
        scale = 1.0 if page.frame is Frame.PDF else (72.0 / page.dpi if page.dpi else None)
        if scale is not None:
            pages[str(page.number)] = {"size": {"width": page.width * scale, "height": page.height * scale},
                                       "page_no": page.number}
    return pages


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    boxes = _Boxes(doc)
    tables, slots, no_box, texts = [], 0, [], []
    for index, table in enumerate(doc.tables):
        item, size = _table(table, index, boxes, diagnostics, no_box, texts)
        item["label"] = doc.metadata.get(f"table_{table.id}_label", "table")
        tables.append(item)
        slots += size
    if slots > MAX_DOCUMENT_SLOTS:
        raise diagnostics.fail("docling-too-large", f"the tables span {slots:,} slots (rows x columns) in all; "
                                                    f"docling reads no document of more than {MAX_DOCUMENT_SLOTS:,}")
    if no_box:
        diagnostics.info("docling-no-box", f"{len(no_box)} region(s) without a box ({no_box[0]}...) written without "
                                           "provenance, which needs one: they read back as on page 1")
    foreign_frame_note(boxes.foreign, Frame.PDF, "docling", diagnostics)
    name = doc.metadata.get("docling_name") or (PurePath(doc.filename).stem if doc.filename else "") or "document"
    out: dict = {"schema_name": SCHEMA_NAME, "version": VERSION, "name": name}
    hash_text = doc.metadata.get("docling_binary_hash", "")
    if doc.filename and doc.metadata.get("docling_mimetype") and hash_text.isdigit():
        out["origin"] = {"mimetype": doc.metadata["docling_mimetype"], "binary_hash": int(hash_text),
                         "filename": doc.filename, "uri": None}
    root = {"parent": None, "children": [], "name": "_root_", "label": "unspecified"}
    out["furniture"] = {"self_ref": "#/furniture", **root}
    out["body"] = {"self_ref": "#/body", **root, "children": [{"$ref": t["self_ref"]} for t in tables]}
    out.update(groups=[], texts=texts, pictures=[], tables=tables, key_value_items=[], pages=_pages(doc))
    try:
        return (json.dumps(out, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # (a ValueError too: first)
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None
    except ValueError:
        raise diagnostics.fail("bad-number", "a coordinate or page size is not finite; JSON cannot hold it") from None


# -- the format ------------------------------------------------------------------------------

_MARK = re.compile(rb'"schema_name"\s*:\s*"DoclingDocument"')


def sniff(head: bytes) -> bool:
    """A JSON object whose ``schema_name`` is ``DoclingDocument`` (docling writes it first)."""
    start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    return start.lstrip()[:1] == b"{" and _MARK.search(head) is not None


FORMAT = DECLARED["docling"]
