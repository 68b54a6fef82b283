"""The grits-metric profile where two pairings of a page's tables tie but for rounding: grits-metric
weighs the pairs as 32-bit floats (scipy's linear_sum_assignment on its float32 matched similarities),
and so does the profile, through the real command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from convertables.cli import app


# A randomly generated page: GriTS_Con's matched similarities of its tables' pairs sum to 25.333... under
# two pairings, 2 + 14.333... + 9 and 0 + 16.333... + 9, which differ in float64 (the first is greater)
# and in float32 the other way.
GT_TABLES = [
    "<table><tr><td colspan=\"2\">ab</td></tr><tr><th><b>B</b>c</th><th colspan=\"-1\">1.5</th></tr><tr><td>1.5</td><td><b>B</b>c</td></tr></table>",
    "<table><tr><td>a</td></tr><tr><td> x </td><td colspan=\"3\"> x </td><td>ab</td><td>x&amp;y</td><td>p<br>q</td></tr><tr><td rowspan=\"3\"> x </td></tr><tr><th>b</th><td colspan=\"0\" rowspan=\"0\">1.5</td><td rowspan=\"2\"> x </td></tr><tr><td> x </td><td>Total</td><td colspan=\"3\">ab</td></tr></table>",
    "<table><tr><td>p<br>q</td></tr><tr><td>Total</td><td colspan=\"3\">a</td><td></td></tr><tr><td>p<br>q</td><td>b</td></tr><tr><td>Total</td><td colspan=\"3\">naïve</td><td>a</td></tr></table>",
]
RESULT_TABLES = [
    "<table><tr><th>b</th><td>a</td><td>ab</td><td></td></tr><tr><td>x&amp;y</td><td rowspan=\"0\">x&amp;y</td><td colspan=\"0\" rowspan=\"2\">b</td><td colspan=\"3\">naïve</td><td>x&amp;y</td></tr><tr><td colspan=\"3\" rowspan=\"2\"></td><th><b>B</b>c</th><td>p<br>q</td></tr><tr></tr><tr><td>Total</td></tr><tr></tr></table>",
    "<table><tr><td><b>B</b>c</td><td colspan=\"3\"> x </td><td>p<br>q</td><th colspan=\"-1\">naïve</th><td><b>B</b>c</td></tr><tr><td colspan=\"2\">a</td><td>x&amp;y</td><td> x </td></tr><tr><th></th><td> x </td></tr><tr><td>ab</td></tr><tr><th colspan=\"2\">b</th><td>ab</td><td>x&amp;y</td><td>p<br>q</td></tr><tr><td>b</td><th>naïve</th><td>p<br>q</td><td>ab</td><th colspan=\"0\"><b>B</b>c</th></tr></table>",
    "<table><tr><td>b</td><th rowspan=\"2\">1.5</th><td>ab</td></tr><tr><td>ab</td><td>b</td><td>b</td></tr><tr><td colspan=\"2\">1.5</td><td>Total</td><td>Total</td><td>b</td></tr><tr><td rowspan=\"2\">ab</td><td rowspan=\"3\">Total</td></tr><tr><td rowspan=\"3\">p<br>q</td><td> x </td><td>1.5</td></tr><tr><td>p<br>q</td><td rowspan=\"9\">x&amp;y</td><td>1.5</td><td colspan=\"2\">x&amp;y</td></tr></table>",
]

# grits-metric 0.7.0 (GritsEvaluator().eval_htmls(GT_TABLES, RESULT_TABLES), compute_grits())
OFFICIAL = {"grits_con": 0.21468927092471365, "grits_precision_con": 0.1447619083949498,
            "grits_recall_con": 0.41530055687075756, "grits_top": 0.4201976970090705,
            "grits_precision_top": 0.28333330426897324, "grits_recall_top": 0.8128414466732838}


def test_a_page_whose_pairings_tie_but_for_rounding_is_paired_as_grits_metric_pairs_it(tmp_path):
    for side, tables in (("gt", GT_TABLES), ("pred", RESULT_TABLES)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "page.html").write_text("\n".join(tables) + "\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["score", "--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "pred"),
                                   "--profile", "grits-metric", "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    page, = json.loads(out.stdout)["documents"]
    for name, wanted in OFFICIAL.items():
        assert page[name] == pytest.approx(wanted, abs=1e-12), name
    # (paired by the float64 sums: 25.333332061767578, GriTS_Con 0.2146892548)
    assert page["pooled"]["con"][0] == 25.33333396911621
