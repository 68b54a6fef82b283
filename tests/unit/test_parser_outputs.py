"""Document parsers' JSON outputs (MinerU, Unstructured, Marker, PaddleOCR,
Upstage, LlamaParse): sniffing without stealing other JSON formats' files, the
command line (convert, score, check), boxes in their frames, and hostile
values. The readers' cell-by-cell cases are in tests/cases/<format>/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.model import Frame
from tests.conftest import CASES, ROOT, corpus_path

runner = CliRunner()

PARSER_FORMATS = ("mineru", "unstructured", "marker", "paddleocr", "upstage", "dpbench", "llamaparse")
OTHER_JSON = ("textract", "azure", "docai", "docling", "pubtabnet-html", "json")


def _inputs(name: str) -> list[Path]:
    return sorted(p for case in (CASES / name).iterdir() if case.is_dir()
                  for p in case.iterdir() if p.name.startswith("input"))


PARSER_INPUTS = [(name, path) for name in PARSER_FORMATS for path in _inputs(name)]
IDS = [f"{name}/{path.parent.name}" for name, path in PARSER_INPUTS]


def _read(name: str, value) -> tuple:
    data = value if isinstance(value, bytes) else json.dumps(value).encode()
    diagnostics = Diagnostics("t.json")
    return read_document(data, registry.get(name), "t.json", diagnostics=diagnostics), diagnostics


def _grid(table) -> list:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in table.cells())


# -- sniffing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, path", PARSER_INPUTS, ids=IDS)
def test_each_parsers_output_is_recognised_by_its_content(name, path):
    assert registry.detect(Path("x.json"), path.read_bytes()).name == name


def _other_json_files() -> list[Path]:
    found = [p for name in OTHER_JSON if (CASES / name).is_dir() for p in (CASES / name).rglob("input*.json")]
    found += sorted((ROOT / "samples").rglob("*.json"))
    return found


def test_other_json_formats_files_are_not_taken():
    others = _other_json_files()
    assert len(others) > 10
    for path in others:
        assert registry.detect(path, path.read_bytes()).name not in PARSER_FORMATS, path


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("name, path", PARSER_INPUTS, ids=IDS)
def test_convert_to_icdar_through_the_command(name, path, tmp_path):
    out = tmp_path / "out-str.xml"
    result = runner.invoke(app, ["convert", str(path), "--to", "icdar", "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected = json.loads((path.parent / "expected.json").read_text(encoding="utf-8"))
    written = out.read_text(encoding="utf-8")
    assert written.count("<table ") == len(expected["tables"])
    for table in expected["tables"]:
        for cell in table["cells"]:
            if cell[4].strip():  # (the ICDAR writer leaves blank cells out)
                r0, c0, r1, c1 = cell[:4]
                assert re.search(rf'<cell start-row="{r0}" start-col="{c0}" end-row="{r1}" end-col="{c1}"', written)


def _copy(path: Path, folder: Path, stem: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.json").write_bytes(path.read_bytes())


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["teds", "grits", "structure"])
@pytest.mark.parametrize("name, path", PARSER_INPUTS, ids=IDS)
def test_a_parsers_output_scores_against_itself_as_ground_truth_directly(name, path, metric, tmp_path):
    expected = json.loads((path.parent / "expected.json").read_text(encoding="utf-8"))
    if not any(any(c[4].strip() for c in t["cells"]) for t in expected["tables"]):
        pytest.skip("no table with text: nothing to score")
    _copy(path, tmp_path / "gt", "doc")
    _copy(path, tmp_path / "res", "doc")
    result = runner.invoke(app, ["score", "--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "res"),
                                 "--metric", metric, "--format", "json"])
    assert result.exit_code == 0, result.output
    total = json.loads(result.stdout)["total"]
    score = {"teds": "teds", "grits": "grits_con", "structure": "f1"}[metric]
    assert total[score] == pytest.approx(1.0), total


def test_a_mineru_result_scores_against_unstructured_ground_truth_with_the_metrics_figures(tmp_path):
    gold = [{"type": "Title", "text": "Invoice"},
            {"type": "Table", "text": [{"id": "a", "x": 0, "y": 0, "w": 1, "h": 1, "content": "Item"},
                                       {"id": "b", "x": 1, "y": 0, "w": 1, "h": 1, "content": "Qty"},
                                       {"id": "c", "x": 0, "y": 1, "w": 1, "h": 1, "content": "Widget"},
                                       {"id": "d", "x": 1, "y": 1, "w": 1, "h": 1, "content": "2"}]}]
    result = [{"type": "table", "table_body": "<table><tr><td>Item</td><td>Qty</td></tr>"
                                              "<tr><td>Widget</td><td>3</td></tr></table>",
               "bbox": [100, 100, 900, 300], "page_idx": 0}]
    (tmp_path / "gt").mkdir()
    (tmp_path / "res").mkdir()
    (tmp_path / "gt" / "invoice.json").write_text(json.dumps(gold))
    (tmp_path / "res" / "invoice.json").write_text(json.dumps(result))

    def total(metric: str) -> dict:
        scored = runner.invoke(app, ["score", "--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "res"),
                                     "--metric", metric, "--format", "json"])
        assert scored.exit_code == 0, scored.output
        return json.loads(scored.stdout)["total"]

    structure = total("structure")  # Item-Qty and Item-Widget kept; Widget-2 and Qty-2 lost
    assert (structure["gt"], structure["correct"], structure["detected"]) == (4, 2, 4)
    assert total("grits")["grits_con"] == pytest.approx(0.75)  # three cells of four alike, "2" against "3"
    # The gold's tree is made from its grid, a <tbody> around its rows (7 elements); MinerU's own HTML has
    # none (6): one node to insert, and "2" renamed "3" at a cost of 1.
    teds = total("teds")
    assert (teds["teds_struct"], teds["teds"]) == pytest.approx((6 / 7, 5 / 7))


@pytest.mark.parametrize("name, path", PARSER_INPUTS, ids=IDS)
def test_check_takes_a_parsers_output(name, path):
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert " error " not in result.output


def test_formats_lists_the_parsers_as_read_only():
    listed = runner.invoke(app, ["formats"]).output
    for name in PARSER_FORMATS:
        assert re.search(rf"^{name}\s+yes\s+no\s+\.json", listed, re.M), listed


# -- values of the wrong kind ------------------------------------------------------------------


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**10) | st.text(max_size=4)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=3), max_leaves=6)


def _paths(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, (*path, key))


_ANYWHERE = [(name, json.loads(path.read_bytes()), p) for name, path in PARSER_INPUTS
             for p in list(_paths(json.loads(path.read_bytes())))[1:]]


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_ANYWHERE), JSON_VALUES | st.just("__delete__"))
def test_any_value_anywhere_reads_or_is_refused_never_a_traceback(where, value):
    name, data, path = where
    data = json.loads(json.dumps(data))
    holder = data
    for key in path[:-1]:
        holder = holder[key]
    if value == "__delete__":
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    try:
        doc, _ = _read(name, data)
    except InputError as error:
        assert error.diagnostic.code.startswith(name), error
        return
    for table in doc.tables:
        for cell in table.cells():
            assert 0 <= cell.start_row <= cell.end_row and 0 <= cell.start_col <= cell.end_col
            assert cell.content is None or isinstance(cell.content, str)


# -- MinerU ----------------------------------------------------------------------------------


MINERU = CASES / "mineru"


def _documented_samples() -> list:
    """The JSON samples of MinerU's documentation of its output files, in order."""
    text = corpus_path("parsers", "mineru", "output_files.md").read_text(encoding="utf-8")
    return [block.encode() for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_mineru_documented_content_list_reads_its_table_and_its_other_files_are_not_taken():
    samples = _documented_samples()
    content_list = next(s for s in samples if b'"table_body"' in s)
    assert registry.sniffed(content_list).name == "mineru"
    doc, diagnostics = _read("mineru", content_list)
    (table,) = doc.tables
    assert table.page == 6 and table.regions[0].bbox[:4] == pytest.approx((0.062, 0.48, 0.946, 0.904))
    cells = _grid(table)
    assert cells[:2] == [(0, 0, 1, 0, "Site"), (0, 1, 0, 10, "Percentile")]
    assert (1, 10, 1, 10, "100") in cells and (11, 0, 11, 0, "Biesievlei") in cells
    assert (4, 1, 4, 1, "") in cells  # Pine Ck's empty first percentile: a blank cell
    assert len(cells) == 2 + 10 + 10 * 11
    assert doc.metadata["table_0_caption"] == "Table 2 Significance of the rainfall and time terms"
    assert doc.metadata["table_0_footnote"].startswith("indicates that the rainfall term was significant")
    assert not diagnostics.has_errors
    v2 = next(s for s in samples if b'"title_content"' in s)
    assert registry.sniffed(v2).name == "mineru" and _read("mineru", v2)[0].tables == []
    others = [s for s in samples if b'"cls_id"' in s or b'"pdf_info"' in s or b'"angle": 0,\n      "score"' in s]
    assert len(others) == 3  # the pipeline's and the VLM's model.json, middle.json
    for other in others:
        found = registry.sniffed(other)
        assert found is None or found.name != "mineru", other[:80]


def test_mineru_boxes_are_fractions_of_the_page_from_its_thousandths():
    doc, _ = _read("mineru", (MINERU / "content-list-spans-captions-image-only" / "input.json").read_bytes())
    box = doc.tables[0].regions[0].bbox
    assert box.frame is Frame.PAGE
    assert (box.x1, box.y1, box.x2, box.y2) == pytest.approx((0.062, 0.48, 0.946, 0.904))
    v2, _ = _read("mineru", (MINERU / "content-list-v2-pages" / "input.json").read_bytes())
    assert v2.tables[0].regions[0].bbox[:4] == pytest.approx((0.12, 0.14, 0.88, 0.42))


def test_mineru_html_keeps_its_skeleton_for_teds_and_unquoted_spans():
    doc, _ = _read("mineru", (MINERU / "content-list-spans-captions-image-only" / "input.json").read_bytes())
    structure = doc.tables[0].html_structure
    assert structure is not None and ' rowspan="2"' in structure and ' colspan="2"' in structure
    assert "teds_table" not in doc.metadata  # (each table scores; not only the first of a page)


def test_mineru_bad_values_are_said_once_per_kind_and_reading_goes_on():
    blocks = [{"type": "table", "table_body": "<table><tr><td>a</td></tr></table>", "page_idx": "3",
               "bbox": [1, 2, 3]},
              {"type": "table", "table_body": "<table><tr><td>b</td></tr></table>", "page_idx": -1,
               "bbox": [900, 2, 100, 4]},
              "text", {"type": "table", "table_body": 7, "page_idx": 0}]
    doc, diagnostics = _read("mineru", blocks)
    assert [t.page for t in doc.tables] == [1, 1]
    assert [_grid(t) for t in doc.tables] == [[(0, 0, 0, 0, "a")], [(0, 0, 0, 0, "b")]]
    assert doc.tables[0].regions[0].bbox is None
    assert doc.tables[1].regions[0].bbox[:4] == pytest.approx((0.1, 0.002, 0.9, 0.004))
    messages = [d.message for d in diagnostics if d.code == "mineru-bad-value"]
    assert any("page_idx" in m and "2 times" in m for m in messages), messages
    assert "box-inverted" in diagnostics.codes() and "parser-bad-value" in diagnostics.codes()
    assert any("HTML is not a string" in m for m in messages)


def test_the_html_models_findings_are_said_of_the_item_without_the_htmls_lines(monkeypatch):
    from convertables import parser_json

    body = "<table>\n<tr>\n<td colspan='x2'>a</td></tr></table>"
    doc, diagnostics = _read("mineru", [{"type": "text", "text": "t", "page_idx": 0},
                                        {"type": "table", "table_body": body, "page_idx": 0}])
    (span,) = [d for d in diagnostics if d.code == "html-span"]
    assert span.message.startswith("block 1: table 0:") and span.line is None
    monkeypatch.setattr(parser_json, "MAX_HTML_CHARS", 20)
    doc, diagnostics = _read("mineru", [{"type": "table", "table_body": body, "page_idx": 0}])
    assert doc.tables == [] and "parser-too-large" in diagnostics.codes() and diagnostics.has_errors


def test_mineru_refuses_what_is_not_a_content_list():
    with pytest.raises(InputError) as caught:
        _read("mineru", {"pdf_info": []})
    assert caught.value.diagnostic.code == "mineru-invalid"


def test_mineru_model_json_and_middle_json_are_not_content_lists():
    from convertables.formats import mineru

    assert not mineru.sniff(b'[[{"type": "header", "bbox": [0.077, 0.095, 0.18, 0.181], "angle": 0, '
                            b'"content": "ELSEVIER"}]]')
    assert not mineru.sniff(b'{"pdf_info": [{"page_idx": 0, "para_blocks": [{"type": "table"}]}]}')
    assert mineru.sniff(b'\xef\xbb\xbf[\n  {"type": "table", "table_body": "", "bbox": [1, 2, 3, 4], "page_idx": 0}')


# -- Unstructured ----------------------------------------------------------------------------


UNSTRUCTURED = CASES / "unstructured"


def test_unstructured_pixel_coordinates_are_an_image_outline_with_the_layout_size():
    doc, _ = _read("unstructured", (UNSTRUCTURED / "elements-html-thead-without-tr-pages" / "input.json").read_bytes())
    box = doc.tables[0].regions[0].bbox
    assert box.frame is Frame.IMAGE
    assert box[:4] == pytest.approx((178.3, 368.5, 1565.2, 1285.5)) and len(box.polygon) == 4
    assert [(p.number, p.width, p.height, p.frame) for p in doc.pages] == [(5, 1750, 2250, Frame.IMAGE)]


def test_unstructured_html_is_preferred_to_its_cells_and_other_systems_give_no_box():
    element = {"type": "Table", "element_id": "e1", "text": "a b",
               "metadata": {"text_as_html": "<table><tr><td>from html</td></tr></table>",
                            "table_as_cells": [{"x": 0, "y": 0, "w": 1, "h": 1, "content": "from cells"}],
                            "coordinates": {"points": [[1, 2], [3, 4]], "system": "PointSpace"},
                            "page_number": 2}}
    doc, diagnostics = _read("unstructured", [element])
    assert _grid(doc.tables[0]) == [(0, 0, 0, 0, "from html")] and doc.tables[0].page == 2
    assert doc.tables[0].regions[0].bbox is None
    assert "unstructured-coordinates" in diagnostics.codes()


def test_unstructured_bad_cells_are_left_out_and_said():
    cells = [{"x": 0, "y": 0, "w": 1, "h": 1, "content": "kept"}, {"x": "1", "y": 0, "content": "string x"},
             {"x": 1, "y": 0, "w": 0, "h": 1, "content": "zero width"}, {"x": 2, "y": 0, "content": 5}]
    doc, diagnostics = _read("unstructured", [{"type": "Table", "text": cells}])
    assert _grid(doc.tables[0]) == [(0, 0, 0, 0, "kept"), (0, 2, 0, 2, "")]
    assert diagnostics.has_errors and diagnostics.codes().count("unstructured-bad-value") == 3


def test_unstructured_refuses_what_is_not_a_list_of_elements():
    with pytest.raises(InputError) as caught:
        _read("unstructured", {"elements": []})
    assert caught.value.diagnostic.code == "unstructured-invalid"


# -- Marker ----------------------------------------------------------------------------------


MARKER = CASES / "marker"


def test_marker_boxes_from_the_top_become_pdf_points_with_the_page_height():
    doc, _ = _read("marker", (MARKER / "json-table-group-caption-cell-boxes" / "input.json").read_bytes())
    first = doc.tables[0]
    assert first.regions[0].bbox.frame is Frame.PDF
    assert first.regions[0].bbox[:4] == pytest.approx((69.1, 792 - 160.2, 265.1, 792 - 70.3))
    boxes = {(c.start_row, c.start_col): c.bbox[:4] for c in first.cells()}
    assert boxes[(0, 1)] == pytest.approx((150.0, 692.0, 265.1, 792 - 70.3))
    assert boxes[(1, 2)] == pytest.approx((210.0, 792 - 160.2, 265.1, 692.0))
    assert all(c.bbox is None for c in doc.tables[1].cells())  # one TableCell for five cells: none given
    assert [(p.number, p.width, p.height) for p in doc.pages] == [(1, 612, 792), (6, 612, 792)]


def test_marker_without_a_page_box_keeps_image_boxes_at_72_dpi():
    data = json.loads((MARKER / "json-table-group-caption-cell-boxes" / "input.json").read_bytes())
    for page in data["children"]:
        del page["bbox"]
    doc, _ = _read("marker", data)
    assert doc.tables[0].regions[0].bbox.frame is Frame.IMAGE
    assert doc.tables[0].regions[0].bbox[:4] == pytest.approx((69.1, 70.3, 265.1, 160.2))


def test_marker_table_of_contents_and_other_blocks_are_not_tables():
    from convertables.formats import marker

    doc, _ = _read("marker", {"children": [{"id": "/page/0/Page/1", "block_type": "Page", "children": [
        {"id": "/page/0/TableOfContents/0", "block_type": "TableOfContents",
         "html": "<table><tr><td>1</td></tr></table>"}]}], "block_type": "Document"})
    assert doc.tables == []
    assert marker.sniff(b'{"children": [{"id": "/page/0/Page/164", "block_type": "Page", "html": ""')
    assert not marker.sniff(b'[{"id": "/page/0/Page/164", "block_type": "Page"}]')


def test_marker_refuses_what_is_not_marker_json():
    with pytest.raises(InputError) as caught:
        _read("marker", {"pages": []})
    assert caught.value.diagnostic.code == "marker-invalid"


# -- PaddleOCR -------------------------------------------------------------------------------


PADDLEOCR = CASES / "paddleocr"


def test_paddleocr_cell_boxes_go_to_the_htmls_cells_in_order_and_the_layout_box_to_the_table():
    doc, _ = _read("paddleocr", (PADDLEOCR / "table-recognition-layout-box-cell-boxes" / "input.json").read_bytes())
    region = doc.tables[0].regions[0]
    assert region.bbox.frame is Frame.IMAGE and region.bbox[:4] == pytest.approx((0.0125, 0.4192, 547.0, 127.1))
    boxes = {(c.start_row, c.start_col): c.bbox[:4] for c in region.cells}
    assert boxes[(0, 0)] == pytest.approx((3.188, 0.146, 546.996, 30.878))
    assert boxes[(1, 3)] == pytest.approx((404.081, 31.183, 547.009, 65.085))


def test_paddleocr_without_a_layout_box_the_table_encloses_its_cells_and_quadrilaterals_are_kept():
    doc, _ = _read("paddleocr", (PADDLEOCR / "pdf-pages-wrapped-in-res" / "input.json").read_bytes())
    assert doc.tables[0].regions[0].bbox[:4] == (40, 100, 500, 220)  # the layout's table box
    assert doc.tables[1].regions[0].bbox is None  # two boxes for three cells: none read, nothing to enclose
    old, _ = _read("paddleocr", (PADDLEOCR / "pp-structure-2-regions" / "input.json").read_bytes())
    cell = next(c for c in old.tables[0].cells() if c.content == "2021")
    assert cell.bbox[:4] == (30, 190, 300, 300) and len(cell.bbox.polygon) == 4
    assert old.tables[0].regions[0].bbox[:4] == (30, 80, 600, 300)


def test_paddleocr_layout_boxes_not_one_a_table_are_not_used():
    result = {"page_index": 4, "layout_det_res": {"boxes": [{"label": "table", "coordinate": [1, 2, 3, 4]},
                                                            {"label": "table", "coordinate": [5, 6, 7, 8]}]},
              "table_res_list": [{"pred_html": "<table><tr><td>a</td></tr></table>",
                                  "cell_box_list": [[10, 20, 30, 40]]}]}
    doc, _ = _read("paddleocr", result)
    assert doc.tables[0].page == 5 and doc.tables[0].regions[0].bbox[:4] == (10, 20, 30, 40)


def test_paddleocr_refuses_what_is_not_a_result():
    with pytest.raises(InputError) as caught:
        _read("paddleocr", "table")
    assert caught.value.diagnostic.code == "paddleocr-invalid"


# -- Upstage and DP-Bench --------------------------------------------------------------------


UPSTAGE = CASES / "upstage"


def test_upstage_coordinates_are_a_page_fraction_outline_and_old_bounding_boxes_pixels():
    doc, _ = _read("upstage", (UPSTAGE / "document-parse-response-pages" / "input.json").read_bytes())
    box = doc.tables[0].regions[0].bbox
    assert box.frame is Frame.PAGE and box[:4] == pytest.approx((0.0701, 0.1203, 0.9312, 0.3355))
    assert len(box.polygon) == 4
    old, _ = _read("upstage", (UPSTAGE / "layout-analysis-pixel-boxes" / "input.json").read_bytes())
    assert old.tables[0].regions[0].bbox.frame is Frame.IMAGE
    assert old.tables[0].regions[0].bbox[:4] == (74, 906, 1434, 1328)


def test_upstage_table_without_html_and_bad_values():
    elements = [{"category": "table", "page": 1, "content": {"markdown": "| a |\n|---|", "html": "", "text": ""}},
                {"category": "table", "page": "2", "content": {"html": "<table><tr><td>x</td></tr></table>"},
                 "coordinates": [{"x": "0.1", "y": 0.2}]},
                {"category": "table", "content": {"html": ["<table>"]}}]
    doc, diagnostics = _read("upstage", {"api": "2.0", "elements": elements})
    assert [(t.page, _grid(t)) for t in doc.tables] == [(1, []), (1, [(0, 0, 0, 0, "x")])]
    assert doc.tables[1].regions[0].bbox is None
    assert {"upstage-no-html", "upstage-bad-value", "parser-bad-value"} <= set(diagnostics.codes())
    with pytest.raises(InputError) as caught:
        _read("upstage", {"api": "2.0", "content": {}})
    assert caught.value.diagnostic.code == "upstage-invalid"


def _dpbench(folder: Path, second_html: str) -> Path:
    entry = json.loads((CASES / "dpbench" / "reference-entry" / "input.json").read_bytes())["01030000000045.pdf"]
    other = {"elements": [{"category": "Table", "id": 0, "page": 2, "content": {"html": second_html, "text": ""},
                           "coordinates": [{"x": 0.1, "y": 0.1}, {"x": 0.5, "y": 0.1}, {"x": 0.5, "y": 0.2},
                                           {"x": 0.1, "y": 0.2}]}]}
    folder.mkdir()
    path = folder / "reference.json"
    path.write_text(json.dumps({"01030000000045.pdf": entry, "01030000000046.pdf": other}, indent=4))
    return path


def test_dpbench_files_are_containers_of_documents_scored_and_converted_one_by_one(tmp_path):
    gt = _dpbench(tmp_path / "gt", "<table><tr><td>a</td><td>b</td></tr></table>")
    result = _dpbench(tmp_path / "res", "<table><tr><td>a</td><td>c</td></tr></table>")
    scored = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "teds",
                                 "--format", "json"])
    assert scored.exit_code == 0, scored.output
    report = json.loads(scored.stdout)
    teds = {d["document"]: d["teds"] for d in report["documents"]}
    assert teds["01030000000045"] == pytest.approx(1.0) and teds["01030000000046"] == pytest.approx(2 / 3)
    out = tmp_path / "icdar"
    converted = runner.invoke(app, ["convert", str(gt), "--to", "icdar", "-o", f"{out}/"])
    assert converted.exit_code == 0, converted.output
    assert sorted(p.name for p in out.iterdir()) == ["01030000000045-str.xml", "01030000000046-str.xml"]
    assert 'page="2"' in (out / "01030000000046-str.xml").read_text()


def test_an_upstage_response_is_not_a_dpbench_file_nor_the_other_way_round():
    from convertables.formats import dpbench, upstage

    response = (UPSTAGE / "document-parse-response-pages" / "input.json").read_bytes()
    reference = (CASES / "dpbench" / "reference-entry" / "input.json").read_bytes()
    assert not dpbench.sniff(response) and registry.sniffed(reference).name == "dpbench"
    assert upstage.sniff(reference)  # (it would: dpbench is asked first)


# -- LlamaParse ------------------------------------------------------------------------------


LLAMAPARSE = CASES / "llamaparse"


def test_llamaparse_bboxes_from_the_top_become_pdf_points_with_the_page_height():
    doc, _ = _read("llamaparse", (LLAMAPARSE / "result-html-and-rows-pages" / "input.json").read_bytes())
    box = doc.tables[0].regions[0].bbox
    assert box.frame is Frame.PDF
    assert box[:4] == pytest.approx((57.919, 792 - 138.705 - 242.652, 57.919 + 443.873, 792 - 138.705))
    assert [(p.number, p.width, p.height) for p in doc.pages] == [(1, 612, 792), (2, 612, 792)]
    assert doc.tables[1].html_structure is None  # read from rows: no HTML skeleton to keep


def test_llamaparse_rows_of_the_wrong_kind_and_pages_without_a_size():
    page = {"page": 1, "md": "", "items": [{"type": "table", "rows": [["a", 5], "b"], "bBox": {"x": 1, "y": 2, "w": 3,
                                                                                             "h": 4}}]}
    doc, diagnostics = _read("llamaparse", {"pages": [page]})
    assert _grid(doc.tables[0]) == [(0, 0, 0, 0, "a"), (0, 1, 0, 1, "")]
    assert doc.tables[0].regions[0].bbox == (1, 2, 4, 6, Frame.IMAGE, None)
    assert diagnostics.codes().count("llamaparse-bad-value") == 2 and diagnostics.has_errors
    with pytest.raises(InputError) as caught:
        _read("llamaparse", [{"job_id": "x"}])
    assert caught.value.diagnostic.code == "llamaparse-invalid"
