"""TEDS: the tree edit distance (exact against a plain Zhang-Shasha), hand-computed
tables, and agreement with PubTabNet's reference on generated and real tables."""

from __future__ import annotations

import json
import random
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
from convertables.scoring.tree_edit import Tree, distance
from table_pairs import pairs, pubtabnet_pairs
from conftest import corpus_path

REFERENCE = json.loads((Path(__file__).parent / "data" / "teds_reference.json").read_text())


# -- the tree edit distance ---------------------------------------------------------------------

def plain_zhang_shasha(leftmost: list[int], other: list[int], rename: list[list[float]]) -> float:
    """The textbook algorithm, one cell at a time: what the fast one must equal."""
    def keyroots(lm):
        last = {}
        for i, l in enumerate(lm):
            last[l] = i
        return sorted(last.values())

    n1, n2 = len(leftmost), len(other)
    tree = [[0.0] * n2 for _ in range(n1)]
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
    return tree[n1 - 1][n2 - 1]


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


def test_tree_edit_distance_by_hand():
    # a(b, c) against a(c): delete b -> 1; against d(b, c): rename a -> 1; against a single node: 2 deletions.
    abc = Tree.from_parents([2, 2, -1])
    same = np.zeros((3, 3))
    assert distance(abc, abc, same) == 0
    assert distance(abc, Tree.from_parents([1, -1]), np.array([[1, 0], [0, 1], [1, 0]], float)) == 1
    assert distance(abc, Tree.from_parents([-1]), np.zeros((3, 1))) == 2


# -- TEDS by hand -------------------------------------------------------------------------------

def _table(html: str) -> Table:
    return read_html(html.encode(), Diagnostics("t.html")).tables[0]


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


def test_equal_to_the_reference_on_generated_tables():
    expected = REFERENCE["generated"]
    found = [_scores(gt, result) for gt, result in pairs(expected["count"], expected["seed"])]
    assert len(found) == len(expected["teds"])
    for (full, struct), want_full, want_struct in zip(found, expected["teds"], expected["teds_struct"]):
        assert abs(full - want_full) < 1e-9
        assert abs(struct - want_struct) < 1e-9
    assert min(expected["teds"]) < 0.5 < max(expected["teds"])  # the cases are not all alike


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
