"""The benchmark script (benchmarks/run.py): it runs from a checkout and prints its table."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "run.py"


def _module():
    spec = importlib.util.spec_from_file_location("benchmarks_run", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_script_prints_a_row_of_figures_for_every_command():
    run = subprocess.run([sys.executable, str(SCRIPT), "--runs", "2", "--only", "ctdar-20"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("ctdar-20 ")]
    assert [re.sub(r"( \(default\))?\s{2,}.*", "", line[13:]) for line in rows] == [
        "bare lxml parse of the 40 files", "score --metric ctdar-b --jobs 1", "score --metric ctdar-b --jobs 2"]
    for line in rows:
        median, low, high, ratio, peak = line.split()[-5:]
        assert 0 < float(low) <= float(median) <= float(high)
        assert ratio == "baseline" if "bare lxml" in line else float(ratio) > 1
        assert float(peak) > 10


def test_instructions_of_every_process_are_added_up():
    report = (
        "==101== Cachegrind, a high-precision tracing profiler\n"
        "==102== I   refs:      1,234,567\n"  # a forked worker, done first
        "==101== \n"
        "==101== I   refs:      882,201,621\n"
    )
    assert _module().instructions_in(report) == 882_201_621 + 1_234_567
    assert _module().instructions_in("==7== error: no such file\n") is None


@pytest.mark.slow
def test_the_scale_benchmark_generates_a_corpus_scores_it_and_deletes_it(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "scale.py"), "--documents", "150", "300",
                          "--metrics", "structure", "teds", "--jobs", "1", "--tmp", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines() if line.startswith("generated ")]
    assert [(r[1], r[2]) for r in rows] == [("150", "structure"), ("150", "teds"), ("300", "structure"),
                                            ("300", "teds")]
    for _, _, _, workers, seconds, rate, tree, one, report, total in rows:
        assert workers == "1*" and float(seconds) > 0 and float(rate) > 0  # (--jobs 1: no worker process)
        assert float(one) > 10 and float(tree) > 10 and float(report) > 0
        assert 0.5 < float(total) < 1  # (a fifth of the results are the ground truth's; the others differ)
    assert "structure: 150 -> 300 documents: peak x" in run.stdout
    assert not list(tmp_path.iterdir())  # (the corpora are deleted)


def test_the_pages_benchmark_reads_the_same_tables_from_each_dialect(tmp_path):
    from convertables import read

    html, markdown, latex = _module()._page_tables(3)
    grids = []
    for name, text in (("t.html", html), ("t.md", markdown), ("t.tex", latex)):
        (tmp_path / name).write_text(text)
        doc = read(tmp_path / name)
        grids.append([sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in t.cells())
                      for t in doc.tables])
    assert grids[0] == grids[1] == grids[2]
    assert len(grids[0]) == 3 and len(grids[0][0]) == 168
