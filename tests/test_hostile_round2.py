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
