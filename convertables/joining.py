"""One document from the one-file-per-table exports of a document (``--join``).

Camelot writes each table of ``doc.pdf`` to ``doc-page-<p>-table-<k>.csv``
(and .html, .xlsx, .json); scripts around Tabula and pdfplumber name them
``doc_page_<p>_table_<k>`` or ``doc_p<p>_t<k>``. :func:`per_table_name` reads
those names; :func:`group` puts the files of one document together; and
:func:`join` makes one document of their tables, on page ``p`` in ``(p, k)``
order, numbered from 0. A file whose name says no page and table is left as it
is (its own document).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, NamedTuple

from . import registry
from .containers import MemberRef
from .export_names import CAMELOT_PAGE_TABLE
from .model import Document, Table

# The per-table namings met in the wild, the document's name first.
PER_TABLE_NAMES = (
    re.compile(r"^(?P<doc>.+?)-" + CAMELOT_PAGE_TABLE + "$", re.I),  # Camelot's export()
    re.compile(r"^(?P<doc>.+?)_page_?(?P<page>\d+)_table_?(?P<table>\d+)$", re.I),  # doc_page_1_table_2, doc_page1_table2
    re.compile(r"^(?P<doc>.+?)[-_]p(?P<page>\d+)[-_]t(?P<table>\d+)$", re.I),  # doc_p1_t2, doc-p1-t2
)


class TableFile(NamedTuple):
    """One table's file: the document it belongs to, its page and its number there."""

    document: str
    page: int
    table: int
    path: Path


def per_table_name(path) -> TableFile | None:
    """What a per-table file's name says (None where it says no page and table);
    ``path`` may be a container's record (:class:`~convertables.containers.MemberRef`)."""
    stem = registry.without_suffix(path.name)
    for pattern in PER_TABLE_NAMES:
        match = pattern.match(stem)
        if match and int(match.group("page")) >= 1:  # (pages count from 1: page 0 names no page)
            return TableFile(match.group("doc"), int(match.group("page")), int(match.group("table")), path)
    return None


def group(paths: list[Path]) -> tuple[dict[Path, list[TableFile]], list[Path]]:
    """The per-table files of ``paths`` by document (keyed by ``folder/document``,
    the document's files in (page, table) order), and the other files."""
    groups: dict[Path, list[TableFile]] = {}
    others = []
    for path in paths:
        found = per_table_name(path)
        if found is None:
            others.append(path)
        else:
            folder = path.container.parent if isinstance(path, MemberRef) else path.parent
            groups.setdefault(folder / found.document, []).append(found)
    for files in groups.values():
        files.sort(key=lambda f: (f.page, f.table, f.path.name))
    return groups, others


def join(files: list[TableFile], read: Callable[[Path], Document], name: str | None = None) -> Document:
    """One document of the tables of ``files`` (read by ``read``), each file's on
    the page its name says, numbered from 0 in (page, table) order. The first
    file's document name is kept (or ``name``)."""
    joined = Document(filename=name)
    for table_file in files:
        doc = read(table_file.path)
        if joined.filename is None and doc.filename and not per_table_name(Path(doc.filename)):
            joined.filename = doc.filename
        for table in doc.tables:
            for region in table.regions:
                region.page = table_file.page
            joined.tables.append(Table(len(joined.tables), table.regions, table.html_structure, table.declared_size,
                                        table.captions))
        joined.metadata.update({k: v for k, v in doc.metadata.items() if k not in joined.metadata})
    if joined.filename is None:
        joined.filename = files[0].document if files else None
    return joined
