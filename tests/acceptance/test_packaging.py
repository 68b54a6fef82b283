"""Packaging: the licence, the metadata, the changelog, and an sdist that carries what
README's first command and the tests need (samples/, docs/, ...)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_an_spdx_expression_with_its_file():
    project = _pyproject()["project"]
    assert project["license"] == "MIT"  # PEP 639: a string, not the deprecated { text = ... } table
    assert project["license-files"] == ["LICENSE"]
    # License classifiers may not be given beside an SPDX expression (setuptools refuses them).
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    # 77 is the first setuptools that takes an SPDX string.
    assert "setuptools>=77" in _pyproject()["build-system"]["requires"]


def test_classifiers_and_keywords():
    project = _pyproject()["project"]
    for classifier in (
        "Development Status :: 4 - Beta",
        "Environment :: Console",
        "Intended Audience :: Science/Research",
        "Intended Audience :: Developers",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Topic :: Scientific/Engineering :: Information Analysis",
        "Topic :: Text Processing :: Markup :: XML",
    ):
        assert classifier in project["classifiers"]
    # Typing :: Typed only with a py.typed marker in the package.
    typed = "Typing :: Typed" in project["classifiers"]
    assert typed == (ROOT / "convertables" / "py.typed").exists()
    assert project["keywords"]
    # Every supported Python the classifiers name is one requires-python allows.
    minimum = tuple(int(n) for n in re.fullmatch(r">=(\d+)\.(\d+)", project["requires-python"]).groups())
    for classifier in project["classifiers"]:
        version = re.fullmatch(r"Programming Language :: Python :: (\d+)\.(\d+)", classifier)
        if version:
            assert tuple(int(n) for n in version.groups()) >= minimum


def test_licence_and_changelog_files():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2026 the convertables authors" in licence
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", changelog, re.M)
    assert "Version policy" in headings and "Unreleased" in headings
    version = _pyproject()["project"]["version"]
    assert version in headings, f"CHANGELOG.md has no section for the version in pyproject.toml, {version}"


def _clean_copy(destination: Path) -> Path:
    """The checkout without what git ignores (virtual environments, build outputs, caches), so that
    the sdist is built as from a clean clone and the checkout is left as it was."""
    at_the_root = {".git", ".venv", "build", "dist", "out", ".pytest_cache", ".hypothesis"}

    def ignored(folder: str, names: list[str]) -> set[str]:
        root = Path(folder) == ROOT
        return {name for name in names if name == "__pycache__" or name.endswith(".pyc")
                or (root and (name in at_the_root or name.endswith(".egg-info")))}

    shutil.copytree(ROOT, destination, symlinks=True, ignore=ignored)
    return destination


def _have_build() -> bool:
    # (Not find_spec("build"): from the checkout, its ignored build/ folder is a namespace package.)
    try:
        import build
    except ImportError:
        return False
    return hasattr(build, "ProjectBuilder")


@pytest.mark.skipif(not _have_build(), reason="the 'build' package is not installed (pip install build to run this test)")
def test_the_sdist_carries_samples_docs_and_the_licence(tmp_path: Path):
    source = _clean_copy(tmp_path / "source")
    run = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (sdist,) = (tmp_path / "dist").glob("convertables-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for path in (
        "samples/icdar/sample-str.xml",  # README's first command converts it
        "docs/formats.md", "docs/cli.md", "docs/scoring.md", "docs/diagnostics.md",
        "LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml",
        "convertables/schemas/convertables.schema.json", "convertables/schemas/icdar2013-structure.xsd",
        "convertables/schemas/icdar2013-region.xsd",
        "benchmarks/run.py", "tests/conftest.py", "tools/cli_reference.py",
    ):
        assert path in names, f"{path} is not in the sdist"
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
