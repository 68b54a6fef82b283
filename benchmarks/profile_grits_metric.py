"""The grits-metric profile beside grits-metric itself, on the same pages, in one run.

    python benchmarks/profile_grits_metric.py --grits-python /path/venv/bin/python
    python benchmarks/profile_grits_metric.py --gt GT_DIR --result PRED_DIR [--result PRED_DIR2 ...] \\
        --format opendataloader-markdown --grits-python /path/venv/bin/python

grits-metric is never imported here: it runs in the Python given by
``--grits-python`` (or the ``GRITS_METRIC_PYTHON`` environment variable), a
virtual environment with ``pip install grits-metric``, as a child process; its
CPU time is that child's (``resource.RUSAGE_CHILDREN``). Without it, the script
says so and prints convertables' time alone.

The pages: folders given (``--gt``, one or more ``--result``, read in
``--format``), or, by default, pages generated here, seeded: each page holds
one to three tables of up to ``--rows`` x ``--cols`` cells with spanning cells,
and its prediction the same tables edited (rows and columns dropped, cells
merged, texts changed), one table at times missing or an extra one added.
Both sides are given the same tables: grits-metric each page's tables as HTML
strings (every outermost ``<table>`` of the page, pipe tables first made HTML
where the format is ``opendataloader-markdown``), ``GritsEvaluator.eval_htmls``
a page at a time; convertables the files, ``score(profile="grits-metric")`` in
this process. Printed: each side's CPU seconds, the ratio, and the largest
difference of the pooled GriTS_Con and GriTS_Top and the per-page figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from convertables import score  # noqa: E402
from convertables.formats.opendataloader_markdown import decode, pipe_tables_as_html, table_sources  # noqa: E402

# What the child runs: pages of HTML strings in; "total": one evaluator over all the pages (the
# run timed), its pooled figures out; "pages": an evaluator a page, each page's figures out; "start":
# its start and imports alone.
OFFICIAL_DRIVER = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
from grits import GritsEvaluator
pages = json.load(open(sys.argv[1]))
if sys.argv[3] == "start":
    out = None
elif sys.argv[3] == "total":
    total = GritsEvaluator()
    for key, (gt, pred) in pages.items():
        total.eval_htmls(gt, pred)
    found = total.compute_grits()
    out = [found["grits_con"], found["grits_top"]]
else:
    out = {}
    for key, (gt, pred) in pages.items():
        one = GritsEvaluator()
        one.eval_htmls(gt, pred)
        found = one.compute_grits()
        out[key] = [found["grits_con"], found["grits_top"]]
json.dump(out, open(sys.argv[2], "w"))
"""

WORDS = ("Total", "Revenue", "Net", "income", "Age", "Group", "mean", "SD", "value", "Patients", "years",
         "Control", "Treatment", "Baseline", "Week", "Change")


def _text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.random() * 1000:.{rng.randint(0, 2)}f}"
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))


def _grid(rng: random.Random, n_rows: int, n_cols: int) -> list[list[tuple[str, int, int] | None]]:
    """Rows of (text, rowspan, colspan), None where a span above or to the left covers the slot."""
    slots: list[list] = [[""] * n_cols for _ in range(n_rows)]
    for r in range(n_rows):
        for c in range(n_cols):
            if slots[r][c] != "":
                continue
            rowspan = 2 if rng.random() < 0.04 and r + 1 < n_rows and slots[r + 1][c] == "" else 1
            colspan = 2 if rng.random() < 0.06 and c + 1 < n_cols and slots[r][c + 1] == "" else 1
            if rowspan == 2 and colspan == 2 and slots[r + 1][c + 1] != "":
                colspan = 1
            for dr in range(rowspan):
                for dc in range(colspan):
                    slots[r + dr][c + dc] = None
            slots[r][c] = (_text(rng), rowspan, colspan)
    return slots


def _html(grid: list[list]) -> str:
    rows = []
    for row in grid:
        cells = []
        for slot in row:
            if slot is None:
                continue
            text, rowspan, colspan = slot
            spans = (f' rowspan="{rowspan}"' if rowspan > 1 else "") + (f' colspan="{colspan}"' if colspan > 1 else "")
            cells.append(f"<td{spans}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<table>" + "".join(rows) + "</table>"


def _edited(rng: random.Random, grid: list[list]) -> list[list]:
    """The table a parser might give: plain cells only (spans undone), a row and a column at times
    dropped, some texts changed."""
    plain = [[(slot[0] if slot else "") for slot in row] for row in grid]
    if rng.random() < 0.5 and len(plain) > 2:
        del plain[rng.randrange(len(plain))]
    if rng.random() < 0.4 and len(plain[0]) > 2:
        drop = rng.randrange(len(plain[0]))
        plain = [row[:drop] + row[drop + 1:] for row in plain]
    return [[((_text(rng) if rng.random() < 0.1 else text), 1, 1) for text in row] for row in plain]


def generate(folder: Path, pages: int, rows: int, cols: int, seed: int = 7) -> tuple[Path, Path]:
    rng = random.Random(seed)
    gt, pred = folder / "gt", folder / "pred"
    gt.mkdir()
    pred.mkdir()
    for k in range(pages):
        truth = [_grid(rng, rng.randint(rows // 2, rows), rng.randint(max(2, cols // 2), cols))
                 for _ in range(rng.randint(1, 3))]
        predicted = [_edited(rng, grid) for grid in truth]
        if len(predicted) > 1 and rng.random() < 0.2:
            predicted.pop(rng.randrange(len(predicted)))
        if rng.random() < 0.1:
            predicted.append(_grid(rng, 3, 3))
        (gt / f"page{k:04d}.html").write_text("\n".join(map(_html, truth)) + "\n", encoding="utf-8")
        (pred / f"page{k:04d}.html").write_text("\n".join(map(_html, predicted)) + "\n", encoding="utf-8")
    return gt, pred


def tables_of(path: Path, markdown: bool) -> list[str]:
    text = decode(path.read_bytes())
    return table_sources(pipe_tables_as_html(text) if markdown else text)


def run_official(python: str, pages: dict, mode: str) -> tuple[object, float]:
    """grits-metric's figures (``mode`` "total" or "pages") and the child's CPU seconds."""
    with tempfile.TemporaryDirectory() as scratch:
        given, out = Path(scratch) / "pages.json", Path(scratch) / "figures.json"
        given.write_text(json.dumps(pages), encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([python, "-c", OFFICIAL_DRIVER, str(given), str(out), mode], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return json.loads(out.read_text(encoding="utf-8")), cpu


def run_convertables(gt: Path, results: list[Path], fmt: str | None) -> tuple[dict, dict, float]:
    """Each page's (grits_con, grits_top), each result folder's pooled pair, and the CPU seconds."""
    formats = {"gt_format": fmt, "result_format": fmt} if fmt else {}
    pages, totals = {}, {}
    start = time.process_time()
    for result in results:
        report = score(gt, result, profile="grits-metric", **formats)
        for record in report["documents"]:
            pages[f"{result.name}/{record['document']}"] = [record["grits_con"], record["grits_top"]]
        totals[result.name] = [report["total"]["grits_con"], report["total"]["grits_top"]]
    return pages, totals, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gt", type=Path, help="ground-truth pages (default: generated)")
    parser.add_argument("--result", type=Path, action="append", help="a folder of predicted pages (repeatable)")
    parser.add_argument("--format", help="their format (default: the profile's, html)")
    parser.add_argument("--grits-python", default=os.environ.get("GRITS_METRIC_PYTHON"),
                        help="a Python with grits-metric installed (or GRITS_METRIC_PYTHON)")
    parser.add_argument("--pages", type=int, default=40, help="generated pages")
    parser.add_argument("--rows", type=int, default=24, help="generated tables' rows at most")
    parser.add_argument("--cols", type=int, default=8, help="generated tables' columns at most")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        if args.gt is None:
            gt, pred = generate(Path(scratch), args.pages, args.rows, args.cols)
            results = [pred]
            print(f"{args.pages} generated pages, tables of up to {args.rows} x {args.cols} cells")
        else:
            gt, results = args.gt, args.result or []
        markdown = args.format == "opendataloader-markdown"
        pages = {}
        for result in results:
            for page in sorted(p for p in result.iterdir() if p.is_file() and (gt / p.name).is_file()):
                pages[f"{result.name}/{page.stem}"] = [tables_of(gt / page.name, markdown), tables_of(page, markdown)]
        print(f"{len(pages)} pages, {sum(len(g) for g, _ in pages.values())} ground-truth tables")
        mine, totals, mine_cpu = run_convertables(gt, results, args.format)
        _, _, warm_cpu = run_convertables(gt, results, args.format)
        print(f"convertables (score --profile grits-metric, in this process): {mine_cpu:.2f} s CPU, its imports "
              f"included; {warm_cpu:.2f} s run again")
        if not args.grits_python:
            print("grits-metric not run: give --grits-python (a Python with grits-metric installed) or set "
                  "GRITS_METRIC_PYTHON")
            return 0
        official_total, official_cpu = run_official(args.grits_python, pages, "total")
        _, startup_cpu = run_official(args.grits_python, {}, "start")
        print(f"grits-metric (one GritsEvaluator, eval_htmls a page at a time): {official_cpu:.2f} s CPU, its "
              f"start and imports ({startup_cpu:.2f} s) included")
        print(f"ratio: {official_cpu / mine_cpu:.1f}x; without either's start and imports: "
              f"{(official_cpu - startup_cpu) / warm_cpu:.1f}x")
        official_pages, _ = run_official(args.grits_python, pages, "pages")  # (not timed: the figures compared)
        differences = [abs(a - b) for key, figures in official_pages.items() for a, b in zip(figures, mine[key])]
        print(f"pages compared: {len(differences) // 2}, largest difference of a page's GriTS_Con or GriTS_Top: "
              f"{max(differences, default=0.0):.2g}")
        if len(results) == 1:
            pooled = totals[results[0].name]
            print(f"pooled GriTS_Con, GriTS_Top: {pooled[0]:.12f} {pooled[1]:.12f} (convertables), "
                  f"{official_total[0]:.12f} {official_total[1]:.12f} (grits-metric)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
