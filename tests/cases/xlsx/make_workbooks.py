"""Regenerate the Excel fixtures of tests/cases/xlsx/ (our own files).

    python tests/cases/xlsx/make_workbooks.py          # needs LibreOffice (soffice) on PATH

Each workbook is written with openpyxl, then re-saved by LibreOffice Calc
(``soffice --headless --convert-to xlsx``), as a real spreadsheet application
writes it: formulas come back with their cached values, number formats as Calc
stores them. The tests only read the committed .xlsx files; they never need
LibreOffice.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import tempfile
from pathlib import Path

import openpyxl
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent


def merged_spans(wb):
    ws = wb.active
    ws.title = "Sheet1"
    ws["A1"], ws["B1"] = "Country", "Population"
    ws.merge_cells("B1:C1")
    ws["B2"], ws["C2"] = "2010", "2020"
    ws["A3"], ws["B3"], ws["C3"] = "Austria", "8.4", "8.9"
    ws["A4"] = "Belgium"
    ws.merge_cells("A4:A5")
    ws["B4"], ws["C4"] = "10.9", "11.5"
    ws["B5"], ws["C5"] = "(est.)", "(est.)"
    for ref in ("A1", "B1"):
        ws[ref].font = Font(bold=True)


def number_formats(wb):
    ws = wb.active
    rows = [
        (1234.5, "General"), (3, "General"), (0.1, "0.00"), (1234567.891, "#,##0.00"), (1234567, "#,##0"),
        (0.256, "0.0%"), (0.5, "0%"), (12.6, "0"), (dt.datetime(2024, 3, 5), "yyyy\\-mm\\-dd"),
        (dt.datetime(2024, 3, 5, 14, 7, 9), "d/m/yyyy hh:mm"), (True, "General"), ("text", "@"),
    ]
    for r, (value, fmt) in enumerate(rows, start=1):
        cell = ws.cell(row=r, column=1, value=value)
        cell.number_format = fmt
    ws.cell(row=1, column=2, value="=A1*2")
    ws.cell(row=2, column=2, value="=A2+A3").number_format = "0.00"


def nitro_pages(wb):
    for page in range(1, 4):
        ws = wb.active if page == 1 else wb.create_sheet()
        ws.title = f"Page {page}"
        ws["C3"], ws["D3"] = f"p{page} a", f"p{page} b"
        ws["C4"] = f"p{page} c"


def split_blank_rows(wb):
    ws = wb.active
    ws["A1"], ws["B1"] = "first", "table"
    ws["A2"], ws["B2"] = "1", "2"
    ws["A4"], ws["B4"] = "second", "table"
    ws.row_dimensions[2].hidden = True


def pandas_sheet(wb):
    ws = wb.active
    ws.title = "page-2-table-1"
    for c, value in enumerate([None, 0, 1], start=1):
        ws.cell(row=1, column=c, value=value).font = Font(bold=True)
    for r, row in enumerate([(0, "Name", "Value"), (1, "alpha", 1.5)], start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(row=r, column=c, value=value)
        ws.cell(row=r, column=1).font = Font(bold=True)


CASES = {
    "merged-spans": merged_spans,
    "number-formats": number_formats,
    "nitro-pages": nitro_pages,
    "split-blank-rows": split_blank_rows,
    "pandas-sheet": pandas_sheet,
}


def main() -> None:
    soffice = shutil.which("soffice")
    if soffice is None:
        raise SystemExit("soffice not found: apt-get install libreoffice-calc-nogui")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, build in CASES.items():
            wb = openpyxl.Workbook()
            build(wb)
            raw = tmp / "raw" / "input.xlsx"
            raw.parent.mkdir(exist_ok=True)
            wb.save(raw)
            out = tmp / name
            subprocess.run([soffice, "--headless", "--convert-to", "xlsx", "--outdir", str(out), str(raw)],
                           check=True, capture_output=True)
            (HERE / name).mkdir(exist_ok=True)
            shutil.copy(out / "input.xlsx", HERE / name / "input.xlsx")
            print(f"wrote {name}/input.xlsx")


if __name__ == "__main__":
    main()
