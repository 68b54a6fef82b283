"""Nothing lost on the way: a converted table scores 1.0 against its source, or the tool says what was lost.

The writers hold what their format can (HTML: header rows in <thead>, <tbody>, spans, each cell's
inline markup); what a format cannot hold is a ``lossy-*`` warning at conversion, and a note in the
score's reports naming the part of the metric it affects. ``test_the_round_trip_matrix`` checks the
rule over the samples and a bounded selection of the shared corpus (tests/lossless_matrix.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import dumps, read, read_documents
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.losses import FEATURES, METRIC_NEEDS, features, losses
from convertables.model import Cell, Document, Region, Table
from convertables.options import WriteOptions
from convertables.registry import formats
from tests.conftest import CORPUS, ROOT, corpus_path
from tests.lossless_matrix import run_source, table

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def document() -> Document:
    """A header row over a spanning header cell, a row header, markup and a blank cell."""
    cells = [
        Cell(0, 0, 0, 0, "Name", header=True),
        Cell(0, 1, 0, 2, "Dose", header=True, markup=("<b>", "D", "o", "s", "e", "</b>")),
        Cell(1, 0, 1, 0, "a", header=True),
        Cell(1, 1, 1, 1, "x2", markup=("x", "<sup>", "2", "</sup>")),
        Cell(1, 2, 1, 2, ""),
    ]
    return Document("doc.pdf", [Table(0, [Region(0, 1, cells=cells)])])


def codes(diagnostics: Diagnostics) -> dict[str, str]:
    return {d.code: d.message for d in diagnostics if d.code.startswith("lossy-")}


# -- the HTML writer ---------------------------------------------------------------------------

def test_html_holds_header_rows_row_groups_spans_and_markup():
    found = Diagnostics()
    html = dumps(document(), "html", diagnostics=found).decode()
    assert codes(found) == {}
    body = html[html.index("<table"):]
    assert body.index("<thead>") < body.index("Name") < body.index("</thead>") < body.index("<tbody>")
    assert '<td colspan="3">' not in body and '<td colspan="2"><b>Dose</b></td>' in body
    assert '<td scope="row">a</td>' in body and "<td>x<sup>2</sup></td>" in body and "<th>" not in body
    back = read_from(html)
    assert [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header, c.markup)
            for c in back.tables[0].cells()] == [
        (c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header, c.markup)
        for c in document().tables[0].cells()]


def read_from(html: str) -> Document:
    from convertables.files import read_document
    from convertables.registry import get

    return read_document(html.encode(), get("html"), "x.html")


def test_a_no_break_space_at_a_cells_end_is_text_as_a_browser_keeps_it():
    doc = Document("d", [Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "FY\xa02007\xa0"), Cell(0, 1, 0, 1, "x")])])])
    assert [c.content for c in read_from(dumps(doc, "html").decode()).tables[0].cells()] == ["FY\xa02007\xa0", "x"]
    assert [c.content for c in read_from("<table><tr><td> a\t</td><td>\n b <i>c</i>\u2003</td></tr></table>")
            .tables[0].cells()] == ["a", "b c\u2003"]


def test_header_cells_th_and_td():
    th = dumps(document(), "html", WriteOptions(header_cells="th")).decode()
    assert "<th>Name</th>" in th and "<th>a</th>" in th and "<td>x<sup>2</sup></td>" in th
    assert [c.header for c in read_from(th).tables[0].cells()] == [True, True, True, False, False]
    found = Diagnostics()
    td = dumps(document(), "html", WriteOptions(header_cells="td"), found).decode()
    assert "<th>" not in td and "scope" not in td
    assert "1 header cell(s) outside the header rows" in codes(found)["lossy-header"]
    assert [c.header for c in read_from(td).tables[0].cells()] == [True, True, False, False, False]


def test_an_html_sources_own_th_cells_are_written_as_the_source_had_them():
    source = ("<table><thead><tr><th>A</th><td>B</td></tr></thead>"
              "<tbody><tr><th>r</th><td>1 <i>x</i></td></tr></tbody></table>")
    doc = read_from(source)
    written = dumps(doc, "html").decode()
    assert "<thead>\n<tr><th>A</th><td>B</td></tr>\n</thead>\n<tbody>\n<tr><th>r</th><td>1 <i>x</i></td></tr>" \
        in written
    assert read_from(written).tables[0].html_structure == doc.tables[0].html_structure


def test_a_skeletons_own_tokens_are_never_copied_into_the_html():
    structure = ("<tbody>", "<tr>", "<td", ' colspan="2" onclick="alert(1)"', ">", "</td>", "</tr>",
                 "<tr>", "<td>", "</td>", "<td>", "</td>", "</tr>", "</tbody>")
    cells = [Cell(0, 0, 0, 1, "a"), Cell(1, 0, 1, 0, "<b>"), Cell(1, 1, 1, 1, "c", markup=("<img onerror=x>", "c"))]
    html = dumps(Document("x", [Table(0, [Region(0, 1, cells=cells)], html_structure=structure)]), "html").decode()
    assert '<tr><td colspan="2">a</td></tr>\n<tr><td>&lt;b&gt;</td><td>&lt;img onerror=x&gt;c</td></tr>' in html
    assert "onclick" not in html


def test_pubtabnet_examples_to_html_score_one_with_teds_and_grits(tmp_path):
    source = corpus_path("pubtabnet", "PubTabNet_Examples.jsonl")
    converted = invoke("convert", source, "--to", "html", "-o", f"{tmp_path}/", "--format", "json")
    report = json.loads(converted.stdout)
    assert report["converted"] == 20
    said = {d["code"] for f in report["files"] for d in f["diagnostics"]}
    assert said <= {"lossy-box"}, said  # (HTML has no boxes: what GriTS_Loc alone reads)
    page = (tmp_path / "PMC2753619_002_00.html").read_text()
    assert "<thead>" in page and "<tbody>" in page and "<b>" in page
    for metric, figures in (("teds", ("teds", "teds_struct")), ("grits", ("grits_top", "grits_con", "acc_con"))):
        scored = json.loads(invoke("score", "--gt", source, "--result", tmp_path, "--metric", metric,
                                   "--format", "json").stdout)
        assert scored["total"]["documents"] == 20
        assert {name: scored["total"][name] for name in figures} == {name: 1.0 for name in figures}
        noted = {note.rsplit(" (", 1)[1] for record in scored["documents"] for note in record.get("losses", ())}
        assert noted == (set() if metric == "teds" else {"lossy-box)"})  # GriTS_Loc reads boxes, HTML has none


# -- what a format holds, said at conversion ---------------------------------------------------

def test_every_writer_declares_what_it_holds_in_the_known_features():
    for fmt in formats().values():
        if fmt.writes:
            assert fmt.holds is not None and fmt.holds <= set(FEATURES), fmt.name
    assert formats()["json"].holds == frozenset(FEATURES)
    for needs in METRIC_NEEDS.values():
        assert set(needs) <= set(FEATURES)


def test_the_formats_command_lists_what_each_writer_holds():
    rows = {r["name"]: r for r in json.loads(invoke("formats", "--format", "json").stdout)}
    assert "header-rows" in rows["html"]["holds"] and "boxes" not in rows["html"]["holds"]
    assert "spans" not in rows["csv"]["holds"] and rows["textract"]["holds"] is None


def test_features_of_a_document():
    assert features(document()) == {"text": 4, "spans": 1, "blank": 1, "header-rows": 2, "header-cells": 1,
                                    "markup": 2}


def test_conversion_says_once_what_the_format_cannot_hold_with_counts():
    found = Diagnostics()
    dumps(document(), "csv", diagnostics=found)
    said = codes(found)
    assert said == {
        "lossy-span": "csv cannot hold 1 spanning cell (a cell of one slot, the rest of the span empty)",
        "lossy-header": "csv cannot hold 2 cells of the header rows (written as data cells); 1 header cell below the "
                        "header rows (written as data cells)",
        "lossy-markup": "csv cannot hold 2 cells with inline markup (<b>, <sup>...) or raw whitespace (only the "
                        "text kept)",
    }
    assert [d.code for d in found].count("lossy-header") == 1


def test_a_setting_that_makes_the_format_hold_more_silences_its_warning():
    found = Diagnostics()
    dumps(document(), "icdar", diagnostics=found)
    assert "lossy-blank" in codes(found)
    found = Diagnostics()
    dumps(document(), "icdar", WriteOptions(keep_blank=True), found)
    assert "lossy-blank" not in codes(found)
    assert losses(document(), formats()["icdar"], WriteOptions(keep_blank=True)) == {
        "header-rows": 2, "header-cells": 1, "markup": 2}


def test_the_command_reports_the_losses_per_file(tmp_path):
    source = ROOT / "samples" / "pubtabnet" / "sample.jsonl"
    result = invoke("convert", source, "--to", "icdar", "-o", f"{tmp_path}/", "--format", "json")
    said = [sorted(d["code"] for d in f["diagnostics"] if d["code"].startswith("lossy-"))
            for f in json.loads(result.stdout)["files"]]
    assert said == [["lossy-blank", "lossy-header", "lossy-markup"], ["lossy-header"], []]  # once each, per file


# -- what the loss does to a metric, said when scoring ---------------------------------------

def test_score_says_which_part_of_the_metric_each_loss_affects_in_every_report(tmp_path):
    gt = tmp_path / "gt.json"
    gt.write_bytes(dumps(document(), "json"))
    result = tmp_path / "res"
    result.mkdir()
    (result / "gt.csv").write_bytes(dumps(document(), "csv"))
    scored = json.loads(invoke("score", "--gt", gt, "--result", result / "gt.csv", "--metric", "teds",
                               "--format", "json").stdout)
    notes = scored["documents"][0]["losses"]
    assert "csv holds no spanning cells (1 in the ground truth): a <td>'s colspan and rowspan are part of its " \
           "node: each changed span counts as renamed (lossy-span)" in notes
    assert any(note.startswith("csv holds no cells of the header rows (2 in the ground truth): header rows make "
                               "the <thead> group") for note in notes)
    assert scored["total"]["teds"] < 1
    text = invoke("score", "--gt", gt, "--result", result / "gt.csv", "--metric", "teds").stdout
    assert "gt: csv holds no spanning cells (1 in the ground truth)" in text
    page = tmp_path / "report.html"
    invoke("score", "--gt", gt, "--result", result / "gt.csv", "--metric", "teds", "--html", page)
    assert "lost in the result&#x27;s format: csv holds no spanning cells" in page.read_text() or \
        "lost in the result's format: csv holds no spanning cells" in page.read_text()
    # structure reads neither header flags nor markup: only the span is its business
    structure = json.loads(invoke("score", "--gt", gt, "--result", result / "gt.csv", "--format", "json").stdout)
    assert [note.rsplit("(", 1)[1] for note in structure["documents"][0]["losses"]] == ["lossy-span)"]


def test_a_result_in_a_format_that_holds_it_all_has_no_notes(tmp_path):
    gt = tmp_path / "gt.json"
    gt.write_bytes(dumps(document(), "json"))
    (tmp_path / "res.html").write_bytes(dumps(document(), "html"))
    scored = json.loads(invoke("score", "--gt", gt, "--result", tmp_path / "res.html", "--metric", "teds",
                               "--format", "json").stdout)
    assert "losses" not in scored["documents"][0] and scored["total"]["teds"] == 1.0


# -- writers that hold more than they did ------------------------------------------------------

def test_excel_writes_a_sheet_a_table_where_a_page_has_several(tmp_path):
    doc = Document("d.pdf", [Table(k, [Region(0, 2, cells=[Cell(0, 0, 0, 0, f"t{k}")])]) for k in range(2)])
    path = tmp_path / "d.xlsx"
    path.write_bytes(dumps(doc, "xlsx"))
    back = read(path)
    assert [(t.page, [c.content for c in t.cells()]) for t in back.tables] == [(2, ["t0"]), (2, ["t1"])]


def test_pubtabnet_names_a_lone_table_on_another_page_by_it_and_score_join_reads_it_back(tmp_path):
    doc = Document("d.pdf", [Table(0, [Region(0, 3, cells=[Cell(0, 0, 0, 0, "x")])])])
    gt = tmp_path / "d.json"
    gt.write_bytes(dumps(doc, "json"))
    out = tmp_path / "d.jsonl"
    out.write_bytes(dumps(doc, "pubtabnet"))
    assert [name for name, _ in read_documents(out)] == ["d-page-3-table-1"]
    scored = json.loads(invoke("score", "--gt", gt, "--result", out, "--metric", "teds", "--join",
                               "--format", "json").stdout)
    assert scored["total"]["teds"] == 1.0 and scored["unpaired"] == {"gt": [], "result": []}


# -- the matrix ---------------------------------------------------------------------------------

# A bounded, representative selection of the shared corpus (the whole of it takes far longer): the
# PubTabNet and FinTabNet examples, every vendor export, and a file of each other ground truth.
CORPUS_FILES = (
    "pubtabnet/PubTabNet_Examples.jsonl", "fintabnet/FinTabNet_1.0.0_table_val.jsonl",
    "exports/abbyy/fr8v2.xml", "exports/azure/2022-08-31-layout.json", "exports/azure/2024-11-30-layout.json",
    "exports/azure/v2.1-layout.json", "exports/docai/form_with_tables.json",
    "exports/docling/2206.01062-1.0.0.json", "exports/docling/cross_page_table.json",
    "exports/textract/gib_multi_page_tables.json", "exports/textract/in-table-title.json",
    "exports/textract/tables_with_merged_cells_sample1.json", "exports/textract/test_table_merged_text.json",
    "icdar2013/gt/eu-001-str.xml", "icdar2013/gt/us-001-str.xml", "ctdar2019/gt_trackB2_modern/cTDaR_t10000.xml",
    "ctdar2019/gt_trackB1_archival/cTDaR_t00080.xml", "pubmed_gt/gt/PMC1174872.xml",
    "pubtables1m/PMC497045_table_2.xml", "doctags/2203.01017v2.json",
    "pod/icdar2017_pod_supplement/TestSet_POD_1601.xml",
)


def test_the_round_trip_matrix(tmp_path, monkeypatch):
    """Every readable sample and the corpus selection x every writable format x structure, TEDS and
    GriTS, through the real commands (656 pairs where the corpus is there: about 20 s of one core): each
    pair scores what the source scores against itself, or the conversion and the score both said what
    was lost (a lossy-* code the conversion gave is the code of a note the score gave)."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # (the score's record files: out of shared /tmp)
    sources = sorted(p for p in (ROOT / "samples").glob("*/*") if p.is_file())
    sources += [CORPUS / name for name in CORPUS_FILES if (CORPUS / name).exists()]
    pairs = [pair for k, source in enumerate(sources)
             for pair in run_source(source, tmp_path / str(k), str(source.relative_to(source.parents[1])))]
    shown = table(pairs)
    print(shown)
    assert len(pairs) >= 150
    silent = [p for p in pairs if p.outcome == "silent"]
    assert silent == [], shown
    for failed in (p for p in pairs if p.outcome == "failed"):
        assert failed.error, failed  # a conversion that fails says why
    pubtabnet_html = [p for p in pairs if p.source.endswith("PubTabNet_Examples.jsonl") and p.writer == "html"]
    assert pubtabnet_html == [] or {p.outcome for p in pubtabnet_html} == {"held"}


def test_a_loss_the_result_does_not_show_is_not_noted(tmp_path):
    """ICDAR 2013 leaves blank cells out unless --keep-blank: the note is for the result that lost them."""
    doc = Document("d.pdf", [Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, " ")])])])
    gt = tmp_path / "d.json"
    gt.write_bytes(dumps(doc, "json"))
    notes = {}
    for name, options in (("plain", WriteOptions()), ("kept", WriteOptions(keep_blank=True))):
        result = tmp_path / f"{name}-str.xml"
        result.write_bytes(dumps(doc, "icdar", options))
        scored = json.loads(invoke("score", "--gt", gt, "--result", result, "--metric", "grits",
                                   "--format", "json").stdout)
        notes[name] = (scored["total"]["grits_top"], scored["documents"][0].get("losses"))
    assert notes["kept"] == (1.0, None)
    assert notes["plain"][0] < 1 and notes["plain"][1] == [
        "icdar holds no blank cells (1 in the ground truth): blank cells at the table's edge make rows and columns "
        "of their own: without them the grid is smaller (lossy-blank)"]
