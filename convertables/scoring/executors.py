"""Where a corpus's documents are scored: worker processes on this machine, or
the workers of a dask.distributed cluster (``score --executor dask``).

Every executor is an :class:`Executor`: it maps a function over a list of items
and gives the results back in the items' order, as they come
(:func:`convertables.scoring.runner.score_documents` decides what is scored where,
through that interface alone; the executors only spread the work). The dask
executor needs the optional extra ``convertables[dask]``; nothing here imports
dask unless it is chosen.
"""

from __future__ import annotations

import logging
import os
import warnings
from abc import ABC, abstractmethod
from collections import deque
from itertools import islice
from typing import Callable, Iterator, Sequence

from ..diagnostics import UsageError
from ..files import signals_held

EXECUTORS = ("local", "dask")

DASK_EXTRA = "pip install 'convertables[dask]'"

# How long reaching a scheduler, and its having a worker, may take before the run is given up:
# an address that answers nothing fails in this time, never hangs.
CONNECT_TIMEOUT_S = 10.0

# Documents go to dask workers in chunks (one task each) of at most this many: each task has a
# cost of its own at the scheduler, so small documents go several to a task; and a chunk of large
# ones must not hold up the rest long.
DASK_CHUNK = 64

# Documents in flight per worker (local or dask), in as many chunks as that makes, two at
# least: enough that none waits for work, and a fixed amount whatever the corpus (the chunks
# grow with the corpus, up to their cap: a fixed count of chunks would not be), so the documents
# sent and the records not yet taken take the same memory for 10,000 documents as for a million.
DOCUMENTS_AHEAD = 128


def chunks_ahead(chunk: int) -> int:
    """Chunks of ``chunk`` documents a worker is sent ahead: :data:`DOCUMENTS_AHEAD` documents, two chunks at least."""
    return max(2, DOCUMENTS_AHEAD // chunk)


class Executor(ABC):
    """Where documents are scored: what the runner asks of an executor, and all it asks.

    A run goes: ``start(workers)`` (how many workers there really are), then
    ``check_reaches(path)`` for the first document's file, then ``map(function, items)``,
    whose results are taken as they come. The runner gives ``map`` functions and items
    that can be pickled; it calls ``start`` before ``map`` each run.

    Used as a context manager: entering readies what can be readied before the work is
    known, and says at once what stands in the way (the dask executor reaches its
    scheduler there); leaving (:meth:`close`) ends what it started, workers, clusters and
    connections, whether the run ended, failed or was interrupted, and does nothing when
    nothing was started. An executor named to :func:`convertables.score` (``"local"``,
    ``"dask"``) is entered and left there; one given as an object is the caller's to
    enter and leave (``with executor: score(..., executor=executor)``).
    """

    name: str = ""
    """How it is called (``--executor``'s value for the two of convertables)."""

    may_score_here: bool = False
    """Whether the runner may score documents in this process rather than send them
    all to :meth:`map`: the first ones (the readers and libraries they need loaded
    once, before workers are forked), and all of them where workers would not pay off
    (one job, a few documents). False: every document goes through :meth:`map`."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @abstractmethod
    def start(self, workers: int) -> int:
        """Ready to map with ``workers`` workers, as asked for (an executor whose workers
        are given, a cluster's, may have more or fewer). Returns how many will really
        work, one at least; a :class:`~convertables.diagnostics.UsageError` in one line
        where none can be had."""

    @abstractmethod
    def check_reaches(self, path: str) -> None:
        """Raises a :class:`~convertables.diagnostics.UsageError` (one line naming ``path``)
        where a worker cannot read ``path``, before any work: workers read the documents
        by their paths."""

    @abstractmethod
    def map(self, function: Callable, items: Sequence) -> Iterator:
        """``function(item)`` for each item, on the workers :meth:`start` readied, yielded in the
        items' order as they come (a result waits only for those before it). ``items`` may
        make each item when asked: a few at a time are taken, so what is sent and what waits
        to be taken stay bounded however many items there are. An error of ``function``
        is raised where its result would have been. When the caller stops taking results,
        or an exception (Ctrl-C's, a signal's) is raised while it waits, what is not yet
        sent is not sent and nothing more is waited for (the local executor kills its
        workers then; the dask one gives its chunks up, and :meth:`close` ends the rest)."""

    def close(self) -> None:
        """Ends what was started (left by leaving the context); nothing to end is fine."""


class LocalProcesses(Executor):
    """Worker processes on this machine (``concurrent.futures``), which see its files
    as it does; this process scores where workers would not pay off."""

    name = "local"
    may_score_here = True

    def __init__(self) -> None:
        self.workers: int | None = None

    def start(self, workers: int) -> int:
        """The processes are started when work comes, ``workers`` of them, one at least."""
        self.workers = max(1, workers)
        return self.workers

    def check_reaches(self, path: str) -> None:
        """The workers are this process's children, on this machine, in its working folder: they see what it sees."""

    def map(self, function: Callable, items: Sequence) -> Iterator:
        """``function(item)`` for each item in the processes :meth:`start` asked for, in the
        items' order (``items`` may make each item when asked: only a chunk's are made at a time).
        Chunks are sent as earlier ones come back, a few a worker ahead: the
        records waiting to be taken stay few, however long the corpus (a pool's own
        ``map`` sends every chunk at once, and its results pile up)."""
        from concurrent.futures import ProcessPoolExecutor  # (here: imports a single job does not need)

        if self.workers is None:
            raise RuntimeError("LocalProcesses.map before start()")
        workers = self.workers
        size = max(1, min(LOCAL_CHUNK, len(items) // (workers * 32)))
        ahead = chunks_ahead(size)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: deque = deque()
            try:
                for start in range(0, len(items), size):
                    chunk = list(items[start:start + size])
                    with signals_held():  # (a submit may fork a worker: a signal then is raised after, not lost)
                        pending.append(pool.submit(_chunk, function, chunk))
                    if len(pending) >= workers * ahead:
                        yield from pending.popleft().result()
                while pending:
                    yield from pending.popleft().result()
            except BaseException:  # interrupted (a signal) or failed: the workers end now, not after their chunks
                _end_workers(pool)
                raise
            finally:
                for future in pending:  # (stopped early: what was not started is not)
                    future.cancel()


def _worker_signals() -> None:
    """In a worker (set once): SIGTERM and SIGHUP end it at once (the parent, which gets
    them too, or ends it, says what happened), and Ctrl-C is the parent's to
    handle (a terminal sends it to the worker too)."""
    import signal

    global _STARTED_IN
    _STARTED_IN = os.getpid()
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # (forked while the parent held them)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _end_workers(pool) -> None:
    """Stop a process pool's workers without waiting for their work."""
    _quiet_pool_thread()
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (the pool has no public way)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()  # (a worker holds nothing to clean up; one not yet set up would print a traceback)
    for process in processes:
        process.join(timeout=5)


def _quiet_pool_thread() -> None:
    """Leave unsaid the error a process pool's own thread may raise as the pool
    is stopped: seeing its workers gone, it marks as failed the work it still
    holds, and fails on work cancelled a moment before (InvalidStateError). The
    run says once that it was interrupted; that thread's traceback is noise."""
    import threading
    from concurrent.futures import InvalidStateError

    before = threading.excepthook
    if getattr(before, "quiet_pool_thread", False):
        return

    def hook(args) -> None:
        if not isinstance(args.exc_value, InvalidStateError):
            before(args)

    hook.quiet_pool_thread = True
    threading.excepthook = hook


# Documents a chunk sent to a local worker at most.
LOCAL_CHUNK = 64


def _chunk(function: Callable, items: list) -> list:
    if os.getpid() != _STARTED_IN:  # (in a worker process: once)
        _worker_signals()
    return [function(item) for item in items]


_STARTED_IN = os.getpid()
"""The process that imported this module: a worker forked from it differs."""


class DaskCluster(Executor):
    """The workers of a dask.distributed cluster: the scheduler at ``scheduler``
    (e.g. ``tcp://10.0.0.5:8786``), or, without one, a ``LocalCluster`` of worker
    processes on this machine started for the run and closed after it.

    Workers read the documents themselves, by their paths: the paths must reach
    the same files on every worker (a shared file system) and convertables must
    be installed there. Used as a context manager: entering connects to the
    scheduler (a local cluster is started when the work comes, with as many
    workers as asked for then); leaving closes the connection and a cluster started here.
    """

    name = "dask"

    def __init__(self, scheduler: str | None = None, timeout: float | None = None):
        _require_dask()
        self.scheduler = scheduler
        self.timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
        self.client = None
        self.cluster = None
        self._log_levels: dict[str, int] | None = None

    def __enter__(self) -> DaskCluster:
        if self.scheduler is not None:
            self._connect(self.scheduler)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, workers: int) -> int:
        """Ready to score: connected, or a local cluster of ``workers`` processes
        started. Returns the number of workers that will score."""
        if self.client is None:
            if self.scheduler is not None:
                self._connect(self.scheduler)
            else:
                self._start_local(workers)
        return len(self.client.scheduler_info()["workers"])

    def check_reaches(self, path: str) -> None:
        """Refuses to go on when a worker cannot see ``path`` (workers read the files by their paths)."""
        try:
            seen = self.client.run(os.path.exists, path)
        except Exception as exc:
            raise UsageError(f"dask: asking the workers for {path} failed: {_reason(exc)}") from None
        blind = sorted(worker for worker, exists in seen.items() if not exists)
        if blind:
            raise UsageError(
                f"dask: {path} cannot be read on the worker{'s' if len(blind) > 1 else ''} {', '.join(blind)}: "
                "the workers read the documents by their paths; give paths that reach the same files on every "
                "worker (absolute paths on a shared file system: relative ones are taken from each worker's own "
                "working folder)")

    def map(self, function: Callable, items: Sequence) -> Iterator:
        """``function(item)`` for each item on the workers, in the items' order, as they
        come: the items go in chunks, a bounded number in flight. A worker lost, the
        scheduler gone: a :class:`~convertables.diagnostics.UsageError` in one line."""
        if self.client is None:
            raise RuntimeError("DaskCluster.map before start()")
        workers = max(1, len(self.client.scheduler_info()["workers"]))
        chunk = max(1, min(DASK_CHUNK, len(items) // (workers * 32)))
        items = iter(items)
        pending: deque = deque()

        def send() -> None:
            batch = list(islice(items, chunk))
            if batch:
                pending.append(self.client.submit(_each, function, batch, pure=False))

        for _ in range(workers * chunks_ahead(chunk)):
            send()
        while pending:
            head = pending.popleft()
            send()
            try:
                results = head.result()
            except Exception as exc:  # a worker lost, the scheduler gone: one line, not dask's traceback
                raise UsageError(f"dask: the cluster failed while scoring: {_reason(exc)}") from None
            del head  # (released: the cluster forgets the chunk's records)
            yield from results

    def close(self) -> None:
        """Closes the connection, and the local cluster if one was started; dask's log levels back."""
        try:
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            self.client = self.cluster = None
            if self._log_levels is not None:
                for name, level in self._log_levels.items():
                    logging.getLogger(name).setLevel(level)
                self._log_levels = None

    def _connect(self, address: str) -> None:
        self._hush()
        from distributed import Client
        from distributed.comm import resolve_address

        try:
            # (refused before a client is made: a client whose start failed on such an address
            # spends its clean-up at exit waiting for a loop that is gone)
            resolve_address(address)
        except Exception as exc:
            self.close()
            raise UsageError(f"dask: {address} is not the address of a scheduler here: {_reason(exc)}") from None
        try:
            self.client = Client(address, timeout=self.timeout, set_as_default=False)
        except Exception as exc:  # refused, timed out, an address dask cannot parse
            self.close()
            raise UsageError(f"dask: cannot reach the scheduler at {address} "
                             f"(waited up to {self.timeout:g} s): {_reason(exc)}") from None
        try:
            self.client.wait_for_workers(1, timeout=self.timeout)
        except Exception:
            self.close()
            raise UsageError(f"dask: the scheduler at {address} has no workers "
                             f"(waited {self.timeout:g} s for one)") from None

    def _start_local(self, workers: int) -> None:
        self._hush()
        from distributed import Client, LocalCluster

        try:
            # Worker processes (not threads: scoring holds the GIL), listening on this machine only;
            # its HTTP server takes another port where the usual one is taken, and that is not news.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Port .* is already in use")
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=None,
                                            silence_logs=logging.CRITICAL)
            self.client = Client(self.cluster, timeout=self.timeout, set_as_default=False)
        except Exception as exc:
            self.close()
            raise UsageError(f"dask: cannot start a local cluster: {_reason(exc)}") from None

    def _hush(self) -> None:
        """dask's own log lines (connections, workers coming and going) are kept off
        standard error while the run lasts: what goes wrong is said in one line."""
        if self._log_levels is None:
            import distributed  # noqa: F401  (its loggers, with the levels its configuration gives them)

            # (dask's configuration gives some of them levels of their own: each is set)
            names = ["distributed", *(name for name in logging.root.manager.loggerDict
                                      if name.startswith("distributed."))]
            self._log_levels = {name: logging.getLogger(name).level for name in names}
            for name in names:
                logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _each(function: Callable, batch: list) -> list:
    """A dask task: ``function`` over a chunk of items, on a worker."""
    return [function(item) for item in batch]


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def dask_installed() -> bool:
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _require_dask() -> None:
    if not dask_installed():
        raise UsageError(f"--executor dask needs dask.distributed, which is not installed: {DASK_EXTRA}")


def executor_for(name: str | Executor | None = "local", scheduler: str | None = None) -> Executor:
    """The executor named (``local`` or ``dask``), checked: a scheduler is for dask
    only, and dask must be installed (the ``dask`` extra). An :class:`Executor` given
    is that executor (a scheduler beside it is refused: it has its own workers)."""
    if isinstance(name, Executor):
        if scheduler is not None:
            raise UsageError("a scheduler is for the executor named dask, not for an executor given as an object")
        return name
    name = name or "local"
    if not isinstance(name, str):
        raise UsageError(f"the executor is local, dask or an Executor (convertables.scoring.executors), "
                         f"not {type(name).__name__}")
    if name not in EXECUTORS:
        raise UsageError(f"--executor is local or dask, not {name!r}")
    if name == "local":
        if scheduler is not None:
            raise UsageError("--scheduler is the address of a dask scheduler: it needs --executor dask")
        return LocalProcesses()
    if scheduler is not None and not scheduler.strip():
        raise UsageError("--scheduler is empty: give the scheduler's address (e.g. tcp://10.0.0.5:8786)")
    return DaskCluster(scheduler)
