"""POD neighbour XML: the grid rebuilt from relations (and geometry)."""

from __future__ import annotations

import pytest

from convertables import read
from convertables.diagnostics import Diagnostics
from convertables.formats import pod
from convertables.grid import overlapping_cells
from tests.conftest import corpus_path

# A header spanning two columns over a 2x2 body, then a cell spanning two rows on the left:
#   H   H   | X
#   a   b   | X
#   c   d   | e
SPANS = b"""<?xml version="1.0"?>
<document filename="t.jpg"><table><Coords points="0,0 300,0 300,150 0,150"/>
<cell id="0" neighbors="1:B 2:B 3:R"><Coords points="0,0 200,0 200,40 0,40"/></cell>
<cell id="1" neighbors="0:T 2:R 4:B"><Coords points="0,50 90,50 90,90 0,90"/></cell>
<cell id="2" neighbors="0:T 1:L 3:R 5:B"><Coords points="110,50 200,50 200,90 110,90"/></cell>
<cell id="3" neighbors="0:L 2:L 6:B"><Coords points="210,0 300,0 300,90 210,90"/></cell>
<cell id="4" neighbors="1:T 5:R"><Coords points="0,100 90,100 90,150 0,150"/></cell>
<cell id="5" neighbors="2:T 4:L 6:R"><Coords points="110,100 200,100 200,150 110,150"/></cell>
<cell id="6" neighbors="3:T 5:L"><Coords points="210,100 300,100 300,150 210,150"/></cell>
</table></document>"""


def _grid(doc):
    return {c.id: (c.start_row, c.start_col, c.end_row, c.end_col) for c in doc.tables[0].cells()}


def test_spans_are_rebuilt_from_relations():
    diagnostics = Diagnostics("t.xml")
    doc = pod.read(SPANS, diagnostics)
    assert _grid(doc) == {0: (0, 0, 0, 1), 1: (1, 0, 1, 0), 2: (1, 1, 1, 1), 3: (0, 2, 1, 2),
                          4: (2, 0, 2, 0), 5: (2, 1, 2, 1), 6: (2, 2, 2, 2)}
    assert doc.metadata["pod_relations"] == "20/20"
    assert all(c.content is None for c in doc.tables[0].cells())  # unknown, not blank


def test_geometry_places_cells_without_relations():
    bare = SPANS.replace(b'neighbors="1:B 2:B 3:R"', b'neighbors=""').replace(b'neighbors="1:T 5:R"', b'neighbors=""')
    doc = pod.read(bare, Diagnostics())
    assert _grid(doc)[0] == (0, 0, 0, 1) and _grid(doc)[4] == (2, 0, 2, 0)


def test_a_relation_the_geometry_contradicts_is_not_used():
    # cell 1 sits below cell 0 but calls it R (as the real files sometimes do)
    data = b"""<document filename="t.jpg"><table><Coords points="0,0 100,0 100,100 0,100"/>
<cell id="0" neighbors="1:B"><Coords points="0,0 100,0 100,40 0,40"/></cell>
<cell id="1" neighbors="0:R"><Coords points="0,60 100,60 100,100 0,100"/></cell></table></document>"""
    doc = pod.read(data, Diagnostics())
    assert _grid(doc) == {0: (0, 0, 0, 0), 1: (1, 0, 1, 0)}
    assert doc.metadata["pod_relations"] == "1/2"


def test_the_public_files_reproduce_99_percent_without_overlaps():
    held = total = 0
    files = sorted(corpus_path("pod").rglob("*.xml"))
    assert len(files) == 15
    for path in files:
        diagnostics = Diagnostics(str(path))
        doc = read(path, "pod", diagnostics=diagnostics)
        h, t = map(int, doc.metadata["pod_relations"].split("/"))
        held, total = held + h, total + t
        for region in doc.regions():
            assert overlapping_cells(region.cells) == [], path.name
        assert "pod-relations" in diagnostics.codes() or t == 0
    assert total == 4158 and held / total >= 0.99


def test_a_cell_id_that_is_no_number_is_read_as_none():
    # "\u00b2" (a superscript two) passes str.isdigit() and fails int()
    doc = pod.read(SPANS.replace(b'<cell id="0"', '<cell id="\u00b2"'.encode()).replace(b'<cell id="4"', b'<cell id=" 4 "'),
                   Diagnostics())
    assert set(_grid(doc)) == {None, 1, 2, 3, 4, 5, 6}


@pytest.mark.slow
def test_a_header_over_thousands_of_cells_is_read():
    # the header's lower edge joins 3,000 upper edges: one long chain for the union-find
    n = 3000
    cells = [f'<cell id="0" neighbors="{" ".join(f"{k}:B" for k in range(1, n + 1))}">'
             f'<Coords points="0,0 {n * 10},0 {n * 10},10 0,10"/></cell>']
    cells += [f'<cell id="{k}" neighbors="0:T"><Coords points="{(k - 1) * 10},20 {(k - 1) * 10 + 9},20 '
              f'{(k - 1) * 10 + 9},30 {(k - 1) * 10},30"/></cell>' for k in range(1, n + 1)]
    data = (f'<document filename="x.jpg"><table><Coords points="0,0 {n * 10},0 {n * 10},40 0,40"/>'
            + "".join(cells) + "</table></document>").encode()
    grid = _grid(pod.read(data, Diagnostics()))
    assert grid[0] == (0, 0, 0, n - 1)
    assert [grid[k] for k in (1, n)] == [(1, 0, 1, 0), (1, n - 1, 1, n - 1)]
