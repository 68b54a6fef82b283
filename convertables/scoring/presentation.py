"""What a metric's presentation is made of: the summary table as data
(:class:`Summary`, its :class:`Rows`), the notes under it, and the rows of
count-based metrics (structure, region), whose summaries and CSV columns agree.

Each metric lays out its own summary and CSV (:meth:`~convertables.scoring.metric.Metric.summary`,
:meth:`~convertables.scoring.metric.Metric.csv_rows`) from these;
:mod:`convertables.scoring.report` shows them and depends on no metric module.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, NamedTuple

COUNT_KEYS = ("gt", "correct", "detected")
SCORE_KEYS = ("precision", "recall", "f1")


class Rows:
    """A summary's rows, made afresh at each walk from the report's records (which
    may be kept on disk): the plain-text table walks them twice, for the widths,
    then to print."""

    def __init__(self, records, row):
        self._records, self._row = records, row

    def __iter__(self) -> Iterator[list[str]]:
        return map(self._row, self._records)


class Summary(NamedTuple):
    """A summary table as data, shown by :func:`~convertables.scoring.report.render_text`
    with rich on a terminal and as plain aligned text otherwise."""

    title: str
    columns: list[tuple[str, str]]  # (heading, "left" or "right")
    rows: Iterable[list[str]]  # walked more than once (a list, or Rows)
    totals: list[list[str]]  # below a rule
    notes: list[str]


def title(report: Mapping) -> str:
    """A summary's title: the metric and its variant."""
    return f"{report['metric']} ({report['variant']})"


def notes(report: Mapping) -> list[str]:
    """The notes every summary ends with: how the texts were normalised and the
    figures aggregated, the candidates kept, the files left unpaired, the processes."""
    return [
        f"normalisation: {report['normalisation']}",
        f"aggregation: {report['aggregation']}",
        *_kept_notes(report["documents"]),
        *_loss_notes(report["documents"]),
        *(f"no result for ground truth {path}" for path in report["unpaired"]["gt"]),
        *(f"no ground truth for result {path}" for path in report["unpaired"]["result"]),
        *([f"scored in {_processes(report.workers)}"] if getattr(report, "workers", None) else []),
    ]


def _processes(workers: int) -> str:
    return "this process" if workers == 1 else f"{workers} worker processes"


# Beyond this many documents with several candidates, one line says how many.
MAX_KEPT_NOTES = 5


def _kept_notes(records: list[dict]) -> list[str]:
    several = [r for r in records if len(r.get("alternatives") or ()) > 1]
    if len(several) > MAX_KEPT_NOTES:
        return [f"{len(several)} documents had several candidates and kept the best "
                "(the JSON report names each one's result_file and alternatives)"]
    return [_kept(r) for r in several]


def _loss_notes(records: list[dict]) -> list[str]:
    """What the result's format cannot hold of each document's ground truth, and
    which part of the metric that affects (the JSON report has them all)."""
    lossy = [r for r in records if r.get("losses")]
    lines = [f"{r['document']}: {note}" for r in lossy[:MAX_KEPT_NOTES] for note in r["losses"]]
    if len(lossy) > MAX_KEPT_NOTES:
        lines.append(f"... and {len(lossy) - MAX_KEPT_NOTES} more documents whose result format cannot hold what "
                     "their ground truth has (the JSON report's \"losses\" says each)")
    return lines


def _kept(record: dict) -> str:
    """Which of a document's candidates (a/b ground truths, result variants) was kept."""
    candidates = record["alternatives"]
    if len({c["result_file"] for c in candidates}) > 1:
        kept = f"result {record['result_file']}"
    else:
        kept = f"ground truth {record['gt_file']}"
    return f"{record['document']}: the best of {len(candidates)} candidates kept, {kept}"


def problem(record: Mapping) -> str:
    """A record's error, or why it was skipped (empty if neither): its CSV field."""
    return record.get("error", record.get("skipped", ""))


def warnings_field(record: Mapping) -> str:
    """A record's warnings in one CSV field, a line each."""
    return "\n".join(record.get("warnings", ()))


# -- count-based metrics (structure, region) -----------------------------------------------

def count_row(record: dict) -> list[str]:
    """A document's summary row: its counts, precision, recall and F1."""
    if not record.get("counted"):
        return [record["document"], "error" if "error" in record else "skipped", "", "", "", "", ""]
    return [record["document"], *(str(record[k]) for k in COUNT_KEYS), *(f"{record[k]:.4f}" for k in SCORE_KEYS)]


def count_summary(report: Mapping) -> Summary:
    """Counts and precision/recall/F1 a document, the micro totals and, where the
    report has one, the document mean."""
    columns = [("document", "left"), *((name, "right") for name in ("gt", "correct", "detected", "precision",
                                                                       "recall", "F1"))]
    total = report["total"]
    totals = [["total (micro)", *(str(total[k]) for k in COUNT_KEYS), *(f"{total[k]:.4f}" for k in SCORE_KEYS)]]
    if "document_mean" in report:
        mean = report["document_mean"]
        totals.append(["document mean", "", "", "", *(f"{mean[k]:.4f}" for k in SCORE_KEYS)])
    return Summary(title(report), columns, Rows(report["documents"], count_row), totals, notes(report))


def count_csv_rows(report: Mapping) -> Iterator[list]:
    """Ground-truth, correct and detected counts and precision, recall and F1 (empty where a record has none)."""
    yield ["document", "gt_file", "result_file", *COUNT_KEYS, *SCORE_KEYS, "error", "warnings"]
    for record in report["documents"]:
        yield [record["document"], record["gt_file"], record["result_file"] or "",
               *(record.get(k, "") for k in COUNT_KEYS), *(record.get(k, "") for k in SCORE_KEYS),
               problem(record), warnings_field(record)]
