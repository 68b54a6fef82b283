"""Scoring in shards (score --shard K/N) and merging the reports (merge-reports):
the merged report is the one run's, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import UsageError, score
from convertables.cli import app
from convertables.scoring.shards import merge_reports, parse_shard, shard_of
from tests.conftest import ROOT, corpus_path

SAMPLE = (ROOT / "samples" / "icdar" / "sample-str.xml").read_text()


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    """Twelve documents: most found, some changed, one missing, one unreadable, two results of no document."""
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    for n in range(12):
        (gt / f"doc{n:02}-str.xml").write_text(SAMPLE)
        if n == 3:
            continue  # no result
        text = SAMPLE.replace("<content>", "<content>x", n % 4) if n % 3 else SAMPLE
        (res / f"doc{n:02}-str-result.xml").write_text("<document><table" if n == 7 else text)
    (res / "stray-str-result.xml").write_text(SAMPLE)
    (res / "other-str-result.xml").write_text(SAMPLE)
    return gt, res


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, ["score", *args, "--format", "json", "--jobs", "1"])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_the_merged_report_is_the_one_run_s_byte_for_byte(tmp_path: Path, count: int):
    gt, res = _corpus(tmp_path)
    whole = _run("--gt", str(gt), "--result", str(res))
    parts = []
    for k in range(1, count + 1):
        path = tmp_path / f"s{k}.json"
        path.write_text(_run("--gt", str(gt), "--result", str(res), "--shard", f"{k}/{count}"))
        parts.append(path)
    assert sum(len(json.loads(p.read_text())["documents"]) for p in parts) == 12
    merged = CliRunner().invoke(app, ["merge-reports", *map(str, reversed(parts))])  # (any order of the reports)
    assert merged.exit_code == 1  # (the merged report holds doc07's error, as the one run's does)
    assert merged.stdout == whole
    assert json.loads(whole)["errors"] and json.loads(whole)["unpaired"]["result"]


def test_shards_of_the_biomedical_variant_with_result_variants(tmp_path: Path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    for n in range(1, 9):
        (gt / f"PMC{n}.xml").write_text(SAMPLE)
        (res / f"PMC{n}.xml").write_text(SAMPLE.replace("<content>", "<content>y", n % 3))
        if n % 2:
            (res / f"PMC{n}_1.xml").write_text(SAMPLE)  # a better variant
    whole = score(gt, res, variant="pubmed")
    parts = [score(gt, res, variant="pubmed", shard=f"{k}/3").to_dict() for k in (1, 2, 3)]
    merged = merge_reports(json.loads(json.dumps(p)) for p in parts)  # (as read back from the JSON files)
    assert merged.to_json() == whole.to_json()


def test_shards_are_decided_by_name_alike_everywhere():
    import zlib

    assert shard_of("PMC12", 7) == zlib.crc32(b"PMC12") % 7
    assert parse_shard("2/8") == (2, 8)
    for bad in ("0/2", "3/2", "2", "a/b"):
        with pytest.raises(UsageError, match="--shard"):
            parse_shard(bad)


def test_reports_that_cannot_be_merged_are_refused(tmp_path: Path):
    gt, res = _corpus(tmp_path)
    one = score(gt, res, shard="1/2").to_dict()
    two = score(gt, res, shard="2/2").to_dict()
    with pytest.raises(UsageError, match="shard\\(s\\) 2 of 2 missing"):
        merge_reports([one])
    with pytest.raises(UsageError, match="shard 1 of 2 is given twice"):
        merge_reports([one, one, two])
    with pytest.raises(UsageError, match="not a shard's score report"):
        merge_reports([score(gt, res).to_dict()])
    other = score(gt, res, shard="2/2", compat=True).to_dict()
    with pytest.raises(UsageError, match="not made alike: settings"):
        merge_reports([one, other])


@pytest.mark.slow
def test_the_real_competition_results_in_shards(tmp_path: Path):
    gt, res = corpus_path("icdar2013", "gt"), corpus_path("icdar2013_results", "namysl")
    whole = score(gt, res)
    merged = merge_reports([score(gt, res, shard=(k, 4)).to_dict() for k in range(1, 5)])
    assert merged.to_json() == whole.to_json() and whole.total["f1"] > 0.9


def test_edited_or_cut_shard_reports_are_refused_in_one_line(tmp_path: Path):
    gt, res = _corpus(tmp_path)
    parts = [score(gt, res, shard=(k, 2)).to_dict() for k in (1, 2)]
    cut = json.loads(json.dumps(parts[1]))
    cut["documents"] = cut["documents"][1:]
    with pytest.raises(UsageError, match="its documents and their places in the whole run disagree"):
        merge_reports([parts[0], cut])
    moved = json.loads(json.dumps(parts[1]))
    moved["shard"]["positions"][0] = 10_000
    with pytest.raises(UsageError, match="an edited or cut report"):
        merge_reports([parts[0], moved])
    typed = json.loads(json.dumps(parts[1]))
    typed["shard"]["index"] = "2"
    with pytest.raises(UsageError, match="malformed shard report"):
        merge_reports([parts[0], typed])
    (tmp_path / "s1.json").write_text(json.dumps(parts[0]))
    (tmp_path / "out.json").write_text("{}")
    result = CliRunner().invoke(app, ["merge-reports", str(tmp_path / "s1.json"), str(tmp_path / "nope.json"),
                                      "-o", str(tmp_path / "out.json")])
    # a missing input is a usage error, said before anything is read
    assert result.exit_code == 2 and result.output.strip() == f"error: {tmp_path / 'nope.json'}: no such file"


@pytest.mark.parametrize("metric, score_name", [("teds", "teds"), ("grits", "grits_con")])
def test_shards_merge_into_the_one_run_for_the_table_similarity_metrics(tmp_path: Path, metric: str,
                                                                        score_name: str):
    gt, res = _corpus(tmp_path)
    whole = _run("--gt", str(gt), "--result", str(res), "--metric", metric)
    parts = []
    for k in (1, 2, 3):
        path = tmp_path / f"{metric}{k}.json"
        path.write_text(_run("--gt", str(gt), "--result", str(res), "--metric", metric, "--shard", f"{k}/3"))
        parts.append(path)
    merged = CliRunner().invoke(app, ["merge-reports", *map(str, parts)])
    assert merged.stdout == whole
    report = json.loads(whole)
    assert report["total"]["tables"] == 12 and 0 < report["total"][score_name] < 1
