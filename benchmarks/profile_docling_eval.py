"""The docling-eval profile beside docling-eval's own TableEvaluator, on the same documents.

    python benchmarks/profile_docling_eval.py [--documents 300] [--size 12] \\
        [--official-python PATH/TO/venv/bin/python]     (or DOCLING_EVAL_PYTHON)

Generates DoclingDocument pairs (ground truth: tables with spans, column and row
headers, blank cells, holes, captions; prediction: the same tables with cells
dropped and texts edited, a grid a row larger or smaller, captions lost, now and
then a table more or less), then scores them with ``convertables score --profile
docling-eval`` and, where a Python environment with docling-eval installed is
given, with docling-eval's TableEvaluator run unmodified in a subprocess (its
dataset built from the same files as its own dataset builders build one). Printed:
CPU time of each (children's rusage for subprocesses; for docling-eval, its
evaluator's call alone and the whole run, imports and dataset included), the ratio,
and how many of the per-table figures are equal. Without the official environment
only convertables is timed.

docling-eval's ``docling_eval.utils`` imports ``Tensor`` from torch for a type
check; where torch is not installed, the driver gives it a stand-in type (and takes
it away again before the evaluator runs), so that the evaluator runs without it.
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

OFFICIAL = r'''
import json, resource, sys, time, types
from pathlib import Path
try:
    import torch  # noqa: F401
except ImportError:  # a stand-in: docling_eval.utils wants torch.Tensor for an isinstance check
    import importlib.machinery
    stand_in = types.ModuleType("torch")
    stand_in.__spec__ = importlib.machinery.ModuleSpec("torch", None)
    stand_in.Tensor = type("Tensor", (), {})
    no = lambda *a, **k: False
    stand_in.backends = types.SimpleNamespace(mps=types.SimpleNamespace(is_built=no, is_available=no))
    stand_in.cuda = types.SimpleNamespace(is_available=no, device_count=lambda: 0)
    sys.modules["torch"] = stand_in
from datasets import Dataset
from docling_core.types.doc.document import DoclingDocument
from docling_eval.datamodels.dataset_record import DatasetRecordWithPrediction
from docling_eval.datamodels.types import PredictionFormats
from docling_eval.evaluators.table_evaluator import TableEvaluator
if "torch" in sys.modules and getattr(sys.modules["torch"], "__file__", None) is None:
    sys.modules.pop("torch", None)  # (datasets must not take the stand-in for torch)

gt_dir, pred_dir, work = map(Path, sys.argv[1:4])
records = []
for gt in sorted(gt_dir.glob("*.json")):
    record = DatasetRecordWithPrediction(
        doc_id=gt.stem, ground_truth_doc=DoclingDocument.load_from_json(gt),
        predicted_doc=DoclingDocument.load_from_json(pred_dir / gt.name),
        prediction_format=PredictionFormats.DOCLING_DOCUMENT, status="success")
    records.append(record.as_record_dict())
(work / "test").mkdir(parents=True)
Dataset.from_list(records, features=DatasetRecordWithPrediction.features()).to_parquet(str(work / "test" / "0.parquet"))
cpu, children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
evaluation = TableEvaluator(concurrency=1)(work, split="test")
after = resource.getrusage(resource.RUSAGE_CHILDREN)
seconds = time.process_time() - cpu + (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
figures = {}
for e in evaluation.table_structure_evaluations:
    figures.setdefault(f"{e.filename}/{e.table_id}", [None, None])[1 if e.structure_only_evaluation else 0] = e.TEDS
print(json.dumps({"seconds": seconds, "figures": figures, "mean": evaluation.TEDS.mean}))
'''

WORDS = ["alpha", "beta", "12.5", "x", "", "  pad ", "a&b", "<i>", "n/a", "Total", "1,234", "é", "line\nbreak"]


def _cell(r0, c0, text, rows=1, cols=1, column_header=False, row_header=False) -> dict:
    return {"row_span": rows, "col_span": cols, "start_row_offset_idx": r0, "end_row_offset_idx": r0 + rows,
            "start_col_offset_idx": c0, "end_col_offset_idx": c0 + cols, "text": text,
            "column_header": column_header, "row_header": row_header, "row_section": False}


def _table(rnd: random.Random, size: int) -> dict:
    rows, cols = rnd.randint(1, size), rnd.randint(1, size)
    taken: set = set()
    cells = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in taken or rnd.random() < 0.05:
                continue
            height = min(1 if rnd.random() < 0.85 else rnd.randint(1, 3), rows - r)
            width = min(1 if rnd.random() < 0.85 else rnd.randint(1, 3), cols - c)
            if any((y, x) in taken for y in range(r, r + height) for x in range(c, c + width)):
                height = width = 1
            taken.update((y, x) for y in range(r, r + height) for x in range(c, c + width))
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 3)))
            cells.append(_cell(r, c, text, height, width, r == 0 and rnd.random() < 0.7,
                               c == 0 and rnd.random() < 0.3))
    return {"cells": cells, "rows": rows, "cols": cols, "captions": ["caption"] * rnd.choice([0, 0, 1, 2])}


def _edited(rnd: random.Random, table: dict) -> dict:
    cells = [dict(c) for c in table["cells"] if rnd.random() > 0.1]
    for cell in cells:
        if rnd.random() < 0.2:
            cell["text"] = cell["text"][::-1] + rnd.choice(["", "z"])
    rows = max(0, table["rows"] + rnd.choice([0, 0, 0, 1, -1]))
    return {"cells": cells, "rows": rows, "cols": table["cols"], "captions": table["captions"][:rnd.randint(0, 2)]}


def _document(name: str, tables: list[dict]) -> dict:
    texts, items = [], []
    for k, table in enumerate(tables):
        captions = []
        for text in table["captions"]:
            texts.append({"self_ref": f"#/texts/{len(texts)}", "parent": {"$ref": f"#/tables/{k}"}, "children": [],
                          "content_layer": "body", "label": "caption", "prov": [], "orig": text, "text": text})
            captions.append({"$ref": texts[-1]["self_ref"]})
        items.append({"self_ref": f"#/tables/{k}", "parent": {"$ref": "#/body"}, "children": captions,
                      "content_layer": "body", "label": "table", "captions": captions, "references": [],
                      "footnotes": [], "prov": [{"page_no": 1, "charspan": [0, 0], "bbox": {
                          "l": 10, "t": 10 + 100 * k, "r": 300, "b": 90 + 100 * k, "coord_origin": "TOPLEFT"}}],
                      "data": {"table_cells": table["cells"], "num_rows": table["rows"], "num_cols": table["cols"]}})
    root = {"children": [], "content_layer": "body", "name": "_root_", "label": "unspecified"}
    return {"schema_name": "DoclingDocument", "version": "1.3.0", "name": name,
            "furniture": {**root, "self_ref": "#/furniture", "content_layer": "furniture"},
            "body": {**root, "self_ref": "#/body", "children": [{"$ref": t["self_ref"]} for t in items]},
            "groups": [], "texts": texts, "pictures": [], "tables": items, "key_value_items": [], "form_items": [],
            "pages": {"1": {"size": {"width": 612, "height": 792}, "page_no": 1}}}


def generate(folder: Path, documents: int, size: int) -> None:
    rnd = random.Random(7)
    for side in ("gt", "pred"):
        (folder / side).mkdir()
    for k in range(documents):
        truth = [_table(rnd, size) for _ in range(rnd.randint(0, 3))]
        prediction = [_edited(rnd, t) for t in truth]
        if rnd.random() < 0.1:
            prediction = prediction[:-1] if prediction and rnd.random() < 0.5 else prediction + [_table(rnd, size)]
        name = f"d{k:04d}"
        for side, tables in (("gt", truth), ("pred", prediction)):
            (folder / side / f"{name}.json").write_text(json.dumps(_document(name, tables)), encoding="utf-8")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours(folder: Path) -> tuple[float, dict]:
    before = _children_cpu()
    done = subprocess.run([sys.executable, "-m", "convertables", "score", "--gt", str(folder / "gt"), "--result",
                           str(folder / "pred"), "--profile", "docling-eval", "--format", "json", "--jobs", "1"],
                          capture_output=True, text=True, cwd=ROOT)
    seconds = _children_cpu() - before
    report = json.loads(done.stdout)
    figures = {f"{d['document']}/{t['gt_table']}": [t["teds"], t["teds_struct"]]
               for d in report["documents"] for t in d["tables"] if t["teds"] is not None}
    return seconds, {"figures": figures, "mean": report["total"]["statistics"]["teds"]["mean"]}


def official(folder: Path, python: str) -> tuple[float, dict]:
    before = _children_cpu()
    done = subprocess.run([python, "-c", OFFICIAL, str(folder / "gt"), str(folder / "pred"), str(folder / "ds")],
                          capture_output=True, text=True)
    seconds = _children_cpu() - before
    if done.returncode != 0:
        sys.exit(f"docling-eval's run failed:\n{done.stderr[-3000:]}")
    return seconds, json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--size", type=int, default=12, help="the most rows and columns of a table")
    parser.add_argument("--official-python", default=os.environ.get("DOCLING_EVAL_PYTHON"),
                        help="a Python with docling-eval installed (default: $DOCLING_EVAL_PYTHON)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        generate(folder, args.documents, args.size)
        our_seconds, our = ours(folder)
        tables = len(our["figures"])
        print(f"convertables score --profile docling-eval: {our_seconds:.2f} s CPU (the whole command), "
              f"{tables} table pairs scored, mean TEDS {our['mean']:.6f}")
        if not args.official_python:
            print("docling-eval not run: give --official-python (or DOCLING_EVAL_PYTHON), a Python with "
                  "docling-eval installed")
            return
        run_seconds, theirs = official(folder, args.official_python)
        equal = sum(1 for key, pair in our["figures"].items() if theirs["figures"].get(key) == pair)
        largest = max((abs(a - b) for key, pair in our["figures"].items() if key in theirs["figures"]
                       for a, b in zip(pair, theirs["figures"][key])), default=0.0)
        print(f"docling-eval TableEvaluator: {theirs['seconds']:.2f} s CPU (its evaluation), {run_seconds:.2f} s "
              f"CPU (the whole run: imports and dataset too), {len(theirs['figures'])} table pairs scored, "
              f"mean TEDS {theirs['mean']:.6f}")
        print(f"figures: {tables} pairs against {len(theirs['figures'])}, {equal} equal (TEDS and TEDS-struct), "
              f"largest difference {largest:g}")
        print(f"ratio: {theirs['seconds'] / our_seconds:.1f}x (its evaluation against our whole command), "
              f"{run_seconds / our_seconds:.1f}x (whole runs)")


if __name__ == "__main__":
    main()
