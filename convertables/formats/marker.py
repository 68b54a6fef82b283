"""Marker's JSON output (docs/formats.md, `marker`): ``--output_format json``
and ``--output_format chunks``, read only.

The JSON output is a tree: the document's ``children`` are its pages
(``block_type: "Page"``), whose children are blocks, some with children of
their own. Every block of ``block_type: "Table"`` is a table: its ``html``
is the table's HTML (read by the HTML table model), its page the ``N`` of its
``id`` (``/page/N/Table/M``, 0-based: page ``N + 1``; else its Page's), its
``bbox`` its box. Its ``TableCell`` children (each with the ``html`` of one
``<td>``/``<th>`` and a ``bbox``) are the cells of that HTML in the same
order: where there are as many as the HTML has cells, each gives its box to
its cell; otherwise the cells have no box (``marker-cell-boxes``). A
``TableGroup`` holding a table holds its ``Caption`` blocks too: their text
is the table's caption (``table_<id>_caption``). ``TableOfContents`` blocks
are not tables.

The chunks output is a flat ``blocks`` list: each ``Table`` block's ``html``
is read, and each ``TableGroup``'s (whose HTML holds the table and its
caption paragraphs, which are not cells).

Boxes are ``[x0, y0, x1, y1]`` in PDF points with the origin top-left; the
Page block's ``bbox`` (``[0, 0, width, height]``; ``page_info`` in chunks)
gives the page's size, with which they are turned into PDF points (the
``pdf`` frame). Without it they stay as image boxes at 72 DPI.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import PageFrame, convert_box
from ..jsonsafe import number, parse_json
from ..model import Document, Frame, Page
from ..options import ReadOptions
from ..parser_json import Findings, corner_box, markup_text, one_table, short
from .declarations import DECLARED


_PAGE_IN_ID = re.compile(r"/page/(\d{1,9})/")
MAX_BLOCKS = 10_000_000
"""Blocks looked at in all (a tree is walked without recursion)."""


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()
        self.heights: dict[int, float] = {}

    def page_of(self, block: dict, default: int) -> int:
        block_id = block.get("id")
        match = _PAGE_IN_ID.match(block_id) if type(block_id) is str else None
        return int(match.group(1)) + 1 if match else default

    def page_size(self, page: int, box_value) -> None:
        if type(box_value) is list and len(box_value) == 4:
            values = [number(v) for v in box_value]
            if None not in values and values[2] > values[0] and values[3] > values[1] and page not in self.heights:
                width, height = values[2] - values[0], values[3] - values[1]
                self.heights[page] = height
                self.doc.pages.append(Page(page, width, height, Frame.PDF))

    def box(self, value, page: int, where: str):
        box = corner_box(value, 1.0, Frame.IMAGE, self.findings, where)
        if box is not None and page in self.heights:
            return convert_box(box, Frame.PDF, PageFrame(72.0, self.heights[page]))
        return box

    def table(self, block: dict, page: int, where: str, captions: list[str]) -> None:
        html = block.get("html")
        if type(html) is not str:
            self.findings.add("marker-bad-value", "a Table whose html is not a string: left out", where, error=True)
            return
        first = len(self.doc.tables)
        tables = one_table(html, self.diagnostics, where, first, page, self.box(block.get("bbox"), page, where))
        self.doc.tables += tables
        if not tables:
            return
        children = block.get("children")
        cells_with_boxes = [c for c in children if type(c) is dict and c.get("block_type") == "TableCell"] \
            if type(children) is list else []
        cells = tables[0].regions[0].cells
        if cells_with_boxes and len(cells_with_boxes) == len(cells):
            for cell, child in zip(cells, cells_with_boxes):
                cell.bbox = self.box(child.get("bbox"), page, f"a TableCell of {where}")
        elif cells_with_boxes:
            self.findings.add("marker-cell-boxes", "a Table whose TableCell children are not as many as its HTML's "
                                                   "cells: its cells have no box",
                              f"{where}: {len(cells_with_boxes)} TableCell(s), {len(cells)} cell(s)")
        if captions:
            self.doc.metadata[f"table_{first}_caption"] = " ".join(captions)

    def tree(self, root: dict) -> None:
        """The JSON output: pages, then their blocks, depth first in document order."""
        pages = root.get("children")
        if type(pages) is not list:
            raise self.diagnostics.fail("marker-invalid", "not Marker JSON: the document has no children list")
        stack = [(block, k + 1) for k, block in reversed(list(enumerate(pages)))]
        seen = 0
        while stack:
            block, page = stack.pop()
            seen += 1
            if seen > MAX_BLOCKS:
                raise self.diagnostics.fail("too-large", f"more than {MAX_BLOCKS:,} blocks")
            if type(block) is not dict:
                self.findings.add("marker-bad-value", "a block that is not an object: left out", f"on page {page}")
                continue
            kind = block.get("block_type")
            page = self.page_of(block, page)
            where = f"block {short(block.get('id'))}"
            if kind == "Page":
                self.page_size(page, block.get("bbox"))
            if kind == "Table":
                self.table(block, page, where, [])
                continue
            children = block.get("children")
            if children is None:
                continue
            if type(children) is not list:
                self.findings.add("marker-bad-value", "children that are not a list: left out", where)
                continue
            if kind == "TableGroup":
                captions = [markup_text(c["html"]) for c in children if type(c) is dict
                            and c.get("block_type") == "Caption" and type(c.get("html")) is str]
                tables = [c for c in children if type(c) is dict and c.get("block_type") == "Table"]
                if len(tables) == 1:  # (its captions are that table's)
                    self.table(tables[0], self.page_of(tables[0], page), f"block {short(tables[0].get('id'))}",
                               [c for c in captions if c])
                    children = [c for c in children if c is not tables[0]]
            stack += [(child, page) for child in reversed(children)]

    def chunks(self, root: dict) -> None:
        """The chunks output: a flat list of blocks, and the pages' boxes in ``page_info``."""
        info = root.get("page_info")
        if type(info) is dict:
            for key, value in info.items():
                if type(key) is str and key.isdigit() and len(key) < 10 and type(value) is dict:
                    self.page_size(int(key) + 1, value.get("bbox"))
        for k, block in enumerate(root["blocks"]):
            if type(block) is not dict:
                self.findings.add("marker-bad-value", "a block that is not an object: left out", f"block {k}")
                continue
            if block.get("block_type") in ("Table", "TableGroup"):
                self.table(block, self.page_of(block, 1), f"block {short(block.get('id'))}", [])


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    if type(value) is not dict:
        raise diagnostics.fail("marker-invalid", f"not Marker JSON: a JSON {type(value).__name__}, not an object")
    reader = _Reader(diagnostics)
    if type(value.get("blocks")) is list:
        reader.chunks(value)
    else:
        reader.tree(value)
    reader.findings.report(diagnostics)
    reader.doc.pages.sort(key=lambda p: p.number)
    return reader.doc


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\{")
_PAGE_ID = re.compile(rb'(?<!\\)"id"\s*:\s*"/page/\d+/')
_BLOCK_TYPE = re.compile(rb'(?<!\\)"block_type"\s*:\s*"[A-Z][A-Za-z]*"')


def sniff(head: bytes) -> bool:
    """A JSON object whose blocks have Marker's ids (``"/page/0/Page/164"``) and a ``block_type``."""
    return _START.match(head) is not None and _PAGE_ID.search(head) is not None \
        and _BLOCK_TYPE.search(head) is not None


FORMAT = DECLARED["marker"]
