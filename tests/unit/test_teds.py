"""TEDS: the tree edit distance (exact against a plain Zhang-Shasha), hand-computed
tables, and agreement with PubTabNet's reference on generated and real tables."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from convertables import score
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats.html import read as read_html
from convertables.model import Cell, Document, Region, Table
from convertables.scoring.teds import table_tree, teds
from convertables.scoring.tree_edit import Tree, _tree_distances, distance, mapping
from table_pairs import pairs, pubtabnet_pairs
from conftest import corpus_path

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "teds_reference.json").read_text())


# -- the tree edit distance ---------------------------------------------------------------------

def plain_zhang_shasha(leftmost: list[int], other: list[int], rename: list[list[float]]) -> float:
    """The textbook algorithm, one cell at a time: what the fast one must equal."""
    return plain_tree_distances(leftmost, other, rename)[-1][-1]


def plain_tree_distances(leftmost: list[int], other: list[int], rename: list[list[float]]) -> list[list[float]]:
    """The textbook algorithm's tree distances of every node pair (None where it set none)."""
    def keyroots(lm):
        last = {}
        for i, l in enumerate(lm):
            last[l] = i
        return sorted(last.values())

    n1, n2 = len(leftmost), len(other)
    tree: list[list] = [[None] * n2 for _ in range(n1)]
    for k1 in keyroots(leftmost):
        for k2 in keyroots(other):
            l1, l2 = leftmost[k1], other[k2]
            forest = [[0.0] * (k2 - l2 + 2) for _ in range(k1 - l1 + 2)]
            for x in range(1, k1 - l1 + 2):
                forest[x][0] = x
            for y in range(1, k2 - l2 + 2):
                forest[0][y] = y
            for x in range(1, k1 - l1 + 2):
                i = l1 + x - 1
                for y in range(1, k2 - l2 + 2):
                    j = l2 + y - 1
                    if leftmost[i] == l1 and other[j] == l2:
                        forest[x][y] = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1,
                                           forest[x - 1][y - 1] + rename[i][j])
                        tree[i][j] = forest[x][y]
                    else:
                        forest[x][y] = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1,
                                           forest[leftmost[i] - l1][other[j] - l2] + tree[i][j])
    return tree


def random_parents(rng: random.Random, n: int, wide: bool) -> list[int]:
    """A random tree's parent indices in postorder (``wide``: shallow and bushy, like tables)."""
    children: dict[int, list[int]] = {0: []}
    for v in range(1, n):
        p = rng.randrange(min(v, 3)) if wide and rng.random() < 0.7 else rng.randrange(v)
        children.setdefault(p, []).append(v)
        children[v] = []
    order: list[int] = []
    stack = [(0, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
        else:
            stack.append((v, True))
            stack.extend((c, False) for c in reversed(children[v]))
    at = {v: k for k, v in enumerate(order)}
    parent = [-1] * n
    for v, cs in children.items():
        for c in cs:
            parent[at[c]] = at[v]
    return parent


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_tree_edit_distance_equals_zhang_shasha(seed):
    rng = random.Random(seed)
    for _ in range(60):
        n1, n2 = rng.randint(1, 30), rng.randint(1, 30)
        t1 = Tree.from_parents(random_parents(rng, n1, wide=seed % 2 == 0))
        t2 = Tree.from_parents(random_parents(rng, n2, wide=seed % 2 == 1))
        rename = np.array([[rng.choice([0.0, 1.0, rng.random()]) for _ in range(n2)] for _ in range(n1)])
        expected = plain_zhang_shasha(list(t1.leftmost), list(t2.leftmost), rename.tolist())
        assert distance(t1, t2, rename) == pytest.approx(expected, abs=1e-12)


def test_tree_edit_distance_is_exactly_zhang_shashas_where_sums_are_exact():
    # Rename costs in eighths add up without rounding in any order: every figure
    # must then be the plain programme's to the last bit, whichever cells of a
    # batch row read back (d[p][q]) and whichever orientation is solved.
    rng = random.Random(2024)
    for case in range(300):
        n1, n2 = rng.randint(1, 16), rng.randint(1, 16)
        t1 = Tree.from_parents(random_parents(rng, n1, wide=case % 2 == 0))
        t2 = Tree.from_parents(random_parents(rng, n2, wide=case % 3 == 0))
        rename = np.array([[rng.choice([0.0, 1.0, rng.randint(0, 8) / 8]) for _ in range(n2)] for _ in range(n1)])
        expected = plain_zhang_shasha(list(t1.leftmost), list(t2.leftmost), rename.tolist())
        assert distance(t1, t2, rename) == expected, case


def test_tree_edit_distance_by_hand():
    # a(b, c) against a(c): delete b -> 1; against d(b, c): rename a -> 1; against a single node: 2 deletions.
    abc = Tree.from_parents([2, 2, -1])
    same = np.zeros((3, 3))
    assert distance(abc, abc, same) == 0
    assert distance(abc, Tree.from_parents([1, -1]), np.array([[1, 0], [0, 1], [1, 0]], float)) == 1
    assert distance(abc, Tree.from_parents([-1]), np.zeros((3, 1))) == 2


def random_case(rng: random.Random, seed: int) -> tuple[Tree, Tree, np.ndarray]:
    n1, n2 = rng.randint(1, 30), rng.randint(1, 30)
    t1 = Tree.from_parents(random_parents(rng, n1, wide=seed % 2 == 0))
    t2 = Tree.from_parents(random_parents(rng, n2, wide=seed % 3 == 0))
    rename = np.array([[rng.choice([0.0, 1.0, rng.random()]) for _ in range(n2)] for _ in range(n1)])
    return t1, t2, rename


@pytest.mark.slow
def test_every_pairs_tree_distance_is_filled_in_whichever_orientation_is_solved():
    # The backtrace reads td at any pair: the leaves' closed forms and the
    # batches must between them give every pair the textbook's value.
    rng = random.Random(11)
    orientations = set()
    for seed in range(240):
        t1, t2, rename = random_case(rng, seed)
        solved = _tree_distances(t1, t2, rename)
        orientations.add(solved.old1 is not None)
        plain = plain_tree_distances(list(solved.t1.leftmost), list(solved.t2.leftmost), solved.rename.tolist())
        assert all(value is not None for row in plain for value in row)
        assert np.allclose(solved.td, np.array(plain, dtype=float), rtol=0, atol=1e-12)
    assert orientations == {True, False}  # both the trees as given and their mirror images were solved


def mapping_cost(t1: Tree, t2: Tree, rename: np.ndarray, pairs: list[tuple[int, int]]) -> float:
    return sum(rename[i, j] for i, j in pairs) + (t1.n - len(pairs)) + (t2.n - len(pairs))


def assert_edit_mapping(t1: Tree, t2: Tree, pairs: list[tuple[int, int]]) -> None:
    """One-to-one, keeping who is whose ancestor and what lies left of what."""
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert all(0 <= i < t1.n and 0 <= j < t2.n for i, j in pairs)

    def above(tree: Tree, a: int, b: int) -> bool:  # a is an ancestor of b
        return tree.leftmost[a] <= b < a

    for (i1, j1), (i2, j2) in itertools.combinations(pairs, 2):
        assert above(t1, i1, i2) == above(t2, j1, j2)
        assert above(t1, i2, i1) == above(t2, j2, j1)
        assert (i1 < i2) == (j1 < j2)  # postorder: with ancestry kept, left-to-right order kept


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_the_mapping_is_an_edit_mapping_that_costs_the_distance(seed):
    rng = random.Random(100 + seed)
    orientations = set()
    for case in range(60):
        t1, t2, rename = random_case(rng, seed * 60 + case)
        pairs = mapping(t1, t2, rename)
        orientations.add(_tree_distances(t1, t2, rename).old1 is not None)
        assert_edit_mapping(t1, t2, pairs)
        assert mapping_cost(t1, t2, rename, pairs) == pytest.approx(distance(t1, t2, rename), abs=1e-9)
        # Swapped, the trees give the same distance and a mapping of it.
        swapped = mapping(t2, t1, rename.T)
        assert_edit_mapping(t2, t1, swapped)
        assert mapping_cost(t2, t1, rename.T, swapped) == pytest.approx(distance(t1, t2, rename), abs=1e-9)
    assert orientations == {True, False}


def test_the_mapping_by_hand():
    # b, c, a = a(b, c) against c, a = a(c): b deleted, c kept, a kept.
    abc, ac = Tree.from_parents([2, 2, -1]), Tree.from_parents([1, -1])
    assert mapping(abc, ac, np.array([[1, 0], [0, 1], [1, 0]], float)) == [(1, 0), (2, 1)]
    assert mapping(abc, abc, np.ones((3, 3)) - np.eye(3)) == [(0, 0), (1, 1), (2, 2)]
    # a(b, c) against d(e(b), c) (postorder b, e, c, d): e inserted, a renamed into d at cost 0.5.
    deep = Tree.from_parents([1, 3, 3, -1])
    rename = np.ones((3, 4))
    rename[0, 0] = rename[1, 2] = 0.0
    rename[2, 3] = 0.5
    assert mapping(abc, deep, rename) == [(0, 0), (1, 2), (2, 3)]
    assert distance(abc, deep, rename) == 1.5
    assert mapping(abc, Tree.from_parents([]), np.zeros((3, 0))) == []


# -- TEDS by hand -------------------------------------------------------------------------------

def _table(html: str) -> Table:
    return read_html(html.encode(), Diagnostics("t.html")).document.tables[0]


def _teds(gt: str, result: str, **kwargs) -> tuple[float, float]:
    g, r = table_tree(_table(gt), **kwargs), table_tree(_table(result), **kwargs)
    return teds(g, r), teds(g, r, structure_only=True)


def test_identical_tables_score_one():
    html = "<table><thead><tr><td><b>a</b></td><td>b</td></tr></thead><tbody><tr><td colspan='2'>c</td></tr></tbody></table>"
    assert _teds(html, html) == (1.0, 1.0)


def test_one_character_differs():
    # Elements inside the table: tbody, tr, td = 3. The cells differ by 1 edit of 3 tokens:
    # distance 1/3, TEDS 1 - (1/3)/3; the structure is the same.
    full, struct = _teds("<table><tbody><tr><td>abc</td></tr></tbody></table>",
                         "<table><tbody><tr><td>abd</td></tr></tbody></table>")
    assert full == pytest.approx(1 - (1 / 3) / 3, abs=1e-15)
    assert struct == 1.0


def test_a_lost_row_and_inline_tags():
    # Ground truth: tbody, 2 tr, 2 td, and a <b> inside the first td: 6 elements.
    # The result lost the second row (tr + td deleted: 2) and the bold (tokens
    # <b> x </b> against x: 2 edits of 3 -> 2/3); its elements: tbody, tr, td = 3.
    gt = "<table><tbody><tr><td><b>x</b></td></tr><tr><td>y</td></tr></tbody></table>"
    result = "<table><tbody><tr><td>x</td></tr></tbody></table>"
    full, struct = _teds(gt, result)
    assert full == pytest.approx(1 - (2 + 2 / 3) / 6, abs=1e-15)
    assert struct == pytest.approx(1 - 2 / 6, abs=1e-15)


def test_spans_and_th_cells():
    # A colspan differing costs a rename of 1 whatever the text.
    full, struct = _teds("<table><tr><td colspan='2'>a</td></tr></table>",
                         "<table><tr><td>a</td></tr></table>")
    assert (full, struct) == (pytest.approx(1 - 1 / 2), pytest.approx(1 - 1 / 2))
    # <th> against <td>: the tags differ (1); two <th> compare no text, unless asked.
    assert _teds("<table><tr><th>a</th></tr></table>", "<table><tr><td>a</td></tr></table>")[0] == 0.5
    assert _teds("<table><tr><th>a</th></tr></table>", "<table><tr><th>zzz</th></tr></table>")[0] == 1.0
    compared = _teds("<table><tr><th>a</th></tr></table>", "<table><tr><th>zzz</th></tr></table>",
                     th_text=True)[0]
    assert compared == 0.5  # tr, th: 2 elements; the text costs 3/3


def test_tables_without_html_get_a_skeleton_from_their_grid():
    # An ICDAR-like table (no source HTML): header cells go in <thead>, the rest in <tbody>.
    table = Table(0, [Region(0, cells=[Cell(0, 0, 0, 0, "h", header=True), Cell(0, 1, 0, 1, "k", header=True),
                                       Cell(1, 0, 1, 1, "v")])])
    html = "<table><thead><tr><td>h</td><td>k</td></tr></thead><tbody><tr><td colspan='2'>v</td></tr></tbody></table>"
    assert teds(table_tree(table), table_tree(_table(html))) == 1.0


# -- against the reference ----------------------------------------------------------------------

def _scores(gt_html: str, result_html: str) -> tuple[float, float]:
    return _teds(gt_html, result_html)


@pytest.mark.slow
def test_equal_to_the_reference_on_generated_tables():
    expected = REFERENCE["generated"]
    found = [_scores(gt, result) for gt, result in pairs(expected["count"], expected["seed"])]
    assert len(found) == len(expected["teds"])
    for (full, struct), want_full, want_struct in zip(found, expected["teds"], expected["teds_struct"]):
        assert abs(full - want_full) < 1e-9
        assert abs(struct - want_struct) < 1e-9
    assert min(expected["teds"]) < 0.5 < max(expected["teds"])  # the cases are not all alike


@pytest.mark.slow
def test_equal_to_the_reference_on_pubtabnet_examples():
    path = corpus_path("pubtabnet", "PubTabNet_Examples.jsonl")
    expected = REFERENCE["pubtabnet_examples"]
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [_scores(gt, result) for gt, result in pubtabnet_pairs(lines, expected["seed"])]
    for (full, struct), want_full, want_struct in zip(found, expected["teds"], expected["teds_struct"]):
        assert abs(full - want_full) < 1e-9
        assert abs(struct - want_struct) < 1e-9


# -- documents and the command ------------------------------------------------------------------

def _document(*tables_html: str) -> Document:
    doc = Document("d")
    for k, html in enumerate(tables_html):
        table = _table(html)
        table.id = k
        doc.tables.append(table)
    return doc


def test_tables_are_paired_by_teds_and_unpaired_ones_score_zero():
    a = "<table><tr><td>alpha</td><td>1</td></tr></table>"
    b = "<table><tr><td>beta</td></tr><tr><td>2</td></tr></table>"
    gt = _document(a, b)
    result = _document(b, "<table><tr><td>other</td></tr></table>", a)
    report = score(gt, result, metric="teds")
    record = report.documents[0]
    pairs_found = [(t["gt_table"], t["result_table"], t["teds"]) for t in record["tables"]]
    assert pairs_found == [(0, 2, 1.0), (1, 0, 1.0), (None, 1, 0.0)]
    assert record["teds"] == pytest.approx(2 / 3)
    assert report.total["tables"] == 3 and report.total["teds"] == pytest.approx(2 / 3)
    assert report["document_mean"]["teds"] == pytest.approx(2 / 3)


def test_score_command(tmp_path):
    gt, result = tmp_path / "t.html", tmp_path / "r.html"
    gt.write_text("<table><tbody><tr><td>abc</td></tr></tbody></table>")
    result.write_text("<table><tbody><tr><td>abd</td></tr></tbody></table>")
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "teds",
                                   "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["total"]["teds"] == pytest.approx(1 - (1 / 3) / 3)
    assert report["total"]["teds_struct"] == 1.0
    assert report["settings"]["th_text"] == "ignore"


def test_slots_no_cell_covers_become_empty_cells():
    # An ICDAR 2013 table leaves empty cells out; PubTabNet has a <td> on every slot.
    table = Table(0, [Region(0, cells=[Cell(0, 0, 1, 0, "a"), Cell(0, 2, 0, 2, "c"), Cell(1, 1, 1, 1, "d")])])
    html = ("<table><tbody><tr><td rowspan='2'>a</td><td></td><td>c</td></tr>"
            "<tr><td>d</td><td></td></tr></tbody></table>")
    assert teds(table_tree(table), table_tree(_table(html))) == 1.0


def test_an_icdar_ground_truth_scores_against_html(tmp_path):
    gt = tmp_path / "eu-001-str.xml"
    gt.write_text('<?xml version="1.0" encoding="UTF-8"?><document filename="eu-001.pdf"><table id="1">'
                  '<region id="1" page="1"><cell id="1" start-row="0" start-col="0"><content>A</content></cell>'
                  '<cell id="2" start-row="0" start-col="1"><content>B</content></cell>'
                  '<cell id="3" start-row="1" start-col="0" end-col="1"><content>C D</content></cell>'
                  '</region></table></document>')
    result = tmp_path / "eu-001.html"
    result.write_text("<table><tr><td>A</td><td>B</td></tr><tr><td colspan=2>C</td></tr></table>")
    report = score(gt, result, metric="teds")
    # Result tree: table, 2 tr, 3 td (no tbody): 5 elements; the ground truth's has a tbody: 6.
    # Distance: insert the tbody (1), and "C" against "C D" (2 edits of 3).
    assert report.total["teds"] == pytest.approx(1 - (1 + 2 / 3) / 6)
    assert report.total["teds_struct"] == pytest.approx(1 - 1 / 6)


def test_pubtabnet_ground_truth_against_its_teds_json_predictions(tmp_path):
    # The ground truth read from the JSONL records (their own tokens and skeleton),
    # the results from the {file name: HTML} file the reference's batch_evaluate
    # takes: the same numbers as the reference gave on the HTML strings.
    path = corpus_path("pubtabnet", "PubTabNet_Examples.jsonl")
    expected = REFERENCE["pubtabnet_examples"]
    lines = path.read_text(encoding="utf-8").splitlines()
    names = [json.loads(line)["filename"] for line in lines]
    predictions = {name: result for name, (gt, result) in zip(names, pubtabnet_pairs(lines, expected["seed"]))}
    result = tmp_path / "predictions.json"
    result.write_text(json.dumps(predictions))
    report = score(path, result, metric="teds")
    found = {record["document"]: (record["teds"], record["teds_struct"]) for record in report.documents}
    assert len(found) == len(names)
    for name, full, struct in zip(names, expected["teds"], expected["teds_struct"]):
        got = found[name.rsplit(".", 1)[0]]
        assert abs(got[0] - full) < 1e-9 and abs(got[1] - struct) < 1e-9, name
    assert report.total["teds"] == pytest.approx(sum(expected["teds"]) / len(names), abs=1e-12)


def test_body_table_only_scores_what_the_reference_scores(tmp_path):
    # The reference reads a string starting with <html> as a document and scores the first
    # table directly in <body>; a bare <table> string is a fragment without <body>: 0.
    table = "<table><tbody><tr><td>abc</td></tr></tbody></table>"
    full = tmp_path / "full.html"
    full.write_text(f"<html><body><div>{table}</div>{table}</body></html>")
    bare = tmp_path / "bare.html"
    bare.write_text(table)
    # convertables: every table wherever it is; the ground truth's second table has no result
    assert score(full, bare, metric="teds").total["teds"] == 0.5
    assert score(full, bare, metric="teds", body_table_only=True).total["teds"] == 0.0
    assert score(full, full, metric="teds", body_table_only=True).total["tables"] == 1
    assert score(full, full, metric="teds", body_table_only=True).total["teds"] == 1.0


# -- the HTML report's detail: the cells of the edit mapping ------------------------------------

def _detail(gt: Document, result: Document | None, **settings) -> dict:
    return score(gt, result, metric="teds", explain=True, **settings).details.get(0)


def _cells(side: dict) -> tuple[str, list]:
    return side["outcome"], [partner[0] for partner in side["partners"]]


def test_identical_tables_keep_every_cell_as_itself():
    html = ("<table><thead><tr><th>n</th><td><b>mean</b></td></tr></thead>"
            "<tbody><tr><td colspan='2'>12.5</td></tr><tr><td>a</td><td></td></tr></tbody></table>")
    detail = _detail(_document(html), _document(html))
    assert detail["kind"] == "cells" and detail["levels"] == []
    assert detail["measure"] == "similarity of the cells in TEDS's tree edit mapping (1 \u2212 rename cost)"
    pair = detail["pairs"][0]
    for side in ("gt", "result"):
        assert _cells(pair[side]) == ("AAAAA", [[k, 1.0] for k in range(5)])
    assert pair["scores"]["teds"] == 1.0
    assert any("<th>" in note for note in detail["notes"])  # the <th> cell's text was not compared


def test_a_cell_whose_text_changed_is_kept_with_one_minus_its_normalised_levenshtein():
    gt = "<table><tr><td>total</td><td>12.5</td></tr><tr><td>age</td><td>41</td></tr></table>"
    result = "<table><tr><td>total</td><td>12.8</td></tr><tr><td>age</td><td>41</td></tr></table>"
    pair = _detail(_document(gt), _document(result))["pairs"][0]
    # "12.5" against "12.8": 1 edit of 4 tokens, a rename of 1/4.
    assert _cells(pair["gt"]) == ("ASAA", [[0, 1.0], [1, 0.75], [2, 1.0], [3, 1.0]])
    assert _cells(pair["result"]) == ("ASAA", [[0, 1.0], [1, 0.75], [2, 1.0], [3, 1.0]])
    # Inline tags are tokens: <b>41</b> against 41 is 2 edits of 4 tokens.
    bold = result.replace("<td>41</td>", "<td><b>41</b></td>")
    pair = _detail(_document(gt), _document(bold))["pairs"][0]
    assert _cells(pair["gt"]) == ("ASAS", [[0, 1.0], [1, 0.75], [2, 1.0], [3, 0.5]])


def test_the_cells_of_a_lost_row_are_deleted_and_the_rest_kept():
    gt = ("<table><tr><td>ab</td><td>cd</td></tr><tr><td>ef</td><td>gh</td></tr>"
          "<tr><td>x</td><td>y</td></tr></table>")
    result = "<table><tr><td>ab</td><td>cd</td></tr><tr><td>x</td><td>y</td></tr></table>"
    pair = _detail(_document(gt), _document(result))["pairs"][0]
    assert _cells(pair["gt"]) == ("AANNAA", [[0, 1.0], [1, 1.0], [-1, 0.0], [-1, 0.0], [2, 1.0], [3, 1.0]])
    assert _cells(pair["result"]) == ("AAAA", [[0, 1.0], [1, 1.0], [4, 1.0], [5, 1.0]])
    assert pair["scores"]["teds"] == pytest.approx(1 - 3 / 9)  # a tr and two td deleted of 9 elements


def test_merged_and_split_cells_are_renamed_across_spans_at_similarity_zero():
    # Two cells merged into one: renaming a td into a td of other spans costs 1 whatever
    # the text, so the merged cell keeps one of the two (either costs the same), the
    # other is deleted; the second row is untouched.
    gt = "<table><tr><td>12</td><td>34</td></tr><tr><td>a</td><td>b</td></tr></table>"
    merged = "<table><tr><td colspan='2'>12 34</td></tr><tr><td>a</td><td>b</td></tr></table>"
    pair = _detail(_document(gt), _document(merged))["pairs"][0]
    outcome, partners = _cells(pair["gt"])
    assert sorted(outcome[:2]) == ["N", "S"] and outcome[2:] == "AA"
    kept = outcome.index("S")
    assert partners[kept] == [0, 0.0] and partners[1 - kept] == [-1, 0.0]
    assert _cells(pair["result"]) == ("SAA", [[kept, 0.0], [2, 1.0], [3, 1.0]])
    assert pair["scores"]["teds"] == pytest.approx(1 - 2 / 6)  # a rename of 1, a deletion
    # Split the other way round: the ground truth's spanning cell against two.
    pair = _detail(_document(merged), _document(gt))["pairs"][0]
    outcome, partners = _cells(pair["gt"])
    assert outcome == "SAA" and partners[0] in ([0, 0.0], [1, 0.0]) and partners[1:] == [[2, 1.0], [3, 1.0]]
    assert sorted(pair["result"]["outcome"][:2]) == ["N", "S"]


def test_tables_left_unpaired_and_tables_without_cells_are_drawn_unmapped():
    from convertables.model import Region

    a = "<table><tr><td>alpha</td><td>1</td></tr></table>"
    b = "<table><tr><td>beta</td></tr><tr><td>2</td></tr></table>"
    detail = _detail(_document(a, b), _document(a))
    kept, alone = detail["pairs"]
    assert _cells(kept["gt"]) == ("AA", [[0, 1.0], [1, 1.0]])
    assert alone["result"] is None and _cells(alone["gt"]) == ("NN", [[-1, 0.0], [-1, 0.0]])
    from convertables.scoring import ScoreSettings
    from convertables.scoring.teds import TedsMetric

    detail = TedsMetric().explain(_document(b), None, ScoreSettings("teds"))  # no result, no record
    assert [pair["result"] for pair in detail["pairs"]] == [None]
    assert _cells(detail["pairs"][0]["gt"]) == ("NN", [[-1, 0.0], [-1, 0.0]])
    empty = Document("d", [Table(0, [Region(0, cells=[])])])
    detail = _detail(empty, _document(a))
    pair = detail["pairs"][0]
    assert _cells(pair["gt"]) == ("", []) and _cells(pair["result"]) == ("NN", [[-1, 0.0], [-1, 0.0]])


def test_a_cell_kept_as_the_empty_cell_of_an_uncovered_slot_has_no_partner_drawn():
    # The ground truth (no HTML) leaves the slot at row 1, column 1 out; its tree has an
    # empty td there, which the result's empty cell is kept as.
    gt = Document("d", [Table(0, [Region(0, cells=[Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, "b"),
                                                  Cell(1, 0, 1, 0, "c")])])])
    result = _document("<table><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td></td></tr></tbody></table>")
    detail = _detail(gt, result)
    pair = detail["pairs"][0]
    assert pair["scores"]["teds"] == 1.0
    assert _cells(pair["gt"]) == ("AAA", [[0, 1.0], [1, 1.0], [2, 1.0]])
    assert _cells(pair["result"]) == ("AAAA", [[0, 1.0], [1, 1.0], [2, 1.0], [-1, 1.0]])
    assert any("no partner drawn" in note for note in detail["notes"])


def test_header_cells_text_counts_only_when_compared():
    gt = "<table><tr><th>Name</th><td>x</td></tr></table>"
    result = "<table><tr><th>Nom</th><td>x</td></tr></table>"
    pair = _detail(_document(gt), _document(result))["pairs"][0]
    assert _cells(pair["gt"]) == ("AA", [[0, 1.0], [1, 1.0]])
    # Compared: "Name" against "Nom" is 2 edits of 4 characters.
    detail = _detail(_document(gt), _document(result), th_text="compare")
    assert _cells(detail["pairs"][0]["gt"]) == ("SA", [[0, 0.5], [1, 1.0]])
    assert not any("<th>" in note for note in detail["notes"])
    # A <th> against a <td> of the same text: the tags differ, a rename of 1.
    pair = _detail(_document(gt), _document(gt.replace("th>", "td>")))["pairs"][0]
    assert _cells(pair["gt"]) == ("SA", [[0, 0.0], [1, 1.0]])


def test_tables_too_large_to_map_are_drawn_without_outcomes(monkeypatch):
    from convertables.scoring import teds as teds_module

    small = "<table><tr><td>a</td></tr></table>"  # table, tr, td: 9 pairs of nodes
    bigger = "<table><tr><td>a</td><td>b</td></tr></table>"  # 4 nodes: 12 pairs
    monkeypatch.setattr(teds_module, "EXPLAIN_MAX_PAIRS", 9)
    detail = _detail(_document(small, bigger), _document(small, bigger))
    drawn, too_large = detail["pairs"]
    assert _cells(drawn["gt"]) == ("A", [[0, 1.0]])
    assert "outcome" not in too_large["gt"] and "partners" not in too_large["result"]
    assert detail["notes"][-1] == "tables drawn without their cells' mapping (more than 9 pairs of tree nodes): " \
                                  "1 \u2194 1"


def test_the_html_report_of_teds_embeds_each_cells_partner(tmp_path):
    gt, result = tmp_path / "t.html", tmp_path / "r.html"
    gt.write_text("<table><tr><td>abc</td><td>x</td></tr><tr><td>lost</td><td>row</td></tr></table>")
    result.write_text("<table><tr><td>abd</td><td>x</td></tr></table>")
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "teds",
                                   "--html", str(tmp_path / "report.html")])
    assert out.exit_code == 0, out.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="detail-0">(.*?)</script>', page)
    detail = json.loads(found.group(1))
    assert detail["kind"] == "cells"
    pair = detail["pairs"][0]
    assert _cells(pair["gt"]) == ("SANN", [[0, round(1 - 1 / 3, 4)], [1, 1.0], [-1, 0.0], [-1, 0.0]])
    assert _cells(pair["result"]) == ("SA", [[0, 0.6667], [1, 1.0]])


@pytest.mark.slow
def test_on_generated_tables_the_mapping_costs_teds_distance_and_partners_name_each_other():
    from convertables.scoring.teds import PreparedTree, mapped_cells, rename_costs

    expected = REFERENCE["generated"]
    for (gt_html, result_html), want in list(zip(pairs(expected["count"], expected["seed"]), expected["teds"]))[:40]:
        g, r = _table(gt_html), _table(result_html)
        gt_tree, result_tree = table_tree(g), table_tree(r)
        t1, t2 = PreparedTree(result_tree).shape, PreparedTree(gt_tree).shape
        costs = rename_costs(result_tree, gt_tree, False)
        kept = mapping(t1, t2, costs)
        assert_edit_mapping(t1, t2, kept)
        assert 1 - mapping_cost(t1, t2, costs, kept) / max(gt_tree.elements, result_tree.elements) == \
            pytest.approx(want, abs=1e-9)  # the reference's TEDS
        ((gt_outcome, gt_partners), (result_outcome, result_partners)), undrawn = mapped_cells(
            gt_tree, result_tree, g.cells(), r.cells())
        assert not undrawn and len(gt_outcome) == len(g.cells()) and len(result_outcome) == len(r.cells())
        for k, ((m, similarity),) in enumerate(gt_partners):
            assert (m < 0) == (gt_outcome[k] == "N") and (similarity == 1.0) == (gt_outcome[k] == "A")
            if m >= 0:
                assert result_partners[m] == [[k, similarity]]
        assert sum(o != "N" for o in gt_outcome) == sum(o != "N" for o in result_outcome)
