"""Benchmark profiles (``score --profile NAME``, docs/benchmarks.md): one
benchmark's whole recipe in one name, so that its own figures come out from the
same files its evaluator reads. A profile declares nothing of its own: it names
a metric and the settings of the general parts, how tables are found in a
page (the formats read), how they are normalised and compared, how a page's
tables are paired, and how the scores are aggregated. Settings given beside it
on the command line override its own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..diagnostics import UsageError


class Profile(NamedTuple):
    """A benchmark's recipe: its metric and that metric's settings."""

    name: str
    title: str
    metric: str
    settings: dict[str, Any]
    """Settings by their ScoreSettings names (result_format, gt_format, pairing...)."""
    figures: str
    """Which of the report's figures are the benchmark's own, and where it keeps them."""


PROFILES: dict[str, Profile] = {profile.name: profile for profile in (
    Profile(
        "opendataloader", "opendataloader-bench (src/evaluator_table.py): TEDS and TEDS-S of Markdown pages", "teds",
        {"gt_format": "opendataloader-markdown", "result_format": "opendataloader-markdown", "pairing": "joined",
         "th_text": "as-td", "cell_text": "normalised", "row_groups": "drop", "aggregate": "page"},
        "each document's teds and teds_struct are the benchmark's teds and teds_s of the page (its "
        "evaluation.json); a page whose ground truth has no table has no figures, as the benchmark gives None",
    ),
    Profile(
        "unstructured", "Unstructured's table evaluation (unstructured/metrics/evaluate.py, "
        "TableStructureMetricsCalculator and table/table_eval.py)", "table-accuracy",
        {"gt_format": "unstructured-eval", "result_format": "unstructured-eval"},
        "each document's figures (total_tables, table_level_acc, table_detection_recall/precision/f1, "
        "composite_structure_acc, element_col/row_level_index_acc, element_col/row_level_content_acc) are the "
        "benchmark's row of all-docs-table-structure-accuracy.tsv; total's figures its "
        "aggregate-table-structure-accuracy.tsv (average, sample_sd, population_sd, count)",
    ),
    Profile(
        "grits-metric", "grits-metric (GritsEvaluator.eval_htmls): GriTS_Con and GriTS_Top of HTML pages, pooled",
        "grits",
        {"gt_format": "html", "result_format": "html", "pairing": "hungarian", "aggregate": "pooled",
         "text_similarity": "lcs", "true_iou": True, "ignore_page": True, "cell_placement": "document-order",
         "grid_origin": "zero"},
        "each document's grits_con, grits_top and their precision and recall are the package's compute_grits() "
        "of the page alone; total's are compute_grits() over all pages, page_mean's its "
        "compute_mean_grits_per_sample(); invalid_result_tables its num_invalid_pred_tables",
    ),
    Profile(
        "olmocr", "olmOCR-bench (olmocr/bench/tests.py, TableTest; benchmark.py): its table tests, passed or failed, "
        "on a page's Markdown repeats", "table-facts",
        {"gt_format": "olmocr-tests", "result_format": "olmocr-markdown"},
        "each test's passed is the benchmark's verdict (more than half of the page's repeats pass it), its "
        "explanation the benchmark's; total's pass_rate is the benchmark's score of the test file (its "
        "'Results by JSONL file'), repeat_mean its 'table: average pass rate'",
    ),
    Profile(
        "docling-eval", "docling-eval (evaluators/table_evaluator.py): TEDS of DoclingDocument tables", "teds",
        {"gt_format": "docling", "table_html": "docling", "th_text": "as-td", "drop_tags": ("b", "i", "u"),
         "pairing": "order", "round": 3, "split": "spans", "statistics": True, "compat": True,
         "aggregate": "table"},
        "each table pair's teds and teds_struct are the benchmark's TEDS of that table (content and structure-only "
        "evaluations, rounded to 3 decimals); total's teds, teds_simple and teds_complex, and its statistics (count, "
        "mean, median, std, hist), are its TEDS, TEDS_simple, TEDS_complex and TEDS_struct statistics; a document "
        "whose prediction has another number of tables is not scored, as the benchmark rejects it",
    ),
    Profile(
        "omnidocbench", "OmniDocBench's end-to-end table evaluation: TEDS, TEDS-S and edit distance of its "
        "normalised HTML", "teds-edit",
        {"gt_format": "omnidocbench", "result_format": "omnidocbench-markdown"},
        "each table record's teds, teds_struct and edit_dist are the benchmark's TEDS, TEDS_structure_only and "
        "Edit_dist of the table (its end2end_quick_match_table_result.json); total's teds, teds_struct and "
        "edit_dist are its table TEDS, TEDS_structure_only and Edit_dist ALL_page_avg (its "
        "end2end_quick_match_metric_result.json); a page without a prediction is left out, as it leaves it out",
    ),
)}
"""The profiles by name."""


def apply_profile(name: str, metric: str | None, settings: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The metric and settings a run with profile ``name`` scores with: the
    profile's, those given (``settings``: the ones not None) overriding them.
    ``metric``: the one given, None where none was (it must be the profile's)."""
    profile = PROFILES.get(name)
    if profile is None:
        raise UsageError(f"unknown profile {name!r} (known: {', '.join(PROFILES)})")
    if metric is not None and metric != profile.metric:
        raise UsageError(f"--profile {name} scores with --metric {profile.metric}, not {metric}")
    return profile.metric, {**profile.settings, **{k: v for k, v in settings.items() if v is not None}}
