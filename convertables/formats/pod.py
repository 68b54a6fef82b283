"""ICDAR 2017 POD neighbour-annotated structure XML (docs/formats.md, `pod`), also used by the
cTDaR supplement::

    document[@filename]/table/(Coords, cell[@id,@neighbors]/Coords)*

``neighbors`` lists ``id:D`` with D in ``L R T B``: where the neighbour lies
relative to this cell. There are no row or column indices; the reader rebuilds
them. A relation "b is B of a" holds in a grid when b's start row is a's end
row + 1 and their column ranges overlap; likewise T, L and R.

The algorithm, per table, for rows (columns are the same with L/R and x):

1. Every cell has a top edge and a bottom edge. Each relation "b is B of a"
   says a's bottom edge and b's top edge are one grid line: the two edges are
   united (union-find). A relation is not used when the geometry contradicts
   it (b does not lie below a, give or take a tolerance: this drops most of the
   real files' contradictory pairs, such as vertically stacked cells that call
   each other R), nor when it would put a cell's top and bottom on one line.
   Relations are applied most plausible first (smallest gap).
2. Each group of united edges has a position (the mean of its edges' y).
   Sweeping the groups top to bottom, a group joins the current grid line
   unless some cell starts on the current line and ends at this group: then
   the group opens a new line. So the edges of cells without relations
   (``neighbors=""``) still find their lines, by geometry alone.
3. A cell's start row is the line of its top edge; its end row is the line of
   its bottom edge, minus one.

The reader reports, per file, the share of the file's relations that the grid
reproduces (``pod-relations``, info), and any table whose cells overlap
(``slot-overlap``). The ICDAR 2013 output keeps each POD cell's ``id``.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..geometry import parse_points, polygon_envelope
from ..grid import non_negative_int, overlapping_cells
from ..model import BBox, Cell, Document, Frame, Page, Region, Table
from ..options import ReadOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml

_RELATION = re.compile(r"^(\d+):([LRTB])$")


class _Edges:
    """Union-find over cell edges; an edge is (cell index, side)."""

    def __init__(self):
        self.parent: dict[tuple[int, str], tuple[int, str]] = {}

    def find(self, edge):
        """The root of ``edge``'s set; the path to it is made direct. (A loop, not
        recursion: a chain may be as long as a table has cells.)"""
        root = self.parent.setdefault(edge, edge)
        while self.parent[root] != root:
            root = self.parent[root]
        while edge != root:
            above = self.parent[edge]
            self.parent[edge] = root
            edge = above
        return root

    def union(self, a, b) -> None:
        self.parent[self.find(a)] = self.find(b)


def _lines(boxes: list[BBox], pairs: list[tuple[int, int]], beside: list[tuple[int, int]], low: str,
           high: str) -> dict[tuple[int, str], int]:
    """Grid line of every cell edge along one axis.

    ``pairs`` are (before, after) cell indices: ``after`` follows ``before``
    along the axis (below it, or right of it). ``beside`` are pairs related
    across the axis (left/right of each other, for rows), whose ranges along
    the axis must overlap. ``low``/``high`` name the two coordinates
    (``y1``/``y2`` or ``x1``/``x2``).
    """
    edges = _Edges()
    members: dict[tuple[int, str], set[tuple[int, str]]] = {}
    for i in range(len(boxes)):
        for side in ("lo", "hi"):
            edges.find((i, side))
            members[(i, side)] = {(i, side)}
    sizes = [getattr(b, high) - getattr(b, low) for b in boxes]
    from statistics import median  # (here: it imports random and decimal, which no other format needs)

    tolerance = 0.5 * median(sizes) if sizes else 0.0

    def gap(pair):
        before, after = pair
        return getattr(boxes[after], low) - getattr(boxes[before], high)

    for before, after in sorted(pairs, key=lambda p: abs(gap(p))):
        if gap((before, after)) < -tolerance:
            continue  # the geometry says otherwise
        a, b = edges.find((before, "hi")), edges.find((after, "lo"))
        if a == b:
            continue
        merged = members[a] | members[b]
        cells_lo = {i for i, s in merged if s == "lo"}
        cells_hi = {i for i, s in merged if s == "hi"}
        if cells_lo & cells_hi:
            continue  # would give a cell no extent
        edges.union(a, b)
        members[edges.find(a)] = merged

    def coordinate(edge) -> float:
        i, side = edge
        return getattr(boxes[i], low if side == "lo" else high)

    groups: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for edge in list(edges.parent):
        groups.setdefault(edges.find(edge), []).append(edge)
    # Cells related across the axis must overlap along it: their ranges share a line.
    partners: dict[int, set[int]] = {}
    for a, b in beside:
        if getattr(boxes[a], low) <= getattr(boxes[b], high) + tolerance and \
                getattr(boxes[b], low) <= getattr(boxes[a], high) + tolerance:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
    ordered = sorted(groups.values(), key=lambda g: (sum(map(coordinate, g)) / len(g)))
    line_of: dict[tuple[int, str], int] = {}
    line = 0
    opened: set[int] = set()  # cells whose low edge is on the current line
    for group in ordered:
        ending = [i for i, side in group if side == "hi"]
        if any(i in opened or partners.get(i, set()) & opened for i in ending):
            line += 1
            opened = set()
        for edge in group:
            line_of[edge] = line
            if edge[1] == "lo":
                opened.add(edge[0])
    return line_of


def rebuild_grid(boxes: list[BBox], relations: list[tuple[int, int, str]]) -> list[tuple[int, int, int, int]]:
    """(start_row, start_col, end_row, end_col) for each cell, from ``relations``
    (a, b, D): b lies in direction D of a."""
    vertical, horizontal = [], []
    for a, b, d in relations:
        if d == "B":
            vertical.append((a, b))
        elif d == "T":
            vertical.append((b, a))
        elif d == "R":
            horizontal.append((a, b))
        else:
            horizontal.append((b, a))
    rows = _lines(boxes, vertical, horizontal, "y1", "y2")
    cols = _lines(boxes, horizontal, vertical, "x1", "x2")
    out = []
    for i in range(len(boxes)):
        r0, r1 = rows[(i, "lo")], rows[(i, "hi")] - 1
        c0, c1 = cols[(i, "lo")], cols[(i, "hi")] - 1
        out.append([r0, c0, max(r0, r1), max(c0, c1)])
    _shrink_overlaps(out)
    return [tuple(p) for p in out]


def _shrink_overlaps(cells: list[list[int]], rounds: int = 50) -> None:
    """Where inconsistent relations made two cells share slots, the spanning
    one gives up the shared rows or columns on the side of the other."""
    for _ in range(rounds):
        changed = False
        proxies = [Cell(r0, c0, r1, c1) for r0, c0, r1, c1 in cells]
        position = {id(proxy): k for k, proxy in enumerate(proxies)}  # (equal cells are still two)
        for a, b in overlapping_cells(proxies):
            i, j = position[id(a)], position[id(b)]
            big, small = (i, j) if _area(cells[i]) >= _area(cells[j]) else (j, i)
            r0, c0, r1, c1 = cells[big]
            s0, t0, s1, t1 = cells[small]
            if r1 > r0 and (s0 <= r0 or s1 >= r1):  # give up rows
                if s0 <= r0:
                    cells[big][0] = min(r1, s1 + 1)
                else:
                    cells[big][2] = max(r0, s0 - 1)
            elif c1 > c0:  # give up columns
                if t0 <= c0:
                    cells[big][1] = min(c1, t1 + 1)
                else:
                    cells[big][3] = max(c0, t0 - 1)
            else:
                continue
            changed = True
            break
        if not changed:
            return


def _area(cell: list[int]) -> int:
    return (cell[2] - cell[0] + 1) * (cell[3] - cell[1] + 1)


def relation_holds(a: Cell, b: Cell, direction: str) -> bool:
    rows_overlap = a.start_row <= b.end_row and b.start_row <= a.end_row
    cols_overlap = a.start_col <= b.end_col and b.start_col <= a.end_col
    if direction == "B":
        return b.start_row == a.end_row + 1 and cols_overlap
    if direction == "T":
        return a.start_row == b.end_row + 1 and cols_overlap
    if direction == "R":
        return b.start_col == a.end_col + 1 and rows_overlap
    return a.start_col == b.end_col + 1 and rows_overlap


def _points(coords, diagnostics: Diagnostics):
    pts, problem = parse_points(coords.get("points") or "")
    if problem:
        diagnostics.error("bad-number", f"<Coords> {problem}", line=coords.sourceline)
        return None
    return polygon_envelope(pts, Frame.IMAGE)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    root = parse_xml(data, diagnostics)
    if local_name(root.tag) != "document":
        raise diagnostics.fail("pod-root", f"root element is <{local_name(root.tag)}>, not <document>",
                               line=root.sourceline)
    doc = Document(filename=root.get("filename"), pages=[Page(1, frame=Frame.IMAGE)])
    total = held = 0
    for t_index, table_el in enumerate(e for e in root if local_name(e.tag) == "table"):
        outline_el = next((e for e in table_el if local_name(e.tag) == "Coords"), None)
        region = Region(0, 1, bbox=_points(outline_el, diagnostics) if outline_el is not None else None)
        cell_els, boxes, ids = [], [], {}
        for cell_el in (e for e in table_el if local_name(e.tag) == "cell"):
            coords = next((e for e in cell_el if local_name(e.tag) == "Coords"), None)
            box = _points(coords, diagnostics) if coords is not None else None
            if box is None:
                diagnostics.error("cell-dropped", "a cell without a valid outline is left out", line=cell_el.sourceline)
                continue
            raw_id = (cell_el.get("id") or "").strip()
            if raw_id in ids:
                diagnostics.warning("duplicate-id", f"cell id {raw_id} repeats; the later cell's relations are "
                                                    "read as the first's", line=cell_el.sourceline)
            else:
                ids[raw_id] = len(boxes)
            cell_els.append(cell_el)
            boxes.append(box)
        relations = []
        for index, cell_el in enumerate(cell_els):
            for item in (cell_el.get("neighbors") or "").split():
                match = _RELATION.match(item)
                if not match or match.group(1) not in ids:
                    diagnostics.warning("pod-neighbor", f"neighbour {item!r} names no cell of this table",
                                        line=cell_el.sourceline)
                    continue
                relations.append((index, ids[match.group(1)], match.group(2)))
        positions = rebuild_grid(boxes, relations) if boxes else []
        for (r0, c0, r1, c1), box, cell_el in zip(positions, boxes, cell_els):
            region.cells.append(Cell(r0, c0, r1, c1, None, non_negative_int(cell_el.get("id")), box))
        for a, b, d in relations:
            total += 1
            held += relation_holds(region.cells[a], region.cells[b], d)
        doc.tables.append(Table(t_index, [region]))
    if total:
        diagnostics.info("pod-relations", f"the rebuilt grid reproduces {held} of {total} neighbour relations "
                                          f"({100 * held / total:.1f}%)")
    doc.metadata["pod_relations"] = f"{held}/{total}"
    return doc


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    return xml_root(head) == "document" and b"neighbors=" in head


FORMAT = DECLARED["pod"]
