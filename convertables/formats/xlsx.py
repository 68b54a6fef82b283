"""Excel workbooks (docs/formats.md, `xlsx`), including Nitro "To Excel" and pandas exports.

Reading (cached values, as openpyxl reads them; the usual workbook's XML read
here, see xlsx_workbook.py): each worksheet is a table, its position the
page (Nitro writes one worksheet per page), trimmed to the used area; with
``ReadOptions.extra["split_blank_rows"]`` a sheet splits into several tables at
fully empty rows. Sheets named like pandas' ``page-<p>-table-<k>``, or ``Page
<p>`` (as this module writes them), take their page from the name. Merged ranges become spans with the content of their
top-left cell. Hidden rows and columns are kept (an info diagnostic says so).
Bold cells are header cells.

Content is the text the cell displays: a formula's cached value, and the number
format applied for the common cases: ``General`` (integers without a decimal
point, others with up to 10 significant digits), integers (``0``), fixed
decimals (``0.00``), thousands separators (``#,##0``, ``#,##0.00``),
percentages (``0%``, ``0.0%``) and dates and times (``yyyy-mm-dd``,
``d/m/yyyy``, ``hh:mm:ss``, ``yyyy\\-mm\\-dd`` with escaped characters, quoted
literals, ``AM/PM``). Any other format falls back to the plain value
(``str(value)``; dates in ISO form) and says so once per sheet
(``xlsx-format`` info). A formula without a cached value (a workbook saved by a
program that does not compute) reads as unknown content.

Hostile workbooks end with a clear error before openpyxl inflates anything:
not a zip (``xlsx-not-zip``), merged ranges covering more than 5 million cells,
more than 32 MiB uncompressed or a member
inflating more than 100-fold past 16 MiB (``xlsx-bomb``).

Writing: one worksheet per page ("Page 1", ...), or where a page has several
tables one per table (``page-1-table-1``, ``page-1-table-2``... as pandas
names them, so that each reads back as a table of its own on its page), merges
for spans, header cells bold.
"""

from __future__ import annotations

import io
import re
from operator import itemgetter
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostics, InputError
from ..export_names import camelot_page
from ..grid import drop_pandas_default_labels, overlapping_cells
from ..model import Cell, Document, Reading, Region, Table, make_cell
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..xmlsafe import ENTITY_MARKS, parse_xml, xml_text
from .xlsx_workbook import (FORMULA_WITHOUT_VALUE, MAX_MERGED_CELLS, _column_number, _entries, formula_cells, _EntitiesDeclared, _read_sheets_quickly,
                            _Sheet, _TooManyMerged)

if TYPE_CHECKING:
    import zipfile

MAX_UNCOMPRESSED = 32 << 20  # a cell read is ~25x its XML in memory (openpyxl: ~40x)
MAX_RATIO = 100
RATIO_FLOOR = 16 << 20
_MERGE_REF = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*\bref="([A-Z]+[0-9]+(?::[A-Z]+[0-9]+)?)"')


def _col_row(ref: str) -> tuple[int, int]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    digits = "".join(ch for ch in ref if ch.isdigit())
    return _column_number(letters), int(digits or 0)


def _area(ref: str) -> int:
    first, _, last = ref.partition(":")
    (c0, r0), (c1, r1) = _col_row(first), _col_row(last or first)
    return (abs(c1 - c0) + 1) * (abs(r1 - r0) + 1)


_PAGE_SHEET = re.compile(r"^page[ _-]?(\d+)$", re.I)  # "Page 3", as this module writes


# -- safety ----------------------------------------------------------------------------------

def _check_zip(data: bytes, diagnostics: Diagnostics) -> None:
    try:
        import zipfile  # (here: the registry imports every format; few runs read a workbook)

        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise diagnostics.fail("xlsx-not-zip", "not an Excel workbook (not a zip archive)") from None
    except (NotImplementedError, ValueError, EOFError, OSError) as exc:  # (a zip feature Python does not read)
        raise diagnostics.fail("xlsx-not-zip", f"a zip archive Python cannot read: {exc}") from None
    total = 0
    for info in archive.infolist():
        total += info.file_size
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise diagnostics.fail("xlsx-bomb", f"member {info.filename} would inflate {info.compress_size:,} bytes "
                                                f"to {info.file_size:,}; refused")
    if total > MAX_UNCOMPRESSED:
        raise diagnostics.fail("xlsx-bomb", f"the workbook would inflate to {total:,} bytes; refused")
    if "xl/workbook.xml" not in archive.namelist():
        raise diagnostics.fail("xlsx-not-zip", "a zip archive, but not an Excel workbook (no xl/workbook.xml)")


def _entities_refused(part: str, diagnostics: Diagnostics) -> InputError:
    return diagnostics.fail("xml-entity", f"the workbook's part {part} declares XML entities; they are refused for "
                                          "safety")


# "<!" (a DOCTYPE or a comment) as UTF-8 or UTF-16 writes it; a part without one declares no entity
_DECLARATION_MARKS = (b"<!", "<!".encode("utf-16-le"), "<!".encode("utf-16-be"))
_XML_PARTS = (".xml", ".rels", ".vml")  # (the parts openpyxl's parser reads; images and the like are not XML)


class _PartUnreadable(Exception):
    """A part of the workbook (its name, and why) that the safe parser cannot read."""


def _check_entities(archive: zipfile.ZipFile) -> None:
    """Before openpyxl reads a workbook: its XML parser expands entities, so every
    XML part that may declare one goes through the safe parser first, and one
    that the safe parser cannot read (for whatever reason: an encoding it
    refuses is enough to hide a declaration from it) is refused too."""
    for name in archive.namelist():
        if not name.lower().endswith(_XML_PARTS):
            continue
        raw = archive.read(name)
        if any(mark in raw for mark in _DECLARATION_MARKS):
            try:
                parse_xml(raw, Diagnostics())
            except InputError as exc:
                if exc.diagnostic.code == "xml-entity" or any(mark in raw for mark in ENTITY_MARKS):
                    raise _EntitiesDeclared(name) from None
                raise _PartUnreadable(name, exc.diagnostic.message) from None


def _too_many_merged(merged: int, diagnostics: Diagnostics) -> InputError:
    return diagnostics.fail("xlsx-bomb", f"merged ranges cover {merged:,} cells; refused (limit {MAX_MERGED_CELLS:,})")


def _check_for_openpyxl(data: bytes, diagnostics: Diagnostics) -> None:
    """Before openpyxl loads a workbook: no part declares XML entities, and the
    merged ranges are not too large (openpyxl makes one object per cell a merged
    range covers, so a hostile A1:XFD1048576 merge would never finish loading).
    The quick reading checks both in what it reads itself."""
    import zipfile
    import zlib

    merged = 0
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        _check_entities(archive)
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                xml = archive.read(name)
                first = xml.find(b"mergeCell")  # (a plain search: the pattern is slow to try everywhere)
                if first < 0:
                    continue
                for ref in _MERGE_REF.findall(xml, max(0, xml.rfind(b"<", 0, first))):
                    merged += _area(ref.decode("ascii", "replace"))
    except _EntitiesDeclared as exc:
        raise _entities_refused(exc.args[0], diagnostics) from None
    except _PartUnreadable as exc:
        raise diagnostics.fail("xlsx-unreadable", f"the workbook's part {exc.args[0]} cannot be read safely "
                                                  f"({exc.args[1]}); refused") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as exc:
        raise diagnostics.fail("xlsx-not-zip", f"a damaged zip archive: {exc}") from None
    if merged > MAX_MERGED_CELLS:
        raise _too_many_merged(merged, diagnostics)


# -- reading ---------------------------------------------------------------------------------

def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    _check_zip(data, diagnostics)
    try:
        sheets = _read_sheets_quickly(data)
    except _TooManyMerged as exc:
        raise _too_many_merged(exc.args[0], diagnostics) from None
    except _EntitiesDeclared as exc:
        raise _entities_refused(exc.args[0], diagnostics) from None
    if sheets is None:
        _check_for_openpyxl(data, diagnostics)
        sheets = _read_sheets_with_openpyxl(data, diagnostics)
    split = bool(options.split_blank_rows)
    keep_labels = bool(options.keep_pandas_labels)
    doc = Document(filename=None)
    with_spans: list[tuple[int, Region]] = []
    for position, sheet in enumerate(sheets):
        if sheet.unknown_format:
            diagnostics.info("xlsx-format", f"sheet {sheet.title!r}: some number formats are not applied; "
                                            "their plain values are shown")
        if sheet.formulas_without_value:
            shown = ", ".join(sheet.formulas_without_value[:5]) + (", ..." if len(sheet.formulas_without_value) > 5
                                                                   else "")
            diagnostics.warning("formula-without-value",
                                f"sheet {sheet.title!r}: {len(sheet.formulas_without_value)} cell(s) hold a formula "
                                f"and no value computed from it ({shown}); read as '=' and the formula's text",
                                hint="a text starting with '=' written by pandas or openpyxl becomes a formula; "
                                     "opening and saving the workbook in a spreadsheet application stores the values")
        if sheet.hidden_rows or sheet.hidden_cols:
            diagnostics.info("xlsx-hidden", f"sheet {sheet.title!r}: {sheet.hidden_rows} hidden row(s) and "
                                            f"{sheet.hidden_cols} hidden column(s) are kept")
        camelot = camelot_page(sheet.title, sheet=True)
        page_match = _PAGE_SHEET.match(sheet.title)
        if camelot is not None:
            page = camelot
        else:
            page = int(page_match.group(1)) if page_match else (options.page or 1) + position
        for cells in _tables(sheet.entries, split):
            if not cells:
                continue
            if camelot is not None and not keep_labels:
                dropped = drop_pandas_default_labels(cells)
                if dropped is not None:
                    cells = dropped
                    diagnostics.info("pandas-labels", f"sheet {sheet.title!r}: pandas' default integer header row "
                                                      "and index column dropped (--keep-index keeps them)")
            doc.tables.append(Table(len(doc.tables), [Region(0, page, cells=cells)]))
            if sheet.merged:
                spanning = [c for c in cells if c.end_row != c.start_row or c.end_col != c.start_col]
                if len(spanning) > 1:
                    with_spans.append((doc.tables[-1].id, Region(0, page, cells=spanning)))
    # The grid check, on the cells that can fail it. A table's cells lie from row 0
    # and column 0 on, without ids, each at a position of its own (a sheet's cells
    # are); a cell inside a merged range is left out unless it heads the range. So
    # only two merged ranges that cross can make cells share a slot: the spanning
    # cells are checked among themselves, not every cell of the sheet.
    return Reading(doc, regions_to_check=with_spans)


_NO_STYLE = (None, False)  # (an empty cell's style is never looked at)


def _tables(entries: list, split: bool) -> list[list[Cell]]:
    if not entries:
        return []
    groups = [entries]
    if split:
        groups = []
        rows_with_content = sorted({row for e in entries for row in range(e[0], e[2] + 1)})
        bands, start = [], rows_with_content[0]
        for prev, row in zip(rows_with_content, rows_with_content[1:]):
            if row > prev + 1:
                bands.append((start, prev))
                start = row
        bands.append((start, rows_with_content[-1]))
        for lo, hi in bands:
            groups.append([e for e in entries if lo <= e[0] <= hi])
    tables = []
    for group in groups:
        top = group[0][0]  # (entries are in row-major order)
        left = min(map(itemgetter(1), group))
        cells = []
        append = cells.append
        for r, c, er, ec, text, bold in group:
            append(make_cell(r - top, c - left, er - top, ec - left, text, None, bold))
        tables.append(cells)
    return tables



# -- reading with openpyxl alone -------------------------------------------------------------

def _read_sheets_with_openpyxl(data: bytes, diagnostics: Diagnostics) -> list[_Sheet]:
    import openpyxl  # imported here: only Excel needs it

    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
        # the formulas, where a cell has one and no value: from a reading that keeps formulas
        formulas = openpyxl.load_workbook(io.BytesIO(data)) if _has_formulas(data) else None
        sheets = []
        for number, sheet in enumerate(workbook.worksheets):
            merged = {(rng.min_row, rng.min_col): (rng.max_row, rng.max_col) for rng in sheet.merged_cells.ranges}
            with_formulas = formulas.worksheets[number]._cells if formulas is not None else {}
            # (a cell's style is looked up as it is read: a style the workbook lacks fails here)
            cells = []
            for (r, c), cell in sorted(sheet._cells.items()):
                value, data_type = cell.value, cell.data_type
                if value is None and (r, c) in with_formulas:
                    formula = with_formulas[r, c]
                    if formula.data_type == "f" and isinstance(formula.value, str) and formula.value.startswith("="):
                        value, data_type = formula.value, FORMULA_WITHOUT_VALUE
                cells.append((r, c, value, data_type,
                              (cell.number_format, bool(cell.font and cell.font.b)) if value is not None else _NO_STYLE))
            entries, unknown_format = _entries(cells, merged)
            sheets.append(_Sheet(
                sheet.title, entries, bool(merged), unknown_format,
                sum(1 for d in sheet.row_dimensions.values() if d.hidden),
                sum(1 for d in sheet.column_dimensions.values() if d.hidden),
                formula_cells(cells),
            ))
    except Exception as exc:  # openpyxl raises many kinds on damaged workbooks, some over several lines
        message = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise diagnostics.fail("xlsx-unreadable", f"cannot be read as a workbook: {message}") from None
    return sheets


_FORMULA_ELEMENT = re.compile(rb"<([A-Za-z_][\w.-]*:)?f[\s/>]")


def _has_formulas(data: bytes) -> bool:
    """Whether a worksheet of the workbook holds a formula element (``<f>``)."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return any(_FORMULA_ELEMENT.search(archive.read(name)) for name in archive.namelist()
                   if name.startswith("xl/worksheets/") and name.endswith(".xml"))


# -- writing ---------------------------------------------------------------------------------

MAX_SHEET_ROWS = 1_048_576  # Excel's worksheet
MAX_SHEET_COLUMNS = 16_384


def _writable(table: Table, diagnostics: Diagnostics) -> list[tuple[int, int, int, int, Cell]]:
    """The table's cells as (first row, first column, last row, last column,
    cell) that a worksheet can hold: a cell before the first row or column, or
    on a slot an earlier cell holds (a merged range may not overlap another), is
    left out with a warning."""
    cells = []
    for r in table.regions:
        for c in r.cells:
            r0, c0 = c.start_row + r.row_increment, c.start_col + r.col_increment
            if r0 < 0 or c0 < 0:
                diagnostics.warning("xlsx-cell-left-out", f"table {table.id}: a cell at row {r0}, column {c0}, "
                                                          "before the sheet's first row or column, is left out")
                continue
            cells.append((r0, c0, c.end_row + r.row_increment, c.end_col + r.col_increment, c))
    while True:
        proxies = [Cell(r0, c0, r1, c1) for r0, c0, r1, c1, _ in cells]
        position = {id(proxy): k for k, proxy in enumerate(proxies)}
        later = {position[id(b)] for _, b in overlapping_cells(proxies)}
        if not later:
            return cells
        for k in sorted(later):
            r0, c0 = cells[k][:2]
            diagnostics.warning("xlsx-cell-left-out", f"table {table.id}: the cell at row {r0}, column {c0} lies "
                                                      "on a slot an earlier cell holds; left out")
        cells = [entry for k, entry in enumerate(cells) if k not in later]


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    import openpyxl
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    by_page: dict[int, list[Table]] = {}
    for table in doc.tables:
        by_page.setdefault(table.page or 1, []).append(table)
    bold = Font(bold=True)
    # A page of one table is a sheet "Page p"; a page of several, a sheet a table, named as pandas
    # names them ("page-p-table-k"): tables stacked on one sheet would read back as one.
    sheets = [(f"Page {page}" if len(tables) == 1 else f"page-{page}-table-{k}", page, [table])
              for page, tables in sorted(by_page.items()) for k, table in enumerate(tables, 1)]
    for title, page, tables in sheets:
        sheet = workbook.create_sheet(title)
        offset = 0
        merged = 0
        for table in tables:
            cells = _writable(table, diagnostics)
            if not cells:
                continue
            last_row = offset + max(c[2] for c in cells) + 1
            last_column = max(c[3] for c in cells) + 1
            merged += sum((r1 - r0 + 1) * (c1 - c0 + 1) for r0, c0, r1, c1, _ in cells if r1 > r0 or c1 > c0)
            too_large = (
                f"its tables reach row {last_row:,}; a worksheet holds {MAX_SHEET_ROWS:,}"
                if last_row > MAX_SHEET_ROWS else
                f"table {table.id} reaches column {last_column:,}; a worksheet holds {MAX_SHEET_COLUMNS:,}"
                if last_column > MAX_SHEET_COLUMNS else
                f"its merged ranges would cover {merged:,} cells (limit {MAX_MERGED_CELLS:,}: openpyxl makes an "
                "object for each)" if merged > MAX_MERGED_CELLS else None)
            if too_large:
                raise diagnostics.fail("xlsx-too-large", f"page {page} cannot be written: {too_large}")
            for r0, c0, r1, c1, cell in cells:
                target = sheet.cell(row=offset + r0 + 1, column=c0 + 1)
                target.value = xml_text(cell.content, diagnostics) if cell.content else None
                if cell.content and cell.content.startswith("="):
                    target.data_type = "s"  # text, not a formula
                if cell.header:
                    target.font = bold
                if r1 > r0 or c1 > c0:
                    sheet.merge_cells(start_row=offset + r0 + 1, start_column=c0 + 1,
                                      end_row=offset + r1 + 1, end_column=c1 + 1)
            offset += max(c[2] for c in cells) + 2
    if not workbook.worksheets:
        workbook.create_sheet("Page 1")
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    return head.startswith(b"PK\x03\x04")


FORMAT = DECLARED["xlsx"]
