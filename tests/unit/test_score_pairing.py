"""Pairing a page's tables (--pairing), what total holds (--aggregate) and the
tables' detection figures, for the per-table similarity metrics."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from convertables.cli import app


def _table(text: str) -> str:
    return f"<table><tr><td>{text}</td></tr></table>"


def _score(gt, result, *options: str) -> dict:
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--format", "json",
                                   *options])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


# A one-cell table is two elements (the row and the cell): TEDS = 1 - (edits / 4) / 2
# for two four-letter texts. abcd~abce: 0.875; abcd~wxyz: 0.5; abce~abce: 1;
# abce~wxyz: 0.5. Greedily the first table takes abce (0.875) and leaves the second
# wxyz (0.5): 1.375 in all; the Hungarian pairing gives abcd wxyz (0.5) and abce
# itself (1.0): 1.5.
@pytest.fixture
def crossed(tmp_path):
    gt, result = tmp_path / "gt", tmp_path / "result"
    gt.mkdir()
    result.mkdir()
    (gt / "page.html").write_text(_table("abcd") + _table("abce"))
    (result / "page.html").write_text(_table("abce") + _table("wxyz"))
    return gt, result


def test_greedy_pairing_takes_each_ground_truth_tables_best_in_order(crossed):
    report = _score(*crossed, "--metric", "teds")
    tables = report["documents"][0]["tables"]
    assert [(t["gt_table"], t["result_table"], t["teds"]) for t in tables] == [(0, 0, 0.875), (1, 1, 0.5)]
    assert report["settings"]["pairing"] == "greedy"


def test_hungarian_pairing_maximises_the_summed_score(crossed):
    report = _score(*crossed, "--metric", "teds", "--pairing", "hungarian")
    tables = report["documents"][0]["tables"]
    assert [(t["gt_table"], t["result_table"], t["teds"]) for t in tables] == [(0, 1, 0.5), (1, 0, 1.0)]
    assert report["total"]["teds"] == 0.75
    assert "Hungarian" in report["aggregation"]


def test_hungarian_pairing_of_grits(crossed):
    # GriTS_Con of one-cell tables is the texts' LCS similarity, 2 x LCS / (4 + 4):
    # abcd~abce 0.75, abcd~wxyz 0, abce~abce 1, abce~wxyz 0.
    greedy = _score(*crossed, "--metric", "grits")["documents"][0]["tables"]
    assert [(t["result_table"], t["grits_con"]) for t in greedy] == [(0, 0.75), (1, 0.0)]
    optimal = _score(*crossed, "--metric", "grits", "--pairing", "hungarian")["documents"][0]["tables"]
    assert [(t["result_table"], t["grits_con"]) for t in optimal] == [(1, 0.0), (0, 1.0)]


def test_hungarian_pairing_leaves_extra_tables_unpaired_at_zero(tmp_path):
    gt, result = tmp_path / "gt", tmp_path / "result"
    gt.mkdir()
    result.mkdir()
    (gt / "page.html").write_text(_table("abce"))
    (result / "page.html").write_text(_table("wxyz") + _table("abce") + _table("abcd"))
    report = _score(gt, result, "--metric", "teds", "--pairing", "hungarian")
    document = report["documents"][0]
    assert [(t["gt_table"], t["result_table"], t["teds"]) for t in document["tables"]] == [
        (0, 1, 1.0), (None, 0, 0.0), (None, 2, 0.0)]
    assert document["detection"] == {"gt": 1, "detected": 3, "correct": 1, "precision": pytest.approx(1 / 3),
                                     "recall": 1.0, "f1": 0.5}


def test_aggregate_over_tables_or_over_pages(tmp_path):
    # Page a: one table, identical (1.0). Page b: its table identical (1.0) and an
    # extra result table (0): the page's mean 0.5. Over tables: 2/3; over pages: 0.75.
    gt, result = tmp_path / "gt", tmp_path / "result"
    gt.mkdir()
    result.mkdir()
    (gt / "a.html").write_text(_table("abcd"))
    (result / "a.html").write_text(_table("abcd"))
    (gt / "b.html").write_text(_table("abcd"))
    (result / "b.html").write_text(_table("abcd") + _table("wxyz"))
    by_table = _score(gt, result, "--metric", "teds")
    assert by_table["total"]["teds"] == pytest.approx(2 / 3)
    assert by_table["total"]["aggregate"] == "table"
    by_page = _score(gt, result, "--metric", "teds", "--aggregate", "page")
    assert by_page["total"]["teds"] == 0.75
    assert by_page["total"]["aggregate"] == "page"
    assert by_page["document_mean"]["teds"] == 0.75
    assert by_page["total"]["detection"] == {"gt": 2, "detected": 3, "correct": 2,
                                             "precision": pytest.approx(2 / 3), "recall": 1.0, "f1": pytest.approx(0.8)}


def test_pairing_is_refused_for_metrics_that_do_not_take_it(crossed):
    out = CliRunner().invoke(app, ["score", "--gt", str(crossed[0]), "--result", str(crossed[1]),
                                   "--metric", "structure", "--pairing", "hungarian"])
    assert out.exit_code == 2
    assert "--pairing applies to" in out.output


def test_grits_pooled_over_a_pages_tables_and_over_the_pages(tmp_path):
    # GriTS_Con of one-cell tables: 2 x LCS / (4 + 4) of their texts.
    # Page a: abcd and wxyz against abcd alone: abcd paired (matched 1), wxyz left (1
    # true position): pooled P = 1/1, R = 1/2, GriTS 2/3 (the mean over tables: 1/2).
    # Page b: abcd against abce: matched 0.75 of 1 position a side: 0.75.
    # Over the pages pooled: matched 1.75, 3 true and 2 predicted positions:
    # P = 0.875, R = 7/12, GriTS = 2PR / (P + R) = 0.7; their mean (2/3 + 0.75) / 2.
    gt, result = tmp_path / "gt", tmp_path / "result"
    gt.mkdir()
    result.mkdir()
    (gt / "a.html").write_text(_table("wxyz") + _table("abcd"))
    (result / "a.html").write_text(_table("abcd"))
    (gt / "b.html").write_text(_table("abcd"))
    (result / "b.html").write_text(_table("abce"))
    report = _score(gt, result, "--metric", "grits", "--pairing", "hungarian", "--aggregate", "pooled")
    pages = {d["document"]: d for d in report["documents"]}
    assert [(t["gt_table"], t["result_table"]) for t in pages["a"]["tables"]] == [(0, None), (1, 0)]
    assert pages["a"]["grits_con"] == pytest.approx(2 / 3)
    assert (pages["a"]["grits_precision_con"], pages["a"]["grits_recall_con"]) == (1.0, 0.5)
    assert pages["a"]["pooled"]["con"] == [1.0, 2, 1]
    assert pages["b"]["grits_con"] == 0.75
    assert report["total"]["grits_con"] == pytest.approx(0.7)
    assert report["total"]["grits_recall_con"] == pytest.approx(7 / 12)
    assert report["document_mean"]["grits_con"] == pytest.approx((2 / 3 + 0.75) / 2)


def test_pooled_is_grits_only(crossed):
    out = CliRunner().invoke(app, ["score", "--gt", str(crossed[0]), "--result", str(crossed[1]),
                                   "--metric", "teds", "--aggregate", "pooled"])
    assert out.exit_code == 2
    assert "--aggregate pooled applies to grits only" in out.output


def test_joined_pairing_is_teds_only(crossed):
    out = CliRunner().invoke(app, ["score", "--gt", str(crossed[0]), "--result", str(crossed[1]),
                                   "--metric", "grits", "--pairing", "joined"])
    assert out.exit_code == 2
    assert "--pairing joined applies to teds only" in out.output


def test_text_similarity_by_the_longest_common_subsequence(tmp_path):
    # babbaa against aaaab: difflib's matching blocks find 2 characters ("b" then
    # "a", or the like), the longest common subsequence 3 ("aaa"): GriTS_Con of the
    # one-cell tables 2 x 2 / 11 as table-transformer computes it, 2 x 3 / 11 as
    # grits-metric does.
    gt, result = tmp_path / "gt.html", tmp_path / "result.html"
    gt.write_text(_table("babbaa"))
    result.write_text(_table("aaaab"))
    difflib_ = _score(gt, result, "--metric", "grits")["total"]["grits_con"]
    lcs = _score(gt, result, "--metric", "grits", "--text-similarity", "lcs")["total"]["grits_con"]
    assert (difflib_, lcs) == (pytest.approx(4 / 11), pytest.approx(6 / 11))
