"""Markdown pages as OmniDocBench's end-to-end evaluation reads them (docs/formats.md,
`omnidocbench-markdown`): its own finding of a page's tables, so that its table
scores come out exactly (``score --profile omnidocbench``). Read only, and only
when named.

The tables (:func:`convertables.omnidocbench.page_tables`): LaTeX ``table`` and
``tabular`` environments; HTML ``<table>`` elements, outermost ones as its
scanner pairs ``<table ...>`` and ``</table>``; pipe tables, turned into HTML by
its converter (each ``|...|`` line a row; a line holding a colon or ``---``
dropped, as its converter takes it for a delimiter row), where the page has at
least two such lines; and any paragraph left that starts with ``<table`` and
ends with ``</table>``. Images, code fences and display formulas are taken out
first, as it does.

Where a page has more LaTeX tables than HTML and pipe tables, OmniDocBench
scores none of its tables (each ground-truth table of the page scores as
missing): the document then has no tables (``omnidocbench-latex``). Otherwise
its tables are the HTML and pipe tables, each read from OmniDocBench's
normalisation of its HTML (:func:`convertables.omnidocbench.normalised_html`),
the strings kept for the ``teds-edit`` metric. A file is one page (``--page``).
A page whose unclosed tables would make OmniDocBench's scan look at more than a
million tags (it starts again after each), or with more than 10,000 ``\\title``,
``\\text`` and ``\\section`` macros beside a table left to its last step, is
refused (``markdown-too-large``).
"""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Document
from ..omnidocbench import CHOICE, PageTooComplex, page_tables, tables_document
from ..options import ReadOptions
from ..text_encoding import decode_text
from .declarations import DECLARED


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    try:
        latex, html = page_tables(decode_text(data, newlines=True))
    except PageTooComplex as exc:
        raise diagnostics.fail("markdown-too-large", f"not read: {exc}") from None
    if len(latex) > len(html):
        diagnostics.info("omnidocbench-latex", f"{len(latex)} LaTeX table(s) against {len(html)} HTML or pipe "
                                               "table(s): OmniDocBench scores none of this page's tables")
        doc = Document()
        doc.metadata[CHOICE] = "latex"
        return doc
    doc = tables_document(html, [False] * len(html), diagnostics, page=options.page or 1)
    doc.metadata[CHOICE] = "html"
    return doc


def sniff(head: bytes) -> bool:
    return False  # Markdown is the markdown format's; this reading is chosen by name


FORMAT = DECLARED["omnidocbench_markdown"]
