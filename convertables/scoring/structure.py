"""The ICDAR 2013 structure metric: adjacency relations (docs/scoring.md, `--metric structure`).

Default (``variant="icdar2013"``), as T. Hassan's official ``dataset-tools``
(``MeasureRecognitionPerformance -str``) computes it:

* a cell's text is normalised (:mod:`convertables.scoring.text`); a cell whose
  normalised text is empty is blank and is not placed;
* every other cell fills its slots, shifted by its region's increments; a later
  cell on an occupied slot replaces the earlier one; a table's page is the page
  of its last region;
* each row is scanned left to right and each column top to bottom; every
  occupied slot is linked to the next occupied slot of a *different* cell, with
  the number of empty slots between (a spanning cell is measured from its last
  slot); the same two cells linked again in the same direction (parallel links
  of spanning cells) count once, the first link kept;
* a relation is (text, text, direction, blanks); matching is a multiset: each
  ground-truth relation consumes at most one equal result relation;
* each ground-truth table, in document order, takes the remaining result table
  on the same page with the most correct relations (the first on ties, even at 0).

A result table that no ground-truth table took counts its relations as
detected (false positives), as the wrapper around the official tool counted
them (``FP table with N adj. relations found``). Where the default is *correct*
rather than a copy of the tool: a ground-truth table that got no result table
counts its relations as missed; the tool prints no count for it, so the wrapper
that summed its printed lines dropped it, and ``compat=True`` does the same.

``variant="pubmed"`` is the biomedical benchmark's (mnamysl/benchmarking_table_recogn,
``eval_pubmed.py``): accent-folded ASCII text, case kept; every cell is placed in
document order, and a later cell, even an empty one, replaces an earlier one;
increments are ignored; relations are (text, text, direction) without blanks,
deduplicated per (from cell, to cell); tables are paired by a maximum-weight
matching on F1; totals are micro sums (TP, FN, FP).

The grid is never allocated slot by slot: rows and columns are compressed to
the bands between cell boundaries, so a cell claiming a million rows costs one
band, and a table whose band grid would exceed :data:`MAX_BAND_SLOTS` is
refused with a clear error instead of exhausting memory.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from operator import sub
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Mapping, NamedTuple, Sequence

from .. import files
from ..diagnostics import Diagnostic, InputError, Severity, UsageError
from ..grid import GridTooLarge
from ..model import Document, Table
from ..options import Option
from . import text as texts
from .assignment import max_weight_assignment
from .precision_recall import document_mean, f1, scores
from .metric import COMPAT, IGNORE_PAGE, Metric, ScoreSettings, page_needed
from .pairing import Pairing, document_key
from .report import Summary, count_csv_rows, structure_summary

MAX_BAND_SLOTS = 4_000_000

# How the ICDAR 2013 reader's findings about a box begin (a bad or missing coordinate).
_BOX_FINDING = "<bounding-box>"

H, V = "H", "V"


class TableTooLarge(GridTooLarge):
    """A table whose compressed grid is too large to scan."""


# -- relations of one table --------------------------------------------------------------

def band_indices(cuts: list[int], values) -> list[int] | tuple[int, ...]:
    """Each value's position among the sorted ``cuts``. Where the cuts are
    0, 1, 2, ... (every row starts or ends a cell, the usual), a cut is its own
    position and the values are returned as they are."""
    if cuts[0] == 0 and cuts[-1] == len(cuts) - 1:
        return values
    position = dict(zip(cuts, range(len(cuts))))
    return list(map(position.__getitem__, values))


class Bands(NamedTuple):
    """The compressed grid of a table's cells: its rows and columns are the bands
    between cell boundaries (``row_cuts``, ``col_cuts``, sorted), and cell ``k``
    covers band rows ``i0[k]`` to ``i1[k] - 1`` and band columns ``j0[k]`` to
    ``j1[k] - 1``. ``firsts[k]`` is its first slot in a row-major list of the
    ``n_rows * n_cols`` slots; ``one_slot_each`` when every cell covers one slot."""

    row_cuts: list[int]
    col_cuts: list[int]
    n_rows: int
    n_cols: int
    i0: Sequence[int]
    i1: Sequence[int]
    j0: Sequence[int]
    j1: Sequence[int]
    firsts: list[int]
    one_slot_each: bool


def bands(top: Sequence[int], below: Sequence[int], left: Sequence[int], after: Sequence[int]) -> Bands:
    """The :class:`Bands` of cells given by their first row, the row after their
    last, their first column and the column after their last; raises
    :class:`TableTooLarge` beyond :data:`MAX_BAND_SLOTS`."""
    row_cuts = sorted({*top, *below})
    col_cuts = sorted({*left, *after})
    n_rows, n_cols = len(row_cuts) - 1, len(col_cuts) - 1
    if n_rows * n_cols > MAX_BAND_SLOTS:
        raise TableTooLarge(f"the table's grid has {n_rows} x {n_cols} distinct bands")
    i0, i1 = band_indices(row_cuts, top), band_indices(row_cuts, below)
    j0, j1 = band_indices(col_cuts, left), band_indices(col_cuts, after)
    firsts = [i * n_cols + j for i, j in zip(i0, j0)]
    one_slot_each = max(map(sub, i1, i0)) == 1 and max(map(sub, j1, j0)) == 1
    return Bands(row_cuts, col_cuts, n_rows, n_cols, i0, i1, j0, j1, firsts, one_slot_each)


def _links(rects: list[tuple[int, int, int, int]], is_content: list[bool]) -> tuple[list[tuple[int, int, str, int]], bool]:
    """Links between consecutive content slots of different cells.

    ``rects[k] = (r0, r1, c0, c1)`` (inclusive), placed in order, a later cell
    replacing an earlier one slot by slot. Returns ``(from, to, direction,
    empty slots between)`` in the official scan order: rows top to bottom, each
    left to right, then columns left to right, each top to bottom; and whether
    a pair of cells may be linked more than once (only where a cell covers more
    than one slot of the compressed grid: a cell on one slot has one neighbour
    each way).
    """
    if not rects:
        return [], False
    top, bottom, left, right = zip(*rects)
    grid = bands(top, [r + 1 for r in bottom], left, [c + 1 for c in right])
    row_cuts, col_cuts, n_rows, n_cols, i0, i1, j0, j1, firsts, one_slot_each = grid
    # The compressed grid as one list, row after row; a slot holds its cell's
    # number, -1 where no cell or a cell without content is (both are gaps).
    owners = range(len(rects)) if all(is_content) else [k if c else -1 for k, c in enumerate(is_content)]
    slots = [-1] * (n_rows * n_cols)
    if one_slot_each:
        for first, owner in zip(firsts, owners):
            slots[first] = owner
    else:
        for first, owner, a, b, c, d in zip(firsts, owners, i0, i1, j0, j1):
            if b - a == 1 and d - c == 1:
                slots[first] = owner
            else:
                for row_start in range(a * n_cols, b * n_cols, n_cols):
                    slots[row_start + c:row_start + d] = [owner] * (d - c)

    links: list[tuple[int, int, str, int]] = []

    def scan(line: list[int], sizes: list[int], direction: str) -> None:
        previous, gap = -1, 0
        for owner, size in zip(line, sizes):
            if owner < 0:
                gap += size
            elif owner == previous:
                gap = 0
            else:
                if previous >= 0:
                    links.append((previous, owner, direction, gap))
                previous, gap = owner, 0

    widths = list(map(sub, col_cuts[1:], col_cuts))
    heights = list(map(sub, row_cuts[1:], row_cuts))
    for start in range(0, n_rows * n_cols, n_cols):
        scan(slots[start:start + n_cols], widths, H)
    for j in range(n_cols):
        scan(slots[j::n_cols], heights, V)
    return links, not one_slot_each


@dataclass(frozen=True)
class TableRelations:
    """What the metric needs of one table: its page and its relations."""

    table_id: int
    page: int | None
    relations: tuple[tuple, ...]

    def __len__(self) -> int:
        return len(self.relations)

    @cached_property
    def counts(self) -> Counter:
        """Each distinct relation and how often it occurs (computed once per table)."""
        return Counter(self.relations)


def _first_links(links: list[tuple[int, int, str, int]], same: int) -> list[tuple[int, int, str, int]]:
    """The first of the links that agree in their first ``same`` fields (of from,
    to, direction, gap), in order."""
    first: dict[tuple, tuple[int, int, str, int]] = {}
    for link in links:
        first.setdefault(link[:same], link)
    return list(first.values())


class TableLinks(NamedTuple):
    """A table's relations with the cells they link (what :meth:`StructureMetric.explain`
    shows): ``placed[k]`` is the position, among the table's cells (regions in
    order), of link endpoint ``k``; ``words[k]`` its text as compared; ``links[i]``
    relation ``i``'s ``(from, to, direction, gap)`` by endpoint."""

    placed: list[int]
    words: list[str]
    links: list[tuple[int, int, str, int]]


def icdar2013_links(table: Table, normalise: Callable[[str], str]) -> TableLinks:
    rects, words, placed = [], [], []
    position = -1
    for region in table.regions:
        for cell in region.cells:
            position += 1
            word = normalise(cell.content or "")
            if not word:
                continue  # blank: not placed
            rects.append((cell.start_row + region.row_increment, cell.end_row + region.row_increment,
                          cell.start_col + region.col_increment, cell.end_col + region.col_increment))
            words.append(word)
            placed.append(position)
    links, may_repeat = _links(rects, [True] * len(rects))
    if may_repeat:  # parallel links between the same two spanning cells count once
        links = _first_links(links, same=3)  # from, to, direction
    return TableLinks(placed, words, links)


def icdar2013_relations(table: Table, normalise: Callable[[str], str],
                        links: TableLinks | None = None) -> TableRelations:
    words, links = (links or icdar2013_links(table, normalise))[1:]
    relations = [(words[a], words[b], direction, gap) for a, b, direction, gap in links]
    return TableRelations(table.id, table.page, tuple(relations))


def pubmed_links(table: Table) -> TableLinks:
    cells = [cell for region in table.regions for cell in region.cells]
    rects = [(cell.start_row, cell.end_row, cell.start_col, cell.end_col) for cell in cells]
    words = [texts.pubmed(cell.content or "") for cell in cells]
    links, may_repeat = _links(rects, [bool(w) for w in words])
    if may_repeat:  # the benchmark keys its relations on the two cells alone
        links = _first_links(links, same=2)  # from, to
    return TableLinks(list(range(len(cells))), words, links)


def pubmed_relations(table: Table, links: TableLinks | None = None) -> TableRelations:
    words, links = (links or pubmed_links(table))[1:]
    relations = [(words[a], words[b], direction) for a, b, direction, _gap in links]
    return TableRelations(table.id, table.page, tuple(relations))


def correct_relations(gt: TableRelations, result: TableRelations) -> int:
    """Multiset matching: each ground-truth relation consumes one equal result relation."""
    if not gt.relations or not result.relations:
        return 0
    gt_counts, result_counts = gt.counts, result.counts
    common = gt_counts.keys() & result_counts.keys()
    # (a C loop each: the relations of a table are 100s, a document's 1000s)
    return sum(map(min, map(gt_counts.__getitem__, common), map(result_counts.__getitem__, common)))


def matched_relations(gt: TableRelations, result: TableRelations) -> tuple[list[bool], list[bool]]:
    """Which relations :func:`correct_relations` counts as correct, one by one:
    of equal relations, the first ones of each side in order, as many as the
    other side has (so the ground truth's found ones add up to its count)."""
    left = Counter(result.counts)
    gt_found = []
    for relation in gt.relations:
        gt_found.append(left[relation] > 0)
        left[relation] -= 1
    left = Counter(gt.counts)
    result_found = []
    for relation in result.relations:
        result_found.append(left[relation] > 0)
        left[relation] -= 1
    return gt_found, result_found


# -- records -------------------------------------------------------------------------------

@dataclass
class TableRecord:
    """One ground-truth table (or unpaired result table) and its relation counts."""

    gt_table: int | None
    result_table: int | None
    page: int | None
    gt: int
    correct: int
    detected: int
    gt_index: int | None = None
    """The tables' positions in their documents (not in the report: its ids name them)."""
    result_index: int | None = None

    def as_dict(self, rates: Callable[[int, int, int], dict] = scores) -> dict:
        return {
            "gt_table": self.gt_table, "result_table": self.result_table, "page": self.page,
            "gt": self.gt, "correct": self.correct, "detected": self.detected,
            **rates(self.gt, self.correct, self.detected),
        }


@dataclass
class StructureResult:
    """One document scored against one ground truth."""

    tables: list[TableRecord] = field(default_factory=list)
    counted: list[TableRecord] = field(default_factory=list)
    """The records the document's counts add up (all of them, or in compat mode
    only the matched pairs)."""

    @property
    def counts(self) -> dict:
        return {
            "gt": sum(t.gt for t in self.counted),
            "correct": sum(t.correct for t in self.counted),
            "detected": sum(t.detected for t in self.counted),
        }


def score_icdar2013(
    gt: Document, result: Document, normalise: str = "default", ignore_page: bool = False, compat: bool = False
) -> StructureResult:
    rule = texts.NORMALISATIONS[normalise]
    return pair_icdar2013([icdar2013_relations(t, rule) for t in gt.tables],
                          [icdar2013_relations(t, rule) for t in result.tables], ignore_page, compat)


def pair_icdar2013(gt_tables: list[TableRelations], res_tables: list[TableRelations], ignore_page: bool = False,
                   compat: bool = False) -> StructureResult:
    """Each ground-truth table, in order, takes the remaining result table with the most correct relations."""
    remaining = list(range(len(res_tables)))
    out = StructureResult()
    for i, g in enumerate(gt_tables):
        best, best_correct = None, -1
        for j in remaining:
            candidate = res_tables[j]
            if not ignore_page and candidate.page != g.page:
                continue
            correct = correct_relations(g, candidate)
            if correct > best_correct:  # the first on ties, even at 0 correct
                best, best_correct = j, correct
        if best is None:
            record = TableRecord(g.table_id, None, g.page, len(g), 0, 0, i)
            out.tables.append(record)
            if not compat:
                out.counted.append(record)
            continue
        remaining.remove(best)
        chosen = res_tables[best]
        record = TableRecord(g.table_id, chosen.table_id, g.page, len(g), best_correct, len(chosen), i, best)
        out.tables.append(record)
        out.counted.append(record)
    for j in remaining:
        unmatched = res_tables[j]
        record = TableRecord(None, unmatched.table_id, unmatched.page, 0, 0, len(unmatched), None, j)
        out.tables.append(record)
        out.counted.append(record)
    return out


def score_pubmed(gt: Document, result: Document, active: set[int] | None = None,
                 ignore_fp: bool = False) -> StructureResult:
    """``active``: the ground-truth tables that count, by their 1-based position in
    the document (None: all), as the benchmark's table classes select them for a
    subset; a result table paired with another ground-truth table counts nowhere.
    ``ignore_fp``: result tables paired with no ground-truth table count nowhere."""
    return pair_pubmed([pubmed_relations(t) for t in gt.tables], [pubmed_relations(t) for t in result.tables],
                       active, ignore_fp)


def pair_pubmed(gt_tables: list[TableRelations], res_tables: list[TableRelations], active: set[int] | None = None,
                ignore_fp: bool = False) -> StructureResult:
    """Tables paired by a maximum-weight matching on F1 (:func:`score_pubmed`)."""
    correct = [[correct_relations(g, r) for r in res_tables] for g in gt_tables]  # each pair's, once
    pairs = _max_weight_pairs(gt_tables, res_tables, correct)
    out = StructureResult()
    taken = set()
    for i, g in enumerate(gt_tables):
        j = pairs.get(i)
        if j is None:
            record = TableRecord(g.table_id, None, g.page, len(g), 0, 0, i)
        else:
            taken.add(j)
            r = res_tables[j]
            record = TableRecord(g.table_id, r.table_id, g.page, len(g), correct[i][j], len(r), i, j)
        out.tables.append(record)
        if active is None or i + 1 in active:
            out.counted.append(record)
    for j, r in enumerate(res_tables):
        if j not in taken:
            record = TableRecord(None, r.table_id, r.page, 0, 0, len(r), None, j)
            out.tables.append(record)
            if not ignore_fp:
                out.counted.append(record)
    return out


class ClassedTable(NamedTuple):
    document: str
    position: int
    """The table's 1-based position among the document's tables."""
    table_class: int


def parse_table_classes(text: str) -> list[ClassedTable]:
    """The biomedical benchmark's table classes (its ``mavo_table_classes.csv``:
    lines ``class file table``, e.g. ``0 PMC4058045.nxml 1``; class 0 simple, 1
    complicated, 2 complex), the document being the file name without its last
    suffix. Raises ValueError naming the line that is not of that shape."""
    listed = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if len(fields) != 3:
                raise ValueError
            listed.append(ClassedTable(os.path.splitext(fields[1])[0], int(fields[2]), int(fields[0])))
        except ValueError:
            raise ValueError(f"line {number}: expected 'class file table' (three fields, two of them "
                             f"numbers), not {line.strip()[:80]!r}") from None
    return listed


def tables_of_classes(listed: list[ClassedTable], classes: Sequence[int] | None = None) -> dict[str, set[int]]:
    """Document -> the positions of its tables in ``classes`` (any class where
    None); a table not listed is in no class."""
    selected: dict[str, set[int]] = {}
    for table in listed:
        if classes is None or table.table_class in classes:
            selected.setdefault(table.document, set()).add(table.position)
    return selected


def pubmed_scores(gt: int, correct: int, detected: int) -> dict:
    """Precision, recall and F1 as the biomedical benchmark computes them:
    precision or recall 0 where nothing was detected or was to find (not
    :func:`scores`' 1), so that a document or subset with nothing on either side
    scores 0, as the benchmark prints it."""
    precision = correct / detected if detected else 0.0
    recall = correct / gt if gt else 0.0
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall)}


def pubmed_preference(gt: int, correct: int, detected: int) -> tuple[float, int]:
    """How the biomedical benchmark ranks the variants of one document's result:
    by its F1 (:func:`pubmed_scores`), then by TP - FP - FN."""
    fp, fn = detected - correct, gt - correct
    return pubmed_scores(gt, correct, detected)["f1"], correct - fp - fn


def _max_weight_pairs(gt_tables: list[TableRelations], res_tables: list[TableRelations],
                      correct: list[list[int]]) -> dict[int, int]:
    """Ground-truth index -> result index, maximising the sum of pair F1 (pairs with
    F1 > 0); ``correct[i][j]``: the correct relations of each pair."""
    if not gt_tables or not res_tables:
        return {}
    weights = [[scores(len(g), correct[i][j], len(r))["f1"] for j, r in enumerate(res_tables)]
               for i, g in enumerate(gt_tables)]
    if not any(w > 0 for row in weights for w in row):
        return {}
    if len(gt_tables) == 1 or len(res_tables) == 1:  # the common case needs no solver
        i, j = max(((i, j) for i in range(len(gt_tables)) for j in range(len(res_tables))),
                   key=lambda ij: weights[ij[0]][ij[1]])
        return {i: j}
    return {i: j for i, j in max_weight_assignment(weights) if weights[i][j] > 0}


# -- the metric, as the runner calls it ----------------------------------------------------------

def _complexity(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({int(c) for c in text.split(",")}))
    except ValueError:
        raise ValueError(f"a comma-separated list of class numbers (e.g. 0,1), not {text!r}") from None


_PUBMED = ("pubmed",)


class StructureMetric(Metric):
    """ICDAR 2013 adjacency relations, and the biomedical benchmark's variant of them."""

    name = "structure"
    gt_model = "structure"
    variants = ("icdar2013", "pubmed")
    settings = (
        Option("normalise", "--normalise", str, "structure: text normalisation of the official tool.", "default",
               "score", choices=("default", "ignorechars", "ignorechars2")),
        IGNORE_PAGE,
        COMPAT,
        Option("single_variant", "--single-variant", bool, "pubmed: score each document's own result only, not "
               "its variants (PMC1_1.xml...).", False, "score", variants=_PUBMED),
        Option("table_classes", "--table-classes", Path, "pubmed: the benchmark's table classes file "
               "(mavo_table_classes.csv); only the tables it lists count.", direction="score", variants=_PUBMED),
        Option("complexity", "--complexity", str, "pubmed: the classes of --table-classes that count, e.g. 0 or "
               "0,1 (0 simple, 1 complicated, 2 complex) [default: all].", direction="score", parse=_complexity,
               variants=_PUBMED),
        Option("ignore_fp", "--ignore-fp", bool, "pubmed: result tables paired with no ground-truth table do not "
               "count.", False, "score", variants=_PUBMED),
    )

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        """ICDAR 2013's a/b ground truths of one PDF (the biomedical benchmark pairs names as they are)."""
        return settings.variant != "pubmed"

    def has_result_variants(self, settings: ScoreSettings) -> bool:
        """The biomedical benchmark's result variants, unless ``single_variant``."""
        return settings.variant == "pubmed" and not settings.single_variant

    def preference(self, record: dict, settings: ScoreSettings) -> tuple:
        if settings.variant == "pubmed":
            return pubmed_preference(record["gt"], record["correct"], record["detected"])
        return (record["f1"],)

    def check(self, settings: ScoreSettings) -> None:
        if settings.complexity is not None and settings.table_classes is None:
            raise UsageError("--complexity selects classes of --table-classes: pass the classes file too")
        if settings.table_classes is not None:
            _table_classes(settings.table_classes, settings.complexity)

    def describe(self, settings: ScoreSettings) -> dict:
        if settings.variant == "pubmed":
            subset = ""
            if settings.table_classes is not None:
                classes = ("of class " + ", ".join(map(str, settings.complexity)) if settings.complexity is not None
                           else "of any class")
                subset += (f"; only the ground-truth tables listed {classes} in {settings.table_classes} count "
                           "(a result table paired with a ground-truth table outside them counts nowhere)")
            if settings.ignore_fp:
                subset += "; result tables paired with no ground-truth table do not count (ignore_fp)"
            return {
                "variant": "pubmed",
                "normalisation": "pubmed: accents folded, ASCII only, spaces and line breaks deleted, case kept",
                "aggregation": "micro: TP, FN and FP summed over all documents (the biomedical benchmark's)"
                               + ("" if settings.single_variant else
                                  "; of a result's variants (PMC1_1...) the best by F1, then TP - FP - FN")
                               + subset,
            }
        return {
            "variant": "icdar2013",
            "normalisation": {
                "default": "default: ASCII whitespace deleted, upper-cased",
                "ignorechars": "ignorechars: ASCII whitespace deleted, other non-word characters as '_', upper-cased",
                "ignorechars2": "ignorechars2: ASCII whitespace and non-word characters deleted, upper-cased",
            }[settings.normalise],
            "aggregation": (
                "document_mean: precision and recall per document (over its tables), averaged over documents, "
                "F1 of the two means (the competition's headline); total: micro sums over all documents"
                + "; a result table without a ground-truth table counts as false positives"
                + ("; compat: ground-truth tables without a result table and documents without a result are "
                   "left out, as the official tool's wrapper did" if settings.compat else
                   "; a ground-truth table without a result table counts as missed")
            ),
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        if result is None:
            if settings.compat:
                return None
            result = Document()
        if settings.variant == "pubmed":
            gt_tables = [pubmed_relations(t) for t in gt.tables]
            res_tables = [pubmed_relations(t) for t in result.tables]
        else:
            rule = texts.NORMALISATIONS[settings.normalise]
            gt_tables = [icdar2013_relations(t, rule) for t in gt.tables]
            res_tables = [icdar2013_relations(t, rule) for t in result.tables]
        outcome = self._paired(gt_tables, res_tables, settings, gt_file)
        counts = outcome.counts
        counted = {id(t) for t in outcome.counted}
        rates = self._rates(settings)
        return {"tables": [{**t.as_dict(rates), "counted": id(t) in counted} for t in outcome.tables],
                **counts, **rates(**counts)}

    def reading_findings(self, findings: list[Diagnostic], settings: ScoreSettings) -> list[Diagnostic]:
        """Boxes are not read by this metric, nor by the official tool in this mode: what
        was wrong with them (us-018's ``x1='26ß'``) leaves the figures as they are. The
        ICDAR 2013 variant pairs tables by page: a region without one, on which the
        official tool fails, is an error; the biomedical benchmark pairs no pages."""
        findings = [d for d in findings if d.code != "box-inverted" and not d.message.startswith(_BOX_FINDING)]
        if settings.variant == "pubmed":
            return [d for d in findings if d.severity is not Severity.INFO and d.code != "page-below-one"]
        return page_needed(findings)

    def _paired(self, gt_tables: list[TableRelations], res_tables: list[TableRelations], settings: ScoreSettings,
                gt_file: Path | None) -> StructureResult:
        if settings.variant == "pubmed":
            active = None
            if settings.table_classes is not None:
                classes = _table_classes(settings.table_classes, settings.complexity)
                active = classes.get(document_key(gt_file), set()) if gt_file else set()
            return pair_pubmed(gt_tables, res_tables, active, settings.ignore_fp)
        return pair_icdar2013(gt_tables, res_tables, settings.ignore_page, settings.compat)

    def explain(self, gt: Document, result: Document | None, settings: ScoreSettings, record: dict | None = None,
                gt_file: Path | None = None) -> dict:
        """Each pair of tables as grids, each relation found or missed (the
        ground truth's) and right or false (the result's), as :meth:`score`
        counted them (:func:`matched_relations`)."""
        from .explain import table_grid, with_relations

        result = result or Document()
        pubmed = settings.variant == "pubmed"
        rule = texts.NORMALISATIONS[settings.normalise]

        def tables(doc: Document) -> tuple[list[TableLinks], list[TableRelations]]:
            if pubmed:
                links = [pubmed_links(t) for t in doc.tables]
                return links, [pubmed_relations(t, k) for t, k in zip(doc.tables, links)]
            links = [icdar2013_links(t, rule) for t in doc.tables]
            return links, [icdar2013_relations(t, rule, k) for t, k in zip(doc.tables, links)]

        def grid(table: Table, links: TableLinks, found: list[bool]) -> dict:
            placed = links.placed
            relations = [(placed[a], placed[b], direction, None if pubmed else gap)
                         for a, b, direction, gap in links.links]
            return with_relations(table_grid(table, shifted=not pubmed), relations, [int(f) for f in found])

        gt_links, gt_relations = tables(gt)
        res_links, res_relations = tables(result)
        outcome = self._paired(gt_relations, res_relations, settings, gt_file)
        counted = {id(t) for t in outcome.counted}
        rates = self._rates(settings)
        pairs = []
        for t in outcome.tables:
            g, r = t.gt_index, t.result_index
            if g is not None and r is not None:
                gt_found, res_found = matched_relations(gt_relations[g], res_relations[r])
            else:
                gt_found = [False] * len(gt_relations[g]) if g is not None else []
                res_found = [False] * len(res_relations[r]) if r is not None else []
            pairs.append({
                "gt": grid(gt.tables[g], gt_links[g], gt_found) if g is not None else None,
                "result": grid(result.tables[r], res_links[r], res_found) if r is not None else None,
                "scores": t.as_dict(rates), "counted": id(t) in counted,
            })
        return {"kind": "relations", "levels": ["relations"], "pairs": pairs, "notes": []}

    @staticmethod
    def _rates(settings: ScoreSettings) -> Callable[..., dict]:
        """Precision, recall and F1 from counts, by the conventions of the tool reproduced."""
        return pubmed_scores if settings.variant == "pubmed" else scores

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        totals = {k: sum(r[k] for r in records) for k in ("gt", "correct", "detected")}
        return {"total": {**totals, **self._rates(settings)(**totals), "documents": len(records)},
                "document_mean": document_mean(records)}

    def check_pairing(self, pairing: Pairing, settings: ScoreSettings) -> None:
        if settings.table_classes is not None:
            selected = _table_classes(settings.table_classes, settings.complexity)
            if not any(document_key(g) in selected for p in pairing.pairs for g in p.gt_files):
                raise UsageError(f"--table-classes: {settings.table_classes} lists no table of these ground-truth "
                                 "documents in the classes asked for (its lines name files as PMC4058045.nxml)")

    def summary(self, report: Mapping) -> Summary:
        return structure_summary(report)

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        return count_csv_rows(report)


# The benchmark's classes file is 33 KB; a file far larger is not one.
MAX_TABLE_CLASSES_BYTES = 16 << 20


def _table_classes(path: str, complexity: tuple[int, ...] | None) -> dict[str, set[int]]:
    """The tables of ``complexity`` in a table classes file, read again only when
    it changed (each worker reads it too)."""
    try:
        stat = os.stat(path)
        version = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    except OSError:
        version = None  # read_bytes_of says what is wrong
    return _table_classes_of(path, complexity, version)


@lru_cache(maxsize=4)
def _table_classes_of(path: str, complexity: tuple[int, ...] | None, version: tuple | None) -> dict[str, set[int]]:
    try:
        text = files.read_bytes_of(Path(path), MAX_TABLE_CLASSES_BYTES).decode("utf-8-sig")
    except InputError as exc:
        raise UsageError(f"--table-classes: {exc.diagnostic.format()}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"--table-classes: {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        listed = parse_table_classes(text)
    except ValueError as exc:
        raise UsageError(f"--table-classes: {path}: {exc}") from None
    if not listed:
        raise UsageError(f"--table-classes: {path}: lists no table")
    known = sorted({t.table_class for t in listed})
    unknown = sorted(set(complexity or ()) - set(known))
    if unknown:
        raise UsageError(f"--complexity {','.join(map(str, unknown))}: {path} lists tables of class "
                         f"{', '.join(map(str, known))} only")
    return tables_of_classes(listed, complexity)


METRICS = (StructureMetric(),)
