"""Data-driven reader cases: ``tests/cases/<format>/<case>/`` holds an input
(``input*``) and ``expected.json`` with the tables it must give. A new case is
a new folder; no Python changes. ``pytest --accept`` rewrites each stale
``expected.json`` with the tables the reader gives (its other keys kept), to be
reviewed in the diff."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from convertables import ReadOptions, read, registry
from convertables.diagnostics import Diagnostics
from tests.conftest import CASES

NOT_FORMATS = ("check", "hostile")  # the other folders of tests/cases/, run by their own tests
FORMAT_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir() and p.name not in NOT_FORMATS)
CASE_DIRS = sorted(p for f in FORMAT_DIRS for p in f.iterdir() if p.is_dir() and p.name != "__pycache__")


def test_every_folder_of_cases_names_a_format():
    assert FORMAT_DIRS and all(f.name in registry.FORMATS for f in FORMAT_DIRS)


def _input(case: Path) -> Path:
    (found,) = [p for p in case.iterdir() if p.name.startswith("input")]
    return found


def _as_expected(doc) -> dict:
    out = {"tables": []}
    for table in doc.tables:
        cells = sorted([c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header] for c in table.cells())
        out["tables"].append({"page": table.page, "cells": cells})
    return out


def _expected_text(expected: dict) -> str:
    """The layout of the hand-written files: a line a cell, a line a table's start."""
    def table_text(table: dict) -> str:
        cells = [f"  {json.dumps(cell, ensure_ascii=False)}" for cell in table["cells"]]
        head = f' {{"page": {json.dumps(table["page"])}, "cells": ['
        return head + "\n" + ",\n".join(cells) + "]}" if cells else head + "]}"

    parts = []
    for key, value in expected.items():
        if key == "tables" and value:
            parts.append('"tables": [\n' + ",\n".join(table_text(t) for t in value) + "\n]")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{" + ",\n ".join(parts) + "}\n"


def _accept(path: Path, expected: dict) -> None:
    """Writes the case's new expectation whole or not at all."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(_expected_text(expected), encoding="utf-8")
    os.replace(temporary, path)


@pytest.mark.parametrize("case", CASE_DIRS, ids=[f"{p.parent.name}/{p.name}" for p in CASE_DIRS])
def test_reader_case(case: Path, request):
    expected_path = case / "expected.json"
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    diagnostics = Diagnostics()
    # (an option value "./name" names a file of the case's own folder: a words file beside the input)
    options = ReadOptions(extra={k: str(case / v[2:]) if isinstance(v, str) and v.startswith("./") else v
                                 for k, v in expected.get("options", {}).items()})
    doc = read(_input(case), case.parent.name, options, diagnostics=diagnostics)
    got = _as_expected(doc)
    for table in expected["tables"]:
        table["cells"] = sorted(table["cells"])
    if got["tables"] != expected["tables"] and request.config.getoption("accept"):
        expected["tables"] = got["tables"]
        _accept(expected_path, expected)
    assert got == {"tables": expected["tables"]}
    # whole cells (the readers make them field by field): replace() reads every field
    assert all(replace(cell) == cell for t in doc.tables for cell in t.cells())
    for key, value in expected.get("metadata", {}).items():
        assert doc.metadata.get(key) == value
    for code in expected.get("diagnostics", []):
        assert code in diagnostics.codes()
