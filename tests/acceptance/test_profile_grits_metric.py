"""The grits-metric profile (score --profile grits-metric): grits-metric's own
figures (GritsEvaluator.eval_htmls: per page, pooled over the pages, the mean
over pages, the count of predicted tables it cannot read) from the same tables,
through the real command; and the reading it rests on (--cell-placement)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.html_tables import read_tables

ENGINES = ("docling", "marker", "markitdown", "mineru", "opendataloader", "opendataloader-hybrid", "pymupdf4llm")
FIGURES = ("grits_con", "grits_top", "grits_precision_con", "grits_recall_con", "grits_precision_top",
           "grits_recall_top")


def _run(*arguments: str) -> dict:
    out = CliRunner().invoke(app, ["score", *arguments, "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# -- hand-made pages: each a list of ground-truth tables and a list of predicted ones ---------------

def _table(rows: list[list[str]]) -> str:
    return "<table>" + "".join("<tr>" + "".join(row) + "</tr>" for row in rows) + "</table>"


def _plain(rows: list[list[str]]) -> str:
    return _table([[f"<td>{text}</td>" for text in row] for row in rows])


A = _plain([["Name", "Age", "City"], ["Ann", "31", "Oslo"], ["Bob", "27", "Rome"]])
B = _plain([["Item", "Price"], ["Tea", "2.50"], ["Milk", "1.20"], ["Jam", "3.10"]])
C = _plain([["x", "y"], ["1", "2"]])
PAGES = {
    "identical": ([A], [A]),
    "text_typos": ([A], [_plain([["Nme", "Age", "Cty"], ["Ann", "13", "Oslo"], ["Bobby", "27", "Roma"]])]),
    "missing_row": ([A], [_plain([["Name", "Age", "City"], ["Bob", "27", "Rome"]])]),
    "extra_column": ([A], [_plain([["Name", "Age", "City", "Zip"], ["Ann", "31", "Oslo", "0150"],
                                   ["Bob", "27", "Rome", "00100"]])]),
    "colspan_header": ([_table([['<th colspan="2">Both</th>', "<th>C</th>"], ["<td>1</td>", "<td>2</td>", "<td>3</td>"]])],
                       [_table([["<th>Both</th>", "<th></th>", "<th>C</th>"], ["<td>1</td>", "<td>2</td>", "<td>3</td>"]])]),
    "rowspan": ([_table([['<td rowspan="2">R</td>', "<td>a</td>"], ["<td>b</td>"], ["<td>c</td>", "<td>d</td>"]])],
                [_table([["<td>R</td>", "<td>a</td>"], ["<td></td>", "<td>b</td>"], ["<td>c</td>", "<td>d</td>"]])]),
    "overlap": ([_table([['<td rowspan="2">AMS</td>', '<td colspan="2">Growth</td>', '<td rowspan="2">Total</td>'],
                         ["<td>2000</td>", "<td>2004</td>"], ["<td>K</td>", "<td>1</td>", "<td>2</td>", "<td>3</td>"]])],
                [_table([['<td rowspan="2">AMS</td>', '<td colspan="2">Growth</td>', '<td rowspan="2">Total</td>'],
                         ['<td colspan="3">2000 2004</td>'], ["<td>K</td>", "<td>1</td>", "<td>2</td>", "<td>3</td>"]])]),
    "overlap_rowspan": ([C], [_table([['<td rowspan="3">x</td>', "<td>y</td>"], ['<td colspan="2">1</td>', "<td>2</td>"]])]),
    "holes": ([A], [_table([["<td>Name</td>", "<td>Age</td>", "<td>City</td>"], ["<td>Ann</td>"],
                            ["<td>Bob</td>", "<td>27</td>"]])]),
    "ragged_gt": ([_table([["<td>a</td>", "<td>b</td>", "<td>c</td>"], ["<td>d</td>"]])], [C]),
    "two_tables_swapped": ([A, B], [B, A]),
    "two_tables_one_found": ([A, B], [B]),
    "one_table_two_found": ([A], [C, A]),
    "no_prediction": ([A, C], []),
    "three_vs_two": ([A, B, C], [_plain([["Item", "Price"], ["Tea", "2.5"]]), _plain([["Name", "Age"], ["Ann", "31"]])]),
    "inline_tags": ([_table([["<td><b>Bold</b> text</td>", "<td>a<br>b</td>"],
                             ["<td><i>x</i>y<sup>2</sup></td>", "<td>&amp; &lt;</td>"]])],
                    [_table([["<td>Bold text</td>", "<td>a b</td>"], ["<td>xy2</td>", "<td>&amp; <</td>"]])]),
    "whitespace": ([_table([["<td>  spaced   out </td>", "<td>\nline\n</td>"], ["<td>a\tb</td>", "<td> </td>"]])],
                   [_table([["<td>spaced out</td>", "<td>line</td>"], ["<td>a b</td>", "<td></td>"]])]),
    "th_and_thead": ([_table([["<th>H1</th>", "<th>H2</th>"], ["<td>1</td>", "<td>2</td>"]])],
                     ["<table><thead><tr><td>H1</td><td>H2</td></tr></thead><tbody><tr><td>1</td><td>2</td></tr>"
                      "</tbody></table>"]),
    "empty_cells": ([_plain([["", "a"], ["b", ""]])], [_plain([["", ""], ["", ""]])]),
    "empty_table_pred": ([A], ["<table></table>"]),
    "unicode": ([_plain([["Größe", "naïve", "日本"], ["€5", "—", "x²"]])],
                [_plain([["Grosse", "naive", "日本語"], ["5€", "-", "x2"]])]),
    "big_spans": ([_table([['<td colspan="4">Title</td>'], ["<td>a</td>", "<td>b</td>", "<td>c</td>", "<td>d</td>"]])],
                  [_table([['<td colspan="2">Title</td>', '<td colspan="2"></td>'],
                           ["<td>a</td>", "<td>b</td>", "<td>c</td>", "<td>d</td>"]])]),
    "single_cell": ([_plain([["only"]])], [_plain([["only"], ["more"]])]),
    "many_rows": ([_plain([[str(i), str(i * i), f"r{i}"] for i in range(12)])],
                  [_plain([[str(i), str(i * i)] for i in range(12) if i != 5])]),
    "thead_rowspan": (['<table><thead><tr><th rowspan="2">H</th><th>a</th></tr></thead><tbody><tr><td>b</td></tr>'
                       "<tr><td>c</td><td>d</td></tr></tbody></table>"],
                      [_table([['<td rowspan="2">H</td>', "<td>a</td>"], ["<td>b</td>"], ["<td>c</td>", "<td>d</td>"]])]),
    "tfoot_first": (["<table><tfoot><tr><td>total</td><td>9</td></tr></tfoot><tbody><tr><td>a</td><td>1</td></tr>"
                     "<tr><td>b</td><td>8</td></tr></tbody></table>"], [_plain([["a", "1"], ["b", "8"], ["total", "9"]])]),
    "rowspan_zero": ([_table([['<td rowspan="0">R</td>', "<td>a</td>"], ["<td>b</td>"], ["<td>c</td>"]])],
                     [_table([['<td rowspan="3">R</td>', "<td>a</td>"], ["<td>b</td>"], ["<td>c</td>"]])]),
    "cells_outside_rows": (["<table><td>a</td><td>b</td><tr><td>c</td><td>d</td></tr></table>"],
                           [_plain([["a", "b"], ["c", "d"]])]),
    "no_tables_either": ([], []),
    "extra_on_empty_page": ([], [C]),
    # GriTS_Con pairs the prediction with the first table (its texts), GriTS_Top with the second (its shape)
    "kinds_paired_apart": ([_plain([["alpha", "beta"], ["gamma", "delta"]]),
                            _plain([["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"]])],
                           [_plain([["alpha", "beta", "q"], ["gamma", "delta", "r"], ["s", "t", "u"]])]),
    # an empty first row is a row of the grid (holes)
    "leading_empty_rows": (["<table><tr></tr><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"],
                           [_plain([["a", "b"], ["c", "d"]])]),
}

# grits-metric 0.7.0, GritsEvaluator().eval_htmls(gt tables, predicted tables) of each page alone, compute_grits():
# grits_con, grits_top, grits_con_precision, grits_con_recall, grits_top_precision, grits_top_recall
OFFICIAL = {
    'identical': (1.0,) * 6,
    'text_typos': (
        0.8571428722805448, 1.0, 0.8571428722805448,
        0.8571428722805448, 1.0, 1.0),
    'missing_row': (
        0.8, 0.8, 1.0,
        0.6666666666666666, 1.0, 0.6666666666666666),
    'extra_column': (
        0.8571428571428571, 0.8571428571428571, 0.75,
        1.0, 0.75, 1.0),
    'colspan_header': (0.8333333333333334,) * 6,
    'rowspan': (0.8333333333333334,) * 6,
    'overlap': (
        0.8525640964508057, 0.8263889153798422, 0.8525640964508057,
        0.8525640964508057, 0.8263889153798422, 0.8263889153798422),
    'overlap_rowspan': (
        0.25, 0.5, 0.16666666666666666,
        0.5, 0.3333333333333333, 1.0),
    'holes': (
        0.6666666666666666, 1.0, 0.6666666666666666,
        0.6666666666666666, 1.0, 1.0),
    'ragged_gt': (
        0.0, 0.8, 0.0,
        0.0, 1.0, 0.6666666666666666),
    'two_tables_swapped': (1.0,) * 6,
    'two_tables_one_found': (
        0.6399999999999999, 0.6399999999999999, 1.0,
        0.47058823529411764, 1.0, 0.47058823529411764),
    'one_table_two_found': (
        0.8181818181818181, 0.8181818181818181, 0.6923076923076923,
        1.0, 0.6923076923076923, 1.0),
    'no_prediction': (
        0.0, 0.0, 1.0,
        0.0, 1.0, 0.0),
    'three_vs_two': (
        0.541871925880169, 0.5517241379310345, 0.9821428656578064,
        0.3741496631077358, 1.0, 0.38095238095238093),
    'inline_tags': (
        0.9243420958518982, 1.0, 0.9243420958518982,
        0.9243420958518982, 1.0, 1.0),
    'whitespace': (
        0.5666666626930237, 1.0, 0.5666666626930237,
        0.5666666626930237, 1.0, 1.0),
    'th_and_thead': (1.0,) * 6,
    'empty_cells': (
        0.5, 1.0, 0.5,
        0.5, 1.0, 1.0),
    'empty_table_pred': (
        0.0, 0.0, 1.0,
        0.0, 1.0, 0.0),
    'unicode': (
        0.5242424408594767, 1.0, 0.5242424408594767,
        0.5242424408594767, 1.0, 1.0),
    'big_spans': (0.75,) * 6,
    'single_cell': (
        0.6666666666666666, 0.6666666666666666, 0.5,
        1.0, 0.5, 1.0),
    'many_rows': (
        0.7586206896551725, 0.7586206896551725, 1.0,
        0.6111111111111112, 1.0, 0.6111111111111112),
    'thead_rowspan': (1.0,) * 6,
    'tfoot_first': (
        0.6666666666666666, 1.0, 0.6666666666666666,
        0.6666666666666666, 1.0, 1.0),
    'rowspan_zero': (
        0.3333333333333333, 0.6666666666666666, 0.3333333333333333,
        0.3333333333333333, 0.6666666666666666, 0.6666666666666666),
    'cells_outside_rows': (1.0,) * 6,
    'no_tables_either': (1.0,) * 6,
    'extra_on_empty_page': (
        0.0, 0.0, 0.0,
        1.0, 0.0, 1.0),
    'kinds_paired_apart': (
        0.3636363636363637, 0.8181818181818181, 0.4444444444444444,
        0.3076923076923077, 1.0, 0.6923076923076923),
    'leading_empty_rows': (
        0.8, 0.8, 1.0,
        0.6666666666666666, 1.0, 0.6666666666666666),
}
# the same evaluator over all the pages: compute_grits(), compute_mean_grits_per_sample(), compute_counts()
OFFICIAL_TOTAL = {
    'grits_con': 0.6837492459256884,
    'grits_top': 0.7883970502396705,
    'grits_con_precision': 0.7585343196988106,
    'grits_con_recall': 0.6223871341118445,
    'mean_grits_con_per_sample': 0.650137869457254,
    'mean_grits_top_per_sample': 0.7787575073897669,
    'num_true_tables': 36,
    'num_pred_tables': 33,
    'num_true_cells': 273,
    'num_pred_cells': 224,
    'num_invalid_pred_tables': 0,
}


def _write_pages(root: Path) -> tuple[Path, Path]:
    """Each page as an HTML file a side: its tables one after another (a page without any, a paragraph)."""
    gt, pred = root / "gt", root / "pred"
    for folder, side in ((gt, 0), (pred, 1)):
        folder.mkdir()
        for name, tables in PAGES.items():
            text = "\n".join(tables[side]) if tables[side] else "<p>no table here</p>"
            (folder / f"{name}.html").write_text(text + "\n", encoding="utf-8")
    return gt, pred


def test_the_profile_gives_grits_metrics_figures_on_hand_made_pages(tmp_path):
    gt, pred = _write_pages(tmp_path)
    report = _run("--gt", str(gt), "--result", str(pred), "--profile", "grits-metric")
    settings = report["settings"]
    assert (settings["pairing"], settings["aggregate"], settings["text_similarity"], settings["cell_placement"],
            settings["grid_origin"]) == ("hungarian", "pooled", "lcs", "document-order", "zero")
    assert settings["true_iou"] is True
    pages = {d["document"]: d for d in report["documents"]}
    assert pages.keys() == OFFICIAL.keys()
    for name, official in OFFICIAL.items():
        assert [pages[name][figure] for figure in FIGURES] == pytest.approx(official, abs=1e-9), name
    total = report["total"]
    assert (total["grits_con"], total["grits_top"], total["grits_precision_con"], total["grits_recall_con"]) == (
        pytest.approx((OFFICIAL_TOTAL["grits_con"], OFFICIAL_TOTAL["grits_top"], OFFICIAL_TOTAL["grits_con_precision"],
                       OFFICIAL_TOTAL["grits_con_recall"]), abs=1e-9))
    assert report["page_mean"]["documents"] == len(PAGES)
    assert report["page_mean"]["grits_con"] == pytest.approx(OFFICIAL_TOTAL["mean_grits_con_per_sample"], abs=1e-9)
    assert report["page_mean"]["grits_top"] == pytest.approx(OFFICIAL_TOTAL["mean_grits_top_per_sample"], abs=1e-9)
    assert total["pooled"]["con"][1:] == [OFFICIAL_TOTAL["num_true_cells"], OFFICIAL_TOTAL["num_pred_cells"]]
    assert (total["detection"]["gt"], total["detection"]["detected"]) == (
        OFFICIAL_TOTAL["num_true_tables"], OFFICIAL_TOTAL["num_pred_tables"])
    assert total["invalid_result_tables"] == OFFICIAL_TOTAL["num_invalid_pred_tables"] == 0


def test_the_whatwg_placement_gives_other_figures_where_row_groups_matter(tmp_path):
    gt, pred = _write_pages(tmp_path)
    report = _run("--gt", str(gt), "--result", str(pred), "--profile", "grits-metric", "--cell-placement", "whatwg")
    pages = {d["document"]: d for d in report["documents"]}
    for name in ("thead_rowspan", "tfoot_first", "rowspan_zero"):
        assert [pages[name][figure] for figure in FIGURES] != pytest.approx(OFFICIAL[name], abs=1e-3), name
    assert pages["overlap"]["grits_top"] == pytest.approx(OFFICIAL["overlap"][1], abs=1e-9)


def test_a_grid_from_the_first_cell_drops_the_empty_leading_row_grits_metric_counts(tmp_path):
    gt, pred = _write_pages(tmp_path)
    report = _run("--gt", str(gt), "--result", str(pred), "--profile", "grits-metric", "--grid-origin", "first-cell")
    page = next(d for d in report["documents"] if d["document"] == "leading_empty_rows")
    assert page["grits_con"] == page["grits_top"] == 1.0  # the same 2 x 2 grid both sides
    assert OFFICIAL["leading_empty_rows"][:2] == pytest.approx((0.8, 0.8), abs=1e-9)  # 4 matched of 6 and 4


def test_a_predicted_table_that_cannot_be_read_counts_as_grits_metric_counts_it(tmp_path):
    # grits-metric 0.7.0: eval_htmls([A, C], [A, ""]): the empty string is an invalid predicted table, scored as an
    # empty one: grits_con = grits_top 0.8181818181818181, precision 1.0, recall 0.6923076923076923,
    # num_pred_tables 2, num_invalid_pred_tables 1
    (tmp_path / "gt").mkdir()
    (tmp_path / "pred").mkdir()
    (tmp_path / "gt" / "p1.html").write_text(A + "\n" + C + "\n", encoding="utf-8")
    blocks = [{"type": "text", "text": "hello", "page_idx": 0}, {"type": "table", "table_body": A, "page_idx": 0},
              {"type": "table", "table_body": "", "page_idx": 0}]
    (tmp_path / "pred" / "p1.json").write_text(json.dumps(blocks), encoding="utf-8")
    report = _run("--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "pred"), "--profile", "grits-metric",
                  "--result-format", "mineru")
    page = report["documents"][0]
    assert [page[f] for f in FIGURES] == pytest.approx(
        (0.8181818181818181, 0.8181818181818181, 1.0, 0.6923076923076923, 1.0, 0.6923076923076923), abs=1e-9)
    assert page["invalid_result_tables"] == 1 and page["detection"]["detected"] == 2
    assert report["total"]["invalid_result_tables"] == 1


# -- opendataloader-bench's pages -------------------------------------------------------------------

CORPUS_TOTALS = {  # grits-metric 0.7.0: compute_grits() and compute_mean_grits_per_sample() of each parser's 12 pages
    'docling': (0.5452863151213581, 0.9515608180839613, 0.5363744494540912, 0.9006135531135531),
    'marker': (0.5350504900904612, 0.9771784232365144, 0.5502512620099876, 0.9683473389355743),
    'markitdown': (0.0, 0.0, 0.0, 0.0),
    'mineru': (0.5225892457141126, 0.9514700700068702, 0.5224803866456691, 0.8899626084678194),
    'opendataloader': (0.313669285006502, 0.5731166912850812, 0.2934547883664948, 0.5096801346801347),
    'opendataloader-hybrid': (0.5358474947598149, 0.9779643231899265, 0.5458820783638346, 0.9631135531135531),
    'pymupdf4llm': (0.2539158929870928, 0.5468277945619335, 0.14594078532165755, 0.3301282051282051),
}
CORPUS_PAGES = {  # grits-metric 0.7.0: compute_grits() of one page: grits_con, grits_top
    'mineru/01030000000078': (0.5490449758676382, 0.8487179682804988),
    'docling/01030000000045': (0.5294995131316008, 1.0),
    'marker/01030000000078': (0.5589925493512835, 0.9142857142857143),
    'pymupdf4llm/01030000000045': (0.1924039257897271, 0.5),
    'markitdown/01030000000078': (0.0, 0.0),
}


def _official_on_corpus(pages: Path, engine: str) -> dict | None:
    """grits-metric's figures of each page, where the package is installed (None where not)."""
    if importlib.util.find_spec("grits") is None:
        return None
    from grits import GritsEvaluator

    from convertables.formats.opendataloader_markdown import decode, pipe_tables_as_html, table_sources

    def tables(path: Path) -> list[str]:
        return table_sources(pipe_tables_as_html(decode(path.read_bytes())))

    figures = {}
    for page in sorted((pages / "pred" / engine).glob("*.md")):
        evaluator = GritsEvaluator()
        evaluator.eval_htmls(tables(pages / "gt" / page.name), tables(page))
        found = evaluator.compute_grits()
        figures[page.stem] = (found["grits_con"], found["grits_top"])
    return figures


@pytest.mark.parametrize("engine", ENGINES)
def test_the_profile_gives_grits_metrics_figures_on_opendataloader_bench(engine, corpus):
    pages = corpus("markdown-pages", "opendataloader-bench")
    report = _run("--gt", str(pages / "gt"), "--result", str(pages / "pred" / engine), "--profile", "grits-metric",
                  "--gt-format", "opendataloader-markdown", "--result-format", "opendataloader-markdown")
    figures = {d["document"]: (d["grits_con"], d["grits_top"]) for d in report["documents"]}
    assert len(figures) == 12
    official = _official_on_corpus(pages, engine)
    if official is not None:
        assert official.keys() == figures.keys()
        for page, wanted in official.items():
            assert figures[page] == pytest.approx(wanted, abs=1e-9), page
    for key, wanted in CORPUS_PAGES.items():
        if key.startswith(engine + "/"):
            assert figures[key.split("/")[1]] == pytest.approx(wanted, abs=1e-9), key
    con, top, mean_con, mean_top = CORPUS_TOTALS[engine]
    assert (report["total"]["grits_con"], report["total"]["grits_top"]) == pytest.approx((con, top), abs=1e-9)
    assert (report["page_mean"]["grits_con"], report["page_mean"]["grits_top"]) == pytest.approx(
        (mean_con, mean_top), abs=1e-9)


# -- the reading it rests on -----------------------------------------------------------------------

def _slots(html: str, placement: str) -> list[tuple[int, int, int, int, str]]:
    table, = read_tables(html, Diagnostics(), cell_placement=placement)
    return [(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in table.cells()]


def test_document_order_numbers_rows_as_written():
    head_span = ('<table><thead><tr><th rowspan="2">H</th><th>a</th></tr></thead>'
                 "<tbody><tr><td>b</td></tr></tbody></table>")
    # the HTML standard: the span ends with its row group, the body's row comes after it
    assert _slots(head_span, "whatwg") == [(0, 0, 1, 0, "H"), (0, 1, 0, 1, "a"), (2, 0, 2, 0, "b")]
    # as written: the span runs on into the body's first row, whose cell takes the next free slot
    assert _slots(head_span, "document-order") == [(0, 0, 1, 0, "H"), (0, 1, 0, 1, "a"), (1, 1, 1, 1, "b")]
    foot_first = "<table><tfoot><tr><td>f</td></tr></tfoot><tbody><tr><td>b</td></tr></tbody></table>"
    assert _slots(foot_first, "whatwg") == [(0, 0, 0, 0, "b"), (1, 0, 1, 0, "f")]
    assert _slots(foot_first, "document-order") == [(0, 0, 0, 0, "f"), (1, 0, 1, 0, "b")]
    growing = '<table><tr><td rowspan="0">R</td><td>a</td></tr><tr><td>b</td></tr></table>'
    assert _slots(growing, "whatwg") == [(0, 0, 1, 0, "R"), (0, 1, 0, 1, "a"), (1, 1, 1, 1, "b")]
    assert _slots(growing, "document-order") == [(0, 0, 0, 0, "R"), (0, 1, 0, 1, "a"), (1, 0, 1, 0, "b")]


def test_cell_placement_is_refused_outside_its_choices(tmp_path):
    page = tmp_path / "p.html"
    page.write_text(A, encoding="utf-8")
    out = CliRunner().invoke(app, ["score", "--gt", str(page), "--result", str(page), "--profile", "grits-metric",
                                   "--cell-placement", "first"])
    assert out.exit_code == 2
