"""GriTS of small tables in plain Python, and the parts of GriTS that need no arrays.

:mod:`convertables.scoring.grits_alignment` computes GriTS with numpy; on tables
of a few dozen grid positions numpy's fixed cost per call (and its import) is
most of the time. Here the same computation is written out for such tables:
the same double-precision additions and maxima in the same order, the same ties
in the tracebacks, so every figure is equal to the last bit. Its inner 1D
alignments are computed once per distinct pair of rows (columns): a table
without spanning cells has one relative span, so all its rows are alike for
GriTS_Top. Tables with cell boxes (GriTS_Loc), and pairs of tables with more
pairs of positions than :data:`SMALL_PAIRS`, go to ``grits_alignment``.
"""

from __future__ import annotations

import struct
from operator import attrgetter

from .text import cell_text

SMALL_POSITIONS = 2_000
"""A table of at most this many grid positions (and no cell boxes) is prepared here."""
SMALL_PAIRS = 100
"""Two small tables of at most this many pairs of positions are aligned here."""
_FLOAT32 = struct.Struct("f")
_EXTENT = attrgetter("start_row", "start_col", "end_row", "end_col")


def float32(value: float) -> float:
    """``value`` rounded to single precision (as ``float(np.float32(value))``)."""
    return _FLOAT32.unpack(_FLOAT32.pack(value))[0]


def float32_sum(values: list[float]) -> float:
    """``float(np.array(values, dtype=np.float32).sum())``: numpy adds fewer than 8 values one
    by one in single precision (a double sum of two singles rounded once is their single sum);
    8 or more go to numpy, which adds them in eight running sums and pairwise."""
    if len(values) >= 8:
        import numpy as np

        return float(np.array(values, dtype=np.float32).sum())
    total = 0.0
    for value in values:
        total = float32(total + float32(value))
    return total


def fscore(matched: float, n_true: int, n_pred: int) -> tuple[float, float, float]:
    """(GriTS, precision, recall) as the reference's ``compute_fscore``."""
    precision = matched / n_pred if n_pred > 0 else 1.0
    recall = matched / n_true if n_true > 0 else 1.0
    f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return float(f), float(precision), float(recall)


def unpaired(table) -> dict[str, float | None]:
    """The scores of a table (prepared, either form) no table of the other side was paired
    with: 0, and GriTS_Loc only where the table has boxes (None otherwise)."""
    return {f"grits_{measure}{kind}": (None if kind == "loc" and table.frame is None else 0.0)
            for kind in ("top", "con", "loc") for measure in ("", "precision_", "recall_")}


class SmallTable:
    """A small table without cell boxes, prepared for GriTS: for GriTS_Top and GriTS_Con
    the distinct values (relative spans, texts) and each grid position's index among them,
    row by row (``grits_alignment.prepared_from_small``: the table as that module prepares it,
    made when a pair is too large for this one, kept in ``_full``)."""

    __slots__ = ("positions", "shape", "spans", "span_rows", "texts", "text_rows", "_full")
    frame = None  # (no cell has a box)


def prepare_small(table, from_zero: bool = False) -> SmallTable | None:
    """The table prepared here, or None where it is not small or has cell boxes; the grid as
    ``grits_alignment.table_grid`` makes it (the later of overlapping cells holds a position,
    a position no cell covers is a hole: an empty 1x1 cell)."""
    extents = []
    cells = []
    for region in table.regions:
        dr, dc = region.row_increment, region.col_increment
        for cell in region.cells:
            if cell.bbox is not None:
                return None
            r0, c0, r1, c1 = _EXTENT(cell)
            extents.append((r0 + dr, c0 + dc, max(r1, r0) + 1 + dr, max(c1, c0) + 1 + dc))
            cells.append(cell)
    out = SmallTable()
    out._full = None
    if not cells:
        out.positions, out.shape = 0, (0, 0)
        out.spans, out.span_rows, out.texts, out.text_rows = [], [], [], []
        return out
    first_row = min(e[0] for e in extents)
    first_col = min(e[1] for e in extents)
    if from_zero and first_row >= 0 and first_col >= 0:
        first_row = first_col = 0
    n_rows = max(e[2] for e in extents) - first_row
    n_cols = max(e[3] for e in extents) - first_col
    if n_rows * n_cols > SMALL_POSITIONS:
        return None
    cell_of = [[-1] * n_cols for _ in range(n_rows)]
    spanning = []
    for k, (r0, c0, r1, c1) in enumerate(extents):
        r0 -= first_row
        c0 -= first_col
        if r1 - r0 - first_row == 1 and c1 - c0 - first_col == 1:
            cell_of[r0][c0] = k  # (the later cell holds the position)
        else:
            spanning.append(k)
            for r in range(r0, r1 - first_row):
                row = cell_of[r]
                for c in range(c0, c1 - first_col):
                    row[c] = k
    texts: dict[str, int] = {}
    text_of = [texts.setdefault(cell_text(cell), len(texts)) for cell in cells]
    if any(-1 in row for row in cell_of):
        text_of.append(texts.setdefault("", len(texts)))  # (a hole's, read as index -1)
    text_rows = [[text_of[k] for k in row] for row in cell_of]
    # a 1x1 cell's relative span and a hole's are one: [0, 0, 1, 1]
    spans: dict[tuple, int] = {(0, 0, 1, 1): 0}
    span_rows = [[0] * n_cols for _ in range(n_rows)]
    for k in spanning:
        r0, c0, r1, c1 = extents[k]
        r0 -= first_row
        r1 -= first_row
        c0 -= first_col
        c1 -= first_col
        for r in range(r0, r1):
            owners, span_row = cell_of[r], span_rows[r]
            for c in range(c0, c1):
                if owners[c] == k:
                    span_row[c] = spans.setdefault((c0 - c, r0 - r, c1 - c, r1 - r), len(spans))
    out.positions, out.shape = n_rows * n_cols, (n_rows, n_cols)
    out.spans, out.span_rows, out.texts, out.text_rows = list(spans), span_rows, list(texts), text_rows
    return out


# -- similarities of distinct values --------------------------------------------------------

def span_similarity(a: list[tuple], b: list[tuple], union_iou: bool) -> list[list[float]]:
    """``grits_alignment.true_iou`` (``union_iou``) or ``enclosing_iou`` of relative spans,
    which are never empty boxes of small integers (exact in single precision)."""
    out = []
    for ax0, ay0, ax1, ay1 in a:
        line = []
        area_a = float((ax1 - ax0) * (ay1 - ay0))
        for bx0, by0, bx1, by1 in b:
            width = float(min(ax1, bx1) - max(ax0, bx0))
            height = float(min(ay1, by1) - max(ay0, by0))
            inter = (width if width > 0.0 else 0.0) * (height if height > 0.0 else 0.0)
            if union_iou:
                union = area_a + float((bx1 - bx0) * (by1 - by0))
                union -= inter
            else:
                union = float(max(ax1, bx1) - min(ax0, bx0)) * float(max(ay1, by1) - min(ay0, by0))
            line.append(inter / union if union > 0 else 0.0)
        out.append(line)
    return out


def _text_similarity(a: list[str], b: list[str], exact: bool) -> list[list[float]]:
    """``grits_alignment.lcs_similarity``: ``2 * m / (len(a) + len(b))``, 1 for two empty texts."""
    if exact:
        from rapidfuzz.distance import LCSseq

        matched = LCSseq.similarity
    else:
        from difflib import SequenceMatcher

        def matched(x: str, y: str) -> int:
            return sum(block.size for block in SequenceMatcher(None, x, y).get_matching_blocks())
    b_characters = [set(y) for y in b]
    out = []
    for x in a:
        line = []
        x_characters = set(x)
        for y, y_characters in zip(b, b_characters):
            total = len(x) + len(y)
            if total == 0:
                line.append(1.0)
            elif x_characters.isdisjoint(y_characters):  # (nothing in common: 0, without a call)
                line.append(0.0)
            else:
                line.append(float(2 * matched(x, y)) / float(total))
        out.append(line)
    return out


# -- the factored alignment -----------------------------------------------------------------

def _inner_scores(sim: list[list[float]], true_lines: list[list[int]],
                  pred_lines: list[list[int]]) -> list[list[float]]:
    """The 1D alignment score of every true line (row or column, as indexes of distinct
    values) with every predicted one, each distinct pair of lines aligned once."""
    done: dict[tuple, float] = {}
    pred_keys = [tuple(line) for line in pred_lines]
    # the rewards of a true value against a predicted line, None where all are 0 (such a
    # step of the DP leaves its row as it is: the row is already a running maximum)
    rewards: list[dict[int, tuple | None]] = [{} for _ in pred_keys]
    out = []
    for true_line in true_lines:
        true_key = tuple(true_line)
        scores = []
        for j, pred_key in enumerate(pred_keys):
            key = (true_key, pred_key)
            value = done.get(key)
            if value is None:
                of_value = rewards[j]
                steps = []
                for v in true_key:
                    if v not in of_value:
                        sim_row = sim[v]
                        line = tuple(sim_row[w] for w in pred_key)
                        of_value[v] = line if any(line) else None
                    if of_value[v] is not None:
                        steps.append(of_value[v])
                value = done[key] = _align_line(steps, len(pred_key))
            scores.append(value)
        out.append(scores)
    return out


def _align_line(steps: list[tuple], m: int) -> float:
    """The DP of ``grits_alignment._inner_scores`` for one pair of lines (``steps``: each true
    position's rewards against the predicted ones): a DP row is the running maximum of
    ``max(diagonal + reward, above)``."""
    previous = [0.0] * (m + 1)
    for step_rewards in steps:
        row = [0.0]
        best = diagonal = 0.0
        for reward, above in zip(step_rewards, previous[1:]):
            step = diagonal + reward
            if above > step:
                step = above
            if step > best:
                best = step
            row.append(best)
            diagonal = above
        previous = row
    return previous[-1]


def align_outer(inner: list[list[float]]) -> tuple[list[int], list[int]]:
    """``grits_alignment._align_outer`` of one kind: the aligned true and predicted indices,
    traced back diagonal first, then up, then left."""
    n, m = len(inner), len(inner[0])
    scores = [[0.0] * (m + 1)]
    for i in range(n):
        above = scores[i]
        row = [0.0]
        best = 0.0
        for j, value in enumerate(inner[i]):
            step = above[j] + value
            if above[j + 1] > step:
                step = above[j + 1]
            if step > best:
                best = step
            row.append(best)
        scores.append(row)
    i, j = n, m
    true_idx: list[int] = []
    pred_idx: list[int] = []
    while i > 0 and j > 0:
        here = scores[i][j]
        if scores[i - 1][j - 1] + inner[i - 1][j - 1] == here:
            i -= 1
            j -= 1
            true_idx.append(i)
            pred_idx.append(j)
        elif scores[i - 1][j] == here:
            i -= 1
        else:
            j -= 1
    true_idx.reverse()
    pred_idx.reverse()
    return true_idx, pred_idx


def all_matching(sim_shape: tuple[int, int], true_shape: tuple[int, int], pred_shape: tuple[int, int],
                 first: float) -> float | None:
    """The matched similarity where each grid holds one value and the two match fully (GriTS_Top
    of two tables without spanning cells; ``first``: the similarity of the first values): every
    reward is 1, so the DPs align as many rows and columns as the smaller grid has, each pair of
    positions adding 1 (sums of whole numbers: exact). None otherwise."""
    if sim_shape == (1, 1) and first == 1.0:
        return float(min(true_shape[0], pred_shape[0]) * min(true_shape[1], pred_shape[1]))
    return None


def _matched(sim: list[list[float]], true_rows: list[list[int]], pred_rows: list[list[int]]) -> float:
    """The summed similarity of the positions at aligned rows and aligned columns, summed
    row by row as ``grits_alignment.matched_similarities`` sums them."""
    known = all_matching((len(sim), len(sim[0])), (len(true_rows), len(true_rows[0])),
                         (len(pred_rows), len(pred_rows[0])), sim[0][0])
    if known is not None:
        return known
    true_cols = [list(col) for col in zip(*true_rows)]
    pred_cols = [list(col) for col in zip(*pred_rows)]
    aligned_true_rows, aligned_pred_rows = align_outer(_inner_scores(sim, true_rows, pred_rows))
    aligned_true_cols, aligned_pred_cols = align_outer(_inner_scores(sim, true_cols, pred_cols))
    if not aligned_true_rows or not aligned_true_cols:
        return 0.0
    total = None
    for i, j in zip(aligned_true_rows, aligned_pred_rows):
        true_row, pred_row = true_rows[i], pred_rows[j]
        for a, b in zip(aligned_true_cols, aligned_pred_cols):
            value = sim[true_row[a]][pred_row[b]]
            total = value if total is None else total + value
    return total


def small_pair(true, pred) -> bool:
    """Whether two prepared tables are aligned here."""
    return (type(true) is SmallTable and type(pred) is SmallTable
            and true.positions * pred.positions <= SMALL_PAIRS)


def grits_of_small(true: SmallTable, pred: SmallTable, union_iou: bool = False, counts: bool = False,
                   exact_lcs: bool = False) -> dict[str, float]:
    """``grits_alignment.grits_of_prepared`` of two small tables without boxes."""
    out: dict[str, float] = {}
    n_true, n_pred = true.positions, pred.positions
    if counts:
        out["true_positions"], out["pred_positions"] = n_true, n_pred
    empty = 0 in (n_true, n_pred)
    for kind in ("top", "con"):
        if empty:
            matched = 0.0
        elif kind == "top":
            matched = _matched(span_similarity(true.spans, pred.spans, union_iou), true.span_rows, pred.span_rows)
        else:
            matched = _matched(_text_similarity(true.texts, pred.texts, exact_lcs), true.text_rows, pred.text_rows)
        f, p, r = fscore(matched, n_true, n_pred)
        out[f"grits_{kind}"], out[f"grits_precision_{kind}"], out[f"grits_recall_{kind}"] = f, p, r
        if counts:
            out[f"grits_matched_{kind}"] = matched
    return out
