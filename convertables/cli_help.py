"""How the command line shows its help: every character of each help text as
written (Typer reads help as markup, which would drop ``<th>`` and ``[default]``),
and the root's list of commands without building each command's options."""

from __future__ import annotations

import inspect
from typing import Optional

from typer.core import TyperCommand


def plain_help(text: Optional[str], command: bool = False) -> Optional[str]:
    """A help text as Rich markup that shows every character of it (``<th>``,
    ``[default: ...]``), its prose paragraphs unwrapped; indented ones (examples)
    keep their lines. A ``command``'s help gets an empty line after its first
    paragraph: Typer dedents the rest as one text but for that text's first line,
    which then keeps the examples' indentation whatever paragraph comes first."""
    if not text:
        return text
    from rich.markup import escape

    paragraphs = [p if p[:1].isspace() or p.startswith("\b") else " ".join(p.split("\n"))
                  for p in inspect.cleandoc(text).split("\n\n")]
    if command and len(paragraphs) > 1:
        paragraphs[1] = "\n" + paragraphs[1]
    return escape("\n\n".join(paragraphs))


def shown_plainly(command):
    """A copy of a command (or the root) whose help texts print as written: Typer
    reads them as markup, and Markdown would drop every ``<tag>``."""
    from copy import copy

    shown = copy(command)
    shown.help, shown.short_help = plain_help(command.help, command=True), plain_help(command.short_help)
    shown.params = []
    for param in command.params:
        param = copy(param)
        param.help = plain_help(getattr(param, "help", None))
        shown.params.append(param)
    return shown


class PlainHelpCommand(TyperCommand):
    """A command whose ``--help`` shows every character of its help texts."""

    def format_help(self, ctx, formatter) -> None:
        return TyperCommand.format_help(shown_plainly(self), ctx, formatter)


def listed_plainly(command):
    return None if command is None else shown_plainly(command)


def listed_declaration(info):
    """A command's declaration as the root's list of commands shows it: its
    name and help, without the parameters (the formats' and metrics' options)."""
    from copy import copy

    def listed() -> None:
        """A stand-in for the list of commands."""

    listed.__name__ = info.callback.__name__
    shown = copy(info)
    shown.help = info.help if info.help is not None else inspect.getdoc(info.callback)
    shown.callback = listed
    return shown
