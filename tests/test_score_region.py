"""The ICDAR 2013 region metric: hand-computed cases for each rule of docs/scoring.md, `--metric region`,
and the real ground truth against itself with its PDFs."""

from __future__ import annotations

import pytest

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


def test_real_ground_truth_against_itself():
    gt = corpus_path("icdar2013", "gt")
    report = score_paths(gt, gt, ScoreSettings(metric="region", pdf_dir=str(corpus_path("icdar2013", "pdf"))), jobs=2)
    total = report["total"]
    assert report["errors"] == [] and total["documents"] == 67
    assert total["complete"] == total["pure"] == total["gt_regions"] == 156
    assert report["document_mean"]["precision"] == report["document_mean"]["recall"] == 1.0
