"""The scorer: every metric, for the CLI and for Python alike (docs/scoring.md).

    from convertables.scoring import ScoreSettings, score_paths
    report = score_paths("gt/", "results/", ScoreSettings(metric="structure"))
    report.document_mean["f1"], report.total["f1"]

Every metric first yields one record per document (with its per-table records);
totals and means are derived from those records, and the report says which
metric, variant, normalisation and aggregation produced them (docs/scoring.md, "The JSON report").
"""

from __future__ import annotations

from .metric import Metric, ScoreSettings, get_metric, metrics
from .report import ScoreReport
from .runner import default_jobs, score_documents, score_paths

__all__ = ["Metric", "ScoreReport", "ScoreSettings", "default_jobs", "get_metric", "metrics", "score_documents",
           "score_paths"]
