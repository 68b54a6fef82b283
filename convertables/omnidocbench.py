"""OmniDocBench's table strings (docs/benchmarks.md, ``score --profile omnidocbench``):
its normalisation of a table's HTML, the string its TEDS and edit distance read.

:func:`normalised_html` gives, for a table's HTML as a model or the ground truth
wrote it, the string OmniDocBench scores:

1. the HTML is parsed as Python's ``html.parser`` reads it into a tree that
   follows the tags as written (an end tag closes the last element of its name
   still open and those opened after it, one with no open element of its name
   is dropped, void elements such as ``<br>`` hold nothing, every element
   still open at the end is closed there); a text between two tags made of
   ASCII whitespace only becomes one line break if it holds one, else one
   space; entities are decoded (a number below 256 as a windows-1252 byte; an
   unknown name ``&foo;`` is the text ``&foo``);
2. ``<th>`` becomes ``<td>``, ``<thead>`` and ``<span>`` are taken out (their
   content kept), ``<math>`` becomes ``$`` + its ``alttext`` + ``$``;
3. the tree is written back (``&``, ``<``, ``>`` as entities outside
   ``<script>`` and ``<style>``; attributes sorted by name, double-quoted, single-quoted where
   the value holds a double quote and no single one; the words of the
   attributes BeautifulSoup reads as lists, such as ``class``, joined by single
   spaces; void elements as ``<br/>``), and entities decoded once more;
4. line breaks are deleted, the text NFKC-normalised and trimmed, and what lies
   between the first ``<table ...>`` and the last ``</table>`` kept (nothing
   where there is none); the attributes ``style``, ``height``, ``width``,
   ``align`` and ``class`` (written ``name="..."``) are deleted, and the
   ``<tbody>`` tags; whitespace runs become one space;
5. the result is wrapped as ``<html><body><table border="1" >...</table></body></html>``,
   and the tags ``<sup>``, ``<sub>``, ``<span>``, ``<div>``, ``<p>`` (exactly so
   written, no attributes) and their end tags deleted, and ``<colgroup>...</colgroup>``.

A text with no ``<table`` (spaces taken out, ``'`` read as ``"``) normalises to
the empty string.

:func:`edit_distance` is its normalised edit distance of two such strings.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

from .soup_tree import ASCII_SPACES, PRESERVING, VOID, Element, Text, is_list_valued, parse, text_node

_RAW_TEXT = frozenset({"script", "style"})
"""Elements whose text is written as it is, not escaped."""

_WRAPPED = {"comment": ("<!--", "-->"), "doctype": ("<!DOCTYPE ", ">"), "cdata": ("<![CDATA[", "]]>"),
            "pi": ("<?", ">"), "declaration": ("<?", "?>")}


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(name: str, value: str) -> str:
    value = _escaped(value)
    quote = '"'
    if '"' in value:
        if "'" in value:
            value = value.replace('"', "&quot;")
        else:
            quote = "'"
    return f" {name}={quote}{value}{quote}"


def _rewrite(root: Element) -> None:
    """Step 2 on the tree (``<th>`` as ``<td>``, ``<thead>`` and ``<span>``
    unwrapped, ``<math>`` as its alt text), each element's children before it,
    without recursion (any depth)."""
    preorder: list[Element] = []
    walk = [root]
    while walk:
        element = walk.pop()
        preorder.append(element)
        walk.extend(child for child in element.children if not isinstance(child, Text))
    for element in reversed(preorder):  # (descendants first)
        out: list = []
        for child in element.children:
            if isinstance(child, Text):
                out.append(child)
            elif child.name == "math":
                out.append(text_node(f"${child.attrs.get('alttext', '')}$"))
            elif child.name in ("thead", "span"):
                out.extend(child.children)
            else:
                if child.name == "th":
                    child.name = "td"
                out.append(child)
        element.children = out


def _write(root: Element) -> str:
    out: list[str] = []
    walk: list = [(child, root) for child in reversed(root.children)]
    while walk:
        item, parent = walk.pop()
        if isinstance(item, str) and parent is None:  # an end tag
            out.append(item)
            continue
        if isinstance(item, Text):
            if item.kind != "text":
                before, after = _WRAPPED[item.kind]
                out.append(before + item + after)
            else:
                out.append(item if parent.name in _RAW_TEXT else _escaped(item))
            continue
        out.append("<" + item.name + "".join(_attribute(k, v) for k, v in sorted(item.attrs.items())))
        if item.name in VOID and not item.children:
            out.append("/>")
            continue
        out.append(">")
        walk.append((f"</{item.name}>", None))
        walk.extend((child, item) for child in reversed(item.children))
    return "".join(out)


_PLAIN_TOKEN = re.compile(r'<(/?)([a-z][a-z0-9]*)((?: [a-z][a-z-]*="[^"&<>\']*")*)>|[^<>&]+')
_PLAIN_ATTRIBUTE = re.compile(r' ([a-z-]+)="([^"]*)"')
_NOT_PLAIN = VOID | PRESERVING | _RAW_TEXT | {"math"}


def _plain_rewritten(text: str) -> str | None:
    """Steps 1 to 3 for a plain text: lower-case tags, each end tag closing the
    last element opened, every element closed, attributes double-quoted with no
    entity, quote or bracket inside, no void, raw-text or ``<math>`` element and
    no ``&``, ``<`` or ``>`` in the text. Its tree is its tags as written, so it
    is written back without being built: each tag as it is written back, each
    text as it stands (but a run of ASCII whitespace). None for any other text."""
    out: list[str] = []
    stack: list[str] = []
    end = 0
    for token in _PLAIN_TOKEN.finditer(text):
        if token.start() != end:  # (something between: not a plain tag)
            return None
        end = token.end()
        name = token.group(2)
        if name is None:  # a text
            run = token.group(0)
            out.append(("\n" if "\n" in run else " ") if not run.strip(ASCII_SPACES) else run)
        elif name in _NOT_PLAIN:
            return None
        elif token.group(1):  # an end tag
            if not stack or stack.pop() != name:
                return None
            if name not in ("thead", "span"):
                out.append("</td>" if name == "th" else token.group(0))
        else:
            stack.append(name)
            if name in ("thead", "span"):
                continue
            attributes = _PLAIN_ATTRIBUTE.findall(token.group(3))
            for key, value in attributes:
                if is_list_valued(name, key) and value != " ".join(re.findall(r"\S+", value)):
                    return None
            if len({key for key, _ in attributes}) < len(attributes):
                return None
            out.append("<" + ("td" if name == "th" else name)
                       + "".join(f' {key}="{value}"' for key, value in sorted(attributes)) + ">")
    return None if stack or end != len(text) else "".join(out)


def _rewritten(text: str) -> str:
    plain = _plain_rewritten(text)
    if plain is not None:
        return plain
    # (OmniDocBench's BeautifulSoup is 4.11: its rules where later releases differ)
    root = parse(text, all_strings=True, bs4_4_11=True)
    _rewrite(root)
    return _write(root)


_INNER = re.compile(r"<table\b[^>]*>(.*)</table>", re.DOTALL | re.IGNORECASE)
_DROPPED_ATTRIBUTES = tuple(re.compile(f'( {name}=".*?")') for name in ("style", "height", "width", "align", "class"))
_TBODY = re.compile("</?tbody>")
_SPACES = re.compile(r"\s+")
_BARE_TAGS = ("sup", "sub", "span", "div", "p")
_COLGROUP = re.compile("<colgroup>.*?</colgroup>")


CACHED_BYTES = 1 << 14
"""The longest table string whose normalisation (and TEDS tree) is kept for the
next time it is met (a table repeated across pages): the cache stays small."""


def normalised_html(text: str) -> str:
    """OmniDocBench's string of a table's HTML (see the module's description)."""
    return _normalised_kept(text) if len(text) <= CACHED_BYTES else _normalised(text)


@lru_cache(maxsize=256)
def _normalised_kept(text: str) -> str:
    return _normalised(text)


def _normalised(text: str) -> str:
    if "<table" not in text.replace(" ", "").replace("'", '"'):
        return ""
    table = html.unescape(_rewritten(text)).replace("\n", "")
    table = unicodedata.normalize("NFKC", table).strip()
    table = "".join(_INNER.findall(table))
    for attribute in _DROPPED_ATTRIBUTES:
        table = attribute.sub("", table)
    table = _SPACES.sub(" ", _TBODY.sub("", table))
    table = '<html><body><table border="1" >' + table + "</table></body></html>"
    for tag in _BARE_TAGS:
        table = table.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    table = table.replace('<spandata-span-identity="">', "")
    return _COLGROUP.sub("", table)


def edit_distance(gt: str, result: str) -> tuple[int, int]:
    """(Levenshtein distance, the longer string's length) of two normalised
    strings: OmniDocBench's edit distance of a table is their ratio, its pooled
    figures sums of both."""
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.distance(result, gt), max(len(gt), len(result))


# -- the tables of a Markdown page, as OmniDocBench finds them --------------------------------------

_FENCES = tuple(re.compile(p, re.MULTILINE) for p in (r"^```markdown\n?", r"^```html\n?", r"^```latex\n?", r"```\n?$"))
_DOLLARS = re.compile(r"\$\$(.*?)\$\$|\$(.*?)\$|\\\((.*?)\\\)", re.DOTALL)


def _removed(text: str, spans) -> str:
    """The text without the spans (in order, not overlapping)."""
    out = []
    last = 0
    for start, end in spans:
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    return "".join(out)


def _blanked(text: str, spans) -> str:
    """The text with every span's characters made spaces (made once, however many spans)."""
    out = []
    last = 0
    for start, end in sorted(spans):
        start = max(start, last)
        if end > start:
            out += [text[last:start], " " * (end - start)]
            last = end
    out.append(text[last:])
    return "".join(out)


class _Next:
    """``text.find(needle, pos)``, remembering what it found: where the needle
    is not to be found after some place, and the last place found, so that many
    asks (as a scan that starts again asks) look at each character about once."""

    __slots__ = ("text", "needle", "asked", "found", "none_from")

    def __init__(self, text: str, needle: str):
        self.text, self.needle, self.asked, self.found = text, needle, -1, -1
        self.none_from = len(text) + 1

    def at(self, pos: int) -> int:
        if pos >= self.none_from:
            return -1
        if 0 <= self.asked <= pos <= self.found:
            return self.found
        found = self.text.find(self.needle, pos, self.none_from + len(self.needle) - 1)
        if found < 0:
            self.none_from = pos
        else:
            self.asked, self.found = pos, found
        return found


def _lazy_spans(text: str, opener: str, closer: str) -> list[tuple[int, int]]:
    """Where ``opener(.*?)closer`` (any character) matches, as ``finditer`` finds it."""
    spans = []
    openers, closers = _Next(text, opener), _Next(text, closer)
    pos = 0
    while True:
        start = openers.at(pos)
        if start < 0:
            return spans
        end = closers.at(start + len(opener))
        if end < 0:  # (no closer after it: none after any later opener either)
            return spans
        spans.append((start, end + len(closer)))
        pos = end + len(closer)


def _display_spans(text: str) -> list[tuple[int, int]]:
    r"""Where its display pattern (``\$\$(.*?)\$\$|\\\[(.*?)\\\]|\$(.*?)\$|\\\((.*?)\\\)``, any
    character) matches, as ``finditer`` finds it: at each place, its alternatives in order."""
    spans = []
    dollar, backslash = _Next(text, "$"), _Next(text, "\\")
    closers = {"$$": _Next(text, "$$"), "\\]": _Next(text, "\\]"), "$": _Next(text, "$"), "\\)": _Next(text, "\\)")}
    pos = 0
    while True:
        candidates = [found for found in (dollar.at(pos), backslash.at(pos)) if found >= 0]
        if not candidates:
            return spans
        start = min(candidates)
        end = -1
        for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("$", "$"), ("\\(", "\\)")):
            if text.startswith(opener, start):
                found = closers[closer].at(start + len(opener))
                if found >= 0:
                    end = found + len(closer)
                    break
        if end < 0:
            pos = start + 1
            continue
        spans.append((start, end))
        pos = end


def _image_spans(text: str) -> list[tuple[int, int]]:
    r"""Where ``!\[.*?\]\(.*?\)`` (within a line) matches, as ``finditer`` finds it."""
    spans = []
    bangs, middles, ends, lines = _Next(text, "!["), _Next(text, "]("), _Next(text, ")"), _Next(text, "\n")
    pos = 0
    while True:
        start = bangs.at(pos)
        if start < 0:
            return spans
        line_end = lines.at(start)
        line_end = len(text) if line_end < 0 else line_end
        middle = middles.at(start + 2)
        end = ends.at(middle + 2) if 0 <= middle < line_end else -1
        if 0 <= end < line_end:
            spans.append((start, end + 1))
            pos = end + 1
        else:
            pos = start + 1


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Where its code-block pattern matches, as ``finditer`` finds it: three backticks, a word, a line
    break, and all up to the next three backticks."""
    spans = []
    fences = _Next(text, "```")
    closers = _Next(text, "```")
    pos = 0
    while True:
        start = fences.at(pos)
        if start < 0:
            return spans
        word = _WORD_LINE.match(text, start + 3)
        end = closers.at(word.end()) if word is not None else -1
        if word is not None and end < 0:
            return spans  # (no fence after it: none after any later one either)
        if end < 0:
            pos = start + 1
            continue
        spans.append((start, end + 3))
        pos = end + 3


_WORD_LINE = re.compile(r"\w+\n")


class PageTooComplex(ValueError):
    """A page whose tables never closed would make OmniDocBench's scan look at
    more than :data:`_MAX_SCAN` tags (it starts again after each)."""


_MAX_SCAN = 1_000_000


def _balanced(text: str, kind: str, budget: list[int]) -> list[tuple[int, int]]:
    """The outermost spans from a begin tag to its end tag (``kind``: ``tabular``,
    ``\\begin{tabular}`` and ``\\end{tabular}``; ``html``, ``<table ...>`` and
    ``</table>``), as its scanner finds them: begins and ends paired on a stack,
    a span kept where the stack empties, the scan stepping on from each tag by
    the length of the end pattern as written; where a begin is never closed, the
    scan starts again after it (by the length of the begin pattern as written),
    the spans of the new scan added."""
    if kind == "tabular":
        begins, ends = _Next(text, "\\begin{tabular}"), _Next(text, "\\end{tabular}")
        closes = None
    else:
        begins, ends, closes = _Next(text, "<table"), _Next(text, "</table>"), _Next(text, ">")
    begin_step, end_step = _STEPS[kind]
    found: list[tuple[int, int]] = []
    base = 0
    while True:
        pos = base
        stack: list[int] = []
        while pos < len(text):
            b, e = begins.at(pos), ends.at(pos)
            if b >= 0 and closes is not None and closes.at(b + 6) < 0:
                b = -1  # ("<table" with no ">" after it: no begin tag there, nor after)
            if b < 0 and e < 0:
                break
            budget[0] -= 1
            if budget[0] < 0:
                raise PageTooComplex(f"its unclosed tables would make OmniDocBench's scan look at more than "
                                     f"{_MAX_SCAN:,} tags")
            if b >= 0 and (e < 0 or b < e):
                stack.append(b)
                pos = b + end_step
            else:
                if stack:
                    start = stack.pop()
                    if not stack:
                        found.append((start, e + end_step))
                pos = e + end_step
        if not stack:
            return found
        base = stack[0] + begin_step


# The lengths its scanner steps by: those of its patterns as written, not of what they match.
_STEPS = {"tabular": (len(r"\\begin{tabular}"), len(r"\\end{tabular}")),
          "html": (len(r"<table(?:[^>]*)>"), len(r"</table>"))}


def _pipe_row_table(row_text: str) -> str:
    rows = [row.strip() for row in row_text.strip().split("\n")]
    out = ["<table>\n  <thead>\n    <tr>\n"]
    out += [f"      <th>{cell.strip()}</th>\n" for cell in rows[0].split("|")[1:-1]]
    out.append("    </tr>\n  </thead>\n  <tbody>\n")
    for row in rows[2:]:
        out.append("    <tr>\n")
        out += [f"      <td>{cell.strip()}</td>\n" for cell in row.split("|")[1:-1]]
        out.append("    </tr>\n")
    out.append("  </tbody>\n</table>\n")
    return "".join(out)


_SEPARATOR_LINE = re.compile(r"-*?:|---|:-*?")
_GROUP_LINE = re.compile(r"</?t(able|head|body)>")


def _merged(block: str) -> str:
    block = re.sub(r"<!--[\s\S]*?-->", "", block)
    kept: list[str] = []
    for table in re.findall(r"<table>[\s\S]*?</table>", block):
        lines = [line.replace("<th>", "<td>").replace("</th>", "</td>") if "<th>" in line else line
                 for line in table.split("\n")]
        lines = [line for line in lines if not _GROUP_LINE.search(line)]
        if len(lines) > 2:
            kept += lines
    return "\n\n<table>\n" + "\n".join(kept) + "\n</table>\n\n"


def _joined_rows(text: str) -> str:
    """Consecutive one-row tables joined into one (its converter's second pass):
    lines holding a colon or ``---`` dropped, as its test for a delimiter row
    takes them for one."""
    out: list[str] = []
    in_block = False
    block = ""
    last = ""
    for line in text.split("\n"):
        if "<table>" in line:
            in_block = True
            block += last
        elif in_block:
            if not _SEPARATOR_LINE.search(last) and "</thead>" not in last:
                block += "\n" + last
            if "</table>" in last and "<table>" not in line:
                in_block = False
                out.append(_merged(block))
                block = ""
        else:
            out.append(last)
        last = line
    if last:
        if in_block or "</table>" in last:
            out.append(_merged(block + "\n" + last))
        else:
            out.append(last)
    return "\n".join(out)


def _pipe_rows(text: str) -> list[tuple[int, int]]:
    """Where its row pattern (``\\|\\s*.*?\\s*\\|\\n``, any character) matches, found
    without it: from a ``|`` to the first ``|`` + line break after it."""
    rows = []
    pos = 0
    while True:
        start = text.find("|", pos)
        if start < 0:
            return rows
        end = text.find("|\n", start + 1)
        if end < 0:
            return rows
        rows.append((start, end + 2))
        pos = end + 2


def _pipe_tables_as_html(text: str) -> str:
    text = text.replace("\r", "") + "\n"
    # Each row replaced where it is (its converter replaces the first occurrence, which is there: no
    # "|" lies between the rows, and the HTML put in their place holds none).
    out = []
    last = 0
    for start, end in _pipe_rows(text):
        out += [text[last:start], _pipe_row_table(text[start:end])]
        last = end
    out.append(text[last:])
    text = _joined_rows("".join(out))
    return text.replace("<table>", '<table border="1" >').replace("<td>", '<td colspan="1" rowspan="1">')


_UNWRAPPED = ((re.compile(r"\\title\{(.*?)\}"), r"\1"), (re.compile(r"\\title\s*\{\s*(.*?)\s*\}", re.DOTALL), r"\1"),
              (re.compile(r"\\text\s*\{\s*(.*?)\s*\}", re.DOTALL), r"\1"), (re.compile(r"\\section\*?\{(.*?)\}"), r"\1"),
              (re.compile(r"\\section\*?\{\s*(.*?)\s*\}", re.DOTALL), r"\1"))


_MAX_MACROS = 10_000


def _paragraph_tables(text: str) -> list[tuple[int, str]]:
    """What is left of the page that is a table: a paragraph (its lines trimmed,
    blank ones dropped) that starts with ``<table`` and ends with ``</table>``,
    after code blocks are taken out; each at the sum of the lengths of the
    paragraphs before it (where its order puts it)."""
    if "<table" not in text:  # (no paragraph can be a table: what follows changes nothing found)
        return []
    text = _blanked(text, _code_spans(text))
    if sum(text.count(macro) for macro in ("\\title", "\\text", "\\section")) > _MAX_MACROS:
        raise PageTooComplex(f"more than {_MAX_MACROS:,} \\title, \\text and \\section macros beside a table "
                             "its scan leaves")
    for pattern, replacement in _UNWRAPPED:
        text = pattern.sub(replacement, text)
    paragraphs = text.split("\n\n")
    if len(paragraphs) == 1:
        paragraphs = text.split("\n")
    found = []
    position = 0
    for paragraph in paragraphs:
        at = position
        position += len(paragraph)
        lines = [line.strip() for line in paragraph.strip().strip("\n").split("\n") if line.strip()]
        joined = "\n".join(lines)
        if joined.startswith("<table") and joined.endswith("</table>"):
            found.append((at, joined))
    return found


def page_tables(text: str) -> tuple[list[str], list[str]]:
    """(its LaTeX tables, its HTML tables) of a Markdown page, each as written
    (pipe tables as its converter writes them in HTML), each list in the order
    OmniDocBench keeps them."""
    text = _removed(text, _image_spans(text))
    for fence in _FENCES:
        text = fence.sub("", text)
    text = re.sub(r" {4,}", "    ", re.sub(r"_{4,}", "____", text))
    for tag in ("<html>", "</html>", "<body>", "</body>"):
        text = text.replace(tag, "")
    budget = [_MAX_SCAN]
    environments = _lazy_spans(text, "\\begin{table}", "\\end{table}")
    blanked = _blanked(text, environments)
    latex = [(start, text[start:end]) for start, end in environments]
    latex += [(start, blanked[start:end]) for start, end in _balanced(blanked, "tabular", budget)]
    latex.sort(key=lambda item: item[0])
    text = _blanked(text, [(start, start + len(source)) for start, source in latex])
    found = [(start, text[start:end]) for start, end in _balanced(text, "html", budget)]
    text = _blanked(text, [(start, start + len(source)) for start, source in found])
    displays = []
    for start, end in _display_spans(text):
        inner = _DOLLARS.search(" ".join(text[start:end].strip().split("\n")))
        if inner is None or inner.group(1):
            displays.append((start, end))
    text = _blanked(text, displays)
    if len(_pipe_rows(text + "\n")) >= 2:
        text = _pipe_tables_as_html(text)
        converted = _lazy_spans(text, "<table", "</table>")
        found += [(start, text[start:end].strip()) for start, end in converted]
        text = _blanked(text, converted)
    found += _paragraph_tables(text)
    found.sort(key=lambda item: item[0])
    return [source for _, source in latex], [source for _, source in found]


# -- the documents its readings make ------------------------------------------------------------------

SOURCES = "omnidocbench_sources"
"""``Document.metadata`` key: a JSON list of each table's [source, scored string, has LaTeX,
attribute labels]: the scored string is its normalised HTML, or the source where that is empty
(as OmniDocBench falls back to it)."""
CHOICE = "omnidocbench_choice"
"""``Document.metadata`` key of a prediction page: ``latex`` where it has more LaTeX tables than
HTML ones (OmniDocBench then scores none of them), else ``html``."""


PAGE_LABELS = "omnidocbench_page_labels"
"""``Document.metadata`` key of a ground-truth page: a JSON list of the labels its page attributes give."""


def attribute_labels(attributes) -> list[str]:
    """A table block's attribute labels (``language: en``), as OmniDocBench groups tables by them."""
    if not isinstance(attributes, dict):
        return []
    return sorted({f"{key}: {_shown(value)}" for key, value in attributes.items()})


def page_labels(attributes) -> list[str]:
    """A page's labels, as OmniDocBench groups pages by them: ``ALL``, ``key: value``
    for each attribute, and each item of a list-valued one (its special issues)
    but those that name tables."""
    labels = {"ALL"}
    for key, value in (attributes.items() if isinstance(attributes, dict) else ()):
        if isinstance(value, list):
            labels.update(str(item) for item in value if "table" not in str(item))
        else:
            labels.add(f"{key}: {_shown(value)}")
    return sorted(labels)


def _shown(value) -> str:
    """A JSON value as Python's ``str`` writes it (``True``, ``None``, ``1.5``)."""
    return str(value)


def tables_document(sources: list[str], latex: list[bool], diagnostics, page: int = 1,
                    labels: list[list[str]] | None = None):
    """A document of the tables whose HTML ``sources`` are given, each read from
    its normalised string (the table OmniDocBench's TEDS reads: the first
    directly in ``<body>``, the tables inside it in its cells' markup), the
    strings kept in its metadata (:data:`SOURCES`)."""
    import json

    from .html_tables import read_page
    from .model import Document

    doc = Document()
    kept = []
    labels = labels or [[] for _ in sources]
    for source, has_latex, table_labels in zip(sources, latex, labels):
        normalised = normalised_html(source)
        found = read_page(normalised, diagnostics, page=page, first_id=len(doc.tables)) if normalised else None
        if found is not None and found.reference_table is not None:
            table = found.tables[found.reference_table]
            table.id = len(doc.tables)
        else:  # (no table: its TEDS is 0, as the benchmark's is without one in <body>)
            from .model import Region, Table
            table = Table(len(doc.tables), [Region(0, page)])
        doc.tables.append(table)
        kept.append([source, normalised or source, has_latex, table_labels])
    doc.metadata[SOURCES] = json.dumps(kept, ensure_ascii=False)
    return doc


def table_sources(doc) -> list[list] | None:
    """What :func:`tables_document` kept of each table: [source, scored string,
    has LaTeX, attribute labels]; None for a document another reading made."""
    import json

    kept = doc.metadata.get(SOURCES)
    return json.loads(kept) if kept is not None else None
