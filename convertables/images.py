"""What a frame conversion needs from a page image: its pixel size and DPI.

Only the file's first MiB is read, for its headers (PNG ``IHDR``/``pHYs``, JPEG
``SOF``/JFIF density), with the standard library: no image library is needed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, InputError, Severity


@dataclass(frozen=True)
class ImageInfo:
    """A page image's size in pixels and its resolution, where the file gives one."""

    width: int
    height: int
    dpi: float | None


def _fail(path: Path, message: str) -> InputError:
    return InputError(Diagnostic("image-unreadable", Severity.ERROR, message, str(path)))


def image_info(path: str | Path) -> ImageInfo:
    path = Path(path)
    try:
        with path.open("rb") as image:
            head = image.read(1 << 20)
    except OSError as exc:
        raise _fail(path, f"cannot be read: {exc.strerror or exc}") from None
    try:
        if head.startswith(b"\x89PNG\r\n\x1a\n"):
            return _png(head, path)
        if head.startswith(b"\xff\xd8"):
            return _jpeg(head, path)
    except (struct.error, IndexError):  # a header cut short
        raise _fail(path, "a truncated image: its header ends early") from None
    raise _fail(path, "not a PNG or JPEG image")


def _png(data: bytes, path: Path) -> ImageInfo:
    width, height = struct.unpack(">II", data[16:24])
    dpi = None
    position = 8
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if kind == b"pHYs" and length >= 9:
            x_per_unit, _, unit = struct.unpack(">IIB", data[position + 8:position + 17])
            if unit == 1 and x_per_unit:  # pixels per metre
                dpi = round(x_per_unit * 0.0254, 2)
        if kind in (b"IDAT", b"IEND"):
            break
        position += 12 + length
    return ImageInfo(width, height, dpi)


def _jpeg(data: bytes, path: Path) -> ImageInfo:
    position, dpi = 2, None
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            position += 1
            continue
        marker = data[position + 1]
        length = struct.unpack(">H", data[position + 2:position + 4])[0]
        segment = data[position + 4:position + 2 + length]
        if marker == 0xE0 and segment.startswith(b"JFIF\x00") and len(segment) >= 12:
            unit, x_density = segment[7], struct.unpack(">H", segment[8:10])[0]
            if x_density:
                dpi = float(x_density) if unit == 1 else (x_density * 2.54 if unit == 2 else None)
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", segment[1:5])
            return ImageInfo(width, height, dpi)
        position += 2 + length
    raise _fail(path, "a JPEG without a frame header")
