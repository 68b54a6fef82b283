"""The ICDAR 2019 cTDaR metrics (docs/scoring.md, `--metric ctdar-a`/`ctdar-b`): Track A (tables) and Track B (cells).

As the official tool (cndplab-founder/ctdar_measurement_tool) computes them:

* IoU of two outlines: intersection area over union area after ``buffer(0)``
  repair; 0 when both are degenerate. Thresholds 0.6, 0.7, 0.8 and 0.9, each
  tested with ``>=``. A table's outline is its own ``Coords``.
* Track A, per file and threshold: ground-truth tables in document order, each
  matched to the first remaining result table with IoU >= t.
* Track B, per file: tables paired at table IoU >= 0.8 (whatever t); in each
  pair each ground-truth cell maps to the first result cell with cell IoU >= t
  (first-fit, not one-to-one). Relations are built on cell identity: each cell
  links to the next occupied slot right and down, empty slots skipped and not
  counted; cells sharing a slot link to every occupant but themselves;
  duplicates are removed. A result relation is correct when a ground-truth
  relation, its two cells mapped, equals it. Unpaired tables add their
  relations to gt or res.
* Totals are micro sums per threshold; the weighted-average F1 is
  ``sum(t * F1@t) / sum(t)`` (the tool does not print it).

Where the tool has bugs, the default is correct and ``compat`` reproduces it:
in Track B the ground-truth table after a paired one is never tried; a ground
truth without a result file is counted for only every other such file (the
tool's list order; here, sorted names); an unreadable result file adds the
number of tables, not relations, to gt. ``matching="optimal"`` replaces every
greedy or first-fit step by an optimal one-to-one assignment on IoU.

IoUs are computed once per file for all thresholds, and only for pairs whose
outlines can overlap (pixel rectangles: a grid of buckets; other polygons: an
STR-tree), kept sparse (:class:`~convertables.geometry.Overlaps`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Iterator, Mapping

from ..diagnostics import UsageError
from ..geometry import Overlaps, iou_matrix
from ..model import Cell, Document, Table
from ..options import ReadOptions
from .precision_recall import scores
from .declarations import CTDAR_SETTINGS
from .metric import Metric, ScoreSettings
from .presentation import Rows, Summary, notes, problem, title, warnings_field
from .structure import Bands, bands

THRESHOLDS = (0.6, 0.7, 0.8, 0.9)
TABLE_PAIRING_IOU = 0.8


def _in_one_frame(gt: Document, result: Document, gt_file: Path | None) -> tuple[Document, Document]:
    """Both documents with their boxes in the ground truth's frame (converted where
    the pages' sizes are known); an InputError (``frames-incomparable``) where some
    box cannot be: the document is not scored, rather than given IoUs of boxes in
    other frames."""
    from ..diagnostics import Diagnostic, InputError, Severity
    from ..geometry import FramesIncomparable, in_one_frame

    try:
        return in_one_frame(gt, result)
    except FramesIncomparable as exc:
        raise InputError(Diagnostic("frames-incomparable", Severity.ERROR, f"not scored: {exc}",
                                    str(gt_file) if gt_file else None)) from None


def _table_outline(table: Table):
    return table.regions[0].bbox if table.regions else None


# -- relations of one table (on cell identity) ---------------------------------------------

def cell_relations(cells: list[Cell]) -> set[tuple[int, int, str]]:
    """``(from, to, direction)`` by cell index, as the official tool links cells."""
    if not cells:
        return set()
    cell_bands = bands([c.start_row for c in cells], [c.end_row + 1 for c in cells],
                       [c.start_col for c in cells], [c.end_col + 1 for c in cells])
    alone = _relations_of_disjoint_cells(cell_bands)
    if alone is not None:
        return alone
    # Cells share slots: each slot holds the tuple of its occupants.
    row_cuts, col_cuts, n_rows, n_cols, i0, i1, j0, j1, _, _ = cell_bands
    grid: list[list[tuple[int, ...]]] = [[()] * n_cols for _ in range(n_rows)]
    for k, (a, b, c, d) in enumerate(zip(i0, i1, j0, j1)):
        for i in range(a, b):
            row = grid[i]
            for j in range(c, d):
                row[j] = row[j] + (k,)
    rects = [(c.start_row, c.end_row, c.start_col, c.end_col) for c in cells]
    relations: set[tuple[int, int, str]] = set()

    def link(here: tuple[int, ...], there: tuple[int, ...], direction: str, adjacent: bool) -> None:
        """Link the occupants of two slots of a line, as the tool does: across
        empty slots, every occupant to every occupant; between neighbouring
        slots (or within one band), never a cell to itself, nor two cells of
        exactly the same span that share both slots."""
        for x in here:
            for y in there:
                if not adjacent:
                    relations.add((x, y, direction))
                elif x != y and (len(here) == 1 or len(there) == 1 or rects[x] != rects[y]):
                    relations.add((x, y, direction))

    def scan(line: list[tuple[int, ...]], sizes: list[int], direction: str) -> None:
        for j, here in enumerate(line):
            if not here:
                continue
            if sizes[j] > 1:  # a band over several grid lines neighbours itself: its occupants link
                link(here, here, direction, True)
            if j + 1 < len(line):
                if line[j + 1]:
                    link(here, line[j + 1], direction, True)
                else:
                    after = next((s for s in line[j + 1:] if s), None)
                    if after:
                        link(here, after, direction, False)

    widths = [col_cuts[j + 1] - col_cuts[j] for j in range(n_cols)]
    heights = [row_cuts[i + 1] - row_cuts[i] for i in range(n_rows)]
    for row in grid:
        scan(row, widths, "H")
    for j in range(n_cols):
        scan([grid[i][j] for i in range(n_rows)], heights, "V")
    return relations


def _relations_of_disjoint_cells(cell_bands: Bands):
    """:func:`cell_relations` where no two cells share a band slot (the usual
    case), or None. Each slot then holds one cell or none, and the relations
    along a line are its runs of occupied slots with the empty ones dropped:
    each cell links to the next different one (a cell spanning slots does not
    link to itself)."""
    _, _, n_rows, n_cols, i0, i1, j0, j1, firsts, one_slot_each = cell_bands
    grid = [-1] * (n_rows * n_cols)
    if one_slot_each:  # (the usual page: one store a cell)
        if len(set(firsts)) < len(firsts):
            return None
        for first, k in zip(firsts, range(len(firsts))):
            grid[first] = k
    else:
        for k, (a, b, c, d) in enumerate(zip(i0, i1, j0, j1)):
            for base in range(a * n_cols, b * n_cols, n_cols):
                for slot in range(base + c, base + d):
                    if grid[slot] >= 0:
                        return None
                    grid[slot] = k
    relations: set[tuple[int, int, str]] = set()
    for lines, direction in (((grid[i * n_cols:(i + 1) * n_cols] for i in range(n_rows)), "H"),
                             ((grid[j::n_cols] for j in range(n_cols)), "V")):
        for line in lines:
            occupied = [k for k in line if k >= 0]
            if one_slot_each:  # neighbours in a line are different cells
                relations.update(zip(occupied, occupied[1:], repeat(direction)))
            else:
                relations.update((a, b, direction) for a, b in zip(occupied, occupied[1:]) if a != b)
    return relations


# -- matching --------------------------------------------------------------------------------

def _first_fit(iou: Overlaps, threshold: float, one_to_one: bool) -> dict[int, int]:
    """Row i -> the first column j (in order) with IoU >= threshold."""
    pairs = {}
    taken: set[int] = set()
    for i, row in enumerate(iou.rows):
        for j, value in row.items():
            if value >= threshold and j not in taken:
                pairs[i] = j
                if one_to_one:
                    taken.add(j)
                break
    return pairs


def _optimal(iou: Overlaps, threshold: float) -> dict[int, int]:
    """A one-to-one assignment maximising total IoU among pairs with IoU >= threshold."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if not iou.rows or not iou.n_columns:
        return {}
    weights = np.zeros((len(iou.rows), iou.n_columns))
    for i, row in enumerate(iou.rows):
        for j, value in row.items():
            if value >= threshold:
                weights[i, j] = value
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return {int(i): int(j) for i, j in zip(rows, cols) if iou.get(i, j) >= threshold}


def _pair_tables(iou: Overlaps, matching: str, compat: bool) -> dict[int, int]:
    if matching == "optimal":
        return _optimal(iou, TABLE_PAIRING_IOU)
    if not compat:
        return _first_fit(iou, TABLE_PAIRING_IOU, one_to_one=True)
    # The tool removes a paired table from the list it is iterating over, so
    # the next ground-truth table is never tried.
    remaining_gt = list(range(len(iou.rows)))
    remaining_res = list(range(iou.n_columns))
    pairs: dict[int, int] = {}
    position = 0
    while position < len(remaining_gt):
        g = remaining_gt[position]
        for r in remaining_res:
            if iou.get(g, r) >= TABLE_PAIRING_IOU:
                pairs[g] = r
                remaining_res.remove(r)
                remaining_gt.remove(g)
                break
        position += 1
    return pairs


# -- per document ----------------------------------------------------------------------------

@dataclass
class Counts:
    """Correct, ground-truth and detected counts at one IoU threshold."""

    correct: int = 0
    gt: int = 0
    detected: int = 0

    def as_dict(self) -> dict:
        return {"gt": self.gt, "correct": self.correct, "detected": self.detected}


def table_matches(gt: Document, result: Document,
                  matching: str = "greedy") -> tuple[Overlaps, dict[float, dict[int, int]]]:
    """Track A: the tables' IoUs, and at each threshold the matches (ground-truth index -> result index)."""
    iou = iou_matrix([_table_outline(t) for t in gt.tables], [_table_outline(t) for t in result.tables],
                     min(THRESHOLDS))
    return iou, {t: _optimal(iou, t) if matching == "optimal" else _first_fit(iou, t, one_to_one=True)
                 for t in THRESHOLDS}


def track_a(gt: Document, result: Document, matching: str = "greedy") -> dict[float, Counts]:
    _, matches = table_matches(gt, result, matching)
    return {t: Counts(len(pairs), len(gt.tables), len(result.tables)) for t, pairs in matches.items()}


@dataclass
class TrackBTables:
    """Track B's view of a document pair: each table's cells and relations, the
    tables' IoUs and the pairs of tables (ground-truth index -> result index)."""

    gt_cells: list[list[Cell]]
    res_cells: list[list[Cell]]
    gt_rel: list[set[tuple[int, int, str]]]
    res_rel: list[set[tuple[int, int, str]]]
    table_iou: Overlaps
    pairs: dict[int, int]

    @classmethod
    def of(cls, gt: Document, result: Document, matching: str = "greedy", compat: bool = False) -> "TrackBTables":
        gt_cells = [t.cells() for t in gt.tables]
        res_cells = [t.cells() for t in result.tables]
        table_iou = iou_matrix([_table_outline(t) for t in gt.tables], [_table_outline(t) for t in result.tables],
                               TABLE_PAIRING_IOU)
        return cls(gt_cells, res_cells, [cell_relations(c) for c in gt_cells], [cell_relations(c) for c in res_cells],
                   table_iou, _pair_tables(table_iou, matching, compat))

    def cell_mappings(self, g: int, r: int, matching: str) -> tuple[Overlaps, dict[float, dict[int, int]]]:
        """The cells' IoUs in a pair of tables, and at each threshold each
        ground-truth cell's result cell (first-fit, or optimal)."""
        cell_iou = iou_matrix([c.bbox for c in self.gt_cells[g]], [c.bbox for c in self.res_cells[r]],
                              min(THRESHOLDS))
        return cell_iou, {t: _optimal(cell_iou, t) if matching == "optimal" else _first_fit(cell_iou, t, False)
                          for t in THRESHOLDS}

    def mapped(self, g: int, mapping: dict[int, int]) -> set[tuple[int, int, str]]:
        """The ground-truth table's relations, their cells mapped (those whose two cells are)."""
        return {(mapping[a], mapping[b], d) for a, b, d in self.gt_rel[g] if a in mapping and b in mapping}


def track_b(gt: Document, result: Document, matching: str = "greedy", compat: bool = False):
    """Counts per threshold, and per-table records."""
    tables = TrackBTables.of(gt, result, matching, compat)
    gt_rel, res_rel, table_iou, pairs = tables.gt_rel, tables.res_rel, tables.table_iou, tables.pairs
    out = {t: Counts(gt=sum(map(len, gt_rel)), detected=sum(map(len, res_rel))) for t in THRESHOLDS}
    records = []
    for g, table in enumerate(gt.tables):
        r = pairs.get(g)
        record = {"gt_table": table.id, "result_table": None if r is None else result.tables[r].id,
                  "table_iou": None if r is None else table_iou.get(g, r), "gt": len(gt_rel[g]),
                  "detected": 0 if r is None else len(res_rel[r]), "correct": {}}
        if r is not None:
            for t, mapping in tables.cell_mappings(g, r, matching)[1].items():
                correct = len(res_rel[r] & tables.mapped(g, mapping))
                out[t].correct += correct
                record["correct"][str(t)] = correct
        records.append(record)
    paired = set(pairs.values())
    for r, table in enumerate(result.tables):
        if r not in paired:
            records.append({"gt_table": None, "result_table": table.id, "table_iou": None, "gt": 0,
                            "detected": len(res_rel[r]), "correct": {}})
    return out, records


def gt_total(gt: Document, track: str) -> int:
    """What a ground truth without a result adds to gt."""
    if track == "A":
        return len(gt.tables)
    return sum(len(cell_relations(t.cells())) for t in gt.tables)


# -- the metrics, as the runner calls them ---------------------------------------------------------

class CtdarMetric(Metric):
    """ICDAR 2019 cTDaR, Track A (tables) or B (cells and their adjacency)."""

    gt_model = None
    variants = ("ctdar2019",)
    settings = CTDAR_SETTINGS
    read_options = ReadOptions(extra={"keep_filler_cells": True})  # the official tool counts them
    names = {"f1": "WAvg F1", "wavg_f1": "WAvg F1"}

    def __init__(self, track: str):
        self.track = track
        self.name = f"ctdar-{track.lower()}"

    def check(self, settings: ScoreSettings) -> None:
        if settings.compat and settings.matching != "greedy":
            raise UsageError("--compat reproduces the official tool, whose matching is greedy; drop --matching")

    def describe(self, settings: ScoreSettings) -> dict:
        what = "tables matched at IoU >= t" if self.track == "A" else (
            "tables paired at IoU >= 0.8, cells mapped at IoU >= t, adjacency relations on cell identity")
        return {
            "variant": "ctdar2019",
            "normalisation": "none (cTDaR compares geometry, not text)",
            "aggregation": (
                f"{what}; micro sums over all documents per threshold; wavg_f1 = sum(t * F1@t) / sum(t); "
                f"matching: {settings.matching}"
                + ("; compat: the official tool's bugs reproduced (Track B skips the ground-truth table after a "
                   "paired one; only every other ground truth without a result counts; an unreadable result "
                   "adds its ground truth's table count)" if settings.compat else "")
            ),
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        if result is not None:
            gt, result = _in_one_frame(gt, result, gt_file)
        if result is None:
            total = gt_total(gt, self.track)
            if unreadable and settings.compat:
                total = len(gt.tables)  # the tool's bug: tables, not relations
            counts = {t: Counts(0, total, 0) for t in THRESHOLDS}
            tables: list[dict] = []
        elif self.track == "A":
            counts = track_a(gt, result, settings.matching)
            tables = []
        else:
            counts, tables = track_b(gt, result, settings.matching, settings.compat)
        record = {"iou": {str(t): {**c.as_dict(), **scores(c.gt, c.correct, c.detected)} for t, c in counts.items()}}
        record["f1"] = self._wavg(record["iou"])
        if tables:
            record["tables"] = tables
        if result is None and not unreadable:
            record["missing_result"] = True
        return record

    @staticmethod
    def _wavg(per_threshold: dict) -> float:
        """sum(t * F1@t) / sum(t), summed left to right over 0.6..0.9 and divided by
        exactly 3.0, as the published reference figures were computed; a mean of
        equal values is that value (a perfect score is 1.0, not 0.9999999999999999)."""
        f1s = [per_threshold[str(t)]["f1"] for t in THRESHOLDS]
        if len(set(f1s)) == 1:
            return f1s[0]
        return sum(t * f for t, f in zip(THRESHOLDS, f1s)) / math.fsum(THRESHOLDS)

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        counted = records
        if settings.compat:
            # The tool drops every other ground truth that has no result file.
            missing = sorted((r for r in records if r.get("missing_result")), key=lambda r: r["gt_file"])
            dropped = {id(r) for r in missing[0::2]}
            counted = [r for r in records if id(r) not in dropped]
        per_t = {}
        for t in THRESHOLDS:
            key = str(t)
            sums = {k: sum(r["iou"][key][k] for r in counted) for k in ("gt", "correct", "detected")}
            per_t[key] = {**sums, **scores(**sums)}
        return {"total": {"wavg_f1": self._wavg(per_t), "iou": per_t, "documents": len(counted)}}

    def explain(self, gt: Document, result: Document | None, settings: ScoreSettings, record: dict | None = None,
                gt_file: Path | None = None) -> dict:
        """Track A: the tables' outlines on their pages, matched or not at each
        threshold, and each pair's IoU. Track B: each pair of tables as grids,
        each relation found at each threshold or not, each cell's partner and
        their IoU; the tables' outlines on their pages."""
        from .explain import page_sizes, sketch_pages

        if result is not None:
            gt, result = _in_one_frame(gt, result, gt_file)
        result = result or Document()
        if self.track == "A":
            pairs, boxes = self._explain_a(gt, result, settings)
        else:
            pairs, boxes = self._explain_b(gt, result, settings)
        sizes = page_sizes(gt)
        return {"kind": "relations" if self.track == "B" else "tables", "levels": [str(t) for t in THRESHOLDS],
                "pairs": pairs, "pages": sketch_pages(boxes, sizes), "notes": []}

    def _explain_a(self, gt: Document, result: Document, settings: ScoreSettings) -> tuple[list, list]:
        from .explain import table_grid

        iou, matches = table_matches(gt, result, settings.matching)
        lowest = matches[THRESHOLDS[0]]
        matched_results = {t: set(m.values()) for t, m in matches.items()}
        pairs, boxes = [], []
        for g, table in enumerate(gt.tables):
            r = lowest.get(g)
            matched = [str(t) for t, m in matches.items() if g in m]
            scores = {"table_iou": None if r is None else round(iou.get(g, r), 4),
                      "matched at IoU": ", ".join(matched) or "none"}
            pairs.append({"gt": table_grid(table), "result": table_grid(result.tables[r]) if r is not None else None,
                          "scores": scores, "counted": True})
            outline = _table_outline(table)
            if outline is not None and table.regions:
                boxes.append((table.regions[0].page, outline, "gt", f"ground truth {table.id}",
                              "".join("A" if g in matches[t] else "N" for t in THRESHOLDS)))
        for r, table in enumerate(result.tables):
            if r not in lowest.values():
                pairs.append({"gt": None, "result": table_grid(table), "scores": {}, "counted": True})
            outline = _table_outline(table)
            if outline is not None and table.regions:
                boxes.append((table.regions[0].page, outline, "result", f"result {table.id}",
                              "".join("A" if r in matched_results[t] else "N" for t in THRESHOLDS)))
        return pairs, boxes

    def _explain_b(self, gt: Document, result: Document, settings: ScoreSettings) -> tuple[list, list]:
        from .explain import table_grid, with_relations

        tables = TrackBTables.of(gt, result, settings.matching, settings.compat)
        levels = len(THRESHOLDS)

        def grid(table: Table, relations: list, masks: list[int], partners: list | None) -> dict:
            shown = with_relations(table_grid(table), [(a, b, d, None) for a, b, d in relations], masks, levels)
            shown["partners"] = partners or [[[-1, 0.0]] * levels for _ in shown["cells"]]
            return shown

        pairs, boxes = [], []
        for g, table in enumerate(gt.tables):
            r = tables.pairs.get(g)
            gt_relations = sorted(tables.gt_rel[g])
            scores = {"gt_table": table.id, "result_table": None, "table_iou": None, "gt": len(gt_relations),
                      "detected": 0}
            if r is None:
                pairs.append({"gt": grid(table, gt_relations, [0] * len(gt_relations), None), "result": None,
                              "scores": scores, "counted": True})
            else:
                res_relations = sorted(tables.res_rel[r])
                cell_iou, mappings = tables.cell_mappings(g, r, settings.matching)
                gt_masks, res_masks = [0] * len(gt_relations), [0] * len(res_relations)
                gt_partners = [[[-1, 0.0]] * levels for _ in tables.gt_cells[g]]
                res_partners = [[[-1, 0.0]] * levels for _ in tables.res_cells[r]]
                for level, t in enumerate(THRESHOLDS):
                    mapping = mappings[t]
                    mapped = tables.mapped(g, mapping)
                    for k, (a, b, d) in enumerate(gt_relations):
                        if a in mapping and b in mapping and (mapping[a], mapping[b], d) in tables.res_rel[r]:
                            gt_masks[k] |= 1 << level
                    for k, relation in enumerate(res_relations):
                        if relation in mapped:
                            res_masks[k] |= 1 << level
                    for a, b in sorted(mapping.items()):
                        partner = [b, round(cell_iou.get(a, b), 4)]
                        gt_partners[a] = [*gt_partners[a][:level], partner, *gt_partners[a][level + 1:]]
                        if res_partners[b][level][0] < 0:  # (first-fit maps several to one: the first is named)
                            res_partners[b] = [*res_partners[b][:level], [a, partner[1]], *res_partners[b][level + 1:]]
                    scores[f"correct@{t}"] = sum(1 for m in res_masks if m >> level & 1)
                scores.update(result_table=result.tables[r].id, table_iou=round(tables.table_iou.get(g, r), 4),
                              detected=len(res_relations))
                pairs.append({"gt": grid(table, gt_relations, gt_masks, gt_partners),
                              "result": grid(result.tables[r], res_relations, res_masks, res_partners),
                              "scores": scores, "counted": True})
            outline = _table_outline(table)
            if outline is not None and table.regions:
                boxes.append((table.regions[0].page, outline, "gt", f"ground truth {table.id}",
                              ("N" if r is None else "A") * levels))
        paired = set(tables.pairs.values())
        for r, table in enumerate(result.tables):
            if r not in paired:
                res_relations = sorted(tables.res_rel[r])
                pairs.append({"gt": None, "result": grid(table, res_relations, [0] * len(res_relations), None),
                              "scores": {"gt_table": None, "result_table": table.id, "detected": len(res_relations)},
                              "counted": True})
            outline = _table_outline(table)
            if outline is not None and table.regions:
                boxes.append((table.regions[0].page, outline, "result", f"result {table.id}",
                              ("A" if r in paired else "N") * levels))
        return pairs, boxes

    def summary(self, report: Mapping) -> Summary:
        """Correct, ground-truth and detected counts at each IoU threshold a
        document, and its weighted F1; the totals, with precision, recall and F1
        at each threshold."""
        thresholds = list(report["total"]["iou"])
        columns = [("document", "left"), *((f"IoU {t}: correct/gt/res", "right") for t in thresholds),
                   ("WAvg F1", "right")]

        def row(record: dict) -> list[str]:
            if not record.get("counted"):
                return [record["document"], *([""] * len(thresholds)), problem(record)]
            return [record["document"],
                    *(f"{record['iou'][t]['correct']}/{record['iou'][t]['gt']}/{record['iou'][t]['detected']}"
                      for t in thresholds), f"{record['f1']:.4f}"]

        total = report["total"]
        totals = [
            ["total", *(f"{total['iou'][t]['correct']}/{total['iou'][t]['gt']}/{total['iou'][t]['detected']}"
                        for t in thresholds), f"{total['wavg_f1']:.4f}"],
            ["P / R / F1", *(f"{total['iou'][t]['precision']:.4f} / {total['iou'][t]['recall']:.4f} / "
                             f"{total['iou'][t]['f1']:.4f}" for t in thresholds), ""],
        ]
        return Summary(title(report), columns, Rows(report["documents"], row), totals, notes(report))

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        """Correct, ground-truth and detected counts at each IoU threshold, and the weighted F1."""
        thresholds = list(report["total"]["iou"])
        yield ["document", "gt_file", "result_file",
               *(f"{k}@{t}" for t in thresholds for k in ("correct", "gt", "detected")), "wavg_f1", "error", "warnings"]
        for record in report["documents"]:
            counts = [record["iou"][t][k] if "iou" in record else "" for t in thresholds
                      for k in ("correct", "gt", "detected")]
            yield [record["document"], record["gt_file"], record["result_file"] or "", *counts,
                   record.get("f1", ""), problem(record), warnings_field(record)]


METRICS = (CtdarMetric("A"), CtdarMetric("B"))
