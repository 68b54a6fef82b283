"""The progress bar every long command shows (convert, check, score)."""

from __future__ import annotations

import sys


class Progress:
    """The progress of a long command, one look for all: a bar on standard error
    while it is a terminal and there are several items; nothing into a pipe or
    a file. It appears with the first item done and goes when closed."""

    def __init__(self, description: str):
        self.description = description
        self.done, self.total = 0, 0
        self._bar = self._task = None

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self._bar is None:
            if total < 2 or done >= total or not sys.stderr.isatty():
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeRemainingColumn(), transient=True, console=Console(stderr=True))
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=total)
        self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
