"""The canonical model: the ICDAR 2013 Table Competition model, as plain data.

Every reader produces a :class:`Document` (or a :class:`Reading`: the document
and what the grid check needs to know of its source); every writer consumes one. Nothing in
this module reads or writes files, and it imports nothing outside the standard
library.

Conventions (README, "The canonical model"; docs/formats.md, "Coordinate frames"):

* rows and columns are 0-based and inclusive (``end >= start``);
* pages are 1-based;
* every :class:`BBox` carries its coordinate :class:`Frame`; conversions between
  frames live in :mod:`convertables.geometry` and nowhere else;
* a cell's ``content`` is ``None`` when the source format has no text for it
  (cTDaR and POD cells: *unknown*), and a string otherwise; a string that is
  empty after stripping whitespace is *blank*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, NamedTuple


class Frame(str, Enum):
    """A coordinate frame.

    ``pdf``: PDF points (1/72 inch), origin bottom-left, y grows upwards.
    ``image``: pixels, origin top-left, y grows downwards.
    ``page``: fractions of the page's width and height (0 to 1), origin
    top-left, y grows downwards (cloud OCR services' normalised coordinates).
    """

    PDF = "pdf"
    IMAGE = "image"
    PAGE = "page"


Point = tuple[float, float]


class BBox(NamedTuple):
    """An axis-aligned box ``x1 <= x2``, ``y1 <= y2`` in a given frame.

    ``polygon`` keeps the source outline where the format has one (cTDaR, POD);
    the box is then the polygon's envelope.

    A named tuple rather than a frozen dataclass: as immutable, and cheaper to
    make, with no ``object.__setattr__`` call per field (readers make one for
    every cell of a cTDaR or ICDAR file).
    """

    x1: float
    y1: float
    x2: float
    y2: float
    frame: Frame = Frame.PDF
    polygon: tuple[Point, ...] | None = None

    @property
    def width(self) -> float:
        return self.x2 - self.x1

    @property
    def height(self) -> float:
        return self.y2 - self.y1

    @property
    def is_ordered(self) -> bool:
        return self.x1 <= self.x2 and self.y1 <= self.y2


@dataclass(frozen=True, slots=True)
class Instruction:
    """A reference to a PDF text-drawing instruction (ICDAR 2013 ground truth)."""

    instr_id: int
    subinstr_id: int | None = None


@dataclass(slots=True)
class Cell:
    """One cell of a region's grid (0-based, inclusive row and column ranges)."""

    start_row: int
    start_col: int
    end_row: int
    end_col: int
    content: str | None = None
    id: int | None = None
    bbox: BBox | None = None
    header: bool = False
    # A tuple, not a list: most cells have none, and a shared () costs nothing to make.
    instructions: tuple[Instruction, ...] = ()
    # The cell's text as the source's tokens where the source has markup in it:
    # one token a character, and inline tags as tokens of their own ("<b>", "</b>"),
    # as PubTabNet's cell tokens are. TEDS compares these; None: the content's
    # characters are all there is.
    markup: tuple[str, ...] | None = None

    @property
    def is_unknown(self) -> bool:
        """The source has no text for this cell (cTDaR, POD): not the same as blank."""
        return self.content is None

    @property
    def is_blank(self) -> bool:
        """The cell has text, and it is only whitespace."""
        return self.content is not None and not self.content.strip()

    @property
    def row_span(self) -> int:
        return self.end_row - self.start_row + 1

    @property
    def col_span(self) -> int:
        return self.end_col - self.start_col + 1


_new = object.__new__


def make_cell(start_row: int, start_col: int, end_row: int, end_col: int, content: str | None = None,
              id: int | None = None, header: bool = False, markup: tuple[str, ...] | None = None,
              bbox: BBox | None = None) -> Cell:
    """A :class:`Cell`, as ``Cell(...)`` makes it, for readers that make one for
    every cell of a large file: calling ``Cell()`` runs the dataclass ``__init__``
    in a new interpreter frame entered from C, a plain function call does not.
    Every field is set here (a field added to Cell is added here too; the tests
    compare the two)."""
    cell = _new(Cell)
    cell.start_row = start_row
    cell.start_col = start_col
    cell.end_row = end_row
    cell.end_col = end_col
    cell.content = content
    cell.id = id
    cell.bbox = bbox
    cell.header = header
    cell.instructions = ()
    cell.markup = markup
    return cell


@dataclass(slots=True)
class Region:
    """A part of a table on one page. ``row_increment``/``col_increment`` place
    this region's grid inside the table's grid when a table is split."""

    id: int
    page: int = 1
    bbox: BBox | None = None
    row_increment: int = 0
    col_increment: int = 0
    cells: list[Cell] = field(default_factory=list)
    instructions: tuple[Instruction, ...] = ()


@dataclass(slots=True)
class Table:
    """A table: one region, or several where it is split across pages or parts."""

    id: int
    regions: list[Region] = field(default_factory=list)
    # The source's own HTML skeleton where it has one (HTML, PubTabNet): PubTabNet's
    # structure tokens ("<thead>", "<tr>", "<td>", or "<td", ' colspan="2"', ">",
    # then "</td>", ...), one cell opening per cell in the order of ``cells()``.
    # TEDS builds its tree from it (row groups, <th> against <td>); without it, from
    # the grid.
    html_structure: tuple[str, ...] | None = None
    # The grid's size (rows, columns) where the source declares one apart from its
    # cells (docling's num_rows, num_cols), and the texts of the captions it links
    # to the table: docling-core's HTML export of a table writes both.
    declared_size: tuple[int, int] | None = None
    captions: tuple[str, ...] = ()

    @property
    def page(self) -> int | None:
        """The page of the table's last region (what the ICDAR 2013 tool uses)."""
        return self.regions[-1].page if self.regions else None

    def cells(self) -> list[Cell]:
        return [cell for region in self.regions for cell in region.cells]


@dataclass(frozen=True, slots=True)
class TextItem:
    """A unit object of a page (a character, for the region metrics): its box and text.

    Marmot files carry them (their ``Char`` leaves); for PDFs, the scorer
    extracts them itself.
    """

    bbox: BBox
    text: str = ""


@dataclass(slots=True)
class Page:
    """What is known of a page: its size in ``frame`` units, the DPI for images,
    and its unit objects where the source has them."""

    number: int
    width: float | None = None
    height: float | None = None
    frame: Frame = Frame.PDF
    dpi: float | None = None
    items: list[TextItem] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    """A source document (e.g. ``eu-001.pdf``) and its tables, in document order.

    ``metadata`` holds facts about the source worth keeping (e.g. ``generator``
    of an HTML export); ``pages`` what is known of page sizes.
    """

    filename: str | None = None
    tables: list[Table] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def has_cells(self) -> bool:
        """True for a cell-structure document, False for a region-model one."""
        return any(region.cells for table in self.tables for region in table.regions)

    def regions(self) -> list[Region]:
        return [region for table in self.tables for region in table.regions]


@dataclass(slots=True)
class Reading:
    """What a reader found in a source: the document, and what the grid check
    that runs after every reader needs to know of the source.

    A reader returns a :class:`Document`, or a Reading where it has more to say.
    """

    document: Document
    source_lines: Mapping[int, int] | None = None
    """The line each cell was read from (``id(cell) -> line``), for the grid
    check's findings. None: no lines are known."""
    regions_to_check: list[tuple[int, Region]] | None = None
    """Where the reader's other regions keep the grid invariants by construction
    (HTML's table model, a sheet's cells): the ``(table id, region)`` pairs the
    grid check needs to look at. None: every region."""
