"""Running a metric over a corpus: pair documents, score each, aggregate.

Documents are scored independently (in worker processes with ``jobs > 1``),
each into a plain, JSON-ready record; the aggregate is computed from the
records alone.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from .. import files, registry
from ..diagnostics import Diagnostic, InputError, Severity, UsageError
from ..model import Document
from ..options import ReadOptions
from . import ctdar, marmot, region, structure
from .pairing import DocumentPair, Pairing, collect, document_key, pair
from .figures import document_mean, scores
from ..geometry import GeometryFailed
from .structure import TableTooLarge


@dataclass(frozen=True)
class ScoreSettings:
    """How to score: the metric and its variant, text normalisation, pairing and compatibility."""

    metric: str = "structure"
    variant: str | None = None
    """``structure``: ``icdar2013`` (default) or ``pubmed``."""
    normalise: str = "default"
    ignore_page: bool = False
    compat: bool = False
    matching: str = "greedy"
    """cTDaR: ``greedy`` (the official rule) or ``optimal``."""
    pdf_dir: str | None = None
    """region metric: the folder of the documents' PDFs (their characters are the items)."""
    penalties: str | None = None
    """marmot metric: a JSON file overriding the default penalty scores and threshold."""
    result_format: str | None = None
    single_variant: bool = False
    """``--variant pubmed``: score only each document's own result file, not its
    variants (``PMC1_1.xml``...), as the benchmark's ``--single_variant`` does."""
    table_classes: str | None = None
    """``--variant pubmed``: the benchmark's table classes file (``mavo_table_classes.csv``);
    only the ground-truth tables it lists in ``complexity`` count (a subset-level evaluation)."""
    complexity: tuple[int, ...] | None = None
    """The classes of ``table_classes`` that count (None: every class listed)."""
    ignore_fp: bool = False
    """``--variant pubmed``: result tables paired with no ground-truth table do not count."""


class Metric:
    """What every metric answers the runner; the defaults are most metrics'."""

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        """Whether ground truths named ``eu-009a``/``eu-009b`` are alternatives of one PDF."""
        return False

    def has_result_variants(self, settings: ScoreSettings) -> bool:
        """Whether results named ``PMC1_1``, ``PMC1_2`` are variants of ``PMC1``'s."""
        return False

    def preference(self, record: dict, settings: ScoreSettings) -> tuple:
        """Of a document's candidates (alternatives, variants), the one with the
        greatest preference is kept (the first on ties)."""
        return (record["f1"],)

    def check_pairing(self, pairing: Pairing, settings: ScoreSettings) -> None:
        """Refuse (UsageError) settings that cannot apply to these documents."""


# -- the structure metric ----------------------------------------------------------------

class StructureMetric(Metric):
    name = "structure"
    gt_model = "structure"
    variants = ("icdar2013", "pubmed")

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        """ICDAR 2013's a/b ground truths of one PDF (the biomedical benchmark pairs names as they are)."""
        return settings.variant != "pubmed"

    def has_result_variants(self, settings: ScoreSettings) -> bool:
        """The biomedical benchmark's result variants, unless ``single_variant``."""
        return settings.variant == "pubmed" and not settings.single_variant

    def preference(self, record: dict, settings: ScoreSettings) -> tuple:
        if settings.variant == "pubmed":
            return structure.pubmed_preference(record["gt"], record["correct"], record["detected"])
        return (record["f1"],)

    def check(self, settings: ScoreSettings) -> None:
        self.check_matching(settings)
        if settings.variant not in (None, *self.variants):
            raise UsageError(f"--variant for structure is icdar2013 or pubmed, not {settings.variant!r}")
        if settings.normalise not in ("default", "ignorechars", "ignorechars2"):
            raise UsageError(f"--normalise is default, ignorechars or ignorechars2, not {settings.normalise!r}")

    def describe(self, settings: ScoreSettings) -> dict:
        if settings.variant == "pubmed":
            subset = ""
            if settings.table_classes is not None:
                classes = ("of class " + ", ".join(map(str, settings.complexity)) if settings.complexity is not None
                           else "of any class")
                subset += (f"; only the ground-truth tables listed {classes} in {settings.table_classes} count "
                           "(a result table paired with a ground-truth table outside them counts nowhere)")
            if settings.ignore_fp:
                subset += "; result tables paired with no ground-truth table do not count (ignore_fp)"
            return {
                "variant": "pubmed",
                "normalisation": "pubmed: accents folded, ASCII only, spaces and line breaks deleted, case kept",
                "aggregation": "micro: TP, FN and FP summed over all documents (the biomedical benchmark's)"
                               + ("" if settings.single_variant else
                                  "; of a result's variants (PMC1_1...) the best by F1, then TP - FP - FN")
                               + subset,
            }
        return {
            "variant": "icdar2013",
            "normalisation": {
                "default": "default: ASCII whitespace deleted, upper-cased",
                "ignorechars": "ignorechars: ASCII whitespace deleted, other non-word characters as '_', upper-cased",
                "ignorechars2": "ignorechars2: ASCII whitespace and non-word characters deleted, upper-cased",
            }[settings.normalise],
            "aggregation": (
                "document_mean: precision and recall per document (over its tables), averaged over documents, "
                "F1 of the two means (the competition's headline); total: micro sums over all documents"
                + "; a result table without a ground-truth table counts as false positives"
                + ("; compat: ground-truth tables without a result table and documents without a result are "
                   "left out, as the official tool's wrapper did" if settings.compat else
                   "; a ground-truth table without a result table counts as missed")
            ),
        }

    def check_matching(self, settings: ScoreSettings) -> None:
        if settings.matching != "greedy":
            raise UsageError("--matching applies to the cTDaR metrics only")

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        if result is None:
            if settings.compat:
                return None
            result = Document()
        if settings.variant == "pubmed":
            active = None
            if settings.table_classes is not None:
                classes = _table_classes(settings.table_classes, settings.complexity)
                active = classes.get(document_key(gt_file), set()) if gt_file else set()
            outcome = structure.score_pubmed(gt, result, active, settings.ignore_fp)
        else:
            outcome = structure.score_icdar2013(gt, result, settings.normalise, settings.ignore_page, settings.compat)
        counts = outcome.counts
        counted = {id(t) for t in outcome.counted}
        figures = self._figures(settings)
        return {"tables": [{**t.as_dict(figures), "counted": id(t) in counted} for t in outcome.tables],
                **counts, **figures(**counts)}

    @staticmethod
    def _figures(settings: ScoreSettings) -> Callable[..., dict]:
        """Precision, recall and F1 from counts, by the conventions of the tool reproduced."""
        return structure.pubmed_scores if settings.variant == "pubmed" else scores

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        totals = {k: sum(r[k] for r in records) for k in ("gt", "correct", "detected")}
        return {"total": {**totals, **self._figures(settings)(**totals), "documents": len(records)},
                "document_mean": document_mean(records)}

    def check_pairing(self, pairing: Pairing, settings: ScoreSettings) -> None:
        if settings.table_classes is not None:
            selected = _table_classes(settings.table_classes, settings.complexity)
            if not any(document_key(g) in selected for p in pairing.pairs for g in p.gt_files):
                raise UsageError(f"--table-classes: {settings.table_classes} lists no table of these ground-truth "
                                 "documents in the classes asked for (its lines name files as PMC4058045.nxml)")


# The benchmark's classes file is 33 KB; a file far larger is not one.
MAX_TABLE_CLASSES_BYTES = 16 << 20


def _table_classes(path: str, complexity: tuple[int, ...] | None) -> dict[str, set[int]]:
    """The tables of ``complexity`` in a table classes file, read again only when
    it changed (each worker reads it too)."""
    try:
        stat = os.stat(path)
        version = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    except OSError:
        version = None  # read_bytes_of says what is wrong
    return _table_classes_of(path, complexity, version)


@lru_cache(maxsize=4)
def _table_classes_of(path: str, complexity: tuple[int, ...] | None, version: tuple | None) -> dict[str, set[int]]:
    try:
        text = files.read_bytes_of(Path(path), MAX_TABLE_CLASSES_BYTES).decode("utf-8-sig")
    except InputError as exc:
        raise UsageError(f"--table-classes: {exc.diagnostic.format()}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"--table-classes: {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        listed = structure.parse_table_classes(text)
    except ValueError as exc:
        raise UsageError(f"--table-classes: {path}: {exc}") from None
    if not listed:
        raise UsageError(f"--table-classes: {path}: lists no table")
    known = sorted({t.table_class for t in listed})
    unknown = sorted(set(complexity or ()) - set(known))
    if unknown:
        raise UsageError(f"--complexity {','.join(map(str, unknown))}: {path} lists tables of class "
                         f"{', '.join(map(str, known))} only")
    return structure.tables_of_classes(listed, complexity)


def _check_pubmed_options(settings: ScoreSettings) -> None:
    """The options of the biomedical benchmark's variant, refused elsewhere."""
    if settings.variant != "pubmed" or settings.metric != "structure":
        for name, value in (("--single-variant", settings.single_variant), ("--table-classes", settings.table_classes),
                            ("--complexity", settings.complexity), ("--ignore-fp", settings.ignore_fp)):
            if value:
                raise UsageError(f"{name} applies to --variant pubmed only (the biomedical benchmark's)")
    if settings.complexity is not None and settings.table_classes is None:
        raise UsageError("--complexity selects classes of --table-classes: pass the classes file too")
    if settings.table_classes is not None:
        _table_classes(settings.table_classes, settings.complexity)


# -- the cTDaR metrics ------------------------------------------------------------------------

class CtdarMetric(Metric):
    gt_model = None
    read_options = ReadOptions(extra={"keep_filler_cells": True})  # the official tool counts them

    def __init__(self, track: str):
        self.track = track
        self.name = f"ctdar-{track.lower()}"

    def check(self, settings: ScoreSettings) -> None:
        if settings.variant not in (None, "ctdar2019"):
            raise UsageError(f"--variant for {self.name} is ctdar2019 (the only one), not {settings.variant!r}")
        if settings.matching not in ("greedy", "optimal"):
            raise UsageError(f"--matching is greedy or optimal, not {settings.matching!r}")
        if settings.normalise != "default" or settings.ignore_page:
            raise UsageError(f"--normalise and --ignore-page do not apply to {self.name}")

    def describe(self, settings: ScoreSettings) -> dict:
        what = "tables matched at IoU >= t" if self.track == "A" else (
            "tables paired at IoU >= 0.8, cells mapped at IoU >= t, adjacency relations on cell identity")
        return {
            "variant": "ctdar2019",
            "normalisation": "none (cTDaR compares geometry, not text)",
            "aggregation": (
                f"{what}; micro sums over all documents per threshold; wavg_f1 = sum(t * F1@t) / sum(t); "
                f"matching: {settings.matching}"
                + ("; compat: the official tool's bugs reproduced (Track B skips the ground-truth table after a "
                   "paired one; only every other ground truth without a result counts; an unreadable result "
                   "adds its ground truth's table count)" if settings.compat else "")
            ),
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        if result is None:
            total = ctdar.gt_total(gt, self.track)
            if unreadable and settings.compat:
                total = len(gt.tables)  # the tool's bug: tables, not relations
            counts = {t: ctdar.Counts(0, total, 0) for t in ctdar.THRESHOLDS}
            tables: list[dict] = []
        elif self.track == "A":
            counts = ctdar.track_a(gt, result, settings.matching)
            tables = []
        else:
            counts, tables = ctdar.track_b(gt, result, settings.matching, settings.compat)
        record = {"iou": {str(t): {**c.as_dict(), **scores(c.gt, c.correct, c.detected)} for t, c in counts.items()}}
        record["f1"] = self._wavg(record["iou"])
        if tables:
            record["tables"] = tables
        if result is None and not unreadable:
            record["missing_result"] = True
        return record

    @staticmethod
    def _wavg(per_threshold: dict) -> float:
        """sum(t * F1@t) / sum(t), summed left to right over 0.6..0.9 and divided by
        exactly 3.0, as the published reference figures were computed; a mean of
        equal values is that value (a perfect score is 1.0, not 0.9999999999999999)."""
        f1s = [per_threshold[str(t)]["f1"] for t in ctdar.THRESHOLDS]
        if len(set(f1s)) == 1:
            return f1s[0]
        return sum(t * f for t, f in zip(ctdar.THRESHOLDS, f1s)) / math.fsum(ctdar.THRESHOLDS)

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        counted = list(records)
        if settings.compat:
            # The tool drops every other ground truth that has no result file.
            missing = sorted((r for r in records if r.get("missing_result")), key=lambda r: r["gt_file"])
            dropped = {id(r) for r in missing[0::2]}
            counted = [r for r in records if id(r) not in dropped]
        per_t = {}
        for t in ctdar.THRESHOLDS:
            key = str(t)
            sums = {k: sum(r["iou"][key][k] for r in counted) for k in ("gt", "correct", "detected")}
            per_t[key] = {**sums, **scores(**sums)}
        return {"total": {"wavg_f1": self._wavg(per_t), "iou": per_t, "documents": len(counted)}}


# -- the ICDAR 2013 region metric ----------------------------------------------------------------

class RegionMetric(Metric):
    name = "region"
    gt_model = "region"

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        return True  # ICDAR 2013's a/b ground truths of one PDF

    def check(self, settings: ScoreSettings) -> None:
        if settings.variant not in (None, "chars", "area"):
            raise UsageError(f"--variant for region is chars (default) or area, not {settings.variant!r}")
        if settings.matching != "greedy" or settings.normalise != "default" or settings.ignore_page:
            raise UsageError("--matching, --normalise and --ignore-page do not apply to the region metric")
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
            return {n: region.PageItems.from_boxes([(i.bbox.x1, i.bbox.y1, i.bbox.x2, i.bbox.y2) for i in p.items])
                    for n, p in with_items.items()}
        if settings.pdf_dir is None:
            raise UsageError("the region metric needs the PDFs: pass --pdf-dir (Marmot input needs none)")
        pdf = find_pdf(gt_file, gt.filename, Path(settings.pdf_dir)) if gt_file else None
        if pdf is None:
            raise InputError(Diagnostic("pdf-missing", Severity.ERROR,
                                        f"no PDF for this document in {settings.pdf_dir}", str(gt_file)))
        pages = read_pdf(pdf)
        return {n: region.PageItems.from_boxes([(c.x0, c.y0, c.x1, c.y1) for c in chars])
                for n, chars in pages.chars.items()}

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        pages = self._pages(gt, gt_file, settings)
        scored = region.score_document(gt, result or Document(), pages, settings.variant or "chars")
        scored["tables"] = scored.pop("regions")
        return scored

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        totals = {k: sum(r[k] for r in records) for k in ("gt", "correct", "detected")}
        counts = {k: sum(r[k] for r in records) for k in ("complete", "pure", "gt_regions", "result_regions")}
        return {
            "total": {**totals, **scores(**totals), **counts, "documents": len(records)},
            "document_mean": document_mean(records),
        }


class MarmotMetric(RegionMetric):
    name = "marmot"

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        return False

    def check(self, settings: ScoreSettings) -> None:
        if settings.variant not in (None, "marmot"):
            raise UsageError(f"--variant for marmot is marmot (the only one), not {settings.variant!r}")
        super().check(ScoreSettings(pdf_dir=settings.pdf_dir, matching=settings.matching,
                                    normalise=settings.normalise, ignore_page=settings.ignore_page))
        try:
            marmot.load_penalties(settings.penalties)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--penalties: {exc}") from None

    def describe(self, settings: ScoreSettings) -> dict:
        penalties = marmot.load_penalties(settings.penalties)
        return {
            "variant": "marmot",
            "normalisation": "unit objects: the PDF's characters (or Marmot Char leaves), by their centres",
            "aggregation": (
                "per page: fake, missed, split, merged, reduced, amplified with the coefficients of the "
                "Marmot paper's equations (1)-(3); counts nr, nm, na, nfa, nfu summed over documents; "
                f"Table II's precision and recall; threshold {penalties['threshold']}, penalties "
                + ", ".join(f"{k} {v}" for k, v in penalties.items() if k != "threshold")
            ),
        }

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        pages = self._pages(gt, gt_file, settings)
        scored = marmot.score_document(gt, result or Document(), pages, marmot.load_penalties(settings.penalties))
        scored.update(marmot.revised(scored))
        return scored

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        counts = {k: sum(r[k] for r in records) for k in ("nr", "nm", "na", "nfa", "nfu")}
        types: dict[str, int] = {}
        for r in records:
            for kind, n in r["error_types"].items():
                types[kind] = types.get(kind, 0) + n
        return {"total": {**counts, **marmot.revised(counts), "error_types": types, "documents": len(records)}}


METRICS: dict[str, Metric] = {
    "structure": StructureMetric(),
    "region": RegionMetric(),
    "marmot": MarmotMetric(),
    "ctdar-a": CtdarMetric("A"),
    "ctdar-b": CtdarMetric("B"),
}


def get_metric(name: str):
    try:
        return METRICS[name]
    except KeyError:
        raise UsageError(f"unknown metric {name!r} (known: {', '.join(METRICS)})") from None


# -- one document ---------------------------------------------------------------------------

def _read(path: Path, format: str | None, metric) -> Document:
    return files.read(path, format, getattr(metric, "read_options", ReadOptions()))


class _CandidateFiles:
    """The files of one document's candidates, each read once (a result shared by
    a/b ground truths, a ground truth by its result's variants). A result that
    cannot be read is None, its error kept; a ground truth's error is raised."""

    def __init__(self, metric: Metric, result_format: str | None):
        self.metric, self.result_format = metric, result_format
        self.gts: dict[Path, Document] = {}
        self.results: dict[Path, Document | None] = {}
        self.errors: dict[Path, str] = {}

    def gt(self, path: Path) -> Document:
        if path not in self.gts:
            self.gts[path] = _read(path, None, self.metric)
        return self.gts[path]

    def result(self, path: Path) -> Document | None:
        if path not in self.results:
            try:
                self.results[path] = _read(path, self.result_format, self.metric)
            except InputError as exc:
                self.results[path] = None
                self.errors[path] = exc.diagnostic.format()
        return self.results[path]


def score_pair(pair_: DocumentPair, settings: ScoreSettings) -> dict:
    """The record of one document: the best of its candidates (ground-truth
    alternatives, result variants), by the metric's preference."""
    metric = get_metric(settings.metric)
    record: dict = {
        "document": pair_.document,
        "gt_file": str(pair_.gt_files[0]),
        "result_file": str(pair_.result_file) if pair_.result_file else None,
    }
    try:
        best = None
        alternatives = []
        candidates = _CandidateFiles(metric, settings.result_format)
        for gt_file, result_file in zip(pair_.gt_files, pair_.result_files):
            result = candidates.result(result_file) if result_file is not None else None
            error = candidates.errors.get(result_file)
            if error:  # scored as no result, and reported
                record.setdefault("error", error)
            scored = metric.score(candidates.gt(gt_file), result, settings, unreadable=error is not None,
                                  gt_file=gt_file)
            if scored is None:
                return {**record, "skipped": "no result (left out in compat mode)"}
            alternatives.append({"gt_file": str(gt_file), "result_file": str(result_file) if result_file else None,
                                 "f1": scored["f1"], **({"error": error} if error else {})})
            # a readable candidate before any unreadable one, whatever their figures
            preference = (error is None, *metric.preference(scored, settings))
            if best is None or preference > best[3]:  # the first on ties
                best = (gt_file, result_file, scored, preference)
        record["gt_file"] = str(best[0])
        record["result_file"] = str(best[1]) if best[1] else None
        record.update(best[2])
        record["counted"] = True
        if len(alternatives) > 1:
            record["alternatives"] = alternatives
    except InputError as exc:
        record["error"] = exc.diagnostic.format()
        record["counted"] = False
    except TableTooLarge as exc:
        record["error"] = f"{pair_.result_file or pair_.gt_files[0]}: error table-too-large {exc}"
    except GeometryFailed as exc:
        record["error"] = f"{pair_.result_file or pair_.gt_files[0]}: error geometry-failed {exc}"
    except UsageError as exc:
        record["error"] = f"{pair_.result_file or pair_.gt_files[0]}: error format-unavailable {exc}"
    except Exception as exc:  # a bug of ours: one line for this document, the others are still scored
        record["error"] = (f"{pair_.result_file or pair_.gt_files[0]}: error internal-error unexpected "
                           f"{type(exc).__name__}: {exc} (please report this with the input files)")
        record["counted"] = False
    return record


def _errors_of(record: dict) -> list[str]:
    """A record's error, then those of its other candidates' results (one line a file)."""
    errors = [record["error"]] if "error" in record else []
    for candidate in record.get("alternatives", ()):
        if "error" in candidate and candidate["error"] not in errors:
            errors.append(candidate["error"])
    return errors


def _score_pair_star(args: tuple[DocumentPair, ScoreSettings]) -> dict:
    return score_pair(*args)


# -- a corpus --------------------------------------------------------------------------------

# With --jobs N, documents are scored here, one by one, while the rest looks
# like less work than this; then the rest goes to worker processes. Starting a
# pool costs about 0.1 s: a small corpus is done before a pool would pay off.
SERIAL_WORK_S = 0.15

# The command line's default --jobs: every CPU this process may use, up to this
# many (each worker holds its own libraries and documents: ~30-40 MiB).
MAX_DEFAULT_JOBS = 8


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))  # CPUs this process may run on (not all the host's)
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def default_jobs() -> int:
    """The number of worker processes ``convertables score`` uses unless told."""
    return max(1, min(_usable_cpus(), MAX_DEFAULT_JOBS))


# Workers beyond this many a usable CPU only take turns (and memory): more are not started.
WORKERS_PER_CPU = 4


def score_documents(
    pairs: list[DocumentPair], settings: ScoreSettings, jobs: int = 1
) -> Iterator[dict]:
    """Records in document order; with ``jobs > 1`` documents are scored in
    worker processes unless the corpus is small (see SERIAL_WORK_S)."""
    if jobs <= 1 or len(pairs) < 3:
        for p in pairs:
            yield score_pair(p, settings)
        return
    # The first document is scored here, untimed: that loads the readers and
    # libraries it needs once, before the workers are forked. The next ones
    # time the rest.
    yield score_pair(pairs[0], settings)
    done, start = 1, time.perf_counter()
    while done < len(pairs):
        yield score_pair(pairs[done], settings)
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed > SERIAL_WORK_S or elapsed / (done - 1) * (len(pairs) - done) > SERIAL_WORK_S:
            break
    rest = pairs[done:]
    if not rest:
        return
    from concurrent.futures import ProcessPoolExecutor  # (here: 15 ms of imports a single job does not need)

    workers = min(jobs, len(rest), WORKERS_PER_CPU * _usable_cpus())
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_score_pair_star, [(p, settings) for p in rest],
                            chunksize=max(1, len(rest) // (workers * 32)))


def score_paths(
    gt: str | os.PathLike,
    result: str | os.PathLike,
    settings: ScoreSettings = ScoreSettings(),
    jobs: int = 1,
    on_document: Callable[[dict, int], None] | None = None,
) -> dict:
    """Score every result document under ``result`` against the ground truth under ``gt``.

    Returns the report (docs/scoring.md, "The JSON report"). ``on_document(record, total)`` is called as
    each document is done (for progress).
    """
    metric = get_metric(settings.metric)
    metric.check(settings)
    _check_pubmed_options(settings)
    if settings.compat and settings.matching != "greedy":
        raise UsageError("--compat reproduces the official tool, whose matching is greedy; drop --matching")
    if settings.result_format:
        registry.get(settings.result_format).reader()
    gt, result = Path(gt), Path(result)
    for path, what in ((gt, "ground truth"), (result, "results")):
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder ({what})")
    suffixes = sorted(registry.input_suffixes())
    result_suffixes = registry.get(settings.result_format).suffixes if settings.result_format else suffixes
    gt_files = collect(gt, suffixes, metric.gt_model)
    result_files = collect(result, result_suffixes, metric.gt_model)
    if not gt_files:
        raise UsageError(f"{gt}: no ground-truth files found")
    pairing = pair(gt_files, result_files, alternatives=metric.has_alternatives(settings),
                   result_variants=metric.has_result_variants(settings))
    metric.check_pairing(pairing, settings)
    records = []
    for record in score_documents(pairing.pairs, settings, jobs):
        records.append(record)
        if on_document:
            on_document(record, len(pairing.pairs))
    scored = [r for r in records if r.get("counted")]
    report = {
        "metric": metric.name,
        **metric.describe(settings),
        "settings": asdict(settings),
        "documents": records,
        **metric.aggregate(scored, settings),
        "unpaired": {
            "gt": [str(p) for p in pairing.unpaired_gt],
            "result": [str(p) for p in pairing.unpaired_results],
        },
        "errors": [error for r in records for error in _errors_of(r)],
    }
    return report
