"""The one way from a source to its document, for ``convert``, ``check`` and ``score``.

A source is a file (``-``: standard input), one document of a container (a
:class:`~convertables.containers.MemberRef`), or the per-table files of one
document (``--join``). :func:`read_source` reads its bytes, takes the format
named or finds it from the content, reads, and has the grid check run
(:func:`convertables.files.read_document`). What cannot be read is an
:class:`InputError` naming the file; an unexpected exception, a bug of ours, is
one too (``internal-error``), said here for every command.
"""

from __future__ import annotations

from typing import Callable

from . import containers, files
from .containers import MemberRef, Source
from .joining import TableFile, join
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError, internal_error
from .model import Document
from .options import ReadOptions
from .registry import Format

Inspect = Callable[[bytes, Format, Diagnostics], None]
"""Called with a file's bytes and its format before it is read (``check``: the
format's own schema)."""


def read_source(
    source: Source,
    format: Format | None = None,
    options: ReadOptions = ReadOptions(),
    diagnostics: Diagnostics | None = None,
    *,
    joined: list | None = None,
    inspect: Inspect | None = None,
) -> Document:
    """The document of ``source``, read in ``format`` (None: as its content
    says; a format named and a content plainly of another is said), with
    ``options``; findings go to ``diagnostics``. ``joined``: the per-table files
    of the document ``source`` names, read as one
    (:func:`read_joined`). InputError where it cannot be
    read; UsageError where its format cannot be read at all."""
    try:
        if joined is not None:
            return read_joined(joined, format, options, diagnostics)
        if isinstance(source, MemberRef):
            return containers.read_member(source, options, diagnostics)
        data = files.read_bytes_of(source)
        fmt = format or files.detect_format(source, data)
        name = files.display_name(source)
        if inspect is not None:
            inspect(data, fmt, diagnostics if diagnostics is not None else Diagnostics(name))
        return files.read_document(data, fmt, name, options, diagnostics, asked=format is not None)
    except (InputError, UsageError):
        raise
    except MemoryError:
        pass
    except Exception as exc:  # a bug of ours: one line for this source, the others are still read
        line = source.line if isinstance(source, MemberRef) else None
        raise InputError(internal_error(exc, files.display_name(containers.file_of(source)), line)) from exc
    # Only an exhausted memory comes here, said outside the handler (whose traceback holds what was read).
    raise InputError(Diagnostic("too-large", Severity.ERROR, "out of memory: the input needs more memory than is "
                                "available", files.display_name(containers.file_of(source))))


def read_joined(table_files: list[TableFile], from_format: Format | None = None,
                options: ReadOptions = ReadOptions(), diagnostics: Diagnostics | None = None) -> Document:
    """One document of per-table files (:func:`convertables.joining.join`), each
    read (in ``from_format``, or as its content says) with its own diagnostics,
    kept in ``diagnostics`` naming its file; a file that cannot be read stops
    the document (InputError)."""
    diagnostics = diagnostics if diagnostics is not None else Diagnostics()
    kept: dict[tuple[int, int], Source] = {}
    for table_file in table_files:  # (a table exported twice, as .csv and .html: the first file kept)
        first = kept.setdefault(table_file[1:3], table_file.path)
        if first != table_file.path:
            diagnostics.warning("join-duplicate", f"{table_file.path} is page {table_file.page}, table "
                                                  f"{table_file.table} again, as {first} is: left out")
    table_files = [f for f in table_files if kept[f[1:3]] == f.path]

    def read_one(path) -> Document:  # (a file, or a container's member)
        own = Diagnostics(str(path))
        try:
            return read_source(path, from_format, options, own)
        finally:
            diagnostics.items.extend(own.items)

    return join(table_files, read_one)
