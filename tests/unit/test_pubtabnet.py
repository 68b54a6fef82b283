"""PubTabNet and FinTabNet JSONL: every real sample record read, the writer,
and the file as a container of documents (convert, score, check), each record
read alone."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import BBox, Cell, Document, Frame, InputError, Region, Table, containers, read, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.files import dumps
from convertables.formats import pubtabnet
from tests.conftest import ROOT, corpus_path

SAMPLE = ROOT / "samples" / "pubtabnet" / "sample.jsonl"
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def documents(path: Path) -> dict[str, Document]:
    return dict(containers.read_documents(path))


# -- the real samples, record by record ---------------------------------------------------------

# name: cells, rows, columns, header cells, cells with markup, empty cells,
# spanning cells (row, column, rows spanned, columns spanned), the first cell's text.
# Counted by hand from each record's tokens (the spans: 34 span tokens in the file, no
# cell with both): e.g. PMC4840965_004_00 is 28 rows of 4 cells, its header row's four
# cells all in <b>; PMC4003957_018_00 opens with a <thead> of one cell over 4 columns.
PUBTABNET = [
    ("PMC4840965_004_00", 112, 28, 4, 4, 4, 43, [], "Variable"),
    ("PMC4517499_004_00", 28, 4, 7, 7, 7, 0, [], "Type of delay"),
    ("PMC4776821_005_00", 25, 5, 5, 5, 5, 0, [], "Prior Experience"),
    ("PMC1626454_002_00", 100, 9, 12, 16, 13, 3, [(0, 1, 1, 5), (0, 6, 1, 5)], ""),
    ("PMC2838834_005_00", 248, 36, 7, 17, 10, 71, [(0, 2, 1, 2), (0, 4, 1, 3), (1, 4, 1, 2)],
     "Main cellular process"),
    ("PMC5897438_004_00", 22, 11, 2, 2, 2, 0, [], "Primer name"),
    ("PMC3907710_006_00", 20, 4, 5, 5, 5, 0, [], "Number"),
    ("PMC3519711_003_00", 44, 11, 4, 4, 14, 0, [], " "),
    ("PMC5198506_004_00", 17, 7, 3, 3, 5, 0, [(1, 0, 1, 3), (4, 0, 1, 3)], "NC"),
    ("PMC5679144_002_01", 22, 11, 2, 2, 2, 0, [], "Clinical presentation and physical signs"),
    ("PMC5134617_013_00", 72, 9, 8, 8, 8, 0, [], "Date"),
    ("PMC2753619_002_00", 12, 2, 6, 6, 6, 0, [], "Trait"),
    ("PMC3826085_003_00", 90, 18, 5, 5, 4, 1, [], ""),
    ("PMC5577841_001_00", 18, 5, 4, 4, 4, 0, [(1, 3, 2, 1), (3, 3, 2, 1)], "Bird ID"),
    ("PMC2759935_007_01", 122, 14, 9, 14, 118, 4, [(0, 4, 1, 5)], "Subnetwork"),
    ("PMC4003957_018_00", 69, 21, 4, 1, 4, 0, [(0, 0, 1, 4), (1, 0, 1, 4), (2, 0, 1, 4), (7, 0, 1, 4),
                                              (17, 0, 1, 4)], "Exercise plan"),
    ("PMC4682394_003_00", 99, 13, 8, 11, 9, 2, [(1, 2, 1, 6)], "Presenting complaints"),
    ("PMC4172848_007_00", 121, 18, 7, 9, 28, 25, [(0, 0, 2, 1), (0, 1, 1, 3), (0, 4, 1, 3)], ""),
    ("PMC5332562_005_00", 97, 31, 4, 4, 4, 0, [(1, 0, 1, 4), (2, 0, 3, 1), (5, 0, 3, 1), (8, 0, 3, 1),
                                               (11, 0, 1, 4), (12, 0, 3, 1), (15, 0, 3, 1), (18, 0, 3, 1),
                                               (21, 0, 1, 4), (22, 0, 3, 1), (25, 0, 3, 1), (28, 0, 3, 1)],
     "poverty metric"),
    ("PMC5402779_004_00", 42, 9, 5, 7, 7, 0, [(0, 0, 2, 1), (0, 1, 1, 2), (0, 3, 1, 2)], "Variable"),
]
FINTABNET = [
    ("55224", 16, 4, 4, 0, 1, 2, [], ""),
    ("55081", 33, 11, 3, 0, 0, 7, [], ""),
    ("82593", 15, 5, 3, 0, 0, 0, [], "Year Ended December 31, 2012"),
    ("82491", 130, 22, 6, 0, 0, 26, [(0, 4, 2, 1), (0, 5, 2, 1)], "(In thousands, except per share amounts)"),
]


def _summary(doc: Document) -> tuple:
    (table,) = doc.tables
    cells = table.cells()
    return (len(cells), max(c.end_row for c in cells) + 1, max(c.end_col for c in cells) + 1,
            sum(c.header for c in cells), sum(c.markup is not None for c in cells), sum(c.content == "" for c in cells),
            [(c.start_row, c.start_col, c.row_span, c.col_span) for c in cells if c.row_span > 1 or c.col_span > 1],
            cells[0].content)


@pytest.fixture(scope="module")
def pubtabnet_docs() -> dict[str, Document]:
    return documents(corpus_path("pubtabnet", "PubTabNet_Examples.jsonl"))


@pytest.fixture(scope="module")
def fintabnet_docs() -> dict[str, Document]:
    return documents(corpus_path("fintabnet", "FinTabNet_1.0.0_table_val.jsonl"))


def test_the_pubtabnet_samples_are_twenty_documents_in_file_order(pubtabnet_docs):
    assert list(pubtabnet_docs) == [row[0] for row in PUBTABNET]


@pytest.mark.parametrize("row", PUBTABNET, ids=[r[0] for r in PUBTABNET])
def test_every_pubtabnet_sample_record(row, pubtabnet_docs):
    name, *expected = row
    doc = pubtabnet_docs[name]
    assert _summary(doc) == tuple(expected)
    assert doc.filename == f"{name}.png" and doc.metadata["pubtabnet_split"] == "train"
    cells = doc.tables[0].cells()
    # boxes in pixels of the table's image, on the cells with text only
    assert all(c.bbox is None or c.bbox.frame is Frame.IMAGE for c in cells)
    assert all(c.bbox is None for c in cells if c.content == "")
    # the skeleton is the record's, one opening a cell
    skeleton = doc.tables[0].html_structure
    assert skeleton[0] == "<thead>" and skeleton.count("<td>") + skeleton.count("<td") == len(cells)


def test_pubtabnet_cells_in_detail(pubtabnet_docs):
    first = pubtabnet_docs["PMC4840965_004_00"].tables[0].cells()
    assert first[3].content == "p value*" and first[3].header
    assert first[3].markup == ("<b>", "<i>", "p", "</i>", " ", "v", "a", "l", "u", "e", "*", "</b>")
    assert (first[3].bbox.x1, first[3].bbox.y1, first[3].bbox.x2, first[3].bbox.y2) == (456, 4, 484, 13)
    assert first[8].content == " ≤69" and first[8].markup is None  # whitespace as given
    assert first[14].content == "0.310–2.268" and not first[14].header
    assert (first[5].content, first[5].bbox) == ("", None)  # an empty cell
    plan = pubtabnet_docs["PMC4003957_018_00"].tables[0].cells()
    assert [(c.start_row, c.end_col, c.header) for c in plan[:3]] == [(0, 3, True), (1, 3, False), (2, 3, False)]
    assert plan[2].markup[0] == "<b>" and plan[2].content == "Cardiopulmonary training"
    spans = pubtabnet_docs["PMC5332562_005_00"].tables[0].cells()
    poverty = next(c for c in spans if (c.start_row, c.start_col) == (2, 0))
    assert (poverty.end_row, poverty.end_col) == (4, 0)
    # rows 3 and 4 start after the rowspan: their first cells are in column 1
    assert [c.start_col for c in spans if c.start_row == 3][0] == 1


@pytest.mark.parametrize("row", FINTABNET, ids=[r[0] for r in FINTABNET])
def test_every_fintabnet_sample_record(row, fintabnet_docs):
    name, *expected = row
    doc = fintabnet_docs[name]
    assert _summary(doc) == tuple(expected)
    assert doc.metadata["fintabnet_table_id"] == name and doc.filename.endswith(".pdf")
    assert all(c.bbox is None or c.bbox.frame is Frame.PDF for c in doc.tables[0].cells())
    assert not any(c.header for c in doc.tables[0].cells())  # FinTabNet has no <thead>


def test_fintabnet_is_named_by_table_id_and_boxes_are_pdf_points(fintabnet_docs):
    # two records of the sample name pages of one company's filings: the page file is no table's name
    doc = fintabnet_docs["55224"]
    assert doc.filename == "FDX/2017/page_64.pdf"
    region = doc.tables[0].regions[0]
    assert region.bbox == BBox(50.3946, 516.4759, 302.2046000000001, 569.906, Frame.PDF)
    cells = region.cells
    assert cells[1].content == "2017" and cells[1].bbox == BBox(171.06, 557.51, 188.23, 567.52, Frame.PDF)
    # y grows upwards: the first row lies above the last
    assert cells[1].bbox.y1 > cells[13].bbox.y2
    assert cells[8].content == "Contingent rentals(1)" and cells[8].markup[-5:] == ("<sup>", "(", "1", ")", "</sup>")
    spanning = fintabnet_docs["82491"].tables[0].cells()[4]
    assert spanning.content == " Percentage Change  15 vs. 14" and (spanning.end_row, spanning.end_col) == (1, 4)


# -- writing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("parts", [("pubtabnet", "PubTabNet_Examples.jsonl"),
                                   ("fintabnet", "FinTabNet_1.0.0_table_val.jsonl")])
def test_jsonl_to_canonical_json_and_back_gives_the_same_records(parts, tmp_path):
    source = corpus_path(*parts)
    assert invoke("convert", source, "--to", "json", "-o", tmp_path / "json").exit_code == 0
    assert len(list((tmp_path / "json").iterdir())) == len(records(source))
    result = invoke("convert", tmp_path / "json", "--to", "pubtabnet", "-o", tmp_path / "back.jsonl")
    assert result.exit_code == 0, result.output
    by_name = {pubtabnet.record_name(json.dumps(r).encode()): r for r in records(source)}
    back = {pubtabnet.record_name(json.dumps(r).encode()): r for r in records(tmp_path / "back.jsonl")}
    assert back == by_name
    # and straight from container to container, in the file's order
    assert invoke("convert", source, "--to", "pubtabnet", "-o", tmp_path / "direct.jsonl").exit_code == 0
    assert records(tmp_path / "direct.jsonl") == records(source)


def test_the_skeleton_made_from_the_grid_is_pubtabnets_own(pubtabnet_docs, fintabnet_docs):
    """Without the record's own tokens, the writer's from the grid are the same
    (FinTabNet's body in <tbody> rather than <table>)."""
    source = {r["filename"]: r for r in records(corpus_path("pubtabnet", "PubTabNet_Examples.jsonl"))}
    for doc in pubtabnet_docs.values():
        own = source[doc.filename]["html"]
        doc.tables[0].html_structure = None
        written = json.loads(dumps(doc, "pubtabnet"))
        assert written["html"] == {"structure": own["structure"], "cells": own["cells"]}
    for doc in fintabnet_docs.values():
        tokens = list(doc.tables[0].html_structure)
        doc.tables[0].html_structure = None
        written = json.loads(dumps(doc, "pubtabnet"))["html"]["structure"]["tokens"]
        assert written == ["<tbody>", *tokens[1:-1], "</tbody>"]


def test_a_grid_is_written_with_header_rows_in_thead_and_holes_as_empty_cells():
    doc = Document("eu-001.pdf", [Table(0, [Region(0, 1, cells=[
        Cell(0, 0, 0, 1, "Country", header=True), Cell(0, 2, 0, 2, "Year", header=True),
        Cell(1, 0, 2, 0, "Austria", bbox=BBox(10, 700, 40, 712, Frame.PDF)), Cell(1, 2, 1, 2, "8.9"),
        Cell(2, 1, 2, 1, "x"),
    ])])])
    diagnostics = Diagnostics("eu-001.jsonl")
    (record,) = [json.loads(line) for line in pubtabnet.write(doc, diagnostics).splitlines()]
    assert record["filename"] == "eu-001.pdf"
    assert record["html"]["structure"]["tokens"] == [
        "<thead>", "<tr>", "<td", ' colspan="2"', ">", "</td>", "<td>", "</td>", "</tr>", "</thead>",
        "<tbody>", "<tr>", "<td", ' rowspan="2"', ">", "</td>", "<td>", "</td>", "<td>", "</td>", "</tr>",
        "<tr>", "<td>", "</td>", "<td>", "</td>", "</tr>", "</tbody>"]
    assert [c["tokens"] for c in record["html"]["cells"]] == [
        list("Country"), list("Year"), list("Austria"), [], list("8.9"), list("x"), []]
    # a PDF box has no place in a PubTabNet record (pixels of the table's image): left out, and said
    assert "bbox" not in record["html"]["cells"][2] and "frame-foreign" in diagnostics.codes()
    back = pubtabnet.read(json.dumps(record).encode(), Diagnostics())
    assert [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in back.tables[0].cells()] == [
        (0, 0, 0, 1, "Country", True), (0, 2, 0, 2, "Year", True), (1, 0, 2, 0, "Austria", False),
        (1, 1, 1, 1, "", False), (1, 2, 1, 2, "8.9", False), (2, 1, 2, 1, "x", False), (2, 2, 2, 2, "", False)]


def test_boxes_in_points_are_written_as_pixels_where_the_dpi_and_page_height_say_how():
    doc = Document("p.pdf", [Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "A", bbox=BBox(72, 700, 144, 720))])])])
    from convertables import WriteOptions

    data = dumps(doc, "pubtabnet", WriteOptions(dpi=144, page_height=792))
    assert json.loads(data)["html"]["cells"][0]["bbox"] == [144, 144, 288, 184]


def test_a_document_of_several_tables_writes_a_line_a_table_named_by_page_and_table():
    def table(i: int, page: int) -> Table:
        return Table(i, [Region(0, page, cells=[Cell(0, 0, 0, 0, f"t{i}")])])

    doc = Document("us-012.pdf", [table(0, 1), table(1, 1), table(2, 3)])
    lines = pubtabnet.write(doc, Diagnostics()).decode().splitlines()
    assert [json.loads(line)["filename"] for line in lines] == [
        "us-012-page-1-table-1.pdf", "us-012-page-1-table-2.pdf", "us-012-page-3-table-1.pdf"]
    assert [pubtabnet.record_name(line.encode()) for line in lines] == [
        "us-012-page-1-table-1", "us-012-page-1-table-2", "us-012-page-3-table-1"]
    # (the names --join reads: each a document's table on its page)
    from convertables.joining import per_table_name

    assert per_table_name(Path("us-012-page-3-table-1.jsonl")).page == 3
    empty = Diagnostics()
    assert pubtabnet.write(Document("none.pdf"), empty) == b"" and empty.codes() == ["pubtabnet-no-table"]


def test_an_edited_grid_no_longer_takes_the_records_own_skeleton():
    doc = read(ROOT / "tests" / "cases" / "pubtabnet" / "thead-spans-inline-tags" / "input.jsonl")
    own = json.loads(dumps(doc, "pubtabnet"))["html"]["structure"]["tokens"]
    assert own == list(doc.tables[0].html_structure)
    doc.tables[0].cells()[1].header = False  # no longer the <thead> the tokens say
    made = json.loads(dumps(doc, "pubtabnet"))["html"]["structure"]["tokens"]
    assert made != own and made[:2] == ["<tbody>", "<tr>"]


# -- sniffing and names --------------------------------------------------------------------------

def test_pubtabnet_and_fintabnet_are_sniffed_from_content(tmp_path):
    line = SAMPLE.read_bytes().splitlines()[0]
    assert registry.sniffed(line) is registry.get("pubtabnet")
    other = tmp_path / "tables.txt"
    other.write_bytes(SAMPLE.read_bytes())
    assert registry.detect(other, other.read_bytes()).name == "pubtabnet"
    fin = b'{"table_id": 1, "filename": "A/page_1.pdf", "html": {"structure": {"tokens": []}, "cells": []}}'
    assert registry.sniffed(fin).name == "pubtabnet"
    # a record pretty-printed over lines, canonical JSON, a docling document: not PubTabNet
    assert registry.sniffed(json.dumps(json.loads(line), indent=1).encode()) is not registry.get("pubtabnet")
    canonical = (ROOT / "samples" / "json").iterdir().__next__().read_bytes()
    assert registry.sniffed(canonical).name == "json"


@pytest.mark.parametrize("filename, name", [
    ("PMC4840965_004_00.png", "PMC4840965_004_00"),
    ("folder/sub/x.y.png", "x.y"),
    ("../../etc/passwd.png", "passwd"),
    ("C:\\\\data\\\\t.png", "t"),
    ("..", None),
    ("bad\\u0000name.png", None),
    ("", None),
])
def test_a_record_is_named_by_its_file_name_never_a_path(filename, name):
    line = ('{"filename": "' + filename + '", "html": {}}').encode()
    assert pubtabnet.record_name(line) == name


def test_fintabnet_records_are_named_by_table_id_wherever_the_key_is():
    assert pubtabnet.record_name(b'{"filename": "A/page_1.pdf", "html": {}, "table_id": 77}') == "77"
    # text inside a record never looks like a key: its quotes are escaped
    tricky = json.dumps({"filename": "t.png", "html": {"cells": [{"tokens": ['"table_id": 5']}]}}).encode()
    assert pubtabnet.record_name(tricky) == "t"


# -- the container -------------------------------------------------------------------------------

def test_reading_a_file_of_several_records_as_one_document_is_refused():
    with pytest.raises(InputError) as error:
        read(SAMPLE)
    assert error.value.diagnostic.code == "many-documents" and "3 records" in error.value.diagnostic.message
    names = [name for name, _ in containers.read_documents(SAMPLE)]
    assert names == ["sample_001_00", "sample_002_00", "sample_003_01"]


def test_the_index_holds_names_and_offsets_and_a_record_is_read_alone(tmp_path):
    """A container is indexed by name -> (offset, length), never parsed whole:
    a record is read from its own bytes, so another line's fault (even one
    written after indexing) is no business of its."""
    path = tmp_path / "gt.jsonl"
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0] + b"\n" + lines[1] + lines[2])  # (a blank line is no record)
    refs = containers.index(path, registry.get("pubtabnet"))
    assert [(r.name, r.line) for r in refs] == [("sample_001_00", 1), ("sample_002_00", 3), ("sample_003_01", 4)]
    assert [r.offset for r in refs] == [0, len(lines[0]) + 1, len(lines[0]) + 1 + len(lines[1])]
    assert all(isinstance(v, (int, str, Path)) for r in refs for v in (r.offset, r.length, r.name, r.container))
    # the second record spoilt in place, byte for byte the same length: the others still read
    spoilt = bytearray(path.read_bytes())
    spoilt[refs[1].offset + 1] = ord("!")
    path.write_bytes(bytes(spoilt))
    assert containers.read_member(refs[0]).tables[0].cells()[1].content == "Growth"
    assert containers.read_member(refs[2]).tables[0].cells()[5].content == "f"
    with pytest.raises(InputError) as error:
        containers.read_member(refs[1])
    assert (error.value.diagnostic.code, error.value.diagnostic.line) == ("json-syntax", 3)
    assert error.value.diagnostic.file == str(path)
    # a reference is small and goes to a worker process as it is
    assert pickle.loads(pickle.dumps(refs[2])) == refs[2] and str(refs[2]) == f"{path}#sample_003_01"


def test_a_line_longer_than_any_record_is_passed_over_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(containers, "MAX_MEMBER_BYTES", 100)
    path = tmp_path / "long.jsonl"
    long_line = b'{"filename": "long.png", "html": {"cells": [' + b'{"tokens": []}, ' * 50 + b"]}}\n"
    path.write_bytes(long_line + SAMPLE.read_bytes().splitlines(keepends=True)[1])
    refs = containers.index(path, registry.get("pubtabnet"))
    assert [(r.name, r.length, r.line) for r in refs] == [("long", len(long_line), 1),
                                                          ("sample_002_00", refs[1].length, 2)]
    with pytest.raises(InputError) as error:
        containers.read_member(refs[0])
    assert error.value.diagnostic.code == "too-large"


def test_convert_writes_a_document_each_named_by_its_record(tmp_path):
    result = invoke("convert", SAMPLE, "--to", "html", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "sample_001_00.html", "sample_002_00.html", "sample_003_01.html"]
    assert read(tmp_path / "out" / "sample_002_00.html").tables[0].cells()[2].content == "alpha"
    # several documents into one file of another format, or to the screen: refused, saying how
    for output in (tmp_path / "all.json", "-"):
        refused = invoke("convert", SAMPLE, "--to", "json", "-o", output)
        assert refused.exit_code == 2 and "--to pubtabnet" in refused.output
    streamed = invoke("convert", SAMPLE, "--to", "pubtabnet")
    assert streamed.exit_code == 0 and streamed.stdout.splitlines() == SAMPLE.read_text().splitlines()


def test_several_files_convert_into_one_jsonl_put_in_place_whole(tmp_path):
    assert invoke("convert", SAMPLE, "--to", "json", "-o", tmp_path / "json").exit_code == 0
    (tmp_path / "json" / "sample_002_00.json").write_text("{")  # one document that cannot be read
    out = tmp_path / "all.jsonl"
    result = invoke("convert", tmp_path / "json", "--to", "pubtabnet", "-o", out)
    assert result.exit_code == 1 and "sample_002_00.json" in result.output
    assert [r["filename"] for r in records(out)] == ["sample_001_00.png", "sample_003_01.png"]
    again = invoke("convert", tmp_path / "json", "--to", "pubtabnet", "-o", out)
    assert again.exit_code == 1 and "output-exists" in again.output
    assert [r["filename"] for r in records(out)] == ["sample_001_00.png", "sample_003_01.png"]
    onto_input = invoke("convert", out, tmp_path / "json", "--to", "pubtabnet", "-o", out, "--force")
    assert onto_input.exit_code == 1 and "output-is-input" in onto_input.output
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_a_bad_record_fails_its_document_only(tmp_path):
    path = tmp_path / "mixed.jsonl"
    lines = SAMPLE.read_text().splitlines()
    path.write_text("\n".join([lines[0], '{"filename": "broken.png", "html": {"cells": [', lines[2]]) + "\n")
    result = invoke("convert", path, "--to", "json", "-o", tmp_path / "out")
    assert result.exit_code == 1
    assert f"{path}:2:" in result.output and "json-syntax" in result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["sample_001_00.json", "sample_003_01.json"]
    checked = invoke("check", path, "--format", "json")
    findings = json.loads(checked.stdout)["findings"]
    assert checked.exit_code == 1
    assert [(f["code"], f["line"]) for f in findings if f["severity"] == "error"] == [("json-syntax", 2)]


def test_check_reads_each_record_and_reports_its_line(tmp_path):
    path = tmp_path / "gt.jsonl"
    record = json.loads(SAMPLE.read_text().splitlines()[2])
    record["html"]["cells"][0]["bbox"] = [9, 9, 1, 1]
    path.write_text(SAMPLE.read_text() + json.dumps(record).replace("sample_003_01", "sample_004_00") + "\n")
    result = invoke("check", path, "--format", "json")
    found = [(f["code"], f["line"]) for f in json.loads(result.stdout)["findings"]]
    assert ("box-inverted", 4) in found and ("empty-content", 1) in found
    assert result.exit_code == 0


# -- scoring -------------------------------------------------------------------------------------

def _score(gt, result, *more) -> dict:
    outcome = invoke("score", "--gt", gt, "--result", result, "--metric", "structure", "--format", "json", *more)
    return {"exit": outcome.exit_code, **json.loads(outcome.stdout)}


def test_ground_truth_scored_against_itself_is_one_for_every_document():
    report = _score(SAMPLE, SAMPLE)
    assert report["exit"] == 0 and len(report["documents"]) == 3
    assert all(d["f1"] == 1.0 and d["result_file"] == f"{SAMPLE}#{d['document']}" for d in report["documents"])


def test_real_pubtabnet_ground_truth_against_itself():
    gt = corpus_path("pubtabnet", "PubTabNet_Examples.jsonl")
    report = _score(gt, gt)
    assert [d["document"] for d in report["documents"]] == [row[0] for row in PUBTABNET]
    assert all(d["f1"] == 1.0 for d in report["documents"]) and report["errors"] == []


def test_a_record_missing_from_the_results_is_reported_missing(tmp_path):
    results = tmp_path / "results.jsonl"
    lines = SAMPLE.read_text().splitlines()
    results.write_text(lines[2] + "\n" + lines[0] + "\n")  # another order, one record left out
    report = _score(SAMPLE, results)
    by_name = {d["document"]: d for d in report["documents"]}
    assert report["unpaired"] == {"gt": [f"{SAMPLE}#sample_002_00"], "result": []}
    assert by_name["sample_002_00"]["result_file"] is None and by_name["sample_002_00"]["recall"] == 0.0
    assert by_name["sample_001_00"]["f1"] == 1.0 and by_name["sample_003_01"]["f1"] == 1.0


def test_results_in_a_folder_pair_with_a_jsonl_ground_truth_and_back(tmp_path):
    assert invoke("convert", SAMPLE, "--to", "html", "-o", tmp_path / "html").exit_code == 0
    (tmp_path / "html" / "sample_003_01.html").unlink()
    report = _score(SAMPLE, tmp_path / "html")
    assert [(d["document"], d["f1"]) for d in report["documents"]] == [
        ("sample_001_00", 1.0), ("sample_002_00", 1.0), ("sample_003_01", 0.0)]
    assert report["unpaired"]["gt"] == [f"{SAMPLE}#sample_003_01"]
    back = _score(tmp_path / "html", SAMPLE)
    assert [d["f1"] for d in back["documents"]] == [1.0, 1.0]
    assert back["unpaired"]["result"] == [f"{SAMPLE}#sample_003_01"]


def test_nothing_paired_across_containers_says_the_names(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text(SAMPLE.read_text().replace("sample_", "other_"))
    report = _score(SAMPLE, results)
    (error,) = report["errors"]
    assert report["exit"] == 1 and "nothing-paired" in error
    assert "other_001_00" in error and "sample_001_00" in error


def test_an_unreadable_result_record_fails_its_document_only(tmp_path):
    results = tmp_path / "results.jsonl"
    lines = SAMPLE.read_text().splitlines()
    results.write_text("\n".join([lines[0], lines[1][:40], lines[2]]) + "\n")
    report = _score(SAMPLE, results)
    assert [d["f1"] for d in report["documents"]] == [1.0, 0.0, 1.0]
    (error,) = report["errors"]
    assert f"{results}:2:" in error and "json-syntax" in error


def test_documents_of_containers_are_scored_in_worker_processes():
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    from convertables.scoring import ScoreSettings
    from convertables.scoring.pairing import pair
    from convertables.scoring.runner import score_pair

    refs = containers.expand([SAMPLE])
    pairing = pair(refs, refs)
    with ProcessPoolExecutor(max_workers=2) as pool:
        scored = list(pool.map(partial(score_pair, settings=ScoreSettings("structure")), pairing.pairs))
    assert [(r.record["document"], r.record["f1"]) for r in scored] == [
        ("sample_001_00", 1.0), ("sample_002_00", 1.0), ("sample_003_01", 1.0)]


# -- PubTabNet's TEDS JSON: {file name: HTML} --------------------------------------------------------

PREDICTIONS = {
    "sample_001_00.png": '<html><body><table><thead><tr><td rowspan="2">Strain</td><td colspan="2"><b>Growth</b>'
                         "</td></tr><tr><td>25 °C</td><td>37 °C</td></tr></thead><tbody><tr><td><i>E. coli</i></td>"
                         "<td>+</td><td>++</td></tr><tr><td>WT</td><td></td><td>10<sup>3</sup></td></tr></tbody>"
                         "</table></body></html>",
    'odd "name" {1}.png': '<table><tr><td>a "quoted" {brace} \\ back</td></tr></table>',
    "sample_003_01.png": "<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td><td>f</td></tr>"
                         "</table>",
}


def _predictions(tmp_path: Path, value=PREDICTIONS, indent=None) -> Path:
    path = tmp_path / "pred.json"
    path.write_text(json.dumps(value, ensure_ascii=False, indent=indent), encoding="utf-8")
    return path


@pytest.mark.parametrize("indent", [None, 1])
def test_a_teds_json_file_is_a_container_of_html_documents(tmp_path, indent):
    path = _predictions(tmp_path, indent=indent)
    assert registry.detect(path, path.read_bytes()).name == "pubtabnet-html"
    refs = containers.index(path, registry.get("pubtabnet-html"))
    assert [r.name for r in refs] == ["sample_001_00", 'odd "name" {1}', "sample_003_01"]
    assert [r.line for r in refs] == ([1, 1, 1] if indent is None else [2, 3, 4])
    first = containers.read_member(refs[0])
    assert first.filename == "sample_001_00.png"
    cells = first.tables[0].cells()
    assert [(c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in cells[:4]] == [
        (0, 0, 1, 0, "Strain"), (0, 1, 0, 2, "Growth"), (1, 1, 1, 1, "25 °C"), (1, 2, 1, 2, "37 °C")]
    assert cells[1].markup == ("<b>", *"Growth", "</b>") and cells[-1].markup == ("1", "0", "<sup>", "3", "</sup>")
    odd = containers.read_member(refs[1]).tables[0].cells()[0]
    assert odd.content == 'a "quoted" {brace} \\ back'


def test_the_scan_of_a_teds_json_file_is_the_same_whatever_its_chunks(tmp_path, monkeypatch):
    """The file is scanned a chunk at a time: strings, escapes and keys cut
    anywhere by a chunk's end give the same entries."""
    path = _predictions(tmp_path, indent=1)
    fmt = registry.get("pubtabnet-html")
    whole = containers.index(path, fmt)
    for size in (1, 2, 3, 5, 7, 64):
        monkeypatch.setattr(containers, "_CHUNK", size)
        assert containers.index(path, fmt) == whole, size


def test_teds_ground_truth_objects_and_bad_entries(tmp_path):
    value = {"a.png": {"html": "<table><tr><td>x</td></tr></table>", "other": [1, {"2": "}"}]},
             "b.png": 42, "c.png": "", "d.png": "<table><tr><td>y</td></tr></table>"}
    path = _predictions(tmp_path, value)
    docs, errors = {}, {}
    for ref in containers.index(path, registry.get("pubtabnet-html")):
        try:
            docs[ref.name] = containers.read_member(ref)
        except InputError as exc:
            errors[ref.name] = exc.diagnostic.code
    assert errors == {"b": "pubtabnet-html-invalid"}
    assert docs["a"].tables[0].cells()[0].content == "x" and docs["d"].tables[0].cells()[0].content == "y"
    assert docs["c"].tables == []  # an empty prediction: no table
    with pytest.raises(InputError) as error:
        read(path)
    assert error.value.diagnostic.code == "many-documents"
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"d.png": value["d.png"]}))
    assert read(one).filename == "d.png"


def test_a_teds_json_file_cut_short_fails_its_last_entry_only(tmp_path):
    path = _predictions(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("<td>d</td>")], encoding="utf-8")
    refs = containers.index(path, registry.get("pubtabnet-html"))
    assert [r.name for r in refs] == ["sample_001_00", 'odd "name" {1}', "sample_003_01"]
    assert containers.read_member(refs[0]).tables[0].cells()[0].content == "Strain"
    with pytest.raises(InputError) as error:
        containers.read_member(refs[2])
    assert error.value.diagnostic.code == "json-syntax"


def test_predictions_in_teds_json_score_against_jsonl_ground_truth(tmp_path):
    report = _score(SAMPLE, _predictions(tmp_path))
    assert [(d["document"], d["f1"]) for d in report["documents"]] == [
        ("sample_001_00", 1.0), ("sample_002_00", 0.0), ("sample_003_01", 1.0)]
    assert report["unpaired"] == {"gt": [f"{SAMPLE}#sample_002_00"],
                                  "result": [f"{tmp_path / 'pred.json'}#odd \"name\" {{1}}"]}


def test_a_jsonl_file_of_other_records_beside_the_results_is_no_container(tmp_path):
    """score --records writes JSON Lines: such a file among the results is an
    unpaired result, not a container of unreadable documents."""
    results = tmp_path / "results"
    assert invoke("convert", SAMPLE, "--to", "html", "-o", results).exit_code == 0
    (results / "records.jsonl").write_text('{"document": "x", "f1": 1.0}\n{"document": "y", "f1": 0.5}\n')
    report = _score(SAMPLE, results)
    assert report["exit"] == 0 and report["errors"] == []
    assert [d["f1"] for d in report["documents"]] == [1.0, 1.0, 1.0]
    assert report["unpaired"]["result"] == [str(results / "records.jsonl")]
