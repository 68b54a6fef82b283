"""Every built-in format's declaration (:class:`~convertables.format_declaration.Format`),
read without importing the format modules: the command line's options, its
help and ``formats`` are built from these alone. Each format's functions
(``sniff``, ``read``, ``write``, ``validate``, ``members``) are named here and
imported from its module on first use (:class:`~convertables.format_declaration.OnUse`);
the module's ``FORMAT`` is its declaration from here.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from ..format_declaration import Format, OnUse
from ..option_declaration import CELL_PLACEMENT, PAGE, PANDAS_LABELS, Option
from ..sniffing import no_head, root_is, starts_json, starts_zip


# Each format's sniffer asks for JSON, an XML root of its own name or a ZIP
# archive first (or claims nothing): its gate says so without importing its module.
_SNIFF_GATES = {
    starts_json: ("canonical_json", "docai", "textract", "azure", "docling", "pubtabnet", "pubtabnet_html", "scitsr",
                  "mineru", "unstructured", "marker", "paddleocr", "dpbench", "upstage", "llamaparse",
                  "olmocr_tests"),
    partial(root_is, ("document",)): ("abbyy", "icdar", "ctdar", "pod"),
    partial(root_is, ("Page",)): ("marmot",),
    partial(root_is, ("annotation",)): ("pubtables1m", "wtw"),
    partial(root_is, ("PcGts",)): ("pagexml",),
    starts_zip: ("xlsx",),
    no_head: ("delimited", "opendataloader_markdown", "olmocr_markdown", "omnidocbench", "omnidocbench_markdown",
              "unstructured_eval"),
}
_GATE_OF = {module: gate for gate, modules in _SNIFF_GATES.items() for module in modules}


def _declare(module: str, name: str, title: str, suffixes: tuple[str, ...], models: tuple[str, ...], *,
             reads: bool = True, writes: bool = False, validates: bool = False, container: bool = False,
             **declared) -> Format:
    """``name``'s declaration, its functions those of ``convertables.formats.<module>``."""
    path = f"convertables.formats.{module}"
    declared.setdefault("sniff_gate", _GATE_OF.get(module))
    return Format(
        name, title, suffixes, OnUse(path, "sniff"), models,
        OnUse(path, "read") if reads else None, OnUse(path, "write") if writes else None,
        validate=OnUse(path, "validate") if validates else None,
        members=OnUse(path, "members") if container else None, **declared,
    )


DELIMITER_NAMES = ("comma", "tab", "semicolon", "pipe")
"""The CSV delimiters ``--delimiter`` names (the keys of ``delimited.DELIMITERS``)."""

DECLARED: dict[str, Format] = {
    "abbyy": _declare("abbyy", "abbyy", "ABBYY FineReader XML (FineReader 6, 8, 10)", (".xml",), ("structure",),
                      native_frame="image", extracted_by="ABBYY FineReader"),
    "icdar": _declare(
        "icdar", "icdar", "ICDAR 2013 region and cell-structure XML", (".xml",), ("region", "structure"),
        writes=True, validates=True, names_say_model=True, native_frame="pdf",
        holds=frozenset({"empty", "overlaps", "text", "breaks", "spans", "unknown", "boxes", "pages", "header-span"}),
        holds_with=(("blank", "keep_blank"),),
        options=(
            Option("keep_instructions", "--keep-instructions", bool,
                   "ICDAR 2013 input: keep the instruction elements (skipped by default).", False),
            Option("box_frame", "--box-frame", str, "ICDAR 2013 input: the frame its boxes are really in: pdf "
                   "(points, origin bottom-left, the format's) or image (pixels, origin top-left, as some tools "
                   "write them; with --dpi and --page-height the output's boxes are converted).", "pdf",
                   choices=("pdf", "image")),
            Option("model", "--model", str, "ICDAR 2013 output model: auto (structure when there are cells), "
                   "structure or region.", "auto", "write", choices=("auto", "structure", "region")),
            Option("keep_blank", "--keep-blank", bool, "ICDAR 2013 output: write blank cells too.", False, "write"),
        ),
    ),
    "html": _declare("html", "html", "HTML tables (also FineReader, Acrobat and pandas exports)",
                     (".html", ".htm", ".xhtml"), ("structure",), writes=True,
                     options=(PAGE, PANDAS_LABELS, CELL_PLACEMENT, Option(
                         "header_cells", "--header-cells", str,
                         "HTML output: source (as the table's own HTML skeleton has them, else as PubTabNet writes "
                         "them: <td> in <thead>, <td scope> elsewhere), th (every header cell as <th>) or td (every "
                         "one as <td>).", "source", "write", choices=("source", "th", "td"))),
                     holds=frozenset({"empty", "text", "spans", "blank", "unknown", "header-rows", "header-cells",
                                      "markup", "skeleton", "pages"})),
    "xlsx": _declare(
        "xlsx", "xlsx", "Excel workbooks (also Nitro 'To Excel' and pandas exports)", (".xlsx", ".xlsm"),
        ("structure",), writes=True, binary=True,
        holds=frozenset({"text", "breaks", "spans", "header-rows", "header-span", "header-cells", "pages"}),
        options=(
            Option("split_blank_rows", "--split-blank-rows", bool,
                   "Excel input: split a sheet into tables at empty rows.", False),
            PANDAS_LABELS,
            PAGE,
        ),
    ),
    "ctdar": _declare(
        "ctdar", "ctdar", "ICDAR 2019 cTDaR XML (Track A and B, and results)", (".xml",), ("region", "structure"),
        writes=True, native_frame="image",
        holds=frozenset({"empty", "overlaps", "spans", "blank", "unknown", "boxes", "header-span"}),
        options=(
            Option("keep_filler_cells", "--keep-filler-cells", bool,
                   "cTDaR input: keep cells whose points are all 0,0 (the official scorer counts them).", False),
            Option("track", "--track", str, "cTDaR output: A (tables) or B (cells).", "B", "write",
                   choices=("A", "B"), case_sensitive=False),
        ),
    ),
    "marmot": _declare(
        "marmot", "marmot", "Marmot dataset page XML", (".xml",), ("region",), native_frame="pdf",
        options=(
            Option("with_caption", "--with-caption", bool, "Marmot input: widen tables by their caption.", False),
            Option("with_footnote", "--with-footnote", bool, "Marmot input: widen tables by their footnote.",
                   False),
        ),
    ),
    "pod": _declare("pod", "pod", "ICDAR 2017 POD neighbour-annotated structure XML", (".xml",), ("structure",),
                    native_frame="image"),
    "pubtables1m": _declare(
        "pubtables1m", "pubtables1m", "PubTables-1M structure annotations (PASCAL VOC XML)", (".xml",),
        ("structure",), native_frame="image",
        options=(
            Option("words", "--words", Path, "PubTables-1M input: the table image's words JSON (a list of {bbox, "
                   "text, block_num, line_num, span_num}), or a folder of NAME_words.json files (NAME: the "
                   "annotation file's): the cells' text. Without it, cells have unknown content."),
        ),
    ),
    "canonical_json": _declare("canonical_json", "json", "convertables canonical JSON", (".json",),
                               ("region", "structure"), writes=True, validates=True,
                               holds=frozenset({"empty", "overlaps", "text", "breaks", "spans", "blank", "unknown",
                                                "header-rows", "header-span", "header-cells", "markup", "skeleton",
                                                "boxes", "pages"})),
    "delimited": _declare(
        "delimited", "csv", "CSV/TSV, one table per file (Camelot, Tabula, pdfplumber, pandas)", (".csv", ".tsv"),
        ("structure",), writes=True,
        holds=frozenset({"text", "breaks", "blank", "unknown", "header-span"}),
        options=(
            PAGE,
            PANDAS_LABELS,
            Option("encoding", "--encoding", str, "CSV input: the text encoding (default: the byte-order mark, "
                   "else UTF-8, else windows-1252)."),
            Option("delimiter", "--delimiter", str, "CSV input: the delimiter (default: tab for .tsv, else "
                   "sniffed).", choices=DELIMITER_NAMES, case_sensitive=False),
        ),
        extracted_by="Camelot, Tabula or pdfplumber",
        in_folders=False,  # (a .csv beside the inputs is as often scores or a classes list: read when asked for)
    ),
    "docai": _declare("docai", "docai", "Google Document AI Document JSON", (".json",), ("structure",),
                      native_frame="page", extracted_by="Google Document AI"),
    "textract": _declare("textract", "textract", "AWS Textract table analysis JSON (AnalyzeDocument, "
                         "GetDocumentAnalysis pages)", (".json",), ("structure",), native_frame="page",
                         extracted_by="AWS Textract"),
    "azure": _declare(
        "azure", "azure", "Azure AI Document Intelligence (Form Recognizer) analyze results, v2.1 and 2022-08-31 on",
        (".json",), ("structure", "region"),
        # boxes are PDF points for PDF input (pages in inches), image pixels for images: no one native frame
        native_frame=None, extracted_by="Azure AI Document Intelligence",
    ),
    "docling": _declare("docling", "docling", "docling DoclingDocument JSON (docling, docling-eval)", (".json",),
                        ("region", "structure"), writes=True, native_frame="pdf", extracted_by="docling",
                        holds=frozenset({"empty", "overlaps", "text", "breaks", "spans", "blank", "unknown",
                                         "header-rows", "header-span", "header-cells", "boxes", "pages"})),
    "pubtabnet": _declare("pubtabnet", "pubtabnet", "PubTabNet and FinTabNet JSONL, one table a line (TEDS ground "
                          "truth)", (".jsonl",), ("structure",), writes=True, native_frame="image", container=True,
                          holds=frozenset({"empty", "text", "breaks", "spans", "blank", "unknown", "header-rows",
                                           "header-span", "markup", "skeleton", "boxes", "pages"})),
    "markdown": _declare("markdown", "markdown", "Markdown pages: pipe, HTML and LaTeX tables (MinerU, Marker, "
                         "docling, olmOCR, VLMs)", (".md", ".markdown", ".mmd"), ("structure",), writes=True,
                         options=(PAGE, CELL_PLACEMENT),
                         reads_files_of=("html",),  # (a page may be an HTML table block only)
                         holds=frozenset({"empty", "text", "spans", "blank", "unknown", "header-rows",
                                          "header-cells", "markup", "skeleton", "pages"})),
    "opendataloader_markdown": _declare(
        "opendataloader_markdown", "opendataloader-markdown", "Markdown pages as opendataloader-bench finds their "
        "tables (pipe tables made HTML by its rules, every <table>); chosen by name", (".md",), ("structure",),
        options=(PAGE, CELL_PLACEMENT), reads_files_of=("markdown", "html")),
    "olmocr_markdown": _declare(
        "olmocr_markdown", "olmocr-markdown", "Markdown pages as olmOCR-bench finds their tables (pipe tables, "
        "every <table> as Python's html.parser and beautifulsoup build it); chosen by name", (".md",),
        ("structure",), options=(PAGE,), reads_files_of=("markdown", "html")),
    "olmocr_tests": _declare("olmocr_tests", "olmocr-tests", "olmOCR-bench's test files (JSON Lines, a test a "
                             "line; a document a page its table tests name)", (".jsonl",), ("structure",),
                             container=True),
    "omnidocbench": _declare("omnidocbench", "omnidocbench", "OmniDocBench's ground-truth JSON, a list of pages "
                             "(tables as its normalised HTML); chosen by name", (".json",), ("structure",),
                             container=True),
    "omnidocbench_markdown": _declare(
        "omnidocbench_markdown", "omnidocbench-markdown", "Markdown pages as OmniDocBench's end-to-end evaluation "
        "finds their tables (its normalised HTML); chosen by name", (".md",), ("structure",), options=(PAGE,),
        reads_files_of=("markdown", "html", "latex")),
    "latex": _declare("latex", "latex", "LaTeX tabular environments (arXiv, OmniDocBench, vision-language models)",
                      (".tex", ".latex"), ("structure",), writes=True, options=(PAGE,),
                      holds=frozenset({"text", "spans", "blank"})),
    "pubtabnet_html": _declare("pubtabnet_html", "pubtabnet-html", "PubTabNet's TEDS JSON: {file name: HTML} (the "
                               "official batch_evaluate's input)", (".json",), ("structure",), container=True),
    "pagexml": _declare("pagexml", "pagexml", "PAGE XML tables (Transkribus, archival table datasets)", (".xml",),
                        ("region", "structure"), writes=True, native_frame="image",
                        holds=frozenset({"text", "breaks", "spans", "blank", "boxes"})),
    "scitsr": _declare("scitsr", "scitsr", "SciTSR structure JSON, one table a file", (".json",), ("structure",),
                       writes=True, holds=frozenset({"text", "spans", "blank"})),
    "doctags": _declare("doctags", "doctags", "DocTags with OTSL tables (docling, SmolDocling, docling-eval)",
                        (".doctags",), ("structure",), writes=True, native_frame="page",
                        holds=frozenset({"text", "spans", "blank", "header-rows", "header-cells", "pages"})),
    "wtw": _declare("wtw", "wtw", "WTW table annotations (PASCAL VOC-like XML, photographed tables)", (".xml",),
                    ("structure",), native_frame="image"),
    "mineru": _declare("mineru", "mineru", "MinerU content_list.json and content_list_v2.json (tables as HTML)",
                       (".json",), ("structure",), native_frame="page", extracted_by="MinerU"),
    "unstructured": _declare("unstructured", "unstructured", "Unstructured elements JSON (text_as_html, "
                             "table_as_cells) and its table ground truth", (".json",), ("structure",),
                             native_frame="image", extracted_by="Unstructured"),
    "unstructured_eval": _declare("unstructured_eval", "unstructured-eval", "Unstructured elements JSON as "
                                  "Unstructured's table evaluation reads it (text_as_html as its parser places the "
                                  "cells, the ground truth's cell lists); chosen by name", (".json",), ("structure",),
                                  reads_files_of=("unstructured",)),
    "marker": _declare("marker", "marker", "Marker JSON and chunks output (Table blocks' HTML, TableCell boxes)",
                       (".json",), ("structure",), native_frame="pdf", extracted_by="Marker"),
    "paddleocr": _declare("paddleocr", "paddleocr", "PaddleOCR PP-Structure table results (pred_html, "
                          "cell_box_list)", (".json",), ("structure",), native_frame="image",
                          extracted_by="PaddleOCR"),
    "dpbench": _declare("dpbench", "dpbench", "DP-Bench ground truth and predictions: {PDF name: {elements}} "
                        "(Upstage elements)", (".json",), ("structure",), native_frame="page", container=True),
    "upstage": _declare("upstage", "upstage", "Upstage Document Parse response JSON (elements of category table, "
                        "content.html)", (".json",), ("structure",), native_frame="page",
                        extracted_by="Upstage Document Parse"),
    "llamaparse": _declare("llamaparse", "llamaparse", "LlamaParse JSON result (items of type table: html, rows, "
                           "bBox)", (".json",), ("structure",), native_frame="pdf",
                           extracted_by="LlamaParse"),
}
"""The declarations by the module that implements each (``registry.FORMAT_MODULES``' names)."""
