"""Shared test fixtures.

``corpus`` is the public data beside the checkout (``../shared/corpus``); tests
that use it skip, with the reason, where it is absent.
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


def corpus_path(*parts: str) -> Path:
    """A path in the shared corpus, or a skip if it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus not found at {path} (set CONVERTABLES_CORPUS)")
    return path


@pytest.fixture
def corpus():
    return corpus_path
