"""``score --profile unstructured``: Unstructured's table evaluation's own figures
(``TableStructureMetricsCalculator``: table-level, row and column index and
content accuracies, detection, the composite), through the real command, and
the parts it is made of (the ``unstructured-eval`` reading, the
``table-accuracy`` metric).

The official figures (tests/data/unstructured_official.json) are what
unstructured 0.27.35's evaluation gave, run unmodified by
tests/make_unstructured_fixture.py, on the hand-made documents of
tests/unstructured_cases.py and on the opendataloader-bench pages of the corpus.
"""

from __future__ import annotations

import difflib
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats.unstructured_eval import html_cells, read
from convertables.model import Cell, Region, Table
from convertables.scoring.table_accuracy import FIGURES, closest, corpus_figures, document_figures
from unstructured_cases import page_tables, prediction_elements, write_hand_cases

OFFICIAL = json.loads((Path(__file__).resolve().parents[1] / "data" / "unstructured_official.json").read_text())
ENGINES = ("docling", "marker", "markitdown", "mineru", "opendataloader", "opendataloader-hybrid", "pymupdf4llm")


def _run(*arguments: str) -> dict:
    out = CliRunner().invoke(app, ["score", *arguments, "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def _assert_official(report: dict, official: dict) -> None:
    documents = {d["document"]: d for d in report["documents"]}
    assert documents.keys() == official["documents"].keys()
    for name, wanted in official["documents"].items():
        record = documents[name]
        assert record["counted"], record
        for key, value in wanted.items():
            if value is None:
                assert record[key] is None, (name, key)
            else:
                assert record[key] == pytest.approx(value, abs=1e-9), (name, key)
    for key in FIGURES:
        ours, theirs = report["total"]["figures"][key], official["aggregate"][key]
        assert report["total"][key] == ours["average"]
        for part in ("average", "sample_sd", "population_sd", "count"):
            assert (ours[part] is None) == (theirs[part] is None), (key, part)
            if theirs[part] is not None:
                assert ours[part] == pytest.approx(theirs[part], abs=1e-9), (key, part)


def test_unstructured_profile_gives_the_evaluations_figures_on_hand_made_documents(tmp_path):
    write_hand_cases(tmp_path)
    report = _run("--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "pred"), "--profile", "unstructured")
    assert report["metric"] == "table-accuracy"
    assert report["settings"]["gt_format"] == report["settings"]["result_format"] == "unstructured-eval"
    assert len(OFFICIAL["hand"]["documents"]) == 30
    _assert_official(report, OFFICIAL["hand"])
    documents = {d["document"]: d for d in report["documents"]}
    # Spot checks, read off the evaluation's own TSV: a column swapped moves two of three
    # columns' cells; a table written <table border="1"> is not found.
    assert documents["swapped_columns"]["element_col_level_index_acc"] == 0.33
    assert documents["table_with_attributes"]["total_predicted_tables"] == 0
    assert documents["no_tables"]["composite_structure_acc"] is None
    assert documents["no_tables"]["table_level_acc"] == 1.0


@pytest.mark.parametrize("engine", ENGINES)
def test_unstructured_profile_on_the_opendataloader_pages(engine, corpus, tmp_path):
    pages = corpus("markdown-pages", "opendataloader-bench")
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    # The ground truth in the evaluation's format: its converter places an HTML
    # table's cells as its reading of predictions does.
    for page in sorted((pages / "gt").glob("*.md")):
        tables = [{"type": "Table", "text": [{"id": str(k), "x": x, "y": y, "w": w, "h": h, "content": text}
                                             for k, (y, x, w, h, text) in enumerate(html_cells(source))]}
                  for source in page_tables(page)]
        (gt / f"{page.stem}.pdf.json").write_text(json.dumps(tables))
    for page in sorted((pages / "pred" / engine).glob("*.md")):
        (pred / f"{page.stem}.pdf.json").write_text(json.dumps(prediction_elements(page_tables(page))))
    report = _run("--gt", str(gt), "--result", str(pred), "--profile", "unstructured")
    official = OFFICIAL["opendataloader-bench"][engine]
    assert len(official["documents"]) == 12
    _assert_official(report, official)


def test_where_the_evaluation_fails_the_document_is_scored_with_a_warning(tmp_path):
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    cells = [{"x": 0, "y": 0, "w": 1, "h": 1, "content": "Year"}, {"x": 1, "y": 0, "w": 1, "h": 1, "content": 2020}]
    (gt / "a.json").write_text(json.dumps([{"type": "Table", "text": cells}]))
    (pred / "a.json").write_text(json.dumps([{"type": "Table", "element_id": "e", "metadata": {
        "text_as_html": "<table><tr><td>Year</td><td>2020</td></tr></table>"}}]))
    (gt / "b.json").write_text(json.dumps([{"type": "Table", "text": cells[:1]}]))
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(pred), "--profile", "unstructured",
                                   "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    documents = {d["document"]: d for d in report["documents"]}
    assert documents["a"]["counted"] and documents["a"]["composite_structure_acc"] == 1.0
    assert any("unstructured-eval-fails" in w and "not text: 2020" in w for w in documents["a"]["warnings"])
    # A ground truth without a prediction is left out, as the evaluation walks the predictions.
    assert not documents["b"].get("counted") and "left out" in documents["b"]["skipped"]


# -- the unstructured-eval reading ---------------------------------------------------------------

def test_cells_are_placed_as_the_evaluation_places_them():
    # D (colspan 2) is first moved off A's rowspan, then off the slot its own span covered.
    cells = html_cells('<table><tr><td rowspan="2">A</td><td>B</td><td>C</td></tr><tr><td colspan="2">D</td></tr>'
                       '</table>')
    assert [(y, x, text) for y, x, _, _, text in cells] == [(0, 0, "A"), (0, 1, "B"), (0, 2, "C"), (1, 2, "D")]
    # Text as written: <br> nothing, whitespace alone one line break, unknown entities kept.
    cells = html_cells("<table><tr><td>a<br>b</td><td>\n  </td><td>&foo; &amp; x <!-- c --></td></tr></table>")
    assert [text for *_, text in cells] == ["ab", "\n", "&foo & x "]
    # Unclosed cells nest: the first holds the second's text too.
    assert [text for *_, text in html_cells("<table><tr><td>a<td>b</tr></table>")] == ["ab", "b"]
    assert html_cells('<table><tr><td colspan="2x">a</td></tr></table>') is None


def test_reading_finds_tables_as_the_evaluation_does():
    elements = [
        {"type": "Table", "text": [{"x": 1, "y": 0, "content": "b"}, {"x": 0, "y": 0, "content": "a"}]},
        {"type": "Table", "element_id": "1", "metadata": {"text_as_html": "<table><tr><td>x</td></tr></table>"}},
        {"type": "Table", "element_id": "2", "metadata": {"text_as_html": '<table border="1"><tr><td>y</td></tr></table>'}},
        {"type": "Table", "element_id": "3", "metadata": {"table_as_cells": [{"x": 0, "y": 0, "content": "z"}]}},
        {"type": "Table", "element_id": "4", "metadata": {"text_as_html": "<table></table>"}},
        {"type": "NarrativeText", "text": "t"},
    ]
    doc = read(json.dumps(elements).encode(), Diagnostics())
    assert [[(c.start_row, c.start_col, c.content) for c in t.cells()] for t in doc.tables] == [
        [(0, 0, "a"), (0, 1, "b")], [(0, 0, "x")]]


# -- the table-accuracy metric -------------------------------------------------------------------

def _table(k: int, rows: list[list[str]]) -> Table:
    return Table(k, [Region(0, cells=[Cell(y, x, y, x, text) for y, row in enumerate(rows) for x, text in
                                       enumerate(row)])])


def test_closest_is_difflibs_get_close_matches():
    rng = random.Random(7)
    words = ["".join(rng.choice("abcde ") for _ in range(rng.randint(0, 12))) for _ in range(300)]
    for k, word in enumerate(words[:150]):
        candidates = words[150 + k % 100: 150 + k % 100 + 40]
        for cutoff in (0.1, 0.5, 0.8):
            found = difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)
            assert closest(word, candidates, cutoff) == (found[0] if found else None), (word, cutoff)


def test_document_figures_computed_by_hand():
    gt = [_table(0, [["a", "b"], ["c", "d"]])]
    figures, entries = document_figures(gt, [_table(0, [["a", "b"], ["d", "c"]])])
    # c and d found a column off: 2 of 4 cells in their column, all 4 in their row; the
    # same tokens by column and by row: content 1.
    assert figures["element_col_level_index_acc"] == 0.5 and figures["element_row_level_index_acc"] == 1.0
    assert figures["element_col_level_content_acc"] == figures["element_row_level_content_acc"] == 1.0
    assert figures["composite_structure_acc"] == pytest.approx((0.5 + 1 + 1) / 3)
    # "a b d c" against "a b c d": difflib's matching blocks "a b " and one more character: 2 x 5 / 14.
    assert figures["table_level_acc"] == pytest.approx(10 / 14)
    assert entries == [{"gt_table": 0, "result_table": 0, "table_level_acc": pytest.approx(10 / 14),
                        "col_index_acc": 0.5, "row_index_acc": 1.0, "content_acc": 1.0}]
    # A second, unrelated result table: paired with none, 0 on all; precision 1/2.
    figures, _ = document_figures(gt, [_table(0, [["a", "b"], ["c", "d"]]), _table(1, [["zz"]])])
    assert figures["table_detection_precision"] == 0.5 and figures["table_detection_recall"] == 1.0
    assert figures["element_row_level_index_acc"] == 0.5 and figures["table_level_acc"] == 0.5


def test_corpus_figures_weigh_documents_by_their_ground_truth_tables():
    base = dict.fromkeys(FIGURES, 0.0)
    records = [
        {**base, "total_tables": 2, "total_predicted_tables": 2, "table_level_acc": 0.9, "composite_structure_acc": 0.6},
        {**base, "total_tables": 0, "total_predicted_tables": 1, "table_level_acc": 0.0},  # false positives only
        {**base, "total_tables": 0, "total_predicted_tables": 0, "table_level_acc": 1.0,
         "composite_structure_acc": None},  # no table: not counted
    ]
    figures = corpus_figures(records)
    assert figures["table_level_acc"]["average"] == round((0.9 * 2 + 0.0 * 1) / 3, 3)
    assert figures["composite_structure_acc"]["average"] == 0.6  # weights 2 and 0
    assert figures["total_tables"]["average"] == 1.0 and figures["total_tables"]["count"] == 2


def test_matched_characters_of_one_pair_are_difflibs():
    from convertables.scoring.matching_blocks import matched_characters_of

    rng = random.Random(11)
    for _ in range(600):
        alphabet = rng.choice(["ab", "abc ", "abcdefghij 0123", "xy z\u00e9\U0001F600", "aaaab"])
        a = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 7, 60, 199, 200, 230, 500])))
        b = list(a[:rng.choice([0, 5, 200, 260, 500])])
        for _ in range(rng.randint(0, 12)):
            if b:
                b[rng.randrange(len(b))] = rng.choice(alphabet)
        b = "".join(b) if rng.random() < 0.7 else "".join(rng.choice(alphabet) for _ in range(len(b) + 3))
        # (texts of 200 characters or more: difflib's autojunk takes popular characters of b out)
        wanted = sum(block.size for block in difflib.SequenceMatcher(None, a, b).get_matching_blocks())
        assert matched_characters_of(a, b) == wanted, (a, b)
