"""Paths turned against the commands: an output that is an input (with or
without --force), a folder where a file is written or a file where a folder is,
a trailing slash that says a folder. Every command refuses before any work,
with a usage error (exit 2) in one line, and leaves the files as they were."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import convert, score
from convertables.cli import app
from convertables.diagnostics import UsageError
from tests.conftest import ROOT

SAMPLE = ROOT / "samples" / "icdar" / "sample-str.xml"


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def _one_line_usage_error(result, said: str) -> None:
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and said in result.output, result.output
    assert "Traceback" not in result.output


@pytest.fixture
def gt(tmp_path: Path) -> Path:
    folder = tmp_path / "gt"
    folder.mkdir()
    for n in range(2):
        shutil.copy(SAMPLE, folder / f"d{n}-str.xml")
    return folder


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_trailing_slash_means_a_folder_for_the_command_and_the_library(tmp_path: Path):
    result = invoke("convert", SAMPLE, "--to", "json", "-o", f"{tmp_path / 'newdir'}/")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "newdir").is_dir()
    assert json.loads((tmp_path / "newdir" / "sample-str.json").read_text())["format"] == "convertables"
    report = convert(SAMPLE, f"{tmp_path / 'libdir'}/", to_format="json")
    assert report.converted == 1 and (tmp_path / "libdir" / "sample-str.json").is_file()
    # a file option given a name that ends in a slash is refused, not written as a file of that name
    for option in ("--per-document", "--html", "--records"):
        result = invoke("score", "--gt", SAMPLE, "--result", SAMPLE, option, f"{tmp_path / 'x'}/")
        _one_line_usage_error(result, f"{option} {tmp_path / 'x'}/: names a folder (it ends in a slash)")
    assert not (tmp_path / "x").exists()


def test_a_batch_into_a_file_name_of_a_format_without_containers_is_refused(gt: Path, tmp_path: Path):
    result = invoke("convert", gt, "--to", "json", "-o", tmp_path / "single.json")
    _one_line_usage_error(result, f"-o {tmp_path / 'single.json'}: names a file (its suffix is .json)")
    assert not (tmp_path / "single.json").exists()
    # the same name, said to be a folder, is one
    assert invoke("convert", gt, "--to", "json", "-o", f"{tmp_path / 'single.json'}/").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "single.json").iterdir()) == ["d0-str.json", "d1-str.json"]
    # a container format takes a batch into one file
    assert invoke("convert", gt, "--to", "pubtabnet", "-o", tmp_path / "all.jsonl").exit_code == 0
    assert (tmp_path / "all.jsonl").is_file()


@pytest.mark.parametrize("option", ["--per-document", "--html", "--records"])
def test_score_refuses_a_folder_for_a_file_before_scoring(gt: Path, tmp_path: Path, option: str, monkeypatch):
    from convertables.scoring import runner

    def never(*args, **kwargs):
        raise AssertionError("scored before the output was checked")

    monkeypatch.setattr(runner, "score_documents", never)
    folder = tmp_path / "somedir"
    folder.mkdir()
    for force in ((), ("--force",)):
        result = invoke("score", "--gt", gt, "--result", gt, option, folder, *force)
        _one_line_usage_error(result, f"{option} {folder}: is a folder; {option} writes a file")
    assert list(folder.iterdir()) == []


def test_check_refuses_a_file_for_the_pdf_folder(gt: Path):
    result = invoke("check", gt, "--pdf-dir", SAMPLE)
    _one_line_usage_error(result, f"--pdf-dir {SAMPLE}: is a file; --pdf-dir takes a folder")
    _one_line_usage_error(invoke("check", gt, "--pdf-dir", gt / "nope"), "--pdf-dir")


def test_merge_reports_never_writes_onto_a_shard(gt: Path, tmp_path: Path):
    shards = []
    for k in (1, 2):
        result = invoke("score", "--gt", gt, "--result", gt, "--shard", f"{k}/2", "--format", "json")
        shards.append(tmp_path / f"s{k}.json")
        shards[-1].write_text(result.stdout)
    before = _files(tmp_path)
    for target in (shards[0], tmp_path / "." / "s2.json"):
        result = invoke("merge-reports", *shards, "-o", target, "--force")
        _one_line_usage_error(result, "is one of the inputs; refused even with --force")
    os.link(shards[0], tmp_path / "hardlink.json")  # the same file by another name
    result = invoke("merge-reports", *shards, "-o", tmp_path / "hardlink.json", "--force")
    _one_line_usage_error(result, "is one of the inputs; refused even with --force")
    os.unlink(tmp_path / "hardlink.json")
    assert _files(tmp_path) == before
    (tmp_path / "out").mkdir()
    _one_line_usage_error(invoke("merge-reports", *shards, "-o", tmp_path / "out"), "is a folder; -o writes a file")
    assert invoke("merge-reports", *shards, "-o", tmp_path / "merged.json").exit_code == 0


def _csv_results(tmp_path: Path) -> Path:
    results = tmp_path / "res"
    results.mkdir()
    doc = tmp_path / "d0.json"
    assert invoke("convert", SAMPLE, "--to", "json", "-o", doc).exit_code == 0
    table = tmp_path / "table.csv"
    assert invoke("convert", doc, "--to", "csv", "-o", table).exit_code == 0
    shutil.copy(table, results / "d0-str-page-1-table-1.csv")
    return results


def test_score_never_writes_onto_a_result_it_reads_as_csv(gt: Path, tmp_path: Path):
    results = _csv_results(tmp_path)
    target = results / "d0-str-page-1-table-1.csv"
    before = target.read_bytes()
    for option in ("--per-document", "--html", "--records"):
        result = invoke("score", "--gt", gt, "--result", results, "--join", option, target, "--force")
        _one_line_usage_error(result, "is one of the inputs; refused even with --force (read as --result)")
        result = invoke("score", "--gt", gt / "d0-str.xml", "--result", target, "--result-format", "csv", option,
                        target, "--force")
        _one_line_usage_error(result, "is one of the inputs; refused even with --force (read as --result)")
    assert target.read_bytes() == before
    # a CSV beside results that are not read as CSV is no input
    assert invoke("score", "--gt", gt, "--result", gt, "--per-document", gt / "scores.csv").exit_code == 0


def test_two_outputs_of_one_run_are_not_one_file(gt: Path, tmp_path: Path):
    target = tmp_path / "both"
    result = invoke("score", "--gt", gt, "--result", gt, "--per-document", target, "--html", target)
    _one_line_usage_error(result, f"--html {target}: named by both --per-document and --html")
    assert not target.exists()


def test_the_library_checks_the_same_paths(gt: Path, tmp_path: Path):
    with pytest.raises(UsageError, match="is one of the inputs"):
        score(gt, gt, html=gt / "d0-str.xml", force=True)
    with pytest.raises(UsageError, match="is a folder"):
        score(gt, gt, html=tmp_path, force=True)
    with pytest.raises(UsageError, match="names a file"):
        convert(gt, tmp_path / "out.xml", to_format="icdar")
