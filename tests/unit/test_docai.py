"""Google Document AI (convertables/formats/docai.py): the real sample's cells, the
boxes and pages the cases in tests/cases/docai/ cannot hold, sniffing, the
command line, and hostile input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import ReadOptions, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.formats import docai
from convertables.model import BBox, Document, Frame, Page
from tests.conftest import CASES, CORPUS, corpus_path

runner = CliRunner()
DOCAI = registry.FORMATS["docai"]
SAMPLE = ("exports", "docai", "form_with_tables.json")


def _read(data: bytes, name: str = "t.json") -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics(name)
    return read_document(data, DOCAI, name, ReadOptions(), diagnostics), diagnostics


def _refused(data: bytes) -> InputError:
    with pytest.raises(InputError) as caught:
        _read(data)
    assert caught.value.diagnostic.file == "t.json"
    return caught.value


def _cells(doc: Document) -> list:
    return [(t.page, [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in t.cells()])
            for t in doc.tables]


def _doc(*tables, text: str = "", **page) -> bytes:
    """A Document of one page holding ``tables``, each a list of body rows of cells."""
    page["tables"] = [{"bodyRows": [{"cells": row} for row in rows]} for rows in tables]
    return json.dumps({"mimeType": "application/pdf", "text": text, "pages": [page]}).encode()


def _cell(start: int | str | None, end: int | str | None, **fields) -> dict:
    segment = {k: v for k, v in (("startIndex", start), ("endIndex", end)) if v is not None}
    return {"layout": {"textAnchor": {"textSegments": [segment]}}, "rowSpan": 1, "colSpan": 1, **fields}


# -- the real sample: googleapis/python-documentai-toolbox's form_with_tables.json -----------

# Read from its JSON by hand: one page of 1758 x 2275 pixels; one table, a header row and three
# body rows of two cells each, every span 1; the texts are the segments' slices of the document's
# text ("Item\n" is [93, 98)) without their final line break; boxes from normalizedVertices.
SAMPLE_CELLS = [
    (0, 0, 0, 0, "Item", True), (0, 1, 0, 1, "Description", True),
    (1, 0, 1, 0, "Item 1", False), (1, 1, 1, 1, "Description 1", False),
    (2, 0, 2, 0, "Item 2", False), (2, 1, 2, 1, "Description 2", False),
    (3, 0, 3, 0, "Item 3", False), (3, 1, 3, 1, "Description 3", False),
]
SAMPLE_ROWS_Y = [0.6386813, 0.7002198, 0.749011, 0.7969231, 0.84483516]
SAMPLE_COLS_X = [0.03526735, 0.49260524, 0.96302617]


def test_the_sample_reads_as_its_json_says():
    doc, diagnostics = _read(corpus_path(*SAMPLE).read_bytes())
    assert diagnostics.codes() == []
    assert _cells(doc) == [(1, SAMPLE_CELLS)]
    assert doc.pages == [Page(1, 1758.0, 2275.0, Frame.IMAGE)]
    region = doc.tables[0].regions[0]
    assert region.bbox == BBox(0.03526735, 0.6386813, 0.9658703, 0.84615386, Frame.PAGE)
    for cell in region.cells:
        assert cell.bbox == BBox(SAMPLE_COLS_X[cell.start_col], SAMPLE_ROWS_Y[cell.start_row],
                                 SAMPLE_COLS_X[cell.start_col + 1], SAMPLE_ROWS_Y[cell.start_row + 1], Frame.PAGE)


def test_the_sample_converts_to_icdar_and_json_without_from(tmp_path: Path):
    source = corpus_path(*SAMPLE)
    result = runner.invoke(app, ["convert", str(source), "--to", "icdar"])  # to standard output
    assert result.exit_code == 0, result.output
    assert result.stdout.count("<cell ") == 8 and "<content>Description 3</content>" in result.stdout
    xml = tmp_path / "form_with_tables-str.xml"
    result = runner.invoke(app, ["convert", str(source), "--to", "icdar", "-o", str(xml)])
    assert result.exit_code == 0, result.output
    from lxml import etree

    root = etree.parse(str(xml)).getroot()
    got = [(int(c.get("start-row")), int(c.get("start-col")), int(c.get("end-row")), int(c.get("end-col")),
            c.findtext("content")) for c in root.iter("cell")]
    assert got == [cell[:5] for cell in SAMPLE_CELLS]
    assert {r.get("page") for r in root.iter("region")} == {"1"}

    out = tmp_path / "form.json"
    result = runner.invoke(app, ["convert", str(source), "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    cells = written["tables"][0]["regions"][0]["cells"]
    assert [(c["start_row"], c["start_col"], c["end_row"], c["end_col"], c["content"], c["header"])
            for c in cells] == SAMPLE_CELLS
    assert written["pages"] == [{"number": 1, "width": 1758.0, "height": 2275.0, "frame": "image", "dpi": None}]


def test_fractions_of_the_page_convert_to_pdf_points_with_the_page_size(tmp_path: Path):
    xml = tmp_path / "form-str.xml"
    result = runner.invoke(app, ["convert", str(corpus_path(*SAMPLE)), "-o", str(xml), "--page-width", "612",
                                 "--page-height", "792"])
    assert result.exit_code == 0, result.output
    from lxml import etree

    first = next(etree.parse(str(xml)).getroot().iter("cell")).find("bounding-box")
    assert float(first.get("x1")) == pytest.approx(0.03526735 * 612)
    assert float(first.get("y2")) == pytest.approx(792 * (1 - 0.6386813))  # the top, y up


def test_the_sample_is_scored_directly(tmp_path: Path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    cells = "".join(f'<cell start-row="{r}" start-col="{c}"><content>{text}</content></cell>'
                    for r, c, _, _, text, _ in SAMPLE_CELLS)
    (gt / "form_with_tables-str.xml").write_text(f'<?xml version="1.0"?><document filename="form.pdf"><table id="0">'
                                                 f'<region id="0" page="1">{cells}</region></table></document>')
    (res / "form_with_tables.json").write_bytes(corpus_path(*SAMPLE).read_bytes())
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["total"]["gt"] == 10 and report["total"]["f1"] == 1.0


def test_formats_lists_it():
    result = runner.invoke(app, ["formats", "--format", "json"])
    row = next(r for r in json.loads(result.stdout) if r["name"] == "docai")
    assert row["read"] is True and row["write"] is False and row["suffixes"] == [".json"]


# -- sniffing --------------------------------------------------------------------------------

CASE_INPUTS = sorted((CASES / "docai").glob("*/input.json"))


@pytest.mark.parametrize("path", CASE_INPUTS, ids=[p.parent.name for p in CASE_INPUTS])
def test_every_case_is_recognised_from_its_content(path: Path):
    assert registry.detect(Path("x.json"), path.read_bytes()[:65536]) is DOCAI


def test_the_sample_is_recognised():
    assert registry.detect(Path("x.json"), corpus_path(*SAMPLE).read_bytes()[:65536]) is DOCAI


@pytest.mark.parametrize("head", [
    b'{"mimeType": "application/pdf", "text": "' + b"x" * 70000,  # the text fills the head
    b'{\n  "uri": "",\n  "content": "",\n  "mimeType": "application/pdf",\n  "text": "a",\n  "pages": []}',
    b'\xef\xbb\xbf{"document": {"pages": [{"layout": {"textAnchor": {}}}]}}',
    b'{"text": "", "pages": [{"tables": [{"body_rows": [{"cells": [{"layout": {"text_anchor": {}}}]}]}]}]}',
])
def test_document_ai_heads_are_recognised(head: bytes):
    assert docai.sniff(head)


@pytest.mark.parametrize("head", [
    b'{"format": "convertables", "version": 1, "tables": [{"textAnchor": 1}]}',
    b'{"status": "succeeded", "analyzeResult": {"content": "textAnchor"}}',
    b'{"DocumentMetadata": {"Pages": 1}, "Blocks": [{"BlockType": "PAGE"}]}',
    b'{"schema_name": "DoclingDocument", "version": "1.0.0", "texts": []}',
    b'{"responses": [{"fullTextAnnotation": {"pages": [], "text": "x"}}]}',  # Google Vision
    b'{"text": "no anchors here", "pages": []}',
    b'[{"mimeType": "application/pdf", "text": ""}]',
    b'<document><table/></document>',
])
def test_other_heads_are_not(head: bytes):
    assert not docai.sniff(head)


def test_no_other_json_of_the_repository_or_corpus_is_claimed():
    others = [p for p in CASES.rglob("*.json")
              if "docai" not in str(p.relative_to(CASES)) and p.name != "expected.json"]
    assert others
    others += [p for p in (CORPUS / "exports").rglob("*.json") if "docai" not in p.parts]  # (where it is)
    assert [p for p in others if docai.sniff(p.read_bytes()[:65536])] == []


# -- boxes and pages (the cases' other half) --------------------------------------------------

def _case(name: str) -> tuple[Document, Diagnostics]:
    return _read((CASES / "docai" / name / "input.json").read_bytes())


def test_normalized_vertices_with_omitted_zeros_are_fractions_of_the_page():
    doc, _ = _case("normalized-vertices-omitted-zeros")
    region = doc.tables[0].regions[0]
    assert region.bbox == BBox(0.0, 0.0, 1.0, 0.5, Frame.PAGE)
    a, b, c = region.cells
    assert a.bbox == BBox(0.0, 0.0, 0.5, 0.25, Frame.PAGE)  # (its pixel vertices are not used)
    assert b.bbox == BBox(0.5, 0.0, 0.91, 0.26, Frame.PAGE,
                          ((0.5, 0.01), (0.9, 0.0), (0.91, 0.25), (0.51, 0.26)))  # skewed: the polygon kept
    assert c.bbox == BBox(0.0, 0.25, 1.0, 0.5, Frame.PAGE)
    assert doc.pages == [Page(1, 1000.0, 2000.0, Frame.IMAGE)]


def test_vertices_are_pixels_and_pages_come_from_numbers_or_positions():
    doc, _ = _case("vertices-in-pixels-several-pages")
    one, two = doc.tables[0].regions[0].cells
    assert one.bbox == BBox(100.0, 200.0, 800.0, 300.0, Frame.IMAGE)
    assert two.bbox == BBox(800.0, 200.0, 1600.0, 300.0, Frame.IMAGE)
    assert doc.tables[1].regions[0].cells[0].bbox == BBox(0.0, 0.0, 900.0, 150.0, Frame.IMAGE)
    assert doc.tables[2].regions[0].cells[0].bbox is None
    assert [t.id for t in doc.tables] == [0, 1, 2]
    assert doc.pages == [Page(n, 1700.0, 2200.0, Frame.IMAGE) for n in (1, 2, 3)]


def test_proto_field_names_and_a_page_in_points():
    doc, _ = _case("proto-field-names")
    assert doc.tables[0].regions[0].cells[0].bbox == BBox(0.1, 0.1, 0.3, 0.2, Frame.PAGE)
    assert doc.pages == [Page(2, 612.0, 792.0, Frame.PDF)]


def test_a_process_response_names_its_source():
    doc, _ = _case("process-response")
    assert doc.filename == "invoice-7.pdf"


@pytest.mark.parametrize("dimension, page", [
    ({"width": 8.5, "height": 11, "unit": "inches"}, Page(1, 612.0, 792.0, Frame.PDF)),
    ({"width": 10, "height": 20, "unit": "furlongs"}, None),
    ({"width": "10", "height": 20, "unit": "pixels"}, None),
])
def test_page_sizes_by_unit(dimension, page):
    doc, diagnostics = _read(_doc(dimension=dimension))
    assert doc.pages == ([page] if page else [])
    assert ("docai-unit" in diagnostics.codes()) == (dimension["unit"] == "furlongs")


# -- text ------------------------------------------------------------------------------------

def test_int64_offsets_as_strings_are_the_format_and_inner_line_breaks_stay():
    text = "Gross\nmargin\n12 %\n"
    doc, diagnostics = _read(_doc([[_cell(None, "13"), _cell(13, 18)]], text=text))
    assert diagnostics.codes() == []
    assert _cells(doc) == [(1, [(0, 0, 0, 0, "Gross\nmargin", False), (0, 1, 0, 1, "12 %", False)])]


def _shard(index: int, count: int, offset: int, text: str, rows: list) -> bytes:
    """One shard of a sharded Document, as batch processing writes it (int64s as strings)."""
    data = json.loads(_doc(rows, text=text))
    data["shardInfo"] = {"shardIndex": str(index), "shardCount": str(count), "textOffset": str(offset)}
    data["pages"][0]["pageNumber"] = index + 1
    return json.dumps(data).encode()


def test_a_shards_text_anchors_are_offsets_into_its_own_text_as_the_toolbox_reads_them(tmp_path):
    """googleapis/python-documentai-toolbox slices each shard's own ``text`` with
    the segments' indexes as written; ``textOffset`` only says where that text
    starts in the whole document's."""
    texts = ["Item\nPrice\nTea\n2.50\n", "Item\nPrice\nCake\n4.10\n"]
    offsets = [0, 4350]
    rows = [[[_cell("0", "5"), _cell("5", "11")], [_cell("11", str(11 + len(t.split("\n")[2]) + 1)),
                                                 _cell(str(len(t) - 5), str(len(t)))]] for t in texts]
    for k, (text, offset) in enumerate(zip(texts, offsets)):
        (tmp_path / f"doc-{k}.json").write_bytes(_shard(k, 2, offset, text, rows[k]))
    result = runner.invoke(app, ["convert", str(tmp_path / "doc-1.json"), "--to", "csv"])
    assert result.exit_code == 0 and result.stdout.splitlines() == ["Item,Price", "Cake,4.10"]
    assert "lossy-page csv cannot hold 1 table on a page other than 1" in result.stderr
    doc, diagnostics = _read((tmp_path / "doc-0.json").read_bytes())
    assert diagnostics.codes() == [] and [c.content for c in doc.tables[0].cells()] == ["Item", "Price", "Tea", "2.50"]


def test_a_table_whose_every_text_is_lost_is_an_error_and_a_part_lost_a_warning():
    data = json.loads(_doc([[_cell("4350", "4355"), _cell("4355", "4361")]], text="Item\nPrice\n"))
    data["shardInfo"] = {"shardIndex": "1", "shardCount": "3", "textOffset": "4350"}
    doc, diagnostics = _read(json.dumps(data).encode())
    assert [c.content for c in doc.tables[0].cells()] == [None, None]
    assert diagnostics.codes() == ["docai-text-offset"] * 2 + ["docai-text-lost"]
    said = diagnostics.items[0]
    assert said.message == ("pages[0].tables[0].bodyRows[0].cells[0]: text segment [4350, 4355) is not within the "
                            "document's text (11 characters, the shard's, which starts at 4,350 in the whole "
                            "document's); the cell's text is unknown") and said.severity.value == "warning"
    lost = diagnostics.items[-1]
    assert lost.severity.value == "error" and lost.message == (
        "pages[0].tables[0]: the text of every cell with a text segment (2) is unknown; the table's text is lost")
    # one cell's text lost of two: a warning only
    doc, diagnostics = _read(_doc([[_cell("0", "5"), _cell("90", "101")]], text="Item\nPrice\n"))
    assert [c.content for c in doc.tables[0].cells()] == ["Item", None]
    assert [(d.code, d.severity.value) for d in diagnostics] == [("docai-text-offset", "warning")]


def test_a_document_whose_table_text_is_all_lost_exits_1(tmp_path):
    path = tmp_path / "shard.json"
    path.write_bytes(_doc([[_cell("100", "103"), _cell("103", "106")]], text="abc"))
    result = runner.invoke(app, ["convert", str(path), "--to", "csv", "-o", str(tmp_path / "out.csv")])
    assert result.exit_code == 1 and "docai-text-lost" in result.output


def test_findings_of_a_kind_are_said_five_times_then_counted():
    rows = [[_cell("0", str(1000 + k)) for k in range(500)]]
    doc, diagnostics = _read(_doc(rows, text="short"))
    assert diagnostics.codes() == ["docai-text-offset"] * 6 + ["docai-text-lost"]
    assert diagnostics.items[0].message.startswith("pages[0].tables[0].bodyRows[0].cells[0]: text segment [0, 1000)")
    assert diagnostics.items[4].message.startswith("pages[0].tables[0].bodyRows[0].cells[4]:")
    assert diagnostics.items[5].message == "495 more like these"
    assert {c.content for c in doc.tables[0].cells()} == {None}


# -- the grid --------------------------------------------------------------------------------

def test_overlapping_spans_are_left_to_the_grid_check():
    rows = [[_cell(0, 1), _cell(1, 2, rowSpan=2)], [_cell(2, 3, colSpan=2)]]
    doc, diagnostics = _read(_doc(rows, text="abc"))
    assert _cells(doc)[0][1] == [(0, 0, 0, 0, "a", False), (0, 1, 1, 1, "b", False), (1, 0, 1, 1, "c", False)]
    assert "slot-overlap" in diagnostics.codes()


def test_a_row_span_passes_over_the_slots_it_takes_in_later_rows():
    rows = [[_cell(0, 1, rowSpan=3), _cell(1, 2), _cell(2, 3, rowSpan=2)],
            [_cell(3, 4)], [_cell(4, 5), _cell(5, 6)]]
    doc, diagnostics = _read(_doc(rows, text="abcdef"))
    assert diagnostics.codes() == []
    assert _cells(doc)[0][1] == [(0, 0, 2, 0, "a", False), (0, 1, 0, 1, "b", False), (0, 2, 1, 2, "c", False),
                                 (1, 1, 1, 1, "d", False), (2, 1, 2, 1, "e", False), (2, 2, 2, 2, "f", False)]


# -- hostile input ---------------------------------------------------------------------------

def test_a_response_over_the_size_limit_is_refused_before_parsing(monkeypatch):
    data = corpus_path(*SAMPLE).read_bytes()
    monkeypatch.setattr("convertables.jsonsafe.MAX_JSON_BYTES", len(data) - 1)
    assert _refused(data).diagnostic.code == "too-large"


def test_deep_nesting_is_refused():
    data = b'{"mimeType": "application/pdf", "text": "", "pages": [' + b"[" * 200_000 + b"]" * 200_000 + b"]}"
    assert _refused(data).diagnostic.code == "too-deep"


@pytest.mark.parametrize("data", [
    b"[1, 2]", b'"text"', b'{"status": "succeeded", "analyzeResult": {}}', b'{"document": 5}',
    b'{"mimeType": "application/pdf", "text": "", "pages": {"0": {}}}',
])
def test_what_is_not_a_document_is_refused(data: bytes):
    assert _refused(data).diagnostic.code == "docai-structure"


def test_spans_covering_too_many_rows_are_refused_at_once():
    rows = [[{"rowSpan": 5000}] * 500] + [[]] * 4999
    assert _refused(_doc(rows)).diagnostic.code == "docai-too-large"


def test_cells_repeating_the_whole_text_are_refused():
    text = "x" * 1_000_000
    assert _refused(_doc([[_cell(None, len(text))] * 60], text=text)).diagnostic.code == "docai-too-large"


def test_garbage_everywhere_gives_warnings_and_a_sane_document():
    rows = [
        [{"layout": {"textAnchor": "x"}}, {"layout": 5}, 7, {"rowSpan": True, "colSpan": None},
         {"layout": {"textAnchor": {"textSegments": [3]}}},
         {"layout": {"textAnchor": {"textSegments": {"startIndex": "1"}}}},
         {"layout": {"boundingPoly": {"vertices": [{"x": [1]}, 4]}}}],
        "not a row",
    ]
    data = json.loads(_doc(rows, text="abc"))
    data["pages"] += [None, {"pageNumber": -2, "tables": [{"headerRows": {"cells": []}}]}]
    data["shardInfo"] = {"textOffset": "ten"}
    doc, diagnostics = _read(json.dumps(data).encode())
    # (the only cells with text segments both lost their text: the table's text is lost)
    assert set(diagnostics.codes()) == {"docai-bad-value", "docai-text-lost"}
    assert _cells(doc) == [(1, [(0, k, 0, k, text, False) for k, text in
                                enumerate(["", "", "", None, None, ""])]), (3, [])]
    assert doc.tables[0].regions[0].cells[5].bbox is None


def test_a_document_without_pages_has_no_tables_and_layout_parser_blocks_are_said():
    doc, diagnostics = _read(b'{"mimeType": "application/pdf", "text": "a", "documentLayout": {"blocks": []}}')
    assert doc.tables == [] and diagnostics.codes() == ["docai-layout-parser"]
