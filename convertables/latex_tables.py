"""LaTeX tables: the ``tabular`` environments of a text, read into cells.

Shared by the ``latex`` format and the ``markdown`` format (whose pages carry
tables as LaTeX too); no I/O. :func:`find_tables` finds every environment of
:data:`ENVIRONMENTS` in a text, in order, and reads each into a grid of
:class:`~convertables.model.Cell`.

How a body is read, as LaTeX typesets it (and as LaTeXML, the converter
OmniDocBench uses, reads it):

* ``&`` ends a cell and ``\\\\`` (also ``\\\\*``, ``\\\\[2pt]``, ``\\tabularnewline``)
  a row, where they stand outside braces and nested environments; ``\\&`` is
  an ampersand. What follows the last ``\\\\`` is no row when it is blank (rules
  only), nor is a longtable's caption line or the blank line before one of its
  marks; a blank line in between (``\\\\ \\\\``) is a row of one blank cell,
  as LaTeX draws it.
* Rules and spacing between rows (``\\hline``, ``\\cline``, ``\\toprule``,
  ``\\midrule``, ``\\bottomrule``, ``\\cmidrule(lr){2-3}``, ``\\addlinespace``,
  ``\\specialrule``, ``\\hhline``, ``\\noalign``) are not text; nor are
  ``\\caption`` and ``\\label`` (a longtable's caption row), nor comments (``%``
  to the end of the line, and the line break and indent after it).
* ``\\multicolumn{n}{spec}{text}`` spans n columns; ``\\multirow{n}{width}{text}``
  (optional arguments, ``*`` or ``=`` widths allowed) spans n rows down from its
  row, or, where n is negative, up to its row (the cell is written in the last
  row of its span). A cell is placed at the column after the row's earlier
  cells and their spans (LaTeX leaves no slot for a span from a row above: the
  covered slots are written, usually empty). Those written slots under a
  multirow are no cells of their own when blank; a covered slot that holds text
  cuts the span short before it (``latex-span`` warning), which is what LaTeXML
  does. A span reaching past the last row ends at it; n outside 1..1000 (or not
  a number) counts as 1 (``latex-span``).
* longtable: the rows before ``\\endfirsthead`` (else before ``\\endhead``) are
  header cells; the head repeated on later pages (the ``\\endhead`` block after
  a first head) and the running foot (``\\endfoot`` before a last foot) are
  repeats, not rows of the table; the last foot (or else the foot) ends it.
  No other environment says which rows are headers, so no other cell is one.

A cell's text: math (``$..$``, ``\\(..\\)``, ``\\[..\\]``, math environments) is
kept as its source, delimiters included; ``\\textbf``, ``\\textit``/``\\emph``,
``\\underline``, ``\\textsuperscript``, ``\\textsubscript`` and the declarations
``\\bf``, ``\\bfseries``, ``\\it``, ``\\itshape`` in a group are kept as markup
(``<b>``, ``<i>``, ``<u>``, ``<sup>``, ``<sub>`` tokens beside the plain text, as
PubTabNet's cells have them); font, size and colour commands, spacing, and
wrappers such as ``\\makecell``, ``\\text``, ``\\mbox`` give their text, and
``\\diagbox{A}{B}`` (a split corner cell) gives ``A B``; escapes
(``\\% \\& \\$ \\# \\_ \\{ \\}``), accents (``\\'e``), dashes (``--``, ``---``),
quotes and common symbols (``\\dag``, ``\\S``, ``\\ldots``, ``\\checkmark``) give
their characters; ``~`` and ``\\,`` a space; a line break inside a cell (``\\\\``
in a group, ``\\newline``, a nested tabular's rows) a line break. Any other
command is kept as its source with its braced arguments (``\\cite{x}``).
Whitespace runs are one space; the text is stripped.

A tabular nested in a cell (``\\begin{tabular}{@{}c@{}}a\\\\b\\end{tabular}``,
arXiv's idiom for a cell of several lines) is that cell's text, its rows as
lines and its cells separated by a space, not a table of its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .diagnostics import Diagnostics
from .model import Cell, Region, Table

ENVIRONMENTS = ("tabular", "tabular*", "tabularx", "tabulary", "longtable", "longtable*", "array")
"""The environments read as tables."""

MAX_SPAN = 1000
"""``\\multicolumn``/``\\multirow`` counts beyond it count as 1 (HTML's colspan cap)."""
MAX_SLOTS = 10_000_000
"""Short rows are filled up with empty cells up to this many slots in a table."""
MAX_DEPTH = 12
"""Groups nested deeper than this are read as plain text."""
MAX_NESTED_TABLES = 3
"""Tabulars nested in cells deeper than this are read as plain text."""
_TABLE_DEPTH = MAX_DEPTH // MAX_NESTED_TABLES

_BEGIN = re.compile(r"\\begin\s*\{(tabular\*?|tabularx|tabulary|longtable\*?|array)\}")
_BEGIN_TEXT = re.compile(r"\\begin\s*\{(tabular\*?|tabularx|tabulary|longtable\*?)\}")  # no math arrays
_WIDTH_FIRST = {"tabular*", "tabularx", "tabulary"}  # a width before the column spec
# The tokens that matter when a body is cut into rows and cells; text runs between them are skipped.
_BODY_TOKEN = re.compile(r"%[^\n]*(?:\n[ \t]*)?|\\(?:[A-Za-z@]+\*?|.)|[{}]", re.S)
_ROW_END = {"\\\\", "\\tabularnewline", "\\cr", "\\\\*"}
# Between rows: not text. Each with the arguments it takes ('o' optional [..], '(' optional (..), 'm' mandatory).
_RULES = {
    "\\hline": "", "\\toprule": "o", "\\midrule": "o", "\\bottomrule": "o", "\\cline": "m", "\\cmidrule": "o(m",
    "\\addlinespace": "o", "\\specialrule": "mmm", "\\hhline": "m", "\\noalign": "m", "\\morecmidrules": "",
    "\\caption": "om", "\\caption*": "m", "\\label": "m", "\\firsthline": "", "\\lasthline": "", "\\Xhline": "m",
    "\\Hline": "", "\\cdashline": "m", "\\hdashline": "", "\\arrayrulecolor": "m", "\\rowcolor": "om",
    "\\rowcolors": "mmm", "\\centering": "", "\\small": "", "\\footnotesize": "", "\\scriptsize": "",
    "\\toprule*": "", "\\bottomrule*": "",
}
_LONGTABLE_MARKS = {"\\endfirsthead", "\\endhead", "\\endfoot", "\\endlastfoot"}


@dataclass
class LatexTable:
    """One environment read: where it lies in the text, its cells, and what was found wrong."""

    environment: str
    start: int
    end: int
    cells: list[Cell]
    warnings: list[tuple[str, str]] = field(default_factory=list)
    """(code, message) pairs."""


# -- finding environments --------------------------------------------------------------------

def _skip_space(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return i


_BRACES = re.compile(r"\\.|[{}]", re.S)
_BRACKETS = re.compile(r"\\.|[{}\[\]]", re.S)


def _group_end(text: str, i: int, opening: str = "{", closing: str = "}") -> int:
    """The index after the group opened at ``text[i]`` (``-1`` if it never closes).
    Braces escaped by a backslash do not count; for ``[`` groups, brackets inside
    braces do not either. (Found by a search that passes over text between braces.)"""
    depth = 0
    brace = 0
    if opening == "{":
        for match in _BRACES.finditer(text, i):
            ch = match.group()
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return match.end()
        return -1
    for match in _BRACKETS.finditer(text, i):
        ch = match.group()
        if ch == "{":
            brace += 1
        elif ch == "}":
            brace -= 1
        elif brace == 0 and ch == opening:
            depth += 1
        elif brace == 0 and ch == closing:
            depth -= 1
            if depth == 0:
                return match.end()
    return -1


def _arguments(text: str, i: int, spec: str) -> int:
    """The index after the arguments ``spec`` describes ('m' braced or one token,
    'o' optional ``[..]``, '(' optional ``(..)``), from ``i``."""
    for kind in spec:
        j = _skip_space(text, i)
        if kind == "m":
            if j < len(text) and text[j] == "{":
                end = _group_end(text, j)
                i = len(text) if end < 0 else end
            elif j < len(text) and text[j] == "\\":
                m = re.compile(r"\\(?:[A-Za-z@]+|.)").match(text, j)
                i = m.end() if m else j + 1
            elif j < len(text):
                i = j + 1
        elif kind == "o" and j < len(text) and text[j] == "[":
            end = _group_end(text, j, "[", "]")
            i = len(text) if end < 0 else end
        elif kind == "(" and j < len(text) and text[j] == "(":
            end = text.find(")", j)
            i = len(text) if end < 0 else end + 1
    return i


def find_tables(text: str, depth: int = 0, arrays: bool = True) -> list[LatexTable]:
    """Every table environment of ``text``, in order (a table nested in another's
    cell is that cell's text, not listed); ``arrays``: math's ``array`` too."""
    tables = []
    position = 0
    begin = _BEGIN if arrays else _BEGIN_TEXT
    while True:
        match = begin.search(text, position)
        if match is None:
            return tables
        table = read_environment(text, match, depth)
        tables.append(table)
        position = max(table.end, match.end())


def read_environment(text: str, match: re.Match, depth: int = 0) -> LatexTable:
    """The environment whose ``\\begin{..}`` is ``match``: its arguments skipped, its body read."""
    environment = match.group(1)
    i = match.end()
    if environment in _WIDTH_FIRST:
        i = _arguments(text, i, "m")
    i = _arguments(text, i, "om")  # [position]{column spec}
    warnings: list[tuple[str, str]] = []
    rows, marks, end = _cut(text, i, environment)
    if end < 0:
        warnings.append(("latex-unclosed", f"\\begin{{{environment}}} is never closed: read to the end"))
        end = len(text)
    cells = _grid(rows, marks, warnings, depth)
    return LatexTable(environment, match.start(), end, cells, warnings)


# -- cutting a body into rows and cells ------------------------------------------------------

_new = object.__new__
_AMPERSAND = "\ufdee"  # an "&" that does not end a cell (escaped, or in a group), while a row is cut


def _cells_of(pieces: list[str]) -> list[str]:
    """A row's source cut at its ampersands (those in groups and escaped ones kept)."""
    row = "".join(pieces)
    cells = row.split("&")
    if _AMPERSAND in row:
        cells = [cell.replace(_AMPERSAND, "&") for cell in cells]
    return cells


def _cut(text: str, i: int, environment: str) -> tuple[list[list[str]], list[tuple[int, str]], int]:
    """The body from ``i`` as rows of cell sources (comments and rules taken
    out), the longtable marks (rows before the mark, the mark), and the index
    after ``\\end{environment}`` (-1 where it never comes). Only braces,
    comments and control sequences are looked at one by one; a row is cut at
    its ampersands in one go, those inside groups masked first."""
    rows: list[list[str]] = []
    marks: list[tuple[int, str]] = []
    pieces: list[str] = []
    start = i
    depth = 0
    n = len(text)
    search = _BODY_TOKEN.search
    position = i
    captioned = False
    while True:
        token = search(text, position)
        if token is None:
            break
        value = token.group()
        position = token.end()
        first = value[0]
        if first == "{":
            if depth == 0:
                pieces.append(text[start:token.start()])
                start = token.start()
            depth += 1
            continue
        if first == "}":
            if depth > 0:
                depth -= 1
                if depth == 0:
                    pieces.append(text[start:position].replace("&", _AMPERSAND))
                    start = position
            continue
        if first == "%":
            piece = text[start:token.start()]
            pieces.append(piece.replace("&", _AMPERSAND) if depth else piece)
            start = position
            continue
        if depth > 0:
            if value == "\\begin":
                depth += 1
            elif value == "\\end":
                depth -= 1
                if depth == 0:
                    position = _arguments(text, position, "m")
                    pieces.append(text[start:position].replace("&", _AMPERSAND))
                    start = position
            continue
        if value == "\\&":
            pieces.append(text[start:token.start()])
            pieces.append("\\" + _AMPERSAND)
            start = position
            continue
        if value == "\\end":
            name_end = _arguments(text, position, "m")
            if text[position:name_end].strip().strip("{}").strip() == environment:
                pieces.append(text[start:token.start()])
                cells = _cells_of(pieces)
                if not _blank_row(cells):  # (what follows the last \\)
                    rows.append(cells)
                return rows, marks, name_end
            continue  # a stray \end: left in the text
        if value == "\\begin":
            pieces.append(text[start:token.start()])
            start = token.start()
            depth += 1
            continue
        if value in _ROW_END:
            pieces.append(text[start:token.start()])
            cells = _cells_of(pieces)
            if not (captioned and _blank_row(cells)):  # (a longtable's caption line is no row)
                rows.append(cells)
            pieces = []
            captioned = False
            if value == "\\\\":
                j = _skip_space(text, position)
                if j < n and text[j] == "*":
                    position = j + 1
                position = _arguments(text, position, "o")
            start = position
            continue
        spec = _RULES.get(value)
        if spec is not None:
            captioned = captioned or value.startswith("\\caption")
            pieces.append(text[start:token.start()])
            position = start = _arguments(text, position, spec)
            continue
        if value in _LONGTABLE_MARKS:
            pieces.append(text[start:token.start()])
            cells = _cells_of(pieces)
            if not _blank_row(cells):
                rows.append(cells)
            pieces = []
            marks.append((len(rows), value))
            start = position
    piece = text[start:n]
    pieces.append(piece.replace("&", _AMPERSAND) if depth else piece)
    cells = _cells_of(pieces)
    if not _blank_row(cells):
        rows.append(cells)
    return rows, marks, -1


def _blank_row(cells: list[str]) -> bool:
    return len(cells) == 1 and not cells[0].strip()


# -- a cell's spans --------------------------------------------------------------------------

_MULTICOLUMN = re.compile(r"\s*\\multicolumn\b")
_MULTIROW = re.compile(r"\\multirow(?:cell)?\b|\\multirowcell\b")
_INTEGER = re.compile(r"\s*([+-]?\d+)\s*$")


def _braced(text: str, i: int) -> tuple[str, int]:
    """The mandatory argument at ``i`` (braces taken off) and the index after it."""
    j = _skip_space(text, i)
    end = _arguments(text, j, "m")
    value = text[j:end]
    if value.startswith("{") and value.endswith("}"):
        value = value[1:-1]
    return value, end


def _count(raw: str, what: str, warnings: list) -> int:
    match = _INTEGER.match(raw)
    value = int(match.group(1)) if match else None
    if value is None or value == 0 or abs(value) > MAX_SPAN or (what == "\\multicolumn" and value < 0):
        warnings.append(("latex-span", f"{what}{{{raw.strip()}}} counts as 1"))
        return 1
    return value


def _spans(source: str, warnings: list) -> tuple[int, int, str, bool]:
    """(columns, rows, the cell's source without the span commands, whether a
    span command was written) of one cell's source."""
    if "\\multi" not in source:
        return 1, 1, source, False
    columns, rows, written = 1, 1, False
    match = _MULTICOLUMN.match(source)
    if match:
        raw, i = _braced(source, match.end())
        columns = _count(raw, "\\multicolumn", warnings)
        _, i = _braced(source, i)  # the column spec
        content, i = _braced(source, i)
        source = content + source[i:]
        written = True
    match = _MULTIROW.search(source)
    if match:
        i = match.end()
        name = match.group()
        if name == "\\multirowcell":
            raw, i = _braced(source, i)
            i = _arguments(source, i, "o")
        else:
            i = _arguments(source, i, "o")  # [vpos]
            raw, i = _braced(source, i)
            i = _arguments(source, i, "o")  # [bigstruts]
            _, i = _braced(source, i)  # width: *, = or a length
            i = _arguments(source, i, "o")  # [fixup]
        content, i = _braced(source, i)
        rows = _count(raw, "\\multirow", warnings)
        source = source[:match.start()] + "{" + content + "}" + source[i:]
        written = True
    return columns, rows, source, written


# -- a cell's text ---------------------------------------------------------------------------

# Markup tags and line breaks while the text is gathered, as noncharacters (never text of a page).
_TAGS = ("<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "<sup>", "</sup>", "<sub>", "</sub>")
_TAG_CHAR = {tag: chr(0xFDD0 + k) for k, tag in enumerate(_TAGS)}
_CHAR_TAG = {v: k for k, v in _TAG_CHAR.items()}
_LINE = "\ufdef"
_WRAPPING = {  # commands whose one argument is text in a tag
    "\\textbf": "b", "\\textit": "i", "\\emph": "i", "\\textsl": "i", "\\underline": "u", "\\uline": "u",
    "\\textsuperscript": "sup", "\\textsubscript": "sub",
}
_DECLARING = {"\\bf": "b", "\\bfseries": "b", "\\it": "i", "\\itshape": "i", "\\em": "i", "\\sl": "i",
              "\\slshape": "i"}
# Commands whose last mandatory argument is the text; the spec says which arguments come before it.
_TEXT_OF = {
    "\\text": "", "\\textrm": "", "\\textsf": "", "\\texttt": "", "\\textsc": "", "\\textup": "", "\\textmd": "",
    "\\textnormal": "", "\\mbox": "", "\\hbox": "", "\\makecell": "o", "\\thead": "o", "\\makebox": "oo",
    "\\fbox": "", "\\framebox": "oo", "\\parbox": "ooom", "\\shortstack": "o", "\\raisebox": "moo",
    "\\textcolor": "om", "\\colorbox": "om", "\\tabularcell": "", "\\smash": "o", "\\textmd": "",
    "\\ensuremath": "", "\\boldmath": "", "\\mathbf": "", "\\centerline": "", "\\textnormal": "",
    "\\specialcell": "o", "\\bm": "", "\\rotatebox": "om", "\\resizebox": "mm",
    "\\scalebox": "mo", "\\cellcolor": None, "\\xspace": None,
}
# Commands that are not text, with their arguments.
_NOT_TEXT = {
    "\\color": "om", "\\cellcolor": "om", "\\rowcolor": "om", "\\hspace": "m", "\\hspace*": "m", "\\vspace": "m",
    "\\vspace*": "m", "\\rule": "omm", "\\label": "m", "\\centering": "", "\\raggedright": "",
    "\\raggedleft": "", "\\arraybackslash": "", "\\tiny": "", "\\scriptsize": "", "\\footnotesize": "",
    "\\small": "", "\\normalsize": "", "\\large": "", "\\Large": "", "\\LARGE": "", "\\huge": "", "\\Huge": "",
    "\\rm": "", "\\sf": "", "\\tt": "", "\\sc": "", "\\rmfamily": "", "\\sffamily": "", "\\ttfamily": "",
    "\\scshape": "", "\\upshape": "", "\\mdseries": "", "\\normalfont": "", "\\selectfont": "",
    "\\fontsize": "mm", "\\strut": "", "\\bigstrut": "o", "\\vfill": "", "\\hfill": "", "\\null": "",
    "\\noindent": "", "\\relax": "", "\\phantom": "m", "\\vphantom": "m", "\\hphantom": "m",
    "\\setlength": "mm", "\\renewcommand": "mm", "\\arraystretch": "", "\\protect": "", "\\xspace": "",
    "\\nobreak": "", "\\allowbreak": "", "\\hline": "", "\\cline": "m", "\\toprule": "o", "\\midrule": "o",
    "\\bottomrule": "o", "\\cmidrule": "o(m", "\\addlinespace": "o", "\\newline": None, "\\linebreak": "o",
    "\\par": None, "\\Centering": "", "\\RaggedRight": "", "\\boldmath": "", "\\unboldmath": "",
}
_SYMBOLS = {
    "\\%": "%", "\\&": "&", "\\$": "$", "\\#": "#", "\\_": "_", "\\{": "{", "\\}": "}", "\\ ": " ", "\\,": " ",
    "\\;": " ", "\\:": " ", "\\!": "", "\\/": "", "\\-": "", "\\quad": " ", "\\qquad": " ", "\\enspace": " ",
    "\\thinspace": " ", "\\textbackslash": "\\", "\\ldots": "\u2026", "\\dots": "\u2026", "\\textellipsis": "\u2026",
    "\\dag": "\u2020", "\\dagger": "\u2020", "\\ddag": "\u2021", "\\ddagger": "\u2021", "\\S": "\u00a7",
    "\\P": "\u00b6", "\\pounds": "\u00a3", "\\euro": "\u20ac", "\\texteuro": "\u20ac", "\\copyright": "\u00a9",
    "\\textcopyright": "\u00a9", "\\textregistered": "\u00ae", "\\texttrademark": "\u2122",
    "\\checkmark": "\u2713", "\\cmark": "\u2713", "\\xmark": "\u2717", "\\textdegree": "\u00b0",
    "\\degree": "\u00b0", "\\textendash": "\u2013", "\\textemdash": "\u2014", "\\textbullet": "\u2022",
    "\\textasciitilde": "~", "\\textasciicircum": "^", "\\textless": "<", "\\textgreater": ">",
    "\\textbar": "|", "\\textperiodcentered": "\u00b7", "\\textpm": "\u00b1", "\\texttimes": "\u00d7",
    "\\textmu": "\u00b5", "\\ss": "\u00df", "\\ae": "\u00e6", "\\AE": "\u00c6", "\\o": "\u00f8",
    "\\O": "\u00d8", "\\aa": "\u00e5", "\\AA": "\u00c5", "\\oe": "\u0153", "\\OE": "\u0152", "\\l": "\u0142",
    "\\L": "\u0141", "\\i": "\u0131", "\\textquoteright": "\u2019", "\\textquoteleft": "\u2018",
    "\\LaTeX": "LaTeX", "\\TeX": "TeX", "\\@": "", "\\textdagger": "\u2020", "\\textdaggerdbl": "\u2021",
    "\\textsection": "\u00a7", "\\textparagraph": "\u00b6",
}
_ACCENTS = {"\\'": "\u0301", "\\`": "\u0300", "\\^": "\u0302", '\\"': "\u0308", "\\~": "\u0303", "\\=": "\u0304",
            "\\.": "\u0307", "\\u": "\u0306", "\\v": "\u030c", "\\H": "\u030b", "\\c": "\u0327", "\\k": "\u0328",
            "\\r": "\u030a", "\\d": "\u0323", "\\b": "\u0331"}
_MATH_ENVIRONMENTS = {"equation", "equation*", "align", "align*", "math", "displaymath", "eqnarray",
                      "eqnarray*", "gather", "gather*", "multline", "multline*", "matrix", "pmatrix", "bmatrix",
                      "vmatrix", "cases", "split", "aligned"}
_TEXT_TOKEN = re.compile(r"\\(?:[A-Za-z@]+\*?|.)|\$\$|[${}~\n]|---?|``|''|[^\\${}~\n\-`']+|.", re.S)
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_SPECIAL = re.compile(r"[\\{}$~`'\-]")  # what makes a cell's source more than its text
_LETTERS = re.compile(r"[A-Za-z@]")


def _math_end(text: str, i: int, closing: str) -> int:
    """The index after the math that runs from ``i`` to ``closing`` (the end of the text if it never does)."""
    n = len(text)
    while i < n:
        if text.startswith(closing, i):
            return i + len(closing)
        i += 2 if text[i] == "\\" else 1
    return n


def _convert(text: str, out: list[str], depth: int) -> None:
    """Appends the text of LaTeX source ``text`` to ``out`` (markup tags and line
    breaks as their placeholder characters)."""
    if depth > MAX_DEPTH:
        out.append(text.replace("{", "").replace("}", ""))
        return
    closers: list[str] = []  # tags to close at the end of this group (declarations)
    n = len(text)
    i = 0
    match = _TEXT_TOKEN.match
    while i < n:
        token = match(text, i)
        value = token.group()
        i = token.end()
        first = value[0]
        if first != "\\":
            if first == "{":
                end = _group_end(text, i - 1)
                end = n if end < 0 else end
                _convert(text[i:end - 1] if text[end - 1:end] == "}" else text[i:end], out, depth + 1)
                i = end
            elif first == "$":
                end = _math_end(text, i, value)
                out.append(text[i - len(value):end])
                i = end
            elif first == "}":
                pass
            elif first == "~":
                out.append(" ")
            elif value == "--":
                out.append("\u2013")
            elif value == "---":
                out.append("\u2014")
            elif value == "``":
                out.append("\u201c")
            elif value == "''":
                out.append("\u201d")
            else:
                out.append(value)
            continue
        # a control sequence
        symbol = _SYMBOLS.get(value)
        if symbol is not None:
            out.append(symbol)
            if _LETTERS.match(value, 1):  # a control word eats the spaces after it
                i = _skip_space(text, i) if value not in ("\\quad", "\\qquad") else i
            continue
        if value == "\\\\" or value == "\\newline" or value == "\\linebreak" or value == "\\tabularnewline":
            out.append(_LINE)
            if value == "\\\\":
                j = _skip_space(text, i)
                if j < n and text[j] == "*":
                    i = j + 1
            i = _arguments(text, i, "o")
            continue
        tag = _WRAPPING.get(value)
        if tag is not None:
            argument, i = _braced(text, i)
            out.append(_TAG_CHAR[f"<{tag}>"])
            _convert(argument, out, depth + 1)
            out.append(_TAG_CHAR[f"</{tag}>"])
            continue
        tag = _DECLARING.get(value)
        if tag is not None:
            out.append(_TAG_CHAR[f"<{tag}>"])
            closers.append(_TAG_CHAR[f"</{tag}>"])
            i = _skip_space(text, i)  # (a control word eats the spaces after it)
            continue
        if value in _ACCENTS:
            argument, i = _braced(text, i)
            inner: list[str] = []
            _convert(argument, inner, depth + 1)
            letters = "".join(inner)
            out.append(unicodedata.normalize("NFC", letters[:1] + _ACCENTS[value] + letters[1:]) if letters
                       else "")
            continue
        if value == "\\(" or value == "\\[":
            end = _math_end(text, i, "\\)" if value == "\\(" else "\\]")
            out.append(text[i - 2:end])
            i = end
            continue
        if value == "\\begin":
            name, after = _braced(text, i)
            name = name.strip()
            if name in ENVIRONMENTS:
                # (a nested tabular counts as several groups: at most MAX_NESTED_TABLES of them)
                nested = read_environment(text, _BEGIN.match(text, token.start()), depth + _TABLE_DEPTH) \
                    if _BEGIN.match(text, token.start()) else None
                if nested is not None:
                    out.append(_nested_text(nested))
                    i = max(nested.end, after)
                    continue
            closing = f"\\end{{{name}}}"
            end = text.find(closing, after)
            end = n if end < 0 else end
            if name in _MATH_ENVIRONMENTS:
                out.append(text[token.start():min(n, end + len(closing))])
            else:
                _convert(text[after:end], out, depth + 1)
            i = min(n, end + len(closing))
            continue
        spec = _TEXT_OF.get(value, "")
        if value in _TEXT_OF and spec is not None:
            i = _arguments(text, i, spec)
            argument, i = _braced(text, i)
            _convert(argument, out, depth + 1)
            continue
        spec = _NOT_TEXT.get(value, "")
        if value in _NOT_TEXT:
            if spec is None:
                out.append(_LINE if value in ("\\newline", "\\par") else "")
            else:
                i = _arguments(text, i, spec)
            if _LETTERS.match(value, 1) and not spec:
                i = _skip_space(text, i)
            continue
        if value == "\\diagbox" or value == "\\backslashbox" or value == "\\slashbox":  # a split corner cell
            i = _arguments(text, i, "o")
            first, i = _braced(text, i)
            second, i = _braced(text, i)
            _convert(first, out, depth + 1)
            out.append(" ")
            _convert(second, out, depth + 1)
            continue
        if value == "\\multirow" or value == "\\multicolumn":  # where the span was not read: its text
            i = _arguments(text, i, "omomom" if value == "\\multirow" else "mm")
            continue
        # anything else: kept as its source, with the braced arguments that follow it
        end = i
        while True:
            j = _skip_space(text, end)
            if j < n and text[j] == "{":
                group_end = _group_end(text, j)
                if group_end < 0:
                    break
                end = group_end
            else:
                break
        out.append(text[token.start():end])
        i = end
    out.extend(reversed(closers))


def _nested_text(table: LatexTable) -> str:
    """A nested tabular as a cell's text: its rows as lines, cells separated by a space."""
    rows: dict[int, list[Cell]] = {}
    for cell in table.cells:
        rows.setdefault(cell.start_row, []).append(cell)
    lines = []
    for row in sorted(rows):
        lines.append(" ".join(c.content for c in sorted(rows[row], key=lambda c: c.start_col) if c.content))
    return _LINE.join(lines)


def cell_text(source: str, depth: int = 0) -> tuple[str, tuple[str, ...] | None]:
    """The text of a cell's LaTeX source, and its markup tokens where it has any."""
    if _SPECIAL.search(source) is None:
        text = source.strip()
        if "  " in text or not text.isprintable():
            text = _SPACES.sub(" ", text)
        return text, None
    out: list[str] = []
    _convert(source, out, depth)
    joined = _SPACES.sub(" ", "".join(out))
    if _LINE in joined:
        joined = "\n".join(part.strip() for part in joined.split(_LINE))
    joined = joined.strip()
    if not any(ch in _CHAR_TAG for ch in joined):
        return joined, None
    plain = joined
    for ch in _CHAR_TAG:
        plain = plain.replace(ch, "")
    plain = "\n".join(_SPACES.sub(" ", part).strip() for part in plain.split("\n")).strip()
    markup = tuple(_CHAR_TAG.get(ch, ch) for ch in joined)
    return plain, markup


# -- the grid --------------------------------------------------------------------------------

def _grid(rows: list[list[str]], marks: list[tuple[int, str]], warnings: list, depth: int) -> list[Cell]:
    """The cells of the rows, placed and spanned."""
    header_rows: set[int] = set()
    if marks:
        rows, header_rows = _longtable_order(rows, marks, warnings)
    placed: list[list[Cell]] = []
    special = _SPECIAL.search
    collapse = _SPACES.sub
    for index, sources in enumerate(rows):
        x = 0
        row_cells = []
        y = len(placed)
        header = index in header_rows
        plain_row = special("".join(sources)) is None
        for source in sources:
            if plain_row or special(source) is None:  # plain text: no span, no markup (most cells)
                text = source.strip()
                if "  " in text or not text.isprintable():
                    text = collapse(" ", text)
                # (made field by field: Cell()'s generated __init__ costs more than the rest of the loop)
                cell = _new(Cell)
                cell.start_row = cell.end_row = y
                cell.start_col = cell.end_col = x
                cell.content = text
                cell.id = cell.bbox = cell.markup = None
                cell.header = header
                cell.instructions = ()
                row_cells.append(cell)
                x += 1
                continue
            columns, spanned_rows, source, _ = _spans(source, warnings)
            text, markup = cell_text(source, depth)
            if spanned_rows > 0:
                y0, y1 = y, y + spanned_rows - 1
            else:
                y0, y1 = y + spanned_rows + 1, y
            row_cells.append(Cell(y0, x, y1, x + columns - 1, text, None, None, header, (), markup))
            x += columns
        placed.append(row_cells)
    if not placed:
        return []
    last = len(placed) - 1
    width = max(row[-1].end_col + 1 if row else 0 for row in placed)
    spanning = [c for row in placed for c in row if c.end_row != c.start_row]
    if not spanning:
        if any(row[-1].end_col + 1 != width for row in placed):
            if width * len(placed) > MAX_SLOTS:
                warnings.append(("latex-too-large", f"{len(placed):,} rows of up to {width:,} columns: short rows "
                                                    "are not filled up with empty cells"))
                return [c for row in placed for c in row]
            for y, row in enumerate(placed):
                row.extend(Cell(y, x, y, x, "") for x in range(row[-1].end_col + 1, width))
        return [c for row in placed for c in row]
    dropped: set[int] = set()
    for cell in spanning:
        if cell.start_row < 0:
            warnings.append(("latex-span", "a \\multirow reaching above the first row ends at it"))
            cell.start_row = 0
        if cell.end_row > last:
            cell.end_row = last
    # Slots written under a span: blank ones are no cells; one that holds text ends the span before it.
    for cell in spanning:
        own = cell.end_row if cell.start_row < cell.end_row and _written_last(cell, placed) else cell.start_row
        rows_covered = range(cell.start_row, cell.end_row + 1)
        for y in (rows_covered if own == cell.start_row else reversed(rows_covered)):
            if y == own:
                continue
            clash = False
            for other in placed[y]:
                if other is cell or id(other) in dropped:
                    continue
                if other.start_col <= cell.end_col and other.end_col >= cell.start_col and \
                        other.start_row == other.end_row:
                    if other.content and other.content.strip():
                        clash = True
            if clash:
                warnings.append(("latex-span", f"a \\multirow over a cell with text at row {y} ends before it"))
                if own == cell.start_row:
                    cell.end_row = y - 1
                else:
                    cell.start_row = y + 1
                break
            for other in placed[y]:
                if other is not cell and other.start_row == other.end_row and \
                        other.start_col <= cell.end_col and other.end_col >= cell.start_col:
                    dropped.add(id(other))
    kept = [c for row in placed for c in row if id(c) not in dropped]
    if width * len(placed) > MAX_SLOTS:
        warnings.append(("latex-too-large", f"{len(placed):,} rows of up to {width:,} columns: short rows are not "
                                            "filled up with empty cells"))
        return kept
    # A short row ends in empty cells, as LaTeX draws it (and LaTeXML writes it).
    covered = [0] * len(placed)  # the first free column of each row, right of every cell on it
    for c in kept:
        for y in range(c.start_row, c.end_row + 1):
            covered[y] = max(covered[y], c.end_col + 1)
    for y, end in enumerate(covered):
        kept.extend(Cell(y, x, y, x, "") for x in range(end, width))
    kept.sort(key=lambda c: (c.start_row, c.start_col))
    return kept


def _written_last(cell: Cell, placed: list[list[Cell]]) -> bool:
    """Whether a spanning cell was written in the last row of its span (a negative \\multirow)."""
    return any(c is cell for c in placed[cell.end_row])


def _longtable_order(rows: list[list[str]], marks: list[tuple[int, str]], warnings: list
                     ) -> tuple[list[list[str]], set[int]]:
    """A longtable's rows in the order they stand in the table, and which are header rows."""
    blocks: dict[str, list[list[str]]] = {}
    previous = 0
    for count, mark in marks:
        blocks[mark] = rows[previous:count]
        previous = count
    body = rows[previous:]
    head = blocks.get("\\endfirsthead", blocks.get("\\endhead", []))
    foot = blocks.get("\\endlastfoot", blocks.get("\\endfoot", []))
    if "\\endfirsthead" in blocks and "\\endhead" in blocks or "\\endlastfoot" in blocks and "\\endfoot" in blocks:
        warnings.append(("latex-longtable", "the head and foot repeated on later pages are not rows of the table"))
    ordered = head + body + foot
    return ordered, set(range(len(head)))


def tables_from_latex(text: str, diagnostics: Diagnostics, page: int, first_id: int = 0,
                      line_offset: int = 0) -> list[Table]:
    """The tables of LaTeX ``text``, their findings reported at their lines."""
    tables = []
    line = 1 + line_offset
    counted = 0
    for found in find_tables(text):
        line += text.count("\n", counted, found.start)
        counted = found.start
        for code, message in found.warnings:
            diagnostics.warning(code, f"table {first_id + len(tables)}: {message}", line=line)
        tables.append(Table(first_id + len(tables), [Region(0, page, cells=found.cells)]))
    return tables
