"""Conversion of one file or a batch: plan the outputs (:func:`plan`), then read
and write each (iterating the :class:`Batch`).

A batch never stops at a bad file: each input gets a :class:`Outcome` with its
diagnostics, and the caller decides what to print and which exit code to give.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from . import containers, files, inputs, joining, registry
from .containers import MemberRef, Source
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError, internal_error
from .options import ReadOptions, WriteOptions
from .reading import read_source
from .registry import Format

@dataclass
class Outcome:
    """What became of one input of a conversion: its output and diagnostics."""

    source: Source
    """The file converted, or the document of a container (``container#name``)."""
    output: Path | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ok: bool = False
    data: bytes | None = None
    """The output's bytes, where it went to neither a file nor a stream."""


def output_name(relative: Path, target: Format, has_cells: bool) -> Path:
    """``eu-001-str.xml`` -> ``eu-001-str.json``; ``page.html`` -> ``page-str.xml``."""
    stem = registry.without_suffix(relative.name)
    if target.names_say_model and registry.model_named(stem) is None:
        stem += "-str" if has_cells else "-reg"
    return relative.with_name(stem + target.default_suffix)


def convert_file(
    source: Source,
    output: Path | None,
    from_format: Format | None,
    to_format: Format,
    read_options: ReadOptions = ReadOptions(),
    write_options: WriteOptions = WriteOptions(),
    force: bool = False,
    name_below: tuple[Path, Path] | None = None,
    protected: frozenset[Path] = frozenset(),
    claimed: set[Path] | None = None,
    stdout=None,
    joined: list[joining.TableFile] | None = None,
) -> Outcome:
    """Convert one file (or, with ``joined``, the per-table files of the document
    ``source`` names). ``name_below = (output folder, relative path)`` asks for
    the output name to be derived from the document once it is read."""
    diagnostics = Diagnostics(files.display_name(containers.file_of(source)))
    outcome = Outcome(source, output)
    exhausted = False
    try:
        doc = read_source(source, from_format, read_options, diagnostics, joined=joined)
        if name_below is not None:
            folder, relative = name_below
            output = folder / output_name(relative, to_format, doc.has_cells)
            outcome.output = output
        # (writing to stdout, or into a container: the input named)
        out_diagnostics = Diagnostics(str(output if output else containers.file_of(source)))
        payload = files.dumps(doc, to_format.name, write_options, out_diagnostics)
        diagnostics.items.extend(out_diagnostics.items)
        if output is None and stdout is None:
            outcome.data = payload
        elif output is None:
            stdout.write(payload)
            stdout.flush()
        else:
            key = output.resolve()
            if key in protected:
                raise diagnostics.fail("output-is-input", f"the output {output} is one of the inputs; refused")
            if claimed is not None:
                if key in claimed:
                    raise diagnostics.fail(
                        "output-collision", f"another input of this batch already wrote {output}; refused"
                    )
                claimed.add(key)
            files.write_atomic(output, payload, force=force)
        outcome.ok = True
    except InputError as exc:
        diagnostics.items.append(exc.diagnostic)
        outcome.ok = False
    except UsageError as exc:  # e.g. a sniffed format whose reader is not built yet
        diagnostics.error("format-unavailable", str(exc))
        outcome.ok = False
    except MemoryError:
        outcome.data = None
        exhausted = True  # said below, outside the handler, whose traceback holds what was read
    except Exception as exc:  # a bug of ours: report it as one line, keep the batch going
        diagnostics.items.append(internal_error(exc, diagnostics.file))
        outcome.ok = False
    if exhausted:
        diagnostics.error("too-large", "out of memory: the file needs more memory than is available")
        outcome.ok = False
    outcome.diagnostics = diagnostics.items
    return outcome


@dataclass
class Batch:
    """A planned conversion: iterate it to convert, one :class:`Outcome` per input file."""

    sources: list[tuple[Source, Path]]
    output: Path | None
    into_folder: bool
    from_format: Format | None
    to_format: Format
    read_options: ReadOptions
    write_options: WriteOptions
    force: bool
    stdout: object = None
    joined: dict[Path, list[joining.TableFile]] = field(default_factory=dict)
    """The per-table files of each document ``--join`` made (by the source standing for them)."""
    into_container: bool = False
    """Every document's output, one after another, into the one file ``output``
    (a container format's: a JSONL file of all their tables)."""

    def __len__(self) -> int:
        return len(self.sources)

    def __iter__(self) -> Iterator[Outcome]:
        protected = frozenset([*(containers.file_of(p).resolve() for p, _ in self.sources),
                               *(containers.file_of(f.path).resolve() for files_ in self.joined.values()
                                 for f in files_)])
        if self.into_container:
            yield from self._into_container(protected)
            return
        claimed: set[Path] = set()  # two inputs that would write one output: the second is refused
        for source, relative in self.sources:
            if self.into_folder:
                yield convert_file(
                    source, None, self.from_format, self.to_format, self.read_options, self.write_options,
                    self.force, name_below=(self.output, relative), protected=protected, claimed=claimed,
                    stdout=self.stdout, joined=self.joined.get(source),
                )
            else:
                target = None if self.output is None or str(self.output) == "-" else self.output
                yield convert_file(
                    source, target, self.from_format, self.to_format, self.read_options, self.write_options,
                    self.force, protected=protected, stdout=self.stdout, joined=self.joined.get(source),
                )


    def _into_container(self, protected: frozenset[Path]) -> Iterator[Outcome]:
        """Each document converted, its output added to the one file as it comes
        (memory holds one document's), the file put in place at the end; where
        the file cannot be written, one outcome says so and nothing is converted."""
        output = self.output
        try:
            if output.resolve() in protected:
                raise InputError(Diagnostic("output-is-input", Severity.ERROR, f"the output {output} is one of the "
                                            "inputs; refused", str(output)))
            into = files.AtomicLines(output, force=self.force)
        except InputError as exc:
            yield Outcome(output, output, [exc.diagnostic])
            return
        written: list[Outcome] = []
        try:
            for source, _ in self.sources:
                outcome = convert_file(source, None, self.from_format, self.to_format, self.read_options,
                                       self.write_options, joined=self.joined.get(source))
                if outcome.ok:
                    into.write_bytes(outcome.data)
                    outcome.data, outcome.output = None, output
                    written.append(outcome)
                yield outcome
            into.close()
        except InputError as exc:
            for outcome in written:  # (what went into a file that was not written was not converted)
                outcome.ok, outcome.output = False, None
            yield Outcome(output, output, [exc.diagnostic])
        finally:
            into.discard()


def plan(
    paths: list[Path],
    output: Path | str | None,
    from_format: Format | None,
    to_format: Format,
    read_options: ReadOptions = ReadOptions(),
    write_options: WriteOptions = WriteOptions(),
    force: bool = False,
    stdout=None,
    join: bool = False,
) -> Batch:
    """Plan the conversion of ``paths`` (files or folders) into ``output`` (a
    file, a folder (one that exists, or text that ends in a slash), or None:
    ``stdout``, or each outcome's ``data`` without one);
    with ``join``, per-table files (``doc-page-1-table-1.csv``...) become one
    document each. Raises UsageError for a request that cannot work, before any
    file is touched."""
    names_folder = output is not None and files.PathArg("-o", output).names_folder
    output = Path(output) if output is not None else None
    files.check_command_paths(files.PathArg("the input", p) for p in paths)
    found = inputs.collect(paths, from_format, join=join)  # (each container's documents at its place)
    sources = [(source, found.relative(i)) for i, source in enumerate(found.paths())]
    batch, several = found.batch, found.several
    joined: dict[Path, list[joining.TableFile]] = {}
    if join:
        relative_of = dict(sources)
        joined, others = joining.group([source for source, _ in sources])
        # (in the order of their files' paths; a container's documents in its order)
        sources = sorted([(document, relative_of[files_[0].path].parent / document.name)
                          for document, files_ in joined.items()] + [(p, relative_of[p]) for p in others],
                         key=lambda item: containers.file_of(item[0]).parts)
        batch = len(sources) > 1 or any(p.is_dir() for p in paths)
    batch = batch or several
    # Several documents into one file, or one stream, of a container format: one after another.
    to_stream = output is None or str(output) == "-"
    into_container = batch and to_format.is_container and (
        (to_stream and stdout is not None) or (not to_stream and output.suffix.lower() in to_format.suffixes
                                               and not output.is_dir() and not names_folder))
    if batch and (output is not None or stdout is not None) and not into_container:
        # (no output and no stream: each outcome's data)
        writable = next((f for f in registry.formats().values() if f.is_container and f.writes), None)
        alternative = (f" (or into one {writable.default_suffix} file: --to {writable.name})"
                       if several and writable is not None else "")
        if output is None or str(output) == "-":
            raise UsageError(f"several {'documents' if several else 'inputs'} convert into a folder: pass -o "
                             f"FOLDER{alternative}")
        if (output.exists() and not output.is_dir()) or (several and output.suffix.lower() in to_format.suffixes):
            raise UsageError(f"{output}: {'is' if output.exists() else 'names'} a file; several "
                             f"{'documents' if several else 'inputs'} need a folder for -o{alternative}")
    if not sources:
        raise UsageError("no input files found")
    into_folder = not into_container and ((batch and output is not None) or (
        output is not None and (output.is_dir() or names_folder)))
    if output is not None and not to_stream:
        # (a batch into a name with a format's suffix: a file was meant, and the format writes no container)
        files.check_command_paths([files.PathArg("-o", str(output) + os.sep if names_folder else output,
                                         files.FOLDER if into_folder else files.FILE, output=True)])
    if not into_folder and output is None and to_format.binary and stdout is not None:
        raise UsageError(f"{to_format.name} is a binary format: pass -o FILE")
    check_settings_used([source for source, _ in sources], from_format, to_format, read_options, write_options,
                        joined)
    return Batch(sources, output if not (into_container and to_stream) else None, into_folder, from_format,
                 to_format, read_options, write_options, force, stdout, joined, into_container and not to_stream)


def _takers(name: str, direction: str) -> str:
    """The formats whose reader (or writer) takes the setting ``name``, said for a message."""
    takers = [f.name for f in registry.formats().values() if (f.reads if direction == "read" else f.writes)
              and any(o.name == name for o in f.options_for(direction))]
    return f"{', '.join(takers)} {'input' if direction == 'read' else 'output'}"


def check_settings_used(sources: list[Source], from_format: Format | None, to_format: Format,
                        read_options: ReadOptions, write_options: WriteOptions,
                        joined: dict[Path, list[joining.TableFile]] | None = None) -> None:
    """Refuse (UsageError) a setting that no format of this conversion takes: one
    the output format's writer does not take, or one no input's reader takes (the
    inputs' formats sniffed from their first bytes, until each setting given has
    found a reader that takes it; an input whose format cannot be told, or
    standard input, is not held against any). A setting that some inputs of a
    batch of several formats take is used, by them."""
    declared_read, declared_write = ReadOptions()._declared(), WriteOptions()._declared()
    for name in write_options:
        if not any(o.name == name for o in to_format.options_for("write")):
            raise UsageError(f"{declared_write[name].flag} is an option of {_takers(name, 'write')} only; "
                             f"the output here is {to_format.name}")
    wanted = set(read_options)
    if not wanted:
        return
    seen: list[str] = []
    for source in sources:
        path = joined[source][0].path if joined and source in joined else source  # (a joined one: its first file)
        if from_format is not None:
            fmt = from_format
        elif isinstance(path, MemberRef):
            fmt = registry.get(path.format)
        else:
            if files.is_stdin(path):
                return  # (its format shows once it is read; no setting is held against it)
            try:
                with Path(path).open("rb") as handle:
                    fmt = registry.detect(Path(path), handle.read(registry.SNIFF_BYTES))
            except OSError:
                fmt = None  # (its reader says why)
            if fmt is None:
                return
        if fmt.name not in seen:
            seen.append(fmt.name)
        wanted -= {o.name for o in fmt.options_for("read")}
        if not wanted or from_format is not None:
            break
    if wanted:
        name = sorted(wanted)[0]
        raise UsageError(f"{declared_read[name].flag} is an option of {_takers(name, 'read')} only; the "
                         f"input{'s here are' if len(seen) > 1 else ' here is'} {', '.join(seen)}")
