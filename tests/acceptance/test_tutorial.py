"""docs/tutorial.md is what its commands print.

The tutorial's ```sh blocks are run in order, each by bash, in one empty temporary folder
(the files the first blocks write with heredocs are there for the later ones), and its
```python block by this interpreter in the same folder; the output of each (standard
output and standard error together, as a terminal shows them) must be the ```text block
that follows it in the tutorial, but for trailing whitespace. A block the tutorial shows
without a ```text block after it must print nothing. The one block marked
``<!-- not run by tests/acceptance/test_tutorial.py ... -->`` (the install) is left out: instead,
``convertables`` and ``python`` are put on PATH as small scripts that run this interpreter
on this checkout. Nothing here reads the shared corpus.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOC = ROOT / "docs" / "tutorial.md"
SKIP_MARKER = "<!-- not run by tests/acceptance/test_tutorial.py"
FENCE = re.compile(r"^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
RUN = {"sh", "python"}


@dataclass
class Step:
    language: str  # "sh" or "python"
    code: str
    line: int  # of the opening fence, 1-based
    skipped: bool = False
    shown: str | None = None  # the ```text block after it; None: it prints nothing


def parse(text: str) -> list[Step]:
    """The runnable blocks of a tutorial, each with the output shown after it."""
    steps: list[Step] = []
    previous_end = 0
    previous: str | None = None
    for match in FENCE.finditer(text):
        language, body = match.group(1), match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        between = text[previous_end:match.start()]
        if language == "text":
            if previous not in RUN or steps[-1].shown is not None:
                raise ValueError(f"line {line}: a ```text block that follows no ```sh or ```python block")
            steps[-1].shown = body
        elif language in RUN:
            steps.append(Step(language, body, line, skipped=SKIP_MARKER in between))
        else:
            raise ValueError(f"line {line}: a ```{language} block: the tutorial's blocks are sh, python and "
                             "text (this test runs the first two and compares the third)")
        previous, previous_end = language, match.end()
    return steps


def normalise(output: str) -> list[str]:
    """Lines without trailing whitespace, and without blank lines at the end."""
    lines = [line.rstrip() for line in output.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _shims(folder: Path) -> Path:
    """A bin folder with ``convertables`` and ``python``: this interpreter, this checkout."""
    folder.mkdir()
    python = shlex.quote(sys.executable)
    for name, command in (("convertables", f"{python} -m convertables"), ("python", python)):
        script = folder / name
        script.write_text(f'#!/bin/sh\nexec {command} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    return folder


def _environment(bin_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    # Standard output and standard error interleaved as on a terminal (a pipe would buffer the first).
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_step(step: Step, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    command = ["bash", "-c", step.code] if step.language == "sh" else [sys.executable, "-"]
    return subprocess.run(command, input=step.code if step.language == "python" else None, cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)


def mismatch(step: Step, printed: str) -> str | None:
    """None where ``printed`` is what the tutorial shows after ``step``, else a diff to read."""
    shown = normalise(step.shown or "")
    got = normalise(printed)
    if shown == got:
        return None
    diff = "\n".join(difflib.unified_diff(shown, got, "docs/tutorial.md", "printed", lineterm=""))
    return (f"docs/tutorial.md:{step.line}: the ```{step.language} block prints other than the tutorial "
            f"shows{'' if step.shown is not None else ' (it shows no output)'}:\n{step.code}\n{diff}")


@pytest.mark.slow
def test_the_tutorial_shows_what_its_commands_print(tmp_path: Path):
    steps = parse(DOC.read_text(encoding="utf-8"))
    skipped = [s for s in steps if s.skipped]
    assert len(skipped) == 1 and "pip install" in skipped[0].code, (
        "one block, the install, is not run; no other may be marked so")
    assert any(s.language == "python" for s in steps), "the tutorial's Python block is missing"
    work = tmp_path / "work"
    work.mkdir()
    env = _environment(_shims(tmp_path / "bin"))
    for step in steps:
        if step.skipped:
            continue
        done = run_step(step, work, env)
        problem = mismatch(step, done.stdout)
        assert problem is None, problem
        assert done.returncode == 0, (
            f"docs/tutorial.md:{step.line}: exit status {done.returncode} (show it with `; echo \"exit status $?\"` "
            f"where the tutorial means it):\n{step.code}")


def test_the_tutorial_uses_no_corpus_and_no_absolute_paths():
    for step in parse(DOC.read_text(encoding="utf-8")):
        if step.skipped:
            continue
        for text in (step.code, step.shown or ""):
            assert "shared/corpus" not in text and "/tmp/" not in text and "/work/" not in text, step.line


SAMPLE = """\
Prose.

```sh
echo one
```

```text
one
```

```sh
true
```

```python
print(1 + 1)
```

```text
2
```
"""


def test_the_parser_pairs_each_block_with_the_output_after_it():
    steps = parse(SAMPLE)
    assert [(s.language, s.code, s.shown) for s in steps] == [
        ("sh", "echo one\n", "one\n"), ("sh", "true\n", None), ("python", "print(1 + 1)\n", "2\n")]
    with pytest.raises(ValueError, match="follows no"):
        parse("```text\norphan\n```\n")
    with pytest.raises(ValueError, match="```bash block"):
        parse("```bash\nls\n```\n")


def test_a_number_changed_in_the_tutorial_is_a_failure(tmp_path: Path):
    """What the comparison catches: the drift this test exists for (trailing whitespace is no drift)."""
    step = parse(SAMPLE.replace("print(1 + 1)", "print('F1 0.4815')").replace("2\n```", "F1 0.4815  \n\n```"))[2]
    done = run_step(step, tmp_path, _environment(_shims(tmp_path / "bin")))
    assert mismatch(step, done.stdout) is None
    step.shown = step.shown.replace("0.4815", "0.4816")
    assert "-F1 0.4816" in mismatch(step, done.stdout)
