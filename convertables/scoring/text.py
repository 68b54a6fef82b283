"""Text normalisations of the structure metrics (docs/scoring.md, `--metric structure`).

``default``, ``ignorechars`` and ``ignorechars2`` are the official ICDAR 2013
tool's three rules: delete ASCII whitespace (``[ \\t\\n\\v\\f\\r]``: a no-break
space is *kept*, as Java's ``\\s`` keeps it), then upper-case; ``ignorechars``
first turns every character outside ``[A-Za-z0-9_]`` into ``_``,
``ignorechars2`` deletes them. ``pubmed`` is the biomedical benchmark's: fold
accents (NFKD, drop combining marks, NFKC), keep ASCII only, delete spaces,
tabs and line breaks, keep case. :func:`cell_text` is the text GriTS_Con compares.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..model import Cell

# Cell texts repeat a lot (numbers, units, blanks): each rule is cached per text.
_cached = lru_cache(maxsize=1 << 16)

_ASCII_WHITESPACE = re.compile(r"[ \t\n\x0b\x0c\r]+")
_NON_WORD = re.compile(r"[^A-Za-z0-9_]")


@_cached
def default(text: str) -> str:
    return _ASCII_WHITESPACE.sub("", text).upper()


@_cached
def ignorechars(text: str) -> str:
    return _NON_WORD.sub("_", _ASCII_WHITESPACE.sub("", text)).upper()


@_cached
def ignorechars2(text: str) -> str:
    return _NON_WORD.sub("", _ASCII_WHITESPACE.sub("", text)).upper()


class _WithoutMarks(dict):
    """A ``str.translate`` table deleting combining marks (Unicode category M*),
    filled as characters are met: translating in C beats a loop over characters."""

    def __missing__(self, code: int) -> int | None:
        kept = self[code] = None if unicodedata.category(chr(code)).startswith("M") else code
        return kept


_WITHOUT_MARKS = _WithoutMarks()


@_cached
def pubmed(text: str) -> str:
    if not text.isascii():
        folded = unicodedata.normalize("NFKD", text).translate(_WITHOUT_MARKS)
        text = unicodedata.normalize("NFKC", folded).encode("ascii", "ignore").decode("ascii")
    # (four plain replacements rather than one regular-expression substitution: the cheaper way here)
    return text.replace(" ", "").replace("\t", "").replace("\r", "").replace("\n", "")


NORMALISATIONS: dict[str, Callable[[str], str]] = {
    "default": default,
    "ignorechars": ignorechars,
    "ignorechars2": ignorechars2,
    "pubmed": pubmed,
}


def cell_text(cell: Cell) -> str:
    """The text GriTS_Con compares: the reference reads a cell's HTML as the
    text runs of its element and everything inside it, joined by single
    spaces (``' '.join(element.itertext())``), whitespace as written. Where
    the model keeps the cell's markup (HTML, PubTabNet) the runs are rebuilt
    from it (a run ends at each inline tag); otherwise the content is the text."""
    markup = cell.markup
    if markup is None:
        return cell.content or ""
    runs: list[str] = []
    run: list[str] = []
    for token in markup:
        if len(token) > 2 and token[0] == "<" and token[-1] == ">":
            if run:
                runs.append("".join(run))
                run = []
        else:
            run.append(token)
    if run:
        runs.append("".join(run))
    return " ".join(runs)
