"""LaTeX tables (docs/formats.md, `latex`): the ``tabular`` environments of a
LaTeX file (``tabular``, ``tabular*``, ``tabularx``, ``tabulary``, ``longtable``,
``array``), as arXiv papers, OmniDocBench's annotations and vision-language
models write them.

Every such environment is a table, in order; text outside them is not read
(a whole paper reads as its tables). The body is read by
:mod:`convertables.latex_tables` (rows, cells, ``\\multicolumn``, ``\\multirow``,
rules, comments, math kept as source, inline markup); what it finds wrong is
reported at the line of the table's ``\\begin``: ``latex-span`` (a span count
that is no number, or a multirow over text), ``latex-unclosed`` (no ``\\end``:
read to the end of the file), ``latex-longtable`` (a longtable's repeated head
and foot left out). LaTeX says nothing of pages: ``--page``, else 1. Encoding: the
one a byte-order mark names, else UTF-8, else windows-1252.

The writer writes each table as a ``tabular`` of ``l`` columns: ``\\multicolumn``
and ``\\multirow`` (which needs the multirow package) for spans, an empty cell
(or ``\\multicolumn`` of the span's width) for each slot a span from above
covers and for each hole, LaTeX's special characters escaped (so a cell's math
source reads back as the same text), a line break as a nested
``tabular`` of one column, and the markup ``<b>``, ``<i>``, ``<u>``, ``<sup>``,
``<sub>`` as ``\\textbf``, ``\\textit``, ``\\underline``, ``\\textsuperscript``,
``\\textsubscript``. A comment before each table gives its number and page.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..latex_tables import tables_from_latex
from ..model import Document, Reading, Table
from ..options import ReadOptions, WriteOptions
from ..text_encoding import decode_text
from .declarations import DECLARED

MAX_WRITTEN_SLOTS = 10_000_000
"""Tables whose grid holds more slots are not written (each slot is a cell of the tabular)."""


def decode(data: bytes) -> str:
    """The text: in the encoding its byte-order mark names, else UTF-8, else windows-1252."""
    return decode_text(data)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Reading:
    text = decode(data)
    doc = Document()
    doc.tables = tables_from_latex(text, diagnostics, options.page or 1)
    if not doc.tables:
        diagnostics.info("latex-no-tables", "no tabular environment in the file")
    # Cells are placed row by row from column 0, spans shortened where they would cover text:
    # the grid check has nothing to find.
    return Reading(doc, regions_to_check=[])


# -- writing ---------------------------------------------------------------------------------

_ESCAPES = str.maketrans({
    "\\": "\\textbackslash{}", "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_", "{": "\\{",
    "}": "\\}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
})
_MARKUP = {"<b>": "\\textbf{", "<i>": "\\textit{", "<u>": "\\underline{", "<sup>": "\\textsuperscript{",
           "<sub>": "\\textsubscript{"}
_CLOSING = {"</b>", "</i>", "</u>", "</sup>", "</sub>"}


# Math as the reader keeps it: written as it is where it cannot end the cell, the row or the line.
_MATH = re.compile(r"\$(?:[^$&%\\\n]|\\[^\\\n])+\$")
_WRITTEN_AS_IS = re.compile(r"[^\\&%$#_{}~^\-`'\[*]*\Z")


def _plain(text: str) -> str:
    """Text escaped so that the reader reads it back as it is: LaTeX's special
    characters, dashes (which would read as ligatures: ``-{}-``), quote characters
    (``\\textquotesingle{}``, which would read as typographic quotes), and
    a ``[`` or ``*`` first in a cell (which would read as an argument of the
    ``\\\\`` before it)."""
    if _WRITTEN_AS_IS.match(text):
        return text
    out = []
    last = len(text) - 1
    for k, ch in enumerate(text):
        if k == 0 and ch in "[*":
            out.append("{" + ch + "}")
        elif ch == "-" and k < last and text[k + 1] == ch:
            out.append(ch + "{}")
        elif ch in "`'":  # (a quote character would read as a typographic quote)
            out.append("\\textquotesingle{}" if ch == "'" else "\\textasciigrave{}")
        else:
            out.append(ch.translate(_ESCAPES))
    return "".join(out)


def _nested(math: str) -> bool:
    """Whether the braces of ``math`` (escaped ones aside) open and close in order."""
    depth = 0
    for match in re.finditer(r"\\.|[{}]", math):
        brace = match.group()
        if brace == "{":
            depth += 1
        elif brace == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _text_latex(text: str) -> str:
    """Text escaped, its balanced ``$..$`` math kept as written (the reader reads it back so)."""
    if "$" not in text:
        return _plain(text)
    out = []
    last = 0
    for match in _MATH.finditer(text):
        if not _nested(match.group()):
            continue
        out.append(_plain(text[last:match.start()]) if last < match.start() else "")
        out.append(match.group())
        last = match.end()
    out.append(_plain(text[last:]))
    return "".join(out)


def _line(tokens) -> str:
    """One line of a cell (its markup tokens or its characters), escaped, markup as commands."""
    out = []
    run: list[str] = []
    open_tags = 0
    for token in tokens:
        if len(token) == 1:
            run.append(token)
            continue
        if run:
            out.append(_text_latex("".join(run)))
            run = []
        if token in _MARKUP:
            out.append(_MARKUP[token])
            open_tags += 1
        elif token in _CLOSING and open_tags:
            out.append("}")
            open_tags -= 1
        # (other tags of the source's markup: not LaTeX)
    if run:
        out.append(_text_latex("".join(run)))
    out.append("}" * open_tags)
    return "".join(out)


def cell_latex(cell) -> str:
    tokens = cell.markup if cell.markup is not None else tuple(cell.content or "")
    lines: list[list[str]] = [[]]
    for token in tokens:
        if token == "\n":
            lines.append([])
        else:
            lines[-1].append(token)
    written = [_line(line).strip() for line in lines]
    if len(written) == 1:
        return written[0]
    return "\\begin{tabular}[c]{@{}l@{}}" + " \\\\ ".join(written) + "\\end{tabular}"


def _table_latex(table: Table, diagnostics: Diagnostics) -> str:
    entries = []
    for region in table.regions:
        for c in region.cells:
            entries.append((c.start_row + region.row_increment, c.start_col + region.col_increment,
                            c.end_row + region.row_increment, c.end_col + region.col_increment, c))
    head = f"% table {table.id}, page {table.page or 1}\n"
    if not entries:
        return head + "\\begin{tabular}{l}\n\\end{tabular}\n"
    if min(e[0] for e in entries) < 0 or min(e[1] for e in entries) < 0:
        diagnostics.warning("latex-overlap", f"table {table.id}: cells before the first row or column left out")
        entries = [e for e in entries if e[0] >= 0 and e[1] >= 0]
    height = max(e[2] for e in entries) + 1
    width = max(e[3] for e in entries) + 1
    if height * width > MAX_WRITTEN_SLOTS:
        raise diagnostics.fail("latex-too-large", f"table {table.id} spans {height:,} rows and {width:,} columns; "
                                                  f"tables of more than {MAX_WRITTEN_SLOTS:,} slots are not written")
    entries.sort(key=lambda e: (e[0], e[1]))
    owner: dict[tuple[int, int], tuple] = {}
    by_row: dict[int, list] = {}
    left_out = 0
    for entry in entries:
        r0, c0, r1, c1, _ = entry
        if any((y, x) in owner for y in range(r0, r1 + 1) for x in range(c0, c1 + 1)):
            left_out += 1
            continue
        for y in range(r0, r1 + 1):
            for x in range(c0, c1 + 1):
                owner[(y, x)] = entry
        by_row.setdefault(r0, []).append(entry)
    if left_out:
        diagnostics.warning("latex-overlap", f"table {table.id}: {left_out} overlapping cell(s) cannot be written "
                                             "as LaTeX; left out")
    lines = [head + "\\begin{tabular}{" + "l" * width + "}"]
    for y in range(height):
        fields = []
        x = 0
        while x < width:
            entry = owner.get((y, x))
            if entry is None:
                fields.append("")
                x += 1
                continue
            r0, c0, r1, c1, cell = entry
            columns = c1 - c0 + 1
            if r0 == y and c0 == x:
                text = cell_latex(cell)
                if r1 > r0:
                    text = f"\\multirow{{{r1 - r0 + 1}}}{{*}}{{{text}}}"
                if columns > 1:
                    text = f"\\multicolumn{{{columns}}}{{l}}{{{text}}}"
                fields.append(text)
            else:  # a slot a span from above covers: written empty, as wide as the span
                fields.append(f"\\multicolumn{{{columns}}}{{l}}{{}}" if columns > 1 else "")
            x = c1 + 1
        lines.append(" & ".join(fields) + " \\\\")
    lines.append("\\end{tabular}")
    return "\n".join(lines) + "\n"


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    blocks = [_table_latex(table, diagnostics) for table in doc.tables]
    return "\n".join(blocks).encode("utf-8")


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    """LaTeX source: the first character that is neither whitespace nor in a
    ``%`` comment is a backslash, and a tabular environment or a document begins."""
    text = head.lstrip(b"\xef\xbb\xbf")
    i = 0
    n = len(text)
    while i < n:
        while i < n and text[i] in b" \t\r\n":
            i += 1
        if i < n and text[i] == 0x25:  # a comment line
            end = text.find(b"\n", i)
            i = n if end < 0 else end + 1
            continue
        break
    if i >= n or text[i] != 0x5C:
        return False
    return b"\\begin{" in text and (b"tabular" in text or b"longtable" in text or b"{array}" in text) or \
        text.startswith(b"\\documentclass", i)


FORMAT = DECLARED["latex"]
