"""The command line: parse options, call the library, report; the work is the library's.

Exit codes, one meaning for every command (README, "Exit codes"):

* 0: everything asked for was done, nothing of an input lost (warnings may have been printed);
* 1: something of an input was lost or not done, and said in an error line (a file not
  converted, a dropped cell, an existing output without --force; check: an error found;
  score: a document not scored, or nothing paired);
* 2: usage error: bad options (one that no format of the conversion takes), a missing input,
  a format that cannot do what was asked;
* 130: interrupted (Ctrl-C), 143 terminated (SIGTERM: timeout, Slurm, Kubernetes, CI runners),
  129 hung up (SIGHUP): all alike, no half-written output is left behind and worker processes end.
"""

# (No `from __future__ import annotations`: Typer would then evaluate every
# command's annotations from strings at each start.)

import inspect
import json
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_command_name
from typer.models import CommandInfo

from . import registry
from .diagnostics import InputError, Severity, UsageError
from .options import Option
from .cli_help import PlainHelpCommand, listed_declaration, listed_plainly, shown_plainly
from .interrupts import catch_signals, exit_soon, interrupted_code, raise_if_signalled, signalled
from .progress import Progress
from .reporters import reporter_names

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


# The commands are declared on `commands`, the root's options on `app`. Typer
# builds the click object of every command it knows at each start (reading each
# function's signature and annotations, a large part of a small conversion);
# the root group below builds only the command that is run (every one for --help).
commands = typer.Typer()


class _CommandsByName(MutableMapping):
    """The commands declared on `commands`, each built when first looked up."""

    def __init__(self, build):
        self._build = build
        self._declared = {info.name or get_command_name(info.callback.__name__): info
                          for info in commands.registered_commands}
        self._built: dict = {}
        self.listing = False
        """True while the root's help lists the commands: each is then built
        without its options (its name and help are all the list shows)."""

    def __getitem__(self, name: str):
        if self.listing and name not in self._built:
            info = self._declared[name]
            if info is not None:
                return self._build(listed_declaration(info))
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


_FORMATS_NAMED = "{formats}"


def _shortcut_formats(name: str):
    """The reader and the writer a ``<from>2<to>`` name asks for, by the registry:
    (source, target) where both exist and can do it, else the reason it is no
    shortcut (None where the name is not of that shape at all)."""
    if "2" not in name:
        return None
    listed = registry.FORMATS
    reason = None
    for at in (i for i, c in enumerate(name) if c == "2"):
        source, target = name[:at], name[at + 1:]
        if source in listed and target in listed:
            if listed[source].reads and listed[target].writes:
                return source, target
            reason = (f"{source} cannot be read" if not listed[source].reads
                      else f"{target} cannot be written") + " (convertables formats says what each format does)"
    return reason


class _Root(TyperGroup):
    def __init__(self, **settings):
        super().__init__(**settings)
        self.commands = _CommandsByName(lambda info: get_command_from_info(
            _with_declared_options(info), pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=self.rich_markup_mode))
        self._unlisted: dict = {}

    # The tagline names the formats of the registry, looked up only when the help is shown.
    @property
    def help(self) -> Optional[str]:
        text = self._help
        if text and _FORMATS_NAMED in text:
            text = text.replace(_FORMATS_NAMED, ", ".join(registry.FORMATS))
        return text

    @help.setter
    def help(self, value: Optional[str]) -> None:
        self._help = value

    def get_command(self, ctx, name: str):
        found = super().get_command(ctx, name)
        if found is None:
            pair = _shortcut_formats(name)
            if isinstance(pair, tuple):  # any <from>2<to>, made as the listed shortcuts are (and not listed)
                found = self._unlisted.get(name)
                if found is None:
                    found = self._unlisted[name] = self.commands._build(_conversion_declaration(*pair))
        return found

    def resolve_command(self, ctx, args):
        if args and not args[0].startswith("-") and args[0] not in self.commands._declared:
            reason = _shortcut_formats(args[0])
            if isinstance(reason, str):
                ctx.fail(f"No such command {args[0]!r}: {reason}.")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx, formatter) -> None:
        shown = shown_plainly(self)
        shown.get_command = lambda ctx, name: listed_plainly(self.get_command(ctx, name))
        self.commands.listing = True  # (the list shows names and help, without building each command)
        try:
            return TyperGroup.format_help(shown, ctx, formatter)
        finally:
            self.commands.listing = False


app = typer.Typer(
    name="convertables",
    help=("Convert, check and score table-recognition data: " + _FORMATS_NAMED + ".\n\n"
          "A shortcut SOURCE2TARGET (icdar2json, textract2icdar, ...) is convert --from SOURCE --to TARGET, "
          "for any format convertables reads and any it writes (convertables formats lists them)."),
    cls=_Root,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",  # (every help text escaped: see _plain)
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

def _convert(
    inputs: list[Path],
    output: Optional[str],
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
    from .reporters import Streams, reporter

    streams = Streams(verbose=verbose, quiet=quiet)
    progress = Progress("converting")

    def on_outcome(outcome, done: int, total: int) -> None:
        raise_if_signalled()
        chosen.outcome(outcome, streams)
        progress.update(done, total)

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
    except KeyboardInterrupt as exc:
        progress.close()
        typer.echo(f"interrupted after {progress.done} of {progress.total} file(s); no partial output was "
                   "left behind", err=True)
        raise typer.Exit(interrupted_code(exc))
    finally:
        progress.close()
    chosen.converted(result, streams, len(result.outcomes) > 1)
    lost = result.failed or any(d.severity is Severity.ERROR for d in result.diagnostics)  # (a dropped cell counts)
    raise typer.Exit(EXIT_FAILED if lost else EXIT_OK)


# -- shared option declarations --------------------------------------------------------

Inputs = Annotated[list[Path], typer.Argument(help="Input files or folders (folders are read recursively).",
                                              show_default=False)]
OutputOpt = Annotated[Optional[str], typer.Option("-o", "--output", metavar="PATH",
                      help="Output file, or folder for a batch; '-' or nothing for standard output.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace existing output files.")]
ReportOpt = Annotated[str, typer.Option("--format", metavar="|".join(reporter_names("convert")),
                                        help="Report: text (to stderr) or json (to stdout).")]
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


def _parameter_of(option: Option, panel: str | None, hidden: bool = False,
                  metavar: str | None = None) -> inspect.Parameter:
    """The keyword parameter Typer makes ``option``'s command-line option from
    (``metavar``: the values it takes, where the option does not list them)."""
    if option.kind is bool:
        info = typer.Option(option.flag, help=option.help, rich_help_panel=panel, hidden=hidden)
        annotation, default = bool, bool(option.default)
    else:
        extra: dict = {}
        annotation, default = Optional[option.kind], option.default
        if option.choices:  # (checked by the options: a usage error is one line, not click's box)
            extra["metavar"] = "|".join(option.choices)
        elif metavar is not None:
            extra["metavar"] = metavar
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

    A format's option that neither the input's nor the output's format takes is
    a usage error (exit 2).

    Examples:

        convertables convert eu-001-str.xml -o eu-001-str.json

        convertables convert gt/ --from icdar --to json -o gt-json/

        convertables convert gt-json/ --to icdar -o gt-xml/ --force
    """


SHORTCUTS = [
    ("html", "icdar"), ("xlsx", "icdar"), ("ctdar", "icdar"), ("marmot", "icdar"), ("pod", "icdar"),
    ("icdar", "ctdar"), ("icdar", "html"), ("icdar", "xlsx"), ("icdar", "json"), ("json", "icdar"),
]


def _conversion_declaration(source: Optional[str], target: Optional[str]) -> CommandInfo:
    """``convert`` or a shortcut, declared by name only: its function, with its
    signature, is made when the command is built (see _with_declared_options), which imports
    every format's declaration."""
    name = f"{source}2{target}" if source else "convert"
    help_text = (CONVERT_HELP if source is None else
                 f"Convert {source} to {target}: same as convert --from {source} --to {target}.")

    def declared() -> None:
        """A stand-in, replaced by the command made from the declarations."""

    declared.__name__ = name.replace("2", "_to_").replace("-", "_") if source else name
    declared.conversion = (source, target)  # type: ignore[attr-defined]
    return CommandInfo(name, cls=PlainHelpCommand, callback=declared, help=help_text)


def _declare_conversion_commands() -> None:
    """``convert`` and the listed shortcuts (any other ``<from>2<to>`` is made
    when asked for: _Root.get_command)."""
    for source, target in [(None, None), *SHORTCUTS]:
        commands.registered_commands.append(_conversion_declaration(source, target))


def _with_declared_options(info):
    """A command's declaration, with a declared command's function made
    (conversions from the formats' declarations, score from the metrics')."""
    conversion = getattr(info.callback, "conversion", None)
    make_function = getattr(info.callback, "make_function", None)
    if conversion is None and make_function is None:
        return info
    from copy import copy

    info = copy(info)
    info.callback = _conversion_command(*conversion) if conversion else make_function()
    return info


_declare_conversion_commands()


@commands.command(cls=PlainHelpCommand)
def formats(report: Annotated[str, typer.Option("--format", metavar="text|json", help="text or json.")] = "text") -> None:
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


@commands.command(cls=PlainHelpCommand)
def check(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to check.", show_default=False)],
    gt: Annotated[Optional[Path], typer.Option("--gt", help="Ground-truth folder: also check pairing.")] = None,
    model: Annotated[Optional[str], typer.Option("--model", metavar="region|structure", help="ICDAR 2013: region or structure (default: by content).")] = None,
    pdf_dir: Annotated[Optional[Path], typer.Option("--pdf-dir", help="Folder of the PDFs: check pages and boxes.")] = None,
    report: Annotated[str, typer.Option("--format", metavar="|".join(reporter_names("check")), help="Report: text, json or github (workflow annotations).")] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show every finding, each on its own line, "
                                          "infos included.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Pre-flight checks of submissions or ground truth.

    Exit codes: 0 no errors (warnings allowed), 1 errors (or warnings with --strict), 2 usage.

    Examples:

        convertables check submission/ --gt gt/

        convertables check gt/ --pdf-dir pdf/ --format github
    """
    from .api import check as check_files
    from .reporters import Streams, reporter

    try:
        chosen = reporter(report, "check")
        with Progress("checking") as progress:
            found = check_files(paths, gt=gt, pdf_dir=pdf_dir, model=model, on_file=progress.update)
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except KeyboardInterrupt as exc:
        typer.echo("interrupted", err=True)
        raise typer.Exit(interrupted_code(exc))
    chosen.checked(found, Streams(verbose=verbose, quiet=quiet))
    raise typer.Exit(EXIT_OK if found.ok(strict) else EXIT_FAILED)


def _score_command(
    gt: Annotated[Path, typer.Option("--gt", help="Ground-truth file or folder.", show_default=False)],
    result: Annotated[Path, typer.Option("--result", help="Result file or folder (any readable format).",
                                         show_default=False)],
    metric: Annotated[Optional[str], typer.Option("--metric", help="The metric (see docs/scoring.md).")] = None,
    profile: Annotated[Optional[str], typer.Option("--profile", help="A benchmark's recipe.")] = None,
    report: Annotated[str, typer.Option("--format", metavar="|".join(reporter_names("score")), help="Report: text (a table on stdout), json, csv (a row a document), github (workflow annotations for the documents' errors and warnings, then the table), or html (the page --html writes).")] = "text",
    per_document: Annotated[Optional[str], typer.Option("--per-document", metavar="FILE", help="Also write per-document figures as CSV.")] = None,
    records: Annotated[Optional[str], typer.Option("--records", metavar="FILE", help="Also write each document's record as a JSON line, as it is scored (JSON Lines).")] = None,
    html: Annotated[Optional[str], typer.Option("--html", metavar="FILE", help="Also write the HTML report: one self-contained page with the totals, a table of the documents and, for each, its tables drawn as grids, cells coloured by what the metric found.")] = None,
    output: Annotated[Optional[str], typer.Option("-o", "--output", metavar="FILE", help="Write the report to FILE rather than standard output, in the format its suffix names: .json (json), .csv (csv), .html (html) or .txt (text); '-': standard output.")] = None,
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

        convertables score --gt gt/ --result results/ -o scores.json

        convertables score --gt gt-html/ --result model-html/ --metric teds --html teds.html

        convertables score --gt gt-html/ --result model-html/ --metric grits

        convertables score --gt ground-truth/markdown --result prediction/mineru/markdown --profile opendataloader

        convertables score --gt /data/gt --result /data/res --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from .api import OutputsNotWritten, score as score_files
    from .reporters import Streams, reporter
    from .scoring import default_jobs

    unwritten = []
    try:
        chosen = reporter(report, "score")
        output = None if output == "-" else output
        if output is not None:
            from .scoring.report import report_format_of

            named = report_format_of(output)
            if report != named and _given_on_command_line("report"):
                raise UsageError(f"-o {output} writes the {named} report (its suffix says so), not --format {report}")
        jobs = default_jobs() if jobs is None else jobs
        given = {k: v for k, v in settings.items() if v is not None and v is not False}
        if profile is not None:  # the profile's settings stand where the command line gives no other
            given = {k: v for k, v in given.items() if _given_on_command_line(k)}
        progress = Progress("scoring")

        def on_document(record: dict, total: int) -> None:
            raise_if_signalled()
            progress.update(progress.done + 1, total)

        with progress:
            try:
                scored = score_files(gt, result, metric, profile=profile, jobs=jobs, join=join, shard=shard,
                                     on_document=on_document, force=force, force_flag="--force",
                                     outputs={"per_document": per_document, "records": records, "html": html,
                                              "report": output},
                                     explain=report == "html" and output is None, executor=executor,
                                     scheduler=scheduler, spill=True, **given)
            except OutputsNotWritten as exc:  # the scores are still reported, and this said after them
                scored, unwritten = exc.report, exc.diagnostics
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except InputError as exc:  # (the records' file cannot be made, or written as the documents come)
        typer.echo(exc.diagnostic.format(), err=True)
        raise typer.Exit(EXIT_FAILED)
    except OSError as exc:  # (the run's own temporary files on a full disk, a folder removed under the run)
        where = f" ({exc.filename})" if exc.filename else ""
        typer.echo(f"error: the run cannot go on: {exc.strerror or exc}{where}", err=True)
        raise typer.Exit(EXIT_FAILED)
    except KeyboardInterrupt as exc:
        typer.echo("interrupted; no partial output was left behind", err=True)
        raise typer.Exit(interrupted_code(exc))
    if output is None:
        chosen.scored(scored, Streams())
    else:  # (the report is in its file: the documents' problems are still said here)
        for diagnostic in Streams().shown(scored.diagnostics):
            typer.echo(diagnostic.format(), err=True)
    for diagnostic in unwritten:
        typer.echo(diagnostic.format(), err=True)
    raise typer.Exit(EXIT_FAILED if scored.errors or unwritten else EXIT_OK)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON has")


@commands.command("merge-reports", cls=PlainHelpCommand)
def merge_reports(
    reports: Annotated[list[Path], typer.Argument(help="The JSON reports of score --shard K/N --format json, "
                                                       "one a shard.", show_default=False)],
    output: Annotated[Optional[str], typer.Option("-o", "--output", metavar="FILE",
                      help="Output file; '-' or nothing for standard output.")] = None,
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
    from .files import FILE, PathArg, check_command_paths, read_bytes_of, write_atomic
    from .scoring.shards import merge_reports as merge

    try:
        check_command_paths([*(PathArg("the report", path, FILE) for path in reports),
                     PathArg("-o", output, FILE, output=True)], force=force)
        loaded = []
        for path in reports:
            try:
                loaded.append(json.loads(read_bytes_of(Path(path)), parse_constant=_no_constant))
            except ValueError as exc:
                raise UsageError(f"{path}: not a JSON report ({exc})") from None
            except RecursionError:
                raise UsageError(f"{path}: not a JSON report (it nests too deeply to read)") from None
        merged = merge(loaded)
        text = merged.to_json() + "\n"
        if output is None or str(output) == "-":
            sys.stdout.write(text)
        else:
            write_atomic(Path(output), text.encode("utf-8"), force=force)
    except InputError as exc:  # a report that cannot be read, an output that cannot be written
        typer.echo(exc.diagnostic.format(), err=True)
        raise typer.Exit(EXIT_FAILED)
    except UsageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except KeyboardInterrupt as exc:
        typer.echo("interrupted; no partial output was left behind", err=True)
        raise typer.Exit(interrupted_code(exc))
    raise typer.Exit(EXIT_FAILED if merged["errors"] else EXIT_OK)


def _given_on_command_line(name: str) -> bool:
    """Whether the running command's parameter ``name`` was given, not left at its default."""
    try:  # (typer 0.28 carries its own copy of click; earlier versions use click itself)
        from typer._click.core import ParameterSource
        from typer._click.globals import get_current_context
    except ImportError:
        from click import get_current_context
        from click.core import ParameterSource
    context = get_current_context(silent=True)
    return context is None or context.get_parameter_source(name) is not ParameterSource.DEFAULT


def _score_function():
    """``score`` with an option for every setting a metric declares, in a help
    panel naming the metrics that take it."""
    from .scoring.metric import COMMON_SETTINGS, metric_declarations

    declared_metrics = metric_declarations()  # (read without importing the metric modules)
    takers: dict[str, tuple[Option, list[str]]] = {o.name: (o, []) for o in COMMON_SETTINGS}
    for metric in declared_metrics.values():
        for option in metric.settings:
            takers.setdefault(option.name, (option, []))[1].append(metric.name)
    fixed = [p.replace(kind=p.KEYWORD_ONLY) for p in inspect.signature(_score_command).parameters.values()
             if p.kind is not p.VAR_KEYWORD]
    names = "|".join(declared_metrics)
    fixed[2] = fixed[2].replace(annotation=Annotated[Optional[str], typer.Option(
        "--metric", metavar=names, show_default=False,
        help="The metric (see docs/scoring.md) [default: structure, or the profile's].")])
    from .scoring.profiles import PROFILES

    fixed[3] = fixed[3].replace(annotation=Annotated[Optional[str], typer.Option(
        "--profile", metavar="|".join(PROFILES), show_default=False,
        help="A benchmark's recipe: its metric and settings, so that its own figures come out (see "
             "docs/benchmarks.md); options given beside it override its settings.")])
    variants = "; ".join(f"{m.name}: {' or '.join(m.variants)}" for m in declared_metrics.values())
    readable = "|".join(f.name for f in registry.FORMATS.values() if f.reads)
    values = {"variant": "|".join(dict.fromkeys(v for m in declared_metrics.values() for v in m.variants)),
              "result_format": readable, "gt_format": readable}
    declared = []
    for name, (option, names) in takers.items():
        panel = f"Settings of {', '.join(names)}" if names else None
        if name == "variant":
            from dataclasses import replace

            option = replace(option, help=f"The metric's variant, the first its default ({variants}).")
        declared.append(_parameter_of(option, panel, metavar=values.get(name)))
    first = ("variant", "result_format", "gt_format")
    parameters = [*fixed[:4], *[p for p in declared if p.name in first], *fixed[4:],
                  *[p for p in declared if p.name not in first]]

    def score(**values) -> None:
        _score_command(**values)

    score.__doc__ = _score_command.__doc__
    score.__signature__ = inspect.Signature(parameters)
    score.__annotations__ = {p.name: p.annotation for p in parameters}
    return score


def _declare_score_command() -> None:
    def score() -> None:
        """A stand-in, replaced by the command made from the metrics' declarations."""

    score.make_function = _score_function  # type: ignore[attr-defined]
    commands.command("score", cls=PlainHelpCommand, help=_score_command.__doc__)(score)


_declare_score_command()


def main() -> None:
    import gc
    import os

    # Nothing here does linear algebra: numpy's OpenBLAS, left to itself, starts a
    # thread a CPU as numpy is imported, and they spin. One is enough (the user's
    # setting stands).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    # A command builds hundreds of thousands of small objects that form no cycles
    # (cells, boxes); a larger first generation spares the collector re-scanning
    # them every 700 allocations. Only cyclic garbage waits
    # for a collection, and the readers and the scorer make none; acyclic objects go
    # as soon as unused.
    gc.set_threshold(1_000_000, 50, 100)
    catch_signals()
    if hasattr(sys.stdout, "reconfigure"):  # (a report naming a document by a lone surrogate: its escape)
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        app()
    except KeyboardInterrupt as exc:
        typer.echo("interrupted; no partial output was left behind", err=True)
        exit_soon(interrupted_code(exc))
        sys.exit(interrupted_code(exc))
    except SystemExit as exc:
        if signalled():
            exit_soon(exc.code if isinstance(exc.code, int) else EXIT_INTERRUPTED)
        raise
    finally:  # (an interrupt may come where no writer can discard its temporary file)
        files = sys.modules.get("convertables.files")
        if files is not None:
            files.discard_temporaries()
