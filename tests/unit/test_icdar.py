"""The ICDAR 2013 reader and writer on small hand-written inputs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from convertables import WriteOptions
from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import icdar
from convertables.model import BBox, Cell, Document, Frame, Region, Table
from convertables.validation import validate_xml
from convertables.files import read_document
from tests.helpers import codes, read_both_ways

STRUCTURE = (
    b"<?xml version='1.0' encoding='UTF-8'?>\r\n"
    b"<document filename=\"doc.pdf\">\r\n"
    b" <table id='0'>\r\n"
    b"  <region id=\"0\" page='2' col-increment='1' row-increment=\"0\">\r\n"
    b"   <cell id='0' start-row='0' start-col='0'>\r\n"
    b"    <bounding-box x1='10' y1='20' x2='30.5' y2='40'/>\r\n"
    b"    <content>COUNTRY</content>\r\n"
    b"    <instruction instr-id='65' subinstr-id='0'/>\r\n"
    b"   </cell>\r\n"
    b"   <cell id='0' start-row='0' start-col='1' end-col='2'><content>3 years\r\nold</content></cell>\r\n"
    b"   <cell id='2' start-row='1' start-col='0' end-row='2' end-col='0'><content/></cell>\r\n"
    b"  </region>\r\n"
    b" </table>\r\n"
    b"</document>\r\n"
)


def read(data: bytes) -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics("t.xml")
    return read_document(data, icdar.FORMAT, diagnostics.file or "<input>", diagnostics=diagnostics), diagnostics


def test_reads_cells_spans_boxes_and_quirks():
    doc, diagnostics = read(STRUCTURE)
    assert doc.filename == "doc.pdf"
    region = doc.tables[0].regions[0]
    assert (region.id, region.page, region.col_increment, region.row_increment) == (0, 2, 1, 0)
    first, second, third = region.cells
    assert (first.start_row, first.end_row, first.start_col, first.end_col) == (0, 0, 0, 0)  # missing ends
    assert first.bbox == BBox(10, 20, 30.5, 40, Frame.PDF)
    assert first.instructions == ()  # skipped by default
    assert (second.start_col, second.end_col, second.content) == (1, 2, "3 years\nold")  # CRLF normalised
    assert (third.row_span, third.content, third.is_unknown) == (2, None, True)
    assert codes(diagnostics) == ["duplicate-id"]  # info: repeated ids are common in real ground truth
    assert diagnostics.items[0].severity.value == "info"


@pytest.mark.parametrize(
    "fragment, code, line",
    [
        (b"<cell start-row='0' start-col='0'><bounding-box x1='2x' y1='0' x2='1' y2='1'/><content>a</content></cell>",
         "bad-number", 3),
        (b"<cell start-row='0' start-col='0'><bounding-box x1='nan' y1='0' x2='1' y2='1'/><content>a</content></cell>",
         "bad-number", 3),
        (b"<cell start-row='0' start-col='0'><bounding-box x1='0' y1='5' x2='1' y2='1'/><content>a</content></cell>",
         "box-inverted", 3),
        (b"<cell start-row='x' start-col='0'><content>a</content></cell>", "bad-number", 3),
        (b"<cell start-col='0'><content>a</content></cell>", "missing-attribute", 3),
        (b"<cell start-row='0' start-col='0' row-end='1'><content>a</content></cell>", "unknown-attribute", 3),
        (b"<cell start-row='2' start-col='0' end-row='1'><content>a</content></cell>", "span-inverted", 3),
        (b"<cell start-row='0' start-col='0'><content>a</content></cell>"
         b"<cell start-row='0' start-col='0'><content>b</content></cell>", "slot-overlap", 3),
        # the second cell's own line, past a dropped one
        (b"<cell start-row='0' start-col='0' end-row='0' end-col='0'><content>a</content></cell>\n<cell/>\n"
         b"<cell start-row='0' start-col='0' end-row='0' end-col='0'><content>b</content></cell>", "slot-overlap", 5),
        (b"<cell start-row='-1' start-col='0'><content>a</content></cell>", "grid-negative", 3),
        (b"<cell start-row='0' start-col='0'><content>a</content><foo/></cell>", "unknown-element", 3),
        (b"<cell start-row='0' start-col='0'/>", "missing-content", 3),
    ],
)
def test_each_malformation_is_a_diagnostic_with_its_line(fragment, code, line):
    data = b"<document filename='d.pdf'>\n<table id='0'><region id='0' page='1'>\n" + fragment + b"\n</region></table></document>"
    doc, diagnostics = read(data)
    found = [d for d in diagnostics if d.code == code]
    assert found, codes(diagnostics)
    assert found[0].line == line and found[0].file == "t.xml"
    assert len(doc.tables[0].regions) == 1  # reading went on


def test_a_file_that_is_not_icdar_fails_cleanly():
    with pytest.raises(InputError) as info:
        read(b"<Page CropBox='0 0 1 1'/>")
    assert info.value.diagnostic.code == "icdar-root"
    with pytest.raises(InputError) as info:
        read(b"<document><table id='0'>")
    assert info.value.diagnostic.code == "xml-syntax" and info.value.diagnostic.line == 1


def _doc(*cells: Cell, bbox: BBox | None = None) -> Document:
    return Document("d.pdf", [Table(0, [Region(0, 1, bbox=bbox, cells=list(cells))])])


def test_writer_leaves_out_blank_cells_unless_asked_and_keeps_unknown_ones():
    doc = _doc(Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, "  "), Cell(1, 0, 1, 1, None))
    default = etree.fromstring(icdar.write(doc, Diagnostics()))
    assert [c.find("content").text for c in default.iter("cell")] == ["a", None]
    assert etree.tostring(default.findall(".//cell")[1].find("content"), with_tail=False) == b"<content/>"
    kept = etree.fromstring(icdar.write(doc, Diagnostics(), WriteOptions(keep_blank=True)))
    assert [c.find("content").text for c in kept.iter("cell")] == ["a", "  ", None]
    for root in (default, kept):
        assert validate_xml(root, "structure") == []


def test_region_model_needs_a_box_and_uses_the_cells_envelope():
    doc = _doc(Cell(0, 0, 0, 0, "a", bbox=BBox(1, 2, 3, 4)), Cell(0, 1, 0, 1, "b", bbox=BBox(5, 0, 9, 3)))
    root = etree.fromstring(icdar.write(doc, Diagnostics(), WriteOptions(model="region")))
    assert dict(root.find(".//bounding-box").attrib) == {"x1": "1", "y1": "0", "x2": "9", "y2": "4"}
    assert validate_xml(root, "region") == []
    with pytest.raises(InputError) as info:
        icdar.write(_doc(Cell(0, 0, 0, 0, "a")), Diagnostics(), WriteOptions(model="region"))
    assert info.value.diagnostic.code == "missing-bbox"


def test_writer_says_when_boxes_are_not_pdf_points():
    doc = _doc(Cell(0, 0, 0, 0, "a", bbox=BBox(1, 2, 3, 4, Frame.IMAGE)))
    diagnostics = Diagnostics()
    xml = icdar.write(doc, diagnostics)
    assert codes(diagnostics) == ["frame-foreign"]
    assert b"<!-- coordinates: image pixels" in xml


def test_writer_drops_characters_xml_cannot_hold():
    diagnostics = Diagnostics()
    xml = icdar.write(_doc(Cell(0, 0, 0, 0, "a\x00b\x1fc")), diagnostics)
    assert etree.fromstring(xml).findtext(".//content") == "abc"
    assert codes(diagnostics) == ["xml-invalid-char"]


_ATTRIBUTE_VALUES = {
    "start-row": ["0", "1", " 2", "+3", "-1", "x", "1e3", "2000000000"],
    "start-col": ["0", "1", "4", "-2", "", "99999999999"],
    "end-row": [None, "0", "1", "3", "y"],
    "end-col": [None, "0", "2", "5"],
    "id": [None, "0", "7", "-1", "abc", "3000000000"],
    "type": [None, "header", "data"],
    "row-end": [None, "1"],  # a misspelling: warned about, and the cell read otherwise
}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.permutations(list(_ATTRIBUTE_VALUES)),
                          st.fixed_dictionaries({k: st.sampled_from(v) for k, v in _ATTRIBUTE_VALUES.items()})),
                min_size=1, max_size=6))
def test_cells_read_by_attribute_layout_equal_cells_read_attribute_by_attribute(cells):
    """The usual cell's attributes are taken in one call, by where they sit;
    every cell must read as it does attribute by attribute, diagnostics included."""
    lines = []
    for order, values in cells:
        attributes = " ".join(f'{name}="{values[name]}"' for name in order if values[name] is not None)
        lines.append(f"<cell {attributes}><content>t</content></cell>")
    data = ("<document filename='d.pdf'><table id='0'><region id='0' page='1'>\n"
            + "\n".join(lines) + "\n</region></table></document>").encode()
    quick_doc, quick = read(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(icdar, "_cell_layout", lambda keys: None)
        slow_doc, slow = read(data)
    assert quick_doc == slow_doc
    assert [(d.code, d.line, d.message) for d in quick] == [(d.code, d.line, d.message) for d in slow]


# -- regions of plain cells, read from their serialization -------------------------------

def _read_both_ways(data: bytes, options: icdar.ReadOptions = icdar.ReadOptions()):
    return read_both_ways(icdar, data, options)


def test_a_region_of_plain_cells_is_read_from_its_serialization_with_text_unescaped():
    data = (
        "<document filename='d.pdf'><table id='0'><region id='0' page='1'>\n"
        "  <cell start-row='0' start-col='0' end-row='0' end-col='1' id='4' type='header'>\n"
        "    <content>p &lt; 0.05 &amp; R&amp;D &gt; x\r\n&#233;&#x1F600;\u00e9</content>\n  </cell>\n"
        "  <cell start-row='1' start-col='0' end-row='2' end-col='0' id='5' type='data'><content/></cell>\n"
        "  <cell start-row='1' start-col='1' end-row='1' end-col='1' id='6' type=''>"
        "<content><![CDATA[a<b>&]]></content>"
        "</cell>\n"
        "</region></table></document>"
    ).encode()
    doc, diagnostics, plain, slow_doc, _ = _read_both_ways(data)
    assert plain == [True]
    assert doc.tables[0].regions[0].cells == [
        Cell(0, 0, 0, 1, "p < 0.05 & R&D > x\n\u00e9\U0001F600\u00e9", 4, None, True),
        Cell(1, 0, 2, 0, None, 5, None, False),
        Cell(1, 1, 1, 1, "a<b>&", 6, None, False),
    ]
    assert doc == slow_doc and not diagnostics.items


def test_plain_cells_of_a_latin1_file_read_as_its_characters():
    data = ("<?xml version='1.0' encoding='ISO-8859-1'?>\n<document filename='d.pdf'><table id='0'>"
            "<region id='0' page='1'><cell start-row='0' start-col='0' end-row='0' end-col='0'>"
            "<content>Caf\u00e9 &amp; cr\u00e8me \u00b5g</content></cell></region></table></document>"
            ).encode("latin-1")
    doc, _, plain, slow_doc, _ = _read_both_ways(data)
    assert plain == [True]
    assert doc.tables[0].regions[0].cells[0].content == "Caf\u00e9 & cr\u00e8me \u00b5g"
    assert doc == slow_doc


def test_a_region_of_more_plain_cells_than_the_limit_is_read_element_by_element(monkeypatch):
    cells = "".join(_PLAIN.format(c, c) for c in range(3))
    data = f"<document filename='d.pdf'><table id='0'><region>{cells}</region></table></document>".encode()
    monkeypatch.setattr(icdar, "_PLAIN_CELLS_MAX", 2)
    doc, _, plain, slow_doc, _ = _read_both_ways(data)
    assert plain == [False] and doc == slow_doc and len(doc.tables[0].regions[0].cells) == 3


def test_a_grid_error_among_plain_cells_is_reported_on_its_own_line():
    data = (b"<document filename='d.pdf'><table id='0'><region id='0' page='1'>\n"
            b"<cell start-row='0' start-col='0' end-row='0' end-col='0'><content>a</content></cell>\n"
            b"<cell start-row='0' start-col='0' end-row='0' end-col='0'><content>b</content></cell>\n"
            b"</region></table></document>")
    doc, diagnostics, plain, _, slow = _read_both_ways(data)
    assert plain == [True]
    assert [(d.code, d.line) for d in diagnostics] == [(d.code, d.line) for d in slow] == [("slot-overlap", 3)]


_CELL_VALUES = {
    "start-row": ["0", "3", "-1", " 2", "+3", "007", "x", "999999999", "1000000000", "1000000001"],
    "start-col": ["0", "1", "-2", ""],
    "end-row": [None, "0", "4"],
    "end-col": [None, "1", "2"],
    "id": [None, "0", "7", "-1", "1000000000"],
    "type": [None, "header", "data", "a&amp;b"],
    "col-end": [None, "1"],
}
_CONTENTS = [
    "<content>t</content>", "<content/>", "<content></content>", "<content>  a \u00a0b </content>",
    "<content>1 &lt; 2 &amp;&amp; 3 &gt; 2 &#13;&#10;&#x41;</content>", "<content>\u00e9\U0001F600</content>",
    "<content>a<b>bold</b> c</content>", "<content><![CDATA[<x/> & y]]></content>", "",
    "\n   <content>t</content>\n  ", "<bounding-box x1='1' y1='2' x2='3' y2='4'/><content>b</content>",
    "<content>t</content><instruction instr-id='3'/>", "<content>t</content><other/>",
    "<!-- a comment --><content>t</content>", "<content kind='x'>t</content>",
    "<p:content xmlns:p='urn:p'>t</p:content>", "<content xmlns='urn:q'>t</content>", "text<content>t</content>",
    "<content>xmlns=\"urn:x\"</content>", "<content>t</content><content>u</content>",
    "<cell start-row='0' start-col='0' end-row='0' end-col='0'><content>n</content></cell>",
    "<bounding-box x1='1' x2='3' y1='2' y2='4'/><content>b</content>",
    "<bounding-box x1='1.5' y1='2' x2='3.25' y2='4'/><content>b</content><instruction instr-id='1'/>",
    "<bounding-box x1='5' y1='2' x2='3' y2='4'/><content>inverted</content>",
    "<bounding-box x1='1e3' y1='2' x2='3e3' y2='4'/><content>e</content>",
    "<bounding-box x1='-1' y1='x' x2='3' y2='4'/><content>bad</content>",
    "<bounding-box x1='1' y1='2' x2='3'/><content>three</content>",
    "<bounding-box x1='1' y1='2' x2='3' y2='4' extra='5'/><content>five</content>",
    "<bounding-box x1='1' y1='2' x2='3' y2='4'>text</bounding-box><content>t</content>",
    "<content>t</content><bounding-box x1='1' y1='2' x2='3' y2='4'/>",
    "<content>t</content><instruction instr-id='1' subinstr-id='-1'/><instruction instr-id='2'/>",
    "<content>t</content><instruction/>", "<content>t</content><instruction>x</instruction>",
    "<content>t</content><instruction instr-id='1'><cell start-row='0' start-col='0'><content>n</content>"
    "</cell></instruction>", "<content>t</content><instructions/>",
    "<instruction instr-id='1'/><content>t</content>",
]
_BETWEEN = ["\n", "", " text ", "<!-- <cell start-row='0' start-col='0' end-row='0' end-col='0'> -->",
            "<instruction instr-id='9'/>", "<bounding-box x1='0' y1='0' x2='5' y2='5'/>", "<?pi x?>", "<other/>",
            "<instruction instr-id='9'><cell start-row='5' start-col='0'><content>n</content></cell></instruction>"]
_PLAIN_CONTENTS = ["<content>p</content>", "\n   <content>p</content>\n  ", "<content/>"]
_ROOTS = ["<document filename='d.pdf'>", "<document filename='d.pdf' xmlns:p='urn:p'>",
          "<document filename='d.pdf' xmlns='urn:d'>"]
_REGIONS = ["<region id='0' page='1'>", "<region id='0' page='1' xmlns='urn:r'>", "<region>"]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    root=st.sampled_from(_ROOTS[:1] * 4 + _ROOTS),
    region=st.sampled_from(_REGIONS[:1] * 4 + _REGIONS),
    cells=st.lists(
        st.tuples(
            st.permutations(list(_CELL_VALUES)),
            st.fixed_dictionaries({k: st.sampled_from(v) for k, v in _CELL_VALUES.items()}),
            st.sampled_from(_CONTENTS),
            st.sampled_from(_BETWEEN),
        ),
        max_size=6,
    ),
    keep_instructions=st.booleans(),
    plain_weight=st.sampled_from([0, 1, 2, 6, 6, 6]),
    plain_content=st.sampled_from(_PLAIN_CONTENTS),
)
def test_regions_read_from_their_serialization_equal_regions_read_element_by_element(
        root, region, cells, keep_instructions, plain_weight, plain_content):
    """Whatever a region holds, the two ways through it give the same cells and the
    same diagnostics, lines included; most regions drawn mix plain cells with others."""
    parts = []
    for i, (order, values, content, between) in enumerate(cells):
        if i < plain_weight:  # plain: the same layout as the first cell, a text content
            order, content, between = cells[0][0], plain_content, "\n"
            first = cells[0][1]  # the same attributes as the first cell: valid values
            values = {**first, "start-row": str(i), "start-col": "0", "col-end": None,
                      "end-row": first["end-row"] and str(i), "end-col": first["end-col"] and "0",
                      "id": first["id"] if first["id"] in (None, "0", "7") else None}
        attributes = " ".join(f'{name}="{values[name]}"' for name in order if values[name] is not None)
        parts.append(f"<cell {attributes}>{content}</cell>{between}")
    data = f"{root}<table id='0'>{region}{''.join(parts)}</region></table></document>".encode()
    options = icdar.ReadOptions(keep_instructions=keep_instructions)
    quick_doc, quick, _, slow_doc, slow = _read_both_ways(data, options)
    assert quick_doc == slow_doc
    assert repr(quick_doc) == repr(slow_doc)
    assert [(d.code, d.line, d.message) for d in quick] == [(d.code, d.line, d.message) for d in slow]


_PLAIN = "<cell start-row='0' start-col='{}' end-row='0' end-col='{}'><content>p</content></cell>"


@pytest.mark.parametrize("inside", [
    _PLAIN.format(0, 0) + "<other>" + _PLAIN.format(1, 1) + "</other>",  # as many plain cells as children
    "<cell start-row='0' start-col='0' end-row='0' end-col='0'>" + _PLAIN.format(1, 1) + "</cell>",
    _PLAIN.format(0, 0) + "<x:cell xmlns:x='urn:x' start-row='0' start-col='1' end-row='0' end-col='1'>"
                          "<content>p</content></x:cell>",
    _PLAIN.format(0, 0) + "<cell xmlns='urn:x' start-row='0' start-col='1' end-row='0' end-col='1'>"
                          "<content>p</content></cell>",
    _PLAIN.format(0, 0) + "<cell start-row='0' start-col='1' end-row='0' end-col='1'>"
                          "<content xmlns='urn:x'>p</content></cell>",
    # elements that an empty instruction would excuse, were they one
    _PLAIN.format(0, 0) + "<instruction instr-id='1'>" + _PLAIN.format(1, 1) + "</instruction>",
    _PLAIN.format(0, 0) + "<instructions>" + _PLAIN.format(1, 1) + "</instructions>",
    # boxes of other corners than the four
    "<cell start-row='0' start-col='0' end-row='0' end-col='0'><bounding-box x1='1' y1='2' x2='3'/>"
    "<content>p</content></cell>" + _PLAIN.format(1, 1),
    "<cell start-row='0' start-col='0' end-row='0' end-col='0'><bounding-box x1='1' y1='2' x2='3' y2='4' z='5'/>"
    "<content>p</content></cell>" + _PLAIN.format(1, 1),
])
def test_regions_that_only_look_plain_are_read_element_by_element(inside):
    for region in ("<region id='0' page='1'>", "<region id='0' page='1' xmlns='urn:r'>"):
        data = f"<document filename='d.pdf'><table id='0'>{region}{inside}</region></table></document>".encode()
        doc, quick, plain, slow_doc, slow = _read_both_ways(data)
        # (a cell without a box may be plain; so may one in a default namespace, read by its name)
        assert plain in ([False], []) or "bounding-box" in inside or "xmlns='" in inside
        assert doc == slow_doc
        assert [d.format() for d in quick] == [d.format() for d in slow]


_PLAIN_DOCUMENT = (
    "<?xml version='1.0' encoding='UTF-8'?>\n<document filename='p.pdf'><table id='1'><region>"
    + "".join(f"<cell start-col='{c}' start-row='{r}' end-col='{c + (r == 0 and c == 0)}' end-row='{r}'>"
              f"<content>{text}</content></cell>"
              for r, row in enumerate([["A &amp; B", "", "p &lt; 0.05"], ["\u00e9t\u00e9", "1", "2"]])
              for c, text in enumerate(row) if not (r == 0 and c == 1))
    + "</region></table></document>"
).encode()


# Where an edit most often leaves the document well-formed: between elements and in
# text, at the end of a start tag, at the start of an attribute value.
_EDIT_AT = sorted({i + 1 for i, b in enumerate(_PLAIN_DOCUMENT) if b == ord(">")}
                  | {i for i, b in enumerate(_PLAIN_DOCUMENT) if b == ord(">") and _PLAIN_DOCUMENT[i - 1] == ord("'")}
                  | {i + 2 for i in range(len(_PLAIN_DOCUMENT)) if _PLAIN_DOCUMENT[i:i + 2] == b"='"})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_EDIT_AT), st.sampled_from(
    [b"", b"-", b"9", b"09", b" ", b"x", b"&amp;", b"&#10;", b"\xc3\xa9", b"<b/>", b"<!-- c -->", b"<?p i?>",
     b"<![CDATA[<&>]]>", b" id='3'", b" type='header'", b" xmlns='u'", b" xmlns:p='u'", b"<", b"&", b"'", b">",
     b"<cell start-col='0' start-row='5' end-col='0' end-row='5'><content>n</content></cell>", b"</cell>"]),
    st.sampled_from([0, 0, 0, 1, 2, 8])), min_size=1, max_size=3))
def test_mutated_plain_documents_read_alike_both_ways(edits):
    """Bytes cut from and put into a document of plain cells: both ways through its
    region give the same cells and diagnostics, or the same error."""
    data = bytearray(_PLAIN_DOCUMENT)
    for at, insert, cut in sorted(edits, reverse=True):  # from the end: each edit where it was drawn
        data[at:at + cut] = insert
    outcomes = []
    for plain_cells in (icdar._Reader.plain_cells, lambda self, el: None):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(icdar._Reader, "plain_cells", plain_cells)
            diagnostics = Diagnostics("t.xml")
            try:
                doc = icdar.read(bytes(data), diagnostics).document
            except InputError as exc:
                outcomes.append(("error", exc.diagnostic.format()))
                continue
        outcomes.append((repr(doc), [d.format() for d in diagnostics]))
    assert outcomes[0] == outcomes[1]


def _read_text(text: str) -> tuple[Document, Diagnostics]:
    found = Diagnostics("x.xml")
    return read_document(text.encode(), icdar.FORMAT, "x.xml", icdar.ReadOptions(), found), found


def test_a_namespace_declared_on_a_cell_is_read_by_its_names():
    doc, found = _read_text(
        "<document filename='d.pdf'><table id='0'><region id='0' page='1'>"
        "<cell start-row='0' start-col='0'><content>a</content></cell>\n"
        "<cell xmlns='urn:x' start-row='0' start-col='1'><content>b</content></cell>"
        "</region></table></document>")
    assert [c.content for c in doc.tables[0].cells()] == ["a", "b"]
    assert [(d.code, d.line) for d in found] == [("xml-namespace", 2)]


def test_wrapped_elements_are_read_again_from_the_start_and_said_once():
    """The first reading stops at the wrapper; what it had said is not said twice."""
    doc, found = _read_text(
        "<document filename='d.pdf'><table id='0'><region id='0' page='1'>\n"
        "<cell start-row='0' start-col='x'><content>a</content></cell>\n"
        "<row><cell start-row='1' start-col='0'><content>b</content></cell></row>\n"
        "</region></table></document>")
    assert [c.content for c in doc.tables[0].cells()] == ["b"]
    assert [(d.code, d.line) for d in found] == [("wrapped-element", 3), ("bad-number", 2), ("cell-dropped", 2)]


def test_the_text_of_a_cell_is_all_its_text_where_some_is_outside_content():
    doc, found = _read_text(
        "<document filename='d.pdf'><table id='0'><region id='0' page='1'>"
        "<cell start-row='0' start-col='0'>\n  <content>a</content><note>b</note>\n</cell>"
        "<cell start-row='0' start-col='1'>\u00a0<content>c</content></cell>"
        "<cell start-row='0' start-col='2'>\n <bounding-box x1='1' y1='1' x2='2' y2='2'/>\n <content>d</content>\n</cell>"
        "</region></table></document>")
    # (a no-break space is text to the official tool; spaces and line breaks are layout)
    assert [c.content for c in doc.tables[0].cells()] == ["ab", "\u00a0c", "d"]
    assert [d.code for d in found] == ["unknown-element", "text-outside-content"]
