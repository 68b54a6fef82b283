"""Reports of a scoring run: the report itself (:class:`ScoreReport`), a summary
table for people, CSV per document, and the JSON report (docs/scoring.md, "The JSON report").

What the summary and the CSV hold is the metric's (its ``summary`` and
``csv_rows``, built from :mod:`convertables.scoring.presentation`); this module
shows them.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Iterator, Mapping, TextIO

from ..diagnostics import Diagnostic, Severity, UsageError
from .metric import get_metric
from .presentation import Summary


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
            shard[SHARD_DIGEST] = parts_digest(self)

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


def summary(report: Mapping) -> Summary:
    """The summary of a report, as its metric lays it out: its documents' rows,
    the totals and the notes."""
    return get_metric(report["metric"]).summary(report)


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


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def spreadsheet_safe(value):
    """A CSV field that no spreadsheet runs as a formula: text that starts as one
    does (``=``, ``+``, ``-``, ``@``, a tab or a carriage return: OWASP's rule for
    CSV injection) is given a leading ``'``; numbers, and text that is a plain
    number, stay as they are."""
    if value.__class__ is str and value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_csv(report: Mapping, out: TextIO) -> None:
    """The per-document CSV written to ``out`` a row at a time, its text fields
    made :func:`spreadsheet_safe` (document and file names come from anyone)."""
    plain = csv.writer(out, lineterminator="\n")
    # (a row with a carriage return in a field: its text quoted, which the csv module does only for "\n" here)
    quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    for row in get_metric(report["metric"]).csv_rows(report):
        row = [spreadsheet_safe(value) for value in row]
        (quoted if any(value.__class__ is str and "\r" in value for value in row) else plain).writerow(row)


def write_csv_file(report: Mapping, path, force: bool = False) -> None:
    """The per-document CSV into ``path``, put in place whole (InputError where it cannot be)."""
    from ..files import write_text_atomic

    write_text_atomic(Path(path), lambda out: write_csv(report, out), force=force)


REPORT_SUFFIXES = {".json": "json", ".csv": "csv", ".html": "html", ".txt": "text"}
"""The report's formats by a file's suffix (``score -o``): what ``--format`` of that name prints."""


def report_format_of(path, option: str = "-o") -> str:
    """The report format a file's suffix names (UsageError for another suffix)."""
    found = REPORT_SUFFIXES.get(Path(path).suffix.lower())
    if found is None:
        *others, last = REPORT_SUFFIXES
        raise UsageError(f"{option} {os.fspath(path)}: the report's format is taken from the suffix: "
                         f"{', '.join(others)} or {last}")
    return found


def write_report_file(report: Mapping, path, force: bool = False) -> None:
    """The report into ``path`` in the format its suffix names (:data:`REPORT_SUFFIXES`),
    as ``--format`` of that name prints it; put in place whole (InputError where it cannot be)."""
    from ..files import write_text_atomic

    chosen = report_format_of(path)

    def write(out: TextIO) -> None:
        if chosen == "json":
            write_json(report, out)
            out.write("\n")
        elif chosen == "csv":
            write_csv(report, out)
        elif chosen == "html":
            from ..htmlreport import write_page

            write_page(report, out)
        else:
            write_plain_text(summary(report), out)

    write_text_atomic(Path(path), write, force=force)


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
        if key == "documents":  # (a list, or records kept on disk; a shard may have none)
            yield f"\n {json.dumps(key)}: ["
            first = True
            for record in value:
                yield ("\n  " if first else ",\n  ") + json.dumps(record)
                first = False
            yield f"]{comma}" if first else f"\n ]{comma}"
        else:
            yield f"\n {json.dumps(key)}: {json.dumps(value, indent=1).replace(chr(10), chr(10) + ' ')}{comma}"
    yield "\n}"


SHARD_DIGEST = "digest"


def parts_digest(report: Mapping) -> str:
    """A SHA-256 of what a shard's report holds (its records, errors, unpaired
    files, and its shard object but the digest): merge-reports recomputes it, so
    that a report edited or cut after it was written is refused."""
    digest = hashlib.sha256()

    def add(value) -> None:
        digest.update(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii"))
        digest.update(b"\n")

    shard = {k: v for k, v in report["shard"].items() if k != SHARD_DIGEST}
    add(shard)
    add([report["metric"], report["settings"]])
    for record in report["documents"]:
        add(record)
    add(report["errors"])
    add(report["unpaired"])
    return digest.hexdigest()
