"""Diagnostics: findings as data, shared by readers, ``check`` and the CLI.

A :class:`Diagnostic` has a stable ``code`` (documented in ``docs/diagnostics.md``),
a :class:`Severity`, the file, line and column where known, a message and an
optional hint. Readers append diagnostics to a :class:`Diagnostics` collection
and keep going where they can; a problem that stops a reader is raised as
:class:`InputError`, which carries its diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Iterator


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding about an input: a code, its severity, a message, and where."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None

    def location(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def format(self) -> str:
        """One line: ``file:line:col: severity CODE message``."""
        text = f"{self.location()}: {self.severity.value} {self.code} {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
        }


def internal_error(exc: BaseException, file: str | None, line: int | None = None, *,
                   report_with: str = "the input file", hint: bool = True) -> Diagnostic:
    """An unexpected exception, a bug of ours, as the one finding ``internal-error``
    on the input it met (every command says it so, and goes on to the next
    input): its kind and text, and a request to report it with ``report_with``,
    as the hint (``hint``) or at the message's end (a report that lists messages only)."""
    message = f"unexpected {type(exc).__name__}: {exc}"
    request = f"please report this with {report_with}"
    if hint:
        return Diagnostic("internal-error", Severity.ERROR, message, file, line, hint=request)
    return Diagnostic("internal-error", Severity.ERROR, f"{message} ({request})", file, line)


class InputError(Exception):
    """An input that cannot be read (or an output that cannot be written).

    Raised with the diagnostic that explains it; the CLI prints that one line
    and moves on to the next file of a batch.
    """

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


class UsageError(Exception):
    """The user asked for something that cannot be done (exit code 2)."""


@dataclass(slots=True)  # (slots: nothing rides on it beside its findings; a reader returns what it found)
class Diagnostics:
    """A collection that readers append to; ``file`` is filled in for them."""

    file: str | None = None
    items: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        code: str,
        severity: Severity,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> Diagnostic:
        diagnostic = Diagnostic(code, severity, message, self.file, line, column, hint)
        self.items.append(diagnostic)
        return diagnostic

    def error(self, code: str, message: str, **where) -> Diagnostic:
        return self.add(code, Severity.ERROR, message, **where)

    def warning(self, code: str, message: str, **where) -> Diagnostic:
        return self.add(code, Severity.WARNING, message, **where)

    def info(self, code: str, message: str, **where) -> Diagnostic:
        return self.add(code, Severity.INFO, message, **where)

    def fail(self, code: str, message: str, **where) -> InputError:
        """Build (not raise) the error that stops reading this input."""
        return InputError(Diagnostic(code, Severity.ERROR, message, self.file, **where))

    def extend(self, diagnostics: list[Diagnostic]) -> None:
        self.items.extend(replace(d, file=d.file or self.file) for d in diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def codes(self) -> list[str]:
        return [d.code for d in self.items]
