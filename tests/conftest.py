"""Shared test fixtures.

``corpus`` is the public data beside the checkout (``../shared/corpus``, or
``$CONVERTABLES_CORPUS``); tests that use it skip, naming the data set, where it
is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONVERTABLES_CORPUS", ROOT.parent / "shared" / "corpus"))
CASES = Path(__file__).resolve().parent / "cases"


def load_script(path: Path):
    """A script of the checkout (tools/, benchmarks/) loaded as a module."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def pytest_addoption(parser):
    parser.addoption("--accept", action="store_true",
                     help="rewrite each stale tests/cases/<format>/<case>/expected.json with what the reader "
                          "gives (review the rewritten files in the diff)")


_CORPUS_SKIP = "shared corpus "


def corpus_path(*parts: str) -> Path:
    """A path in the shared corpus, or a skip if it is not there. Where a whole
    data set is absent the reason names the data set only, so that ``pytest -ra``
    gives one line a data set, however many tests read it (README, "Tests")."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        if parts and not CORPUS.joinpath(parts[0]).exists():
            pytest.skip(f"{_CORPUS_SKIP}data set {parts[0]!r} not found (set CONVERTABLES_CORPUS)")
        pytest.skip(f"{_CORPUS_SKIP}file {'/'.join(parts)!r} not found (set CONVERTABLES_CORPUS)")
    return path


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A corpus skip is reported where corpus_path is, whichever test or fixture
    asked: pytest -ra folds skips by place and reason, so each data set that is
    absent takes one line of its summary."""
    report = yield
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3 and \
            str(longrepr[2]).startswith(f"Skipped: {_CORPUS_SKIP}"):
        report.longrepr = (__file__, corpus_path.__code__.co_firstlineno, longrepr[2])
    return report


@pytest.fixture
def corpus():
    return corpus_path
