"""Data-driven reader cases: ``tests/cases/<format>/<case>/`` holds an input
(``input*``) and ``expected.json`` with the tables it must give. A new case is
a new folder; no Python changes."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("case", CASE_DIRS, ids=[f"{p.parent.name}/{p.name}" for p in CASE_DIRS])
def test_reader_case(case: Path):
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    diagnostics = Diagnostics()
    # (an option value "./name" names a file of the case's own folder: a words file beside the input)
    options = ReadOptions(extra={k: str(case / v[2:]) if isinstance(v, str) and v.startswith("./") else v
                                 for k, v in expected.get("options", {}).items()})
    doc = read(_input(case), case.parent.name, options, diagnostics=diagnostics)
    got = _as_expected(doc)
    for table in expected["tables"]:
        table["cells"] = sorted(table["cells"])
    assert got == {"tables": expected["tables"]}
    # whole cells (the readers make them field by field): replace() reads every field
    assert all(replace(cell) == cell for t in doc.tables for cell in t.cells())
    for key, value in expected.get("metadata", {}).items():
        assert doc.metadata.get(key) == value
    for code in expected.get("diagnostics", []):
        assert code in diagnostics.codes()
