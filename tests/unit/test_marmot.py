"""Marmot page XML (fixtures written from the format's description, docs/formats.md: no original file is public)."""

from __future__ import annotations

import struct

import pytest

from convertables import ReadOptions, read
from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import marmot
from tests.conftest import ROOT

SAMPLE = ROOT / "samples" / "marmot" / "sample.xml"


def test_hex_doubles_are_big_endian_ieee754():
    assert marmot.parse_number(struct.pack(">d", 595.25).hex()) == 595.25
    assert marmot.parse_number("4082A00000000000") == 596.0
    assert marmot.parse_number("12.5") == 12.5


def test_tables_chars_and_pages():
    doc = read(SAMPLE, "marmot")
    (table,) = doc.tables
    box = table.regions[0].bbox
    assert (table.page, box.x1, box.y1, box.x2, box.y2) == (3, 98, 678, 130, 710)
    assert not doc.has_cells
    (page,) = doc.pages
    assert (page.number, page.width, page.height) == (3, 595, 842)
    assert [i.text for i in page.items] == list("AB12T1nx")
    assert page.items[0].bbox.x1 == 100 and page.items[0].bbox.y2 == 708


@pytest.mark.parametrize("extra, expected", [
    ({"with_caption": True}, (98, 678, 130, 740)),
    ({"with_footnote": True}, (98, 648, 130, 710)),
    ({"with_caption": True, "with_footnote": True}, (98, 648, 130, 740)),
])
def test_caption_and_footnote_widen_the_region(extra, expected):
    box = read(SAMPLE, "marmot", ReadOptions(extra=extra)).tables[0].regions[0].bbox
    assert (box.x1, box.y1, box.x2, box.y2) == expected


def test_any_attribute_order_decimals_and_bad_boxes():
    data = b"""<Page CropBox="0 842 595 0" PageNum="0"><Contents><Leafs>
    <Leaf BBox="1 2 x 4" Label="Char" LID="1" PLID="2" PID="1">a</Leaf></Leafs><Composites>
    <Composite CLIDs="" PLID="0" BBox="10.5 700 300 600" LID="2" Label="TableBody"/></Composites></Contents></Page>"""
    diagnostics = Diagnostics("m.xml")
    doc = marmot.read(data, diagnostics)
    box = doc.tables[0].regions[0].bbox
    assert (box.x1, box.y1, box.x2, box.y2) == (10.5, 600, 300, 700)
    assert doc.tables[0].page == 1 and doc.pages[0].items == []
    assert {"bad-number", "marmot-page"} <= set(diagnostics.codes())
    with pytest.raises(InputError):
        marmot.read(b"<document/>", Diagnostics())


def test_items_survive_the_canonical_json():
    from convertables import dumps
    from convertables.formats import canonical_json

    doc = read(SAMPLE, "marmot")
    assert canonical_json.read(dumps(doc, "json"), Diagnostics()) == doc


@pytest.mark.parametrize("written, page", [("3", 3), (" 3 ", 3), ("\u00b3", 1), ("x", 1), ("", 1)])
def test_the_page_number_is_taken_where_it_is_a_number(written, page):
    data = f'<Page CropBox="0 842 595 0" PageNum="{written}"><Contents/></Page>'.encode()
    assert marmot.read(data, Diagnostics("m.xml")).pages[0].number == page
