"""The ``opendataloader`` profile beside opendataloader-bench's own table evaluator,
on the same pages, in one run.

    python benchmarks/profile_opendataloader.py [--bench PATH/TO/opendataloader-bench]
        [--bench-python PATH/TO/venv/bin/python] [--corpus PATH] [--runs 3]

or with ``ODL_BENCH`` and ``ODL_BENCH_PYTHON`` in the environment. The benchmark
(github.com/opendataloader-project/opendataloader-bench; its ``src/evaluator_table.py``
with apted, rapidfuzz, lxml and beautifulsoup4 installed in ``--bench-python``'s
environment) is run from where it lies, in a subprocess, by a small driver that
calls its ``evaluate_table`` on every page: nothing of it is part of this project.
Without ``--bench``, convertables alone is timed.

Two sets of pages, each scored by both:

* ``corpus``: the 12 ground-truth pages of the corpus's copy
  (``markdown-pages/opendataloader-bench``, ``gt/`` and ``pred/<parser>/``) for each
  of the seven parsers: 84 pages;
* ``full``: the benchmark's own ``ground-truth/markdown`` against each parser's
  ``prediction/<parser>/markdown`` (all 200 pages a parser, 42 of them with tables in
  the ground truth: 294 table pages), where ``--bench`` holds them.

convertables runs as a user runs it: ``convertables score --gt GT --result
PARSER --profile opendataloader --format json``, one command a parser, each a
fresh process (interpreter start-up and imports included, after one untimed
round that leaves the bytecode compiled, as an installed package has it). The
benchmark's evaluator runs once a set, one process over all the parsers (its
imports counted once in its total; a parser's row gives the CPU time its pages
took in that process, without them). Times are CPU time (user and system, of the processes and
their children, from ``getrusage``) and wall-clock time, the median of
``--runs`` rounds, the two tools taking turns within a round. Each page's
figures are compared too (teds and teds_s), so that both are known to have
scored the same thing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONVERTABLES_CORPUS", ROOT.parent / "shared" / "corpus"))
PARSERS = ("docling", "marker", "markitdown", "mineru", "opendataloader", "opendataloader-hybrid", "pymupdf4llm")

# Run with the benchmark's Python: argv is its checkout, then a JSON list of
# [parser, gt folder, prediction folder]. Prints, as JSON, each parser's CPU
# seconds (in this process) and its pages' (teds, teds_s).
DRIVER = """
import json, os, sys, time
sys.path.insert(0, os.path.join(sys.argv[1], "src"))
from evaluator_table import evaluate_table
found = {}
for parser, gt, pred in json.loads(sys.argv[2]):
    start, scores = time.process_time(), {}
    for name in sorted(os.listdir(gt)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(gt, name), encoding="utf-8") as f:
            truth = f.read()
        path = os.path.join(pred, name)
        prediction = ""
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                prediction = f.read()
        teds, teds_s = evaluate_table(truth, prediction)
        if teds is not None:
            scores[name[:-3]] = [teds, teds_s]
    found[parser] = {"cpu": time.process_time() - start, "scores": scores}
print(json.dumps(found))
"""

# Where PYTHONDONTWRITEBYTECODE is set, every run would compile every module
# again: an installed package has its bytecode.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str]) -> tuple[float, float, str]:
    """CPU seconds (the process and its children), wall seconds, standard output."""
    cpu, start = _children_cpu(), time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=_ENV, check=False)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return cpu, wall, out.stdout


def _command() -> list[str]:
    script = shutil.which("convertables", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "convertables"]


def ours(command: list[str], gt: Path, result: Path) -> tuple[float, float, dict[str, tuple[float, float]]]:
    cpu, wall, out = _timed([*command, "score", "--gt", str(gt), "--result", str(result),
                             "--profile", "opendataloader", "--format", "json"])
    report = json.loads(out)
    scores = {}
    for doc in report["documents"]:
        if doc.get("teds") is not None:
            scores[doc["document"]] = (doc["teds"], doc["teds_struct"])
    return cpu, wall, scores


def theirs(python: str, bench: Path, pages: list[tuple[str, Path, Path]]):
    with tempfile.TemporaryDirectory() as folder:
        driver = Path(folder, "driver.py")
        driver.write_text(DRIVER)
        listed = json.dumps([[parser, str(gt), str(pred)] for parser, gt, pred in pages])
        cpu, wall, out = _timed([python, str(driver), str(bench), listed])
    return cpu, wall, json.loads(out)


def _sets(corpus: Path, bench: Path | None) -> list[tuple[str, list[tuple[str, Path, Path]]]]:
    sets = []
    pages = corpus / "markdown-pages" / "opendataloader-bench"
    if (pages / "gt").is_dir():
        sets.append(("corpus", [(p, pages / "gt", pages / "pred" / p) for p in PARSERS]))
    else:
        print(f"(no corpus copy at {pages}: its set is left out)")
    if bench is not None:
        gt, pred = bench / "ground-truth" / "markdown", bench / "prediction"
        if gt.is_dir() and all((pred / p / "markdown").is_dir() for p in PARSERS):
            sets.append(("full", [(p, gt, pred / p / "markdown") for p in PARSERS]))
        else:
            print(f"({bench} holds no ground-truth/markdown and prediction/<parser>/markdown: no full set)")
    return sets


def _compare(mine: dict, official: dict) -> tuple[int, int, float]:
    """Pages scored by either, pages equal to 1e-9 on teds and teds_s (a page one
    side did not score is not equal), the largest difference."""
    both = mine.keys() & official.keys()
    worst = max((abs(a - b) for k in both for a, b in zip(mine[k], official[k])), default=0.0)
    equal = sum(all(abs(a - b) <= 1e-9 for a, b in zip(mine[k], official[k])) for k in both)
    return len(mine.keys() | official.keys()), equal, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, default=os.environ.get("ODL_BENCH"),
                        help="the opendataloader-bench checkout (default: $ODL_BENCH)")
    parser.add_argument("--bench-python", default=os.environ.get("ODL_BENCH_PYTHON"),
                        help="a Python with the evaluator's requirements (default: $ODL_BENCH_PYTHON)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus folder ($CONVERTABLES_CORPUS)")
    parser.add_argument("--runs", type=int, default=3, help="rounds; the medians are printed (default 3)")
    args = parser.parse_args()
    bench = Path(args.bench) if args.bench else None
    if bench is None:
        print("No --bench (or ODL_BENCH): the benchmark's evaluator is not run; convertables' figures alone.")
    elif not args.bench_python:
        print("No --bench-python (or ODL_BENCH_PYTHON), a Python with apted, rapidfuzz, lxml and bs4: the "
              "benchmark's evaluator is not run; convertables' figures alone, on its pages too.")
    command = _command()
    for name, pages in _sets(args.corpus, bench):
        for _, gt, result in pages:  # untimed: bytecode written, files in the page cache
            ours(command, gt, result)
        mine_cpu = {p: [] for p, _, _ in pages}
        mine_wall = {p: [] for p, _, _ in pages}
        their_cpu: dict[str, list[float]] = {p: [] for p, _, _ in pages}
        their_total: list[tuple[float, float]] = []
        mine_scores: dict = {}
        their_scores: dict = {}
        for _ in range(args.runs):
            if bench is not None and args.bench_python:
                cpu, wall, found = theirs(args.bench_python, bench, pages)
                their_total.append((cpu, wall))
                for p, seen in found.items():
                    their_cpu[p].append(seen["cpu"])
                    their_scores.update({(p, k): tuple(v) for k, v in seen["scores"].items()})
            for p, gt, result in pages:
                cpu, wall, scores = ours(command, gt, result)
                mine_cpu[p].append(cpu)
                mine_wall[p].append(wall)
                mine_scores.update({(p, k): v for k, v in scores.items()})
        _print(name, pages, args.runs, mine_cpu, mine_wall, their_cpu, their_total, mine_scores, their_scores)


def _print(name, pages, runs, mine_cpu, mine_wall, their_cpu, their_total, mine_scores, their_scores) -> None:
    med = statistics.median
    print(f"\n== {name}: {len(mine_scores)} pages scored ({len(pages)} parsers), median of {runs} rounds ==")
    header = f"{'parser':22} {'convertables cpu s':>18} {'wall s':>8}"
    if their_total:
        header += f" {'benchmark cpu s':>16} {'ratio (cpu)':>12}"
    print(header)
    for p, _, _ in pages:
        line = f"{p:22} {med(mine_cpu[p]):18.3f} {med(mine_wall[p]):8.3f}"
        if their_total:
            line += f" {med(their_cpu[p]):16.3f} {med(their_cpu[p]) / med(mine_cpu[p]):11.1f}x"
        print(line)
    rounds_cpu = [sum(mine_cpu[p][k] for p, _, _ in pages) for k in range(runs)]
    rounds_wall = [sum(mine_wall[p][k] for p, _, _ in pages) for k in range(runs)]
    print(f"convertables, {len(pages)} commands: cpu {med(rounds_cpu):.3f} s, wall {med(rounds_wall):.3f} s")
    if not their_total:
        return
    cpu, wall = med(c for c, _ in their_total), med(w for _, w in their_total)
    ratios = [c / r for (c, _), r in zip(their_total, rounds_cpu)]
    print(f"benchmark's evaluator, one process: cpu {cpu:.3f} s, wall {wall:.3f} s")
    print(f"ratio (benchmark / convertables): cpu {cpu / med(rounds_cpu):.1f}x (rounds {min(ratios):.1f}-"
          f"{max(ratios):.1f}x), wall {wall / med(rounds_wall):.1f}x")
    compared, equal, worst = _compare(mine_scores, their_scores)
    print(f"figures: {compared} pages compared, {equal} equal to 1e-9 (teds and teds_s), "
          f"largest difference {worst:.2g}")


if __name__ == "__main__":
    main()
