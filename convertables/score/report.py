"""Reports of a scoring run: a summary table for people, CSV per document.

The JSON report (SPEC 5.5) is the runner's dict itself; these functions only
present it.
"""

from __future__ import annotations

import csv
import io

_COUNT_KEYS = ("gt", "correct", "detected")
_SCORE_KEYS = ("precision", "recall", "f1")


def summary_rows(report: dict) -> list[list[str]]:
    """The rows of the summary table: one per document, then the aggregates."""
    rows = []
    for record in report["documents"]:
        if "error" in record:
            rows.append([record["document"], "error", "", "", "", "", ""])
        elif "skipped" in record:
            rows.append([record["document"], "skipped", "", "", "", "", ""])
        else:
            rows.append([record["document"], *(str(record[k]) for k in _COUNT_KEYS),
                         *(f"{record[k]:.4f}" for k in _SCORE_KEYS)])
    return rows


def render_text(report: dict, console=None) -> None:
    """Print the summary with rich (a table on a terminal, plain text otherwise)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
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
    console.print(f"normalisation: {report['normalisation']}")
    console.print(f"aggregation: {report['aggregation']}")
    for path in report["unpaired"]["gt"]:
        console.print(f"no result for ground truth {path}")
    for path in report["unpaired"]["result"]:
        console.print(f"no ground truth for result {path}")


def per_document_csv(report: dict) -> str:
    out = io.StringIO()
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
