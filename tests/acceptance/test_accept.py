"""The --accept flag (tests/conftest.py): a stale expected.json of a reader case is
rewritten with what the reader gives, only with the flag, and then passes without it.
Run on a copy of the cases' test in a temporary folder, never on the real cases."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CASES

TESTS = Path(__file__).resolve().parent.parent
CSV_CASES = ("ragged-rows", "pandas-named-header")


def _copy_of_the_case_test(tmp_path: Path) -> Path:
    """tests/ as far as test_format_cases.py needs it, with two csv cases."""
    copy = tmp_path / "tests"
    (copy / "acceptance").mkdir(parents=True)
    for name in ("__init__.py", "conftest.py"):
        shutil.copy(TESTS / name, copy / name)
    for name in ("__init__.py", "test_format_cases.py"):
        shutil.copy(TESTS / "acceptance" / name, copy / "acceptance" / name)
    for case in CSV_CASES:
        shutil.copytree(CASES / "csv" / case, copy / "cases" / "csv" / case)
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return copy


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "pytest.ini",
                           "tests/acceptance/test_format_cases.py", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_accept_rewrites_a_stale_expected_file_and_nothing_else(tmp_path):
    copy = _copy_of_the_case_test(tmp_path)
    stale_file = copy / "cases" / "csv" / CSV_CASES[0] / "expected.json"
    fresh_file = copy / "cases" / "csv" / CSV_CASES[1] / "expected.json"
    right = json.loads(stale_file.read_text(encoding="utf-8"))
    stale = json.loads(stale_file.read_text(encoding="utf-8"))
    stale["tables"][0]["cells"][0][4] = "not what the reader gives"
    stale["tables"].append({"page": 9, "cells": [[0, 0, 0, 0, "a table too many", False]]})
    stale_file.write_text(json.dumps(stale), encoding="utf-8")
    stale_text, fresh_text = stale_file.read_bytes(), fresh_file.read_bytes()

    without = _pytest(tmp_path)
    assert without.returncode == 1, without.stdout + without.stderr
    assert "1 failed, 2 passed" in without.stdout
    assert stale_file.read_bytes() == stale_text  # no flag, no rewrite

    accepted = _pytest(tmp_path, "--accept")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    rewritten = json.loads(stale_file.read_text(encoding="utf-8"))
    assert list(rewritten) == list(right)  # the case's other keys kept, in their order
    assert [t["page"] for t in rewritten["tables"]] == [t["page"] for t in right["tables"]]
    assert [sorted(t["cells"]) for t in rewritten["tables"]] == [sorted(t["cells"]) for t in right["tables"]]
    assert fresh_file.read_bytes() == fresh_text  # a file that was right is left as it was

    again = _pytest(tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "3 passed" in again.stdout
