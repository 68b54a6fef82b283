"""What exporters' names say: Camelot's ``export()`` names each table's file
``<doc>-page-<p>-table-<k>.<suffix>`` and each sheet of its Excel export
``page-<p>-table-<k>``; readers take the page from them."""

from __future__ import annotations

import re

CAMELOT_PAGE_TABLE = r"page-(?P<page>\d+)-table-(?P<table>\d+)"
"""The part of Camelot's names that says the page and the table."""

_IN_FILE_NAME = re.compile("-" + CAMELOT_PAGE_TABLE, re.I)
_SHEET_NAME = re.compile(CAMELOT_PAGE_TABLE, re.I)


def camelot_page(name: str, *, sheet: bool = False) -> int | None:
    """The page number a Camelot export's file name (``doc-page-3-table-1.csv``:
    3) or, with ``sheet``, its sheet name (``page-3-table-1``: 3) says, as
    written (0 included); None where the name is not Camelot's."""
    match = _SHEET_NAME.fullmatch(name) if sheet else _IN_FILE_NAME.search(name)
    return int(match.group("page")) if match else None
