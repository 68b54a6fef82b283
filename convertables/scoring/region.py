"""The ICDAR 2013 region metric: completeness and purity, with character-level
precision and recall (docs/scoring.md, `--metric region`).

The items are the page's character elements: extracted from the PDF
(:mod:`convertables.pdf`) or, for Marmot input, its ``Char`` leaves. An item
belongs to a region when its centre lies inside the region's box.

* Each ground-truth region, in document order, is paired with the unused
  result region on the same page that shares the most items (more than 0); on
  a tie, the one with fewer items. (The official tool then removes the *first*
  tied region from the pool instead of the chosen one; convertables removes
  the chosen one, and says so in the report.)
* Per pair: ground-truth items, correct items, result items; complete = every
  ground-truth item is in the result region; pure = every result item is in the
  ground-truth region. Unpaired result regions are false positives with their
  items.
* Per document: character recall = correct / ground-truth items, precision =
  correct / result items (false positives included); averaged over documents.
  Complete and pure regions are counted over the dataset.
* ``variant="area"`` (the paper's proposed improvement): each region is first
  shrunk to the smallest box enclosing its items; each pair is then measured by
  area: recall = overlap / ground-truth area, precision = overlap / result area,
  complete and pure when the overlap is the whole of either.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where it is used: the other metrics never load it
    import numpy as np

from pathlib import Path
from typing import Iterator, Mapping

from ..diagnostics import Diagnostic, InputError, Severity, UsageError
from ..geometry import envelope
from ..model import BBox, Document, Frame, Region
from .precision_recall import document_mean, scores
from .declarations import REGION_SETTINGS
from .metric import Metric, Scored, ScoreSettings, page_needed
from .presentation import Summary, count_csv_rows, count_summary


@dataclass
class PageItems:
    """The centres (and boxes) of one page's items, as arrays."""

    centres: np.ndarray  # shape (n, 2)
    boxes: np.ndarray    # shape (n, 4): x1, y1, x2, y2
    size: tuple[float, float] | None = None
    """The page's width and height in points, where known."""

    @classmethod
    def from_boxes(cls, boxes: list[tuple[float, float, float, float]],
                   size: tuple[float, float] | None = None) -> "PageItems":
        import numpy as np

        array = np.array(boxes, dtype=float).reshape(-1, 4)
        centres = np.column_stack(((array[:, 0] + array[:, 2]) / 2, (array[:, 1] + array[:, 3]) / 2))
        return cls(centres, array, size)

    def inside(self, box: BBox) -> np.ndarray:
        c = self.centres
        return (c[:, 0] >= box.x1) & (c[:, 0] <= box.x2) & (c[:, 1] >= box.y1) & (c[:, 1] <= box.y2)


def region_box(region: Region) -> BBox | None:
    if region.bbox is not None:
        return region.bbox
    boxes = [c.bbox for c in region.cells if c.bbox is not None]
    try:
        return envelope(boxes)
    except ValueError:
        return None


@dataclass
class _Located:
    """A table region on its page, and the page's items it holds."""

    table_id: int
    region_id: int
    page: int
    box: BBox | None
    items: np.ndarray  # boolean mask over the page's items
    count: int


def _locate(doc: Document, pages: dict[int, PageItems]) -> tuple[list[_Located], list[str]]:
    import numpy as np

    out, notes = [], []
    for table in doc.tables:
        for region in table.regions:
            box = region_box(region)
            page = pages.get(region.page)
            if page is None:
                notes.append(f"table {table.id}, region {region.id}: page {region.page} does not exist")
                mask = np.zeros(0, dtype=bool)
            elif box is None:
                notes.append(f"table {table.id}, region {region.id}: no box")
                mask = np.zeros(len(page.centres), dtype=bool)
            else:
                mask = page.inside(box)
            located = _Located(table.id, region.id, region.page, box, mask, int(mask.sum()))
            if page is not None and box is not None and located.count == 0:
                notes.append(f"table {table.id}, region {region.id}: no items inside")
            out.append(located)
    return out, notes


def _page_findings(doc: Document, pages: dict[int, PageItems], whose: str, file: str | None) -> list[Diagnostic]:
    """Regions on pages the PDF does not have, on which the official tool fails (an
    error); for a result, boxes that lie mostly off their pages (a warning)."""
    found = []
    off = placed = 0
    missing = []
    for table in doc.tables:
        for region in table.regions:
            page = pages.get(region.page)
            if page is None:
                missing.append((table.id, region.id, region.page))
                continue
            box = region_box(region)
            if box is None or page.size is None:
                continue
            placed += 1
            off += _mostly_off(box, page.size)
    if missing:
        table_id, region_id, number = missing[0]
        found.append(Diagnostic(
            "page-missing", Severity.ERROR, f"{len(missing)} {whose} region(s) on pages the PDF does not have (the "
            f"first: table {table_id}, region {region_id}, on page {number}; the PDF has pages 1 to {len(pages)}): "
            "they hold no items here; the official tool fails on them", file))
    if off and off * 2 > placed and whose == "result":
        found.append(Diagnostic(
            "boxes-off-page", Severity.WARNING, f"{off} of the result's {placed} region boxes lie mostly off their "
            "pages: they hold few items or none", file,
            hint="boxes in another frame? ICDAR 2013 wants PDF points, origin bottom-left (convertables check "
                 "--pdf-dir says more)"))
    return found


def _mostly_off(box: BBox, size: tuple[float, float]) -> bool:
    """Whether less than half of the box lies on the page (for a box without area: its centre off it)."""
    width, height = size
    area = _area((box.x1, box.y1, box.x2, box.y2))
    inside = _area((max(box.x1, 0.0), max(box.y1, 0.0), min(box.x2, width), min(box.y2, height)))
    if area > 0:
        return inside * 2 < area
    x, y = (box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2
    return not (0 <= x <= width and 0 <= y <= height)


def _boxes_from_cells(doc: Document) -> list[Diagnostic]:
    """Result regions without a box of their own (a structure file as a region result)."""
    taken = [(table.id, region.id) for table in doc.tables for region in table.regions
             if region.bbox is None and any(c.bbox is not None for c in region.cells)]
    if not taken:
        return []
    table_id, region_id = taken[0]
    return [Diagnostic(
        "region-box-from-cells", Severity.ERROR, f"{len(taken)} result region(s) (the first: table {table_id}, "
        f"region {region_id}) have no box of their own: each is scored with the envelope of its cells' boxes, where "
        "the official tool takes its first cell's box; the figures are not the official tool's", None,
        hint="write the region model: convertables convert FILE --to icdar --model region -o FILE-reg-result.xml")]


def _in_points(gt: Document, result: Document | None, pages: dict[int, PageItems],
               gt_file: Path | None) -> tuple[Document, Document | None]:
    """Both documents with their boxes in PDF points, the items' frame (fractions of
    the page converted with the PDF's page sizes, pixels where a document gives the
    DPI); an InputError (``frames-incomparable``) where some box cannot be: the
    document is not scored, rather than scored on boxes that lie elsewhere."""
    from ..geometry import FramesIncomparable, in_one_frame

    sizes = {number: page.size for number, page in pages.items() if page.size is not None}
    try:
        return in_one_frame(gt, result or Document(), Frame.PDF, sizes) if result is not None else \
            (in_one_frame(gt, Document(), Frame.PDF, sizes)[0], None)
    except FramesIncomparable as exc:
        raise InputError(Diagnostic("frames-incomparable", Severity.ERROR, f"not scored: {exc}",
                                    str(gt_file) if gt_file else None)) from None


_FIGURES = ("gt", "correct", "detected", "complete", "pure")


def _official_ties(gt: Document, result: Document, pages: dict[int, PageItems], variant: str,
                   scored: dict) -> list[Diagnostic]:
    """Where a tie made the official tool leave another region in the pool than the
    one paired, and its figures come out otherwise: an error saying them."""
    official = score_document(gt, result, pages, variant, official_pool=True)
    if all(official[k] == scored[k] for k in _FIGURES):
        return []
    said = ", ".join(f"{k} {official[k]:g}" if isinstance(official[k], float) else f"{k} {official[k]}"
                     for k in _FIGURES)
    return [Diagnostic(
        "region-tie", Severity.ERROR, "a ground-truth region shares as many items with two result regions: each "
        "region is paired once here, where the official tool takes the first tied region out of the pool and may "
        f"pair the chosen one again; its figures would be {said}", None)]


def _area(box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _shrunk(located: _Located, pages: dict[int, PageItems]):
    if located.count == 0:
        return None
    boxes = pages[located.page].boxes[located.items]
    return (boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max())


def score_document(gt: Document, result: Document, pages: dict[int, PageItems], variant: str = "chars",
                   official_pool: bool = False) -> dict:
    """The document's records and figures. ``official_pool``: on a tie, the first
    tied region leaves the pool rather than the one chosen, as the official tool
    does (the chosen one may then be paired again). ``ties`` counts the ties where
    the two differ."""
    gts, gt_notes = _locate(gt, pages)
    results, result_notes = _locate(result, pages)
    pool = list(range(len(results)))
    records = []
    ties = 0
    for g in gts:
        best, best_shared = None, 0
        first_with: dict[int, int] = {}  # shared items -> the first region of the pool sharing that many
        for j in pool:
            r = results[j]
            if r.page != g.page or len(r.items) != len(g.items):
                continue
            shared = int((g.items & r.items).sum())
            first_with.setdefault(shared, j)
            if shared > best_shared or (shared == best_shared and shared > 0 and r.count < results[best].count):
                best, best_shared = j, shared
        record = {"gt_table": g.table_id, "gt_region": g.region_id, "result_table": None, "result_region": None,
                  "page": g.page, "gt_items": g.count, "correct_items": 0, "result_items": 0,
                  "complete": False, "pure": None}
        a = _shrunk(g, pages) if variant == "area" else None
        if variant == "area":  # an unpaired region's area counts against recall
            record.update(gt_area=_area(a) if a else 0.0, overlap_area=0.0, result_area=0.0)
        if best is not None:
            leaving = first_with[best_shared]
            ties += leaving != best
            pool.remove(leaving if official_pool else best)
            r = results[best]
            record.update(result_table=r.table_id, result_region=r.region_id, correct_items=best_shared,
                          result_items=r.count, complete=best_shared == g.count, pure=best_shared == r.count)
            if variant == "area":
                b = _shrunk(r, pages)
                overlap = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])) if a and b else None
                inter = _area(overlap) if overlap else 0.0
                record.update(overlap_area=inter, result_area=_area(b) if b else 0.0)
                record["complete"] = bool(a) and inter >= record["gt_area"]
                record["pure"] = bool(b) and inter >= record["result_area"]
        records.append(record)
    false_positives = [
        {"gt_table": None, "gt_region": None, "result_table": results[j].table_id,
         "result_region": results[j].region_id, "page": results[j].page, "gt_items": 0, "correct_items": 0,
         "result_items": results[j].count, "complete": None, "pure": None}
        for j in pool
    ]
    all_records = records + false_positives
    if variant == "area":
        for j, fp in zip(pool, false_positives):
            shrunk = _shrunk(results[j], pages)
            fp.update(gt_area=0.0, overlap_area=0.0, result_area=_area(shrunk) if shrunk else 0.0)
        gt_total = sum(r["gt_area"] for r in records)
        correct = sum(r.get("overlap_area", 0.0) for r in all_records)
        detected = sum(r.get("result_area", 0.0) for r in all_records)
    else:
        gt_total = sum(r["gt_items"] for r in records)
        correct = sum(r["correct_items"] for r in all_records)
        detected = sum(r["result_items"] for r in all_records)
    return {
        "regions": all_records,
        "gt": gt_total, "correct": correct, "detected": detected, **scores(gt_total, correct, detected),
        "complete": sum(1 for r in records if r["complete"]),
        "pure": sum(1 for r in records if r["pure"]),
        "gt_regions": len(records), "result_regions": len(results),
        "notes": gt_notes + [f"result: {n}" for n in result_notes], "ties": ties,
    }


MAX_SKETCHED_ITEMS = 20_000
"""At most this many items of a page are drawn in the HTML report."""


def _flag(masks: dict, page: int, k: int) -> bool:
    mask = masks.get(page)
    return mask is not None and bool(mask[k])


# -- the metric, as the runner calls it ----------------------------------------------------------

class RegionMetric(Metric):
    """ICDAR 2013 region completeness and purity, character precision and recall."""

    name = "region"
    gt_model = "region"
    variants = ("chars", "area")
    settings = REGION_SETTINGS

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        return True  # ICDAR 2013's a/b ground truths of one PDF

    def check(self, settings: ScoreSettings) -> None:
        if settings.pdf_dir is not None and not Path(settings.pdf_dir).is_dir():
            raise UsageError(f"{settings.pdf_dir}: --pdf-dir needs a folder")

    def describe(self, settings: ScoreSettings) -> dict:
        area = settings.variant == "area"
        return {
            "variant": "area" if area else "chars",
            "normalisation": "items: the PDF's character elements (or Marmot Char leaves), by their centres",
            "aggregation": (
                "regions paired by shared items (ties: fewer items; the chosen region leaves the pool, unlike "
                "the official tool); per document "
                + ("area precision and recall of the item-shrunk boxes" if area else
                   "character precision and recall")
                + ", averaged over documents (document_mean); complete and pure regions counted over the dataset"
            ),
        }

    def _pages(self, gt: Document, gt_file: Path | None, settings: ScoreSettings) -> dict:
        from ..pdf import read_pdf
        from .pairing import find_pdf

        with_items = {p.number: p for p in gt.pages if p.items}
        if with_items:
            return {n: PageItems.from_boxes([(i.bbox.x1, i.bbox.y1, i.bbox.x2, i.bbox.y2) for i in p.items],
                                            (p.width, p.height) if p.width and p.height and p.frame is Frame.PDF
                                            else None)
                    for n, p in with_items.items()}
        if settings.pdf_dir is None:
            raise UsageError("the region metric needs the PDFs: pass --pdf-dir (Marmot input needs none)")
        pdf = find_pdf(gt_file, gt.filename, Path(settings.pdf_dir)) if gt_file else None
        if pdf is None:
            raise InputError(Diagnostic("pdf-missing", Severity.ERROR,
                                        f"no PDF for this document in {settings.pdf_dir}", str(gt_file)))
        pages = read_pdf(pdf)
        return {n: PageItems.from_boxes([(c.x0, c.y0, c.x1, c.y1) for c in chars], pages.sizes[n - 1])
                for n, chars in pages.chars.items()}

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        pages = self._pages(gt, gt_file, settings)
        gt, result = _in_points(gt, result, pages, gt_file)
        scored = Scored(score_document(gt, result or Document(), pages, settings.variant or "chars"))
        scored["tables"] = scored.pop("regions")
        scored.findings = _page_findings(gt, pages, "ground-truth", str(gt_file) if gt_file else None)
        if scored.pop("ties"):
            scored.findings += _official_ties(gt, result or Document(), pages, settings.variant or "chars", scored)
        if result is not None:  # (the result's file is the document's: the runner names it)
            scored.findings += [*_page_findings(result, pages, "result", None), *_boxes_from_cells(result)]
        return scored

    def reading_findings(self, findings: list[Diagnostic], settings: ScoreSettings) -> list[Diagnostic]:
        """A region without a page, on which the official tool fails, is an error; one on
        page 0 or less is the metric's own error (the PDF has no such page)."""
        return page_needed(findings, drop=("page-below-one",))

    def _page_sizes(self, gt: Document, gt_file: Path | None, settings: ScoreSettings) -> dict:
        """The pages' sizes: the document's own, or its PDF's (read once: :func:`..pdf.read_pdf` keeps it)."""
        from .explain import page_sizes

        sizes = page_sizes(gt)
        if sizes or settings.pdf_dir is None or gt_file is None:
            return sizes
        from ..pdf import read_pdf
        from .pairing import find_pdf

        pdf = find_pdf(gt_file, gt.filename, Path(settings.pdf_dir))
        return {n: size for n, size in enumerate(read_pdf(pdf).sizes, 1)} if pdf else {}

    def explain(self, gt: Document, result: Document | None, settings: ScoreSettings, record: dict | None = None,
                gt_file: Path | None = None) -> dict:
        """The regions on their pages, paired or not, complete and pure or not,
        and the items: found (in a region and its partner), missed, false."""
        from .explain import sketch_pages

        pages = self._pages(gt, gt_file, settings)
        gt, result = _in_points(gt, result, pages, gt_file)
        result = result or Document()
        scored = score_document(gt, result, pages, settings.variant or "chars")
        gts, _ = _locate(gt, pages)
        results, _ = _locate(result, pages)
        by_gt = {(g.table_id, g.region_id): g for g in gts}
        by_result = {(r.table_id, r.region_id): r for r in results}
        boxes, pairs = [], []
        in_gt, in_result, found = {}, {}, {}  # page -> item masks

        def add(masks: dict, page: int, mask) -> None:
            if len(mask):
                masks[page] = masks[page] | mask if page in masks else mask

        for entry in scored["regions"]:
            g = by_gt.get((entry["gt_table"], entry["gt_region"]))
            r = by_result.get((entry["result_table"], entry["result_region"]))
            outcome = ("N" if g is None or r is None else "A" if entry["complete"] and entry["pure"] else "S")
            if g is not None:
                add(in_gt, g.page, g.items)
                if g.box is not None:
                    boxes.append((g.page, g.box, "gt", f"ground truth {g.table_id}.{g.region_id}: {g.count} items, "
                                  f"{entry['correct_items']} found", outcome))
            if r is not None:
                add(in_result, r.page, r.items)
                if r.box is not None:
                    boxes.append((r.page, r.box, "result", f"result {r.table_id}.{r.region_id}: {r.count} items, "
                                  f"{entry['correct_items']} right", outcome))
            if g is not None and r is not None and len(g.items) == len(r.items):
                add(found, g.page, g.items & r.items)
            pairs.append({"gt": None, "result": None, "scores": dict(entry), "counted": True})
        frame = next((b[1].frame for b in boxes), Frame.PDF)
        items = {}
        for number in sorted({*in_gt, *in_result}):
            page, kinds = pages[number], []
            claimed = in_gt[number] | in_result[number] if number in in_gt and number in in_result else \
                in_gt.get(number, in_result.get(number))
            for k in claimed.nonzero()[0][:MAX_SKETCHED_ITEMS]:
                x1, y1, x2, y2 = page.boxes[k]
                cls = "A" if _flag(found, number, k) else "N" if _flag(in_gt, number, k) else "F"
                kinds.append((BBox(float(x1), float(y1), float(x2), float(y2), frame), cls))
            items[number] = kinds
        return {"kind": "regions", "levels": [], "pairs": pairs,
                "pages": sketch_pages(boxes, self._page_sizes(gt, gt_file, settings), items),
                "notes": scored["notes"]}

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        totals = {k: sum(r[k] for r in records) for k in ("gt", "correct", "detected")}
        counts = {k: sum(r[k] for r in records) for k in ("complete", "pure", "gt_regions", "result_regions")}
        return {
            "total": {**totals, **scores(**totals), **counts, "documents": len(records)},
            "document_mean": document_mean(records),
        }

    def summary(self, report: Mapping) -> Summary:
        return count_summary(report)

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        return count_csv_rows(report)


METRICS = (RegionMetric(),)
