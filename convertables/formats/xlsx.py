"""Excel workbooks (SPEC 2.3), including Nitro "To Excel" and pandas exports.

Reading (openpyxl, cached values): each worksheet is a table, its position the
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
more than 100 MiB uncompressed or a member
inflating more than 100-fold past 16 MiB (``xlsx-bomb``).

Writing: one worksheet per page ("Page 1", ...), tables on a page stacked with
an empty row between them, merges for spans, header cells bold.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
import zlib
from bisect import bisect_left, bisect_right
from decimal import ROUND_HALF_UP, Decimal

from ..diagnostics import Diagnostics
from ..grid import drop_pandas_default_labels, validate_document
from ..model import Cell, Document, Region, Table
from ..options import ReadOptions, WriteOptions

MAX_UNCOMPRESSED = 100 << 20  # openpyxl holds every cell as an object: ~40x the XML in memory
MAX_RATIO = 100
RATIO_FLOOR = 16 << 20
MAX_MERGED_CELLS = 5_000_000
_MERGE_REF = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*\bref="([A-Z]+[0-9]+(?::[A-Z]+[0-9]+)?)"')


def _col_row(ref: str) -> tuple[int, int]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    digits = "".join(ch for ch in ref if ch.isdigit())
    column = 0
    for ch in letters:
        column = column * 26 + (ord(ch) - 64)
    return column, int(digits or 0)


def _area(ref: str) -> int:
    first, _, last = ref.partition(":")
    (c0, r0), (c1, r1) = _col_row(first), _col_row(last or first)
    return (abs(c1 - c0) + 1) * (abs(r1 - r0) + 1)


_PANDAS_SHEET = re.compile(r"^page-(\d+)-table-\d+$", re.I)
_PAGE_SHEET = re.compile(r"^page[ _-]?(\d+)$", re.I)  # "Page 3", as this module writes


# -- safety ----------------------------------------------------------------------------------

def _check_zip(data: bytes, diagnostics: Diagnostics) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise diagnostics.fail("xlsx-not-zip", "not an Excel workbook (not a zip archive)") from None
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
    # openpyxl makes one object per cell a merged range covers: a hostile
    # A1:XFD1048576 merge would never finish loading. Count merged areas first.
    merged = 0
    try:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                for ref in _MERGE_REF.findall(archive.read(name)):
                    merged += _area(ref.decode("ascii", "replace"))
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError) as exc:
        raise diagnostics.fail("xlsx-not-zip", f"a damaged zip archive: {exc}") from None
    if merged > MAX_MERGED_CELLS:
        raise diagnostics.fail("xlsx-bomb", f"merged ranges cover {merged:,} cells; refused (limit "
                                            f"{MAX_MERGED_CELLS:,})")


# -- displayed text --------------------------------------------------------------------------

_DATE_TOKENS = re.compile(r"yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm|a/p", re.I)


def _strip_format(code: str) -> tuple[str, str, str]:
    """(prefix, core, suffix) of a number format section: quoted literals and
    escaped characters around the digits are kept as text."""
    literal = []

    def keep(match: re.Match) -> str:
        literal.append(match.group(1) if match.group(1) is not None else match.group(2))
        return "\x00"

    core = re.sub(r'"([^"]*)"|\\(.)', keep, code)
    core = re.sub(r"\[[^\]]*\]|_.|\*.", "", core)  # colours, conditions, padding
    parts = core.split("\x00")
    texts = iter(literal)
    rebuilt = [parts[0]]
    for part in parts[1:]:
        rebuilt.append("\x01" + next(texts) + "\x01" + part)
    joined = "".join(rebuilt)
    match = re.search(r"[0#?][0#?,]*(\.[0#?]+)?%?|%", joined)
    if not match:
        return "", joined, ""
    def clean(s: str) -> str:
        return s.replace("\x01", "")
    return clean(joined[: match.start()]), match.group(0), clean(joined[match.end():])


def _format_date(value, code: str) -> str | None:
    out = []
    tokens = re.split(r'("[^"]*"|\\.)', code)
    has_ampm = re.search(r"am/pm|a/p", code, re.I) is not None
    previous = ""
    for piece in tokens:
        if not piece:
            continue
        if piece.startswith('"'):
            out.append(piece[1:-1])
            continue
        if piece.startswith("\\"):
            out.append(piece[1:])
            continue
        position = 0
        for match in _DATE_TOKENS.finditer(piece):
            out.append(piece[position:match.start()])
            token = match.group(0).lower()
            if token in ("m", "mm") and (previous.startswith("h") or piece[match.end():].lstrip(":").startswith("s")):
                token = "min" + token  # m after h or before s is minutes
            out.append(_date_token(value, token, has_ampm))
            previous = token
            position = match.end()
        out.append(piece[position:])
    return "".join(out)


def _date_token(value, token: str, has_ampm: bool) -> str:
    date = value if isinstance(value, (dt.date, dt.datetime)) else None
    time = value if isinstance(value, (dt.time, dt.datetime)) else None
    hour = time.hour if time else 0
    table = {
        "yyyy": lambda: f"{date.year:04d}", "yy": lambda: f"{date.year % 100:02d}",
        "mmmm": lambda: date.strftime("%B"), "mmm": lambda: date.strftime("%b"),
        "mm": lambda: f"{date.month:02d}", "m": lambda: str(date.month),
        "dddd": lambda: date.strftime("%A"), "ddd": lambda: date.strftime("%a"),
        "dd": lambda: f"{date.day:02d}", "d": lambda: str(date.day),
        "hh": lambda: f"{(hour % 12 or 12) if has_ampm else hour:02d}",
        "h": lambda: str((hour % 12 or 12) if has_ampm else hour),
        "minmm": lambda: f"{time.minute if time else 0:02d}", "minm": lambda: str(time.minute if time else 0),
        "ss": lambda: f"{time.second if time else 0:02d}", "s": lambda: str(time.second if time else 0),
        "am/pm": lambda: "AM" if hour < 12 else "PM", "a/p": lambda: "A" if hour < 12 else "P",
    }
    try:
        return table[token]()
    except (AttributeError, KeyError):
        return ""


def _general(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e11:
        return str(int(value))
    text = f"{value:.10g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}E{int(exponent):+03d}"
    return text


def display_text(value, number_format: str | None) -> tuple[str, bool]:
    """The text a cell shows, and whether the format was understood."""
    code = (number_format or "General").split(";")[0]
    if isinstance(value, bool):
        return ("TRUE" if value else "FALSE"), True
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        if _DATE_TOKENS.search(re.sub(r'"[^"]*"|\\.', "", code)) and code.lower() != "general":
            return _format_date(value, code), True
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat(), code.lower() == "general"
    if isinstance(value, (int, float)):
        if code.lower() == "general":
            return _general(value), True
        prefix, core, suffix = _strip_format(code)
        if re.search(r"[Ee][+-]|/", re.sub(r'"[^"]*"|\\.', "", code)):  # scientific and fractions: not applied
            return str(value), False
        if not core or not re.fullmatch(r"[0#?,]*(\.[0#?]+)?%?", core) or not re.search(r"[0#?]", core):
            return str(value), False
        number = Decimal(repr(float(value))) * (100 if core.endswith("%") else 1)
        decimals = len(core.split(".")[1].rstrip("%")) if "." in core else 0
        grouping = "," in core.split(".")[0]
        # Excel rounds halves away from zero (2.5 shows as 3), Python's format to even.
        rounded = abs(number).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        text = f"{rounded:,.{decimals}f}" if grouping else f"{rounded:.{decimals}f}"
        sign = "-" if number < 0 and rounded != 0 else ""
        return f"{sign}{prefix}{text}{'%' if core.endswith('%') else ''}{suffix}", True
    return str(value), True


# -- reading ---------------------------------------------------------------------------------

def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    import openpyxl  # imported here: only Excel needs it

    _check_zip(data, diagnostics)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on damaged workbooks
        raise diagnostics.fail("xlsx-unreadable", f"cannot be read as a workbook: {type(exc).__name__}: {exc}") from None
    split = bool(options.extra.get("split_blank_rows", False))
    keep_labels = bool(options.extra.get("keep_pandas_labels", False))
    doc = Document(filename=None)
    for position, sheet in enumerate(workbook.worksheets):
        name_match = _PANDAS_SHEET.match(sheet.title)
        page_match = name_match or _PAGE_SHEET.match(sheet.title)
        page = int(page_match.group(1)) if page_match else (options.page or 1) + position
        for cells in _sheet_tables(sheet, diagnostics, split):
            if not cells:
                continue
            if name_match and not keep_labels:
                dropped = drop_pandas_default_labels(cells)
                if dropped is not None:
                    cells = dropped
                    diagnostics.info("pandas-labels", f"sheet {sheet.title!r}: pandas' default integer header row "
                                                      "and index column dropped (--keep-index keeps them)")
            doc.tables.append(Table(len(doc.tables), [Region(0, page, cells=cells)]))
    validate_document(doc, diagnostics)
    return doc


def _covered_cells(positions, merged: dict[tuple[int, int], tuple[int, int]]) -> set[tuple[int, int]]:
    """The cells at ``positions`` that lie inside a merged range but are not its
    top-left cell. Each range looks only at the cells that exist inside it (rows
    and columns found by bisection), so the cost follows the cells, not the
    ranges' area nor ranges x cells."""
    if not merged:
        return set()
    by_row: dict[int, list[int]] = {}
    for r, c in positions:
        by_row.setdefault(r, []).append(c)
    for columns in by_row.values():
        columns.sort()
    rows = sorted(by_row)
    covered = set()
    for (r0, c0), (r1, c1) in merged.items():
        for r in rows[bisect_left(rows, r0):bisect_right(rows, r1)]:
            columns = by_row[r]
            for c in columns[bisect_left(columns, c0):bisect_right(columns, c1)]:
                if (r, c) != (r0, c0):
                    covered.add((r, c))
    return covered


def _sheet_tables(sheet, diagnostics: Diagnostics, split: bool) -> list[list[Cell]]:
    merged = {(rng.min_row, rng.min_col): (rng.max_row, rng.max_col) for rng in sheet.merged_cells.ranges}
    covered = _covered_cells(sheet._cells.keys(), merged)
    entries = []
    unknown_format = False
    for (r, c), cell in sorted(sheet._cells.items()):
        if (r, c) in covered:
            continue
        value = cell.value
        if value is None or (isinstance(value, str) and value == "" and (r, c) not in merged):
            continue
        if isinstance(value, str) and value.startswith("=") and cell.data_type == "f":
            text = None  # a formula without a cached value
        else:
            text, understood = display_text(value, cell.number_format)
            unknown_format |= not understood
        end_r, end_c = merged.get((r, c), (r, c))
        bold = bool(cell.font and cell.font.b)
        entries.append((r, c, end_r, end_c, text, bold))
    if unknown_format:
        diagnostics.info("xlsx-format", f"sheet {sheet.title!r}: some number formats are not applied; "
                                        "their plain values are shown")
    hidden_rows = [k for k, d in sheet.row_dimensions.items() if d.hidden]
    hidden_cols = [k for k, d in sheet.column_dimensions.items() if d.hidden]
    if hidden_rows or hidden_cols:
        diagnostics.info("xlsx-hidden", f"sheet {sheet.title!r}: {len(hidden_rows)} hidden row(s) and "
                                        f"{len(hidden_cols)} hidden column(s) are kept")
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
        top = min(e[0] for e in group)
        left = min(e[1] for e in group)
        tables.append([
            Cell(r - top, c - left, er - top, ec - left, text, header=bold)
            for r, c, er, ec, text, bold in group
        ])
    return tables


# -- writing ---------------------------------------------------------------------------------

def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    import openpyxl
    from openpyxl.styles import Font

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    by_page: dict[int, list[Table]] = {}
    for table in doc.tables:
        by_page.setdefault(table.page or 1, []).append(table)
    bold = Font(bold=True)
    for page in sorted(by_page):
        sheet = workbook.create_sheet(f"Page {page}")
        offset = 0
        for table in by_page[page]:
            cells = [(c.start_row + r.row_increment, c.start_col + r.col_increment,
                      c.end_row + r.row_increment, c.end_col + r.col_increment, c)
                     for r in table.regions for c in r.cells]
            if not cells:
                continue
            for r0, c0, r1, c1, cell in cells:
                target = sheet.cell(row=offset + r0 + 1, column=c0 + 1)
                target.value = cell.content if cell.content else None
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
