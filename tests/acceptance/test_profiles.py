"""Benchmark profiles (score --profile): each benchmark's own figures from the
same files, through the real command; and the parts they are made of."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from convertables import score
from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats.opendataloader_markdown import pipe_tables_as_html, read, table_sources
from convertables.formats.html import read as read_html
from convertables.scoring.teds import joined_tree, normalised_text, table_tree

ENGINES = ("docling", "marker", "markitdown", "mineru", "opendataloader", "opendataloader-hybrid", "pymupdf4llm")


def _run(*arguments: str) -> dict:
    out = CliRunner().invoke(app, ["score", *arguments, "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# -- opendataloader-bench -------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_opendataloader_profile_gives_the_benchmarks_own_figures(engine, corpus):
    pages = corpus("markdown-pages", "opendataloader-bench")
    expected = json.loads((pages / "expected.json").read_text(encoding="utf-8"))["cases"]
    report = _run("--gt", str(pages / "gt"), "--result", str(pages / "pred" / engine), "--profile", "opendataloader")
    assert report["settings"]["pairing"] == "joined" and report["settings"]["th_text"] == "as-td"
    figures = {d["document"]: (d["teds"], d["teds_struct"]) for d in report["documents"]}
    wanted = {key.split("/")[0]: (value["teds"], value["teds_s"]) for key, value in expected.items()
              if key.endswith("/" + engine)}
    assert figures.keys() == wanted.keys() and len(wanted) == 12
    for page, (teds, teds_s) in wanted.items():
        assert figures[page][0] == pytest.approx(teds, abs=1e-9), page
        assert figures[page][1] == pytest.approx(teds_s, abs=1e-9), page
    assert report["total"]["teds"] == pytest.approx(sum(t for t, _ in wanted.values()) / 12, abs=1e-9)


def test_a_setting_given_beside_a_profile_overrides_it(corpus):
    pages = corpus("markdown-pages", "opendataloader-bench")
    report = _run("--gt", str(pages / "gt"), "--result", str(pages / "pred" / "docling"), "--profile",
                  "opendataloader", "--aggregate", "table", "--th-text", "compare")
    assert report["settings"]["aggregate"] == "table" and report["settings"]["th_text"] == "compare"
    assert report["settings"]["pairing"] == "joined"


def test_unknown_profile_and_another_metric_are_refused(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("| a |\n|---|\n| 1 |\n")
    for options, message in ((["--profile", "nope"], "unknown profile 'nope'"),
                             (["--profile", "opendataloader", "--metric", "grits"], "scores with --metric teds")):
        out = CliRunner().invoke(app, ["score", "--gt", str(page), "--result", str(page), *options])
        assert out.exit_code == 2
        assert message in out.output


def test_opendataloader_profile_on_pages_made_by_hand(tmp_path):
    gt, result = tmp_path / "gt", tmp_path / "result"
    gt.mkdir()
    result.mkdir()
    # Two tables on the page: one tree, <table> over the two tables (2 elements),
    # each of a row (1) and its cells. gt: 2 + (1 + 2) + (1 + 1) = 7 elements.
    (gt / "a.md").write_text("# Title\n\n| x | y |\n|---|---|\n\ntext\n\n<table><tr><td>z</td></tr></table>\n")
    (result / "a.md").write_text("| x | y |\n|:-:|---|\n\n<table><tr><td>w</td></tr></table>\n")
    # No table in the ground truth: not scored. No table in the result: 0.
    (gt / "b.md").write_text("no table\n")
    (result / "b.md").write_text("| x |\n|---|\n")
    (gt / "c.md").write_text("| x |\n|---|\n| 1 |\n")
    (result / "c.md").write_text("nothing\n")
    report = _run("--gt", str(gt), "--result", str(result), "--profile", "opendataloader")
    documents = {d["document"]: d for d in report["documents"]}
    # a: the same trees, one cell renamed z -> w at cost 1: TEDS 1 - 1/7, TEDS-S 1.
    assert documents["a"]["teds"] == pytest.approx(1 - 1 / 7) and documents["a"]["teds_struct"] == 1.0
    assert documents["b"]["tables"] == []
    assert (documents["c"]["teds"], documents["c"]["teds_struct"]) == (0.0, 0.0)
    assert report["total"]["teds"] == pytest.approx((1 - 1 / 7 + 0) / 2)  # over the two pages scored


# -- the parts --------------------------------------------------------------------------------------

def test_pipe_tables_as_the_benchmark_converts_them():
    page = ("intro | not a table\n"
            "| A | B | C |\n| --- | --- | --- | --- | --- |\n| 1 | 2 |\n| 1 | 2 | 3 | 4 | 5 | 6 |\n"
            "\n|  |  |\n|---|---|\n| **h** | <i>&amp; |\n| x | y |\n")
    assert pipe_tables_as_html(page) == (
        "intro | not a table\n"
        # a header of three cells spreads its middle cell; short rows padded, long ones cut
        "<table><tr><th>A</th><th>B</th><th>B</th><th>B</th><th>C</th></tr>"
        "<tr><td>1</td><td>2</td><td></td><td></td><td></td></tr>"
        "<tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td></tr></table>\n"
        "\n"
        # an empty header gives way to the first row; the text stays as written, escaped
        "<table><tr><th>**h**</th><th>&lt;i&gt;&amp;amp;</th></tr><tr><td>x</td><td>y</td></tr></table>\n")


def test_every_table_element_in_the_order_they_start():
    text = ("```\n<table><tr><td>in code</td></tr></table>\n```\n<!-- <table></table> -->\n"
            "<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table>\n<TABLE><tr><td>open")
    assert table_sources(text) == [
        "<table><tr><td>in code</td></tr></table>",
        "<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table>",
        "<TABLE><tr><td>open",
    ]
    # the table inside another is a table too, after it
    doc = read(text.encode(), Diagnostics("x"))
    assert [[c.content for c in t.cells()] for t in doc.tables] == [["in code"], [""], ["inner"], ["open"]]


def test_a_page_of_too_many_pipe_cells_is_refused(tmp_path):
    page = tmp_path / "wide.md"
    page.write_text("|" + "a|" * 2000 + "\n|" + "-|" * 2000 + "\n" + "| 1 |\n" * 600)
    out = CliRunner().invoke(app, ["convert", str(page), "--from", "opendataloader-markdown", "--to", "json",
                                   "-o", str(tmp_path / "out.json")])
    assert out.exit_code == 1
    assert "markdown-too-large" in out.output and "more than 1,000,000 cells" in out.output


def test_normalised_cell_text():
    assert normalised_text(("a", "<br>", "</br>", "b", " ", " ", "&", "a", "m", "p", ";", "\xa0")) == "a </br>b &"


def test_joined_tree_and_th_as_td_and_row_groups_dropped():
    doc = read_html(b"<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>b</td></tr></tbody></table>"
                    b"<table><tr><td>c</td></tr></table>", Diagnostics("x")).document
    first = table_tree(doc.tables[0], th_as_td=True, drop_groups=True)
    assert first.tags == ["td", "tr", "td", "tr", "table"] and first.elements == 4
    kept = table_tree(doc.tables[0])
    assert kept.tags == ["th", "tr", "thead", "td", "tr", "tbody", "table"]
    joined = joined_tree([first, table_tree(doc.tables[1], drop_groups=True)])
    assert joined.tags == ["td", "tr", "td", "tr", "table", "td", "tr", "table", "table"]
    assert joined.parent == [1, 4, 3, 4, 8, 6, 7, 8, -1]
    assert joined.elements == 4 + 1 + 2 + 1


def test_cell_text_normalised_changes_the_rename_cost():
    gt = read_html(b"<table><tr><td>a  b</td></tr></table>", Diagnostics("x")).document
    result = read_html(b"<table><tr><td>a b</td></tr></table>", Diagnostics("x")).document
    assert score(gt, result, metric="teds").total["teds"] == pytest.approx(1 - (1 / 4) / 2)
    assert score(gt, result, metric="teds", cell_text="normalised").total["teds"] == 1.0
