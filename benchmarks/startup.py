"""The first keystroke: how long ``convertables --version``, ``--help``, every
command's ``--help`` and ``formats`` take, best of N runs each, beside the
baselines measured in the same run (a bare ``python -c pass`` and ``python -c
"import typer"``): on a loaded machine the figures move together, the ratios
less. The targets are checked against the best time; ``--check`` exits 1 where
one is missed.

    python benchmarks/startup.py [--runs 5] [--check]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"--version": 0.10, "--help": 0.25, "formats": 0.20}
"""Seconds, best of the runs; every command's --help has --help's target."""


def _commands() -> list[str]:
    """Every command's name, as the command line lists them (without building their options)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from convertables.cli import commands

    return [info.name or info.callback.__name__ for info in commands.registered_commands]


def best_times(commands: list[list[str]], runs: int) -> list[tuple[float, float]]:
    """Each command's best wall-clock time and best CPU time (user and system,
    of the process and its children) of ``runs``, the commands run in turn in each
    round (a spell of load elsewhere then slows them all, not one). On a busy
    machine the CPU time moves less than the wall-clock time."""
    best = [(float("inf"), float("inf"))] * len(commands)
    for _ in range(runs):
        for k, argv in enumerate(commands):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            best[k] = (min(best[k][0], wall), min(best[k][1], cpu))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="exit 1 where a target is missed")
    args = parser.parse_args(argv)
    python = sys.executable
    script = shutil.which("convertables", path=os.path.dirname(python)) or shutil.which("convertables")
    entry = [script] if script else [python, "-m", "convertables"]
    rows = [("python -c pass", [python, "-c", "pass"], None),
            ('python -c "import typer"', [python, "-c", "import typer"], None),
            ("convertables --version", [*entry, "--version"], TARGETS["--version"]),
            ("convertables --help", [*entry, "--help"], TARGETS["--help"]),
            ("convertables formats", [*entry, "formats"], TARGETS["formats"])]
    rows += [(f"convertables {name} --help", [*entry, name, "--help"], TARGETS["--help"]) for name in _commands()]
    missed = 0
    times = best_times([command for _, command, _ in rows], args.runs)
    bare, bare_cpu = times[0]
    print(f"{'command':<40} {'best s':>8} {'x bare':>7} {'cpu s':>7} {'x bare':>7} {'target':>13}")
    for (label, command, target), (seconds, cpu) in zip(rows, times):
        verdict = "" if target is None else f"{target:.2f}" + (" MISSED" if cpu > target else "")
        missed += target is not None and cpu > target
        print(f"{label:<40} {seconds:8.3f} {seconds / bare:7.1f} {cpu:7.3f} {cpu / bare_cpu:7.1f} {verdict:>13}")
    print(f"best of {args.runs} runs each; {missed} target(s) missed (of the CPU time)")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
