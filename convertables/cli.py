"""The command line: parse options, call the library, report (STYLE.md, principle 6).

Exit codes, one meaning for every command (README, "Exit codes"):

* 0: everything asked for was done, nothing of an input lost (warnings may have been printed);
* 1: something of an input was lost or not done, and said in an error line (a file not
  converted, a dropped cell, an existing output without --force; check: an error found;
  score: a document not scored, or nothing paired);
* 2: usage error: bad options, a missing input, a format that cannot do what was asked;
* 130: interrupted (Ctrl-C); no half-written output is left behind.
"""

# (No `from __future__ import annotations`: Typer would then evaluate every
# command's annotations from strings at each start, ~10 ms.)

import inspect
import json
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_command_name

from . import registry
from .diagnostics import InputError, Severity, UsageError
from .options import Option

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# The commands are declared on `commands`, the root's options on `app`. Typer
# builds the click object of every command it knows at each start (reading each
# function's signature and annotations: ~20 ms, a fifth of a small conversion);
# the root group below builds only the command that is run (every one for --help).
commands = typer.Typer()


class _CommandsByName(MutableMapping):
    """The commands declared on `commands`, each built when first looked up."""

    def __init__(self, build):
        self._build = build
        self._declared = {info.name or get_command_name(info.callback.__name__): info
                          for info in commands.registered_commands}
        self._built: dict = {}

    def __getitem__(self, name: str):
        if name not in self._built:
            self._built[name] = self._build(self._declared[name])  # (KeyError: no such command)
        return self._built[name]

    def __setitem__(self, name: str, command) -> None:
        self._declared[name] = None
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._declared[name]
        self._built.pop(name, None)

    def __iter__(self):
        return iter(self._declared)  # in the order declared

    def __len__(self) -> int:
        return len(self._declared)


class _Root(TyperGroup):
    def __init__(self, **settings):
        super().__init__(**settings)
        self.commands = _CommandsByName(lambda info: get_command_from_info(
            _made(info), pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=self.rich_markup_mode))


app = typer.Typer(
    name="convertables",
    help="Convert, check and score table-recognition data (ICDAR 2013, HTML, Excel, CSV, cTDaR, Marmot, POD).",
    cls=_Root,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"convertables {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Convert, check and score table-recognition data.

    Examples:

        convertables convert eu-001-str.xml --to json -o eu-001-str.json

        convertables convert gt/ --from icdar --to json -o out/

        convertables formats
    """


# -- reporting -------------------------------------------------------------------------

def _progress(total: int):
    """A progress bar on a terminal for batches; nothing otherwise."""
    if total < 2 or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        transient=True, console=Console(stderr=True),
    )


def _convert(
    inputs: list[Path],
    output: Optional[Path],
    from_name: Optional[str],
    to_name: Optional[str],
    *,
    force: bool,
    join: bool = False,
    report: str,
    verbose: bool,
    quiet: bool,
    settings: dict,
) -> None:
    """One conversion command: the fixed options, and ``settings``, the formats'
    own options by name (the library gives each to the reader or writer that declares it)."""
    from .api import convert as convert_files
    from .reports import Streams, reporter

    streams = Streams(verbose=verbose, quiet=quiet)
    progress = {"done": 0, "total": 0, "bar": None}

    def on_outcome(outcome, done: int, total: int) -> None:
        progress.update(done=done, total=total)
        chosen.outcome(outcome, streams)
        if progress["bar"] is None and done < total:
            progress["bar"] = _progress(total)
            if progress["bar"] is not None:
                progress["bar"].start()
                progress["task"] = progress["bar"].add_task("converting", total=total)
        if progress["bar"] is not None:
            progress["bar"].update(progress["task"], completed=done)

    try:
        chosen = reporter(report, "convert")
        if report == "json" and (output is None or str(output) == "-"):
            raise UsageError("--format json writes the report to standard output, where the document would go: "
                             "pass -o FILE")
        result = convert_files(inputs, output, to_format=to_name, from_format=from_name, force=force, join=join,
                               on_outcome=on_outcome, stdout=sys.stdout.buffer, **settings)
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except KeyboardInterrupt:
        typer.echo(f"interrupted after {progress['done']} of {progress['total']} file(s); no partial output was "
                   "left behind", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    finally:
        if progress["bar"] is not None:
            progress["bar"].stop()
    chosen.converted(result, streams, len(result.outcomes) > 1)
    lost = result.failed or any(d.severity is Severity.ERROR for d in result.diagnostics)  # (a dropped cell counts)
    raise typer.Exit(EXIT_FAILED if lost else EXIT_OK)


# -- shared option declarations --------------------------------------------------------

Inputs = Annotated[list[Path], typer.Argument(help="Input files or folders (folders are read recursively).",
                                              show_default=False)]
OutputOpt = Annotated[Optional[Path], typer.Option("-o", "--output",
                      help="Output file, or folder for a batch; '-' or nothing for standard output.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace existing output files.")]
ReportOpt = Annotated[str, typer.Option("--format", help="Report: text (to stderr) or json (to stdout).")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Show every diagnostic, info included.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Show errors only.")]


# -- the conversion commands, their format options built from the formats' declarations -------

def _declared_parameters(sources, targets, shown: tuple[str, str] | None = None) -> list[inspect.Parameter]:
    """A parameter for each option the readers of ``sources`` and the writers of
    ``targets`` declare, in a help panel naming the formats that take it; where
    ``shown`` names a reader and a writer, the options neither takes are accepted
    (and have no effect) but left out of the help."""
    found: dict[str, tuple[Option, list[str]]] = {}
    for direction, formats in (("read", sources), ("write", targets)):
        for fmt in formats:
            for option in fmt.options_for(direction):
                found.setdefault(option.name, (option, []))[1].append(fmt.name)
    parameters = []
    for name, (option, names) in found.items():
        takers = [n for n in names if shown is None or n == shown[option.direction == "write"]]
        panel = f"{'Input' if option.direction == 'read' else 'Output'} options: {', '.join(takers)}"
        parameters.append(_parameter_of(option, panel, hidden=not takers))
    return parameters


def _parameter_of(option: Option, panel: str | None, hidden: bool = False) -> inspect.Parameter:
    """The keyword parameter Typer makes ``option``'s command-line option from."""
    if option.kind is bool:
        info = typer.Option(option.flag, help=option.help, rich_help_panel=panel, hidden=hidden)
        annotation, default = bool, bool(option.default)
    else:
        extra: dict = {}
        annotation, default = Optional[option.kind], option.default
        if option.choices:  # (checked by the options: a usage error is one line, not click's box)
            extra["metavar"] = "|".join(option.choices)
        elif option.minimum is not None:
            extra["min"] = option.minimum
        if option.parse is not None:
            annotation = Optional[str]
        info = typer.Option(option.flag, help=option.help, rich_help_panel=panel, hidden=hidden,
                            show_default=option.default is not None, **extra)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[annotation, info])


_FIXED = ("inputs", "output", "from_", "to", "force", "join", "report", "verbose", "quiet")

JoinOpt = Annotated[bool, typer.Option("--join", help="One document of the one-file-per-table exports of each "
                                       "(doc-page-<p>-table-<k>.csv...), named as its single export would be.")]


def _conversion_command(source: Optional[str], target: Optional[str]):
    """``convert`` (no formats fixed) or a shortcut ``<source>2<target>``, its
    signature made from the declarations for Typer to read."""
    every = list(registry.FORMATS.values())
    sources, targets = [f for f in every if f.reads], [f for f in every if f.writes]

    def command(**values) -> None:
        _convert(values["inputs"], values["output"], source or values.get("from_"), target or values.get("to"),
                 force=values["force"], join=values["join"], report=values["report"], verbose=values["verbose"],
                 quiet=values["quiet"], settings={k: v for k, v in values.items() if k not in _FIXED})

    def parameter(name, annotation, default=inspect.Parameter.empty):
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)

    parameters = [parameter("inputs", Inputs), parameter("output", OutputOpt, None)]
    if source is None:
        parameters += [
            parameter("from_", Annotated[Optional[str], typer.Option(
                "--from", metavar="|".join(f.name for f in sources), help="Input format (default: from content).")],
                None),
            parameter("to", Annotated[Optional[str], typer.Option(
                "--to", metavar="|".join(f.name for f in targets), help="Output format (default: from -o's suffix).")],
                None),
        ]
    parameters += [parameter("force", ForceOpt, False), parameter("join", JoinOpt, False),
                   parameter("report", ReportOpt, "text"),
                   parameter("verbose", VerboseOpt, False), parameter("quiet", QuietOpt, False),
                   # (a shortcut takes every option, as convert does, and shows its two formats')
                   *_declared_parameters(sources, targets, (source, target) if source else None)]
    command.__signature__ = inspect.Signature(parameters)
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command


CONVERT_HELP = """Convert files between formats, through the canonical model.

    Examples:

        convertables convert eu-001-str.xml -o eu-001-str.json

        convertables convert gt/ --from icdar --to json -o gt-json/

        convertables convert gt-json/ --to icdar -o gt-xml/ --force
    """


SHORTCUTS = [
    ("html", "icdar"), ("xlsx", "icdar"), ("ctdar", "icdar"), ("marmot", "icdar"), ("pod", "icdar"),
    ("icdar", "ctdar"), ("icdar", "html"), ("icdar", "xlsx"), ("icdar", "json"), ("json", "icdar"),
]


def _declare_conversion_commands() -> None:
    """``convert`` and the shortcuts, declared by name only: each one's function,
    with its signature, is made when the command is built (see _made), which
    imports every format's declaration."""
    for source, target in [(None, None), *SHORTCUTS]:
        name = f"{source}2{target}" if source else "convert"
        help_text = (CONVERT_HELP if source is None else
                     f"Convert {source} to {target}: same as convert --from {source} --to {target}.")

        def declared() -> None:
            """A stand-in, replaced by the command made from the declarations."""

        declared.__name__ = name.replace("2", "_to_") if source else name
        declared.conversion = (source, target)  # type: ignore[attr-defined]
        commands.command(name, help=help_text)(declared)


def _made(info):
    """A command's declaration, with a declared command's function made
    (conversions from the formats' declarations, score from the metrics')."""
    conversion = getattr(info.callback, "conversion", None)
    made = getattr(info.callback, "made", None)
    if conversion is None and made is None:
        return info
    from copy import copy

    info = copy(info)
    info.callback = _conversion_command(*conversion) if conversion else made()
    return info


_declare_conversion_commands()


@commands.command()
def formats(report: Annotated[str, typer.Option("--format", help="text or json.")] = "text") -> None:
    """List every format and what convertables can do with it."""
    rows = [
        {
            "name": f.name,
            "title": f.title,
            "suffixes": list(f.suffixes),
            "read": f.reads,
            "write": f.writes,
            "models": list(f.models),
            "note": f.pending,
            "read_options": [o.flag for o in f.options_for("read")] if f.reads else [],
            "write_options": [o.flag for o in f.options_for("write")] if f.writes else [],
            "holds": sorted(f.holds) if f.writes and f.holds is not None else None,
        }
        for f in registry.FORMATS.values()
    ]
    if report == "json":
        typer.echo(json.dumps(rows, indent=1))
        return
    width = max(len(r["name"]) for r in rows)
    typer.echo(f"{'format':<{width}}  read   write  suffixes          what")
    for r in rows:
        typer.echo(
            f"{r['name']:<{width}}  {'yes' if r['read'] else 'no':<5}  {'yes' if r['write'] else 'no':<5}  "
            f"{' '.join(r['suffixes']):<16}  {r['title']}" + (f" [{r['note']}]" if r["note"] else "")
        )


@commands.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to check.", show_default=False)],
    gt: Annotated[Optional[Path], typer.Option("--gt", help="Ground-truth folder: also check pairing.")] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="ICDAR 2013: region or structure (default: by content).")] = None,
    pdf_dir: Annotated[Optional[Path], typer.Option("--pdf-dir", help="Folder of the PDFs: check pages and boxes.")] = None,
    report: Annotated[str, typer.Option("--format", help="Report: text, json or github (workflow annotations).")] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Pre-flight checks of submissions or ground truth.

    Exit codes: 0 no errors (warnings allowed), 1 errors (or warnings with --strict), 2 usage.

    Examples:

        convertables check submission/ --gt gt/

        convertables check gt/ --pdf-dir pdf/ --format github
    """
    from .api import check as check_files
    from .reports import Streams, reporter

    try:
        chosen = reporter(report, "check")
        found = check_files(paths, gt=gt, pdf_dir=pdf_dir, model=model)
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    chosen.checked(found, Streams(quiet=quiet))
    raise typer.Exit(EXIT_OK if found.ok(strict) else EXIT_FAILED)


def _score_command(
    gt: Annotated[Path, typer.Option("--gt", help="Ground-truth file or folder.", show_default=False)],
    result: Annotated[Path, typer.Option("--result", help="Result file or folder (any readable format).",
                                         show_default=False)],
    metric: Annotated[str, typer.Option("--metric", help="The metric (see docs/scoring.md).")] = "structure",
    report: Annotated[str, typer.Option("--format", help="Report: text (a table on stdout), json, csv (a row a document), github (workflow annotations for the documents' errors and warnings, then the table), or html (the page --html writes).")] = "text",
    per_document: Annotated[Optional[Path], typer.Option("--per-document", help="Also write per-document figures as CSV.")] = None,
    records: Annotated[Optional[Path], typer.Option("--records", help="Also write each document's record as a JSON line, as it is scored (JSON Lines).")] = None,
    html: Annotated[Optional[Path], typer.Option("--html", help="Also write the HTML report: one self-contained page with the totals, a table of the documents and, for each, its tables drawn as grids, cells coloured by what the metric found.")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, show_default=False, help="Worker processes scoring documents in parallel [default: the CPUs this process may use, as many as the available memory holds at 512 MiB each; 1: none; at most 4 per CPU are started].")] = None,
    force: ForceOpt = False,
    join: Annotated[bool, typer.Option("--join", help="Results exported one file per table "
                                       "(doc-page-<p>-table-<k>.csv...) make one document each.")] = False,
    shard: Annotated[Optional[str], typer.Option("--shard", metavar="K/N", help="Score shard K of N only (the "
                     "documents by a hash of their names, alike on every machine); merge-reports joins the N "
                     "JSON reports.")] = None,
    executor: Annotated[str, typer.Option("--executor", metavar="local|dask", help="Where documents are scored: "
                        "local (this process and worker processes here) or dask (the workers of a dask.distributed "
                        "cluster: --scheduler's, or a local cluster of --jobs worker processes started for the run; "
                        "needs pip install 'convertables[dask]'). The report is the same.")] = "local",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", metavar="ADDRESS", help="With --executor dask: "
                         "the scheduler's address (e.g. tcp://10.0.0.5:8786); its workers score, reading the files "
                         "by their paths, and --jobs is not used.")] = None,
    **settings,
) -> None:
    """Score results against ground truth.

    Examples:

        convertables score --gt gt/ --result results/ --metric structure

        convertables score --gt pubmed/gt --result pubmed/res --variant pubmed --format json

        convertables score --gt pubmed/gt --result tabby/ --variant pubmed --table-classes mavo_table_classes.csv --complexity 0 --ignore-fp

        convertables score --gt gt/ --result namysl/ --compat --per-document scores.csv

        convertables score --gt trackB2/ --result abbyy/ --metric ctdar-b --compat

        convertables score --gt gt/ --result results/ --metric region --pdf-dir pdf/ --jobs 2

        convertables score --gt gt/ --result results/ --html report.html

        convertables score --gt /data/gt --result /data/res --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from .api import score as score_files
    from .reports import Streams, reporter
    from .scoring import default_jobs
    from .scoring.report import write_csv_file

    lines = None
    try:
        chosen = reporter(report, "score")
        for path in (per_document, records, html):
            if path is None:
                continue
            from .scoring.pairing import among_inputs

            if among_inputs(path, gt, result):
                raise UsageError(f"{path} is one of the inputs; refused even with --force")
            if path.exists() and not force:
                raise UsageError(f"{path} exists already; pass --force to replace it")
        jobs = default_jobs() if jobs is None else jobs
        given = {k: v for k, v in settings.items() if v is not None and v is not False}
        if records is not None:
            from .files import AtomicLines

            lines = AtomicLines(records, force=force)
        bar = _progress(2) if report == "text" else None
        task = bar.add_task("scoring", total=None) if bar is not None else None

        def on_document(record: dict, total: int) -> None:
            if lines is not None:  # (as each is scored: a long run's records can be followed)
                lines.write(json.dumps(record))
            if bar is not None:
                bar.update(task, total=total, advance=1)

        explain = html is not None or report == "html"
        if bar is None:
            scored = score_files(gt, result, metric, jobs=jobs, join=join, shard=shard, on_document=on_document,
                                 explain=explain, executor=executor, scheduler=scheduler, spill=True,
                                 **given)
        else:
            with bar:
                scored = score_files(gt, result, metric, jobs=jobs, join=join, shard=shard,
                                     on_document=on_document, explain=explain, executor=executor,
                                     scheduler=scheduler, spill=True, **given)
    except UsageError as exc:
        if lines is not None:
            lines.discard()
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except KeyboardInterrupt:
        if lines is not None:
            lines.discard()
        typer.echo("interrupted", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    unwritten = None
    if lines is not None:
        try:
            lines.close()
        except InputError as exc:
            unwritten = exc.diagnostic
    if per_document is not None:
        try:
            write_csv_file(scored, per_document, force=force)
        except InputError as exc:  # the scores are still reported, and this said after them
            unwritten = exc.diagnostic
    if html is not None:
        try:
            scored.write_html(html, force=force)
        except InputError as exc:
            unwritten = exc.diagnostic
    chosen.scored(scored, Streams())
    if unwritten is not None:
        typer.echo(unwritten.format(), err=True)
    raise typer.Exit(EXIT_FAILED if scored.errors or unwritten else EXIT_OK)


@commands.command("merge-reports")
def merge_reports(
    reports: Annotated[list[Path], typer.Argument(help="The JSON reports of score --shard K/N --format json, "
                                                       "one a shard.", show_default=False)],
    output: OutputOpt = None,
    force: ForceOpt = False,
) -> None:
    """Join the reports of a corpus scored in shards into the report one run gives.

    Records, errors and unpaired files come in the whole run's order, and totals
    and means are computed again from the records; the reports must be of one
    run's shards, every shard once. Exit codes: 0 merged, 1 the merged report
    holds errors (as score's would), 2 usage.

    Examples:

        convertables score --gt gt/ --result res/ --shard 1/2 --format json > s1.json

        convertables merge-reports s1.json s2.json -o all.json
    """
    from .files import read_bytes_of, write_atomic
    from .scoring.shards import merge_reports as merge

    try:
        loaded = []
        for path in reports:
            try:
                loaded.append(json.loads(read_bytes_of(path)))
            except ValueError as exc:
                raise UsageError(f"{path}: not a JSON report ({exc})") from None
        merged = merge(loaded)
        text = merged.to_json() + "\n"
        if output is None or str(output) == "-":
            sys.stdout.write(text)
        else:
            write_atomic(output, text.encode("utf-8"), force=force)
    except InputError as exc:  # a report that cannot be read, an output that cannot be written
        typer.echo(exc.diagnostic.format(), err=True)
        raise typer.Exit(EXIT_FAILED)
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FAILED if merged["errors"] else EXIT_OK)


def _score_command_made():
    """``score`` with an option for every setting a metric declares, in a help
    panel naming the metrics that take it."""
    from .scoring.metric import COMMON_SETTINGS, metrics

    takers: dict[str, tuple[Option, list[str]]] = {o.name: (o, []) for o in COMMON_SETTINGS}
    for metric in metrics().values():
        for option in metric.settings:
            takers.setdefault(option.name, (option, []))[1].append(metric.name)
    fixed = [p.replace(kind=p.KEYWORD_ONLY) for p in inspect.signature(_score_command).parameters.values()
             if p.kind is not p.VAR_KEYWORD]
    names = "|".join(metrics())
    fixed[2] = fixed[2].replace(annotation=Annotated[str, typer.Option(
        "--metric", metavar=names, help="The metric (see docs/scoring.md).")])
    variants = "; ".join(f"{m.name}: {' or '.join(m.variants)}" for m in metrics().values())
    declared = []
    for name, (option, names) in takers.items():
        panel = f"Settings of {', '.join(names)}" if names else None
        if name == "variant":
            from dataclasses import replace

            option = replace(option, help=f"The metric's variant, the first its default ({variants}).")
        declared.append(_parameter_of(option, panel))
    parameters = [*fixed[:3], *[p for p in declared if p.name in ("variant", "result_format")], *fixed[3:],
                  *[p for p in declared if p.name not in ("variant", "result_format")]]

    def score(**values) -> None:
        _score_command(**values)

    score.__doc__ = _score_command.__doc__
    score.__signature__ = inspect.Signature(parameters)
    score.__annotations__ = {p.name: p.annotation for p in parameters}
    return score


def _declare_score_command() -> None:
    def score() -> None:
        """A stand-in, replaced by the command made from the metrics' declarations."""

    score.made = _score_command_made  # type: ignore[attr-defined]
    commands.command("score", help=_score_command.__doc__)(score)


_declare_score_command()


def main() -> None:
    import gc

    # A command builds hundreds of thousands of small objects that form no cycles
    # (cells, boxes); a larger first generation spares the collector re-scanning
    # them every 700 allocations (HTML with 168,000 cells: -18%; 1,000,000 rather
    # than 100,000: -1 to -2% more). Only cyclic garbage waits for a collection, and
    # the readers and the scorer make none; acyclic objects go as soon as unused.
    gc.set_threshold(1_000_000, 50, 100)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
