"""The format registry: one line per format (STYLE.md, principles 2, 3 and 11).

Each :class:`Format` names its module (imported only when used, so a heavy
dependency costs nothing until then), its file suffixes, how to recognise its
content, and what it can do. A format whose reader or writer has not been built
yet is listed with ``pending`` saying so; asking for it raises a clear
:class:`~convertables.diagnostics.UsageError`, never a stub that pretends.

Format modules expose ``read(data: bytes, diagnostics, options) -> Document``
and, where the format can hold a document, ``write(doc, diagnostics, options) -> bytes``.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

from .diagnostics import UsageError

Sniffer = Callable[[bytes], bool]


@dataclass(frozen=True)
class Format:
    """A format: its names, its module (imported when first used), what it can do."""

    name: str
    title: str
    module: str
    suffixes: tuple[str, ...]
    reads: bool
    writes: bool
    models: tuple[str, ...]
    """What the format holds: ``region`` (table regions), ``structure`` (cells)."""
    sniff: Sniffer
    binary: bool = False
    pending: str | None = None
    """Why a capability is missing, e.g. where it is being built."""
    native_frame: str | None = None
    """The coordinate frame the format's boxes are in (``pdf``, ``image``), if it has boxes."""

    def load(self) -> ModuleType:
        return importlib.import_module(f"convertables.formats.{self.module}")

    def reader(self):
        if not self.reads:
            raise UsageError(f"format {self.name!r} cannot be read yet{self._why()}")
        return self.load().read

    def writer(self):
        if not self.writes:
            raise UsageError(f"format {self.name!r} cannot be written{self._why()}")
        return self.load().write

    def _why(self) -> str:
        return f" ({self.pending})" if self.pending else ""

    @property
    def default_suffix(self) -> str:
        return self.suffixes[0]


# -- content sniffers: cheap looks at the first bytes, no parsing -----------------------

# The prologue's declarations, processing instructions, comments and doctype are
# passed over; the first other start tag names the root. Matching stops there: the
# rest of the head (64 KiB) is never scanned.
_PROLOGUE_OR_ROOT = re.compile(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>|<([A-Za-z_][\w.:-]*)", re.S)


def _xml_root(head: bytes) -> str | None:
    for match in _PROLOGUE_OR_ROOT.finditer(head.decode("utf-8", "replace")):
        if match.group(1):
            return match.group(1).rpartition(":")[2]
    return None


# UTF-16 text by its byte-order mark, or without one by how "<" is written
_UTF16_STARTS = ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be"))


def _as_utf8(head: bytes) -> bytes:
    """The head of a file in UTF-16 as UTF-8, so that the sniffers see its text;
    any other head as it is."""
    for start, encoding in _UTF16_STARTS:
        if head.startswith(start):
            return head.decode(encoding, "ignore").encode("utf-8")
    return head


# a <Coords> element, its name prefixed or not (ICDAR 2013 files have none)
_COORDS = re.compile(rb"<(?:[\w.-]+:)?Coords[\s/>]")


def _has_coords(head: bytes) -> bool:
    return b"Coords" in head and _COORDS.search(head) is not None  # (the plain search first: it is faster)


def _is_icdar(head: bytes) -> bool:
    return _xml_root(head) == "document" and not _has_coords(head)


def _is_ctdar(head: bytes) -> bool:
    return _xml_root(head) == "document" and b"neighbors=" not in head and _has_coords(head)


def _is_pod(head: bytes) -> bool:
    return _xml_root(head) == "document" and b"neighbors=" in head


def _is_marmot(head: bytes) -> bool:
    return _xml_root(head) == "Page"


_HTML_ROOTS = {"html", "head", "body", "table", "meta", "title", "div", "p"}


def _is_html(head: bytes) -> bool:
    if re.search(rb"<!doctype\s+html", head[:4096], re.I):
        return True
    root = _xml_root(head[:4096])
    return root is not None and root.lower() in _HTML_ROOTS


def _is_xlsx(head: bytes) -> bool:
    return head.startswith(b"PK\x03\x04")


def _is_json(head: bytes) -> bool:
    return re.match(rb'\s*\{\s*"format"\s*:\s*"convertables"', head) is not None


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("icdar", "ICDAR 2013 region and cell-structure XML", "icdar", (".xml",), True, True,
               ("region", "structure"), _is_icdar, native_frame="pdf"),
        Format("html", "HTML tables (also FineReader, Acrobat and pandas exports)", "html",
               (".html", ".htm", ".xhtml"), True, True, ("structure",), _is_html),
        Format("xlsx", "Excel workbooks (also Nitro 'To Excel' and pandas exports)", "xlsx", (".xlsx", ".xlsm"),
               True, True, ("structure",), _is_xlsx, binary=True),
        Format("ctdar", "ICDAR 2019 cTDaR XML (Track A and B, and results)", "ctdar", (".xml",), True, True,
               ("region", "structure"), _is_ctdar, native_frame="image"),
        Format("marmot", "Marmot dataset page XML", "marmot", (".xml",), True, False,
               ("region",), _is_marmot, native_frame="pdf"),
        Format("pod", "ICDAR 2017 POD neighbour-annotated structure XML", "pod", (".xml",), True, False,
               ("structure",), _is_pod, native_frame="image"),
        Format("json", "convertables canonical JSON", "canonical_json", (".json",), True, True,
               ("region", "structure"), _is_json),
    )
}

SNIFF_BYTES = 65536


def get(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        known = ", ".join(FORMATS)
        raise UsageError(f"unknown format {name!r} (known: {known})") from None


def detect(path: Path, head: bytes) -> Format | None:
    """The format of a file, from its content, falling back to its suffix.

    Content decides first because several formats share ``.xml``; when it
    cannot, the first format listing the suffix is taken (``.xml``: ICDAR 2013),
    so that its reader can say what is wrong with the file.
    """
    head = _as_utf8(head)
    for fmt in FORMATS.values():
        if fmt.sniff(head):
            return fmt
    suffix = path.suffix.lower()
    return next((f for f in FORMATS.values() if suffix in f.suffixes), None)


def input_suffixes() -> set[str]:
    return {s for f in FORMATS.values() for s in f.suffixes}


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
