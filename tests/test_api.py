"""The library's front door (convertables.convert/check/score): its docstrings'
examples run as doctests, and it gives what the command line gives."""

from __future__ import annotations

import doctest
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import convertables
from convertables import UsageError, api, check, convert, read, score
from convertables.cli import app
from convertables.reports import REPORTER_BY_NAME, reporter, reporter_names
from tests.conftest import ROOT

SAMPLES = ROOT / "samples"


def test_the_docstrings_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # (they name the bundled samples)
    for module in (api, convertables):
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failed == 0 and (tried > 0 or module is convertables)


def test_convert_into_memory_a_file_and_a_folder(tmp_path: Path):
    report = convert(SAMPLES / "icdar" / "sample-str.xml", to_format="json")
    (outcome,) = report.outcomes
    assert outcome.ok and outcome.output is None and json.loads(outcome.data)["format"] == "convertables"
    report = convert(SAMPLES / "icdar", tmp_path / "out", to_format="json")
    assert report.converted == 2 and not report.failed
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["sample-reg.json", "sample-str.json"]
    assert read(tmp_path / "out" / "sample-str.json") == read(SAMPLES / "icdar" / "sample-str.xml")
    refused = convert(SAMPLES / "icdar" / "sample-str.xml", tmp_path / "out" / "sample-str.json")
    assert not refused.outcomes[0].ok and [d.code for d in refused.outcomes[0].diagnostics] == ["output-exists"]


def test_convert_a_document_and_the_settings_reach_reader_and_writer(tmp_path: Path):
    doc = read(SAMPLES / "icdar" / "sample-str.xml")
    report = convert(doc, tmp_path / "t-reg.xml", model="region")
    assert report.outcomes[0].ok and b"<cell" not in (tmp_path / "t-reg.xml").read_bytes()
    html = convert(SAMPLES / "html" / "sample.html", to_format="icdar", page=4).outcomes[0].data
    assert b'page="4"' in html
    with pytest.raises(UsageError, match="unknown setting.*'pgae'"):
        convert(doc, to_format="json", pgae=2)
    with pytest.raises(UsageError, match="--model is auto, structure, region, not 'cells'"):
        convert(doc, to_format="icdar", model="cells")


def test_check_paths_and_a_document_give_the_cli_s_findings():
    bad = ROOT / "tests" / "cases" / "check" / "slot-overlap--two-cells-one-slot-str-result.xml"
    report = check([bad])
    assert report.errors >= 1 and "slot-overlap" in {d.code for d in report.findings} and not report.ok()
    cli = CliRunner().invoke(app, ["check", str(bad), "--format", "json"])
    assert json.loads(cli.stdout) == report.to_dict() and cli.exit_code == 1
    doc = read(bad)
    assert "slot-overlap" in {d.code for d in check(doc).findings}


def test_score_paths_and_documents(tmp_path: Path):
    report = score(SAMPLES / "icdar", SAMPLES / "icdar")
    cli = CliRunner().invoke(app, ["score", "--gt", str(SAMPLES / "icdar"), "--result", str(SAMPLES / "icdar"),
                                   "--format", "json", "--jobs", "1"])
    assert json.loads(cli.stdout) == json.loads(report.to_json()) == report.to_dict()
    assert report.total == report["total"] and report.document_mean["f1"] == 1.0
    gt = read(SAMPLES / "icdar" / "sample-str.xml")
    fewer = read(SAMPLES / "icdar" / "sample-str.xml")
    region = fewer.tables[0].regions[0]
    region.cells = region.cells[:-1]
    pair = score(gt, fewer)
    assert pair.total["gt"] == report.total["gt"] and 0 < pair.total["correct"] < pair.total["gt"]
    assert pair.documents[0]["document"] == gt.filename
    with pytest.raises(UsageError, match="--matching applies to the ctdar-a, ctdar-b metrics only, not to structure"):
        score(gt, fewer, matching="optimal")
    with pytest.raises(UsageError, match="two documents, or two paths"):
        score(gt, SAMPLES / "icdar")


def test_reporters_are_looked_up_by_name_for_what_they_present():
    assert reporter_names("check") == ["text", "json", "github"]
    assert reporter_names("score") == ["text", "json", "csv"]
    assert reporter_names("convert") == ["text", "json"]
    assert reporter("github", "check") is REPORTER_BY_NAME["github"]
    with pytest.raises(UsageError, match="--format for convert is text or json, not 'github'"):
        reporter("github", "convert")
    with pytest.raises(UsageError, match="--format for score is text, json or csv, not 'yaml'"):
        reporter("yaml", "score")


def test_every_problem_of_a_score_run_is_a_diagnostic_with_a_code(tmp_path: Path):
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "sample-str-result.xml").write_text("<document>")
    report = score(SAMPLES / "icdar", tmp_path / "res")
    (problem,) = report.diagnostics
    assert problem.code == "xml-syntax" and problem.file == str(tmp_path / "res" / "sample-str-result.xml")
    assert report.errors == [problem.format()] == report.to_dict()["errors"]
    assert os.path.basename(report.documents[0]["error"].split(":")[0]) == "sample-str-result.xml"


def test_a_new_format_costs_its_module_and_a_registry_line(tmp_path: Path, monkeypatch):
    """The command line, the options and the library take a format from its declaration alone."""
    from convertables import registry

    monkeypatch.setattr(registry, "FORMAT_MODULES", (*registry.FORMAT_MODULES, "tests.plugins.shouting"))
    monkeypatch.setattr(registry, "_FORMATS", None)
    source = tmp_path / "t.shout"
    source.write_text("a|b\nc|d\n")
    runner = CliRunner()
    assert "--shout" in runner.invoke(app, ["convert", "--help"]).output
    result = runner.invoke(app, ["convert", str(source), "--to", "icdar", "--shout", "-o", str(tmp_path / "t-str.xml")])
    assert result.exit_code == 0, result.output
    assert sorted(c.content for c in read(tmp_path / "t-str.xml").tables[0].cells()) == ["A", "B", "C", "D"]
    back = convert(tmp_path / "t-str.xml", to_format="shouting").outcomes[0].data
    assert back == b"A|B\nC|D\n"
    assert [d.code for d in check([source]).findings] == []
    monkeypatch.setattr(registry, "_FORMATS", None)  # (the next test sees the registry as it was)
