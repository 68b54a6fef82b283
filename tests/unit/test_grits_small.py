"""GriTS of small tables in plain Python (convertables.scoring.grits_small) against the numpy
computation (grits_alignment), figure for figure, and the batched alignment of many pairs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from convertables.diagnostics import Diagnostics
from convertables.html_tables import read_tables
from convertables.scoring import grits_alignment, grits_small
from convertables.scoring.grits_small import float32, float32_sum, grits_of_small, prepare_small

TEXTS = ("a", "b", "ab", "ba", "Total", "1.5", "15", "", " x ", "naïve", "p q", "2024", "Net income")


def _random_table(rng: random.Random) -> str:
    rows = []
    for _ in range(rng.randint(1, 6)):
        cells = []
        for _ in range(rng.randint(0, 5)):
            spans = ""
            if rng.random() < 0.15:
                spans += f' colspan="{rng.choice([0, 2, 3])}"'
            if rng.random() < 0.15:
                spans += f' rowspan="{rng.choice([0, 2, 3])}"'
            cells.append(f"<td{spans}>{rng.choice(TEXTS)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<table>" + "".join(rows) + "</table>"


def _tables(count: int, seed: int):
    rng = random.Random(seed)
    return [table for _ in range(count) for table in read_tables(_random_table(rng), Diagnostics(),
                                                                   cell_placement="document-order")]


@pytest.mark.parametrize("union_iou, exact_lcs", [(True, True), (False, False), (True, False), (False, True)])
@pytest.mark.parametrize("from_zero", [True, False])
def test_the_plain_python_figures_are_numpys_to_the_last_bit(union_iou, exact_lcs, from_zero, monkeypatch):
    tables = _tables(40, seed=3)
    wanted = {}
    with monkeypatch.context() as numpy_only:  # the reference: every step in numpy
        numpy_only.setattr(grits_alignment, "OUTER_IN_PYTHON", 0)
        numpy_only.setattr(grits_alignment, "SPANS_IN_PYTHON", 0)
        numpy_only.setattr(grits_alignment, "all_matching", lambda *shapes: None)  # (every DP run in full)
        for g, true in enumerate(tables[:20]):
            for p, pred in enumerate(tables[20:]):
                wanted[g, p] = grits_alignment.grits_of_prepared(
                    grits_alignment.prepare(true, from_zero), grits_alignment.prepare(pred, from_zero),
                    union_iou, counts=True, exact_lcs=exact_lcs)
    for g, true in enumerate(tables[:20]):
        for p, pred in enumerate(tables[20:]):
            small_true, small_pred = prepare_small(true, from_zero), prepare_small(pred, from_zero)
            assert small_true is not None and small_pred is not None
            assert grits_of_small(small_true, small_pred, union_iou, True, exact_lcs) == wanted[g, p]
            # numpy's computation, its small steps in plain Python, on the numpy form made from the plain one
            assert grits_alignment.grits_of_prepared(grits_alignment.prepared_from_small(small_true),
                                                     grits_alignment.prepared_from_small(small_pred),
                                                     union_iou, True, exact_lcs) == wanted[g, p]
    assert len(wanted) == 400


def test_pairs_aligned_together_score_as_each_alone(monkeypatch):
    tables = _tables(30, seed=5)
    prepared = [grits_alignment.prepare(table, True) for table in tables]
    pairs = [(true, pred) for true in prepared[:10] for pred in prepared[10:]]
    assert any(true.positions == 0 or pred.positions == 0 for true, pred in pairs)  # (left out of the batch)
    with monkeypatch.context() as in_full:
        in_full.setattr(grits_alignment, "all_matching", lambda *shapes: None)  # (every DP run in full)
        alone = [grits_alignment.grits_of_prepared(true, pred, True, True, True) for true, pred in pairs]
    assert any(len(true.spans) == len(pred.spans) == 1 for true, pred in pairs if true.positions and pred.positions)
    assert grits_alignment.grits_of_prepared_many(pairs, True, True, True) == alone
    monkeypatch.setattr(grits_alignment, "OUTER_IN_PYTHON", 0)  # the batch's outer DPs in numpy
    assert grits_alignment.grits_of_prepared_many(pairs, True, True, True) == alone


def test_a_hand_made_pair():
    # a 2 x 2 table against its first row: GriTS_Top matches 2 positions of 4 and 2, GriTS_Con
    # "Age" against "Age" and "Name" against "Nme" (2 x 3 / 7)
    true, = read_tables("<table><tr><td>Name</td><td>Age</td></tr><tr><td>Ann</td><td>31</td></tr></table>",
                        Diagnostics())
    pred, = read_tables("<table><tr><td>Nme</td><td>Age</td></tr></table>", Diagnostics())
    scores = grits_of_small(prepare_small(true), prepare_small(pred), exact_lcs=True, counts=True)
    assert scores["grits_matched_top"] == 2.0
    assert scores["grits_matched_con"] == 6 / 7 + 1.0
    assert scores["grits_precision_top"] == 1.0 and scores["grits_recall_top"] == 0.5
    assert scores["grits_top"] == pytest.approx(2 / 3)


def test_tables_with_many_positions_are_left_to_numpy():
    wide = "<table>" + ("<tr>" + "<td>x</td>" * 50 + "</tr>") * 50 + "</table>"  # (2,500 positions)
    table, = read_tables(wide, Diagnostics())
    assert prepare_small(table) is None


def test_single_precision_sums_are_numpys():
    rng = random.Random(11)
    for _ in range(3000):
        values = [rng.random() * rng.choice([1, 10, 1000]) for _ in range(rng.randint(0, 12))]
        assert float32_sum(values) == float(np.array(values, dtype=np.float32).sum())
        for value in values:
            assert float32(value) == float(np.float32(value))
