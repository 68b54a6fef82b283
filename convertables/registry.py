"""The format registry: one declaration per format, and detection.

Each format is one :class:`Format`: its name, file suffixes, how to recognise
its content, what it holds, its native coordinate frame, the settings its reader
and writer take (:class:`~convertables.options.Option`), and the ``read``/``write``
functions themselves. :data:`FORMAT_MODULES` lists the built-in formats' modules;
their declarations are in :mod:`convertables.formats.declarations`, read without
importing the modules, whose functions are imported on first use
(:class:`OnUse`); each module's ``FORMAT`` is its declaration. A module listed
without a declaration there is imported and its ``FORMAT`` taken. Plugins add
formats by the ``convertables.formats`` entry point (:mod:`convertables.plugins`),
programs by :func:`register`.

Readers are ``read(data: bytes, diagnostics, options) -> Document`` and writers
``write(doc, diagnostics, options) -> bytes``. The command line builds every
conversion command's options from the declarations, and ``check`` asks the
format object (``validate``, ``names_say_model``), never its name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator, NamedTuple

from .diagnostics import UsageError
from .options import FRAME_OPTIONS, Direction, Option
from .sniffing import SNIFF_BYTES, as_utf8

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

FORMAT_MODULES = (
    "abbyy",  # before icdar: both roots are <document>; abbyy's sniffer asks for the FineReader namespace
    "icdar",
    "markdown",  # before html: a page of text whose first tag is a <table> is Markdown (its sniffer wants no "<" first)
    "html",
    "xlsx",
    "ctdar",
    "marmot",
    "pod",
    "pubtables1m",
    "canonical_json",
    "opendataloader_markdown",  # never claims a file: named by --result-format or a profile
    "latex",  # its sniffer wants a backslash first: no other format's file starts so
    "delimited",  # csv: no sniffer claims its files; recognised by suffix
    "docai",
    "textract",
    "azure",
    "docling",
    "pubtabnet",
    "pubtabnet_html",
    "pagexml",
    "scitsr",
    "doctags",
    "wtw",
    "mineru",
    "unstructured",
    "marker",
    "paddleocr",
    "dpbench",  # before upstage: its entries hold elements lists too
    "upstage",
    "llamaparse",
)
"""The modules of ``convertables.formats`` that declare a format, in the order
their sniffers are asked (a dotted name is a module elsewhere)."""

FALLBACK_BY_SUFFIX = {".xml": "icdar", ".json": "json"}
"""The format a suffix names where content does not decide: an .xml file no
sniffer recognises is read as ICDAR 2013 (whose reader says what is wrong with
it), an output named .json is the canonical JSON. Other suffixes: the first
format listing it."""


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


ENTRY_POINT_GROUP = "convertables.formats"
"""The entry-point group of format plugins: each entry names a :class:`Format`
(``name = "package.module:FORMAT"``), or a module whose ``FORMAT`` is one."""

_FORMATS: dict[str, Format] | None = None
_REGISTERED: list[Format] = []


def register(fmt: Format) -> Format:
    """Add a format (a plugin's, or one made at run time) to the registry, after
    the built-in ones and those of installed plugins; a format of a name already
    registered replaces it. Returns ``fmt``."""
    if not isinstance(fmt, Format):
        raise TypeError(f"register() takes a Format, not {type(fmt).__name__}")
    _REGISTERED.append(fmt)
    _forget()
    return fmt


def _forget() -> None:
    global _FORMATS
    _FORMATS = None
    _DECLARED.clear()


def _plugin_formats() -> list[Format]:
    from .plugins import entry_points, load

    return [fmt for entry in entry_points(ENTRY_POINT_GROUP) for fmt in load(entry, "FORMAT", Format)]


def formats() -> dict[str, Format]:
    """Every format by name: the built-in ones in :data:`FORMAT_MODULES`' order
    (their declarations, read without importing their modules), then those of
    installed plugins (the ``convertables.formats`` entry points), then those
    given to :func:`register`."""
    global _FORMATS
    if _FORMATS is None:
        from .formats.declarations import DECLARED

        found: dict[str, Format] = {}
        for module in FORMAT_MODULES:
            fmt = DECLARED.get(module)
            if fmt is None:  # a module without a declaration of its own there: its FORMAT
                fmt = importlib.import_module(module if "." in module else f"convertables.formats.{module}").FORMAT
            found[fmt.name] = fmt
        for fmt in (*_plugin_formats(), *_REGISTERED):
            found[fmt.name] = fmt
        _FORMATS = found
    return _FORMATS


def __getattr__(name: str):
    if name == "FORMATS":  # (a module attribute, loaded on first use)
        return formats()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_DECLARED: dict[tuple[int, str], tuple[dict, dict[str, Option]]] = {}  # (the formats held: their id stays theirs)


def declared_options(direction: Direction) -> dict[str, Option]:
    """Every setting of that direction, by name, over all formats (worked out once
    for the formats listed). A setting that several formats take is declared alike
    by each (options.py holds those)."""
    listed = formats()
    key = (id(listed), direction)
    if key not in _DECLARED:
        found: dict[str, Option] = {}
        for fmt in listed.values():
            for option in fmt.options_for(direction):
                known = found.setdefault(option.name, option)
                if known != option:
                    raise AssertionError(f"{fmt.name} declares {option.name} otherwise than another format")
        _DECLARED[key] = (listed, found)
    return _DECLARED[key][1]


def get(name: str) -> Format:
    try:
        return formats()[name]
    except KeyError:
        known = ", ".join(formats())
        raise UsageError(f"unknown format {name!r} (known: {known})") from None


def detect(path: Path, head: bytes) -> Format | None:
    """The format of a file, from its content, falling back to its suffix.

    Content decides first because several formats share ``.xml`` and ``.json``;
    when it cannot, the suffix does (:data:`FALLBACK_BY_SUFFIX`), so that a
    reader can say what is wrong with the file.
    """
    head = as_utf8(head[:SNIFF_BYTES])
    for fmt in formats().values():
        if fmt.claims(head):
            return fmt
    suffix = path.suffix.lower()
    if suffix in FALLBACK_BY_SUFFIX:
        return formats()[FALLBACK_BY_SUFFIX[suffix]]
    return next((f for f in formats().values() if suffix in f.suffixes), None)


def sniffed(head: bytes) -> Format | None:
    """The format whose sniffer recognises ``head`` (the first to), by content alone."""
    head = as_utf8(head[:SNIFF_BYTES])
    return next((fmt for fmt in formats().values() if fmt.claims(head)), None)


def extractors() -> list[str]:
    """What turns a PDF or a page image into a readable format: each tool, and
    the format of what it writes (``AWS Textract (textract)``)."""
    return [f"{f.extracted_by} ({f.name})" for f in formats().values() if f.extracted_by and f.reads]


def input_suffixes() -> set[str]:
    """The suffixes of every readable format."""
    return {s for f in formats().values() for s in f.suffixes}


def folder_suffixes() -> set[str]:
    """The suffixes of the files taken from folders read as input (:attr:`Format.in_folders`)."""
    return {s for f in formats().values() if f.in_folders for s in f.suffixes}


def without_suffix(name: str) -> str:
    """A file name without the suffix of the format it is in (any case):
    ``eu-001-str.XML`` -> ``eu-001-str``; other names as they are."""
    lowered = name.lower()
    for suffix in input_suffixes():
        if lowered.endswith(suffix):
            return name[: -len(suffix)]
    return name


MODEL_ENDINGS = {"structure": ("-str", "-str-result"), "region": ("-reg", "-reg-result")}
"""How ICDAR 2013 file names end (before the suffix) to say the model they hold:
``eu-001-str.xml``, ``eu-001-reg-result.xml``."""


def model_named(stem: str) -> str | None:
    """``structure`` or ``region`` where a name without its suffix ends so."""
    lowered = stem.lower()
    return next((model for model, endings in MODEL_ENDINGS.items() if lowered.endswith(endings)), None)
