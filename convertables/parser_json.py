"""What the readers of document parsers' JSON outputs share (MinerU, Marker,
Unstructured, PaddleOCR, LlamaParse, Upstage): their tables come as HTML
strings or cell lists inside a JSON walk of their own.

* :func:`html_tables` reads a table's HTML string with the one HTML table
  model (:mod:`convertables.html_tables`), so that every format's HTML is
  read alike (spans, header cells, cells written outside a row, inline
  markup kept for TEDS).
* :class:`Findings` counts a walk's findings by kind and says each once: a
  hostile file may hold a million bad items, which must not give a million
  diagnostics.
* :func:`short` shows a JSON value in a message, cut short.
* :func:`upstage_elements` reads Upstage's elements, which its API's
  responses and the DP-Bench files both hold.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from .diagnostics import Diagnostics, InputError
from .geometry import polygon_envelope
from .html_tables import read_tables
from .grid import NUMBER_LIMIT
from .jsonsafe import integer, number, parse_json
from .model import BBox, Document, Frame, Region, Table

MAX_HTML_CHARS = 16 << 20
"""The longest HTML string of one table read (a longer one is left out, ``parser-too-large``)."""


def html_tables(text: str, diagnostics: Diagnostics, where: str, first_id: int, page: int) -> list[Table]:
    """The tables of one HTML string, in document order (a nested table is a
    table of its own), numbered from ``first_id``, on ``page``: each with its
    cells and its HTML skeleton (for TEDS). Findings of the HTML table model
    are said of ``where`` (the item the string came from), without the HTML's
    own lines, which are not the file's."""
    if len(text) > MAX_HTML_CHARS:
        diagnostics.error("parser-too-large", f"{where}: an HTML string of {len(text):,} characters, more than the "
                                              f"{MAX_HTML_CHARS:,} read: the table is left out")
        return []
    if not text.strip():
        return []
    own = Diagnostics(diagnostics.file)
    try:
        tables = read_tables(text, own, page=page, first_id=first_id)
    except InputError as exc:
        diagnostics.error(exc.diagnostic.code, f"{where}: {exc.diagnostic.message}: the table is left out")
        return []
    finally:
        diagnostics.items.extend(replace(d, line=None, column=None, message=f"{where}: {d.message}")
                                 for d in own.items)
    return tables


def one_table(text: str, diagnostics: Diagnostics, where: str, table_id: int, page: int, bbox=None) -> list[Table]:
    """The tables of one item's HTML string as tables of the document, from
    ``table_id`` on, on ``page``; the item's box is the region's of the first
    (a second table in one string is a nested one: no box of its own)."""
    tables = html_tables(text, diagnostics, where, table_id, page)
    if tables and tables[0].regions:
        tables[0].regions[0].bbox = bbox
    return tables


_TAG = re.compile(r"<[^<>]*>")
_SPACES = re.compile(r"\s+")


def markup_text(value: str) -> str:
    """The text of a caption written as HTML or Markdown-with-tags (Marker's
    ``<p>...</p>``): tags dropped, entities resolved, whitespace collapsed."""
    return _SPACES.sub(" ", html.unescape(_TAG.sub(" ", value))).strip()


class Findings:
    """Warnings and errors counted by kind and said once each at the end."""

    def __init__(self):
        self.seen: dict[tuple[str, str, bool], list] = {}

    def add(self, code: str, kind: str, example: str, error: bool = False) -> None:
        entry = self.seen.get((code, kind, error))
        if entry is None:
            self.seen[(code, kind, error)] = [1, example]
        else:
            entry[0] += 1

    def report(self, diagnostics: Diagnostics) -> None:
        for (code, kind, error), (count, example) in self.seen.items():
            times = f"{count} times; first: " if count > 1 else ""
            (diagnostics.error if error else diagnostics.warning)(code, f"{kind} ({times}{example})")


def short(value) -> str:
    """A JSON value as Python writes it (``'1'`` a string, ``1`` a number), cut short."""
    if type(value) in (list, dict):
        return f"a JSON {'list' if type(value) is list else 'object'}"
    text = repr(value[:60] if type(value) is str else value)
    return text if len(text) <= 48 else text[:45] + "..."


def corner_box(value, scale: float, frame: Frame, findings: Findings, where: str) -> BBox | None:
    """``[x0, y0, x1, y1]`` (each divided by ``scale``) as a box in ``frame``, or
    None (a finding) where it is not four finite numbers. Swapped corners are
    put in order, with a ``box-inverted`` warning."""
    if value is None:
        return None
    found = [number(v) for v in value] if type(value) is list and len(value) == 4 else None
    if found is None or None in found:
        findings.add("parser-bad-value", "a box that is not four numbers: no box", f"{short(value)} in {where}",
                     error=True)
        return None
    x0, y0, x1, y1 = (v / scale for v in found)
    if x0 > x1 or y0 > y1:
        findings.add("box-inverted", "a box whose corners are swapped: read in order", where)
    return BBox(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), frame)


def point_box(value, scale: float, frame: Frame, findings: Findings, where: str) -> BBox | None:
    """A polygon (``[[x, y], ...]`` or ``[{"x": x, "y": y}, ...]``, each divided
    by ``scale``) as its enclosing box in ``frame``, the polygon kept; None (a
    finding) where it is not points of finite numbers."""
    if value is None:
        return None
    points = []
    if type(value) is list and 0 < len(value) <= 64:
        for point in value:
            if type(point) is list and len(point) == 2:
                x, y = number(point[0]), number(point[1])
            elif type(point) is dict:
                x, y = number(point.get("x")), number(point.get("y"))
            else:
                x = y = None
            if x is None or y is None:
                points = None
                break
            points.append((x / scale, y / scale))
    else:
        points = None
    if not points:
        findings.add("parser-bad-value", "coordinates that are not a list of points: no box",
                     f"{short(value)} in {where}", error=True)
        return None
    return polygon_envelope(points, frame)


def unstructured_elements(data: bytes, diagnostics: Diagnostics) -> list:
    """The list of elements an Unstructured JSON file holds (``unstructured-invalid`` where it is no list)."""
    value = parse_json(data, diagnostics)
    if type(value) is not list:
        raise diagnostics.fail("unstructured-invalid", f"not Unstructured elements: a JSON {type(value).__name__}, "
                                                       "not a list of elements")
    return value


def upstage_elements(elements: list, diagnostics: Diagnostics, findings: Findings) -> Document:
    """The tables of Upstage Document Parse elements (a response's ``elements``,
    or a DP-Bench entry's): each element whose ``category`` is ``table`` (in
    any case: DP-Bench writes ``Table``) is a table, its HTML ``content.html``
    (the layout analysis API's ``html``), its page ``page`` (from 1), its box
    the ``coordinates`` polygon in fractions of the page (the layout analysis
    API's ``bounding_box``: pixels)."""
    doc = Document()
    bad = "upstage-bad-value"
    for k, element in enumerate(elements):
        where = f"element {k}"
        if type(element) is not dict:
            findings.add(bad, "an element that is not an object: left out", where)
            continue
        category = element.get("category")
        if type(category) is not str or category.lower() != "table":
            continue
        page_value = element.get("page", 1)
        page = integer(page_value)
        if page is None or not 1 <= page <= NUMBER_LIMIT:
            findings.add(bad, "a page that is not a whole number from 1: read as page 1",
                         f"page={short(page_value)} in {where}")
            page = 1
        if element.get("coordinates") is not None:
            box = point_box(element["coordinates"], 1.0, Frame.PAGE, findings, where)
        elif element.get("bounding_box") is not None:
            box = point_box(element["bounding_box"], 1.0, Frame.IMAGE, findings, where)
        else:
            box = None
        content = element.get("content")
        html = content.get("html") if type(content) is dict else element.get("html")
        if html is None or (type(html) is str and not html.strip()):
            diagnostics.info("upstage-no-html", f"{where}: a table without HTML (asked for another output "
                                                  "format?): a table without cells")
            doc.tables.append(Table(len(doc.tables), [Region(0, page, box)]))
        elif type(html) is not str:
            findings.add(bad, "a table whose HTML is not a string: left out", f"{short(html)} in {where}",
                         error=True)
        else:
            doc.tables += one_table(html, diagnostics, where, len(doc.tables), page, box)
    return doc
