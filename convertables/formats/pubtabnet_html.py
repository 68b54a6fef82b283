"""PubTabNet's TEDS JSON (docs/formats.md, `pubtabnet-html`): one JSON object
whose entries are tables as HTML, keyed by their image's file name, as the
official TEDS ``batch_evaluate`` takes them: predictions
``{"PMC4840965_004_00.png": "<html><body><table>...</table></body></html>"}``,
and ground truth ``{"PMC4840965_004_00.png": {"html": "<html>..."}}``. Read only.

The file is a container (:mod:`convertables.containers`): each entry is a
document named by its key without folders and suffix (``PMC4840965_004_00``),
found by a scan of the file that never parses it whole, and read when wanted:
its HTML by the HTML table model (:mod:`convertables.html_tables`: header
cells, spans, inline tags kept as markup, the skeleton as ``html_structure``),
its ``filename`` the key. Findings on an entry are at the line it starts on (the
HTML's own lines are not the file's). An entry whose value is neither a
string nor an object with an ``html`` string is refused
(``pubtabnet-html-invalid``); an empty string is a document without tables
(the official code scores it 0).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..containers import json_object_entries
from ..diagnostics import Diagnostics
from ..html_tables import read_document
from ..jsonsafe import parse_json
from ..model import Document, Reading
from ..options import ReadOptions
from .declarations import DECLARED


def _entry(data: bytes, diagnostics: Diagnostics) -> tuple[str, object]:
    """The one entry of ``data``: a whole file of one entry, or a member's ``"key": value`` bytes."""
    stripped = data.strip()
    if stripped.startswith(b'"'):  # a member of the container: made an object of one entry
        stripped = b"{" + stripped + b"}"
    value = parse_json(stripped, diagnostics)
    if value.__class__ is not dict:
        raise diagnostics.fail("pubtabnet-html-invalid", f"not a JSON object of file names and HTML, but a "
                                                         f"{type(value).__name__}")
    if len(value) != 1:
        raise diagnostics.fail("many-documents", f"holds {len(value)} entries, each a document of its own",
                               hint="convert it into a folder (-o DIR/); in Python, convertables.read_documents")
    return next(iter(value.items()))


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    filename, value = _entry(data, diagnostics)
    if value.__class__ is dict and value.get("html").__class__ is str:
        value = value["html"]
    if value.__class__ is not str:
        raise diagnostics.fail("pubtabnet-html-invalid", f"{filename!r}: the value is neither an HTML string nor "
                                                         "an object with an html string")
    if not value.strip():
        return Reading(Document(filename=filename))
    own = Diagnostics(diagnostics.file)
    try:
        reading = read_document(value, own, page=options.page or 1,
                                keep_pandas_labels=bool(options.keep_pandas_labels))
    finally:  # (lines of the HTML text are not the file's: the entry's line stands for them)
        diagnostics.items.extend(replace(d, line=None, column=None) for d in own.items)
    reading.document.filename = filename
    return reading


members = json_object_entries


_HEAD = re.compile(rb'\A\s*\{\s*"(?:[^"\\]|\\.){1,4096}"\s*:\s*(?:"\s*<|\{\s*"html"\s*:\s*"\s*<)')


def sniff(head: bytes) -> bool:
    """A JSON object whose first entry's value is HTML (``"<..."``), or an object whose ``html`` is."""
    return _HEAD.match(head[3:] if head.startswith(b"\xef\xbb\xbf") else head) is not None


FORMAT = DECLARED["pubtabnet_html"]
