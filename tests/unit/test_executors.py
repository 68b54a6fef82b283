"""The executors' one interface (convertables/scoring/executors.py, ``Executor``): both of
convertables implement it with its signatures, the runner asks nothing else of them, and an
executor written here, scoring in this process, gives the report the local one gives."""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Callable, Iterator, Sequence

import pytest

from convertables import UsageError, score
from convertables.scoring import executors
from convertables.scoring.executors import DaskCluster, Executor, LocalProcesses, executor_for
from tests.helpers import structure_corpus



class InProcess(Executor):
    """Scores in this process, one item at a time, and keeps what it was asked."""

    name = "in-process"

    def __init__(self, unreadable: str | None = None):
        self.unreadable = unreadable
        self.asked: list[int] = []
        self.checked: list[str] = []
        self.mapped = 0
        self.closed = 0

    def start(self, workers: int) -> int:
        self.asked.append(workers)
        return 1

    def check_reaches(self, path: str) -> None:
        self.checked.append(path)
        if path == self.unreadable or not os.path.exists(path):
            raise UsageError(f"in-process: {path} cannot be read")

    def map(self, function: Callable, items: Sequence) -> Iterator:
        for item in items:
            self.mapped += 1
            yield function(item)

    def close(self) -> None:
        self.closed += 1


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    """Twelve ICDAR 2013 documents: most found, some with changed cells, one missing, one unreadable, a stray."""
    return structure_corpus(tmp_path / "gt", tmp_path / "res", 12)


def test_an_executor_of_one_s_own_gives_the_local_report(tmp_path: Path):
    gt, res = _corpus(tmp_path)
    local = score(gt, res, jobs=1)
    seen: list[str] = []
    with InProcess() as own:
        on_own = score(gt, res, jobs=4, executor=own, on_document=lambda record, total: seen.append(record["document"]))
        assert own.closed == 0  # (given, it is the caller's: score leaves it open)
    assert own.closed == 1
    assert on_own == local and [d.format() for d in on_own.diagnostics] == [d.format() for d in local.diagnostics]
    assert seen == [f"doc{n:02}" for n in range(12)] == [r["document"] for r in local["documents"]]
    assert local["errors"] and local["unpaired"]["result"] == [str(res / "stray-str-result.xml")]
    assert 0 < local.total["f1"] < 1
    # every document went through its map (it does not say it may score here), after start and the check
    assert own.mapped == 12 and own.asked == [4] and on_own.workers == 1
    assert own.checked == [str(gt / "doc00-str.xml")]


def test_an_executor_s_refusal_of_a_path_stops_the_run_before_scoring(tmp_path: Path):
    gt, res = _corpus(tmp_path)
    own = InProcess(unreadable=str(gt / "doc00-str.xml"))
    with pytest.raises(UsageError, match=r"in-process: .*doc00-str.xml cannot be read"):
        score(gt, res, executor=own)
    assert own.mapped == 0


def test_an_executor_given_takes_no_scheduler_and_a_name_is_checked():
    own = InProcess()
    assert executor_for(own) is own
    with pytest.raises(UsageError, match="a scheduler is for the executor named dask"):
        executor_for(own, "tcp://127.0.0.1:8786")
    with pytest.raises(UsageError, match="the executor is local, dask or an Executor .*, not object"):
        executor_for(object())
    with pytest.raises(UsageError, match="--executor is local or dask, not 'threads'"):
        executor_for("threads")
    assert isinstance(executor_for("local"), LocalProcesses) and isinstance(executor_for(None), LocalProcesses)


@pytest.mark.parametrize("executor", [LocalProcesses, DaskCluster])
def test_both_executors_are_executors_with_its_signatures(executor: type):
    assert issubclass(executor, Executor) and not executor.__abstractmethods__
    for method in ("start", "check_reaches", "map", "close", "__enter__", "__exit__"):
        assert inspect.signature(getattr(executor, method)).parameters.keys() == \
            inspect.signature(getattr(Executor, method)).parameters.keys(), method
    assert executor.name in executors.EXECUTORS


def test_an_executor_must_say_how_it_starts_checks_and_maps():
    class Unfinished(Executor):
        def map(self, function, items):
            return iter(())

    with pytest.raises(TypeError, match="check_reaches.*start|start.*check_reaches"):
        Unfinished()


def test_local_processes_start_the_workers_asked_for_and_map_in_order():
    local = LocalProcesses()
    with local:
        assert local.start(2) == 2 and local.start(0) == 1
        local.check_reaches("/no/such/file")  # (its workers see what this process sees: nothing to refuse)
        local.start(2)
        assert list(local.map(abs, range(-300, 0))) == [abs(v) for v in range(-300, 0)]
    with pytest.raises(RuntimeError, match="before start"):
        next(LocalProcesses().map(abs, [1]))


def test_a_stopped_pools_own_thread_failing_on_cancelled_work_says_nothing(monkeypatch, capsys):
    import threading
    from concurrent.futures import Future, InvalidStateError

    monkeypatch.setattr(threading, "excepthook", threading.__excepthook__)
    executors._quiet_pool_thread()
    executors._quiet_pool_thread()  # (set once)

    def fail_on_cancelled() -> None:  # what the pool's thread does when its workers are gone
        future = Future()
        future.cancel()
        future.set_exception(RuntimeError("broken pool"))

    def other_failure() -> None:
        raise ValueError("a thread's own error")

    for target in (fail_on_cancelled, other_failure):
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    said = capsys.readouterr().err
    assert InvalidStateError.__name__ not in said
    assert "ValueError: a thread's own error" in said
