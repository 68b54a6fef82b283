"""Hostile input, through the real commands: canonical JSON as strict as the
ICDAR 2013 reader, reports that cannot be turned against their readers, work
bounded by the input's real size, entities refused whatever the encoding."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from tests.conftest import CASES, ROOT

SAMPLE = ROOT / "samples" / "icdar" / "sample-str.xml"
HOSTILE = CASES / "hostile"


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


# -- canonical JSON -------------------------------------------------------------------------------

@pytest.mark.parametrize("case, said", [
    ("bad-number--json-span-of-ten-to-the-4000.json",
     "error bad-number table 0, region 0: a cell's end_row 1000000000...(4,001 digits) is out of range"),
    ("bad-number--json-row-beyond-a-billion.json",
     "error bad-number table 0, region 0: a cell's end_row 1000000001 is out of range"),
    ("json-syntax--json-key-given-twice.json", "error json-syntax the key 'end_row' is given twice in one object"),
])
def test_check_and_score_refuse_what_canonical_json_cannot_hold(case: str, said: str, tmp_path: Path):
    path = HOSTILE / case
    found = invoke("check", path)
    assert found.exit_code == 1 and f"{path}: {said}" in found.output, found.output
    gt = tmp_path / "gt.json"
    path_ok = invoke("convert", SAMPLE, "-o", gt)
    assert path_ok.exit_code == 0
    for metric in ("structure", "grits", "teds"):  # (a span of 10^4000 once overflowed in GriTS)
        scored = invoke("score", "--gt", gt, "--result", path, "--metric", metric, "--format", "json")
        assert "Traceback" not in scored.output and scored.exit_code == 1, scored.output
        assert said.split(" ", 2)[1] in scored.output


def test_the_icdar_reader_and_canonical_json_agree_on_the_range(tmp_path: Path):
    xml = SAMPLE.read_text().replace('end-row="0"', 'end-row="1000000001"', 1)
    assert 'end-row="1000000001"' in xml
    (tmp_path / "x-str.xml").write_text(xml)
    result = invoke("check", tmp_path / "x-str.xml")
    assert result.exit_code == 1 and "bad-number" in result.output and "out of range" in result.output


# -- reports ---------------------------------------------------------------------------------------

FORMULAS = ["=HYPERLINK(1)", "+SUM(1)", "-SUM(1)", "@SUM(1)", "\tTAB", "\rCR"]


def test_score_csv_escapes_cells_a_spreadsheet_would_run_as_formulas(tmp_path: Path):
    gt = tmp_path / "gt"
    gt.mkdir()
    for n, start in enumerate(FORMULAS):
        (gt / f"{start}{n}-str.xml").write_bytes(SAMPLE.read_bytes())
    (gt / "-7-str.xml").write_bytes(SAMPLE.read_bytes())  # a name that is a plain negative number
    per_document = tmp_path / "scores.csv"
    result = invoke("score", "--gt", gt, "--result", gt, "--format", "csv", "--per-document", per_document)
    assert result.exit_code == 0, result.output
    for text in (result.stdout, per_document.open(newline="").read()):
        rows = list(csv.DictReader(io.StringIO(text)))
        names = sorted(row["document"] for row in rows)
        assert names == sorted(["-7", *(f"'{start}{n}" for n, start in enumerate(FORMULAS))])
        for row in rows:
            assert row["gt_file"].startswith(str(gt)) or row["gt_file"].startswith("'")
            assert row["f1"] == "1.0" and row["gt"] == "14"  # numbers as numbers


def test_spreadsheet_safe_keeps_numbers_and_escapes_formulas():
    from convertables.scoring.report import spreadsheet_safe

    assert [spreadsheet_safe(v) for v in (-1.5, -3, "-1.5", "-2e-3", "+4", 0.25, "")] == \
        [-1.5, -3, "-1.5", "-2e-3", "+4", 0.25, ""]
    assert [spreadsheet_safe(v) for v in ("-1+2", "=1", "@A1", "-", "\t1")] == ["'-1+2", "'=1", "'@A1", "'-", "'\t1"]


def test_github_annotations_escape_their_properties_and_the_table_runs_no_command(tmp_path: Path):
    name = "a,b:c%d\ne-str.xml"
    bad = tmp_path / name
    bad.write_text("<document><table id='0'>")
    out = invoke("check", bad, "--format", "github").stdout
    escaped = str(tmp_path).replace("%", "%25").replace(":", "%3A").replace(",", "%2C") + "/a%2Cb%3Ac%25d%0Ae-str.xml"
    assert out.startswith(f"::error file={escaped},line=1,col=25,title=xml-syntax::"), out
    assert len(out.splitlines()) == 1
    gt = tmp_path / "gt"
    gt.mkdir()
    (gt / "::error file=x::pwned-str.xml").write_bytes(SAMPLE.read_bytes())
    scored = invoke("score", "--gt", gt, "--result", gt, "--format", "github")
    assert scored.exit_code == 0
    lines = scored.stdout.splitlines()
    assert lines[0].startswith("::stop-commands::")
    token = lines[0].removeprefix("::stop-commands::")
    assert len(token) == 32 and lines[-1] == f"::{token}::"
    assert any("::error file=x::pwned" in line for line in lines[1:-1])  # inside, where no command runs


# -- work bounded by the input's real size --------------------------------------------------------

def _claims(tmp_path: Path) -> dict[str, Path]:
    """A few hundred bytes each, claiming a huge grid."""
    cell = '{"start_row": %d, "start_col": %d, "end_row": %d, "end_col": %d, "content": "a"}'
    doc = ('{"format": "convertables", "version": 1, "tables": [{"id": 0, "regions": [{"id": 0, "page": 1, '
           '"cells": [%s]}]}]}\n')
    claims = {
        "corners": [cell % (0, 0, 0, 0), cell % (1048575, 16383, 1048575, 16383)],  # A1 and XFD1048576
        "far-row": [cell % (0, 0, 0, 0), cell % (1000000, 0, 1000000, 0)],
        "long-span": [cell % (0, 0, 1000000000, 0)],
        "thousand-square": [cell % (0, 0, 0, 0), cell % (999, 999, 999, 999)],
    }
    paths = {}
    for name, cells in claims.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(doc % ", ".join(cells))
    return paths


# Runs the command and prints its exit code and this process's peak memory (KiB) last.
_MEASURED = """
import resource, sys
from convertables.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


@pytest.mark.parametrize("metric", ["structure", "grits", "teds", "ctdar-b"])
def test_a_small_file_claiming_a_huge_grid_is_refused_quickly_in_little_memory(metric: str, tmp_path: Path):
    import subprocess
    import sys
    import time

    from tests.acceptance.test_hostile import _cap_memory

    for name, path in _claims(tmp_path).items():
        html = tmp_path / f"{metric}-{name}.html"
        started = time.monotonic()
        run = subprocess.run([sys.executable, "-c", _MEASURED, "score", "--gt", str(path), "--result", str(path),
                              "--metric", metric, "--jobs", "1", "--html", str(html), "--format", "json"],
                             capture_output=True, text=True, timeout=30, preexec_fn=_cap_memory)
        took = time.monotonic() - started
        assert "Traceback" not in run.stderr, run.stderr
        code, peak_kib = run.stdout.split()[-2:]
        assert int(peak_kib) < 200 * 1024, (name, peak_kib)
        assert took < 10, (name, took)
        report = json.loads(run.stdout[:run.stdout.rindex("}") + 1])
        if report["errors"]:  # refused: one line naming the file, the table and its size
            assert code == "1"
            (line,) = report["errors"]
            assert line.startswith(f"{path}: error ") and "table" in line and "too-large" in line, line
            assert name != "corners" or "1048576" in line.replace(",", ""), line
        else:  # (the structure and cTDaR metrics do not walk the grid: they score the two cells)
            assert code == "0" and metric in ("structure", "ctdar-b")
        assert html.is_file()


def test_the_writers_and_the_dask_executor_refuse_the_same_grids(tmp_path: Path):
    pytest.importorskip("distributed")
    import subprocess
    import sys

    from tests.acceptance.test_hostile import _cap_memory

    corners = _claims(tmp_path)["corners"]
    for target in ("html", "pubtabnet", "csv"):
        run = subprocess.run([sys.executable, "-m", "convertables", "convert", str(corners), "--to", target, "-o",
                              str(tmp_path / f"out.{target}")], capture_output=True, text=True, timeout=30,
                             preexec_fn=_cap_memory)
        assert run.returncode == 1 and "too-large" in run.stderr and "1,048,576 rows" in run.stderr, run.stderr
    run = subprocess.run([sys.executable, "-m", "convertables", "score", "--gt", str(corners), "--result",
                          str(corners), "--metric", "teds", "--executor", "dask", "--jobs", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"{corners}: error too-large table 0 spans 1,048,576 rows and 16,384 columns" in run.stderr


def test_nested_html_tables_are_refused_before_their_markup_grows_with_the_square_of_the_page(tmp_path: Path):
    case = HOSTILE / "too-large--html-two-thousand-nested-tables.html"
    assert case.stat().st_size < 70_000
    result = invoke("convert", case, "--to", "json", "-o", tmp_path / "out.json")
    assert result.exit_code == 1 and "error too-large" in result.output and "nested" in result.output
    # a few levels of nesting are read as before: each table its own, the outer cell holding the inner's markup
    page = "<table><tr><td>a<table><tr><td>b</td></tr></table></td></tr></table>"
    (tmp_path / "two.html").write_text(page)
    assert invoke("convert", tmp_path / "two.html", "--to", "json", "-o", tmp_path / "two.json").exit_code == 0
    tables = json.loads((tmp_path / "two.json").read_text())["tables"]
    assert len(tables) == 2 and tables[0]["regions"][0]["cells"][0]["markup"][:3] == ["a", "<table>", "<tr>"]


# -- signals ---------------------------------------------------------------------------------------

def _group_alive(pgid: int) -> bool:
    import os

    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _interrupt_when_started(args: list[str], out: Path, signum: int):
    """Runs the command in a session of its own, waits until it has written
    into ``out``'s temporary files (so that it is mid-run), sends ``signum`` to
    it alone, and returns (exit status, stderr, whether its process group still
    had a process 5 s after it ended)."""
    import os
    import subprocess
    import sys
    import time

    process = subprocess.Popen([sys.executable, "-m", "convertables", *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline and process.poll() is None:
        if any(p.stat().st_size > 0 for p in out.rglob("*") if p.is_file()):
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    os.kill(process.pid, signum)
    stderr = process.communicate(timeout=30)[1]
    deadline = time.monotonic() + 5
    while _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _group_alive(process.pid)
    if left:
        os.killpg(process.pid, 9)
    return process.returncode, stderr, left


def _many_documents(tmp_path: Path, count: int) -> Path:
    gt = tmp_path / "gt"
    gt.mkdir()
    for n in range(count):
        (gt / f"d{n}-str.xml").write_bytes(SAMPLE.read_bytes())
    return gt


@pytest.mark.parametrize("signum, status", [(15, 143), (1, 129), (2, 130)])
def test_score_with_workers_interrupted_leaves_no_file_and_no_process(tmp_path: Path, signum: int, status: int):
    gt = _many_documents(tmp_path, 400)
    out = tmp_path / "out"
    out.mkdir()
    code, stderr, left = _interrupt_when_started(
        ["score", "--gt", str(gt), "--result", str(gt), "--metric", "teds", "--jobs", "2", "--records",
         str(out / "records.jsonl"), "--per-document", str(out / "scores.csv"), "--html", str(out / "r.html")],
        out, signum)
    assert code == status, stderr
    assert stderr.strip() == "interrupted; no partial output was left behind"
    assert list(out.iterdir()) == []  # no .part file, nothing half-written
    assert not left, "worker processes outlived the run"


@pytest.mark.parametrize("signum, status", [(15, 143), (1, 129)])
def test_a_conversion_interrupted_by_a_scheduler_leaves_no_partial_file(tmp_path: Path, signum: int, status: int):
    gt = _many_documents(tmp_path, 300)
    out = tmp_path / "out"
    out.mkdir()
    code, stderr, left = _interrupt_when_started(
        ["convert", str(gt), "--to", "pubtabnet", "-q", "-o", str(out / "all.jsonl")], out, signum)
    assert code == status, stderr
    assert stderr.strip().startswith("interrupted after ") and stderr.strip().endswith(
        "file(s); no partial output was left behind") and len(stderr.strip().splitlines()) == 1
    assert list(out.iterdir()) == [] and not left


def test_a_temporary_file_made_as_a_signal_comes_is_still_removed(tmp_path: Path, monkeypatch):
    from convertables import files

    made = []
    real = files._temporary_beside

    def interrupted_after_making(path):
        made.append(real(path))
        raise KeyboardInterrupt  # (as if the signal came the moment after the file was made)

    monkeypatch.setattr(files, "_temporary_beside", interrupted_after_making)
    with pytest.raises(KeyboardInterrupt):
        files.AtomicLines(tmp_path / "x.jsonl")
    assert [p.name for p in tmp_path.iterdir()] != []  # (the writer could not discard it)
    made[0][0].close()
    files.discard_temporaries()  # what the command does as it ends
    assert list(tmp_path.iterdir()) == []


# -- merge-reports -----------------------------------------------------------------------------------

def _shard_reports(tmp_path: Path, results: Path | None = None, name: str = "s") -> tuple[Path, list[Path]]:
    gt = tmp_path / "gt"
    if not gt.exists():
        gt.mkdir()
        for n in range(6):
            (gt / f"d{n}-str.xml").write_bytes(SAMPLE.read_bytes())
    paths = []
    for k in (1, 2):
        run = invoke("score", "--gt", gt, "--result", results or gt, "--shard", f"{k}/2", "--format", "json")
        paths.append(tmp_path / f"{name}{k}.json")
        paths[-1].write_text(run.stdout)
    return gt, paths


def _edited(path: Path, edit) -> Path:
    report = json.loads(path.read_text())
    edit(report)
    out = path.with_name("edited-" + path.name)
    out.write_text(json.dumps(report) if not isinstance(report, str) else report)
    return out


def _counted(report: dict) -> dict:
    return next(r for r in report["documents"] if r.get("counted"))


@pytest.mark.parametrize("edit, said", [
    (lambda r: _counted(r).__setitem__("correct", 10**6), "an edited or cut report"),
    (lambda r: r["shard"]["positions"].reverse(), "an edited or cut report"),
    (lambda r: r["documents"].__setitem__(0, 5), "an edited"),
    (lambda r: [_counted(r).pop(k) for k in ("correct", "gt", "detected", "precision", "recall", "f1")],
     "an edited"),
    (lambda r: _counted(r).__setitem__("correct", "5"), "an edited"),
    (lambda r: r.__setitem__("settings", [1]), "an edited"),
])
def test_merge_reports_refuses_an_edited_shard_in_one_line(tmp_path: Path, edit, said: str):
    _, (one, two) = _shard_reports(tmp_path)
    assert invoke("merge-reports", one, two).exit_code == 0
    result = invoke("merge-reports", _edited(one, edit), two)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and said in result.output, result.output


def test_merge_reports_checks_even_a_shard_whose_digest_was_made_again(tmp_path: Path):
    from convertables.scoring.shards import parts_digest

    _, (one, two) = _shard_reports(tmp_path)

    def forged(report):
        _counted(report)["correct"] = 10**6
        report["shard"]["digest"] = parts_digest(report)

    result = invoke("merge-reports", _edited(one, forged), two)
    assert result.exit_code == 2 and "correct 1000000 is more than there are" in result.output, result.output

    def not_a_number(report):
        _counted(report)["f1"] = float("nan")
        report["shard"]["digest"] = parts_digest(report)

    result = invoke("merge-reports", _edited(one, not_a_number), two)
    assert result.exit_code == 2 and "NaN is not a number JSON has" in result.output, result.output


def test_merge_reports_refuses_a_shard_of_another_run_and_deep_json(tmp_path: Path):
    gt, (one, two) = _shard_reports(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    for n in range(6):  # other results, the same names
        (other / f"d{n}-str.xml").write_bytes(SAMPLE.read_bytes().replace(b"<content>", b"<content>x", 1))
    _, (other_one, other_two) = _shard_reports(tmp_path, other, "o")
    result = invoke("merge-reports", one, other_two)
    assert result.exit_code == 2 and "is of another run" in result.output, result.output
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = invoke("merge-reports", deep, two)
    assert result.exit_code == 2 and result.output.strip() == f"error: {deep}: not a JSON report (it nests too " \
        "deeply to read)"
    merged = invoke("merge-reports", one, two)
    assert merged.exit_code == 0 and "NaN" not in merged.stdout and "Infinity" not in merged.stdout


# -- one line, never a traceback -------------------------------------------------------------------

def _file_size_capped(limit: int):
    def cap():  # (Python ignores SIGXFSZ: a write past the limit fails with EFBIG, as on a full disk)
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return cap


def test_a_page_or_a_container_that_cannot_be_written_is_one_line_and_the_scores_still_come(tmp_path: Path):
    import subprocess
    import sys

    gt = _many_documents(tmp_path, 3)  # (its temporary files stay under the cap; its page, of 30 KB, does not)
    out = tmp_path / "out"
    out.mkdir()
    run = subprocess.run([sys.executable, "-m", "convertables", "score", "--gt", str(gt), "--result", str(gt),
                          "--html", str(out / "r.html")], capture_output=True, text=True, timeout=60,
                         preexec_fn=_file_size_capped(20_000))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.strip() == f"{out / 'r.html'}: error write-failed cannot be written: File too large"
    assert "total (micro)" in run.stdout  # the table on standard output is not lost
    run = subprocess.run([sys.executable, "-m", "convertables", "convert", str(gt), "--to", "pubtabnet", "-q",
                          "-o", str(out / "all.jsonl"), "--format", "json"], capture_output=True, text=True,
                         timeout=60, preexec_fn=_file_size_capped(500))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    report = json.loads(run.stdout)
    assert report["converted"] == 0  # what went into the file that was not written was not converted
    assert any("write-failed" in line for f in report["files"] for line in f.get("diagnostics", [])) or \
        "write-failed" in run.stdout
    assert list(out.iterdir()) == []


def test_records_that_cannot_be_written_are_one_line(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = invoke("score", "--gt", SAMPLE, "--result", SAMPLE, "--records", blocker / "records.jsonl")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().startswith(f"{blocker / 'records.jsonl'}: error write-failed cannot be written")


def test_a_lone_surrogate_in_a_jsonl_name_is_written_to_html_and_csv_as_its_escape(tmp_path: Path):
    import subprocess
    import sys

    source = (ROOT / "samples" / "pubtabnet" / "sample.jsonl").read_text()
    assert '"sample_001_00.png"' in source
    jsonl = tmp_path / "s.jsonl"
    jsonl.write_text(source.replace('"sample_001_00.png"', '"sample_\\udc80_00.png"'))
    page = tmp_path / "r.html"
    for extra in (["--html", str(page)], ["--format", "csv"], ["--format", "html"]):
        run = subprocess.run([sys.executable, "-m", "convertables", "score", "--gt", str(jsonl), "--result",
                              str(jsonl), "--metric", "teds", *extra], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
        assert "sample_\\udc80_00" in (page.read_text() if extra[0] == "--html" else run.stdout)


def test_an_input_that_exhausts_memory_says_so(tmp_path: Path):
    import subprocess
    import sys

    big = tmp_path / "big-str.xml"
    cell = '<cell id="0" start-row="{}" start-col="0"><content>abcdefgh</content></cell>'
    big.write_text('<document filename="x.pdf"><table id="1"><region id="1" page="1">'
                   + "".join(cell.format(n) for n in range(250_000)) + "</region></table></document>")

    def cap():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))

    for command in (["convert", str(big), "--to", "json", "-o", str(tmp_path / "out.json")], ["check", str(big)],
                    ["score", "--gt", str(big), "--result", str(big), "--jobs", "1"]):
        run = subprocess.run([sys.executable, "-m", "convertables", *command], capture_output=True, text=True,
                             timeout=60, preexec_fn=cap)
        said = run.stderr + run.stdout
        assert run.returncode == 1 and "Traceback" not in said, said
        assert f"{big}: error too-large out of memory" in said, said
        assert "internal-error" not in said


@pytest.mark.parametrize("metric, folder", [("ctdar-a", "ctdar"), ("ctdar-b", "ctdar"), ("marmot", "marmot"),
                                            ("region", "marmot")])
def test_the_checks_of_merge_reports_take_every_metric_s_records(tmp_path: Path, metric: str, folder: str):
    # (cTDaR counts correct relations at each threshold; the region metric's records hold counts of items)
    data = ROOT / "samples" / folder
    parts = []
    for k in (1, 2):
        run = invoke("score", "--gt", data, "--result", data, "--metric", metric, "--shard", f"{k}/2",
                     "--format", "json")
        parts.append(tmp_path / f"{k}.json")
        parts[-1].write_text(run.stdout)
    merged = invoke("merge-reports", *parts)
    assert merged.exit_code == 0, merged.output
    whole = invoke("score", "--gt", data, "--result", data, "--metric", metric, "--format", "json")
    assert merged.stdout == whole.stdout
