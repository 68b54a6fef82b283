"""Optimal one-to-one assignment for small matrices, in pure Python.

Pairing the tables of one document (the PubMed variant's maximum-weight
matching) is a handful of rows and columns; scipy's solver is a heavy import
in every process for so small a problem. This is the shortest
augmenting path form of the Hungarian method (Kuhn-Munkres with potentials),
O(rows^2 x columns): exact, deterministic, and fast up to a few dozen tables.
"""

from __future__ import annotations

import math


def max_weight_assignment(weights: list[list[float]]) -> list[tuple[int, int]]:
    """``(row, column)`` pairs, each row and column at most once, as many pairs as
    the smaller side has, with the largest possible sum of weights."""
    n_rows = len(weights)
    n_cols = len(weights[0]) if n_rows else 0
    if not n_rows or not n_cols:
        return []
    if n_rows > n_cols:
        transposed = [list(column) for column in zip(*weights)]
        return sorted((i, j) for j, i in max_weight_assignment(transposed))
    # Minimise the negated weights. Rows and columns are numbered from 1 here;
    # column 0 is the free start of each augmenting path.
    cost = [[0.0] * (n_cols + 1)] + [[0.0] + [-w for w in row] for row in weights]
    row_potential = [0.0] * (n_rows + 1)
    col_potential = [0.0] * (n_cols + 1)
    owner = [0] * (n_cols + 1)  # the row assigned to each column (0: none)
    way = [0] * (n_cols + 1)
    for row in range(1, n_rows + 1):
        owner[0] = row
        col = 0
        slack = [math.inf] * (n_cols + 1)
        used = [False] * (n_cols + 1)
        while True:
            used[col] = True
            here = owner[col]
            delta, next_col = math.inf, 0
            for j in range(1, n_cols + 1):
                if not used[j]:
                    reduced = cost[here][j] - row_potential[here] - col_potential[j]
                    if reduced < slack[j]:
                        slack[j], way[j] = reduced, col
                    if slack[j] < delta:
                        delta, next_col = slack[j], j
            for j in range(n_cols + 1):
                if used[j]:
                    row_potential[owner[j]] += delta
                    col_potential[j] -= delta
                else:
                    slack[j] -= delta
            col = next_col
            if owner[col] == 0:
                break
        while col:  # flip the augmenting path
            previous = way[col]
            owner[col] = owner[previous]
            col = previous
    return sorted((owner[j] - 1, j - 1) for j in range(1, n_cols + 1) if owner[j])
