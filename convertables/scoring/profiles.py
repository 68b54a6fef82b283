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
