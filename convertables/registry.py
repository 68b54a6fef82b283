"""The format registry: one declaration per format, and detection.

Each format is one :class:`Format` (declared in
:mod:`convertables.format_declaration`, and named here): its name, file
suffixes, how to recognise its content, what it holds, its native coordinate
frame, the settings its reader and writer take
(:class:`~convertables.options.Option`), and the ``read``/``write`` functions
themselves. :data:`FORMAT_MODULES` lists the built-in formats' modules;
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
from pathlib import Path

from .diagnostics import UsageError
from .format_declaration import Format, Member, OnUse, Sniffer  # noqa: F401 (named here as ever)
from .option_declaration import Direction, Option
from .sniffing import SNIFF_BYTES, as_utf8

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
    "olmocr_markdown",  # never claims a file: named by --result-format or a profile
    "omnidocbench",  # never claims a file: named by --gt-format or a profile
    "omnidocbench_markdown",  # never claims a file: named by --result-format or a profile
    "latex",  # its sniffer wants a backslash first: no other format's file starts so
    "delimited",  # csv: no sniffer claims its files; recognised by suffix
    "docai",
    "textract",
    "azure",
    "docling",
    "pubtabnet",
    "pubtabnet_html",
    "olmocr_tests",
    "pagexml",
    "scitsr",
    "doctags",
    "wtw",
    "mineru",
    "unstructured",
    "unstructured_eval",  # never claims a file: named by --gt-format/--result-format or a profile
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
