"""Benchmarks: whole commands timed over several runs, side by side with baselines.

    python benchmarks/run.py                 # every case whose inputs are here
    python benchmarks/run.py --runs 5 --only icdar-gt

Each case prepares its inputs in a temporary folder and times whole commands
(a fresh process each run, as a user runs them): median, min and max seconds,
and the ratio to the case's baseline. The runs are interleaved, one round of
every command of the case at a time, and the ratio is the median of the rounds'
ratios: a shared machine's slow spells then weigh on a command and its
baseline alike. Baselines are never downloaded or vendored: official tools are
pointed to by path.

With ``--instructions`` (needs valgrind), each command of convertables and each
bare parse is also run once under valgrind's cachegrind and the instructions it
executes are printed (all its processes together): a measure that does not move
with the machine's load, for comparing two versions of the code.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
PY = sys.executable


@dataclass
class Command:
    label: str
    argv: list[str]
    baseline: bool = False
    counted: bool = True
    """Run under valgrind with --instructions: not official tools (they would
    take hours there), nor scoring in several processes (whether to start
    workers is decided by time, which valgrind stretches 50-fold)."""


@dataclass
class Case:
    name: str
    what: str
    prepare: Callable[[Path, argparse.Namespace], list[Command] | str]
    """Returns the commands to time, or a reason the case cannot run here."""


def _convertables(*args: str) -> list[str]:
    return [PY, "-m", "convertables", *args]


def _jobs(jobs: int) -> str:
    """``--jobs N``, marked where N is what ``score`` uses on this machine unless told."""
    from convertables.scoring import default_jobs

    return f"--jobs {jobs}" + (" (default)" if jobs == default_jobs() else "")


def _lxml_floor(folder: Path, pattern: str, repeat: int = 1) -> list[str]:
    """A bare lxml parse of the same bytes: the floor any XML tool stands on."""
    code = (
        "import pathlib; from lxml import etree\n"
        f"for _ in range({repeat}):\n"
        f"    [etree.fromstring(p.read_bytes()) for p in sorted(pathlib.Path({str(folder)!r}).glob({pattern!r}))]"
    )
    return [PY, "-c", code]


def icdar_gt_roundtrip(tmp: Path, args) -> list[Command] | str:
    gt = CORPUS / "icdar2013" / "gt"
    if not gt.is_dir():
        return f"no ICDAR 2013 ground truth at {gt}"
    json_dir = tmp / "json"
    subprocess.run(_convertables("convert", str(gt), "--from", "icdar", "--to", "json", "-o", str(json_dir), "-q"),
                   check=True, stderr=subprocess.DEVNULL)
    return [
        Command("bare lxml parse of the 142 files", _lxml_floor(gt, "*.xml"), baseline=True),
        Command("convert icdar -> json (142 files)",
                _convertables("convert", str(gt), "--from", "icdar", "--to", "json", "-o", str(tmp / "a"), "--force", "-q")),
        Command("convert json -> icdar (142 files)",
                _convertables("convert", str(json_dir), "--from", "json", "--to", "icdar", "-o", str(tmp / "b"),
                              "--force", "-q")),
    ]


def _ctdar_page(rng, cells_dropped: float, jitter: int) -> str:
    """One page with a 10x10 table of 60x20 px cells (image pixels)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<document filename="page.jpg">', "<table>",
           '<Coords points="100,100 700,100 700,300 100,300"/>']
    for r in range(10):
        for c in range(10):
            if rng.random() < cells_dropped:
                continue
            x, y = 100 + 60 * c, 100 + 20 * r
            j = [rng.randint(-jitter, jitter) for _ in range(4)]
            x1, y1, x2, y2 = x + j[0], y + j[1], x + 60 + j[2], y + 20 + j[3]
            out.append(f'<cell start-row="{r}" end-row="{r}" start-col="{c}" end-col="{c}">'
                       f'<Coords points="{x1},{y1} {x2},{y1} {x2},{y2} {x1},{y2}"/></cell>')
    out += ["</table>", "</document>"]
    return "\n".join(out)


def ctdar_synthetic(n: int):
    def prepare(tmp: Path, args) -> list[Command] | str:
        import random

        rng = random.Random(n)
        gt, res = tmp / "gt", tmp / "res"
        gt.mkdir()
        res.mkdir()
        for i in range(n):
            (gt / f"cTDaR_s{i:05d}.xml").write_text(_ctdar_page(rng, 0.0, 0))
            (res / f"cTDaR_s{i:05d}.xml").write_text(_ctdar_page(rng, 0.05, 4))
        commands = [Command(f"bare lxml parse of the {2 * n} files", _lxml_floor(tmp, "*/*.xml"), baseline=True)]
        if args.baseline_ctdar and n <= args.baseline_max_pages:
            commands.append(Command("official cTDaR tool (-trackB2)", _official_ctdar(tmp, args), counted=False))
            _compare_with_official(tmp, args)
        for jobs in (1, 2):
            commands.append(Command(f"score --metric ctdar-b {_jobs(jobs)}", _convertables(
                "score", "--gt", str(gt), "--result", str(res), "--metric", "ctdar-b", "--format", "json",
                "--jobs", str(jobs)), counted=jobs == 1))
        return commands
    return prepare


def _official_ctdar(tmp: Path, args) -> list[str]:
    """The official tool, unmodified, run as its README says from a work folder we
    lay out. It was written for Python <= 3.9 (``from collections import
    Iterable``); on a newer Python a ``sitecustomize`` shim puts that name back."""
    work = tmp / "official"
    if not work.exists():
        (work / "annotations" / "trackB2").mkdir(parents=True)
        for path in (tmp / "gt").glob("*.xml"):
            shutil.copy(path, work / "annotations" / "trackB2" / path.name)
        names = sorted(p.name for p in (tmp / "res").glob("*.xml"))
        subprocess.run(["tar", "czf", str(work / "results.tar.gz"), "-C", str(tmp / "res"), *names], check=True)
        shim = tmp / "shim"
        shim.mkdir()
        (shim / "sitecustomize.py").write_text(
            "import collections, collections.abc\ncollections.Iterable = collections.abc.Iterable\n")
    tool = Path(args.baseline_ctdar).resolve()
    return ["sh", "-c", f"cd {work} && PYTHONPATH={tmp / 'shim'} {args.baseline_python} "
                        f"{tool / 'evaluate.py'} -trackB2 results.tar.gz"]


def _compare_with_official(tmp: Path, args) -> None:
    """Run the official tool and ``score --compat`` once each and say whether the figures agree."""
    import json
    import re

    official = subprocess.run(_official_ctdar(tmp, args), capture_output=True, text=True).stdout
    theirs = [tuple(map(int, m)) for m in re.findall(r"correct: (\d+), gt: (\d+), res: (\d+)", official)]
    report = json.loads(subprocess.run(_convertables(
        "score", "--gt", str(tmp / "gt"), "--result", str(tmp / "res"), "--metric", "ctdar-b", "--compat",
        "--format", "json"), capture_output=True, text=True).stdout)
    ours = [(v["correct"], v["gt"], v["detected"]) for v in report["total"]["iou"].values()]
    verdict = "identical" if theirs == ours else "DIFFERENT"
    print(f"{'':<12} figures, official vs score --compat: {verdict} (correct, gt, res per IoU: {ours})")


def pubmed_self(tmp: Path, args) -> list[Command] | str:
    gt = CORPUS / "pubmed_gt" / "gt"
    if not gt.is_dir():
        return f"no PubMed ground truth at {gt}"
    # ground truth and result are the same 863 files: each is read twice
    commands = [Command("bare lxml parse of the 863 files, twice", _lxml_floor(gt, "*.xml", 2), baseline=True)]
    if args.baseline_pubmed:
        script = Path(args.baseline_pubmed).resolve() / "eval_pubmed.py"
        baseline = ["sh", "-c", f"cd {script.parent} && {args.baseline_python} {script} --res {gt} --gt {gt}"]
        commands.append(Command("eval_pubmed.py (the benchmark's own)", baseline, counted=False))
        _compare_with_eval_pubmed(gt, baseline)
    for jobs in (1, 2):
        commands.append(Command(f"score --variant pubmed {_jobs(jobs)}", _convertables(
            "score", "--gt", str(gt), "--result", str(gt), "--variant", "pubmed", "--format", "json",
            "--jobs", str(jobs)), counted=jobs == 1))
    return commands


def _compare_with_eval_pubmed(gt: Path, baseline: list[str]) -> None:
    import json
    import re

    output = subprocess.run(baseline, capture_output=True, text=True).stdout
    match = re.search(r"FINAL RESULT: TP:(\d+) FN:(\d+) FP:(\d+)", output)
    theirs = tuple(map(int, match.groups())) if match else None
    report = json.loads(subprocess.run(_convertables(
        "score", "--gt", str(gt), "--result", str(gt), "--variant", "pubmed", "--format", "json", "--jobs", "2"),
        capture_output=True, text=True).stdout)
    t = report["total"]
    ours = (t["correct"], t["gt"] - t["correct"], t["detected"] - t["correct"])
    print(f"{'':<12} figures, eval_pubmed.py vs score --variant pubmed: "
          f"{'identical' if theirs == ours else 'DIFFERENT'} (TP, FN, FP: {ours})")


def _html_tables(count: int) -> str:
    row = "<tr>" + "".join(f"<td>c{c}</td>" for c in range(8)) + "</tr>"
    table = "<table><thead><tr><th colspan=\"2\">h</th>" + "<th>x</th>" * 6 + "</tr></thead><tbody>" + row * 20 + \
        "</tbody></table>"
    return "<!DOCTYPE html><html><body>" + table * count + "</body></html>"


def office_growth(tmp: Path, args) -> list[Command] | str:
    commands = []
    for count in (10, 100, 1000):
        page = tmp / f"tables-{count}.html"
        page.write_text(_html_tables(count))
        commands.append(Command(f"bare lxml.html parse, {count} tables", [
            PY, "-c", f"import lxml.html; lxml.html.fromstring(open({str(page)!r}, 'rb').read())"], baseline=True))
        commands.append(Command(f"html -> json, {count} tables", _convertables(
            "convert", str(page), "--to", "json", "-o", str(tmp / f"out-{count}.json"), "--force", "-q")))
        workbook = tmp / f"tables-{count}.xlsx"
        subprocess.run(_convertables("convert", str(page), "--to", "xlsx", "-o", str(workbook), "--force", "-q"),
                       check=True)
        commands.append(Command(f"bare lxml parse of the workbook's XML, {count}", [PY, "-c", (
            "import zipfile; from lxml import etree\n"
            f"with zipfile.ZipFile({str(workbook)!r}) as z:\n"
            "    [etree.fromstring(z.read(n)) for n in z.namelist() if n.endswith('.xml')]")], baseline=True))
        commands.append(Command(f"xlsx -> json, {count} tables in one sheet", _convertables(
            "convert", str(workbook), "--to", "json", "-o", str(tmp / f"x-{count}.json"), "--force", "-q")))
    return commands


def _page_tables(count: int) -> tuple[str, str, str]:
    """The same ``count`` tables (a header row and 20 rows of 8 cells, no spans), each
    after a line of text, as an HTML page, a Markdown page of pipe tables and a
    LaTeX file of booktabs tabulars."""
    html, markdown, latex = ["<!DOCTYPE html><html><body>"], [], []
    for k in range(count):
        head = [f"h{c}" for c in range(8)]
        body = [[f"{(r * 37 + c * 11) % 997}.{c}" for c in range(8)] for r in range(20)]
        html.append(f"<p>Table {k}: results.</p><table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>" +
                    "".join("<tr>" + "".join(f"<td>{x}</td>" for x in row) + "</tr>" for row in body) + "</table>")
        markdown.append(f"Table {k}: results.\n\n| " + " | ".join(head) + " |\n|" + "---|" * 8 + "\n" +
                        "".join("| " + " | ".join(row) + " |\n" for row in body))
        latex.append(f"% Table {k}: results.\n\\begin{{tabular}}{{{'l' * 8}}}\n\\toprule\n" + " & ".join(head) +
                     " \\\\\n\\midrule\n" + "".join(" & ".join(row) + " \\\\\n" for row in body) +
                     "\\bottomrule\n\\end{tabular}\n")
    html.append("</body></html>")
    return "".join(html), "\n".join(markdown), "\n".join(latex)


def pages(tmp: Path, args) -> list[Command]:
    html, markdown, latex = _page_tables(1000)
    (tmp / "tables.html").write_text(html)
    (tmp / "tables.md").write_text(markdown)
    (tmp / "tables.tex").write_text(latex)
    read = ("import convertables, sys\n"
            "doc = convertables.read(sys.argv[1])\n"
            "assert len(doc.tables) == 1000 and sum(len(t.cells()) for t in doc.tables) == 168000")
    return [
        Command("bare lxml.html parse of the tables as HTML", [
            PY, "-c", f"import lxml.html; lxml.html.fromstring(open({str(tmp / 'tables.html')!r}, 'rb').read())"],
            baseline=True),
        Command("read the Markdown page (pipe tables)", [PY, "-c", read, str(tmp / "tables.md")]),
        Command("read the LaTeX file (tabulars)", [PY, "-c", read, str(tmp / "tables.tex")]),
        Command("read the HTML page (for comparison)", [PY, "-c", read, str(tmp / "tables.html")]),
        Command("markdown -> json", _convertables("convert", str(tmp / "tables.md"), "--to", "json", "-o",
                                                  str(tmp / "md.json"), "--force", "-q")),
        Command("latex -> json", _convertables("convert", str(tmp / "tables.tex"), "--to", "json", "-o",
                                               str(tmp / "tex.json"), "--force", "-q")),
    ]


CASES = [
    Case("icdar-gt", "the 142 ICDAR 2013 GT files converted icdar -> json -> icdar", icdar_gt_roundtrip),
    Case("ctdar-20", "cTDaR Track B, 20 synthetic pages (10x10 cells, jitter, dropped cells)", ctdar_synthetic(20)),
    Case("ctdar-200", "cTDaR Track B, 200 synthetic pages", ctdar_synthetic(200)),
    Case("pubmed", "the 863 PubMed GT files scored against themselves (--variant pubmed)", pubmed_self),
    Case("office", "HTML and Excel inputs with 10, 100, 1000 tables", office_growth),
    Case("pages", "1000 tables (168 cells each) in one Markdown page and one LaTeX file, and as HTML", pages),
]


# Commands run as an installed package runs: with its compiled bytecode kept
# (some environments set PYTHONDONTWRITEBYTECODE, which recompiles every module
# on every start; an installed wheel has its .pyc files).
_RUN_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_once(argv: list[str]) -> tuple[float, float]:
    """The wall time of one run, and the peak memory (MiB) of the command's own
    process (worker processes have their own, similar peaks)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_RUN_ENV)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"command failed ({code}): {' '.join(argv)}")
    return elapsed, usage.ru_maxrss / 1024


def time_commands(commands: list[Command], runs: int) -> list[tuple[list[float], float]]:
    """Each command's wall times and peak memory, over ``runs`` interleaved rounds."""
    for command in commands:
        if command.argv[:3] == _convertables():  # an untimed first run leaves our bytecode compiled
            subprocess.run(command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_RUN_ENV)
    measured: list[tuple[list[float], float]] = [([], 0.0) for _ in commands]
    for _ in range(runs):
        for position, command in enumerate(commands):
            elapsed, peak = time_once(command.argv)
            times, highest = measured[position]
            times.append(elapsed)
            measured[position] = (times, max(highest, peak))
    return measured


_INSTRUCTIONS = re.compile(r"^==\d+== I\s+refs:\s+([\d,]+)", re.M)


def count_instructions(argv: list[str]) -> int:
    """The instructions ``argv`` executes, in all its processes (forked workers
    included), under valgrind's cachegrind; hashing seeded alike every run."""
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=dict(_RUN_ENV, PYTHONHASHSEED="0"))
    total = instructions_in(run.stderr)
    if run.returncode not in (0, 1) or total is None:
        raise SystemExit(f"valgrind could not count ({run.returncode}): {' '.join(argv)}")
    return total


def instructions_in(report: str) -> int | None:
    """The instructions of every process in cachegrind's summaries (one per
    process, forked ones included), added up; None if there are none."""
    counts = _INSTRUCTIONS.findall(report)
    return sum(int(count.replace(",", "")) for count in counts) if counts else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs per command (default 3)")
    parser.add_argument("--only", action="append", help="run only these cases (by name)")
    parser.add_argument("--baseline-ctdar", help="folder of the official cTDaR tool (evaluate.py), to time it too")
    parser.add_argument("--baseline-pubmed", help="folder of mnamysl/benchmarking_table_recogn (eval_pubmed.py)")
    parser.add_argument("--baseline-python", default=sys.executable,
                        help="the Python that runs the baselines (with numpy and shapely for the cTDaR tool)")
    parser.add_argument("--baseline-max-pages", type=int, default=20,
                        help="run the official cTDaR tool only on sets this small (it needs ~10 s a page)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each command's instructions under valgrind (slow: ~50x a run)")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt install valgrind)")

    print(f"machine: {platform.machine()}, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}, {os.cpu_count()} cores; runs per command: {args.runs}")
    header = (f"{'case':<12} {'command':<54} {'median s':>9} {'min s':>8} {'max s':>8} {'x baseline':>10} "
              f"{'peak MiB':>9}" + (f" {'G instr':>8} {'x base':>7}" if args.instructions else ""))
    print(header)
    print("-" * len(header))
    for case in CASES:
        if args.only and case.name not in args.only:
            continue
        tmp = Path(tempfile.mkdtemp(prefix=f"bench-{case.name}-"))
        try:
            commands = case.prepare(tmp, args)
            if isinstance(commands, str):
                print(f"{case.name:<12} skipped: {commands}")
                continue
            base = base_count = None
            for command, (times, peak) in zip(commands, time_commands(commands, args.runs)):
                if command.baseline:
                    base = times
                ratio = "baseline" if command.baseline else (
                    f"{statistics.median(t / b for t, b in zip(times, base)):.2f}" if base else "-")
                line = (f"{case.name:<12} {command.label:<54} {statistics.median(times):>9.3f} {min(times):>8.3f} "
                        f"{max(times):>8.3f} {ratio:>10} {peak:>9.0f}")
                if args.instructions and command.counted:
                    count = count_instructions(command.argv)
                    if command.baseline:
                        base_count = count
                    line += f" {count / 1e9:>8.3f} " + (f"{'base':>7}" if command.baseline else (
                        f"{count / base_count:>7.2f}" if base_count else f"{'-':>7}"))
                print(line, flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
