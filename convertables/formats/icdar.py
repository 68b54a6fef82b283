"""ICDAR 2013 Table Competition XML: region model and cell-structure model (docs/formats.md, `icdar`).

Region model::

    document[@filename]/table[@id]/region[@id,@page]/(instruction*, bounding-box)

Structure model::

    document/table/region[@id,@page,@col-increment,@row-increment]/
        cell[@id,@start-row,@start-col,@end-row?,@end-col?]/(bounding-box?, content, instruction*)

What the reader tolerates, because the real ground truth does it: missing
``end-row``/``end-col`` (end = start), repeated ids, mixed quoting, CRLF,
thousands of ``<instruction>`` elements (skipped without building objects unless
``keep_instructions``), bare ``<region>`` elements without id or page (PubMed
ground truth: page 1). What it reports and how it goes on:

* ``bad-number`` (error): a non-numeric or non-finite coordinate (``x1='26ß'``):
  the box is dropped; a bad row/column index: the cell is dropped;
* ``unknown-attribute`` (warning): e.g. ``col-end`` for ``end-col``; it is
  ignored, as the official tool ignores it;
* ``box-inverted`` (warning): ``y1 > y2`` or ``x1 > x2``: the corners are swapped;
* ``missing-attribute`` (error or info), ``unknown-element`` (warning);
* ``no-page`` (info): a region without a page is on page 1; ``page-below-one``
  (warning): a page of 0 or less is kept as it is, as the official structure
  tool keeps it.

What the official tool (T. Hassan's ``dataset-tools``, whose XML parser knows no
namespaces and looks elements up by name at any depth) reads that the format
does not hold, read as it reads it, with a warning each (the fast paths below
see none of it; each is found cheaply and read on a slower path):

* ``xml-namespace``: elements in a default namespace (``xmlns="..."``) are read by
  their names; elements with a prefix (``<x:table>``) are not the format's, and
  the official tool finds none of them either;
* ``wrapped-element``: tables, regions or cells inside other elements
  (``<page><table>``, ``<row><cell>``) are read wherever they are, as tables at
  any depth of the document, regions at any depth of a table, cells at any depth
  of a region;
* ``text-outside-content``: a cell's text outside ``<content>`` (``<cell>Item</cell>``)
  is read with it: the official tool takes all text of a cell;
* ``content-repeated``: two ``<content>`` elements in one cell are joined.

Content: an empty ``<content/>`` reads as *unknown* content (``None``): the
format cannot tell an empty cell from one whose text was never recognised, and
the writer writes unknown content that way. Whitespace-only text reads as blank.
A ``type="header"`` attribute (written by some systems) sets the header flag.

The writer writes the structure model when any region has cells (or as told),
leaves blank cells out unless ``keep_blank``, and says in an XML comment when
boxes are not in PDF points.
"""

from __future__ import annotations

import math
import operator
import re
from itertools import repeat

from lxml import etree

from ..diagnostics import Diagnostics
from ..geometry import coordinate_text, envelope, foreign_frame_note, ordered
from ..grid import NUMBER_LIMIT, LazySourceLines, ParsedInts
from ..model import BBox, Cell, Document, Frame, Instruction, Reading, Region, Table, make_cell
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..sniffing import has_coords, xml_root
from ..xmlsafe import XML_INVALID_CHARS, local_name, parse_xml, xml_text

_CELL_ATTRIBUTES = {"id", "start-row", "start-col", "end-row", "end-col", "type"}
_REGION_ATTRIBUTES = {"id", "page", "col-increment", "row-increment"}
_MISSPELLINGS = {
    "col-end": "end-col",
    "row-end": "end-row",
    "col-start": "start-col",
    "row-start": "start-row",
    "end_col": "end-col",
    "end_row": "end-row",
    "start_col": "start-col",
    "start_row": "start-row",
}
_XSI = "{http://www.w3.org/2001/XMLSchema-instance}"
_INT_LIMIT = NUMBER_LIMIT  # no real grid, page or id comes near; larger values are errors

_GRID_ATTRIBUTES = ("start-row", "start-col", "end-row", "end-col")
_START_OF = {"end-row": "start-row", "end-col": "start-col"}


def _cell_layout(keys: list[str]):
    """Where a cell's attributes sit in ``el.values()``, for the usual cell (its
    grid attributes, the ends perhaps left out, perhaps ``id`` and ``type``,
    nothing else): an ``itemgetter`` of the four grid values (an end left out:
    its start's) and the positions of id and type (or None). None for any other
    cell, which is read attribute by attribute.

    Cells of one file nearly always list their attributes alike, so this is
    worked out once a file and each cell's values are taken in one call,
    not asked for attribute by attribute.
    """
    positions = _grid_positions(keys)
    if positions is None or not _CELL_ATTRIBUTES.issuperset(keys):
        return None
    position = {name: i for i, name in enumerate(keys)}
    return operator.itemgetter(*positions), position.get("id"), position.get("type")


def _grid_positions(keys: list[str] | tuple[str, ...]) -> tuple[int, int, int, int] | None:
    """Where start-row, start-col, end-row and end-col sit among a cell's
    attributes; an end left out is its start (as the ground truth writes most
    cells). None unless both starts are there."""
    if "start-row" not in keys or "start-col" not in keys:
        return None
    return tuple(keys.index(name if name in keys else _START_OF[name]) for name in _GRID_ATTRIBUTES)


# -- regions of plain cells, read from their serialization ------------------------------
#
# Touching an element costs lxml a proxy object; reading a cell element by element
# (its attributes, its <content>, that element's text) makes several proxies a cell, on top
# of the parse. A region whose cells are all plain (the four grid attributes, perhaps
# id and type, laid out alike, and a <content> of text alone) is read instead from the
# serialization libxml2 writes of it, one regular expression for all its cells and
# no proxy for any of them. The serialization is libxml2's own, of the parsed tree, so it
# is regular: attributes double-quoted, "<" and "&" escaped wherever they are text,
# and no comments or processing instructions (the safe parser drops them). Anything
# else in the region (another element, a nested one, a namespace, a number the
# pattern does not take) leaves the counts unequal and the region is read element by
# element, which reports what needs reporting: both ways give the same cells
# (tests/unit/test_icdar.py checks it on generated regions).

_NUMBER = "(-?[0-9]{1,9})"  # at most 9 digits: within _INT_LIMIT, no check needed
_ATTRIBUTE_PATTERNS = {"id": "([0-9]{1,9})", "type": '([^"]*)'}
_ESCAPED = re.compile(r"&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _unescape_match(match: re.Match) -> str:
    decimal, hexadecimal, name = match.groups()
    if name:
        return _NAMED[name]
    return chr(int(decimal) if decimal else int(hexadecimal, 16))


def _plain_cells_pattern(keys: tuple[str, ...]) -> re.Pattern | None:
    """The serialization of a plain cell whose attributes are ``keys``, in that
    order; its groups are the attribute values, then the content's text."""
    if _cell_layout(keys) is None:
        return None
    attributes = "".join(f' {name}="{_ATTRIBUTE_PATTERNS.get(name, _NUMBER)}"' for name in keys)
    # spaces and line breaks around a cell's <content> are layout; other text there is
    # read on the slower path (the official tool takes it as the cell's)
    return re.compile(f"<cell{attributes}>[ \t\n]*(?:<content>([^<]*)</content>|<content/>)[ \t\n]*</cell>")


# The serialization and the groups found in it hold a region's text three times over
# while its cells are made: a larger region is read element by element, in the
# memory its cells take.
_PLAIN_CELLS_MAX = 50_000
_PLAIN_CELLS_PATTERNS: dict[tuple[str, ...], re.Pattern | None] = {}

_XML_SPACE = " \t\r\n"


def _layout(text: str) -> bool:
    """Whether text between elements is only layout: XML's spaces, tabs and line breaks
    (a no-break space is text to the official tool, as to the format). (The other ASCII
    characters isspace() takes cannot be in XML 1.0 text.)"""
    return text.isspace() and text.isascii()


class _Wrapped(Exception):
    """An element the format does not have holds elements the official tool reads."""

    def __init__(self, element, parent: str, holds: str):
        super().__init__(holds)
        self.element, self.parent, self.holds = element, parent, holds


class _Reader:
    def __init__(self, diagnostics: Diagnostics, options: ReadOptions):
        self.diagnostics = diagnostics
        self.keep_instructions = options.keep_instructions
        self.lines = LazySourceLines()
        self.ints = ParsedInts()
        self._said: set[str] = set()
        self._cell_keys: list[str] | None = None
        self._cell_layout = None
        self.at_any_depth = False
        """Reading tables, regions and cells wherever they are (some are wrapped in other elements)."""
        self.spaced_numbers = False
        """A number attribute read so far was written with spaces around it."""

    # -- small parsers that report instead of raising ---------------------------------

    def _once(self, key: str) -> bool:
        if key in self._said:
            return False
        self._said.add(key)
        return True

    def _int(self, el, name: str, *, default: int | None, signed: bool = False, required: bool = False):
        raw = el.get(name)
        if raw is None:
            if required:
                self.diagnostics.error(
                    "missing-attribute", f"<{el.tag}> has no {name}", line=el.sourceline
                )
            return default
        try:
            value = int(raw.strip())
        except ValueError:
            self.diagnostics.error(
                "bad-number", f"<{el.tag}> {name}={raw!r} is not an integer", line=el.sourceline
            )
            return None
        if raw[0] in _XML_SPACE or raw[-1] in _XML_SPACE:
            self.spaced_numbers = True
        if not (-_INT_LIMIT if signed else 0) <= value <= _INT_LIMIT:
            self.diagnostics.error(
                "bad-number", f"<{el.tag}> {name}={value} is out of range", line=el.sourceline
            )
            return None
        return value

    def _box(self, el) -> BBox | None:
        get = el.get
        try:  # the common case, fast; anything unusual takes the careful path
            x1, y1, x2, y2 = float(get("x1")), float(get("y1")), float(get("x2")), float(get("y2"))
        except (TypeError, ValueError):
            return self._box_carefully(el)
        if not math.isfinite(x1 + y1 + x2 + y2) or x1 > x2 or y1 > y2:
            return self._box_carefully(el)
        return BBox(x1, y1, x2, y2, Frame.PDF)

    def _box_carefully(self, el) -> BBox | None:
        values = []
        for name in ("x1", "y1", "x2", "y2"):
            raw = el.get(name)
            if raw is None:
                self.diagnostics.error(
                    "missing-attribute", f"<bounding-box> has no {name}", line=el.sourceline
                )
                return None
            try:
                value = float(raw.strip())
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                self.diagnostics.error(
                    "bad-number",
                    f"<bounding-box> {name}={raw!r} is not a finite number; the box is dropped",
                    line=el.sourceline,
                )
                return None
            values.append(value)
        x1, y1, x2, y2 = values
        if x1 > x2 or y1 > y2:
            self.diagnostics.warning(
                "box-inverted",
                f"<bounding-box> has x1={x1:g}, y1={y1:g}, x2={x2:g}, y2={y2:g}: corners swapped",
                line=el.sourceline,
                hint="x1 <= x2 and y1 <= y2 in PDF points, origin bottom-left",
            )
        return ordered(BBox(x1, y1, x2, y2, Frame.PDF))

    def _instruction(self, el) -> Instruction | None:
        instr = self._int(el, "instr-id", default=None, signed=True, required=True)
        if instr is None:
            return None
        sub = self._int(el, "subinstr-id", default=None, signed=True)
        return Instruction(instr, sub)

    def _unknown_attributes(self, el, known: set[str]) -> None:
        for name in el.attrib:
            if name in known or name.startswith(_XSI):
                continue
            fix = _MISSPELLINGS.get(name)
            if fix:
                self.diagnostics.warning(
                    "unknown-attribute",
                    f"<{el.tag}> has {name}={el.get(name)!r}, which the format does not know; ignored",
                    line=el.sourceline,
                    hint=f"did you mean {fix}?",
                )
            elif self._once(f"attr:{el.tag}:{name}"):
                self.diagnostics.warning(
                    "unknown-attribute",
                    f"<{el.tag}> attribute {name!r} is not part of the format; ignored",
                    line=el.sourceline,
                )

    def _unknown_element(self, el, parent: str, holds: str | None = None) -> None:
        """Warn of an element the format does not have inside ``parent``; where it
        holds ``holds`` elements (tables, regions, cells), which the official tool
        finds at any depth, start again reading them as it does (:class:`_Wrapped`)."""
        name = local_name(el.tag)
        if holds is not None and next(el.iter(holds), None) is not None:
            if self.at_any_depth:
                return  # (its elements are read, and the document's warning says so)
            raise _Wrapped(el, parent, holds)
        if name and el.prefix:
            name = f"{el.prefix}:{name}"
        if name and self._once(f"el:{parent}:{name}"):
            self.diagnostics.warning(
                "unknown-element",
                f"<{name}> inside <{parent}> is not part of the format; ignored"
                + (" (the official tool does not read prefixed elements either)" if el.prefix else ""),
                line=el.sourceline,
            )

    # -- the document ----------------------------------------------------------------

    def document(self, root) -> Reading:
        if local_name(root.tag) != "document":
            raise self.diagnostics.fail(
                "icdar-root",
                f"root element is <{local_name(root.tag)}>, not <document>",
                line=root.sourceline,
            )
        said = len(self.diagnostics.items)
        try:
            doc = self._document(root)
        except _Wrapped as wrapped:  # read again from the start, each element wherever it is
            del self.diagnostics.items[said:]
            self._said.clear()
            self.lines = LazySourceLines()
            self.at_any_depth = True
            self.diagnostics.warning(
                "wrapped-element",
                f"<{local_name(wrapped.element.tag)}> inside <{wrapped.parent}> holds <{wrapped.holds}> elements: "
                "tables, regions and cells are read wherever they are, as the official tool finds them",
                line=wrapped.element.sourceline,
            )
            doc = self._document(root)
        self._spaced_numbers(root)
        return Reading(doc, source_lines=self.lines)

    def _spaced_numbers(self, root) -> None:
        """Spaces around a page, index or increment (``start-col=" 1"``): Python's int()
        and the schema's integers take them, the official tool (Java's Integer.parseInt)
        fails on them. Found among the document's parsed spellings (``self.ints``), and
        only then looked for, each with its line."""
        if not self.spaced_numbers and all(text == text.strip() for text in self.ints if text.__class__ is str):
            return
        for element in root.iter("region", "cell"):
            for name in _SPACED_NUMBER_ATTRIBUTES:
                value = element.get(name)
                if value is not None and value != value.strip() and value.strip():
                    self.diagnostics.error(
                        "index-spaces", f"<{element.tag}> {name}={value!r}: spaces around the number, read as "
                        f"{value.strip()}; the official ICDAR 2013 tool fails on it", line=element.sourceline)

    def _document(self, root) -> Document:
        doc = Document(filename=root.get("filename"))
        if doc.filename is None:
            self.diagnostics.warning("missing-attribute", "<document> has no filename", line=root.sourceline)
        if self.at_any_depth:
            doc.tables = [self.table(el, index) for index, el in enumerate(root.iter("table"))]
            return doc
        for index, el in enumerate(root):
            if el.tag == "table":
                doc.tables.append(self.table(el, index))
            else:
                self._unknown_element(el, "document", "table")
        return doc

    def table(self, el, index: int) -> Table:
        table_id = self._int(el, "id", default=None, required=True)
        table = Table(id=index if table_id is None else table_id)
        if self.at_any_depth:
            table.regions = [self.region(child, position) for position, child in enumerate(el.iter("region"))]
            return table
        for position, child in enumerate(el):
            if child.tag == "region":
                table.regions.append(self.region(child, position))
            else:
                self._unknown_element(child, "table", "region")
        return table

    def region(self, el, index: int) -> Region:
        self._unknown_attributes(el, _REGION_ATTRIBUTES)
        region_id = self._int(el, "id", default=None)
        if el.get("page") is None:
            if self._once("no-page"):
                self.diagnostics.info(
                    "no-page", "<region> has no page; read as page 1 (the official ICDAR 2013 tool fails on it)",
                    line=el.sourceline,
                )
            page = 1
        else:
            page = self._int(el, "page", default=1, signed=True)
            page = 1 if page is None else page
            if page < 1 and self._once("page-below-one"):
                self.diagnostics.warning(
                    "page-below-one", f"<region> page={page}: ICDAR 2013 numbers pages from 1; kept as page {page}, "
                    "as the official structure tool keeps it (its tables pair only with tables on that page); the "
                    "official region tool fails on it", line=el.sourceline)
        region = Region(
            id=index if region_id is None else region_id,
            page=page,
            row_increment=self._int(el, "row-increment", default=0, signed=True) or 0,
            col_increment=self._int(el, "col-increment", default=0, signed=True) or 0,
        )
        self.lines[id(region)] = el.sourceline
        cells = None if self.at_any_depth else self.plain_cells(el)
        if cells is not None:
            region.cells = cells
            self.lines.later(cells, lambda: list(el))
            return region
        elements = []  # of the cells kept, for their lines (looked up if a diagnostic asks)
        for child in el:
            name = child.tag
            if name == "instruction":
                if self.keep_instructions:
                    instruction = self._instruction(child)
                    if instruction:
                        region.instructions += (instruction,)
            elif name == "cell":
                if self.at_any_depth:
                    continue  # (read below, with those at any depth)
                cell = self.cell(child)
                if cell is not None:
                    region.cells.append(cell)
                    elements.append(child)
            elif name == "bounding-box":
                region.bbox = self._box(child)
            else:
                self._unknown_element(child, "region", "cell")
        if self.at_any_depth:
            for child in el.iter("cell"):
                cell = self.cell(child)
                if cell is not None:
                    region.cells.append(cell)
                    elements.append(child)
        self.lines.later(region.cells, elements)
        return region

    def cell(self, el) -> Cell | None:
        keys = el.keys()
        if keys != self._cell_keys:
            self._cell_keys, self._cell_layout = keys, _cell_layout(keys)
        layout = self._cell_layout
        if layout is None:
            return self._cell_attribute_by_attribute(el)
        grid_values, id_at, type_at = layout
        values = el.values()
        try:  # (the document's parsed spellings: read_spaced_numbers looks at them)
            start_row, start_col, end_row, end_col = grid = tuple(map(self.ints.__getitem__, grid_values(values)))
            cell_id = None if id_at is None else int(values[id_at])
        except ValueError:
            return self._cell_attribute_by_attribute(el)
        if min(grid) < -_INT_LIMIT or max(grid) > _INT_LIMIT or (
                cell_id is not None and not 0 <= cell_id <= _INT_LIMIT):
            return self._cell_attribute_by_attribute(el)
        cell = Cell(start_row, start_col, end_row, end_col, None, cell_id, None,
                    type_at is not None and values[type_at] == "header")
        return self._cell_children(el, cell)

    def plain_cells(self, el) -> list[Cell] | None:
        """The cells of the region ``el`` when they are all plain, else None."""
        count = len(el)
        if not 0 < count <= _PLAIN_CELLS_MAX:
            return None
        first = el[0]
        if len(first) != 1:  # a box or instructions too (the ground truth's cells): known before writing it out
            return None
        keys = tuple(first.keys())
        try:
            pattern = _PLAIN_CELLS_PATTERNS[keys]
        except KeyError:
            pattern = _PLAIN_CELLS_PATTERNS[keys] = _plain_cells_pattern(keys)
        if pattern is None or first.tag != "cell":
            return None
        text = etree.tostring(el, encoding="unicode", with_tail=False)
        found = pattern.findall(text)
        # As many plain cells as children, and no other element (nor a comment or
        # section) anywhere inside: each adds a "<" that starts no end tag. (A
        # namespace is no way round: a cell in another namespace than the first
        # one's declares it in its start tag, which the pattern does not take.)
        if len(found) != count or text.count("<") - text.count("</") != 1 + 2 * count:
            return None
        # Made column by column: each index column a C loop of lookups in the
        # document's parsed ints (the pattern takes at most 9 digits: no range check).
        columns = list(zip(*found))
        start_rows, start_cols, end_rows, end_cols = (
            map(self.ints.__getitem__, columns[at]) for at in _grid_positions(keys))
        ids = map(self.ints.__getitem__, columns[keys.index("id")]) if "id" in keys else repeat(None)
        headers = map("header".__eq__, columns[keys.index("type")]) if "type" in keys else repeat(False)
        cells = []
        append = cells.append
        for start_row, start_col, end_row, end_col, cell_id, header, content in zip(
                start_rows, start_cols, end_rows, end_cols, ids, headers, columns[-1]):
            if "&" in content:
                content = _ESCAPED.sub(_unescape_match, content)
            append(make_cell(start_row, start_col, end_row, end_col, content or None, cell_id, header))
        return cells

    def _cell_attribute_by_attribute(self, el) -> Cell | None:
        get = el.get
        if not _CELL_ATTRIBUTES.issuperset(el.keys()):
            self._unknown_attributes(el, _CELL_ATTRIBUTES)
        ints = self.ints
        try:  # ends left out, or unknown attributes; anything unusual takes the careful path
            start_row, start_col = ints[get("start-row")], ints[get("start-col")]
            end_row, end_col = get("end-row"), get("end-col")
            end_row = start_row if end_row is None else ints[end_row]
            end_col = start_col if end_col is None else ints[end_col]
            cell_id = get("id")
            cell_id = None if cell_id is None else int(cell_id)
            fast = -_INT_LIMIT <= min(start_row, start_col, end_row, end_col) and max(
                start_row, start_col, end_row, end_col) <= _INT_LIMIT and (
                cell_id is None or 0 <= cell_id <= _INT_LIMIT)
        except (TypeError, ValueError):
            fast = False
        if not fast:
            # Negative indices are legal where the region's increment makes up for
            # them (us-019: start-row=-1 with row-increment=1); the grid check judges.
            start_row = self._int(el, "start-row", default=None, signed=True, required=True)
            start_col = self._int(el, "start-col", default=None, signed=True, required=True)
            if start_row is None or start_col is None:
                self.diagnostics.error(
                    "cell-dropped", "cell without a valid start row/column is left out", line=el.sourceline
                )
                return None
            end_row = self._int(el, "end-row", default=start_row, signed=True)
            end_col = self._int(el, "end-col", default=start_col, signed=True)
            end_row = start_row if end_row is None else end_row
            end_col = start_col if end_col is None else end_col
            cell_id = self._int(el, "id", default=None)
        cell = Cell(
            start_row=start_row,
            start_col=start_col,
            end_row=end_row,
            end_col=end_col,
            id=cell_id,
            header=get("type") == "header",
        )
        return self._cell_children(el, cell)

    def _cell_children(self, el, cell: Cell) -> Cell:
        outside = el.text  # text before the first child: layout, unless it is more than spaces
        if len(el) == 1:  # the common case: <content> alone
            child = el[0]
            tail = child.tail
            if child.tag == "content" and (outside is None or _layout(outside)) and (tail is None or _layout(tail)):
                text = child.text if len(child) == 0 else "".join(child.itertext())
                cell.content = text if text else None
                return cell
        has_content = False
        text_outside = outside is not None and not (outside.isspace() and outside.isascii())
        for child in el:
            name = child.tag
            tail = child.tail
            if tail is not None and not (tail.isspace() and tail.isascii()):  # (_layout, inlined: every cell)
                text_outside = True
            if name == "instruction":
                if self.keep_instructions:
                    instruction = self._instruction(child)
                    if instruction:
                        cell.instructions += (instruction,)
            elif name == "content":
                text = child.text if len(child) == 0 else "".join(child.itertext())
                if has_content:  # the official tool takes a cell's text whole: both
                    if self._once("content-repeated"):
                        self.diagnostics.warning(
                            "content-repeated", "cell has several <content> elements; their texts are joined, "
                            "as the official tool joins them", line=child.sourceline)
                    text = (cell.content or "") + (text or "")
                has_content = True
                cell.content = text if text else None
            elif name == "bounding-box":
                cell.bbox = self._box(child)
            else:
                if not text_outside and any(t.strip(_XML_SPACE) for t in child.itertext()):
                    text_outside = True
                self._unknown_element(child, "cell")
        if text_outside:
            text = "".join(el.itertext()).strip(_XML_SPACE)
            if self._once("text-outside-content"):
                self.diagnostics.warning(
                    "text-outside-content", f"cell text outside <content> ({text[:40]!r}): read as the cell's "
                    "text, as the official tool reads all the text of a cell", line=el.sourceline)
            cell.content = text or None
            return cell
        if not has_content and self._once("no-content"):
            self.diagnostics.warning(
                "missing-content", "cell has no <content>; read as unknown content", line=el.sourceline
            )
        return cell


_DEFAULT_NAMESPACE = re.compile(rb"xmlns[ \t\r\n]*=")


def _without_default_namespace(data: bytes, root, diagnostics: Diagnostics) -> None:
    """Elements in a default namespace named as the official tool names them: by
    their names alone (elements with a prefix keep theirs; it finds none of them)."""
    if not _DEFAULT_NAMESPACE.search(data):  # (the usual file: declares none, or only xsi's prefix)
        return
    found: dict[str, int] = {}
    for el in root.iter("{*}*"):
        tag = el.tag
        if tag[0] == "{" and el.prefix is None:
            namespace, _, el.tag = tag[1:].partition("}")
            found.setdefault(namespace, el.sourceline)
    if found:
        etree.cleanup_namespaces(root)
        namespace, line = next(iter(found.items()))
        diagnostics.warning("xml-namespace", f"elements in the namespace {namespace!r} (declared as the default): "
                            "read by their names, as the official tool reads them (the format has no namespace)",
                            line=line)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    root = parse_xml(data, diagnostics)
    _without_default_namespace(data, root, diagnostics)
    reading = _Reader(diagnostics, options).document(root)
    doc = reading.document
    if options.box_frame == "image":  # (a tool wrote pixels, origin top-left, where the format wants points)
        for table in doc.tables:
            for region in table.regions:
                for holder in (region, *region.cells):
                    if holder.bbox is not None:
                        holder.bbox = holder.bbox._replace(frame=Frame.IMAGE)
    return reading


# -- writing ---------------------------------------------------------------------------

# Characters XML 1.0 cannot hold at all.


# The writer builds the text itself, laid out as lxml's pretty printer would
# (two spaces a level): the same bytes, without building a tree of elements first.
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)


def _box_line(indent: str, box: BBox) -> str:
    text = coordinate_text
    return f'{indent}<bounding-box x1="{text(box.x1)}" y1="{text(box.y1)}" x2="{text(box.x2)}" y2="{text(box.y2)}"/>'


def _instruction_lines(indent: str, instructions: tuple[Instruction, ...]) -> list[str]:
    return [
        f'{indent}<instruction instr-id="{ins.instr_id}"/>' if ins.subinstr_id is None
        else f'{indent}<instruction instr-id="{ins.instr_id}" subinstr-id="{ins.subinstr_id}"/>'
        for ins in instructions
    ]


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    model = options.model
    if model == "auto":
        model = "structure" if doc.has_cells else "region"
    filename = xml_text(doc.filename or "", diagnostics).translate(_ATTRIBUTE_ESCAPES)
    out = ["<?xml version='1.0' encoding='UTF-8'?>", f'<document filename="{filename}">']
    comment_at = len(out)
    frames: set[Frame] = set()
    for table in doc.tables:
        if not table.regions:
            out.append(f'  <table id="{table.id}"/>')
            continue
        out.append(f'  <table id="{table.id}">')
        for region in table.regions:
            head = f'    <region id="{region.id}" page="{region.page}"'
            if model == "structure":
                head += f' col-increment="{region.col_increment}" row-increment="{region.row_increment}"'
            box = region.bbox
            if model == "region":
                if box is None:
                    try:
                        box = envelope(c.bbox for c in region.cells if c.bbox is not None)
                    except ValueError:
                        box = None
                if box is None:
                    raise diagnostics.fail(
                        "missing-bbox",
                        f"table {table.id}, region {region.id} has no bounding box, "
                        "which the region model requires",
                    )
                out.append(head + ">")
                out.extend(_instruction_lines("      ", region.instructions))
                out.append(_box_line("      ", box))
                frames.add(box.frame)
                out.append("    </region>")
                continue
            body: list[str] = []
            if box is not None:
                body.append(_box_line("      ", box))
                frames.add(box.frame)
            body.extend(_instruction_lines("      ", region.instructions))
            for cell in region.cells:
                if cell.is_blank and not options.keep_blank:
                    continue
                cell_id = "" if cell.id is None else f'id="{cell.id}" '
                body.append(f'      <cell {cell_id}start-row="{cell.start_row}" start-col="{cell.start_col}" '
                            f'end-row="{cell.end_row}" end-col="{cell.end_col}">')
                if cell.bbox is not None:
                    body.append(_box_line("        ", cell.bbox))
                    frames.add(cell.bbox.frame)
                if cell.content:
                    text = xml_text(cell.content, diagnostics).translate(_TEXT_ESCAPES)
                    body.append(f"        <content>{text}</content>")
                else:
                    body.append("        <content/>")
                body.extend(_instruction_lines("        ", cell.instructions))
                body.append("      </cell>")
            if body:
                out.append(head + ">")
                out.extend(body)
                out.append("    </region>")
            else:
                out.append(head + "/>")
        out.append("  </table>")
    if len(out) == comment_at:  # no table: an empty root
        out[-1] = out[-1][:-1] + "/>"
    else:
        out.append("</document>")
    note = foreign_frame_note(frames, Frame.PDF, "ICDAR 2013", diagnostics)
    if note:
        if len(out) == comment_at:  # the root gains a child
            out[-1] = out[-1][:-2] + ">"
            out.append("</document>")
        out.insert(comment_at, f"  <!--{_comment_text(note)}-->")
    try:
        return ("\n".join(out) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None


def _comment_text(note: str) -> str:
    """A comment may not hold "--" nor end with "-"."""
    note = XML_INVALID_CHARS.sub("", note)
    while "--" in note:
        note = note.replace("--", "- -")
    return note + " " if note.endswith("-") else note


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    return xml_root(head) == "document" and not has_coords(head)


def validate(data: bytes, diagnostics: Diagnostics, model: str | None = None) -> None:
    """Our XSD of the region or the structure model (``model``, or by content:
    cells make a structure file), every finding with its line."""
    from ..validation import validate_xml

    root = parse_xml(data, diagnostics)
    _without_default_namespace(data, root, Diagnostics())  # (the reader says it)
    if model is None:
        model = "structure" if next(root.iter("cell"), None) is not None else "region"
    diagnostics.extend(validate_xml(root, model, diagnostics.file))


# The numbers the official tool parses as integers (ids it never reads; coordinates it
# parses with Float.parseFloat, which takes spaces).
_SPACED_NUMBER_ATTRIBUTES = ("page", "start-row", "end-row", "start-col", "end-col", "row-increment",
                             "col-increment")


FORMAT = DECLARED["icdar"]
