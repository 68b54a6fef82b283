"""The quick Excel reading (the workbook's XML read here, openpyxl imported only
for dates and rare number formats) gives exactly what openpyxl's own full
reading gives, cell by cell, and leaves to openpyxl whatever it does not handle."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import MergedCell
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Font

from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.formats import xlsx, xlsx_workbook
from convertables.grid import validate_document
from convertables.options import ReadOptions
from tests.unit.test_roundtrip_office import documents

CASES = Path(__file__).parents[1] / "cases"


def _both(data: bytes) -> tuple[list, list]:
    quick = xlsx_workbook._read_sheets_quickly(data)
    full = xlsx._read_sheets_with_openpyxl(data, Diagnostics())
    return quick, full


def _saved(workbook) -> bytes:
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _with_sheet_xml(data: bytes, edit, part: str = "xl/worksheets/sheet1.xml") -> bytes:
    """The workbook with its first worksheet's XML (or another part) passed through ``edit``."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == part:
                content = edit(content.decode("utf-8")).encode("utf-8")
            target.writestr(item, content)
    return out.getvalue()


def _assorted_workbook() -> bytes:
    """Every kind of value openpyxl writes, with styles, merges and hidden rows and columns."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Page 2"
    rows = [
        (1234.5, "General"), (3, "General"), (0.1, "0.00"), (1234567.891, "#,##0.00"), (-0.004, "0.00"),
        (0.256, "0.0%"), (1e-12, "General"), (123456789012345.0, "General"), (dt.datetime(2024, 3, 5), "yyyy\\-mm\\-dd"),
        (dt.datetime(2024, 3, 5, 14, 7, 9), "d/m/yyyy hh:mm"), (dt.date(1999, 12, 31), "dd.mm.yy"),
        (dt.time(6, 30), "hh:mm"), (dt.timedelta(hours=30, minutes=5), "[h]:mm:ss"), (True, "General"),
        (False, "0"), ("text", "@"), ("  spaced  ", "General"), ("", "General"), (7, "0.00E+00"), (0.75, "# ?/?"),
    ]
    for r, (value, fmt) in enumerate(rows, start=1):
        cell = sheet.cell(row=r, column=1, value=value)
        cell.number_format = fmt
        if r % 3 == 0:
            cell.font = Font(bold=True)
    sheet.cell(row=1, column=2, value="=A1*2")  # a formula: no cached value in an openpyxl file
    sheet.cell(row=2, column=2, value="#N/A").data_type = "e"
    sheet.cell(row=4, column=2, value="merged")
    sheet.merge_cells("B4:C6")
    sheet.merge_cells("B8:B9")  # an empty merged range
    sheet.row_dimensions[3].hidden = True
    sheet.row_dimensions[4].height = 30
    sheet.column_dimensions["D"].hidden = True
    sheet.cell(row=12, column=4, value="in a hidden column")
    second = workbook.create_sheet("page-3-table-1")
    for r in range(4):
        for c in range(3):
            second.cell(row=r + 1, column=c + 1, value=(r * 3 + c) if r else c)
    workbook.create_sheet("empty")
    return _saved(workbook)


def test_fixtures_made_by_a_spreadsheet_program_read_alike():
    paths = sorted((CASES / "xlsx").glob("*/input.xlsx"))
    assert len(paths) >= 5
    for path in paths:
        quick, full = _both(path.read_bytes())
        assert quick is not None, path
        assert quick == full, path


def test_every_kind_of_value_reads_alike():
    quick, full = _both(_assorted_workbook())
    assert quick is not None
    assert quick == full
    page2 = quick[0]
    assert (page2.hidden_rows, page2.hidden_cols, page2.unknown_format) == (1, 1, True)
    texts = {(e[0], e[1]): e[4] for e in page2.entries}
    assert texts[9, 1] == "2024-03-05" and texts[2, 2] == "#N/A" and texts[14, 1] == "TRUE"
    assert (4, 2, 6, 3, "merged", False) in page2.entries and (5, 3) not in texts


@pytest.mark.parametrize("edit, expected", [
    # the forms other writers use, read here
    (lambda x: x.replace('t="inlineStr"><is><t>text</t></is>', 't="str"><v>text</v>'), "text"),
    (lambda x: x.replace('t="inlineStr"><is><t>text</t></is>', 't="d"><v>2021-04-05T06:07:08</v>'),
     "2021-04-05 06:07:08"),
    # a value under a merged range (kept by some writers), after the cell already there
    (lambda x: x.replace('</row><row r="6"', '<c r="C5" t="inlineStr"><is><t>under</t></is></c></row><row r="6"'),
     "text"),
])
def test_other_writers_forms_read_alike(edit, expected):
    data = _with_sheet_xml(_assorted_workbook(), edit)
    quick, full = _both(data)
    assert quick is not None
    assert quick == full
    assert {(e[0], e[1]): e[4] for e in quick[0].entries}[16, 1] == expected


def _reordered_rows(xml: str, order) -> str:
    """The sheet's rows put in another order (``order`` sorts a list of them)."""
    head, _, rest = xml.partition("<sheetData>")
    data, _, tail = rest.partition("</sheetData>")
    rows = re.findall(r"<row\b.*?</row>", data)
    return f"{head}<sheetData>{''.join(order(rows))}</sheetData>{tail}"


def _reversed_cells(row_number: int):
    def edit(xml: str) -> str:
        def turn(match: re.Match) -> str:
            cells = re.findall(r"<c\b.*?</c>", match.group(2))
            return match.group(1) + "".join(reversed(cells)) + "</row>"
        return re.sub(rf'(<row r="{row_number}"[^>]*>)(.*?)</row>', turn, xml)
    return edit


@pytest.mark.parametrize("edit", [
    lambda x: _reordered_rows(x, lambda rows: rows[::-1]),  # rows written last to first
    lambda x: _reordered_rows(x, lambda rows: rows[1:] + rows[:1]),
    _reversed_cells(4),  # a row's cells right to left (row 4 heads a merged range)
    # the same reference twice: the later cell is the one shown, even when it is empty
    lambda x: x.replace('<c r="A16"', '<c r="A16" t="inlineStr"><is><t>first</t></is></c><c r="A16"', 1),
    lambda x: x.replace('</row><row r="17"', '<c r="A16"/></row><row r="17"', 1),
])
def test_cells_out_of_order_read_alike(edit):
    """Every writer seen writes rows and cells in order; in any other order the
    cells are sorted and the last at a position kept, as openpyxl does."""
    original = _assorted_workbook()
    sheet_xml = zipfile.ZipFile(io.BytesIO(original)).read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert edit(sheet_xml) != sheet_xml
    quick, full = _both(_with_sheet_xml(original, edit))
    assert quick is not None
    assert quick == full
    assert [(e[0], e[1]) for e in quick[0].entries] == sorted((e[0], e[1]) for e in quick[0].entries)


@pytest.mark.parametrize("edit", [
    lambda x: x.replace('<c r="A16"', '<c', 1),  # no reference: openpyxl counts along the row
    lambda x: x.replace("</sheetData>", '<row r="40"><c r="A40" s=""><v>1</v></c></row></sheetData>', 1),
    lambda x: re.sub(r'<row r="16"', '<row r="16.0"', x),
    lambda x: x.replace('<is><t>text</t></is>', '<is><r><t>b</t></r><rPh sb="0" eb="1"><t>c</t></rPh></is>'),
    lambda x: x.replace('<is><t>text</t></is>', '<is><t>b</t><t>c</t></is>'),
    lambda x: x.replace("</sheetData>", '<row r="40"><x/></row></sheetData>', 1),
    lambda x: x.replace("</sheetData>", '<row r="40"><c r="A40" t="s"><v>99</v></c></row></sheetData>', 1),
])
def test_what_the_quick_reading_does_not_handle_is_left_to_openpyxl(edit):
    data = _with_sheet_xml(_assorted_workbook(), edit)
    assert xlsx_workbook._read_sheets_quickly(data) is None


def test_formatted_runs_are_left_to_openpyxl():
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = CellRichText(["plain ", TextBlock(InlineFont(b=True), "bold"), " tail"])
    data = _saved(workbook)
    assert xlsx_workbook._read_sheets_quickly(data) is None
    doc = xlsx.read(data, Diagnostics("t.xlsx")).document
    assert doc.tables[0].regions[0].cells[0].content == "plain bold tail"


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_written_workbooks_read_alike(doc):
    data = xlsx.write(doc, Diagnostics())
    quick, full = _both(data)
    assert quick is not None
    assert quick == full


def _dated_workbook() -> bytes:
    workbook = openpyxl.Workbook()
    workbook.active.cell(row=1, column=1, value="when")
    workbook.active.cell(row=2, column=1, value=45000.25).number_format = "yyyy-mm-dd hh:mm"
    return _saved(workbook)


NITRO = CASES / "xlsx" / "nitro-pages" / "input.xlsx"  # saved by LibreOffice: shared strings, its styles


def _edited(data: bytes, part: str, edit) -> bytes:
    before = zipfile.ZipFile(io.BytesIO(data)).read(part).decode("utf-8")
    assert edit(before) != before, "the edit must change the part"
    return _with_sheet_xml(data, edit, part)


def _si(text: str) -> str:
    return f'<si><t xml:space="preserve">{text}</t></si>'


@pytest.mark.parametrize("base, part, edit, shows", [
    # shared strings of every shape openpyxl reads: runs, phonetic runs, its x005F_ escape, an empty text
    (NITRO, "xl/sharedStrings.xml", lambda x: x.replace(_si("p1 a"), '<si><r><rPr><b/></rPr><t>bo</t></r><r>'
                                                                     '<t xml:space="preserve">ld </t></r></si>'), True),
    (NITRO, "xl/sharedStrings.xml", lambda x: x.replace(_si("p1 b"), '<si><t>ab</t><rPh sb="0" eb="1"><t>X</t>'
                                                                     '</rPh><phoneticPr fontId="0"/></si>'), True),
    (NITRO, "xl/sharedStrings.xml", lambda x: x.replace(_si("p1 c"), "<si><t>a_x005F_x000D_b</t></si>"), True),
    (NITRO, "xl/sharedStrings.xml", lambda x: x.replace(_si("p2 a"), "<si><t/></si>"), True),
    # bold by a font's <b>, with and without a val
    (NITRO, "xl/styles.xml", lambda x: x.replace('<font><sz val="11"/>', '<font><b/><sz val="11"/>', 1), True),
    (NITRO, "xl/styles.xml", lambda x: x.replace('<font><sz val="11"/>', '<font><b val="false"/><sz val="11"/>', 1),
     False),
    # dates counted from 1904; a custom number format
    (None, "xl/workbook.xml", lambda x: re.sub(r"<workbookPr[^>]*/>", '<workbookPr date1904="1"/>', x), True),
    (None, "xl/styles.xml", lambda x: x.replace('formatCode="yyyy-mm-dd hh:mm"', 'formatCode="0.000"'), True),
])
def test_workbook_parts_read_alike(base, part, edit, shows):
    original = NITRO.read_bytes() if base else _dated_workbook()
    quick, full = _both(_edited(original, part, edit))
    assert quick is not None
    assert quick == full
    assert (quick != xlsx_workbook._read_sheets_quickly(original)) == shows  # (a <b val="false"/> is no bold)


@pytest.mark.parametrize("part, edit", [
    ("[Content_Types].xml", lambda x: x.replace('PartName="/xl/workbook.xml"', 'PartName="/xl/book.xml"')),
    ("xl/styles.xml", lambda x: x.replace('<numFmt numFmtId="164"', '<numFmt numFmtId="165"')),
    ("xl/styles.xml", lambda x: x.replace('fontId="0"', 'fontId="9"')),
    ("xl/styles.xml", lambda x: re.sub(r"<cellXfs.*</cellXfs>", "", x, flags=re.S)),
    ("xl/sharedStrings.xml", lambda x: x.replace(_si("p1 a"), "<si><t>a</t><t>b</t></si>")),
    ("xl/sharedStrings.xml", lambda x: x.replace(_si("p1 a"), "<si><x/></si>")),
    ("xl/_rels/workbook.xml.rels", lambda x: x.replace('/worksheet" Target="worksheets/sheet1.xml"',
                                                       '/dialogsheet" Target="worksheets/sheet1.xml"')),
    ("xl/worksheets/sheet1.xml", lambda x: x.replace('r="C3"', 'r="$C$3"')),
    ("xl/worksheets/sheet1.xml", lambda x: x.replace("<sheetData>", '<cols><col min="20000" max="20000" hidden="true"/>'
                                                                     "</cols><sheetData>")),
    ("xl/worksheets/sheet1.xml", lambda x: x.replace("</sheetData>", '</sheetData><mergeCells count="1">'
                                                                      '<mergeCell ref="B3:A1"/></mergeCells>')),
])
def test_workbook_parts_the_quick_reading_leaves_to_openpyxl(part, edit):
    assert xlsx_workbook._read_sheets_quickly(NITRO.read_bytes()) is not None
    assert xlsx_workbook._read_sheets_quickly(_edited(NITRO.read_bytes(), part, edit)) is None


def test_a_plain_workbook_is_read_without_importing_openpyxl():
    import subprocess
    import sys

    code = ("import sys; from convertables.formats import xlsx, xlsx_workbook; "
            f"assert xlsx_workbook._read_sheets_quickly(open({str(NITRO)!r}, 'rb').read()); "
            "print('openpyxl' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def _declaring_entity(xml: str) -> str:
    """A part's XML with an entity declared (after its XML declaration) and used in its first text."""
    declaration, rest = xml.split("?>", 1)
    root = re.match(r"\s*<([\w:]+)", rest).group(1)
    rest = re.sub(r"<t([^>]*)>[^<]*</t>", r"<t\1>&leak;</t>", rest, count=1)
    return f'{declaration}?><!DOCTYPE {root} [<!ENTITY leak "ENTITY-EXPANDED">]>{rest}'


def _in_utf16(xml: str) -> bytes:
    return xml.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")


@pytest.mark.parametrize("part, unusual, utf16", [
    ("xl/sharedStrings.xml", False, False),  # a part the quick reading parses
    ("xl/worksheets/sheet3.xml", True, False),  # after sheet 1 sent the workbook to openpyxl's reading
    ("xl/worksheets/sheet3.xml", True, True),
    ("docProps/core.xml", True, False),  # a part only openpyxl reads
], ids=["quick-reading", "openpyxl-reading", "openpyxl-reading-utf16", "openpyxl-reading-properties"])
def test_a_workbook_whose_part_declares_entities_is_refused_whichever_reading(part, unusual, utf16, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl was asked to load the workbook")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)
    data = NITRO.read_bytes()
    if unusual:  # a reference the quick reading leaves to openpyxl
        data = _edited(data, "xl/worksheets/sheet1.xml", lambda x: x.replace('r="C3"', 'r="$C$3"'))
        assert xlsx_workbook._read_sheets_quickly(data) is None
    original = zipfile.ZipFile(io.BytesIO(data)).read(part).decode("utf-8")
    declaring = _declaring_entity(original)
    data = _with_sheet_xml(data, lambda x: declaring, part)
    if utf16:
        data = _with_part_bytes(data, part, _in_utf16(declaring))
    with pytest.raises(xlsx.InputError) as error:
        xlsx.read(data, Diagnostics("leak.xlsx"))
    assert error.value.diagnostic.code == "xml-entity"
    assert str(error.value).startswith(f"leak.xlsx: error xml-entity the workbook's part {part} declares XML entities")


def _with_part_bytes(data: bytes, part: str, content: bytes) -> bytes:
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, content if item.filename == part else source.read(item.filename))
    return out.getvalue()


def _with_merges(refs: list[str], unusual: bool) -> bytes:
    merges = "".join(f'<mergeCell ref="{ref}"/>' for ref in refs)

    def edit(xml: str) -> str:
        xml = xml.replace("</sheetData>", f'</sheetData><mergeCells count="{len(refs)}">{merges}</mergeCells>')
        return xml.replace('r="C3"', 'r="$C$3"') if unusual else xml  # (a reference the quick reading leaves)

    return _edited(NITRO.read_bytes(), "xl/worksheets/sheet1.xml", edit)


@pytest.mark.parametrize("unusual", [False, True], ids=["quick-reading", "openpyxl-reading"])
def test_merged_ranges_over_five_million_cells_are_refused_before_openpyxl_loads_them(unusual, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl was asked to load the workbook")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)
    data = _with_merges(["A10:Z200000", "AA10:AA11"], unusual)  # 26 x 199,991 + 2 cells
    assert (xlsx_workbook._read_sheets_quickly(_with_merges([], unusual)) is None) == unusual
    with pytest.raises(xlsx.InputError) as error:
        xlsx.read(data, Diagnostics("merged.xlsx"))
    assert error.value.diagnostic.code == "xlsx-bomb"
    assert "merged ranges cover 5,199,768 cells" in str(error.value)


def test_merged_ranges_of_five_million_cells_are_read():
    # C4:C4 heads a range of 25 x 200,000 cells; the cells under it are covered
    doc = xlsx.read(_with_merges(["C4:AA200003"], unusual=False), Diagnostics("merged.xlsx")).document
    assert sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in doc.tables[0].cells()) == [
        (0, 0, 0, 0, "p1 a"), (0, 1, 0, 1, "p1 b"), (1, 0, 200000, 24, "p1 c")]


@pytest.mark.parametrize("reading", ["quick", "openpyxl"])
def test_overlapping_merged_ranges_are_reported(reading, monkeypatch):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet["A2"], sheet["B1"] = "across", "down"
    sheet.merge_cells("A2:C2")
    sheet.merge_cells("B1:B3")  # heads outside each other's range; both cover B2
    if reading == "openpyxl":
        monkeypatch.setattr(xlsx, "_read_sheets_quickly", lambda data: None)
    diagnostics = Diagnostics("crossed.xlsx")
    doc = read_document(_saved(workbook), xlsx.FORMAT, "crossed.xlsx", diagnostics=diagnostics)
    assert sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in doc.tables[0].cells()) == [
        (0, 1, 2, 1), (1, 0, 1, 2)]
    assert [d.code for d in diagnostics.items] == ["slot-overlap"]


_RANGES = st.lists(st.tuples(st.integers(1, 8), st.integers(1, 5), st.integers(0, 3), st.integers(0, 3)), max_size=5)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.tuples(st.integers(1, 14), st.integers(1, 8)), st.sampled_from(["x", "", "7", None]),
                       max_size=50), _RANGES, st.booleans())
def test_checking_the_spanning_cells_finds_what_checking_every_cell_finds(values, ranges, split):
    # the reader asks the grid check for the spanning cells of sheets with merged ranges only; this is why it may
    workbook = openpyxl.Workbook()
    for (row, column), value in values.items():
        workbook.active.cell(row=row, column=column, value=value)
    for row, column, down, across in ranges:
        if down or across:
            workbook.active.merge_cells(start_row=row, start_column=column, end_row=row + down,
                                        end_column=column + across)
    for row, column, _, _ in ranges:  # a text at each range's head that no other range covers (so some cross)
        if not isinstance(workbook.active.cell(row=row, column=column), MergedCell):
            workbook.active.cell(row=row, column=column, value="head")
    read_check = Diagnostics("sheet.xlsx")
    doc = read_document(_saved(workbook), xlsx.FORMAT, "sheet.xlsx", ReadOptions(split_blank_rows=split), read_check)
    full_check = Diagnostics("sheet.xlsx")
    validate_document(doc, full_check)
    grid = {"slot-overlap", "span-inverted", "grid-negative", "duplicate-id"}
    assert {d.code for d in read_check.items if d.code in grid} == {d.code for d in full_check.items}
    if not ranges:
        assert full_check.items == []
        assert sum(len(t.cells()) for t in doc.tables) == sum(1 for v in values.values() if v)


@pytest.mark.parametrize("part, edit, says", [
    ("xl/styles.xml", lambda x: x.replace('<numFmt numFmtId="164"', '<numFmt numFmtId="165"'),
     "IndexError: list index out of range"),  # a style's number format is not there: openpyxl fails on the cell
    ("xl/workbook.xml", lambda x: re.sub(r' name="[^"]*"', "", x, count=1), "name should be"),  # a sheet without a name
    ("xl/worksheets/sheet1.xml", lambda x: re.sub(r"<v>[^<]*</v>", "<v>NaN</v>", x, count=1),
     "could not read worksheets from None. This is"),  # openpyxl's message of three lines, on one
])
def test_a_workbook_openpyxl_cannot_read_is_one_line_naming_the_file(part, edit, says):
    data = _edited(NITRO.read_bytes(), part, edit)
    with pytest.raises(xlsx.InputError) as error:
        xlsx.read(data, Diagnostics("damaged.xlsx"))
    message = str(error.value)
    assert message.startswith("damaged.xlsx: error xlsx-unreadable cannot be read as a workbook: ")
    assert says in message and "\n" not in message


@pytest.mark.parametrize("value, number_format, shown", [
    (1e30, "0.00", ("1000000000000000000000000000000.00", True)),
    (-1.5e300, "#,##0", ("-1,500,000,000,000,000,000" + ",000" * 94, True)),
    (2.5e27, "0%", ("250000000000000000000000000000%", True)),
    (float("inf"), "0.00", ("inf", False)),
    (2.5, "0", ("3", True)),
])
def test_numbers_of_any_size_are_shown_in_fixed_formats(value, number_format, shown):
    assert xlsx_workbook.display_text(value, number_format) == shown


def test_a_formula_without_a_value_reads_as_its_text_with_a_warning_whichever_reading(tmp_path, monkeypatch):
    """openpyxl (and pandas through it) writes a text starting with '=' as a
    formula and stores no value for it: the cell shows '=' and the formula."""
    from typer.testing import CliRunner

    from convertables.cli import app

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Country", "=Total", "Share"])
    sheet.append(["France", 3, "=B2/10"])
    sheet.append(["Spain", 4, 0.5])
    data = _saved(book)
    quick, full = _both(data)
    assert quick == full and quick[0].formulas_without_value == ("B1", "C2")
    path = tmp_path / "export.xlsx"
    path.write_bytes(data)
    runner = CliRunner()
    out = runner.invoke(app, ["convert", str(path), "--to", "csv"])
    assert out.exit_code == 0 and out.stdout.splitlines() == ["Country,=Total,Share", "France,3,=B2/10", "Spain,4,0.5"]
    assert ("warning formula-without-value sheet 'Sheet': 2 cell(s) hold a formula and no value computed from it "
            "(B1, C2); read as '=' and the formula's text") in out.stderr
    # a shared formula's other cells hold no text of their own: openpyxl's reading spells it out
    shared = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(shared, "w") as target:
        for item in source.infolist():
            part = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                part = part.replace(b"<f>B2/10</f>", b'<f t="shared" ref="C2:C3" si="0">B2/10</f>').replace(
                    b"<v>0.5</v>", b'<f t="shared" si="0"/><v></v>')
            target.writestr(item, part)
    assert xlsx_workbook._read_sheets_quickly(shared.getvalue()) is None
    (sheet,) = xlsx._read_sheets_with_openpyxl(shared.getvalue(), Diagnostics())
    assert sheet.formulas_without_value == ("B1", "C2", "C3") and sheet.entries[-1][4] == "=B3/10"
    # the same through openpyxl's own reading
    monkeypatch.setattr(xlsx_workbook, "_read_sheets_quickly", lambda data: None)
    monkeypatch.setattr(xlsx, "_read_sheets_quickly", lambda data: None)
    diagnostics = Diagnostics("export.xlsx")
    doc = read_document(data, xlsx.FORMAT, "export.xlsx", ReadOptions(), diagnostics)
    assert [c.content for c in doc.tables[0].cells()][:6] == ["Country", "=Total", "Share", "France", "3", "=B2/10"]
    assert [d.code for d in diagnostics.items if d.code == "formula-without-value"] == ["formula-without-value"]
