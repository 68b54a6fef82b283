"""The canonical model as JSON (docs/formats.md, `json`), field for field.

Validated against ``schemas/convertables.schema.json`` on read; the writer's
output validates against it too. Coordinates keep their frame, unknown content
is ``null`` and blank content is its whitespace string, so nothing of the model
is lost: JSON is the format to use between convertables commands.
"""

from __future__ import annotations

import json
import math
import re

from ..diagnostics import Diagnostics
from ..geometry import ordered
from ..model import BBox, Cell, Document, Frame, Instruction, Page, Region, Table, TextItem
from ..options import ReadOptions, WriteOptions
from ..registry import Format
from ..validation import first_json_error, plainly_valid

FORMAT_TAG = "convertables"
VERSION = 1


# -- model -> plain data ---------------------------------------------------------------

def _n(value: float) -> float | int:
    """Integral coordinates are written as integers, for tidy files; read back as floats."""
    value = float(value)
    return int(value) if math.isfinite(value) and value.is_integer() and abs(value) < 2**53 else value


def _box(box: BBox) -> dict:
    data = {"x1": _n(box.x1), "y1": _n(box.y1), "x2": _n(box.x2), "y2": _n(box.y2), "frame": box.frame.value}
    if box.polygon is not None:
        data["polygon"] = [[_n(x), _n(y)] for x, y in box.polygon]
    return data


def _instructions(items: tuple[Instruction, ...]) -> list[dict]:
    return [{"instr_id": i.instr_id, "subinstr_id": i.subinstr_id} for i in items]


def _cell(cell: Cell) -> dict:
    data = {
        "id": cell.id,
        "start_row": cell.start_row,
        "start_col": cell.start_col,
        "end_row": cell.end_row,
        "end_col": cell.end_col,
        "content": cell.content,
        "header": cell.header,
    }
    if cell.bbox is not None:
        data["bbox"] = _box(cell.bbox)
    if cell.instructions:
        data["instructions"] = _instructions(cell.instructions)
    if cell.markup is not None:
        data["markup"] = list(cell.markup)
    return data


def _region(region: Region, with_cells: bool = True) -> dict:
    data = {"id": region.id, "page": region.page}
    if region.bbox is not None:
        data["bbox"] = _box(region.bbox)
    data["row_increment"] = region.row_increment
    data["col_increment"] = region.col_increment
    if region.instructions:
        data["instructions"] = _instructions(region.instructions)
    data["cells"] = [_cell(c) for c in region.cells] if with_cells else []
    return data


def to_data(doc: Document, with_cells: bool = True) -> dict:
    data: dict = {"format": FORMAT_TAG, "version": VERSION, "filename": doc.filename}
    if doc.metadata:
        data["metadata"] = dict(doc.metadata)
    if doc.pages:
        data["pages"] = []
        for p in doc.pages:
            page = {"number": p.number, "width": p.width, "height": p.height, "frame": p.frame.value, "dpi": p.dpi}
            if p.items:
                page["items"] = [{"bbox": _box(i.bbox), "text": i.text} for i in p.items]
            data["pages"].append(page)
    data["tables"] = [_table(t, with_cells) for t in doc.tables]
    return data


def _table(table: Table, with_cells: bool = True) -> dict:
    data: dict = {"id": table.id}
    if table.html_structure is not None:
        data["html_structure"] = list(table.html_structure)
    data["regions"] = [_region(r, with_cells) for r in table.regions]
    return data


# -- plain data -> model ---------------------------------------------------------------

def _box_from(data: dict) -> BBox:
    polygon = data.get("polygon")
    return BBox(
        float(data["x1"]),
        float(data["y1"]),
        float(data["x2"]),
        float(data["y2"]),
        Frame(data["frame"]),
        tuple((float(x), float(y)) for x, y in polygon) if polygon is not None else None,
    )


def _instructions_from(items: list[dict]) -> tuple[Instruction, ...]:
    return tuple(Instruction(i["instr_id"], i.get("subinstr_id")) for i in items)


def from_data(data: dict) -> Document:
    """Build the model from data already validated against the JSON Schema."""
    doc = Document(filename=data.get("filename"), metadata=dict(data.get("metadata", {})))
    for p in data.get("pages", []):
        items = [TextItem(_box_from(i["bbox"]), i.get("text", "")) for i in p.get("items", [])]
        doc.pages.append(
            Page(p["number"], p.get("width"), p.get("height"), Frame(p.get("frame", "pdf")), p.get("dpi"), items)
        )
    for t in data["tables"]:
        structure = t.get("html_structure")
        table = Table(id=t["id"], html_structure=None if structure is None else tuple(structure))
        for r in t["regions"]:
            region = Region(
                id=r["id"],
                page=r["page"],
                bbox=_box_from(r["bbox"]) if "bbox" in r else None,
                row_increment=r.get("row_increment", 0),
                col_increment=r.get("col_increment", 0),
                instructions=_instructions_from(r.get("instructions", [])),
            )
            for c in r["cells"]:
                region.cells.append(
                    Cell(
                        start_row=c["start_row"],
                        start_col=c["start_col"],
                        end_row=c["end_row"],
                        end_col=c["end_col"],
                        content=c["content"],
                        id=c.get("id"),
                        bbox=_box_from(c["bbox"]) if "bbox" in c else None,
                        header=c.get("header", False),
                        instructions=_instructions_from(c.get("instructions", [])),
                        markup=tuple(c["markup"]) if "markup" in c else None,
                    )
                )
            table.regions.append(region)
        doc.tables.append(table)
    return doc


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _holds_lone_surrogate(value) -> bool:
    """Whether a string anywhere in ``value`` holds half a surrogate pair (JSON
    can spell one as an escape; json.loads joins only complete pairs)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    if not data or data.isspace():  # (isspace stops at the first other byte; strip would copy)
        raise diagnostics.fail("json-empty", "the file is empty")
    try:
        value = json.loads(data, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise diagnostics.fail("json-syntax", f"not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise diagnostics.fail("json-syntax", f"not valid JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise diagnostics.fail("json-syntax", f"not valid JSON: {exc}") from None
    if _SURROGATE_ESCAPE.search(data) and _holds_lone_surrogate(value):
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate (a \\ud800-\\udfff escape without its "
                                           "pair), which no output format can encode")
    if not plainly_valid(value):  # (the quick reading accepts ints only)
        problem = first_json_error(value)
        if problem:
            raise diagnostics.fail("json-schema", f"does not match the canonical JSON schema {problem}")
        _integral_numbers_as_ints(value)
    doc = from_data(value)
    _check_boxes(doc, diagnostics)
    return doc


def _as_ints(item: dict, keys: tuple[str, ...]) -> None:
    for key in keys:
        if item.get(key).__class__ is float:
            item[key] = int(item[key])


def _integral_numbers_as_ints(data: dict) -> None:
    """The schema's integers written with a fraction (``1.0``, which JSON Schema
    counts as an integer) made ints, so that the model holds ints and a file
    reads and writes back as ``1``."""
    for page in data.get("pages", []):
        _as_ints(page, ("number",))
    instruction_keys = ("instr_id", "subinstr_id")
    for table in data["tables"]:
        _as_ints(table, ("id",))
        for region in table["regions"]:
            _as_ints(region, ("id", "page", "row_increment", "col_increment"))
            for instruction in region.get("instructions", []):
                _as_ints(instruction, instruction_keys)
            for cell in region["cells"]:
                _as_ints(cell, ("id", "start_row", "start_col", "end_row", "end_col"))
                for instruction in cell.get("instructions", []):
                    _as_ints(instruction, instruction_keys)


def _check_boxes(doc: Document, diagnostics: Diagnostics) -> None:
    """Finite coordinates, and ordered corners (swapped, with a warning, as the ICDAR reader does)."""

    def checked(box: BBox | None, where: str) -> BBox | None:
        if box is None:
            return None
        if not all(math.isfinite(v) for v in (box.x1, box.y1, box.x2, box.y2)):
            raise diagnostics.fail("bad-number", f"{where}: a bounding box has a non-finite coordinate")
        if not box.is_ordered:
            diagnostics.warning(
                "box-inverted",
                f"{where}: bounding box x1={box.x1:g}, y1={box.y1:g}, x2={box.x2:g}, y2={box.y2:g}: corners swapped",
            )
            return ordered(box)
        return box

    for table in doc.tables:
        for region in table.regions:
            where = f"table {table.id}, region {region.id}"
            region.bbox = checked(region.bbox, where)
            for cell in region.cells:
                cell.bbox = checked(cell.bbox, f"{where}, cell at row {cell.start_row}, column {cell.start_col}")


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def _c_encoder():
    """json's C encoder set up as ``_ENCODER.encode`` sets it up, made once:
    ``encode`` makes a new one on every call, and the writer encodes once per
    cell. No circular-reference markers: the data is a tree of fresh dicts.
    None where the C encoder is missing or takes other arguments."""
    try:
        from json.encoder import c_make_encoder, encode_basestring

        encoder = c_make_encoder(None, _ENCODER.default, encode_basestring, None, ": ", ", ", False, False, False)
        if "".join(encoder({"a": [1, None, 2.5, "\u00e9"]}, 0)) != _ENCODER.encode({"a": [1, None, 2.5, "\u00e9"]}):
            return None
        return encoder
    except (ImportError, TypeError):
        return None


_C_ENCODE = _c_encoder()
_encode_text = json.encoder.encode_basestring  # what _ENCODER writes for a str (ensure_ascii=False)


def _compact(value) -> str:
    if _C_ENCODE is None or isinstance(value, str):  # encode() writes a str without the C encoder
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def _index_text(n) -> str:
    """How a cell's index is written: an integral number as an int (``True`` and
    ``1.0`` as ``1``, as the reader reads them back), anything else as json writes
    it (``1.5``; NaN raises ValueError)."""
    try:
        if n == int(n):
            return str(int(n))
    except (TypeError, ValueError, OverflowError):
        pass
    return _compact(n)


_FRAME_TEXT = {frame: _compact(frame.value) for frame in Frame}


def _box_text(box: BBox, coordinates: dict) -> str:
    """``_compact(_box(box))``, its coordinates' text looked up in ``coordinates``
    (a page's coordinates repeat from cell to cell; NaN, never found, always
    goes to _compact, which refuses it)."""
    if box.polygon is not None:
        return _compact(_box(box))
    texts = []
    for value in box[:4]:
        text = coordinates.get(value)
        if text is None:
            text = coordinates[value] = _compact(_n(value))
        texts.append(text)
    x1, y1, x2, y2 = texts
    return f'{{"x1": {x1}, "y1": {y1}, "x2": {x2}, "y2": {y2}, "frame": {_FRAME_TEXT[box.frame]}}}'


def _cell_lines(cells: list[Cell], numbers: dict, coordinates: dict) -> list[str]:
    """Each cell's line: four spaces, ``_compact(_cell(cell))`` and a comma (the
    caller drops the last one), formatted directly: no dict and no
    encoder call per cell (a large workbook has 100,000s of cells). The
    indices' text is looked up in ``numbers``, a plain dict (the interpreter's
    quickest lookup, cheaper than formatting the int again): a document's
    indices repeat, a row's in each of its cells. A number not in it yet is added
    as met, and the cell formatted again. (Integral numbers of other types are
    equal to their int, and share its text: so they are written as ints.)"""
    lines = []
    append = lines.append
    encode = _encode_text
    for cell in cells:
        while True:
            try:
                text = (f'    {{"id": {numbers[cell.id]}, "start_row": {numbers[cell.start_row]}, '
                        f'"start_col": {numbers[cell.start_col]}, "end_row": {numbers[cell.end_row]}, '
                        f'"end_col": {numbers[cell.end_col]}, '
                        f'"content": {"null" if cell.content is None else encode(cell.content)}, '
                        f'"header": {"true" if cell.header else "false"}}},')
                break
            except KeyError as missing:
                numbers[missing.args[0]] = _index_text(missing.args[0])
        if cell.bbox is not None or cell.instructions or cell.markup is not None:
            text = text[:-2]
            if cell.bbox is not None:
                text += f', "bbox": {_box_text(cell.bbox, coordinates)}'
            if cell.instructions:
                text += f', "instructions": {_compact(_instructions(cell.instructions))}'
            if cell.markup is not None:
                text += f', "markup": {_compact(list(cell.markup))}'
            text += "},"
        append(text)
    return lines


def _layout(doc: Document) -> str:
    """One cell per line: readable and diffable, yet fast (an indented dump
    goes through json's pure-Python encoder, which is slow on large documents)."""
    data = to_data(doc, with_cells=False)
    numbers: dict = {None: "null"}
    coordinates: dict = {}
    out = ["{"]
    for key, value in data.items():
        if key != "tables":
            out.append(f" {_compact(key)}: {_compact(value)},")
    out.append(' "tables": [')
    for t, (table, table_data) in enumerate(zip(doc.tables, data["tables"])):
        head = _compact({k: v for k, v in table_data.items() if k != "regions"})[:-1]
        out.append(f'  {head}, "regions": [')
        last = len(table.regions) - 1
        for r, (region, region_data) in enumerate(zip(table.regions, table_data["regions"])):
            head = _compact({k: v for k, v in region_data.items() if k != "cells"})[:-1]
            if not region.cells:
                out.append(f'   {head}, "cells": []}}' + ("," if r < last else ""))
                continue
            out.append(f'   {head}, "cells": [')
            lines = _cell_lines(region.cells, numbers, coordinates)
            lines[-1] = lines[-1][:-1]  # no comma after the last cell
            out.append("\n".join(lines))  # (a region's lines go as they are joined: less memory at once)
            out.append("   ]}" + ("," if r < last else ""))
        out.append("  ]}" + ("," if t < len(doc.tables) - 1 else ""))
    out.append(" ]")
    out.append("}")
    out.append("")
    return "\n".join(out)


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    try:
        text = _layout(doc)
    except ValueError:
        raise diagnostics.fail("bad-number", "a coordinate is not finite; JSON cannot hold it") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None


# -- the format ------------------------------------------------------------------------------

_HEAD = re.compile(rb'\s*\{\s*"format"\s*:\s*"convertables"')


def sniff(head: bytes) -> bool:
    return _HEAD.match(head) is not None


def validate(data: bytes, diagnostics: Diagnostics, model: str | None = None) -> None:
    """Every finding of the JSON Schema (the reader stops at the first)."""
    from ..validation import validate_json

    try:
        diagnostics.extend(validate_json(json.loads(data), diagnostics.file))
    except (ValueError, RecursionError):
        pass  # the reader says what is wrong


FORMAT = Format("json", "convertables canonical JSON", (".json",), sniff, ("region", "structure"), read, write,
                validate=validate,
                holds=frozenset({"empty", "overlaps", "text", "breaks", "spans", "blank", "unknown", "header-rows",
                                 "header-span", "header-cells", "markup", "skeleton", "boxes", "pages"}))
