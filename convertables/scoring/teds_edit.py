"""TEDS, TEDS-struct and the normalised edit distance of tables' HTML strings,
paired as OmniDocBench's end-to-end evaluation pairs them (docs/scoring.md,
``--metric teds-edit``; the ``omnidocbench`` profile).

It scores documents read by the ``omnidocbench`` and ``omnidocbench-markdown``
readings, which keep each table's HTML as written (its source) and OmniDocBench's
normalisation of it (:mod:`convertables.omnidocbench`), the string its TEDS and
edit distance read; a table another reading made is written as HTML by
convertables (its source) and normalised alike:

* **Pairing**, per page: the one-to-one pairing of least summed normalised
  edit distance of the tables' *sources* (Levenshtein distance over the longer
  length), scipy's ``linear_sum_assignment``, as OmniDocBench pairs them.
  Result tables left over are not scored (OmniDocBench gives their text to its
  text matching); ground-truth tables left over score 0 on TEDS and TEDS-struct
  and 1 on the edit distance. A page with no result file is not scored, nor is
  one without ground-truth tables. A prediction page with more LaTeX tables
  than HTML ones has no tables read: its ground-truth tables score as missing.
* **Scores** of a pair: TEDS and TEDS-struct of the trees PubTabNet's TEDS
  reads from the normalised strings (:func:`reference_tree`); ``edit_dist``, the Levenshtein distance of the two
  normalised strings over the longer one's length (None where both are empty).
  Where OmniDocBench's TEDS fails (a cell span ``int`` cannot read, a table
  with nothing inside on both sides), it scores 0, and so does this, with a
  warning (``omnidocbench-teds-failed``).
* **Aggregates**: ``total``'s ``teds`` and ``teds_struct`` are the means over
  tables (OmniDocBench's ``TEDS`` and ``TEDS_structure_only``), ``edit_dist``
  the mean over pages of each page's summed distances over its summed lengths
  (its ``Edit_dist`` ``ALL_page_avg``); beside them ``edit_dist_pooled`` (all
  distances over all lengths, its ``edit_whole``) and ``edit_dist_table_mean``
  (the mean of the tables' ratios, its ``edit_sample_avg``); ``group`` and
  ``page``, the same figures by the ground truth's table and page attributes
  (its ``table.group`` and ``table.page``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

import json
import re

from ..diagnostics import Diagnostic, Severity
from ..omnidocbench import CACHED_BYTES, CHOICE, PAGE_LABELS, edit_distance, table_sources
from . import precision_recall
from .declarations import TEDS_EDIT_SETTINGS
from .metric import Scored, ScoreSettings
from .teds import PreparedTree, TedsMetric, TedsTree, teds_pair


class _Side:
    """A table as this metric compares it: its tree, its strings, whether its TEDS fails."""

    __slots__ = ("tree", "source", "scored", "has_latex", "labels", "teds_fails")

    def __init__(self, kept):
        self.source, self.scored, self.has_latex = kept[:3]
        self.labels = kept[3] if len(kept) > 3 else []
        self.tree, self.teds_fails = (_prepared_kept if len(self.scored) <= CACHED_BYTES else _prepared)(self.scored)


def _prepared(scored: str) -> tuple[PreparedTree | None, bool]:
    """:func:`reference_tree` made ready for the edit distance."""
    tree, fails = reference_tree(scored)
    return (PreparedTree(tree) if tree is not None else None), fails


_prepared_kept = lru_cache(maxsize=64)(_prepared)  # (a string met again: a table repeated across pages)


@lru_cache(maxsize=256)
def _teds_kept(gt_scored: str, result_scored: str) -> tuple[float, float]:
    """TEDS and TEDS-struct of two strings met together again (the same table on
    both sides of several pages): their trees are :func:`_prepared_kept`'s."""
    return teds_pair(_prepared_kept(gt_scored)[0], _prepared_kept(result_scored)[0])


_FULL_DOCUMENT = re.compile(r"\s*<(?:html|!doctype)", re.IGNORECASE)


def reference_tree(text: str) -> tuple[TedsTree | None, bool]:
    """The TEDS tree of the table a string holds as PubTabNet's TEDS (which
    OmniDocBench runs) reads it: lxml reads a string that starts with
    ``<html`` or ``<!doctype`` as a document and takes the first ``<table>``
    of ``<body>`` (None where there is none, or the string is a fragment:
    TEDS 0); every element below it a node (comments not), a ``<td>`` with its
    colspan, rowspan and tokens (its text's characters, and each element
    inside as ``<tag>``, its content, ``</tag>`` and its tail's characters) and
    nothing below it as nodes. Also whether reading a span fails (``int`` of
    ``colspan="2.0"``): its TEDS then raises."""
    if not text or not _FULL_DOCUMENT.match(text):
        return None, False
    from ..html_tree import parse

    body = next((b for top in parse(text) if top.tag == "html" for b in top if b.tag == "body"), None)
    table = next((t for t in body if t.tag == "table"), None) if body is not None else None
    if table is None:
        return None, False
    tags: list[str] = []
    parent: list[int] = []
    spans: list = []
    tokens: list = []
    elements = 0
    fails = False
    # Postorder without recursion: (element, its index once numbered, or None while its children wait)
    stack: list = [(table, -1, False)]
    children_of: dict[int, list[int]] = {}
    order: list = []
    while stack:
        element, up, expanded = stack.pop()
        if expanded:
            order.append((element, up))
            continue
        stack.append((element, up, True))
        if element.tag != "td":
            for child in reversed([c for c in element if c.tag.__class__ is str]):
                stack.append((child, id(element), False))
    index = {}
    for element, up in order:
        index[id(element)] = len(tags)
        tags.append(element.tag)
        parent.append(up)
        if element.tag == "td":
            try:
                spans.append((int(element.get("colspan", "1")), int(element.get("rowspan", "1"))))
            except ValueError:
                fails = True
                spans.append((1, 1))
            cell: list[str] = []
            _cell_tokens(element, cell)
            tokens.append(tuple(cell))
        else:
            spans.append(None)
            tokens.append(None)
    parent = [index[up] if up != -1 else -1 for up in parent]
    elements = sum(1 for _ in _descendants(table))
    return TedsTree(tags, parent, spans, tokens, elements, [None] * len(tags)), fails


def _cell_tokens(td, out: list[str]) -> None:
    """A ``<td>``'s tokens as PubTabNet's ``tokenize`` makes them, less the cell's own tags."""
    if td.text:
        out.extend(td.text)
    walk: list = [(child, False) for child in reversed(list(td))]
    while walk:
        node, closing = walk.pop()
        if closing:
            if node.tag != "unk":
                out.append(f"</{node.tag}>")
            if node.tag != "td" and node.tail:
                out.extend(node.tail)
            continue
        if node.tag.__class__ is not str:  # a comment: the reference's parser drops it, its tail is text
            if node.tail:
                out.extend(node.tail)
            continue
        out.append(f"<{node.tag}>")
        if node.text:
            out.extend(node.text)
        walk.append((node, True))
        walk.extend((child, False) for child in reversed(list(node)))


def _descendants(element):
    walk = [c for c in element if c.tag.__class__ is str]
    while walk:
        node = walk.pop()
        yield node
        walk.extend(c for c in node if c.tag.__class__ is str)


def _sides(document) -> list[_Side]:
    kept = table_sources(document)
    if kept is None:  # read by another reading: each table as convertables writes it in HTML, normalised
        from ..diagnostics import Diagnostics
        from ..html_writing import table_html
        from ..omnidocbench import normalised_html

        kept = []
        for table in document.tables:
            source = table_html(table, Diagnostics(), "source", [], opening="<table>")
            kept.append([source, normalised_html(source) or source, False])
    return [_Side(strings) for strings in kept]


def _source_cost(g: _Side, r: _Side) -> float:
    distance, longer = edit_distance(g.source, r.source)
    return distance / longer if longer else 0.0


_MARGIN = 1e-9
"""How much less than every other the least summed cost must be for the pairing to
be taken without scipy's solver (which finds the same where it is clear)."""
_MAX_CANDIDATES = 5040


def _clear_optimum(costs: list[list[float]]) -> dict[int, int] | None:
    """The pairing of least summed cost, found by trying them all, where there are
    few and it is less than every other by :data:`_MARGIN`; else None (a near tie:
    scipy's solver settles it as OmniDocBench's does)."""
    from itertools import permutations
    from math import perm

    rows, cols = len(costs), len(costs[0])
    if perm(max(rows, cols), min(rows, cols)) > _MAX_CANDIDATES:
        return None
    sums = []
    if rows <= cols:
        for chosen in permutations(range(cols), rows):
            sums.append((sum(costs[i][j] for i, j in enumerate(chosen)), {i: j for i, j in enumerate(chosen)}))
    else:
        for chosen in permutations(range(rows), cols):
            sums.append((sum(costs[i][j] for j, i in enumerate(chosen)), {i: j for j, i in enumerate(chosen)}))
    sums.sort(key=lambda item: item[0])
    if len(sums) > 1 and sums[1][0] - sums[0][0] <= _MARGIN:
        return None
    return sums[0][1]


class TedsEditMetric(TedsMetric):
    """TEDS, TEDS-struct and the edit distance of normalised HTML, OmniDocBench's way."""

    name = "teds-edit"
    title = "TEDS, TEDS-struct and normalised edit distance of tables' HTML (OmniDocBench)"
    variants = ("omnidocbench",)
    settings = TEDS_EDIT_SETTINGS
    scores = ("teds", "teds_struct", "edit_dist")
    headline = "teds"
    names = {"teds": "TEDS", "teds_struct": "TEDS-struct", "edit_dist": "Edit distance"}

    def check(self, settings: ScoreSettings) -> None:
        pass

    def describe(self, settings: ScoreSettings) -> dict:
        return {
            "variant": "omnidocbench",
            "normalisation": "OmniDocBench's normalised HTML of each table (its normalized_html_table), as the "
                             "omnidocbench readings keep it",
            "aggregation": "tables paired per page by the Hungarian method on the normalised edit distance of "
                           "their sources, result tables left over not scored, ground-truth tables left over 0 "
                           "(edit distance 1); total: teds and teds_struct the mean over tables, edit_dist the "
                           "mean over pages of each page's summed distances over its summed lengths",
        }

    def score(self, gt, result, settings: ScoreSettings, unreadable: bool = False, gt_file=None):
        if result is None:
            return None  # (no prediction for the page: OmniDocBench leaves the page out)
        gt_sides, result_sides = _sides(gt), _sides(result)
        if result.metadata.get(CHOICE) == "latex":
            # Scored as LaTeX tables, every one missing, of the tables that have their LaTeX too.
            keep = [k for k, side in enumerate(gt_sides) if side.has_latex]
            partners: dict[int, int] = {}
        else:
            keep = list(range(len(gt_sides)))
            partners = self._pairs([gt_sides[k] for k in keep], result_sides)
        findings: list[Diagnostic] = []
        records = []
        edits = length = 0
        for position, k in enumerate(keep):
            g = gt_sides[k]
            r = result_sides[partners[position]] if position in partners else None
            record = {"gt_table": gt.tables[k].id, "result_table": None if r is None else
                      result.tables[partners[position]].id}
            record.update(self._pair_scores(g, r, record, findings))
            if g.labels:
                record["labels"] = g.labels
            if record["edit"][1]:
                edits += record["edit"][0]
                length += record["edit"][1]
            records.append(record)
        detection = {"gt": len(keep), "detected": len(result.tables), "correct": len(partners)}
        means = self._means(records)
        means["edit_dist"] = edits / length if length else None
        labels = gt.metadata.get(PAGE_LABELS)
        if labels is not None and records:
            means["page_labels"] = json.loads(labels)
        return Scored({"tables": records, "table_count": len(records), **means,
                       "f1": means["teds"] if records else 1.0,
                       "detection": {**detection, **precision_recall.scores(**detection)}}, findings)

    @staticmethod
    def _pairs(gt_sides: list[_Side], result_sides: list[_Side]) -> dict[int, int]:
        if not gt_sides or not result_sides:
            return {}
        costs = [[_source_cost(g, r) for r in result_sides] for g in gt_sides]
        if len(costs) == 1:  # (a row or a column: its first least cost, the pair scipy's solver picks)
            return {0: costs[0].index(min(costs[0]))}
        if len(costs[0]) == 1:
            column = [row[0] for row in costs]
            return {column.index(min(column)): 0}
        best = _clear_optimum(costs)
        if best is not None:
            return best
        from scipy.optimize import linear_sum_assignment

        rows, cols = linear_sum_assignment(costs)
        return {int(i): int(j) for i, j in zip(rows, cols)}

    def _pair_scores(self, g: _Side, r: _Side | None, record: dict, findings: list) -> dict:
        scored = r.scored if r is not None else ""
        distance, longer = edit_distance(g.scored, scored)
        scores = {"edit_dist": distance / longer if longer else None, "edit": [distance, longer]}
        if r is None or g.tree is None or r.tree is None:
            return {"teds": 0.0, "teds_struct": 0.0, **scores}
        elements = max(g.tree.tree.elements, r.tree.tree.elements)
        why = ("a cell span Python's int cannot read" if g.teds_fails or r.teds_fails else
               "no element inside either table" if elements == 0 else None)
        if why is not None:
            findings.append(Diagnostic("omnidocbench-teds-failed", Severity.WARNING,
                                       f"ground-truth table {record['gt_table']} against result table "
                                       f"{record['result_table']}: {why}: OmniDocBench's TEDS fails, and it "
                                       "scores the pair 0"))
            return {"teds": 0.0, "teds_struct": 0.0, **scores}
        if len(g.scored) <= CACHED_BYTES and len(r.scored) <= CACHED_BYTES:
            teds, struct = _teds_kept(g.scored, r.scored)
        else:
            teds, struct = teds_pair(g.tree, r.tree)
        return {"teds": teds, "teds_struct": struct, **scores}

    def aggregate(self, records: Iterable[dict], settings: ScoreSettings) -> dict:
        documents = scored = 0
        sums = {"teds": 0.0, "teds_struct": 0.0}
        page_sums = {"teds": [], "teds_struct": []}
        tables = 0
        page_ratios: list[float] = []
        ratios: list[float] = []
        edits = length = 0
        detection = {"gt": 0, "detected": 0, "correct": 0}
        groups = _Groups()
        for record in records:
            documents += 1
            groups.add(record)
            for key, count in record.get("detection", {}).items():
                if key in detection:
                    detection[key] += count
            if not record["tables"]:
                continue
            scored += 1
            for name in page_sums:
                page_sums[name].append(record[name])
            if record.get("edit_dist") is not None:
                page_ratios.append(record["edit_dist"])
            for table in record["tables"]:
                tables += 1
                for name in sums:
                    sums[name] += table[name]
                if table["edit"][1]:
                    edits += table["edit"][0]
                    length += table["edit"][1]
                    ratios.append(table["edit"][0] / table["edit"][1])
        means = {name: value / tables if tables else None for name, value in sums.items()}
        return {
            "total": {"documents": documents, "tables": tables, "aggregate": "table", **means,
                      "edit_dist": sum(page_ratios) / len(page_ratios) if page_ratios else None,
                      "edit_dist_pooled": edits / length if length else None,
                      "edit_dist_table_mean": sum(ratios) / len(ratios) if ratios else None,
                      **groups.figures(),
                      "detection": {**detection, **precision_recall.scores(**detection)}},
            "document_mean": {"documents": scored,
                              **{name: sum(values) / len(values) if values else None
                                 for name, values in page_sums.items()},
                              "edit_dist": sum(page_ratios) / len(page_ratios) if page_ratios else None},
        }

    @staticmethod
    def _total_row(total: Mapping, document_mean: Mapping) -> list[str]:
        # (its edit distance is OmniDocBench's: the mean over pages of each page's summed ratio)
        return ["mean over tables (edit distance over pages)", str(total["tables"])]

    def explain(self, gt, result, settings: ScoreSettings, record: dict | None = None, gt_file=None) -> dict:
        from .explain import default_explain

        return default_explain(gt, result, record)


_SCORES = (("teds", "TEDS"), ("teds_struct", "TEDS_structure_only"), ("edit_dist", "Edit_dist"))


class _Groups:
    """OmniDocBench's figures by attribute: ``group``, the mean of each table
    figure over the tables whose ground truth has each attribute label (and how
    many); ``page``, by the page's labels (``ALL`` the whole run): TEDS and
    TEDS-S the mean over pages of each page's mean, Edit_dist the mean over
    pages of each page's summed distances over its summed lengths."""

    def __init__(self):
        self.tables: dict[str, dict[str, list[float]]] = {}
        self.pages: dict[str, dict[str, list[float]]] = {}

    def add(self, record: dict) -> None:
        for table in record.get("tables") or ():
            for label in table.get("labels") or ():
                scores = self.tables.setdefault(label, {})
                for key, name in _SCORES:
                    if table[key] is not None:
                        scores.setdefault(name, []).append(table[key])
        labels = record.get("page_labels")
        if not labels or not record.get("tables"):
            return
        page = {}
        for key, name in _SCORES[:2]:
            page[name] = sum(t[key] for t in record["tables"]) / len(record["tables"])
        weighted = [(t["edit_dist"] * t["edit"][1], t["edit"][1]) for t in record["tables"]
                    if t["edit_dist"] is not None]
        if weighted:
            page["Edit_dist"] = sum(w for w, _ in weighted) / sum(n for _, n in weighted)
        for label in labels:
            for name, value in page.items():
                self.pages.setdefault(label, {}).setdefault(name, []).append(value)

    def figures(self) -> dict:
        if not self.tables and not self.pages:
            return {}
        group: dict[str, dict] = {"sample_count": {}}
        for label, scores in sorted(self.tables.items()):
            for name, values in scores.items():
                group.setdefault(name, {})[label] = sum(values) / len(values)
            # (the count of the last figure it lists for the label: Edit_dist where a table has one)
            group["sample_count"][label] = len(scores.get("Edit_dist") or scores["TEDS_structure_only"])
        page: dict[str, dict] = {}
        for label, scores in sorted(self.pages.items()):
            for name, values in scores.items():
                page.setdefault(name, {})[label] = sum(values) / len(values)
        return {"group": group, "page": page}


METRICS = (TedsEditMetric(),)
