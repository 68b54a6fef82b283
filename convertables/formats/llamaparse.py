"""LlamaParse's JSON result (docs/formats.md, `llamaparse`), read only.

A result is a JSON object with ``pages`` (and ``job_metadata``, ``job_id``);
the Python client's ``get_json_result`` gives a list of them, one a file,
whose pages are taken together. Each page has ``page`` (from 1; else its
place), ``width``, ``height`` and ``items``; each item of ``type: "table"``
is a table. Its cells come from its ``html`` (read by the HTML table model)
where it is a non-empty string, else from its ``rows``: a list of rows, each
a list of cell texts, every cell one slot (``rows`` has no spans and no
header, and none is made up). Its box is ``bBox`` (``x``, ``y``, ``w``,
``h``) in the page's units with the origin top-left, PDF points for a PDF:
with the page's ``height`` it is turned into the ``pdf`` frame; without it,
it stays an image box at 72 DPI.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import PageFrame, convert_box
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, number, parse_json
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from ..parser_json import Findings, one_table, short
from .declarations import DECLARED


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = Findings()
        self.doc = Document()
        self.heights: dict[int, float] = {}

    def box(self, value, page: int, where: str) -> BBox | None:
        if value is None:
            return None
        get = value.get if type(value) is dict else None
        x, y, w, h = (number(get(k)) for k in "xywh") if get else (None,) * 4
        if x is None or y is None or w is None or h is None:
            self.findings.add("llamaparse-bad-value", "a bBox without four numbers x, y, w and h: no box", where,
                              error=True)
            return None
        if w < 0 or h < 0:
            self.findings.add("box-inverted", "a bBox with a negative w or h: its corners are swapped", where)
        box = BBox(min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h), Frame.IMAGE)
        if page in self.heights:
            return convert_box(box, Frame.PDF, PageFrame(72.0, self.heights[page]))
        return box

    def rows(self, value, where: str) -> list[Cell]:
        cells = []
        for r, row in enumerate(value):
            if type(row) is not list:
                self.findings.add("llamaparse-bad-value", "a row that is not a list: left out",
                                  f"row {r} of {where}", error=True)
                continue
            for c, text in enumerate(row):
                if type(text) is not str:
                    self.findings.add("llamaparse-bad-value", "a cell that is not text: read as blank",
                                      f"{short(text)} in row {r} of {where}", error=True)
                    text = ""
                cells.append(Cell(r, c, r, c, text))
        return cells

    def table(self, item: dict, page: int, where: str) -> None:
        box = self.box(item.get("bBox"), page, where)
        html, rows = item.get("html"), item.get("rows")
        first = len(self.doc.tables)
        if type(html) is str and html.strip():
            self.doc.tables += one_table(html, self.diagnostics, where, first, page, box)
        elif type(rows) is list:
            self.doc.tables.append(Table(first, [Region(0, page, box, cells=self.rows(rows, where))]))
        else:
            self.findings.add("llamaparse-bad-value", "a table item with neither html nor rows: a table without "
                                                      "cells", where)
            self.doc.tables.append(Table(first, [Region(0, page, box)]))

    def page(self, value, place: int) -> None:
        where = f"page {place}"
        if type(value) is not dict:
            self.findings.add("llamaparse-bad-value", "a page that is not an object: left out", where)
            return
        number_ = integer(value.get("page"))
        if number_ is None or not 1 <= number_ <= NUMBER_LIMIT:
            if value.get("page") is not None:
                self.findings.add("llamaparse-bad-value", "a page number that is not a whole number from 1: read "
                                                          "as the page's place", f"{short(value.get('page'))} "
                                                                                 f"in {where}")
            number_ = place
        width, height = number(value.get("width")), number(value.get("height"))
        if width and height and width > 0 and height > 0 and number_ not in self.heights:
            self.heights[number_] = height
            self.doc.pages.append(Page(number_, width, height, Frame.PDF))
        items = value.get("items")
        if items is None:
            return
        if type(items) is not list:
            self.findings.add("llamaparse-bad-value", "items that are not a list: left out", where, error=True)
            return
        for k, item in enumerate(items):
            if type(item) is not dict:
                self.findings.add("llamaparse-bad-value", "an item that is not an object: left out",
                                  f"item {k} of {where}")
            elif item.get("type") == "table":
                self.table(item, number_, f"item {k} of page {number_}")


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    results = value if type(value) is list else [value]
    reader = _Reader(diagnostics)
    place = 0
    for result in results:
        pages = result.get("pages") if type(result) is dict else None
        if type(pages) is not list:
            raise diagnostics.fail("llamaparse-invalid", "not a LlamaParse JSON result: no pages list")
        for page in pages:
            place += 1
            reader.page(page, place)
    reader.findings.report(diagnostics)
    reader.doc.pages.sort(key=lambda p: p.number)
    return reader.doc


_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*[\[{]")
_PAGES = re.compile(rb'(?<!\\)"pages"\s*:\s*\[')
_ITEMS = re.compile(rb'(?<!\\)"items"\s*:\s*\[')
_MD = re.compile(rb'(?<!\\)"md"\s*:\s*"')


def sniff(head: bytes) -> bool:
    """A JSON value with a ``pages`` list whose pages have ``items`` and ``md`` (Markdown) texts."""
    return _START.match(head) is not None and _PAGES.search(head) is not None \
        and _ITEMS.search(head) is not None and _MD.search(head) is not None


FORMAT = DECLARED["llamaparse"]
