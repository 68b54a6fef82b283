"""What each metric says of one document, cell by cell (Metric.explain, the HTML report's detail):
hand-computed cases, and on the real corpora the detail adds up to the scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from convertables.model import BBox, Cell, Document, Frame, Page, Region, Table, TextItem
from convertables.scoring import ScoreSettings, get_metric, score_paths
from convertables.scoring.explain import Details, cell_outcomes, default_explain, table_grid
from convertables.scoring.metric import Metric
from tests.conftest import corpus_path


def grid(rows: str, page: int = 1, table_id: int = 0) -> Table:
    """'A B | C .' -> a table; '.' is no cell."""
    cells = []
    for r, row in enumerate(rows.split("|")):
        for c, word in enumerate(row.split()):
            if word != ".":
                cells.append(Cell(r, c, r, c, word))
    return Table(table_id, [Region(0, page, cells=cells)])


def doc(*tables: Table) -> Document:
    return Document("d.pdf", list(tables))


def explained(metric: str, gt: Document, result: Document | None, **settings) -> tuple[dict, dict]:
    chosen = ScoreSettings(metric, **settings)
    record = get_metric(metric).score(gt, result, chosen)
    return record, get_metric(metric).explain(gt, result, chosen, record=record)


def words(shown: dict, relations: list) -> list[tuple]:
    """Relations by their cells' texts: (from, to, direction, gap, found)."""
    texts = [c[4] for c in shown["cells"]]
    return [(texts[a], texts[b], d, gap, found) for a, b, d, gap, found in relations]


# -- structure ------------------------------------------------------------------------------------

GT = doc(grid("A B C | D E F"))
RESULT = doc(grid("A B C | D F ."), grid("X Y", table_id=1))


def test_structure_marks_each_relation_found_or_missed_and_each_cell_by_its_relations():
    record, detail = explained("structure", GT, RESULT)
    assert detail["kind"] == "relations" and detail["levels"] == ["relations"]
    first, unpaired = detail["pairs"]
    gt, result = first["gt"], first["result"]
    # E was read as part of F: every relation through E or F is lost; A-B, B-C and A-D survive
    assert words(gt, gt["relations"]) == [
        ("A", "B", "H", 0, 1), ("B", "C", "H", 0, 1), ("D", "E", "H", 0, 0), ("E", "F", "H", 0, 0),
        ("A", "D", "V", 0, 1), ("B", "E", "V", 0, 0), ("C", "F", "V", 0, 0)]
    assert dict(zip("ABCDEF", gt["outcome"])) == {"A": "A", "B": "S", "C": "S", "D": "S", "E": "N", "F": "N"}
    assert words(result, result["relations"]) == [
        ("A", "B", "H", 0, 1), ("B", "C", "H", 0, 1), ("D", "F", "H", 0, 0), ("A", "D", "V", 0, 1),
        ("B", "F", "V", 0, 0)]
    assert result["outcome"] == ["A", "S", "A", "S", "N"]
    assert (gt["rows"], gt["cols"], gt["cells"][4]) == (2, 3, [1, 1, 1, 1, "E"])
    # the pair's figures are the record's; the result table no ground truth took is all false
    assert first["scores"] == {k: v for k, v in record["tables"][0].items() if k != "counted"}
    assert first["scores"]["correct"] == sum(r[4] for r in gt["relations"]) == 3
    assert unpaired["gt"] is None and unpaired["result"]["outcome"] == ["N", "N"] and unpaired["counted"]


def test_equal_relations_are_found_as_many_times_as_the_other_side_has_them():
    # two X -> Y relations in the ground truth, one in the result: the first is found, the second missed
    _, detail = explained("structure", doc(grid("X Y | X Y")), doc(grid("X Y")))
    gt = detail["pairs"][0]["gt"]
    assert words(gt, gt["relations"]) == [("X", "Y", "H", 0, 1), ("X", "Y", "H", 0, 0), ("X", "X", "V", 0, 0),
                                          ("Y", "Y", "V", 0, 0)]
    assert gt["outcome"] == ["S", "S", "N", "N"]


def test_blank_cells_have_no_relations_and_regions_are_placed_by_their_increments():
    blank = Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "A"), Cell(0, 1, 0, 1, " "), Cell(0, 2, 0, 2, "B")]),
                      Region(1, 1, row_increment=1, cells=[Cell(0, 0, 0, 2, "C D")])])
    _, detail = explained("structure", doc(blank), doc(blank))
    gt = detail["pairs"][0]["gt"]
    assert gt["cells"] == [[0, 0, 1, 1, "A"], [0, 1, 1, 1, ""], [0, 2, 1, 1, "B"], [1, 0, 1, 3, "C D"]]
    assert words(gt, gt["relations"]) == [("A", "B", "H", 1, 1), ("A", "C D", "V", 0, 1), ("B", "C D", "V", 0, 1)]
    assert gt["outcome"] == ["A", "-", "A", "A"]


def test_the_pubmed_variant_has_no_gaps_and_places_regions_as_they_are():
    record, detail = explained("structure", GT, RESULT, variant="pubmed")
    gt = detail["pairs"][0]["gt"]
    assert {r[3] for r in gt["relations"]} == {None}
    assert sum(r[4] for r in gt["relations"]) == record["tables"][0]["correct"] == 3


def test_a_document_without_a_result_shows_every_ground_truth_table_unpaired():
    record, detail = explained("structure", GT, None)
    (pair,) = detail["pairs"]
    assert pair["result"] is None and set(pair["gt"]["outcome"]) == {"N"} and record["correct"] == 0


def _consistent(detail: dict, record: dict) -> None:
    tables = [t for t in record["tables"]]
    assert len(detail["pairs"]) == len(tables)
    for pair, table in zip(detail["pairs"], tables):
        assert pair["scores"]["correct"] == table["correct"]
        if pair["gt"] is not None:
            assert len(pair["gt"]["relations"]) == table["gt"]
            assert sum(r[4] for r in pair["gt"]["relations"]) == table["correct"]
        if pair["result"] is not None:
            assert len(pair["result"]["relations"]) == table["detected"]
            assert sum(r[4] for r in pair["result"]["relations"]) == table["correct"]


@pytest.mark.slow
def test_on_the_icdar_2013_results_every_documents_detail_adds_up_to_its_record():
    details = Details()
    report = score_paths(corpus_path("icdar2013", "gt"), corpus_path("icdar2013_results", "namysl"),
                         ScoreSettings(), jobs=2, details=details)
    assert details.positions() == list(range(67))
    for i, record in enumerate(report.documents):
        _consistent(details.get(i), record)


def test_on_pubmed_ground_truth_against_itself_every_relation_is_found():
    gt = corpus_path("pubmed_gt", "gt")
    for path in sorted(gt.glob("*.xml"))[:30]:
        details = Details()
        report = score_paths(path, path, ScoreSettings(variant="pubmed"), details=details)
        detail = details.get(0)
        _consistent(detail, report.documents[0])
        for pair in detail["pairs"]:
            assert set("".join(pair["gt"]["outcome"])) <= {"A", "-"}, path.name


# -- cTDaR ----------------------------------------------------------------------------------------

def image_box(x1, y1, x2, y2) -> BBox:
    return BBox(x1, y1, x2, y2, Frame.IMAGE)


def ctdar_table(shift: int = 0, table_id: int = 0) -> Table:
    """A 2 x 2 grid of 100 px cells at (100, 100); the bottom-right one moved ``shift`` px right."""
    cells = [Cell(r, c, r, c, None, bbox=image_box(100 + 100 * c + (shift if (r, c) == (1, 1) else 0), 100 + 100 * r,
                                                  200 + 100 * c + (shift if (r, c) == (1, 1) else 0), 200 + 100 * r))
             for r in range(2) for c in range(2)]
    return Table(table_id, [Region(0, 1, bbox=image_box(100, 100, 300, 300), cells=cells)])


def test_ctdar_b_says_at_which_thresholds_each_relation_is_found_and_each_cells_partner():
    # the moved cell overlaps its place by 85 x 100 of 115 x 100: IoU 0.739, found at 0.6 and 0.7 only
    record, detail = explained("ctdar-b", doc(ctdar_table()), doc(ctdar_table(shift=15)))
    assert detail["levels"] == ["0.6", "0.7", "0.8", "0.9"]
    gt = detail["pairs"][0]["gt"]
    masks = {(a, b, d): mask for a, b, d, _, mask in gt["relations"]}
    assert masks == {(0, 1, "H"): 0b1111, (2, 3, "H"): 0b0011, (0, 2, "V"): 0b1111, (1, 3, "V"): 0b0011}
    assert gt["outcome"] == ["AAAA", "AASS", "AASS", "AANN"]
    assert gt["partners"][3] == [[3, 0.7391], [3, 0.7391], [-1, 0.0], [-1, 0.0]]
    assert gt["partners"][0] == [[0, 1.0]] * 4
    result = detail["pairs"][0]["result"]
    assert result["outcome"] == gt["outcome"] and result["partners"][3][0] == [3, 0.7391]
    scores = detail["pairs"][0]["scores"]
    assert [scores[f"correct@{t}"] for t in detail["levels"]] == [record["iou"][t]["correct"]
                                                                  for t in detail["levels"]] == [4, 4, 2, 2]
    # the tables' outlines, paired, on the page as they are (pixels, top-left)
    (page,) = detail["pages"]
    assert page["boxes"] == [[100, 100, 300, 300, "gt", "ground truth 0", "AAAA"],
                             [100, 100, 300, 300, "result", "result 0", "AAAA"]]


def test_ctdar_b_tables_too_far_apart_are_unpaired():
    far = ctdar_table()
    far.regions[0].bbox = image_box(100, 100, 300, 360)  # table IoU 0.77 < 0.8
    _, detail = explained("ctdar-b", doc(ctdar_table()), doc(far))
    assert [(p["gt"] is None, p["result"] is None) for p in detail["pairs"]] == [(False, True), (True, False)]
    assert set(detail["pairs"][0]["gt"]["outcome"]) == {"NNNN"}


def test_ctdar_a_matches_tables_at_each_threshold():
    gt = doc(Table(0, [Region(0, 1, bbox=image_box(0, 0, 100, 100))]),
             Table(1, [Region(0, 1, bbox=image_box(0, 500, 100, 600))]))
    result = doc(Table(0, [Region(0, 1, bbox=image_box(0, 0, 100, 75))]))  # IoU 0.75 with the first
    _, detail = explained("ctdar-a", gt, result)
    assert detail["kind"] == "tables"
    assert [p["scores"] for p in detail["pairs"]] == [{"table_iou": 0.75, "matched at IoU": "0.6, 0.7"},
                                                      {"table_iou": None, "matched at IoU": "none"}]
    assert [b[4:] for b in detail["pages"][0]["boxes"]] == [
        ["gt", "ground truth 0", "AANN"], ["gt", "ground truth 1", "NNNN"], ["result", "result 0", "AANN"]]


# -- region and marmot ---------------------------------------------------------------------------

def page_doc(*regions: tuple, items: bool = True) -> Document:
    """Regions on page 1 (PDF points, y up) of a 600 x 800 page with ten characters in a row at y 700..710."""
    chars = [TextItem(BBox(x, 700, x + 8, 710), "x") for x in range(0, 100, 10)]
    page = Page(1, 600, 800, Frame.PDF, items=chars if items else [])
    return Document("d.pdf", [Table(i, [Region(0, 1, bbox=BBox(*r))]) for i, r in enumerate(regions)], [page])


def test_region_draws_regions_and_items_found_missed_and_false_top_left():
    gt = page_doc((0, 695, 48, 715))  # the first five characters
    result = page_doc((20, 695, 68, 715))  # the 3rd to 7th
    record, detail = explained("region", gt, result)
    assert detail["kind"] == "regions"
    (pair,) = detail["pairs"]
    assert (pair["scores"]["gt_items"], pair["scores"]["correct_items"], pair["scores"]["result_items"]) == (5, 3, 5)
    (page,) = detail["pages"]
    assert (page["width"], page["height"]) == (600, 800)
    # y turned by the geometry module: 800 - 715 = 85 at the top
    assert page["boxes"] == [[0, 85, 48, 105, "gt", "ground truth 0.0: 5 items, 3 found", "S"],
                             [20, 85, 68, 105, "result", "result 0.0: 5 items, 3 right", "S"]]
    assert [(x, y, kind) for x, y, kind in page["items"]] == [
        (4, 95, "N"), (14, 95, "N"), (24, 95, "A"), (34, 95, "A"), (44, 95, "A"), (54, 95, "F"), (64, 95, "F")]


def test_marmot_draws_each_table_with_its_errors():
    gt = page_doc((0, 695, 48, 715))
    result = page_doc((0, 695, 48, 715), (300, 100, 400, 200))  # exact, and a fake one elsewhere
    _, detail = explained("marmot", gt, result)
    labels = {b[5]: b[6] for b in detail["pages"][0]["boxes"]}
    assert labels == {"ground truth 0: no error, score 0.000": "A", "result 0: no error, score 0.000": "A",
                      "result 1: fake_mix, score 0.000": "N"}
    assert {p["scores"]["errors"] for p in detail["pairs"]} == {"none", "fake_mix"}


# -- the default, for metrics that score whole tables ----------------------------------------------

class WholeTables(Metric):
    name = "whole-tables"


def test_the_default_puts_the_tables_the_record_pairs_side_by_side_with_its_figures():
    gt = doc(grid("A B"), grid("C D", table_id=7))
    result = doc(grid("A B", table_id=3))
    record = {"tables": [{"gt_table": 0, "result_table": 3, "teds": 0.5}, {"gt_table": 7, "result_table": None}]}
    detail = WholeTables().explain(gt, result, ScoreSettings(), record=record)
    assert detail["kind"] == "tables" and detail["notes"] == []
    first, second = detail["pairs"]
    assert (first["gt"]["table"], first["result"]["table"], first["scores"]["teds"]) == (0, 3, 0.5)
    assert "outcome" not in first["gt"] and "relations" not in first["gt"]
    assert (second["gt"]["table"], second["result"]) == (7, None)
    # a record that names no pairs: each side's tables in order, and said so
    alone = default_explain(gt, result, {"f1": 0.5})
    assert [(p["gt"] or p["result"])["table"] for p in alone["pairs"]] == [0, 7, 3] and alone["notes"]


def test_grids_are_compressed_to_the_bands_between_cell_boundaries():
    huge = Table(0, [Region(0, 1, cells=[Cell(0, 0, 999_999, 0, "tall"), Cell(0, 1, 0, 1, "x"),
                                         Cell(1_000_000, 0, 1_000_000, 1, "below")])])
    shown = table_grid(huge)
    assert (shown["rows"], shown["cols"]) == (3, 2)
    assert shown["cells"] == [[0, 0, 2, 1, "tall"], [0, 1, 1, 1, "x"], [2, 0, 1, 2, "below"]]


def test_cell_outcomes_count_a_relation_for_both_its_cells():
    assert cell_outcomes(3, [[0, 1, "H", 0, 1], [1, 2, "H", 0, 0]]) == ["A", "S", "N"]
    assert cell_outcomes(2, [[0, 1, "H", None, 0b01]], levels=2) == ["AN", "AN"]
    assert cell_outcomes(2, []) == ["-", "-"]


# -- the runner ----------------------------------------------------------------------------------

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_details_follow_the_records_and_an_explanation_that_fails_leaves_the_scores(tmp_path: Path, monkeypatch):
    (tmp_path / "gt").mkdir()
    (tmp_path / "res").mkdir()
    sample = (SAMPLES / "icdar" / "sample-str.xml").read_text()
    for name in ("a", "b", "c"):
        (tmp_path / "gt" / f"{name}-str.xml").write_text(sample)
        (tmp_path / "res" / f"{name}-str-result.xml").write_text(sample)
    (tmp_path / "gt" / "b-str.xml").write_text("<document>")  # an unreadable ground truth: not scored
    details = Details()
    report = score_paths(tmp_path / "gt", tmp_path / "res", details=details)
    assert [r["document"] for r in report.documents] == ["a", "b", "c"] and report.details is details
    assert details.positions() == [0, 2]
    assert "detail" not in report.documents[0] and "detail" not in json.loads(report.to_json())["documents"][0]
    assert details.get(2)["pairs"][0]["scores"]["correct"] == report.documents[2]["tables"][0]["correct"]

    def broken(*args, **kwargs):
        raise KeyError("no such thing")

    monkeypatch.setattr(type(get_metric("structure")), "explain", broken)
    details = Details()
    again = score_paths(tmp_path / "gt", tmp_path / "res", details=details)
    assert again.documents == report.documents and not again.diagnostics[1:]
    assert details.get(0) == {"error": "no detail: KeyError: 'no such thing'"}


def test_a_report_scored_without_details_has_none():
    report = score_paths(SAMPLES / "icdar", SAMPLES / "icdar")
    assert report.details is None
