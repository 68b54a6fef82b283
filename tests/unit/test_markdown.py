"""Markdown pages (convertables/formats/markdown.py): the tables opendataloader-bench
finds in its parsers' pages, MinerU's and olmOCR's pages, each dialect's details,
the writer, and the command line."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import ReadOptions, registry
from convertables.cli import app
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.model import Cell, Document, Region, Table

runner = CliRunner()
MARKDOWN = registry.FORMATS["markdown"]
FOUND_BY_THE_BENCHMARK = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "opendataloader_tables.json").read_text(encoding="utf-8"))["pages"]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def _read(text: str, name: str = "page.md", **options) -> tuple[Document, Diagnostics]:
    diagnostics = Diagnostics(name)
    return read_document(text.encode("utf-8"), MARKDOWN, name, ReadOptions(**options), diagnostics), diagnostics


def _grid(table: Table) -> dict:
    return {(c.start_row, c.start_col): c for c in table.cells()}


def _cells(table: Table) -> list:
    return sorted([c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells())


# -- opendataloader-bench: every page of the ground truth and of seven parsers ------------------

def _as_the_benchmark_compares(text: str) -> str:
    """A text as the fixture keeps the benchmark's: Markdown's marks (which the
    benchmark leaves in a pipe cell's text) and escapes out, whitespace collapsed."""
    text = re.sub(r"[*_`]", "", re.sub(r"\\(.)", r"\1", re.sub(r"\s+", " ", text).strip()))
    return re.sub(r"\s+", " ", text).strip()


def _as_the_benchmark_records(table: Table) -> dict:
    """A table as tests/make_opendataloader_fixture.py records the benchmark's:
    each row's cells' [colspan, rowspan], and a digest of their texts."""
    cells = table.cells()
    rows: list[list] = [[] for _ in range(max((c.end_row for c in cells), default=-1) + 1)]
    texts: list[list] = [[] for _ in rows]
    for cell in sorted(cells, key=lambda c: (c.start_row, c.start_col)):
        rows[cell.start_row].append([cell.col_span, cell.row_span])
        texts[cell.start_row].append(_as_the_benchmark_compares(cell.content))
    digest = hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode("utf-8")).hexdigest()
    return {"rows": rows, "texts_sha256": digest}


@pytest.mark.parametrize("page", sorted(FOUND_BY_THE_BENCHMARK))
def test_each_page_reads_with_the_tables_the_benchmark_finds(page, corpus):
    path = corpus("markdown-pages", "opendataloader-bench", page)
    doc = read_document(path.read_bytes(), MARKDOWN, path.name, ReadOptions(), Diagnostics(path.name))
    assert [_as_the_benchmark_records(t) for t in doc.tables] == FOUND_BY_THE_BENCHMARK[page]


def test_the_benchmark_pages_hold_every_dialect_and_engine():
    pages = FOUND_BY_THE_BENCHMARK
    assert len(pages) == 96 and sum(len(t) for t in pages.values()) == 98
    engines = {page.split("/")[1] for page in pages if page.startswith("pred/")}
    assert engines == {"docling", "marker", "markitdown", "mineru", "opendataloader", "opendataloader-hybrid",
                       "pymupdf4llm"}
    assert sum(len(row) for tables in pages.values() for t in tables for row in t["rows"]) == 2703
    spans = [cell for tables in pages.values() for t in tables for row in t["rows"] for cell in row
             if cell != [1, 1]]
    assert spans  # MinerU's rowspan=2 among them


def test_one_page_as_each_parser_writes_it(corpus):
    def read(engine: str) -> Table:
        folder = "gt" if engine == "gt" else f"pred/{engine}"
        path = corpus("markdown-pages", "opendataloader-bench", *folder.split("/"), "01030000000045.md")
        doc = read_document(path.read_bytes(), MARKDOWN, path.name, ReadOptions(), Diagnostics())
        (table,) = doc.tables
        return table

    gt = _grid(read("gt"))  # an HTML table, each tag on a line of its own
    assert gt[1, 1].content == "Union of Youth Federations of Cambodia (UYFC)" and gt[8, 2].content == "27,926"
    docling = _grid(read("docling"))  # a padded pipe table
    assert docling[0, 2].content == "Number of accredited observers" and docling[0, 2].header
    assert docling[8, 0].content == "" and not docling[8, 0].header
    marker = _grid(read("marker"))  # <br> in pipe cells
    assert marker[0, 2].content == "Number of accredited\nobservers"
    assert marker[0, 2].markup[-12:] == ("d", "<br>", "</br>", *"observers")
    mineru = _grid(read("mineru"))  # one line of HTML with unquoted attributes
    assert mineru[2, 1].content == "Cambodian Women for Peace andDevelopment" and len(mineru) == 27
    pymupdf = _grid(read("pymupdf4llm"))  # **bold** in pipe cells
    assert pymupdf[2, 2].content == "27,926" and pymupdf[2, 2].markup == ("<b>", *"27,926", "</b>")


def test_mineru_unquoted_rowspans(corpus):
    path = corpus("markdown-pages", "opendataloader-bench", "pred", "mineru", "01030000000090.md")
    doc = read_document(path.read_bytes(), MARKDOWN, path.name, ReadOptions(), Diagnostics())
    spanning = [c for t in doc.tables for c in t.cells() if c.row_span == 2]
    assert spanning and spanning[0].content == "Y"


def test_mineru_documentation_page_tables_outside_its_code_blocks(corpus):
    """MinerU's own Markdown (its docs on its output files): eight pipe tables, and a
    content_list example whose table_body HTML sits in a fenced code block."""
    path = corpus("parsers", "mineru", "output_files.md")
    doc = read_document(path.read_bytes(), MARKDOWN, path.name, ReadOptions(), Diagnostics())
    assert len(doc.tables) == 8
    assert [c.content for c in doc.tables[0].cells()][:4] == ["Field Name", "Type", "Description", "pdf_info"]
    assert doc.tables[0].cells()[3].markup == ("<code>", *"pdf_info", "</code>")
    assert not any(c.content in ("Site", "Percentile") for t in doc.tables for c in t.cells())


def test_omnidocbench_predicted_tables_read_with_the_grids_of_their_normalised_html(corpus):
    """OmniDocBench's end-to-end run: each table as the model wrote it, read inside a
    page, has the spans of OmniDocBench's own normalised HTML of it."""
    path = corpus("markdown-pages", "omnidocbench", "end2end_quick_match_table_result.json")
    html = registry.FORMATS["html"].reader()
    entries = json.loads(path.read_text(encoding="utf-8"))
    assert len(entries) == 10
    for entry in entries:
        (ours,) = MARKDOWN.reader()(("Page text.\n\n" + entry["pred"]).encode("utf-8"), Diagnostics()).document.tables
        (theirs,) = html(entry["norm_pred"].encode("utf-8"), Diagnostics()).document.tables
        assert sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in ours.cells()) == \
            sorted((c.start_row, c.start_col, c.end_row, c.end_col) for c in theirs.cells())


# -- olmOCR-bench: its table tests' facts hold in the grids ---------------------------------------

def _fact_holds(test: dict, table: Table) -> bool:
    """One of olmOCR-bench's table facts, checked on a grid with exact text: the
    cell's neighbours on each side, its column's heading (a cell of the first
    row over its column) and its row's heading (the first column's cell)."""
    grid = _grid(table)
    for (y, x), cell in grid.items():
        if cell.content != test["cell"]:
            continue
        neighbours = {"left": grid.get((y, x - 1)), "right": grid.get((y, x + cell.col_span)),
                      "up": grid.get((y - 1, x)), "down": grid.get((y + cell.row_span, x))}
        if not all(neighbours[side] is not None and neighbours[side].content == test[side]
                   for side in neighbours if test.get(side)):
            continue
        if test.get("top_heading") and not any(c.start_row == 0 and c.start_col <= x <= c.end_col and
                                               c.content == test["top_heading"] for c in table.cells()):
            continue
        if test.get("left_heading") and not (grid.get((y, 0)) and grid[y, 0].content == test["left_heading"]):
            continue
        return True
    return False


def test_olmocr_table_facts_hold_where_its_own_test_passes(corpus):
    folder = corpus("markdown-pages", "olmocr-bench")
    official = {entry["id"]: entry["passed"] for entry in
                json.loads((folder / "official_tabletest_results_on_olmocr_pipeline_md.json").read_text())}
    tests = [json.loads(line) for line in (folder / "table_tests.jsonl").read_text().splitlines() if line.strip()]
    held = {}
    for test in tests:
        page = folder / (test["pdf"].removesuffix(".pdf") + "_pg1_repeat1.md")
        doc = read_document(page.read_bytes(), MARKDOWN, page.name, ReadOptions(), Diagnostics())
        held[test["id"]] = any(_fact_holds(test, table) for table in doc.tables)
    assert len(held) == 20 and sum(official.values()) == 17
    assert held == official


# -- pipe tables --------------------------------------------------------------------------------

def test_pipe_table_details():
    text = ("Intro text | with a pipe.\n\n| a | b \\| c | `x\\|y` |\n|:--|:-:|--:|\n| **B** | _i_ &amp; x | 1<br>2 |\n"
            "| short |\n| 1 | 2 | 3 | 4 |\nlazy line\n# Heading | not a row\n")
    doc, diagnostics = _read(text)
    (table,) = doc.tables
    grid = _grid(table)
    assert [grid[0, x].content for x in range(3)] == ["a", "b | c", "x|y"]
    assert all(grid[0, x].header for x in range(3)) and not grid[1, 0].header
    assert (grid[1, 0].content, grid[1, 0].markup) == ("B", ("<b>", "B", "</b>"))
    assert (grid[1, 1].content, grid[1, 1].markup) == ("i & x", ("<i>", "i", "</i>", " ", "&", " ", "x"))
    assert grid[1, 2].content == "1\n2" and grid[0, 2].markup == ("<code>", "x", "|", "y", "</code>")
    assert [grid[2, x].content for x in range(3)] == ["short", "", ""]
    assert [grid[3, x].content for x in range(3)] == ["1", "2", "3"]  # the fourth cell left out
    assert [grid[4, x].content for x in range(3)] == ["lazy line", "", ""]  # GitHub's lazy row
    assert len({c.start_row for c in table.cells()}) == 5
    assert [(d.code, d.line) for d in diagnostics if d.code.startswith("markdown")] == [("markdown-ragged", 3)]


def test_an_empty_header_row_is_no_row_and_a_mismatched_delimiter_no_table():
    doc, diagnostics = _read("| | |\n|---|---|\n| a | b |\n\n| x | y |\n|---|\n| 1 | 2 |\n")
    (table,) = doc.tables
    assert _cells(table) == [[0, 0, 0, 0, "a"], [0, 1, 0, 1, "b"]] and not any(c.header for c in table.cells())
    assert "markdown-empty-header" in diagnostics.codes()


# -- HTML and LaTeX tables in a page, code and comments, pages ------------------------------------

def test_dialects_in_order_and_what_holds_no_tables():
    text = ("# Results\n\n<div><table><tr><td rowspan=2>A</td><td>b<table><tr><td>in</td></tr></table></td></tr>"
            "<tr><td>c</td></tr></table></div>\n\n```\n| no | table |\n|---|---|\n<table><tr><td>no</td></tr></table>\n"
            "```\n\n<!-- <table><tr><td>no</td></tr></table> -->\n\n"
            "\\begin{tabular}{|l|c|}\\hline \\multirow{2}{*}{X} & 1 \\\\ \\cline{2-2} & 2 \\\\ \\hline"
            "\\end{tabular}\n\n"
            "$$\\begin{array}{cc} a & b \\end{array}$$\n\n| p | q |\n|---|---|\n| 1 | 2 |\n")
    doc, _ = _read(text)
    assert [_cells(t) for t in doc.tables] == [
        [[0, 0, 1, 0, "A"], [0, 1, 0, 1, "b"], [1, 1, 1, 1, "c"]],
        [[0, 0, 0, 0, "in"]],  # a table inside a table is a table of its own
        [[0, 0, 1, 0, "X"], [0, 1, 0, 1, "1"], [1, 1, 1, 1, "2"]],
        [[0, 0, 0, 0, "p"], [0, 1, 0, 1, "q"], [1, 0, 1, 0, "1"], [1, 1, 1, 1, "2"]],
    ]
    assert [t.id for t in doc.tables] == [0, 1, 2, 3]


def test_page_marks_of_parsers_set_the_pages():
    text = ("| a |\n|---|\n| 1 |\n\n<!-- page break -->\n\n| b |\n|---|\n| 2 |\n\f\n"
            "<table><tr><td>c</td></tr></table>\n"
            "\n{6}------------------------------------------------\n\n| d |\n|---|\n| 4 |\n")
    doc, _ = _read(text)
    assert [t.page for t in doc.tables] == [1, 2, 3, 7]
    doc, _ = _read("| a |\n|---|\n| 1 |\n", page=4)
    assert doc.tables[0].page == 4


def test_an_unclosed_html_table_is_read_to_the_end_with_a_warning():
    doc, diagnostics = _read("text\n\n<table><tr><td>a</td><td>b\n")
    assert _cells(doc.tables[0]) == [[0, 0, 0, 0, "a"], [0, 1, 0, 1, "b"]]
    assert [(d.code, d.line) for d in diagnostics if d.code == "markdown-unclosed"] == [("markdown-unclosed", 3)]


def test_a_page_without_tables_is_a_document_without_tables():
    doc, _ = _read("Just text.\n\nNo table | here.\n")
    assert doc.tables == []


def test_a_huge_pipe_table_is_refused():
    text = "|" + "a|" * 20000 + "\n|" + "-|" * 20000 + "\n" + "|x|\n" * 600
    with pytest.raises(InputError) as caught:
        _read(text)
    assert caught.value.diagnostic.code == "markdown-too-large"


# -- writing ------------------------------------------------------------------------------------

def _doc(*tables: list[Cell]) -> Document:
    return Document(tables=[Table(k, [Region(0, 1, cells=list(cells))]) for k, cells in enumerate(tables)])


def test_the_writer_chooses_pipe_or_html_and_reads_back():
    plain = [Cell(0, 0, 0, 0, "h|1", header=True), Cell(0, 1, 0, 1, "*h2*", header=True),
             Cell(1, 0, 1, 0, "two\nlines"), Cell(1, 1, 1, 1, "a_b & <c>")]
    spanning = [Cell(0, 0, 1, 0, "tall"), Cell(0, 1, 0, 1, "x"), Cell(1, 1, 1, 1, "y & z")]
    headless = [Cell(0, 0, 0, 0, "1"), Cell(0, 1, 0, 1, "2")]
    written = MARKDOWN.writer()(_doc(plain, spanning, headless), Diagnostics()).decode("utf-8")
    assert written.startswith("| h\\|1 | \\*h2\\* |\n|---|---|\n| two<br>lines | a\\_b \\& &lt;c> |\n")
    assert '<td rowspan="2">tall</td>' in written and "| |  |" not in written
    back, _ = _read(written)
    assert [_cells(t) for t in back.tables] == [_cells(Table(0, [Region(0, cells=c)])) for c in
                                                (plain, spanning, headless)]
    assert [c.header for c in back.tables[0].cells()] == [True, True, False, False]


def _as_written(table: Table) -> list:
    return [(c.start_row, c.start_col, c.end_row, c.end_col, c.content, c.header, c.markup) for c in table.cells()]


def test_an_html_block_holds_what_the_html_writer_holds():
    """Header rows in <thead>, a header cell outside them, markup, a hole: as the html format writes them."""
    cells = [Cell(0, 0, 0, 0, "Name", header=True), Cell(0, 1, 0, 2, "Dose", header=True),
             Cell(1, 1, 1, 1, "x2", markup=("x", "<sup>", "2", "</sup>")), Cell(1, 2, 1, 2, "y"),
             Cell(2, 0, 2, 0, "b", header=True), Cell(2, 1, 2, 2, "z")]
    source = _doc(cells)
    written = MARKDOWN.writer()(source, Diagnostics()).decode("utf-8")
    assert written.startswith("<table>\n<thead>\n<tr><td>Name</td><td colspan=\"2\">Dose</td></tr>\n</thead>\n"
                              "<tbody>\n<tr><td></td><td>x<sup>2</sup></td><td>y</td></tr>\n"
                              "<tr><td scope=\"row\">b</td><td colspan=\"2\">z</td></tr>\n</tbody>\n</table>")
    back, said = _read(written)
    assert "format-mismatch" not in {d.code for d in said}  # (a page that is one HTML block is Markdown's)
    table = back.tables[0]
    hole = [c for c in table.cells() if (c.start_row, c.start_col) == (1, 0)]
    assert [(c.content, c.header) for c in hole] == [("", False)]  # (the hole, as HTML has it: an empty <td>)
    assert [e for e in _as_written(table) if e[:2] != (1, 0)] == sorted(_as_written(source.tables[0]))
    html = registry.FORMATS["html"].writer()(source, Diagnostics()).decode("utf-8")
    from_html = read_document(html.encode(), registry.FORMATS["html"], "x.html")
    assert table.html_structure == from_html.tables[0].html_structure


def test_a_pipe_table_only_where_it_holds_the_table_exactly():
    def written(*cells: Cell) -> str:
        return MARKDOWN.writer()(_doc(list(cells)), Diagnostics()).decode("utf-8")

    assert written(Cell(0, 0, 0, 0, "a*"), Cell(0, 1, 0, 1, "b|c")).startswith("| | |\n|---|---|\n| a\\* | b\\|c |")
    for cells in ([Cell(0, 0, 0, 0, " lead"), Cell(0, 1, 0, 1, "x")],  # whitespace Markdown does not keep
                  [Cell(0, 0, 0, 0, "a  b"), Cell(0, 1, 0, 1, "x")],
                  [Cell(0, 0, 0, 0, "a"), Cell(1, 1, 1, 1, "hole before")],  # a hole would read back as a cell
                  [Cell(0, 0, 0, 0, "H", header=True, markup=("<i>", "H", "</i>")), Cell(1, 0, 1, 0, "x")]):
        page = written(*cells)
        assert page.startswith("<table>"), page
        back, _ = _read(page)
        # (the HTML table model keeps raw whitespace in a cell's tokens, which TEDS compares)
        assert {(c.start_row, c.start_col, "".join(c.markup or c.content)) for c in back.tables[0].cells()} >= \
            {(c.start_row, c.start_col, "".join(c.markup or c.content)) for c in cells}


def test_a_table_of_cells_without_text_reads_back_through_the_command(tmp_path):
    source = tmp_path / "t.json"
    doc = _doc([Cell(0, 0, 0, 1, None), Cell(1, 0, 1, 0, None), Cell(1, 1, 1, 1, None)])
    source.write_bytes(registry.FORMATS["json"].writer()(doc, Diagnostics()))
    assert invoke("convert", source, "--to", "markdown", "-o", tmp_path / "t.md").exit_code == 0
    assert (tmp_path / "t.md").read_text().startswith("<table>")
    back = invoke("convert", tmp_path / "t.md", "--from", "markdown", "--to", "json", "-o", tmp_path / "back.json")
    assert back.exit_code == 0, back.output
    cells = json.loads((tmp_path / "back.json").read_text())
    assert "format-mismatch" not in back.output
    scored = json.loads(invoke("score", "--gt", source, "--result", tmp_path / "t.md", "--metric", "teds",
                               "--format", "json").stdout)
    assert scored["total"]["teds"] == 1.0 and cells


def test_tables_on_later_pages_are_written_after_page_breaks():
    doc = Document(tables=[Table(0, [Region(0, 2, cells=[Cell(0, 0, 0, 0, "a")])])])
    written = MARKDOWN.writer()(doc, Diagnostics())
    assert written.startswith(b"<!-- page break -->\n\n")
    back, _ = _read(written.decode())
    assert back.tables[0].page == 2


# -- sniffing and the command line ---------------------------------------------------------------

def test_the_sniffer():
    assert MARKDOWN.sniff(b"# Title\n\n| a | b |\n|---|:-:|\n")
    assert MARKDOWN.sniff(b"Some text\n\n<table><tr><td>x</td></tr></table>")
    assert MARKDOWN.sniff(b"Text first\n\\begin{tabular}{l} a \\end{tabular}")
    assert not MARKDOWN.sniff(b"<table><tr><td>x</td></tr></table>")  # HTML's
    assert not MARKDOWN.sniff(b'{"a": "| x |\\n|---|"}')
    assert registry.sniffed(b"Some text\n\n<table><tr><td>x</td></tr></table>") is MARKDOWN


def test_convert_score_and_check_through_the_command_line(tmp_path):
    gt = tmp_path / "gt.md"
    gt.write_text("Page text.\n\n<table><tr><th colspan=2>Head</th></tr><tr><td>1</td><td>2</td></tr>"
                  "<tr><td>3</td><td>4</td></tr></table>\n", encoding="utf-8")
    pred = tmp_path / "pred.txt"  # (named so that content, not the suffix, says Markdown)
    pred.write_text("Text.\n\n| Head | |\n|---|---|\n| 1 | 2 |\n| 3 | 5 |\n", encoding="utf-8")
    result = invoke("convert", gt, "--to", "icdar", "-o", tmp_path / "gt-str.xml")
    assert result.exit_code == 0, result.output
    xml = (tmp_path / "gt-str.xml").read_text()
    assert "<content>Head</content>" in xml and 'end-col="1"' in xml
    scores = {}
    for metric in ("teds", "grits", "structure"):
        outcome = invoke("score", "--gt", gt, "--result", pred, "--metric", metric, "--format", "json")
        assert outcome.exit_code == 0, outcome.output
        scores[metric] = json.loads(outcome.stdout)
    assert 0.5 < scores["teds"]["documents"][0]["tables"][0]["teds"] < 1
    total = scores["structure"]["total"]
    assert (total["gt"], total["detected"], total["correct"]) == (6, 5, 3)
    same = invoke("score", "--gt", gt, "--result", gt, "--metric", "teds", "--format", "json")
    assert json.loads(same.stdout)["documents"][0]["tables"][0]["teds"] == 1.0
    checked = invoke("check", gt, pred, "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert "markdown" in invoke("formats").output


def test_a_page_in_utf16_with_its_byte_order_mark():
    data = "Text.\r\n\r\n| a | é |\r\n|---|---|\r\n| 1 | 2 |\r\n".encode("utf-16")
    doc = read_document(data, MARKDOWN, "page.md", ReadOptions(), Diagnostics("page.md"))
    assert _cells(doc.tables[0]) == [[0, 0, 0, 0, "a"], [0, 1, 0, 1, "é"], [1, 0, 1, 0, "1"], [1, 1, 1, 1, "2"]]
