"""How a run ends on a signal: Ctrl-C, SIGTERM (timeout, Slurm, Kubernetes, CI
runners) and SIGHUP all raise where the program is, as Ctrl-C raises
KeyboardInterrupt, so that every command discards its partial outputs alike and
exits with 128 + the signal's number."""

from __future__ import annotations

import sys


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is, as Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def interrupted_code(exc: KeyboardInterrupt) -> int:
    """The exit status of a run ended by a signal: 128 + its number (130 for Ctrl-C)."""
    return 128 + exc.signum if isinstance(exc, Interrupted) else 130


_SIGNALLED: list[int] = []
"""The signals received: one raised where a handler cannot raise (Python
ignores what is raised in some of its own hooks, around a fork) is raised at
the next document instead (:func:`raise_if_signalled`)."""


def _on_signal(signum, frame) -> None:
    _SIGNALLED.append(signum)
    raise Interrupted(signum)


def signalled() -> bool:
    """Whether a signal has come during this run."""
    return bool(_SIGNALLED)


def raise_if_signalled() -> None:
    if _SIGNALLED:
        raise Interrupted(_SIGNALLED[0])


def exit_soon(code: int, seconds: float = 5.0) -> None:
    """After an interrupt, the process ends within ``seconds`` even where a
    thread of a library waits on for what was interrupted (a worker pool's at
    exit): the outputs are already discarded by then."""
    import os
    import threading

    def end() -> None:
        sys.stderr.flush()
        os._exit(code)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()


def catch_signals() -> None:
    """Ctrl-C, SIGTERM and SIGHUP all end a run alike (as KeyboardInterrupt)."""
    import signal

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _on_signal)
