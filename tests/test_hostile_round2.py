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
