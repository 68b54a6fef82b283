"""The files a command works on: the one way from the paths ``convert``,
``check`` and ``score`` are given to the sources they read.

:func:`collect` takes files, folders and ``-`` (standard input, once). A file
named is taken whatever its name. A folder gives its files, read recursively
and sorted, hidden ones left out, of the suffixes :func:`folder_suffixes`
says: those of the formats taken from folders, or of the format named (``--from``,
``--result-format``...); with ``join``, the one-file-per-table exports of
every format too. Where a model is asked for (``score``), a folder's files whose
names say the other model are left out. Each container (a JSON Lines file of
tables...) is replaced by its documents. A folder's files are kept as text,
held compactly: a corpus's million paths as Path objects would take gigabytes.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from . import containers, files, registry
from .containers import MemberRef, Source
from .diagnostics import UsageError
from .registry import Format


def folder_suffixes(forced: Format | None = None, join: bool = False) -> tuple[str, ...]:
    """The suffixes of the files read from a folder: the format named's
    (``forced``), or with ``join`` every readable format's (the per-table
    exports among them: :func:`collect` keeps those and the usual ones), or
    those of the formats taken from folders."""
    if forced is not None:
        return tuple(forced.suffixes)
    return tuple(sorted(registry.input_suffixes() if join else registry.folder_suffixes()))


@dataclass
class Inputs:
    """What :func:`collect` found, in order."""

    sources: Sequence
    """Each file's path as text (``-``: standard input), or a container's
    document (a :class:`~convertables.containers.MemberRef`), in order; a
    folder's paths held compactly (:class:`~convertables.files.PathList`)."""
    batch: bool = False
    """A folder was given, or more than one path."""
    several: bool = False
    """A container held more than one document."""
    _starts: list[int] = field(default_factory=list)  # where the sources of each path given start
    _given: list[tuple[Path, bool]] = field(default_factory=list)  # each path given, and whether a folder

    def __len__(self) -> int:
        return len(self.sources)

    def paths(self) -> list[Source]:
        """The sources, each file's as a :class:`~pathlib.Path`."""
        return [Path(s) if isinstance(s, str) else s for s in self.sources]

    def relative(self, index: int) -> Path:
        """The name of source ``index`` below the path given it came from: a
        folder's file its path inside the folder, a file named its name, a
        container's document its name there at its container's place,
        standard input ``stdin``."""
        given, folder = self._given[bisect_right(self._starts, index) - 1]
        source = self.sources[index]
        if isinstance(source, MemberRef):
            return _relative(source.container, given, folder).parent / source.name
        return _relative(source, given, folder)


def _relative(path, given: Path, folder: bool) -> Path:
    if files.is_stdin(path):
        return Path("stdin")
    return Path(path).relative_to(given) if folder else Path(Path(path).name)


def collect(paths: Iterable, forced: Format | None = None, *, join: bool = False, model: str | None = None,
            expand: bool = True) -> Inputs:
    """The sources of ``paths`` (files, folders, ``-``) for a command
    (see the module's text): ``forced`` the format named, whose suffixes a
    folder's files have and whose containers are expanded; ``join``: a
    folder's one-file-per-table exports are taken too (where no format is
    named: of every format, besides the files of the usual ones); ``model``
    (``structure``, ``region``): a folder's files named as the other model's
    are left out; ``expand``: each container replaced by its documents.
    UsageError for a path that does not exist, or ``-`` given twice."""
    paths = [Path(p) for p in paths]
    if sum(1 for p in paths if files.is_stdin(p)) > 1:
        raise UsageError("standard input (-) can be read once")
    suffixes = folder_suffixes(forced, join)
    found = Inputs([], batch=len(paths) > 1)
    groups: list[Sequence] = []
    for path in paths:
        folder = not files.is_stdin(path) and path.is_dir()
        if not folder and not files.is_stdin(path) and not path.exists():
            raise UsageError(f"{path}: no such file or folder")
        sources: Sequence = files.input_names(path, suffixes) if folder else [str(path)]
        if folder:
            found.batch = True
            if join and forced is None:
                from .joining import per_table_name  # (of the formats not read from folders, per-table files only)

                usual = tuple(registry.folder_suffixes())
                sources = sources.where(lambda p: p.lower().endswith(usual) or per_table_name(Path(p)) is not None)
            if model is not None:
                sources = sources.where(lambda p: model_of(p) in (model, None))
        if expand:
            expanded = containers.expand(sources, forced)
            if expanded is not sources:
                counts = Counter(s.container for s in expanded if isinstance(s, MemberRef))
                found.several = found.several or any(n > 1 for n in counts.values())
            sources = expanded
        found._starts.append(sum(len(g) for g in groups))
        found._given.append((path, folder))
        groups.append(sources)
    found.sources = groups[0] if len(groups) == 1 else [s for group in groups for s in group]
    return found


def model_of(path) -> str | None:
    """``structure`` or ``region`` where a file's name says so (``-str``, ``-reg-result``...)."""
    name = os.path.basename(path) if isinstance(path, str) else path.name
    return registry.model_named(registry.without_suffix(name))
