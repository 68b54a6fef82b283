"""``score --profile unstructured`` beside Unstructured's own table evaluation, on the same files.

    python benchmarks/profile_unstructured.py [--official-python PATH/TO/venv/bin/python]
        [--documents 40] [--rows 40] [--columns 6]

The evaluation (``unstructured.metrics.evaluate.TableStructureMetricsCalculator``,
unmodified, in ``--official-python``'s environment or ``$UNSTRUCTURED_PYTHON``'s, where
``unstructured`` is installed and ``unstructured-inference`` without its
dependencies) runs in a subprocess; two modules it imports for other metrics
(the object-detection evaluator, the table-transformer model: torch) are replaced
by stand-ins, as tests/make_unstructured_fixture.py does. convertables runs in
another subprocess (the library's ``score(..., profile="unstructured", jobs=1)``).
Each side is timed in CPU time (the children's rusage), start-up and imports
included, the least of three runs after an untimed one (bytecode written, files
cached), over two sets of files:

* ``small``: the 30 hand-made documents of tests/unstructured_cases.py and, where
  the corpus is present, the 84 opendataloader-bench pages (7 parsers' tables
  against the ground truth's), as the tests build them;
* ``generated``: ``--documents`` documents of two ground-truth tables of
  ``--rows`` x ``--columns`` cells each, their predictions with a recogniser's
  mistakes (misread cells, a row left out, two columns swapped, an extra table).

Printed: each side's seconds, their ratio, and how many of the documents' figures
agree (to 1e-9). Without the evaluation only convertables is timed.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from unstructured_cases import page_tables, prediction_elements, write_hand_cases  # noqa: E402

from convertables.formats.unstructured_eval import html_cells  # noqa: E402

PAGES = ROOT.parent / "shared" / "corpus" / "markdown-pages" / "opendataloader-bench"
FIGURES = ("total_tables", "total_predicted_tables", "table_level_acc", "table_detection_recall",
           "table_detection_precision", "table_detection_f1", "composite_structure_acc",
           "element_col_level_index_acc", "element_row_level_index_acc", "element_col_level_content_acc",
           "element_row_level_content_acc")

OFFICIAL = r'''
import concurrent.futures, csv, json, logging, sys, types
tables = types.ModuleType("unstructured_inference.models.tables")
tables.cells_to_html = None
sys.modules["unstructured_inference.models.tables"] = tables
detection = types.ModuleType("unstructured.metrics.object_detection")
detection.ObjectDetectionEvalProcessor = object
sys.modules["unstructured.metrics.object_detection"] = detection
from unstructured.metrics.evaluate import TableStructureMetricsCalculator
logging.getLogger("unstructured.eval").setLevel(logging.ERROR)
found = {}
for gt, pred in json.load(open(sys.argv[1])):
    df = TableStructureMetricsCalculator(documents_dir=pred, ground_truths_dir=gt).calculate(
        executor=concurrent.futures.ThreadPoolExecutor(max_workers=1), visualize_progress=False, display_agg_df=False)
    for row in df.to_dict("records"):
        found[pred + "/" + row["filename"]] = {k: (None if v != v else float(v)) for k, v in row.items()
                                               if k not in ("filename", "doctype", "connector", "_table_weights")}
json.dump(found, open(sys.argv[2], "w"))
'''

OURS = r'''
import json, sys
from convertables import score
found = {}
for gt, pred in json.load(open(sys.argv[1])):
    report = score(gt, pred, profile="unstructured", jobs=1)
    for record in report.documents:
        name = record["result_file"].rsplit("/", 1)[-1].removesuffix(".json")
        found[pred + "/" + name] = {k: record.get(k) for k in ''' + repr(FIGURES) + r'''}
json.dump(found, open(sys.argv[2], "w"))
'''


# Each side runs as an installed package does: from compiled bytecode (written by an
# untimed first run where it is missing), so neither pays for compiling its sources.
_ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cpu(command: list[str], runs: int = 3) -> float:
    """The least CPU time of ``runs`` runs of the command, after an untimed one."""
    subprocess.run(command, check=True, env=_ENVIRONMENT)
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, env=_ENVIRONMENT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return min(times)


def small_set(folder: Path) -> list[tuple[str, str]]:
    write_hand_cases(folder / "hand")
    pairs = [(str(folder / "hand" / "gt"), str(folder / "hand" / "pred"))]
    if not PAGES.exists():
        return pairs
    gt = folder / "corpus" / "gt"
    gt.mkdir(parents=True)
    for page in sorted((PAGES / "gt").glob("*.md")):
        tables = [{"type": "Table", "text": [{"id": str(k), "x": x, "y": y, "w": w, "h": h, "content": text}
                                             for k, (y, x, w, h, text) in enumerate(html_cells(source))]}
                  for source in page_tables(page)]
        (gt / f"{page.stem}.pdf.json").write_text(json.dumps(tables))
    for engine in sorted(p.name for p in (PAGES / "pred").iterdir() if p.is_dir()):
        pred = folder / "corpus" / engine
        pred.mkdir()
        for page in sorted((PAGES / "pred" / engine).glob("*.md")):
            (pred / f"{page.stem}.pdf.json").write_text(json.dumps(prediction_elements(page_tables(page))))
        pairs.append((str(gt), str(pred)))
    return pairs


def generated_set(folder: Path, documents: int, rows: int, columns: int, seed: int = 5) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    words = ["revenue", "profit", "total", "north", "south", "2021", "2022", "q1", "q2", "margin", "units", "net"]
    gt_dir, pred_dir = folder / "generated" / "gt", folder / "generated" / "pred"
    gt_dir.mkdir(parents=True)
    pred_dir.mkdir(parents=True)

    def misread(text: str) -> str:
        if not text or rng.random() > 0.1:
            return text
        k = rng.randrange(len(text))
        return text[:k] + rng.choice("abcdefghij0123456789") + text[k + 1:]

    for d in range(documents):
        gt_elements, pred_elements = [], []
        for t in range(2):
            grid = [[f"{rng.choice(words)} {rng.randint(0, 9999)}" for _ in range(columns)] for _ in range(rows)]
            gt_elements.append({"type": "Table", "text": [{"id": f"{t}-{y}-{x}", "x": x, "y": y, "w": 1, "h": 1,
                                                           "content": text} for y, row in enumerate(grid)
                                                          for x, text in enumerate(row)]})
            predicted = [[misread(text) for text in row] for y, row in enumerate(grid) if y != rows // 2]
            if t == 1:
                predicted = [[row[1], row[0], *row[2:]] for row in predicted]
            source = "<table>" + "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>"
                                         for row in predicted) + "</table>"
            pred_elements.append(prediction_elements([source])[0])
        pred_elements.append(prediction_elements(["<table><tr><td>page 1 of 9</td><td>footer</td></tr></table>"])[0])
        (gt_dir / f"doc{d:04d}.pdf.json").write_text(json.dumps(gt_elements))
        (pred_dir / f"doc{d:04d}.pdf.json").write_text(json.dumps(pred_elements))
    return [(str(gt_dir), str(pred_dir))]


def agreement(ours: dict, theirs: dict) -> tuple[int, int, float]:
    compared = equal = 0
    worst = 0.0
    for key, figures in theirs.items():
        mine = ours.get(key, {})
        for name in FIGURES:
            a, b = figures.get(name), mine.get(name)
            compared += 1
            if a is None or b is None:
                equal += a is None and b is None
                continue
            worst = max(worst, abs(a - b))
            equal += abs(a - b) <= 1e-9
    return compared, equal, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official-python", default=os.environ.get("UNSTRUCTURED_PYTHON"))
    parser.add_argument("--documents", type=int, default=40)
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--columns", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sets = {"small": small_set(folder / "small"),
                "generated": generated_set(folder / "big", args.documents, args.rows, args.columns)}
        (folder / "ours.py").write_text(OURS)
        (folder / "official.py").write_text(OFFICIAL)
        for name, pairs in sets.items():
            job = folder / f"{name}.json"
            job.write_text(json.dumps(pairs))
            ours_out, theirs_out = folder / f"{name}-ours.json", folder / f"{name}-theirs.json"
            ours_s = _cpu([sys.executable, str(folder / "ours.py"), str(job), str(ours_out)])
            documents = len(json.loads(ours_out.read_text()))
            print(f"{name}: {documents} documents; convertables {ours_s:.2f} s CPU")
            if not args.official_python:
                print("  (no --official-python nor $UNSTRUCTURED_PYTHON: Unstructured's evaluation not run)")
                continue
            theirs_s = _cpu([args.official_python, str(folder / "official.py"), str(job), str(theirs_out)])
            compared, equal, worst = agreement(json.loads(ours_out.read_text()), json.loads(theirs_out.read_text()))
            print(f"  Unstructured's evaluation {theirs_s:.2f} s CPU; ratio {theirs_s / ours_s:.1f}; "
                  f"figures compared {compared}, equal {equal}, largest difference {worst:.2g}")


if __name__ == "__main__":
    main()
