"""The one way from the paths a command is given to its sources
(convertables.inputs.collect), for convert, check and score alike."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import convertables
from convertables import inputs, registry
from convertables.containers import MemberRef
from convertables.diagnostics import UsageError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
PACKAGE = ROOT / "convertables"


def _folder(tmp_path: Path) -> Path:
    """A folder of each kind of file a command meets: the usual formats, one
    nested, a hidden file, a name of no format, a csv that is a per-table
    export and one that is not, and a container of three documents."""
    folder = tmp_path / "res"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", folder / "a-str.xml")
    shutil.copy(SAMPLES / "icdar" / "sample-reg.xml", folder / "a-reg.xml")
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", folder / "sub" / "b-str.xml")
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", folder / ".hidden-str.xml")
    (folder / "notes.bak").write_text("not a table\n")
    shutil.copy(SAMPLES / "csv" / "sample.csv", folder / "doc-page-1-table-1.csv")
    shutil.copy(SAMPLES / "csv" / "sample.csv", folder / "scores.csv")
    shutil.copy(SAMPLES / "pubtabnet" / "sample.jsonl", folder / "c.jsonl")
    return folder


def _named(found: inputs.Inputs, folder: Path) -> list[str]:
    return [str(s).replace(str(folder) + "/", "") for s in found.sources]


MEMBERS = ["c.jsonl#sample_001_00", "c.jsonl#sample_002_00", "c.jsonl#sample_003_01"]


def test_one_folder_gives_each_rule_its_files(tmp_path: Path):
    folder = _folder(tmp_path)
    usual = inputs.collect([folder])
    # hidden files and names of no format left out; a csv only where asked for; the nested folder's files
    # after this folder's; the container replaced by its documents, at its place
    assert _named(usual, folder) == ["a-reg.xml", "a-str.xml", *MEMBERS, "sub/b-str.xml"]
    assert usual.batch and usual.several
    assert [usual.relative(i).as_posix() for i in range(len(usual))] == [
        "a-reg.xml", "a-str.xml", "sample_001_00", "sample_002_00", "sample_003_01", "sub/b-str.xml"]
    # score asks for a model: a file named as the other model's is left out
    assert _named(inputs.collect([folder], model="structure"), folder) == ["a-str.xml", *MEMBERS, "sub/b-str.xml"]
    # --join: the per-table exports of any format too, never the other csv
    assert _named(inputs.collect([folder], join=True), folder) == [
        "a-reg.xml", "a-str.xml", *MEMBERS, "doc-page-1-table-1.csv", "sub/b-str.xml"]
    # a format named: its files only, whatever the usual formats
    assert _named(inputs.collect([folder], registry.get("csv")), folder) == ["doc-page-1-table-1.csv", "scores.csv"]
    # unexpanded: the container as a file
    assert _named(inputs.collect([folder], expand=False), folder) == [
        "a-reg.xml", "a-str.xml", "c.jsonl", "sub/b-str.xml"]


def test_a_file_named_is_taken_whatever_its_name(tmp_path: Path):
    folder = _folder(tmp_path)
    found = inputs.collect([folder / "notes.bak", folder / "a-reg.xml"], model="structure")
    assert _named(found, folder) == ["notes.bak", "a-reg.xml"]
    assert found.batch and not found.several
    assert [found.relative(i) for i in range(2)] == [Path("notes.bak"), Path("a-reg.xml")]
    one = inputs.collect([folder / "c.jsonl"])
    assert [type(s) for s in one.sources] == [MemberRef] * 3 and not one.batch and one.several
    assert one.relative(2) == Path("sample_003_01")
    stdin = inputs.collect(["-"])
    assert list(stdin.sources) == ["-"] and stdin.relative(0) == Path("stdin")


def test_what_cannot_be_collected_is_a_usage_error(tmp_path: Path):
    with pytest.raises(UsageError, match="can be read once"):
        inputs.collect(["-", "-"])
    with pytest.raises(UsageError, match=f"{tmp_path / 'none'}: no such file or folder"):
        inputs.collect([tmp_path / "none"])


def test_convert_check_and_score_take_their_inputs_from_the_one_function(tmp_path: Path, monkeypatch):
    folder = _folder(tmp_path)
    gt = tmp_path / "gt"
    (gt / "sub").mkdir(parents=True)
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", gt / "a-str.xml")
    shutil.copy(SAMPLES / "icdar" / "sample-str.xml", gt / "sub" / "b-str.xml")
    calls: list[tuple[list[str], dict, list[str]]] = []
    collect = inputs.collect

    def spied(paths, *args, **named):
        found = collect(paths, *args, **named)
        calls.append(([Path(p).name for p in paths], named, _named(found, Path(paths[0]))))
        return found

    monkeypatch.setattr(inputs, "collect", spied)

    converted = convertables.convert(folder, tmp_path / "out", to_format="json")
    assert calls == [(["res"], {"join": False}, ["a-reg.xml", "a-str.xml", *MEMBERS, "sub/b-str.xml"])]
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.json")) == [
        "a-reg.json", "a-str.json", "sample_001_00.json", "sample_002_00.json", "sample_003_01.json",
        "sub/b-str.json"]
    assert len(converted.outcomes) == 6

    calls.clear()
    totals: set[int] = set()
    checked = convertables.check([folder], on_file=lambda done, total: totals.add(total))
    assert calls == [(["res"], {}, ["a-reg.xml", "a-str.xml", *MEMBERS, "sub/b-str.xml"])]
    assert totals == {6} and checked.findings
    assert {d.file for d in checked.findings} <= {str(folder / n) for n in ("a-reg.xml", "a-str.xml", "c.jsonl",
                                                                            "sub/b-str.xml")}

    calls.clear()
    report = convertables.score(gt, folder, "structure")
    assert calls == [(["gt"], {"model": "structure"}, ["a-str.xml", "sub/b-str.xml"]),
                     (["res"], {"model": "structure"}, ["a-str.xml", *MEMBERS, "sub/b-str.xml"])]
    assert [d["document"] for d in report["documents"]] == ["a", "b"]


# the functions that once collected inputs each their own way
_GONE = {"convertables/batch.py": ("collect_inputs", "expand_containers"), "convertables/checks.py": ("collect",),
         "convertables/scoring/pairing.py": ("collect",)}
# what walks a folder or expands a container: called from convertables.inputs alone
_WALKERS = {"input_names", "input_files", "expand"}


def _calls(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return names


def test_the_commands_collect_through_the_one_function_only():
    for module, gone in _GONE.items():
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        assert not defined & set(gone), module
    for module in ("convertables/batch.py", "convertables/checks.py", "convertables/scoring/runner.py"):
        text = (ROOT / module).read_text(encoding="utf-8")
        assert "inputs.collect(" in text, module
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("inputs.py", "files.py", "containers.py"):  # (the walk and the expansion themselves)
            continue
        walked = _calls(ast.parse(path.read_text(encoding="utf-8"))) & _WALKERS
        assert not walked, f"{path.relative_to(ROOT)} calls {sorted(walked)}: collect through convertables.inputs"


def test_convert_join_takes_a_containers_per_table_records_as_score_does(tmp_path: Path):
    import json

    folder = tmp_path / "in"
    folder.mkdir()
    lines = (SAMPLES / "pubtabnet" / "sample.jsonl").read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace("sample_001_00.png", "doc-page-1-table-1.png")
    lines[1] = lines[1].replace("sample_002_00.png", "doc-page-2-table-1.png")
    (folder / "c.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = convertables.convert(folder, tmp_path / "out", to_format="json", join=True)
    assert all(o.ok for o in report.outcomes)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["doc.json", "sample_003_01.json"]
    joined = json.loads((tmp_path / "out" / "doc.json").read_text(encoding="utf-8"))
    assert [region["page"] for table in joined["tables"] for region in table["regions"]] == [1, 2]
