"""Formats and metrics as plugins: the plugin of docs/plugins.md, installed as a
distribution (its module and a dist-info with its entry points on the path of
a new process), is in formats, convert, check, score, every --help and the
docs/cli.md generator, with no edit of the package; and register() adds one in
a program."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from convertables import registry
from convertables.model import Cell, Document, Region, Table
from convertables.plugins import EntryPoint, entry_points, load
from tests.conftest import ROOT

DOC = ROOT / "docs" / "plugins.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A folder holding the documented plugin as an installed distribution."""
    site = tmp_path_factory.mktemp("site")
    (module,) = _blocks("python")
    (entries,) = _blocks("ini")
    (site / "pipes_plugin.py").write_text(module, encoding="utf-8")
    info = site / "pipes_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pipes-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entries, encoding="utf-8")
    return site


def _run(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "convertables", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)


@pytest.mark.slow
def test_the_plugin_format_is_listed_and_converts_both_ways(installed: Path, tmp_path: Path):
    listed = _run(installed, "formats", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (pipes,) = [row for row in json.loads(listed.stdout) if row["name"] == "pipes"]
    assert (pipes["read"], pipes["write"], pipes["suffixes"], pipes["read_options"]) == (True, True, [".pipes"],
                                                                                         ["--strip"])
    source = tmp_path / "t.pipes"
    source.write_text(" a | b\nc|d \n", encoding="utf-8")
    made = _run(installed, "convert", str(source), "--strip", "-o", str(tmp_path / "t-str.xml"))
    assert made.returncode == 0, made.stderr
    back = _run(installed, "convert", str(tmp_path / "t-str.xml"), "--to", "pipes", "-o", "-")
    assert (back.returncode, back.stdout) == (0, "a|b\nc|d\n")
    checked = _run(installed, "check", str(source))
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.slow
def test_the_plugin_is_in_every_help_and_in_the_cli_reference(installed: Path):
    convert_help = _run(installed, "convert", "--help").stdout
    assert "--strip" in convert_help and "pipes" in convert_help
    score_help = _run(installed, "score", "--help").stdout
    assert "cell-texts" in score_help
    reference = subprocess.run([sys.executable, str(ROOT / "tools" / "cli_reference.py")], capture_output=True, text=True,
                               env={**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(ROOT)])},
                               timeout=120)
    assert reference.returncode == 0, reference.stderr
    assert "`--strip`" in reference.stdout and "cell-texts" in reference.stdout
    without = subprocess.run([sys.executable, str(ROOT / "tools" / "cli_reference.py")], capture_output=True, text=True,
                             timeout=120)
    assert "`--strip`" not in without.stdout  # (the package's own reference names no plugin)


def test_the_plugin_metric_scores_files_of_the_plugin_format(installed: Path, tmp_path: Path):
    (tmp_path / "gt").mkdir()
    (tmp_path / "res").mkdir()
    (tmp_path / "gt" / "doc.pipes").write_text("a|b\nc|d\n", encoding="utf-8")
    (tmp_path / "res" / "doc.pipes").write_text("a|b\nc|x\n", encoding="utf-8")
    scored = _run(installed, "score", "--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "res"),
                  "--metric", "cell-texts", "--jobs", "1", "--format", "json")
    assert scored.returncode == 0, scored.stderr
    report = json.loads(scored.stdout)
    assert report["metric"] == "cell-texts"
    assert report["total"] == {"correct": 3, "gt": 4, "detected": 4, "f1": 0.75}
    assert [d["document"] for d in report["documents"]] == ["doc"]


def test_a_broken_plugin_is_left_out_and_named_in_one_line(installed: Path, tmp_path: Path):
    info = tmp_path / "broken-1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[convertables.formats]\nbroken = no_such_module:FORMAT\n"
                                           "wrong = json:dumps\n")
    ran = _run(tmp_path, "formats")
    assert ran.returncode == 0 and ran.stdout.startswith("format ")
    assert ran.stderr.splitlines() == [
        "warning: the convertables.formats plugin 'broken' of broken (no_such_module:FORMAT) cannot be loaded "
        "(ModuleNotFoundError: No module named 'no_such_module'); left out",
        "warning: the convertables.formats plugin 'wrong' of broken (json:dumps) names a function, not a "
        "convertables Format; left out"]


def test_entry_points_are_read_as_importlib_metadata_reads_them(installed: Path, monkeypatch):
    from importlib.metadata import distributions

    monkeypatch.syspath_prepend(str(installed))
    ours = {(e.group, e.name, e.value) for group in ("convertables.formats", "convertables.metrics")
            for e in entry_points(group)}
    theirs = {(e.group, e.name, e.value) for d in distributions(path=[str(installed)]) for e in d.entry_points}
    assert ours == theirs == {("convertables.formats", "pipes", "pipes_plugin:FORMAT"),
                              ("convertables.metrics", "cell-texts", "pipes_plugin:METRIC")}
    assert load(EntryPoint("m", "json", "g", "d"), "dumps", type(json.dumps)) == [json.dumps]  # (a module: its default)


def test_register_adds_a_format_to_the_registry_and_the_library(tmp_path: Path, monkeypatch):
    from convertables import dumps, read

    def read_lines(data, diagnostics, options):
        cells = [Cell(r, 0, r, 0, line) for r, line in enumerate(data.decode().splitlines())]
        return Document(tables=[Table(0, [Region(0, 1, cells=cells)])])

    def write_lines(doc, diagnostics, options):
        return "".join(f"{c.content}\n" for t in doc.tables for c in t.cells()).encode()

    monkeypatch.setattr(registry, "_REGISTERED", [])
    fmt = registry.register(registry.Format("lines", "a cell a line", (".lines",), lambda head: False,
                                            ("structure",), read_lines, write_lines))
    try:
        assert registry.get("lines") is fmt
        (tmp_path / "t.lines").write_text("x\ny\n")
        assert dumps(read(tmp_path / "t.lines"), "lines") == b"x\ny\n"
    finally:
        monkeypatch.setattr(registry, "_REGISTERED", [])
        registry._forget()
    with pytest.raises(TypeError):
        registry.register("lines")
