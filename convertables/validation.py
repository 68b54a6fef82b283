"""The schemas that ship with convertables, and validation against them.

``schemas/`` holds the XSDs of the ICDAR 2013 region and structure models and the
JSON Schema of the canonical JSON; they are package data, loaded with
:mod:`importlib.resources` so they work from a wheel as from a checkout.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Literal

from lxml import etree

from .diagnostics import Diagnostic, Severity

XsdModel = Literal["region", "structure"]

_XSD_FILES = {"region": "icdar2013-region.xsd", "structure": "icdar2013-structure.xsd"}
JSON_SCHEMA_FILE = "convertables.schema.json"


def schema_bytes(name: str) -> bytes:
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
    import fastjsonschema  # compiles the schema to Python: 30x faster than jsonschema on reading

    return fastjsonschema.compile(json_schema())


def first_json_error(value: object) -> str | None:
    """The first JSON Schema violation in ``value`` (for readers), or None."""
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
