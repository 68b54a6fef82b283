"""Reports of a scoring run: the report itself (:class:`ScoreReport`), a summary
table for people, CSV per document, and the JSON report (docs/scoring.md, "The JSON report").
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Iterable, Iterator, Mapping, NamedTuple, TextIO

from ..diagnostics import Diagnostic, Severity

_COUNT_KEYS = ("gt", "correct", "detected")


class ScoreReport(dict):
    """What ``score`` found: the JSON report's object itself (a dict:
    ``report["total"]["f1"]``, ``json.dumps(report)``), with the problems as
    diagnostics beside it and names for its parts.

    Keys, in order: ``metric``, the metric's description (``variant``,
    ``normalisation``, ``aggregation``), ``settings``, ``documents`` (a record
    each), the aggregate (``total``, and ``document_mean`` where the metric has
    one), ``unpaired`` and ``errors`` (docs/scoring.md, "The JSON report").
    """

    def __init__(self, metric: str, description: dict, settings: dict, documents: list[dict], aggregate: dict,
                 unpaired_gt: list[str] = (), unpaired_result: list[str] = (),
                 diagnostics: list[Diagnostic] = (), shard: dict | None = None,
                 error_lines: list[str] | None = None, workers: int | None = None):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        """The documents' problems (unreadable files, tables too large, cells a reader left out...) and
        warnings (what a reader read otherwise than the format says), with their codes; the errors are
        the report's ``errors``, the warnings each document's ``warnings``."""
        self.workers = workers
        """How many processes scored (this one, or the workers started); said in the text report
        (not in the JSON's object, which is the same however the documents were spread)."""
        self.details = None
        """Where scoring was asked for them, each document's detail for the HTML report
        (:class:`~convertables.scoring.explain.Details`; not in the JSON's object)."""
        super().__init__(metric=metric, **description, settings=settings, documents=documents, **aggregate,
                         unpaired={"gt": list(unpaired_gt), "result": list(unpaired_result)},
                         errors=[d.format() for d in self.diagnostics if d.severity is Severity.ERROR]
                         if error_lines is None else error_lines)
        if shard is not None:  # (a shard's: where its parts stand in the whole run, for merge-reports)
            self["shard"] = shard

    @property
    def total(self) -> dict:
        return self["total"]

    @property
    def document_mean(self) -> dict | None:
        return self.get("document_mean")

    @property
    def documents(self) -> list[dict]:
        return self["documents"]

    @property
    def errors(self) -> list[str]:
        """The problems, a line each (the errors: a run with any exits with 1)."""
        return self["errors"]

    def to_dict(self) -> dict:
        """The JSON report's object, as a plain dict."""
        return dict(self)

    def to_json(self) -> str:
        return as_json(self)

    def write_html(self, path, force: bool = False) -> None:
        """Write the HTML report (docs/scoring.md, "The HTML report") to ``path``,
        refusing to replace a file without ``force``; each document's cells are
        drawn where the report has its :attr:`details` (``score(..., html=...)``
        or ``explain=True``)."""
        from ..htmlreport import write_html

        write_html(self, path, force=force)

    def __reduce__(self):
        return (dict, (dict(self),))


_SCORE_KEYS = ("precision", "recall", "f1")


class Rows:
    """A summary's rows, made afresh at each walk from the report's records (which
    may be kept on disk): the plain-text table walks them twice, for the widths,
    then to print."""

    def __init__(self, records, row):
        self._records, self._row = records, row

    def __iter__(self) -> Iterator[list[str]]:
        return map(self._row, self._records)


def summary_rows(report: Mapping) -> Rows:
    """The rows of the summary table: one per document."""
    return Rows(report["documents"], _count_row)


def _count_row(record: dict) -> list[str]:
    if not record.get("counted"):
        return [record["document"], "error" if "error" in record else "skipped", "", "", "", "", ""]
    return [record["document"], *(str(record[k]) for k in _COUNT_KEYS), *(f"{record[k]:.4f}" for k in _SCORE_KEYS)]


class Summary(NamedTuple):
    """A summary table as data, shown by :func:`render_text` with rich on a
    terminal and as plain aligned text otherwise."""

    title: str
    columns: list[tuple[str, str]]  # (heading, "left" or "right")
    rows: Iterable[list[str]]  # walked more than once (a list, or Rows)
    totals: list[list[str]]  # below a rule
    notes: list[str]


def ctdar_summary(report: Mapping) -> Summary:
    thresholds = list(report["total"]["iou"])
    columns = [("document", "left"), *((f"IoU {t}: correct/gt/res", "right") for t in thresholds),
               ("WAvg F1", "right")]
    def row(record: dict) -> list[str]:
        if not record.get("counted"):
            return [record["document"], *([""] * len(thresholds)), record.get("error", record.get("skipped", ""))]
        return [record["document"],
                *(f"{record['iou'][t]['correct']}/{record['iou'][t]['gt']}/{record['iou'][t]['detected']}"
                  for t in thresholds), f"{record['f1']:.4f}"]

    rows = Rows(report["documents"], row)
    total = report["total"]
    totals = [
        ["total", *(f"{total['iou'][t]['correct']}/{total['iou'][t]['gt']}/{total['iou'][t]['detected']}"
                    for t in thresholds), f"{total['wavg_f1']:.4f}"],
        ["P / R / F1", *(f"{total['iou'][t]['precision']:.4f} / {total['iou'][t]['recall']:.4f} / "
                         f"{total['iou'][t]['f1']:.4f}" for t in thresholds), ""],
    ]
    return Summary(f"{report['metric']} ({report['variant']})", columns, rows, totals, notes(report))


_MARMOT_COUNTS = ("nr", "nm", "na", "nfa", "nfu")


def marmot_summary(report: Mapping) -> Summary:
    columns = [("document", "left"), *((name, "right") for name in (*_MARMOT_COUNTS, "precision", "recall"))]
    def row(record: dict) -> list[str]:
        if not record.get("counted"):
            return [record["document"], "", "", "", "", "", "", record.get("error", "")]  # as cTDaR's: last
        return [record["document"], *(str(record[k]) for k in _MARMOT_COUNTS),
                f"{record['precision']:.4f}", f"{record['recall']:.4f}"]

    rows = Rows(report["documents"], row)
    total = report["total"]
    totals = [["total", *(str(total[k]) for k in _MARMOT_COUNTS), f"{total['precision']:.4f}",
               f"{total['recall']:.4f}"]]
    error_types = ", ".join(f"{k} {v}" for k, v in sorted(total["error_types"].items())) or "none"
    return Summary("marmot error types", columns, rows, totals, [f"error types: {error_types}", *notes(report)])


def structure_summary(report: Mapping) -> Summary:
    """Counts and precision/recall/F1 a document (structure, region)."""
    columns = [("document", "left"), *((name, "right") for name in ("gt", "correct", "detected", "precision",
                                                                       "recall", "F1"))]
    total = report["total"]
    totals = [["total (micro)", *(str(total[k]) for k in _COUNT_KEYS), *(f"{total[k]:.4f}" for k in _SCORE_KEYS)]]
    if "document_mean" in report:
        mean = report["document_mean"]
        totals.append(["document mean", "", "", "", *(f"{mean[k]:.4f}" for k in _SCORE_KEYS)])
    return Summary(f"{report['metric']} ({report['variant']})", columns, summary_rows(report), totals,
                   notes(report))


def summary(report: Mapping) -> Summary:
    """The summary of a report, as its metric lays it out: its documents' rows,
    the totals and the notes."""
    from .metric import get_metric

    return get_metric(report["metric"]).summary(report)


def notes(report: Mapping) -> list[str]:
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


def plain_text(shown: Summary) -> str:
    """The summary as plain text: columns aligned, nothing cut short (a file or
    a pipe has no width to fit), a rule under the headings and above the totals."""
    out = io.StringIO()
    write_plain_text(shown, out)
    return out.getvalue()


def write_plain_text(shown: Summary, out: TextIO) -> None:
    """:func:`plain_text` written to ``out`` a line at a time (its rows walked
    twice: for the widths, then to print)."""
    widths = [len(heading) for heading, _ in shown.columns]
    for row in (*shown.totals,):
        widths = [max(w, len(cell)) for w, cell in zip(widths, row)]
    for row in shown.rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row)]

    def line(cells) -> str:
        return "  ".join(cell.ljust(width) if justify == "left" else cell.rjust(width)
                         for cell, width, (_, justify) in zip(cells, widths, shown.columns)).rstrip()

    rule = "  ".join("-" * width for width in widths)
    out.write(f"{shown.title}\n\n{line([heading for heading, _ in shown.columns])}\n{rule}\n")
    for row in shown.rows:
        out.write(line(row) + "\n")
    out.write(rule + "\n")
    for row in shown.totals:
        out.write(line(row) + "\n")
    out.write("\n")
    for note in shown.notes:
        out.write(note + "\n")


def render_text(report: Mapping, console=None) -> None:
    """Print the summary: a rich table on a terminal (or on ``console``), plain
    aligned text otherwise, without loading rich (a fifth of scoring 20 cTDaR pages)."""
    shown = summary(report)
    if console is None and not sys.stdout.isatty():
        write_plain_text(shown, sys.stdout)
        return
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title=shown.title)
    for heading, justify in shown.columns:
        table.add_column(heading, justify=justify)
    for row in shown.rows:
        table.add_row(*row)
    table.add_section()
    for row in shown.totals:
        table.add_row(*row)
    console.print(table)
    for note in shown.notes:
        console.print(note)


def per_document_csv(report: Mapping) -> str:
    """The per-document CSV of a report, with its metric's columns."""
    out = io.StringIO()
    write_csv(report, out)
    return out.getvalue()


def write_csv(report: Mapping, out: TextIO) -> None:
    """The per-document CSV written to ``out`` a row at a time."""
    from .metric import get_metric

    csv.writer(out, lineterminator="\n").writerows(get_metric(report["metric"]).csv_rows(report))


def write_csv_file(report: Mapping, path, force: bool = False) -> None:
    """The per-document CSV into ``path``, put in place whole (InputError where it cannot be)."""
    from ..files import write_text_atomic

    write_text_atomic(Path(path), lambda out: write_csv(report, out), force=force)


def ctdar_csv_rows(report: Mapping) -> Iterator[list]:
    """Correct, ground-truth and detected counts at each IoU threshold, and the weighted F1."""
    thresholds = list(report["total"]["iou"])
    yield ["document", "gt_file", "result_file", *(f"{k}@{t}" for t in thresholds for k in ("correct", "gt", "detected")),
           "wavg_f1", "error", "warnings"]
    for record in report["documents"]:
        counts = [record["iou"][t][k] if "iou" in record else "" for t in thresholds
                  for k in ("correct", "gt", "detected")]
        yield [record["document"], record["gt_file"], record["result_file"] or "", *counts,
               record.get("f1", ""), record.get("error", record.get("skipped", "")), _warnings(record)]


def count_csv_rows(report: Mapping) -> Iterator[list]:
    """Ground-truth, correct and detected counts and precision, recall and F1 (empty where a record has none)."""
    yield ["document", "gt_file", "result_file", *_COUNT_KEYS, *_SCORE_KEYS, "error", "warnings"]
    for record in report["documents"]:
        yield [record["document"], record["gt_file"], record["result_file"] or "",
               *(record.get(k, "") for k in _COUNT_KEYS), *(record.get(k, "") for k in _SCORE_KEYS),
               record.get("error", record.get("skipped", "")), _warnings(record)]


def _warnings(record: Mapping) -> str:
    """A record's warnings in one CSV field, a line each."""
    return "\n".join(record.get("warnings", ()))


def as_json(report: Mapping) -> str:
    """The report as JSON, one document's record per line: written by json's C
    encoder (an indented dump goes through its pure-Python one, which takes
    longer than scoring a large corpus), and easy to grep."""
    return "".join(json_pieces(report))


def write_json(report: Mapping, out: TextIO) -> None:
    """:func:`as_json` written to ``out`` a record at a time (records kept on disk
    stay there: memory holds one)."""
    for piece in json_pieces(report):
        out.write(piece)


def json_pieces(report: Mapping) -> Iterator[str]:
    yield "{"
    last = len(report) - 1
    for position, (key, value) in enumerate(report.items()):
        comma = "," if position < last else ""
        if key == "documents" and len(value):
            yield f"\n {json.dumps(key)}: ["
            first = True
            for record in value:
                yield ("\n  " if first else ",\n  ") + json.dumps(record)
                first = False
            yield f"\n ]{comma}"
        else:
            yield f"\n {json.dumps(key)}: {json.dumps(value, indent=1).replace(chr(10), chr(10) + ' ')}{comma}"
    yield "\n}"
