"""The cTDaR reader's two ways through a region agree: cells of the ground
truth's plain shape are read in bulk (all points parsed at once), anything else
cell by cell. Both must give the same model and the same diagnostics, lines
included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convertables.diagnostics import Diagnostics
from convertables.formats import ctdar
from convertables.options import ReadOptions

from ..conftest import corpus_path
from ..helpers import read_both_ways


def _read_both(data: bytes, options: ReadOptions = ReadOptions()):
    """(bulk document, its diagnostics, cell-by-cell document, its diagnostics, regions read in bulk)."""
    fast, fast_diagnostics, bulk_regions, slow, slow_diagnostics = read_both_ways(ctdar, data, options)
    return fast, fast_diagnostics, slow, slow_diagnostics, bulk_regions


def _assert_same(fast, fast_diagnostics, slow, slow_diagnostics):
    assert fast == slow
    for a, b in zip(fast.tables, slow.tables):  # -0.0 == 0.0: compare the spelling too
        assert repr(a) == repr(b)
    assert [d.format() for d in fast_diagnostics.items] == [d.format() for d in slow_diagnostics.items]


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["gt_trackA_archival", "gt_trackB1_archival", "gt_trackB2_modern",
                                    "results_abbyy_finereader", "results_namysl_ctn"])
def test_corpus_files_read_the_same_both_ways(folder):
    files = sorted(corpus_path("ctdar2019", folder).glob("*.xml"))
    assert files
    bulk = 0
    for path in files:
        for keep in (False, True):
            fast, fd, slow, sd, regions = _read_both(path.read_bytes(), ReadOptions(extra={"keep_filler_cells": keep}))
            _assert_same(fast, fd, slow, sd)
            bulk += sum(regions)
    if folder.startswith("gt_trackB"):
        assert bulk > 0  # the ground truth's cells are read in bulk


def _page(cells: list[str]) -> bytes:
    return ("<?xml version='1.0' encoding='UTF-8'?>\n<document filename='p.jpg'>\n<table>\n"
            "<Coords points='0,0 500,0 500,300 0,300'/>\n" + "\n".join(cells) + "\n</table>\n</document>\n").encode()


def _cell(r, c, points, extra=""):
    return f'<cell start-row="{r}" end-row="{r}" start-col="{c}" end-col="{c}"{extra}><Coords points="{points}"/></cell>'


PLAIN = [_cell(0, 0, "1,1 50,1 50,20 1,20"), _cell(0, 1, "51,1 90,1 90,20 51,20")]


@pytest.mark.parametrize("cells, bulk", [
    (PLAIN, True),
    (PLAIN + [_cell(1, 0, "0,0 0,0 0,0 0,0")], True),  # an ABBYY filler cell
    (PLAIN + [_cell(1, 0, "-0,5 10.5,5 10.5,9e1 -0,9e1")], True),  # -0 is read as float() reads it
    (PLAIN + [_cell(1, 0, "+1,05 .5,5 3.,7 1E1,2e-1")], True),  # numbers JSON would refuse
    (PLAIN + [_cell(1, 0, "1,1 2,2 3,1 4,5 2,9 1,4", ' id="7" type="header"')], True),  # a hexagon, an id
    ([_cell(0, 0, "1,1 5,5", ' id="x"'), _cell(0, 1, "6,1 9,5", ' id="3"')], True),
    (PLAIN + [_cell(1, 0, "")], False),  # no points: an error, said by the careful reading
    (PLAIN + [_cell(1, 0, "1,1 2")], False),
    (PLAIN + [_cell(1, 0, "1,1 1e999,2")], False),
    (PLAIN + [_cell(1, 0, "1,1 nan,2")], False),
    (PLAIN + ['<cell start-row="1" start-col="0"><Coords points="1,1 2,2"/></cell>'], False),  # end-row missing
    (PLAIN + ['<cell start-row="1" end-row="1" start-col="-1" end-col="0"><Coords points="1,1 2,2"/></cell>'], False),
    (PLAIN + ['<cell start-row="1" end-row="1" start-col="0" end-col="0"><Coords points="1,1 2,2"/>'
              '<content>a</content></cell>'], False),
    (PLAIN + ['<cell start-row="1" end-row="1" start-col="0" end-col="0"><Coords/></cell>'], False),
    (PLAIN + ['<cell start-row="1" end-row="1" start-col="0" end-col="0"><x><Coords points="1,1 2,2"/></x></cell>'],
     False),
    (PLAIN + [_cell(0, 1, "60,1 95,1 95,20 60,20")], True),  # two cells on one slot: a warning with its line
])
def test_written_cases_read_the_same_both_ways(cells, bulk):
    fast, fd, slow, sd, regions = _read_both(_page(cells))
    _assert_same(fast, fd, slow, sd)
    assert regions == [bulk]


@pytest.mark.parametrize("written, read_as", [
    ("7", 7), (" 7 ", 7), ("\u0667", 7), ("\u00b2", None), ("x", None), ("-1", None), ("9" * 12, None)])
def test_ids_and_pages_are_taken_where_they_are_numbers(written, read_as):
    # "\u00b2" (a superscript two) passes str.isdigit() and fails int(): read as no number
    cells = [_cell(0, 0, "1,1 5,5", f' id="{written}"'), _cell(0, 1, "6,1 9,5", f' id="{written}"')]
    fast, fd, slow, sd, regions = _read_both(_page(cells))
    _assert_same(fast, fd, slow, sd)
    assert [c.id for c in fast.tables[0].cells()] == [read_as, read_as]
    hybrid = (f'<document><table id="{written}"><region id="{written}" page="{written}">'
              '<Coords points="0,0 9,0 9,9 0,9"/></region></table></document>').encode()
    table = ctdar.read(hybrid, Diagnostics("h.xml")).document.tables[0]
    assert (table.id, table.regions[0].id, table.regions[0].page) == (
        (0, 0, 1) if read_as is None else (read_as, read_as, read_as))


def test_a_diagnostic_on_a_bulk_read_cell_names_its_line():
    cells = PLAIN + [_cell(0, 1, "60,1 95,1 95,20 60,20")]
    fast, fd, _, _, regions = _read_both(_page(cells))
    assert regions == [True]
    overlap = [d for d in fd.items if d.code == "slot-overlap"]
    assert [d.line for d in overlap] == [7]  # the third cell's line


_numbers = st.one_of(st.integers(-10**6, 10**6).map(str), st.floats(-1e6, 1e6, allow_nan=False).map(repr),
                     st.sampled_from(["-0", "+3", "007", ".5", "5.", "1e3", "-0.0", "2E-2"]))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(_numbers, _numbers), min_size=1, max_size=6), min_size=1, max_size=8))
def test_any_points_read_the_same_both_ways(polygons):
    cells = [_cell(0, k, " ".join(f"{x},{y}" for x, y in polygon)) for k, polygon in enumerate(polygons)]
    fast, fd, slow, sd, regions = _read_both(_page(cells))
    _assert_same(fast, fd, slow, sd)
    assert regions == [True]
