"""AWS Textract (convertables/formats/textract.py): the real responses of the
shared corpus cell by cell, sniffing, the command line, scoring, and hostile
input. The reader's small cases are in tests/cases/textract/."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import read, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.formats import textract
from convertables.model import Frame
from tests.conftest import CASES, CORPUS, corpus_path

runner = CliRunner()
TEXTRACT = registry.FORMATS["textract"]


def _sample(name: str) -> Path:
    return corpus_path("exports", "textract", name)


def _read_sample(name: str):
    diagnostics = Diagnostics()
    doc = read(_sample(name), diagnostics=diagnostics)  # no format given: the sniffer finds it
    return doc, diagnostics


def _read(value, name: str = "t.json"):
    data = value if isinstance(value, bytes) else json.dumps(value).encode()
    diagnostics = Diagnostics(name)
    return read_document(data, TEXTRACT, name, diagnostics=diagnostics), diagnostics


def _refused(value) -> InputError:
    with pytest.raises(InputError) as caught:
        _read(value)
    return caught.value


def _grid(table) -> list:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in table.cells())


def _warned(diagnostics: Diagnostics) -> set:
    return {d.code for d in diagnostics}


# -- the real responses --------------------------------------------------------------------


def test_merged_text_sample_joins_the_merged_cells_text_and_keeps_the_title():
    doc, diagnostics = _read_sample("test_table_merged_text.json")
    assert list(diagnostics) == []
    (table,) = doc.tables
    assert table.page == 1
    assert _grid(table) == [
        (0, 0, 0, 0, "header1", True), (0, 1, 0, 1, "header2", True), (0, 2, 0, 2, "header3", True),
        (1, 0, 1, 0, "val1.1", False), (1, 1, 1, 1, "val1.2", False), (1, 2, 1, 2, "val1.3", False),
        (2, 0, 2, 1, "now this is the merged cell", False), (2, 2, 2, 2, "val2.3", False),
        (3, 0, 3, 0, "val3.1", False), (3, 1, 3, 1, "val3.2", False), (3, 2, 3, 2, "val3.3", False),
    ]
    assert doc.metadata["table_0_title"] == "This is a sample table with merged cells"
    assert doc.metadata["generator"] == "AWS Textract (model 1.0)" and doc.metadata["pages"] == "1"
    region = table.regions[0]
    # the TABLE block's BoundingBox, in fractions of the page
    assert region.bbox.frame is Frame.PAGE
    assert region.bbox[:4] == pytest.approx((0.0394335575401783, 0.16680370271205902,
                                             0.0394335575401783 + 0.7570760846138,
                                             0.16680370271205902 + 0.28750717639923096))
    assert all(c.bbox is not None and c.bbox.frame is Frame.PAGE for c in region.cells)


def test_merged_cells_sample_reads_every_table_cell_by_cell():
    doc, diagnostics = _read_sample("tables_with_merged_cells_sample1.json")
    assert list(diagnostics) == []
    assert [t.page for t in doc.tables] == [1, 1, 1]
    bill, dates, hours = doc.tables
    assert _grid(bill) == [
        (0, 0, 0, 0, "Bill To", False), (0, 1, 0, 1, "", False),
        (1, 0, 1, 0, "Company", False), (1, 1, 1, 1, "ACME Corp", False),
        (2, 0, 2, 0, "Address", False), (2, 1, 2, 1, "240 Cool Street, SpringField, IL", False),
    ]
    assert _grid(dates) == [
        (0, 0, 0, 0, "", True), (0, 1, 0, 1, "", True),
        (1, 0, 1, 0, "Start Date", False), (1, 1, 1, 1, "Monday, February 28, 2022", False),
        (2, 0, 2, 0, "End Date", False), (2, 1, 2, 1, "Friday, March 04, 2022", False),
    ]
    rows = {
        2: ["1", "3", "$ 40.00", "$ 120.00"], 3: ["2", "5", "$ 10.00", "$ 50.00"],
        4: ["1", "4", "$ 40.00", "$ 160.00"], 5: ["3", "10", "$ 25.00", "$ 250.00"],
        6: ["2", "9", "$ 10.00", "$ 90.00"], 7: ["5", "6", "$ 33.00", "$ 198.00"],
    }
    expected = [
        (0, 0, 0, 0, "", False), (0, 1, 0, 4, "", False),  # a blank row, four of its cells merged
        *[(1, c, 1, c, text, True) for c, text in enumerate(["Date", "Work Type", "Work Hours", "Hourly Rate", "Total"])],
        # each date merged over two rows: one cell, its text from the non-blank one
        (2, 0, 3, 0, "Monday, February 28, 2022", False), (4, 0, 5, 0, "Tuesday, March 01, 2022", False),
        (6, 0, 7, 0, "Wednesday, March 02, 2022", False),
        *[(r, c + 1, r, c + 1, text, False) for r, texts in rows.items() for c, text in enumerate(texts)],
        (8, 0, 8, 2, "", False), (8, 3, 8, 3, "TOTAL", False), (8, 4, 8, 4, "$ 868.00", False),
    ]
    assert _grid(hours) == sorted(expected)
    assert sum(len(t.cells()) for t in doc.tables) == 6 + 6 + 37  # 45 CELL blocks, 13 of them in 5 merged cells
    merged = next(c for c in hours.cells() if (c.start_row, c.start_col) == (2, 0))
    # the MERGED_CELL block's own BoundingBox
    assert merged.bbox[:4] == pytest.approx((0.08167877048254013, 0.4169999957084656,
                                             0.08167877048254013 + 0.2246197611093521,
                                             0.4169999957084656 + 0.03700000047683716))


def test_in_table_title_sample_keeps_the_title_row_as_a_merged_cell_and_as_metadata():
    doc, diagnostics = _read_sample("in-table-title.json")
    assert list(diagnostics) == []
    (table,) = doc.tables
    title = ("LEAD & COPPER - Tested at Customers' Taps: Testing is done every 3 years. Most recent tests "
             "were done in 2019.")
    assert doc.metadata["table_0_title"] == title
    headers = ["EPA's Action Level - for a representative sampling of customer homes", "Ideal Goal (EPA's MCLG)",
               "90% of PWD customers' homes were less than", "Number of homes considered to have elevated levels",
               "Violation", "Source"]
    lead = ["Lead", "90% of homes must test less than 15 ppb", "0 ppb", "3.0 ppb", "2 out of 99", "No",
            "Corrosion of house- hold plumbing; Erosion of natural deposits"]
    copper = ["Copper", "90% of homes must test less than 1.3 ppm", "1.3 ppm", "0.28 ppm", "0 out of 99", "No",
              "Corrosion of house- hold plumbing; Erosion of natural deposits; Leaching from wood preservatives"]
    assert _grid(table) == sorted([
        (0, 0, 0, 6, title, False),  # seven TITLE cells merged: one cell, their words in reading order
        (1, 0, 1, 0, "", False),
        *[(1, c + 1, 1, c + 1, text, True) for c, text in enumerate(headers)],
        *[(2, c, 2, c, text, False) for c, text in enumerate(lead)],
        *[(3, c, 3, c, text, False) for c, text in enumerate(copper)],
    ])


def test_multi_page_sample_keeps_each_page_s_tables_in_reading_order():
    doc, diagnostics = _read_sample("gib_multi_page_tables.json")
    assert list(diagnostics) == []
    assert doc.metadata["pages"] == "2"
    assert [t.page for t in doc.tables] == [1, 1, 2, 2]
    # the response lists each page's lower table first; reading order puts the upper one first
    shapes = {1: (3, 3), 2: (5, 4)}
    for table, (page, k) in zip(doc.tables, [(1, 1), (1, 2), (2, 1), (2, 2)]):
        rows, cols = shapes[k]
        assert _grid(table) == [(r, c, r, c, f"Page {page} - Value {k}.{r + 1}.{c + 1}", False)
                                for r in range(rows) for c in range(cols)]
    assert [round(t.regions[0].bbox.y1, 4) for t in doc.tables] == [0.1835, 0.2982, 0.1279, 0.2424]


# -- sniffing, the command line, scoring ---------------------------------------------------


def test_the_sniffer_claims_textract_responses_and_nothing_else():
    for path in sorted(CORPUS.joinpath("exports", "textract").glob("*.json")) or [_sample("x.json")]:
        assert registry.detect(path, path.read_bytes()[:65536]) is TEXTRACT, path
    for case in sorted((CASES / "textract").iterdir()):
        data = (case / "input.json").read_bytes()
        assert registry.detect(case / "input.json", data[:65536]) is TEXTRACT, case
    others = [p for p in sorted(CORPUS.joinpath("exports").rglob("*")) if p.is_file() and "textract" not in p.parts]
    for path in others:
        assert not textract.sniff(path.read_bytes()[:65536]), path
    canonical = json.dumps({"format": "convertables", "version": 1, "tables": [{"id": 0, "regions": [{
        "id": 0, "page": 1, "cells": [{"start_row": 0, "start_col": 0, "end_row": 0, "end_col": 0,
                                       "content": '{"Blocks": [{"BlockType": "PAGE", "DocumentMetadata": {"Pages": 1}'}]}]}]})
    assert not textract.sniff(canonical.encode())
    assert not textract.sniff(b'"Blocks": [{"BlockType": "PAGE"}]')  # not JSON that starts an object or a list
    assert textract.sniff(b'\xef\xbb\xbf[{"Blocks": [{"BlockType": "PAGE"')


@pytest.mark.parametrize("name", ["test_table_merged_text.json", "tables_with_merged_cells_sample1.json",
                                  "in-table-title.json", "gib_multi_page_tables.json"])
def test_the_cli_converts_each_sample_to_icdar_and_json_without_from(name: str, tmp_path: Path):
    sample = _sample(name)
    expected, _ = _read_sample(name)
    xml = tmp_path / "out-str.xml"
    result = runner.invoke(app, ["convert", str(sample), "--to", "icdar", "-o", str(xml)])
    assert result.exit_code == 0, result.output
    back = read(xml)
    assert [t.page for t in back.tables] == [t.page for t in expected.tables]
    for got, want in zip(back.tables, expected.tables):  # ICDAR 2013 has no header flags nor blank cells
        assert [cell[:5] for cell in _grid(got)] == [cell[:5] for cell in _grid(want) if cell[4]]
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["convert", str(sample), "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["format"] == "convertables" and data["metadata"] == expected.metadata
    assert [_grid(t) for t in read(out).tables] == [_grid(t) for t in expected.tables]


def test_boxes_convert_to_points_given_the_page_size(tmp_path: Path):
    out = tmp_path / "out-str.xml"
    result = runner.invoke(app, ["convert", str(_sample("test_table_merged_text.json")), "--to", "icdar",
                                 "-o", str(out), "--page-width", "612", "--page-height", "792"])
    assert result.exit_code == 0, result.output
    region = read(out).tables[0].regions[0]
    left, top, width, height = 0.0394335575401783, 0.16680370271205902, 0.7570760846138, 0.28750717639923096
    assert region.bbox.frame is Frame.PDF
    assert region.bbox[:4] == pytest.approx((left * 612, 792 * (1 - top - height), (left + width) * 612,
                                             792 * (1 - top)), abs=0.01)


def test_a_folder_of_responses_is_scored_directly(tmp_path: Path):
    results, gt = tmp_path / "textract", tmp_path / "gt"
    results.mkdir(), gt.mkdir()
    for name in ("tables_with_merged_cells_sample1.json", "gib_multi_page_tables.json"):
        shutil.copy(_sample(name), results / name)
        stem = name.removesuffix(".json")
        converted = runner.invoke(app, ["convert", str(_sample(name)), "--to", "icdar", "-o", str(gt / f"{stem}-str.xml")])
        assert converted.exit_code == 0, converted.output
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(results), "--format", "json", "-j", "1"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout[result.stdout.index("{"):])
    assert report["total"]["documents"] == 2 and report["total"]["gt"] > 100
    assert report["total"]["precision"] == report["total"]["recall"] == 1.0
    assert report["unpaired"] == {"gt": [], "result": []}


def test_formats_lists_textract_as_read_only():
    result = runner.invoke(app, ["formats", "--format", "json"])
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["textract"]["read"] and not rows["textract"]["write"]


# -- hostile input -------------------------------------------------------------------------


def test_a_response_over_the_size_limit_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr("convertables.jsonsafe.MAX_JSON_BYTES", 1000)
    error = _refused({"DocumentMetadata": {"Pages": 1}, "Blocks": [{"BlockType": "WORD", "Text": "x" * 2000}]})
    assert error.diagnostic.code == "too-large"


@pytest.mark.parametrize("value, code", [
    (b"[" * 200_000 + b"]" * 200_000, "too-deep"),
    (b'{"Blocks": [{"Geometry": ' + b"{\"a\": " * 50_000 + b"1" + b"}" * 50_000 + b"}]}", "too-deep"),
    (b"", "json-empty"),
    (b'{"Blocks": [', "json-syntax"),
    (b'{"Blocks": [{"BlockType": "PAGE", "Geometry": NaN}]}', "json-syntax"),
    ([], "textract-structure"),
    ("Blocks", "textract-structure"),
    ([{"Blocks": []}, 3], "textract-structure"),
    ({"DocumentMetadata": {"Pages": 1}}, "textract-structure"),
    ({"Blocks": {"0": {"BlockType": "TABLE"}}}, "textract-structure"),
    ({"JobStatus": "IN_PROGRESS"}, "textract-job"),
    ({"JobStatus": "FAILED", "StatusMessage": "Request has unsupported document format"}, "textract-job"),
])
def test_what_cannot_be_read_is_refused_with_a_code(value, code):
    error = _refused(value)
    assert error.diagnostic.code == code
    assert error.diagnostic.file == "t.json"


def test_a_partial_success_is_read_with_a_warning():
    doc, diagnostics = _read({"JobStatus": "PARTIAL_SUCCESS", "Blocks": []})
    assert doc.tables == [] and "textract-job" in _warned(diagnostics)


def _table(cells: list[dict], merged: list[dict] = ()) -> dict:
    words = [{"BlockType": "WORD", "Id": f"w{k}", "Text": f"t{k}"} for k in range(len(cells))]
    for k, cell in enumerate(cells):
        cell.setdefault("BlockType", "CELL")
        cell.setdefault("Id", f"c{k}")
        cell.setdefault("Relationships", [{"Type": "CHILD", "Ids": [f"w{k}"]}])
    for k, block in enumerate(merged):
        block.setdefault("BlockType", "MERGED_CELL")
        block.setdefault("Id", f"m{k}")
    table = {"BlockType": "TABLE", "Id": "t", "Relationships": [
        {"Type": "CHILD", "Ids": [c["Id"] for c in cells]}, {"Type": "MERGED_CELL", "Ids": [m["Id"] for m in merged]}]}
    return {"Blocks": [table, *cells, *merged, *words]}


@pytest.mark.slow
def test_thousands_of_bad_cells_give_one_warning_a_kind():
    cells = [{"RowIndex": str(r + 1), "ColumnIndex": 1} for r in range(20_000)]
    cells += [{"RowIndex": 1, "ColumnIndex": 1, "Geometry": {"BoundingBox": {"Left": "0"}}}]
    doc, diagnostics = _read(_table(cells))
    assert _grid(doc.tables[0]) == [(0, 0, 0, 0, "t20000", False)]
    warnings = [d for d in diagnostics if d.code == "textract-bad-value"]
    assert len(warnings) == 2
    assert "20000 times; first: RowIndex='1' in CELL 'c0'" in warnings[0].message


def test_huge_indices_and_spans_are_refused_or_checked_in_bounded_time():
    cells = [{"RowIndex": 10**10, "ColumnIndex": 1}, {"RowIndex": 1, "ColumnIndex": 1, "RowSpan": 10**9},
             {"RowIndex": 2, "ColumnIndex": 1}]
    merged = [{"RowIndex": 1, "ColumnIndex": 1, "RowSpan": 10**9, "ColumnSpan": 10**9,
               "Relationships": [{"Type": "CHILD", "Ids": ["c2"]}]} for _ in range(2000)]
    for k, block in enumerate(merged):
        block["Id"] = f"m{k}"
    started = time.monotonic()
    doc, diagnostics = _read(_table(cells, merged))
    assert time.monotonic() - started < 5
    assert "textract-bad-value" in _warned(diagnostics)  # the 10**10 row
    assert "slot-overlap" in _warned(diagnostics)  # the grid check: merged cells over one another


@pytest.mark.slow
def test_relationship_cycles_and_missing_blocks_end_with_warnings():
    # every cell the child of the next, the last of the table, the table of itself, a merged cell of itself
    n = 5000
    cells = [{"RowIndex": 1, "ColumnIndex": k + 1, "Relationships": [{"Type": "CHILD", "Ids": [f"c{(k + 1) % n}", f"w{k}"]}]}
             for k in range(n)]
    cells[-1]["Relationships"][0]["Ids"].append("t")
    merged = [{"RowIndex": 1, "ColumnIndex": 1, "ColumnSpan": 2,
               "Relationships": [{"Type": "CHILD", "Ids": ["m0", "c0", "c1", "nowhere"]}]}]
    data = _table(cells, merged)
    data["Blocks"][0]["Relationships"].append({"Type": "CHILD", "Ids": ["t", "gone", None, ["c0"]]})
    started = time.monotonic()
    doc, diagnostics = _read(data)
    assert time.monotonic() - started < 5
    assert {"textract-relationship", "textract-missing-block"} <= _warned(diagnostics)
    grid = _grid(doc.tables[0])
    assert grid[0] == (0, 0, 0, 1, "t0 t1", False) and len(grid) == n - 1
    assert grid[-1] == (0, n - 1, 0, n - 1, f"t{n - 1}", False)


def test_blocks_without_ids_or_of_the_wrong_type_are_left_out():
    data = {"Blocks": [
        {"BlockType": "TABLE", "Relationships": [{"Type": "CHILD", "Ids": ["c"]}], "Page": "2"},  # no Id: still read
        {"BlockType": "CELL", "Id": "c", "RowIndex": 1, "ColumnIndex": 1, "EntityTypes": "COLUMN_HEADER",
         "Relationships": [{"Type": "CHILD", "Ids": ["w", "w2"]}]},
        {"BlockType": "WORD", "Id": "w", "Text": 12}, {"BlockType": "WORD", "Id": "w2", "Text": "ok"},
        {"BlockType": "CELL", "Id": 5, "RowIndex": 2, "ColumnIndex": 1},
        None, [], "TABLE",
        {"BlockType": "TABLE", "Id": "t2", "Relationships": "CHILD", "Geometry": {"BoundingBox": [0, 0, 1, 1]}},
    ]}
    doc, diagnostics = _read(data)
    assert [(t.page, _grid(t)) for t in doc.tables] == [(1, [(0, 0, 0, 0, "ok", False)]), (1, [])]
    assert _warned(diagnostics) == {"textract-bad-value"}
    assert all(len(d.message) < 300 for d in diagnostics)


def test_merged_cells_over_one_another_take_each_cell_once():
    cells = [{"RowIndex": 1, "ColumnIndex": 1}, {"RowIndex": 1, "ColumnIndex": 2}, {"RowIndex": 2, "ColumnIndex": 1},
             {"RowIndex": 2, "ColumnIndex": 2}]
    merged = [{"RowIndex": 1, "ColumnIndex": 1, "ColumnSpan": 2, "Relationships": [{"Type": "CHILD", "Ids": ["c0", "c1"]}]},
              {"RowIndex": 1, "ColumnIndex": 1, "RowSpan": 2, "Relationships": [{"Type": "CHILD", "Ids": ["c0", "c2"]}]},
              {"RowIndex": 2, "ColumnIndex": 1, "ColumnSpan": 2}]  # no children: takes what starts inside its span
    doc, diagnostics = _read(_table(cells, merged))
    assert _grid(doc.tables[0]) == [(0, 0, 0, 1, "t0 t1", False), (0, 0, 1, 0, "t2", False),
                                    (1, 0, 1, 1, "t3", False)]
    assert "slot-overlap" in _warned(diagnostics)
