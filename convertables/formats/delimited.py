"""CSV and TSV, one table per file (docs/formats.md, `csv`): what Camelot, Tabula,
pdfplumber (with Python's csv module) and pandas (``DataFrame.to_csv``) write.

(The module is named so that it does not shadow the standard library's ``csv``,
which it uses; the format's name is ``csv``.)

Encoding: a byte-order mark (UTF-8, UTF-16, UTF-32), else UTF-8 if the bytes
are valid UTF-8, else windows-1252 (``csv-encoding`` info: what Excel writes
in Western European locales); ``ReadOptions.extra["encoding"]`` overrides all
three. A leading U+FEFF is a byte-order mark, never text. Bytes the encoding
cannot decode, a NUL character (binary data; UTF-16 without a byte-order mark)
and an unknown encoding are refused (``csv-unreadable``).

Delimiter: ``,`` ``;`` tab or ``|``; ``ReadOptions.extra["delimiter"]`` (by name:
comma, semicolon, tab, pipe) overrides, a ``.tsv`` file is tab-separated, and
otherwise the first 64 KiB decide (:func:`sniff_delimiter`): in the first group
of records (up to a blank line) where any candidate occurs outside quotes, the
candidate found the same number of times in the most records wins; ties go to
``,`` then tab, ``;``, ``|``, except that a semicolon beats a comma it ties with
when every comma stands between two digits (decimal commas: ``1,5;2,5``).
Python's ``csv.Sniffer`` was not used: it guesses differently on one-column
and fully quoted files, and says nothing of why.

Records follow RFC 4180 (Python's csv module, not strict): quoted fields hold
delimiters, doubled quotes and line breaks; a line break inside a field
(``\\r\\n`` or ``\\r``, as Tabula writes between a cell's lines) reads as
``\\n``. Every field is a cell at (record, field), 1x1, its text as it is (an
empty field is a blank cell, ``""``); shorter records have fewer cells
(``csv-ragged`` info). A line with nothing on it (not even a delimiter) ends a
table: several tables in one file, as this module writes them, read back;
blank lines before the first and after the last table are nothing. A field
longer than the csv module's limit (128 Ki characters; an unclosed quote
usually) is refused (``csv-field-too-large``), as are files of more than
:data:`MAX_CELLS` fields (``csv-too-large``).

pandas' ``to_csv`` writes a header row of column labels and an index column,
with an empty corner; when both are pandas' default integers they are dropped
(``pandas-labels`` info) unless ``ReadOptions.extra["keep_pandas_labels"]``.
Pages: ``--page``, else a ``-page-<p>-table-<k>`` in the file name (Camelot's
export names), else 1. CSV has no header flags.

The writer writes UTF-8 without a byte-order mark, commas (tabs into a file
named ``.tsv``), ``\\r\\n`` line ends (RFC 4180), a rectangle of ``rows x
columns`` fields per table from its first row and column with a cell. A field is quoted when it
holds a quote, a line break, U+FEFF or any of the four delimiters the reader
considers (more than minimal quoting: a one-column file of ``a;b`` fields would
otherwise read back as two columns). A spanning cell's text goes in its
top-left slot, the rest of the span is empty (``csv-spans`` info, once); holes
are empty fields; several tables are written one after another, a blank line
between them (``csv-tables`` warning: the format holds one table per file).
Header flags, pages and boxes are not written; NUL characters are dropped
(``csv-nul``), which the reader would refuse.
"""

from __future__ import annotations

import os
import re
from collections import Counter

from ..diagnostics import Diagnostics
from ..export_names import camelot_page
from ..grid import MAX_GRID_SLOTS, NUMBER_LIMIT, drop_pandas_default_labels, overlapping_cells
from ..model import Cell, Document, Reading, Region, Table, make_cell
from ..options import ReadOptions, WriteOptions
from .declarations import DECLARED
from ..text_encoding import split_bom

MAX_CELLS = 10_000_000
"""Files of more fields are refused (a cell costs some 150 bytes in memory)."""
MAX_WRITTEN_SLOTS = MAX_GRID_SLOTS
"""Tables whose grid holds more slots are not written (each slot is a field)."""
SNIFF_CHARS = 65536
"""How much of the text decides the delimiter."""

DELIMITERS = {"comma": ",", "tab": "\t", "semicolon": ";", "pipe": "|"}
"""The delimiters considered, by the names ``--delimiter`` takes, in the order ties go."""

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_TOKEN = re.compile(r'"|\r\n|\r|\n|[,;\t|]')

# -- reading ---------------------------------------------------------------------------------

def _decode(data: bytes, diagnostics: Diagnostics, encoding: str | None) -> str:
    """The text of the file (see the module's docstring), or the error that refuses it."""
    hint = "pass --encoding"
    try:
        if encoding:
            text = data.decode(encoding)
            hint = "is --encoding right?"
        else:
            announced, body = split_bom(data)
            if announced is not None:
                text = body.decode(announced)
            else:
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = data.decode("cp1252")
                    diagnostics.info("csv-encoding", "not UTF-8: read as windows-1252 (--encoding sets another)")
    except LookupError:
        raise diagnostics.fail("csv-unreadable", f"unknown text encoding {encoding!r}") from None
    except (UnicodeError, ValueError, TypeError) as exc:
        where = f" at byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else ""
        raise diagnostics.fail("csv-unreadable", f"not text in {encoding or 'UTF-8 or windows-1252'}{where}: "
                                                 f"binary data or another encoding", hint=hint) from None
    if "\0" in text:
        raise diagnostics.fail("csv-unreadable", "the text holds NUL characters: binary data, or UTF-16 without a "
                                                 "byte-order mark", hint="pass --encoding for UTF-16 (utf-16-le)")
    return text[1:] if text.startswith("\ufeff") else text


def _lines(text: str):
    """The lines of ``text`` with their ends (``\\r\\n``, ``\\r`` or ``\\n``), as the
    csv module wants them; made one at a time (``io.StringIO`` would hold the
    text again, at four bytes a character)."""
    for match in _LINE.finditer(text):
        yield match.group()


def sniff_delimiter(text: str) -> str:
    """The delimiter of a CSV text (see the module's docstring). Quotes toggle
    being inside a field wherever they are: in RFC 4180 every quote is part of a
    quoted field, so this finds the quoted parts for all candidates at once."""
    head = text[:SNIFF_CHARS]
    complete = len(text) <= SNIFF_CHARS  # else the last record may be cut short: it is left out
    groups: list[tuple[list[Counter], bool]] = []  # records' counts, and whether every comma is a decimal one
    records: list[Counter] = []
    decimal = True
    counts: Counter = Counter()
    quoted = False
    record_start = 0
    for match in _TOKEN.finditer(head):
        token = match.group()
        if token == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif token[0] in "\r\n":
            if match.start() > record_start:
                records.append(counts)
                counts = Counter()
            elif records:  # a blank line: the group ends
                groups.append((records, decimal))
                records, decimal = [], True
            record_start = match.end()
        else:
            counts[token] += 1
            if token == ",":
                at = match.start()
                if not (0 < at < len(head) - 1 and head[at - 1].isdigit() and head[at + 1].isdigit()):
                    decimal = False
    if complete and len(head) > record_start and not quoted:
        records.append(counts)
    if records:
        groups.append((records, decimal))
    for records, decimal in groups:
        scores = {}
        for delimiter in DELIMITERS.values():
            found = [r[delimiter] for r in records if r[delimiter]]
            if found:
                usual = Counter(found).most_common(1)[0][0]
                scores[delimiter] = found.count(usual)
        if scores:
            best = max(scores.values())
            tied = [d for d in DELIMITERS.values() if scores.get(d) == best]
            if decimal and "," in tied and ";" in tied:
                return ";"
            return tied[0]
    return ","


def _delimiter(text: str, diagnostics: Diagnostics, options: ReadOptions) -> str:
    if options.delimiter:
        return DELIMITERS[str(options.delimiter).lower()]
    if (diagnostics.file or "").lower().endswith(".tsv"):
        return "\t"
    return sniff_delimiter(text)


def _records(text: str, delimiter: str, diagnostics: Diagnostics):
    """``(first line, fields)`` for each record; ``[]`` for a blank line."""
    import csv  # (here: the registry imports every format's module; few runs read CSV)

    reader = csv.reader(_lines(text), delimiter=delimiter, quotechar='"', doublequote=True, strict=False)
    line = 1
    try:
        for fields in reader:
            yield line, fields
            line = reader.line_num + 1
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise diagnostics.fail("csv-field-too-large", f"a field is longer than {csv.field_size_limit():,} "
                                                          "characters, the limit", line=line,
                                   hint="an unclosed quote takes the rest of the file into its field") from None
        raise diagnostics.fail("csv-unreadable", f"cannot be read as CSV: {exc}", line=line) from None


def _table(table_id: int, rows: list[tuple[int, list[str]]], page: int, keep_labels: bool,
           diagnostics: Diagnostics) -> Table:
    cells = []
    append = cells.append
    for y, (_, fields) in enumerate(rows):
        for x, text in enumerate(fields):
            if "\r" in text:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            append(make_cell(y, x, y, x, text))
    first_line = rows[0][0]
    lengths = {len(fields) for _, fields in rows}
    if len(lengths) > 1:
        diagnostics.info("csv-ragged", f"table {table_id}: records have from {min(lengths)} to {max(lengths)} "
                                       "fields; shorter ones give fewer cells", line=first_line)
    if not keep_labels:
        dropped = drop_pandas_default_labels(cells)
        if dropped is not None:
            cells = dropped
            diagnostics.info("pandas-labels", f"table {table_id}: pandas' default integer header row and index "
                                              "column dropped (--keep-index keeps them)", line=first_line)
    return Table(table_id, [Region(0, page, cells=cells)])


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    text = _decode(data, diagnostics, options.encoding)
    if not text.strip("\r\n"):  # (a line of spaces is a record: a blank cell)
        raise diagnostics.fail("csv-empty", "the file is empty")
    delimiter = _delimiter(text, diagnostics, options)
    page = options.page
    if page is None:
        page = camelot_page(os.path.basename(diagnostics.file or ""))
        page = 1 if page is None else page
        page = page if 1 <= page <= NUMBER_LIMIT else 1
    keep_labels = bool(options.keep_pandas_labels)
    doc = Document()
    rows: list[tuple[int, list[str]]] = []
    fields_read = 0
    for line, fields in _records(text, delimiter, diagnostics):
        if fields:
            rows.append((line, fields))
            fields_read += len(fields)
            if fields_read > MAX_CELLS:
                raise diagnostics.fail("csv-too-large", f"more than {MAX_CELLS:,} fields; refused", line=line)
        elif rows:  # a blank line ends a table
            doc.tables.append(_table(len(doc.tables), rows, page, keep_labels, diagnostics))
            rows = []
    if rows:
        doc.tables.append(_table(len(doc.tables), rows, page, keep_labels, diagnostics))
    # Every cell is 1x1, on its own slot, from row and column 0: the grid check has nothing to find.
    return Reading(doc, regions_to_check=[])


# -- writing ---------------------------------------------------------------------------------

_QUOTED = re.compile('["\r\n,;\t|\ufeff]')  # (U+FEFF: first in a file, it would read as a byte-order mark)


def _field(text: str) -> str:
    if _QUOTED.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def _writable(table: Table, diagnostics: Diagnostics) -> list[tuple[int, int, int, int, str]]:
    """The table's cells as (first row, first column, last row, last column,
    text), less those before the first row or column and those on a slot an
    earlier cell holds (one warning for the table)."""
    entries = []
    for region in table.regions:
        dr, dc = region.row_increment, region.col_increment
        entries += [(c.start_row + dr, c.start_col + dc, c.end_row + dr, c.end_col + dc, c.content or "")
                    for c in region.cells]
    if not entries:
        return entries
    count = len(entries)
    if min(e[0] for e in entries) < 0 or min(e[1] for e in entries) < 0:
        entries = [e for e in entries if e[0] >= 0 and e[1] >= 0]
    if any(e[2] < e[0] or e[3] < e[1] for e in entries):  # (an inverted span, as the grid check mends it)
        entries = [(r0, c0, max(r0, r1), max(c0, c1), text) for r0, c0, r1, c1, text in entries]
    spanning = any(e[2] != e[0] or e[3] != e[1] for e in entries)
    if spanning or len({(e[0], e[1]) for e in entries}) < len(entries):
        while True:
            proxies = [Cell(r0, c0, r1, c1) for r0, c0, r1, c1, _ in entries]
            position = {id(proxy): k for k, proxy in enumerate(proxies)}
            later = {position[id(b)] for _, b in overlapping_cells(proxies)}
            if not later:
                break
            entries = [entry for k, entry in enumerate(entries) if k not in later]
    if len(entries) < count:
        diagnostics.warning("csv-cell-left-out", f"table {table.id}: {count - len(entries)} cell(s) before the "
                                                 "first row or column, or on a slot an earlier cell holds, left out")
    top, left = min((e[0] for e in entries), default=0), min((e[1] for e in entries), default=0)
    if top or left:  # rows and columns before the first cell are no part of the table (as TEDS and GriTS count it)
        entries = [(r0 - top, c0 - left, r1 - top, c1 - left, text) for r0, c0, r1, c1, text in entries]
    return entries


def _table_lines(table: Table, entries: list, diagnostics: Diagnostics, delimiter: str) -> list[str]:
    height = max(e[2] for e in entries) + 1
    width = max(e[3] for e in entries) + 1
    if height * width > MAX_WRITTEN_SLOTS:
        raise diagnostics.fail("csv-too-large", f"table {table.id} spans {height:,} rows and {width:,} columns; "
                                                f"tables of more than {MAX_WRITTEN_SLOTS:,} slots are not written")
    texts = [e[4] for e in entries]
    everything = "".join(texts)  # (one search over every text: most tables need no quotes at all)
    if "\0" in everything:
        texts = [text.replace("\0", "") for text in texts]
    if _QUOTED.search(everything):
        texts = [_field(text) if text else text for text in texts]
    rows: list[list[str] | None] = [None] * height
    for (r0, c0, _, _, _), text in zip(entries, texts):
        if text:
            fields = rows[r0]
            if fields is None:
                fields = rows[r0] = [""] * width
            fields[c0] = text
    # one empty field: a line with nothing on it would end the table
    empty = '""' if width == 1 else delimiter * (width - 1)
    return [empty if fields is None else delimiter.join(fields) for fields in rows]


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    # tabs for a file named .tsv (which the reader reads as tab-separated), else commas
    delimiter = "\t" if (diagnostics.file or "").lower().endswith(".tsv") else ","
    blocks = []
    spans = nul = False
    for table in doc.tables:
        entries = _writable(table, diagnostics)
        if not entries:
            continue
        spans = spans or any(r1 > r0 or c1 > c0 for r0, c0, r1, c1, _ in entries)
        nul = nul or any("\0" in text for *_, text in entries)
        blocks.append("\r\n".join(_table_lines(table, entries, diagnostics, delimiter)) + "\r\n")
    if nul:
        diagnostics.warning("csv-nul", "text held NUL characters, which CSV readers refuse; they were dropped")
    if spans:
        diagnostics.info("csv-spans", "CSV has no spans: a spanning cell's text is written in its top-left slot, "
                                      "the rest of its span left empty")
    if len(blocks) > 1:
        diagnostics.warning("csv-tables", f"{len(blocks)} tables written into one file, a blank line between them: "
                                          "CSV holds one table per file")
    return "\r\n".join(blocks).encode("utf-8")


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    """CSV has no mark of its own: recognised by its suffix (``.csv``, ``.tsv``) only."""
    return False


FORMAT = DECLARED["delimited"]
