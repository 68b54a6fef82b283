"""The schemas that ship with convertables, and validation against them.

``schemas/`` holds the XSDs of the ICDAR 2013 region and structure models and the
JSON Schema of the canonical JSON; they are package data, loaded with
:mod:`importlib.resources` so they work from a wheel as from a checkout.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Literal

from lxml import etree

from .diagnostics import Diagnostic, Severity

XsdModel = Literal["region", "structure"]

_XSD_FILES = {"region": "icdar2013-region.xsd", "structure": "icdar2013-structure.xsd"}
JSON_SCHEMA_FILE = "convertables.schema.json"


def schema_bytes(name: str) -> bytes:
    from importlib import resources  # (here: imports that writing JSON does not need)

    return resources.files("convertables").joinpath("schemas", name).read_bytes()


@lru_cache(maxsize=None)
def xsd(model: XsdModel) -> etree.XMLSchema:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.XMLSchema(etree.fromstring(schema_bytes(_XSD_FILES[model]), parser))


@lru_cache(maxsize=None)
def json_schema() -> dict:
    return json.loads(schema_bytes(JSON_SCHEMA_FILE))


@lru_cache(maxsize=None)
def _json_validator():
    import jsonschema  # imported here: only JSON reading and checking need it

    schema = json_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate_xml(root: etree._Element, model: XsdModel, file: str | None = None) -> list[Diagnostic]:
    """XSD findings for a parsed ICDAR 2013 document, code ``xsd``."""
    schema = xsd(model)
    if schema.validate(root):
        return []
    return [
        Diagnostic("xsd", Severity.ERROR, f"{model} model schema: {e.message}", file, e.line or None, e.column or None)
        for e in schema.error_log
    ]


@lru_cache(maxsize=None)
def _fast_json_validator():
    import fastjsonschema  # compiles the schema to Python once, where jsonschema interprets it on every read

    return fastjsonschema.compile(json_schema())


def first_json_error(value: object) -> str | None:
    """The first JSON Schema violation in ``value`` (for readers), or None."""
    if plainly_valid(value):
        return None  # the usual case, settled without compiling the schema
    import fastjsonschema

    try:
        _fast_json_validator()(value)
    except fastjsonschema.JsonSchemaValueException as exc:
        where = "/".join(exc.path[1:]) if exc.path else ""
        return f"at {where or '(top level)'}: {exc.message.removeprefix('data.').removeprefix('data ')}"
    return None


def validate_json(value: object, file: str | None = None) -> list[Diagnostic]:
    """Every JSON Schema finding for a canonical JSON document, code ``json-schema``
    (the full report, with jsonschema; readers use :func:`first_json_error`)."""
    findings = []
    for error in sorted(_json_validator().iter_errors(value), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        findings.append(Diagnostic("json-schema", Severity.ERROR, f"at {where}: {error.message}", file))
    return findings


# -- the usual canonical JSON, recognised quickly ---------------------------------------------
# A written-out reading of the JSON Schema above for documents as convertables
# writes them. It may only answer True for a document the schema accepts
# (tests/unit/test_json_and_safety.py checks that on mutated documents); anything
# unusual (a float where an integer is expected, a missing key, a non-finite
# number) answers False and goes to the compiled schema, which gives the message.

_TOP_KEYS = frozenset({"format", "version", "filename", "metadata", "pages", "tables"})
_PAGE_KEYS = frozenset({"number", "width", "height", "frame", "dpi", "items"})
_TABLE_KEYS = frozenset({"id", "regions", "html_structure"})
_TABLE_REQUIRED = frozenset({"id", "regions"})
_REGION_KEYS = frozenset({"id", "page", "bbox", "row_increment", "col_increment", "cells", "instructions"})
_REGION_REQUIRED = frozenset({"id", "page", "cells"})
_CELL_KEYS = frozenset({"id", "start_row", "start_col", "end_row", "end_col", "content", "header", "bbox",
                        "instructions", "markup"})
_CELL_REQUIRED = frozenset({"start_row", "start_col", "end_row", "end_col", "content"})
_BOX_KEYS = frozenset({"x1", "y1", "x2", "y2", "frame", "polygon"})
_BOX_REQUIRED = frozenset({"x1", "y1", "x2", "y2", "frame"})
_FRAMES = ("pdf", "image", "page")


def _number(v: object) -> bool:
    return (type(v) is int) or (type(v) is float and math.isfinite(v))


def _optional_number(v: object) -> bool:
    return v is None or _number(v)


def _count(v: object, least: int = 0) -> bool:
    return type(v) is int and v >= least


def _box(box: object) -> bool:
    if type(box) is not dict or not (_BOX_REQUIRED <= box.keys() <= _BOX_KEYS):
        return False
    if not (_number(box["x1"]) and _number(box["y1"]) and _number(box["x2"]) and _number(box["y2"])):
        return False
    if box["frame"] not in _FRAMES or type(box["frame"]) is not str:
        return False
    polygon = box.get("polygon")
    return polygon is None and "polygon" not in box or (
        type(polygon) is list and len(polygon) >= 1 and all(
            type(p) is list and len(p) == 2 and _number(p[0]) and _number(p[1]) for p in polygon))


def _instructions(items: object) -> bool:
    return type(items) is list and all(
        type(i) is dict and "instr_id" in i and i.keys() <= {"instr_id", "subinstr_id"}
        and type(i["instr_id"]) is int and (i.get("subinstr_id") is None or type(i["subinstr_id"]) is int)
        for i in items)


def _tokens(tokens: object) -> bool:
    return type(tokens) is list and all(type(t) is str for t in tokens)


def _cell(cell: object) -> bool:
    if type(cell) is not dict or not (_CELL_REQUIRED <= cell.keys() <= _CELL_KEYS):
        return False
    if not (type(cell["start_row"]) is int and type(cell["start_col"]) is int
            and type(cell["end_row"]) is int and type(cell["end_col"]) is int):
        return False
    content, cell_id = cell["content"], cell.get("id")
    if not (content is None or type(content) is str) or not (cell_id is None or _count(cell_id)):
        return False
    if "header" in cell and type(cell["header"]) is not bool:
        return False
    return ("bbox" not in cell or _box(cell["bbox"])) and (
        "instructions" not in cell or _instructions(cell["instructions"])) and (
        "markup" not in cell or _tokens(cell["markup"]))


def _region(region: object) -> bool:
    if type(region) is not dict or not (_REGION_REQUIRED <= region.keys() <= _REGION_KEYS):
        return False
    if not (_count(region["id"]) and _count(region["page"], 1) and type(region["cells"]) is list):
        return False
    if any(k in region and type(region[k]) is not int for k in ("row_increment", "col_increment")):
        return False
    return ("bbox" not in region or _box(region["bbox"])) and (
        "instructions" not in region or _instructions(region["instructions"])) and all(map(_cell, region["cells"]))


def _table(table: object) -> bool:
    return (type(table) is dict and _TABLE_REQUIRED <= table.keys() <= _TABLE_KEYS and _count(table["id"])
            and ("html_structure" not in table or _tokens(table["html_structure"]))
            and type(table["regions"]) is list and all(map(_region, table["regions"])))


def _item(item: object) -> bool:
    return (type(item) is dict and "bbox" in item and item.keys() <= {"bbox", "text"} and _box(item["bbox"])
            and ("text" not in item or type(item["text"]) is str))


def _page(page: object) -> bool:
    if type(page) is not dict or "number" not in page or not page.keys() <= _PAGE_KEYS:
        return False
    if not (_count(page["number"], 1) and _optional_number(page.get("width"))
            and _optional_number(page.get("height"))):
        return False
    if "frame" in page and (type(page["frame"]) is not str or page["frame"] not in _FRAMES):
        return False
    dpi = page.get("dpi")
    if not (dpi is None or (_number(dpi) and dpi > 0)):
        return False
    return "items" not in page or (type(page["items"]) is list and all(map(_item, page["items"])))


def plainly_valid(doc: object) -> bool:
    """True only for a document the JSON Schema accepts (a quick, partial reading of it)."""
    if type(doc) is not dict or not ({"format", "version", "tables"} <= doc.keys() <= _TOP_KEYS):
        return False
    if doc["format"] != "convertables" or type(doc["format"]) is not str or type(doc["version"]) is not int \
            or doc["version"] != 1:
        return False
    if not (doc.get("filename") is None or type(doc["filename"]) is str):
        return False
    metadata = doc.get("metadata", {})
    if type(metadata) is not dict or not all(type(v) is str for v in metadata.values()):
        return False
    pages = doc.get("pages", [])
    return (type(pages) is list and all(map(_page, pages)) and type(doc["tables"]) is list
            and all(map(_table, doc["tables"])))
