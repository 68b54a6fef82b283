"""The code speaks of the project alone: no references to files users do not
have, no issue numbers, no timing figures in the package's comments and
docstrings (they are in benchmarks/RESULTS.md)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

SOURCES = [*sorted((ROOT / "convertables").rglob("*.py")), *sorted((ROOT / "tests").glob("*.py")),
           *sorted((ROOT / "tests").glob("unit/*.py")), *sorted((ROOT / "tests").glob("acceptance/*.py")),
           *sorted((ROOT / "tools").glob("*.py")), ROOT / "pyproject.toml"]
NOT_OURS = re.compile(r"\b(STYLE|SPEC)\.md\b|\bissues? #?\d+|\bprinciples? \d+")
TIMING = re.compile(r"\b\d+(\.\d+)? ?(ms|µs|us)\b|\b\d+\.\d+ ?s\b|\+\d+(\.\d+)? ?s\b")


def test_no_reference_to_files_users_lack_nor_issue_numbers():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in SOURCES
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if NOT_OURS.search(line)]
    assert found == []


def test_no_timing_figures_in_the_package():
    package = [*sorted((ROOT / "convertables").rglob("*.py")), ROOT / "pyproject.toml"]
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in package
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if TIMING.search(line)]
    assert found == []


def test_the_readme_layout_lists_every_module():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout"):]
    layout = layout[:layout.index("```", layout.index("```") + 3)]
    package = ROOT / "convertables"
    missing = [str(path.relative_to(package)) for path in sorted(package.rglob("*.py"))
               if path.name not in layout or (path.parent != package and f"{path.parent.name}/" not in layout)]
    assert missing == []
