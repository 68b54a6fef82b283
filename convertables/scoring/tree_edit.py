"""The edit distance between two ordered trees (Zhang and Shasha, 1989), with
insertions and deletions costing 1 and renames given as a matrix.

TEDS needs the exact distance, and its reference (APTED, in pure Python) is
slow on tables of a few hundred cells. This is the same dynamic programme
as Zhang and Shasha's, arranged so that numpy does the inner loops:

* Trees are given in postorder by ``leftmost[i]``, the postorder index of the
  leftmost leaf under node ``i``; the subtree of ``i`` is ``leftmost[i]..i``.
* The distance of a leaf to any subtree has a closed form (the leaf is renamed
  into the cheapest node of the subtree, or deleted, and the rest inserted), so
  the keyroot pairs with a leaf on either side, most of a table's pairs since
  every cell but the first of a row is a keyroot, are done as whole matrices.
* The other keyroot pairs are grouped by the heights of their two keyroots.
  Keyroots of one height never contain one another, and a pair needs the tree
  distances of pairs of lower summed height only, so each group is one batch:
  the forest-distance rows of all its pairs advance together, padded to the
  largest pair, and the insertion chain along a row (``d[x][y-1] + 1``) is a
  running minimum of ``d - y``, plus ``y``.
* A batch runs along the side with the shorter subtrees (the distance is
  symmetric when insertion and deletion cost the same).

The result equals Zhang and Shasha's up to the rounding of float sums (the
order of additions differs from theirs and from APTED's).

:func:`mapping` gives the nodes an optimal edit script keeps: the tree
distances of all node pairs stay from the programme above, and the forest
distances of the two whole trees are laid out again from them and walked back
from the corner, descending in turn into each pair of subtrees the walk
matches whole (Zhang and Shasha's own way to recover the mapping).
"""

from __future__ import annotations

import numpy as np


class Tree:
    """A tree in postorder: ``leftmost[i]`` as above; heights and keyroots derived."""

    __slots__ = ("leftmost", "parent", "size", "height", "keyroots", "leaves", "n", "_mirror")

    def __init__(self, leftmost: np.ndarray, parent: np.ndarray):
        self.leftmost = np.asarray(leftmost, dtype=np.int64)
        self.parent = parent = np.asarray(parent, dtype=np.int64)
        self.n = n = len(self.leftmost)
        idx = np.arange(n)
        self.size = idx - self.leftmost + 1
        height = [0] * n  # (lists: a numpy scalar a step costs more than the step)
        for i, p in enumerate(parent.tolist()):  # postorder: children before parents
            if p >= 0 and height[p] < height[i] + 1:
                height[p] = height[i] + 1
        self.height = np.array(height, dtype=np.int64)
        # A keyroot is the highest node of its leftmost path.
        last_of = np.full(n, -1, dtype=np.int64)
        last_of[self.leftmost] = idx  # later (higher) nodes overwrite earlier ones
        keyroots = np.unique(last_of[last_of >= 0])
        self.keyroots = keyroots
        self.leaves = idx[self.size == 1]
        self._mirror: tuple[Tree, np.ndarray] | None = None

    @classmethod
    def from_parents(cls, parent) -> Tree:
        """A tree from each node's parent index (postorder, the root last, its parent -1)."""
        parents = parent.tolist() if isinstance(parent, np.ndarray) else list(parent)
        leftmost = list(range(len(parents)))
        for i, p in enumerate(parents):  # a node's first child comes before its later children
            if p >= 0 and leftmost[p] == p:
                leftmost[p] = leftmost[i]
        return cls(np.array(leftmost, dtype=np.int64), np.asarray(parent, dtype=np.int64))


    def mirrored(self) -> tuple[Tree, np.ndarray]:
        """The tree with every node's children in reverse order, and for each of
        its nodes the index of the same node here. (The edit distance of two
        trees is that of their mirror images.)"""
        if self._mirror is None:
            self._mirror = self._mirrored()
        return self._mirror

    def _mirrored(self) -> tuple[Tree, np.ndarray]:
        children: list[list[int]] = [[] for _ in range(self.n)]
        for i, p in enumerate(self.parent[:-1].tolist()):
            children[p].append(i)
        order: list[int] = []
        stack = [(self.n - 1, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in children[node])  # the last child first
        old = np.array(order, dtype=np.int64)
        new_of = np.empty(self.n, dtype=np.int64)
        new_of[old] = np.arange(self.n)
        parent = np.where(self.parent[old] >= 0, new_of[np.maximum(self.parent[old], 0)], -1)
        return Tree.from_parents(parent), old

    def batches(self, other: Tree) -> float:
        """The rows that :func:`distance` runs its batches for against ``other``."""
        mine = _by_height(self, _inner_keyroots(self))
        theirs = _by_height(other, _inner_keyroots(other))
        return sum(min(self.size[a].max(), other.size[b].max()) for a in mine.values() for b in theirs.values())


def _subtree_minima(costs: np.ndarray, tree: Tree, axis: int) -> np.ndarray:
    """For each node j of ``tree``, whose nodes index ``costs`` along ``axis``,
    the smallest entry over the nodes of j's subtree: its own, or its children's
    minima, found level by level from the leaves up."""
    minima = np.array(costs if axis == 1 else costs.T)  # a copy, nodes along the columns
    children = np.nonzero(tree.parent >= 0)[0]
    parents = tree.parent[children]
    parent_height = tree.height[parents]
    for height in range(1, int(tree.height.max()) + 1):
        mine = parent_height == height
        kids, theirs = children[mine], parents[mine]
        sort = np.argsort(theirs, kind="stable")
        kids, theirs = kids[sort], theirs[sort]
        starts = np.concatenate(([0], np.nonzero(np.diff(theirs))[0] + 1))
        at = theirs[starts]
        minima[:, at] = np.minimum(minima[:, at], np.minimum.reduceat(minima[:, kids], starts, axis=1))
    return minima if axis == 1 else minima.T


def distance(t1: Tree, t2: Tree, rename: np.ndarray) -> float:
    """The tree edit distance; ``rename[i, j]`` the cost of renaming node i of
    ``t1`` into node j of ``t2`` (postorder indices)."""
    if t1.n == 0 or t2.n == 0:
        return float(t1.n + t2.n)
    if _same_at_no_cost(t1, t2, rename):
        return 0.0
    td = _tree_distances(t1, t2, rename).td
    return float(td[-1, -1])


def _same_at_no_cost(t1: Tree, t2: Tree, rename) -> bool:
    """Two trees of one shape whose nodes rename each into its counterpart for
    nothing: no edit script costs less than that one (no cost is negative), so
    their distance is 0. (Tables scored against themselves, or recognised
    perfectly, are many of a corpus's.)"""
    if t1.n != t2.n or not np.array_equal(t1.parent, t2.parent):
        return False
    rename = np.asarray(rename)
    return not rename.diagonal().any() and bool((rename >= 0).all())


def mapping(t1: Tree, t2: Tree, rename: np.ndarray) -> list[tuple[int, int]]:
    """One optimal edit mapping: the pairs ``(i, j)`` of nodes of ``t1`` and
    ``t2`` (postorder indices) that an edit script of least cost keeps, node i
    renamed into node j; every other node is deleted (``t1``) or inserted
    (``t2``). Its cost, the renames of its pairs plus the nodes left out, is
    :func:`distance`. Sorted by ``i``."""
    if t1.n == 0 or t2.n == 0:
        return []
    solved = _tree_distances(t1, t2, rename)
    found = _backtrace(solved)
    if solved.old1 is not None:  # solved on the mirror images: back to the trees' own numbering
        found = [(int(solved.old1[i]), int(solved.old2[j])) for i, j in found]
    return sorted(found)


class _Solved:
    """The tree distances of every node pair, of the trees as solved (maybe
    mirrored: ``old1``/``old2``, else None, give each node's index in the trees
    as given), with the rename costs in that numbering."""

    __slots__ = ("t1", "t2", "rename", "td", "old1", "old2")

    def __init__(self, t1: Tree, t2: Tree, rename: np.ndarray, td: np.ndarray,
                 old1: np.ndarray | None, old2: np.ndarray | None):
        self.t1, self.t2, self.rename, self.td, self.old1, self.old2 = t1, t2, rename, td, old1, old2


def _tree_distances(t1: Tree, t2: Tree, rename: np.ndarray) -> _Solved:
    """Zhang and Shasha's tree distances of all node pairs (both trees non-empty)."""
    n1, n2 = t1.n, t2.n
    rename = np.asarray(rename, dtype=np.float64)
    # Leftmost paths make every later child a keyroot: a table whose <tbody>
    # follows a <thead> makes the body, nearly the whole table, one. Mirrored,
    # the small head is the keyroot instead: take the cheaper of the two.
    m1, old1 = t1.mirrored()
    m2, old2 = t2.mirrored()
    if m1.batches(m2) < t1.batches(t2):
        t1, t2, rename = m1, m2, rename[old1[:, None], old2[None, :]]
    else:
        old1 = old2 = None
    td = np.zeros((n1, n2), dtype=np.float64)
    solved = _Solved(t1, t2, rename, td, old1, old2)
    # A leaf against a subtree: rename it into one of the subtree's nodes and
    # insert the others, or delete it and insert them all (cost size + 1).
    leaves1, leaves2 = t1.leaves, t2.leaves
    if len(leaves1):
        minima = _subtree_minima(rename[leaves1], t2, axis=1)
        td[leaves1] = (t2.size - 1)[None, :] + np.minimum(minima, 2.0)
    if len(leaves2):
        minima = _subtree_minima(rename[:, leaves2], t1, axis=0)
        td[:, leaves2] = (t1.size - 1)[:, None] + np.minimum(minima, 2.0)
    # Every other pair has an inner node on both sides, and an inner node is on
    # the leftmost path of an inner keyroot: the batches fill the rest of td.
    inner1 = _inner_keyroots(t1)
    inner2 = _inner_keyroots(t2)
    if not inner1 or not inner2:
        return solved
    groups1 = _by_height(t1, inner1)
    groups2 = _by_height(t2, inner2)
    rename_flat, td_flat = rename.reshape(-1), td.reshape(-1)  # (contiguous: views)
    for _, h1, h2 in sorted((h1 + h2, h1, h2) for h1 in groups1 for h2 in groups2):
        k1s, k2s = groups1[h1], groups2[h2]
        if t1.size[k1s].max() <= t2.size[k2s].max():
            _batch(t1, t2, k1s, k2s, rename_flat, td_flat, n2, False)
        else:  # along the other tree: the same programme on the transposed problem
            _batch(t2, t1, k2s, k1s, rename_flat, td_flat, n2, True)
    return solved


def _backtrace(solved: _Solved) -> list[tuple[int, int]]:
    """The pairs of one optimal mapping, in the numbering solved: from the roots'
    pair, each subtree pair's forest distances are laid out again (from the tree
    distances) and walked back from the corner, each step one that the corner's
    value can have come from; a step that matches two subtrees off the leftmost
    paths is walked the same way in its turn."""
    t1, t2, rename, td = solved.t1, solved.t2, solved.rename, solved.td
    left1, left2 = t1.leftmost, t2.leftmost
    # The table is summed in another order than the batches summed td: values
    # equal but for rounding must count as equal.
    slack = 1e-9 * max(1.0, float(t1.n + t2.n))
    found: list[tuple[int, int]] = []
    todo = [(t1.n - 1, t2.n - 1)]
    while todo:
        i, j = todo.pop()
        l1, l2 = int(left1[i]), int(left2[j])
        fd = _forest_distances(t1, t2, td, i, j)
        x, y = i - l1 + 1, j - l2 + 1
        while x > 0 and y > 0:
            a, b = l1 + x - 1, l2 + y - 1
            here = fd[x, y]
            p, q = int(left1[a]) - l1, int(left2[b]) - l2
            if p == 0 and q == 0:  # both on the leftmost paths: the forests are the subtrees of a and b
                if abs(fd[x - 1, y - 1] + rename[a, b] - here) <= slack:
                    found.append((a, b))
                    x, y = x - 1, y - 1
                    continue
            elif abs(fd[p, q] + td[a, b] - here) <= slack:
                todo.append((a, b))
                x, y = p, q
                continue
            if abs(fd[x - 1, y] + 1.0 - here) <= slack:
                x -= 1  # a deleted
            elif abs(fd[x, y - 1] + 1.0 - here) <= slack:
                y -= 1  # b inserted
            else:
                raise AssertionError(f"no step of the edit mapping reaches ({a}, {b})")
    return found


def _forest_distances(t1: Tree, t2: Tree, td: np.ndarray, i: int, j: int) -> np.ndarray:
    """The forest distances of the subtrees of i and j: entry [x, y] for the
    first x nodes of i's subtree (postorder) against the first y of j's; a row
    at a time, the insertion chain a running minimum as in :func:`_batch`.
    Every entry reads the tree distances: where both nodes lie on the leftmost
    paths, the forests are their subtrees and the entry their tree distance."""
    l1, l2 = int(t1.leftmost[i]), int(t2.leftmost[j])
    rows, cols = i - l1 + 2, j - l2 + 2
    fd = np.empty((rows, cols), dtype=np.float64)
    fd[0] = np.arange(cols, dtype=np.float64)
    fd[:, 0] = np.arange(rows, dtype=np.float64)
    q = t2.leftmost[l2:j + 1] - l2
    ramp = np.arange(cols, dtype=np.float64)
    for x in range(1, rows):
        a = l1 + x - 1
        diagonal = fd[int(t1.leftmost[a]) - l1, q] + td[a, l2:j + 1]
        row = fd[x]
        np.minimum(fd[x - 1, 1:] + 1.0, diagonal, out=row[1:])
        row -= ramp
        np.minimum.accumulate(row, out=row)
        row += ramp
    return fd


def _inner_keyroots(tree: Tree) -> list[int]:
    """The keyroots that are no leaves, in order."""
    return tree.keyroots[tree.size[tree.keyroots] > 1].tolist()


def _by_height(tree: Tree, keyroots: list[int]) -> dict[int, np.ndarray]:
    groups: dict[int, list[int]] = {}
    heights = tree.height[keyroots].tolist()
    for k, h in zip(keyroots, heights):
        groups.setdefault(h, []).append(k)
    return {h: np.array(ks, dtype=np.int64) for h, ks in groups.items()}


def _batch(t1: Tree, t2: Tree, k1s: np.ndarray, k2s: np.ndarray, rename: np.ndarray, td: np.ndarray,
           width: int, transposed: bool) -> None:
    """Zhang and Shasha's forest distances for every keyroot pair of ``k1s`` x
    ``k2s`` at once; fills the tree distances of the pairs on both keyroots'
    leftmost paths. ``rename`` and ``td`` are the flattened (n1, n2) matrices,
    rows of ``width``; ``transposed``: ``t1`` is the second tree (its nodes
    index columns). The tree distances these pairs need are already there."""
    a_count, b_count = len(k1s), len(k2s)
    rows = int(t1.size[k1s].max()) + 1  # forest prefixes 0..size of each k1
    cols = int(t2.size[k2s].max()) + 1
    l1, l2 = t1.leftmost[k1s], t2.leftmost[k2s]
    x = np.arange(1, rows)
    y = np.arange(1, cols)
    # Node i for each row and k1, node j for each k2 and column (clipped to the
    # keyroot in the padding beyond a smaller subtree).
    i_of = np.minimum(l1[None, :] + x[:, None] - 1, k1s[None, :])  # (rows-1, A)
    j_of = np.minimum(l2[:, None] + y[None, :] - 1, k2s[:, None])  # (B, cols-1)
    valid_i = (l1[None, :] + x[:, None] - 1) <= k1s[None, :]
    valid_j = (l2[:, None] + y[None, :] - 1) <= k2s[:, None]
    on_path_i = t1.leftmost[i_of] == l1[None, :]
    on_path_j = t2.leftmost[j_of] == l2[:, None]
    p_of = t1.leftmost[i_of] - l1[None, :]  # the row of forest l1..leftmost(i)-1
    q_of = t2.leftmost[j_of] - l2[:, None]
    if transposed:
        at = i_of[:, :, None, None] + (j_of * width)[None, None, :, :]
    else:
        at = (i_of * width)[:, :, None, None] + j_of[None, None, :, :]
    # The diagonal term of a cell is d[x-1][y-1] + rename(i, j) where both nodes
    # lie on their keyroots' leftmost paths (a few cells a pair), else
    # d[p][q] + treedist(i, j): its cost, then where it reads from.
    addend = td.take(at)
    path_rows = np.nonzero(on_path_i & valid_i)
    path_cols = np.nonzero(on_path_j & valid_j)
    r_at, a_at = path_rows[0][:, None], path_rows[1][:, None]
    b_at, y_at = path_cols[0][None, :], path_cols[1][None, :]
    addend[r_at, a_at, b_at, y_at] = rename.take(at[r_at, a_at, b_at, y_at])
    a_index = np.arange(a_count)[:, None, None]
    b_index = np.arange(b_count)[None, :, None]
    target = at[r_at, a_at, b_at, y_at]
    del at

    fd = np.empty((rows, a_count, b_count, cols), dtype=np.float64)
    fd[0] = np.arange(cols, dtype=np.float64)
    fd[:, :, :, 0] = np.arange(rows, dtype=np.float64)[:, None, None]  # deleting the forest's nodes
    ramp = np.arange(cols, dtype=np.float64)
    # (For a leaf i, p is x-1, for a leaf j q is y-1: a row's diagonal terms are
    # one gather from fd, flattened, whatever its nodes. Rows and columns of
    # padding read anything in range: no cell of a real pair reads theirs.)
    source = ((p_of[:, :, None, None] * a_count + a_index[None]) * b_count + b_index[None]) * cols + q_of[None, None]
    source[r_at, a_at, b_at, y_at] = ((r_at * a_count + a_at) * b_count + b_at) * cols + y_at
    fd_flat = fd.reshape(-1)  # (a view)
    for r in range(1, rows):
        prev = fd[r - 1]
        row = fd[r]
        diagonal = fd_flat.take(source[r - 1])
        diagonal += addend[r - 1]
        np.add(prev[:, :, 1:], 1.0, out=row[:, :, 1:])
        np.minimum(row[:, :, 1:], diagonal, out=row[:, :, 1:])
        row -= ramp
        np.minimum.accumulate(row, axis=2, out=row)
        row += ramp
    td[target] = fd[r_at + 1, a_at, b_at, y_at + 1]
