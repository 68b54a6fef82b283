"""CSV (convertables/formats/delimited.py): what the reader cases in tests/cases/csv/
cannot hold: the writer's bytes, round trips, refused input, and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from convertables import ReadOptions, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError, UsageError
from convertables.files import read_document
from convertables.formats import delimited
from convertables.model import Cell, Document, Region, Table

runner = CliRunner()
CSV = registry.FORMATS["csv"]


def _read(data: bytes, name: str = "t.csv", **options) -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics(name)
    return read_document(data, CSV, name, ReadOptions(**options), diagnostics), diagnostics


def _refused(data: bytes, name: str = "t.csv", **options) -> InputError:
    with pytest.raises(InputError) as caught:
        _read(data, name, **options)
    assert caught.value.diagnostic.file == name
    return caught.value


def _rows(doc: Document) -> list:
    return [(t.page, sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header) for c in t.cells()))
            for t in doc.tables]


# -- the writer ------------------------------------------------------------------------------

def test_a_span_and_a_hole_are_written_flat_with_minimal_quoting():
    cells = [
        Cell(0, 0, 1, 0, "Region"), Cell(0, 1, 0, 2, "Sales", header=True),
        Cell(1, 1, 1, 1, "Q1"), Cell(1, 2, 1, 2, "Q2"),
        Cell(2, 0, 2, 0, "North, East"), Cell(2, 2, 2, 2, '5 "approx."'),  # (2, 1): a hole
        Cell(3, 0, 3, 0, "a;b"), Cell(3, 1, 3, 1, "two\nlines"), Cell(3, 2, 3, 2, None),
    ]
    diagnostics = Diagnostics()
    data = delimited.write(Document(tables=[Table(0, [Region(0, 4, cells=cells)])]), diagnostics)
    assert data == (b'Region,Sales,\r\n'
                    b',Q1,Q2\r\n'
                    b'"North, East",,"5 ""approx."""\r\n'
                    b'"a;b","two\nlines",\r\n')
    assert diagnostics.codes() == ["csv-spans"]


def test_several_tables_round_trip_with_a_warning():
    tables = [
        Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a"), Cell(0, 1, 0, 1, "b,c"),
                                      Cell(1, 0, 1, 0, "multi\nline"), Cell(1, 1, 1, 1, "")])]),
        Table(1, [Region(0, 1, cells=[Cell(0, 0, 0, 0, ""), Cell(1, 0, 1, 0, "x;y"), Cell(2, 0, 2, 0, " ")])]),
        Table(2, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "k"), Cell(0, 1, 0, 1, "l"), Cell(0, 2, 0, 2, 'm"')])]),
    ]
    doc = Document(tables=tables)
    written = Diagnostics()
    data = delimited.write(doc, written)
    assert written.codes() == ["csv-tables"]
    assert data.count(b"\r\n\r\n") == 2 and b'""\r\n' in data  # a one-column row with nothing in it
    back, diagnostics = _read(data)
    assert _rows(back) == _rows(doc)
    assert diagnostics.codes() == []


def test_cells_the_grid_cannot_hold_are_left_out_and_huge_tables_refused():
    cells = [Cell(0, 0, 0, 1, "wide"), Cell(0, 1, 0, 1, "under it"), Cell(-1, 0, -1, 0, "before")]
    diagnostics = Diagnostics()
    data = delimited.write(Document(tables=[Table(0, [Region(0, 1, cells=cells)])]), diagnostics)
    assert data == b"wide,\r\n"
    assert diagnostics.codes() == ["csv-cell-left-out", "csv-spans"]
    huge = Document(tables=[Table(0, [Region(0, 1, cells=[Cell(0, 0, 10**6, 100, "x")])])])
    with pytest.raises(InputError) as caught:
        delimited.write(huge, Diagnostics())
    assert caught.value.diagnostic.code == "csv-too-large"


def test_nul_characters_are_dropped_from_what_is_written():
    diagnostics = Diagnostics()
    data = delimited.write(Document(tables=[Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a\0b")])])]),
                           diagnostics)
    assert data == b"ab\r\n" and diagnostics.codes() == ["csv-nul"]


# -- round trips -----------------------------------------------------------------------------

# Any text but half surrogate pairs (UTF-8 cannot hold them), NUL (refused on reading) and CR
# (a line break inside a field reads as LF); the delimiters, quotes and line breaks often.
field = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0\r"), max_size=8) | st.sampled_from(
    ["", " ", ",", ";", "\t", "|", '"', '""', "a\nb", "\n", "\n\n", "1,5", "\ufeffx", "0", "1"])


@st.composite
def full_tables(draw, table_id: int) -> Table:
    """A grid of 1x1 cells, every slot filled: what CSV holds."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = [Cell(r, c, r, c, draw(field)) for r in range(rows) for c in range(cols)]
    return Table(table_id, [Region(0, 1, cells=cells)])


@st.composite
def documents(draw) -> Document:
    return Document(tables=[draw(full_tables(i)) for i in range(draw(st.integers(1, 3)))])


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_tables_round_trip(doc):
    data = delimited.write(doc, Diagnostics())
    back, _ = _read(data, keep_pandas_labels=True)  # (a generated table may look like pandas' labels)
    assert _rows(back) == _rows(doc)


def test_the_delimiter_is_sniffed_from_the_first_table_with_one():
    assert delimited.sniff_delimiter("Report\n\nName;Value\na;1\n") == ";"
    assert delimited.sniff_delimiter('"a;b"\n"c;d"\n') == ","  # one quoted column
    assert delimited.sniff_delimiter("x|y\n1|2\n") == "|"
    assert delimited.sniff_delimiter("a,b;c\nd,e;f\n") == ","  # a tie, not of decimal commas
    assert delimited.sniff_delimiter("1,5;2\n3;4,25\n") == ";"  # a tie of decimal commas


def test_the_sniffer_claims_no_file():
    for sample in (Path(__file__).parents[2] / "samples").rglob("*"):
        if sample.is_file():
            assert not delimited.sniff(sample.read_bytes()[:65536])
    assert registry.detect(Path("x.csv"), b"a,b\n") is CSV
    assert registry.detect(Path("x.TSV"), b"a\tb\n") is CSV
    assert registry.detect(Path("x.html"), b"a,b\n").name == "html"


# -- refused input ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, options, code", [
    (b"a,b\x00c\r\n", {}, "csv-unreadable"),  # NUL: binary data
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", {}, "csv-unreadable"),
    ("Gr\u00fc\u00dfe,1\r\n".encode("utf-16-le"), {}, "csv-unreadable"),  # UTF-16 without a byte-order mark
    (b"caf\xe9,1\r\n", {"encoding": "utf-8"}, "csv-unreadable"),
    (b"a,b\r\n", {"encoding": "no-such-encoding"}, "csv-unreadable"),
    (b"a,b\r\n", {"encoding": "base64"}, "csv-unreadable"),  # a codec, but not of text
    (b"\xff\xfea", {}, "csv-unreadable"),  # half a UTF-16 character
    (b'a,"' + b"x" * 200_000 + b'"\r\n', {}, "csv-field-too-large"),
    (b'a,"unclosed\r\n' + b"x,y\r\n" * 30_000, {}, "csv-field-too-large"),
    (b"", {}, "csv-empty"),
    (b"\r\n\r\n", {}, "csv-empty"),
])
def test_bad_input_is_refused_with_a_code(data, options, code):
    assert _refused(data, **options).diagnostic.code == code


def test_undecodable_utf8_is_read_as_windows_1252_and_an_encoding_can_be_given():
    doc, diagnostics = _read(b"caf\xe9,\x80 5\r\n")
    assert _rows(doc) == [(1, [(0, 0, 0, 0, "caf\u00e9", False), (0, 1, 0, 1, "\u20ac 5", False)])]
    assert diagnostics.codes() == ["csv-encoding"]
    doc, diagnostics = _read("Gr\u00fc\u00dfe\t1\r\n".encode("utf-16-le"), encoding="utf-16-le")
    assert [c.content for c in doc.tables[0].cells()] == ["Gr\u00fc\u00dfe", "1"] and diagnostics.codes() == []


def test_too_many_fields_are_refused(monkeypatch):
    monkeypatch.setattr(delimited, "MAX_CELLS", 10)
    assert _refused(b"a,b,c\r\n" * 4).diagnostic.code == "csv-too-large"


def test_a_delimiter_option_must_be_one_of_the_names():
    with pytest.raises(UsageError, match="--delimiter"):
        ReadOptions(delimiter=";")
    doc, _ = _read(b"a|b\r\n", delimiter="PIPE")
    assert len(doc.tables[0].cells()) == 2


# -- the command line ------------------------------------------------------------------------

def test_the_cli_converts_csv_to_icdar_and_back(tmp_path: Path):
    source = tmp_path / "x.csv"
    source.write_bytes(b'Name,Value\r\n"a, b",1\r\n"say ""hi""",2\r\n')
    xml = tmp_path / "x-str.xml"
    result = runner.invoke(app, ["convert", str(source), "-o", str(xml)])
    assert result.exit_code == 0, result.output
    assert b"<content>a, b</content>" in xml.read_bytes()
    back = tmp_path / "back.csv"
    result = runner.invoke(app, ["convert", str(xml), "-o", str(back)])
    assert result.exit_code == 0, result.output
    assert back.read_bytes() == source.read_bytes()


def test_the_cli_takes_the_options_the_format_declares(tmp_path: Path):
    result = runner.invoke(app, ["convert", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--delimiter" in result.output and "--encoding" in result.output
    source = tmp_path / "y.csv"
    source.write_bytes("a;b\r\nc;\u00e9\r\n".encode("cp1252"))
    out = tmp_path / "y.json"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out), "--delimiter", "comma",
                                 "--encoding", "latin-1", "--page", "4"])
    assert result.exit_code == 0, result.output
    doc = read_document(out.read_bytes(), registry.FORMATS["json"], str(out))
    assert [(t.page, [c.content for c in t.cells()]) for t in doc.tables] == [(4, ["a;b", "c;\u00e9"])]
    result = runner.invoke(app, ["convert", str(source), "-o", str(tmp_path / "z.json"), "--delimiter", ";"])
    assert result.exit_code == 2


def test_a_tsv_file_is_written_with_tabs_and_reads_back(tmp_path: Path):
    source = tmp_path / "x.csv"
    source.write_bytes(b'a,"b, c"\r\nd\te,f\r\n')
    out = tmp_path / "x.tsv"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == b'a\t"b, c"\r\n"d\te"\tf\r\n'
    doc, _ = _read(out.read_bytes(), str(out))
    assert [c.content for c in doc.tables[0].cells()] == ["a", "b, c", "d\te", "f"]
