"""GriTS, grid table similarity (Smock et al., PubTables-1M; docs/scoring.md, `--metric grits`).

GriTS_Con, GriTS_Top and GriTS_Loc of each table pair, each with its precision
and recall, as ``microsoft/table-transformer``'s ``src/grits.py`` defines them,
and ``acc_con`` (1 where GriTS_Con is 1) as its evaluation counts it. How they
are computed, equal to the reference: :mod:`convertables.scoring.grits_alignment`
(numpy, imported when a table too large for
:mod:`convertables.scoring.grits_small`, plain Python, is first scored). Tables are paired and the
scores averaged as for every per-table similarity
(:mod:`convertables.scoring.table_similarity`): pairs by GriTS_Con.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Mapping

from ..diagnostics import Diagnostic, Severity, UsageError
from ..model import Document, Table
from .declarations import GRITS_SETTINGS
from .metric import Scored, ScoreSettings
from .presentation import Summary
from .table_similarity import TableSimilarityMetric, pairing_described
from .text import cell_text  # noqa: F401 (GriTS_Con's texts, here where its users look)


def grits_scores(gt: Table, result: Table, true_iou: bool = False) -> dict[str, float]:
    """GriTS of one predicted table against its ground truth: ``grits_top``,
    ``grits_con`` and, where either table has cell boxes, ``grits_loc``, each
    with ``grits_precision_*`` and ``grits_recall_*`` (the reference's names);
    ``true_iou``: GriTS_Top's and GriTS_Loc's IoU over the union (``--true-iou``);
    see :func:`convertables.scoring.grits_alignment.grits_of_prepared`."""
    from .grits_alignment import grits_of_prepared, prepare

    return grits_of_prepared(prepare(gt), prepare(result), union_iou=true_iou)


# -- the metric ------------------------------------------------------------------------------

class GritsMetric(TableSimilarityMetric):
    """GriTS_Con, GriTS_Top and GriTS_Loc per table, and the share of tables whose GriTS_Con is 1."""

    name = "grits"
    title = "GriTS, grid table similarity (PubTables-1M)"
    variants = ("pubtables1m",)
    settings = GRITS_SETTINGS
    scores = ("grits_con", "grits_top", "grits_loc", "acc_con")
    headline = "grits_con"
    names = {"grits_con": "GriTS_Con", "grits_top": "GriTS_Top", "grits_loc": "GriTS_Loc"}

    def pairing_key(self, settings: ScoreSettings) -> str:
        """Pooled, the pairing maximises the page's summed matched similarity (its pooled GriTS_Con)."""
        return "grits_matched_con" if settings.aggregate == "pooled" else "grits_con"

    def pairing_weight(self, value: float | None, settings: ScoreSettings) -> float:
        """Pooled, the matched similarity as a 32-bit float, as grits-metric weighs the pairs (where
        two pairings' sums differ only below that precision, it is the one it chooses)."""
        if settings.aggregate != "pooled":
            return value or 0.0
        from .grits_small import float32

        return float32(value or 0.0)

    def reading(self, settings: ScoreSettings):
        """``--cell-placement``: the HTML tables' reading that places their cells."""
        if settings.cell_placement == "whatwg":
            return self.read_options
        from ..options import ReadOptions

        return ReadOptions(cell_placement=settings.cell_placement)

    def check(self, settings: ScoreSettings) -> None:
        if settings.pairing == "joined":
            raise UsageError("--pairing joined applies to teds only (GriTS compares two grids, not trees)")

    def describe(self, settings: ScoreSettings) -> dict:
        return {
            "variant": "pubtables1m",
            "normalisation": "none: the cells' texts as the reference reads them (an HTML cell's text runs joined "
                             "by spaces); GriTS_Top's and GriTS_Loc's IoU " + (
                                 "over the union (--true-iou)" if settings.true_iou else
                                 "over the rectangle enclosing both boxes, as the reference computes it"),
            "aggregation": "per table pair, GriTS = 2 x the similarity of the aligned grid positions / (the two "
                           "tables' positions); acc_con: 1 where GriTS_Con is 1; "
                           + (_POOLED_DESCRIBED if settings.aggregate == "pooled" else
                              pairing_described(settings, "GriTS_Con")) + "; grits_loc where a table has cell boxes",
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        """The table similarity metric's record, with the boxes of both sides in one
        frame for GriTS_Loc (where they are in several, converted into PDF points
        with what the documents say of their pages). Where they cannot be, GriTS_Loc is not given (None) and the document
        has a ``frames-incomparable`` error. The cells without a box of tables with
        boxes are counted (``gt_cells_without_box``, ``result_cells_without_box``):
        their positions match nothing, by the reference's rule."""
        from ..geometry import FramesIncomparable, in_one_frame

        problem = None
        if result is not None:
            try:
                gt, result = in_one_frame(gt, result)
            except FramesIncomparable as exc:
                problem = str(exc)
        own_pairing = settings.aggregate == "pooled" and settings.pairing == "hungarian"
        if own_pairing:  # every pair's scores kept while the document is scored, for _own_pairings
            _DOCUMENT.prepared, _DOCUMENT.pairs = {}, {}
        try:
            scored = Scored(super().score(gt, result, settings, unreadable, gt_file))
            own = self._own_pairings(gt, result, scored["tables"], settings) \
                if own_pairing and result is not None else {}
        finally:
            _DOCUMENT.prepared = _DOCUMENT.pairs = None
        if problem is not None:
            for record in scored["tables"]:
                record.update(dict.fromkeys(_LOC_SCORES))
            scored.update(self._means(scored["tables"]))
            scored.findings = [Diagnostic("frames-incomparable", Severity.ERROR, f"GriTS_Loc not given: {problem}",
                                          None)]
        else:
            scored["gt_cells_without_box"] = _cells_without_box(gt)
            scored["result_cells_without_box"] = _cells_without_box(result) if result is not None else 0
        if settings.aggregate == "pooled":
            scored["invalid_result_tables"] = sum(1 for table in (result.tables if result is not None else ())
                                                  if table.html_structure is None and not table.cells())
            if scored["tables"]:
                scored["pooled"] = _pooled_sums(scored["tables"], own)
                scored.update(_pooled_scores(scored["pooled"]))
                scored["f1"] = scored["grits_con"]
            else:  # no cells on either side: precision and recall 1, as grits-metric counts such a page
                scored.update(_pooled_scores({"con": (0.0, 0, 0), "top": (0.0, 0, 0)}))
        return scored

    def _own_pairings(self, gt: Document, result: Document, records: list[dict],
                      settings: ScoreSettings) -> dict[str, list[float]]:
        """Pooled and paired by the Hungarian method, grits-metric pairs the tables
        anew for each kind of GriTS, on its own matched similarity (as 32-bit
        floats): for GriTS_Top and GriTS_Loc, the matched similarities of their
        own pairing, in ground-truth order (where a page's pairing has a choice)."""
        from .assignment import max_weight_assignment
        from .grits_small import float32

        kinds = [k for k in ("top", "loc") if any(r.get(f"grits_matched_{k}") is not None for r in records)]
        if not kinds or len(gt.tables) < 2 and len(result.tables) < 2:
            return {}
        prepared, pairs = _DOCUMENT.prepared, _DOCUMENT.pairs

        def scores(g: Table, r: Table) -> dict:
            key = (id(prepared[id(g)]), id(prepared[id(r)]))
            if key not in pairs:  # (a pair on two pages, which the pairing did not weigh)
                self.table_scores(prepared[id(g)], prepared[id(r)], settings)
            return pairs[key]

        pages: dict = {}
        for table in gt.tables:
            pages.setdefault(None if settings.ignore_page else table.page, ([], []))[0].append(table)
        for table in result.tables:
            key = None if settings.ignore_page else table.page
            if key in pages:
                pages[key][1].append(table)
        order = {id(table): k for k, table in enumerate(gt.tables)}  # (by identity: equal tables are two)
        own: dict[str, list[tuple[int, float]]] = {kind: [] for kind in kinds}
        for gts, results in pages.values():
            if not results:
                continue
            for kind in kinds:
                weights = [[float32(scores(g, r).get(f"grits_matched_{kind}") or 0.0) for r in results]
                           for g in gts]
                own[kind] += [(order[id(gts[i])], weights[i][j]) for i, j in max_weight_assignment(weights)]
        return {kind: [value for _, value in sorted(chosen, key=lambda pair: pair[0])] for kind, chosen in own.items()}

    def aggregate(self, records, settings: ScoreSettings) -> dict:
        without_box = {"gt": 0, "result": 0}

        pooled: dict = {}
        pages = {"documents": 0, "invalid_result_tables": 0}
        page_sums: dict = {}

        def counted(records):  # (one walk: the records may be read back from disk as they come)
            for record in records:
                pages["documents"] += 1
                pages["invalid_result_tables"] += record.get("invalid_result_tables", 0)
                for name in _POOLED_FIGURES:
                    value = record.get(name)
                    if value is not None:
                        total = page_sums.setdefault(name, [0.0, 0])
                        total[0] += value
                        total[1] += 1
                for kind, sums in record.get("pooled", {}).items():
                    total = pooled.setdefault(kind, [0.0, 0, 0])
                    for k in range(3):
                        total[k] += sums[k]
                for side in without_box:
                    without_box[side] += record.get(f"{side}_cells_without_box", 0)
                yield record

        out = super().aggregate(counted(records), settings)
        if settings.aggregate == "pooled":
            out["total"].update(_pooled_scores(pooled))
            out["total"]["pooled"] = pooled
            out["total"]["invalid_result_tables"] = pages["invalid_result_tables"]
            if pages["documents"]:
                # grits-metric's mean over samples: every page, one without tables on either side scoring 1
                out["page_mean"] = {"documents": pages["documents"],
                                    **{name: total / count for name, (total, count) in page_sums.items()}}
        for side, count in without_box.items():
            out["total"][f"{side}_cells_without_box"] = count
        return out

    def summary(self, report: Mapping) -> Summary:
        summary = super().summary(report)
        total = report["total"]
        gt_none, result_none = total.get("gt_cells_without_box", 0), total.get("result_cells_without_box", 0)
        if gt_none or result_none:
            summary.notes.insert(2, f"grits_loc: {gt_none} ground-truth and {result_none} result cell(s) of tables "
                                    "with boxes have no box: their grid positions match nothing (the reference's "
                                    "rule: a missing box has IoU 0, even with another missing one)")
        if report["total"].get("aggregate") == "pooled" and summary.totals:
            summary.totals[0][0] = "pooled over all pages"
        page_mean = report.get("page_mean")
        if page_mean:
            summary.totals.append(["mean over pages (every page)", str(page_mean["documents"]),
                                   *("" if page_mean.get(name) is None else f"{page_mean[name]:.4f}"
                                     for name in self.scores)])
        if total.get("invalid_result_tables"):
            summary.notes.append(f"{total['invalid_result_tables']} result table(s) without cells that no HTML "
                                 "table was read into (grits-metric's invalid predicted tables): scored as empty")
        return summary

    def prepare(self, table: Table, document, settings: ScoreSettings):
        from .grits_small import prepare_small

        from_zero = settings.grid_origin == "zero"
        prepared = prepare_small(table, from_zero)
        if prepared is None:  # (a large table, or one with cell boxes)
            from .grits_alignment import prepare

            prepared = prepare(table, from_zero)
        if getattr(_DOCUMENT, "prepared", None) is not None:
            _DOCUMENT.prepared[id(table)] = prepared
        return prepared

    def table_scores(self, gt, result, settings: ScoreSettings) -> dict:
        return self.table_scores_many([(gt, result)], settings)[0]

    def table_scores_many(self, pairs: list, settings: ScoreSettings) -> list[dict]:
        """Each pair's scores: in plain Python where both tables are small
        (:mod:`convertables.scoring.grits_small`), else with numpy, the pairs' alignments together."""
        from .grits_small import SmallTable, grits_of_small, small_pair

        options = {"union_iou": bool(settings.true_iou), "counts": settings.aggregate == "pooled",
                   "exact_lcs": settings.text_similarity == "lcs"}
        out: list = [grits_of_small(gt, result, **options) if small_pair(gt, result) else None
                     for gt, result in pairs]
        rest = [k for k, scores in enumerate(out) if scores is None]
        if rest:
            from .grits_alignment import grits_of_prepared_many, prepared_from_small

            full = [tuple(prepared_from_small(table) if isinstance(table, SmallTable) else table
                          for table in pairs[k]) for k in rest]
            for k, scores in zip(rest, grits_of_prepared_many(full, **options)):
                out[k] = scores
        pairs_seen = getattr(_DOCUMENT, "pairs", None)
        for k, (gt, result) in enumerate(pairs):
            out[k] = _ordered(out[k], acc_con=float(out[k]["grits_con"] == 1.0))
            if pairs_seen is not None:
                pairs_seen[id(gt), id(result)] = out[k]
        return out

    def unpaired_scores(self, table, settings: ScoreSettings) -> dict:
        from .grits_small import unpaired

        scores = _ordered(unpaired(table), acc_con=0.0)
        return {**scores, "positions": table.positions} if settings.aggregate == "pooled" else scores

    def explain(self, gt, result, settings: ScoreSettings, record: dict | None = None, gt_file=None) -> dict:
        """The paired tables side by side, each cell with the cell its grid
        positions were aligned to by GriTS_Con's row and column alignments, and
        the similarity of their texts: ``A`` aligned whole to one cell of the same
        text, ``S`` in part or to a cell of other text, ``N`` not aligned."""
        from .explain import default_explain

        detail = default_explain(gt, result, record)
        gt_tables = {t.id: t for t in gt.tables}
        result_tables = {t.id: t for t in (result.tables if result is not None else ())}
        for pair in detail["pairs"]:
            g = gt_tables.get((pair["gt"] or {}).get("table"))
            r = result_tables.get((pair["result"] or {}).get("table"))
            for side, table in (("gt", g), ("result", r)):
                if pair[side] is not None:  # unpaired until aligned below
                    pair[side]["outcome"] = "N" * len(pair[side]["cells"])
                    pair[side]["partners"] = [[[-1, 0.0]] for _ in pair[side]["cells"]]
            if g is not None and r is not None and pair["gt"]["cells"] and pair["result"]["cells"]:
                for side, (outcome, partners) in zip(("gt", "result"), aligned_cells(g, r)):
                    pair[side]["outcome"], pair[side]["partners"] = outcome, partners
        detail.update(kind="cells", levels=[], measure="similarity of the texts (GriTS_Con's)")
        return detail


_LOC_SCORES = ("grits_loc", "grits_precision_loc", "grits_recall_loc")
_POOLED_DESCRIBED = ("pooled, as grits-metric pools: a page's GriTS from its table pairs' matched similarities and "
                     "grid positions summed (an unpaired table's positions on its own side), tables paired for the "
                     "greatest summed matched similarity (with --pairing hungarian, GriTS_Top and GriTS_Loc on "
                     "their own), a page without tables 1; total: the sums over all pages; page_mean: the mean "
                     "over every page; document_mean: over the pages with tables")
_DOCUMENT = threading.local()
"""The document being scored, where its tables are paired anew for each kind: its tables prepared
(by the table's id) and every pair's scores (by the prepared tables' ids)."""
_POOLED_FIGURES = tuple(f"grits_{measure}{kind}" for kind in ("con", "top", "loc")
                        for measure in ("", "precision_", "recall_"))


def _pooled_sums(tables: list[dict], own: dict[str, list[float]] | None = None) -> dict[str, list]:
    """For each kind of GriTS a page's tables have: [matched similarity, true positions, predicted
    positions] summed over its tables, an unpaired table's positions on its own side. The pairs'
    matched similarities are summed as 32-bit floats, as grits-metric keeps and sums them; ``own``:
    a kind's matched similarities under a pairing of its own (:meth:`GritsMetric._own_pairings`)."""
    from .grits_small import float32_sum

    sums: dict[str, list] = {}
    matched: dict[str, list] = {}
    for record in tables:
        kinds = [k for k in ("con", "top", "loc") if record.get(f"grits_matched_{k}") is not None] or \
            [k for k in ("con", "top", "loc") if record.get(f"grits_{k}") is not None]
        for kind in kinds:
            total = sums.setdefault(kind, [0.0, 0, 0])
            if "positions" in record:  # unpaired
                total[1 if record["result_table"] is None else 2] += record["positions"]
            else:
                matched.setdefault(kind, []).append(record[f"grits_matched_{kind}"])
                total[1] += record["true_positions"]
                total[2] += record["pred_positions"]
    for kind, values in {**matched, **(own or {})}.items():
        sums[kind][0] = float32_sum(values)
    return sums


def _pooled_scores(sums: dict) -> dict:
    from .grits_small import fscore

    out = {}
    for kind, (matched, n_true, n_pred) in sums.items():
        f, p, r = fscore(matched, n_true, n_pred)
        out[f"grits_{kind}"], out[f"grits_precision_{kind}"], out[f"grits_recall_{kind}"] = f, p, r
    return out


def _cells_without_box(doc: Document) -> int:
    """The cells without a box of the document's tables that have cells with boxes."""
    count = 0
    for table in doc.tables:
        cells = list(table.cells())
        if any(c.bbox is not None for c in cells):
            count += sum(1 for c in cells if c.bbox is None)
    return count


def aligned_cells(gt: Table, result: Table) -> tuple[tuple[str, list], tuple[str, list]]:
    """For each side's cells (in the tables' cell order): an outcome letter, and
    ``[[partner cell or -1, similarity]]``, from GriTS_Con's alignment of rows
    and columns (a cell's partner: the cell most of its aligned positions fall on)."""
    import numpy as np

    from .grits_alignment import _align_outer, _row_and_column_scores, lcs_similarity, prepare, table_grid

    true, pred = prepare(gt), prepare(result)
    true_grid, pred_grid = table_grid(gt), table_grid(result)
    similarity = lcs_similarity(true.texts, pred.texts)
    rows, cols = _row_and_column_scores([similarity], [true.text_index], [pred.text_index])
    (true_rows, pred_rows), = _align_outer(rows)
    (true_cols, pred_cols), = _align_outer(cols)
    text_of_true = {int(k): int(t) for k, t in zip(true_grid.cell_of.ravel(), true.text_index.ravel()) if k >= 0}
    text_of_pred = {int(k): int(t) for k, t in zip(pred_grid.cell_of.ravel(), pred.text_index.ravel()) if k >= 0}

    def side(grid_from, grid_to, rows_from, rows_to, cols_from, cols_to, text_from, text_to, flip) -> tuple:
        row_map = np.full(grid_from.shape[0], -1)
        row_map[rows_from] = rows_to
        col_map = np.full(grid_from.shape[1], -1)
        col_map[cols_from] = cols_to
        outcome, partners = [], []
        for k in range(len(grid_from.cells)):
            rs, cs = np.nonzero(grid_from.cell_of == k)
            hits = [int(grid_to.cell_of[row_map[r], col_map[c]]) for r, c in zip(rs, cs)
                    if row_map[r] >= 0 and col_map[c] >= 0]
            landed = [h for h in hits if h >= 0]
            if not landed:
                outcome.append("N")
                partners.append([[-1, 0.0]])
                continue
            partner = max(landed, key=landed.count)  # (the first of equals)
            a, b = text_from[k], text_to[partner]
            figure = float(similarity[b, a] if flip else similarity[a, b])
            whole = len(landed) == len(rs) and len(set(landed)) == 1
            outcome.append("A" if whole and figure == 1.0 else "S")
            partners.append([[partner, round(figure, 4)]])
        return "".join(outcome), partners

    return (side(true_grid, pred_grid, true_rows, pred_rows, true_cols, pred_cols, text_of_true, text_of_pred, False),
            side(pred_grid, true_grid, pred_rows, true_rows, pred_cols, true_cols, text_of_pred, text_of_true, True))


def _ordered(scores: dict, acc_con: float) -> dict:
    """The record's scores: the three GriTS and acc_con first, then precisions and recalls."""
    out = {name: scores.get(name) for name in ("grits_con", "grits_top", "grits_loc")}
    out["acc_con"] = acc_con
    for kind in ("con", "top", "loc"):
        out[f"grits_precision_{kind}"] = scores.get(f"grits_precision_{kind}")
        out[f"grits_recall_{kind}"] = scores.get(f"grits_recall_{kind}")
    for key in ("grits_matched_con", "grits_matched_top", "grits_matched_loc", "true_positions", "pred_positions"):
        if key in scores:
            out[key] = scores[key]
    return out


METRICS = (GritsMetric(),)
