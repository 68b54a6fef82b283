"""Azure AI Document Intelligence (convertables/formats/azure.py): the real samples'
cells, the command line without --from, sniffing, and refused input. The
hand-written cases are in tests/cases/azure/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import ReadOptions, jsonsafe, read, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.model import Document, Frame
from tests.conftest import CASES, corpus_path

runner = CliRunner()
AZURE = registry.FORMATS["azure"]
SAMPLES = ("v2.1-layout.json", "2022-08-31-layout.json", "2024-11-30-layout.json")


def _sample(name: str) -> Path:
    return corpus_path("exports", "azure", name)


def _read_sample(name: str) -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics()
    return read(_sample(name), diagnostics=diagnostics), diagnostics


def _read(value, name: str = "t.json") -> tuple[Document, Diagnostics]:
    data = value if isinstance(value, bytes) else json.dumps(value).encode()
    diagnostics = Diagnostics(name)
    return read_document(data, AZURE, name, ReadOptions(), diagnostics), diagnostics


def _refused(value) -> str:
    with pytest.raises(InputError) as caught:
        _read(value)
    assert caught.value.diagnostic.file == "t.json"
    return caught.value.diagnostic.code


def _grid(table) -> list:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in table.cells())


# -- the real samples ------------------------------------------------------------------------

# The one table of both 2022-02 and 2022-08 invoices: every cell of row 1 spans rows 1-2, so row 2
# has no cell of its own and is still a row.
INVOICE = [
    (0, 0, 0, 0, "Invoice Number", True), (0, 1, 0, 1, "Invoice Date", True),
    (0, 2, 0, 2, "Invoice Due Date", True), (0, 3, 0, 3, "Charges", True), (0, 4, 0, 4, "VAT ID", True),
    (1, 0, 2, 0, "34278587", False), (1, 1, 2, 1, "6/18/2017", False), (1, 2, 2, 2, "6/24/2017", False),
    (1, 3, 2, 3, "$56,651.49", False), (1, 4, 2, 4, "PT", False),
]


@pytest.mark.parametrize("name", ["v2.1-layout.json", "2022-08-31-layout.json"])
def test_the_invoice_samples_give_their_one_table_cell_for_cell(name):
    doc, diagnostics = _read_sample(name)
    assert diagnostics.codes() == []
    assert len(doc.tables) == 1 and len(doc.tables[0].regions) == 1
    region = doc.tables[0].regions[0]
    assert region.page == 1 and (region.row_increment, region.col_increment) == (0, 0)
    assert _grid(doc.tables[0]) == INVOICE
    # pages in inches: PDF points
    assert [(p.number, p.width, p.height, p.frame) for p in doc.pages] == [(1, 612.0, 792.0, Frame.PDF)]
    assert all(c.bbox is not None and c.bbox.frame is Frame.PDF and c.id is None for c in region.cells)


def test_v2_1_metadata_and_boxes():
    doc, _ = _read_sample("v2.1-layout.json")
    assert doc.metadata == {"azure_api_version": "2.1.0", "generator": "Azure AI Document Intelligence (API 2.1.0)"}
    first = doc.tables[0].regions[0].cells[0]
    # boundingBox [0.4992, 2.7829, 1.8978, 2.79, 1.8978, 3.3181, 0.5064, 3.3181] in inches, page 11 in high
    assert first.bbox[:4] == pytest.approx((0.4992 * 72, (11 - 3.3181) * 72, 1.8978 * 72, (11 - 2.7829) * 72))
    assert first.bbox.polygon[0] == pytest.approx((0.4992 * 72, (11 - 2.7829) * 72))
    table_box = doc.tables[0].regions[0].bbox  # [0.4985, 2.7802, 7.4933, 2.7816, 7.4913, 3.8459, 0.4966, 3.8447]
    assert table_box[:4] == pytest.approx((0.4966 * 72, (11 - 3.8459) * 72, 7.4933 * 72, (11 - 2.7802) * 72))


def test_2022_08_31_metadata_and_boxes():
    doc, _ = _read_sample("2022-08-31-layout.json")
    assert doc.metadata == {
        "azure_api_version": "2022-08-31", "azure_model_id": "prebuilt-layout",
        "generator": "Azure AI Document Intelligence prebuilt-layout (API 2022-08-31)",
        "azure_cell_kinds": '{"0":{"columnHeader":[[0,0],[0,1],[0,2],[0,3],[0,4]]}}'}
    cells = {(c.start_row, c.start_col): c for c in doc.tables[0].cells()}
    # "Invoice Number": polygon [0.5054, 2.7896, 1.8976, 2.7896, 1.8976, 3.3181, 0.4981, 3.3181]
    box = cells[0, 0].bbox
    assert box[:4] == pytest.approx((35.8632, 553.0968, 136.6272, 591.1488))
    assert box.polygon[0] == pytest.approx((36.3888, 591.1488)) and len(box.polygon) == 4
    # "PT" spans rows 1-2: polygon [6.1033, 3.3181, 7.4881, 3.3181, 7.4954, 3.8533, 6.1033, 3.8533]
    assert cells[1, 4].bbox[:4] == pytest.approx((6.1033 * 72, (11 - 3.8533) * 72, 7.4954 * 72, (11 - 3.3181) * 72))


FORM_QUESTIONS = [  # 2024-11-30, table 0: 4 x 2, no headers, selection marks in the text
    (0, 0, 0, 0, "Are you still in need of assistance?", False),
    (0, 1, 0, 1, ":selected:\n:unselected:\nYes\nNo", False),
    (1, 0, 1, 0, "Has your family unit received or disposed of any assets?", False),
    (1, 1, 1, 1, ":unselected:\n:selected:\nYes\nNo", False),
    (2, 0, 2, 0, "Any changes to your shelter costs?", False),
    (2, 1, 2, 1, ":unselected:\n:selected:\nYes\nNo", False),
    (3, 0, 3, 0, "Any changes in Dependants or Persons living in the home?", False),
    (3, 1, 3, 1, ":unselected:\n:selected:\nYes\nNo", False),
]

FORM_CHANGES = [  # 2024-11-30, table 1: 6 x 8, a header row of an empty corner and one 7-column span
    (0, 0, 0, 0, "", True), (0, 1, 0, 7, "Applicant Spouse", True),
    (1, 0, 1, 0, "Any employment changes?", False), (1, 1, 1, 2, ":unselected: Yes", False),
    (1, 3, 1, 3, ":unselected: No", False), (1, 4, 1, 4, "", False), (1, 5, 1, 5, ":unselected: Yes", False),
    (1, 6, 1, 7, ":selected: No", False),
    (2, 0, 2, 0, "Are you attending / enrolled in school or training?", False),
    (2, 1, 2, 2, ":unselected: Yes", False), (2, 3, 2, 3, ":unselected: No", False),
    (2, 4, 2, 5, ":unselected: Yes", False), (2, 6, 2, 7, ":selected: No", False),
    (3, 0, 3, 0, "Are you looking for work?", False), (3, 1, 3, 2, ":unselected: Yes", False),
    (3, 3, 3, 3, ":unselected: No", False), (3, 4, 3, 4, "", False), (3, 5, 3, 5, ":unselected: Yes", False),
    (3, 6, 3, 7, ":selected: No", False),
    (4, 0, 4, 0, "Have you moved or entered a facility?", False), (4, 1, 4, 1, ":unselected:", False),
    (4, 2, 4, 2, "Yes", False), (4, 3, 4, 3, ":unselected: No", False), (4, 4, 4, 4, "", False),
    (4, 5, 4, 5, ":unselected: Yes", False), (4, 6, 4, 7, ":selected: No", False),
    (5, 0, 5, 0, "Any outstanding warrants for your arrest?", False), (5, 1, 5, 1, ":unselected:", False),
    (5, 2, 5, 2, "Yes", False), (5, 3, 5, 3, ":unselected: No", False), (5, 4, 5, 4, "", False),
    (5, 5, 5, 5, ":unselected: Yes", False), (5, 6, 5, 6, ":selected:", False), (5, 7, 5, 7, "No", False),
]

INCOME_LABELS = [
    "Net Employment Income", "Employment Insurance", "Spousal Support / Alimony", "Child Support",
    "WorkBC Financial Support", "Student Funding (eg: Loans, Bursaries)", "Rental Income", "Room / Board Income",
    "Worker's Compensation", "Private Pensions (eg: Retirement, Disability)", "OAS / GIS", "Trust Income",
    "Canada Pension Plan (CPP)", "Tax Credits (eg: GST Credit)", "Child Tax Benefits", "Income Tax Refund",
    "All other income / money received", "Income of Dependent Children",
]
APPLICANT = {3: "$ 700.00", 17: "$ 60,00", 18: "$ o"}  # (OCR as it is), else "$ 0"
INCOME = [  # 2024-11-30, table 2: 20 x 3, two header rows (a title spanning all three columns)
    (0, 0, 0, 2, '2. Declare all income and submit proof. Enter "0" if none.', True),
    (1, 0, 1, 0, "", True), (1, 1, 1, 1, "Applicant", True), (1, 2, 1, 2, "Spouse", True),
    *[cell for row, label in enumerate(INCOME_LABELS, start=2) for cell in (
        (row, 0, row, 0, label, False), (row, 1, row, 1, APPLICANT.get(row, "$ 0"), False),
        (row, 2, row, 2, "" if row == 19 else "$", False))],
]


def test_the_2024_11_30_sample_gives_its_three_tables_cell_for_cell():
    doc, diagnostics = _read_sample("2024-11-30-layout.json")
    assert diagnostics.codes() == []
    assert [_grid(t) for t in doc.tables] == [sorted(FORM_QUESTIONS), sorted(FORM_CHANGES), sorted(INCOME)]
    cells = [c for t in doc.tables for c in t.cells()]
    assert len(cells) == 100 and sum(c.row_span > 1 or c.col_span > 1 for c in cells) == 10
    assert [t.page for t in doc.tables] == [1, 1, 1] and all(len(t.regions) == 1 for t in doc.tables)
    # pixels stay pixels
    assert [(p.number, p.width, p.height, p.frame) for p in doc.pages] == [(1, 2200.0, 1700.0, Frame.IMAGE)]
    region = doc.tables[0].regions[0]  # polygon [62, 398, 866, 394, 868, 647, 63, 650]
    assert region.bbox[:5] == (62.0, 394.0, 868.0, 650.0, Frame.IMAGE)
    assert region.bbox.polygon == ((62, 398), (866, 394), (868, 647), (63, 650))
    spouse = next(c for c in doc.tables[1].cells() if c.content == "Applicant Spouse")
    assert spouse.bbox[:4] == (639.0, 678.0, 1105.0, 732.0)
    assert json.loads(doc.metadata["azure_cell_kinds"]) == {
        "1": {"columnHeader": [[0, 0], [0, 1]]}, "2": {"columnHeader": [[0, 0], [1, 0], [1, 1], [1, 2]]}}


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_converts_to_icdar_and_json_without_from(name, tmp_path):
    sample = _sample(name)
    xml, out = tmp_path / "out-str.xml", tmp_path / "out.json"
    result = runner.invoke(app, ["convert", str(sample), "--to", "icdar", "-o", str(xml)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["convert", str(sample), "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected, _ = _read_sample(name)
    back = read(out)
    assert [_grid(t) for t in back.tables] == [_grid(t) for t in expected.tables]
    assert back.metadata == expected.metadata and back.pages == expected.pages
    icdar = read(xml)
    # ICDAR 2013 keeps the grid and the text; a blank cell reads back as unknown, and is left out unless
    # --keep-blank; header flags are not ICDAR 2013's
    assert [sorted(g[:5] for g in _grid(t) if g[4]) for t in icdar.tables] == [
        sorted(g[:5] for g in _grid(t) if g[4]) for t in expected.tables]
    assert [t.page for t in icdar.tables] == [t.page for t in expected.tables]


def test_formats_lists_azure_and_score_takes_a_folder_of_responses(tmp_path):
    rows = {r["name"]: r for r in json.loads(runner.invoke(app, ["formats", "--format", "json"]).output)}
    assert rows["azure"]["read"] and not rows["azure"]["write"] and rows["azure"]["suffixes"] == [".json"]
    gt, results = tmp_path / "gt", tmp_path / "azure"
    gt.mkdir(), results.mkdir()
    for name in SAMPLES:
        stem = name.removesuffix(".json")
        shutil.copy(_sample(name), results / name)
        assert runner.invoke(app, ["convert", str(_sample(name)), "--to", "icdar",
                                   "-o", str(gt / f"{stem}-str.xml")]).exit_code == 0
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(results), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [d["document"] for d in report["documents"]] == ["2022-08-31-layout", "2024-11-30-layout", "v2.1-layout"]
    assert [len(d["tables"]) for d in report["documents"]] == [1, 3, 1]
    assert report["total"] == {"gt": 178, "correct": 178, "detected": 178, "precision": 1.0, "recall": 1.0,
                               "f1": 1.0, "documents": 3}
    assert report["unpaired"] == {"gt": [], "result": []} and report["errors"] == []


# -- sniffing --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SAMPLES)
def test_the_samples_are_recognised_by_content(name):
    path = _sample(name)
    assert registry.detect(Path("x.json"), path.read_bytes()[:65536]) is AZURE


@pytest.mark.parametrize("head, claimed", [
    (b'{"status": "succeeded", "analyzeResult": {"apiVersion": "2023-07-31"', True),
    (b'\xef\xbb\xbf {\n  "analyzeResult" : {"version": "2.1.0"', True),
    (b'{"apiVersion": "2024-11-30", "modelId": "prebuilt-layout", "stringIndexType": "textElements"', True),
    (b'{"apiVersion": "2023-07-31", "content": "x", "keyValuePairs": [], "modelId": "prebuilt-document"', True),
    (b'{"version": "2.1.0", "readResults": [{"page": 1}], "pageResults": []', True),
    (b'{"status": "running", "createdDateTime": "2024-01-01T00:00:00Z", "lastUpdatedDateTime": "2024-01-01"}', True),
    (b'{"status": "failed", "error": {"code": "InternalServerError"}}', False),  # not Azure's operation shape
    (b'{"apiVersion": "v1", "kind": "Pod", "metadata": {}}', False),  # not a dated API version
    (b'{"apiVersion": "2021-04-01", "resources": []}', False),  # an ARM template
    (b'{"version": "2.1.0", "tables": []}', False),
    (b'{"format": "convertables", "version": 1, "metadata": {"analyzeResult": {}}}', False),
    (b'{"format": "convertables", "tables": [{"content": "\\"analyzeResult\\": {"}]}', False),
    (b'{"DocumentMetadata": {"Pages": 1}, "Blocks": [{"BlockType": "PAGE"}]}', False),
    (b'[{"analyzeResult": {}}]', False),
    (b"<document><table/></document>", False),
])
def test_sniff_claims_azure_responses_only(head, claimed):
    assert AZURE.sniff(head) is claimed


def test_a_response_with_markdown_content_is_recognised():
    """(html's sniffer once took the <table> of a JSON response's markdown content for an HTML root)"""
    data = (CASES / "azure" / "v3-pixels-selection-marks" / "input.json").read_bytes()
    assert AZURE.sniff(data[:65536])
    assert registry.detect(Path("x.json"), data[:65536]) is AZURE


def test_no_other_export_in_the_corpus_is_claimed():
    exports = corpus_path("exports")
    others = [p for p in exports.glob("*/*") if p.parent.name != "azure" and p.suffix in (".json", ".xml")]
    assert others
    assert not [p.name for p in others if AZURE.sniff(p.read_bytes()[:65536])]


# -- refused and tolerated input ---------------------------------------------------------------

def _response(*tables, pages=({"pageNumber": 1, "width": 8.5, "height": 11, "unit": "inch"},)) -> dict:
    return {"status": "succeeded", "analyzeResult": {"apiVersion": "2023-07-31", "modelId": "prebuilt-layout",
                                                     "pages": list(pages), "tables": list(tables)}}


def test_refused_shapes_give_one_clear_code():
    assert _refused(b"") == "json-empty"
    assert _refused(b'{"analyzeResult": {') == "json-syntax"
    assert _refused(b'{"analyzeResult": {"tables": [NaN]}}') == "json-syntax"
    assert _refused([1, 2]) == "azure-shape"
    assert _refused({"analyzeResult": [1]}) == "azure-shape"
    assert _refused({"status": "succeeded"}) == "azure-shape"
    assert _refused({"hello": "world"}) == "azure-shape"
    assert _refused({"analyzeResult": {"apiVersion": "2023-07-31", "tables": {"cells": []}}}) == "azure-shape"
    assert _refused({"analyzeResult": {"version": "2.1.0", "pageResults": "x"}}) == "azure-shape"
    with pytest.raises(InputError) as caught:
        _read({"status": "failed", "error": {"code": "InvalidRequest", "message": "Invalid request."}})
    assert caught.value.diagnostic.code == "azure-status" and "'failed'" in str(caught.value)
    assert "Invalid request." in str(caught.value)
    assert _refused({"status": "running", "createdDateTime": "2024-01-01T00:00:00Z"}) == "azure-status"


def test_deep_nesting_is_refused_without_a_traceback():
    deep = b'{"analyzeResult": {"tables": [' + b"[" * 200_000 + b"]" * 200_000 + b"]}}"
    assert AZURE.sniff(deep[:65536])
    assert _refused(deep) == "too-deep"


def test_a_response_over_the_size_limit_is_refused_before_parsing(monkeypatch):
    data = json.dumps(_response({"cells": [{"rowIndex": 0, "columnIndex": k, "content": "x" * 50}
                                           for k in range(100)]})).encode()
    monkeypatch.setattr(jsonsafe, "MAX_JSON_BYTES", len(data) - 1)
    with pytest.raises(InputError) as caught:
        _read(data)
    assert caught.value.diagnostic.code == "too-large" and f"{len(data):,} bytes" in str(caught.value)
    monkeypatch.setattr(jsonsafe, "MAX_JSON_BYTES", len(data))
    doc, _ = _read(data)
    assert len(doc.tables[0].cells()) == 100


def test_numbers_as_strings_and_missing_keys_are_not_taken():
    table = {"rowCount": "2", "columnCount": 2, "boundingRegions": [{"pageNumber": "1", "polygon": [0, 0, 1, 1]}],
             "cells": [
                 {"rowIndex": "0", "columnIndex": "0", "content": "strings"},
                 {"columnIndex": 1, "content": "no rowIndex"},
                 {"rowIndex": 0, "columnIndex": 1, "rowSpan": "2", "columnSpan": 1.5, "content": "1x1",
                  "kind": "columnHeader"},
                 {"rowIndex": 1, "columnIndex": 0, "content": {"text": "nested"},
                  "boundingRegions": [{"pageNumber": 1, "polygon": ["0", "0", "1", "0", "1", "1", "0", "1"]}]},
                 {"rowIndex": 1, "columnIndex": 1, "content": None, "boundingRegions": {"pageNumber": 1}},
                 {"rowIndex": "9" * 100_000, "columnIndex": 0, "content": "a megabyte of index, quoted short"},
             ]}
    doc, diagnostics = _read(_response(table))
    assert _grid(doc.tables[0]) == [(0, 1, 0, 1, "1x1", True), (1, 0, 1, 0, None, False), (1, 1, 1, 1, None, False)]
    assert all(c.bbox is None for c in doc.tables[0].cells())
    assert doc.tables[0].regions[0].bbox is None and doc.tables[0].page == 1
    found = {d.code: d for d in diagnostics}
    assert set(found) == {"azure-cell-dropped", "azure-value"}
    assert all(d.file == "t.json" for d in found.values())
    # a cell left out is content lost: an error (exit 1), as for every format; a value mended, a warning
    assert (found["azure-cell-dropped"].severity.value, found["azure-value"].severity.value) == ("error", "warning")
    assert found["azure-cell-dropped"].message == (
        "table 0: cell 0: rowIndex '0' is not an index; left out (and 2 more with this code)")
    assert all(len(d.message) < 300 for d in diagnostics)


def test_a_huge_span_is_cut_at_the_table_and_bounded_without_one():
    doc, diagnostics = _read(_response(
        {"rowCount": 2, "columnCount": 2, "cells": [{"rowIndex": 0, "columnIndex": 0, "rowSpan": 10**12,
                                                     "columnSpan": 10**6, "content": "big"}]},
        {"cells": [{"rowIndex": 0, "columnIndex": 0, "rowSpan": 10**12, "columnSpan": 10**6, "content": "big"}]}))
    assert _grid(doc.tables[0]) == [(0, 0, 0, 1, "big", False)]  # rowSpan 10**12: no index, read as 1
    assert _grid(doc.tables[1]) == [(0, 0, 0, 10**6 - 1, "big", False)]
    assert "azure-value" in diagnostics.codes()


def test_pages_without_a_unit_or_height_give_no_boxes_and_a_warning():
    cell = {"rowIndex": 0, "columnIndex": 0, "content": "a",
            "boundingRegions": [{"pageNumber": 2, "polygon": [1, 1, 2, 1, 2, 2, 1, 2]}]}
    doc, diagnostics = _read(_response({"cells": [cell]}, pages=[{"pageNumber": 2, "unit": "inch", "width": 8.5}]))
    assert doc.tables[0].cells()[0].bbox is None and doc.tables[0].page == 2
    assert diagnostics.codes() == ["azure-page"] and "no usable height" in diagnostics.items[0].message
    doc, diagnostics = _read(_response({"cells": [cell]}, pages=[]))
    assert doc.tables[0].cells()[0].bbox is None and diagnostics.codes() == ["azure-page"]
    doc, diagnostics = _read(_response({"cells": [cell]}, pages=[{"pageNumber": 2, "unit": "pixel"}]))
    assert doc.tables[0].cells()[0].bbox[:5] == (1.0, 1.0, 2.0, 2.0, Frame.IMAGE) and diagnostics.codes() == []


def test_a_table_across_pages_is_one_table_with_a_region_a_page():
    doc, diagnostics = _read(json.loads((CASES / "azure" / "v3-cross-page-table" / "input.json").read_bytes()))
    assert diagnostics.codes() == []
    (table,) = doc.tables
    assert [(r.page, r.row_increment, r.col_increment, len(r.cells)) for r in table.regions] == [
        (1, 0, 0, 4), (2, 2, 0, 4)]
    # in the table's grid, rows are Azure's
    assert sorted((c.start_row + r.row_increment, c.start_col, c.content) for r in table.regions for c in r.cells) == [
        (0, 0, "Item"), (0, 1, "Cost"), (1, 0, "Paper"), (1, 1, "4.00"),
        (2, 0, "Ink"), (2, 1, "12.50"), (3, 0, "Toner"), (3, 1, "80.00")]
    # the cell without a bounding region is on the table's first page, without a box
    paper_price = next(c for c in table.regions[0].cells if c.content == "4.00")
    assert paper_price.bbox is None
    ink = table.regions[1].cells[0]  # polygon [1, 1, 3, 1, 3, 1.5, 1, 1.5] on page 2
    assert ink.bbox[:5] == (72.0, 684.0, 216.0, 720.0, Frame.PDF)
    assert table.regions[1].bbox[:4] == (72.0, 648.0, 360.0, 720.0)


def test_cells_without_a_page_go_to_the_first_page_of_a_table_without_bounding_regions():
    cells = [{"rowIndex": 0, "columnIndex": 0, "content": "loose"},
             {"rowIndex": 1, "columnIndex": 0, "content": "on 3",
              "boundingRegions": [{"pageNumber": 3, "polygon": [1, 1, 2, 1, 2, 2, 1, 2]}]},
             {"rowIndex": 2, "columnIndex": 0, "content": "on 2",
              "boundingRegions": [{"pageNumber": 2, "polygon": [1, 1, 2, 1, 2, 2, 1, 2]}]}]
    pages = [{"pageNumber": n, "width": 100, "height": 100, "unit": "pixel"} for n in (1, 2, 3)]
    doc, diagnostics = _read(_response({"cells": cells}, pages=pages))
    assert diagnostics.codes() == []
    assert [(r.page, r.row_increment, [(c.start_row, c.content) for c in r.cells]) for r in doc.tables[0].regions] == [
        (2, 0, [(2, "on 2"), (0, "loose")]), (3, 1, [(0, "on 3")])]
    # in one table without pages: page 1
    doc, _ = _read(_response({"cells": cells[:1]}, pages=pages))
    assert [(r.page, len(r.cells)) for r in doc.tables[0].regions] == [(1, 1)]


def test_clean_cases_give_no_diagnostics():
    for case in ("v3-headers-spans-kinds", "v3-cross-page-table", "v2-two-pages", "v3-pixels-selection-marks",
                 "no-tables"):
        _, diagnostics = _read((CASES / "azure" / case / "input.json").read_bytes())
        assert diagnostics.codes() == [], case


@pytest.mark.slow
def test_many_cells_read_in_bounded_time():
    import time

    cells = [{"rowIndex": r, "columnIndex": c, "content": f"{r}.{c}",
              "boundingRegions": [{"pageNumber": 1, "polygon": [c, r, c + 1, r, c + 1, r + 1, c, r + 1]}]}
             for r in range(1000) for c in range(50)]
    data = json.dumps(_response({"rowCount": 1000, "columnCount": 50, "cells": cells},
                                pages=[{"pageNumber": 1, "width": 100, "height": 2000, "unit": "pixel"}])).encode()
    start = time.perf_counter()
    doc, diagnostics = _read(data)
    assert time.perf_counter() - start < 20
    assert len(doc.tables[0].cells()) == 50_000 and diagnostics.codes() == []
