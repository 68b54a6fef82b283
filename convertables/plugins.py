"""Plugins: formats and metrics of installed distributions, found by their
entry points (``convertables.formats``, ``convertables.metrics``).

The entry points are read from the ``entry_points.txt`` of each distribution's
metadata folder (``*.dist-info``, ``*.egg-info``) on ``sys.path``, the first of
a name on the path counting, as ``importlib.metadata`` finds them: importing
that module costs more than the rest of ``convertables --help``, and the
command line's help lists every plugin's format and options. A plugin's own
module is imported when the registry is first looked at.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import NamedTuple


class EntryPoint(NamedTuple):
    """One entry of a distribution's ``entry_points.txt``: ``name = value`` in ``[group]``."""

    name: str
    value: str
    group: str
    distribution: str


_METADATA_FOLDER = re.compile(r"^(?P<name>[^-]+)(?P<version>-[^-]*)?\.(dist-info|egg-info)$", re.I)


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _entries(text: str, distribution: str) -> list[EntryPoint]:
    found, group = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip()
        elif "=" in line and group is not None:
            name, _, value = line.partition("=")
            value = value.split("[", 1)[0].strip()  # (extras after the object reference are not part of it)
            found.append(EntryPoint(name.strip(), value, group, distribution))
    return found


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` of every distribution on ``sys.path``, in path order."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:  # (a zip file, a folder that is gone)
            continue
        for name in names:
            match = _METADATA_FOLDER.match(name)
            if match is None:
                continue
            distribution = _normalised(match.group("name"))
            if distribution in seen:
                continue
            seen.add(distribution)
            try:
                with open(os.path.join(folder or ".", name, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            found += [e for e in _entries(text, distribution) if e.group == group]
    return found


def version_of(distribution: str) -> str | None:
    """The version of an installed distribution, from the first metadata folder
    on ``sys.path`` whose name says one (``convertables-0.1.0.dist-info``; an
    ``.egg-info`` of a source checkout says none); None where none does."""
    wanted = _normalised(distribution)
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in sorted(names):
            match = _METADATA_FOLDER.match(name)
            if match and match.group("version") and _normalised(match.group("name")) == wanted:
                return match.group("version")[1:]
    return None


def load(entry: EntryPoint, default_attribute: str, kind: type):
    """The objects of type ``kind`` an entry point names (``module:attribute``, or
    a module alone: its ``default_attribute``; an object, or a list or tuple of
    them). A plugin that cannot be loaded, or names something else, is left out,
    said in one line on standard error: the rest of the command line works."""
    module_name, _, attribute = entry.value.partition(":")
    try:
        found = importlib.import_module(module_name.strip())
        for part in (attribute.strip() or default_attribute).split("."):
            found = getattr(found, part)
    except Exception as exc:  # (a broken plugin is named, not a traceback)
        problem = f"cannot be loaded ({type(exc).__name__}: {exc})"
    else:
        objects = list(found) if isinstance(found, (list, tuple)) else [found]
        if all(isinstance(o, kind) for o in objects):
            return objects
        problem = f"names a {type(found).__name__}, not a convertables {kind.__name__}"
    print(f"warning: the {entry.group} plugin {entry.name!r} of {entry.distribution} ({entry.value}) {problem}; "
          "left out", file=sys.stderr)
    return []
