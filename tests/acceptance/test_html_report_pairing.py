"""The HTML report draws each document's pairing of tables (score --html): which result table went with
which ground-truth table, with its similarity, and what a missed or an extra table cost under the
pairing's rule, from what the records carry; through the real command."""

from __future__ import annotations

import html
import re
from pathlib import Path

from typer.testing import CliRunner

from convertables.cli import app

# One document: ground-truth tables on pages 1 and 2, result tables on pages 1 and 3. The first pair is
# the same table; the ground truth's page-2 table is missed, the result's page-3 table is extra.
GT = ('<table data-page="1"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>\n'
      '<table data-page="2"><tr><td>x</td><td>y</td></tr></table>\n')
RESULT = ('<table data-page="1"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>e</td></tr></table>\n'
          '<table data-page="3"><tr><td>q</td></tr></table>\n')


def _pairing_rows(tmp_path: Path, *options: str) -> tuple[str, list[tuple[str, ...]], str]:
    """The drawn pairing of the document: its rule, its rows (class, ground truth, result, figure, kind,
    cost) and its detection line."""
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    (gt / "page.html").write_text(GT, encoding="utf-8")
    (res / "page.html").write_text(RESULT, encoding="utf-8")
    out_file = tmp_path / "report.html"
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), *options, "--html", str(out_file)])
    assert out.exit_code == 0, out.output
    text = out_file.read_text(encoding="utf-8")
    block, = re.findall(r'<div class="pairing">(.*?)</div>', text)
    rule = html.unescape(re.search(r'<p class="pairing-rule"><strong>Tables paired:</strong> (.*?)</p>', block).group(1))
    rows = [tuple(html.unescape(v) for v in (kind, *cells)) for kind, *cells in re.findall(
        r'<tr class="(\w+)" data-gt="[^"]*" data-result="[^"]*"><td>([^<]*)</td><td>([^<]*)</td>'
        r'<td[^>]*>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>', block)]
    detection = html.unescape(re.search(r'<p class="detection">(.*?)</p>', block).group(1))
    return rule, rows, detection


def test_hungarian_pairing_draws_the_pair_the_missed_and_the_extra_table(tmp_path):
    rule, rows, detection = _pairing_rows(tmp_path, "--metric", "teds", "--pairing", "hungarian")
    assert "one to one, the greatest summed similarity (Hungarian)" in rule
    assert rows == [
        # one cell's one character differs: an edit of cost 1 in a tree of 6 nodes
        ("paired", "0", "0", "0.8333", "paired", "counted in the mean"),
        ("missed", "1", "none", "0.0000", "missed", "scores 0, counted in the mean"),
        ("extra", "none", "1", "0.0000", "extra", "scores 0, counted in the mean"),
    ]
    assert detection == "detection: gt 2, detected 2, correct 1, precision 0.5000, recall 0.5000"


def test_joined_pairing_draws_the_joined_page_the_missed_table_and_the_free_extra_one(tmp_path):
    rule, rows, detection = _pairing_rows(tmp_path, "--metric", "teds", "--pairing", "joined")
    assert rule.startswith("joined: the tables on each page made one tree a side")
    assert rows == [
        # the same edit in the page's joined tree of 7 nodes (a root above the table's)
        ("joined", "0", "0", "0.8571", "joined", "1 ground-truth and 1 result table(s) as one tree a side"),
        ("missed", "1", "none", "0.0000", "missed", "no result table on its page: scores 0, counted"),
        ("extra", "none", "1", "", "extra", "free: its page has no ground-truth table"),
    ]
    assert detection == "detection: gt 2, detected 2, correct 1, precision 0.5000, recall 0.5000"


def test_pooled_grits_draws_what_an_unpaired_table_adds_to_each_side(tmp_path):
    rule, rows, _ = _pairing_rows(tmp_path, "--metric", "grits", "--pairing", "hungarian", "--aggregate", "pooled")
    assert "an extra result table its positions to the predicted side (precision)" in rule
    assert [row[:3] + row[4:] for row in rows] == [
        ("paired", "0", "0", "paired", "its matched similarity over 4 true and 4 predicted positions, pooled"),
        ("missed", "1", "none", "missed", "its 2 positions count against recall"),
        ("extra", "none", "1", "extra", "its 1 positions count against precision"),
    ]
