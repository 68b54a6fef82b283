"""Metrics that score a pair of tables with a similarity in [0, 1] (TEDS, GriTS):
how they pair a document's tables, what their records hold, how they aggregate.

* **Pairing**, as the structure metric pairs tables: each ground-truth table,
  in document order, takes the remaining result table on the same page
  (``--ignore-page``: any page) with the highest first score (the first on
  ties, even at 0); ``--pairing hungarian``: on each page, the one-to-one
  pairing whose first scores sum highest. Ground-truth tables left without one, and result tables
  left over, are records of their own scoring 0 on every score (a metric may
  leave a score it cannot give such a table empty: GriTS_Loc without boxes).
* **Records**: a document's ``tables`` (each with ``gt_table``, ``result_table``
  and the scores), its mean of each score over those records, and ``f1``, the
  mean of the first score (what picks among a document's candidates).
* **Aggregates**: ``total`` holds the mean of each score over all the tables of
  all documents (the papers' convention, PubTabNet's and PubTables-1M's;
  ``--aggregate page``: the mean over documents of their means, as benchmarks
  of whole pages report it), and ``document_mean`` the mean over documents of
  their means. Beside them, ``detection``: ground-truth tables, result tables
  and pairs made, with precision, recall and F1, per document and pooled. A document with no table on either side has no records and counts in
  neither. A score a table pair does not have (None) is left out of its means.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from ..diagnostics import Diagnostic, Severity
from ..model import Document, Table
from . import precision_recall
from .metric import Metric, Scored, ScoreSettings
from .presentation import Rows, Summary, notes, problem, title, warnings_field


class TableSimilarityMetric(Metric):
    """A metric of per-table similarities. Subclasses set ``scores`` and implement
    :meth:`prepare` and :meth:`table_scores`."""

    scores: tuple[str, ...] = ()
    """The scores of a table pair, in [0, 1]; the first pairs tables."""

    def prepare(self, table: Table, document: Document, settings: ScoreSettings) -> Any:
        """What :meth:`table_scores` needs of a table, made once per table."""
        raise NotImplementedError

    def table_scores(self, gt: Any, result: Any, settings: ScoreSettings) -> dict[str, float | None]:
        """The scores of a ground-truth table against a result table (both prepared)."""
        raise NotImplementedError

    def table_scores_many(self, pairs: list[tuple[Any, Any]],
                          settings: ScoreSettings) -> list[dict[str, float | None]]:
        """:meth:`table_scores` of each (ground truth, result) pair: the pairs a pairing weighs
        at once (a metric may score them together)."""
        return [self.table_scores(gt, result, settings) for gt, result in pairs]

    def pairing_key(self, settings: ScoreSettings) -> str:
        """The score the Hungarian pairing maximises the sum of: the first score."""
        return self.scores[0]

    def pairing_weight(self, value: float | None, settings: ScoreSettings) -> float:
        """What a pair's :meth:`pairing_key` score weighs in the Hungarian pairing."""
        return value or 0.0

    def unpaired_scores(self, table: Any, settings: ScoreSettings) -> dict[str, float | None]:
        """The scores of a table (prepared) left without a partner: 0 on every score."""
        return dict.fromkeys(self.scores, 0.0)

    # -- one document ------------------------------------------------------------------------

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        result = result or Document()
        gt_prepared = [self.prepare(table, gt, settings) for table in gt.tables]
        result_prepared = [self.prepare(table, result, settings) for table in result.tables]
        first = self.scores[0]
        if settings.pairing == "order" and len(gt.tables) != len(result.tables):
            return self._unequal(gt, result)
        if settings.pairing == "hungarian":
            partners = self._hungarian(gt, result, gt_prepared, result_prepared, settings)
        elif settings.pairing == "order":
            partners = {k: (k, self.table_scores(gt_prepared[k], result_prepared[k], settings))
                        for k in range(len(gt.tables))}
        else:
            partners = self._greedy(gt, result, gt_prepared, result_prepared, settings)
        records = []
        for g, table in enumerate(gt.tables):
            if g not in partners:
                records.append({"gt_table": table.id, "result_table": None,
                                **self.unpaired_scores(gt_prepared[g], settings)})
            else:
                r, scores = partners[g]
                records.append({"gt_table": table.id, "result_table": result.tables[r].id, **scores})
            if settings.split == "spans":
                records[-1]["complex"] = any(c.row_span > 1 or c.col_span > 1 for c in table.cells())
        paired = {r for r, _ in partners.values()}
        records += [{"gt_table": None, "result_table": result.tables[r].id,
                     **self.unpaired_scores(result_prepared[r], settings)}
                    for r in range(len(result.tables)) if r not in paired]
        detection = {"gt": len(gt.tables), "detected": len(result.tables), "correct": len(partners)}
        means = self._means(records)
        return {"tables": records, "table_count": len(records), **means,
                "f1": self._headline(records, means),
                "detection": {**detection, **precision_recall.scores(**detection)}}

    def _headline(self, records: list[dict], means: dict) -> float:
        """A document's ``f1``: its mean first score (1 without tables, 0 where no pair has a score)."""
        if not records:
            return 1.0
        return means[self.scores[0]] if means[self.scores[0]] is not None else 0.0

    def _unequal(self, gt: Document, result: Document) -> Scored:
        """The record of a document that ``--pairing order`` does not score: its
        sides have different numbers of tables."""
        detection = {"gt": len(gt.tables), "detected": len(result.tables), "correct": 0}
        return Scored({"tables": [], "table_count": 0, **dict.fromkeys(self.scores), "f1": 0.0,
                       "detection": {**detection, **precision_recall.scores(**detection)}},
                      [Diagnostic("tables-unequal", Severity.WARNING,
                                  f"--pairing order: {len(gt.tables)} ground-truth table(s) against "
                                  f"{len(result.tables)} result table(s); the document is not scored (docling-eval "
                                  "rejects it as mismatched)")])

    def _greedy(self, gt, result, gt_prepared, result_prepared, settings) -> dict[int, tuple[int, dict]]:
        """Each ground-truth table, in order, takes the remaining result table on its
        page with the highest first score (the first on ties, even at 0)."""
        first = self.scores[0]
        remaining = list(range(len(result.tables)))
        partners = {}
        for g, table in enumerate(gt.tables):
            best = None
            for r in remaining:
                if not settings.ignore_page and result.tables[r].page != table.page:
                    continue
                scores = self.table_scores(gt_prepared[g], result_prepared[r], settings)
                if best is None or (scores[first] or 0.0) > (best[1][first] or 0.0):
                    best = (r, scores)
            if best is not None:
                remaining.remove(best[0])
                partners[g] = best
        return partners

    def _hungarian(self, gt, result, gt_prepared, result_prepared, settings) -> dict[int, tuple[int, dict]]:
        """On each page (``--ignore-page``: over the document), the one-to-one
        pairing of as many tables as the smaller side has whose first scores sum
        highest (the Hungarian method)."""
        from .assignment import max_weight_assignment

        first = self.pairing_key(settings)
        pages: dict = {}
        for g, table in enumerate(gt.tables):
            pages.setdefault(None if settings.ignore_page else table.page, ([], []))[0].append(g)
        for r, table in enumerate(result.tables):
            key = None if settings.ignore_page else table.page
            if key in pages:
                pages[key][1].append(r)
        partners = {}
        for gts, results in pages.values():
            if not results:
                continue
            flat = self.table_scores_many([(gt_prepared[g], result_prepared[r]) for g in gts for r in results],
                                          settings)
            scores = [flat[k * len(results):(k + 1) * len(results)] for k in range(len(gts))]
            for i, j in max_weight_assignment([[self.pairing_weight(s[first], settings) for s in row]
                                               for row in scores]):
                partners[gts[i]] = (results[j], scores[i][j])
        return partners

    def _means(self, records: list[dict]) -> dict[str, float | None]:
        return {name: _mean([record[name] for record in records]) for name in self.scores}

    # -- the corpus --------------------------------------------------------------------------

    def aggregate(self, records: Iterable[dict], settings: ScoreSettings) -> dict:
        # One walk with running sums: the records may be read back from disk, and
        # the tables of a million documents are not to be held at once.
        over_tables = {name: _Mean() for name in self.scores}
        over_documents = {name: _Mean() for name in self.scores}
        split = settings.split == "spans"
        by_class = {(kind, name): _Mean() for kind in ("simple", "complex") for name in self.scores} if split else {}
        values: dict[str, list[float]] | None = {} if settings.statistics else None
        documents = tables = scored = 0
        detection = {"gt": 0, "detected": 0, "correct": 0}
        for record in records:
            documents += 1
            for key, count in record.get("detection", {}).items():
                if key in detection:
                    detection[key] += count
            if record["tables"]:
                scored += 1
                for name in self.scores:
                    over_documents[name].add(record[name])
            for table in record["tables"]:
                tables += 1
                kind = "complex" if table.get("complex") else "simple"
                for name in self.scores:
                    over_tables[name].add(table[name])
                    if split:
                        by_class[kind, name].add(table[name])
                    if values is not None and table[name] is not None:
                        values.setdefault(name, []).append(table[name])
                        if split:
                            values.setdefault(f"{name}_{kind}", []).append(table[name])
        headline = over_documents if settings.aggregate == "page" else over_tables
        total = {"documents": documents, "tables": tables, "scored_tables": over_tables[self.scores[0]].count,
                 "aggregate": settings.aggregate,
                 **{name: mean.value() for name, mean in headline.items()},
                 **{f"{name}_{kind}": mean.value() for (kind, name), mean in by_class.items()},
                 "detection": {**detection, **precision_recall.scores(**detection)}}
        if values is not None:
            total["statistics"] = self._statistics(values, settings)
        return {
            "total": total,
            "document_mean": {"documents": scored, **{name: mean.value() for name, mean in over_documents.items()}},
        }

    def _statistics(self, values: dict[str, list[float]], settings: ScoreSettings) -> dict[str, dict]:
        """``--statistics``: of each score (and class), its values' statistics."""
        names = [*self.scores, *(f"{name}_{kind}" for kind in ("simple", "complex") for name in self.scores
                                 if settings.split == "spans")]
        pooled = {}
        if settings.compat and len(self.scores) > 1:
            # docling-eval's TEDS_struct: the structure-only scores and the full ones, together
            pooled[self.scores[1]] = values.get(self.scores[1], []) + values.get(self.scores[0], [])
        return {name: statistics_of(pooled.get(name, values.get(name, []))) for name in names}

    # -- presenting --------------------------------------------------------------------------

    def summary(self, report: Mapping) -> Summary:
        columns = [("document", "left"), ("tables", "right"), *((self.name_of(name), "right") for name in self.scores)]
        def row(record: dict) -> list[str]:
            if not record.get("counted"):
                return [record["document"], "error" if "error" in record else "skipped", *([""] * len(self.scores))]
            return [record["document"], str(record["table_count"]), *(_shown(record[name]) for name in self.scores)]

        rows = Rows(report["documents"], row)
        total, mean = report["total"], report["document_mean"]
        totals = [[*self._total_row(total, mean), *(_shown(total[name]) for name in self.scores)],
                  ["mean over documents", "", *(_shown(mean[name]) for name in self.scores)]]
        for kind in ("simple", "complex"):  # (--split spans)
            if f"{self.scores[0]}_{kind}" in total:
                counted = total.get("statistics", {}).get(f"{self.scores[0]}_{kind}", {}).get("count", "")
                totals.append([f"mean over {kind} tables", str(counted),
                               *(_shown(total[f"{name}_{kind}"]) for name in self.scores)])
        return Summary(title(report), columns, rows, totals, notes(report))

    @staticmethod
    def _total_row(total: Mapping, document_mean: Mapping) -> list[str]:
        """The label and count of the text report's total row: the pages scored
        with ``--aggregate page``, else the tables scored (a pair left unscored not counted)."""
        if total.get("aggregate") == "page":
            return ["mean over pages", str(document_mean.get("documents", ""))]
        return ["mean over tables", str(total.get("scored_tables", total["tables"]))]

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        yield ["document", "gt_file", "result_file", "tables", *self.scores, "error", "warnings"]
        for record in report["documents"]:
            yield [record["document"], record["gt_file"], record["result_file"] or "",
                   record.get("table_count", ""), *(_csv(record.get(name, "")) for name in self.scores),
                   problem(record), warnings_field(record)]


def pairing_described(settings: ScoreSettings, first: str) -> str:
    """What the report says of how tables were paired and the scores averaged."""
    where = "in the document" if settings.ignore_page else "on the same page"
    if settings.pairing == "joined":
        pairing = f"all the tables {where} joined into one tree a side and scored once"
    elif settings.pairing == "hungarian":
        pairing = f"tables paired {where} by the Hungarian method on {first} (greatest sum)"
    elif settings.pairing == "order":
        pairing = ("each document's tables paired in their order (a document with unequal numbers of tables "
                   "not scored)")
    else:
        pairing = f"tables paired greedily by {first} {where}"
    total = ("mean over documents of their tables' mean" if settings.aggregate == "page" else
             "mean over tables (the papers')")
    return (f"{pairing}, unpaired tables 0; total: {total}; document_mean: mean over documents of their "
            "tables' mean")


class _Mean:
    """A running mean of the values given (None: not given), added in order as
    ``sum`` adds them."""

    __slots__ = ("total", "count")

    def __init__(self):
        self.total, self.count = 0, 0

    def add(self, value: float | None) -> None:
        if value is not None:
            self.total += value
            self.count += 1

    def value(self) -> float | None:
        return self.total / self.count if self.count else None


HISTOGRAM_BINS = 20
"""``--statistics``' histogram: this many equal bins over [0, 1] (the last holds 1)."""


def statistics_of(values: list[float]) -> dict:
    """Count, mean, median, sample standard deviation (0 for fewer than two
    values; mean and median -1 for none, as docling-eval gives them), and the
    counts of a histogram of :data:`HISTOGRAM_BINS` equal bins over [0, 1] with
    its edges (numpy's, a value on an edge in the bin it opens)."""
    import statistics

    import numpy as np

    counts, edges = np.histogram(values, bins=HISTOGRAM_BINS, range=(0, 1.0))
    return {"count": len(values),
            "mean": statistics.mean(values) if values else -1,
            "median": statistics.median(values) if values else -1,
            "std": statistics.stdev(values) if len(values) > 1 else 0.0,
            "bins": [float(edge) for edge in edges], "hist": [int(count) for count in counts]}


def _mean(values: list[float | None]) -> float | None:
    """The mean of the values given (None: not given); None if there are none."""
    given = [value for value in values if value is not None]
    return sum(given) / len(given) if given else None


def _shown(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _csv(value):
    return "" if value is None else value
