"""Writes tests/data/unstructured_official.json: the figures Unstructured's own
table evaluation gives for the hand-made documents of tests/unstructured_cases.py
and for the opendataloader-bench pages of ../shared/corpus/markdown-pages (each
parser's tables against the ground truth's).

    python tests/make_unstructured_fixture.py --oracle-python PYTHON

``PYTHON`` is an interpreter with ``unstructured`` installed (and
``unstructured-inference`` without its dependencies). A small runner written
to a temporary file calls, unmodified, ``TableStructureMetricsCalculator`` of
``unstructured.metrics.evaluate`` (the per-document and aggregate TSVs) and,
for the corpus's ground truth, the evaluation's own converter from HTML to its
cells, ``html_table_to_deckerd``. Two modules those import for other purposes
are replaced by stand-ins: the object-detection evaluator (torch) and the
table-transformer model (``cells_to_html``, which the evaluation never calls).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import tempfile
from pathlib import Path

from unstructured_cases import page_tables, prediction_elements, write_hand_cases

ROOT = Path(__file__).resolve().parent
PAGES = ROOT.parent.parent / "shared" / "corpus" / "markdown-pages" / "opendataloader-bench"
OUT = ROOT / "data" / "unstructured_official.json"

RUNNER = r'''
import concurrent.futures, json, logging, sys, types
tables = types.ModuleType("unstructured_inference.models.tables")
tables.cells_to_html = None
sys.modules["unstructured_inference.models.tables"] = tables
detection = types.ModuleType("unstructured.metrics.object_detection")
detection.ObjectDetectionEvalProcessor = object
sys.modules["unstructured.metrics.object_detection"] = detection
from unstructured.metrics.evaluate import TableStructureMetricsCalculator
from unstructured.metrics.table.table_extraction import html_table_to_deckerd
logging.getLogger("unstructured.eval").setLevel(logging.ERROR)
job = json.load(open(sys.argv[1]))
for page, sources in job["gt_html"].items():
    elements = [{"type": "Table", "text": [{"id": f"{k}-{i}", **cell} for i, cell in enumerate(html_table_to_deckerd(s))]}
                for k, s in enumerate(sources)]
    json.dump(elements, open(f"{job['gt_dir']}/{page}.pdf.json", "w"))
for pred, gt, out in job["runs"]:
    TableStructureMetricsCalculator(documents_dir=pred, ground_truths_dir=gt).calculate(
        executor=concurrent.futures.ThreadPoolExecutor(max_workers=1), export_dir=out, visualize_progress=False,
        display_agg_df=False)
'''


def _read_tsvs(out: Path) -> dict:
    def value(text: str):
        return None if text == "" else float(text)

    documents = {}
    with open(out / "all-docs-table-structure-accuracy.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            documents[row["filename"].removesuffix(".pdf")] = {
                key: value(text) for key, text in row.items()
                if key not in ("", "filename", "doctype", "connector", "_table_weights")}
    aggregate = {}
    with open(out / "aggregate-table-structure-accuracy.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            aggregate[row["metric"]] = {key: value(row[key]) for key in ("average", "sample_sd", "population_sd",
                                                                         "count")}
    return {"documents": documents, "aggregate": aggregate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle-python", required=True)
    parser.add_argument("--pages", type=Path, default=PAGES)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_hand_cases(work / "hand")
        runs = [(str(work / "hand" / "pred"), str(work / "hand" / "gt"), str(work / "out" / "hand"))]
        (work / "corpus" / "gt").mkdir(parents=True)
        engines = sorted(p.name for p in (args.pages / "pred").iterdir() if p.is_dir())
        for engine in engines:
            folder = work / "corpus" / "pred" / engine
            folder.mkdir(parents=True)
            for page in sorted((args.pages / "pred" / engine).glob("*.md")):
                (folder / f"{page.stem}.pdf.json").write_text(json.dumps(prediction_elements(page_tables(page))))
            runs.append((str(folder), str(work / "corpus" / "gt"), str(work / "out" / engine)))
        job = {"gt_dir": str(work / "corpus" / "gt"), "runs": runs,
               "gt_html": {page.stem: page_tables(page) for page in sorted((args.pages / "gt").glob("*.md"))}}
        (work / "out").mkdir()
        (work / "job.json").write_text(json.dumps(job))
        (work / "runner.py").write_text(RUNNER)
        subprocess.run([args.oracle_python, str(work / "runner.py"), str(work / "job.json")], check=True)
        version = subprocess.run([args.oracle_python, "-c", "import unstructured.__version__ as v; print(v.__version__)"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        fixture = {"source": f"unstructured {version}, unstructured.metrics.evaluate.TableStructureMetricsCalculator "
                             "(defaults), run by tests/make_unstructured_fixture.py",
                   "hand": _read_tsvs(work / "out" / "hand"),
                   "opendataloader-bench": {engine: _read_tsvs(work / "out" / engine) for engine in engines}}
    OUT.write_text(json.dumps(fixture, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
