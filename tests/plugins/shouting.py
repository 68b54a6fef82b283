"""A format written for the tests alone: one table per file, one row per line,
cells separated by "|", added by registry.register(FORMAT): the command line
builds its option from the declaration. (docs/plugins.md installs one as a
distribution.)"""

from __future__ import annotations

from convertables.diagnostics import Diagnostics
from convertables.model import Cell, Document, Region, Table
from convertables.options import Option, ReadOptions, WriteOptions
from convertables.registry import Format


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    rows = data.decode("utf-8").splitlines()
    cells = [Cell(r, c, r, c, text.upper() if options.shout else text)
             for r, line in enumerate(rows) for c, text in enumerate(line.split("|"))]
    return Document(tables=[Table(0, [Region(0, 1, cells=cells)])])


def write(doc: Document, diagnostics: Diagnostics, options: WriteOptions = WriteOptions()) -> bytes:
    lines = []
    for table in doc.tables:
        rows: dict[int, dict[int, str]] = {}
        for cell in table.cells():
            rows.setdefault(cell.start_row, {})[cell.start_col] = cell.content or ""
        lines += ["|".join(row[c] for c in sorted(row)) for _, row in sorted(rows.items())]
    return ("\n".join(lines) + "\n").encode("utf-8")


FORMAT = Format("shouting", "test format: rows of |-separated cells", (".shout",), lambda head: False,
                ("structure",), read, write,
                options=(Option("shout", "--shout", bool, "shouting input: upper-case every cell.", False),))
