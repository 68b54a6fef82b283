"""Options that readers and writers take. One place, so every format and every
CLI command spells them the same way; a format ignores what does not concern it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Model = Literal["auto", "structure", "region"]

# The format-specific settings (``extra``) some readers and writers take, each
# documented in its format's module. Any other name is refused: a misspelt one
# would otherwise be ignored without a word.
READ_EXTRAS = {
    "split_blank_rows": "xlsx: a sheet splits into tables at fully empty rows",
    "keep_pandas_labels": "html, xlsx: keep pandas' default header row and index column",
    "with_caption": "marmot: widen a table's region by its caption",
    "with_footnote": "marmot: widen a table's region by its footnote",
    "keep_filler_cells": "ctdar: keep cells whose points are all 0,0 (the scorer does)",
}
WRITE_EXTRAS = {"track": "ctdar: A (tables) or B (cells, the default)"}


def _check_extra(extra: dict, known: dict, options: str) -> None:
    unknown = sorted(set(extra) - set(known))
    if unknown:
        raise ValueError(f"{options}.extra: unknown setting(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(known)}")


@dataclass(frozen=True)
class ReadOptions:
    """Settings for reading, passed to every reader (each takes what concerns it)."""

    keep_instructions: bool = False
    """ICDAR 2013: keep ``<instruction>`` elements (skipped by default: they are
    thousands per file and no metric but the official viewer uses them)."""
    page: int | None = None
    """Formats without pages (HTML, pandas exports): the page to put regions on."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Format-specific settings (:data:`READ_EXTRAS`), documented in each format's module."""

    def __post_init__(self):
        _check_extra(self.extra, READ_EXTRAS, "ReadOptions")


@dataclass(frozen=True)
class WriteOptions:
    """Settings for writing, passed to every writer (each takes what concerns it)."""

    model: Model = "auto"
    """ICDAR 2013: ``structure`` (``*-str.xml``), ``region`` (``*-reg.xml``), or
    ``auto``: structure when any region has cells."""
    keep_blank: bool = False
    """ICDAR 2013 has no blank cells; keep them anyway (with their whitespace)."""
    dpi: float | None = None
    """Converting between image pixels and PDF points (``dumps`` and ``write`` do it
    before the writer runs): the image's resolution."""
    page_height: float | None = None
    """... and the page height in points (or ``pdf``: a PDF to read page heights from)."""
    pdf: str | None = None
    image: str | None = None
    """... or a page image (PNG, JPEG): its pixel height and DPI give the page height."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Format-specific settings (:data:`WRITE_EXTRAS`), documented in each format's module."""

    def __post_init__(self):
        _check_extra(self.extra, WRITE_EXTRAS, "WriteOptions")
