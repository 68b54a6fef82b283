"""Running a metric over a corpus: pair documents, score each, aggregate.

Documents are scored independently (in worker processes with ``jobs > 1``),
each into a plain, JSON-ready record; the aggregate is computed from the
records alone.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence

from .. import containers, inputs, registry
from ..diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError, internal_error
from ..geometry import GeometryFailed
from ..grid import GridTooLarge
from ..losses import score_notes
from ..model import Document
from ..options import ReadOptions
from ..reading import read_source
from ..registry import Format
from .metric import Metric, MetricError, Scored, ScoreSettings, get_metric
from .pairing import DocumentPair, Pairing, Pairs, as_path, document_key, pair
from .executors import Executor, executor_for
from .explain import Details
from .records import RecordStore
from .report import ScoreReport


# -- one document ---------------------------------------------------------------------------

def _read(path: containers.Source, format: str | None, metric: Metric, joined: list | None = None,
          diagnostics: Diagnostics | None = None, options: ReadOptions | None = None) -> Document:
    return read_source(path, registry.get(format) if format else None,
                       options or metric.read_options or ReadOptions(), diagnostics, joined=joined)


class _CandidateFiles:
    """The files of one document's candidates, each read once (a result shared by
    a/b ground truths, a ground truth by its result's variants). A result that
    cannot be read is None, its error kept; a ground truth's error is raised."""

    def __init__(self, metric: Metric, result_format: str | None, joined: dict | None = None,
                 gt_format: str | None = None, read_options: ReadOptions | None = None):
        self.metric, self.result_format, self.joined = metric, result_format, joined or {}
        self.read_options = read_options
        self.gt_format = gt_format
        self.gts: dict[Path, Document] = {}
        self.results: dict[Path, Document | None] = {}
        self.errors: dict[Path, Diagnostic] = {}
        self.findings: list[Diagnostic] = []
        """What the readers found in the files read (bad numbers, cells left out...), in the order read."""

    def gt(self, path: Path) -> Document:
        if path not in self.gts:
            read_findings = Diagnostics(str(path))
            self.gts[path] = _read(path, self.gt_format, self.metric, diagnostics=read_findings,
                                   options=self.read_options)
            self.findings += read_findings.items
        return self.gts[path]

    def format_of(self, path) -> Format | None:
        """The format a result file was read in (None for one joined from several files)."""
        if path is None or path in self.joined:
            return None
        if self.result_format:
            return registry.get(self.result_format)
        if isinstance(path, containers.MemberRef):
            return registry.get(path.format)
        try:
            with open(path, "rb") as handle:
                return registry.detect(Path(path), handle.read(registry.SNIFF_BYTES))
        except OSError:
            return None

    def result(self, path: Path) -> Document | None:
        if path not in self.results:
            read_findings = Diagnostics(str(path))
            try:
                self.results[path] = _read(path, self.result_format, self.metric, self.joined.get(path), read_findings,
                                           options=self.read_options)
                self.findings += read_findings.items
            except InputError as exc:
                if exc.diagnostic.code == "internal-error":  # a bug of ours, not the result's fault: not scored
                    raise
                self.results[path] = None
                self.errors[path] = exc.diagnostic
        return self.results[path]


class ScoredDocument(NamedTuple):
    """One document scored: its record (the report's), its problems, and its detail."""

    record: dict
    """The JSON report's record of the document (the first error's line under ``error``)."""
    diagnostics: list[Diagnostic]
    """Its problems and warnings, as diagnostics (the report's ``diagnostics``)."""
    detail: str | None = None
    """With ``explain``: the metric's detail of the kept candidate, as JSON text (for the HTML report)."""


class _Candidate(NamedTuple):
    """One of a document's candidates (a ground truth and a result), scored."""

    gt_file: Path
    result_file: Path | None
    scored: dict
    findings: list[Diagnostic]
    """What the metric found to say about it (:attr:`Scored.findings`)."""
    preference: tuple
    """How it ranks among the document's candidates (the greatest is kept)."""


def _taken_apart(scored: dict) -> tuple[dict, list[Diagnostic]]:
    """A metric's record as a plain dict, and the findings beside it (:class:`Scored`)."""
    return dict(scored), list(scored.findings) if isinstance(scored, Scored) else []


def _metric_error(exc: MetricError | GridTooLarge, where: str | None) -> Diagnostic:
    """A metric's error under its code; a grid beyond the declared limit is ``too-large``."""
    return Diagnostic(exc.code if isinstance(exc, MetricError) else "too-large", Severity.ERROR, str(exc), where)


def score_pair(pair_: DocumentPair, settings: ScoreSettings, explain: bool = False) -> ScoredDocument:
    """One document scored: the best of its candidates (ground-truth alternatives,
    result variants), by the metric's preference, with its problems (the record
    keeps the first one's line under ``error``) and, with ``explain``, the
    metric's detail of the best candidate."""
    metric = get_metric(settings.metric)
    record: dict = {
        "document": pair_.document,
        "gt_file": str(pair_.gt_files[0]),
        "result_file": str(pair_.result_file) if pair_.result_file else None,
    }
    problems: list[Diagnostic] = []
    where = str(pair_.result_file or pair_.gt_files[0])

    def failed(diagnostic: Diagnostic, counted: bool | None = None) -> ScoredDocument:
        problems.insert(0, diagnostic)
        record["error"] = diagnostic.format()
        if counted is not None:
            record["counted"] = counted
        return ScoredDocument(record, problems)

    try:
        best = None
        alternatives = []
        repeats: list[dict] = []  # (each candidate's record and findings, where the metric combines them)
        repeat_findings: list[Diagnostic] = []
        candidates = _CandidateFiles(metric, settings.result_format, pair_.joined, settings.gt_format,
                                     metric.reading(settings))
        for gt_file, result_file in zip(pair_.gt_files, pair_.result_files):
            result = candidates.result(result_file) if result_file is not None else None
            error = candidates.errors.get(result_file)
            if error is not None and error not in problems:  # scored as no result, and reported
                problems.append(error)
                record.setdefault("error", error.format())
            scored = metric.score(candidates.gt(gt_file), result, settings, unreadable=error is not None,
                                  gt_file=gt_file)
            if scored is None:
                record["skipped"] = metric.no_result
                return ScoredDocument(record, problems)
            scored, metric_findings = _taken_apart(scored)  # (the metric's own: the kept one's are said)
            repeats.append(scored)
            repeat_findings += metric_findings
            alternatives.append({"gt_file": str(gt_file), "result_file": str(result_file) if result_file else None,
                                 "f1": scored["f1"], **({"error": error.format()} if error else {})})
            # a readable candidate before any unreadable one, whatever their figures
            preference = (error is None, *metric.preference(scored, settings))
            if best is None or preference > best.preference:  # the first on ties
                best = _Candidate(gt_file, result_file, scored, metric_findings, preference)
        repeated = metric.has_result_repeats(settings)
        if repeated:  # (the document's record is all its repeats', named by its first)
            best = best._replace(gt_file=pair_.gt_files[0], result_file=pair_.result_files[0],
                                 scored=metric.combined(repeats, settings), findings=repeat_findings)
        record["gt_file"] = str(best.gt_file)
        record["result_file"] = str(best.result_file) if best.result_file else None
        record.update(best.scored)
        record["counted"] = True
        if len(alternatives) > 1:
            record["repeat_files" if repeated else "alternatives"] = alternatives
        where = record["result_file"] or record["gt_file"]  # (the metric's findings about the result name none)
        _record_findings(record, problems, [*metric.reading_findings(candidates.findings, settings),
                                 *(d if d.file else replace(d, file=where) for d in best.findings)])
        result = candidates.results.get(best.result_file) if best.result_file is not None else None
        lost = score_notes(candidates.gt(best.gt_file), result, candidates.format_of(best.result_file),
                           settings.metric) if result is not None else []
        if lost:
            record["losses"] = lost
        detail = (_explained(metric, candidates, best.gt_file, best.result_file, best.scored, settings)
                  if explain else None)
    except InputError as exc:
        return failed(exc.diagnostic, counted=False)
    except (MetricError, GridTooLarge) as exc:
        return failed(_metric_error(exc, where))
    except GeometryFailed as exc:
        return failed(Diagnostic("geometry-failed", Severity.ERROR, str(exc), where))
    except UsageError as exc:
        return failed(Diagnostic("format-unavailable", Severity.ERROR, str(exc), where))
    except MemoryError:
        exhausted = True  # said below, outside the handler, whose traceback holds what was read
    except Exception as exc:  # a bug of ours: one line for this document, the others are still scored
        return failed(internal_error(exc, where, report_with="the input files", hint=False), counted=False)
    else:
        exhausted = False
    if exhausted:
        return failed(Diagnostic("too-large", Severity.ERROR, "out of memory: the document needs more memory than "
                                 "is available", where), counted=False)
    return ScoredDocument(record, problems, detail)


def _explained(metric: Metric, candidates: _CandidateFiles, gt_file: Path, result_file: Path | None,
               scored: dict, settings: ScoreSettings) -> str:
    """The metric's detail of a document's kept candidate (for the HTML report), as
    compact JSON text (cheaper to send from a worker than the objects)."""
    import json

    try:
        detail = metric.explain(candidates.gt(gt_file), candidates.result(result_file) if result_file else None,
                                settings, record=scored, gt_file=gt_file)
        return json.dumps(detail, separators=(",", ":"), allow_nan=False)
    except Exception as exc:  # the document's score stands; its section of the page says this
        return json.dumps({"error": f"no detail: {type(exc).__name__}: {exc}"})


def _record_findings(record: dict, problems: list[Diagnostic], findings: list[Diagnostic]) -> None:
    """A document's findings in its report: with its problems (the report's
    ``diagnostics``); in its record, the first error's line as ``error``, the
    warnings' as ``warnings``."""
    warnings = []
    for d in dict.fromkeys(findings):  # (a file read as both sides says each thing once)
        problems.append(d)
        if d.severity is Severity.ERROR:
            record.setdefault("error", d.format())
        else:
            warnings.append(d.format())
    if warnings:
        record["warnings"] = warnings


# -- a corpus --------------------------------------------------------------------------------

# With --jobs N, documents are scored here, one by one, while the rest looks
# like less work than this; then the rest goes to worker processes. Starting a
# pool means starting worker processes: a small corpus is done before a pool would pay off.
SERIAL_WORK_S = 0.15

# The memory a worker is counted for when the command line picks --jobs: its own
# libraries and documents, and room for the largest tables' work. No more workers
# are started by default than the memory available holds at this much each.
WORKER_MEMORY = 512 << 20


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))  # CPUs this process may run on (not all the host's)
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _available_memory() -> int | None:
    """The memory available to new processes (Linux's MemAvailable), where known."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_jobs() -> int:
    """The number of worker processes ``convertables score`` uses unless told:
    every CPU this process may use, as many as the available memory holds at
    :data:`WORKER_MEMORY` each."""
    memory = _available_memory()
    by_memory = max(1, memory // WORKER_MEMORY) if memory is not None else _usable_cpus()
    return max(1, min(_usable_cpus(), by_memory))


# Workers beyond this many a usable CPU only take turns (and memory): more are not started.
WORKERS_PER_CPU = 4


def score_documents(
    pairs: Sequence[DocumentPair], settings: ScoreSettings, jobs: int = 1, workers_used: list[int] | None = None,
    explain: bool = False, executor: str | Executor | None = None,
) -> Iterator[ScoredDocument]:
    """The documents scored (:class:`ScoredDocument`), in document order; with ``jobs > 1`` documents are scored in
    worker processes unless the corpus is small (see SERIAL_WORK_S). The number
    of processes that scored (this one, or the workers) is appended to ``workers_used``.
    ``explain``: each comes with its detail (:func:`score_pair`).

    ``executor``: ``local`` (the default: this process and worker processes here)
    or ``dask``, or an :class:`~.executors.Executor`: with dask every document is
    scored on the cluster's workers (a local cluster of ``jobs`` workers unless the
    executor names a scheduler); an executor given is used as it is, one named is
    opened and closed here. Only an executor that :attr:`~.executors.Executor.may_score_here`
    leaves documents to this process."""
    if workers_used is not None:
        workers_used.append(1)
    chosen = executor_for(executor)
    rest = pairs
    if chosen.may_score_here:
        if jobs <= 1 or len(pairs) < 3:
            for p in pairs:
                yield score_pair(p, settings, explain)
            return
        # The first document is scored here, untimed: that loads the readers and
        # libraries it needs once, before the workers are forked. The next ones
        # time the rest, in CPU time (the work, which other processes' load on the
        # machine does not make larger); one during which modules were imported (a
        # library's first use: a table after pages without one) is not counted,
        # as that cost is paid once.
        yield score_pair(pairs[0], settings, explain)
        done, counted, spent = 1, 0, 0.0
        while done < len(pairs):
            modules, start = len(sys.modules), time.process_time()
            yield score_pair(pairs[done], settings, explain)
            done += 1
            if len(sys.modules) == modules:
                counted += 1
                spent += time.process_time() - start
            if spent >= SERIAL_WORK_S or counted and spent / counted * (len(pairs) - done) > SERIAL_WORK_S:
                break
        rest = pairs[done:]
    if not rest:
        return
    with (chosen if chosen is not executor else nullcontext()):  # (one given is its caller's to open and close)
        yield from _score_on(chosen, rest, settings, jobs, workers_used, explain)


def _score_on(executor: Executor, pairs: Sequence[DocumentPair], settings: ScoreSettings, jobs: int,
              workers_used: list[int] | None, explain: bool) -> Iterator[ScoredDocument]:
    """The documents scored by the executor's workers, the records in document order."""
    workers = executor.start(min(jobs, len(pairs), WORKERS_PER_CPU * _usable_cpus()))
    if workers_used is not None:
        workers_used[-1] = workers
    first = pairs[0].gt_files[0]
    executor.check_reaches(str(first.container if isinstance(first, containers.MemberRef) else first))
    yield from executor.map(partial(score_pair, settings=settings, explain=explain), pairs)


def _read_as(format_name: str | None, side: str, option: str, profile: str | None) -> str:
    """How a side's files were looked for: the format fixed (and by what) and its
    suffixes, or the formats read from folders."""
    if not format_name:
        return f"of the formats read from folders; {option} names others"
    from .profiles import PROFILES

    suffixes = ", ".join(registry.get(format_name).suffixes) or "no suffix"
    setting = "result_format" if side == "results" else "gt_format"
    by = (f"--profile {profile} reads the {side} as {format_name}; " if profile in PROFILES
          and PROFILES[profile].settings.get(setting) == format_name else "")
    return f"read as {format_name}: {suffixes}; {by}{option} names another"


def _nothing_paired(gt: Path, result: Path, pairing: Pairing, result_files: list[Path],
                    settings: ScoreSettings, profile: str | None) -> str:
    """Why no result met a ground truth: the names each side gave."""
    def listed(names: list[str], count: int | None = None) -> str:
        count = len(names) if count is None else count
        return ", ".join(names[:3]) + (f" and {count - 3} more" if count > 3 else "")

    if not result_files:
        return (f"no result files found "
                f"({_read_as(settings.result_format, 'results', '--result-format', profile)})")
    return (f"no result was paired with a ground truth: results are paired by document name; these are "
            f"{listed(sorted({document_key(p) for p in result_files}))}, the ground truth's "
            f"{listed([p.document for p in islice(pairing.pairs, 4)], len(pairing.pairs))} (e.g. eu-001-str.xml takes eu-001-str-result.xml "
            "or eu-001.xml)")


def _check_variant(metric: Metric, settings: ScoreSettings) -> None:
    if settings.variant not in (None, *metric.variants):
        known = (f"{metric.variants[0]} (the only one)" if len(metric.variants) == 1 else
                 f"{', '.join(metric.variants[:-1])} or {metric.variants[-1]}")
        raise UsageError(f"--variant for {metric.name} is {known}, not {settings.variant!r}")


def score_paths(
    gt: str | os.PathLike,
    result: str | os.PathLike,
    settings: ScoreSettings = ScoreSettings(),
    jobs: int = 1,
    on_document: Callable[[dict, int], None] | None = None,
    join: bool = False,
    shard: tuple[int, int] | None = None,
    details: Details | None = None,
    executor: str | Executor | None = None,
    spill: bool = False,
    profile: str | None = None,
) -> ScoreReport:
    """Score every result document under ``result`` against the ground truth under ``gt``;
    with ``join``, results exported one file per table make one document each; with
    ``shard = (K, N)``, only the documents of shard K of N (:mod:`.shards`); with
    ``details``, each document's detail (:meth:`Metric.explain`) goes there as it
    comes, by its record's position, and the report's ``details`` is it (the HTML report draws them);
    ``executor``: where the documents are scored (:func:`score_documents`).
    ``profile``: the profile the settings come from (named where no files are found).
    With ``spill``, the records are kept in a temporary file, not in memory (a
    :class:`~.records.RecordStore`: memory flat in the number of documents).

    Returns the report (docs/scoring.md, "The JSON report"). ``on_document(record, total)`` is called as
    each document is done (for progress).
    """
    metric = get_metric(settings.metric)
    _check_variant(metric, settings)
    settings.check_for(metric)
    metric.check(settings)
    if jobs < 1:
        raise UsageError(f"jobs must be at least 1, not {jobs}")
    for format_name in (settings.result_format, settings.gt_format):
        if format_name:
            registry.get(format_name).reader()
    gt, result = Path(gt), Path(result)
    for path, what in ((gt, "ground truth"), (result, "results")):
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder ({what})")
    result_format = registry.get(settings.result_format) if settings.result_format else None
    gt_format = registry.get(settings.gt_format) if settings.gt_format else None
    # each container's documents, paired by their names there (read when scored, never held)
    gt_files = inputs.collect([gt], gt_format, model=metric.gt_model).sources
    joined: dict = {}
    if join:
        from ..joining import group

        # (csv too, where it is per-table files; a container's records named per table join too)
        joined, others = group(inputs.collect([result], result_format, join=True, model=metric.gt_model).paths())
        result_files = sorted([*joined, *others], key=str)
    else:
        result_files = inputs.collect([result], result_format, model=metric.gt_model).sources
    if not gt_files:
        raise UsageError(f"{gt}: no ground-truth files found "
                         f"({_read_as(settings.gt_format, 'ground truth', '--gt-format', profile)})")
    if gt.is_file() and result.is_file() and len(gt_files) == len(result_files) == 1:
        # two files of a document each (a result's per-table records joined are one): each other's,
        # whatever their names
        pairing = Pairing(Pairs([DocumentPair(document_key(gt_files[0]), [as_path(gt_files[0])],
                                              as_path(result_files[0]))]))
    else:
        pairing = pair(gt_files, result_files, alternatives=metric.has_alternatives(settings),
                       result_variants=metric.has_result_variants(settings),
                       result_repeats=metric.has_result_repeats(settings))
    metric.check_pairing(pairing, settings)
    pairing.pairs.joined = joined
    kept = _in_shard(pairing, shard)
    records: list[dict] | RecordStore = RecordStore() if spill else []
    diagnostics: list[Diagnostic] = []
    error_positions: list[int] = []
    workers: list[int] = []
    for position, (record, document_diagnostics, detail) in zip(kept, score_documents(
            pairing.pairs.select(kept), settings, jobs, workers, explain=details is not None, executor=executor)):
        if detail is not None and details is not None:
            details.add(len(records), detail)
        diagnostics.extend(document_diagnostics)
        error_positions.extend(position for d in document_diagnostics if d.severity is Severity.ERROR)
        records.append(record)
        if on_document:
            on_document(record, len(kept))
    # (scored as all missed, and said: names are the usual cause; in shards, by the first)
    if len(pairing.unpaired_gt) == len(gt_files) and (shard is None or shard[0] == 1):
        diagnostics.append(Diagnostic("nothing-paired", Severity.ERROR, _nothing_paired(
            gt, result, pairing, result_files, settings, profile), str(result)))
        error_positions.append(len(pairing.pairs))
    unpaired_gt, gt_positions = _unpaired_gt(pairing, kept)
    unpaired_results, result_positions = _unpaired_results(pairing, shard)
    scored = records.counted() if spill else [r for r in records if r.get("counted")]
    report = ScoreReport(
        metric=metric.name,
        description=metric.describe(settings),
        settings=settings.as_dict(metric),
        documents=records,
        aggregate=metric.aggregate(scored, settings),
        unpaired_gt=unpaired_gt,
        unpaired_result=unpaired_results,
        diagnostics=diagnostics,
        workers=workers[0] if workers else 1,
        shard=None if shard is None else {
            "index": shard[0], "count": shard[1], "documents": len(pairing.pairs),
            "inputs": _inputs_digest(gt, gt_files, result, result_files), "positions": list(kept),
            "error_positions": error_positions, "unpaired_gt_positions": gt_positions,
            "unpaired_result_positions": result_positions},
    )
    report.details = details
    return report


def _inputs_digest(gt: Path, gt_files, result: Path, result_files) -> str:
    """A SHA-256 of a run's inputs: each file by its path below the ground truth's
    or the results' root and its size (a container's document: its name and
    length), so that the shards of one run agree, wherever the corpus lies, and
    a shard of another run (other results) does not."""
    import hashlib
    import os

    digest = hashlib.sha256()
    for side, root, listed in (("gt", gt, gt_files), ("result", result, result_files)):
        digest.update(side.encode("ascii") + b"\n")
        base = str(root) if root.is_dir() else os.path.dirname(str(root))
        for item in listed:
            if isinstance(item, containers.MemberRef):
                size = item.length
                name = f"{os.path.relpath(str(item.container), base)}#{item.name}"
            else:
                try:
                    size = os.stat(item).st_size
                except OSError:  # (a document --join made of several files)
                    size = -1
                name = os.path.relpath(str(item), base)
            digest.update(f"{name}\0{size}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _in_shard(pairing: Pairing, shard: tuple[int, int] | None) -> range | list[int]:
    """The positions of the documents scored: all, or those of shard K of N."""
    if shard is None:
        return range(len(pairing.pairs))
    from .shards import shard_of

    return [i for i, p in enumerate(pairing.pairs) if shard_of(p.document, shard[1]) == shard[0] - 1]


def _unpaired_gt(pairing: Pairing, kept: range | list[int]) -> tuple[list[str], list[int]]:
    """The unpaired ground-truth files of the documents scored, and each one's document's position."""
    kept = kept if isinstance(kept, range) else set(kept)
    unpaired = [(str(path), position) for position, gt_files in pairing.pairs.without_result() if position in kept
             for path in gt_files]
    return [path for path, _ in unpaired], [position for _, position in unpaired]


def _unpaired_results(pairing: Pairing, shard: tuple[int, int] | None) -> tuple[list[str], list[int]]:
    """The unpaired results (of shard K of N by their documents' names), and each one's place in the whole list."""
    if shard is not None:
        from .shards import shard_of
    unpaired = [(str(path), i) for i, path in enumerate(pairing.unpaired_results)
             if shard is None or shard_of(document_key(path), shard[1]) == shard[0] - 1]
    return [path for path, _ in unpaired], [position for _, position in unpaired]


def score_document_pair(gt: Document, result: Document, settings: ScoreSettings = ScoreSettings(),
                        name: str | None = None, details: Details | None = None) -> ScoreReport:
    """The report of one ground-truth document against one result, both in memory
    (with ``details``, as :func:`score_paths`)."""
    metric = get_metric(settings.metric)
    _check_variant(metric, settings)
    settings.check_for(metric)
    metric.check(settings)
    name = name or gt.filename or "document"
    record: dict = {"document": name, "gt_file": None, "result_file": None}
    problems: list[Diagnostic] = []
    try:
        scored = metric.score(gt, result, settings)
        if scored is None:
            record["skipped"] = metric.no_result
        else:
            scored, metric_findings = _taken_apart(scored)
            record.update(scored)
            record["counted"] = True
            _record_findings(record, problems, list(metric_findings))
            if details is not None:
                import json

                details.add(0, json.dumps(metric.explain(gt, result, settings, record=scored), separators=(",", ":"),
                                          allow_nan=False))
    except (InputError, MetricError, GridTooLarge, GeometryFailed) as exc:
        diagnostic = (exc.diagnostic if isinstance(exc, InputError) else _metric_error(exc, name)
                      if isinstance(exc, (MetricError, GridTooLarge))
                      else Diagnostic("geometry-failed", Severity.ERROR, str(exc), name))
        problems.append(diagnostic)
        record["error"] = diagnostic.format()
    counted = [record] if record.get("counted") else []
    report = ScoreReport(metric=metric.name, description=metric.describe(settings), settings=settings.as_dict(metric),
                         documents=[record], aggregate=metric.aggregate(counted, settings), diagnostics=problems)
    report.details = details
    return report
