"""The one JSON parser of the export formats (Textract, Azure, Document AI, docling...).

As :mod:`convertables.xmlsafe` for XML: every failure is one clear diagnostic,
never a traceback, in bounded memory. ``json.loads`` holds several times a
document's size in Python objects, so a response larger than
:data:`MAX_JSON_BYTES` is refused before it is parsed; nesting deeper than
Python's recursion limit is refused too. ``NaN`` and ``Infinity`` (which JSON
does not have, but Python's parser takes) are refused, and a UTF-8 byte-order
mark is allowed.

Values read from such responses are checked where they are used:
:func:`integer` and :func:`number` take what a service writes, and refuse
(``None``) what it does not, numbers written as strings included.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .diagnostics import Diagnostics

MAX_JSON_BYTES = 256 << 20
"""The largest JSON input parsed (256 MiB); a larger one is refused with ``too-large``."""


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def parse_json(data: bytes, diagnostics: Diagnostics, limit: int | None = None) -> Any:
    """The JSON value in ``data``; InputError (``json-empty``, ``json-syntax``,
    ``too-large``, ``too-deep``) where there is none to be had."""
    limit = MAX_JSON_BYTES if limit is None else limit
    if len(data) > limit:
        raise diagnostics.fail("too-large", f"the JSON has {len(data):,} bytes, more than the {limit:,} read")
    if not data or data.isspace():
        raise diagnostics.fail("json-empty", "the file is empty")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return json.loads(data, parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise diagnostics.fail("json-syntax", f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise diagnostics.fail("json-syntax", f"not valid JSON: {exc.msg}", line=exc.lineno,
                               column=exc.colno) from None
    except RecursionError:
        raise diagnostics.fail("too-deep", "the JSON nests too deeply to read") from None
    except ValueError as exc:
        raise diagnostics.fail("json-syntax", f"not valid JSON: {exc}") from None


def integer(value: Any) -> int | None:
    """``value`` if it is a JSON integer (``3``, or ``3.0``), else None (strings,
    booleans, fractions, nulls)."""
    if value.__class__ is int:
        return value
    if value.__class__ is float and value.is_integer():
        return int(value)
    return None


def number(value: Any) -> float | None:
    """``value`` as a float if it is a finite JSON number, else None."""
    if value.__class__ in (int, float) and math.isfinite(value):
        return float(value)
    return None

