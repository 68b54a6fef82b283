"""A format's declaration (:class:`Format`): its names, suffixes, how its
content is recognised, what it holds, its settings and its functions, each
named by module and imported on its first call (:class:`OnUse`), so that a
declaration is read without the format's module. Below the registry, which
lists the formats (:mod:`convertables.registry`, where these are named too);
the built-in formats' declarations are :mod:`convertables.formats.declarations`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator, NamedTuple

from .diagnostics import UsageError
from .option_declaration import FRAME_OPTIONS, Direction, Option

if TYPE_CHECKING:
    from .diagnostics import Diagnostics
    from .model import Document, Reading

Sniffer = Callable[[bytes], bool]


class Member(NamedTuple):
    """One document of a container file (:attr:`Format.members`): its name, where
    its bytes lie (``offset``, ``length``), and the line it starts on (1-based)."""

    name: str
    offset: int
    length: int
    line: int


@dataclass(frozen=True)
class Format:
    """A format: its names, what it can do, its settings, and its reader and writer."""

    name: str
    title: str
    suffixes: tuple[str, ...]
    sniff: Sniffer
    models: tuple[str, ...]
    """What the format holds: ``region`` (table regions), ``structure`` (cells)."""
    read: Callable[..., Document | Reading] | None = None
    """Reads one document's bytes: ``read(data, diagnostics, options)``, a
    :class:`~convertables.model.Document`, or a :class:`~convertables.model.Reading`
    where the reader says more of the source (its lines, the regions to check)."""
    write: Callable[..., bytes] | None = None
    options: tuple[Option, ...] = ()
    """The settings its reader (``direction="read"``) and writer take."""
    native_frame: str | None = None
    """The coordinate frame the format's boxes are in (``pdf``, ``image``), if it has boxes."""
    binary: bool = False
    validate: Callable[[bytes, Diagnostics, str | None], None] | None = None
    """For ``check``: validation against the format's own schema (data, findings, model asked for)."""
    names_say_model: bool = False
    """File names end in ``-str``/``-reg`` (``-result``) by the model they hold
    (ICDAR 2013's convention): outputs are named so, and ``check`` says where not."""
    in_folders: bool = True
    """Its files are taken from folders read as input. False for a format known by
    its suffix alone whose files are as often something else beside the inputs
    (a .csv of scores or table classes): they are read when named, or when the
    format is (``--from``, ``--result-format``)."""
    pending: str | None = None
    """Why a capability is missing, where one is."""
    extracted_by: str | None = None
    """The tools that write this format from a PDF or a page image, for the
    hint given on an input that is one."""
    holds: frozenset[str] | None = None
    """What of the canonical model its writer holds (names of
    :data:`convertables.losses.FEATURES`: ``text``, ``spans``, ``blank``,
    ``header-rows``, ``header-cells``, ``markup``, ``boxes``, ``pages``); a
    conversion that loses any other the document has says so (``lossy-*``), and
    the scorer says which part of a metric that affects."""
    holds_with: tuple[tuple[str, str], ...] = ()
    """(feature, setting): what the writer holds only when the setting is given."""
    members: Callable[[BinaryIO], Iterator[Member]] | None = None
    """A container format (a JSONL file, one document a line): the documents a
    file holds, from a binary handle at its start, each named by the source's own
    name for it and found without being read (a container is indexed, never held
    whole: :mod:`convertables.containers`). ``read`` then reads one document's
    bytes, and refuses (``many-documents``) a file of several; ``write`` writes
    one document's part, so that documents' outputs put one after another make
    the container."""
    reads_files_of: tuple[str, ...] = ()
    """Formats whose files it reads in a way of its own (a benchmark's reading of
    Markdown pages): named for such a file, it is no mismatch."""
    sniff_gate: Sniffer | None = None
    """A cheap test that every head its sniffer takes passes (one of
    :mod:`convertables.sniffing`'s): a head that fails it is not shown to the
    sniffer, whose module is then not imported. None: every head is shown."""

    def claims(self, head: bytes) -> bool:
        """Whether its sniffer takes the head (see :attr:`sniff_gate`)."""
        return (self.sniff_gate is None or self.sniff_gate(head)) and self.sniff(head)

    @property
    def reads(self) -> bool:
        return self.read is not None

    @property
    def writes(self) -> bool:
        return self.write is not None

    @property
    def is_container(self) -> bool:
        return self.members is not None

    def reader(self):
        if self.read is None:
            raise UsageError(f"format {self.name!r} cannot be read{self._why()}")
        return self.read

    def writer(self):
        if self.write is None:
            raise UsageError(f"format {self.name!r} cannot be written{self._why()}")
        return self.write

    def _why(self) -> str:
        return f" ({self.pending})" if self.pending else ""

    @property
    def default_suffix(self) -> str:
        return self.suffixes[0]

    def options_for(self, direction: Direction) -> tuple[Option, ...]:
        """The settings of its reader or its writer (the writer's include the
        frame conversion where the format has a native frame)."""
        own = tuple(o for o in self.options if o.direction == direction)
        if direction == "write" and self.writes and self.native_frame is not None:
            own += FRAME_OPTIONS
        return own


class OnUse:
    """A format's function named by its module and name, imported on its first
    call: a format's declaration (its options, its help) is read without its
    module, which may import lxml, openpyxl or numpy."""

    __slots__ = ("module", "name", "_function")

    def __init__(self, module: str, name: str):
        self.module = module
        self.name = name
        self._function = None

    def resolve(self) -> Callable:
        if self._function is None:
            self._function = getattr(importlib.import_module(self.module), self.name)
        return self._function

    def __call__(self, *args, **kwargs):
        return (self._function or self.resolve())(*args, **kwargs)

    def __repr__(self) -> str:
        return f"OnUse({self.module!r}, {self.name!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, OnUse) and (other.module, other.name) == (self.module, self.name)

    def __hash__(self) -> int:
        return hash((self.module, self.name))

    def __reduce__(self):  # (worker processes import the module themselves)
        return (OnUse, (self.module, self.name))
