"""Settings, declared once where they belong and passed to readers and writers.

A format declares the settings its reader and its writer take as :class:`Option`
values beside its code (``FORMAT.options`` in each format module); the command
line builds its options from those declarations, and :class:`ReadOptions` /
:class:`WriteOptions` accept exactly the names some format declares (asked of
the registry). :class:`Option` itself, the settings that several formats share
(the page of a format without pages, pandas' labels) and the coordinate
conversion every writer with a native frame gets are declared in
:mod:`convertables.option_declaration`, below the registry, and named here too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Mapping

from .diagnostics import UsageError
from .option_declaration import (  # noqa: F401 (the settings' declarations, named here as ever)
    CELL_PLACEMENT, DPI, FRAME_OPTIONS, IMAGE, PAGE, PAGE_HEIGHT, PAGE_WIDTH, PANDAS_LABELS, PDF, Direction, Model, Option)


def declared(direction: Direction) -> dict[str, Option]:
    """Every setting of that direction some format declares, by name (and the
    frame conversion's, for writing)."""
    from . import registry

    return registry.declared_options(direction)


class DeclaredSettings(Mapping):
    """Settings by the names their options declare, immutable: a setting not
    given reads as its declared default (``settings.page``, ``settings["page"]``);
    iterating gives the settings given other than their defaults. Subclasses say
    which options are declared (:meth:`_declared`) and check what they are given."""

    __slots__ = ("_values",)

    def _declared(self) -> dict[str, Option]:
        raise NotImplementedError

    def _key(self) -> tuple:
        """What equality and hashing compare."""
        return (type(self), tuple(sorted((k, repr(v)) for k, v in self._values.items())))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no setting {name!r}") from None

    def __getitem__(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        return self._declared()[name].default

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, name) -> bool:
        return name in self._values

    def get(self, name: str, default: Any = None) -> Any:
        """A setting's value (its declared default where not given); ``default``
        for a name none declares."""
        return self[name] if name in self._declared() else default

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"


class _Settings(DeclaredSettings):
    """Settings of readers or writers; any name no format declares is refused
    with a UsageError (a misspelt one would otherwise be ignored without a word)."""

    direction: Direction = "read"
    __slots__ = ()

    def __init__(self, extra: Mapping[str, Any] | None = None, **settings: Any):
        values = {**(extra or {}), **settings}
        if values:
            known = declared(self.direction)
            unknown = sorted(set(values) - set(known))
            if unknown:
                raise UsageError(f"{type(self).__name__}: unknown setting(s) {', '.join(map(repr, unknown))}; "
                                 f"known: {', '.join(sorted(known))}")
            for name, value in values.items():
                known[name].check(value)
            # (a setting given as its default is not told apart from one not given, as in equality)
            values = {name: value for name, value in values.items() if value != known[name].default}
        object.__setattr__(self, "_values", values)

    def _declared(self) -> dict[str, Option]:
        return declared(self.direction)

    @property
    def extra(self) -> dict[str, Any]:
        """The settings given (other than their defaults), as a dict."""
        return dict(self._values)

    def __reduce__(self):  # (worker processes receive them pickled)
        return (type(self), (self._values,))


class ReadOptions(_Settings):
    """Settings for reading, passed to every reader (each takes what concerns it).
    The names are those the formats declare (docs/cli.md lists
    them): ``ReadOptions(keep_instructions=True, page=2)``."""

    direction = "read"
    __slots__ = ()


class WriteOptions(_Settings):
    """Settings for writing, passed to every writer (each takes what concerns it),
    and the frame conversion before it (``dpi`` with ``page_height``, ``pdf`` or
    ``image``): ``WriteOptions(model="region", dpi=300, page_height=842)``."""

    direction = "write"
    __slots__ = ()


def split_settings(settings: Mapping[str, Any]) -> tuple[ReadOptions, WriteOptions]:
    """Settings by name, each to the reader or the writer that declares it
    (UsageError for a name none declares, or a value its option refuses).
    None and False are settings not given."""
    reading, writing = declared("read"), declared("write")
    given = {name: str(value) if isinstance(value, Path) else value
             for name, value in settings.items() if value is not None and value is not False}
    unknown = sorted(set(given) - set(reading) - set(writing))
    if unknown:
        raise UsageError(f"unknown setting(s) {', '.join(map(repr, unknown))}; known: "
                         f"{', '.join(sorted({*reading, *writing}))}")
    return (ReadOptions(**{k: v for k, v in given.items() if k in reading}),
            WriteOptions(**{k: v for k, v in given.items() if k in writing}))
