"""Canonical JSON, the safe XML helper, and format detection."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from convertables import registry
from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import canonical_json
from convertables.model import BBox, Cell, Document, Frame, Instruction, Page, Region, Table, TextItem
from convertables.validation import first_json_error, plainly_valid, validate_json
from convertables.xmlsafe import parse_xml
from tests.unit.test_properties import any_text, documents


def _rich_doc() -> Document:
    quad = ((10.0, 10.0), (50.0, 12.0), (48.0, 30.0), (9.0, 28.0))
    return Document(
        filename="cTDaR_t10000.jpg",
        tables=[
            Table(0, [Region(0, 1, BBox(9, 10, 50, 30, Frame.IMAGE, quad), 0, 0, [
                Cell(0, 0, 0, 1, None, 7, BBox(9, 10, 50, 30, Frame.IMAGE, quad)),
                Cell(1, 0, 1, 0, " ", None, None, True),
                Cell(1, 1, 1, 1, "naïve\nline", markup=("n", "a", "ï", "<b>", "v", "e", "</b>", "\n", "l")),
            ])], ("<tr>", "<td", ' colspan="2"', ">", "</td>", "</tr>", "<tr>", "<td>", "</td>", "<td>", "</td>",
                  "</tr>")),
        ],
        pages=[Page(1, 1240, 1754, Frame.IMAGE, 150.0)],
        metadata={"generator": "test"},
    )


def test_html_markup_and_skeleton_survive_json():
    """What TEDS needs of an HTML table (a cell's inline tags, the <thead>) goes
    through the canonical JSON and back unchanged."""
    from convertables.files import read_document

    html = (b"<table><thead><tr><th>Name</th><th colspan=2>Value</th></tr></thead>"
            b"<tbody><tr><td><b>Total</b> sum</td><td>1</td><td> 2  </td></tr></tbody></table>")
    doc = read_document(html, registry.get("html"), "t.html")
    (table,) = doc.tables
    assert table.html_structure == ("<thead>", "<tr>", "<th>", "</th>", "<th", ' colspan="2"', ">", "</th>",
                                    "</tr>", "</thead>", "<tbody>", "<tr>", "<td>", "</td>", "<td>", "</td>",
                                    "<td>", "</td>", "</tr>", "</tbody>")
    bold = next(c for c in table.cells() if c.content == "Total sum")
    assert bold.markup == ("<b>", "T", "o", "t", "a", "l", "</b>", " ", "s", "u", "m")
    spaced = next(c for c in table.cells() if c.content == "2")
    assert spaced.markup == (" ", "2", " ", " ")
    written = canonical_json.write(doc, Diagnostics())
    assert validate_json(json.loads(written)) == []
    assert json.loads(written)["tables"][0]["html_structure"][0] == "<thead>"
    back = read_document(written, registry.get("json"), "t.json")
    assert back.tables[0].html_structure == table.html_structure
    assert [c.markup for c in back.tables[0].cells()] == [c.markup for c in table.cells()]
    assert back == doc
    # absent where the source has none: no key written
    plain = read_document(b"<table><tr><td>a</td></tr></table>", registry.get("html"), "p.html")
    plain.tables[0].html_structure = None
    assert b"markup" not in canonical_json.write(plain, Diagnostics())
    assert b"html_structure" not in canonical_json.write(plain, Diagnostics())


def test_json_round_trip_keeps_everything():
    doc = _rich_doc()
    data = canonical_json.write(doc, Diagnostics())
    assert validate_json(json.loads(data)) == []
    assert canonical_json.read(data, Diagnostics()) == doc


@pytest.mark.parametrize(
    "data, code",
    [
        (b"", "json-empty"),
        (b"{", "json-syntax"),
        (b"\xff\xfe{}", "json-syntax"),
        (b'{"format": "convertables", "version": 1, "tables": [{"id": -1, "regions": []}]}', "json-schema"),
        (b'{"format": "convertables", "version": 1, "tables": [], "x1": NaN}', "json-syntax"),
        (b'{"format": "other", "version": 1, "tables": []}', "json-schema"),
    ],
)
def test_bad_json_is_one_clean_error(data, code):
    with pytest.raises(InputError) as info:
        canonical_json.read(data, Diagnostics("bad.json"))
    assert info.value.diagnostic.code == code
    assert info.value.diagnostic.file == "bad.json"


def test_full_schema_report_names_the_place():
    findings = validate_json({"format": "convertables", "version": 1, "tables": [{"id": 0}]})
    assert [f.code for f in findings] == ["json-schema"]
    assert "tables/0" in findings[0].message and "regions" in findings[0].message


SECRET = "s3cr3t-c0ntent-of-a-local-file"


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


def test_external_entities_never_leak(secret_file: Path):
    data = (
        f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret_file}">]>'
        f"<document filename='a'>&x;</document>"
    ).encode()
    with pytest.raises(InputError) as info:
        parse_xml(data, Diagnostics("xxe.xml"))
    assert info.value.diagnostic.code == "xml-entity"
    assert SECRET not in str(info.value)


def test_entity_bombs_are_refused_at_once():
    lol = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    data = f'<!DOCTYPE d [<!ENTITY l0 "lol">{lol}]><d>&l9;</d>'.encode()
    with pytest.raises(InputError) as info:
        parse_xml(data, Diagnostics("bomb.xml"))
    assert info.value.diagnostic.code == "xml-entity"


def test_external_dtd_is_not_loaded():
    root = parse_xml(b'<!DOCTYPE d SYSTEM "http://127.0.0.1:9/x.dtd"><d>ok</d>', Diagnostics())
    assert root.text == "ok"


@pytest.mark.parametrize("data", [b"", b"   ", b"\x00\x01\x02", b"<d>", b"<a></b>"])
def test_broken_xml_is_one_clean_error(data):
    with pytest.raises(InputError) as info:
        parse_xml(data, Diagnostics("x.xml"))
    assert info.value.diagnostic.code in {"xml-empty", "xml-syntax"}


@pytest.mark.parametrize(
    "head, name, expected",
    [
        (b"<?xml version='1.0'?>\n<document filename='a'><table id='0'><region id='0' page='1'>", "a.xml", "icdar"),
        (b'<document filename="x.jpg"><table><Coords points="1,1 2,2"/><cell start-row="0"', "a.xml", "ctdar"),
        (b'<document filename="x.jpg"><table><Coords points="1,1"/><cell id="0" neighbors="1:R">', "a.xml", "pod"),
        (b'<?xml version="1.0"?><Page CropBox="0" PageNum="1">', "p.xml", "marmot"),
        (b"<!DOCTYPE html><html><body><table>", "x.bin", "html"),
        (b"PK\x03\x04rest", "a.xlsx", "xlsx"),
        (b'{\n "format": "convertables", "version": 1', "x", "json"),
        (b"whatever", "a.htm", "html"),
        # the prologue is passed over, a tag inside a comment or doctype included
        (b'<?xml version="1.0"?>\n<!-- <Page> --><!DOCTYPE document [<!ELEMENT Page ANY>]>\n'
         b"<?pi <Page?><document filename='a'><table>", "a.xml", "icdar"),
        (b'<!-- a\nlong\ncomment --><m:Page xmlns:m="urn:x" PageNum="1">', "p.xml", "marmot"),
        # UTF-16, with a byte-order mark either way round or without one
        ('<?xml version="1.0" encoding="UTF-16"?><document><table><Coords points="1,1 2,2"/>'.encode("utf-16"),
         "a.xml", "ctdar"),
        ('<document><table><Coords points="1,1"/><cell id="0" neighbors="1:R">'.encode("utf-16-be"), "a.xml", "pod"),
        ('<Page PageNum="1">'.encode("utf-16-le"), "a.xml", "marmot"),
        ('\ufeff{"format": "convertables"'.encode("utf-16-be"), "a", "json"),
        (b'<d:document xmlns:d="urn:x"><d:table><d:Coords points="1,1 2,2"/>', "a.xml", "ctdar"),  # prefixed
        (b"<document><table><region><bounding-box/><!-- Coordsystem --></region>", "a.xml", "icdar"),
    ],
)
def test_format_detection(head, name, expected):
    assert registry.detect(Path(name), head).name == expected


def test_detection_falls_back_on_the_suffix_and_gives_up_without_one():
    assert registry.detect(Path("a.xml"), b"<other/>").name == "icdar"  # its reader says what is wrong
    assert registry.detect(Path("a.txt"), b"hello") is None


# -- the quick reading of the JSON Schema -------------------------------------------------------

def _places(value, out=None) -> list:
    """Every (container, key) in a JSON value, containers included."""
    out = [] if out is None else out
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        out.append((value, key))
        _places(child, out)
    return out


_ODD_VALUES = [None, True, False, 0, -1, 1, 2, 1.0, 1.5, float("inf"), "", "pdf", "image", "convertables", [], [1],
               [1, 2], [[1, 2]], {}, {"instr_id": 1}, ["<b>"], [None]]


def _rich_data() -> dict:
    """Canonical JSON using every part of the schema once."""
    doc = _rich_doc()
    doc.tables[0].regions[0].instructions = (Instruction(4, None),)
    doc.tables[0].regions[0].cells[0].instructions = (Instruction(5, 2),)
    doc.pages[0].items = [TextItem(BBox(1, 2, 3, 4), "x")]
    return canonical_json.to_data(doc)


@pytest.mark.slow
def test_quick_schema_reading_never_accepts_what_the_schema_refuses():
    """Every single change of the rich document (each value replaced by each odd
    value, each key deleted, an unknown key added to each object): the quick
    reading may refuse what the schema accepts, never the other way round."""
    assert plainly_valid(_rich_data()) and not validate_json(_rich_data())
    variants = 0
    for index in range(len(_places(_rich_data()))):
        for action, value in [("set", v) for v in _ODD_VALUES] + [("delete", None), ("add", 1)]:
            data = _rich_data()
            container, key = _places(data)[index]
            if action == "set":
                container[key] = copy.deepcopy(value)
            elif not isinstance(container, dict):
                continue
            elif action == "delete":
                del container[key]
            else:
                container["unexpected"] = value
            schema_accepts = not validate_json(data)
            if plainly_valid(data):
                assert schema_accepts, (index, action, value, data)
            assert (first_json_error(data) is None) == schema_accepts
            variants += 1
    assert variants > 1500


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents(markup=True))
def test_documents_as_written_take_the_quick_path(doc):
    data = canonical_json.to_data(doc)
    assert plainly_valid(data) and not validate_json(data)


# Texts that look like the written form of the next cell, quotes and line breaks:
# the layout must never split a cell there.
_LOOKALIKE_TEXT = st.sampled_from(['a, {"id": 3, "x"', ', {"id": ', '"', "\n", '\\", {"id": 1}', "}, {"]) | any_text


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents(text=_LOOKALIKE_TEXT, markup=True))
def test_every_cell_is_written_on_a_line_of_its_own(doc):
    data = canonical_json.to_data(doc)
    text = canonical_json.write(doc, Diagnostics("t.json")).decode("utf-8")
    assert json.loads(text) == data
    cell_lines = [line for line in text.split("\n") if line.startswith('    {"id": ')]
    written = [json.loads(line.rstrip(",")) for line in cell_lines]
    assert written == [cell for table in data["tables"] for region in table["regions"] for cell in region["cells"]]


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents(text=_LOOKALIKE_TEXT, markup=True))
def test_a_cell_is_written_as_the_encoder_writes_its_dict(doc):
    """The writer formats cells itself; character for character what json's
    encoder makes of the cell's dict (the JSON Schema's form)."""
    numbers, coordinates = {None: "null"}, {}  # (shared by the regions, as the writer shares them)
    for table in doc.tables:
        for region in table.regions:
            expected = [f"    {canonical_json._compact(canonical_json._cell(cell))}," for cell in region.cells]
            assert canonical_json._cell_lines(region.cells, numbers, coordinates) == expected


@pytest.mark.parametrize("order", [1, -1], ids=["as-listed", "reversed"])
def test_box_coordinates_are_written_as_the_encoder_writes_them_whatever_comes_first(order):
    values = [0.0, -0.0, 1, 1.0, True, 0.1, 2.5, 2**60, float(2**60), 1e300, -7.0, 9007199254740993]
    cells = [Cell(0, k, 0, k, "x", bbox=BBox(v, -v, v, 3.0, frame))
             for k, (v, frame) in enumerate(zip(values[::order], [Frame.PDF, Frame.IMAGE] * 6))]
    lines = canonical_json._cell_lines(cells, {None: "null"}, {})
    assert lines == [f"    {canonical_json._compact(canonical_json._cell(cell))}," for cell in cells]


@pytest.mark.parametrize("index", [0, 1, 4095, 4096, 65535, 10**12, -1, -4096])
def test_a_cell_with_any_index_is_written_as_the_encoder_writes_it(index):
    """Indices' text is made once and looked up after: as json writes them."""
    numbers: dict = {None: "null"}
    for cell in (Cell(index, 0, index, 1, "x", index), Cell(0, index, 2, index, None, None, None, True),
                 Cell(index, index, index, index, "y", None)):
        assert canonical_json._cell_lines([cell], numbers, {}) == [f"    {canonical_json._compact(canonical_json._cell(cell))},"]


@pytest.mark.parametrize("first", [True, False], ids=["odd-ones-first", "ints-first"])
def test_integral_indices_of_other_types_are_written_as_ints_whatever_comes_first(first):
    odd = [Cell(True, 1.0, 2.0, 2, "a", False), Cell(0, 1.5, 0, 1.5, "b")]  # (1.5 is as json writes it)
    plain = [Cell(1, 1, 2, 2, "a", 0), Cell(0, 1, 0, 1, "c")]
    lines = canonical_json._cell_lines(odd + plain if first else plain + odd, {None: "null"}, {})
    by_content: dict[str, list[str]] = {}
    for line in lines:
        assert line.startswith('    {"id": ') and line.endswith("},")
        line = line.strip().rstrip(",")
        by_content.setdefault(json.loads(line)["content"], []).append(line)
    assert by_content == {
        "a": ['{"id": 0, "start_row": 1, "start_col": 1, "end_row": 2, "end_col": 2, "content": "a", '
              '"header": false}'] * 2,
        "b": ['{"id": null, "start_row": 0, "start_col": 1.5, "end_row": 0, "end_col": 1.5, "content": "b", '
              '"header": false}'],
        "c": ['{"id": null, "start_row": 0, "start_col": 1, "end_row": 0, "end_col": 1, "content": "c", '
              '"header": false}'],
    }


def test_an_index_that_is_not_a_number_json_can_write_is_bad_number():
    doc = _rich_doc()
    doc.tables[0].regions[0].cells[0].start_row = float("nan")
    with pytest.raises(InputError) as error:
        canonical_json.write(doc, Diagnostics("nan.json"))
    assert error.value.diagnostic.code == "bad-number"


def test_integers_written_with_a_fraction_read_as_ints():
    """JSON Schema counts 1.0 as an integer: such a file is valid, and the model
    holds ints (written back as 1, never 1.0)."""
    data = json.loads(canonical_json.write(_rich_doc(), Diagnostics()))
    data["pages"][0]["number"] = 1.0
    region = data["tables"][0]["regions"][0]
    data["tables"][0]["id"] = 0.0
    region.update(id=0.0, page=1.0, row_increment=2.0, col_increment=0.0,
                  instructions=[{"instr_id": 3.0, "subinstr_id": None}])
    region["cells"][0].update(id=7.0, start_row=0.0, end_col=1.0, instructions=[{"instr_id": 5.0, "subinstr_id": 6.0}])
    assert not plainly_valid(data) and first_json_error(data) is None
    doc = canonical_json.read(json.dumps(data).encode(), Diagnostics("f.json"))
    region = doc.tables[0].regions[0]
    cell = region.cells[0]
    values = [doc.pages[0].number, doc.tables[0].id, region.id, region.page, region.row_increment,
              region.col_increment, region.instructions[0].instr_id, cell.id, cell.start_row, cell.end_col,
              cell.instructions[0].instr_id, cell.instructions[0].subinstr_id]
    assert values == [1, 0, 0, 1, 2, 0, 3, 7, 0, 1, 5, 6]
    assert all(type(v) is int for v in values)
    written = canonical_json.write(doc, Diagnostics()).decode()
    assert written.count(".0") == 1 and '"dpi": 150.0' in written  # the one float of the document
