"""OmniDocBench's ground truth (docs/formats.md, `omnidocbench`): its JSON file
of page annotations (``OmniDocBench.json``), a list of pages, each with its
``page_info`` (``image_path``) and its ``layout_dets``, the page's blocks; a
block of ``category_type`` ``table`` holds the table as ``html`` (and
``latex``). Read only, and only when named (``score --profile omnidocbench``).

The file is a container (:mod:`convertables.containers`): each page is a
document named by its image's file name without folders and suffix, the name
of the Markdown page a model writes for it. A page's tables are its table
blocks in the order of their ``order`` (a block without one first), as
OmniDocBench's end-to-end evaluation takes them; a block whose ``html`` is
empty is left out, as it leaves it out. Each table is read from the string
OmniDocBench scores, its normalisation of the HTML
(:func:`convertables.omnidocbench.normalised_html`); the strings are kept for
the ``teds-edit`` metric. A table block in a ``truncated`` relation, or one
without ``html``, makes OmniDocBench fail (``omnidocbench-would-fail``): it is
read as the others are. Read whole (not as a container), the file's pages are
pages 1, 2... of one document.
"""

from __future__ import annotations

import json
import os
import re

from ..containers import json_array_members, name_from_filename
from ..diagnostics import Diagnostics
from ..jsonsafe import parse_json
from ..model import Document
from ..omnidocbench import PAGE_LABELS, SOURCES, attribute_labels, page_labels, tables_document
from ..options import ReadOptions
from .declarations import DECLARED


_IMAGE_PATH = re.compile(rb'"image_path"\s*:\s*("[^"\\]*(?:\\.[^"\\]*)*")')


def _page_name(data: bytes) -> str | None:
    """A page's name, its image's file name without folders and suffix (found,
    not parsed: the first ``"image_path"`` key; a text holding that key quoted
    would have its quotes escaped)."""
    found = _IMAGE_PATH.search(data)
    try:
        return name_from_filename(json.loads(found.group(1))) if found is not None else None
    except ValueError:
        return None


def members(handle):
    return json_array_members(handle, _page_name)


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _page_tables(page, diagnostics: Diagnostics, number: int) -> Document:
    if page.__class__ is not dict or not isinstance(page.get("layout_dets", []), list):
        raise diagnostics.fail("omnidocbench-invalid", "not an OmniDocBench page (an object with layout_dets)")
    truncated = set()
    for relation in _list(_dict(page.get("extra")).get("relation")):
        if isinstance(relation, dict) and relation.get("relation_type") == "truncated":
            truncated.update((relation.get("source_anno_id"), relation.get("target_anno_id")))
    blocks = [b for b in page.get("layout_dets", []) if isinstance(b, dict) and b.get("category_type") == "table"]
    blocks.sort(key=lambda b: b.get("order") if isinstance(b.get("order"), (int, float)) and b.get("order") else 0)
    sources, latex, labels = [], [], []
    for block in blocks:
        if "html" not in block or block.get("anno_id") in truncated:
            diagnostics.warning("omnidocbench-would-fail", f"table block {block.get('anno_id')!r}: "
                                + ("in a truncated relation" if "html" in block else "without html")
                                + ": OmniDocBench's evaluation fails on this page")
        html = str(block.get("html") or "")
        if html:
            sources.append(html)
            latex.append(bool(block.get("latex")))
            labels.append(attribute_labels(block.get("attribute")))
    doc = tables_document(sources, latex, diagnostics, page=number, labels=labels)
    doc.metadata[PAGE_LABELS] = json.dumps(page_labels(_dict(page.get("page_info")).get("page_attribute")))
    return doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    if value.__class__ is list:  # the whole file: its pages one after another
        doc = Document()
        kept: list = []
        for number, page in enumerate(value, 1):
            one = _page_tables(page, diagnostics, number)
            for table in one.tables:
                table.id = len(doc.tables)
                doc.tables.append(table)
            kept += json.loads(one.metadata[SOURCES])
        doc.metadata[SOURCES] = json.dumps(kept, ensure_ascii=False)
        return doc
    doc = _page_tables(value, diagnostics, options.page or 1)
    image = _dict(value.get("page_info")).get("image_path") if value.__class__ is dict else None
    if isinstance(image, str):
        doc.filename = os.path.basename(image)
    return doc


def sniff(head: bytes) -> bool:
    return False  # chosen by name (--gt-format omnidocbench, or the profile)


FORMAT = DECLARED["omnidocbench"]
