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
        "docling-eval", "docling-eval (evaluators/table_evaluator.py): TEDS of DoclingDocument tables", "teds",
        {"gt_format": "docling", "table_html": "docling", "th_text": "as-td", "drop_tags": ("b", "i", "u"),
         "pairing": "order", "round": 3, "split": "spans", "statistics": True, "compat": True,
         "aggregate": "table"},
        "each table pair's teds and teds_struct are the benchmark's TEDS of that table (content and structure-only "
        "evaluations, rounded to 3 decimals); total's teds, teds_simple and teds_complex, and its statistics (count, "
        "mean, median, std, hist), are its TEDS, TEDS_simple, TEDS_complex and TEDS_struct statistics; a document "
        "whose prediction has another number of tables is not scored, as the benchmark rejects it",
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
