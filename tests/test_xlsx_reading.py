"""The quick Excel reading (worksheet XML read here, the rest by openpyxl) gives
exactly what openpyxl's own full reading gives, cell by cell, and leaves to
openpyxl whatever it does not handle."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Font

from convertables.diagnostics import Diagnostics
from convertables.formats import xlsx
from tests.test_roundtrip_office import documents

CASES = Path(__file__).parent / "cases"


def _both(data: bytes) -> tuple[list, list]:
    quick = xlsx._read_sheets_quickly(data)
    full = xlsx._read_sheets_with_openpyxl(data, Diagnostics())
    return quick, full


def _saved(workbook) -> bytes:
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _with_sheet_xml(data: bytes, edit) -> bytes:
    """The workbook with its first worksheet's XML passed through ``edit``."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
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
    assert xlsx._read_sheets_quickly(data) is None


def test_formatted_runs_are_left_to_openpyxl():
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = CellRichText(["plain ", TextBlock(InlineFont(b=True), "bold"), " tail"])
    data = _saved(workbook)
    assert xlsx._read_sheets_quickly(data) is None
    assert xlsx.read(data, Diagnostics("t.xlsx")).tables[0].regions[0].cells[0].content == "plain bold tail"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_written_workbooks_read_alike(doc):
    data = xlsx.write(doc, Diagnostics())
    quick, full = _both(data)
    assert quick is not None
    assert quick == full
