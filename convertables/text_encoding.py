"""Byte-order marks: the one table that every reader of text files consults."""

from __future__ import annotations

import codecs

BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16's: UTF-32 LE's mark starts with it (FF FE 00 00)
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
"""Each byte-order mark and the encoding it announces, longest first where one starts another."""


def split_bom(data: bytes) -> tuple[str | None, bytes]:
    """The encoding ``data``'s byte-order mark announces and the bytes after the
    mark; ``(None, data)`` where it starts with none."""
    for mark, encoding in BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return encoding, data[len(mark):]
    return None, data


def decode_text(data: bytes, newlines: bool = False) -> str:
    """A text file's text: in the encoding its byte-order mark names, else UTF-8,
    else windows-1252 (a byte no encoding reads is replaced). ``newlines``: line
    endings made ``\n``, as Python reads a text file."""
    encoding, data = split_bom(data)
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError:
        text = data.decode("windows-1252" if encoding is None else encoding, "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n") if newlines else text
