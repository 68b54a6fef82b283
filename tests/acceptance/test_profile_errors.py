"""Errors and report lines of `score` (and `convert`) that name what went wrong
in one line, through the real command."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from convertables.cli import app
from tests.conftest import corpus_path

TABLE_TEST = {"pdf": "doc.pdf", "page": 1, "id": "doc_table00", "type": "table", "cell": "1", "left": "a"}


def _invoke(*arguments: str):
    return CliRunner().invoke(app, [*arguments])


def test_a_file_that_is_not_olmocr_tests_is_refused_in_one_line():
    gt = corpus_path("markdown-pages", "omnidocbench", "OmniDocBench_demo.json")
    result = corpus_path("markdown-pages", "olmocr-bench")
    out = _invoke("score", "--gt", str(gt), "--result", str(result), "--profile", "olmocr", "--jobs", "1")
    assert out.exit_code == 1
    errors = [line for line in out.output.splitlines() if line.startswith(f"{gt}:")]
    assert errors == [f"{gt}:1: error not-olmocr-tests the file is not olmOCR-bench's test file "
                      "(line 1 is not a JSON object)"]
    assert "json-syntax" not in out.output and "#line-" not in out.output


def test_convert_from_olmocr_tests_refuses_the_file_in_one_line(tmp_path):
    gt = corpus_path("markdown-pages", "omnidocbench", "OmniDocBench_demo.json")
    out = _invoke("convert", "--from", "olmocr-tests", str(gt), "--to", "html", "-o", str(tmp_path / "out"))
    assert out.exit_code == 1
    assert out.output.strip().splitlines()[0] == (f"{gt}:1: error not-olmocr-tests the file is not olmOCR-bench's "
                                                  "test file (line 1 is not a JSON object)")
    assert "json-syntax" not in out.output


def test_olmocr_tests_bad_lines_each_refused_up_to_twenty_then_the_file(tmp_path):
    lines = [json.dumps(TABLE_TEST)] + ["not json"] * 3
    few = tmp_path / "few.jsonl"
    few.write_text("\n".join(lines) + "\n")
    out = _invoke("convert", "--from", "olmocr-tests", str(few), "--to", "html", "-o", str(tmp_path / "few"))
    assert out.exit_code == 1
    assert [line for line in out.output.splitlines() if " error " in line] == [
        f"{few}:{n}:1: error json-syntax not valid JSON: Expecting value" for n in (2, 3, 4)]
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join([json.dumps(TABLE_TEST)] + ["not json"] * 25) + "\n")
    out = _invoke("convert", "--from", "olmocr-tests", str(many), "--to", "html", "-o", str(tmp_path / "many"))
    assert out.exit_code == 1
    errors = [line for line in out.output.splitlines() if " error " in line]
    assert errors == [f"{many}:2: error not-olmocr-tests the file is not olmOCR-bench's test file "
                      "(25 lines are not JSON objects, the first line 2)"]


def test_olmocr_tests_without_a_table_test_is_refused(tmp_path):
    other = tmp_path / "present.jsonl"
    other.write_text(json.dumps({**TABLE_TEST, "type": "present", "text": "x"}) + "\n")
    out = _invoke("convert", "--from", "olmocr-tests", str(other), "--to", "html", "-o", str(tmp_path / "o"))
    assert out.exit_code == 1
    assert [line for line in out.output.splitlines() if " error " in line] == [
        f"{other}: error not-olmocr-tests the file is not olmOCR-bench's test file (it holds no table test)"]


def test_no_ground_truth_found_names_the_format_looked_for(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    out = _invoke("score", "--gt", str(tmp_path), "--result", str(tmp_path), "--profile", "grits-metric")
    assert out.exit_code == 2
    assert out.output.strip() == (f"error: {tmp_path}: no ground-truth files found (read as html: .html, .htm, "
                                  ".xhtml; --profile grits-metric reads the ground truth as html; --gt-format "
                                  "names another)")
    out = _invoke("score", "--gt", str(tmp_path), "--result", str(tmp_path), "--metric", "teds", "--gt-format", "html")
    assert out.exit_code == 2
    assert out.output.strip() == (f"error: {tmp_path}: no ground-truth files found (read as html: .html, .htm, "
                                  ".xhtml; --gt-format names another)")


def test_no_result_found_names_the_format_looked_for(tmp_path):
    gt = corpus_path("markdown-pages", "opendataloader-bench", "gt")
    (tmp_path / "notes.txt").write_text("x")
    out = _invoke("score", "--gt", str(gt), "--result", str(tmp_path), "--profile", "opendataloader", "--jobs", "1")
    assert out.exit_code == 1
    assert [line for line in out.output.splitlines() if "nothing-paired" in line] == [
        f"{tmp_path}: error nothing-paired no result files found (read as opendataloader-markdown: .md; --profile "
        "opendataloader reads the results as opendataloader-markdown; --result-format names another)"]


def test_teds_normalisation_line_says_what_the_opendataloader_profile_does():
    gt = corpus_path("markdown-pages", "opendataloader-bench", "gt")
    pred = corpus_path("markdown-pages", "opendataloader-bench", "pred", "docling")
    out = _invoke("score", "--gt", str(gt), "--result", str(pred), "--profile", "opendataloader", "--jobs", "1")
    assert out.exit_code == 0, out.output
    assert ("normalisation: the cells' tokens joined into one text, compared after decoding entities, <br> a line "
            "break, whitespace runs one space, trimmed; <th> cells read as <td> cells; <thead>, <tbody> left out "
            "(their rows directly under the table)") in out.output.splitlines()
    out = _invoke("score", "--gt", str(gt), "--result", str(pred), "--profile", "opendataloader", "--jobs", "1",
                  "--cell-text", "tokens", "--row-groups", "keep")
    assert ("normalisation: none: the cells' tokens as the source gives them (characters and inline tags); <th> "
            "cells read as <td> cells") in out.output.splitlines()


def _total_rows(output: str) -> list[list[str]]:
    return [line.split() for line in output.splitlines() if line.startswith("mean over ")]


def test_docling_eval_total_row_counts_the_tables_scored(tmp_path):
    from tests.acceptance.test_profile_docling_eval import _write_cases

    gt, pred = _write_cases(tmp_path)
    arguments = ["score", "--gt", str(gt), "--result", str(pred), "--profile", "docling-eval", "--jobs", "1"]
    report = json.loads(_invoke(*arguments, "--format", "json").stdout)
    scored = report["total"]["statistics"]["teds"]["count"]
    assert report["total"]["scored_tables"] == scored == 18 and report["total"]["tables"] == 21
    out = _invoke(*arguments)
    assert out.exit_code == 0, out.output
    assert _total_rows(out.output)[0] == ["mean", "over", "tables", "18", "0.6969", "0.7448"]


def test_page_aggregate_total_row_is_the_mean_over_pages():
    gt = corpus_path("markdown-pages", "opendataloader-bench", "gt")
    pred = corpus_path("markdown-pages", "opendataloader-bench", "pred", "docling")
    out = _invoke("score", "--gt", str(gt), "--result", str(pred), "--profile", "opendataloader", "--jobs", "1")
    report = json.loads(_invoke("score", "--gt", str(gt), "--result", str(pred), "--profile", "opendataloader",
                                "--jobs", "1", "--format", "json").stdout)
    assert report["total"]["aggregate"] == "page"
    first = _total_rows(out.output)[0]
    assert first[:4] == ["mean", "over", "pages", str(report["document_mean"]["documents"])]
    assert first[4] == f"{report['total']['teds']:.4f}"


def test_teds_edit_total_row_says_its_edit_distance_is_over_pages():
    gt = corpus_path("markdown-pages", "omnidocbench", "OmniDocBench_demo.json")
    out = _invoke("score", "--gt", str(gt), "--result", str(gt.parent), "--profile", "omnidocbench", "--jobs", "1")
    report = json.loads(_invoke("score", "--gt", str(gt), "--result", str(gt.parent), "--profile", "omnidocbench",
                                "--jobs", "1", "--format", "json").stdout)
    total = report["total"]
    assert _total_rows(out.output)[0] == ["mean", "over", "tables", "(edit", "distance", "over", "pages)",
                                          str(total["tables"]), f"{total['teds']:.4f}", f"{total['teds_struct']:.4f}",
                                          f"{total['edit_dist']:.4f}"]


def test_pairing_help_says_which_metrics_take_each_value(tmp_path):
    out = CliRunner().invoke(app, ["score", "--help"], terminal_width=400)
    assert out.exit_code == 0
    text = " ".join(out.output.replace("│", " ").split())
    for value in ("greedy (teds, grits:", "hungarian (teds, grits:", "order (teds, grits:", "joined (teds only:"):
        assert value in text, value
    (tmp_path / "x.html").write_text("<table><tr><td>a</td><td>b</td></tr></table>")
    out = _invoke("score", "--gt", str(tmp_path), "--result", str(tmp_path), "--metric", "grits", "--pairing",
                  "order", "--format", "json", "--jobs", "1")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["total"]["grits_con"] == 1.0


OVERLAP = """<?xml version="1.0" encoding="UTF-8"?>
<document filename="ov.pdf">
<table id="1">
<region id="1" page="1">
<cell id="1" start-row="0" start-col="0" end-row="1"><bounding-box x1="0" y1="0" x2="10" y2="10"/><content>a</content></cell>
<cell id="2" start-row="1" start-col="0"><bounding-box x1="0" y1="10" x2="10" y2="20"/><content>b</content></cell>
</region>
</table>
</document>
"""


def test_slot_overlap_hint_is_true_of_every_metric(tmp_path):
    source = tmp_path / "ov-str.xml"
    source.write_text(OVERLAP)
    out = _invoke("check", str(source))
    assert out.exit_code == 1
    assert out.output.splitlines()[0] == (
        f"{source}:6: error slot-overlap table 1, region 1: cell at row 1, column 0 covers a grid slot already "
        "covered by the cell at row 0, column 0 (hint: the two cells' spans cross; scored with the ICDAR 2013 "
        "structure metric, the later cell keeps the shared slot, as its official scorer does)")
