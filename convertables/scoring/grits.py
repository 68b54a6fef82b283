"""GriTS, grid table similarity (Smock et al., PubTables-1M; docs/scoring.md, `--metric grits`).

GriTS_Con, GriTS_Top and GriTS_Loc of each table pair, each with its precision
and recall, as ``microsoft/table-transformer``'s ``src/grits.py`` defines them,
and ``acc_con`` (1 where GriTS_Con is 1) as its evaluation counts it. How they
are computed, equal to the reference: :mod:`convertables.scoring.grits_alignment`
(numpy, imported when a table is first scored). Tables are paired and the
scores averaged as for every per-table similarity
(:mod:`convertables.scoring.table_similarity`): pairs by GriTS_Con.
"""

from __future__ import annotations

from ..model import Cell, Table
from ..options import Option
from .metric import IGNORE_PAGE, ScoreSettings
from .table_similarity import TableSimilarityMetric


def cell_text(cell: Cell) -> str:
    """The text GriTS_Con compares: the reference reads a cell's HTML as the
    text runs of its element and everything inside it, joined by single
    spaces (``' '.join(element.itertext())``), whitespace as written. Where
    the model keeps the cell's markup (HTML, PubTabNet) the runs are rebuilt
    from it (a run ends at each inline tag); otherwise the content is the text."""
    markup = cell.markup
    if markup is None:
        return cell.content or ""
    runs: list[str] = []
    run: list[str] = []
    for token in markup:
        if len(token) > 2 and token[0] == "<" and token[-1] == ">":
            if run:
                runs.append("".join(run))
                run = []
        else:
            run.append(token)
    if run:
        runs.append("".join(run))
    return " ".join(runs)


def grits_scores(gt: Table, result: Table, true_iou: bool = False) -> dict[str, float]:
    """GriTS of one predicted table against its ground truth: ``grits_top``,
    ``grits_con`` and, where either table has cell boxes, ``grits_loc``, each
    with ``grits_precision_*`` and ``grits_recall_*`` (the reference's names);
    ``true_iou``: GriTS_Top's and GriTS_Loc's IoU over the union (``--true-iou``);
    see :func:`convertables.scoring.grits_alignment.grits_of_prepared`."""
    from .grits_alignment import grits_of_prepared, prepare

    return grits_of_prepared(prepare(gt), prepare(result), union_iou=true_iou)


# -- the metric ------------------------------------------------------------------------------

TRUE_IOU = Option("true_iou", "--true-iou", bool, "grits: GriTS_Top and GriTS_Loc with the intersection of two "
                  "boxes over their union, not over the rectangle enclosing both as the reference divides it.",
                  False, direction="score")


class GritsMetric(TableSimilarityMetric):
    """GriTS_Con, GriTS_Top and GriTS_Loc per table, and the share of tables whose GriTS_Con is 1."""

    name = "grits"
    title = "GriTS, grid table similarity (PubTables-1M)"
    variants = ("pubtables1m",)
    settings = (IGNORE_PAGE, TRUE_IOU)
    scores = ("grits_con", "grits_top", "grits_loc", "acc_con")

    def describe(self, settings: ScoreSettings) -> dict:
        return {
            "variant": "pubtables1m",
            "normalisation": "none: the cells' texts as the reference reads them (an HTML cell's text runs joined "
                             "by spaces); GriTS_Top's and GriTS_Loc's IoU " + (
                                 "over the union (--true-iou)" if settings.true_iou else
                                 "over the rectangle enclosing both boxes, as the reference computes it"),
            "aggregation": "per table pair, GriTS = 2 x the similarity of the aligned grid positions / (the two "
                           "tables' positions); acc_con: 1 where GriTS_Con is 1; tables paired by GriTS_Con on "
                           "the same page, unpaired tables 0; total: mean over tables (the papers'); "
                           "document_mean: mean over documents of their tables' mean; grits_loc where a table "
                           "has cell boxes",
        }

    def prepare(self, table: Table, document, settings: ScoreSettings):
        from .grits_alignment import prepare

        return prepare(table)

    def table_scores(self, gt, result, settings: ScoreSettings) -> dict:
        from .grits_alignment import grits_of_prepared

        scores = grits_of_prepared(gt, result, bool(settings.true_iou))
        return _ordered(scores, acc_con=float(scores["grits_con"] == 1.0))

    def unpaired_scores(self, table, settings: ScoreSettings) -> dict:
        from .grits_alignment import unpaired

        return _ordered(unpaired(table), acc_con=0.0)


def _ordered(scores: dict, acc_con: float) -> dict:
    """The record's scores: the three GriTS and acc_con first, then precisions and recalls."""
    out = {name: scores.get(name) for name in ("grits_con", "grits_top", "grits_loc")}
    out["acc_con"] = acc_con
    for kind in ("con", "top", "loc"):
        out[f"grits_precision_{kind}"] = scores.get(f"grits_precision_{kind}")
        out[f"grits_recall_{kind}"] = scores.get(f"grits_recall_{kind}")
    return out


METRICS = (GritsMetric(),)
