"""TEDS, the tree-edit-distance similarity of PubTabNet (docs/scoring.md, `--metric teds`).

A table is the tree of its HTML: the ``<table>`` node, its row groups, rows and
cells, as PubTabNet's reference (``src/metric.py`` of ibm-aur-nlp/PubTabNet)
builds it from the HTML string:

* a ``<td>`` node carries its colspan, rowspan and its cell's tokens (each
  character, and inline tags such as ``<b>`` as one token each); nothing below
  it is a node;
* every other element is a node with its tag only, and the elements inside a
  ``<th>`` are nodes too: the reference reads no text of header cells written
  as ``<th>`` (``--th-text compare`` compares it as for ``<td>``);
* renaming costs 1 where the tags or (for ``<td>``) the spans differ; two
  ``<td>`` with equal spans cost the Levenshtein distance of their token lists
  over the longer one's length (0 for two empty lists); other equal tags 0.
  Inserting or deleting a node costs 1.

TEDS = 1 - distance / n, where n is the larger count of *elements inside* the
two tables (as the reference counts them: row groups, rows, cells and the
inline elements inside cells, not the ``<table>`` itself, although the tree has
it). TEDS-struct is the same with the cells' tokens left out.

The tree comes from the table's HTML skeleton (:mod:`convertables.skeleton`):
the source's own for HTML and PubTabNet, else one made from the grid.

The HTML report draws, cell by cell, one least-cost edit mapping of the two
trees (:meth:`TedsMetric.explain`, :func:`mapped_cells`).
"""

from __future__ import annotations

import dataclasses
import html
import re
from dataclasses import dataclass

from ..diagnostics import Diagnostic, Severity, UsageError
from ..model import Cell, Document, Table
from ..skeleton import CELL_OPENINGS, skeleton
from . import precision_recall
from .declarations import TEDS_SETTINGS
from .metric import Scored, ScoreSettings, TableTooLarge
from .table_similarity import TableSimilarityMetric, pairing_described

_GROUPS = frozenset({"<thead>", "<tbody>", "<tfoot>", "<tr>"})
_GROUP_ENDS = frozenset({"</thead>", "</tbody>", "</tfoot>", "</tr>"})
_DROPPED = frozenset({"<thead>", "<tbody>"})


@dataclass
class TedsTree:
    """A table's TEDS tree in postorder."""

    tags: list[str]
    parent: list[int]
    spans: list[tuple[int, int] | None]
    """(colspan, rowspan) of ``<td>`` nodes (and of ``<th>`` ones compared as ``<td>``)."""
    tokens: list[tuple[str, ...] | None]
    """The tokens of the nodes compared by content."""
    elements: int
    """The elements inside the table, as the reference counts them."""
    cells: list[Cell | None]
    """The cell of each ``<td>`` and ``<th>`` node (one the skeleton adds for a slot no cell covers, too)."""


def cell_tokens(cell) -> tuple[str, ...]:
    if cell.markup is not None:
        return cell.markup
    return tuple(cell.content or "")


def _is_tag(token: str) -> bool:
    return len(token) > 2 and token[0] == "<" and token[-1] == ">"


def _without_tags(markup: tuple[str, ...] | None, dropped: frozenset[str]) -> tuple[str, ...] | None:
    """A cell's markup without the inline tags named in ``dropped`` (opening and closing)."""
    if markup is None or not dropped:
        return markup
    return tuple(t for t in markup if not (_is_tag(t) and t.strip("</>").split()[0].lower() in dropped))


def table_tree(table: Table, th_text: bool = False, th_as_td: bool = False, drop_groups: bool = False,
               drop_tags: tuple[str, ...] = ()) -> TedsTree:
    """The TEDS tree of a table (``th_text``: read ``<th>`` cells' spans and text as
    ``<td>`` ones'; ``th_as_td``: make them ``<td>`` nodes; ``drop_groups``: no
    nodes for ``<thead>`` and ``<tbody>``, their rows placed under the table;
    ``drop_tags``: inline tags left out of the cells)."""
    th_text = th_text or th_as_td
    dropped = frozenset(drop_tags)
    tokens, cells = skeleton(table)
    # Built in preorder as nested lists [tag, cell or None, children], then numbered in postorder.
    root: list = ["table", None, []]
    stack = [root]
    cell_index = 0
    elements = 0
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if token in CELL_OPENINGS:
            tag = "td" if th_as_td else token[1:3]
            if len(token) == 3:  # "<td": attributes follow until ">"
                while k < len(tokens) and tokens[k] != ">":
                    k += 1
            cell = cells[cell_index]
            cell_index += 1
            if dropped and cell.markup is not None:
                cell = dataclasses.replace(cell, markup=_without_tags(cell.markup, dropped))
            node = [tag, cell, []]
            stack[-1][2].append(node)
            elements += 1
            inline = cell.markup or ()
            if tag == "th" and not th_text:
                # The reference makes a node of every element inside a <th>.
                inner = [node]
                for item in inline:
                    if _is_tag(item):
                        if item[1] == "/":
                            if len(inner) > 1:
                                inner.pop()
                        else:
                            child = [item[1:-1], None, []]
                            inner[-1][2].append(child)
                            inner.append(child)
                            elements += 1
            else:
                elements += sum(1 for item in inline if _is_tag(item) and item[1] != "/")
        elif drop_groups and token in _DROPPED:
            pass
        elif token in _GROUPS:
            node = [token[1:-1], None, []]
            stack[-1][2].append(node)
            stack.append(node)
            elements += 1
        elif token in _GROUP_ENDS:
            if len(stack) > 1 and stack[-1][0] == token[2:-1]:
                stack.pop()
        k += 1
    return _numbered(root, elements, lambda tag: tag == "td" or th_text, cell_tokens)


def _numbered(root: list, elements: int, compared, tokens_of) -> TedsTree:
    """The tree of nested ``[tag, cell or None, children]`` lists numbered in
    postorder; ``compared(tag)``: whether a cell node of that tag carries its spans
    and tokens (``tokens_of(cell)``)."""
    tags: list[str] = []
    parent: list[int] = []
    spans: list[tuple[int, int] | None] = []
    node_tokens: list[tuple[str, ...] | None] = []
    node_cells: list[Cell | None] = []
    # Postorder without recursion.
    order: list[list] = []
    walk = [(root, False)]
    while walk:
        node, expanded = walk.pop()
        if expanded:
            order.append(node)
        else:
            walk.append((node, True))
            for child in reversed(node[2]):
                walk.append((child, False))
    index = {id(node): i for i, node in enumerate(order)}
    parent = [-1] * len(order)
    for node in order:
        for child in node[2]:
            parent[index[id(child)]] = index[id(node)]
        tag, cell = node[0], node[1]
        tags.append(tag)
        node_cells.append(cell)
        if cell is not None and compared(tag):
            spans.append((cell.col_span, cell.row_span))
            node_tokens.append(tokens_of(cell))
        else:
            spans.append(None)
            node_tokens.append(None)
    return TedsTree(tags, parent, spans, node_tokens, elements, node_cells)


def docling_tree(table: Table, drop_tags: tuple[str, ...] = ()) -> TedsTree | None:
    """The TEDS tree of a table as docling-core's ``export_to_html`` writes it and
    docling-eval parses it (``--table-html docling``); None where that HTML is
    empty (no row, no caption), which docling-eval cannot parse.

    ``<table>`` holds a ``<caption>`` with one ``<div>`` per caption (where there
    are captions), then one ``<tbody>`` of every row of the grid the source
    declares (else the grid from row and column 0 to the last its cells reach).
    Each slot takes the last cell, in the source's order, that covers it (cut at
    the grid's edge); a row holds a cell where the cell starts on it, with the
    cell's own spans, and an empty one-slot cell where no cell covers a slot.
    Every cell is a ``<td>`` (docling-eval renames ``<th>``) of its text trimmed."""
    cells = table.cells()
    if table.declared_size is not None:
        rows, cols = table.declared_size
    else:
        rows = max((c.end_row + 1 for c in cells), default=0)
        cols = max((c.end_col + 1 for c in cells), default=0)
    if rows * cols > MAX_TREE_NODES:
        raise TableTooLarge(f"TEDS of table {table.id}: its grid has {rows:,} x {cols:,} slots, more than "
                            f"{MAX_TREE_NODES:,}")
    if rows == 0 and not table.captions:
        return None
    dropped = frozenset(drop_tags)
    grid: list[list[Cell | None]] = [[None] * cols for _ in range(rows)]
    for cell in cells:
        for r in range(max(cell.start_row, 0), min(cell.end_row + 1, rows)):
            row = grid[r]
            for c in range(max(cell.start_col, 0), min(cell.end_col + 1, cols)):
                row[c] = cell
    root: list = ["table", None, []]
    elements = 0
    if table.captions:
        caption: list = ["caption", None, [["div", None, []] for _ in table.captions]]
        root[2].append(caption)
        elements += 1 + len(table.captions)
    if rows:
        body: list = ["tbody", None, []]
        root[2].append(body)
        elements += 1 + rows
        for r in range(rows):
            tr: list = ["tr", None, []]
            body[2].append(tr)
            for c in range(cols):
                cell = grid[r][c]
                if cell is None:
                    cell = Cell(r, c, r, c, "")
                elif cell.start_row != r or cell.start_col != c:
                    continue
                tr[2].append(["td", cell, []])
                markup = _without_tags(cell.markup, dropped)
                elements += 1 + sum(1 for t in markup or () if _is_tag(t) and t[1] != "/")

    def tokens_of(cell: Cell) -> tuple[str, ...]:
        if cell.markup is not None:
            return _without_tags(cell.markup, dropped)
        return tuple((cell.content or "").strip())

    return _numbered(root, elements, lambda tag: True, tokens_of)


def _encoded(tokens: tuple[str, ...], codes: dict[str, str]) -> str:
    """A token list as a string of one character a token, so that a string
    Levenshtein counts token edits (tags get private-use characters)."""
    joined = "".join(tokens)
    if len(joined) == len(tokens) and "" not in tokens:  # every token one character
        return joined
    out = []
    for token in tokens:
        if len(token) != 1:
            code = codes.get(token)
            if code is None:
                code = codes[token] = chr(0xF0000 + len(codes))
            token = code
        out.append(token)
    return "".join(out)


def normalised_text(tokens: tuple[str, ...]) -> str:
    """A cell's tokens as one text, HTML entities decoded, ``<br>`` a line break,
    whitespace runs one space, trimmed (``--cell-text normalised``)."""
    text = _BR.sub("\n", html.unescape("".join(tokens)))
    return _WHITESPACE.sub(" ", text).strip()


_BR = re.compile(r"<br\s*/?>")
_WHITESPACE = re.compile(r"\s+")


def joined_tree(trees: list[TedsTree]) -> TedsTree:
    """The tables' trees as one, under a ``<table>`` root: a page scored whole
    (``--pairing joined``). Its elements are theirs and their roots."""
    tags: list[str] = []
    parent: list[int] = []
    spans: list = []
    tokens: list = []
    cells: list = []
    roots = []
    for tree in trees:
        offset = len(tags)
        tags += tree.tags
        parent += [p + offset if p >= 0 else -1 for p in tree.parent]
        spans += tree.spans
        tokens += tree.tokens
        cells += tree.cells
        roots.append(len(tags) - 1)
    for root in roots:
        parent[root] = len(tags)
    tags.append("table")
    parent.append(-1)
    spans.append(None)
    tokens.append(None)
    cells.append(None)
    return TedsTree(tags, parent, spans, tokens, sum(t.elements + 1 for t in trees), cells)


def rename_costs(t1: TedsTree, t2: TedsTree, structure_only: bool, normalised: bool = False):
    """The rename cost of every node pair (rows: ``t1``'s nodes, postorder), a
    numpy array (``normalised``: cells compared by :func:`normalised_text`)."""
    import numpy as np  # (here, not at the top: the other metrics are scored without numpy)

    # (a node's tag and spans as one number: two nodes differ where theirs do)
    vocabulary: dict[tuple, int] = {}
    kind1 = np.array([vocabulary.setdefault(k, len(vocabulary)) for k in zip(t1.tags, t1.spans)], dtype=np.int64)
    kind2 = np.array([vocabulary.setdefault(k, len(vocabulary)) for k in zip(t2.tags, t2.spans)], dtype=np.int64)
    differ = kind1[:, None] != kind2[None, :]
    if structure_only:
        return differ.astype(np.float64)
    if all(tokens is None for tokens in t1.tokens) or all(tokens is None for tokens in t2.tokens):
        return differ.astype(np.float64)
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    codes: dict[str, str] = {}
    strings1: dict[str, int] = {}
    strings2: dict[str, int] = {}
    text = normalised_text if normalised else lambda tokens: _encoded(tokens, codes)
    # Each node's string's index, a node without tokens that of an extra one
    # (after the strings; added below once their count is known).
    s1 = [strings1.setdefault(text(tokens), len(strings1)) if tokens is not None else -1 for tokens in t1.tokens]
    s2 = [strings2.setdefault(text(tokens), len(strings2)) if tokens is not None else -1 for tokens in t2.tokens]
    unique1, unique2 = list(strings1), list(strings2)
    edits = cdist(unique1, unique2, scorer=Levenshtein.distance, dtype=np.int64)
    longer = np.maximum(np.array([len(s) for s in unique1])[:, None], np.array([len(s) for s in unique2])[None, :])
    # Two empty token lists cost nothing; else edits over the longer length (the
    # division as the reference does it: float(int) / int). A pair with a node
    # without tokens costs what its tags and spans do (0 from the extra row and
    # column).
    ratio = np.zeros((len(unique1) + 1, len(unique2) + 1), dtype=np.float64)
    ratio[:-1, :-1] = edits / np.maximum(longer, 1)
    spread = ratio.take(np.array(s1, dtype=np.int64), axis=0).take(np.array(s2, dtype=np.int64), axis=1)
    return np.where(differ, 1.0, spread)


class PreparedTree:
    """A table's TEDS tree with its edit-distance form, made once per table."""

    __slots__ = ("tree", "shape")

    def __init__(self, tree: TedsTree):
        from .tree_edit import Tree

        self.tree = tree
        self.shape = Tree.from_parents(tree.parent)


MAX_TREE_NODES = 1_000_000
"""The most nodes a table's TEDS tree may have (its skeleton's rows and cells,
a cell for each slot no cell covers): beyond, it is refused before it is made."""

MAX_NODE_PAIRS = 16_000_000
"""The most pairs of nodes of two trees compared (the edit distance keeps a
distance for each: 4,000 nodes against 4,000 take about 800 MB)."""


def check_tree_size(table: Table) -> None:
    """:class:`TableTooLarge` where the table's tree would have more than
    :data:`MAX_TREE_NODES` nodes (counted from its grid before any is made)."""
    from ..grid import check_grid_size
    from ..skeleton import own_skeleton_fits

    if own_skeleton_fits(table):  # (the source's own skeleton: as large as the source)
        return
    rows, cols = check_grid_size(table, from_zero=True)
    cells = table.cells()
    covered = sum((c.end_row - c.start_row + 1) * (c.end_col - c.start_col + 1) for c in cells)
    nodes = rows + len(cells) + max(0, rows * cols - covered)  # (fewest: overlapping cells cover less)
    if nodes > MAX_TREE_NODES:
        raise TableTooLarge(f"TEDS of table {table.id}: its tree would have at least {nodes:,} nodes ({rows:,} rows "
                            f"x {cols:,} columns, {len(cells):,} cells), more than {MAX_TREE_NODES:,}")


def teds_pair(gt: PreparedTree, result: PreparedTree, normalised: bool = False) -> tuple[float, float]:
    """(TEDS, TEDS-struct) of two tables (``normalised``: cells compared by
    :func:`normalised_text`; :class:`TableTooLarge` beyond :data:`MAX_NODE_PAIRS`
    pairs of their nodes)."""
    from . import tree_edit

    pairs = len(gt.tree.tags) * len(result.tree.tags)
    if pairs > MAX_NODE_PAIRS:
        raise TableTooLarge(f"TEDS of a table of {len(gt.tree.tags):,} nodes against one of "
                            f"{len(result.tree.tags):,}: {pairs:,} pairs of nodes, more than {MAX_NODE_PAIRS:,}")

    elements = max(gt.tree.elements, result.tree.elements)
    if elements == 0:
        return 1.0, 1.0  # two tables with nothing inside (the reference divides by zero)
    g, r = gt.tree, result.tree
    if g.tags == r.tags and g.parent == r.parent and g.spans == r.spans:
        # the same tree but for the cells' tokens: kept node for node, structure costs nothing
        struct = 0.0
        full = 0.0 if g.tokens == r.tokens else \
            tree_edit.distance(result.shape, gt.shape, rename_costs(r, g, False, normalised))
        return 1.0 - full / elements, 1.0 - struct / elements
    full = tree_edit.distance(result.shape, gt.shape, rename_costs(result.tree, gt.tree, False, normalised))
    struct = tree_edit.distance(result.shape, gt.shape, rename_costs(result.tree, gt.tree, True))
    return 1.0 - full / elements, 1.0 - struct / elements


def teds(gt: TedsTree, result: TedsTree, structure_only: bool = False) -> float:
    """TEDS (or TEDS-struct) of two table trees."""
    full, struct = teds_pair(PreparedTree(gt), PreparedTree(result))
    return struct if structure_only else full


# -- the metric ---------------------------------------------------------------------------------

def _reference_tables(document):
    """The document with only the table the reference would score, where it was read from HTML."""
    from ..model import Document

    chosen = document.metadata.get("teds_table")
    if chosen is None:
        return document
    tables = [t for k, t in enumerate(document.tables) if chosen != "none" and k == int(chosen)]
    return Document(document.filename, tables, document.pages, document.metadata)


class TedsMetric(TableSimilarityMetric):
    """TEDS and TEDS-struct per table."""

    name = "teds"
    title = "TEDS, tree-edit-distance similarity (PubTabNet)"
    variants = ("pubtabnet",)
    settings = TEDS_SETTINGS
    scores = ("teds", "teds_struct")
    headline = "teds"
    names = {"teds": "TEDS", "teds_struct": "TEDS-struct"}

    def check(self, settings: ScoreSettings) -> None:
        if settings.aggregate == "pooled":
            raise UsageError("--aggregate pooled applies to grits only (TEDS has no similarity to pool)")

    def score(self, gt, result, settings: ScoreSettings, unreadable: bool = False, gt_file=None):
        if settings.body_table_only:
            gt = _reference_tables(gt)
            result = _reference_tables(result) if result is not None else None
        if settings.pairing == "joined":
            return self._joined(gt, result, settings)
        scored = super().score(gt, result, settings, unreadable, gt_file)
        if settings.table_html == "docling":
            scored = self._as_docling_eval_skips(gt, scored)
        return scored

    def _as_docling_eval_skips(self, gt, scored: dict) -> Scored:
        """``--table-html docling``: the pairs docling-eval does not score, unscored
        here too, and said: a ground-truth table docling labels other than
        ``table`` (a ``document_index``), and a table without HTML."""
        scored = Scored(scored, getattr(scored, "findings", ()))
        records = scored["tables"]
        labels = {table.id: gt.metadata.get(f"table_{table.id}_label") for table in gt.tables}
        labelled = [record for record in records if labels.get(record["gt_table"]) is not None]
        for record in labelled:
            record.update(dict.fromkeys(self.scores), label=labels[record["gt_table"]])
        if labelled:
            scored.update(self._means(records), f1=self._headline(records, self._means(records)))
            scored.findings.append(Diagnostic(
                "table-label-skipped", Severity.WARNING,
                f"{len(labelled)} ground-truth table(s) labelled other than table (the first: table "
                f"{labelled[0]['gt_table']}, {labelled[0]['label']}) not scored, as docling-eval skips them"))
        unscored = [record for record in records if record[self.scores[0]] is None and "label" not in record]
        if unscored:
            first = unscored[0]
            scored.findings.append(Diagnostic(
                "table-html-empty", Severity.WARNING,
                f"{len(unscored)} table pair(s) not scored: a table with no row and no caption has no HTML in "
                f"docling-core's export, which docling-eval cannot parse (it skips the pair as an evaluation "
                f"error); the first: ground-truth table {first['gt_table']}, result table "
                f"{first['result_table']}"))
        return scored

    def describe(self, settings: ScoreSettings) -> dict:
        th = {"compare": "the text of <th> cells compared as <td>'s", "as-td": "<th> cells read as <td> cells"}
        if settings.cell_text == "normalised":
            normalisation = ("the cells' tokens joined into one text, compared after decoding entities, <br> a line "
                             "break, whitespace runs one space, trimmed; ")
        else:
            normalisation = "none: the cells' tokens as the source gives them (characters and inline tags); "
        normalisation += th.get(settings.th_text, "the text of <th> cells ignored, as PubTabNet's reference does")
        if settings.row_groups == "drop":
            normalisation += "; <thead>, <tbody> left out (their rows directly under the table)"
        if settings.table_html == "docling":
            normalisation += "; each table's tree from docling-core's HTML export of it (texts trimmed)"
        if settings.drop_tags:
            normalisation += f"; inline tags {', '.join(settings.drop_tags)} left out"
        aggregation = ("per table pair, 1 - tree edit distance / the larger table's element count"
                       + (f", rounded to {settings.round} decimals" if settings.round is not None else "") + "; "
                       + pairing_described(settings, "TEDS"))
        return {"variant": "pubtabnet", "normalisation": normalisation, "aggregation": aggregation}

    def prepare(self, table: Table, document, settings: ScoreSettings) -> PreparedTree | None:
        tree = self._tree(table, settings)
        return PreparedTree(tree) if tree is not None else None

    @staticmethod
    def _tree(table: Table, settings: ScoreSettings) -> TedsTree | None:
        drop_tags = settings.drop_tags or ()
        if settings.table_html == "docling":
            return docling_tree(table, drop_tags)
        check_tree_size(table)
        return table_tree(table, th_text=settings.th_text == "compare", th_as_td=settings.th_text == "as-td",
                          drop_groups=settings.row_groups == "drop", drop_tags=drop_tags)

    def table_scores(self, gt: PreparedTree | None, result: PreparedTree | None,
                     settings: ScoreSettings) -> dict[str, float | None]:
        if gt is None or result is None:  # a table without HTML (--table-html docling): no score
            return dict.fromkeys(self.scores)
        scores = teds_pair(gt, result, settings.cell_text == "normalised")
        if settings.round is not None:
            scores = tuple(round(score, settings.round) for score in scores)
        return dict(zip(self.scores, scores))

    def unpaired_scores(self, table, settings: ScoreSettings) -> dict[str, float | None]:
        return dict.fromkeys(self.scores, None if table is None else 0.0)

    def _joined(self, gt, result, settings: ScoreSettings) -> dict:
        """A record of one entry a page: all its ground-truth tables against all its
        result tables, each side one tree; a page without ground-truth tables is not
        scored, one without result tables scores 0."""
        result = result or Document()
        pages: dict = {}
        for side, document in enumerate((gt, result)):
            for table in document.tables:
                key = None if settings.ignore_page else table.page
                if side == 0 or key in pages:
                    pages.setdefault(key, ([], []))[side].append(table)
        records = []
        for gt_tables, result_tables in pages.values():
            record = {"gt_table": gt_tables[0].id, "result_table": result_tables[0].id if result_tables else None,
                      "joined": {"gt_tables": [t.id for t in gt_tables],
                                 "result_tables": [t.id for t in result_tables]}}
            if not result_tables:
                records.append({**record, **dict.fromkeys(self.scores, 0.0)})
                continue
            gt_tree, result_tree = (PreparedTree(joined_tree([self._tree(t, settings) for t in tables]))
                                    for tables in (gt_tables, result_tables))
            records.append({**record, **self.table_scores(gt_tree, result_tree, settings)})
        detection = {"gt": len(gt.tables), "detected": len(result.tables),
                     "correct": sum(min(len(r["joined"]["gt_tables"]), len(r["joined"]["result_tables"]))
                                    for r in records)}
        means = self._means(records)
        return {"tables": records, "table_count": len(records), **means,
                "f1": means[self.scores[0]] if records else 1.0,
                "detection": {**detection, **precision_recall.scores(**detection)}}

    def explain(self, gt, result, settings: ScoreSettings, record: dict | None = None, gt_file=None) -> dict:
        """The paired tables side by side, each cell with the cell that TEDS's
        tree edit mapping (one of least cost, with TEDS's own costs, not
        TEDS-struct's) renames it into, and 1 - the cost of that rename: ``A``
        kept as a cell of the same tag, spans and tokens, ``S`` renamed into
        another cell, ``N`` deleted, or renamed into a node that is no cell."""
        from .explain import default_explain

        detail = default_explain(gt, result, record)
        th_text = settings.th_text == "compare"
        gt_tables = {t.id: t for t in gt.tables}
        result_tables = {t.id: t for t in (result.tables if result is not None else ())}
        uncompared_th = undrawn = False
        too_large = []
        for pair in detail["pairs"]:
            g = gt_tables.get((pair["gt"] or {}).get("table"))
            r = result_tables.get((pair["result"] or {}).get("table"))
            for side in ("gt", "result"):
                if pair[side] is not None:  # unpaired until mapped below
                    pair[side]["outcome"] = "N" * len(pair[side]["cells"])
                    pair[side]["partners"] = [[[-1, 0.0]] for _ in pair[side]["cells"]]
            if g is None or r is None:
                continue
            gt_tree, result_tree = table_tree(g, th_text), table_tree(r, th_text)
            if len(gt_tree.tags) * len(result_tree.tags) > EXPLAIN_MAX_PAIRS:
                for side in ("gt", "result"):
                    del pair[side]["outcome"], pair[side]["partners"]
                too_large.append(f"{g.id} \u2194 {r.id}")
                continue
            sides, lands_undrawn = mapped_cells(gt_tree, result_tree, g.cells(), r.cells())
            for side, (outcome, partners) in zip(("gt", "result"), sides):
                pair[side]["outcome"], pair[side]["partners"] = outcome, partners
            undrawn = undrawn or lands_undrawn
            uncompared_th = uncompared_th or (not th_text and "th" in gt_tree.tags + result_tree.tags)
        notes = detail["notes"]
        if uncompared_th:
            notes.append("the text of <th> cells is not compared, as PubTabNet's reference does not read it "
                         "(--th-text compare compares it): a <th> cell mapped to a <th> cell is matched whole, whatever their texts")
        if undrawn:
            notes.append("a cell kept as one of the empty cells that TEDS's tree gives a slot no cell covers "
                         "has no partner drawn")
        if too_large:
            notes.append(f"tables drawn without their cells' mapping (more than {EXPLAIN_MAX_PAIRS:,} pairs of "
                         f"tree nodes): {', '.join(too_large)}")
        detail.update(kind="cells", levels=[],
                      measure="similarity of the cells in TEDS's tree edit mapping (1 \u2212 rename cost)")
        return detail


EXPLAIN_MAX_PAIRS = 25_000_000
"""Node pairs (ground-truth nodes x result nodes, 5,000 a side) above which the
HTML report draws a table pair without its cells' mapping: the mapping lays out
matrices of as many numbers as there are pairs."""


def mapped_cells(gt: TedsTree, result: TedsTree, gt_cells: list[Cell],
                 result_cells: list[Cell]) -> tuple[tuple[tuple[str, list], tuple[str, list]], bool]:
    """For each side's drawn cells (``gt_cells``, ``result_cells``: the tables'
    cells in their order): an outcome letter, and ``[[partner cell or -1,
    similarity]]`` from one optimal edit mapping of the two trees, with TEDS's
    costs; and whether some cell was kept as a cell that is not drawn (one the
    skeleton adds for a slot no cell covers)."""
    from .tree_edit import mapping

    costs = rename_costs(result, gt, False)  # (the orientation teds_pair scores in)
    kept = mapping(PreparedTree(result).shape, PreparedTree(gt).shape, costs)
    gt_of = {r: g for r, g in kept}
    result_of = {g: r for r, g in kept}
    undrawn = False

    def side(tree: TedsTree, cells: list[Cell], other: TedsTree, other_cells: list[Cell], partner_of: dict,
             cost) -> tuple[str, list]:
        nonlocal undrawn
        drawn = {id(cell): k for k, cell in enumerate(cells)}
        other_drawn = {id(cell): k for k, cell in enumerate(other_cells)}
        outcome = ["N"] * len(cells)
        partners: list = [[[-1, 0.0]] for _ in cells]
        for node, cell in enumerate(tree.cells):
            k = drawn.get(id(cell)) if cell is not None else None
            partner = partner_of.get(node)
            if k is None or partner is None or other.cells[partner] is None:
                continue
            similarity = 1.0 - float(cost(node, partner))
            outcome[k] = "A" if similarity == 1.0 else "S"
            shown = other_drawn.get(id(other.cells[partner]), -1)
            undrawn = undrawn or shown < 0
            partners[k] = [[shown, round(similarity, 4)]]
        return "".join(outcome), partners

    return (side(gt, gt_cells, result, result_cells, result_of, lambda g, r: costs[r, g]),
            side(result, result_cells, gt, gt_cells, gt_of, lambda r, g: costs[r, g])), undrawn


METRICS = (TedsMetric(),)
