"""Every built-in metric's declaration (:class:`MetricDeclaration`): its name,
variants and settings, read without importing the metric modules. ``score``'s
options and help, and :class:`~convertables.scoring.metric.ScoreSettings`, are
built from these; a metric's module is imported when it scores. Each metric
class takes its settings from here."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..options import Option

VARIANT = Option("variant", "--variant", str, "The metric's variant (see each metric; default: its first).",
                 direction="score")
RESULT_FORMAT = Option("result_format", "--result-format", str, "Format of the results (default: from content).",
                       direction="score")
GT_FORMAT = Option("gt_format", "--gt-format", str, "Format of the ground truth (default: from content).",
                   direction="score")
COMMON_SETTINGS = (VARIANT, RESULT_FORMAT, GT_FORMAT)
"""Settings every metric takes."""

# Settings that several metrics take, declared once so that they take them alike.
COMPAT = Option("compat", "--compat", bool, "Reproduce the official tool's numbers, quirks included.", False,
                direction="score")
IGNORE_PAGE = Option("ignore_page", "--ignore-page", bool, "structure, teds, grits: pair tables regardless of "
                     "their page.", False, direction="score")
PDF_DIR = Option("pdf_dir", "--pdf-dir", Path, "The documents' PDFs (their characters are the items).",
                 direction="score")


class MetricDeclaration(NamedTuple):
    """What the command line and the settings know of a metric before it is imported."""

    name: str
    variants: tuple[str, ...]
    """The variants it knows, the default first."""
    settings: tuple[Option, ...]
    """The settings it takes besides the common ones."""
    module: str | None
    """The module whose ``METRICS`` holds it (None: a metric given as an object)."""


def _complexity(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({int(c) for c in text.split(",")}))
    except ValueError:
        raise ValueError(f"a comma-separated list of class numbers (e.g. 0,1), not {text!r}") from None


_PUBMED = ("pubmed",)

STRUCTURE_SETTINGS = (
    Option("normalise", "--normalise", str, "structure: text normalisation of the official tool.", "default",
           "score", choices=("default", "ignorechars", "ignorechars2")),
    IGNORE_PAGE,
    COMPAT,
    Option("single_variant", "--single-variant", bool, "pubmed: score each document's own result only, not "
           "its variants (PMC1_1.xml...).", False, "score", variants=_PUBMED),
    Option("table_classes", "--table-classes", Path, "pubmed: the benchmark's table classes file "
           "(mavo_table_classes.csv); only the tables it lists count.", direction="score", variants=_PUBMED),
    Option("complexity", "--complexity", str, "pubmed: the classes of --table-classes that count, e.g. 0 or "
           "0,1 (0 simple, 1 complicated, 2 complex) [default: all].", direction="score", parse=_complexity,
           variants=_PUBMED),
    Option("ignore_fp", "--ignore-fp", bool, "pubmed: result tables paired with no ground-truth table do not "
           "count.", False, "score", variants=_PUBMED),
)
REGION_SETTINGS = (PDF_DIR,)
MARMOT_SETTINGS = (
    PDF_DIR,
    Option("penalties", "--penalties", Path, "marmot: a JSON file of penalty scores.", direction="score"),
)
CTDAR_SETTINGS = (
    COMPAT,
    Option("matching", "--matching", str, "cTDaR: greedy (official) or optimal.", "greedy", "score",
           choices=("greedy", "optimal")),
)
TH_TEXT = Option("th_text", "--th-text", str, "teds: the text of <th> cells: ignore it as PubTabNet's reference "
                 "does (it makes nodes of the elements inside them), or compare it as for <td>. as-td: read <th> "
                 "cells as <td> cells altogether, tag included, as benchmarks that rename them do.", "ignore",
                 direction="score", choices=("ignore", "compare", "as-td"))
CELL_TEXT = Option("cell_text", "--cell-text", str, "teds: how two cells' contents are compared: tokens (the "
                   "Levenshtein distance of their token lists, characters and inline tags, PubTabNet's) or "
                   "normalised (their tokens joined into one text, HTML entities decoded, <br> a line break, "
                   "whitespace runs one space, trimmed; the Levenshtein distance of the characters).", "tokens",
                   direction="score", choices=("tokens", "normalised"))
ROW_GROUPS = Option("row_groups", "--row-groups", str, "teds: <thead> and <tbody> as nodes of the tree (keep) or "
                    "not (drop: their rows directly under the table, as benchmarks that strip them do).", "keep",
                    direction="score", choices=("keep", "drop"))
BODY_TABLE_ONLY = Option("body_table_only", "--body-table-only", bool, "teds: of a page read from HTML, score only "
                         "the table PubTabNet's reference scores: the first directly inside <body> of a page that "
                         "starts with <html> or <!doctype> (a bare <table> string then scores 0).", False,
                         direction="score")
PAIRING = Option("pairing", "--pairing", str, "teds, grits: how a page's tables are paired: greedy (teds, "
                 "grits: each ground-truth table in order takes the remaining result table of highest first score); "
                 "hungarian (teds, grits: the one-to-one pairing of greatest summed first score, scipy's "
                 "linear_sum_assignment's optimum); order (teds, grits: the document's Nth ground-truth table with "
                 "its Nth result table, whatever their pages; a document whose two sides have different numbers "
                 "of tables is not scored); joined (teds only: all the tables of a page as one tree under a "
                 "<table> root, scored once; a page without ground-truth tables is not scored).", "greedy",
                 direction="score", choices=("greedy", "hungarian", "joined", "order"))
AGGREGATE = Option("aggregate", "--aggregate", str, "teds, grits: what total's scores are: the mean over "
                   "tables (table) or over pages of each page's mean over its tables (page); grits: pooled (each "
                   "page's GriTS from its tables' matched similarities and grid positions summed, and total from "
                   "the sums over all pages, as grits-metric pools them).", "table",
                   direction="score", choices=("table", "page", "pooled"))
def _tag_names(text: str) -> tuple[str, ...]:
    names = tuple(sorted({name.strip().lower() for name in text.split(",") if name.strip()}))
    if not names or not all(name.isalnum() for name in names):
        raise ValueError(f"a comma-separated list of tag names (e.g. b,i,u), not {text!r}")
    return names


TABLE_HTML = Option("table_html", "--table-html", str, "teds: the HTML a table's tree is made from: skeleton (the "
                    "source's own, else one made from its grid) or docling (as docling-core's export_to_html writes "
                    "it, which docling-eval scores: a <caption> holding a <div> per caption, all rows in one <tbody>, "
                    "every slot of the grid the source declares, an empty <td> where no cell starts, texts trimmed; "
                    "a table with no row and no caption has no HTML and is not scored).", "skeleton",
                    direction="score", choices=("skeleton", "docling"))
DROP_TAGS = Option("drop_tags", "--drop-tags", str, "teds: inline tags taken out of the cells (their tokens and "
                   "their elements), as benchmarks that delete them from the HTML do, e.g. b,i,u.",
                   direction="score", parse=_tag_names)
ROUND = Option("round", "--round", int, "teds: each table pair's scores rounded to this many decimals (Python's "
               "round) before anything is made of them.", direction="score", minimum=0)
SPLIT = Option("split", "--split", str, "teds: spans: each table pair says whether its ground-truth table is complex "
               "(a cell spanning rows or columns), and total gives each score's mean over the simple and over the "
               "complex tables (teds_simple, teds_complex...).", "none", direction="score", choices=("none", "spans"))
STATISTICS = Option("statistics", "--statistics", bool, "teds: total's statistics of each score over the tables "
                    "(and of each class of --split): count, mean, median, sample standard deviation, and a "
                    "histogram of 20 equal bins over [0, 1]; with --compat, teds_struct's pools the TEDS and "
                    "TEDS-struct values, as docling-eval's TEDS_struct does.", False, direction="score")
TEDS_SETTINGS = (IGNORE_PAGE, TH_TEXT, BODY_TABLE_ONLY, PAIRING, AGGREGATE, CELL_TEXT, ROW_GROUPS, TABLE_HTML,
                 DROP_TAGS, ROUND, SPLIT, STATISTICS, COMPAT)
TRUE_IOU = Option("true_iou", "--true-iou", bool, "grits: GriTS_Top and GriTS_Loc with the intersection of two "
                  "boxes over their union, not over the rectangle enclosing both as the reference divides it.",
                  False, direction="score")
TEXT_SIMILARITY = Option("text_similarity", "--text-similarity", str, "grits: GriTS_Con's similarity of two "
                         "texts, 2 x m / (their lengths), m the characters of difflib's matching blocks (difflib, "
                         "table-transformer's) or of their longest common subsequence (lcs, grits-metric's).",
                         "difflib", direction="score", choices=("difflib", "lcs"))
GRITS_CELL_PLACEMENT = Option("cell_placement", "--cell-placement", str, "grits: how the cells of HTML tables "
                              "(html, markdown and opendataloader-markdown files) take their grid slots: whatwg "
                              "(the HTML standard's table model) or document-order (rows numbered as written, a span "
                              "running on into the next row group, a <tfoot> where it stands, rowspan=0 one row: "
                              "grits-metric's reading).", "whatwg", direction="score",
                              choices=("whatwg", "document-order"))
GRID_ORIGIN = Option("grid_origin", "--grid-origin", str, "grits: where a table's grid starts: at its first cell's "
                     "row and column (first-cell), or at row and column 0 as read (zero: an HTML table's empty "
                     "leading rows, <tr></tr>, are rows of holes, as grits-metric counts them).", "first-cell",
                     direction="score", choices=("first-cell", "zero"))
GRITS_SETTINGS = (IGNORE_PAGE, TRUE_IOU, PAIRING, AGGREGATE, TEXT_SIMILARITY, GRITS_CELL_PLACEMENT, GRID_ORIGIN)

CELL_CUTOFF = Option("cell_cutoff", "--cell-cutoff", float, "table-accuracy: the least difflib similarity of "
                     "two cells' lowered texts for a result cell to match a ground-truth cell (Unstructured's "
                     "cutoff).", 0.8, direction="score", minimum=0.0)
TABLE_ACCURACY_SETTINGS = (CELL_CUTOFF,)
TEDS_EDIT_SETTINGS: tuple[Option, ...] = ()

_SCORING = "convertables.scoring."
DECLARED = (
    MetricDeclaration("structure", ("icdar2013", "pubmed"), STRUCTURE_SETTINGS, _SCORING + "structure"),
    MetricDeclaration("region", ("chars", "area"), REGION_SETTINGS, _SCORING + "region"),
    MetricDeclaration("marmot", ("marmot",), MARMOT_SETTINGS, _SCORING + "marmot"),
    MetricDeclaration("ctdar-a", ("ctdar2019",), CTDAR_SETTINGS, _SCORING + "ctdar"),
    MetricDeclaration("ctdar-b", ("ctdar2019",), CTDAR_SETTINGS, _SCORING + "ctdar"),
    MetricDeclaration("teds", ("pubtabnet",), TEDS_SETTINGS, _SCORING + "teds"),
    MetricDeclaration("grits", ("pubtables1m",), GRITS_SETTINGS, _SCORING + "grits"),
    MetricDeclaration("table-accuracy", ("unstructured",), TABLE_ACCURACY_SETTINGS, _SCORING + "table_accuracy"),
    MetricDeclaration("table-facts", ("olmocr",), (), _SCORING + "table_facts"),
    MetricDeclaration("teds-edit", ("omnidocbench",), TEDS_EDIT_SETTINGS, _SCORING + "teds_edit"),
)
"""The built-in metrics, in the order listed (``metric.METRIC_MODULES``' order)."""
