"""What a metric found in one document, cell by cell: the detail the HTML report draws.

:meth:`~convertables.scoring.metric.Metric.explain` returns a JSON-ready dict::

    {"kind": "relations" | "cells" | "tables" | "regions",
     "levels": ["relations"],            # what a relation's found-mask bits stand for
                                         # (cTDaR B: the IoU thresholds "0.6" ... "0.9")
     "pairs": [{"gt": GRID or None, "result": GRID or None,
                "scores": {...},         # the record's entry for the pair (counts, F1, IoU...)
                "counted": bool}, ...],
     "pages": [PAGE, ...],               # where boxes say more than grids (regions, cTDaR A)
     "measure": "IoU",                   # what partners' figures and levels are (the default)
     "notes": ["...", ...]}

A GRID is one table drawn as its grid: ``rows`` and ``cols`` (the bands between
cell boundaries, so a cell claiming a million rows is one band), ``cells`` as
``[row, col, rowspan, colspan, text]`` in band units, and where the metric has
them ``relations`` as ``[from cell, to cell, "H" or "V", empty slots between or
None, found mask]`` and ``outcome``, a string a cell with a character a level:
``A`` all its relations found (or right, on the result side), ``S`` some, ``N``
none, ``-`` it has none; and ``partners``, a cell's partner on the other side
``[cell or -1, figure]`` a level (cTDaR B: the cell it is mapped to, and their
IoU), which a click on the cell names. A PAGE is ``width``, ``height`` and ``boxes`` as
``[x1, y1, x2, y2, side, label, outcome]``, origin top-left (:mod:`..geometry`
turns them), and ``items`` as ``[x, y, class]`` (``A`` in both, ``N`` missed,
``F`` false).

The kind says how the page reads the outcomes: ``relations`` by a cell's
adjacency relations, ``cells`` by the cell itself (``A`` matched whole, ``S`` in
part, ``N`` not: a metric that aligns cells, as TEDS or GriTS could, with the
aligned cell as its partner), ``tables`` without outcomes, ``regions`` as pages.
"""

from __future__ import annotations

from typing import IO, Iterable, Sequence

from ..model import BBox, Document, Frame, Table

MAX_TEXT = 240
"""A cell's text is cut to this many characters in the detail (the page stays small)."""


class Details:
    """The documents' details as they come, as JSON text in a temporary file (a
    large corpus's would take a lot of memory), by their records' positions."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._where: dict[int, tuple[int, int]] = {}

    def add(self, position: int, detail: str) -> None:
        if self._file is None:
            import tempfile

            self._file = tempfile.TemporaryFile()
        data = detail.encode("utf-8")
        offset = self._file.seek(0, 2)
        self._file.write(data)
        self._where[position] = (offset, len(data))

    def text(self, position: int) -> str | None:
        """The detail of the record at ``position``, as JSON text (None: none was made)."""
        where = self._where.get(position)
        if where is None or self._file is None:
            return None
        self._file.seek(where[0])
        return self._file.read(where[1]).decode("utf-8")

    def positions(self) -> list[int]:
        """The positions of the records that have a detail."""
        return sorted(self._where)

    def get(self, position: int) -> dict | None:
        import json

        text = self.text(position)
        return None if text is None else json.loads(text)

    def __len__(self) -> int:
        return len(self._where)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            self._where.clear()


def _band_positions(starts: Sequence[int], ends: Sequence[int]) -> tuple[dict[int, int], int]:
    cuts = sorted({*starts, *ends})
    return {cut: k for k, cut in enumerate(cuts)}, max(len(cuts) - 1, 0)


def table_grid(table: Table, shifted: bool = True) -> dict:
    """One table as a GRID (its cells in document order, regions one after the
    other); ``shifted``: regions placed by their increments, as the ICDAR 2013
    tool places them (the biomedical benchmark ignores them)."""
    top, below, left, after, words = [], [], [], [], []
    for region in table.regions:
        dr, dc = (region.row_increment, region.col_increment) if shifted else (0, 0)
        for cell in region.cells:
            top.append(cell.start_row + dr)
            below.append(cell.end_row + 1 + dr)
            left.append(cell.start_col + dc)
            after.append(cell.end_col + 1 + dc)
            text = " ".join(cell.content.split()) if cell.content else ""
            words.append(text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "\u2026")
    rows, n_rows = _band_positions(top, below)
    cols, n_cols = _band_positions(left, after)
    cells = [[rows[a], cols[c], rows[b] - rows[a], cols[d] - cols[c], w]
             for a, b, c, d, w in zip(top, below, left, after, words)]
    return {"table": table.id, "page": table.page, "rows": n_rows, "cols": n_cols, "cells": cells}


def with_relations(grid: dict, relations: Iterable[tuple[int, int, str, int | None]], found: Sequence[int],
                   levels: int = 1) -> dict:
    """``grid`` with its ``relations`` (by cell position) and the ``found`` mask of
    each, and each cell's ``outcome``."""
    listed = [[a, b, direction, gap, mask] for (a, b, direction, gap), mask in zip(relations, found)]
    grid["relations"] = listed
    grid["outcome"] = cell_outcomes(len(grid["cells"]), listed, levels)
    return grid


def cell_outcomes(n_cells: int, relations: list[list], levels: int = 1) -> list[str]:
    """Each cell's outcome (``A``/``S``/``N``/``-`` a level) from its relations' found masks."""
    total = [0] * n_cells
    if levels == 1:  # (the usual: masks are 0 or 1, summed as they are)
        found = [0] * n_cells
        for a, b, _direction, _gap, mask in relations:
            total[a] += 1
            found[a] += mask
            if b != a:
                total[b] += 1
                found[b] += mask
        return ["-" if not n else "A" if k == n else "N" if not k else "S" for n, k in zip(total, found)]
    per_level = [[0] * levels for _ in range(n_cells)]
    for a, b, _direction, _gap, mask in relations:
        for cell in (a, b) if a != b else (a,):
            total[cell] += 1
            for level in range(levels):
                if mask >> level & 1:
                    per_level[cell][level] += 1
    return ["".join("-" if not n else "A" if k == n else "N" if k == 0 else "S" for k in counts)
            for n, counts in zip(total, per_level)]


def _table_entry_scores(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if isinstance(v, (int, float, str, bool)) or v is None}


def default_explain(gt: Document, result: Document | None, record: dict | None, shifted: bool = True) -> dict:
    """Tables side by side, without cell outcomes: paired as the record's ``tables``
    entries name them (``gt_table``, ``result_table``) with each entry's scores;
    where the record names no pairs, each side's tables in order, unpaired."""
    result = result or Document()
    gt_by_id = {t.id: t for t in gt.tables}
    res_by_id = {t.id: t for t in result.tables}
    entries = [e for e in (record or {}).get("tables") or () if isinstance(e, dict)
               and ("gt_table" in e or "result_table" in e)]
    pairs = []
    if entries:
        shown_gt, shown_res = set(), set()
        for entry in entries:
            g, r = gt_by_id.get(entry.get("gt_table")), res_by_id.get(entry.get("result_table"))
            shown_gt.add(entry.get("gt_table"))
            shown_res.add(entry.get("result_table"))
            pairs.append({"gt": table_grid(g, shifted) if g else None, "result": table_grid(r, shifted) if r else None,
                          "scores": _table_entry_scores(entry), "counted": entry.get("counted", True)})
        pairs += [{"gt": table_grid(t, shifted), "result": None, "scores": {}, "counted": False}
                  for t in gt.tables if t.id not in shown_gt]
        pairs += [{"gt": None, "result": table_grid(t, shifted), "scores": {}, "counted": False}
                  for t in result.tables if t.id not in shown_res]
        notes = []
    else:
        pairs = [{"gt": table_grid(t, shifted), "result": None, "scores": {}, "counted": True} for t in gt.tables]
        pairs += [{"gt": None, "result": table_grid(t, shifted), "scores": {}, "counted": True}
                  for t in result.tables]
        notes = ["the metric's record names no pairs of tables: each side's tables are shown in order"]
    return {"kind": "tables", "levels": [], "pairs": pairs, "notes": notes}


# -- pages of boxes ----------------------------------------------------------------------------

def page_sizes(doc: Document) -> dict[int, tuple[float, float]]:
    """Width and height of the pages whose size the document says (in their frame's units)."""
    return {p.number: (p.width, p.height) for p in doc.pages if p.width and p.height}


def sketch_pages(boxes: list[tuple[int, BBox, str, str, str]], sizes: dict[int, tuple[float, float]],
                 items: dict[int, list[tuple[BBox, str]]] | None = None) -> list[dict]:
    """PAGEs of ``boxes`` (``(page, box, side, label, outcome)``) and ``items``
    (page -> ``(box, class)``), turned to a top-left frame by the geometry
    module: pixels as they are, PDF points as pixels at 72 DPI (points still, y
    down), fractions of the page as fractions. A page whose size is unknown is
    the extent of what lies on it, with a margin."""
    from ..geometry import PageFrame, convert_box

    pages = []
    for number in sorted({b[0] for b in boxes} | set(items or ())):
        on_page = [b for b in boxes if b[0] == number]
        dots = (items or {}).get(number, [])
        if number in sizes:
            width, height = sizes[number]
        else:
            shown = [b[1] for b in on_page] + [i[0] for i in dots]
            width = max((max(b.x1, b.x2) for b in shown), default=1.0) * 1.03
            height = max((max(b.y1, b.y2) for b in shown), default=1.0) * 1.03
        page = PageFrame(72.0, height, width)
        digits = 1 if max(width, height) > 50 else 4  # (points and pixels; fractions of a page need more)

        def top_left(box: BBox) -> BBox:
            return box if box.frame is Frame.IMAGE else convert_box(box, Frame.IMAGE, page)

        drawn = []
        for _, box, side, label, outcome in on_page:
            box = top_left(box)
            drawn.append([round(box.x1, digits), round(box.y1, digits), round(box.x2, digits),
                          round(box.y2, digits), side, label, outcome])
        centres = []
        for box, cls in dots:
            box = top_left(box)
            centres.append([round((box.x1 + box.x2) / 2, digits), round((box.y1 + box.y2) / 2, digits), cls])
        pages.append({"page": number, "width": round(width, digits), "height": round(height, digits), "boxes": drawn,
                      "items": centres})
    return pages
