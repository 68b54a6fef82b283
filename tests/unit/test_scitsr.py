"""SciTSR structure JSON (convertables/formats/scitsr.py): round trips, the writer, and
the real command (convert, check, score, --join). The reader's rules are in
tests/cases/scitsr/."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from convertables import read
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.formats import icdar, scitsr
from convertables.model import Cell, Document, Region, Table
from tests.conftest import CASES

runner = CliRunner()
CASE = CASES / "scitsr" / "spans-tex-and-blank-cells" / "input.json"


def _cells(doc: Document) -> list[tuple]:
    return sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in doc.tables[0].cells())


def test_what_is_written_reads_back_as_it_was():
    doc = read(CASE)
    data = scitsr.write(doc, Diagnostics())
    written = json.loads(data)
    assert written["cells"][1] == {"id": 1, "tex": "Training set", "content": ["Training", "set"], "start_row": 0,
                                   "end_row": 0, "start_col": 1, "end_col": 2}
    assert _cells(scitsr.read(data, Diagnostics())) == _cells(doc)


def test_increments_apply_and_unknown_text_is_written_empty():
    cells = [Cell(0, 0, 0, 1, "x y"), Cell(1, 0, 1, 0, None), Cell(-1, 0, -1, 0, "before")]
    doc = Document(tables=[Table(0, [Region(0, 1, row_increment=2, cells=cells[:2]), Region(1, 1, cells=cells[2:])])])
    diagnostics = Diagnostics()
    written = json.loads(scitsr.write(doc, diagnostics))["cells"]
    assert [(c["start_row"], c["end_col"], c["content"]) for c in written] == [(2, 1, ["x", "y"]), (3, 0, [])]
    assert "scitsr-cell-left-out" in diagnostics.codes()


def test_a_document_of_several_tables_is_refused():
    doc = Document(tables=[Table(k, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "a")])]) for k in range(2)])
    with pytest.raises(InputError) as caught:
        scitsr.write(doc, Diagnostics())
    assert caught.value.diagnostic.code == "scitsr-tables"


def test_the_command_converts_checks_and_scores_scitsr(tmp_path):
    listed = runner.invoke(app, ["formats"])
    assert any(line.split()[:3] == ["scitsr", "yes", "yes"] for line in listed.output.splitlines()), listed.output
    out = tmp_path / "table-str.xml"
    converted = runner.invoke(app, ["convert", str(CASE), "--to", "icdar", "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    gt = icdar.read(out.read_bytes(), Diagnostics()).document
    assert sorted((c.start_row, c.start_col, c.end_row, c.end_col, c.content) for c in gt.tables[0].cells()) == [
        (0, 0, 1, 0, "Method"), (0, 1, 0, 2, "Training set"), (1, 1, 1, 1, "P"), (1, 2, 1, 2, "R"),
        (2, 0, 2, 0, "Ours~\\cite{x}"), (2, 1, 2, 1, "$95.1$"), (3, 0, 3, 2, "only tex")]
    assert runner.invoke(app, ["check", str(CASE)]).exit_code == 0
    bad = runner.invoke(app, ["check", str(CASES / "scitsr" / "bad-cells-left-out" / "input.json")])
    assert bad.exit_code == 1 and "cell-dropped" in bad.output
    for metric, key in (("structure", "f1"), ("teds", "teds"), ("grits", "grits_top")):
        scored = runner.invoke(app, ["score", "--gt", str(out), "--result", str(CASE), "--metric", metric,
                                     "--format", "json"])
        assert scored.exit_code == 0, scored.output
        assert json.loads(scored.stdout)["total"][key] == 1.0
    # a changed cell costs the relations it takes part in
    changed = json.loads(CASE.read_text())
    changed["cells"][5]["content"] = ["$96.0$"]
    result = tmp_path / "changed.json"
    result.write_text(json.dumps(changed))
    scored = runner.invoke(app, ["score", "--gt", str(out), "--result", str(result), "--format", "json"])
    assert 0 < json.loads(scored.stdout)["total"]["f1"] < 1


def test_per_table_files_are_joined_into_one_document(tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    shutil.copy(CASE, folder / "paper-page-2-table-1.json")
    shutil.copy(CASES / "scitsr" / "bad-cells-left-out" / "input.json", folder / "paper-page-5-table-1.json")
    out = tmp_path / "out"
    result = runner.invoke(app, ["convert", str(folder), "--to", "json", "-o", str(out), "--join"])
    assert result.exit_code == 1, result.output  # the second file's dropped cells are errors, said
    doc = read(out / "paper.json")
    assert [t.page for t in doc.tables] == [2, 5]
    assert [len(t.cells()) for t in doc.tables] == [8, 3]
