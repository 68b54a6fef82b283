"""The score command's text report: plain aligned text into a file or a pipe,
a rich table on a terminal; the same cells either way."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from convertables.cli import app
from convertables.scoring import ScoreSettings, score_paths
from convertables.scoring.report import plain_text, render_text, summary
from tests.conftest import ROOT

SAMPLES = ROOT / "samples"


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_the_structure_summary_as_plain_text():
    result = invoke("score", "--gt", SAMPLES / "icdar", "--result", SAMPLES / "icdar")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:8] == [
        "structure (icdar2013)",
        "",
        "document       gt  correct  detected  precision  recall      F1",
        "-------------  --  -------  --------  ---------  ------  ------",
        "sample         14       14        14     1.0000  1.0000  1.0000",
        "-------------  --  -------  --------  ---------  ------  ------",
        "total (micro)  14       14        14     1.0000  1.0000  1.0000",
        "document mean                            1.0000  1.0000  1.0000",
    ]
    assert lines[8] == "" and lines[9].startswith("normalisation: default: ASCII whitespace deleted")
    assert lines[10].startswith("aggregation: document_mean: ")


def _aligned(lines: list[str]) -> bool:
    """Every cell lies within its column's rule, the separating spaces kept
    clear, and the right-aligned ones end where their rule ends."""
    rule = next(line for line in lines if line.startswith("--"))
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    rows = [line for line in lines[2:] if line and not line.startswith("--")]
    for row in rows:
        for i, (start, end) in enumerate(spans):
            cell = row[start:end]
            if row[end:end + 2].strip() or (i and cell.strip() and cell[-1] == " "):
                return False
    return True


def test_long_names_and_errors_are_written_whole(tmp_path: Path):
    name = "a-document-name-longer-than-any-terminal-is-wide-" * 2
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir(), res.mkdir()
    for folder in (gt, res):
        shutil.copy(SAMPLES / "ctdar" / "sample.xml", folder / f"{name}.xml")
    shutil.copy(SAMPLES / "ctdar" / "sample.xml", gt / "broken.xml")
    (res / "broken.xml").write_text("<document><table>")
    result = invoke("score", "--gt", gt, "--result", res, "--metric", "ctdar-b")
    assert result.exit_code == 1  # a result file could not be read
    lines = result.stdout.splitlines()
    assert lines[0] == "ctdar-b (ctdar2019)"
    rows = {line.split()[0]: line.split() for line in lines[4:6]}
    assert rows[name] == [name, "6/6/6", "6/6/6", "6/6/6", "6/6/6", "1.0000"]
    assert rows["broken"] == ["broken", "0/6/0", "0/6/0", "0/6/0", "0/6/0", "0.0000"]  # read as no tables
    assert "broken.xml" in result.output and "xml-syntax" in result.output  # and reported
    total = next(line for line in lines if line.startswith("total"))
    assert total.split() == ["total", "6/12/6", "6/12/6", "6/12/6", "6/12/6", "0.6667"]
    table = lines[:lines.index(total) + 2]
    assert _aligned(table) and not _aligned([*table[:4], " " + table[4]])


def test_marmot_summary_lists_the_error_types():
    report = score_paths(SAMPLES / "marmot", SAMPLES / "marmot", ScoreSettings(metric="marmot"))
    text = plain_text(summary(report)).splitlines()
    assert text[2].split() == ["document", "nr", "nm", "na", "nfa", "nfu", "precision", "recall"]
    assert text[4].split() == ["sample", "1", "0", "1", "0", "0", "1.0000", "1.0000"]
    assert text[6].split() == ["total", "1", "0", "1", "0", "0", "1.0000", "1.0000"]
    assert text[8] == "error types: none"


def test_a_terminal_gets_the_same_cells_in_a_rich_table():
    report = score_paths(SAMPLES / "icdar", SAMPLES / "icdar")
    console = Console(record=True, width=200, color_system=None)
    render_text(report, console=console)
    shown = console.export_text()
    assert "structure (icdar2013)" in shown
    rows = [re.split(r"\s*│\s*", line.strip("│ ")) for line in shown.splitlines() if line.startswith("│")]
    assert ["sample", "14", "14", "14", "1.0000", "1.0000", "1.0000"] in rows
    assert ["total (micro)", "14", "14", "14", "1.0000", "1.0000", "1.0000"] in rows
    assert "normalisation: default: ASCII whitespace deleted, upper-cased" in shown


def test_a_piped_text_report_does_not_load_rich():
    program = (
        "import sys\n"
        "from convertables.cli import main\n"
        f"sys.argv = ['convertables', 'score', '--gt', {str(SAMPLES / 'icdar')!r}, '--result', "
        f"{str(SAMPLES / 'icdar')!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('rich loaded' if any(m.split('.')[0] == 'rich' for m in sys.modules) else 'rich not loaded')\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert out.startswith("structure (icdar2013)") and out.rstrip().endswith("rich not loaded")


def test_a_document_not_counted_says_why_in_its_last_column(tmp_path: Path):
    gt = tmp_path / "gt"
    gt.mkdir()
    shutil.copy(SAMPLES / "marmot" / "sample.xml", gt / "sample.xml")
    (gt / "bad.xml").write_text("<Page><Composites")
    report = score_paths(gt, SAMPLES / "marmot", ScoreSettings(metric="marmot"))
    lines = plain_text(summary(report)).splitlines()
    bad = next(line for line in lines if line.startswith("bad"))
    last_column = [m.start() for m in re.finditer(r"-+", lines[3])][-1]
    assert bad.index(str(gt / "bad.xml") + ":1:18:") == last_column and "xml-syntax" in bad
    assert next(line for line in lines if line.startswith("sample")).split()[1:3] == ["1", "0"]


def test_a_bug_of_ours_on_one_document_is_one_line_and_the_others_are_scored(tmp_path: Path, monkeypatch):
    import convertables.scoring.runner as runner

    gt = tmp_path / "gt"
    gt.mkdir()
    for name in ("a", "b"):
        shutil.copy(SAMPLES / "marmot" / "sample.xml", gt / f"{name}.xml")
    read = runner._read

    def read_or_fail(path, format, metric, *more, **named):
        if path.name == "b.xml" and "res" in path.parts:
            raise ZeroDivisionError("division by zero")
        return read(path, format, metric, *more, **named)

    monkeypatch.setattr(runner, "_read", read_or_fail)
    res = tmp_path / "res"
    shutil.copytree(gt, res)
    report = score_paths(gt, res, ScoreSettings(metric="marmot"), jobs=1)
    assert report["errors"] == [f"{res / 'b.xml'}: error internal-error unexpected ZeroDivisionError: division by "
                                "zero (please report this with the input files)"]
    assert [(d["document"], d.get("counted")) for d in report["documents"]] == [("a", True), ("b", False)]


def test_precision_recall_and_f1_where_counts_are_zero():
    from convertables.scoring.precision_recall import document_mean, scores

    assert scores(gt=4, correct=3, detected=6) == {"precision": 0.5, "recall": 0.75, "f1": 0.6}
    assert scores(gt=4, correct=0, detected=0) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert scores(gt=0, correct=0, detected=2) == {"precision": 0.0, "recall": 1.0, "f1": 0.0}
    assert scores(gt=0, correct=0, detected=0) == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    records = [{"precision": 1.0, "recall": 0.5}, {"precision": 0.5, "recall": 0.5}]
    assert document_mean(records) == {"precision": 0.75, "recall": 0.5, "f1": 0.6, "documents": 2}
    assert document_mean([]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "documents": 0}


def test_the_notes_say_which_candidate_of_a_document_was_kept(tmp_path: Path):
    from convertables import write
    from tests.unit.test_score_structure import _pubmed_folders, doc, grid

    gt, res = _pubmed_folders(tmp_path / "pubmed")
    notes = summary(score_paths(gt, res, ScoreSettings(variant="pubmed"))).notes
    assert [n for n in notes if "candidates" in n] == [f"PMC1: the best of 3 candidates kept, result {res / 'PMC1_1.xml'}"]
    icdar = tmp_path / "icdar"
    icdar.mkdir()
    write(doc(grid("A B | C D")), icdar / "x-009a-str.xml")
    write(doc(grid("A B | C E")), icdar / "x-009b-str.xml")
    write(doc(grid("A B | C E")), tmp_path / "x-009a-str-result.xml")
    notes = summary(score_paths(icdar, tmp_path / "x-009a-str-result.xml")).notes
    assert [n for n in notes if "candidates" in n] == [
        f"x-009a: the best of 2 candidates kept, ground truth {icdar / 'x-009b-str.xml'}"]


def test_many_documents_with_several_candidates_make_one_note():
    from convertables.scoring.presentation import MAX_KEPT_NOTES, _kept_notes

    records = [{"document": f"PMC{i}", "gt_file": f"gt/PMC{i}.xml", "result_file": f"res/PMC{i}_1.xml",
                "alternatives": [{"result_file": f"res/PMC{i}.xml"}, {"result_file": f"res/PMC{i}_1.xml"}]}
               for i in range(MAX_KEPT_NOTES + 1)]
    assert _kept_notes(records[:MAX_KEPT_NOTES]) == [
        f"PMC{i}: the best of 2 candidates kept, result res/PMC{i}_1.xml" for i in range(MAX_KEPT_NOTES)]
    assert _kept_notes(records + [{"document": "x"}]) == [
        f"{MAX_KEPT_NOTES + 1} documents had several candidates and kept the best "
        "(the JSON report names each one's result_file and alternatives)"]


def test_the_text_report_says_how_many_processes_scored(tmp_path: Path, monkeypatch):
    from convertables.scoring import runner

    assert "scored in this process" in plain_text(summary(score_paths(SAMPLES / "icdar", SAMPLES / "icdar")))
    gt = tmp_path / "gt"
    gt.mkdir()
    for n in range(6):
        shutil.copy(SAMPLES / "icdar" / "sample-str.xml", gt / f"d{n}-str.xml")
    monkeypatch.setattr(runner, "SERIAL_WORK_S", -1.0)  # a pool from the third document on
    report = score_paths(gt, gt, ScoreSettings(), jobs=2)
    assert report.workers == 2 and "scored in 2 worker processes" in plain_text(summary(report))
    assert "workers" not in report  # (not in the JSON: alike however the documents were spread)


def test_records_are_written_as_json_lines_as_documents_are_scored(tmp_path: Path):
    import json

    gt = tmp_path / "gt"
    gt.mkdir()
    for n in range(3):
        shutil.copy(SAMPLES / "icdar" / "sample-str.xml", gt / f"d{n}-str.xml")
    out = tmp_path / "records.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(gt), "--records", str(out),
                                 "--format", "json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert [json.loads(line) for line in lines] == json.loads(result.stdout)["documents"]
    again = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(gt), "--records", str(out)])
    assert again.exit_code == 2 and "exists already; pass --force" in again.output
    inside = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(gt), "--records", str(gt / "x-str.xml")])
    assert inside.exit_code == 2 and "is one of the inputs" in inside.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gt", "records.jsonl"]  # no temporary file left


def _score_o(*args):
    return CliRunner().invoke(app, ["score", "--gt", str(SAMPLES / "icdar"), "--result", str(SAMPLES / "icdar"),
                                    "--jobs", "1", *[str(a) for a in args]])


@pytest.mark.parametrize("suffix, shown", [(".json", "json"), (".csv", "csv"), (".html", "html"), (".txt", "text"),
                                           (".JSON", "json")])
def test_o_writes_the_report_that_format_prints_in_the_format_its_suffix_names(suffix, shown, tmp_path: Path):
    target = tmp_path / f"report{suffix}"
    written = _score_o("-o", target)
    assert written.exit_code == 0, written.output
    assert written.stdout == ""  # (the report is in its file)
    printed = _score_o("--format", shown)
    assert printed.exit_code == 0
    assert target.read_text(encoding="utf-8") == printed.stdout
    again = _score_o("--output", target, "--format", shown, "--force")  # (a --format that agrees is fine)
    assert again.exit_code == 0 and target.read_text(encoding="utf-8") == printed.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporary file left
    if shown == "text":
        dash = _score_o("-o", "-")
        assert dash.exit_code == 0 and dash.stdout == printed.stdout


def test_o_refuses_another_suffix_a_disagreeing_format_an_existing_file_and_an_input(tmp_path: Path):
    unknown = _score_o("-o", tmp_path / "report.xml")
    assert unknown.exit_code == 2
    assert unknown.output.strip() == (f"error: -o {tmp_path / 'report.xml'}: the report's format is taken from the "
                                      "suffix: .json, .csv, .html or .txt")
    bare = _score_o("-o", tmp_path / "report")
    assert bare.exit_code == 2 and "the report's format is taken from the suffix" in bare.output
    disagrees = _score_o("-o", tmp_path / "report.json", "--format", "csv")
    assert disagrees.exit_code == 2
    assert disagrees.output.strip() == (f"error: -o {tmp_path / 'report.json'} writes the json report (its suffix "
                                        "says so), not --format csv")
    github = _score_o("-o", tmp_path / "report.txt", "--format", "github")
    assert github.exit_code == 2 and "writes the text report (its suffix says so), not --format github" in github.output
    assert list(tmp_path.iterdir()) == []
    taken = tmp_path / "report.csv"
    taken.write_text("mine\n", encoding="utf-8")
    exists = _score_o("-o", taken)
    assert exists.exit_code == 2
    assert exists.output.strip() == f"error: {taken} exists already; pass --force to replace it"
    assert taken.read_text(encoding="utf-8") == "mine\n"
    # an input, or a file read from an input folder: refused even with --force, before any work
    gt = tmp_path / "gt"
    gt.mkdir()
    converted = CliRunner().invoke(app, ["convert", str(SAMPLES / "icdar" / "sample-str.xml"), "--to", "json",
                                         "-o", str(gt / "d0.json")])
    assert converted.exit_code == 0, converted.output
    before = (gt / "d0.json").read_bytes()
    for target in (gt / "d0.json", gt / "d1.json"):
        onto = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(gt), "-o", str(target), "--force"])
        assert onto.exit_code == 2 and f"-o {target}: is one of the inputs; refused even with --force" in onto.output
    assert (gt / "d0.json").read_bytes() == before and sorted(p.name for p in gt.iterdir()) == ["d0.json"]
    # a name no one reads beside the inputs is written
    beside = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(gt), "-o", str(gt / "scores.txt")])
    assert beside.exit_code == 0 and (gt / "scores.txt").read_text(encoding="utf-8").startswith("structure (")


def test_o_with_errors_still_says_them_and_exits_1(tmp_path: Path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", gt / "d0-str.xml")
    (res / "d0-str.xml").write_text("<document><table>", encoding="utf-8")
    target = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "-o", str(target)])
    assert result.exit_code == 1 and result.stdout == ""
    import json

    written = json.loads(target.read_text(encoding="utf-8"))
    assert len(written["errors"]) == 1 and written["errors"][0] in result.stderr
