"""What a format cannot hold of a document, said when converting and when scoring.

Each writable format declares what of the canonical model it holds
(:attr:`convertables.registry.Format.holds`, from :data:`FEATURES`). A document
converted to a format that cannot hold something the document has gets one
``lossy-*`` warning per feature, with counts (:func:`warn_losses`); the scorer
asks the same facts of the result file's format (:func:`score_notes`) to say,
for each document, which part of the metric the loss affects.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .skeleton import derived_skeleton, cells_on_covered_slots, own_skeleton_fits, placed, span_leaves_its_row_group

if TYPE_CHECKING:
    from .diagnostics import Diagnostics
    from .model import Document, Table
    from .options import WriteOptions
    from .registry import Format


@dataclass(frozen=True)
class Feature:
    name: str
    code: str
    """The warning a conversion that loses it gives."""
    one: str
    many: str
    """What the document has of it, one and several: "spanning cell", "spanning cells"."""
    becomes: str
    """What the output has instead."""

    def counted(self, count: int) -> str:
        return f"{count} {self.one if count == 1 else self.many}"


FEATURES = {f.name: f for f in (
    Feature("text", "lossy-text", "cell with text", "cells with text", "left out: read back, unknown"),
    Feature("breaks", "lossy-markup", "cell with a line break in its text", "cells with line breaks in their text",
            "a <br> tag for each line break"),
    Feature("spans", "lossy-span", "spanning cell", "spanning cells", "a cell of one slot, the rest of the span empty"),
    Feature("blank", "lossy-blank", "blank cell", "blank cells", "left out"),
    Feature("unknown", "lossy-blank", "cell of unknown content", "cells of unknown content", "left out"),
    Feature("header-rows", "lossy-header", "cell of the header rows", "cells of the header rows",
            "written as data cells"),
    Feature("header-cells", "lossy-header", "header cell below the header rows", "header cells below the header rows",
            "written as data cells"),
    Feature("header-span", "lossy-header", "table whose header rows have a cell spanning below them",
            "tables whose header rows have a cell spanning below them", "written without <thead>"),
    Feature("markup", "lossy-markup", "cell with inline markup (<b>, <sup>...) or raw whitespace",
            "cells with inline markup (<b>, <sup>...) or raw whitespace", "only the text kept"),
    Feature("skeleton", "lossy-skeleton", "table with an HTML skeleton of its own (<th> cells, row groups)",
            "tables with an HTML skeleton of their own (<th> cells, row groups)",
            "TEDS compares one made from the grid"),
    Feature("overlaps", "lossy-overlap", "cell on a slot another cell covers", "cells on slots other cells cover",
            "left out"),
    Feature("empty", "lossy-table", "table without cells", "tables without cells", "left out"),
    Feature("boxes", "lossy-box", "box of a cell or table", "boxes of cells and tables", "left out"),
    Feature("pages", "lossy-page", "table on a page other than 1", "tables on a page other than 1",
            "read back as on page 1"),
)}
"""What a format may hold of a document, by name (the names :attr:`Format.holds` lists)."""

# The model has no captions: no format's caption survives reading, so none is lost in writing.


def features(doc: Document, wanted=None) -> Counter:
    """How much of each feature the document has (only those it has); ``wanted``: the
    features asked for (others may be left uncounted: comparing skeletons is the costly part)."""
    skeletons = wanted is None or "skeleton" in wanted or "header-span" in wanted
    found: Counter = Counter()
    for table in doc.tables:
        if any(region.page not in (None, 1) for region in table.regions):
            found["pages"] += 1
        found["boxes"] += sum(1 for region in table.regions if region.bbox is not None)
        cells = placed(table)
        if not cells:
            found["empty"] += 1
        found["overlaps"] += len(cells_on_covered_slots(cells))
        head = _header_rows(cells) if skeletons else 0
        if not skeletons:
            pass
        elif own_skeleton_fits(table):
            structure = list(table.html_structure)
            if _own_skeleton_differs(table, structure, cells):
                found["skeleton"] += 1
            if span_leaves_its_row_group(structure, table.cells()):
                found["header-span"] += 1
        elif any(r0 < head <= r1 for r0, _c0, r1, _c1, _cell in cells):
            found["header-span"] += 1  # (the skeleton made from the grid: the header rows are its <thead>)
        for r0, _c0, r1, _c1, cell in cells:
            if cell.content is not None and cell.content.strip():
                found["text"] += 1
                if cell.markup is None and "\n" in cell.content:
                    found["breaks"] += 1
            if cell.end_row > cell.start_row or cell.end_col > cell.start_col:
                found["spans"] += 1
            if cell.is_blank:
                found["blank"] += 1
            elif cell.content is None:
                found["unknown"] += 1
            if cell.header:
                found["header-rows" if r0 < head else "header-cells"] += 1
            if cell.markup is not None:
                found["markup"] += 1
            if cell.bbox is not None:
                found["boxes"] += 1
    return +found


# A table's own skeleton is compared with the one made from its grid up to this many slots; a larger
# grid (made slot by slot) is taken to differ where its own has what that one never has.
MAX_COMPARED_SLOTS = 1_000_000


def _own_skeleton_differs(table: Table, structure: list[str], cells: list) -> bool:
    """Whether a table's own skeleton is other than the one made from its grid (which a format
    without one gives it back)."""
    if not cells:
        return structure != ["<tbody>", "</tbody>"]
    height = max(entry[2] for entry in cells) - cells[0][0] + 1
    width = max(entry[3] for entry in cells) + 1
    if height * width > MAX_COMPARED_SLOTS:
        return any(token in ("<th>", "<th", "<tfoot>") for token in structure)
    return structure != derived_skeleton(table)[0]


def _header_rows(cells: list) -> int:
    """The row below the leading rows whose starting cells are all header cells
    (the rows PubTabNet's skeleton puts in ``<thead>``)."""
    if not cells:
        return 0
    by_row: dict[int, list] = {}
    for entry in cells:
        by_row.setdefault(entry[0], []).append(entry[4])
    row = cells[0][0]
    while by_row.get(row) and all(cell.header for cell in by_row[row]):
        row += 1
    return row


def holds(fmt: Format, options: WriteOptions | None = None) -> frozenset[str]:
    """What ``fmt`` holds when written with ``options`` (a setting may add to it)."""
    held = set(FEATURES if fmt.holds is None else fmt.holds)
    for feature, setting in fmt.holds_with:
        if options is not None and getattr(options, setting, None):
            held.add(feature)
    return frozenset(held)


def losses(doc: Document, fmt: Format, options: WriteOptions | None = None, wanted=None) -> dict[str, int]:
    """What of ``doc`` written to ``fmt`` is lost: each feature not held, with its count
    (``wanted``: of these features only)."""
    held = holds(fmt, options)
    return {name: count for name, count in features(doc, wanted).items()
            if name not in held and (wanted is None or name in wanted)}


def warn_losses(doc: Document, fmt: Format, options: WriteOptions | None, diagnostics: Diagnostics) -> dict[str, int]:
    """One ``lossy-*`` warning for each code of what ``fmt`` cannot hold of ``doc``."""
    lost = losses(doc, fmt, options)
    flags = {option.name: option.flag for option in fmt.options}
    settings = {feature: flags.get(setting, setting) for feature, setting in fmt.holds_with}
    by_code: dict[str, list[str]] = {}
    hints: dict[str, list[str]] = {}
    for name, count in lost.items():
        feature = FEATURES[name]
        by_code.setdefault(feature.code, []).append(f"{feature.counted(count)} ({feature.becomes})")
        if name in settings:
            hints.setdefault(feature.code, []).append(f"{settings[name]} keeps them")
    for code, parts in by_code.items():
        diagnostics.warning(code, f"{fmt.name} cannot hold " + "; ".join(parts),
                            hint="; ".join(hints[code]) if code in hints else None)
    return lost


# -- what each metric reads ------------------------------------------------------------------

METRIC_NEEDS: dict[str, dict[str, str]] = {
    "structure": {
        "text": "the adjacency relations pair cells by their text: cells without it form no relation",
        "spans": "a spanning cell has a neighbour in each row and column it spans: its relations change",
        "overlaps": "a cell left out has no relations: those it had are missed",
        "blank": "blank cells at the table's edge make rows and columns of their own: without them the grid "
                 "is smaller",
        "unknown": "cells of unknown content at the table's edge make rows and columns of their own: without "
                   "them the grid is smaller",
        "pages": "tables are paired on the same page",
    },
    "teds": {
        "text": "TEDS compares each cell's tokens: every cell whose text is lost counts as renamed",
        "spans": "a <td>'s colspan and rowspan are part of its node: each changed span counts as renamed",
        "header-rows": "header rows make the <thead> group: without it the tree has other nodes",
        "header-span": "header rows make the <thead> group: without it the tree has other nodes",
        "skeleton": "the tree is the source's HTML skeleton: made from the grid instead, each <th> is a <td> and "
                    "the row groups are <thead> and <tbody>, each differing node counted",
        "markup": "inline tags (<b>...) are nodes and tokens of their own: each lost one counts",
        "breaks": "a <br> is a token and a node of its own where a line break was a character",
        "blank": "blank cells at the table's edge make rows and columns of their own: without them the tree "
                 "has fewer nodes",
        "unknown": "cells of unknown content at the table's edge make rows and columns of their own: without "
                   "them the tree has fewer nodes",
        "empty": "a table left out is unpaired: it counts 0",
        "overlaps": "a cell left out is a node fewer",
        "pages": "tables are paired on the same page",
    },
    "grits": {
        "text": "GriTS_Con compares each grid position's text",
        "spans": "GriTS_Top compares each grid position's span: a lost span changes every slot it covered",
        "boxes": "GriTS_Loc compares each grid position's box",
        "overlaps": "where cells share a position the later holds it: a cell left out may change which",
        "markup": "GriTS_Con reads a cell's text runs joined by spaces: inline tags split the runs",
        "breaks": "GriTS_Con reads the text runs around a <br> joined by a space, not a line break",
        "blank": "blank cells at the table's edge make rows and columns of their own: without them the grid "
                 "is smaller",
        "unknown": "cells of unknown content at the table's edge make rows and columns of their own: without "
                   "them the grid is smaller",
        "empty": "a table left out is unpaired: it counts 0",
        "pages": "tables are paired on the same page",
    },
    "region": {
        "boxes": "completeness and purity are measured over the table's box",
        "empty": "a table left out is a table missed",
        "pages": "tables are paired on the same page",
    },
    "ctdar-a": {
        "boxes": "tables are matched by the IoU of their boxes",
    },
    "ctdar-b": {
        "boxes": "cells are matched by the IoU of their boxes",
        "spans": "adjacency relations of cells change with their spans",
    },
    "marmot": {
        "boxes": "its error types are measured over the table's box",
    },
}
"""For each metric, the features of a document it reads, and how it reads them."""


def score_notes(gt: Document, result: Document, result_format: Format | None, metric: str) -> list[str]:
    """For a ground-truth document scored against a result in ``result_format``:
    which part of ``metric`` each of the format's losses affects, one line each
    (a loss the result shows: it has less of it than the ground truth; a setting
    such as ``--keep-blank`` may have kept it)."""
    needs = METRIC_NEEDS.get(metric, {})
    if result_format is None or result_format.holds is None or not needs:
        return []
    lost = losses(gt, result_format, wanted=needs)
    if not lost:
        return []
    has = features(result, needs)
    notes = []
    for name, count in lost.items():
        if has[name] < count:
            feature = FEATURES[name]
            notes.append(f"{result_format.name} holds no {feature.many} ({count} in the ground "
                         f"truth): {needs[name]} ({feature.code})")
    return notes
