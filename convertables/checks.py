"""Pre-flight checks (README, "Checking submissions"): is a submission, or a ground truth, well-formed?

Layers, for each file:

1. it parses (XML through the safe parser; every other format through its reader);
2. it meets its format's own schema, where the format declares one
   (``Format.validate``: ICDAR 2013 XML our XSD of the region or the structure
   model, by content or ``model``; canonical JSON its JSON Schema);
3. the reader's own findings (bad numbers, inverted boxes, unknown attributes,
   cells that share a slot...), with file and line;
4. rules on the document: cells inside their region's box, boxes inside the
   page and pages that exist (with the PDFs at hand), coordinates that look like
   another frame, file names that say the model (formats whose names do), empty contents;
5. with a ground-truth folder: every ground-truth document has a result and
   every result a ground truth, and result boxes lie where the ground truth's do.

Findings are :class:`~convertables.diagnostics.Diagnostic` values; their codes
are documented in ``docs/diagnostics.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from . import containers, files, inputs
from .containers import MemberRef
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError, internal_error
from .grid import validate_document
from .inputs import model_of
from .model import Document, Frame
from .options import ReadOptions
from .reading import read_source
from .registry import Format

TOLERANCE_PT = 2.0
"""How far (in points) a box may stick out of its region or page before it is reported."""

# Reader findings that weigh more in a submission than where the reader reports them
# (a page of 0 or less: the official region tool fails on it, and the official structure
# tool pairs its tables with no ground truth's, which numbers pages from 1).
_ESCALATE = {"slot-overlap": Severity.ERROR, "duplicate-id": Severity.WARNING, "missing-attribute": Severity.WARNING,
             "page-below-one": Severity.ERROR, "no-page": Severity.WARNING}
_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@dataclass(frozen=True)
class CheckOptions:
    """What `check` looks at beyond the file itself: the model expected, the PDFs, the ground truth."""

    model: str | None = None
    pdf_dir: Path | None = None
    gt: Path | None = None


def _finding(code: str, severity: Severity, message: str, file: Path | str, line: int | None = None,
             hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, severity, message, str(file), line, None, hint)


def check_file(path: Path | MemberRef,
               options: CheckOptions = CheckOptions()) -> tuple[list[Diagnostic], Document | None]:
    """Every finding for one file (or one document of a container), and its
    document (None when it cannot be read)."""
    diagnostics = Diagnostics(files.display_name(containers.file_of(path)))
    try:
        if isinstance(path, MemberRef):
            return _check_member(path, options, diagnostics)
        return _check_file(path, options, diagnostics)
    except MemoryError:
        pass
    except Exception as exc:  # a bug of ours: one line for this file, the others are still checked
        diagnostics.items.append(internal_error(exc, diagnostics.file))
        return diagnostics.items, None
    # Only an exhausted memory comes here, said outside the handler (whose traceback holds what was read).
    diagnostics.error("too-large", "out of memory: the file needs more memory than is available")
    return diagnostics.items, None


def _check_file(path: Path, options: CheckOptions, diagnostics: Diagnostics) -> tuple[list[Diagnostic], Document | None]:
    formats: list[Format] = []

    def validate(data: bytes, fmt: Format, diagnostics: Diagnostics) -> None:  # against the format's own schema
        formats.append(fmt)
        if fmt.validate is not None:
            fmt.validate(data, diagnostics, options.model)

    try:
        doc = read_source(path, None, ReadOptions(), diagnostics, inspect=validate)
        fmt = formats[0]
    except InputError as exc:
        diagnostics.items.append(exc.diagnostic)
        return _escalated(diagnostics.items), None
    except UsageError as exc:
        diagnostics.error("format-unavailable", str(exc))
        return diagnostics.items, None
    escalate = _ESCALATE
    if fmt.names_say_model and path != files.STDIN:
        _name_rules(path, doc, diagnostics)
        if model_of(path) is not None:  # named as an ICDAR 2013 submission: the official tool fails on no page
            escalate = {**_ESCALATE, "no-page": Severity.ERROR}
    _document_rules(path, doc, options, diagnostics)
    return _escalated(diagnostics.items, escalate), doc


def _check_member(ref: MemberRef, options: CheckOptions,
                  diagnostics: Diagnostics) -> tuple[list[Diagnostic], Document | None]:
    """One record of a container, read alone: its findings at its line there."""
    try:
        doc = read_source(ref, None, ReadOptions(), diagnostics)
    except InputError as exc:
        diagnostics.items.append(exc.diagnostic)
        return _escalated(diagnostics.items), None
    rules = Diagnostics(diagnostics.file)
    _document_rules(ref, doc, options, rules)
    diagnostics.items.extend(replace(d, line=d.line or ref.line) for d in rules.items)
    return _escalated(diagnostics.items), doc


def _escalated(items: list[Diagnostic], escalate: dict[str, Severity] = _ESCALATE) -> list[Diagnostic]:
    out = []
    for d in items:
        severity = escalate.get(d.code)
        raise_it = severity is not None and _RANK[severity] > _RANK[d.severity]  # raised, never lowered
        out.append(replace(d, severity=severity) if raise_it else d)
    return out


LARGEST_COMMON_PAGE = 1224.0
"""The long side of a tabloid (11 x 17 in) page in points; A3 is 1191."""


def _frame_rules(boxes: list, with_pdf: bool, diagnostics: Diagnostics) -> None:
    """Coordinates that look like another frame than PDF points (one warning per file)."""
    if not boxes:
        return
    below = sum(1 for b in boxes if b.y2 < -TOLERANCE_PT)
    if below * 2 > len(boxes):
        diagnostics.warning(
            "frame-flipped", f"{below} of {len(boxes)} boxes lie below y = 0: y seems measured downwards",
            hint="ICDAR 2013 wants PDF points, origin bottom-left: y = page height - y_top",
        )
    elif not with_pdf and max(max(b.x2, b.y2) for b in boxes) > 1.1 * LARGEST_COMMON_PAGE:
        diagnostics.warning(
            "frame-pixels", f"boxes reach {max(max(b.x2, b.y2) for b in boxes):g}, beyond any common page size "
                            "in points: image pixels?",
            hint="if they are pixels, origin top-left: convertables convert FILE --box-frame image --dpi DPI "
                 "--page-height POINTS --to icdar -o FIXED-str.xml (or --pdf / --image for the sizes)",
        )
    elif any(min(b.x1, b.y1) < -TOLERANCE_PT for b in boxes):
        diagnostics.warning(
            "frame-suspect", "negative coordinates: these boxes look like another frame than PDF points "
                             "(origin bottom-left)", hint="convert with --dpi and --page-height, or check the y axis",
        )


def _name_rules(path: Path, doc: Document, diagnostics: Diagnostics) -> None:
    named = model_of(path)
    actual = "structure" if doc.has_cells else "region"
    if named is None:  # (score pairs <doc>.xml alike: only a note)
        diagnostics.info(
            "file-name", f"the name does not say the model; the competition named a {actual} file <doc>-"
                         f"{'str' if actual == 'structure' else 'reg'}-result.xml (score pairs this name too)",
        )
    elif named == "region" and actual == "structure" and doc.tables:
        diagnostics.error("file-name", "the name says region model, the content is the structure model: the "
                                       "official tool takes the first bounding-box under each region (its first "
                                       "cell's) for the region's", hint="write the region model: convertables "
                                       "convert FILE --to icdar --model region -o FILE-reg-result.xml")
    elif named != actual and doc.tables:
        diagnostics.warning("file-name", f"the name says {named} model, the content is the {actual} model")


def _boxes(doc: Document):
    for table in doc.tables:
        for region in table.regions:
            if region.bbox is not None:
                yield table, region, region.bbox, None
            for cell in region.cells:
                if cell.bbox is not None:
                    yield table, region, cell.bbox, cell


def _document_rules(path: Path, doc: Document, options: CheckOptions, diagnostics: Diagnostics) -> None:
    pdf_boxes = [b for _, _, b, _ in _boxes(doc) if b.frame is Frame.PDF]
    _frame_rules(pdf_boxes, options.pdf_dir is not None, diagnostics)
    for table in doc.tables:
        for region in table.regions:
            where = f"table {table.id}, region {region.id}"
            empty = sum(1 for c in region.cells if c.content is not None and not c.content.strip())
            if empty:
                diagnostics.warning("empty-content", f"{where}: {empty} cell(s) with empty content "
                                                     "(the structure metric ignores them)")
            if region.bbox is None:
                continue
            outside = [c for c in region.cells if c.bbox is not None and c.bbox.frame is region.bbox.frame and (
                c.bbox.x1 < region.bbox.x1 - TOLERANCE_PT or c.bbox.y1 < region.bbox.y1 - TOLERANCE_PT
                or c.bbox.x2 > region.bbox.x2 + TOLERANCE_PT or c.bbox.y2 > region.bbox.y2 + TOLERANCE_PT)]
            if outside:
                diagnostics.warning("cell-outside-region", f"{where}: {len(outside)} cell box(es) reach outside "
                                                           f"the region's box by more than {TOLERANCE_PT:g}")
    if options.pdf_dir is not None and pdf_boxes:
        _page_rules(path, doc, options.pdf_dir, diagnostics)


def _page_rules(path: Path, doc: Document, pdf_dir: Path, diagnostics: Diagnostics) -> None:
    from .pdf import page_sizes

    from .scoring.pairing import find_pdf

    pdf = find_pdf(path, doc.filename, pdf_dir)
    if pdf is None:
        diagnostics.info("pdf-missing", f"no PDF for this document in {pdf_dir}; page checks skipped")
        return
    try:
        sizes = page_sizes(pdf)
    except InputError as exc:
        diagnostics.items.append(exc.diagnostic)
        return
    reported: set[tuple] = set()
    for table, region, box, _cell in _boxes(doc):
        if box.frame is not Frame.PDF:
            continue
        if region.page < 1:
            continue  # (the reader said: page-below-one)
        if region.page > len(sizes):
            if ("page", region.page) not in reported:
                reported.add(("page", region.page))
                diagnostics.error("page-missing", f"table {table.id} is on page {region.page}; {pdf.name} has "
                                                  f"{len(sizes)} page(s)")
            continue
        width, height = sizes[region.page - 1]
        if (box.x1 < -TOLERANCE_PT or box.y1 < -TOLERANCE_PT or box.x2 > width + TOLERANCE_PT
                or box.y2 > height + TOLERANCE_PT) and ("box", table.id) not in reported:
            reported.add(("box", table.id))
            diagnostics.warning(
                "box-outside-page", f"table {table.id} has boxes outside page {region.page} "
                                    f"({width:g} x {height:g} pt)",
                hint="image pixels or a flipped y axis instead of PDF points?",
            )


# -- many files, and pairing with ground truth -------------------------------------------------

def check_document(doc: Document, options: CheckOptions = CheckOptions(), name: str = "<document>") -> list[Diagnostic]:
    """The findings of the rules on a document already in memory (there is no
    file to validate or read)."""
    diagnostics = Diagnostics(name)
    validate_document(doc, diagnostics, duplicate_ids=Severity.WARNING)
    _document_rules(Path(name), doc, options, diagnostics)
    return _escalated(diagnostics.items)


def check_paths(paths: list[Path], options: CheckOptions = CheckOptions(),
                on_file: Callable[[int, int], None] | None = None) -> list[Diagnostic]:
    """The findings of every file (``on_file(done, total)`` called as each is checked)."""
    findings: list[Diagnostic] = []
    checked = inputs.collect(paths).paths()  # a container's documents, each checked alone
    documents: dict[Path | MemberRef, Document] = {}
    for done, path in enumerate(checked, 1):
        file_findings, doc = check_file(path, options)
        if on_file is not None:
            on_file(done, len(checked))
        findings.extend(file_findings)
        if doc is not None and options.gt is not None:  # (kept for the pairing only)
            documents[path] = doc
    if options.gt is not None:
        findings.extend(_pairing_rules(checked, documents, options.gt))
    return findings


_PUBMED_NAME = re.compile(r"PMC[0-9]+")


def _pairing_rules(results: list[Path], documents: dict[Path, Document], gt: Path) -> list[Diagnostic]:
    from .scoring.pairing import document_key, pair

    if not gt.exists():
        raise UsageError(f"{gt}: no such file or folder (--gt)")
    gt_files = inputs.collect([gt]).paths()
    # two files of a document each: each other's, whatever their names (as score takes them)
    if gt.is_file() and len(results) == 1 and len(gt_files) == 1:
        gt_doc = _read_or_none(gt_files[0])
        found = documents.get(results[0])
        return _frame_against_gt(results[0], found, gt_doc) if gt_doc is not None and found is not None else []
    out = []
    for model in ("structure", "region"):
        gts = [p for p in gt_files if model_of(p) in (model, None)]
        res = [p for p in results if model_of(p) in (model, None)]
        if not gts or not res:
            continue
        # eu-009a/eu-009b as alternatives of one PDF is ICDAR 2013's convention, whose names say the model;
        # results PMC1_1, PMC1_2 as variants of PMC1's is the biomedical benchmark's, whose files are PMC ids
        pairing = pair(gts, res, alternatives=any(model_of(p) is not None for p in gts),
                       result_variants=all(_PUBMED_NAME.fullmatch(document_key(p)) for p in gts))
        for path in pairing.unpaired_gt:
            out.append(_finding("gt-without-result", Severity.ERROR,
                                f"no result for this ground truth ({model} model)", path))
        for path in pairing.unpaired_results:
            out.append(_finding("result-without-gt", Severity.WARNING,
                                f"no ground truth for this result ({model} model)", path))
        for p in pairing.pairs:
            compared: dict[Path, Path] = {}  # each result against its first ground truth
            for gt_file, result_file in zip(p.gt_files, p.result_files):
                if result_file in documents:
                    compared.setdefault(result_file, gt_file)
            gt_docs: dict[Path, Document | None] = {}
            for result_file, gt_file in compared.items():
                if gt_file not in gt_docs:
                    gt_docs[gt_file] = _read_or_none(gt_file)
                if gt_docs[gt_file] is not None:
                    out.extend(_frame_against_gt(result_file, documents[result_file], gt_docs[gt_file]))
    return out


def _read_or_none(path: Path | MemberRef) -> Document | None:
    try:
        return read_source(path)
    except InputError:
        return None


def _frame_against_gt(path: Path, result: Document, gt: Document) -> list[Diagnostic]:
    """Result boxes far from every ground-truth box on their page: another frame?"""
    from .geometry import envelope

    def page_envelopes(doc: Document) -> dict[int, object]:
        pages: dict[int, list] = {}
        for _, region, box, _ in _boxes(doc):
            if box.frame is Frame.PDF:
                pages.setdefault(region.page, []).append(box)
        return {page: envelope(boxes) for page, boxes in pages.items()}

    gt_pages, result_pages = page_envelopes(gt), page_envelopes(result)
    for page, box in result_pages.items():
        target = gt_pages.get(page)
        if target is None:
            continue
        if box.x2 < target.x1 or box.x1 > target.x2 or box.y2 < target.y1 or box.y1 > target.y2:
            return [_finding(
                "frame-mismatch", Severity.WARNING,
                f"on page {page} the result's boxes ({box.x1:g},{box.y1:g})-({box.x2:g},{box.y2:g}) do not "
                f"overlap the ground truth's ({target.x1:g},{target.y1:g})-({target.x2:g},{target.y2:g})",
                path, hint="another coordinate frame? (PDF points, origin bottom-left)",
            )]
    return []
