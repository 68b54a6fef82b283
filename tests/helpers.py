"""Small helpers the tests share (no fixtures here: see conftest.py)."""

from __future__ import annotations

import copy
from pathlib import Path

from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.model import Document


def without_blank_cells(doc: Document) -> Document:
    """``doc`` as the ICDAR 2013 writer keeps it by default: no blank cells."""
    doc = copy.deepcopy(doc)
    for table in doc.tables:
        for region in table.regions:
            region.cells = [c for c in region.cells if not c.is_blank]
    return doc


def grid(doc: Document) -> list[tuple]:
    """Every cell as (table, region, page, rows, cols, content, box): what a round trip must keep."""
    rows = []
    for table in doc.tables:
        for region in table.regions:
            for cell in region.cells:
                box = None if cell.bbox is None else (cell.bbox.x1, cell.bbox.y1, cell.bbox.x2, cell.bbox.y2)
                rows.append(
                    (table.id, region.id, region.page, region.row_increment, region.col_increment,
                     cell.start_row, cell.end_row, cell.start_col, cell.end_col, cell.content, box)
                )
    return rows


def codes(diagnostics: Diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


def read_both_ways(module, data: bytes, options=None) -> tuple:
    """``data`` read by a format ``module`` whose ``_Reader.plain_cells`` reads a region's
    cells in bulk (or gives None), and again with every region read cell by cell:
    (document, its diagnostics (the grid check's too), for each region tried whether it was read in bulk,
    the cell-by-cell document, its diagnostics)."""
    import pytest

    options = module.ReadOptions() if options is None else options
    read_plain = module._Reader.plain_cells
    plain: list[bool] = []

    def spy(self, el):
        cells = read_plain(self, el)
        plain.append(cells is not None)
        return cells

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module._Reader, "plain_cells", spy)
        quick = Diagnostics("x.xml")
        quick_doc = read_document(data, module.FORMAT, "x.xml", options, quick)
        patch.setattr(module._Reader, "plain_cells", lambda self, el: None)
        slow = Diagnostics("x.xml")
        slow_doc = read_document(data, module.FORMAT, "x.xml", options, slow)
    return quick_doc, quick, plain, slow_doc, slow


SAMPLE_STR = (Path(__file__).resolve().parents[1] / "samples" / "icdar" / "sample-str.xml").read_text()


def structure_corpus(gt: Path, res: Path, count: int) -> tuple[Path, Path]:
    """``count`` ICDAR 2013 documents in ``gt`` and their results in ``res``: most
    found, some with changed cells, one missing (3), one unreadable (7), a stray result."""
    gt.mkdir()
    res.mkdir()
    for n in range(count):
        (gt / f"doc{n:02}-str.xml").write_text(SAMPLE_STR)
        if n == 3:
            continue
        text = SAMPLE_STR.replace("<content>", "<content>x", n % 5) if n % 3 else SAMPLE_STR
        (res / f"doc{n:02}-str-result.xml").write_text("<document><table" if n == 7 else text)
    (res / "stray-str-result.xml").write_text(SAMPLE_STR)
    return gt, res
