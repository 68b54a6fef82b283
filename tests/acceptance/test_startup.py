"""The first keystroke: the command line's help, every command's help and
``formats`` are built from the declarations, without importing the format and
metric modules or the heavy libraries; the declarations agree with the modules
they stand for; and benchmarks/startup.py measures it."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from convertables import registry
from convertables.formats.declarations import DECLARED, DELIMITER_NAMES
from convertables.registry import OnUse
from convertables.scoring import declarations as metric_declarations
from convertables.scoring.metric import METRIC_MODULES, metrics
from tests.conftest import ROOT

HEAVY = ("lxml", "numpy", "scipy", "shapely", "openpyxl", "rapidfuzz", "pypdfium2", "jsonschema")

PROBE = """
import sys
sys.argv = ["convertables", *sys.argv[1:]]
from convertables.cli import main
try:
    main()
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m.startswith(("convertables.formats.", "convertables.scoring."))
                or m.split(".")[0] in {heavy!r} or m.startswith("rich"))
print("LOADED", *loaded, file=sys.stderr)
"""


def _loaded(*args: str) -> list[str]:
    ran = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    (line,) = [line for line in ran.stderr.splitlines() if line.startswith("LOADED")]
    assert ran.stdout  # (the help or the list was printed)
    return line.split()[1:]


LIGHT = ["convertables.formats.declarations", "convertables.scoring.declarations", "convertables.scoring.metric",
         "convertables.scoring.profiles"]


@pytest.mark.slow
@pytest.mark.parametrize("args", [("--help",), ("convert", "--help"), ("html2icdar", "--help"), ("score", "--help"),
                                  ("check", "--help"), ("formats",)], ids=" ".join)
def test_help_and_formats_import_no_format_or_metric_module(args):
    loaded = _loaded(*args)
    assert [m for m in loaded if not m.startswith("rich")] == [m for m in LIGHT if m in loaded]
    if args == ("formats",):
        assert not any(m.startswith("rich") for m in loaded)  # (rich draws help; a list needs none)


def test_every_declared_function_is_its_module_s():
    for module, fmt in DECLARED.items():
        imported = importlib.import_module(f"convertables.formats.{module}")
        assert imported.FORMAT is fmt
        for name in ("sniff", "read", "write", "validate", "members"):
            declared = getattr(fmt, name)
            assert (declared is not None) == callable(getattr(imported, name, None)) or name == "sniff", (module, name)
            if declared is not None:
                assert isinstance(declared, OnUse) and declared.resolve() is getattr(imported, name)
    assert registry.formats()["csv"] is DECLARED["delimited"]
    assert tuple(importlib.import_module("convertables.formats.delimited").DELIMITERS) == DELIMITER_NAMES


def test_a_declared_function_is_imported_on_first_call_and_pickles_as_its_name():
    import pickle

    sniff = OnUse("convertables.formats.html", "sniff")
    assert sniff(b"<!DOCTYPE html><table>") is True
    assert pickle.loads(pickle.dumps(sniff)) == sniff


def test_the_metric_declarations_are_the_metrics_own():
    declared = {d.name: d for d in metric_declarations.DECLARED}
    found = metrics()
    assert list(declared) == list(found)
    for name, metric in found.items():
        assert (metric.variants, metric.settings) == (declared[name].variants, declared[name].settings), name
        assert declared[name].module == f"convertables.scoring.{type(metric).__module__.rsplit('.', 1)[1]}"
    assert {d.module.rsplit(".", 1)[1] for d in declared.values()} == set(METRIC_MODULES)


@pytest.mark.slow
def test_the_startup_benchmark_prints_every_command_beside_the_baselines():
    ran = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "startup.py"), "--runs", "1"],
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    labels = [line[:40].strip() for line in ran.stdout.splitlines()[1:-1]]
    assert labels[:5] == ["python -c pass", 'python -c "import typer"', "convertables --version",
                          "convertables --help", "convertables formats"]
    assert "convertables score --help" in labels and "convertables merge-reports --help" in labels
    assert ran.stdout.splitlines()[-1].startswith("best of 1 runs each; ")


def test_the_version_is_the_installed_distribution_s_without_importlib_metadata():
    from importlib.metadata import version

    from convertables.plugins import version_of

    assert version_of("convertables") == version("convertables")
    ran = subprocess.run([sys.executable, "-c", "import sys, convertables; print(convertables.__version__); "
                          "print('importlib.metadata' in sys.modules)"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert ran.stdout.split() == [version("convertables"), "False"]
