"""The command line: conversions, batches, exit codes, and nothing lost."""

from __future__ import annotations

import json
import shutil
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import __version__, read
from convertables.cli import app
from tests.conftest import ROOT, corpus_path
from tests.helpers import grid, without_blank_cells

SAMPLE = ROOT / "samples" / "icdar" / "sample-str.xml"

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_version_and_formats():
    result = invoke("--version")
    assert result.exit_code == 0 and result.output.strip() == f"convertables {__version__}"
    result = invoke("formats", "--format", "json")
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert {"icdar", "html", "xlsx", "ctdar", "marmot", "pod", "json", "csv"} <= set(rows)
    assert rows["icdar"]["read"] and rows["icdar"]["write"] and rows["json"]["read"]
    assert rows["xlsx"]["read_options"] == ["--split-blank-rows", "--keep-index", "--page"]
    assert rows["icdar"]["write_options"] == ["--model", "--keep-blank", "--dpi", "--page-height", "--page-width",
                                              "--pdf", "--image"]


def test_only_the_command_run_is_built_and_help_lists_them_all(monkeypatch):
    from convertables import cli

    built = []
    build = cli.get_command_from_info
    monkeypatch.setattr(cli, "get_command_from_info", lambda info, **kw: built.append(info) or build(info, **kw))
    assert invoke("formats").exit_code == 0
    assert [info.callback.__name__ for info in built] == ["formats"]
    declared = [info.name or info.callback.__name__ for info in cli.commands.registered_commands]
    assert {"convert", "check", "score", "formats", "html2icdar", "json2icdar"} <= set(declared)
    listing = invoke("--help").output
    assert all(f" {name} " in listing for name in declared)
    unknown = invoke("scroe")
    assert unknown.exit_code == 2 and "Did you mean 'score'" in unknown.output


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "convertables", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("convertables ")


def test_convert_a_sample_to_json_and_back(tmp_path: Path):
    out = tmp_path / "sample-str.json"
    result = invoke("convert", SAMPLE, "-o", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["format"] == "convertables" and data["tables"]
    back = tmp_path / "back" / "sample-str.xml"
    assert invoke("json2icdar", out, "-o", back).exit_code == 0
    assert grid(read(back)) == grid(without_blank_cells(read(SAMPLE)))


def test_single_file_to_standard_output():
    result = invoke("icdar2json", SAMPLE)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["filename"] == "sample.pdf"


def test_refuses_to_clobber_without_force_and_never_overwrites_an_input(tmp_path: Path):
    out = tmp_path / "out.json"
    out.write_text("precious")
    result = invoke("convert", SAMPLE, "-o", out)
    assert result.exit_code == 1 and "output-exists" in result.output
    assert out.read_text() == "precious"
    assert invoke("convert", SAMPLE, "-o", out, "--force").exit_code == 0
    assert json.loads(out.read_text())["format"] == "convertables"

    source = tmp_path / "in.json"
    source.write_bytes(out.read_bytes())
    result = invoke("convert", source, "--to", "json", "-o", source, "--force")
    assert result.exit_code == 1 and "output-is-input" in result.output
    assert source.read_bytes() == out.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_batch_goes_on_past_a_bad_file_and_says_so(tmp_path: Path):
    inputs = tmp_path / "in"
    (inputs / "sub").mkdir(parents=True)
    (inputs / "good-str.xml").write_bytes(SAMPLE.read_bytes())
    (inputs / "sub" / "also-good-str.xml").write_bytes(SAMPLE.read_bytes())
    (inputs / "broken-str.xml").write_text("<document><table id='0'>")
    (inputs / "notes.txt").write_text("not an input")
    result = invoke("convert", inputs, "--from", "icdar", "--to", "json", "-o", tmp_path / "out")
    assert result.exit_code == 1
    assert "broken-str.xml:1" in result.output and "xml-syntax" in result.output
    assert "converted 2 of 3 file(s); 1 failed" in result.output
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.json"))
    assert written == ["good-str.json", "sub/also-good-str.json"]


def test_batch_report_as_json(tmp_path: Path):
    result = invoke("convert", SAMPLE, SAMPLE.parent / "sample-reg.xml", "--to", "json", "-o", tmp_path, "--format", "json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["converted"] == 2 and report["failed"] == 0
    assert {Path(f["output"]).name for f in report["files"]} == {"sample-str.json", "sample-reg.json"}


@pytest.mark.parametrize(
    "args, message",
    [
        (("convert", "nope.xml", "--to", "json"), "no such file"),
        (("convert", SAMPLE, "--to", "nope"), "unknown format"),
        (("convert", SAMPLE), "--to"),
        (("convert", SAMPLE, SAMPLE, "--to", "json"), "-o FOLDER"),
        (("icdar2pod", SAMPLE), "No such command"),
        (("icdar2xlsx", SAMPLE), "binary format: pass -o FILE"),
        (("convert", SAMPLE, "--to", "json", "--format", "json"), "where the document would go: pass -o FILE"),
        (("convert", SAMPLE, "--to", "json", "--format", "json", "-o", "-"), "pass -o FILE"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_the_done_when_of_the_hub(tmp_path: Path):
    """convert gt -> json -> icdar reproduces every structure file's grid."""
    gt = corpus_path("icdar2013", "gt")
    # (exit 1: the ground truth's known defects, us-018's x1='26ß' and others, lose a box: said, and converted)
    first = invoke("convert", gt, "--from", "icdar", "--to", "json", "-o", tmp_path / "json")
    assert first.exit_code == 1 and "with errors in the input" in first.output and "failed" not in first.output
    assert invoke("convert", tmp_path / "json", "--from", "json", "--to", "icdar", "-o", tmp_path / "xml").exit_code == 0
    for path in sorted(gt.glob("*-str.xml")):
        assert grid(read(tmp_path / "xml" / path.name)) == grid(without_blank_cells(read(path))), path.name


def test_interrupted_write_leaves_nothing(tmp_path: Path, monkeypatch):
    from convertables import files

    def boom(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(tmp_path / "x.json", b"data")
    assert list(tmp_path.iterdir()) == []


def test_an_output_name_as_long_as_the_file_system_allows_is_written(tmp_path: Path):
    from convertables import files

    path = tmp_path / ("n" * 250 + ".json")  # (255 bytes is the usual limit of a name)
    files.write_atomic(path, b"data")
    assert path.read_bytes() == b"data" and list(tmp_path.iterdir()) == [path]


def test_an_input_is_read_up_to_the_limit_even_where_its_size_is_not_known(tmp_path: Path, monkeypatch):
    from convertables import files

    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 100)
    (tmp_path / "ok.xml").write_bytes(b"x" * 100)
    assert files.read_bytes_of(tmp_path / "ok.xml") == b"x" * 100
    (tmp_path / "big.xml").write_bytes(b"x" * 101)
    sources = [tmp_path / "big.xml"] + [Path("/dev/zero")] * Path("/dev/zero").exists()  # (a device says size 0)
    for source in sources:
        with pytest.raises(files.InputError) as error:
            files.read_bytes_of(source)
        assert error.value.diagnostic.code == "too-large" and "more than 100 bytes" in str(error.value)


@pytest.mark.slow
def test_the_wheel_ships_the_schemas(tmp_path: Path):
    """Schemas are package data, loaded with importlib.resources from an installed wheel."""
    import zipfile

    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True,
    )
    wheel = next(tmp_path.glob("convertables-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in ("icdar2013-region.xsd", "icdar2013-structure.xsd", "convertables.schema.json"):
        assert f"convertables/schemas/{schema}" in names


def test_score_command_reports_json_csv_and_exit_codes(tmp_path: Path):
    gt = ROOT / "samples" / "icdar"
    csv_path = tmp_path / "per-doc.csv"
    result = invoke("score", "--gt", gt, "--result", gt, "--format", "json", "--per-document", csv_path)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["metric"] == "structure" and report["variant"] == "icdar2013"
    assert report["total"]["f1"] == 1.0 and report["document_mean"]["f1"] == 1.0
    assert report["documents"][0]["tables"][0]["gt_table"] == 0
    # one document's record per line
    record_lines = [line for line in result.stdout.splitlines() if line.startswith('  {"document": ')]
    assert [json.loads(line.rstrip(",")) for line in record_lines] == report["documents"]
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith("document,gt_file,result_file,gt,correct,detected")
    assert lines[1].startswith("sample,")
    # refuses to replace the CSV without --force; a bad result file is reported and exits 1
    assert invoke("score", "--gt", gt, "--result", gt, "--per-document", csv_path).exit_code == 2
    bad = tmp_path / "res"
    bad.mkdir()
    (bad / "sample-str-result.xml").write_text("<document>")
    result = invoke("score", "--gt", gt, "--result", bad)
    assert result.exit_code == 1 and "xml-syntax" in result.output
    assert invoke("score", "--gt", gt, "--result", gt, "--metric", "nope").exit_code == 2
    assert invoke("score", "--gt", gt, "--result", gt, "--format", "yaml").exit_code == 2
    as_csv = invoke("score", "--gt", gt, "--result", gt, "--format", "csv")
    assert as_csv.exit_code == 0 and as_csv.stdout == csv_path.read_text()  # the per-document CSV


def test_score_pubmed_takes_the_best_result_variant_unless_single_variant(tmp_path: Path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    sample = (ROOT / "samples" / "icdar" / "sample-str.xml").read_text()
    (gt / "PMC7.xml").write_text(sample)
    (res / "PMC7.xml").write_text("<document></document>")  # nothing found
    (res / "PMC7_1.xml").write_text(sample)  # everything found
    found = json.loads(invoke("score", "--gt", gt, "--result", res, "--variant", "pubmed", "--format", "json").stdout)
    assert (found["documents"][0]["result_file"], found["total"]["correct"]) == (str(res / "PMC7_1.xml"), 14)
    result = invoke("score", "--gt", gt, "--result", res, "--variant", "pubmed", "--single-variant", "--format", "json")
    single = json.loads(result.stdout)
    assert (single["documents"][0]["result_file"], single["total"]["correct"]) == (str(res / "PMC7.xml"), 0)
    assert single["unpaired"]["result"] == [str(res / "PMC7_1.xml")] and single["settings"]["single_variant"]
    result = invoke("score", "--gt", gt, "--result", res, "--single-variant")
    assert result.exit_code == 2 and "--single-variant applies to --variant pubmed only" in result.output


def test_score_never_writes_its_csv_over_an_input_and_reports_the_scores_when_it_cannot_write_it(tmp_path: Path):
    gt = tmp_path / "gt"
    shutil.copytree(ROOT / "samples" / "icdar", gt)
    before = (gt / "sample-str.xml").read_bytes()
    for target in (gt / "sample-str.xml", gt, tmp_path / "gt" / ".." / "gt" / "sample-reg.xml"):
        result = invoke("score", "--gt", gt, "--result", gt, "--per-document", target, "--force")
        assert result.exit_code == 2 and "is one of the inputs; refused even with --force" in result.output
    assert (gt / "sample-str.xml").read_bytes() == before
    # a CSV beside the inputs is no input (csv files are read from folders only when asked for)
    assert invoke("score", "--gt", gt, "--result", gt, "--per-document", gt / "scores.csv").exit_code == 0
    assert invoke("score", "--gt", gt, "--result", gt).exit_code == 0  # (and it is not read as a result after)
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = invoke("score", "--gt", gt, "--result", gt, "--per-document", blocker / "scores.csv")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{blocker / 'scores.csv'}: error write-failed cannot be written" in result.output
    assert "total (micro)  14       14        14" in result.output  # the scores are still printed


def test_score_uses_the_usable_cpus_unless_told(monkeypatch):
    import convertables.scoring as score
    from convertables.scoring import runner as score_runner

    asked = []
    real = score.score_paths
    monkeypatch.setattr(score, "score_paths", lambda *args, **kw: asked.append(args[3]) or real(*args, **kw))
    monkeypatch.setattr(score_runner.os, "sched_getaffinity", lambda pid: set(range(3)), raising=False)
    gt = ROOT / "samples" / "icdar"
    assert invoke("score", "--gt", gt, "--result", gt, "--format", "json").exit_code == 0
    assert invoke("score", "--gt", gt, "--result", gt, "--format", "json", "--jobs", "1").exit_code == 0
    assert asked == [3, 1]
    # every CPU, no cap of 8 (a 64-core machine uses 64), as many as the memory holds at 512 MiB each
    monkeypatch.setattr(score_runner.os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    monkeypatch.setattr(score_runner, "_available_memory", lambda: 64 << 30)
    assert score.default_jobs() == 64
    monkeypatch.setattr(score_runner, "_available_memory", lambda: 3 << 30)
    assert score.default_jobs() == 6
    monkeypatch.setattr(score_runner, "_available_memory", lambda: 100 << 20)
    assert score.default_jobs() == 1
    monkeypatch.setattr(score_runner, "_available_memory", lambda: None)
    assert score.default_jobs() == 64


def test_no_more_workers_are_started_than_documents_or_four_a_cpu(monkeypatch):
    import concurrent.futures

    from convertables.scoring import runner

    started = []

    class Serial:  # records how many workers were asked for, and does their work here
        def __init__(self, max_workers):
            started.append(max_workers)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, function, *args):
            done = concurrent.futures.Future()
            done.set_result(function(*args))
            return done

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Serial)
    monkeypatch.setattr(runner, "score_pair", lambda pair, settings, explain=False: {"document": pair.document})
    monkeypatch.setattr(runner, "SERIAL_WORK_S", -1.0)  # the pool from the third document on
    monkeypatch.setattr(runner.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for jobs, documents, workers in ((1000, 100, 8), (1000, 5, 3), (3, 100, 3)):
        pairs = [runner.DocumentPair(f"d{n}", [Path(f"d{n}.xml")], Path(f"d{n}-result.xml")) for n in range(documents)]
        used: list[int] = []
        records = list(runner.score_documents(pairs, None, jobs, used))
        assert [r["document"] for r in records] == [f"d{n}" for n in range(documents)]
        assert started.pop() == workers and used == [workers]


def test_the_json_report_holds_the_report_exactly():
    from convertables.scoring.report import as_json

    for report in ({"metric": "x", "documents": [], "errors": []},
                   {"documents": [{"document": "a\n\"b\"", "f1": 0.1 + 0.2, "tables": [{"iou": None}]}],
                    "total": {"f1": 1.0, "nested": {"t": [1, 2]}}, "errors": ["é"]}):
        assert json.loads(as_json(report)) == report


def test_a_misspelt_format_setting_is_refused_not_ignored():
    from convertables import UsageError
    from convertables.options import ReadOptions, WriteOptions, declared

    every = ReadOptions(extra={name: True for name, o in declared("read").items() if o.kind is bool})
    assert every["split_blank_rows"] is True and every.keep_instructions is True
    assert ReadOptions().page is None and WriteOptions().model == "auto"  # declared defaults
    with pytest.raises(UsageError, match=r"ReadOptions: unknown setting\(s\) 'split_blank_row'; known: "):
        ReadOptions(extra={"split_blank_row": True})
    with pytest.raises(UsageError, match=r"WriteOptions: unknown setting\(s\) 'trak'; known: .*track"):
        WriteOptions(trak="A")
    with pytest.raises(UsageError, match=r"--model is auto, structure or region, not 'cells'"):
        WriteOptions(model="cells")
    with pytest.raises(UsageError, match=r"--dpi must be a finite number, not nan"):
        WriteOptions(dpi=float("nan"))
    assert WriteOptions(track="a").track == "a"  # cTDaR's track in any case (its writer upper-cases it)
    for refused in (dict(model="Region"), dict(keep_blank="no"), dict(dpi="300")):  # as written, of their type
        with pytest.raises(UsageError):
            WriteOptions(**refused)
    with pytest.raises(UsageError, match="--page must be a whole number, not 2.5"):
        ReadOptions(page=2.5)
    # a setting given as its default is as one not given: equal, and read alike
    assert ReadOptions(keep_instructions=False) == ReadOptions() and hash(ReadOptions(page=None)) == hash(ReadOptions())
    assert WriteOptions().get("model") == WriteOptions()["model"] == "auto" and "model" not in WriteOptions()


def _sent_ahead(monkeypatch, items, workers: int) -> tuple[list, int, int]:
    """LocalProcesses.map's results, with a pool that does the work where it is
    sent, and the most chunks and documents sent and not yet taken at once."""
    import collections
    import concurrent.futures

    from convertables.scoring import executors

    chunks, most = collections.deque(), [0, 0]

    class Counting:
        def __init__(self, max_workers):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, function, *args):
            chunks.append(len(args[1]))
            most[:] = max(most[0], len(chunks)), max(most[1], sum(chunks))
            done = concurrent.futures.Future()
            done.set_result(function(*args))
            return done

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    results, taken = [], 0
    local = executors.LocalProcesses()
    assert local.start(workers) == workers
    for value in local.map(abs, items):
        results.append(value)
        taken += 1
        if taken == chunks[0]:  # a chunk taken
            chunks.popleft()
            taken = 0
    return results, most[0], most[1]


def test_local_workers_are_sent_chunks_a_few_ahead_not_all_at_once(monkeypatch):
    from convertables.scoring import executors

    monkeypatch.setattr(executors, "LOCAL_CHUNK", 2)
    monkeypatch.setattr(executors, "DOCUMENTS_AHEAD", 8)  # 4 chunks of 2 a worker
    results, chunks, _ = _sent_ahead(monkeypatch, list(range(-1000, 0)), workers=2)
    assert results == [abs(v) for v in range(-1000, 0)]
    assert chunks == 2 * 4


def test_the_documents_in_flight_do_not_grow_with_the_corpus(monkeypatch):
    """Chunks grow with the corpus (up to their cap); the documents sent ahead
    do not: a corpus four times larger holds no more of them at once."""
    from convertables.scoring import executors

    small = _sent_ahead(monkeypatch, range(8_630), workers=16)[2]
    large = _sent_ahead(monkeypatch, range(34_520), workers=16)[2]
    assert small == large == 16 * executors.DOCUMENTS_AHEAD
    assert _sent_ahead(monkeypatch, range(300), workers=2)[2] <= 2 * executors.DOCUMENTS_AHEAD
