"""How the scoring package is put together: each metric lays out its own
summary and CSV, the structure metric's variants are objects, metrics raise
typed errors the runner reports by their code, and a document's record comes
back apart from its problems and detail."""

from __future__ import annotations

import csv
import io
import json

import pytest

from convertables.diagnostics import Severity
from convertables.model import Cell, Document, Region, Table
from convertables.scoring import ScoreSettings, metrics, register, score_paths
from convertables.scoring import metric as metric_module
from convertables.scoring.metric import Metric, MetricError, Scored, TableTooLarge
from convertables.scoring.pairing import DocumentPair
from convertables.scoring.presentation import Rows, Summary, count_csv_rows, count_summary, notes
from convertables.scoring.report import per_document_csv, plain_text, summary
from convertables.scoring.runner import ScoredDocument, score_document_pair, score_pair
from convertables.scoring.structure import (
    VARIANTS, Icdar2013Variant, PubmedVariant, StructureMetric, pubmed_scores,
)
from tests.unit.test_import_cycles import import_graph

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
METRIC_MODULES = {f"convertables.scoring.{m}" for m in metric_module.METRIC_MODULES} | {
    "convertables.scoring.table_similarity"}


# -- each metric owns its presentation ------------------------------------------------------

@pytest.mark.parametrize("name", ["structure", "region", "marmot", "ctdar-a", "ctdar-b", "teds", "grits"])
def test_each_metric_lays_out_its_summary_and_csv_in_its_own_module(name):
    metric = metrics()[name]
    for method in ("summary", "csv_rows"):
        owner = next(c for c in type(metric).__mro__ if method in vars(c))
        assert owner is not Metric and owner.__module__ in METRIC_MODULES, (name, method, owner)


def test_the_report_module_shows_what_the_metric_lays_out_and_imports_no_metric_module():
    graph = import_graph()
    report_imports = graph["convertables.scoring.report"]
    assert not report_imports & METRIC_MODULES, report_imports
    for module in METRIC_MODULES:
        assert "convertables.scoring.report" not in graph[module], module


def test_a_metric_registered_at_run_time_lays_out_its_own_report(tmp_path):
    class Counting(Metric):
        name, variants = "counting-cells", ("cells",)

        def describe(self, settings):
            return {"variant": "cells", "normalisation": "none", "aggregation": "sum"}

        def score(self, gt, result, settings, unreadable=False, gt_file=None):
            found = sum(len(region.cells) for table in (result or Document()).tables for region in table.regions)
            return {"cells": found, "f1": 1.0}

        def aggregate(self, records, settings):
            return {"total": {"cells": sum(r["cells"] for r in records)}}

        def summary(self, report):
            return Summary("cells", [("document", "left"), ("cells", "right")],
                           Rows(report["documents"], lambda r: [r["document"], str(r["cells"])]),
                           [["total", str(report["total"]["cells"])]], notes(report))

        def csv_rows(self, report):
            yield ["document", "cells"]
            for record in report["documents"]:
                yield [record["document"], record["cells"]]

    register(Counting())
    try:
        two = Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, "b")])])
        report = score_document_pair(Document(tables=[two]), Document(tables=[two]),
                                     ScoreSettings("counting-cells"), name="doc")
        text = plain_text(summary(report))
        assert text.splitlines()[:5] == ["cells", "", "document  cells", "--------  -----", "doc           2"]
        assert list(csv.reader(io.StringIO(per_document_csv(report)))) == [["document", "cells"], ["doc", "2"]]
    finally:
        metric_module._REGISTERED.clear()
        metric_module._forget()


def test_count_based_metrics_share_their_rows():
    report = {"metric": "structure", "variant": "icdar2013", "normalisation": "n", "aggregation": "a",
              "documents": [{"document": "d", "gt_file": "g", "result_file": None, "counted": True, "gt": 4,
                             "correct": 3, "detected": 5, "precision": 0.6, "recall": 0.75, "f1": 2 / 3,
                             "warnings": ["w1", "w2"]},
                            {"document": "e", "gt_file": "g2", "result_file": "r2", "counted": False,
                             "error": "bad"}],
              "total": {"gt": 4, "correct": 3, "detected": 5, "precision": 0.6, "recall": 0.75, "f1": 2 / 3},
              "unpaired": {"gt": [], "result": []}}
    shown = count_summary(report)
    assert shown.title == "structure (icdar2013)"
    assert list(shown.rows) == [["d", "4", "3", "5", "0.6000", "0.7500", "0.6667"], ["e", "error", "", "", "", "", ""]]
    assert shown.totals == [["total (micro)", "4", "3", "5", "0.6000", "0.7500", "0.6667"]]
    rows = list(count_csv_rows(report))
    assert rows[1][-2:] == ["", "w1\nw2"] and rows[2][-2:] == ["bad", ""]


# -- the structure metric's variants ---------------------------------------------------------------

def test_the_variants_are_objects_holding_what_differs():
    assert StructureMetric.variants == ("icdar2013", "pubmed")
    assert isinstance(StructureMetric.variant_of(ScoreSettings()), Icdar2013Variant)
    assert isinstance(StructureMetric.variant_of(ScoreSettings(variant="pubmed")), PubmedVariant)
    icdar, pubmed = VARIANTS["icdar2013"], VARIANTS["pubmed"]
    assert (icdar.increments, icdar.blanks_counted, icdar.alternatives) == (True, True, True)
    assert (pubmed.increments, pubmed.blanks_counted, pubmed.alternatives) == (False, False, False)
    # totals: nothing on either side is 1 by ICDAR 2013's rates, 0 by the benchmark's
    assert icdar.rates(0, 0, 0)["f1"] == 1.0 and pubmed.rates(0, 0, 0) == pubmed_scores(0, 0, 0)
    assert pubmed.rates(0, 0, 0)["f1"] == 0.0
    assert pubmed.result_variants(ScoreSettings(variant="pubmed"))
    assert not pubmed.result_variants(ScoreSettings(variant="pubmed", single_variant=True))
    assert not icdar.result_variants(ScoreSettings())


def test_each_variant_makes_relations_by_its_own_rules():
    # a blank cell between A and B, and a second region shifted one row down by its increment
    table = Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a b"), Cell(0, 1, 0, 1, " "), Cell(0, 2, 0, 2, "B")]),
                      Region(1, 1, row_increment=1, cells=[Cell(0, 0, 0, 0, "C")])])
    icdar = VARIANTS["icdar2013"].relations(table, ScoreSettings())
    pubmed = VARIANTS["pubmed"].relations(table, ScoreSettings(variant="pubmed"))
    # ICDAR 2013: upper-cased, the blank not placed (one empty slot between), C one row below "a b"
    assert sorted(icdar.relations) == [("AB", "B", "H", 1), ("AB", "C", "V", 0)]
    # the benchmark: case kept, the increment ignored (C lands on "a b"'s slot and, later, replaces it),
    # the blank an empty slot between, not counted
    assert sorted(pubmed.relations) == [("C", "B", "H")]
    # an empty cell placed later replaces a cell in the benchmark's variant, and is not placed in ICDAR 2013's
    emptied = Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "A"), Cell(0, 1, 0, 1, "B")]),
                        Region(1, 1, cells=[Cell(0, 0, 0, 0, "")])])
    assert VARIANTS["icdar2013"].relations(emptied, ScoreSettings()).relations == (("A", "B", "H", 0),)
    assert VARIANTS["pubmed"].relations(emptied, ScoreSettings(variant="pubmed")).relations == ()


def test_a_variant_of_ones_own_plugs_into_the_metric(monkeypatch):
    class Lenient(Icdar2013Variant):
        name = "lenient"

        def rates(self, gt, correct, detected):
            return {"precision": 1.0, "recall": 1.0, "f1": 1.0}

    monkeypatch.setitem(VARIANTS, "lenient", Lenient())
    gt = Document(tables=[Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, "b")])])])
    scored = StructureMetric().score(gt, Document(), ScoreSettings(variant="lenient"))
    assert (scored["gt"], scored["correct"], scored["f1"]) == (1, 0, 1.0)


# -- typed errors, records apart from their problems -------------------------------------------------

def test_metric_errors_carry_their_code_and_the_runner_reports_it():
    assert issubclass(TableTooLarge, MetricError) and TableTooLarge.code == "table-too-large"
    assert "convertables.scoring.structure" not in import_graph()["convertables.scoring.runner"]

    class Refusing(Metric):
        name, variants = "refusing", ("one",)

        def describe(self, settings):
            return {"variant": "one", "normalisation": "none", "aggregation": "none"}

        def score(self, gt, result, settings, unreadable=False, gt_file=None):
            raise TableTooLarge("the table's grid has 9 x 9 distinct bands")

        def aggregate(self, records, settings):
            return {"total": {"documents": len(records)}}

    register(Refusing())
    try:
        report = score_document_pair(Document(), Document(), ScoreSettings("refusing"), name="doc")
    finally:
        metric_module._REGISTERED.clear()
        metric_module._forget()
    assert [(d.code, d.severity, d.message) for d in report.diagnostics] == [
        ("table-too-large", Severity.ERROR, "the table's grid has 9 x 9 distinct bands")]
    assert report.documents[0]["error"].endswith("error table-too-large the table's grid has 9 x 9 distinct bands")


def test_a_document_comes_back_as_its_record_its_problems_and_its_detail(tmp_path):
    sample = ROOT / "samples" / "icdar" / "sample-str.xml"
    broken = tmp_path / "broken.xml"
    broken.write_text("<document><table>")
    scored = score_pair(DocumentPair("d", [sample], sample), ScoreSettings(), explain=True)
    assert isinstance(scored, ScoredDocument)
    assert scored.record["f1"] == 1.0 and scored.record["counted"] is True
    assert all(d.severity is not Severity.ERROR for d in scored.diagnostics)
    assert json.loads(scored.detail)["kind"] == "relations"
    assert not {"diagnostics", "detail", "findings"} & set(scored.record)
    failed = score_pair(DocumentPair("d", [sample], broken), ScoreSettings())
    assert failed.detail is None and not {"diagnostics", "detail", "findings"} & set(failed.record)
    assert failed.diagnostics[0].severity is Severity.ERROR and failed.record["error"] == failed.diagnostics[0].format()


def test_a_metrics_findings_stand_beside_its_record():
    scored = Scored({"f1": 1.0}, [])
    assert dict(scored) == {"f1": 1.0} and scored.findings == []
    report = score_paths(ROOT / "samples" / "marmot", ROOT / "samples" / "marmot", ScoreSettings(metric="marmot"))
    assert all("findings" not in record for record in report.documents)
