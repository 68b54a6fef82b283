"""What each command found, as data, and the reporters that present it.

``convert``, ``check`` and ``score`` each return a report object
(:class:`ConvertReport`, :class:`CheckReport`,
:class:`~convertables.scoring.report.ScoreReport`); every problem in them is a
:class:`~convertables.diagnostics.Diagnostic` with a stable code. A reporter
(``text``, ``json``, ``github``, ``csv``, ``html``) presents a report; the command line
only picks one by name (:func:`reporter`), as check-jsonschema's do.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from .diagnostics import Diagnostic, Severity, UsageError

if TYPE_CHECKING:
    from .batch import Outcome
    from .scoring.report import ScoreReport


def _counts(diagnostics: list[Diagnostic]) -> dict[str, int]:
    return {s.value: sum(1 for d in diagnostics if d.severity is s) for s in Severity}


@dataclass
class ConvertReport:
    """What became of each input of a conversion."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def converted(self) -> int:
        return sum(1 for o in self.outcomes if o.ok)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for o in self.outcomes for d in o.diagnostics]

    def to_dict(self) -> dict:
        return {
            "files": [{"input": str(o.source), "output": str(o.output) if o.output else None, "ok": o.ok,
                       "diagnostics": [d.as_dict() for d in o.diagnostics]} for o in self.outcomes],
            "converted": self.converted,
            "failed": len(self.failed),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)


@dataclass
class CheckReport:
    """Every finding of a check, in the order the files were checked."""

    findings: list[Diagnostic] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.findings if d.severity is Severity.ERROR)

    @property
    def warning_count(self) -> int:
        return sum(1 for d in self.findings if d.severity is Severity.WARNING)

    def ok(self, strict: bool = False) -> bool:
        """No error (and with ``strict`` no warning either)."""
        return not self.error_count and not (strict and self.warning_count)

    def to_dict(self) -> dict:
        return {"findings": [d.as_dict() for d in self.findings], "counts": _counts(self.findings)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"


def _check_summary(report: CheckReport, streams: Streams) -> str:
    """``3 error(s), 160 warning(s) in 142 file(s): 153 duplicate-id, ...``: the
    findings counted by code, errors' codes first, the commonest first in each."""
    files = len({d.file for d in report.findings})
    infos = sum(1 for d in report.findings if d.severity is Severity.INFO)
    line = f"{report.error_count} error(s), {report.warning_count} warning(s)"
    if infos:
        line += f", {infos} info(s)" + ("" if streams.verbose else " (-v shows them)")
    by_code = Counter((d.severity, d.code) for d in report.findings)
    if by_code:
        rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
        ordered = sorted(by_code.items(), key=lambda item: (rank[item[0][0]], -item[1], item[0][1]))
        line += f" in {files} file(s): " + ", ".join(f"{n} {code}" for (_, code), n in ordered)
    return line


# -- reporters ---------------------------------------------------------------------------------

@dataclass
class Streams:
    """Where a reporter writes, and how much: errors always, warnings unless
    ``quiet``, info only when ``verbose``."""

    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    verbose: bool = False
    quiet: bool = False

    def shown(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        return [d for d in diagnostics if d.severity is Severity.ERROR
                or (d.severity is Severity.WARNING and not self.quiet)
                or (d.severity is Severity.INFO and self.verbose)]


class Reporter:
    """Presents reports; a reporter without a method for a command's report
    cannot be chosen for that command."""

    name = ""

    def outcome(self, outcome: Outcome, streams: Streams) -> None:
        """One converted file, as it is done (nothing by default: the report says all)."""

    def converted(self, report: ConvertReport, streams: Streams, batch: bool) -> None:
        raise NotImplementedError

    def checked(self, report: CheckReport, streams: Streams) -> None:
        raise NotImplementedError

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        raise NotImplementedError

    def serves(self, command: str) -> bool:
        method = {"convert": "converted", "check": "checked", "score": "scored"}[command]
        return getattr(type(self), method) is not getattr(Reporter, method)


class TextReporter(Reporter):
    """Lines for people: ``file:line:col: severity code message`` on stderr, a
    summary line for batches; score's summary table on stdout."""

    name = "text"

    def outcome(self, outcome: Outcome, streams: Streams) -> None:
        # Without --verbose, a code that repeats in one file is printed once with a count.
        shown = streams.shown(outcome.diagnostics)
        counts = Counter((d.file, d.code) for d in shown)
        printed: set[tuple] = set()
        for d in shown:
            key = (d.file, d.code)
            if not streams.verbose and key in printed:
                continue
            printed.add(key)
            more = counts[key] - 1
            suffix = f" (+{more} more {d.code}; --verbose shows all)" if more and not streams.verbose else ""
            streams.err.write(d.format() + suffix + "\n")

    def converted(self, report: ConvertReport, streams: Streams, batch: bool) -> None:
        if not batch:  # one input: its own error line says it all
            return
        failed = report.failed
        with_errors = sum(1 for o in report.outcomes
                          if o.ok and any(d.severity is Severity.ERROR for d in o.diagnostics))
        line = f"converted {report.converted} of {len(report.outcomes)} file(s)"
        if with_errors:
            line += f" ({with_errors} with errors in the input, see above)"
        if failed:
            names = ", ".join(str(o.source) for o in failed[:10]) + (", ..." if len(failed) > 10 else "")
            line += f"; {len(failed)} failed: {names}"
        streams.err.write(line + "\n")

    def checked(self, report: CheckReport, streams: Streams) -> None:
        """Errors first, then warnings (infos with --verbose), the rarer codes
        before the commoner in each (a defect is not lost among a hundred of one
        kind); without --verbose a code that repeats in one file is its first
        finding with a count; then a summary counting the findings by code."""
        rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
        found = streams.shown(report.findings)
        per_code = Counter(d.code for d in found)
        shown = sorted(found, key=lambda d: (rank[d.severity], per_code[d.code], d.code))  # (stable: files' order)
        repeats = Counter((d.file, d.code) for d in shown)
        printed: set[tuple] = set()
        for d in shown:
            key = (d.file, d.code)
            if streams.verbose:
                streams.out.write(d.format() + "\n")
            elif key not in printed:
                printed.add(key)
                more = repeats[key] - 1
                streams.out.write(d.format() + (f" (and {more} more {d.code} in this file; -v shows each)"
                                                if more else "") + "\n")
        streams.err.write(_check_summary(report, streams) + "\n")

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        from .scoring.report import render_text

        for d in streams.shown(report.diagnostics):
            streams.err.write(d.format() + "\n")
        render_text(report)


class JsonReporter(Reporter):
    """The whole report as one JSON object on stdout."""

    name = "json"

    def converted(self, report: ConvertReport, streams: Streams, batch: bool) -> None:
        streams.out.write(report.to_json() + "\n")

    def checked(self, report: CheckReport, streams: Streams) -> None:
        shown = CheckReport([d for d in report.findings if not streams.quiet or d.severity is Severity.ERROR])
        streams.out.write(shown.to_json())

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        from .scoring.report import write_json

        for d in streams.shown(report.diagnostics):
            streams.err.write(d.format() + "\n")
        write_json(report, streams.out)
        streams.out.write("\n")


def _escape_github(value: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's syntax)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_github_property(value: str) -> str:
    """A workflow command's property value (``file=``, ``title=``): ``:`` and ``,``
    end a property there, and are escaped too."""
    return _escape_github(value).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    """GitHub workflow annotations (``::error file=...,line=...::message``)."""

    name = "github"
    _LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

    def checked(self, report: CheckReport, streams: Streams) -> None:
        for d in report.findings:
            if not streams.quiet or d.severity is Severity.ERROR:
                self._annotate(d, streams)

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        """An annotation for each document's error and warning, then the summary table."""
        from .scoring.report import plain_text, summary

        for d in streams.shown(report.diagnostics):
            self._annotate(d, streams)
        # (the table holds documents' names: none may start a line that the runner takes for a command)
        import secrets

        token = secrets.token_hex(16)
        streams.out.write(f"::stop-commands::{token}\n{plain_text(summary(report))}::{token}::\n")

    def _annotate(self, d: Diagnostic, streams: Streams) -> None:
        where = f"file={_escape_github_property(d.file or '')}"
        if d.line:
            where += f",line={d.line}"
            if d.column:
                where += f",col={d.column}"
        streams.out.write(f"::{self._LEVEL[d.severity]} {where},title={_escape_github_property(d.code)}::"
                          f"{_escape_github(d.message)}\n")


class CsvReporter(Reporter):
    """score: a row a document, with the metric's columns (as ``--per-document`` writes)."""

    name = "csv"

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        from .scoring.report import write_csv

        for d in streams.shown(report.diagnostics):
            streams.err.write(d.format() + "\n")
        write_csv(report, streams.out)


class HtmlReporter(Reporter):
    """score: the HTML report, one self-contained page (as ``--html FILE`` writes it)."""

    name = "html"

    def scored(self, report: ScoreReport, streams: Streams) -> None:
        from .htmlreport import write_page

        for d in streams.shown(report.diagnostics):
            streams.err.write(d.format() + "\n")
        write_page(report, streams.out)


REPORTER_BY_NAME: dict[str, Reporter] = {r.name: r for r in (TextReporter(), JsonReporter(), GithubReporter(),
                                                              CsvReporter(), HtmlReporter())}


def reporter(name: str, command: str) -> Reporter:
    """The reporter of that name, if it presents ``command``'s report (UsageError otherwise)."""
    found = REPORTER_BY_NAME.get(name)
    if found is None or not found.serves(command):
        names = [n for n, r in REPORTER_BY_NAME.items() if r.serves(command)]
        raise UsageError(f"--format for {command} is {', '.join(names[:-1])} or {names[-1]}, not {name!r}")
    return found


def reporter_names(command: str) -> list[str]:
    return [n for n, r in REPORTER_BY_NAME.items() if r.serves(command)]
