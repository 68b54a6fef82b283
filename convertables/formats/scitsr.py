"""SciTSR structure JSON (docs/formats.md, `scitsr`): one table a file, as the SciTSR
dataset's ``structure/<id>.json`` holds it; read and written.

A file is ``{"cells": [...]}``; each cell has ``id``, ``tex`` (its LaTeX source),
``content`` (its text split at spaces: a list of tokens) and ``start_row``,
``end_row``, ``start_col``, ``end_col`` (0-based, inclusive, as the model's).
The table is on page 1, without boxes. A cell's text is its ``content`` tokens
joined by a space (``tex`` where ``content`` is missing); an empty list is a
blank cell. A cell that is not an object, or whose four indices are not JSON
integers from 0 to 10^9, is left out (``cell-dropped``); anything else that is
not SciTSR's shape stops reading (``scitsr-invalid``).

The dataset's chunk files (``chunk/<id>.chunk``: text pieces with PDF boxes)
are not read: nothing ties a chunk to a cell but its text, which SciTSR's own
tools match by heuristics.

Written: the cells of the document's one table (regions' increments applied),
``id`` counted from 0, ``tex`` the text, ``content`` its tokens. A file holds one
table: a document of several is refused (``scitsr-tables``).
"""

from __future__ import annotations

import json
import re

from ..diagnostics import Diagnostics
from ..grid import NUMBER_LIMIT
from ..jsonsafe import integer, parse_json
from ..model import Cell, Document, Region, Table
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED

_INDICES = ("start_row", "end_row", "start_col", "end_col")


def _text(entry: dict) -> str | None:
    content = entry.get("content")
    if content.__class__ is list and all(token.__class__ is str for token in content):
        return " ".join(content)
    tex = entry.get("tex")
    if content is None and tex.__class__ is str:
        return tex
    return None


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    value = parse_json(data, diagnostics)
    if value.__class__ is not dict or value.get("cells").__class__ is not list:
        raise diagnostics.fail("scitsr-invalid", "not SciTSR structure JSON: no object with a \"cells\" list")
    cells: list[Cell] = []
    dropped: list[str] = []
    odd_text: list[int] = []
    for k, entry in enumerate(value["cells"]):
        if entry.__class__ is not dict:
            dropped.append(f"cells[{k}] is not an object")
            continue
        indices = [integer(entry.get(name)) for name in _INDICES]
        bad = [name for name, found in zip(_INDICES, indices) if found is None or not 0 <= found <= NUMBER_LIMIT]
        if bad:
            dropped.append(f"cells[{k}].{bad[0]} is {json.dumps(entry.get(bad[0]))[:40]}")
            continue
        start_row, end_row, start_col, end_col = indices
        text = _text(entry)
        if text is None:
            odd_text.append(k)
            text = ""
        cell_id = integer(entry.get("id"))
        cells.append(Cell(start_row, start_col, end_row, end_col, text,
                          cell_id if cell_id is not None and 0 <= cell_id <= NUMBER_LIMIT else None))
    if dropped:
        diagnostics.error("cell-dropped", f"{len(dropped)} cell(s) without four indices from 0 to 10^9 left out: "
                                          f"{dropped[0]}")
    if odd_text:
        diagnostics.warning("scitsr-content", f"{len(odd_text)} cell(s) whose content is not a list of texts (nor a "
                                              f"tex where it is missing) read as blank: cells[{odd_text[0]}]")
    return Document(tables=[Table(0, [Region(0, 1, cells=cells)])])


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    if len(doc.tables) > 1:
        raise diagnostics.fail("scitsr-tables", f"a SciTSR file holds one table; the document has {len(doc.tables)}",
                               hint="write one file a table from the per-table files of an export, or convert a "
                                    "document of one table")
    out = []
    before = 0
    for table in doc.tables:
        for region in table.regions:
            for cell in region.cells:
                r0, c0 = cell.start_row + region.row_increment, cell.start_col + region.col_increment
                if r0 < 0 or c0 < 0:
                    before += 1
                    continue
                text = cell.content or ""
                out.append({"id": len(out), "tex": text, "content": text.split(),
                            "start_row": r0, "end_row": cell.end_row + region.row_increment,
                            "start_col": c0, "end_col": cell.end_col + region.col_increment})
    if before:
        diagnostics.warning("scitsr-cell-left-out", f"{before} cell(s) before the first row or column left out")
    try:
        return (json.dumps({"cells": out}, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise diagnostics.fail("bad-text", "a text holds a lone surrogate, which UTF-8 cannot encode") from None


# -- the format ------------------------------------------------------------------------------

_CELLS = re.compile(rb'"cells"\s*:')
_START_ROW = re.compile(rb'"start_row"\s*:')
_END_COL = re.compile(rb'"end_col"\s*:')


def sniff(head: bytes) -> bool:
    """A JSON object with ``cells`` and the keys ``start_row`` and ``end_col``."""
    start = (head[3:] if head.startswith(b"\xef\xbb\xbf") else head).lstrip()
    return (start[:1] == b"{" and _CELLS.search(start) is not None and _START_ROW.search(start) is not None
            and _END_COL.search(start) is not None)


FORMAT = DECLARED["scitsr"]
