"""The ICDAR 2013 region metric: hand-computed cases for each rule of docs/scoring.md, `--metric region`,
and the real ground truth against itself with its PDFs."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.model import BBox, Document, Region, Table
from convertables.scoring import ScoreSettings, score_paths
from convertables.scoring.region import PageItems, score_document
from tests.conftest import corpus_path

# Ten characters in a row on page 1: x = 0, 10, ..., 90 (each 8 wide, centre x+4), y 0..10;
# and five on page 2.
PAGES = {
    1: PageItems.from_boxes([(x, 0, x + 8, 10) for x in range(0, 100, 10)]),
    2: PageItems.from_boxes([(x, 0, x + 8, 10) for x in range(0, 50, 10)]),
}


def doc(*regions: tuple[float, float, float, float] | tuple[float, float, float, float, int]) -> Document:
    tables = []
    for i, r in enumerate(regions):
        page = r[4] if len(r) > 4 else 1
        tables.append(Table(i, [Region(0, page, bbox=BBox(*r[:4]))]))
    return Document("d.pdf", tables)


GT = doc((0, 0, 48, 10))  # the first five characters


def one(result: Document, variant="chars") -> dict:
    return score_document(GT, result, PAGES, variant)["regions"][0]


def test_exact_region_is_complete_and_pure():
    r = one(doc((0, 0, 48, 10)))
    assert (r["gt_items"], r["correct_items"], r["result_items"], r["complete"], r["pure"]) == (5, 5, 5, True, True)


def test_expanded_region_is_complete_not_pure():
    r = one(doc((0, 0, 68, 10)))
    assert (r["correct_items"], r["result_items"], r["complete"], r["pure"]) == (5, 7, True, False)


def test_shrunk_region_is_pure_not_complete():
    r = one(doc((10, 0, 38, 10)))
    assert (r["correct_items"], r["result_items"], r["complete"], r["pure"]) == (3, 3, False, True)


def test_shifted_region_is_neither():
    r = one(doc((20, 0, 68, 10)))
    assert (r["correct_items"], r["result_items"], r["complete"], r["pure"]) == (3, 5, False, False)


def test_split_region_pairs_the_larger_part_and_the_rest_is_a_false_positive():
    scored = score_document(GT, doc((0, 0, 18, 10), (20, 0, 48, 10)), PAGES)
    paired, fp = scored["regions"]
    assert (paired["result_table"], paired["correct_items"], paired["complete"]) == (1, 3, False)
    assert (fp["gt_table"], fp["result_table"], fp["result_items"]) == (None, 0, 2)
    assert (scored["correct"], scored["detected"], scored["gt"]) == (3, 5, 5)
    assert scored["precision"] == pytest.approx(3 / 5) and scored["recall"] == pytest.approx(3 / 5)


def test_merged_regions_go_to_the_first_ground_truth():
    gt = doc((0, 0, 48, 10), (50, 0, 98, 10))
    scored = score_document(gt, doc((0, 0, 98, 10)), PAGES)
    first, second = scored["regions"]
    assert (first["correct_items"], first["result_items"], first["complete"], first["pure"]) == (5, 10, True, False)
    assert (second["result_table"], second["complete"], second["pure"]) == (None, False, None)
    assert scored["recall"] == pytest.approx(5 / 10) and scored["precision"] == pytest.approx(5 / 10)


def test_a_false_positive_costs_precision():
    scored = score_document(GT, doc((0, 0, 48, 10), (60, 0, 98, 10)), PAGES)
    assert (scored["correct"], scored["detected"]) == (5, 9)
    assert scored["recall"] == 1.0 and scored["precision"] == pytest.approx(5 / 9)


def test_a_region_on_the_wrong_page_or_a_missing_page_matches_nothing():
    scored = score_document(GT, doc((0, 0, 48, 10, 2)), PAGES)
    assert scored["regions"][0]["result_table"] is None and scored["regions"][1]["result_items"] == 5
    scored = score_document(GT, doc((0, 0, 48, 10, 9)), PAGES)
    assert any("page 9 does not exist" in n for n in scored["notes"])


def test_ties_go_to_the_region_with_fewer_items():
    # both share all five ground-truth characters; the second has fewer foreign ones
    scored = score_document(GT, doc((0, 0, 78, 10), (0, 0, 58, 10)), PAGES)
    assert scored["regions"][0]["result_table"] == 1


def test_y_flipped_boxes_find_nothing():
    # the same box in a y-down frame of a 842 pt page lies far from the characters
    r = one(doc((0, 832, 48, 842)))
    assert (r["result_table"], r["correct_items"]) == (None, 0)


def test_area_variant_measures_the_item_shrunk_boxes():
    r = one(doc((0, 0, 68, 10)), variant="area")
    # shrunk: gt (0..48) x (0..10) = 480; result (0..68) = 680; overlap 480
    assert (r["gt_area"], r["result_area"], r["overlap_area"]) == (480, 680, 480)
    assert (r["complete"], r["pure"]) == (True, False)


def test_area_variant_counts_an_unpaired_region_against_recall_and_a_false_positive_against_precision():
    # gt: characters 0-4 (shrunk 0..48 x 0..10 = 480) and 5-9 (50..98 = 480); the
    # result finds the first exactly and adds a region on page 2 (shrunk 0..18 = 180)
    gt = doc((0, 0, 48, 10), (50, 0, 98, 10))
    scored = score_document(gt, doc((0, 0, 48, 10), (0, 0, 18, 10, 2)), PAGES, "area")
    paired, unpaired, false_positive = scored["regions"]
    assert (paired["gt_area"], paired["overlap_area"], paired["result_area"]) == (480, 480, 480)
    assert (unpaired["result_table"], unpaired["gt_area"], unpaired["overlap_area"], unpaired["result_area"],
            unpaired["complete"]) == (None, 480, 0, 0, False)
    assert (false_positive["gt_table"], false_positive["result_area"]) == (None, 180)
    assert (scored["gt"], scored["correct"], scored["detected"]) == (960, 480, 660)
    assert scored["recall"] == 0.5 and scored["precision"] == pytest.approx(480 / 660)


@pytest.mark.slow
def test_real_ground_truth_against_itself():
    gt = corpus_path("icdar2013", "gt")
    report = score_paths(gt, gt, ScoreSettings(metric="region", pdf_dir=str(corpus_path("icdar2013", "pdf"))), jobs=2)
    total = report["total"]
    assert report["errors"] == [] and total["documents"] == 67
    assert total["complete"] == total["pure"] == total["gt_regions"] == 156
    assert report["document_mean"]["precision"] == report["document_mean"]["recall"] == 1.0
    assert report.diagnostics == []  # nothing read off the format, no box off its page


# eu-001's first two ground-truth regions (218 and 395 items, official counts) and results against
# them, each scored by the official tool too (MeasureRecognitionPerformance -reg with eu-001.pdf).
EU001_RESULT = """<?xml version="1.0" encoding="UTF-8"?>
<document filename="eu-001.pdf">{}</document>
"""


def _region_result(tmp_path, *regions: str, name: str = "eu-001-reg-result.xml"):
    pdfs = corpus_path("icdar2013", "pdf")
    gt = corpus_path("icdar2013", "gt", "eu-001-reg.xml")
    result = tmp_path / name
    result.write_text(EU001_RESULT.format("".join(
        f'<table id="{i}">{region}</table>' for i, region in enumerate(regions, 1))))
    return score_paths(gt, result, ScoreSettings(metric="region", pdf_dir=str(pdfs))), result


def _region(page: str, box: tuple) -> str:
    x1, y1, x2, y2 = box
    return f'<region id="1"{page}><bounding-box x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/></region>'


def test_a_region_on_page_0_or_without_a_page_is_an_error_where_the_official_tool_fails(tmp_path):
    """Official: IndexOutOfBoundsException (page 0: pdfResult.get(-1)) and NumberFormatException
    (no page: Integer.parseInt of "")."""
    report, result = _region_result(tmp_path, _region(' page="1"', (100, 451, 482, 543)),
                                    _region(' page="0"', (101, 243, 483, 415)))
    assert [(d.code, d.severity.value, d.file) for d in report.diagnostics] == [("page-missing", "error", str(result))]
    assert report["errors"][0].endswith("error page-missing 1 result region(s) on pages the PDF does not have (the "
                                        "first: table 2, region 1, on page 0; the PDF has pages 1 to 3): they hold "
                                        "no items here; the official tool fails on them")
    report, result = _region_result(tmp_path, _region("", (100, 451, 482, 543)))
    assert [(d.code, d.severity.value, d.line) for d in report.diagnostics] == [("no-page", "error", 2)]


def test_boxes_mostly_off_their_pages_are_a_warning(tmp_path):
    """Three regions measured from the top of the page (y down) and one in pixels; one lies on
    the page by chance. Official for the first two alone (regions 3 and 4: "does not intersect
    page", left out): "Region: 1 GT Items: 218 correct items: 218 result items: 294",
    "Region: 2 GT Items: 395 correct items: 187 result items: 187"; the same here."""
    report, result = _region_result(
        tmp_path, _region(' page="1"', (100, 299, 482, 391)), _region(' page="1"', (101, 427, 483, 599)),
        _region(' page="1"', (102, -800, 476, -700)), _region(' page="2"', (1020, 2482, 1480, 2747)))
    regions = report["documents"][0]["tables"][:2]
    assert [(r["gt_items"], r["correct_items"], r["result_items"]) for r in regions] == [(218, 218, 294),
                                                                                        (395, 187, 187)]
    assert [(d.code, d.severity.value) for d in report.diagnostics] == []  # two of four off: not most
    report, result = _region_result(
        tmp_path, _region(' page="1"', (100, 299, 482, 391)), _region(' page="1"', (102, -800, 476, -700)),
        _region(' page="2"', (1020, 2482, 1480, 2747)))
    assert [(d.code, d.severity.value, d.file) for d in report.diagnostics] == [
        ("boxes-off-page", "warning", str(result))]
    assert report["documents"][0]["warnings"][0].split(": warning boxes-off-page ")[1].startswith(
        "2 of the result's 3 region boxes lie mostly off their pages")


def test_a_structure_file_as_a_region_result_is_said_to_differ(tmp_path):
    """The official tool takes a region's first bounding-box, its first cell's when the region has
    none of its own (here one with no items: "WARN: Region 1 has no items", all seven regions
    missed); convertables takes the cells' envelope, and says so."""
    cells = ('<region id="1" page="1">'
             '<cell id="1" start-row="0" start-col="0"><bounding-box x1="100" y1="530" x2="150" y2="543"/>'
             '<content>a</content></cell>'
             '<cell id="2" start-row="1" start-col="1"><bounding-box x1="400" y1="451" x2="482" y2="470"/>'
             '<content>b</content></cell></region>')
    report, result = _region_result(tmp_path, cells)
    assert report["documents"][0]["tables"][0]["correct_items"] == 218  # the envelope: the whole first region
    # the figures are not the official tool's: an error on the document, exit code 1
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [("region-box-from-cells", "error")]
    assert ("the official tool takes its first cell's box; the figures are not the official tool's (hint: write the "
            "region model") in report["documents"][0]["error"]
    run = CliRunner().invoke(app, ["score", "--gt", str(corpus_path("icdar2013", "gt", "eu-001-reg.xml")), "--result",
                                   str(result), "--metric", "region", "--pdf-dir",
                                   str(corpus_path("icdar2013", "pdf"))])
    assert run.exit_code == 1 and "error region-box-from-cells" in run.output


def _canonical_result(tmp_path, box: dict):
    """eu-001's result as canonical JSON: one region on page 1 with ``box`` (its frame given)."""
    import json

    result = tmp_path / "eu-001-reg-result.json"
    result.write_text(json.dumps({"format": "convertables", "version": 1, "filename": "eu-001.pdf", "tables": [
        {"id": 1, "regions": [{"id": 1, "page": 1, "bbox": box, "cells": []}]}]}))
    return result


def test_a_result_in_fractions_of_the_page_is_scored_in_the_pdfs_points(tmp_path):
    # eu-001's first ground-truth region (100, 451, 482, 543) on its 595 x 842 page, in fractions
    box = {"x1": 100 / 595, "y1": 1 - 543 / 842, "x2": 482 / 595, "y2": 1 - 451 / 842, "frame": "page"}
    gt = corpus_path("icdar2013", "gt", "eu-001-reg.xml")
    report = score_paths(gt, _canonical_result(tmp_path, box),
                         ScoreSettings(metric="region", pdf_dir=str(corpus_path("icdar2013", "pdf"))))
    first = report["documents"][0]["tables"][0]
    assert (first["gt_items"], first["correct_items"], first["result_items"], first["complete"], first["pure"]) == (
        218, 218, 218, True, True)
    assert report.diagnostics == []


def test_a_result_in_pixels_without_a_dpi_is_an_error_not_a_zero(tmp_path):
    box = {"x1": 417, "y1": 1245, "x2": 2008, "y2": 1629, "frame": "image"}
    result = _canonical_result(tmp_path, box)
    gt = corpus_path("icdar2013", "gt", "eu-001-reg.xml")
    report = score_paths(gt, result, ScoreSettings(metric="region", pdf_dir=str(corpus_path("icdar2013", "pdf"))))
    (record,) = report["documents"]
    assert not record["counted"] and "tables" not in record and report["total"]["documents"] == 0
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [("frames-incomparable", "error")]
    assert record["error"].endswith(
        "error frames-incomparable not scored: the ground truth's boxes are in PDF points, the result's in image "
        "pixels; 1 box(es) of the result cannot be converted into PDF points without the image's DPI and the page's "
        "height, which neither file says: convert the result with --dpi and --page-height (or --pdf, or --image) "
        "(convertables convert)")
    run = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(result), "--metric", "region",
                                   "--pdf-dir", str(corpus_path("icdar2013", "pdf"))])
    assert run.exit_code == 1 and "frames-incomparable" in run.output


def test_a_tie_that_the_official_tool_resolves_otherwise_is_an_error_with_its_figures():
    """The official tool pairs a tied ground-truth region with the result region of
    fewer items but takes the first tied one out of the pool, so the chosen one
    can be paired again: where that changes the figures, the document says them."""
    from convertables import score
    from convertables.model import Page, TextItem

    items = [TextItem(BBox(x, 0, x + 8, 10)) for x in range(0, 100, 10)]
    # ground truth: characters 0-4, then 3-4; results: characters 0-5 (first), then 0-4 exactly
    gt = doc((0, 0, 48, 10), (30, 0, 48, 10))
    gt.pages = [Page(1, 100.0, 10.0, items=items)]
    result = doc((0, 0, 58, 10), (0, 0, 48, 10))
    ours = score_document(gt, result, PAGES)
    assert [(r["result_table"], r["correct_items"]) for r in ours["regions"]] == [(1, 5), (0, 2)]
    assert (ours["correct"], ours["detected"], ours["ties"]) == (7, 11, 1)
    official = score_document(gt, result, PAGES, official_pool=True)
    assert [(r["result_table"], r["correct_items"]) for r in official["regions"]] == [(1, 5), (1, 2)]
    assert (official["correct"], official["detected"]) == (7, 10)
    report = score(gt, result, metric="region")
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [("region-tie", "error")]
    assert report.diagnostics[0].message.endswith("its figures would be gt 7, correct 7, detected 10, complete 2, "
                                                  "pure 1")
    # the tied region left in the pool is then a false positive too, counted twice: the figures differ again
    single = doc((0, 0, 48, 10))
    single.pages = gt.pages
    (said,) = score(single, result, metric="region").diagnostics
    assert said.message.endswith("its figures would be gt 5, correct 5, detected 10, complete 1, pure 1")
    assert score(single, doc((0, 0, 48, 10)), metric="region").diagnostics == []  # no tie
