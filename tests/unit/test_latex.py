"""LaTeX tables (convertables/latex_tables.py, convertables/formats/latex.py): grids
as LaTeXML makes them, OmniDocBench's real tables, the writer, and the command line."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import ReadOptions, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.latex_tables import find_tables
from convertables.model import Cell, Document, Region, Table

runner = CliRunner()
LATEX = registry.FORMATS["latex"]
LATEXML = Path(__file__).resolve().parents[1] / "data" / "latexml"


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def _read(text: str, name: str = "t.tex") -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics(name)
    return read_document(text.encode("utf-8"), LATEX, name, ReadOptions(), diagnostics), diagnostics


def _cells(cells) -> list:
    return sorted([c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in cells)


def _comparable(text: str) -> str:
    """Texts as the comparison with LaTeXML takes them: LaTeXML rewrites math
    (``\\beta_1`` as ``\\beta_{1}``) and citations, and spaces differ."""
    return re.sub(r"[\s{}]+", "", re.sub(r"\\cite\{[^}]*\}", r"\\cite{?}", text))


def _as_latexml_compares(cells) -> list:
    return sorted([r0, c0, r1, c1, _comparable(text)] for r0, c0, r1, c1, text in cells)


# -- LaTeXML: the independent reference ---------------------------------------------------------

EXPECTED = json.loads((LATEXML / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED["tables"]))
def test_the_grid_is_the_one_latexml_makes(name):
    (table,) = find_tables((LATEXML / name).read_text(encoding="utf-8"))
    ours = [[c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells]
    assert _as_latexml_compares(ours) == _as_latexml_compares(EXPECTED["tables"][name])


def test_latexml_grids_hold_what_the_tables_are_about():
    """The recorded grids are not trivial: spans, nested lines, longtable heads, clashes."""
    ablation = {(r0, c0): (r1, c1, t) for r0, c0, r1, c1, t in EXPECTED["tables"]["ablation.tex"]}
    assert ablation[(0, 0)] == (1, 0, "Method") and ablation[(0, 2)] == (0, 4, "COCO")
    assert ablation[(4, 0)] == (5, 0, "Ours") and (5, 0) not in ablation
    nested = {(r0, c0): (r1, c1, t) for r0, c0, r1, c1, t in EXPECTED["tables"]["nested.tex"]}
    assert nested[(0, 0)] == (0, 0, "Model\n(params)") and nested[(3, 0)] == (4, 1, "Average")
    clash = {(r0, c0): (r1, c1, t) for r0, c0, r1, c1, t in EXPECTED["tables"]["clash.tex"]}
    assert clash[(0, 0)] == (1, 0, "Group") and clash[(2, 0)] == (2, 0, "Other")
    longtable = EXPECTED["tables"]["longtable.tex"]
    assert [t for *_, t in longtable] == ["Country", "Population", "GDP", "France", "68.0", "3.05", "Germany",
                                          "84.4", "4.46", "Japan", "124.5", "4.21"]


@pytest.mark.skipif(shutil.which("latexmlc") is None, reason="LaTeXML (latexmlc) is not installed")
@pytest.mark.parametrize("name", sorted(EXPECTED["tables"]))
def test_latexml_itself_makes_the_recorded_grids(name, tmp_path):
    from tests.make_latexml_fixture import PREAMBLE, grid_of

    tex = tmp_path / "t.tex"
    tex.write_text(PREAMBLE + (LATEXML / name).read_text(encoding="utf-8") + "\n\\end{document}\n", encoding="utf-8")
    subprocess.run(["latexmlc", "--quiet", f"--destination={tmp_path / 't.html'}", f"--log={tmp_path / 't.log'}",
                    "--format=html5", str(tex)], check=True, capture_output=True, timeout=120, cwd=tmp_path)
    made = grid_of((tmp_path / "t.html").read_text(encoding="utf-8"))
    (table,) = find_tables((LATEXML / name).read_text(encoding="utf-8"))
    ours = [[c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells]
    assert _as_latexml_compares(ours) == _as_latexml_compares(made)


def test_a_negative_multirow_spans_upwards_to_its_row():
    """LaTeX draws \\multirow{-2} over its row and the one above; LaTeXML writes
    rowspan="-2", which HTML reads as 1: here the grid follows LaTeX."""
    (table,) = find_tables("\\begin{tabular}{lcc}\n & a & b \\\\\n & c & d \\\\\n\\multirow{-2}{*}{neg} & e & f "
                           "\\\\\n\\end{tabular}")
    assert _cells(table.cells) == sorted([[0, 0, 0, 0, ""], [0, 1, 0, 1, "a"], [0, 2, 0, 2, "b"],
                                          [1, 0, 2, 0, "neg"], [1, 1, 1, 1, "c"], [1, 2, 1, 2, "d"],
                                          [2, 1, 2, 1, "e"], [2, 2, 2, 2, "f"]])
    assert table.warnings == []


# -- real tables: OmniDocBench's annotations (each table as LaTeX and as HTML) -------------------

def _omnidocbench_tables(corpus) -> list[dict]:
    pages = json.loads(corpus("markdown-pages", "omnidocbench", "OmniDocBench_demo_table.json").read_text())
    return [block for page in pages for block in page["layout_dets"] if block["category_type"] == "table"]


def test_omnidocbench_latex_annotations_read_with_the_spans_of_their_html_twins(corpus):
    html = registry.FORMATS["html"].reader()
    blocks = _omnidocbench_tables(corpus)
    assert len(blocks) == 10
    same = 0
    for block in blocks:
        (table,) = find_tables(block["latex"])
        twin = html(block["html"].encode("utf-8"), Diagnostics()).document.tables[0].cells()
        spans = sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in table.cells)
        same += spans == sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in twin)
    # the one that differs: its HTML twin has a 12th row the LaTeX lacks (an annotation slip)
    assert same == 9


def test_omnidocbench_cells_multirow_under_multicolumn_and_math(corpus):
    first, second, *_ = _omnidocbench_tables(corpus)
    (table,) = find_tables(first["latex"])
    cells = {(c.start_row, c.start_col): c for c in table.cells}
    assert (cells[0, 0].end_row, cells[0, 0].content) == (1, "PAHs compounds")
    assert (cells[0, 1].end_col, cells[0, 1].content) == (3, "% Recovery $\\pm$ RSD")
    assert cells[2, 1].content == "68.3 $\\pm$ 19.7" and cells[17, 3].content == "85 $\\pm$ 7.9"
    assert len(table.cells) == 69
    (table,) = find_tables(second["latex"])
    cells = {(c.start_row, c.start_col): c for c in table.cells}
    assert (cells[0, 0].end_row, cells[0, 0].end_col, cells[0, 0].content) == (1, 1, "参数")
    assert (1, 0) not in cells and (1, 1) not in cells  # the \multicolumn{2}{|c|}{} under it
    assert (cells[2, 0].end_row, cells[2, 0].content) == (5, "高度/cm")
    assert cells[2, 2].content == "105$\\sim$126"


# -- details of the body ------------------------------------------------------------------------

def test_rules_comments_escapes_spacing_and_markup():
    text = ("\\begin{tabular}{ll} % columns\n\\toprule\n\\textbf{A \\& B} & 50\\% {\\it x} \\\\[2pt]\n"
            "\\cmidrule(lr){1-2}\\addlinespace[3pt]\n\\'Ecole~X & \\textsuperscript{a}1 \\\\*\n"
            "% a & commented & row \\\\\n\\bottomrule\n\\end{tabular}")
    doc, _ = _read(text)
    cells = {(c.start_row, c.start_col): c for c in doc.tables[0].cells()}
    assert [cells[k].content for k in sorted(cells)] == ["A & B", "50% x", "\u00c9cole X", "a1"]
    assert cells[0, 0].markup == ("<b>", "A", " ", "&", " ", "B", "</b>")
    assert cells[0, 1].markup == ("5", "0", "%", " ", "<i>", "x", "</i>")
    assert cells[1, 1].markup == ("<sup>", "a", "</sup>", "1")


def test_kin_environments_and_text_outside_them():
    text = ("Some text with & and \\\\ outside.\n\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}lr}"
            "a & b\\\\\\end{tabular*}\n$$\\begin{array}{cc} x & y \\\\ z & w \\end{array}$$\n"
            "\\begin{tabularx}{5cm}{lX}\\multicolumn{2}{c}{all} \\tabularnewline c & d\\end{tabularx}")
    doc, _ = _read(text)
    assert [_cells(t.cells()) for t in doc.tables] == [
        [[0, 0, 0, 0, "a"], [0, 1, 0, 1, "b"]],
        [[0, 0, 0, 0, "x"], [0, 1, 0, 1, "y"], [1, 0, 1, 0, "z"], [1, 1, 1, 1, "w"]],
        [[0, 0, 0, 1, "all"], [1, 0, 1, 0, "c"], [1, 1, 1, 1, "d"]],
    ]


def test_bad_spans_and_an_unclosed_environment_are_reported_at_their_line():
    text = "x\n\n\\begin{tabular}{ll}\n\\multicolumn{x}{c}{a} & \\multirow{99999}{*}{b} \\\\\nc & d\n"
    doc, diagnostics = _read(text)
    assert _cells(doc.tables[0].cells()) == [[0, 0, 0, 0, "a"], [0, 1, 0, 1, "b"], [1, 0, 1, 0, "c"],
                                            [1, 1, 1, 1, "d"]]
    found = sorted((d.code, d.line) for d in diagnostics if d.code.startswith("latex"))
    assert found == [("latex-span", 3), ("latex-span", 3), ("latex-unclosed", 3)]


def test_a_multirow_past_the_last_row_ends_at_it():
    (table,) = find_tables("\\begin{tabular}{ll}x & \\multirow{5}{*}{long} \\\\ y & \\\\ \\end{tabular}")
    assert _cells(table.cells) == [[0, 0, 0, 0, "x"], [0, 1, 1, 1, "long"], [1, 0, 1, 0, "y"]]


def test_a_file_without_tables_reads_as_a_document_without_tables():
    doc, diagnostics = _read("\\section{Intro}\nNo tables here.\n")
    assert doc.tables == [] and "latex-no-tables" in diagnostics.codes()


# -- writing ------------------------------------------------------------------------------------

def _doc(*cells: Cell) -> Document:
    return Document(tables=[Table(0, [Region(0, 1, cells=list(cells))])])


def test_the_writer_writes_spans_escapes_and_line_breaks_that_read_back():
    doc = _doc(Cell(0, 0, 1, 0, "a&b % $x$"), Cell(0, 1, 0, 2, "--[1]"), Cell(1, 1, 1, 1, "two\nlines"),
               Cell(1, 2, 1, 2, "\\{~^_#}"), Cell(2, 0, 2, 1, "x", markup=("<b>", "x", "</b>")),
               Cell(3, 2, 3, 2, "''q``"))
    written = LATEX.writer()(doc, Diagnostics())
    assert b"\\multirow{2}{*}{a\\&b \\% $x$}" in written and b"\\textbf{x}" in written
    back, _ = _read(written.decode("utf-8"))
    got = {(c.start_row, c.start_col, c.end_row, c.end_col): c.content for c in back.tables[0].cells()}
    for cell in doc.tables[0].cells():
        assert got[cell.start_row, cell.start_col, cell.end_row, cell.end_col] == cell.content
    assert [c.markup for c in back.tables[0].cells() if c.content == "x"] == [("<b>", "x", "</b>")]


def test_overlapping_cells_are_left_out_with_a_warning():
    diagnostics = Diagnostics()
    LATEX.writer()(_doc(Cell(0, 0, 1, 1, "big"), Cell(1, 1, 1, 1, "under")), diagnostics)
    assert diagnostics.codes() == ["latex-overlap"]


# -- sniffing and the command line ---------------------------------------------------------------

def test_the_sniffer_wants_a_backslash_first():
    assert LATEX.sniff(b"% a comment\n\n\\begin{tabular}{l} a \\end{tabular}")
    assert LATEX.sniff(b"\\documentclass{article}")
    assert not LATEX.sniff(b"Some text\n\\begin{tabular}{l} a \\end{tabular}")
    assert registry.sniffed(b"\\begin{table}\\centering\\begin{tabular}{l}a\\end{tabular}") is LATEX


def test_convert_score_and_check_through_the_command_line(tmp_path):
    gt = tmp_path / "gt.tex"
    gt.write_text((LATEXML / "results.tex").read_text(encoding="utf-8"), encoding="utf-8")
    pred = tmp_path / "pred.txt"  # (named so that content, not the suffix, says LaTeX)
    pred.write_text(gt.read_text().replace("84.5", "84.6"), encoding="utf-8")
    result = invoke("convert", gt, "--to", "icdar", "-o", tmp_path / "gt-str.xml")
    assert result.exit_code == 0, result.output
    assert "<content>Accuracy (%)</content>" in (tmp_path / "gt-str.xml").read_text()
    scores = {}
    for metric in ("teds", "grits", "structure"):
        outcome = invoke("score", "--gt", gt, "--result", pred, "--metric", metric, "--format", "json")
        assert outcome.exit_code == 0, outcome.output
        scores[metric] = json.loads(outcome.stdout)
    assert 0.9 < scores["teds"]["documents"][0]["tables"][0]["teds"] < 1
    structure = scores["structure"]["total"]
    # the changed cell's four links are lost
    assert structure["gt"] == structure["detected"] and structure["correct"] == structure["gt"] - 4
    checked = invoke("check", gt, "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert "latex" in invoke("formats").output


def test_a_file_in_utf16_or_windows_1252():
    for data in ("\\begin{tabular}{l} é \\end{tabular}".encode("utf-16"),
                 "\\begin{tabular}{l} é \\end{tabular}".encode("windows-1252")):
        doc = read_document(data, LATEX, "t.tex", ReadOptions(), Diagnostics("t.tex"))
        assert _cells(doc.tables[0].cells()) == [[0, 0, 0, 0, "é"]]


def test_blank_lines_between_rows_are_rows_but_not_after_the_last():
    (table,) = find_tables("\\begin{tabular}{l}\na \\\\\n\\\\\nb \\\\\n\\hline\n\\end{tabular}")
    assert _cells(table.cells) == [[0, 0, 0, 0, "a"], [1, 0, 1, 0, ""], [2, 0, 2, 0, "b"]]


def test_a_split_corner_cell_gives_both_texts():
    (table,) = find_tables("\\begin{tabular}{ll}\\diagbox[width=3em]{Model}{Data} & x \\\\ a & b \\end{tabular}")
    assert [c.content for c in table.cells] == ["Model Data", "x", "a", "b"]


def test_verb_textcircled_and_single_quotes_read_as_latex_sets_them():
    """\\verb gives its text as written (accents and commands in it are not
    read), \\textcircled a combining circle as LaTeXML writes it, and a single
    quote or backquote the typographic one, as ``''`` and ` `` ` already do."""
    (table,) = find_tables("\\begin{tabular}{ll}\n\\verb|{\\\"a}| & {\\\"a} \\\\\n\\verb*+\\citep+ & "
                           "step^\\textcircled{2} \\\\\nit's `x' & ``y'' \\\\\n\\end{tabular}")
    assert [c.content for c in table.cells] == ["{\\\"a}", "\u00e4", "\\citep", "step^2\u20dd",
                                                "it\u2019s \u2018x\u2019", "\u201cy\u201d"]


def test_the_writer_keeps_single_quotes_as_written():
    doc = _doc(Cell(0, 0, 0, 0, "don't `q'"), Cell(0, 1, 0, 1, "x'' y"))
    written = LATEX.writer()(doc, Diagnostics())
    assert b"don\\textquotesingle{}t" in written
    back, _ = _read(written.decode("utf-8"))
    assert [c.content for c in back.tables[0].cells()] == ["don't `q'", "x'' y"]
