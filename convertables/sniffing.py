"""Cheap looks at the head of a file (its first 64 KiB), no parsing: the helpers
that formats' sniffers share. The registry asks every format's sniffer in turn."""

from __future__ import annotations

import re

SNIFF_BYTES = 65536
"""How much of a file the sniffers see."""

# The prologue's declarations, processing instructions, comments and doctype are
# passed over; the first other start tag names the root. Matching stops there: the
# rest of the head is never scanned.
_PROLOGUE_OR_ROOT = re.compile(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>|<([A-Za-z_][\w.:-]*)", re.S)


_last_root: tuple[bytes | None, str | None] = (None, None)


def xml_root(head: bytes) -> str | None:
    """The local name of the first element of an XML (or HTML) head (the last
    head's is kept: the registry asks every format's sniffer about one head)."""
    global _last_root
    if _last_root[0] is head:
        return _last_root[1]
    root = None
    for match in _PROLOGUE_OR_ROOT.finditer(head.decode("utf-8", "replace")):
        if match.group(1):
            root = match.group(1).rpartition(":")[2]
            break
    _last_root = (head, root)
    return root


# Gates (a format's ``sniff_gate``): what every head a format's sniffer takes has,
# tested without the format's module.

def starts_json(head: bytes) -> bool:
    """Whether the head, after a byte-order mark and blanks, starts as a JSON
    object or array does."""
    return head[3 if head.startswith(b"\xef\xbb\xbf") else 0:].lstrip()[:1] in (b"{", b"[")


def root_is(names: tuple[str, ...], head: bytes) -> bool:
    """Whether the head's first element (:func:`xml_root`) has one of the names
    (a gate: ``functools.partial(root_is, names)``)."""
    return xml_root(head) in names


def starts_zip(head: bytes) -> bool:
    """Whether the head is a ZIP archive's (an Office Open XML file's)."""
    return head.startswith(b"PK\x03\x04")


def no_head(head: bytes) -> bool:
    """None: the format's files are recognised by their suffix or named, never by content."""
    return False


# Files of pages rather than of tables, by their signature.
_PAGE_FILES = ((b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
               (b"II*\x00", "a TIFF image"), (b"MM\x00*", "a TIFF image"), (b"GIF8", "a GIF image"),
               (b"\x00\x00\x00\x0cjP  ", "a JPEG 2000 image"))


def page_file(head: bytes) -> str | None:
    """What a head is where it is a PDF or a page image (``a PDF``, ``a PNG
    image``), else None."""
    if b"%PDF-" in head[:1024]:  # (the signature may follow a little junk)
        return "a PDF"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "a WebP image"
    return next((what for start, what in _PAGE_FILES if head.startswith(start)), None)


# UTF-16 text by its byte-order mark, or without one by how "<" is written
_UTF16_STARTS = ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be"))


def as_utf8(head: bytes) -> bytes:
    """The head of a file in UTF-16 as UTF-8, so that the sniffers see its text;
    any other head as it is."""
    for start, encoding in _UTF16_STARTS:
        if head.startswith(start):
            return head.decode(encoding, "ignore").encode("utf-8")
    return head


# a <Coords> element, its name prefixed or not (ICDAR 2013 files have none)
_COORDS = re.compile(rb"<(?:[\w.-]+:)?Coords[\s/>]")


def has_coords(head: bytes) -> bool:
    """Whether the head holds a ``<Coords>`` element (cTDaR and POD outline cells with them)."""
    return b"Coords" in head and _COORDS.search(head) is not None  # (the plain search first: it is faster)
