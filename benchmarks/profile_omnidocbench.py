"""The omnidocbench profile beside OmniDocBench's own end-to-end evaluation, on the same files.

    python benchmarks/profile_omnidocbench.py --official-src PATH/TO/OmniDocBench \\
        --official-python PATH/TO/venv/bin/python [--copies 20] [--corpus FOLDER]

(or set OMNIDOCBENCH_SRC and OMNIDOCBENCH_PYTHON). The files: the demo pages of
OmniDocBench (``OmniDocBench_demo.json`` and ``end2end_pred_md/``, in --corpus,
by default the shared corpus's ``markdown-pages/omnidocbench``), each page
copied ``--copies`` times under names of its own, so that the run is not all
start-up. Both sides run as commands, one after the other, and are timed in CPU
time (user + system of the child processes): convertables' ``score --profile
omnidocbench --jobs 1``, and OmniDocBench's End2EndDataset (quick_match) with
its table metrics (TEDS, Edit_dist) and its End2EndEval, from its checkout,
unmodified (its formula-only modules, which need a LaTeX toolchain, are left
out). Printed: both times, the ratio, and the largest difference between the
two sides' summary figures. Without --official-src only convertables is timed.

``--large-tables PAGES`` times generated pages instead, one large table each
(``--rows`` x ``--cols``, 50 x 10 by default, with spans) against a prediction
with some texts changed, a row left out and a span split: a run whose time is
TEDS on large tables.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONVERTABLES_CORPUS", "/work/shared/corpus"))

OFFICIAL = """
import contextlib, io, json, os, sys, types
source, gt, pred, work = sys.argv[1:5]
sys.path.insert(0, source)
for name in ("mmeval", "skimage", "skimage.measure", "evaluate"):  # (not on the table path)
    try:
        __import__(name)
    except ImportError:
        stub = types.ModuleType(name)
        stub.COCODetection = stub.ransac = None
        sys.modules[name] = stub
cdm = types.ModuleType("metrics.cdm_metric")
cdm.CDM = None
sys.modules["metrics.cdm_metric"] = cdm
os.makedirs(os.path.join(work, "result"), exist_ok=True)
os.chdir(work)
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    import dataset, task, metrics
    from registry.registry import DATASET_REGISTRY, EVAL_TASK_REGISTRY
    config = {"metrics": {"table": {"metric": ["TEDS", "Edit_dist"]}},
              "dataset": {"dataset_name": "end2end_dataset", "ground_truth": {"data_path": gt},
                          "prediction": {"data_path": pred}, "match_method": "quick_match"}}
    data = DATASET_REGISTRY.get("end2end_dataset")(config)
    EVAL_TASK_REGISTRY.get("end2end_eval")(data, config["metrics"], gt, "run")
print(json.dumps(json.load(open("result/run_metric_result.json"))["table"]["all"]))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str]) -> tuple[float, str]:
    before = _children_cpu()
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{out.stderr[-2000:]}")
    return _children_cpu() - before, out.stdout


def _copies(corpus: Path, copies: int, folder: Path) -> tuple[Path, Path, int]:
    """The demo pages, each ``copies`` times: (ground truth, predictions, pages)."""
    pages = json.loads((corpus / "OmniDocBench_demo.json").read_text(encoding="utf-8"))
    pred = folder / "pred"
    pred.mkdir()
    copied = []
    for k in range(copies):
        for page in pages:
            image = Path(page["page_info"]["image_path"])
            name = f"{image.stem}__{k}"
            copied.append({**page, "page_info": {**page["page_info"], "image_path": f"{name}{image.suffix}"}})
            markdown = corpus / "end2end_pred_md" / f"{image.stem}.md"
            if markdown.exists():
                (pred / f"{name}.md").write_bytes(markdown.read_bytes())
    gt = folder / "gt.json"
    gt.write_text(json.dumps(copied, ensure_ascii=False), encoding="utf-8")
    return gt, pred, len(copied)


def _large_tables(pages: int, rows: int, cols: int, folder: Path) -> tuple[Path, Path, int]:
    """``pages`` pages of one ``rows`` x ``cols`` table each (a header row of
    ``<th>``, a colspan or rowspan of 2 on about one cell in eight, every cell's
    text its own), each predicted with a few cells' texts changed, a row left
    out and a span split: a run whose time is the tables' TEDS. (ground truth,
    predictions, pages)."""
    import random

    rng = random.Random(7)
    pred = folder / "pred"
    pred.mkdir()
    gt_pages = []
    for page in range(pages):
        grid: list[list[list]] = []  # each row: [tag, text, colspan, rowspan] of the cells it starts
        covered: set[tuple[int, int]] = set()
        for r in range(rows):
            row = []
            for c in range(cols):
                if (r, c) in covered:
                    continue
                colspan = 2 if c + 1 < cols and (r, c + 1) not in covered and rng.random() < 0.07 else 1
                rowspan = 2 if colspan == 1 and r + 1 < rows and rng.random() < 0.06 else 1
                for dr in range(rowspan):
                    for dc in range(colspan):
                        covered.add((r + dr, c + dc))
                row.append(["th" if r == 0 else "td", f"{rng.choice(('a', 'b', 'Total', 'x y'))} {page}.{r}.{c}",
                            colspan, rowspan])
            grid.append(row)
        predicted = [[list(cell) for cell in row] for row in grid]
        for row in predicted:
            for cell in row:
                if rng.random() < 0.1:
                    cell[1] = cell[1][::-1]
        del predicted[rng.randrange(1, rows)]
        spanned = [cell for row in predicted for cell in row if cell[2] == 2]
        if spanned:
            spanned[0][2] = 1
        name = f"large_{page}"
        gt_pages.append({"layout_dets": [{"category_type": "table", "anno_id": 0, "order": 1,
                                          "html": _html(grid)}],
                         "page_info": {"image_path": f"{name}.png", "page_attribute": {}}, "extra": {"relation": []}})
        (pred / f"{name}.md").write_text(f"# Page {page}\n\n{_html(predicted)}\n", encoding="utf-8")
    gt = folder / "gt.json"
    gt.write_text(json.dumps(gt_pages, ensure_ascii=False), encoding="utf-8")
    return gt, pred, pages


def _html(grid: list[list[list]]) -> str:
    def cell(tag: str, text: str, colspan: int, rowspan: int) -> str:
        spans = (f' colspan="{colspan}"' if colspan > 1 else "") + (f' rowspan="{rowspan}"' if rowspan > 1 else "")
        return f"<{tag}{spans}>{text}</{tag}>"

    return "<table>" + "".join("<tr>" + "".join(cell(*c) for c in row) + "</tr>" for row in grid) + "</table>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official-src", default=os.environ.get("OMNIDOCBENCH_SRC"),
                        help="an OmniDocBench checkout (its dataset/, metrics/, utils/...)")
    parser.add_argument("--official-python", default=os.environ.get("OMNIDOCBENCH_PYTHON", sys.executable),
                        help="a Python with OmniDocBench's requirements for its table path")
    parser.add_argument("--corpus", type=Path, default=CORPUS / "markdown-pages" / "omnidocbench")
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--large-tables", type=int, metavar="PAGES", default=0,
                        help="instead of the demo pages, PAGES generated pages of one large table each "
                             "(--rows x --cols, with spans), a run that is TEDS throughout")
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--cols", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        if args.large_tables:
            gt, pred, pages = _large_tables(args.large_tables, args.rows, args.cols, Path(scratch))
        else:
            gt, pred, pages = _copies(args.corpus, args.copies, Path(scratch))
        ours, out = _timed([sys.executable, "-m", "convertables", "score", "--gt", str(gt), "--result", str(pred),
                            "--profile", "omnidocbench", "--format", "json", "--jobs", "1"])
        total = json.loads(out)["total"]
        print(f"{pages} pages, {total['tables']} tables scored")
        print(f"convertables (score --profile omnidocbench): {ours:.2f} s CPU; TEDS {total['teds']:.6f}, "
              f"TEDS-S {total['teds_struct']:.6f}, Edit_dist {total['edit_dist']:.6f}")
        if not args.official_src:
            print("OmniDocBench not timed: give --official-src (or OMNIDOCBENCH_SRC)")
            return
        script = Path(scratch, "official.py")
        script.write_text(OFFICIAL)
        theirs, out = _timed([args.official_python, str(script), str(Path(args.official_src).resolve()), str(gt),
                              str(pred), str(Path(scratch, "work"))])
        figures = json.loads(out.strip().splitlines()[-1])
        official = (figures["TEDS"]["all"], figures["TEDS_structure_only"]["all"], figures["Edit_dist"]["ALL_page_avg"])
        difference = max(abs(a - b) for a, b in zip(official, (total["teds"], total["teds_struct"],
                                                               total["edit_dist"])))
        print(f"OmniDocBench (End2EndDataset + TEDS, Edit_dist): {theirs:.2f} s CPU; TEDS {official[0]:.6f}, "
              f"TEDS-S {official[1]:.6f}, Edit_dist {official[2]:.6f}")
        print(f"ratio: {theirs / ours:.1f}x; largest difference of the summary figures: {difference:.2e}")


if __name__ == "__main__":
    main()
