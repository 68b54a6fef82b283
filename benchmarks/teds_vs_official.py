"""TEDS: convertables beside PubTabNet's reference implementation, on the same tables.

    python benchmarks/teds_vs_official.py --official-src PATH/TO/PubTabNet/src \\
        --official-python PATH/TO/venv/bin/python [--tables 200] [--official-tables 200]

The reference (``src/metric.py`` of ibm-aur-nlp/PubTabNet, with its ``apted`` and
``distance`` packages installed in ``--official-python``'s environment) is run in a
subprocess from where it lies: nothing of it is part of this project. Both score
the same generated table pairs (tests/table_pairs.py: ground truth against a result
with recogniser-like mistakes), HTML strings parsed by each; both TEDS and
TEDS-struct are computed for every pair. Printed: seconds for each side, the ratio,
the largest difference between their scores, and how the cost grows with the table's
size. Without ``--official-src`` only convertables is timed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from table_pairs import pairs  # noqa: E402

from convertables.diagnostics import Diagnostics  # noqa: E402
from convertables.formats.html import read  # noqa: E402
from convertables.scoring.teds import PreparedTree, table_tree, teds_pair  # noqa: E402

OFFICIAL = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from metric import TEDS
full, struct = TEDS(), TEDS(structure_only=True)
pairs = [json.loads(line) for line in open(sys.argv[2])]
start = time.perf_counter()
scores = [(full.evaluate(result, gt), struct.evaluate(result, gt)) for gt, result in pairs]
print(json.dumps({"seconds": time.perf_counter() - start, "scores": scores}))
"""


def _document(found):
    """The document a reader returned (itself, or a Reading's)."""
    return getattr(found, "document", found)


def ours(table_pairs: list[tuple[str, str]]) -> tuple[float, list[tuple[float, float]]]:
    start = time.perf_counter()
    scores = []
    for gt, result in table_pairs:
        g = _document(read(gt.encode(), Diagnostics("gt.html"))).tables[0]
        r = _document(read(result.encode(), Diagnostics("result.html"))).tables[0]
        scores.append(teds_pair(PreparedTree(table_tree(g)), PreparedTree(table_tree(r))))
    return time.perf_counter() - start, scores


def official(table_pairs, source: str, python: str) -> tuple[float, list[tuple[float, float]]]:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder, "pairs.jsonl")
        data.write_text("".join(json.dumps(pair) + "\n" for pair in table_pairs))
        script = Path(folder, "official.py")
        script.write_text(OFFICIAL)
        out = subprocess.run([python, str(script), source, str(data)], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout)
    return found["seconds"], [tuple(s) for s in found["scores"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official-src", help="PubTabNet's src folder (metric.py)")
    parser.add_argument("--official-python", default=sys.executable, help="a Python with apted and distance")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--official-tables", type=int, default=None,
                        help="time the reference on the first N pairs only (it takes seconds a table)")
    parser.add_argument("--official-max-cells", type=int, default=720,
                        help="the largest table the scaling runs give the reference")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    ours([pairs(1, 1)[0]])  # imports and first calls out of the timing
    batch = pairs(args.tables, args.seed, min_rows=10, max_rows=40, min_cols=5, max_cols=10)
    seconds, scores = ours(batch)
    print(f"{len(batch)} table pairs of 10-40 rows x 5-10 columns, TEDS and TEDS-struct each")
    print(f"  convertables: {seconds:.2f} s ({1000 * seconds / len(batch):.1f} ms a pair)")
    if args.official_src:
        subset = batch[:args.official_tables or len(batch)]
        ref_seconds, ref_scores = official(subset, args.official_src, args.official_python)
        ours_subset = seconds * len(subset) / len(batch)
        worst = max(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a, b in zip(scores, ref_scores))
        print(f"  reference:    {ref_seconds:.2f} s for {len(subset)} pairs ({1000 * ref_seconds / len(subset):.0f} ms a pair)")
        print(f"  ratio: {ref_seconds / ours_subset:.0f}x; largest difference of a score: {worst:.2e}")

    print("\nscaling (5 pairs a size; ms a pair):")
    print(f"  {'rows x cols':>12} {'cells':>6} {'convertables':>13} {'reference':>10}")
    for rows, cols in ((10, 5), (20, 8), (40, 10), (60, 12), (100, 12), (200, 10)):
        sized = pairs(5, args.seed + rows, min_rows=rows, max_rows=rows, min_cols=cols, max_cols=cols)
        seconds, scores = ours(sized)
        line = f"  {rows:>5} x {cols:<4} {rows * cols:>6} {1000 * seconds / 5:>13.1f}"
        if args.official_src and rows * cols <= args.official_max_cells:
            ref_seconds, ref_scores = official(sized, args.official_src, args.official_python)
            worst = max(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a, b in zip(scores, ref_scores))
            line += f" {1000 * ref_seconds / 5:>10.0f}  (x{ref_seconds / seconds:.0f}, diff {worst:.1e})"
        print(line)


if __name__ == "__main__":
    main()
