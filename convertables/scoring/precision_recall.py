"""Precision, recall and F1, the same way for every metric.

The conventions where a count is zero: nothing detected of something gives
precision 0; nothing to detect gives recall 1; nothing on either side gives 1
for both. F1 is 0 where precision and recall are both 0.
"""

from __future__ import annotations


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def scores(gt: float, correct: float, detected: float) -> dict:
    """precision, recall and F1 from counts (or areas)."""
    precision = correct / detected if detected else (1.0 if gt == 0 else 0.0)
    recall = correct / gt if gt else 1.0
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall)}


def document_mean(records: list[dict]) -> dict:
    """Precision and recall averaged over documents, the F1 of those means (0 for none)."""
    n = len(records)
    precision = sum(r["precision"] for r in records) / n if n else 0.0
    recall = sum(r["recall"] for r in records) / n if n else 0.0
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall), "documents": n}
