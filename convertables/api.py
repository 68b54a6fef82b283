"""The library's front door: the three commands as functions, taking paths or
documents and returning the report objects the command line presents.

Each mirrors its command: the same settings by the same names (the options'
names with ``_`` for ``-``), the same checks, the same results.

>>> from convertables import check, convert, score
>>> report = convert("samples/icdar/sample-str.xml", to_format="json")
>>> report.converted, report.outcomes[0].data[:30]
(1, b'{\\n "format": "convertables",\\n ')

>>> found = check(["samples/icdar/sample-str.xml"])
>>> found.ok(), found.error_count, found.warning_count
(True, 0, 0)

>>> scored = score("samples/icdar", "samples/icdar")
>>> scored.total["f1"], scored.total["gt"], len(scored.documents)
(1.0, 14, 1)
"""

from __future__ import annotations

import json
import os
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .diagnostics import Diagnostics, InputError, UsageError
from .model import Document
from .reporters import CheckReport, ConvertReport

if TYPE_CHECKING:
    from .scoring.executors import Executor

PathLike = str | os.PathLike


def convert(
    inputs: PathLike | Iterable[PathLike] | Document,
    output: PathLike | None = None,
    *,
    to_format: str | None = None,
    from_format: str | None = None,
    force: bool = False,
    join: bool = False,
    on_outcome: Callable[..., None] | None = None,
    stdout=None,
    **settings: Any,
) -> ConvertReport:
    """Convert files (or a folder, read recursively, or a :class:`Document`) to
    ``to_format`` (by default from ``output``'s suffix), into ``output``: a file,
    a folder for several inputs, or None to keep the bytes in each outcome's
    ``data`` (or write them to ``stdout``, a binary stream, where given).
    ``settings`` are the formats' own (``split_blank_rows=True``, ``model="region"``,
    ``dpi=300``...); each goes to the reader or writer that declares it. With
    ``join``, one-file-per-table exports (``doc-page-2-table-1.csv``...) make one
    document each (:mod:`convertables.joining`), named as a single export of it would be.
    ``on_outcome(outcome, done, total)`` is called as each file is done.

    >>> report = convert("samples/html/sample.html", to_format="icdar", page=3)
    >>> b'page="3"' in report.outcomes[0].data
    True

    Raises :class:`UsageError` for a request that cannot work, before any file
    is touched; a file that cannot be converted is an outcome with ``ok`` False.
    """
    from . import registry
    from .batch import Outcome, plan
    from .files import dumps, output_format, write_atomic
    from .options import split_settings

    read_options, write_options = split_settings(settings)
    from .files import FILE, PathArg, check_command_paths

    # (one line now, not an error on every document)
    check_command_paths(PathArg(flag, given, FILE, takes="it takes one file (the document's PDF, or the page image)")
                        for flag, given in (("--pdf", write_options.pdf), ("--image", write_options.image)))
    given_output = output if isinstance(output, str) else None  # (text keeps a trailing slash: a folder)
    output = Path(output) if output is not None else None  # ("-": standard output, where stdout is given)
    source = registry.get(from_format) if from_format else None
    if source is not None:
        source.reader()
    if to_format:
        target = registry.get(to_format)
    elif output is not None and str(output) != "-" and output.suffix:
        target = output_format(output)
    else:
        raise UsageError("say which format to write: --to FORMAT (or an -o file with a suffix)")
    target.writer()
    if isinstance(inputs, Document):
        from .batch import check_settings_used

        if read_options:
            raise UsageError(f"{', '.join(sorted(read_options))}: setting(s) for reading files; a Document "
                             "is converted as it is, not read")
        check_settings_used([], None, target, read_options, write_options)
        check_command_paths([PathArg("-o", given_output or output, FILE, output=True)])
        if output is not None and str(output) == "-":
            output = None
        diagnostics = Diagnostics(str(output) if output else None)
        outcome = Outcome(Path("<document>"), output)
        from .diagnostics import InputError

        try:
            data = dumps(inputs, target.name, write_options, diagnostics)
            if output is None and stdout is not None:
                stdout.write(data)
            elif output is None:
                outcome.data = data
            else:
                write_atomic(output, data, force=force)
            outcome.ok = True
        except InputError as exc:
            diagnostics.items.append(exc.diagnostic)
        outcome.diagnostics = diagnostics.items
        return ConvertReport([outcome])
    paths = [Path(inputs)] if isinstance(inputs, (str, os.PathLike)) else [Path(p) for p in inputs]
    batch = plan(paths, given_output or output, source, target, read_options, write_options, force, stdout=stdout, join=join)
    report = ConvertReport()
    for outcome in batch:
        report.outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome, len(report.outcomes), len(batch))
    return report


def check_score_paths(
    gt: PathLike,
    result: PathLike,
    *,
    join: bool = False,
    force: bool = False,
    outputs: dict[str, PathLike | None] | None = None,
    force_flag: str = "force=True",
    **settings: Any,
) -> None:
    """Check the paths a scoring run is given, before any work
    (:func:`~convertables.files.check_command_paths`): the ground truth and the results,
    the files and folders its settings read (``pdf_dir``, ``table_classes``),
    and ``outputs`` by option name (``{"--html": "report.html"}``), files to
    be written: none may be one of the inputs, a file read from an input folder
    (what is read there: the formats taken from folders, with ``join`` or a
    ``result_format`` or ``gt_format`` theirs), or a folder; without ``force`` none may exist."""
    from . import registry
    from .files import ANY, FILE, FOLDER, PathArg, check_command_paths
    from .inputs import folder_suffixes

    result_format, gt_format = settings.get("result_format"), settings.get("gt_format")
    arguments = [PathArg("--gt", gt, ANY, reads=folder_suffixes(registry.get(gt_format) if gt_format else None)),
                 PathArg("--result", result, ANY, reads=folder_suffixes(
                     registry.get(result_format) if result_format else None, join))]
    if settings.get("pdf_dir") is not None:
        arguments.append(PathArg("--pdf-dir", settings["pdf_dir"], FOLDER, reads=(".pdf",)))
    if settings.get("table_classes") is not None:
        arguments.append(PathArg("--table-classes", settings["table_classes"], FILE))
    for option, path in (outputs or {}).items():
        arguments.append(PathArg(option, path, FILE, output=True))
    check_command_paths(arguments, force=force, force_flag=force_flag)


def check(
    paths: PathLike | Iterable[PathLike] | Document,
    *,
    gt: PathLike | None = None,
    pdf_dir: PathLike | None = None,
    model: str | None = None,
    on_file: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Pre-flight checks of files or folders (or of one :class:`Document`'s
    content): the format's schema, the readers' findings, the rules on the
    document, and with ``gt`` (a folder) the pairing with the ground truth. ``on_file(done, total)`` is
    called as each file (or container member) is checked.

    >>> check(["samples/icdar/sample-str.xml"], model="region").error_count > 0
    True
    """
    from .checks import CheckOptions, check_document, check_paths

    from .files import ANY, FOLDER, PathArg, check_command_paths

    if model not in (None, "region", "structure"):
        raise UsageError(f"--model is region or structure, not {model!r}")
    if not isinstance(paths, Document):
        paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    check_command_paths([*(PathArg("the input", p) for p in ([] if isinstance(paths, Document) else paths)),
                         PathArg("--gt", gt, ANY), PathArg("--pdf-dir", pdf_dir, FOLDER, reads=(".pdf",))])
    options = CheckOptions(model=model, pdf_dir=Path(pdf_dir) if pdf_dir else None, gt=Path(gt) if gt else None)
    if isinstance(paths, Document):
        return CheckReport(check_document(paths, options))
    return CheckReport(check_paths([Path(p) for p in paths], options, on_file))


OUTPUT_OPTIONS = {"per_document": "--per-document", "records": "--records", "html": "--html", "report": "-o"}
"""The files :func:`score` writes besides returning its report (``outputs``' keys),
and the options that name them in messages."""


class OutputsNotWritten(InputError):
    """Scoring was done, but some of its output files could not be written: the
    ``report`` is whole, ``diagnostics`` say which files are missing and why
    (the first is the exception's own)."""

    def __init__(self, report, diagnostics: list):
        super().__init__(diagnostics[0])
        self.report, self.diagnostics = report, diagnostics


def score(
    gt: PathLike | Document,
    result: PathLike | Document,
    metric: str | None = None,
    *,
    profile: str | None = None,
    jobs: int = 1,
    join: bool = False,
    shard: tuple[int, int] | str | None = None,
    on_document: Callable[[dict, int], None] | None = None,
    outputs: dict[str, PathLike | None] | None = None,
    html: PathLike | None = None,
    force: bool = False,
    force_flag: str = "force=True",
    explain: bool = False,
    executor: str | Executor = "local",
    scheduler: str | None = None,
    spill: bool = False,
    **settings: Any,
):
    """Score results against ground truth: two files, two folders (paired by
    name), or two :class:`Document` values, with ``metric`` and its settings
    (``variant="pubmed"``, ``compat=True``, ``pdf_dir=...``; see docs/scoring.md;
    ``structure`` where none is given), or with ``profile``, a benchmark's
    recipe (its metric and settings, those given overriding them; see
    docs/benchmarks.md).
    With ``join``, one-file-per-table results make one document each. With
    ``shard=(K, N)`` (or ``"K/N"``), only the documents of shard K of N are scored;
    :func:`convertables.scoring.shards.merge_reports` puts the N reports together.
    ``outputs`` names files to write besides returning the report, by kind:
    ``{"per_document": "scores.csv", "records": "records.jsonl", "html": "report.html"}``
    (a kind left out or None: not written): the per-document CSV, each document's
    record as a JSON line written as it is scored, the HTML report; ``"report"``: the
    report in the format its suffix names (``.json``, ``.csv``, ``.html``, ``.txt``: what
    the command's ``--format`` of that name prints). Their paths are
    checked before any work (none may be an input, or exist without ``force``;
    ``force_flag`` is how the refusal names ``force``); each is put in place whole,
    and an interrupted or failed run leaves none. A file that cannot be written
    after scoring raises :class:`OutputsNotWritten`, which carries the report and the
    others are written still. ``html=path`` is ``outputs={"html": path}``.
    With ``explain``, the report keeps what each
    document's cells did (its ``details``), which ``report.write_html(path)`` draws.
    ``executor="dask"`` scores the documents on the workers of a dask.distributed
    cluster (the ``dask`` extra): the scheduler at ``scheduler`` (an address such as
    ``"tcp://10.0.0.5:8786"``), or a local cluster of ``jobs`` worker processes
    started for the run; the report is the one ``executor="local"`` gives.
    ``executor`` may also be an :class:`~convertables.scoring.executors.Executor`
    object, one's own (docs/scoring.md, "An executor of one's own"): its workers score
    the documents, and it is the caller's to enter and leave (``with executor: score(..., executor=executor)``).
    With ``spill``, the records are kept in a temporary file rather than in memory,
    as the command line keeps them (``report.documents`` is then a sequence read
    from it, and ``report.to_json()`` the way to JSON).
    Returns a :class:`~convertables.scoring.ScoreReport`.

    >>> from convertables import read
    >>> doc = read("samples/icdar/sample-str.xml")
    >>> score(doc, doc).total["f1"]
    1.0
    """
    from .scoring import ScoreSettings, score_paths
    from .scoring.executors import executor_for
    from .scoring.explain import Details
    from .scoring.runner import score_document_pair

    outputs = dict(outputs or {})
    unknown = sorted(set(outputs) - set(OUTPUT_OPTIONS))
    if unknown:
        raise UsageError(f"outputs: {', '.join(map(repr, unknown))}: not an output of score "
                         f"({', '.join(OUTPUT_OPTIONS)})")
    if html is not None:
        if outputs.get("html") is not None:
            raise UsageError("give the HTML report's path once: html= or outputs['html']")
        outputs["html"] = html
    named = {OUTPUT_OPTIONS[kind]: path for kind, path in outputs.items()}
    drawn = outputs.get("html") is not None
    if outputs.get("report") is not None:
        from .scoring.report import report_format_of

        drawn = report_format_of(outputs["report"]) == "html" or drawn
    if profile is not None:
        from .scoring.profiles import apply_profile

        metric, settings = apply_profile(profile, metric, settings)
    chosen = ScoreSettings(metric or "structure", **settings)
    where = executor_for(executor, scheduler)  # (checked first: a missing extra, a scheduler without dask)
    documents = isinstance(gt, Document) or isinstance(result, Document)
    if documents and not (isinstance(gt, Document) and isinstance(result, Document)):
        raise UsageError("score two documents, or two paths, not one of each")
    if documents:
        from .files import FILE, PathArg, check_command_paths

        check_command_paths([PathArg(option, path, FILE, output=True) for option, path in named.items()],
                            force=force, force_flag=force_flag)
    else:
        check_score_paths(gt, result, join=join, force=force, force_flag=force_flag, outputs=named, **settings)
    details = Details() if drawn or explain else None
    records = None
    if outputs.get("records") is not None:
        from .files import AtomicLines

        records = AtomicLines(Path(outputs["records"]), force=force)
    try:
        if documents:
            report = score_document_pair(gt, result, chosen, details=details)
            if records is not None:
                for record in report["documents"]:
                    records.write(json.dumps(record))
        else:
            if isinstance(shard, str):
                from .scoring.shards import parse_shard

                shard = parse_shard(shard)
            elif shard is not None and not (len(shard) == 2 and 1 <= shard[0] <= shard[1]):
                raise UsageError(f"shard is (K, N) with 1 <= K <= N, not {shard!r}")
            each = on_document
            if records is not None:
                def each(record: dict, total: int) -> None:
                    records.write(json.dumps(record))  # (as each is scored: a long run's records can be followed)
                    if on_document is not None:
                        on_document(record, total)

            # (a scheduler is reached here: one that cannot be is said before the corpus is read;
            # an executor given as an object is its caller's to enter and leave)
            with (where if where is not executor else nullcontext()):
                report = score_paths(gt, result, chosen, jobs, each, join=join,
                                     shard=tuple(shard) if shard else None, details=details, executor=where,
                                     spill=spill, profile=profile)
    except BaseException:
        if records is not None:
            records.discard()
        raise
    _write_outputs(report, outputs, records, force)
    return report


def _write_outputs(report, outputs: dict, records, force: bool) -> None:
    """Put the scored run's files in place: each that can be, then
    :class:`OutputsNotWritten` for those that cannot."""
    from .scoring.report import write_csv_file, write_report_file

    unwritten = []
    writers = [("per_document", lambda path: write_csv_file(report, path, force=force)),
               ("html", lambda path: report.write_html(path, force=force)),
               ("report", lambda path: write_report_file(report, path, force=force))]
    if records is not None:
        try:
            records.close()
        except InputError as exc:
            unwritten.append(exc.diagnostic)
    for kind, write in writers:
        if outputs.get(kind) is not None:
            try:
                write(Path(outputs[kind]))
            except InputError as exc:
                unwritten.append(exc.diagnostic)
    if unwritten:
        raise OutputsNotWritten(report, unwritten)
