"""Hostile input: every file under tests/cases/hostile/ is converted by the real
command in a subprocess with a time limit and a memory cap.

A case is a file named ``<code>--<what>.<ext>``: the conversion must end within
seconds, print no traceback, name the file, and report ``<code>``. A fatal code
fails the file (exit 1, one line on stderr); a tolerated one converts (exit 0).
``ok--<what>`` is hostile by size, not by defect: it must convert, in bounds.
No text of a local file referenced by an entity may reach any output.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CASES

HOSTILE = sorted((CASES / "hostile").iterdir())
TOLERATED = {"span-inverted", "bad-number", "slot-overlap", "box-inverted", "grid-negative", "html-span", "ok"}
MEMORY_CAP = 2 << 30  # 2 GiB of address space
TIME_LIMIT = 30  # seconds; each case takes well under one


def _cap_memory():  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _fatal(code: str, name: str) -> bool:
    """Some tolerated codes are fatal in JSON, whose schema leaves no room to go on."""
    return code not in TOLERATED or name.endswith(".json")


@pytest.mark.parametrize("case", HOSTILE, ids=[p.name for p in HOSTILE])
def test_hostile_input_ends_cleanly(case: Path, tmp_path: Path):
    code = case.name.split("--")[0]
    result = subprocess.run(
        [sys.executable, "-m", "convertables", "convert", str(case), "--to", "json", "-o", str(tmp_path / "out.json")],
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        preexec_fn=_cap_memory,
    )
    stderr = result.stderr
    assert "Traceback" not in stderr
    if code != "ok":
        assert f" {code} " in stderr, stderr
        assert str(case) in stderr.splitlines()[0]
    if _fatal(code, case.name):
        assert result.returncode == 1, stderr
        assert len(stderr.strip().splitlines()) == 1, stderr
        assert not (tmp_path / "out.json").exists()
    else:
        assert result.returncode == 0, stderr
        assert (tmp_path / "out.json").exists()
    outputs = stderr + result.stdout + "".join(p.read_text(errors="replace") for p in tmp_path.iterdir())
    assert "root:" not in outputs  # /etc/passwd never leaks
