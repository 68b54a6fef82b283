"""The cTDaR metrics: hand-computed cases for each rule of docs/scoring.md, `--metric ctdar-a`/`ctdar-b`, and the
official tool's figures on the public ABBYY results."""

from __future__ import annotations

import json

import pytest

from convertables import write
from hypothesis import given, settings
from hypothesis import strategies as st

from convertables.geometry import geos_iou_matrix, iou_matrix, polygon_iou
from convertables.model import BBox, Cell, Document, Frame, Region, Table
from convertables.scoring import ScoreSettings, score_paths
from convertables.scoring.ctdar import cell_relations, track_a, track_b
from tests.conftest import corpus_path


def box(x1, y1, x2, y2, polygon=None) -> BBox:
    return BBox(x1, y1, x2, y2, Frame.IMAGE, polygon)


def cell(r0, c0, r1=None, c1=None, at=None) -> Cell:
    r1 = r0 if r1 is None else r1
    c1 = c0 if c1 is None else c1
    at = at or box(c0 * 10, r0 * 10, c1 * 10 + 10, r1 * 10 + 10)
    return Cell(r0, c0, r1, c1, None, bbox=at)


def table(outline: BBox, *cells: Cell, table_id: int = 0) -> Table:
    return Table(table_id, [Region(0, 1, bbox=outline, cells=list(cells))])


def doc(*tables: Table) -> Document:
    return Document("page.jpg", list(tables))


def test_iou_of_polygons():
    assert polygon_iou(box(0, 0, 10, 10), box(5, 0, 15, 10)) == pytest.approx(50 / 150)
    skewed = box(0, 0, 10, 10, ((0, 0), (10, 0), (10, 10), (0, 5)))  # a quadrilateral of area 75
    assert polygon_iou(skewed, box(0, 0, 10, 10)) == pytest.approx(75 / 100)
    # a bow-tie is repaired by buffer(0), as the official tool does: one lobe (area 25) is kept
    bow_tie = box(0, 0, 10, 10, ((0, 0), (10, 10), (10, 0), (0, 10)))
    assert polygon_iou(bow_tie, box(0, 0, 10, 10)) == pytest.approx(0.25)
    # degenerate outlines: 0, never a division by zero
    zero = box(0, 0, 0, 0, ((0, 0), (0, 0), (0, 0), (0, 0)))
    assert polygon_iou(zero, zero) == 0.0 and polygon_iou(zero, box(0, 0, 1, 1)) == 0.0
    assert polygon_iou(None, box(0, 0, 1, 1)) == 0.0
    # decimal coordinates are fine (the official tool crashes on them)
    assert polygon_iou(box(0.5, 0, 10.5, 10), box(0, 0, 10, 10)) == pytest.approx(9.5 / 10.5)
    assert iou_matrix([box(0, 0, 1, 1)], [box(5, 5, 6, 6), box(0, 0, 1, 1)], 0.6).tolist() == [[0.0, 1.0]]
    # pairs below the floor are left out (0.0 in the full matrix)
    assert iou_matrix([box(0, 0, 10, 10)], [box(5, 0, 15, 10), box(1, 0, 11, 10)], 0.6).rows == [{1: 9 / 11}]
    assert iou_matrix([box(0, 0, 10, 10)], [box(5, 0, 15, 10), box(1, 0, 11, 10)], 0.3).rows == [{0: 1 / 3, 1: 9 / 11}]
    # two boxes fit one: both kept, in their order (first-fit takes the first)
    elsewhere = [box(x, 500, x + 100, 600) for x in range(0, 1000, 100)]
    pairs = iou_matrix([box(60, 0, 160, 100)], [box(50, 0, 150, 100), box(40, 0, 140, 100), *elsewhere], 0.6)
    assert list(pairs.rows[0].items()) == [(0, 90 / 110), (1, 80 / 120)]


def _outline(x1, y1, x2, y2, shape):
    """A rectangle as the formats give it: plain, as a polygon in some corner
    order, closed, corner-swapped, or (to force the GEOS path) a bow-tie."""
    corners = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
    if shape == "plain":
        return box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
    if shape == "swapped":
        return box(x2, y2, x1, y1)
    pts = {"clockwise": corners, "anticlockwise": corners[::-1], "rotated": corners[2:] + corners[:2],
           "closed": corners + corners[:1], "bow-tie": (corners[0], corners[2], corners[1], corners[3])}[shape]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return box(min(xs), min(ys), max(xs), max(ys), tuple(pts))


_coordinate = st.integers(-50, 50) | st.integers(-2**23, 2**23)
_outlines = st.lists(
    st.none() | st.builds(_outline, _coordinate, _coordinate, _coordinate, _coordinate,
                          st.sampled_from(["plain", "swapped", "clockwise", "anticlockwise", "rotated", "closed"])),
    min_size=1, max_size=6)


def _in_order(overlaps):
    """Each row's pairs in their order: first-fit matching takes the first that fits."""
    return [list(row.items()) for row in overlaps.rows]


_floors = st.sampled_from([0.6, 0.7, 0.8, 0.9]) | st.floats(0.5, 1.0, exclude_min=True)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_outlines, _outlines, _floors)
def test_rectangle_iou_equals_geos_to_the_last_bit(gt, result, at_least):
    """Integer rectangles take a direct computation; it must give GEOS's floats exactly."""
    assert _in_order(iou_matrix(gt, result, at_least)) == _in_order(geos_iou_matrix(gt, result, at_least))


@st.composite
def _jittered_grids(draw):
    """Two readings of one page's grid of cells, as a recogniser and its ground
    truth give them: cells a few pixels apart, some dropped, some merged, some
    read twice (two boxes matching one cell: their order must be kept)."""
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    width, height = draw(st.integers(5, 80)), draw(st.integers(5, 40))
    jitter = draw(st.integers(0, 6))
    left, top = draw(st.integers(0, 500)), draw(st.integers(0, 500))  # the page's margins
    rng = draw(st.randoms(use_true_random=False))

    def reading():
        boxes = []
        for i in range(rows):
            for j in range(cols):
                if rng.random() < 0.1:
                    continue
                span = 2 if rng.random() < 0.1 else 1
                for _ in range(2 if rng.random() < 0.15 else 1):
                    x1 = left + j * width + rng.randint(-jitter, jitter)
                    y1 = top + i * height + rng.randint(-jitter, jitter)
                    boxes.append(_outline(x1, y1, x1 + span * width + rng.randint(-jitter, jitter),
                                          y1 + height + rng.randint(-jitter, jitter),
                                          rng.choice(["plain", "clockwise", "closed", "swapped"])))
        rng.shuffle(boxes)
        return boxes
    return reading(), reading()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_jittered_grids(), _floors)
def test_iou_of_jittered_grids_equals_geos(grids, at_least):
    """Pages of many cells: the bucket search finds every pair GEOS finds."""
    gt, result = grids
    assert _in_order(iou_matrix(gt, result, at_least)) == _in_order(geos_iou_matrix(gt, result, at_least))


def test_outlines_that_are_not_integer_rectangles_go_to_geos():
    bow_tie = _outline(0, 0, 10, 10, "bow-tie")
    assert iou_matrix([bow_tie], [box(0, 0, 10, 10)], 0.2).tolist() == [[0.25]]
    assert iou_matrix([bow_tie], [box(0, 0, 10, 10)], 0.6).tolist() == [[0.0]]
    assert iou_matrix([box(0.5, 0, 10.5, 10)], [box(0, 0, 10, 10)], 0.6).rows == [{0: 9.5 / 10.5}]


def test_scoring_pixel_boxes_never_imports_numpy():
    """numpy's import costs more than scoring a small set of pages."""
    import subprocess
    import sys

    page = ('<document filename="p.jpg"><table><Coords points="0,0 100,0 100,40 0,40"/>'
            '<cell start-row="0" end-row="0" start-col="0" end-col="0"><Coords points="0,0 50,0 50,40 0,40"/></cell>'
            '<cell start-row="0" end-row="0" start-col="1" end-col="1"><Coords points="50,0 100,0 100,40 50,40"/></cell>'
            '</table></document>')
    code = ("import sys, tempfile, pathlib\n"
            "from convertables.scoring import ScoreSettings, score_paths\n"
            "folder = pathlib.Path(tempfile.mkdtemp())\n"
            f"(folder / 'p.xml').write_text({page!r})\n"
            "report = score_paths(folder, folder, ScoreSettings(metric='ctdar-b'))\n"
            "print(report['total']['iou']['0.9']['correct'], 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "1 False\n"  # the one relation, A left of B, found


def test_relations_on_cell_identity():
    # A B / C D
    cells = [cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)]
    assert cell_relations(cells) == {(0, 1, "H"), (2, 3, "H"), (0, 2, "V"), (1, 3, "V")}
    # empty slots are skipped and not counted: A . B
    assert cell_relations([cell(0, 0), cell(0, 2)]) == {(0, 1, "H")}
    # a spanning cell links to every neighbour along its side, once
    assert cell_relations([cell(0, 0, 1, 0), cell(0, 1), cell(1, 1)]) == {
        (0, 1, "H"), (0, 2, "H"), (1, 2, "V")}


def test_overlapping_cells_link_to_every_occupant_but_themselves():
    x, z, y = cell(0, 0, 0, 1), cell(0, 1), cell(0, 2)  # z lies inside x's second slot
    assert cell_relations([x, z, y]) == {(0, 1, "H"), (0, 2, "H"), (1, 2, "H")}
    # two cells on the very same slots do not link to each other
    assert cell_relations([cell(0, 0), cell(0, 0), cell(0, 1)]) == {(0, 2, "H"), (1, 2, "H")}


_grid_cells = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from([0, 0, 0, 1, 2]),
                                 st.sampled_from([0, 0, 0, 1, 2])), max_size=14)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_grid_cells)
def test_relations_of_disjoint_cells_equal_the_general_scan(spec):
    """Where no slot is shared, relations come from runs of occupied slots; the
    general scan (every occupant of a slot linked) must give the same set."""
    from convertables.scoring import ctdar as ctdar_score

    cells = [cell(r, c, r + h, c + w) for r, c, h, w in spec]
    fast = cell_relations(cells)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ctdar_score, "_relations_of_disjoint_cells", lambda *args: None)
        assert cell_relations(cells) == fast


def test_track_a_is_greedy_in_document_order_and_optimal_on_request():
    g0, g1 = box(0, 0, 100, 100), box(100, 0, 200, 100)
    r0 = box(30, 0, 130, 100)   # IoU 0.54 with g0, 0.18 with g1
    r1 = box(0, 0, 100, 100)    # g0's twin
    gt, res = doc(table(g0), table(g1, table_id=1)), doc(table(r0), table(r1, table_id=1))
    counts = track_a(gt, res)
    assert {t: (c.correct, c.gt, c.detected) for t, c in counts.items()} == {
        0.6: (1, 2, 2), 0.7: (1, 2, 2), 0.8: (1, 2, 2), 0.9: (1, 2, 2)}
    steal = doc(table(box(0, 0, 100, 90)), table(box(0, 0, 100, 100), table_id=1))  # 0.9 and 1.0 with g0
    gt2 = doc(table(g0), table(box(0, 0, 100, 88), table_id=1))  # IoU 0.978 / 0.88 with the results
    greedy = track_a(gt2, steal)
    optimal = track_a(gt2, steal, matching="optimal")
    assert greedy[0.9].correct == 1  # g0 takes the first result at 0.9 and leaves g1 at 0.88 < 0.9
    assert optimal[0.9].correct == 2  # g0 -> the twin, g1 -> the first result (0.978)
    assert optimal[0.8].correct == 2 and greedy[0.8].correct == 2


def test_track_b_maps_cells_first_fit_and_counts_relations():
    outline = box(0, 0, 20, 20)
    gt = doc(table(outline, cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)))
    # the result merges the bottom row into one cell spanning both columns
    res = doc(table(outline, cell(0, 0), cell(0, 1), cell(1, 0, 1, 1)))
    counts, records = track_b(gt, res)
    c = counts[0.6]
    assert (c.gt, c.detected) == (4, 3)
    # mapped: A->A, B->B; C and D (IoU 0.5 with the merged cell) are unmapped at 0.6
    assert c.correct == 1  # only A-B survives
    assert counts[0.9].correct == 1
    half = doc(table(outline, cell(0, 0), cell(0, 1), cell(1, 0, 1, 1)))
    # first-fit is not one-to-one: with a lower bar both C and D map onto the merged cell
    counts, _ = track_b(doc(table(outline, cell(0, 0), cell(1, 0), cell(1, 1))), half)
    assert counts[0.6].correct == 0
    assert records[0]["result_table"] == 0 and records[0]["table_iou"] == 1.0


def test_track_b_pairs_tables_at_0_8_and_the_compat_bug_skips_the_next_one():
    t0, t1 = box(0, 0, 20, 20), box(100, 0, 120, 20)
    gt = doc(table(t0, cell(0, 0), cell(0, 1)), table(t1, cell(0, 10, at=box(100, 0, 110, 10)),
                                                      cell(0, 11, at=box(110, 0, 120, 10)), table_id=1))
    counts, _ = track_b(gt, gt)
    assert all((c.correct, c.gt, c.detected) == (2, 2, 2) for c in counts.values())
    counts, records = track_b(gt, gt, compat=True)
    assert all((c.correct, c.gt, c.detected) == (1, 2, 2) for c in counts.values())
    assert [(r["gt_table"], r["result_table"]) for r in records] == [(0, 0), (1, None), (None, 1)]
    # a table below 0.8 IoU is not paired, whatever the cell threshold
    shifted = doc(table(box(5, 0, 25, 20), cell(0, 0), cell(0, 1)))
    counts, _ = track_b(doc(table(t0, cell(0, 0), cell(0, 1))), shifted)
    assert counts[0.6].correct == 0 and counts[0.6].gt == 1 and counts[0.6].detected == 1


def _write_dir(folder, docs: dict[str, Document]):
    folder.mkdir()
    for name, d in docs.items():
        write(d, folder / f"{name}.xml", format="ctdar")


def test_missing_and_unreadable_results(tmp_path):
    outline = box(0, 0, 20, 20)
    page = doc(table(outline, cell(0, 0), cell(0, 1), cell(1, 0)))  # 2 relations, 1 table
    _write_dir(tmp_path / "gt", {f"p{i}": page for i in range(4)})
    _write_dir(tmp_path / "res", {"p0": page})
    (tmp_path / "res" / "p1.xml").write_text("<document><table>")
    settings = ScoreSettings(metric="ctdar-b")
    report = score_paths(tmp_path / "gt", tmp_path / "res", settings)
    assert report["total"]["iou"]["0.6"] == {"gt": 8, "correct": 2, "detected": 2, "precision": 1.0,
                                             "recall": 0.25, "f1": 0.4}
    assert len(report["errors"]) == 1 and "p1.xml" in report["errors"][0]
    compat = score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric="ctdar-b", compat=True))
    # p1 unreadable: 1 (its table count); of p2 and p3 (no result) only p3 counts
    assert compat["total"]["iou"]["0.6"]["gt"] == 2 + 1 + 2
    with pytest.raises(Exception):
        score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric="ctdar-b", compat=True, matching="optimal"))


# -- the real corpus ---------------------------------------------------------------------------------

@pytest.mark.parametrize("metric, track", [("ctdar-a", "trackA"), ("ctdar-b", "trackB2")])
def test_compat_reproduces_the_official_tool(metric, track):
    reference = json.loads(corpus_path("ctdar2019", "reference", "abbyy_official.json").read_text())[track]
    report = score_paths(corpus_path("ctdar2019", "gt_trackB2_modern"),
                         corpus_path("ctdar2019", "results_abbyy_finereader"),
                         ScoreSettings(metric=metric, compat=True))
    ours = {d["document"]: {t: (v["correct"], v["gt"], v["detected"]) for t, v in d["iou"].items()}
            for d in report["documents"]}
    official = {name: {t: (v["true"], v["gt"], v["res"]) for t, v in per.items()}
                for name, per in reference["per_file"].items()}
    assert ours == official
    for t, v in reference["overall"].items():
        mine = report["total"]["iou"][t]
        assert (mine["correct"], mine["gt"], mine["detected"]) == (v["correct"], v["gt"], v["res"])
        assert (mine["precision"], mine["recall"], mine["f1"]) == (v["precision"], v["recall"], v["f1"])
    assert report["total"]["wavg_f1"] == reference["wavg_f1"]


def test_the_correct_default_differs_only_where_the_tool_skips_a_table():
    reference = json.loads(corpus_path("ctdar2019", "reference", "abbyy_official.json").read_text())["trackB2"]
    report = score_paths(corpus_path("ctdar2019", "gt_trackB2_modern"),
                         corpus_path("ctdar2019", "results_abbyy_finereader"), ScoreSettings(metric="ctdar-b"))
    differ = {d["document"] for d in report["documents"]
              for t, v in d["iou"].items() if v["correct"] != reference["per_file"][d["document"]][t]["true"]}
    assert differ == {"cTDaR_t10014", "cTDaR_t10099"}
    assert report["total"]["wavg_f1"] > reference["wavg_f1"]


@pytest.mark.parametrize("folder", ["gt_trackA_archival", "gt_trackB1_archival", "gt_trackB2_modern"])
@pytest.mark.parametrize("metric", ["ctdar-a", "ctdar-b"])
def test_ground_truth_against_itself_is_one_at_every_threshold(folder, metric, tmp_path):
    gt = corpus_path("ctdar2019", folder)
    report = score_paths(gt, gt, ScoreSettings(metric=metric))
    assert [v["f1"] for v in report["total"]["iou"].values()] == [1.0] * 4
    assert report["total"]["wavg_f1"] == 1.0
    assert report["total"]["documents"] == len(list(gt.glob("*.xml")))


def test_a_pool_starts_only_once_the_first_documents_take_long_enough(tmp_path, monkeypatch):
    import concurrent.futures

    from convertables.scoring import runner

    outline = box(0, 0, 20, 20)
    pages = {f"p{i}": doc(table(outline, *[cell(0, c) for c in range(i + 1)])) for i in range(6)}
    _write_dir(tmp_path / "gt", pages)
    _write_dir(tmp_path / "res", pages)
    settings = ScoreSettings(metric="ctdar-b")
    serial = score_paths(tmp_path / "gt", tmp_path / "res", settings, jobs=1)
    pools = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def counting_pool(*args, **kwargs):
        pools.append(kwargs.get("max_workers"))
        return real_pool(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting_pool)
    monkeypatch.setattr(runner, "SERIAL_WORK_S", 3600.0)  # a corpus done before a pool would pay off
    assert score_paths(tmp_path / "gt", tmp_path / "res", settings, jobs=2) == serial
    assert pools == []
    monkeypatch.setattr(runner, "SERIAL_WORK_S", 0.0)  # all but the first two documents go to the workers
    assert score_paths(tmp_path / "gt", tmp_path / "res", settings, jobs=2) == serial
    assert pools == [2]


def test_outlines_near_the_float_limit_are_measured_quietly_or_reported(tmp_path, recwarn):
    huge = box(0, 0, 1e308, 1e308, ((0, 0), (1e308, 0), (1e308, 1e308), (0, 1e308), (5, 5)))
    assert polygon_iou(huge, huge) == 0.0  # the areas overflow: no IoU, and no warning on stderr
    assert not recwarn.list
    twisted = "-1e308,-1e308 1e308,-1e308 1e308,1e308 -1e308,1.5e308"  # GEOS cannot repair it
    for side in ("gt", "res"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "page.xml").write_text(
            f'<document filename="page.jpg"><table><Coords points="{twisted}"/>'
            f'<cell start-row="0" end-row="0" start-col="0" end-col="0"><Coords points="{twisted}"/></cell>'
            "</table></document>")
    report = score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric="ctdar-b"), jobs=1)
    (error,) = report["errors"]  # (the rest of the line is GEOS's own words)
    assert error.startswith(f"{tmp_path / 'res' / 'page.xml'}: error geometry-failed an outline cannot be repaired (")


_TWO_CELLS = ('<cell start-row="0" end-row="0" start-col="0" end-col="0"><Coords points="0,0 10,0 10,10 0,10"/></cell>'
              '<cell start-row="0" end-row="0" start-col="1" end-col="1"><Coords points="10,0 20,0 20,10 10,10"/></cell>')
_GT_PAGE = f'<document filename="a.jpg"><table><Coords points="0,0 20,0 20,10 0,10"/>{_TWO_CELLS}</table></document>'


def _totals(report) -> tuple:
    return tuple((t, v["correct"], v["gt"], v["detected"]) for t, v in report["total"]["iou"].items())


def _score_both_tracks(tmp_path, gt: dict[str, str], res: dict[str, str]) -> tuple:
    for side, pages in (("gt", gt), ("res", res)):
        (tmp_path / side).mkdir()
        for name, text in pages.items():
            (tmp_path / side / name).write_text(text)
    return tuple(_totals(score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric=m), jobs=1))
                 for m in ("ctdar-a", "ctdar-b"))


def test_a_result_table_with_its_own_coords_before_its_region_is_outlined_by_them(tmp_path):
    # (found against the official tool, which takes the first Coords in the table)
    result = ('<document filename="a.jpg"><table id="0"><Coords points="50,50 70,50 70,60 50,60"/>'
              f'<region id="0" page="1"><Coords points="0,0 20,0 20,10 0,10"/>{_TWO_CELLS}</region></table></document>')
    track_a_totals, track_b_totals = _score_both_tracks(tmp_path, {"a.xml": _GT_PAGE}, {"a.xml": result})
    assert track_a_totals == tuple((t, 0, 1, 1) for t in ("0.6", "0.7", "0.8", "0.9"))
    assert track_b_totals == tuple((t, 0, 1, 1) for t in ("0.6", "0.7", "0.8", "0.9"))


def test_names_ending_in_a_and_b_are_two_documents_for_ctdar(tmp_path):
    # (ICDAR 2013's alternatives of one PDF are not a cTDaR convention)
    pages = {"p1a.xml": _GT_PAGE, "p1b.xml": _GT_PAGE}
    track_a_totals, track_b_totals = _score_both_tracks(tmp_path, pages, pages)
    assert track_a_totals == track_b_totals == tuple((t, 2, 2, 2) for t in ("0.6", "0.7", "0.8", "0.9"))


def _canonical(cells_frame: str, boxes: list, pages: list) -> str:
    """A result as canonical JSON: one table of two cells (``boxes``: the table's, then the cells')."""
    table, *cells = ({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "frame": cells_frame} for x1, y1, x2, y2 in boxes)
    return json.dumps({"format": "convertables", "version": 1, "filename": "a.jpg", "pages": pages, "tables": [
        {"id": 0, "regions": [{"id": 0, "page": 1, "bbox": table, "cells": [
            {"start_row": 0, "start_col": k, "end_row": 0, "end_col": k, "content": None, "bbox": b}
            for k, b in enumerate(cells)]}]}]})


def test_boxes_in_frames_that_cannot_be_compared_are_an_error_not_a_zero(tmp_path):
    from typer.testing import CliRunner

    from convertables.cli import app

    # the ground truth's cells in pixels; the result's the same cells in PDF points on a page 100 points high
    in_points = [(0, 90, 20, 100), (0, 90, 10, 100), (10, 90, 20, 100)]
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "a.xml").write_text(_GT_PAGE)
    (tmp_path / "res").mkdir()
    result = tmp_path / "res" / "a.json"
    result.write_text(_canonical("pdf", in_points, []))
    report = score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric="ctdar-b"))
    (record,) = report["documents"]
    assert not record["counted"] and report["total"]["documents"] == 0
    assert record["error"].endswith(
        "error frames-incomparable not scored: the ground truth's boxes are in image pixels, the result's in PDF "
        "points; 3 box(es) of the ground truth cannot be converted into PDF points without the image's DPI and the "
        "page's height, which neither file says: convert the ground truth with --dpi and --page-height (or --pdf, or "
        "--image) (convertables convert)")
    run = CliRunner().invoke(app, ["score", "--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "res"),
                                   "--metric", "ctdar-a"])
    assert run.exit_code == 1 and "frames-incomparable" in run.output
    # where the result says its page's size and DPI, its boxes are converted into pixels and match
    result.write_text(_canonical("pdf", in_points, [{"number": 1, "width": 100.0, "height": 100.0, "frame": "pdf",
                                                     "dpi": 72.0}]))
    report = score_paths(tmp_path / "gt", tmp_path / "res", ScoreSettings(metric="ctdar-b"))
    assert report["errors"] == [] and report["total"]["wavg_f1"] == 1.0
