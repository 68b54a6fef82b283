"""What the metrics and checks need from a PDF: page sizes and character elements.

The ICDAR 2013 region metric counts *character elements*: each character drawn
by a ``Tj``/``TJ`` operator, with the box ``x0`` = start of the glyph, ``x1`` =
start + advance width, ``y0`` = baseline, ``y1`` = baseline + font size, in PDF
points (origin bottom-left). A character belongs to a region when the centre of
that box lies inside the region.

Why pypdfium2 rather than pdfminer.six, compared on the 67 competition PDFs:
both give each character's origin, advance and font size, so both reproduce
the organisers' region boxes from the characters inside them (the envelope
within 1.5 pt of the box: 164 of 165 regions with either, e.g. eu-001: 100.6,
451.3, 482.3, 543.1 against ``x1='100' y1='451' x2='482' y2='543'``);
pypdfium2 reads the pages in PDFium's compiled code where pdfminer.six is pure
Python, and it tells which characters it *generated* itself (spaces inferred
from layout), which are not character elements and are left out.

Items are counted as the official tool counts them (pdfxtk, on PDFBox 1.8), so
that a region holds as many items here as there: one item a glyph drawn, the
space U+0020 left out and every other character kept (a no-break space, a tab);
a ligature glyph is one item, where PDFium gives one character for each letter
its text stands for (``fi``: two, with one origin and one box), so those are
taken back together. With this, each of the 165 ground-truth regions of the
competition's 71 region files holds the official tool's count of items
(tests/acceptance/test_pdf.py). ``keep_spaces`` keeps the spaces too.
"""

from __future__ import annotations

import ctypes
import math
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .diagnostics import Diagnostic, InputError, Severity
from .geometry import displayed_rotated_90


@dataclass(frozen=True, slots=True)
class PdfChar:
    """One character element (a glyph drawn; a ligature's text has its letters), in
    PDF points, origin bottom-left."""

    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


@dataclass(frozen=True)
class PdfPages:
    """Page sizes (width, height in points, 1-based page i at index i-1) and characters by page."""

    sizes: tuple[tuple[float, float], ...]
    chars: dict[int, tuple[PdfChar, ...]]


# pdfium is not thread-safe: one document at a time per process.
_LOCK = threading.Lock()


def _fail(path: Path, message: str) -> InputError:
    return InputError(Diagnostic("pdf-unreadable", Severity.ERROR, message, str(path)))


def _identity(path: Path) -> tuple[str, int, int]:
    """What the caches know a PDF by: its resolved path, size and mtime."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise _fail(path, f"cannot be read: {exc.strerror or exc}") from None
    if not path.is_file():
        raise _fail(path, "is not a file (a folder?)")
    return str(path.resolve()), stat.st_size, stat.st_mtime_ns


def read_pdf(path: str | os.PathLike, keep_spaces: bool = False) -> PdfPages:
    """Page sizes and character elements of a PDF, cached by path, size and mtime."""
    return _read_cached(*_identity(Path(path)), keep_spaces)


@lru_cache(maxsize=64)
def _read_cached(path: str, size: int, mtime: int, keep_spaces: bool) -> PdfPages:
    import pypdfium2 as pdfium  # imported here: only the region metric and checks need it
    import pypdfium2.raw as raw

    with _LOCK:
        try:
            document = pdfium.PdfDocument(path)
        except pdfium.PdfiumError as exc:
            raise _fail(Path(path), f"not a readable PDF: {exc}") from None
        try:
            sizes = []
            chars: dict[int, tuple[PdfChar, ...]] = {}
            for index in range(len(document)):
                page = document[index]
                sizes.append(tuple(page.get_size()))
                chars[index + 1] = _page_chars(raw, page, index + 1, keep_spaces)
                page.close()
        finally:
            document.close()
    return PdfPages(tuple(sizes), chars)


def _page_chars(raw, page, number: int, keep_spaces: bool) -> tuple[PdfChar, ...]:
    # A page displayed rotated by 90 degrees: characters are given in the
    # displayed page's frame, as the competition's ground truth has them (eu-015).
    rotated = page.get_rotation() == 90
    media = page.get_mediabox()
    textpage = page.get_textpage()
    try:
        handle = textpage.raw
        origin_x, origin_y = ctypes.c_double(), ctypes.c_double()
        box = raw.FS_RECTF()
        matrix = raw.FS_MATRIX()
        found: list[PdfChar] = []
        glyph = None  # the previous character's origin and box: a ligature's letters share them
        for i in range(raw.FPDFText_CountChars(handle)):
            if raw.FPDFText_IsGenerated(handle, i):
                glyph = None
                continue
            text = chr(raw.FPDFText_GetUnicode(handle, i) or 0xFFFD)
            if text == " " and not keep_spaces:
                glyph = None
                continue
            raw.FPDFText_GetCharOrigin(handle, i, ctypes.byref(origin_x), ctypes.byref(origin_y))
            raw.FPDFText_GetLooseCharBox(handle, i, ctypes.byref(box))
            this_glyph = (origin_x.value, origin_y.value, box.left, box.bottom, box.right, box.top)
            if this_glyph == glyph:  # another letter of one ligature glyph: the same item
                last = found[-1]
                found[-1] = PdfChar(last.page, last.text + text, last.x0, last.y0, last.x1, last.y1)
                continue
            glyph = this_glyph
            raw.FPDFText_GetMatrix(handle, i, ctypes.byref(matrix))
            # The font size in user space: the nominal size scaled by the text matrix.
            size = raw.FPDFText_GetFontSize(handle, i) * math.hypot(matrix.c, matrix.d)
            x0, y0 = origin_x.value, origin_y.value
            upright = abs(matrix.a) >= abs(matrix.b)  # the text runs along x, else along y
            advance = (box.right - box.left) if upright else (box.top - box.bottom)
            if rotated:
                x0, y0 = displayed_rotated_90((x0, y0), media)
            found.append(PdfChar(number, text, x0, y0, x0 + advance, y0 + size))
        return tuple(found)
    finally:
        textpage.close()


def page_sizes(path: str | os.PathLike) -> tuple[tuple[float, float], ...]:
    """(width, height) in points of every page, read without its characters
    (nine tenths of the work of :func:`read_pdf`)."""
    return _sizes_cached(*_identity(Path(path)))


@lru_cache(maxsize=256)
def _sizes_cached(path: str, size: int, mtime: int) -> tuple[tuple[float, float], ...]:
    import pypdfium2 as pdfium

    with _LOCK:
        try:
            document = pdfium.PdfDocument(path)
        except pdfium.PdfiumError as exc:
            raise _fail(Path(path), f"not a readable PDF: {exc}") from None
        try:
            return tuple(tuple(document.get_page_size(index)) for index in range(len(document)))
        finally:
            document.close()
