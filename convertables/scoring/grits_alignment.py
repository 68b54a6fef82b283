"""GriTS's computation (:mod:`convertables.scoring.grits` is the metric; docs/scoring.md, `--metric grits`).

As the reference implementation (``microsoft/table-transformer``, ``src/grits.py``)
defines it:

* a table is a grid of row x column positions; a cell spanning several
  positions is repeated at each of them;
* the similarity of two positions is, for GriTS_Top, the "IoU" of the cells'
  spans relative to the position (``[first col - col, first row - row,
  last col + 1 - col, last row + 1 - row]``), for GriTS_Con the "LCS"
  similarity of the cells' texts (``2 * matched / (len(a) + len(b))``, the
  matched characters being those of ``difflib.SequenceMatcher``'s matching
  blocks, a greedy longest-block-first match that can fall short of the longest
  common subsequence), and for GriTS_Loc the "IoU" of the cells' boxes;
* the reference's "IoU" divides the intersection by the area of the rectangle
  enclosing both boxes, not by their union, and computes both rectangles in
  single precision (PyMuPDF's ``Rect``); ``union_iou`` (``--true-iou``) divides
  by the union, for GriTS_Top and GriTS_Loc;
* the factored 2D most-similar-substructure alignment: true rows are aligned to
  predicted rows by dynamic programming, each pair of rows scoring the best
  1D alignment of their positions; columns likewise; the positions at aligned
  rows and aligned columns are summed. Ties in the tracebacks prefer the
  diagonal, then skipping a true row (column), then a predicted one;
* precision = score / predicted positions, recall = score / true positions,
  GriTS = their harmonic mean; precision is 1 without predicted positions,
  recall 1 without true ones, GriTS 0 when both are 0.

Every maximum and every tie is taken as the reference takes it, on the same
double-precision values, so the aligned positions and the sums are the same.
The work is arranged differently: similarities are computed once per pair of
distinct cells (or texts, or relative spans) rather than per pair of positions,
the inner 1D alignments of all row pairs run at once as array operations, one
DP row at a time, and the matched characters of difflib's greedy match are
found for all text pairs at once with bit-parallel run detection (the longest
common subsequence, from rapidfuzz, settles most pairs and bounds the rest).

Where the reference cannot score a table (its HTML reading aside): a grid
position no cell covers (a hole; the reference fails on it) counts as an empty
1x1 cell with no box; the grid starts at the table's first row and column (``from_zero``: at 0).
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple, Sequence

import numpy as np

from ..model import Table
from .text import cell_text
from .metric import TableTooLarge
from .grits_small import fscore, unpaired  # noqa: F401 (also this module's)
from .grits_small import SmallTable, align_outer, all_matching, span_similarity

# The alignment weighs every pair of positions (true rows x true columns x
# predicted rows x predicted columns): beyond this many it is refused.
MAX_POSITION_PAIRS = 25_000_000
# A table's grid is refused beyond this many positions (one cell may claim
# 65,534 rows and 1,000 columns); such a grid could pair with almost nothing.
MAX_POSITIONS = 1_000_000
STEP_BUDGET = 1 << 22  # values in one step's arrays of the alignment's DP
TOGETHER_PAIRS = 10_000  # pairs of positions of a pair whose inner alignments run with others'
OUTER_IN_PYTHON = 400
SPANS_IN_PYTHON = 100  # pairs of distinct relative spans whose similarity is computed in plain Python  # an outer DP of at most this many entries runs in plain Python (the same figures)


class GridTooLarge(TableTooLarge):
    """A table's grid too large to make, or two tables' grids with too many pairs of positions to align."""


# -- grids ----------------------------------------------------------------------------------

class TableGrid(NamedTuple):
    """A table's positions: ``cell_of[r, c]`` is the index in ``cells`` of the
    cell covering row ``r``, column ``c`` (counted from the table's first row
    and column), -1 where none does. Where cells overlap, the later one (in
    region, then cell order) holds the position, as in the reference."""

    cell_of: np.ndarray
    cells: list[Cell]
    extents: np.ndarray
    """(n, 4): each cell's first row, first column, row after its last, column after its last."""

    @property
    def shape(self) -> tuple[int, int]:
        return self.cell_of.shape


_EXTENT_FIELDS = tuple(map(attrgetter, ("start_row", "start_col", "end_row", "end_col")))


def table_grid(table: Table, from_zero: bool = False) -> TableGrid:
    """The grid, from the table's first row and column (``from_zero``: from row and column 0, rows
    before the first cell's kept as rows of holes, as readers that number rows from the first
    ``<tr>`` count them)."""
    cells = [cell for region in table.regions for cell in region.cells]
    if not cells:
        return TableGrid(np.zeros((0, 0), dtype=np.intp), cells, np.zeros((0, 4), dtype=np.int64))
    ext = np.empty((len(cells), 4), dtype=np.int64)
    for k, field in enumerate(_EXTENT_FIELDS):
        ext[:, k] = np.fromiter(map(field, cells), dtype=np.int64, count=len(cells))
    ext[:, 2] = np.maximum(ext[:, 2], ext[:, 0]) + 1
    ext[:, 3] = np.maximum(ext[:, 3], ext[:, 1]) + 1
    if any(region.row_increment or region.col_increment for region in table.regions):
        shift = np.array([(region.row_increment, region.col_increment) for region in table.regions
                          for _ in region.cells], dtype=np.int64)
        ext[:, (0, 2)] += shift[:, :1]
        ext[:, (1, 3)] += shift[:, 1:]
    if not from_zero or ext[:, :2].min() < 0:
        ext[:, (0, 2)] -= ext[:, 0].min()
        ext[:, (1, 3)] -= ext[:, 1].min()
    n_rows, n_cols = int(ext[:, 2].max()), int(ext[:, 3].max())
    if n_rows * n_cols > MAX_POSITIONS:
        # (below the limit of every walk of a grid, grid.MAX_GRID_SLOTS: GriTS weighs pairs of positions)
        raise GridTooLarge(f"GriTS of table {table.id}, of {n_rows} x {n_cols} grid positions (at most "
                           f"{MAX_POSITIONS:,} positions)")
    cell_of = np.full((n_rows, n_cols), -1, dtype=np.intp)
    # where cells meet, the later one (the greater index) holds the position
    single = (ext[:, 2] - ext[:, 0] == 1) & (ext[:, 3] - ext[:, 1] == 1)
    np.maximum.at(cell_of, (ext[single, 0], ext[single, 1]), np.flatnonzero(single))
    for k in np.flatnonzero(~single).tolist():
        r0, c0, r1, c1 = ext[k].tolist()
        np.maximum(cell_of[r0:r1, c0:c1], k, out=cell_of[r0:r1, c0:c1])
    return TableGrid(cell_of, cells, ext)


def relative_spans(grid: TableGrid) -> tuple[np.ndarray, np.ndarray]:
    """The distinct relative spans of a grid's positions, (n, 4) as
    ``[x0, y0, x1, y1]``, and each position's index among them. A hole's is
    ``[0, 0, 1, 1]``, a 1x1 cell's."""
    n_rows, n_cols = grid.shape
    if grid.cell_of.size == 0:
        return np.zeros((0, 4), dtype=np.int64), grid.cell_of.copy()
    at = grid.extents[np.maximum(grid.cell_of, 0)]  # (rows, cols, 4): r0, c0, r1, c1
    r = np.arange(n_rows)[:, None]
    c = np.arange(n_cols)[None, :]
    # a span as one number: c - c0 and c1 - c in 0..n_cols, r - r0 and r1 - r in 0..n_rows
    base_c, base_r = n_cols + 1, n_rows + 1
    keys = (((c - at[..., 1]) * base_c + (at[..., 3] - c)) * base_r + (r - at[..., 0])) * base_r + (at[..., 2] - r)
    keys[grid.cell_of < 0] = (0 * base_c + 1) * base_r * base_r + 1  # a hole: [0, 0, 1, 1]
    unique, index = np.unique(keys.reshape(-1), return_inverse=True)
    keys, y1 = np.divmod(unique, base_r)
    keys, y0 = np.divmod(keys, base_r)
    x0, x1 = np.divmod(keys, base_c)
    return np.stack([-x0, -y0, x1, y1], axis=1), index.reshape(n_rows, n_cols)


# -- similarities of the cells of two tables ------------------------------------------------

def enclosing_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The reference's "IoU" of every box of ``a`` (n, 4) with every box of ``b``
    (m, 4), boxes as ``[x0, y0, x1, y1]``: the intersection's area over the
    area of the rectangle enclosing both.

    As PyMuPDF 1.21 (the reference's pinned version) computes it: a box whose
    x0 >= x1 or y0 >= y1 is empty; intersecting or enclosing two non-empty
    boxes rounds their coordinates to single precision; enclosing an empty box
    and another gives the other unrounded; a width or height below 0 is 0;
    the ratio is 0 where the enclosing area is 0."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    a_empty = (a[:, 0] >= a[:, 2]) | (a[:, 1] >= a[:, 3])
    b_empty = (b[:, 0] >= b[:, 2]) | (b[:, 1] >= b[:, 3])
    a32 = a.astype(np.float32).astype(np.float64)
    b32 = b.astype(np.float32).astype(np.float64)
    out = np.empty((len(a), len(b)))
    for rows in _row_blocks(len(a), len(b)):
        inter = _overlap(a32[rows], b32)
        union = np.maximum.outer(a32[rows, 2], b32[:, 2])
        union -= np.minimum.outer(a32[rows, 0], b32[:, 0])
        height = np.maximum.outer(a32[rows, 3], b32[:, 3])
        height -= np.minimum.outer(a32[rows, 1], b32[:, 1])
        union *= height
        either_empty = a_empty[rows, None] | b_empty[None, :]
        if either_empty.any():
            inter[either_empty] = 0.0
            # the enclosing rectangle of an empty box and another is the other, unrounded
            np.copyto(union, _area(a[rows])[:, None], where=b_empty[None, :])
            np.copyto(union, _area(b)[None, :], where=a_empty[rows, None] & ~b_empty[None, :])
        _ratio(inter, union, out[rows])
    return out


def true_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box of ``a`` with every box of ``b``
    (double precision; 0 where the union's area is 0)."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    out = np.empty((len(a), len(b)))
    b_area = _area(b)
    for rows in _row_blocks(len(a), len(b)):
        inter = _overlap(a[rows], b)
        union = np.add.outer(_area(a[rows]), b_area)
        union -= inter
        _ratio(inter, union, out[rows])
    return out


def _row_blocks(n: int, m: int) -> list[slice]:
    """Blocks of rows whose temporaries stay within :data:`STEP_BUDGET` values."""
    step = max(1, STEP_BUDGET // 4 // max(m, 1))
    return [slice(first, min(first + step, n)) for first in range(0, n, step)]


def _overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area of the intersection of every box of ``a`` with every box of ``b``."""
    width = np.minimum.outer(a[:, 2], b[:, 2])
    width -= np.maximum.outer(a[:, 0], b[:, 0])
    np.maximum(width, 0.0, out=width)
    height = np.minimum.outer(a[:, 3], b[:, 3])
    height -= np.maximum.outer(a[:, 1], b[:, 1])
    np.maximum(height, 0.0, out=height)
    width *= height
    return width


def _ratio(inter: np.ndarray, union: np.ndarray, out: np.ndarray) -> None:
    out[...] = 0.0
    np.divide(inter, union, out=out, where=union > 0)


def _area(boxes: np.ndarray) -> np.ndarray:
    w = boxes[:, 2] - boxes[:, 0]
    h = boxes[:, 3] - boxes[:, 1]
    return np.where(w > 0, w, 0.0) * np.where(h > 0, h, 0.0)


def lcs_similarity(a_texts: Sequence[str], b_texts: Sequence[str], exact: bool = False) -> np.ndarray:
    """The reference's text similarity of every text of ``a_texts`` (true) with
    every text of ``b_texts`` (predicted): ``2 * m / (len(a) + len(b))``, ``m``
    the characters of difflib's matching blocks (``exact``: the length of the
    longest common subsequence), and 1 for two empty texts."""
    if exact:
        from rapidfuzz.distance import LCSseq
        from rapidfuzz.process import cdist

        matched = cdist(list(a_texts), list(b_texts), scorer=LCSseq.similarity, dtype=np.int64)
    else:
        from .matching_blocks import matched_characters

        matched = matched_characters(a_texts, b_texts)
    la = np.fromiter(map(len, a_texts), dtype=np.int64, count=len(a_texts))
    lb = np.fromiter(map(len, b_texts), dtype=np.int64, count=len(b_texts))
    total = la[:, None] + lb[None, :]
    out = np.ones(matched.shape, dtype=np.float64)
    np.divide((2 * matched).astype(np.float64), total.astype(np.float64), out=out, where=total > 0)
    return out


# -- the factored alignment -----------------------------------------------------------------

def _inner_scores(reward_of, n_kinds: int, n_true_rows: int, n_true_cols: int, n_pred_rows: int,
                  n_pred_cols: int) -> np.ndarray:
    """The 1D alignment score of every true row with every predicted row, for each
    kind of similarity (kinds, Rt, Rp); ``reward_of(rows, col)`` gives the
    rewards of true column ``col``'s positions in the true ``rows`` (a slice)
    against every predicted position, as (predicted columns, kinds, rows,
    predicted rows). The DP of all row pairs of all kinds advances together,
    one true column at a time; a DP row is the running maximum of
    ``max(diagonal + reward, above)`` (rewards are never negative). Blocks of
    true rows keep each step's arrays within :data:`STEP_BUDGET` values."""
    block = max(1, STEP_BUDGET // max(1, (n_pred_cols + 1) * n_kinds * n_pred_rows))
    out = np.empty((n_kinds, n_true_rows, n_pred_rows))
    for first in range(0, n_true_rows, block):
        rows = slice(first, min(first + block, n_true_rows))
        scores = np.zeros((n_pred_cols + 1, n_kinds, rows.stop - rows.start, n_pred_rows))
        following = np.zeros_like(scores)  # two DP rows, in turn; row 0 stays 0
        step = np.empty_like(scores[1:])
        for col in range(n_true_cols):
            np.add(scores[:-1], reward_of(rows, col), out=step)
            np.maximum(step, scores[1:], out=step)
            np.maximum.accumulate(step, axis=0, out=following[1:])
            scores, following = following, scores
        out[:, rows] = scores[-1]
    return out


def _row_and_column_scores(similarities: list[np.ndarray], true_indexes: list[np.ndarray],
                           pred_indexes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The inner alignment scores of every pair of rows (kinds, Rt, Rp) and of
    every pair of columns (kinds, Ct, Cp), for each kind of similarity (the
    grids of all kinds have the same shape). The rewards of all pairs of
    positions are gathered once where they fit in :data:`STEP_BUDGET` values,
    and all kinds then run together; else a kind and a true column (row) at a time."""
    (n_true_rows, n_true_cols), (n_pred_rows, n_pred_cols) = true_indexes[0].shape, pred_indexes[0].shape
    kinds = len(similarities)
    if kinds * true_indexes[0].size * pred_indexes[0].size <= STEP_BUDGET:
        reward = np.stack([sim[t.reshape(-1, 1), p.reshape(1, -1)]
                           for sim, t, p in zip(similarities, true_indexes, pred_indexes)]).reshape(
            kinds, n_true_rows, n_true_cols, n_pred_rows, n_pred_cols)
        by_rows = lambda rows, col: reward[:, rows, col].transpose(3, 0, 1, 2)  # noqa: E731
        by_cols = lambda cols, row: reward[:, row, cols].transpose(2, 0, 1, 3)  # noqa: E731
        return (_inner_scores(by_rows, kinds, n_true_rows, n_true_cols, n_pred_rows, n_pred_cols),
                _inner_scores(by_cols, kinds, n_true_cols, n_true_rows, n_pred_cols, n_pred_rows))
    row_scores, col_scores = [], []
    for sim, t, p in zip(similarities, true_indexes, pred_indexes):
        pred_by_col = p.T[:, None, None, :]
        pred_by_row = p[:, None, None, :]
        by_rows = lambda rows, col: sim[t[rows, col][None, None, :, None], pred_by_col]  # noqa: E731
        by_cols = lambda cols, row: sim[t[row, cols][None, None, :, None], pred_by_row]  # noqa: E731
        row_scores.append(_inner_scores(by_rows, 1, n_true_rows, n_true_cols, n_pred_rows, n_pred_cols)[0])
        col_scores.append(_inner_scores(by_cols, 1, n_true_cols, n_true_rows, n_pred_cols, n_pred_rows)[0])
    return np.stack(row_scores), np.stack(col_scores)


def _aligned(inner: np.ndarray) -> list[tuple[list[int], list[int]]]:
    """:func:`_align_outer`, in plain Python where the DP is small (numpy's cost a call outweighs it)."""
    if inner.shape[1] * inner.shape[2] <= OUTER_IN_PYTHON:
        return [align_outer(kind) for kind in inner.tolist()]
    return _align_outer(inner)


def _aligned_each(inner: np.ndarray, shapes: list[tuple[int, int]]) -> list[tuple[list[int], list[int]]]:
    """:func:`_align_outer` of each entry of ``inner`` in its own shape: in plain Python where all are small."""
    if max(n * m for n, m in shapes) > OUTER_IN_PYTHON:
        return _align_outer(inner, shapes)
    return [align_outer([line[:m] for line in entry[:n]]) for entry, (n, m) in zip(inner.tolist(), shapes)]


def _align_outer(inner: np.ndarray, shapes: list[tuple[int, int]] | None = None) -> list[tuple[list[int], list[int]]]:
    """For each kind (``inner`` is (kinds, n, m)): the aligned true and predicted
    indices of the outer DP, traced back as the reference does: diagonal first,
    then up (skip a true index), then left. The DP of all kinds advances together.
    ``shapes``: each kind's own (n, m), its DP in the first rows and columns (what lies
    beyond them changes none of its values)."""
    kinds, n, m = inner.shape
    scores = np.zeros((kinds, n + 1, m + 1))
    for i in range(n):
        step = scores[:, i, :-1] + inner[:, i]
        np.maximum(step, scores[:, i, 1:], out=step)
        np.maximum.accumulate(step, axis=1, out=scores[:, i + 1, 1:])
    diagonal = scores[:, :-1, :-1] + inner
    here = scores[:, 1:, 1:]
    pointers = np.where(diagonal == here, 0, np.where(scores[:, :-1, 1:] == here, -1, 1)).astype(np.int8)
    out = []
    for k, pointer in enumerate(pointers.tolist()):  # (lists: read an entry at a time, numpy's scalars cost more)
        i, j = (n, m) if shapes is None else shapes[k]
        true_idx: list[int] = []
        pred_idx: list[int] = []
        while i > 0 and j > 0:
            p = pointer[i - 1][j - 1]
            if p == 0:
                i -= 1
                j -= 1
                true_idx.append(i)
                pred_idx.append(j)
            elif p == -1:
                i -= 1
            else:
                j -= 1
        true_idx.reverse()
        pred_idx.reverse()
        out.append((true_idx, pred_idx))
    return out


def matched_similarities(similarities: list[np.ndarray], true_indexes: list[np.ndarray],
                         pred_indexes: list[np.ndarray]) -> list[float]:
    """For each kind of similarity (``similarities[k]`` between the distinct values
    that ``true_indexes[k]`` and ``pred_indexes[k]`` index, grids of one shape):
    the summed similarity of the positions at aligned rows and aligned columns
    (factored 2D-MSS), summed in the reference's order (row pairs, then column pairs)."""
    (n_true_rows, n_true_cols), (n_pred_rows, n_pred_cols) = true_indexes[0].shape, pred_indexes[0].shape
    if 0 in (n_true_rows, n_true_cols, n_pred_rows, n_pred_cols):
        return [0.0] * len(similarities)
    out = [all_matching(sim.shape, true_index.shape, pred_index.shape, sim[0, 0])
           for sim, true_index, pred_index in zip(similarities, true_indexes, pred_indexes)]
    rest = [k for k, value in enumerate(out) if value is None]
    if not rest:
        return out
    similarities = [similarities[k] for k in rest]
    true_indexes = [true_indexes[k] for k in rest]
    pred_indexes = [pred_indexes[k] for k in rest]
    row_scores, col_scores = _row_and_column_scores(similarities, true_indexes, pred_indexes)
    for k, (sim, true_index, pred_index), (true_rows, pred_rows), (true_cols, pred_cols) in zip(
            rest, zip(similarities, true_indexes, pred_indexes), _aligned(row_scores), _aligned(col_scores)):
        if not true_rows or not true_cols:
            out[k] = 0.0
            continue
        values = sim[true_index[np.asarray(true_rows)[:, None], true_cols],
                     pred_index[np.asarray(pred_rows)[:, None], pred_cols]]
        out[k] = float(np.add.accumulate(values.ravel())[-1])
    return out


def matched_similarity(similarity: np.ndarray, true_index: np.ndarray, pred_index: np.ndarray) -> float:
    """:func:`matched_similarities` of one kind."""
    return matched_similarities([similarity], [true_index], [pred_index])[0]


# -- per table ------------------------------------------------------------------------------

class PreparedTable(NamedTuple):
    """What GriTS needs of a table, made once: its positions' relative spans,
    texts and boxes, each as distinct values and each position's index among them."""

    positions: int
    shape: tuple[int, int]
    spans: np.ndarray
    span_index: np.ndarray
    texts: list[str]
    text_index: np.ndarray
    boxes: np.ndarray
    """(cells + 1, 4): each cell's box, zeros where it has none; the last for holes."""
    box_frames: list
    """Each cell's box's frame (None: no box), and None for holes."""
    box_index: np.ndarray

    @property
    def frame(self):
        """The frame of the table's first box (None: no cell has a box)."""
        return next((frame for frame in self.box_frames if frame is not None), None)


def prepare(table: Table, from_zero: bool = False) -> PreparedTable:
    grid = table_grid(table, from_zero)
    spans, span_index = relative_spans(grid)
    distinct: dict[str, int] = {}
    of_cell = [distinct.setdefault(cell_text(cell), len(distinct)) for cell in grid.cells]
    hole = distinct.setdefault("", len(distinct)) if (grid.cell_of < 0).any() else -1
    text_index = np.array(of_cell + [hole], dtype=np.intp)[grid.cell_of]
    if any(c.bbox is not None for c in grid.cells):
        boxes = np.array([(c.bbox.x1, c.bbox.y1, c.bbox.x2, c.bbox.y2) if c.bbox is not None
                          else (0.0, 0.0, 0.0, 0.0) for c in grid.cells] + [(0.0, 0.0, 0.0, 0.0)], dtype=np.float64)
        frames = [c.bbox.frame if c.bbox is not None else None for c in grid.cells] + [None]
    else:
        boxes = np.zeros((len(grid.cells) + 1, 4))
        frames = [None] * (len(grid.cells) + 1)
    box_index = np.where(grid.cell_of >= 0, grid.cell_of, len(grid.cells))
    return PreparedTable(grid.cell_of.size, grid.shape, spans, span_index, list(distinct), text_index,
                         boxes, frames, box_index)


def prepared_from_small(small: SmallTable) -> PreparedTable:
    """A table :mod:`convertables.scoring.grits_small` prepared, as :func:`prepare` makes it (its
    distinct values in another order, which changes no figure); made once, kept on ``small``."""
    if small._full is None:
        no_box = np.zeros(small.shape, dtype=np.intp)  # (no box: every position's box is the one empty box)
        small._full = PreparedTable(
            small.positions, small.shape, np.array(small.spans, dtype=np.int64).reshape(-1, 4),
            np.array(small.span_rows, dtype=np.intp).reshape(small.shape), small.texts,
            np.array(small.text_rows, dtype=np.intp).reshape(small.shape), np.zeros((1, 4)), [None], no_box)
    return small._full


def _put(out: dict, kind: str, matched: float, n_true: int, n_pred: int) -> None:
    f, p, r = fscore(matched, n_true, n_pred)
    out[f"grits_{kind}"] = f
    out[f"grits_precision_{kind}"] = p
    out[f"grits_recall_{kind}"] = r


def grits_of_prepared(true: PreparedTable, pred: PreparedTable, union_iou: bool = False,
                      counts: bool = False, exact_lcs: bool = False) -> dict[str, float]:
    """``grits_top``, ``grits_con`` and, where either table has cell boxes,
    ``grits_loc``, each with ``grits_precision_*`` and ``grits_recall_*`` (the
    reference's names). For GriTS_Loc, boxes are compared in the frame of the
    ground truth's boxes (of the result's where the ground truth has none); a
    position whose cell has no box in that frame matches nothing.
    ``union_iou``: GriTS_Top and GriTS_Loc with the true IoU instead of the reference's.
    ``exact_lcs``: GriTS_Con's texts compared by their longest common subsequence
    (see :func:`lcs_similarity`). ``counts``: also each kind's summed similarity of the aligned positions
    (``grits_matched_*``) and the two tables' positions (``true_positions``,
    ``pred_positions``), which pooled GriTS sums."""
    out: dict[str, float] = {}
    n_true, n_pred = true.positions, pred.positions
    if counts:
        out["true_positions"], out["pred_positions"] = n_true, n_pred
    if n_true * n_pred > MAX_POSITION_PAIRS:
        (n_true_rows, n_true_cols), (n_pred_rows, n_pred_cols) = true.shape, pred.shape
        raise GridTooLarge(f"GriTS of a {n_true_rows} x {n_true_cols} and a {n_pred_rows} x {n_pred_cols} grid: "
                           f"{n_true * n_pred:,} pairs of positions to weigh (at most {MAX_POSITION_PAIRS:,})")
    kinds, similarities, true_indexes, pred_indexes = _kinds(true, pred, union_iou, exact_lcs)
    for kind, matched in zip(kinds, matched_similarities(similarities, true_indexes, pred_indexes)):
        _put(out, kind, matched, n_true, n_pred)
        if counts:
            out[f"grits_matched_{kind}"] = matched
    return out


def _kinds(true: PreparedTable, pred: PreparedTable, union_iou: bool, exact_lcs: bool) -> tuple:
    """The kinds of GriTS of a pair, and for each the similarity of the distinct values and the
    two grids' indexes of them."""
    iou = true_iou if union_iou else enclosing_iou
    kinds = ["top", "con"]
    if len(true.spans) * len(pred.spans) <= SPANS_IN_PYTHON:  # (a few: numpy's cost a call outweighs them)
        spans = np.array(span_similarity(true.spans.tolist(), pred.spans.tolist(), union_iou)).reshape(
            len(true.spans), len(pred.spans))
    else:
        spans = iou(true.spans, pred.spans)
    similarities = [spans, lcs_similarity(true.texts, pred.texts, exact_lcs)]
    true_indexes = [true.span_index, true.text_index]
    pred_indexes = [pred.span_index, pred.text_index]
    frame = true.frame if true.frame is not None else pred.frame
    if frame is not None:
        similarity = iou(true.boxes, pred.boxes)
        similarity[[f != frame for f in true.box_frames], :] = 0.0
        similarity[:, [f != frame for f in pred.box_frames]] = 0.0
        kinds.append("loc")
        similarities.append(similarity)
        true_indexes.append(true.box_index)
        pred_indexes.append(pred.box_index)
    return kinds, similarities, true_indexes, pred_indexes


def grits_of_prepared_many(pairs: list[tuple[PreparedTable, PreparedTable]], union_iou: bool = False,
                           counts: bool = False, exact_lcs: bool = False) -> list[dict[str, float]]:
    """:func:`grits_of_prepared` of each pair. The inner alignments of the pairs of small grids
    run together (:func:`_matched_together`), so that numpy's cost a call is paid once for them all."""
    together = [k for k, (true, pred) in enumerate(pairs)
                if 0 < true.positions * pred.positions <= TOGETHER_PAIRS]
    if len(together) < 2:
        return [grits_of_prepared(true, pred, union_iou, counts, exact_lcs) for true, pred in pairs]
    problems = {k: _kinds(*pairs[k], union_iou, exact_lcs) for k in together}
    found = _matched_together([problems[k][1:] for k in together])
    matched = {k: found[n] for n, k in enumerate(together)}
    outs = []
    for k, (true, pred) in enumerate(pairs):
        if k not in problems:
            outs.append(grits_of_prepared(true, pred, union_iou, counts, exact_lcs))
            continue
        out: dict[str, float] = {}
        if counts:
            out["true_positions"], out["pred_positions"] = true.positions, pred.positions
        for kind, value in zip(problems[k][0], matched[k]):
            _put(out, kind, value, true.positions, pred.positions)
            if counts:
                out[f"grits_matched_{kind}"] = value
        outs.append(out)
    return outs


def _matched_together(problems: list[tuple[list, list, list]]) -> dict[int, list[float]]:
    """:func:`matched_similarities` of many pairs (each: its kinds' similarities and indexes),
    as one DP over all of them: each pair's rewards laid in one array, padded with rewards of 0
    after its last rows and columns, which leave every DP value of its own rows and columns as it
    is (a DP row is a running maximum, rewards are never negative). Batches of pairs keep the
    array within :data:`STEP_BUDGET` values. Keys: the problems' indices."""
    out: dict[int, list] = {k: [None] * len(sims) for k, (sims, _, _) in enumerate(problems)}
    entries = []
    for k, (sims, ts, ps) in enumerate(problems):
        for kind, (sim, t, p) in enumerate(zip(sims, ts, ps)):
            out[k][kind] = all_matching(sim.shape, t.shape, p.shape, sim[0, 0])
            if out[k][kind] is None:
                entries.append(((k, kind), sim, t, p))
    first = 0
    while first < len(entries):
        shape = [0, 0, 0, 0]
        last = first
        while last < len(entries):
            grown = [max(a, b) for a, b in zip(shape, entries[last][2].shape + entries[last][3].shape)]
            if last > first and (last + 1 - first) * grown[0] * grown[1] * grown[2] * grown[3] > STEP_BUDGET // 4:
                break
            shape, last = grown, last + 1
        batch = entries[first:last]
        reward = np.zeros((len(batch), *shape))
        for b, (_, sim, t, p) in enumerate(batch):
            reward[b, :t.shape[0], :t.shape[1], :p.shape[0], :p.shape[1]] = sim[
                t.reshape(-1, 1), p.reshape(1, -1)].reshape(t.shape + p.shape)
        n_true_rows, n_true_cols, n_pred_rows, n_pred_cols = shape
        by_rows = lambda rows, col: reward[:, rows, col].transpose(3, 0, 1, 2)  # noqa: E731
        by_cols = lambda cols, row: reward[:, row, cols].transpose(2, 0, 1, 3)  # noqa: E731
        row_scores = _inner_scores(by_rows, len(batch), n_true_rows, n_true_cols, n_pred_rows, n_pred_cols)
        col_scores = _inner_scores(by_cols, len(batch), n_true_cols, n_true_rows, n_pred_cols, n_pred_rows)
        row_alignments = _aligned_each(row_scores, [(t.shape[0], p.shape[0]) for _, _, t, p in batch])
        col_alignments = _aligned_each(col_scores, [(t.shape[1], p.shape[1]) for _, _, t, p in batch])
        for b, (k, _, t, p) in enumerate(batch):
            (true_rows, pred_rows), (true_cols, pred_cols) = row_alignments[b], col_alignments[b]
            if not true_rows or not true_cols:
                out[k[0]][k[1]] = 0.0
                continue
            values = reward[b][np.asarray(true_rows)[:, None], true_cols, np.asarray(pred_rows)[:, None], pred_cols]
            out[k[0]][k[1]] = float(np.add.accumulate(values.ravel())[-1])
        first = last
    return out
