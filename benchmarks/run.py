"""Benchmarks: whole commands timed over several runs, side by side with baselines.

    python benchmarks/run.py                 # every case whose inputs are here
    python benchmarks/run.py --runs 5 --only icdar-gt

Each case prepares its inputs in a temporary folder and times whole commands
(a fresh process each run, as a user runs them): median, min and max seconds,
and the ratio to the case's baseline measured in the same run. Baselines are
never downloaded or vendored: official tools are pointed to by path.
"""

from __future__ import annotations

import argparse
import platform
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


@dataclass
class Case:
    name: str
    what: str
    prepare: Callable[[Path, argparse.Namespace], list[Command] | str]
    """Returns the commands to time, or a reason the case cannot run here."""


def _convertables(*args: str) -> list[str]:
    return [PY, "-m", "convertables", *args]


def _lxml_floor(folder: Path, pattern: str) -> list[str]:
    """A bare lxml parse of the same bytes: the floor any XML tool stands on."""
    code = (
        "import sys, pathlib; from lxml import etree\n"
        f"[etree.fromstring(p.read_bytes()) for p in sorted(pathlib.Path({str(folder)!r}).glob({pattern!r}))]"
    )
    return [PY, "-c", code]


def icdar_gt_roundtrip(tmp: Path, args) -> list[Command] | str:
    gt = CORPUS / "icdar2013" / "gt"
    if not gt.is_dir():
        return f"no ICDAR 2013 ground truth at {gt}"
    json_dir = tmp / "json"
    subprocess.run(_convertables("convert", str(gt), "--from", "icdar", "--to", "json", "-o", str(json_dir), "-q"),
                   check=True)
    return [
        Command("bare lxml parse of the 142 files", _lxml_floor(gt, "*.xml"), baseline=True),
        Command("convert icdar -> json (142 files)",
                _convertables("convert", str(gt), "--from", "icdar", "--to", "json", "-o", str(tmp / "a"), "--force", "-q")),
        Command("convert json -> icdar (142 files)",
                _convertables("convert", str(json_dir), "--from", "json", "--to", "icdar", "-o", str(tmp / "b"),
                              "--force", "-q")),
    ]


CASES = [
    Case("icdar-gt", "the 142 ICDAR 2013 GT files converted icdar -> json -> icdar", icdar_gt_roundtrip),
]


def time_command(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode not in (0, 1):
            raise SystemExit(f"command failed ({result.returncode}): {' '.join(argv)}\n{result.stderr}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs per command (default 3)")
    parser.add_argument("--only", action="append", help="run only these cases (by name)")
    args = parser.parse_args()

    print(f"machine: {platform.machine()}, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}, {__import__('os').cpu_count()} cores; runs per command: {args.runs}")
    header = f"{'case':<12} {'command':<44} {'median s':>9} {'min s':>8} {'max s':>8} {'x baseline':>10}"
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
            base = None
            for command in commands:
                times = time_command(command.argv, args.runs)
                median = statistics.median(times)
                if command.baseline:
                    base = median
                ratio = "baseline" if command.baseline else (f"{median / base:.2f}" if base else "-")
                print(f"{case.name:<12} {command.label:<44} {median:>9.3f} {min(times):>8.3f} {max(times):>8.3f} "
                      f"{ratio:>10}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
