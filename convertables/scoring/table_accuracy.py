"""Unstructured's table accuracy (docs/scoring.md, `--metric table-accuracy`):
the figures of Unstructured's table evaluation (``unstructured.metrics``,
``TableEvalProcessor`` and ``TableStructureMetricsCalculator``), per document
and over the corpus.

A table is its cells, each a row, a column (its first) and a text, in order of
row then column. A table's text is its cells' texts joined by spaces.

* **Pairing**: each result table, in order, is paired with the ground-truth
  table whose text is closest to its own by difflib's ``get_close_matches``
  (cutoff 0.1; the first of equal texts), or with none. Several result tables
  may take the same ground-truth table. Pages play no part.
* **table_level_acc**: the mean over result tables of difflib's ratio of
  their text against their partner's (0 without one).
* **Index accuracy** of a paired table: each result cell, its text lowered,
  takes the ground-truth cell whose lowered text ``get_close_matches`` finds
  closest (cutoff ``--cell-cutoff``, 0.8), the first such cell not yet taken
  (all are free again once every one is taken); of the cells so matched, the
  share in the same row (``element_row_level_index_acc``) and in the same
  column (``element_col_level_index_acc``), rounded to 2 decimals.
* **Content accuracy** of a paired table: rapidfuzz's ``token_ratio`` of the
  two tables written out cell by cell as "column<TAB>text" lines (by column)
  and as a line of columns above a line of texts (by row), over 100.
* A document's index and content accuracies are the means over its result
  tables (0 for one without a partner) and its ground-truth tables paired with
  none (0 each), rounded to 2 decimals as numpy rounds; ``composite_structure_acc``
  is the mean of the two index accuracies and the mean of the two content ones.
* Detection: ``table_detection_recall`` is the ground-truth tables paired over
  all of them, precision the same count over the result tables.
* A document without ground-truth tables scores table_level_acc 1 and no other
  figure when it has no result table either, and 0 on all when it has some.
  One without result tables scores 0 on all.
* **Aggregates** over the documents with a ground-truth or a result table:
  table_level_acc weighted by their ground-truth tables (1 for a document
  with result tables only), every other figure by their ground-truth tables,
  rounded to 3 decimals; ``total_tables`` is their mean; each figure's sample
  and population standard deviations (rounded to 3) and count beside them.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from ..diagnostics import Diagnostic, Severity, UsageError
from ..model import Document, Table
from . import precision_recall
from .declarations import TABLE_ACCURACY_SETTINGS
from .metric import Metric, Scored, ScoreSettings
from .presentation import Rows, Summary, notes, problem, title, warnings_field

FIGURES = ("total_tables", "table_level_acc", "table_detection_recall", "table_detection_precision",
           "table_detection_f1", "composite_structure_acc", "element_col_level_index_acc",
           "element_row_level_index_acc", "element_col_level_content_acc", "element_row_level_content_acc")
"""A document's figures, in the order Unstructured's reports list them."""

_ACCURACIES = FIGURES[5:]
_MARGIN = 1e-6  # (the bound that picks candidates is computed otherwise than difflib's ratio)


def table_cells(table: Table) -> list[tuple[int, int, str]]:
    """(row, column, text) of each cell, by row then column (the first first on ties)."""
    from operator import itemgetter

    cells = [(c.start_row, c.start_col, c.content or "") for c in table.cells()]
    cells.sort(key=itemgetter(0, 1))
    return cells


def table_text(cells: list[tuple[int, int, str]]) -> str:
    return " ".join([text for _, _, text in cells])


def _ratio(a: str, b: str) -> float:
    """``difflib.SequenceMatcher(None, a, b).ratio()``."""
    from .matching_blocks import matched_characters_of

    length = len(a) + len(b)
    return 2.0 * matched_characters_of(a, b) / length if length else 1.0


def closest(word: str, candidates: Mapping[str, object] | list[str], cutoff: float) -> str | None:
    """What ``difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)``
    gives (its first item), the candidates whose character similarity cannot
    reach the cutoff passed over unmeasured. ``candidates``: a list, or a
    mapping whose keys are the texts (each once)."""
    unique = dict.fromkeys(candidates) if type(candidates) is list else candidates
    if word in unique:
        return word  # (only an equal text scores 1)
    from rapidfuzz import process
    from rapidfuzz.distance import Indel

    best = None
    # Indel's similarity, 2 x (longest common subsequence) / (lengths), bounds
    # difflib's ratio, 2 x (its matching blocks) / (lengths), from above: the
    # candidates are measured from the highest bound down, until no bound left
    # can reach (or tie) the best ratio found.
    found = process.extract(word, list(unique), scorer=Indel.normalized_similarity, processor=None,
                            score_cutoff=max(0.0, cutoff - _MARGIN), limit=None)
    for candidate, bound, _ in sorted(found, key=lambda item: -item[1]):
        if best is not None and bound + _MARGIN < best[0]:
            break
        score = _ratio(candidate, word)
        if score >= cutoff and (best is None or (score, candidate) > best):
            best = (score, candidate)
    return best[1] if best is not None else None


def _closest_of(words: list[str], candidates: Mapping[str, object], cutoff: float) -> dict[str, str | None]:
    """``closest(word, candidates, cutoff)`` of each of ``words`` (none of them
    a candidate), their bounds measured all at once."""
    import numpy as np
    from rapidfuzz.distance import Indel
    from rapidfuzz.process import cdist

    keys = list(candidates)
    if not words or not keys:
        return dict.fromkeys(words)
    floor = max(0.0, cutoff - _MARGIN)
    bounds = cdist(words, keys, scorer=Indel.normalized_similarity, processor=None, score_cutoff=floor,
                   dtype=np.float64, workers=1)
    found: dict[str, str | None] = {}
    for word, row in zip(words, bounds):
        best = None
        places = np.flatnonzero(row >= floor)
        for k in places[np.argsort(-row[places], kind="stable")].tolist():
            if best is not None and row[k] + _MARGIN < best[0]:
                break  # (as closest: no candidate left can reach the best ratio found)
            score = _ratio(keys[k], word)
            if score >= cutoff and (best is None or (score, keys[k]) > best):
                best = (score, keys[k])
        found[word] = best[1] if best is not None else None
    return found


def _content_ratios(gt: list[tuple[int, int, str]], result: list[tuple[int, int, str]]) -> tuple[float, float]:
    """(by column, by row): token_ratio of the two tables written out, cell by
    cell as "column<TAB>text" lines and as a line of columns above a line of
    texts. Both writings hold the same tokens (whitespace parts each cell's
    column and text, and the cells), and token_ratio compares tokens only:
    the one ratio serves for both."""
    from rapidfuzz import fuzz

    def by_column(cells):
        return "\n".join([f"{col}\t{text}" for _, col, text in cells])

    ratio = fuzz.token_ratio(by_column(gt), by_column(result), processor=None)
    return ratio, ratio


def _index_accuracy(gt: list[tuple[int, int, str]], result: list[tuple[int, int, str]],
                    cutoff: float) -> tuple[float, float]:
    """(column, row) index accuracy of a result table against its partner."""
    lowered = [text.lower() for _, _, text in gt]
    positions: dict[str, list[int]] = {}
    for k, text in enumerate(lowered):
        positions.setdefault(text, []).append(k)
    words = [text.lower() for _, _, text in result]
    matches = _closest_of([word for word in dict.fromkeys(words) if word not in positions], positions, cutoff)
    taken: set[int] = set()
    same_row = same_col = total = 0
    for (row, col, _), word in zip(result, words):
        if word in positions:
            match = word  # (only an equal text scores 1)
        else:
            match = matches[word]
            if match is None:
                continue
        places = positions[match]
        for k in places:
            if k not in taken:
                break
        else:
            taken.clear()
            k = places[0]
        taken.add(k)
        same_row += gt[k][0] == row
        same_col += gt[k][1] == col
        total += 1
    if not total:
        return 0, 0
    return round(same_col / total, 2), round(same_row / total, 2)


def document_figures(gt_tables: list[Table], result_tables: list[Table],
                     cutoff: float = 0.8) -> tuple[dict, list[dict]]:
    """A document's figures (None where Unstructured's are NaN) and an entry
    for each result table, then each ground-truth table paired with none."""
    import numpy as np

    gt = [table_cells(t) for t in gt_tables]
    result = [table_cells(t) for t in result_tables]
    counts = {"total_tables": len(gt), "total_predicted_tables": len(result)}
    if not gt:
        level = 0.0 if result else None
        return {**counts, **dict.fromkeys(FIGURES[2:], level), "table_level_acc": 0.0 if result else 1.0}, \
            [{"gt_table": None, "result_table": t.id} for t in result_tables]
    if not result:
        return {**counts, **dict.fromkeys(FIGURES[1:], 0.0)}, [{"gt_table": t.id, "result_table": None}
                                                             for t in gt_tables]
    gt_texts = [table_text(cells) for cells in gt]
    partners = []
    for cells in result:
        match = closest(table_text(cells), gt_texts, 0.1)
        partners.append(gt_texts.index(match) if match is not None else -1)
    level = np.zeros(len(result))
    columns, rows, content_cols, content_rows = [], [], [], []
    entries = []
    for k, (g, cells) in enumerate(zip(partners, result)):
        if g < 0:
            figures = (0, 0, 0, 0)
        else:
            # (the result's text first: difflib's ratio is not symmetric, and the pairing measured the other way)
            level[k] = _ratio(table_text(cells), gt_texts[g])
            figures = (*_index_accuracy(gt[g], cells, cutoff), *_content_ratios(gt[g], cells))
        for values, value in zip((columns, rows, content_cols, content_rows), figures):
            values.append(value)
        entries.append({"gt_table": gt_tables[g].id if g >= 0 else None, "result_table": result_tables[k].id,
                        "table_level_acc": float(level[k]), "col_index_acc": figures[0],
                        "row_index_acc": figures[1], "content_acc": figures[2] / 100.0})
    for g, table in enumerate(gt_tables):
        if g not in partners:
            for values in (columns, rows, content_cols, content_rows):
                values.append(0)
            entries.append({"gt_table": table.id, "result_table": None})
    paired = len(set(partners) - {-1})
    recall = paired / len(gt)
    precision = paired / len(result)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0
    col_index, row_index = float(round(np.mean(columns), 2)), float(round(np.mean(rows), 2))
    col_content = float(round(np.mean(content_cols) / 100.0, 2))
    row_content = float(round(np.mean(content_rows) / 100.0, 2))
    return {**counts, "table_level_acc": float(np.mean(level)), "table_detection_recall": recall,
            "table_detection_precision": precision, "table_detection_f1": f1,
            "composite_structure_acc": (col_index + row_index + (col_content + row_content) / 2) / 3,
            "element_col_level_index_acc": col_index, "element_row_level_index_acc": row_index,
            "element_col_level_content_acc": col_content, "element_row_level_content_acc": row_content}, entries


def corpus_figures(records: Iterable[Mapping]) -> dict:
    """Each figure's average, sample and population standard deviations and count,
    over the documents with a ground-truth or a result table, as Unstructured
    aggregates them (None where it has none, and where it would fail: weights
    summing to 0)."""
    import numpy as np

    rows = []
    for record in records:
        weight = record["total_tables"]
        if weight == 0 and record["total_predicted_tables"] > 0:
            weight = 1  # (a document with false positives only counts as one table in table_level_acc)
        if weight > 0:
            rows.append((record, weight))
    figures = {}
    for name in FIGURES:
        kept = [(r[name], w, r["total_tables"]) for r, w in rows if r[name] is not None]
        values = [v for v, _, _ in kept]
        average = None
        if kept and name == "total_tables":
            average = float(np.mean(values))
        elif kept:
            weights = [w for _, w, _ in kept] if name == "table_level_acc" else [t for _, _, t in kept]
            if sum(weights) > 0:
                average = float(np.round(np.average(values, weights=weights), 3))
        figures[name] = {
            "average": average,
            "sample_sd": round(statistics.stdev(values), 3) if len(values) > 1 else None,
            "population_sd": round(statistics.pstdev(values), 3) if len(values) > 1 else None,
            "count": len(values),
        }
    return figures


class TableAccuracyMetric(Metric):
    """Unstructured's table-level, index and content accuracies."""

    name = "table-accuracy"
    title = "table accuracy: table-level, row and column index, and content accuracy (Unstructured's)"
    variants = ("unstructured",)
    settings = TABLE_ACCURACY_SETTINGS
    headline = "composite_structure_acc"
    names = {"composite_structure_acc": "composite", "table_level_acc": "table acc",
             "element_row_level_index_acc": "row index", "element_col_level_index_acc": "col index",
             "element_row_level_content_acc": "row content", "element_col_level_content_acc": "col content"}
    no_result = "no result (left out, as Unstructured's evaluation scores the predictions it finds)"

    def check(self, settings: ScoreSettings) -> None:
        if not 0 <= settings.cell_cutoff <= 1:
            raise UsageError(f"--cell-cutoff is a similarity from 0 to 1, not {settings.cell_cutoff}")

    def describe(self, settings: ScoreSettings) -> dict:
        return {
            "variant": "unstructured",
            "normalisation": "none: cell texts as read; lowered to match cells (difflib, cutoff "
                             f"{settings.cell_cutoff:g}); content by rapidfuzz's token_ratio",
            "aggregation": "result tables paired with the ground-truth table of closest text (difflib, cutoff "
                           "0.1), pages aside; a document's accuracies the mean over its result tables and its "
                           "unpaired ground-truth tables, rounded to 2; total: averages weighted by ground-truth "
                           "tables over the documents with a table, rounded to 3 (Unstructured's)",
        }

    def reading_findings(self, findings: list[Diagnostic], settings: ScoreSettings) -> list[Diagnostic]:
        # Cells are compared by their first row and column, so cells whose spans
        # overlap (as the evaluation places spanning cells) change nothing.
        return [d for d in findings if d.severity is not Severity.INFO and d.code != "slot-overlap"]

    def preference(self, record: dict, settings: ScoreSettings) -> tuple:
        return (record["f1"] if record["f1"] is not None else -1.0,)

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        if result is None and not unreadable:
            return None  # (the evaluation walks the predictions: a ground truth without one is not scored)
        findings = []
        if unreadable:
            findings.append(Diagnostic("unstructured-eval-fails", Severity.WARNING, "Unstructured's evaluation "
                                       "fails on an unreadable prediction: it would leave the document out; scored "
                                       "here as one without tables"))
        result = result or Document()
        findings += _source_findings(gt, result)
        figures, entries = document_figures(gt.tables, result.tables, settings.cell_cutoff)
        paired = len({e["gt_table"] for e in entries if e["gt_table"] is not None and e["result_table"] is not None})
        detection = {"gt": len(gt.tables), "detected": len(result.tables), "correct": paired}
        return Scored({"tables": entries, "table_count": len(entries), **figures,
                       "f1": figures["composite_structure_acc"],
                       "detection": {**detection, **precision_recall.scores(**detection)}}, findings)

    def aggregate(self, records: Iterable[dict], settings: ScoreSettings) -> dict:
        documents, detection = 0, {"gt": 0, "detected": 0, "correct": 0}
        kept = []
        for record in records:
            documents += 1
            for key in detection:
                detection[key] += record.get("detection", {}).get(key, 0)
            kept.append({name: record[name] for name in (*FIGURES, "total_predicted_tables")})
        figures = corpus_figures(kept)
        return {"total": {"documents": documents, "tables": detection["gt"],
                          **{name: figures[name]["average"] for name in FIGURES},
                          "figures": figures, "detection": {**detection, **precision_recall.scores(**detection)}}}

    def summary(self, report: Mapping) -> Summary:
        shown = ("table_level_acc", "element_row_level_index_acc", "element_col_level_index_acc",
                 "element_col_level_content_acc", "composite_structure_acc")
        columns = [("document", "left"), ("tables", "right"), ("found", "right"),
                   *((self.name_of(name), "right") for name in shown)]

        def row(record: dict) -> list[str]:
            if not record.get("counted"):
                return [record["document"], "error" if "error" in record else "skipped", "", *([""] * len(shown))]
            return [record["document"], str(record["total_tables"]), str(record["total_predicted_tables"]),
                    *(_shown(record[name]) for name in shown)]

        total = report["total"]
        totals = [["average (Unstructured's)", _shown(total["total_tables"]), "",
                   *(_shown(total[name]) for name in shown)]]
        return Summary(title(report), columns, Rows(report["documents"], row), totals, notes(report))

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        yield ["document", "gt_file", "result_file", "total_predicted_tables", *FIGURES, "error", "warnings"]
        for record in report["documents"]:
            yield [record["document"], record["gt_file"], record["result_file"] or "",
                   record.get("total_predicted_tables", ""),
                   *("" if record.get(name) is None else record[name] for name in FIGURES),
                   problem(record), warnings_field(record)]


def _source_findings(gt: Document, result: Document) -> list[Diagnostic]:
    """Where the evaluation would read a document's tables otherwise: a ground
    truth's only from cell lists, a prediction's only from ``text_as_html``
    (documents read by the ``unstructured-eval`` reading say which they hold)."""
    findings = []
    if gt.metadata.get("unstructured_eval_html_tables", "0") != "0":
        findings.append(Diagnostic("unstructured-eval-differs", Severity.WARNING, "ground-truth tables read from "
                                   "text_as_html: Unstructured's evaluation reads a ground truth's tables from lists "
                                   "of cells only (of a Table element whose text is a string, as many blank cells "
                                   "as it has characters)"))
    if result.metadata.get("unstructured_eval_cell_tables", "0") != "0":
        findings.append(Diagnostic("unstructured-eval-differs", Severity.WARNING, "result tables read from lists of "
                                   "cells: Unstructured's evaluation reads a prediction's tables from text_as_html "
                                   "only"))
    return findings


def _shown(value) -> str:
    return "" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


METRICS = (TableAccuracyMetric(),)
