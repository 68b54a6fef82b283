"""The olmocr profile beside olmOCR-bench's own evaluator, on the same files.

    python benchmarks/profile_olmocr.py --official-python PATH/TO/venv/bin/python \\
        [--official-src PATH/TO/olmocr-checkout] [--tests TESTS.jsonl --pages FOLDER] [--copies 50]

The evaluator is olmOCR-bench's ``evaluate_candidate`` (``olmocr/bench/benchmark.py``),
unmodified, imported from ``--official-src`` (or the environment ``OLMOCR_SRC``; a
folder holding the ``olmocr`` package, with rapidfuzz, fuzzysearch, beautifulsoup4,
tqdm, pypdf and numpy installed in ``--official-python``'s environment, or
``OLMOCR_PYTHON``), run in a subprocess from where it lies: nothing of it is part of
this project. Both score the same test file and Markdown pages (by default the
hand-made ones of tests/data/olmocr), copied ``--copies`` times under new names so
that the run is long enough to time. Printed: the CPU seconds of each (the
subprocess's, from the children's resource usage), the ratio, and whether every
verdict agrees. Without the evaluator only convertables is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "olmocr"

OFFICIAL = """
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
from olmocr.bench.benchmark import evaluate_candidate
from olmocr.bench.tests import load_tests
with contextlib.redirect_stderr(io.StringIO()):
    tests = load_tests(sys.argv[2])
    result = evaluate_candidate(sys.argv[3], tests, sorted({t.pdf for t in tests}), force=True)
verdicts = {t.id: passed for pages in result[6].values() for items in pages.values() for t, passed, _ in items}
print(json.dumps(verdicts))
"""


def copies(tests: Path, pages: Path, count: int, folder: Path) -> tuple[Path, Path]:
    """The test file and the pages, ``count`` times under new names (``doc`` -> ``doc-c3``)."""
    lines = [json.loads(line) for line in tests.read_text(encoding="utf-8").splitlines() if line.strip()]
    out_tests, out_pages = folder / "tests.jsonl", folder / "pages"
    out_pages.mkdir()
    with out_tests.open("w", encoding="utf-8") as handle:
        for copy in range(count):
            for line in lines:
                stem, suffix = os.path.splitext(line["pdf"])
                handle.write(json.dumps({**line, "pdf": f"{stem}-c{copy}{suffix}", "id": f"{line['id']}-c{copy}"})
                             + "\n")
    names = re.compile(r"^(.*)(_pg\d+_repeat\d+\.md)$")
    for page in sorted(pages.glob("*.md")):
        match = names.match(page.name)
        if match:
            for copy in range(count):
                (out_pages / f"{match.group(1)}-c{copy}{match.group(2)}").write_bytes(page.read_bytes())
    return out_tests, out_pages


def timed(command: list[str]) -> tuple[float, str]:
    """A subprocess's CPU seconds (user and system, from the children's usage) and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        sys.exit(f"{command[0]} failed:\n{run.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official-python", default=os.environ.get("OLMOCR_PYTHON"))
    parser.add_argument("--official-src", default=os.environ.get("OLMOCR_SRC"))
    parser.add_argument("--tests", type=Path, default=CASES / "tests.jsonl")
    parser.add_argument("--pages", type=Path, default=CASES / "pages")
    parser.add_argument("--copies", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tests, pages = copies(args.tests, args.pages, args.copies, Path(scratch))
        count = sum(1 for line in tests.read_text(encoding="utf-8").splitlines() if line.strip())
        ours_s, out = timed([sys.executable, "-m", "convertables", "score", "--gt", str(tests), "--result",
                             str(pages), "--profile", "olmocr", "--format", "json", "--jobs", "1"])
        ours = {t["id"]: t["passed"] for d in json.loads(out)["documents"] for t in d.get("tests", ())}
        print(f"{count} tests, {len(list(pages.iterdir()))} Markdown files")
        print(f"convertables score --profile olmocr --jobs 1: {ours_s:.2f} s CPU (the command, its start included)")
        if not (args.official_python and args.official_src):
            print("olmOCR-bench's evaluator not given (--official-python and --official-src, or OLMOCR_PYTHON "
                  "and OLMOCR_SRC): convertables alone")
            return
        theirs_s, out = timed([args.official_python, "-c", OFFICIAL, args.official_src, str(tests), str(pages)])
        theirs = json.loads(out)
        agree = sum(ours.get(test_id) == passed for test_id, passed in theirs.items())
        print(f"olmOCR-bench evaluate_candidate: {theirs_s:.2f} s CPU (its start included)")
        print(f"ratio: {theirs_s / ours_s:.1f}x; verdicts equal: {agree} of {len(theirs)}")


if __name__ == "__main__":
    main()
