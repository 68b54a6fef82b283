"""The quick reading of Excel workbooks: a helper of :mod:`convertables.formats.xlsx`,
not a format itself.

openpyxl builds a Python object per cell and is a heavy import for a small
workbook, so the usual workbook's XML is read here directly,
parts and worksheets alike, giving every cell the value, type, number format
and boldness openpyxl would give it (tests/unit/test_xlsx_reading.py checks both
readings agree). Anything out of the ordinary raises ``_Unusual``, and openpyxl
reads the whole workbook instead. Here too is what both readings share: a
sheet's shown cells and the text a cell displays.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import posixpath
import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, NamedTuple

from ..diagnostics import Diagnostics, InputError
from ..grid import ParsedInts
from ..xmlsafe import ENTITY_MARKS, local_name, parse_xml

if TYPE_CHECKING:
    import zipfile

MAX_MERGED_CELLS = 5_000_000


def _column_number(letters: str) -> int:
    """``A`` -> 1, ``Z`` -> 26, ``AA`` -> 27."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


class _EntitiesDeclared(Exception):
    """A part of the workbook (its name) declares XML entities."""


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
        if not math.isfinite(value):  # (no workbook of Excel's holds one)
            return str(value), False
        from decimal import ROUND_HALF_UP, Decimal, localcontext  # (here: only formatted numbers need it)

        number = Decimal(repr(float(value))) * (100 if core.endswith("%") else 1)
        decimals = len(core.split(".")[1].rstrip("%")) if "." in core else 0
        grouping = "," in core.split(".")[0]
        # Excel rounds halves away from zero (2.5 shows as 3), Python's format to even. Every
        # digit of the largest float (309) and of the decimals asked for is kept.
        with localcontext() as exact:
            exact.prec = 320 + decimals
            rounded = abs(number).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        text = f"{rounded:,.{decimals}f}" if grouping else f"{rounded:.{decimals}f}"
        sign = "-" if number < 0 and rounded != 0 else ""
        return f"{sign}{prefix}{text}{'%' if core.endswith('%') else ''}{suffix}", True
    return str(value), True


# -- a sheet's shown cells, whichever reads them ---------------------------------------------

class _Sheet(NamedTuple):
    """What a worksheet holds for us: its shown cells as ``(row, column, end
    row, end column, text, bold)`` in row-major order, whether it has merged
    ranges, and what to say about it."""

    title: str
    entries: list[tuple[int, int, int, int, str | None, bool]]
    merged: bool
    unknown_format: bool
    hidden_rows: int
    hidden_cols: int
    formulas_without_value: tuple[str, ...] = ()
    """The cells (``B7``) holding a formula and no value it last gave: read as ``=`` and the formula's text."""


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


FORMULA_WITHOUT_VALUE = "formula"
"""The data type given a cell with a formula whose value the workbook does not hold
(one written by a program that does not compute formulas: openpyxl, pandas): its
value is ``=`` and the formula's text, as the cell shows it in a spreadsheet
application that does not recompute."""


def _column_letters(number: int) -> str:
    """1 -> ``A``, 27 -> ``AA``."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def formula_cells(cells: list) -> tuple[str, ...]:
    """The references (``B7``) of the cells of ``cells`` read as a formula without a value."""
    return tuple(f"{_column_letters(c[1])}{c[0]}" for c in cells if c[3] == FORMULA_WITHOUT_VALUE)


def _entries(cells: list, merged: dict[tuple[int, int], tuple[int, int]]) -> tuple[list, bool]:
    """The shown cells of a sheet, from ``cells``: ``(row, column, value, data
    type, (number format, bold))`` as openpyxl reads them (cached values), one
    per position, in row-major order. Also whether some number format was not
    understood."""
    covered = _covered_cells([(c[0], c[1]) for c in cells if c[2] is not None], merged) if merged else None
    entries = []
    unknown_format = False
    for r, c, value, data_type, (number_format, bold) in cells:
        if value is None:
            continue
        end_r, end_c = r, c
        if merged:
            if (r, c) in covered:
                continue
            end_r, end_c = merged.get((r, c), (r, c))
        if value.__class__ is str:
            if value == "" and (r, c) not in merged:
                continue  # (an empty text shows nothing, unless it heads a merged range)
            if data_type == FORMULA_WITHOUT_VALUE:
                entries.append((r, c, end_r, end_c, value, bold))
                continue
            if data_type != "f":
                # what display_text gives a text, whatever its format
                entries.append((r, c, end_r, end_c, value, bold))
                continue
            if value.startswith("="):
                entries.append((r, c, end_r, end_c, None, bold))  # a formula without a cached value
                continue
        text, understood = display_text(value, number_format)
        unknown_format |= not understood
        entries.append((r, c, end_r, end_c, text, bold))
    return entries, unknown_format


# -- reading quickly -------------------------------------------------------------------------
#
# openpyxl builds a Python object per cell, attribute by attribute, through its
# descriptors, and is a heavy import for a small workbook. So the usual workbook is read
# here, parts and worksheets alike, giving every cell the value, type, number
# format and boldness openpyxl would give it; openpyxl is imported only for what
# it alone decides (dates: is a format a date's, and which date is a serial
# number; number formats this module does not know by heart). Anything out of
# the ordinary (a cell without a reference, an element where a cell should be, a
# style openpyxl would look up elsewhere, a value it would refuse) raises
# _Unusual and openpyxl reads the whole workbook instead.
# tests/unit/test_xlsx_reading.py checks both readings agree.

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_ROW, _C, _V, _IS, _T, _R, _F = (_MAIN + name for name in ("row", "c", "v", "is", "t", "r", "f"))
_PACKAGE = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_PACKAGE_RELATIONSHIP = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_RELATIONSHIP_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_WORKBOOK_TYPES = tuple(f"application/vnd.{kind}.main+xml" for kind in (
    "openxmlformats-officedocument.spreadsheetml.sheet", "openxmlformats-officedocument.spreadsheetml.template",
    "ms-excel.sheet.macroEnabled", "ms-excel.template.macroEnabled"))
_SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_PLAIN_REF = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,6})")
_DIGITS = "0123456789"
_FALSE_WORDS = ("false", "f", "0")  # openpyxl's Bool reads these strings as False, any other non-empty one as True
# Built-in number formats (ECMA-376 18.8.30) known here; openpyxl gives "General"
# for an id it has no code for, and its own code for the others (looked up there).
_BUILTIN_FORMATS = {0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 49: "@"}
_OPENPYXL_BUILTIN_IDS = frozenset((*range(5, 9), *range(11, 23), *range(37, 49)))
_DATE_LETTERS = re.compile("[dmhysDMHYS]")  # a format without any of them is no date's (openpyxl's test is finer)


class _Unusual(Exception):
    """Something the quick reading leaves to openpyxl."""


class _TooManyMerged(Exception):
    """Merged ranges covering more cells than openpyxl could hold (their number)."""


def _read_sheets_quickly(data: bytes) -> list[_Sheet] | None:
    """The sheets as :func:`_read_sheets_with_openpyxl` reads them, or None
    where openpyxl must read the workbook itself."""
    try:
        import zipfile  # (here: the registry imports every format; few runs read a workbook)

        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            book = _Book(archive)
            return [_QuickSheet(book, title).read(_xml(archive, path)) for title, path in book.sheets]
    except (_TooManyMerged, _EntitiesDeclared):
        raise  # refused as it would be before openpyxl's reading, whichever reads
    except Exception:  # _Unusual, or anything openpyxl's own reading must judge
        return None


def _openpyxl_bool(value: str | None) -> bool:
    return bool(value) and value not in _FALSE_WORDS


def _xml(archive: zipfile.ZipFile, name: str):
    try:
        return parse_xml(archive.read(name), Diagnostics())
    except InputError as exc:
        raw = archive.read(name)
        if exc.diagnostic.code == "xml-entity" or any(mark in raw for mark in ENTITY_MARKS):
            raise _EntitiesDeclared(name) from None
        raise


class _Book:
    """A workbook's sheets (title, part), cell styles (number format, bold) and shared strings."""

    def __init__(self, archive: zipfile.ZipFile):
        types = _xml(archive, "[Content_Types].xml")
        overrides = {o.get("PartName"): o.get("ContentType") for o in types.iter(_PACKAGE + "Override")}
        if [name for name, kind in overrides.items() if kind in _WORKBOOK_TYPES] != ["/xl/workbook.xml"]:
            raise _Unusual("the workbook is not (only) xl/workbook.xml")
        workbook = _xml(archive, "xl/workbook.xml")
        properties = workbook.find(_MAIN + "workbookPr")
        self.date1904 = properties is not None and _openpyxl_bool(properties.get("date1904"))
        targets = {}
        for rel in _xml(archive, "xl/_rels/workbook.xml.rels").iter(_PACKAGE_RELATIONSHIP):
            target = rel.get("Target") or ""
            path = target[1:] if target.startswith("/") else posixpath.normpath("xl/" + target)
            targets[rel.get("Id")] = (rel.get("Type") or "", path)
        names = set(archive.namelist())
        self.sheets: list[tuple[str, str]] = []
        for sheet in workbook.iter(_MAIN + "sheet"):
            kind, path = targets[sheet.get(_RELATIONSHIP_ID)]
            if path not in names:
                continue  # (openpyxl passes over a sheet whose part is missing)
            if "chartsheet" in kind:
                continue  # not a worksheet
            if not kind.endswith("/worksheet"):
                raise _Unusual("a sheet of another kind")
            if sheet.get("name") is None:
                raise _Unusual("a sheet without a name")  # (openpyxl refuses it)
            self.sheets.append((sheet.get("name"), path))
        self._styles(_xml(archive, "xl/styles.xml"))
        strings = [name for name, kind in overrides.items() if kind == _SHARED_STRINGS_TYPE]
        self.shared_strings = [] if not strings else self._strings(_xml(archive, strings[0][1:]))
        self.date_styles: dict[int, tuple[bool, bool]] = {}
        self.merged_cells = 0  # covered by the merged ranges read so far, in every sheet

    def _styles(self, sheet) -> None:
        custom = {}
        for fmt in sheet.iter(_MAIN + "numFmt"):
            custom[int(fmt.get("numFmtId"))] = fmt.get("formatCode")
        bold = []
        fonts = sheet.find(_MAIN + "fonts")
        for font in [] if fonts is None else fonts.iterchildren(_MAIN + "font"):
            b = font.find(_MAIN + "b")
            bold.append(b is not None and (b.get("val") is None or _openpyxl_bool(b.get("val"))))
        cell_xfs = sheet.find(_MAIN + "cellXfs")
        self.styles: list[tuple[str, bool]] = []
        for xf in [] if cell_xfs is None else cell_xfs.iterchildren(_MAIN + "xf"):
            number_format_id = int(xf.get("numFmtId", "0"))
            if number_format_id in custom:
                code = custom[number_format_id]
            elif number_format_id in _BUILTIN_FORMATS:
                code = _BUILTIN_FORMATS[number_format_id]
            elif number_format_id in _OPENPYXL_BUILTIN_IDS:
                from openpyxl.styles.numbers import BUILTIN_FORMATS

                code = BUILTIN_FORMATS[number_format_id]
            elif number_format_id < 164:
                code = "General"
            else:
                raise _Unusual("a number format that is not there")
            self.styles.append((code, bold[int(xf.get("fontId", "0"))]))
        if not self.styles:
            raise _Unusual("no cell styles: openpyxl keeps its own")

    @staticmethod
    def _strings(table) -> list[str]:
        """openpyxl's shared strings: each item's plain text and its runs' texts, joined."""
        strings = []
        for item in table.iterchildren(_MAIN + "si"):
            pieces = []
            plain = 0
            for child in item:
                if child.tag == _T:
                    plain += 1
                    pieces.append(child.text or "")
                elif child.tag == _R:
                    pieces.extend(t.text or "" for t in child.iterchildren(_T))
                elif child.tag not in (_MAIN + "rPh", _MAIN + "phoneticPr"):
                    raise _Unusual("a shared string of another shape")
            if plain > 1:
                raise _Unusual("a shared string with two plain texts")
            strings.append("".join(pieces).replace("x005F_", ""))
        return strings

    def date_style(self, style_id: int) -> tuple[bool, bool]:
        """(is a date, is a duration) for a number in this style, as openpyxl judges it."""
        known = self.date_styles.get(style_id)
        if known is None:
            code = self.styles[style_id][0]
            if _DATE_LETTERS.search(code) is None:
                known = (False, False)
            else:
                from openpyxl.styles.numbers import is_date_format, is_timedelta_format

                known = (is_date_format(code), is_timedelta_format(code))
            self.date_styles[style_id] = known
        return known


class _QuickSheet:
    def __init__(self, book: _Book, title: str):
        self.book = book
        self.title = title
        self.shared_strings = book.shared_strings
        self.styles = book.styles
        self.columns: dict[str, int] = {}

    def position(self, ref: str | None) -> tuple[int, int]:
        if ref is None:
            raise _Unusual("a cell without a reference")  # openpyxl counts columns along the row
        match = _PLAIN_REF.fullmatch(ref)
        if match is None:
            raise _Unusual("a reference of another form")
        letters = match.group(1)
        column = self.columns.get(letters)
        if column is None:
            column = self.columns[letters] = _column_number(letters)
        return int(match.group(2)), column

    def date(self, number, duration: bool):
        from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

        try:
            return from_excel(number, CALENDAR_MAC_1904 if self.book.date1904 else CALENDAR_WINDOWS_1900,
                              timedelta=duration), "d"
        except (OverflowError, ValueError):
            return "#VALUE!", "e"

    def value(self, el, data_type: str, style_id: int):
        """The cell's value and type, as openpyxl's worksheet reader makes them
        with ``data_only``: from the first ``<v>`` (``<is>`` for an inline string)."""
        wanted = _IS if data_type == "inlineStr" else _V
        found = None
        for child in el:
            if child.tag == wanted:
                found = child
                break
        if data_type == "inlineStr":
            return (None, data_type) if found is None else (_rich_text(found), "s")
        raw = None if found is None else (found.text or None)
        if raw is None:
            return None, data_type
        if data_type == "s":
            return self.shared_strings[int(raw)], "s"
        if data_type == "n":
            number = float(raw) if ("." in raw or "E" in raw or "e" in raw) else int(raw)
            is_date, is_duration = self.book.date_style(style_id)
            if is_date:
                return self.date(number, is_duration)
            return number, "n"
        if data_type == "b":
            return bool(int(raw)), "b"
        if data_type == "str":
            return raw, "s"
        if data_type == "d":
            from openpyxl.utils.datetime import from_ISO8601

            return from_ISO8601(raw), "d"
        return raw, data_type

    def read(self, root) -> _Sheet:
        if root.tag != _MAIN + "worksheet":
            raise _Unusual("not a worksheet in the main namespace")
        # (row, column, value, data type, (number format, bold)), in the order of the
        # XML: row-major in every workbook seen; otherwise sorted, the last cell at a
        # position kept (as openpyxl's dict of cells does)
        cells: list[tuple] = []
        append = cells.append
        in_order = True
        previous_row = previous_column = 0
        hidden_rows: dict[int, bool] = {}
        row_number = 0
        value, position, columns, styles = self.value, self.position, self.columns, self.styles
        ints = ParsedInts()  # a row's number is in each of its cells' references, a style in many cells
        style_count = len(styles)
        for row in root.iter(_ROW):
            raw_row = row.get("r")
            if raw_row is None:
                row_number += 1
            else:
                row_number = int(raw_row)  # (openpyxl's own reading judges "3.0" and the like)
            # openpyxl keeps a row's dimensions only when it says more than r and spans
            if any(k != "r" and k != "spans" and not k.startswith("{") for k in row.keys()):
                hidden_rows[row_number] = _openpyxl_bool(row.get("hidden"))
            for el in row:
                if el.tag != _C:
                    raise _Unusual("a row holds something other than cells")
                get = el.get
                style = get("s")
                if style is None:
                    style_id = 0
                elif style:
                    style_id = ints[style]
                else:
                    raise _Unusual("an empty style")
                if style_id >= style_count:
                    raise _Unusual("a style that is not there")
                # position(ref), inline for the usual reference (letters known, then 1-7 digits, no leading 0)
                ref = get("r")
                letters = ref.rstrip(_DIGITS) if ref is not None else ""
                column = columns.get(letters)
                digits = ref[len(letters):] if column is not None else ""
                if 0 < len(digits) <= 7 and digits[0] != "0":
                    r = ints[digits]
                else:
                    r, column = position(ref)
                if r < previous_row or (r == previous_row and column <= previous_column):
                    in_order = False
                previous_row, previous_column = r, column
                kind = get("t", "n")
                if kind == "inlineStr" and len(el) == 1 and (inline := el[0]).tag == _IS:  # what openpyxl writes
                    append((r, column, _rich_text(inline), "s", styles[style_id]))
                else:
                    found, found_kind = value(el, kind, style_id)
                    if found is None and len(el) and (formula := el.find(_F)) is not None:
                        if not formula.text:  # (a shared formula's other cells: openpyxl spells their text)
                            raise _Unusual("a shared formula without a value")
                        found, found_kind = "=" + formula.text, FORMULA_WITHOUT_VALUE
                    append((r, column, found, found_kind, styles[style_id]))
        if not in_order:
            cells = sorted({(c[0], c[1]): c for c in cells}.values())
        hidden_cols: dict[int, bool] = {}  # by first column, as openpyxl keys them (by its letter)
        for col in root.iter(_MAIN + "col"):
            first = int(col.attrib["min"])
            if not 1 <= first <= 18278:  # (openpyxl has no letters for it)
                raise _Unusual("a column beyond ZZZ")
            hidden_cols[first] = _openpyxl_bool(col.get("hidden"))
        merged: dict[tuple[int, int], tuple[int, int]] = {}
        blocks = list(root.iter(_MAIN + "mergeCells"))
        if blocks:
            for merge in blocks[-1]:
                if local_name(merge.tag) != "mergeCell":
                    continue
                first, _, last = (merge.get("ref") or "").partition(":")
                (r0, c0), (r1, c1) = self.position(first), self.position(last or first)
                if r1 < r0 or c1 < c0:
                    raise _Unusual("a merged range written backwards")
                if (r0, c0) in merged:
                    raise _Unusual("two merged ranges start at one cell")
                merged[r0, c0] = (r1, c1)
                self.book.merged_cells += (r1 - r0 + 1) * (c1 - c0 + 1)
            if self.book.merged_cells > MAX_MERGED_CELLS:
                raise _TooManyMerged(self.book.merged_cells)
        entries, unknown_format = _entries(cells, merged)
        return _Sheet(self.title, entries, bool(merged), unknown_format, sum(hidden_rows.values()),
                      sum(hidden_cols.values()), formula_cells(cells))


def _rich_text(element) -> str:
    """The text of an inline string (``<is>``) holding one plain ``<t>``, as
    openpyxl reads it. Runs of formatted text and phonetic runs are left to
    openpyxl, which also checks their attributes."""
    if len(element) == 1:
        only = element[0]
        if only.tag == _T:
            return only.text or ""
    elif not len(element):
        return ""
    raise _Unusual("an inline string with runs")
