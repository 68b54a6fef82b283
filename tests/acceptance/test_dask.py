"""Scoring on a dask.distributed cluster (score --executor dask): a real local
cluster, its scheduler and workers processes on this machine, gives the report
of the local run, record for record; and what goes wrong is said in one line."""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import UsageError, score
from convertables.cli import app
from convertables.scoring import executors
from tests.conftest import ROOT
from tests.helpers import structure_corpus

SAMPLE_HTML = (ROOT / "samples" / "html" / "sample.html").read_text()

try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False
# (a test's own cluster takes another port for its HTTP server where another cluster has the usual one)
pytestmark = pytest.mark.filterwarnings("ignore:Port .* is already in use")
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="dask.distributed is not installed "
                                                      "(pip install 'convertables[dask]')")


def _structure_corpus(tmp_path: Path) -> tuple[Path, Path]:
    """30 ICDAR 2013 documents: most found, some with changed cells, one missing, one unreadable, a stray result."""
    return structure_corpus(tmp_path / "str-gt", tmp_path / "str-res", 30)


def _teds_corpus(tmp_path: Path) -> tuple[Path, Path]:
    """30 HTML tables: some alike, some with a cell's text changed, a row dropped, a span lost."""
    gt, res = tmp_path / "html-gt", tmp_path / "html-res"
    gt.mkdir()
    res.mkdir()
    changes = [("", ""), ("Austria", "Australia"), ("<tr><td>Belgium</td><td>10.9</td><td></td></tr>", ""),
               (' colspan="2"', ""), ("8.4", "8,4")]
    for n in range(30):
        (gt / f"t{n:02}.html").write_text(SAMPLE_HTML.replace("Austria", f"Austria {n}"))
        before, after = changes[n % len(changes)]
        text = SAMPLE_HTML.replace("Austria", f"Austria {n}")
        (res / f"t{n:02}.html").write_text(text.replace(before, after) if before else text)
    return gt, res


def _json_report(*args: str) -> dict:
    run = CliRunner().invoke(app, ["score", *args, "--format", "json"])
    assert run.exit_code in (0, 1), run.output
    report = json.loads(run.stdout)
    report.pop("workers", None)  # (how the documents were spread: the one thing that may differ)
    return report


@pytest.fixture(scope="module")
def cluster():
    """A local dask cluster for this module's tests: a scheduler and two worker processes, closed after."""
    if not HAVE_DASK:
        pytest.skip("dask.distributed is not installed (pip install 'convertables[dask]')")
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as local:
        yield local


@pytest.mark.slow
@needs_dask
@pytest.mark.parametrize("metric, corpus", [("structure", _structure_corpus), ("teds", _teds_corpus)])
def test_a_dask_cluster_gives_the_local_run_s_report(tmp_path: Path, cluster, metric: str, corpus):
    gt, res = corpus(tmp_path)
    local = _json_report("--gt", str(gt), "--result", str(res), "--metric", metric, "--jobs", "1")
    on_dask = _json_report("--gt", str(gt), "--result", str(res), "--metric", metric,
                           "--executor", "dask", "--scheduler", cluster.scheduler_address)
    assert on_dask == local
    assert [r["document"] for r in on_dask["documents"]] == sorted(r["document"] for r in local["documents"])
    assert len(local["documents"]) == 30 and 0 < local["total"]["f1" if metric == "structure" else "teds"] < 1
    if metric == "structure":
        assert local["errors"] and local["unpaired"]["result"]  # (an unreadable result, a stray: alike on dask)


@pytest.mark.slow
@needs_dask
def test_records_come_back_in_document_order_as_they_are_scored(tmp_path: Path, cluster):
    gt, res = _structure_corpus(tmp_path)
    seen: list[str] = []
    on_dask = score(gt, res, executor="dask", scheduler=cluster.scheduler_address,
                    on_document=lambda record, total: seen.append(record["document"]))
    local = score(gt, res)
    assert seen == [r["document"] for r in local["documents"]] == [f"doc{n:02}" for n in range(30)]
    assert on_dask == local and on_dask.workers == 2


def _after(item: tuple[float, int]) -> int:
    time.sleep(item[0])
    return item[1]


@pytest.mark.slow
@needs_dask
def test_results_keep_the_items_order_whatever_order_they_are_done_in(cluster):
    items = [((8 - n) * 0.05, n) for n in range(9)]  # (the first sent is the last done)
    with executors.DaskCluster(cluster.scheduler_address) as on_dask:
        assert on_dask.start(2) == 2
        assert list(on_dask.map(_after, items)) == list(range(9))
        assert list(on_dask.map(_after, [(0, n) for n in range(1000)])) == list(range(1000))  # (in chunks)


@pytest.mark.slow
@needs_dask
def test_without_a_scheduler_a_local_cluster_of_jobs_workers_is_started_and_closed(tmp_path: Path):
    import psutil

    gt, res = _teds_corpus(tmp_path)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    on_dask = score(gt, res, "teds", executor="dask", jobs=2)
    assert on_dask == score(gt, res, "teds") and on_dask.workers == 2
    deadline = time.monotonic() + 10  # (the workers' processes are gone once closed)
    while {p.pid for p in psutil.Process().children(recursive=True)} - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not {p.pid for p in psutil.Process().children(recursive=True)} - before
    run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--metric", "teds",
                                   "--executor", "dask", "--jobs", "2"])
    assert run.exit_code == 0, run.output
    assert "scored in 2 worker processes" in run.stdout and not run.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
@needs_dask
def test_a_scheduler_that_cannot_be_reached_is_said_in_one_line_in_time(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT_S", 1.5)
    gt, res = _structure_corpus(tmp_path)
    address = f"tcp://127.0.0.1:{_free_port()}"  # (nothing listens there)
    start = time.monotonic()
    run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--executor", "dask",
                                   "--scheduler", address])
    assert time.monotonic() - start < 15
    assert run.exit_code == 2 and not run.stdout
    assert run.stderr == (f"error: dask: cannot reach the scheduler at {address} (waited up to 1.5 s): "
                          f"OSError: Timed out trying to connect to {address} after 1.5 s\n")
    for bad, why in (("tcp://127.0.0.1", "missing port number"), ("http://127.0.0.1:8786", "unknown address scheme")):
        run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--executor", "dask",
                                       "--scheduler", bad])
        assert run.exit_code == 2 and run.stderr.startswith(f"error: dask: {bad} is not the address of a scheduler")
        assert why in run.stderr and len(run.stderr.splitlines()) == 1


@pytest.mark.slow
@needs_dask
def test_a_scheduler_without_workers_is_said_in_time(tmp_path: Path, monkeypatch):
    from distributed import LocalCluster

    monkeypatch.setattr(executors, "CONNECT_TIMEOUT_S", 1.0)
    gt, res = _structure_corpus(tmp_path)
    with LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as empty:
        with pytest.raises(UsageError, match="has no workers"):
            score(gt, res, executor="dask", scheduler=empty.scheduler_address)


@pytest.mark.slow
@needs_dask
def test_files_a_worker_cannot_read_are_refused_before_scoring(cluster):
    with executors.DaskCluster(cluster.scheduler_address) as on_dask:
        assert on_dask.start(1) == 2
        on_dask.check_reaches(str(ROOT / "samples"))
        with pytest.raises(UsageError, match="cannot be read on the workers .* a shared file system"):
            on_dask.check_reaches("/no/such/folder/gt-str.xml")


def test_dask_without_the_extra_is_a_usage_error_naming_it(tmp_path: Path, monkeypatch):
    gt, res = _structure_corpus(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)  # (import distributed fails, as where it is missing)
    run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--executor", "dask"])
    assert run.exit_code == 2
    assert run.stderr == ("error: --executor dask needs dask.distributed, which is not installed: "
                          "pip install 'convertables[dask]'\n")


@pytest.mark.slow
def test_executor_and_scheduler_are_checked(tmp_path: Path):
    gt, res = _structure_corpus(tmp_path)
    for args, said in ((["--executor", "spark"], "error: --executor is local or dask, not 'spark'\n"),
                       (["--scheduler", "tcp://127.0.0.1:8786"], "error: --scheduler is the address of a dask "
                                                                "scheduler: it needs --executor dask\n")):
        run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), *args])
        assert run.exit_code == 2 and run.stderr == said
    with pytest.raises(UsageError, match="--executor is local or dask"):
        score(gt, res, executor="threads")
