"""Marmot's table-detection error types (docs/scoring.md, `--metric marmot`; the Marmot paper, section III.C).

Per page, ground-truth tables and result tables are related through the unit
objects (the page's characters) they share: an object belongs to a table when
its centre lies inside the table's box. Then:

* a result table sharing nothing with the ground truth is **fake**; a
  ground-truth table sharing nothing with the results is **missed**
  (coefficients, equation (1): objects of the table / objects of the page);
* a ground-truth table shared by several results is **split** (Ns parts,
  equation (3): 1/Ns), vertically when the parts lie side by side (rows cut:
  the severe case), horizontally when they are stacked;
* a result table shared by several ground-truth tables is **merged** (Nm
  tables, 1/Nm), horizontally when those tables lie side by side (across page
  columns: the severe case), vertically when stacked;
* a paired result that lacks some of the table's objects is **reduced**, one
  with foreign objects **amplified** (equation (2): shared / union).

Error score = penalty of the type x its coefficient; a table that is neither
fake nor missed scores the maximum over the types that apply to it, and is
*acceptable* when that score is at most the threshold. The counts of the
paper's Table II follow: nr (ground-truth tables), nm (missed), na (acceptable),
nfa / nfu (fake tables whose score is / is not within the threshold), and
precision = na / (nr + nfa + nfu - nm), recall = na / (nr + nfa).

Choices where the paper is silent or ambiguous (all in the penalty file):

* ``invert_overlap_coefficients`` (default true): equations (2) and (3) grow as
  a result gets *better* (more overlap, fewer parts), so the error score uses
  ``1 - coefficient`` for reduced, amplified, split and merged; set false to
  use the coefficients as printed;
* the subtypes that need the logical class of the foreign objects
  (``fake_figure``, ``amplified_tabaccessory``...) cannot be told from table
  regions alone: fake tables are ``fake_mix`` and amplified ones
  ``amplified_mix``;
* a fake table is acceptable (nfa) when its score is within the threshold.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from typing import Iterator, Mapping

from ..diagnostics import UsageError
from ..model import Document
from .precision_recall import f1
from .declarations import MARMOT_SETTINGS
from .metric import ScoreSettings
from .region import PageItems, RegionMetric, region_box
from .presentation import Rows, Summary, count_csv_rows, notes

DEFAULT_PENALTIES = {
    "fake_mix": 1.0,
    "missed": 0.8,
    "reduced": 0.8,
    "amplified_mix": 0.6,
    "splitted_horizontal": 0.5,
    "splitted_vertical": 1.0,
    "merged_horizontal": 1.0,
    "merged_vertical": 0.5,
    "threshold": 0.3,
    "invert_overlap_coefficients": True,
}


def load_penalties(path: str | Path | None) -> dict:
    """The defaults, overridden by a user's JSON file."""
    penalties = dict(DEFAULT_PENALTIES)
    if path:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the penalty file must hold one JSON object of names and values")
        unknown = set(data) - set(DEFAULT_PENALTIES)
        if unknown:
            raise ValueError(f"unknown keys in the penalty file: {', '.join(sorted(unknown))}")
        for name, value in data.items():
            if name == "invert_overlap_coefficients":
                if not isinstance(value, bool):
                    raise ValueError(f"{name} must be true or false, not {json.dumps(value)}")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a number, not {json.dumps(value)}")
        penalties.update(data)
    return penalties


def _side_by_side(boxes) -> bool:
    """True when the boxes are arranged left to right rather than top to bottom."""
    xs = sorted((b.x1, b.x2) for b in boxes)
    ys = sorted((b.y1, b.y2) for b in boxes)
    x_gaps = sum(max(0.0, xs[i + 1][0] - xs[i][1]) for i in range(len(xs) - 1))
    y_gaps = sum(max(0.0, ys[i + 1][0] - ys[i][1]) for i in range(len(ys) - 1))
    x_overlap = all(xs[i + 1][0] >= xs[i][1] - 1e-9 for i in range(len(xs) - 1))
    return x_overlap and (x_gaps >= y_gaps)


def score_document(gt: Document, result: Document, pages: dict[int, PageItems], penalties: dict) -> dict:
    import numpy as np  # (here: the other metrics never load it)

    threshold = penalties["threshold"]
    invert = penalties["invert_overlap_coefficients"]
    counts = {"nr": 0, "nm": 0, "na": 0, "nfa": 0, "nfu": 0}
    types: dict[str, int] = {}
    records = []

    def regions_on(doc: Document, page: int):
        out = []
        for table in doc.tables:
            for region in table.regions:
                box = region_box(region)
                if region.page == page and box is not None:
                    out.append((table.id, box))
        return out

    def adjust(coefficient: float) -> float:
        return 1.0 - coefficient if invert else coefficient

    for page_number in sorted({r.page for t in gt.tables + result.tables for r in t.regions}):
        page = pages.get(page_number)
        n_objects = len(page.centres) if page is not None else 0
        gts = regions_on(gt, page_number)
        ress = regions_on(result, page_number)
        g_masks = [page.inside(b) if page is not None else np.zeros(0, bool) for _, b in gts]
        r_masks = [page.inside(b) if page is not None else np.zeros(0, bool) for _, b in ress]
        shared = [[int((g & r).sum()) for r in r_masks] for g in g_masks]
        for j, (rid, rbox) in enumerate(ress):
            if not any(shared[i][j] for i in range(len(gts))):
                score = penalties["fake_mix"] * (int(r_masks[j].sum()) / n_objects if n_objects else 1.0)
                key = "nfa" if score <= threshold else "nfu"
                counts[key] += 1
                types["fake_mix"] = types.get("fake_mix", 0) + 1
                records.append({"gt_table": None, "result_table": rid, "page": page_number, "errors": ["fake_mix"],
                                "score": score, "acceptable": score <= threshold})
        for i, (gid, gbox) in enumerate(gts):
            counts["nr"] += 1
            related = [j for j in range(len(ress)) if shared[i][j]]
            g_count = int(g_masks[i].sum())
            if not related:
                counts["nm"] += 1
                types["missed"] = types.get("missed", 0) + 1
                score = penalties["missed"] * (g_count / n_objects if n_objects else 1.0)
                records.append({"gt_table": gid, "result_table": None, "page": page_number, "errors": ["missed"],
                                "score": score, "acceptable": False})
                continue
            errors: dict[str, float] = {}
            if len(related) > 1:
                kind = "splitted_vertical" if _side_by_side([ress[j][1] for j in related]) else "splitted_horizontal"
                errors[kind] = penalties[kind] * adjust(1 / len(related))
            for j in related:
                merged_with = [k for k in range(len(gts)) if shared[k][j]]
                if len(merged_with) > 1:
                    kind = "merged_horizontal" if _side_by_side([gts[k][1] for k in merged_with]) \
                        else "merged_vertical"
                    errors[kind] = max(errors.get(kind, 0.0), penalties[kind] * adjust(1 / len(merged_with)))
            best = max(related, key=lambda j: shared[i][j])
            union = int((g_masks[i] | r_masks[best]).sum())
            overlap = shared[i][best] / union if union else 0.0
            if shared[i][best] < g_count:
                errors["reduced"] = penalties["reduced"] * adjust(overlap)
            foreign = int((r_masks[best] & ~g_masks[i]).sum())
            if foreign:
                errors["amplified_mix"] = penalties["amplified_mix"] * adjust(overlap)
            score = max(errors.values(), default=0.0)
            acceptable = score <= threshold
            counts["na"] += acceptable
            for kind in errors:
                types[kind] = types.get(kind, 0) + 1
            records.append({"gt_table": gid, "result_table": ress[best][0], "page": page_number,
                            "errors": sorted(errors), "score": score, "acceptable": acceptable})
    return {"tables": records, **counts, "error_types": types}


def revised(counts: dict) -> dict:
    """Table II's precision and recall from the counts."""
    nr, nm, na, nfa, nfu = (counts[k] for k in ("nr", "nm", "na", "nfa", "nfu"))
    p_den, r_den = nr + nfa + nfu - nm, nr + nfa
    precision = na / p_den if p_den else (1.0 if nr == 0 else 0.0)
    recall = na / r_den if r_den else 1.0
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall)}


# -- the metric, as the runner calls it ----------------------------------------------------------

class MarmotMetric(RegionMetric):
    """The Marmot paper's six error types, penalties and Table II's precision and recall."""

    name = "marmot"
    variants = ("marmot",)
    settings = MARMOT_SETTINGS

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        return False

    def check(self, settings: ScoreSettings) -> None:
        super().check(settings)
        try:
            load_penalties(settings.penalties)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--penalties: {exc}") from None

    def describe(self, settings: ScoreSettings) -> dict:
        penalties = load_penalties(settings.penalties)
        return {
            "variant": "marmot",
            "normalisation": "unit objects: the PDF's characters (or Marmot Char leaves), by their centres",
            "aggregation": (
                "per page: fake, missed, split, merged, reduced, amplified with the coefficients of the "
                "Marmot paper's equations (1)-(3); counts nr, nm, na, nfa, nfu summed over documents; "
                f"Table II's precision and recall; threshold {penalties['threshold']}, penalties "
                + ", ".join(f"{k} {v}" for k, v in penalties.items() if k != "threshold")
            ),
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        pages = self._pages(gt, gt_file, settings)
        scored = score_document(gt, result or Document(), pages, load_penalties(settings.penalties))
        scored.update(revised(scored))
        return scored

    def explain(self, gt: Document, result: Document | None, settings: ScoreSettings, record: dict | None = None,
                gt_file: Path | None = None) -> dict:
        """The tables on their pages with their error types and scores
        (acceptable, not, missed or fake), and the items: shared, missed, foreign."""
        from ..model import BBox, Frame
        from .explain import sketch_pages
        from .region import MAX_SKETCHED_ITEMS

        result = result or Document()
        pages = self._pages(gt, gt_file, settings)
        scored = score_document(gt, result, pages, load_penalties(settings.penalties))
        gt_outcome, result_outcome = {}, {}
        for entry in scored["tables"]:
            # missed and fake tables are marked so, however small (acceptable) a fake one's score
            outcome = "N" if entry["result_table"] is None or entry["gt_table"] is None else \
                "A" if entry["acceptable"] else "S"
            key = entry["page"]
            if entry["gt_table"] is not None:
                gt_outcome[(key, entry["gt_table"])] = (outcome, entry)
            if entry["result_table"] is not None:
                known = result_outcome.get((key, entry["result_table"]))
                if known is None or "ASN".index(outcome) < "ASN".index(known[0]):
                    result_outcome[(key, entry["result_table"])] = (outcome, entry)
        boxes, in_gt, in_result = [], {}, {}
        for doc, side, outcomes, masks in ((gt, "gt", gt_outcome, in_gt),
                                           (result, "result", result_outcome, in_result)):
            for table in doc.tables:
                for region in table.regions:
                    box = region_box(region)
                    if box is None:
                        continue
                    outcome, entry = outcomes.get((region.page, table.id), ("N", None))
                    what = ", ".join(entry["errors"]) or "no error" if entry else "no record"
                    score = f", score {entry['score']:.3f}" if entry else ""
                    boxes.append((region.page, box, side, f"{'ground truth' if side == 'gt' else 'result'} "
                                  f"{table.id}: {what}{score}", outcome))
                    page = pages.get(region.page)
                    if page is not None:
                        inside = page.inside(box)
                        masks[region.page] = masks[region.page] | inside if region.page in masks else inside
        frame = next((b[1].frame for b in boxes), Frame.PDF)
        items = {}
        for number in sorted({*in_gt, *in_result}):
            g, r = in_gt.get(number), in_result.get(number)
            claimed = g | r if g is not None and r is not None else (g if g is not None else r)
            kinds = []
            for k in claimed.nonzero()[0][:MAX_SKETCHED_ITEMS]:
                x1, y1, x2, y2 = pages[number].boxes[k]
                in_g, in_r = g is not None and bool(g[k]), r is not None and bool(r[k])
                kinds.append((BBox(float(x1), float(y1), float(x2), float(y2), frame),
                              "A" if in_g and in_r else "N" if in_g else "F"))
            items[number] = kinds
        pairs = [{"gt": None, "result": None, "scores": {**e, "errors": ", ".join(e["errors"]) or "none"},
                  "counted": True} for e in scored["tables"]]
        return {"kind": "regions", "levels": [], "pairs": pairs,
                "pages": sketch_pages(boxes, self._page_sizes(gt, gt_file, settings), items), "notes": []}

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        counts = {k: sum(r[k] for r in records) for k in _COUNTS}
        types: dict[str, int] = {}
        for r in records:
            for kind, n in r["error_types"].items():
                types[kind] = types.get(kind, 0) + n
        return {"total": {**counts, **revised(counts), "error_types": types, "documents": len(records)}}

    def summary(self, report: Mapping) -> Summary:
        """The error type counts and revised precision and recall a document; the
        totals, and each error type's count over the corpus."""
        columns = [("document", "left"), *((name, "right") for name in (*_COUNTS, "precision", "recall"))]

        def row(record: dict) -> list[str]:
            if not record.get("counted"):
                return [record["document"], "", "", "", "", "", "", record.get("error", "")]  # as cTDaR's: last
            return [record["document"], *(str(record[k]) for k in _COUNTS),
                    f"{record['precision']:.4f}", f"{record['recall']:.4f}"]

        total = report["total"]
        totals = [["total", *(str(total[k]) for k in _COUNTS), f"{total['precision']:.4f}",
                   f"{total['recall']:.4f}"]]
        error_types = ", ".join(f"{k} {v}" for k, v in sorted(total["error_types"].items())) or "none"
        return Summary("marmot error types", columns, Rows(report["documents"], row), totals,
                       [f"error types: {error_types}", *notes(report)])

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        return count_csv_rows(report)


_COUNTS = ("nr", "nm", "na", "nfa", "nfu")
"""The counts of a record, in the summary's order."""

METRICS = (MarmotMetric(),)
