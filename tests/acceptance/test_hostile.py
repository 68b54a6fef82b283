"""Hostile input: every file under tests/cases/hostile/ is converted by the real
command in a subprocess with a time limit and a memory cap.

A case is a file named ``<code>--<what>.<ext>``: the conversion must end within
seconds, print no traceback, name the file, and report ``<code>``. A fatal code
fails the file (exit 1, one line on stderr); a tolerated one converts (exit 1 where
an error was said, something of the input being lost; 0 for warnings alone).
``ok--<what>`` is hostile by size, not by defect: it must convert, in bounds.
No text of a local file referenced by an entity may reach any output.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from convertables import registry
from tests.conftest import CASES

HOSTILE = sorted((CASES / "hostile").iterdir())
TOLERATED = {"span-inverted", "bad-number", "slot-overlap", "box-inverted", "grid-negative", "html-span", "pubtabnet-span",
             "doctags-span", "latex-span", "latex-unclosed", "markdown-ragged", "markdown-unclosed", "ok"}
MEMORY_CAP = 2 << 30  # 2 GiB of address space
TIME_LIMIT = 30  # seconds; each case takes well under one


def _cap_memory():  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _fatal(code: str, name: str) -> bool:
    """Some tolerated codes are fatal in JSON, whose schema leaves no room to go on."""
    return code not in TOLERATED or name.endswith(".json")


@pytest.mark.slow
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
    else:  # converted; exit 1 where something was lost (an error, e.g. a dropped box), 0 for warnings alone
        assert result.returncode == (1 if ": error " in stderr else 0), stderr
        assert (tmp_path / "out.json").exists()
    outputs = stderr + result.stdout + "".join(p.read_text(errors="replace") for p in tmp_path.iterdir())
    assert "root:" not in outputs  # /etc/passwd never leaks


# Reads a case once and writes it in every format that can be written; prints one
# line a format: its name and "ok" or the code of the error that refused it.
_WRITE_EVERY_FORMAT = """
import sys
from convertables import files, registry
from convertables.diagnostics import Diagnostics, InputError
try:
    doc = files.read(sys.argv[1])
except InputError as exc:
    print("unreadable", exc.diagnostic.code)
    raise SystemExit
for fmt in registry.FORMATS.values():
    if fmt.writes:
        try:
            files.dumps(doc, fmt.name, diagnostics=Diagnostics())
            print(fmt.name, "ok")
        except InputError as exc:
            print(fmt.name, exc.diagnostic.code)
"""


@pytest.mark.slow
@pytest.mark.parametrize("case", HOSTILE, ids=[p.name for p in HOSTILE])
def test_what_hostile_input_reads_as_is_written_in_every_format_or_refused(case: Path):
    # a huge grid read from a small file must not make a writer run for hours
    result = subprocess.run([sys.executable, "-c", _WRITE_EVERY_FORMAT, str(case)], capture_output=True, text=True,
                            timeout=TIME_LIMIT, preexec_fn=_cap_memory)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    lines = dict(line.split() for line in result.stdout.splitlines())
    code = case.name.split("--")[0]
    if "unreadable" in lines:
        assert _fatal(code, case.name) and lines["unreadable"] == code
    else:
        writable = {f.name for f in registry.FORMATS.values() if f.writes}
        assert set(lines) == writable
        assert lines["json"] == "ok"
