"""The pure-Python assignment solver: optimal on every small matrix."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convertables.scoring.assignment import max_weight_assignment


def best_total(weights: list[list[float]]) -> float:
    """The largest sum over every way of pairing the smaller side (brute force)."""
    n, m = len(weights), len(weights[0])
    if n <= m:
        return max(sum(weights[i][j] for i, j in enumerate(cols)) for cols in itertools.permutations(range(m), n))
    return max(sum(weights[i][j] for j, i in enumerate(rows)) for rows in itertools.permutations(range(n), m))


def test_hand_computed():
    # taking the best single pair (0, 0) would leave 0.1; crossing gives 0.8 + 0.8
    assert max_weight_assignment([[0.9, 0.8], [0.8, 0.1]]) == [(0, 1), (1, 0)]
    assert max_weight_assignment([[0.2], [0.7], [0.5]]) == [(1, 0)]
    assert max_weight_assignment([[0.2, 0.7, 0.5]]) == [(0, 1)]
    assert max_weight_assignment([]) == []


_weights = st.integers(1, 6).flatmap(lambda m: st.lists(
    st.lists(st.sampled_from([0.0, 1 / 3, 0.5, 1.0]) | st.floats(0, 1), min_size=m, max_size=m),
    min_size=1, max_size=6))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_weights)
def test_optimal_and_one_to_one(weights):
    pairs = max_weight_assignment(weights)
    rows, cols = [i for i, _ in pairs], [j for _, j in pairs]
    assert len(pairs) == min(len(weights), len(weights[0]))
    assert len(set(rows)) == len(rows) and len(set(cols)) == len(cols)
    assert abs(sum(weights[i][j] for i, j in pairs) - best_total(weights)) < 1e-9
