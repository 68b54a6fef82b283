"""DP-Bench's files (docs/formats.md, `dpbench`): Upstage's document parsing
benchmark keeps its ground truth (``reference.json``) and each parser's
predictions as one JSON object of documents keyed by the PDF's file name,
each ``{"elements": [...]}`` of Upstage Document Parse's elements. Read only;
a container: each entry is a document named by its key without folders and
suffix, found by a scan of the file that never parses it whole, and read when
wanted. Its tables are its elements of category ``Table`` (any case), read as
the ``upstage`` format reads them (see its docstring).
"""

from __future__ import annotations

import re

from ..containers import json_object_entries
from ..diagnostics import Diagnostics
from ..jsonsafe import parse_json
from ..model import Document
from ..options import ReadOptions
from ..parser_json import Findings, upstage_elements
from .declarations import DECLARED


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    stripped = data.strip()
    if stripped.startswith(b'"'):  # a member of the container: made an object of one entry
        stripped = b"{" + stripped + b"}"
    value = parse_json(stripped, diagnostics)
    if type(value) is not dict:
        raise diagnostics.fail("dpbench-invalid", f"not DP-Bench documents: a JSON {type(value).__name__}")
    if len(value) != 1:
        raise diagnostics.fail("many-documents", f"holds {len(value)} documents, each a document of its own",
                               hint="convert it into a folder (-o DIR/); in Python, convertables.read_documents")
    name, entry = next(iter(value.items()))
    elements = entry.get("elements") if type(entry) is dict else None
    if type(elements) is not list:
        raise diagnostics.fail("dpbench-invalid", f"{name!r}: not an object with an elements list")
    findings = Findings()
    doc = upstage_elements(elements, diagnostics, findings)
    findings.report(diagnostics)
    doc.filename = name
    return doc


members = json_object_entries


_HEAD = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:[^"\\]|\\.){1,4096}"\s*:\s*\{\s*"elements"\s*:\s*\[')


def sniff(head: bytes) -> bool:
    """A JSON object whose first entry's value is an object starting with an ``elements`` list."""
    return _HEAD.match(head) is not None


FORMAT = DECLARED["dpbench"]
