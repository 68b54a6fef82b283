"""GriTS (convertables/scoring/grits.py): hand-computed cases, and the official code's numbers.

The official numbers (tests/grits_official.json) were computed by
``microsoft/table-transformer`` ``src/grits.py`` (with numpy 1.24.2 and PyMuPDF
1.21.1, as its environment pins them) on the inputs kept beside them; the file
is written by tests/make_grits_fixture.py. The official code is not run here.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from convertables import score
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats import html as html_format
from convertables.model import BBox, Cell, Frame, Region, Table
from convertables.scoring.grits import cell_text, grits_scores
from convertables.scoring.grits_alignment import (
    GridTooLarge, enclosing_iou, lcs_similarity, relative_spans, table_grid, true_iou,
)
from convertables.scoring import grits_alignment
from convertables.scoring.matching_blocks import matched_characters

FIXTURE = Path(__file__).resolve().parents[1] / "grits_official.json"
KINDS = ("top", "con", "loc")


def table(*cells, regions=None) -> Table:
    """A table from (first row, first column, last row, last column, text[, box]) tuples."""
    made = [Cell(c[0], c[1], c[2], c[3], c[4], bbox=BBox(*c[5], frame=Frame.IMAGE) if len(c) > 5 else None)
            for c in cells]
    return Table(0, [Region(0, cells=made)] if regions is None else regions)


def grid_table(texts: list[list[str]], boxes: bool = False) -> Table:
    return table(*[(r, c, r, c, text, (c * 10.0, r * 10.0, c * 10 + 9.0, r * 10 + 9.0)) if boxes
                   else (r, c, r, c, text)
                   for r, row in enumerate(texts) for c, text in enumerate(row)])


def read_html(text: str) -> Table:
    return html_format.read(text.encode("utf-8"), Diagnostics("test.html")).document.tables[0]


def matched(scores: dict, kind: str) -> tuple[float, float, float]:
    return scores[f"grits_{kind}"], scores[f"grits_precision_{kind}"], scores[f"grits_recall_{kind}"]


# -- hand-computed ------------------------------------------------------------------------------

def test_a_table_against_itself_scores_1_everywhere():
    gt = grid_table([["Name", "Age"], ["Ann", "31"], ["Bob", "45"]], boxes=True)
    scores = grits_scores(gt, gt)
    assert set(scores) == {f"grits_{p}{k}" for k in KINDS for p in ("", "precision_", "recall_")}
    assert all(value == 1.0 for value in scores.values())


def test_one_missing_row():
    # 6 true positions, 4 predicted, the 4 matched exactly: P = 1, R = 4/6, GriTS = 2PR/(P+R) = 0.8
    gt = grid_table([["a", "b"], ["c", "d"], ["e", "f"]], boxes=True)
    result = grid_table([["a", "b"], ["e", "f"]])
    result.regions[0].cells = [Cell(c.start_row, c.start_col, c.end_row, c.end_col, c.content,
                                    bbox=BBox(c.start_col * 10.0, (c.start_row * 2) * 10.0,
                                              c.start_col * 10 + 9.0, (c.start_row * 2) * 10 + 9.0, Frame.IMAGE))
                               for c in result.regions[0].cells]
    scores = grits_scores(gt, result)
    for kind in KINDS:
        assert matched(scores, kind) == pytest.approx((0.8, 1.0, 4 / 6), abs=1e-15)


def test_a_spanning_cell_against_two_cells():
    # The header spans 2 columns: its positions' relative spans are [0,0,2,1] and [-1,0,1,1];
    # each scores 1/2 against a 1x1 cell's [0,0,1,1] (overlap 1 over the enclosing 2).
    gt = table((0, 0, 0, 1, "Total"), (1, 0, 1, 0, "1"), (1, 1, 1, 1, "2"))
    result = table((0, 0, 0, 0, "Total"), (0, 1, 0, 1, ""), (1, 0, 1, 0, "1"), (1, 1, 1, 1, "2"))
    scores = grits_scores(gt, result)
    assert matched(scores, "top") == (0.75, 0.75, 0.75)  # (0.5 + 0.5 + 1 + 1) / 4
    # the header's text at both of its positions: "Total" against "Total" and against ""
    assert matched(scores, "con") == (0.75, 0.75, 0.75)
    assert "grits_loc" not in scores  # no boxes


def test_relative_spans_of_a_spanning_cell():
    spans, index = relative_spans(table_grid(table((0, 0, 1, 1, "x"), (0, 2, 1, 2, "y"))))
    at = [[spans[i].tolist() for i in row] for row in index]
    assert at == [[[0, 0, 2, 2], [-1, 0, 1, 2], [0, 0, 1, 2]],
                  [[0, -1, 2, 1], [-1, -1, 1, 1], [0, -1, 1, 1]]]


def test_empty_tables():
    empty = table()
    full = grid_table([["a"]])
    both = grits_scores(empty, empty)
    assert both == {f"grits_{p}{k}": 1.0 for k in ("top", "con") for p in ("", "precision_", "recall_")}
    # nothing predicted: precision 1 by convention, recall 0; nothing true: recall 1, precision 0
    assert matched(grits_scores(full, empty), "top") == (0.0, 1.0, 0.0)
    assert matched(grits_scores(empty, full), "con") == (0.0, 0.0, 1.0)


def test_the_reference_iou_divides_by_the_enclosing_rectangle():
    gt = table((0, 0, 0, 0, "x", (0, 0, 10, 10)))
    result = table((0, 0, 0, 0, "x", (5, 5, 15, 15)))
    # overlap 25; enclosing rectangle 15 x 15 = 225; union 175
    assert grits_scores(gt, result)["grits_loc"] == pytest.approx(1 / 9, abs=1e-15)
    assert grits_scores(gt, result, true_iou=True)["grits_loc"] == pytest.approx(1 / 7, abs=1e-15)


def test_true_iou_applies_to_relative_spans_too():
    # A 1x2 header against a 2x1 first column: at (0, 0) the spans [0,0,2,1] and [0,0,1,2] overlap
    # by 1, their enclosing rectangle is 4 and their union 3; the other positions' spans nest (1/2,
    # 1/2, 1). The alignment keeps rows and columns in place.
    gt = table((0, 0, 0, 1, "h"), (1, 0, 1, 0, "a"), (1, 1, 1, 1, "b"))
    result = table((0, 0, 1, 0, "h"), (0, 1, 0, 1, "a"), (1, 1, 1, 1, "b"))
    assert grits_scores(gt, result)["grits_top"] == (0.25 + 0.5 + 0.5 + 1) / 4
    assert grits_scores(gt, result, true_iou=True)["grits_top"] == pytest.approx((1 / 3 + 0.5 + 0.5 + 1) / 4,
                                                                                 abs=1e-15)


def test_the_reference_iou_rounds_coordinates_to_single_precision():
    a = np.array([[0.1, 0.2, 0.7, 0.9]])
    b = np.array([[0.15, 0.25, 0.65, 0.8]])
    in_doubles = (0.5 * 0.55) / (0.6 * 0.7)
    f32 = [float(np.float32(v)) for v in (0.1, 0.2, 0.7, 0.9, 0.15, 0.25, 0.65, 0.8)]
    in_singles = ((f32[6] - f32[4]) * (f32[7] - f32[5])) / ((f32[2] - f32[0]) * (f32[3] - f32[1]))
    assert in_singles != in_doubles
    assert enclosing_iou(a, b)[0, 0] == in_singles
    assert true_iou(a, b)[0, 0] == pytest.approx(0.5 * 0.55 / (0.42 + 0.275 - 0.275))


def test_empty_and_disjoint_boxes():
    boxes = np.array([[0, 0, 10, 10], [20, 20, 30, 30], [5, 5, 5, 8]], dtype=float)
    iou = enclosing_iou(boxes, boxes)
    assert iou[0, 1] == 0.0 and iou[1, 0] == 0.0
    assert iou[2, 2] == 0.0 and iou[0, 2] == 0.0  # a box without area overlaps nothing
    assert true_iou(boxes, boxes)[2, 2] == 0.0


def test_text_similarity_is_difflibs_not_the_longest_common_subsequence():
    # difflib takes "5" first, then nothing is left on either side: 1 character, where the LCS (".1") has 2
    assert lcs_similarity(["255.1"], ["71.715"])[0, 0] == 2 * 1 / 11
    assert lcs_similarity(["", "ab"], ["", "ab", "ba"]).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]


ALPHABETS = ("ab", "abc", "0123456789.,", "xy z\x00", "é€😀a")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_matched_characters_are_difflibs_matching_blocks(data):
    alphabet = data.draw(st.sampled_from(ALPHABETS))
    longest = data.draw(st.sampled_from((6, 20, 90, 260)))
    texts = st.lists(st.text(alphabet=alphabet, max_size=longest), min_size=1, max_size=8)
    a, b = data.draw(texts), data.draw(texts)
    expected = [[sum(m.size for m in difflib.SequenceMatcher(None, x, y).get_matching_blocks()) for y in b]
                for x in a]
    assert matched_characters(a, b).tolist() == expected


def test_autojunk_of_long_texts_is_difflibs():
    # in a text of 200 characters or more, one found more than len // 100 + 1 times cannot start a block
    a = ["x" * 5 + "ab", "a b c d e f g"]
    b = ["ab" + "x" * 250, " ".join("abcdefg") * 40, "y" * 199 + "a"]
    expected = [[sum(m.size for m in difflib.SequenceMatcher(None, x, y).get_matching_blocks()) for y in b]
                for x in a]
    assert matched_characters(a, b).tolist() == expected
    assert expected[0][0] == 2  # "xxxxx" is popular in b: only "ab" and what extends it match


# -- where the reference fails, convertables scores ------------------------------------------------

def test_a_hole_is_an_empty_cell():
    # The reference's grid holds a 0 where no cell is, and fails on it.
    gt = grid_table([["a", "b"], ["c", "d"]])
    result = table((0, 0, 0, 0, "a"), (0, 1, 0, 1, "b"), (1, 0, 1, 0, "c"))
    scores = grits_scores(gt, result)
    assert matched(scores, "top") == (1.0, 1.0, 1.0)  # the hole is an empty 1x1 cell
    assert matched(scores, "con") == (0.75, 0.75, 0.75)  # "" against "d"


def test_html_the_reference_cannot_parse_is_scored():
    # unclosed <br>, &nbsp; and unequal rows: not XML, or a ragged grid, for the reference
    gt = read_html("<table><tr><td>a<br>b</td><td>x&nbsp;y</td></tr><tr><td>c</td></tr></table>")
    result = read_html("<table><tr><td>a<br/>b</td><td>x&#160;y</td></tr><tr><td>c</td><td></td></tr></table>")
    assert [cell_text(c) for c in gt.cells()] == ["a b", "x\xa0y", "c"]
    scores = grits_scores(gt, result)
    assert matched(scores, "top") == (1.0, 1.0, 1.0)
    assert matched(scores, "con") == (1.0, 1.0, 1.0)  # the hole against an empty cell


def test_regions_are_placed_by_their_increments_and_the_grid_starts_at_the_first_row():
    split = table(regions=[Region(0, cells=[Cell(2, 0, 2, 0, "a"), Cell(2, 1, 2, 1, "b")]),
                           Region(1, row_increment=1, cells=[Cell(2, 0, 2, 1, "c")])])
    whole = table((0, 0, 0, 0, "a"), (0, 1, 0, 1, "b"), (1, 0, 1, 1, "c"))
    assert table_grid(split).cell_of.tolist() == [[0, 1], [2, 2]]
    assert all(value == 1.0 for value in grits_scores(whole, split).values())


def test_text_from_markup_is_the_references_itertext():
    cell = read_html("<table><tr><td> <b>x</b>2<sup>a</sup> </td></tr></table>").cells()[0]
    assert cell.content == "x2a"
    assert cell_text(cell) == "  x 2 a  "
    assert cell_text(Cell(0, 0, 0, 0, None)) == ""


def test_too_large_grids_are_refused(monkeypatch):
    monkeypatch.setattr(grits_alignment, "MAX_POSITION_PAIRS", 15)
    with pytest.raises(GridTooLarge):
        grits_scores(grid_table([["a", "b"], ["c", "d"]]), grid_table([["a", "b"], ["c", "d"]]))
    # a cell claiming the most rows and columns HTML allows is refused before its grid is made
    huge = read_html('<table><tr><td rowspan="65534" colspan="1000">x</td></tr></table>')
    with pytest.raises(GridTooLarge, match="65534 x 1000"):
        grits_scores(huge, grid_table([["x"]]))


def test_where_cells_overlap_the_later_one_holds_the_position():
    grid = table_grid(table((0, 0, 0, 0, "a"), (0, 0, 1, 1, "b"), (1, 1, 1, 1, "c"), (0, 1, 0, 1, "d")))
    assert grid.cell_of.tolist() == [[1, 3], [1, 2]]


def test_a_document_with_a_table_too_large_is_reported(tmp_path):
    gt, result = tmp_path / "d.html", tmp_path / "d-result.html"
    gt.write_text('<table><tr><td rowspan="65534" colspan="1000">x</td></tr></table>')
    result.write_text("<table><tr><td>x</td></tr></table>")
    report = score(gt, result, metric="grits")
    assert [d.code for d in report.diagnostics] == ["table-too-large"]
    assert report.total["tables"] == 0


# -- the official code's numbers ----------------------------------------------------------------

def _fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _model(cells: list) -> Table:
    return table(*[tuple(c[:5]) + (tuple(c[5]),) for c in cells])


def test_generated_tables_score_as_the_official_code_scores_them():
    items = _fixture()["generated"]
    assert len(items) > 80
    worst = 0.0
    for item in items:
        ours = grits_scores(_model(item["true"]), _model(item["pred"]))
        official = item["official"]
        assert set(ours) == set(official)
        worst = max(worst, max(abs(ours[key] - official[key]) for key in official))
    assert worst <= 1e-9
    # the set is not trivial: imperfect scores, and each kind of mismatch
    assert sum(item["official"]["grits_con"] < 1 for item in items) > 50
    assert sum(item["official"]["grits_top"] < 1 for item in items) > 30


def test_large_grids_take_the_same_alignment_in_blocks(monkeypatch):
    # Beyond STEP_BUDGET values the rewards are gathered a column (row) at a time, true rows in
    # blocks, boxes' IoU in blocks of rows; the numbers are the same.
    monkeypatch.setattr(grits_alignment, "STEP_BUDGET", 40)
    items = _fixture()["generated"][:40]
    for item in items:
        ours = grits_scores(_model(item["true"]), _model(item["pred"]))
        assert ours == pytest.approx(item["official"], abs=1e-9)


@pytest.mark.parametrize("name", ["pubtabnet", "markup"])
def test_html_read_by_convertables_scores_as_the_official_code_scores_the_html(name):
    items = _fixture()[name]
    assert len(items) >= 20
    for item in items:
        official = item["official"]
        gt, result = read_html(item["true_html"]), read_html(item["pred_html"])
        ours = grits_scores(gt, result)
        for key in ("grits_top", "grits_precision_top", "grits_recall_top",
                    "grits_con", "grits_precision_con", "grits_recall_con"):
            assert ours[key] == pytest.approx(official[key], abs=1e-9), (item.get("name"), key)
        # the texts compared are the official code's (its ' '.join(itertext()))
        texts = {(c.start_row, c.start_col): cell_text(c) for c in gt.cells()}
        assert texts == {(rows[0], cols[0]): text for rows, cols, text in official["true_texts"]}


def test_pubtabnet_records_read_by_their_reader_score_as_their_html(corpus):
    # The same 20 tables read from PubTabNet's JSONL (the pubtabnet reader keeps the cells'
    # tokens): the same texts, and the official numbers against the changed copies.
    from convertables import read_documents

    items = {item["name"].rsplit(".", 1)[0]: item for item in _fixture()["pubtabnet"]}
    seen = 0
    for name, doc in read_documents(corpus("pubtabnet", "PubTabNet_Examples.jsonl")):
        gt, item = doc.tables[0], items[name]
        assert {(c.start_row, c.start_col): cell_text(c) for c in gt.cells()} == {
            (rows[0], cols[0]): text for rows, cols, text in item["official"]["true_texts"]}
        ours = grits_scores(gt, read_html(item["pred_html"]))
        for key in ("grits_top", "grits_con", "grits_precision_con", "grits_recall_con"):
            assert ours[key] == pytest.approx(item["official"][key], abs=1e-9), (name, key)
        seen += 1
    assert seen == 20


# -- the metric: documents, pairing, the command -------------------------------------------------

def test_score_command(tmp_path):
    gt, result = tmp_path / "t.html", tmp_path / "r.html"
    gt.write_text('<table><tr><td colspan="2">Total</td></tr><tr><td>1</td><td>2</td></tr></table>')
    result.write_text("<table><tr><td>Total</td><td></td></tr><tr><td>1</td><td>2</td></tr></table>")
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "grits",
                                   "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    # as test_a_spanning_cell_against_two_cells: 3 of 4 positions match on each side
    assert report["total"] == {"documents": 1, "tables": 1, "scored_tables": 1, "aggregate": "table", "grits_con": 0.75,
                               "grits_top": 0.75, "grits_loc": None, "acc_con": 0.0,
                               "detection": {"gt": 1, "detected": 1, "correct": 1, "precision": 1.0,
                                             "recall": 1.0, "f1": 1.0},
                               "gt_cells_without_box": 0, "result_cells_without_box": 0}
    assert report["document_mean"]["grits_top"] == 0.75
    assert report["documents"][0]["tables"][0]["grits_precision_con"] == 0.75
    assert report["settings"]["true_iou"] is False
    text = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "grits",
                                    "--true-iou"])
    assert text.exit_code == 0, text.output
    assert "0.7500" in text.output and "over the union" in text.output


def test_tables_are_paired_by_grits_con_and_unpaired_ones_score_0(tmp_path):
    gt, result = tmp_path / "d.html", tmp_path / "d-result.html"
    gt.write_text("<table><tr><td>alpha</td><td>beta</td></tr></table>"
                  "<table><tr><td>gamma</td></tr><tr><td>delta</td></tr></table>")
    result.write_text("<table><tr><td>gamma</td></tr><tr><td>delta</td></tr></table>"
                      "<table><tr><td>zzz</td></tr></table>"
                      "<table><tr><td>alpha</td><td>beta</td></tr></table>")
    report = score(gt, result, metric="grits")
    record = report.documents[0]
    assert [(t["gt_table"], t["result_table"], t["grits_con"]) for t in record["tables"]] == [
        (0, 2, 1.0), (1, 0, 1.0), (None, 1, 0.0)]
    assert [t["acc_con"] for t in record["tables"]] == [1.0, 1.0, 0.0]
    assert record["tables"][2]["grits_loc"] is None  # no boxes: no GriTS_Loc, even for the unpaired table
    assert report.total["tables"] == 3 and report.total["grits_con"] == pytest.approx(2 / 3)
    assert report.total["grits_loc"] is None


def test_boxes_on_one_side_only_locate_nothing(tmp_path):
    gt = tmp_path / "eu-001-str.xml"
    gt.write_text('<?xml version="1.0" encoding="UTF-8"?><document filename="eu-001.pdf"><table id="1">'
                  '<region id="1" page="1">'
                  '<cell id="1" start-row="0" start-col="0"><bounding-box x1="10" y1="700" x2="50" y2="720"/>'
                  '<content>A</content></cell>'
                  '<cell id="2" start-row="0" start-col="1"><bounding-box x1="60" y1="700" x2="90" y2="720"/>'
                  '<content>B</content></cell></region></table></document>')
    result = tmp_path / "eu-001.html"
    result.write_text("<table><tr><td>A</td><td>B</td></tr></table>")
    table = score(gt, result, metric="grits").documents[0]["tables"][0]
    assert (table["grits_con"], table["grits_top"]) == (1.0, 1.0)
    assert (table["grits_loc"], table["grits_precision_loc"], table["grits_recall_loc"]) == (0.0, 0.0, 0.0)


# -- the benchmark's tables ------------------------------------------------------------------------

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "grits_vs_official.py"


@pytest.mark.slow
def test_the_benchmark_runs_and_its_tables_cover_every_position_once():
    import importlib.util
    import subprocess
    import sys

    spec = importlib.util.spec_from_file_location("grits_vs_official", BENCHMARK)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    # the official code fails on a position no cell covers: the generated tables have none, nor overlaps
    for gt, result in bench.pairs(5, 30, (1, 12), (1, 8)):
        for cells in (gt, result):
            covered = [(r, c) for r0, c0, r1, c1, *_ in cells for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
            rows, cols = max(p[0] for p in covered) + 1, max(p[1] for p in covered) + 1
            assert sorted(covered) == [(r, c) for r in range(rows) for c in range(cols)]
    run = subprocess.run([sys.executable, str(BENCHMARK), "--no-official", "--tables", "3", "--no-scaling"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "3 generated tables of 10-40 rows x 5-10 columns" in run.stdout
    assert run.stdout.splitlines()[-1].split()[0] == "convertables"


def test_the_html_report_detail_aligns_cells_as_grits_con_aligns_rows_and_columns():
    from convertables import score
    from convertables.diagnostics import Diagnostics
    from convertables.formats.html import read
    from convertables.model import Document
    from convertables.scoring.grits import aligned_cells

    gt = read(b"<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr>"
              b"<tr><td colspan=2>e</td></tr></table>", Diagnostics("g")).document.tables[0]
    result = read(b"<table><tr><td>a</td><td>b</td></tr><tr><td>e</td><td>x</td></tr></table>",
                  Diagnostics("r")).document.tables[0]
    # Rows 0 and 2 of the ground truth align with the result's rows 0 and 1; c and d's row with none.
    # The spanning e falls on the result's e and x (e first); x's text shares nothing with e's.
    (gt_outcome, gt_partners), (result_outcome, result_partners) = aligned_cells(gt, result)
    assert gt_outcome == "AANNS" and [p[0] for p in gt_partners] == [[0, 1.0], [1, 1.0], [-1, 0.0], [-1, 0.0],
                                                                      [2, 1.0]]
    assert result_outcome == "AAAS" and [p[0] for p in result_partners] == [[0, 1.0], [1, 1.0], [4, 1.0],
                                                                            [4, 0.0]]
    report = score(Document("d", [gt]), Document("d", [result]), metric="grits", explain=True)
    detail = report.details.get(0)
    assert detail["kind"] == "cells" and detail["pairs"][0]["gt"]["outcome"] == "AANNS"


# -- boxes in several frames, and cells without a box -----------------------------------------------

def _grits_json(gt: Path, result: Path) -> tuple[int, dict, str]:
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "grits",
                                   "--format", "json"])
    return out.exit_code, json.loads(out.stdout), out.stderr


def test_textract_boxes_scored_against_pdf_points_without_a_page_size_are_an_error_not_a_zero(tmp_path, corpus):
    """Textract's boxes are fractions of the page; converted to ICDAR 2013 without
    the page's size they are written as they are, and cannot be compared with
    the fractions: GriTS_Loc is absent and the document has an error."""
    source = corpus("exports", "textract", "test_table_merged_text.json")
    (tmp_path / "gt").mkdir()
    gt = tmp_path / "gt" / "doc.json"
    gt.write_bytes(source.read_bytes())
    assert _grits_json(gt, gt)[1]["total"]["grits_loc"] == 1.0  # against itself: the same frame
    runner = CliRunner()
    written = tmp_path / "doc-str.xml"
    assert runner.invoke(app, ["convert", str(gt), "--to", "icdar", "-o", str(written)]).exit_code == 0
    code, report, stderr = _grits_json(gt, written)
    assert code == 1
    (record,) = report["documents"]
    assert record["grits_con"] == 1.0 and record["grits_loc"] is None and report["total"]["grits_loc"] is None
    assert {t["grits_loc"] for t in record["tables"]} == {None}
    assert "error frames-incomparable GriTS_Loc not given: the ground truth's boxes are in fractions of the page, " \
           "the result's in PDF points; 12 box(es) of the ground truth cannot be converted into PDF points without " \
           "the page's size in points, which neither file says: convert the ground truth with --page-width and " \
           "--page-height (or --pdf) (convertables convert)" in record["error"]
    # both sides in PDF points (the page's size given): GriTS_Loc of the table against itself
    converted = tmp_path / "gt-str.xml"
    for path in (converted, written):
        assert runner.invoke(app, ["convert", str(gt), "--to", "icdar", "-o", str(path), "--force",
                                   "--page-width", "612", "--page-height", "792"]).exit_code == 0
    code, report, _ = _grits_json(converted, written)
    assert code == 0 and report["total"]["grits_loc"] == 1.0 and report["errors"] == []


def test_fractions_of_the_page_are_compared_with_points_where_a_document_gives_the_page_size():
    from convertables.model import Document, Page

    def doc(frame: Frame, boxes, pages=()):
        cells = [Cell(0, k, 0, k, text, bbox=BBox(*box, frame)) for k, (text, box) in enumerate(zip("ab", boxes))]
        return Document(tables=[Table(0, [Region(0, 1, cells=cells)])], pages=list(pages))

    # a 200 x 100 point page: the fractions (0, 0, .5, .5) are (0, 50, 100, 100) in points
    fractions = doc(Frame.PAGE, [(0, 0, .5, .5), (.5, 0, 1, .5)])
    points = doc(Frame.PDF, [(0, 50, 100, 100), (100, 50, 200, 100)], [Page(1, 200.0, 100.0, Frame.PDF)])
    report = score(fractions, points, metric="grits")
    assert report.total["grits_loc"] == 1.0 and report.diagnostics == []
    report = score(fractions, doc(Frame.PDF, [(0, 50, 100, 100), (100, 50, 200, 100)]), metric="grits")
    assert report.total["grits_loc"] is None and report.total["grits_con"] == 1.0
    assert [d.code for d in report.diagnostics] == ["frames-incomparable"]


@pytest.mark.slow
def test_cells_without_a_box_follow_the_reference_and_are_counted(corpus):
    """PubTabNet gives no box to empty cells: by the reference's rule a position
    without a box matches nothing, even against itself, so GriTS_Loc is below 1;
    the report says how many cells had none."""
    examples = corpus("pubtabnet", "PubTabNet_Examples.jsonl")
    out = CliRunner().invoke(app, ["score", "--gt", str(examples), "--result", str(examples), "--metric", "grits"])
    assert out.exit_code == 0
    assert ("grits_loc: 150 ground-truth and 150 result cell(s) of tables with boxes have no box: their grid "
            "positions match nothing (the reference's rule: a missing box has IoU 0, even with another missing "
            "one)") in out.output
    code, report, _ = _grits_json(examples, examples)
    total = report["total"]
    assert code == 0 and round(total["grits_loc"], 4) == 0.9508 and total["grits_con"] == 1.0
    assert total["gt_cells_without_box"] == total["result_cells_without_box"] == 150
    full = [r for r in report["documents"] if r["gt_cells_without_box"] == 0]
    assert full and all(r["grits_loc"] == 1.0 for r in full)
