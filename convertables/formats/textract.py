"""AWS Textract table analysis JSON (docs/formats.md, `textract`): what
AnalyzeDocument (``FeatureTypes=["TABLES"]``) and StartDocumentAnalysis /
GetDocumentAnalysis return, read only.

The input is one response (an object with a ``Blocks`` list) or a JSON list of
responses, as GetDocumentAnalysis returns its pages of blocks (``NextToken``):
their blocks are taken together, so that a relationship may point into another
response. A job that ``FAILED`` or is ``IN_PROGRESS`` is refused
(``textract-job``); ``PARTIAL_SUCCESS`` is read with a warning.

Every ``TABLE`` block is a table of one region, on its ``Page`` (else the page
of the ``PAGE`` block listing it as a child: that block's ``Page``, else its
place among the ``PAGE`` blocks; else 1). Tables are put in reading order: by
page, then the top and left of their boxes. Textract gives one TABLE per page
and nothing in the response links a table's parts across pages, so each stays
a table of its own. Its ``CELL`` children (``CHILD`` relationship) are its
cells: ``RowIndex``/``ColumnIndex`` 1-based, ``RowSpan``/``ColumnSpan`` (1
where absent). A cell's text is its ``WORD`` children's ``Text`` joined by
single spaces in the order the relationship lists them (Textract's reading
order); a ``SELECTION_ELEMENT`` child adds its ``SelectionStatus``
(``SELECTED``/``NOT_SELECTED``), as Textract's own response parser does; a
cell without children is blank (``""``). A cell is a header when its
``EntityTypes`` hold ``COLUMN_HEADER``; ``TABLE_TITLE``, ``TABLE_FOOTER``,
``TABLE_SECTION_TITLE`` and ``TABLE_SUMMARY`` cells are plain cells of the grid.

A ``MERGED_CELL`` (``MERGED_CELL`` relationship of the table) becomes one
spanning cell by its own indices and spans, in place of the cells it covers:
its ``CHILD`` cells inside its span and any other cell of the table that
starts inside it. Its text is theirs (the non-blank ones, by row then column,
joined by a space); it is a header if it or any of them is. Child cells
outside its span stay cells of their own (``textract-merged-cell`` warning).

The ``TABLE_TITLE`` and ``TABLE_FOOTER`` blocks a table links to (``TITLE``
and ``FOOTER`` in early responses) are kept as ``Document.metadata``
``table_<id>_title`` / ``table_<id>_footer`` (their words, several blocks one
per line); ``AnalyzeDocumentModelVersion`` as ``generator``,
``DocumentMetadata.Pages`` as ``pages``.

Boxes are ``Geometry.BoundingBox`` (``Left``, ``Top``, ``Width``, ``Height``)
in :attr:`Frame.PAGE` (fractions of the page, origin top-left); the polygon,
a rectangle in practice, is not kept. Writers convert them to points given
the page size (``--pdf``, ``--page-width``/``--page-height``).

Hostile input ends in bounded time and memory: :func:`parse_json` refuses
oversized and too deeply nested JSON; the walk never recurses (TABLE -> CELL ->
WORD, TABLE -> MERGED_CELL -> CELL), so relationship cycles cannot loop: a
child of an unexpected type (a cycle always holds one) is left out
(``textract-relationship``), as are ids no block has (``textract-missing-block``).
Values of the wrong type (numbers written as strings, a ``Page`` of 0) leave
their cell, box or page out (``textract-bad-value``). Such findings are counted
and said once per kind, with the first example.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import envelope
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, number, parse_json
from ..model import BBox, Cell, Document, Frame, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED

HEADER_TYPES = frozenset({"COLUMN_HEADER"})
"""The ``EntityTypes`` that make a cell a header."""
CAPTION_LINKS = {"TABLE_TITLE": "title", "TITLE": "title", "TABLE_FOOTER": "footer", "FOOTER": "footer"}
"""A table's relationships to its title and footer blocks (``TITLE``/``FOOTER`` in early responses)."""
TEXT_BLOCKS = frozenset({"WORD", "SELECTION_ELEMENT"})


class _Findings:
    """Warnings counted by kind and said once each at the end: a hostile file
    may hold a million bad cells, which must not give a million diagnostics."""

    def __init__(self):
        self.seen: dict[tuple[str, str], list] = {}

    def add(self, code: str, kind: str, example: str) -> None:
        entry = self.seen.get((code, kind))
        if entry is None:
            self.seen[(code, kind)] = [1, example]
        else:
            entry[0] += 1

    def report(self, diagnostics: Diagnostics) -> None:
        for (code, kind), (count, example) in self.seen.items():
            times = f"{count} times; first: " if count > 1 else ""
            # (something left out, a cell, its text or its box, is content lost: an error, as for every format)
            lost = "left out" in kind or kind.endswith("no box")
            (diagnostics.error if lost else diagnostics.warning)(code, f"{kind} ({times}{example})")


def _short(value) -> str:
    """A JSON value as Python writes it (``'1'`` a string, ``1`` a number), cut short."""
    if type(value) in (list, dict):
        return f"a JSON {'list' if type(value) is list else 'object'}"
    text = repr(value[:60] if type(value) is str else value)
    return text if len(text) <= 48 else text[:45] + "..."


def _type(block: dict) -> str:
    """A block's BlockType, for messages (and for matching: a name, whatever the JSON holds)."""
    block_type = block.get("BlockType")
    return block_type[:30] if type(block_type) is str else _short(block_type)


def _name(block: dict) -> str:
    """A block, for messages: its type and id."""
    return f"{_type(block)} {_short(block.get('Id'))}"


class _Reader:
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.findings = _Findings()
        self.by_id: dict[str, dict] = {}

    # -- values ------------------------------------------------------------------------------

    def index(self, block: dict, key: str, default: int | None = None) -> int | None:
        """A positive integer field (RowIndex, RowSpan...), or None (a finding) where there is none."""
        value = block.get(key)
        if value is None and default is not None:
            return default
        found = integer(value)
        if found is not None and 1 <= found <= NUMBER_LIMIT:
            return found
        self.findings.add("textract-bad-value", f"a {key} that is missing or not a positive integer (a number "
                                                f"written as a string?): the {_type(block)} is left out",
                          f"{key}={_short(value)} in {_name(block)}")
        return None

    def page(self, block: dict) -> int | None:
        value = block.get("Page")
        if value is None:
            return None
        found = integer(value)
        if found is not None and 1 <= found <= NUMBER_LIMIT:
            return found
        self.findings.add("textract-bad-value", "a Page that is not a positive integer: the page is taken from "
                                                "the PAGE blocks", f"Page={_short(value)} in {_name(block)}")
        return None

    def box(self, block: dict) -> BBox | None:
        geometry = block.get("Geometry")
        if geometry is None:
            return None
        bounds = geometry.get("BoundingBox") if type(geometry) is dict else None
        if type(bounds) is dict:
            left, top, width, height = (number(bounds.get(k)) for k in ("Left", "Top", "Width", "Height"))
            if left is not None and top is not None and width is not None and height is not None:
                if width < 0 or height < 0:
                    self.findings.add("box-inverted", "a BoundingBox with a negative Width or Height: its corners "
                                                      "are swapped", _name(block))
                x1, x2 = sorted((left, left + width))
                y1, y2 = sorted((top, top + height))
                return BBox(x1, y1, x2, y2, Frame.PAGE)
        self.findings.add("textract-bad-value", "a Geometry without a BoundingBox of four numbers: no box",
                          _name(block))
        return None

    # -- relationships -----------------------------------------------------------------------

    def related(self, block: dict, kinds) -> list[tuple[str, dict]]:
        """The blocks that ``block``'s relationships of the given types name, in order."""
        relationships = block.get("Relationships")
        if relationships is None:
            return []
        if type(relationships) is not list:
            self.findings.add("textract-bad-value", "Relationships that are not a list: left out", _name(block))
            return []
        found = []
        for relationship in relationships:
            kind = relationship.get("Type") if type(relationship) is dict else None
            if kind not in kinds:
                continue
            ids = relationship.get("Ids")
            if type(ids) is not list:
                self.findings.add("textract-bad-value", "a relationship whose Ids are not a list: left out",
                                  _name(block))
                continue
            for block_id in ids:
                target = self.by_id.get(block_id) if type(block_id) is str else None
                if target is None:
                    self.findings.add("textract-missing-block", "a relationship names an Id no block has: left out",
                                      f"{_short(block_id)} in {_name(block)}")
                else:
                    found.append((kind, target))
        return found

    def text(self, block: dict) -> str:
        """The words of a cell, title or footer, joined by single spaces."""
        words = []
        for _, child in self.related(block, ("CHILD",)):
            child_type = child.get("BlockType")
            value = child.get("Text") if child_type == "WORD" else child.get("SelectionStatus")
            if not isinstance(child_type, str) or child_type not in TEXT_BLOCKS:
                self.unexpected(block, child)
            elif type(value) is str:
                if value:
                    words.append(value)
            else:
                self.findings.add("textract-bad-value", "a WORD without Text, or a SELECTION_ELEMENT without "
                                                        "SelectionStatus: left out", _name(child))
        return " ".join(words)

    def unexpected(self, parent: dict, child: dict) -> None:
        self.findings.add("textract-relationship", f"a {_type(parent)} with a {_type(child)} child (a "
                                                   "relationship cycle, or a block of another kind): left out",
                          f"{_name(child)} under {_name(parent)}")

    # -- cells and tables --------------------------------------------------------------------

    def cell(self, block: dict, words: bool = True) -> Cell | None:
        """A CELL (or, without ``words``, a MERGED_CELL, whose children are cells)."""
        row, col = self.index(block, "RowIndex"), self.index(block, "ColumnIndex")
        rows, cols = self.index(block, "RowSpan", 1), self.index(block, "ColumnSpan", 1)
        if row is None or col is None or rows is None or cols is None:
            return None
        kinds = block.get("EntityTypes")
        header = type(kinds) is list and any(type(k) is str and k in HEADER_TYPES for k in kinds)
        return Cell(row - 1, col - 1, row + rows - 2, col + cols - 2, self.text(block) if words else "", None,
                    self.box(block), header)

    def region(self, table: dict, page: int) -> Region:
        cells: dict[int, Cell] = {}  # by the id() of their CELL block: each once
        merged: dict[int, dict] = {}
        for _, child in self.related(table, ("CHILD", "MERGED_CELL")):
            child_type = child.get("BlockType")
            if child_type == "MERGED_CELL":
                merged.setdefault(id(child), child)
            elif child_type != "CELL":
                self.unexpected(table, child)
            elif id(child) not in cells:
                cell = self.cell(child)
                if cell is not None:
                    cells[id(child)] = cell
        if merged:
            self.merge(cells, list(merged.values()))
        found = sorted(cells.values(), key=lambda c: (c.start_row, c.start_col))
        box = self.box(table) or envelope(c.bbox for c in found if c.bbox is not None)
        return Region(0, page, box, cells=found)

    def merge(self, cells: dict[int, Cell], merged_blocks: list[dict]) -> None:
        """Each MERGED_CELL in place of the cells it covers (see the module's docstring)."""
        starts: dict[tuple[int, int], list[int]] = {}
        for key, cell in cells.items():
            starts.setdefault((cell.start_row, cell.start_col), []).append(key)
        budget = 4 * len(cells) + 64  # slots looked at for covered cells that are not children
        taken: set[int] = set()  # cells an earlier merged cell took
        for block in merged_blocks:
            span = self.cell(block, words=False)
            if span is None:
                continue
            inside = lambda c: (span.start_row <= c.start_row <= span.end_row  # noqa: E731
                                and span.start_col <= c.start_col <= span.end_col)
            members: dict[int, Cell] = {}
            outside = 0
            for _, child in self.related(block, ("CHILD",)):
                if child.get("BlockType") != "CELL":
                    self.unexpected(block, child)
                    continue
                if id(child) in taken:
                    continue
                cell = cells.get(id(child)) or self.cell(child)
                if cell is None:
                    continue
                if inside(cell):
                    members[id(child)] = cell
                else:
                    outside += 1
            if outside:
                self.findings.add("textract-merged-cell", "a MERGED_CELL with child cells outside its own span: it "
                                                          "is read by its own indices, those cells kept as they are",
                                  _name(block))
            area = (span.end_row - span.start_row + 1) * (span.end_col - span.start_col + 1)
            if area <= budget:
                budget -= area
                for row in range(span.start_row, span.end_row + 1):
                    for col in range(span.start_col, span.end_col + 1):
                        for key in starts.get((row, col), ()):
                            if key not in taken:
                                members.setdefault(key, cells[key])
            parts = sorted(members.values(), key=lambda c: (c.start_row, c.start_col))
            span.content = " ".join(c.content for c in parts if c.content and c.content.strip())
            span.header = span.header or any(c.header for c in parts)
            if span.bbox is None:
                span.bbox = envelope(c.bbox for c in parts if c.bbox is not None)
            for key in members:
                cells.pop(key, None)
            taken.update(members)
            cells[id(block)] = span

    # -- the document ------------------------------------------------------------------------

    def blocks(self, value) -> tuple[list[dict], dict[str, str]]:
        """Every block of every response, and what the responses say of themselves."""
        diagnostics = self.diagnostics
        responses = value if type(value) is list else [value]
        if not responses:
            raise diagnostics.fail("textract-structure", "an empty list: no Textract response in it")
        blocks: list[dict] = []
        metadata: dict[str, str] = {}
        for k, response in enumerate(responses, 1):
            where = f"response {k}" if len(responses) > 1 else "the response"
            if type(response) is not dict:
                raise diagnostics.fail("textract-structure", f"{where} is not a JSON object: not a Textract response")
            status = response.get("JobStatus")
            if status in ("FAILED", "IN_PROGRESS"):
                said = response.get("StatusMessage")
                raise diagnostics.fail("textract-job", f"the analysis job is {status}" +
                                       (f": {said[:200]}" if type(said) is str else ""))
            if status == "PARTIAL_SUCCESS" and "partial" not in metadata:
                metadata["partial"] = "yes"
                diagnostics.warning("textract-job", "the analysis job had PARTIAL_SUCCESS: some pages may be missing")
            found = response.get("Blocks")
            if type(found) is not list:
                raise diagnostics.fail("textract-structure", f"{where} has no Blocks list: not an AnalyzeDocument "
                                                             "or GetDocumentAnalysis response")
            blocks += found
            pages = integer((response.get("DocumentMetadata") or {}).get("Pages")
                            if type(response.get("DocumentMetadata")) is dict else None)
            if pages is not None and pages > 0:
                metadata["pages"] = str(max(pages, int(metadata.get("pages", 0))))
            version = response.get("AnalyzeDocumentModelVersion")
            if type(version) is str and "generator" not in metadata:
                metadata["generator"] = f"AWS Textract (model {version[:40]})"
        metadata.pop("partial", None)
        return blocks, metadata

    def read(self, data: bytes) -> Document:
        blocks, metadata = self.blocks(parse_json(data, self.diagnostics))
        tables: list[dict] = []
        page_blocks: list[dict] = []
        for block in blocks:
            if type(block) is not dict:
                self.findings.add("textract-bad-value", "a block that is not a JSON object: left out",
                                  _short(block))
                continue
            block_id = block.get("Id")
            if type(block_id) is str:
                if block_id in self.by_id:
                    self.findings.add("textract-duplicate-id", "blocks share an Id: the first is kept",
                                      _short(block_id))
                else:
                    self.by_id[block_id] = block
            block_type = block.get("BlockType")
            if block_type == "TABLE":
                tables.append(block)
            elif block_type == "PAGE":
                page_blocks.append(block)
        listed_on: dict[int, int] = {}  # id() of a block -> the page of the PAGE block listing it
        for ordinal, block in enumerate(page_blocks, 1):
            number = self.page(block) or ordinal
            for _, child in self.related(block, ("CHILD",)):
                listed_on.setdefault(id(child), number)
        placed = []
        for block in tables:
            page = self.page(block) or listed_on.get(id(block), 1)
            placed.append((page, self.region(block, page), block))
        placed.sort(key=lambda p: (p[0], *((p[1].bbox.y1, p[1].bbox.x1) if p[1].bbox else (2.0, 2.0))))
        doc = Document(metadata=metadata)
        for table_id, (_, region, block) in enumerate(placed):
            doc.tables.append(Table(table_id, [region]))
            for _, caption in self.related(block, tuple(CAPTION_LINKS)):
                what = CAPTION_LINKS.get(_type(caption))
                if what is None:
                    self.unexpected(block, caption)
                    continue
                key = f"table_{table_id}_{what}"
                text = self.text(caption)
                doc.metadata[key] = f"{doc.metadata[key]}\n{text}" if key in doc.metadata else text
        if not tables:
            self.diagnostics.info("textract-no-tables", "no TABLE blocks: was the analysis run with FeatureTypes "
                                                        "TABLES?")
        self.findings.report(self.diagnostics)
        return doc


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    return _Reader(diagnostics).read(data)


# -- the format ------------------------------------------------------------------------------

_BLOCKS = re.compile(rb'"Blocks"\s*:\s*\[\s*\{')
_BLOCK_TYPE = re.compile(rb'"BlockType"\s*:\s*"')
_DOCUMENT_METADATA = re.compile(rb'"DocumentMetadata"\s*:\s*\{\s*"Pages"\s*:')


def sniff(head: bytes) -> bool:
    """A JSON object (or list of them) with a ``Blocks`` list of objects holding
    ``BlockType`` keys, or with Textract's ``DocumentMetadata: {"Pages": ...}``.
    (Quotes inside JSON strings are escaped: text cannot look like these keys.)"""
    start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    if start.lstrip()[:1] not in (b"{", b"["):
        return False
    return bool(_BLOCKS.search(head) and _BLOCK_TYPE.search(head)) or _DOCUMENT_METADATA.search(head) is not None


FORMAT = DECLARED["textract"]
