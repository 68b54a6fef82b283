"""Settings, declared once where they belong and passed to readers and writers.

A format declares the settings its reader and its writer take as :class:`Option`
values beside its code (``FORMAT.options`` in each format module); the command
line builds its options from those declarations, and :class:`ReadOptions` /
:class:`WriteOptions` accept exactly the names some format declares. Settings
that several formats share (the page of a format without pages, pandas' labels)
and the coordinate conversion every writer with a native frame gets are
declared here, so that every format spells them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Mapping

from .diagnostics import UsageError

Model = Literal["auto", "structure", "region"]
Direction = Literal["read", "write", "score"]


@dataclass(frozen=True)
class Option:
    """One setting: its name in Python, its command-line flag, its type and default.

    ``kind`` is ``bool`` (a flag), ``int``, ``float``, ``str`` or ``Path``;
    ``choices`` restricts a ``str``; ``minimum`` bounds a number; ``parse`` turns
    the text given on the command line into the value (ValueError: what the value
    must be, e.g. "a list of numbers, not 'x'");
    ``variants``: a metric's setting that applies to those of its variants only.
    """

    name: str
    flag: str
    kind: type
    help: str
    default: Any = None
    direction: Direction = "read"
    choices: tuple[str, ...] | None = None
    minimum: float | None = None
    parse: Callable[[str], Any] | None = None
    variants: tuple[str, ...] | None = None
    case_sensitive: bool = True
    """Whether ``choices`` must be written as declared (else in any case)."""

    def check(self, value: Any) -> None:
        """Refuse (UsageError) a value the option cannot take."""
        if value is None or value == self.default:
            return
        if self.kind is bool and not isinstance(value, bool):
            raise UsageError(f"{self.flag} is a flag: True or False, not {value!r}")
        if self.choices is not None:
            known = self.choices if self.case_sensitive else [c.lower() for c in self.choices]
            if (value if self.case_sensitive else str(value).lower()) not in known:
                listed = ", ".join(self.choices[:-1]) + " or " + self.choices[-1] if len(self.choices) > 1 else \
                    self.choices[0]
                raise UsageError(f"{self.flag} is {listed}, not {value!r}")
        if self.kind in (int, float):
            import math

            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise UsageError(f"{self.flag} must be a finite number, not {value!r}")
            if self.kind is int and value != int(value):
                raise UsageError(f"{self.flag} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise UsageError(f"{self.flag} must be at least {self.minimum:g}, not {value!r}")


# -- settings several formats share --------------------------------------------------------

PAGE = Option("page", "--page", int, "The page of the tables of a format without pages (HTML, CSV, LaTeX; Markdown: "
              "its first page; Excel: of the first sheet whose name says none).", minimum=1)
PANDAS_LABELS = Option("keep_pandas_labels", "--keep-index", bool,
                       "Keep pandas' default integer header row and index column (HTML, Excel, CSV input).", False)

CELL_PLACEMENT = Option("cell_placement", "--cell-placement", str,
                        "HTML tables: how cells take their grid slots: whatwg (the HTML standard's table model: "
                        "row groups in turn, a <tfoot> last, a span ending with its row group, rowspan=0 to its "
                        "end) or document-order (rows numbered as written, a span running on into the next row "
                        "group, rowspan=0 one row, as grits-metric reads them). Either way a cell takes the "
                        "first free slot of its row.", "whatwg", choices=("whatwg", "document-order"))

# Converting boxes between image pixels, fractions of the page and PDF points, for any writer whose
# format has a native frame.
DPI = Option("dpi", "--dpi", float, "Image resolution, to convert pixels <-> PDF points.", direction="write", minimum=1)
PAGE_HEIGHT = Option("page_height", "--page-height", float, "Page height in points, for --dpi.",
                     direction="write", minimum=1)
PAGE_WIDTH = Option("page_width", "--page-width", float, "Page width in points, with --page-height: converts "
                    "fractions of the page (Textract, Document AI).", direction="write", minimum=1)
PDF = Option("pdf", "--pdf", Path, "A PDF to take page heights from, for --dpi.", direction="write")
IMAGE = Option("image", "--image", Path, "The page image (PNG/JPEG): its height and DPI.", direction="write")
FRAME_OPTIONS = (DPI, PAGE_HEIGHT, PAGE_WIDTH, PDF, IMAGE)


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
