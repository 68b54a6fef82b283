"""One setting as it is declared (:class:`Option`), by a format's reader or
writer or by a metric, and the settings several formats share, so that every
format spells them the same way. Below the registry: a format's declaration
(:class:`~convertables.format_declaration.Format`) holds its options; the
settings given to readers and writers, checked against every format's, are in
:mod:`convertables.options`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from .diagnostics import UsageError

Model = Literal["auto", "structure", "region"]
Direction = Literal["read", "write", "score"]


@dataclass(frozen=True)
class Option:
    """One setting: its name in Python, its command-line flag, its type and default.

    ``kind`` is ``bool`` (a flag), ``int``, ``float``, ``str`` or ``Path``;
    ``choices`` restricts a ``str``; ``minimum`` bounds a number; ``parse`` turns
    the text given on the command line into the value (ValueError: what the value
    must be, e.g. "a list of numbers, not 'x'");
    ``variants``: a metric's setting that applies to those of its variants only.
    """

    name: str
    flag: str
    kind: type
    help: str
    default: Any = None
    direction: Direction = "read"
    choices: tuple[str, ...] | None = None
    minimum: float | None = None
    parse: Callable[[str], Any] | None = None
    variants: tuple[str, ...] | None = None
    case_sensitive: bool = True
    """Whether ``choices`` must be written as declared (else in any case)."""

    def check(self, value: Any) -> None:
        """Refuse (UsageError) a value the option cannot take."""
        if value is None or value == self.default:
            return
        if self.kind is bool and not isinstance(value, bool):
            raise UsageError(f"{self.flag} is a flag: True or False, not {value!r}")
        if self.choices is not None:
            known = self.choices if self.case_sensitive else [c.lower() for c in self.choices]
            if (value if self.case_sensitive else str(value).lower()) not in known:
                listed = ", ".join(self.choices[:-1]) + " or " + self.choices[-1] if len(self.choices) > 1 else \
                    self.choices[0]
                raise UsageError(f"{self.flag} is {listed}, not {value!r}")
        if self.kind in (int, float):
            import math

            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise UsageError(f"{self.flag} must be a finite number, not {value!r}")
            if self.kind is int and value != int(value):
                raise UsageError(f"{self.flag} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise UsageError(f"{self.flag} must be at least {self.minimum:g}, not {value!r}")


# -- settings several formats share --------------------------------------------------------

PAGE = Option("page", "--page", int, "The page of the tables of a format without pages (HTML, CSV, LaTeX; Markdown: "
              "its first page; Excel: of the first sheet whose name says none).", minimum=1)
PANDAS_LABELS = Option("keep_pandas_labels", "--keep-index", bool,
                       "Keep pandas' default integer header row and index column (HTML, Excel, CSV input).", False)

CELL_PLACEMENT = Option("cell_placement", "--cell-placement", str,
                        "HTML tables: how cells take their grid slots: whatwg (the HTML standard's table model: "
                        "row groups in turn, a <tfoot> last, a span ending with its row group, rowspan=0 to its "
                        "end) or document-order (rows numbered as written, a span running on into the next row "
                        "group, rowspan=0 one row, as grits-metric reads them). Either way a cell takes the "
                        "first free slot of its row.", "whatwg", choices=("whatwg", "document-order"))

# Converting boxes between image pixels, fractions of the page and PDF points, for any writer whose
# format has a native frame.
DPI = Option("dpi", "--dpi", float, "Image resolution, to convert pixels <-> PDF points.", direction="write", minimum=1)
PAGE_HEIGHT = Option("page_height", "--page-height", float, "Page height in points, for --dpi.",
                     direction="write", minimum=1)
PAGE_WIDTH = Option("page_width", "--page-width", float, "Page width in points, with --page-height: converts "
                    "fractions of the page (Textract, Document AI).", direction="write", minimum=1)
PDF = Option("pdf", "--pdf", Path, "A PDF to take page heights from, for --dpi.", direction="write")
IMAGE = Option("image", "--image", Path, "The page image (PNG/JPEG): its height and DPI.", direction="write")
FRAME_OPTIONS = (DPI, PAGE_HEIGHT, PAGE_WIDTH, PDF, IMAGE)
