"""Reports of a scoring run: a summary table for people, CSV per document,
and the JSON report.

The JSON report (SPEC 5.5) is the runner's dict itself; these functions only
present it.
"""

from __future__ import annotations

import csv
import io
import json

_COUNT_KEYS = ("gt", "correct", "detected")
_SCORE_KEYS = ("precision", "recall", "f1")


def summary_rows(report: dict) -> list[list[str]]:
    """The rows of the summary table: one per document, then the aggregates."""
    rows = []
    for record in report["documents"]:
        if not record.get("counted"):
            rows.append([record["document"], "error" if "error" in record else "skipped", "", "", "", "", ""])
        else:
            rows.append([record["document"], *(str(record[k]) for k in _COUNT_KEYS),
                         *(f"{record[k]:.4f}" for k in _SCORE_KEYS)])
    return rows


def _render_ctdar(report: dict, console) -> None:
    from rich.table import Table

    table = Table(title=f"{report['metric']} ({report['variant']})")
    table.add_column("document")
    thresholds = list(report["total"]["iou"])
    for t in thresholds:
        table.add_column(f"IoU {t}: correct/gt/res", justify="right")
    table.add_column("WAvg F1", justify="right")
    for record in report["documents"]:
        if not record.get("counted"):
            table.add_row(record["document"], *([""] * len(thresholds)), record.get("error", record.get("skipped", "")))
            continue
        table.add_row(record["document"],
                      *(f"{record['iou'][t]['correct']}/{record['iou'][t]['gt']}/{record['iou'][t]['detected']}"
                        for t in thresholds), f"{record['f1']:.4f}")
    total = report["total"]
    table.add_section()
    table.add_row("total", *(f"{total['iou'][t]['correct']}/{total['iou'][t]['gt']}/{total['iou'][t]['detected']}"
                             for t in thresholds), f"{total['wavg_f1']:.4f}")
    table.add_row("P / R / F1", *(f"{total['iou'][t]['precision']:.4f} / {total['iou'][t]['recall']:.4f} / "
                                  f"{total['iou'][t]['f1']:.4f}" for t in thresholds), "")
    console.print(table)


def _render_marmot(report: dict, console) -> None:
    from rich.table import Table

    table = Table(title="marmot error types")
    for name in ("document", "nr", "nm", "na", "nfa", "nfu", "precision", "recall"):
        table.add_column(name, justify="left" if name == "document" else "right")
    for record in report["documents"]:
        if not record.get("counted"):
            table.add_row(record["document"], record.get("error", ""), "", "", "", "", "", "")
            continue
        table.add_row(record["document"], *(str(record[k]) for k in ("nr", "nm", "na", "nfa", "nfu")),
                      f"{record['precision']:.4f}", f"{record['recall']:.4f}")
    total = report["total"]
    table.add_section()
    table.add_row("total", *(str(total[k]) for k in ("nr", "nm", "na", "nfa", "nfu")),
                  f"{total['precision']:.4f}", f"{total['recall']:.4f}")
    console.print(table)
    console.print("error types: " + (", ".join(f"{k} {v}" for k, v in sorted(total["error_types"].items())) or "none"))


def render_text(report: dict, console=None) -> None:
    """Print the summary with rich (a table on a terminal, plain text otherwise)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    if report["metric"] == "marmot":
        _render_marmot(report, console)
        _render_notes(report, console)
        return
    if "iou" in report["total"]:
        _render_ctdar(report, console)
        _render_notes(report, console)
        return
    table = Table(title=f"{report['metric']} ({report['variant']})", show_footer=False)
    for name in ("document", "gt", "correct", "detected", "precision", "recall", "F1"):
        table.add_column(name, justify="left" if name == "document" else "right")
    for row in summary_rows(report):
        table.add_row(*row)
    total = report["total"]
    table.add_section()
    table.add_row("total (micro)", *(str(total[k]) for k in _COUNT_KEYS), *(f"{total[k]:.4f}" for k in _SCORE_KEYS))
    if "document_mean" in report:
        mean = report["document_mean"]
        table.add_row("document mean", "", "", "", *(f"{mean[k]:.4f}" for k in _SCORE_KEYS))
    console.print(table)
    _render_notes(report, console)


def _render_notes(report: dict, console) -> None:
    console.print(f"normalisation: {report['normalisation']}")
    console.print(f"aggregation: {report['aggregation']}")
    for path in report["unpaired"]["gt"]:
        console.print(f"no result for ground truth {path}")
    for path in report["unpaired"]["result"]:
        console.print(f"no ground truth for result {path}")


def per_document_csv(report: dict) -> str:
    out = io.StringIO()
    if "iou" in report["total"]:
        writer = csv.writer(out, lineterminator="\n")
        thresholds = list(report["total"]["iou"])
        writer.writerow(["document", "gt_file", "result_file",
                         *(f"{k}@{t}" for t in thresholds for k in ("correct", "gt", "detected")), "wavg_f1", "error"])
        for record in report["documents"]:
            counts = [record["iou"][t][k] if "iou" in record else "" for t in thresholds
                      for k in ("correct", "gt", "detected")]
            writer.writerow([record["document"], record["gt_file"], record["result_file"] or "", *counts,
                             record.get("f1", ""), record.get("error", record.get("skipped", ""))])
        return out.getvalue()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["document", "gt_file", "result_file", *_COUNT_KEYS, *_SCORE_KEYS, "error"])
    for record in report["documents"]:
        writer.writerow([
            record["document"], record["gt_file"], record["result_file"] or "",
            *(record.get(k, "") for k in _COUNT_KEYS),
            *(record.get(k, "") for k in _SCORE_KEYS),
            record.get("error", record.get("skipped", "")),
        ])
    return out.getvalue()


def as_json(report: dict) -> str:
    """The report as JSON, one document's record per line: written by json's C
    encoder (an indented dump goes through its pure-Python one, which takes
    longer than scoring a large corpus), and easy to grep."""
    lines = ["{"]
    last = len(report) - 1
    for position, (key, value) in enumerate(report.items()):
        comma = "," if position < last else ""
        if key == "documents" and value:
            lines.append(f" {json.dumps(key)}: [")
            lines.append(",\n".join("  " + json.dumps(record) for record in value))
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, indent=1).replace(chr(10), chr(10) + ' ')}{comma}")
    lines.append("}")
    return "\n".join(lines)
