"""PubTabNet and FinTabNet JSONL (docs/formats.md, `pubtabnet`): one table a
line, each line a document; read and written.

A record is a JSON object: ``filename``, ``html.structure.tokens`` (the
table's HTML skeleton as tokens: ``<thead>``, ``<tr>``, ``<td>``, or ``<td``,
`` colspan="2"``, ``>`` for a spanning cell, ``</td>``...) and ``html.cells``
(one entry a cell opening, in order: ``tokens``, the cell's characters and
inline tags such as ``<b>``, and ``bbox`` [x0, y0, x1, y1] where the cell has
text). PubTabNet adds ``split`` and ``imgid``; FinTabNet ``table_id``, the
table's ``bbox``, and a ``filename`` that names the PDF page the table is on,
which several tables share.

The file is a container (:mod:`convertables.containers`): each record is a
document, named by its ``filename`` without folders and suffix
(``PMC4840965_004_00``); a record with a ``table_id`` (FinTabNet's) is named
by it (``55224``), since its ``filename`` names a page, not a table. Records
are found by their line alone and read when wanted; a file of several records
read as one document is refused (``many-documents``).

Reading a record: its one table's grid comes from the structure tokens, cells
placed by the HTML rules (each in the first slot of its row no cell from above
covers); a ``<tr>`` is a row even where spans from above cover it whole; a
rowspan past the last row ends there. Cells in ``<thead>`` (or opened by
``<th>``) are headers. A cell's ``content`` is its tokens without the tags,
whitespace as given; where a token is anything but one character (a tag) the
tokens are kept as ``markup``, and the structure tokens as the table's
``html_structure``, which TEDS compares. Boxes: PubTabNet's in pixels of the
table's image (``image`` frame), FinTabNet's (the cells' and the table's) in
PDF points of its page, origin bottom-left (``pdf`` frame). ``split``,
``imgid`` and ``table_id`` are kept as metadata (``pubtabnet_split``,
``pubtabnet_imgid``, ``fintabnet_table_id``) so that the record is written
back as it was.

Writing: a line a table. The structure tokens are the table's own
``html_structure`` where it still fits its cells (the same grid, spans and
headers); otherwise they are made from the grid: rows whose cells are all
headers, from the top, in ``<thead>``, the others in ``<tbody>``, an empty
``<td></td>`` on every slot no cell covers. A cell's tokens are its ``markup``,
or its content's characters. A document of one table writes it under its own
``filename`` (where it is on page 1); a document of several, or of one on
another page, writes table k of page p (counted from 1)
under ``<name>-page-<p>-table-<k><suffix>`` (the per-table naming ``--join``
reads). A document read from FinTabNet is written as FinTabNet's record (its
``table_id``, the table's box, PDF boxes); any other with its boxes in image
pixels (converted first where ``--dpi`` and a page height say how); boxes in
another frame are left out, and said.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import PurePosixPath

from ..containers import jsonl_members, name_from_filename
from ..diagnostics import Diagnostics
from ..geometry import ordered
from ..jsonsafe import parse_json
from ..grid import MAX_GRID_SLOTS
from ..model import BBox, Cell, Document, Frame, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED

MAX_RECORD_BYTES = 256 << 20
"""The largest record read (as :data:`convertables.jsonsafe.MAX_JSON_BYTES`)."""
MAX_COLSPAN = 1000
"""As the HTML rules cap ``colspan``; a larger one is read as this."""
MAX_GRID_WORK = 5_000_000
"""Slots of the grid walked while placing cells (rows times the spans that
cover them): a record that asks for more is refused (``pubtabnet-too-large``)."""
MAX_WRITTEN_SLOTS = MAX_GRID_SLOTS
"""A table is written slot by slot (an empty cell for each hole): one of more
slots (rows x columns) is refused rather than written for hours."""

SPLIT, IMGID, TABLE_ID = "pubtabnet_split", "pubtabnet_imgid", "fintabnet_table_id"
"""The metadata keys that keep a record's own fields."""

_GROUPS = {"<thead>": "thead", "<tbody>": "tbody", "<tfoot>": "tfoot"}
_GROUP_ENDS = ("</thead>", "</tbody>", "</tfoot>")
_SPAN = re.compile(r'\s*(colspan|rowspan)\s*=\s*["\']?\s*([^"\'\s>]*)\s*["\']?\s*', re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_EMPTY: list[str] = []
_NO_ENTRY = {"tokens": _EMPTY}


# -- the structure tokens ----------------------------------------------------------------------

class _Opening:
    """A cell opening of the structure: its row, spans and whether it is a header."""

    __slots__ = ("row", "rowspan", "colspan", "header")

    def __init__(self, row: int, header: bool):
        self.row, self.rowspan, self.colspan, self.header = row, 1, 1, header


class Layout:
    """What the structure tokens say: each cell's place, spans and header flag
    (``cells``: ``(start_row, start_col, end_row, end_col, header)`` in the
    tokens' order), and the faults met."""

    def __init__(self):
        self.cells: list[tuple[int, int, int, int, bool]] = []
        self.rows = 0
        self.unknown: list[str] = []
        self.bad_spans: list[str] = []
        self.outside_row = 0


def layout(tokens: list[str] | tuple[str, ...]) -> Layout:
    """Place the cells the structure tokens open (raises ValueError where that
    would walk more than :data:`MAX_GRID_WORK` slots)."""
    found = Layout()
    openings: list[_Opening] = []
    group = None
    pending: _Opening | None = None
    rows = 0
    for token in tokens:
        if pending is not None:  # inside "<td" ... ">"
            if token == ">":
                openings.append(pending)
                pending = None
                continue
            match = _SPAN.fullmatch(token)
            if match is None:
                found.unknown.append(token)
                continue
            value = match.group(2)
            number = int(value) if value.isascii() and value.isdigit() and len(value) < 10 else 0
            if number < 1:
                found.bad_spans.append(token.strip())
                number = 1
            if match.group(1).lower() == "colspan":
                if number > MAX_COLSPAN:
                    found.bad_spans.append(token.strip())
                    number = MAX_COLSPAN
                pending.colspan = number
            else:
                pending.rowspan = number
            continue
        if token == "<tr>":
            rows += 1
        elif token in ("<td>", "<th>", "<td", "<th"):
            if rows == 0:  # cells before any row: a row of their own
                rows = 1
                found.outside_row += 1
            opening = _Opening(rows - 1, group == "thead" or token.startswith("<th"))
            if len(token) == 3:
                pending = opening
            else:
                openings.append(opening)
        elif token in _GROUPS:
            group = _GROUPS[token]
        elif token in _GROUP_ENDS:
            group = None
        elif token not in ("</tr>", "</td>", "</th>", "<table>", "</table>"):
            found.unknown.append(token)
    if pending is not None:  # an opening never closed: a cell all the same
        openings.append(pending)
    found.rows = rows
    _place(openings, rows, found)
    return found


def _place(openings: list[_Opening], rows: int, found: Layout) -> None:
    """Each opening in the first slot of its row that no cell from a row above
    covers (the HTML table model); rowspans end at the last row."""
    covering: list[tuple[int, int, int]] = []  # (first column, last column, last row) of cells from above
    work = 0
    place = found.cells.append
    k = 0
    for y in range(rows):
        covering = sorted(c for c in covering if c[2] >= y)
        work += len(covering) + 1
        if work > MAX_GRID_WORK:
            raise ValueError(f"its spans cover more than {MAX_GRID_WORK:,} slots")
        x = 0
        i = 0
        spanning: list[tuple[int, int, int]] = []
        while k < len(openings) and openings[k].row == y:
            opening = openings[k]
            k += 1
            while i < len(covering) and covering[i][0] <= x:
                if covering[i][1] >= x:
                    x = covering[i][1] + 1
                i += 1
            x1 = x + opening.colspan - 1
            y1 = min(y + opening.rowspan - 1, rows - 1)
            place((y, x, y1, x1, opening.header))
            if y1 > y:
                spanning.append((x, x1, y1))
            x = x1 + 1
        covering.extend(spanning)


# -- reading ---------------------------------------------------------------------------------

def _joined(value, where: str, diagnostics: Diagnostics) -> str:
    """The tokens joined (join itself checks that each is a string)."""
    try:
        if value.__class__ is not list:
            raise TypeError
        return "".join(value)
    except TypeError:
        raise diagnostics.fail("pubtabnet-invalid", f"{where} is not a list of strings") from None


_NUMBERS = (int, float)
_isfinite = math.isfinite


def _bbox(value, frame: Frame, where: str, diagnostics: Diagnostics, bad: list[str]) -> BBox | None:
    if value.__class__ is list and len(value) == 4:
        x0, y0, x1, y1 = value
        if (x0.__class__ in _NUMBERS and y0.__class__ in _NUMBERS and x1.__class__ in _NUMBERS
                and y1.__class__ in _NUMBERS and _isfinite(x0) and _isfinite(y0) and _isfinite(x1)
                and _isfinite(y1)):
            if x0 <= x1 and y0 <= y1:
                return BBox(float(x0), float(y0), float(x1), float(y1), frame)
            diagnostics.warning("box-inverted", f"{where}: bounding box {value} has its corners the wrong way: "
                                                "swapped")
            return ordered(BBox(float(x0), float(y0), float(x1), float(y1), frame))
    bad.append(where)
    return None


def _metadata_text(value) -> str | None:
    if value.__class__ is str:
        return value
    if value.__class__ is int:
        return str(value)
    return None


def document_of(record, diagnostics: Diagnostics) -> Document:
    """The document of one parsed record."""
    if record.__class__ is not dict:
        raise diagnostics.fail("pubtabnet-invalid", f"a record is a JSON object (filename, html), not "
                                                    f"{type(record).__name__}")
    html = record.get("html")
    if html.__class__ is not dict:
        raise diagnostics.fail("pubtabnet-invalid", "html: missing, or not an object")
    structure = html.get("structure")
    if structure.__class__ is not dict:
        raise diagnostics.fail("pubtabnet-invalid", "html.structure: missing, or not an object")
    tokens = structure.get("tokens")
    _joined(tokens, "html.structure.tokens", diagnostics)
    entries = html.get("cells")
    if entries.__class__ is not list:
        raise diagnostics.fail("pubtabnet-invalid", "html.cells: missing, or not a list")
    fintabnet = "table_id" in record
    frame = Frame.PDF if fintabnet else Frame.IMAGE
    try:
        placed = layout(tokens)
    except ValueError as exc:
        raise diagnostics.fail("pubtabnet-too-large", f"the table cannot be laid out: {exc}") from None
    if placed.unknown:
        diagnostics.warning("pubtabnet-structure", f"{len(placed.unknown)} structure token(s) not understood, "
                                                   f"passed over ({placed.unknown[0][:40]!r}...)")
    if placed.outside_row:
        diagnostics.warning("pubtabnet-structure", f"{placed.outside_row} cell(s) opened before any <tr>: read as "
                                                   "a row of their own, the first")
    if placed.bad_spans:
        diagnostics.warning("pubtabnet-span", f"span value(s) {', '.join(placed.bad_spans[:3])} read by the HTML "
                                              f"rules (invalid values count as 1, colspan at most {MAX_COLSPAN})")
    if len(entries) != len(placed.cells):
        diagnostics.warning("pubtabnet-cells", f"the structure opens {len(placed.cells)} cell(s), html.cells has "
                                               f"{len(entries)}: " + ("the extra entries are left out"
                                                                      if len(entries) > len(placed.cells) else
                                                                      "the cells without one are empty"))
    bad_boxes: list[str] = []
    cells = []
    given = len(entries)
    for index, (r0, c0, r1, c1, header) in enumerate(placed.cells):
        entry = entries[index] if index < given else _NO_ENTRY
        if entry.__class__ is not dict:
            raise diagnostics.fail("pubtabnet-invalid", f"html.cells[{index}] is not an object")
        cell_tokens = entry.get("tokens", _EMPTY)
        text = _joined(cell_tokens, f"html.cells[{index}].tokens", diagnostics)
        if len(text) == len(cell_tokens) and "" not in cell_tokens:  # (one character a token: the usual cell)
            markup = None
        else:  # tags among the tokens: the text without them, and the tokens kept
            markup = tuple(cell_tokens)
            text = "".join(t for t in cell_tokens if not _TAG.fullmatch(t))
        raw = entry.get("bbox")
        box = None if raw is None else _bbox(raw, frame, f"html.cells[{index}].bbox", diagnostics, bad_boxes)
        cells.append(Cell(r0, c0, r1, c1, text, None, box, header, (), markup))
    raw = record.get("bbox") if fintabnet else None
    table_box = None if raw is None else _bbox(raw, frame, "bbox", diagnostics, bad_boxes)
    if bad_boxes:
        diagnostics.warning("pubtabnet-bbox", f"{len(bad_boxes)} bbox(es) not four finite numbers, left out "
                                              f"({bad_boxes[0]}...)")
    filename = record.get("filename")
    doc = Document(filename=filename if filename.__class__ is str else None)
    for key, field in ((SPLIT, "split"), (IMGID, "imgid"), (TABLE_ID, "table_id")):
        text = _metadata_text(record.get(field))
        if text is not None:
            doc.metadata[key] = text
    doc.tables.append(Table(0, [Region(0, 1, table_box, cells=cells)], html_structure=tuple(tokens)))
    return doc


def _first_is_a_record(first: bytes) -> bool:
    try:
        return json.loads(first).__class__ is dict
    except (ValueError, RecursionError):
        return False


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    body = data.strip()
    newline = body.find(b"\n")
    if newline != -1 and _first_is_a_record(body[:newline]):
        count = 1 + sum(1 for line in body[newline:].split(b"\n") if line.strip())
        raise diagnostics.fail("many-documents", f"holds {count} records, each a document of its own",
                               hint="convert it into a folder (-o DIR/) or into one JSONL file; in Python, "
                                    "convertables.read_documents")
    return document_of(parse_json(body, diagnostics, MAX_RECORD_BYTES), diagnostics)


_TABLE_ID = re.compile(rb'"table_id"\s*:\s*(-?[0-9]{1,18})(?![0-9.eE])')
_FILENAME = re.compile(rb'"filename"\s*:\s*"((?:[^"\\]|\\.)*)"')


def record_name(line: bytes) -> str | None:
    """A record's name, from its line, unparsed: FinTabNet's ``table_id``, else
    the ``filename`` without folders and suffix. (A key is found by its quoted
    name: the quotes of a text inside a record are escaped, so no text looks like
    one.)"""
    found = _TABLE_ID.search(line)
    if found is not None:
        return found.group(1).decode("ascii")
    found = _FILENAME.search(line)
    if found is None:
        return None
    try:
        filename = json.loads(b'"' + found.group(1) + b'"')
    except ValueError:
        return None
    return name_from_filename(filename)


def members(handle):
    return jsonl_members(handle, record_name)


# -- writing ---------------------------------------------------------------------------------

def _number(value: float) -> int | float:
    """Integral coordinates are written as integers (PubTabNet's pixels are)."""
    value = float(value)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _box(box: BBox) -> list:
    return [_number(box.x1), _number(box.y1), _number(box.x2), _number(box.y2)]


def _placed_cells(table: Table) -> list[tuple[int, int, int, int, Cell]]:
    """The table's cells at their places in the table's grid (regions' increments added), in its order."""
    return [(c.start_row + r.row_increment, c.start_col + r.col_increment, c.end_row + r.row_increment,
             c.end_col + r.col_increment, c) for r in table.regions for c in r.cells]


def _own_structure_fits(table: Table, placed: list) -> bool:
    """Whether the table's own structure tokens lay out its cells as they are."""
    if table.html_structure is None:
        return False
    try:
        laid = layout(table.html_structure)
    except ValueError:
        return False
    return laid.cells == [(r0, c0, r1, c1, cell.header) for r0, c0, r1, c1, cell in placed]


def _opening(r0: int, c0: int, r1: int, c1: int) -> list[str]:
    if r0 == r1 and c0 == c1:
        return ["<td>"]
    tokens = ["<td"]
    if r1 > r0:
        tokens.append(f' rowspan="{r1 - r0 + 1}"')
    if c1 > c0:
        tokens.append(f' colspan="{c1 - c0 + 1}"')
    tokens.append(">")
    return tokens


def _grid_structure(table: Table, placed: list, diagnostics: Diagnostics) -> tuple[list[str], list[Cell | None]]:
    """Structure tokens made from the grid, and the cell each opening is (None: a hole's empty cell)."""
    if not placed:
        return ["<tbody>", "</tbody>"], []
    placed = sorted(placed, key=lambda p: (p[0], p[1]))
    # From the first row and column with a cell, as the skeleton TEDS compares starts (and as GriTS
    # counts a grid): an empty row above would be a row of empty cells here, and of no cell in the source.
    top, left = placed[0][0], min(p[1] for p in placed)
    bottom, right = max(p[2] for p in placed), max(p[3] for p in placed)
    if (bottom - top + 1) * (right - left + 1) > MAX_WRITTEN_SLOTS:
        raise diagnostics.fail("pubtabnet-too-large", f"table {table.id} spans {bottom - top + 1:,} rows and "
                                                      f"{right - left + 1:,} columns; tables of more than "
                                                      f"{MAX_WRITTEN_SLOTS:,} slots are not written")
    starting: dict[int, list] = {}
    for entry in placed:
        starting.setdefault(entry[0], []).append(entry)
    head_rows = 0
    for y in range(top, bottom + 1):
        if not starting.get(y) or not all(e[4].header for e in starting[y]):
            break
        head_rows += 1
    tokens: list[str] = []
    order: list[Cell | None] = []
    covering: list[tuple[int, int, int]] = []  # (first column, last column, last row) of cells from above
    overlaps = 0
    for y in range(top, bottom + 1):
        if y == top and head_rows:
            tokens.append("<thead>")
        if y == top + head_rows:
            tokens.append("<tbody>")
        covering = sorted(c for c in covering if c[2] >= y)
        spanning = []
        tokens.append("<tr>")
        x, i = left, 0
        for r0, c0, r1, c1, cell in starting.get(y, []) + [(y, right + 1, y, right + 1, None)]:
            while x < c0:  # the slots before the cell: covered from above, or holes (an empty cell each)
                while i < len(covering) and covering[i][1] < x:
                    i += 1
                if i < len(covering) and covering[i][0] <= x:
                    x = covering[i][1] + 1
                    continue
                end = min(c0, covering[i][0]) if i < len(covering) else c0
                tokens += ["<td>", "</td>"] * (end - x)
                order += [None] * (end - x)
                x = end
            if cell is None:
                break
            while i < len(covering) and covering[i][1] < c0:
                i += 1
            if x > c0 or (i < len(covering) and covering[i][0] <= c1):
                overlaps += 1
                continue
            tokens += _opening(r0, c0, r1, c1) + ["</td>"]
            order.append(cell)
            if r1 > y:
                spanning.append((c0, c1, r1))
            x = c1 + 1
        covering += spanning
        tokens.append("</tr>")
        if y == top + head_rows - 1:
            tokens.append("</thead>")
    if head_rows < bottom - top + 1:
        tokens.append("</tbody>")
    if overlaps:
        diagnostics.warning("pubtabnet-overlap", f"table {table.id}: {overlaps} cell(s) on slots another cell "
                                                 "covers cannot be written; left out")
    return tokens, order


def _record_names(doc: Document) -> list[str]:
    """The ``filename`` of each table's record."""
    filename = doc.filename or "document"
    if len(doc.tables) == 1 and (doc.tables[0].page or 1) == 1:
        return [filename]  # (a lone table on another page is named by it, as tables of several are: its page kept)
    path = PurePosixPath(filename.replace("\\", "/"))
    stem, suffix = (path.stem, path.suffix) if path.suffix else (path.name, "")
    counts: dict[int, int] = {}
    names = []
    for table in doc.tables:
        page = table.page or 1
        counts[page] = counts.get(page, 0) + 1
        names.append(f"{stem}-page-{page}-table-{counts[page]}{suffix}")
    return names


def _record(doc: Document, table: Table, filename: str, fintabnet: bool, diagnostics: Diagnostics,
            left_out: list[int]) -> dict:
    placed = _placed_cells(table)
    if _own_structure_fits(table, placed):
        structure, order = list(table.html_structure), [cell for *_, cell in placed]
    else:
        structure, order = _grid_structure(table, placed, diagnostics)
    native = Frame.PDF if fintabnet else Frame.IMAGE
    cells = []
    for cell in order:
        if cell is None:
            cells.append({"tokens": []})
            continue
        entry: dict = {"tokens": list(cell.markup) if cell.markup is not None else list(cell.content or "")}
        if cell.bbox is not None:
            if cell.bbox.frame is native:
                entry["bbox"] = _box(cell.bbox)
            else:
                left_out[0] += 1
        cells.append(entry)
    record: dict = {}
    if fintabnet:
        record["table_id"] = int(doc.metadata[TABLE_ID])
    record["filename"] = filename
    if SPLIT in doc.metadata:
        record["split"] = doc.metadata[SPLIT]
    if IMGID in doc.metadata and doc.metadata[IMGID].isdigit() and not fintabnet:
        record["imgid"] = int(doc.metadata[IMGID])
    box = table.regions[0].bbox if fintabnet and table.regions else None
    if box is not None and box.frame is Frame.PDF:
        record["bbox"] = _box(box)
    record["html"] = {"structure": {"tokens": structure}, "cells": cells}
    return record


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    if not doc.tables:
        diagnostics.warning("pubtabnet-no-table", "the document has no table: nothing written (a record is a table)")
        return b""
    # FinTabNet's own record (its boxes in PDF points) only for the one table a FinTabNet record made
    table_id = doc.metadata.get(TABLE_ID, "")
    fintabnet = len(doc.tables) == 1 and table_id.lstrip("-").isdigit() and len(table_id) < 19
    left_out = [0]
    lines = []
    for table, filename in zip(doc.tables, _record_names(doc)):
        record = _record(doc, table, filename, fintabnet, diagnostics, left_out)
        try:
            lines.append(json.dumps(record, ensure_ascii=False, allow_nan=False))
        except ValueError:
            raise diagnostics.fail("bad-number", "a coordinate is not finite; JSON cannot hold it") from None
    if left_out[0]:  # (a record cannot say its frame: boxes in another are left out, not written as they are)
        wanted = "the PDF points of a FinTabNet record" if fintabnet else "the image pixels of PubTabNet"
        diagnostics.warning("frame-foreign", f"{left_out[0]} cell box(es) not in {wanted}: left out",
                            hint=None if fintabnet else "pass --dpi and --page-height (or --pdf) to convert them")
    try:
        return ("\n".join(lines) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None


# -- the format ------------------------------------------------------------------------------

_RECORD_HTML = re.compile(rb'"html"\s*:\s*\{\s*"(?:cells|structure)"\s*:')


def sniff(head: bytes) -> bool:
    """A JSON object on the first line whose ``html`` holds ``cells`` or ``structure``."""
    start = (head[3:] if head.startswith(b"\xef\xbb\xbf") else head).lstrip()
    if start[:1] != b"{":
        return False
    return _RECORD_HTML.search(start.split(b"\n", 1)[0]) is not None


FORMAT = DECLARED["pubtabnet"]
