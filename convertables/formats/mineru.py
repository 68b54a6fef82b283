"""MinerU's content lists (docs/formats.md, `mineru`): ``*_content_list.json``
and ``*_content_list_v2.json``, read only.

``content_list.json`` is a flat list of blocks in reading order. Each block
of ``type: "table"`` is a table: its ``table_body`` is the table's HTML (read
by the HTML table model; a table without one, MinerU having kept only its
image, is a table without cells), ``page_idx`` its page (0-based: page
``page_idx + 1``), ``bbox`` its box, ``table_caption`` and ``table_footnote``
lists of strings.

``content_list_v2.json`` is a list of pages, each a list of items; an item of
``type: "table"`` holds ``content.html``, ``content.table_caption`` and
``content.table_footnote`` (lists of spans, each with a ``content`` text),
and the item's ``bbox``. Its page is its place in the list.

Boxes are ``[x0, y0, x1, y1]`` mapped to 0-1000 of the page's width and
height, origin top-left: read as fractions of the page (:attr:`Frame.PAGE`).
Captions and footnotes go to ``Document.metadata`` as
``table_<id>_caption`` and ``table_<id>_footnote`` (one line each).

Other blocks (text, images, equations...) are not tables and are passed over.
A block that is not an object, or a value of the wrong type (a ``page_idx``
written as a string), is reported once per kind (``mineru-bad-value``) and
left out or read without that value.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, parse_json
from ..model import Document, Frame, Region, Table
from ..options import ReadOptions
from ..parser_json import Findings, corner_box, one_table, short
from .declarations import DECLARED


SCALE = 1000.0
"""MinerU's boxes are mapped to 0-1000 of the page."""


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()

    def texts(self, value, where: str, spans: bool) -> str:
        """A caption or footnote, on one line: a list of strings (content_list,
        one a paragraph) or of inline spans with a ``content`` (v2, run together)."""
        if value is None:
            return ""
        if type(value) is not list:
            self.findings.add("mineru-bad-value", "a caption or footnote that is not a list: left out", where)
            return ""
        found = []
        for item in value:
            text = item.get("content") if spans and type(item) is dict else item
            if type(text) is str:
                found.append(text)
            else:
                self.findings.add("mineru-bad-value", "a caption or footnote part that is not text: left out",
                                  f"{short(item)} in {where}")
        return " ".join(("" if spans else " ").join(found).split())

    def table(self, html, page: int, box_value, where: str, caption: str, footnote: str) -> None:
        first = len(self.doc.tables)
        box = corner_box(box_value, SCALE, Frame.PAGE, self.findings, where)
        if html is None or (type(html) is str and not html.strip()):
            self.diagnostics.info("mineru-no-body", f"{where}: a table without HTML (only its image): a table "
                                                    "without cells")
            self.doc.tables.append(Table(first, [Region(0, page, box)]))
        elif type(html) is not str:
            self.findings.add("mineru-bad-value", "a table whose HTML is not a string: left out",
                              f"{short(html)} in {where}", error=True)
            return
        else:
            self.doc.tables += one_table(html, self.diagnostics, where, first, page, box)
        if len(self.doc.tables) > first:
            if caption:
                self.doc.metadata[f"table_{first}_caption"] = caption
            if footnote:
                self.doc.metadata[f"table_{first}_footnote"] = footnote

    def page_index(self, block: dict, where: str) -> int:
        value = block.get("page_idx")
        found = integer(value)
        if found is not None and 0 <= found < NUMBER_LIMIT:
            return found + 1
        self.findings.add("mineru-bad-value", "a page_idx that is missing or not a whole number from 0: read "
                                              "as page 1", f"page_idx={short(value)} in {where}")
        return 1

    def content_list(self, blocks: list) -> None:
        for k, block in enumerate(blocks):
            where = f"block {k}"
            if type(block) is not dict:
                self.findings.add("mineru-bad-value", "a block that is not an object: left out", where)
                continue
            if block.get("type") != "table":
                continue
            self.table(block.get("table_body"), self.page_index(block, where), block.get("bbox"), where,
                       self.texts(block.get("table_caption"), where, spans=False),
                       self.texts(block.get("table_footnote"), where, spans=False))

    def content_list_v2(self, pages: list) -> None:
        for number, items in enumerate(pages, 1):
            if type(items) is not list:
                self.findings.add("mineru-bad-value", "a page that is not a list of items: left out",
                                  f"page {number}")
                continue
            for k, item in enumerate(items):
                where = f"page {number} item {k}"
                if type(item) is not dict:
                    self.findings.add("mineru-bad-value", "an item that is not an object: left out", where)
                    continue
                if item.get("type") != "table":
                    continue
                content = item.get("content")
                if type(content) is not dict:
                    self.findings.add("mineru-bad-value", "a table whose content is not an object: left out",
                                      where, error=True)
                    continue
                self.table(content.get("html"), number, item.get("bbox"), where,
                           self.texts(content.get("table_caption"), where, spans=True),
                           self.texts(content.get("table_footnote"), where, spans=True))


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    if type(value) is not list:
        raise diagnostics.fail("mineru-invalid", f"not a MinerU content list: a JSON {type(value).__name__}, "
                                                 "not a list of blocks (or of pages)")
    reader = _Reader(diagnostics)
    if value and all(type(page) is list for page in value):
        reader.content_list_v2(value)
    else:
        reader.content_list(value)
    reader.findings.report(diagnostics)
    return reader.doc


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\[")
_PAGES_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\[\s*\[")
_PAGE_IDX = re.compile(rb'(?<!\\)"page_idx"\s*:\s*-?\d')
_TYPE = re.compile(rb'(?<!\\)"type"\s*:\s*"[a-z_]+"')
_CONTENT_OBJECT = re.compile(rb'(?<!\\)"content"\s*:\s*\{')


def sniff(head: bytes) -> bool:
    """A JSON list of blocks with a ``type`` and a numeric ``page_idx``
    (content_list), or a list of lists of items whose ``content`` is an object
    (content_list_v2; MinerU's model.json, whose content is a string, is not)."""
    if _START.match(head) is None:
        return False
    # (each plain search first: it is faster, and settles most heads of other formats)
    if _PAGES_START.match(head):
        found = b'"content"' in head and _CONTENT_OBJECT.search(head) is not None
    else:
        found = b'"page_idx"' in head and _PAGE_IDX.search(head) is not None
    return found and _TYPE.search(head) is not None


FORMAT = DECLARED["mineru"]
