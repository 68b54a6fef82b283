"""docling's DoclingDocument JSON (convertables/formats/docling.py): docling-core's own
fixtures read cell for cell, round trips, what the writer writes, and hostile input.
The reader cases in tests/cases/docling/ hold the rest (spans, headers, boxes, pages)."""

from __future__ import annotations

import json
import re
import time
from pathlib import PurePath

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import ReadOptions, jsonsafe, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.formats import docling, icdar
from convertables.geometry import envelope
from convertables.model import BBox, Cell, Document, Frame, Page, Region, Table
from tests.conftest import CASES, ROOT, corpus_path
from tests.unit.test_properties import documents

runner = CliRunner()
DOCLING = registry.FORMATS["docling"]
PAPER = ("exports", "docling", "2206.01062-1.0.0.json")
CROSS_PAGE = ("exports", "docling", "cross_page_table.json")
SPANS_CASE = CASES / "docling" / "spans-and-headers" / "input.json"


def _read(data: bytes, name: str = "t.json") -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics(name)
    return read_document(data, DOCLING, name, ReadOptions(), diagnostics), diagnostics


def _refused(data: bytes, code: str) -> InputError:
    with pytest.raises(InputError) as caught:
        _read(data)
    assert caught.value.diagnostic.code == code, caught.value
    assert caught.value.diagnostic.file == "t.json"
    return caught.value


def _cells(table: Table) -> list[tuple]:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in table.cells())


def _box(cell_or_region) -> tuple:
    box = cell_or_region.bbox
    return (round(box.x1, 2), round(box.y1, 2), round(box.x2, 2), round(box.y2, 2), box.frame)


def _cell_at(table: Table, row: int, col: int) -> Cell:
    (cell,) = [c for c in table.cells() if (c.start_row, c.start_col) == (row, col)]
    return cell


def _body(rows: dict[int, list[str]], first_col: int) -> list[tuple]:
    """Rows of a label (a row header) and values, one cell a slot, from ``first_col``."""
    cells = []
    for r, (label, *values) in rows.items():
        cells.append((r, first_col, r, first_col, label, True))
        cells += [(r, first_col + 1 + k, r, first_col + 1 + k, v, False) for k, v in enumerate(values)]
    return cells


# Table 2 of the DocLayNet paper (tables[1]), read from the JSON by hand: 14 x 6, "human" spans two rows
# and "MRCNN" two columns; the corner cells are blank and no header.
PAPER_TABLE_1 = sorted([
    (0, 0, 0, 0, "", False), (0, 1, 1, 1, "human", True), (0, 2, 0, 3, "MRCNN", True), (0, 4, 0, 4, "FRCNN", True),
    (0, 5, 0, 5, "YOLO", True),
    (1, 0, 1, 0, "", False), (1, 2, 1, 2, "R50", True), (1, 3, 1, 3, "R101", True), (1, 4, 1, 4, "R101", True),
    (1, 5, 1, 5, "v5x6", True),
    *_body({2: ["Caption", "84-89", "68.4", "71.5", "70.1", "77.7"],
            3: ["Footnote", "83-91", "70.9", "71.8", "73.7", "77.2"],
            4: ["Formula", "83-85", "60.1", "63.4", "63.5", "66.2"],
            5: ["List-item", "87-88", "81.2", "80.8", "81.0", "86.2"],
            6: ["Page-footer", "93-94", "61.6", "59.3", "58.9", "61.1"],
            7: ["Page-header", "85-89", "71.9", "70.0", "72.0", "67.9"],
            8: ["Picture", "69-71", "71.7", "72.7", "72.0", "77.1"],
            9: ["Section-header", "83-84", "67.6", "69.3", "68.4", "74.6"],
            10: ["Table", "77-81", "82.2", "82.9", "82.2", "86.3"],
            11: ["Text", "84-86", "84.6", "85.8", "85.4", "88.1"],
            12: ["Title", "60-72", "76.7", "80.4", "79.9", "82.7"],
            13: ["All", "82-83", "72.4", "73.5", "73.4", "76.8"]}, 0),
])

# Table 5 of the paper (tables[4]): 15 x 5, "Testing on" spans three columns, the three data sets' names
# (row headers) span five, three and five rows.
PAPER_TABLE_4 = sorted([
    (0, 0, 0, 0, "", False), (0, 1, 0, 1, "", False), (0, 2, 0, 4, "Testing on", True),
    (1, 0, 1, 0, "Training on", True), (1, 1, 1, 1, "labels", True), (1, 2, 1, 2, "PLN", True),
    (1, 3, 1, 3, "DB", True), (1, 4, 1, 4, "DLN", True),
    (2, 0, 6, 0, "PubLayNet (PLN)", True), (7, 0, 9, 0, "DocBank (DB)", True), (10, 0, 14, 0, "DocLayNet (DLN)", True),
    *_body({2: ["Figure", "96", "43", "23"], 3: ["Sec-header", "87", "-", "32"], 4: ["Table", "95", "24", "49"],
            5: ["Text", "96", "-", "42"], 6: ["total", "93", "34", "30"], 7: ["Figure", "77", "71", "31"],
            8: ["Table", "19", "65", "22"], 9: ["total", "48", "68", "27"], 10: ["Figure", "67", "51", "72"],
            11: ["Sec-header", "53", "-", "68"], 12: ["Table", "87", "43", "82"], 13: ["Text", "77", "-", "84"],
            14: ["total", "59", "47", "78"]}, 1),
])


def test_the_paper_reads_cell_for_cell():
    path = corpus_path(*PAPER)
    doc, diagnostics = _read(path.read_bytes(), str(path))
    assert diagnostics.codes() == []
    assert doc.filename == "2206.01062.pdf"
    assert doc.metadata == {"docling_name": "2206.01062", "docling_mimetype": "application/pdf",
                            "docling_binary_hash": "7156212269791437020"}
    assert [(p.number, p.width, p.height, p.frame) for p in doc.pages] == [(n, 612.0, 792.0, Frame.PDF)
                                                                          for n in range(1, 10)]
    assert [t.id for t in doc.tables] == [0, 1, 2, 3, 4]
    assert [[r.page for r in t.regions] for t in doc.tables] == [[4], [6], [7], [7], [8]]
    # two whole grids, read by hand from the JSON
    assert _cells(doc.tables[1]) == PAPER_TABLE_1
    assert _cells(doc.tables[4]) == PAPER_TABLE_4
    # the spanning cells of the others
    spanning = [[c[:5] for c in _cells(t) if c[0] != c[2] or c[1] != c[3]] for t in doc.tables]
    assert spanning[0] == [(0, 2, 0, 5, "% of Total"), (0, 6, 0, 11, "triple inter-annotator mAP @ 0.5-0.95 (%)")]
    assert spanning[2] == []
    assert spanning[3] == [(0, 1, 0, 2, "11"), (0, 3, 0, 4, "5")]
    assert sum(map(len, spanning)) == 10 and sum(len(t.cells()) for t in doc.tables) == 438
    # column headers and row headers alike are headers; a plain first cell is not
    assert (_cell_at(doc.tables[3], 0, 0).content, _cell_at(doc.tables[3], 0, 0).header) == ("Class-count", False)
    assert _cell_at(doc.tables[3], 2, 0).header and _cell_at(doc.tables[3], 0, 1).header
    assert (_cell_at(doc.tables[2], 0, 0).content, _cell_at(doc.tables[2], 0, 0).header) == ("Class-count", True)
    # boxes: BOTTOMLEFT, PDF points as they are (b is y1, t is y2)
    assert _box(doc.tables[1].regions[0]) == (62.03, 440.34, 285.79, 596.32, Frame.PDF)
    assert _box(_cell_at(doc.tables[1], 0, 1)) == (132.37, 585.65, 157.99, 594.03, Frame.PDF)
    assert _box(_cell_at(doc.tables[4], 2, 0)) == (78.53, 564.37, 142.56, 572.75, Frame.PDF)
    assert _box(_cell_at(doc.tables[2], 0, 0)) == (86.37, 630.52, 129.46, 638.9, Frame.PDF)
    assert _cell_at(doc.tables[1], 0, 0).bbox is None


def test_the_table_across_pages_reads_a_region_a_page():
    path = corpus_path(*CROSS_PAGE)
    doc, diagnostics = _read(path.read_bytes(), str(path))
    assert diagnostics.codes() == []
    (table,) = doc.tables
    # TOPLEFT t=10, b=200 on pages 512 points high: y from 312 to 502
    assert [(r.page, _box(r)) for r in table.regions] == [(1, (10.0, 312.0, 400.0, 502.0, Frame.PDF)),
                                                          (2, (10.0, 312.0, 400.0, 502.0, Frame.PDF))]
    assert table.page == 2
    assert _cells(table) == [(0, 0, 0, 0, "H1", True), (0, 1, 0, 1, "H2", True),
                             (1, 0, 1, 0, "A", False), (1, 1, 1, 1, "B", False)]
    assert [len(r.cells) for r in table.regions] == [4, 0]  # docling does not say which page a cell is on
    assert [(p.number, p.width, p.height) for p in doc.pages] == [(1, 512.0, 512.0), (2, 512.0, 512.0)]


def test_topleft_and_bottomleft_boxes_both_become_pdf_points():
    doc, _ = _read((CASES / "docling" / "bottomleft-and-topleft-boxes" / "input.json").read_bytes())
    first, second = doc.tables
    # page 1 is 792 points high: TOPLEFT t=92, b=140 is y 652..700
    assert _box(first.regions[0]) == (72.0, 652.0, 300.0, 700.0, Frame.PDF)
    assert _box(_cell_at(first, 0, 0)) == (72.0, 688.0, 140.0, 700.0, Frame.PDF)
    assert _box(_cell_at(first, 1, 0)) == (72.0, 652.0, 130.0, 664.0, Frame.PDF)  # no coord_origin: TOPLEFT
    assert _cell_at(first, 1, 1).bbox is None
    assert _box(second.regions[0]) == (72.0, 652.0, 300.0, 700.0, Frame.PDF)
    assert _box(_cell_at(second, 0, 1)) == (180.0, 688.0, 212.0, 700.0, Frame.PDF)


def test_topleft_boxes_without_a_page_height_stay_from_the_top_at_72_dpi():
    doc, diagnostics = _read((CASES / "docling" / "topleft-without-page-size" / "input.json").read_bytes())
    assert "docling-no-page-size" in diagnostics.codes()
    assert _box(doc.tables[0].regions[0]) == (10.0, 20.0, 210.0, 60.0, Frame.IMAGE)
    assert doc.pages == [Page(2, frame=Frame.IMAGE, dpi=72.0)]
    back = docling.read(docling.write(doc, Diagnostics()), Diagnostics())
    assert back.tables == doc.tables and back.pages == doc.pages


def test_the_command_line_converts_the_paper_to_icdar_without_from(tmp_path):
    path = corpus_path(*PAPER)
    out = tmp_path / "paper-str.xml"
    result = runner.invoke(app, ["convert", str(path), "--to", "icdar", "-o", str(out)])
    assert result.exit_code == 0, result.output
    back = icdar.read(out.read_bytes(), Diagnostics()).document
    assert back.filename == "2206.01062.pdf"
    assert [t.page for t in back.tables] == [4, 6, 7, 7, 8]
    # ICDAR 2013 has no header flags and leaves blank cells out
    assert [(r, c, er, ec, text) for r, c, er, ec, text in
            sorted(cell[:5] for cell in _cells(back.tables[4]))] == [e[:5] for e in PAPER_TABLE_4 if e[4]]
    assert _box(_cell_at(back.tables[4], 2, 0)) == (78.53, 564.37, 142.56, 572.75, Frame.PDF)


def test_formats_lists_docling_and_check_takes_its_files(tmp_path):
    listed = runner.invoke(app, ["formats"])
    assert re.search(r"^docling\s+yes\s+yes\s+\.json", listed.output, re.M), listed.output
    checked = runner.invoke(app, ["check", str(SPANS_CASE)])
    assert checked.exit_code == 0, checked.output


def test_docling_results_are_scored_directly(tmp_path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    (gt / "sample-str.xml").write_bytes((ROOT / "samples" / "icdar" / "sample-str.xml").read_bytes())
    assert runner.invoke(app, ["convert", str(gt / "sample-str.xml"), "--to", "docling",
                               "-o", str(res / "sample-str.json")]).exit_code == 0
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["total"]["f1"] == 1.0 and report["unpaired"] == {"gt": [], "result": []}


# -- writing ---------------------------------------------------------------------------------

_POINTER = re.compile(r"#/(body|furniture)\Z|#/(tables)/(\d+)\Z")


def assert_valid_docling(data: bytes) -> dict:
    """What docling-core's DoclingDocument model requires of what the writer writes
    (checked by hand against docling-core itself; the tests do not need it)."""
    doc = json.loads(data)
    assert doc["schema_name"] == "DoclingDocument" and re.fullmatch(r"1\.\d+\.\d+", doc["version"])
    assert isinstance(doc["name"], str) and doc["name"]
    if "origin" in doc:
        assert set(doc["origin"]) == {"mimetype", "binary_hash", "filename", "uri"}
        assert isinstance(doc["origin"]["binary_hash"], int) and 0 <= doc["origin"]["binary_hash"] < 2**64
    for root in ("body", "furniture"):
        assert set(doc[root]) == {"self_ref", "parent", "children", "name", "label"}
        assert doc[root]["self_ref"] == f"#/{root}" and doc[root]["parent"] is None
    assert doc["body"]["children"] == [{"$ref": f"#/tables/{k}"} for k in range(len(doc["tables"]))]
    node_keys = {"self_ref", "parent", "children", "label", "prov", "captions", "references", "footnotes", "data"}
    for k, table in enumerate(doc["tables"]):
        assert set(table) == node_keys  # docling's items forbid other keys
        assert table["self_ref"] == f"#/tables/{k}" and table["parent"] == {"$ref": "#/body"}
        assert table["label"] == "table"
        for prov in table["prov"]:
            assert set(prov) == {"page_no", "bbox", "charspan"} and type(prov["page_no"]) is int
            assert prov["page_no"] >= 1 and prov["charspan"] == [0, 0]
            assert set(prov["bbox"]) == {"l", "t", "r", "b", "coord_origin"}
            assert prov["bbox"]["coord_origin"] in ("BOTTOMLEFT", "TOPLEFT")
        data = table["data"]
        assert set(data) == {"table_cells", "num_rows", "num_cols"}
        assert data["num_rows"] * data["num_cols"] <= 1_000_000
        for cell in data["table_cells"]:
            for key in ("start_row_offset_idx", "end_row_offset_idx", "start_col_offset_idx", "end_col_offset_idx",
                        "row_span", "col_span"):
                assert type(cell[key]) is int
            assert 0 <= cell["start_row_offset_idx"] < cell["end_row_offset_idx"] <= data["num_rows"]
            assert 0 <= cell["start_col_offset_idx"] < cell["end_col_offset_idx"] <= data["num_cols"]
            assert cell["row_span"] == cell["end_row_offset_idx"] - cell["start_row_offset_idx"]
            assert cell["col_span"] == cell["end_col_offset_idx"] - cell["start_col_offset_idx"]
            assert isinstance(cell["text"], str)
            assert not (cell["column_header"] and cell["row_header"]) and cell["row_section"] is False
            assert cell["bbox"] is None or cell["bbox"]["coord_origin"] in ("BOTTOMLEFT", "TOPLEFT")
    for key, page in doc["pages"].items():
        assert key == str(page["page_no"]) and set(page) == {"size", "page_no"}
        assert set(page["size"]) == {"width", "height"}
    return doc


@pytest.mark.parametrize("sample", [PAPER, CROSS_PAGE], ids=["paper", "cross-page"])
def test_docling_to_model_to_docling_to_model_is_the_same(sample):
    data = corpus_path(*sample).read_bytes()
    first = docling.read(data, Diagnostics())
    written = docling.write(first, Diagnostics())
    assert_valid_docling(written)
    assert docling.read(written, Diagnostics()) == first
    # docling's own header kinds come back too, and the boxes and provenance as they were
    original, again = json.loads(data), json.loads(written)
    keys = ("start_row_offset_idx", "end_row_offset_idx", "start_col_offset_idx", "end_col_offset_idx", "text",
            "column_header", "row_header", "row_span", "col_span")
    for before, after in zip(original["tables"], again["tables"], strict=True):
        assert [{k: c[k] for k in keys} for c in after["data"]["table_cells"]] == \
               [{k: c[k] for k in keys} for c in before["data"]["table_cells"]]
        assert [p["page_no"] for p in after["prov"]] == [p["page_no"] for p in before["prov"]]
    if sample == PAPER:
        assert again["origin"] == original["origin"] and again["name"] == "2206.01062"
        assert [t["prov"] for t in again["tables"]] == [t["prov"] for t in original["tables"]]
        assert [[c["bbox"] for c in t["data"]["table_cells"]] for t in again["tables"]] == \
               [[c["bbox"] for c in t["data"]["table_cells"]] for t in original["tables"]]


def test_icdar_ground_truth_to_docling_keeps_cells_spans_texts_headers_and_boxes():
    source = icdar.read((ROOT / "samples" / "icdar" / "sample-str.xml").read_bytes(), Diagnostics()).document
    cells = source.tables[0].regions[0].cells
    for cell in cells[:2] + cells[4:5]:  # the top row and "Austria": headers, as in PubTabNet ground truth
        cell.header = True
    diagnostics = Diagnostics()
    written = docling.write(source, diagnostics)
    assert diagnostics.codes() == []
    out = assert_valid_docling(written)
    assert out["name"] == "sample" and "origin" not in out  # docling's origin needs the PDF's hash
    back = docling.read(written, Diagnostics())
    (table,), (original,) = back.tables, source.tables
    assert _cells(table) == _cells(original)
    assert (_cell_at(table, 0, 1).end_col, _cell_at(table, 0, 1).content) == (2, "Population (millions)")
    assert [(c.bbox, c.header) for c in table.cells()] == [(c.bbox, c.header) for c in original.cells()]
    assert [r.page for r in table.regions] == [1]
    # ICDAR's region has no box of its own: docling's provenance gets the cells' envelope
    assert table.regions[0].bbox == envelope(c.bbox for c in original.cells()) == BBox(72, 652, 300, 712)
    # the top row's headers are column headers, "Austria" (with numbers to its right) a row header
    assert [(c["text"], c["column_header"], c["row_header"]) for c in out["tables"][0]["data"]["table_cells"]
            if c["column_header"] or c["row_header"]] == [("Country", True, False),
                                                          ("Population (millions)", True, False),
                                                          ("Austria", False, True)]


def _as_docling_keeps_it(doc: Document) -> Document:
    """What docling holds of a document: tables and regions by place, every cell in
    the table's first region that has a box (the increments applied), no ids,
    instructions or polygons, unknown text as blank, pages whose size is known."""
    name = doc.metadata.get("docling_name") or (PurePath(doc.filename).stem if doc.filename else "") or "document"
    kept = Document(metadata={"docling_name": name})
    for t, table in enumerate(doc.tables):
        regions = []
        for region in table.regions:
            boxes = [c.bbox for c in region.cells if c.bbox is not None]
            box = region.bbox or envelope(boxes)
            if box is not None:
                regions.append(Region(len(regions), region.page, box))
        regions = regions or [Region(0, 1)]
        regions[0].cells = [Cell(c.start_row + r.row_increment, c.start_col + r.col_increment,
                                 c.end_row + r.row_increment, c.end_col + r.col_increment,
                                 c.content or "", None, c.bbox, c.header)
                            for r in table.regions for c in r.cells]
        kept.tables.append(Table(t, regions))
    for page in sorted(doc.pages, key=lambda p: p.number):
        scale = 1.0 if page.frame is Frame.PDF else 72.0 / page.dpi if page.frame is Frame.IMAGE and page.dpi else None
        if page.width and page.height and scale and page.number not in {p.number for p in kept.pages}:
            kept.pages.append(Page(page.number, page.width * scale, page.height * scale, Frame.PDF))
    return kept


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(frame=Frame.PDF, polygons=False))
def test_docling_holds_what_it_can_of_any_document(doc):
    written = docling.write(doc, Diagnostics())
    assert_valid_docling(written)
    assert docling.read(written, Diagnostics()) == _as_docling_keeps_it(doc)


def _one_table(*cells: Cell, region_box: BBox | None = None, pages=()) -> Document:
    return Document(tables=[Table(0, [Region(0, 1, region_box, cells=list(cells))])], pages=list(pages))


def test_pixels_are_written_in_points_where_the_page_dpi_is_known():
    box = BBox(100, 200, 300, 400, Frame.IMAGE)
    diagnostics = Diagnostics()
    out = json.loads(docling.write(_one_table(Cell(0, 0, 0, 0, "a", bbox=box), region_box=box,
                                              pages=[Page(1, 1700, 2200, Frame.IMAGE, dpi=200)]), diagnostics))
    assert diagnostics.codes() == []
    assert out["tables"][0]["data"]["table_cells"][0]["bbox"] == {"l": 36.0, "t": 72.0, "r": 108.0, "b": 144.0,
                                                                  "coord_origin": "TOPLEFT"}
    assert out["pages"] == {"1": {"size": {"width": 612.0, "height": 792.0}, "page_no": 1}}
    back = docling.read(json.dumps(out).encode(), Diagnostics())
    assert back.tables[0].cells()[0].bbox == BBox(36, 792 - 144, 108, 792 - 72)  # flipped with the page height
    # without a DPI, pixels are written as they are, with a warning
    diagnostics = Diagnostics()
    out = json.loads(docling.write(_one_table(Cell(0, 0, 0, 0, "a", bbox=box)), diagnostics))
    assert diagnostics.codes() == ["frame-foreign"]
    assert out["tables"][0]["prov"][0]["bbox"] == {"l": 100, "t": 200, "r": 300, "b": 400, "coord_origin": "TOPLEFT"}


def test_what_the_writer_cannot_hold_is_said():
    diagnostics = Diagnostics()
    out = json.loads(docling.write(_one_table(Cell(0, 0, 0, 0, None), Cell(-1, 0, -1, 0, "before"),
                                              Cell(1, 0, 1, 1, "x", header=True)), diagnostics))
    assert diagnostics.codes() == ["docling-cell-left-out", "docling-no-box"]
    table = out["tables"][0]
    assert table["prov"] == []  # no box: no provenance
    assert [(c["text"], c["column_header"], c["row_header"]) for c in table["data"]["table_cells"]] == [
        ("", False, False), ("x", True, False)]  # unknown text as blank
    assert (table["data"]["num_rows"], table["data"]["num_cols"]) == (2, 2)
    with pytest.raises(InputError) as caught:
        docling.write(_one_table(Cell(0, 0, 1000, 999, "huge")), Diagnostics())
    assert caught.value.diagnostic.code == "docling-too-large"
    with pytest.raises(InputError) as caught:
        docling.write(_one_table(Cell(0, 0, 0, 0, "a", bbox=BBox(0, 0, float("nan"), 1))), Diagnostics())
    assert caught.value.diagnostic.code == "bad-number"
    with pytest.raises(InputError) as caught:
        docling.write(_one_table(Cell(0, 0, 0, 0, "\ud800")), Diagnostics())
    assert caught.value.diagnostic.code == "bad-text"


def test_written_files_are_valid_for_docling_itself_where_it_is_installed():
    """docling-core is not a dependency: this runs only where it happens to be installed."""
    docling_core = pytest.importorskip("docling_core.types.doc")
    source = icdar.read((ROOT / "samples" / "icdar" / "sample-str.xml").read_bytes(), Diagnostics()).document
    model = docling_core.DoclingDocument.model_validate(json.loads(docling.write(source, Diagnostics())))
    assert model.tables[0].data.num_rows == 4


# -- recognising and refusing ----------------------------------------------------------------

def test_only_docling_files_are_recognised_as_docling(tmp_path):
    assert registry.detect(SPANS_CASE, SPANS_CASE.read_bytes()).name == "docling"
    assert docling.sniff(b'\xef\xbb\xbf{\n  "schema_name": "DoclingDocument", "version": "1.0.0"')
    assert not docling.sniff(b'{"format": "convertables", "tables": [{"content": "\\"schema_name\\": '
                             b'\\"DoclingDocument\\""}]}')
    assert not docling.sniff(b'[{"schema_name": "DoclingDocument"}]')
    assert not docling.sniff(b'{"Blocks": [], "DocumentMetadata": {"Pages": 1}}')
    canonical = ROOT / "samples" / "json"
    for path in canonical.glob("*.json"):
        assert registry.detect(path, path.read_bytes()).name != "docling"


def _spans_case() -> dict:
    return json.loads(SPANS_CASE.read_bytes())


@pytest.mark.parametrize("change, code, message", [
    (lambda d: d["tables"][0]["data"]["table_cells"][1].update(start_col_offset_idx="1"), "docling-invalid",
     'tables[0].data.table_cells[1].start_col_offset_idx: "1" is not an integer (a number written as a string)'),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].pop("end_row_offset_idx"), "docling-invalid",
     "tables[0].data.table_cells[1].end_row_offset_idx: missing"),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].update(start_row_offset_idx=True), "docling-invalid",
     "start_row_offset_idx: true is not an integer"),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].update(end_col_offset_idx=1.5), "docling-invalid",
     "end_col_offset_idx: 1.5 is not an integer"),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].update(end_col_offset_idx=10**12), "docling-invalid",
     "out of range"),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].pop("text"), "docling-invalid", ".text: missing"),
    (lambda d: d["tables"][0]["data"]["table_cells"][1].update(column_header="yes"), "docling-invalid",
     'column_header: "yes" is not true or false'),
    (lambda d: d["tables"][0]["data"].update(num_rows="5"), "docling-invalid", "num_rows"),
    (lambda d: d["tables"][0]["data"].update(num_cols=-1), "docling-invalid", "negative"),
    (lambda d: d["tables"][0].pop("data"), "docling-invalid", "tables[0].data: missing"),
    (lambda d: d["tables"][0]["data"].update(table_cells={}), "docling-invalid", "is not a list"),
    (lambda d: d["tables"][0]["prov"][0].update(page_no="3"), "docling-invalid", "written as a string"),
    (lambda d: d["tables"][0]["prov"][0].pop("bbox"), "docling-invalid", "prov[0].bbox: missing"),
    (lambda d: d["tables"][0]["prov"][0]["bbox"].update(l="50"), "docling-invalid", "bbox.l"),
    (lambda d: d["tables"][0]["prov"][0]["bbox"].update(coord_origin="CENTER"), "docling-invalid",
     "neither TOPLEFT nor BOTTOMLEFT"),
    (lambda d: d["pages"]["3"]["size"].update(height=None), "docling-invalid", "pages.3.size.height"),
    (lambda d: d["pages"].update({"3": []}), "docling-invalid", "pages.3: a list is not an object"),
    (lambda d: d.update(tables={"0": {}}), "docling-invalid", "tables: an object is not a list"),
    (lambda d: d["tables"].append("table"), "docling-invalid", 'tables[1]: "table" is not an object'),
    (lambda d: d.update(schema_name="DoclingDocumentV2"), "docling-not-document", "not a DoclingDocument"),
])
def test_what_docling_refuses_is_refused_with_its_path(change, code, message):
    data = _spans_case()
    change(data)
    error = _refused(json.dumps(data).encode(), code)
    assert message in error.diagnostic.message


def test_json_that_cannot_be_read_is_refused_in_bounds(monkeypatch):
    _refused(b"", "json-empty")
    _refused(b'{"schema_name": "DoclingDocument", "tables": [', "json-syntax")
    _refused(b'{"schema_name": "DoclingDocument", "tables": [], "x": NaN}', "json-syntax")
    _refused(b"[" * 100_000 + b"]" * 100_000, "too-deep")
    _refused(b'{"schema_name": "DoclingDocument", "pages": {"1": {"page_no": 1, "size": {"width": 1e400, '
             b'"height": 1}}}}', "docling-invalid")
    _refused(b'"DoclingDocument"', "docling-not-document")
    # a 500 MB response is refused before it is parsed: the limit, made small
    monkeypatch.setattr(jsonsafe, "MAX_JSON_BYTES", 1000)
    error = _refused(SPANS_CASE.read_bytes(), "too-large")
    assert "1,000" in error.diagnostic.message


def test_a_version_that_is_not_1x_is_read_with_a_warning():
    data = _spans_case()
    data["version"] = "2.0.0"
    doc, diagnostics = _read(json.dumps(data).encode())
    assert diagnostics.codes() == ["docling-version"] and len(doc.tables[0].cells()) == 10


@pytest.mark.slow
def test_references_in_long_cycles_are_not_followed(monkeypatch):
    """100,000 groups each the parent of the next, in a ring, with a table under each
    and body.children pointing nowhere: read at once, one warning, never a walk."""
    n = 100_000
    groups = [{"self_ref": f"#/groups/{k}", "parent": {"$ref": f"#/groups/{(k + 1) % n}"}, "children": [],
               "name": "g", "label": "unspecified"} for k in range(n)]
    cell = {"start_row_offset_idx": 0, "end_row_offset_idx": 1, "start_col_offset_idx": 0, "end_col_offset_idx": 1,
            "text": "x"}
    tables = [{"self_ref": f"#/tables/{k}", "parent": {"$ref": f"#/groups/{k * 97 % n}"}, "label": "table",
               "data": {"table_cells": [cell]}} for k in range(200)]
    body = {"self_ref": "#/body", "children": [{"$ref": f"#/groups/{n + k}"} for k in range(1000)]}
    data = json.dumps({"schema_name": "DoclingDocument", "version": "1.10.0", "name": "ring", "body": body,
                       "groups": groups, "tables": tables}).encode()
    started = time.perf_counter()
    doc, diagnostics = _read(data)
    assert time.perf_counter() - started < 10
    assert len(doc.tables) == 200
    ref = [d for d in diagnostics if d.code == "docling-ref"]
    assert len(ref) == 1 and ref[0].message.startswith("1001 reference(s)")


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**10) | st.text(max_size=4)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=3), max_leaves=6)


def _paths(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, (*path, key))


_CASE_PATHS = list(_paths(json.loads(SPANS_CASE.read_bytes())))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_CASE_PATHS[1:]), JSON_VALUES | st.just("__delete__"))
def test_any_value_anywhere_reads_or_is_refused_never_a_traceback(path, value):
    data = _spans_case()
    holder = data
    for key in path[:-1]:
        holder = holder[key]
    if value == "__delete__":
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    try:
        doc, _ = _read(json.dumps(data).encode())
    except InputError as error:
        assert error.diagnostic.code in {"docling-invalid", "docling-not-document"}, error
        return
    assert all(isinstance(c, Cell) for t in doc.tables for c in t.cells())


def _pages_from_zero() -> dict:
    """A DoclingDocument whose pages are numbered from 0, as docling-core's own test
    documents of virtual content are (docling-core's schema takes any integer)."""
    cells = [{"bbox": {"l": 20.0 + 100 * c, "t": 960.0 - 50 * r, "r": 110.0 + 100 * c, "b": 910.0 - 50 * r,
                       "coord_origin": "BOTTOMLEFT"},
              "row_span": 1, "col_span": 1, "start_row_offset_idx": r, "end_row_offset_idx": r + 1,
              "start_col_offset_idx": c, "end_col_offset_idx": c + 1, "text": text,
              "column_header": r == 0, "row_header": False, "row_section": False}
             for r, row in enumerate([["H1", "H2"], ["C1", "C2"]]) for c, text in enumerate(row)]
    return {"schema_name": "DoclingDocument", "version": "1.10.0", "name": "virtual",
            "body": {"self_ref": "#/body", "children": [{"$ref": "#/tables/0"}], "content_layer": "body",
                     "name": "_root_", "label": "unspecified"},
            "tables": [{"self_ref": "#/tables/0", "parent": {"$ref": "#/body"}, "children": [],
                        "content_layer": "body", "label": "table", "captions": [], "references": [],
                        "footnotes": [],
                        "prov": [{"page_no": 0, "bbox": {"l": 20.0, "t": 960.0, "r": 210.0, "b": 860.0,
                                                         "coord_origin": "BOTTOMLEFT"}, "charspan": [0, 0]}],
                        "data": {"table_cells": cells, "num_rows": 2, "num_cols": 2}}],
            "pages": {"0": {"size": {"width": 1000.0, "height": 1000.0}, "page_no": 0}}}


def test_pages_numbered_from_zero_are_read_as_docling_core_reads_them(tmp_path):
    path = tmp_path / "virtual.json"
    path.write_text(json.dumps(_pages_from_zero()), encoding="utf-8")
    result = runner.invoke(app, ["convert", str(path), "--to", "csv", "-v"])
    assert result.exit_code == 0 and result.stdout.splitlines() == ["H1,H2", "C1,C2"]
    assert ("info docling-page-below-one pages.0.page_no: page 0; docling-core takes any page number: kept as it is "
            "(ICDAR 2013 numbers pages from 1)") in result.stderr
    doc, diagnostics = _read(path.read_bytes())
    assert diagnostics.codes() == ["docling-page-below-one"]
    assert [r.page for r in doc.tables[0].regions] == [0] and [p.number for p in doc.pages] == [0]
    assert _box(doc.tables[0].regions[0]) == (20.0, 860.0, 210.0, 960.0, Frame.PDF)
    # written back, the page stays 0
    again, _ = _read(docling.write(doc, Diagnostics()))
    assert [r.page for r in again.tables[0].regions] == [0] and _cells(again.tables[0]) == _cells(doc.tables[0])
