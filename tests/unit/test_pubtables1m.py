"""PubTables-1M structure annotations (PASCAL VOC XML) and their words.

The cells expected here were checked against microsoft/table-transformer's own
evaluation (``postprocess.objects_to_cells``, run on the same annotation and
words while developing; it is not run by the tests): grid, spans, header flags
and text equal, boxes to 1e-3 (the official code computes them in 32-bit floats).
The rule cases are in tests/cases/pubtables1m/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import ReadOptions, read, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.model import Frame

SAMPLE = ("pubtables1m", "PMC497045_table_2.xml")

# Words of our own for the sample's table image (PubTables-1M ships one words JSON per image;
# the sample's is not public here): text invented, boxes placed in the annotation's rows and columns.
WORDS = [
    {"bbox": [40, 40, 80, 52], "text": "Strain", "flags": 0, "block_num": 0, "line_num": 0, "span_num": 0},
    {"bbox": [120, 40, 160, 52], "text": "Genotype", "flags": 0, "block_num": 1, "line_num": 0, "span_num": 0},
    {"bbox": [170, 40, 220, 52], "text": "Source", "flags": 0, "block_num": 2, "line_num": 0, "span_num": 0},
    {"bbox": [230, 40, 300, 52], "text": "Growth", "flags": 0, "block_num": 3, "line_num": 0, "span_num": 0},
    {"bbox": [410, 40, 480, 52], "text": "Reference", "flags": 0, "block_num": 4, "line_num": 0, "span_num": 0},
    {"bbox": [40, 60, 90, 72], "text": "BY4741", "flags": 0, "block_num": 0, "line_num": 1, "span_num": 0},
    {"bbox": [120, 60, 150, 72], "text": "MATa", "flags": 0, "block_num": 1, "line_num": 1, "span_num": 0},
    # the spanning cell's two lines, listed bottom first: read in line order
    {"bbox": [40, 329, 75, 339], "text": "shock", "flags": 0, "block_num": 0, "line_num": 6, "span_num": 0},
    {"bbox": [40, 306, 70, 318], "text": "Heat", "flags": 0, "block_num": 0, "line_num": 5, "span_num": 0},
    {"bbox": [260, 609, 275, 618], "text": "°C", "flags": 0, "block_num": 3, "line_num": 9, "span_num": 1},
    {"bbox": [240, 609, 255, 618], "text": "37", "flags": 0, "block_num": 3, "line_num": 9, "span_num": 0},
    # across columns 3 and 4 (x 408.33): 58% in column 4
    {"bbox": [400, 609, 420, 618], "text": "n=3", "flags": 0, "block_num": 4, "line_num": 9, "span_num": 0},
    # below the table: not read
    {"bbox": [300, 640, 340, 650], "text": "Table", "flags": 0, "block_num": 9, "line_num": 0, "span_num": 0},
]


def _cells(doc):
    return {(c.start_row, c.start_col): c for c in doc.tables[0].cells()}


def test_the_real_sample_reads_as_the_official_evaluation_makes_its_cells(corpus):
    diagnostics = Diagnostics()
    doc = read(corpus(*SAMPLE), diagnostics=diagnostics)  # sniffed from its content
    assert registry.detect(corpus(*SAMPLE), corpus(*SAMPLE).read_bytes()).name == "pubtables1m"
    assert doc.filename == "PMC497045_table_2.jpg"
    assert (doc.pages[0].width, doc.pages[0].height, doc.pages[0].frame) == (694, 659, Frame.IMAGE)
    assert not diagnostics.items
    (table,) = doc.tables
    assert table.regions[0].bbox[:4] == (36.7376, 36.9036, 655.5468, 619.6997)
    cells = table.cells()
    # 34 table rows x 5 columns, one spanning cell over rows 14 and 15 of the first column
    assert len(cells) == 34 * 5 - 1
    assert (max(c.end_row for c in cells), max(c.end_col for c in cells)) == (33, 4)
    spanning = [c for c in cells if c.row_span > 1 or c.col_span > 1]
    assert [(c.start_row, c.start_col, c.end_row, c.end_col) for c in spanning] == [(14, 0, 15, 0)]
    assert spanning[0].bbox[:4] == (36.7376, 302.9775, 117.2456, 340.5539)
    # the column header is the first row
    assert sorted({c.start_row for c in cells if c.header}) == [0]
    assert sum(c.header for c in cells) == 5
    # row-major order; no words: content unknown; boxes the row x column intersections, in pixels
    assert [(c.start_row, c.start_col) for c in cells] == sorted((c.start_row, c.start_col) for c in cells)
    assert all(c.content is None and c.bbox.frame is Frame.IMAGE for c in cells)
    first = _cells(doc)[(0, 0)]
    assert first.bbox[:4] == (36.7376, 36.9036, 117.2456, 57.0438)
    assert _cells(doc)[(33, 4)].bbox[:4] == (408.3273, 607.3011, 655.5468, 619.6997)


def _expected_with_words(doc):
    cells = _cells(doc)
    # rows and columns holding no word are left out, as the official code leaves them out:
    # rows 0, 1, 14, 15 and 33 are kept, the spanning cell over rows 14-15 is now over rows 2-3
    assert len(cells) == 5 * 5 - 1
    assert {k: c.content for k, c in cells.items() if c.content} == {
        (0, 0): "Strain", (0, 1): "Genotype", (0, 2): "Source", (0, 3): "Growth", (0, 4): "Reference",
        (1, 0): "BY4741", (1, 1): "MATa", (2, 0): "Heat shock", (4, 3): "37 °C", (4, 4): "n=3"}
    assert all(c.content == "" for c in cells.values() if not c.content)  # blank, not unknown
    assert (cells[(2, 0)].end_row, cells[(2, 0)].end_col) == (3, 0)
    assert [k for k, c in cells.items() if c.header] == [(0, c) for c in range(5)]
    # boxes shrink to the words as the official code shrinks them: a row's top and bottom to the
    # words of the cells starting and ending in it (row 14's bottom stays: no cell with words ends there)
    assert cells[(2, 0)].bbox[:4] == (40, 306, 90, 339)
    assert cells[(2, 1)].bbox[:4] == (120, 306, 160, 327.5784)
    assert cells[(0, 4)].bbox[:4] == (400, 40, 480, 52)
    assert cells[(4, 3)].bbox[:4] == (230, 609, 300, 618)


def test_words_give_the_text_and_leave_out_rows_without_words(corpus, tmp_path: Path):
    words = tmp_path / "words.json"
    words.write_text(json.dumps(WORDS), encoding="utf-8")
    diagnostics = Diagnostics()
    doc = read(corpus(*SAMPLE), options=ReadOptions(words=words), diagnostics=diagnostics)
    _expected_with_words(doc)
    refined = [d.message for d in diagnostics if d.code == "pubtables1m-refined"]
    assert refined == ["table 0 (line 15): left out as the official code leaves them out: rows without words (29)"]


def test_a_folder_of_words_files_names_each_by_the_annotation(corpus, tmp_path: Path):
    (tmp_path / "PMC497045_table_2_words.json").write_text(json.dumps({"words": WORDS}), encoding="utf-8")
    _expected_with_words(read(corpus(*SAMPLE), options=ReadOptions(words=str(tmp_path))))
    # a folder without this annotation's words: read without them, with a warning
    empty = tmp_path / "empty"
    empty.mkdir()
    diagnostics = Diagnostics()
    doc = read(corpus(*SAMPLE), options=ReadOptions(words=empty), diagnostics=diagnostics)
    assert "pubtables1m-no-words" in diagnostics.codes()
    assert all(c.content is None for c in doc.tables[0].cells())


def test_convert_takes_words_on_the_command_line(corpus, tmp_path: Path):
    words = tmp_path / "w.json"
    words.write_text(json.dumps(WORDS), encoding="utf-8")
    out = tmp_path / "t.json"
    result = CliRunner().invoke(app, ["convert", str(corpus(*SAMPLE)), "--words", str(words), "--to", "json",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.output
    _expected_with_words(read(out))


def _annotation(objects: str = "") -> bytes:
    return (f"<annotation><filename>t.jpg</filename><size><width>100</width><height>50</height></size>"
            f"<object><name>table</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>100</xmax><ymax>40</ymax>"
            f"</bndbox></object>"
            f"<object><name>table row</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>100</xmax><ymax>20</ymax>"
            f"</bndbox></object>"
            f"<object><name>table row</name><bndbox><xmin>0</xmin><ymin>20</ymin><xmax>100</xmax><ymax>40</ymax>"
            f"</bndbox></object>"
            f"<object><name>table column</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>50</xmax><ymax>40</ymax>"
            f"</bndbox></object>"
            f"<object><name>table column</name><bndbox><xmin>50</xmin><ymin>0</ymin><xmax>100</xmax><ymax>40</ymax>"
            f"</bndbox></object>{objects}</annotation>").encode()


def _read(data: bytes, tmp_path: Path, words=None) -> tuple:
    from convertables.files import read_document

    options = ReadOptions()
    if words is not None:
        path = tmp_path / "t_words.json"
        path.write_bytes(words if isinstance(words, bytes) else json.dumps(words).encode())
        options = ReadOptions(words=path)
    diagnostics = Diagnostics("t.xml")
    return read_document(data, registry.get("pubtables1m"), "t.xml", options, diagnostics), diagnostics


def test_a_word_goes_to_the_cell_holding_most_of_it_and_a_tie_to_the_first_cell_of_the_official_order(tmp_path):
    words = [
        {"bbox": [10, 5, 20, 15], "text": "a"},  # no reading numbers: in list order
        {"bbox": [30, 5, 40, 15], "text": "b"},
        {"bbox": [45, 25, 65, 35], "text": "c"},  # 25% left, 75% right
        {"bbox": [40, 25, 60, 35], "text": "d"},  # half and half: the official order is column by column
        {"bbox": [45, 50, 46, 60], "text": "e"},  # below the grid: in no cell
    ]
    doc, _ = _read(_annotation(), tmp_path, words)
    assert {k: c.content for k, c in _cells(doc).items()} == {(0, 0): "a b", (0, 1): "", (1, 0): "d", (1, 1): "c"}


def test_without_a_table_object_the_objects_make_one_table_and_with_several_each_its_own(tmp_path):
    data = _annotation().replace(b"<name>table</name>", b"<name>table rotated</name>")
    doc, diagnostics = _read(data, tmp_path)
    assert len(doc.tables) == 1 and len(doc.tables[0].cells()) == 4 and doc.tables[0].regions[0].bbox is None
    assert {"pubtables1m-table", "pubtables1m-object"} <= set(diagnostics.codes())
    empty, _ = _read(b"<annotation><filename>x.jpg</filename></annotation>", tmp_path)
    assert empty.tables == [] and empty.filename == "x.jpg"


@pytest.mark.parametrize("words, code", [
    (b"[{", "json-syntax"),
    (b'{"bbox": [1, 2, 3, 4]}', "pubtables1m-words"),
    (b"", "json-empty"),
])
def test_an_unreadable_words_file_is_one_error_naming_it(tmp_path, words, code):
    with pytest.raises(InputError) as info:
        _read(_annotation(), tmp_path, words)
    diagnostic = info.value.diagnostic
    assert diagnostic.code == code and diagnostic.file == "t.xml" and "t_words.json" in diagnostic.message


def test_a_missing_words_file_is_one_error(tmp_path):
    with pytest.raises(InputError) as info:
        read_options = ReadOptions(words=tmp_path / "nowhere.json")
        from convertables.files import read_document

        read_document(_annotation(), registry.get("pubtables1m"), "t.xml", read_options, Diagnostics("t.xml"))
    assert info.value.diagnostic.code == "read-failed" and "nowhere.json" in info.value.diagnostic.message


def test_words_that_cannot_be_placed_are_left_out_with_a_warning(tmp_path):
    words = [{"bbox": [10, 5, 20, 15], "text": "ok"}, {"bbox": [1, 2, 3], "text": "x"}, {"bbox": [1, 2, 3, 4]},
             {"bbox": [5, 5, 5, 9], "text": "flat"}, {"bbox": ["1", 2, 3, 4], "text": "s"}, "word",
             {"bbox": [40, 15, 30, 5], "text": "swapped"}]
    doc, diagnostics = _read(_annotation(), tmp_path, words)
    assert _cells(doc)[(0, 0)].content == "ok swapped"
    messages = [d.message for d in diagnostics if d.code == "pubtables1m-words"]
    assert any("4 word(s) without a bbox of four numbers and a text" in m for m in messages)
    assert any("1 word(s) without an area" in m for m in messages)
    assert "box-inverted" in diagnostics.codes()


def test_a_root_other_than_annotation_is_refused(tmp_path):
    with pytest.raises(InputError) as info:
        _read(b"<document><object/></document>", tmp_path)
    assert info.value.diagnostic.code == "pubtables1m-root"


def test_sniffed_by_its_object_names_not_by_any_voc_annotation():
    head = _annotation()
    assert registry.sniffed(head).name == "pubtables1m"
    other = b"<annotation><object><name>dog</name><bndbox/></object></annotation>"
    assert registry.sniffed(other) is None or registry.sniffed(other).name != "pubtables1m"
    assert registry.get("pubtables1m").reads and not registry.get("pubtables1m").writes


@pytest.mark.slow
def test_thousands_of_words_over_rows_drawn_over_one_another_are_refused(tmp_path):
    rows = "".join(f"<object><name>table row</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>100</xmax>"
                   f"<ymax>{30 + r % 10}</ymax></bndbox></object>" for r in range(3000))
    words = [{"bbox": [1 + i % 90, 1, 5 + i % 90, 9], "text": "w"} for i in range(3000)]
    with pytest.raises(InputError) as info:
        _read(_annotation(rows), tmp_path, words)
    assert info.value.diagnostic.code == "pubtables1m-too-large"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 8)), max_size=25), st.integers(-2, 45),
       st.integers(0, 10))
def test_the_interval_search_finds_exactly_the_intervals_overlapping_by_a_positive_length(spans, lo, length):
    from convertables.formats.pubtables1m import _Axis, _Work

    intervals = [(float(start), float(start + size)) for start, size in spans]
    found = _Axis(intervals, _Work(Diagnostics()), "t").overlapping(lo, lo + length)
    assert sorted(found) == [i for i, (s, e) in enumerate(intervals) if min(lo + length, e) - max(lo, s) > 0]


def test_several_tables_take_their_own_objects_and_words(tmp_path):
    def table(x: int) -> str:
        box = lambda name, a, b, c, d: (f"<object><name>{name}</name><bndbox><xmin>{a}</xmin><ymin>{b}</ymin>"
                                        f"<xmax>{c}</xmax><ymax>{d}</ymax></bndbox></object>")
        return (box("table", x, 0, x + 40, 20) + box("table row", x, 0, x + 40, 10) + box("table row", x, 10, x + 40, 20)
                + box("table column", x, 0, x + 40, 20))
    data = f"<annotation><filename>two.jpg</filename>{table(0)}{table(100)}</annotation>".encode()
    words = [{"bbox": [5, 2, 15, 8], "text": "left"}, {"bbox": [105, 12, 115, 18], "text": "right"},
             {"bbox": [5, 12, 15, 18], "text": "below"}]
    doc, _ = _read(data, tmp_path, words)
    assert [[(c.start_row, c.start_col, c.content) for c in t.cells()] for t in doc.tables] == [
        [(0, 0, "left"), (1, 0, "below")], [(0, 0, "right")]]  # (a row without words is left out)
    assert [t.regions[0].bbox[:4] for t in doc.tables] == [(0, 0, 40, 20), (100, 0, 140, 20)]
