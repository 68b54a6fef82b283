"""Upstage Document Parse responses (docs/formats.md, `upstage`), read only.

A response is a JSON object with ``api``, ``model``, ``content`` (the whole
document as HTML, Markdown and text), ``elements`` and ``usage``. Each
element of ``category: "table"`` is a table: ``content.html`` its HTML (read
by the HTML table model), ``page`` its page (from 1), ``coordinates`` its
outline, four ``{"x", "y"}`` points in fractions of the page, origin top-left
(the ``page`` frame, the polygon kept). The older layout analysis API's
elements (``html`` and ``bounding_box`` in pixels) are read too. A table
element without HTML (another output format asked for) is a table without
cells (``upstage-no-html``). DP-Bench's files, which hold elements for many
documents, are the ``dpbench`` format.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..jsonsafe import parse_json
from ..model import Document
from ..options import ReadOptions
from ..parser_json import Findings, upstage_elements
from .declarations import DECLARED


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    elements = value.get("elements") if type(value) is dict else None
    if type(elements) is not list:
        raise diagnostics.fail("upstage-invalid", "not an Upstage Document Parse response: no elements list")
    findings = Findings()
    doc = upstage_elements(elements, diagnostics, findings)
    findings.report(diagnostics)
    for key in ("model", "api"):
        if type(value.get(key)) is str:
            doc.metadata["generator"] = f"Upstage {value[key]}" if key == "model" else f"Upstage API {value[key]}"
            break
    return doc


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\{")
_ELEMENTS = re.compile(rb'(?<!\\)"elements"\s*:\s*\[')
_CATEGORY = re.compile(rb'(?<!\\)"category"\s*:\s*"')


def sniff(head: bytes) -> bool:
    """A JSON object with an ``elements`` list whose items have a ``category``."""
    return _START.match(head) is not None and _ELEMENTS.search(head) is not None \
        and _CATEGORY.search(head) is not None


FORMAT = DECLARED["upstage"]
