"""GriTS: convertables side by side with the official code (microsoft/table-transformer, src/grits.py).

    python benchmarks/grits_vs_official.py --official PATH/table-transformer/src
    python benchmarks/grits_vs_official.py --official PATH/src --tables 20 --scaling-only

The official code is never vendored: it is imported from the folder given
(it needs numpy and PyMuPDF, ``fitz``; run this script with a Python that has
them and convertables' own dependencies, or give ``--no-official`` to time
convertables alone).

Tables are generated, seeded: a grid of R rows x C columns with spanning cells,
header words, row labels and numbers as texts and a box for each cell; each
ground truth gets a "result" made from it by deleting, duplicating and merging
rows, columns and cells, editing texts and moving boxes. Both sides score the
same pairs: GriTS_Top, GriTS_Con and GriTS_Loc (``--kinds top,con``: the first
two), the official on its cell lists through ``cells_to_relspan_grid``/
``cells_to_grid`` and ``grits_top``/``grits_con``/``grits_loc``, convertables
on the same tables as its model.

Printed: the seconds each side takes (wall, and CPU: on a shared machine the
CPU time of the process is the steadier figure), their ratios, and the largest absolute
difference of any of the numbers (GriTS, precision, recall for each kind);
then how convertables' time grows with the table's size (a table of R x C
against its result, up to 60 x 12, and a table of 2,000 cells), with the
official code's time where ``--official-scaling`` asks for it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from convertables.model import BBox, Cell, Frame, Region, Table  # noqa: E402
from convertables.scoring.grits import grits_scores  # noqa: E402

WORDS = ("Total", "Revenue", "Net", "income", "Age", "Male", "Female", "Group", "mean", "SD", "p", "value",
         "n", "Patients", "years", "Control", "Treatment", "Baseline", "Week", "Change", "95% CI", "OR")


# -- generated tables -------------------------------------------------------------------------
# A table is a list of cells [first row, first column, last row, last column, text, box].

def _number(rng: random.Random) -> str:
    kind = rng.random()
    value = rng.random() * rng.choice((1, 10, 100, 1000, 10000))
    if kind < 0.3:
        return f"{value:.1f}"
    if kind < 0.55:
        return f"{value:.2f}"
    if kind < 0.7:
        return f"{int(value):,}"
    if kind < 0.8:
        return f"({value:.2f})"
    if kind < 0.9:
        return f"{value:.1f} ± {rng.random() * 10:.1f}"
    return f"{value:.3f}"


def _words(rng: random.Random, most: int = 3) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, most)))


def make_table(rng: random.Random, n_rows: int, n_cols: int, span_rate: float = 0.08) -> list[list]:
    """A ground-truth table: every position covered by exactly one cell."""
    xs = [0.0]
    for _ in range(n_cols):
        xs.append(xs[-1] + rng.uniform(40, 120))
    ys = [0.0]
    for _ in range(n_rows):
        ys.append(ys[-1] + rng.uniform(12, 22))
    taken = [[False] * n_cols for _ in range(n_rows)]
    cells = []
    for r in range(n_rows):
        for c in range(n_cols):
            if taken[r][c]:
                continue
            rows = rng.randint(2, 3) if rng.random() < span_rate else 1
            cols = rng.randint(2, 3) if rng.random() < span_rate else 1
            rows = min(rows, n_rows - r)
            cols = min(cols, n_cols - c)
            while cols > 1 and any(taken[r][c + k] for k in range(cols)):
                cols -= 1
            for i in range(r, r + rows):
                for j in range(c, c + cols):
                    taken[i][j] = True
            if r == 0:
                text = _words(rng, 2)
            elif c == 0:
                text = _words(rng, 3)
            else:
                text = "" if rng.random() < 0.08 else _number(rng)
            box = [xs[c] + rng.uniform(1, 4), ys[r] + rng.uniform(1, 3),
                   xs[c + cols] - rng.uniform(1, 4), ys[r + rows] - rng.uniform(1, 3)]
            cells.append([r, c, r + rows - 1, c + cols - 1, text, box])
    return cells


def _edit_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 2)):
        what = rng.random()
        at = rng.randrange(len(chars) + 1)
        if what < 0.4 and chars:
            del chars[min(at, len(chars) - 1)]
        elif what < 0.7:
            chars.insert(at, rng.choice("0123456789.,- abcdefg"))
        elif chars:
            chars[min(at, len(chars) - 1)] = rng.choice("0123456789.,- abcdefg")
    return "".join(chars)


def _shift_rows(cells, at: int, by: int) -> None:
    for cell in cells:
        if cell[0] >= at:
            cell[0] += by
        if cell[2] >= at:
            cell[2] += by


def perturb(rng: random.Random, cells: list[list], operations: int | None = None) -> list[list]:
    """A "result" for a table: a few of row and column deletions and duplications,
    merged and split cells, edited texts and moved boxes; every position still
    covered by exactly one cell."""
    cells = [[*cell[:5], list(cell[5])] for cell in cells]
    transposed = False
    for _ in range(rng.randint(1, 4) if operations is None else operations):
        what = rng.random()
        if what < 0.5 and rng.random() < 0.5:  # columns: the same, on the transposed table
            cells = [[c[1], c[0], c[3], c[2], c[4], [c[5][1], c[5][0], c[5][3], c[5][2]]] for c in cells]
            transposed = not transposed
        n_rows = max(c[2] for c in cells) + 1 if cells else 0
        if what < 0.25 and n_rows > 1:  # delete a row
            r = rng.randrange(n_rows)
            cells = [c for c in cells if not (c[0] == r and c[2] == r)]
            for c in cells:
                if c[0] <= r <= c[2]:
                    c[2] -= 1
                else:
                    if c[0] > r:
                        c[0] -= 1
                    if c[2] > r:
                        c[2] -= 1
        elif what < 0.5 and n_rows:  # duplicate a row below itself
            r = rng.randrange(n_rows)
            copies = [[r + 1, c[1], r + 1, c[3], _edit_text(rng, c[4]) if rng.random() < 0.5 else c[4],
                       [c[5][0], c[5][3], c[5][2], c[5][3] + (c[5][3] - c[5][1])]]
                      for c in cells if c[0] == r and c[2] == r]
            spanning = [c for c in cells if c[0] <= r <= c[2] and not (c[0] == r and c[2] == r)]
            _shift_rows(cells, r + 1, 1)
            for c in spanning:
                if c[2] == r:
                    c[2] += 1
            cells.extend(copies)
        elif what < 0.65:  # merge a cell with its right neighbour
            pairs = [(a, b) for a in cells for b in cells
                     if a[0] == b[0] and a[2] == b[2] and b[1] == a[3] + 1]
            if pairs:
                a, b = rng.choice(pairs)
                a[3] = b[3]
                a[4] = (a[4] + " " + b[4]).strip()
                a[5] = [min(a[5][0], b[5][0]), min(a[5][1], b[5][1]), max(a[5][2], b[5][2]), max(a[5][3], b[5][3])]
                cells.remove(b)
        elif what < 0.75:  # split a spanning cell
            spanning = [c for c in cells if c[0] != c[2] or c[1] != c[3]]
            if spanning:
                s = rng.choice(spanning)
                cells.remove(s)
                for i in range(s[0], s[2] + 1):
                    for j in range(s[1], s[3] + 1):
                        cells.append([i, j, i, j, s[4] if (i, j) == (s[0], s[1]) else "", list(s[5])])
        elif what < 0.9:  # edit texts
            for c in rng.sample(cells, min(len(cells), rng.randint(1, 6))):
                c[4] = _edit_text(rng, c[4])
        else:  # move boxes
            dx, dy = rng.uniform(-6, 6), rng.uniform(-4, 4)
            for c in cells:
                c[5] = [c[5][0] + dx, c[5][1] + dy, c[5][2] + dx + rng.uniform(-2, 2), c[5][3] + dy]
    if transposed:
        cells = [[c[1], c[0], c[3], c[2], c[4], [c[5][1], c[5][0], c[5][3], c[5][2]]] for c in cells]
    cells.sort(key=lambda c: (c[0], c[1]))
    return cells


def pairs(seed: int, count: int, rows: tuple[int, int], cols: tuple[int, int]) -> list[tuple[list, list]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        gt = make_table(rng, rng.randint(*rows), rng.randint(*cols))
        out.append((gt, perturb(rng, gt)))
    return out


# -- both sides' inputs -------------------------------------------------------------------------

def to_model(cells: list[list], boxes: bool = True) -> Table:
    """The table as convertables' model (without boxes, GriTS_Loc is not computed)."""
    return Table(id=0, regions=[Region(id=0, cells=[
        Cell(r0, c0, r1, c1, text, bbox=BBox(*box, frame=Frame.IMAGE) if boxes else None)
        for r0, c0, r1, c1, text, box in cells])])


def to_official(cells: list[list]) -> list[dict]:
    return [{"row_nums": list(range(r0, r1 + 1)), "column_nums": list(range(c0, c1 + 1)),
             "cell_text": text, "bbox": list(box)} for r0, c0, r1, c1, text, box in cells]


def official_scores(grits, true_cells: list[dict], pred_cells: list[dict],
                    kinds: tuple[str, ...] = ("top", "con", "loc")) -> dict[str, float]:
    import numpy as np

    out = {}
    grids = {
        "top": (np.array(grits.cells_to_relspan_grid(true_cells)), np.array(grits.cells_to_relspan_grid(pred_cells)),
                grits.grits_top),
        "con": (np.array(grits.cells_to_grid(true_cells, key="cell_text"), dtype=object),
                np.array(grits.cells_to_grid(pred_cells, key="cell_text"), dtype=object), grits.grits_con),
        "loc": (np.array(grits.cells_to_grid(true_cells, key="bbox")), np.array(grits.cells_to_grid(pred_cells, key="bbox")),
                grits.grits_loc),
    }
    for kind in kinds:
        true_grid, pred_grid, function = grids[kind]
        f, precision, recall, _ = function(true_grid, pred_grid)
        out[f"grits_{kind}"] = float(f)
        out[f"grits_precision_{kind}"] = float(precision)
        out[f"grits_recall_{kind}"] = float(recall)
    return out


def load_official(path: str):
    folder = Path(path).resolve()
    if not (folder / "grits.py").exists():
        sys.exit(f"error: no grits.py in {folder} (give the official repository's src folder)")
    sys.path.insert(0, str(folder))
    return importlib.import_module("grits")


# -- the runs ---------------------------------------------------------------------------------

def timed(function, items) -> tuple[float, list]:
    """Wall seconds and results; :func:`cpu_timed` also gives this process's CPU seconds."""
    start = time.perf_counter()
    results = [function(item) for item in items]
    return time.perf_counter() - start, results


def cpu_timed(function, items) -> tuple[float, float, list]:
    """Wall and CPU seconds (the CPU time of this process: on a shared machine,
    what other processes take does not count) and the results."""
    wall, cpu = time.perf_counter(), time.process_time()
    results = [function(item) for item in items]
    return time.perf_counter() - wall, time.process_time() - cpu, results


# Tables each side scores once, untimed, before the timed run: imports, and the first
# allocations of a fresh process, are not what either side costs a table.
WARM_UP = 5


def side_by_side(grits, count: int, seed: int, kinds: tuple[str, ...]) -> None:
    items = pairs(seed, count, (10, 40), (5, 10))
    cells = sum(len(gt) + len(result) for gt, result in items)
    print(f"{count} generated tables of 10-40 rows x 5-10 columns and their results "
          f"({cells:,} cells in all; seed {seed}): " + ", ".join(f"GriTS_{k.title()}" for k in kinds))
    models = [(to_model(gt, "loc" in kinds), to_model(result, "loc" in kinds)) for gt, result in items]
    warm_up = min(WARM_UP, count)  # both sides score the first tables once before the clock starts
    for pair in models[:warm_up]:
        grits_scores(*pair)
    print(f"  {'':14} {'wall s':>9} {'CPU s':>9} {'CPU ms a table':>15}")
    ours_wall, ours_cpu, ours = cpu_timed(lambda pair: grits_scores(*pair), models)
    print(f"  {'convertables':14} {ours_wall:9.2f} {ours_cpu:9.2f} {ours_cpu / count * 1000:15.1f}")
    if grits is None:
        return
    inputs = [(to_official(gt), to_official(result)) for gt, result in items]
    for pair in inputs[:warm_up]:
        official_scores(grits, *pair, kinds=kinds)
    theirs_wall, theirs_cpu, theirs = cpu_timed(lambda pair: official_scores(grits, *pair, kinds=kinds), inputs)
    print(f"  {'official':14} {theirs_wall:9.2f} {theirs_cpu:9.2f} {theirs_cpu / count * 1000:15.1f}")
    print(f"  {'ratio':14} {theirs_wall / ours_wall:8.1f}x {theirs_cpu / ours_cpu:8.1f}x")
    worst = max(abs(a[key] - b[key]) for a, b in zip(ours, theirs) for key in b)
    print(f"  largest absolute difference of the {len(theirs[0])} numbers over the {count} tables: {worst:.3g}")


def scaling(grits, seed: int, sizes: list[tuple[int, int]], official_too: bool) -> None:
    print("Scaling: one table of R x C (spans included) against its result; seconds, median of 3 runs for convertables")
    print(f"  {'size':>10} {'cells':>6} {'positions^2':>12} {'convertables':>13}" + ("  official  ratio" if official_too else ""))
    rng = random.Random(seed)
    for n_rows, n_cols in sizes:
        gt = make_table(rng, n_rows, n_cols, span_rate=0.0 if n_rows * n_cols >= 2000 else 0.08)
        result = perturb(rng, gt)
        pair = (to_model(gt), to_model(result))
        ours = statistics.median(timed(lambda p: grits_scores(*p), [pair])[0] for _ in range(3))
        positions = n_rows * n_cols * (max(c[2] for c in result) + 1) * (max(c[3] for c in result) + 1)
        line = f"  {n_rows:>4} x {n_cols:<3} {len(gt):>6} {positions:>12,} {ours:>13.4f}"
        if official_too and grits is not None:
            theirs, (scores,) = timed(lambda p: official_scores(grits, *p), [(to_official(gt), to_official(result))])
            ours_scores = grits_scores(*pair)
            worst = max(abs(ours_scores[key] - scores[key]) for key in scores)
            line += f"  {theirs:8.2f}  {theirs / ours:5.0f}x  (largest difference {worst:.2g})"
        print(line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--official", help="the official repository's src folder (holding grits.py)")
    parser.add_argument("--no-official", action="store_true", help="time convertables alone")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--kinds", default="top,con,loc",
                        help="which GriTS to compute side by side (default: top,con,loc; top,con leaves boxes out)")
    parser.add_argument("--scaling-only", action="store_true")
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--official-scaling", action="store_true",
                        help="time the official code on the scaling tables too (minutes for the largest)")
    args = parser.parse_args(argv)
    if not args.official and not args.no_official:
        parser.error("give --official PATH (the official src folder) or --no-official")
    grits = None if args.no_official else load_official(args.official)
    kinds = tuple(k for k in ("top", "con", "loc") if k in args.kinds.split(","))
    if not args.scaling_only:
        side_by_side(grits, args.tables, args.seed, kinds)
    if not args.no_scaling:
        sizes = [(10, 5), (20, 8), (40, 10), (60, 12), (200, 10)]
        scaling(grits, args.seed, sizes, args.official_scaling)


if __name__ == "__main__":
    main()
