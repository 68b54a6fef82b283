"""The scorer: every metric, for the CLI and for Python alike (docs/scoring.md).

    from convertables.scoring import ScoreSettings, score_paths
    report = score_paths("gt/", "results/", ScoreSettings(metric="structure"))
    report.document_mean["f1"], report.total["f1"]

Every metric first yields one record per document (with its per-table records);
totals and means are derived from those records, and the report says which
metric, variant, normalisation and aggregation produced them (docs/scoring.md, "The JSON report").
"""

from __future__ import annotations

# The names below are imported on first use: the command line reads the metrics'
# declarations (scoring.declarations) without the runner and the metric modules.
_WHERE = {
    "Metric": "metric", "ScoreSettings": "metric", "get_metric": "metric", "metrics": "metric",
    "register": "metric", "ScoreReport": "report", "default_jobs": "runner", "score_documents": "runner",
    "score_paths": "runner",
}

__all__ = ["Metric", "ScoreReport", "ScoreSettings", "default_jobs", "get_metric", "metrics", "register",
           "score_documents", "score_paths"]


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
