"""The omnidocbench profile (score --profile omnidocbench): OmniDocBench's end-to-end
table figures from the same files its evaluator reads, through the real command;
and the parts it is made of (its normalised HTML, its finding of a page's tables,
the JSON array container).

The figures written here as literals are those OmniDocBench's own code gave
(github.com/opendatalab/OmniDocBench as forked at pichiu/OmniDocBench, commit
7bd6c2ebdb7676e6fd251b0e695e15e09cf3ab5d: its End2EndDataset with quick_match,
call_TEDS and call_Edit_dist, and utils/data_preprocess.py's
normalized_html_table), run unmodified on the inputs written here."""

from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.containers import json_array_members
from convertables.omnidocbench import edit_distance, normalised_html, page_tables


def _run(*arguments: str) -> dict:
    out = CliRunner().invoke(app, ["score", *arguments, "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def _tables(report: dict) -> dict:
    return {(d["document"], k): t for d in report["documents"] for k, t in enumerate(d.get("tables") or ())}


# -- its demo run ---------------------------------------------------------------------------------

def test_the_profile_gives_each_tables_figures_of_its_demo_run(corpus):
    folder = corpus("markdown-pages", "omnidocbench")
    stored = json.loads((folder / "end2end_quick_match_table_result.json").read_text(encoding="utf-8"))
    report = _run("--gt", str(folder / "OmniDocBench_demo.json"), "--result", str(folder / "end2end_pred_md"),
                  "--profile", "omnidocbench")
    tables = _tables(report)
    assert len(stored) == 10 and len(tables) == 10
    for table in stored:
        mine = tables[(table["img_id"].rsplit(".", 1)[0], table["gt_idx"][0])]
        assert mine["teds"] == pytest.approx(table["metric"]["TEDS"], abs=1e-9)
        assert mine["teds_struct"] == pytest.approx(table["metric"]["TEDS_structure_only"], abs=1e-9)
        assert mine["edit_dist"] == pytest.approx(table["metric"]["Edit_dist"], abs=1e-9)
        assert mine["edit"] == [table["Edit_num"], table["upper_len"]]


def test_the_profile_gives_its_summary_figures(corpus):
    folder = corpus("markdown-pages", "omnidocbench")
    summary = json.loads((folder / "end2end_quick_match_metric_result.json").read_text(encoding="utf-8"))
    figures = summary["table"]["all"]
    total = _run("--gt", str(folder / "OmniDocBench_demo.json"), "--result", str(folder / "end2end_pred_md"),
                 "--profile", "omnidocbench")["total"]
    assert total["tables"] == 10
    assert total["teds"] == pytest.approx(figures["TEDS"]["all"], abs=1e-9)
    assert total["teds_struct"] == pytest.approx(figures["TEDS_structure_only"]["all"], abs=1e-9)
    assert total["edit_dist"] == pytest.approx(figures["Edit_dist"]["ALL_page_avg"], abs=1e-9)
    # every table has the attribute include_photo: False, so its group's mean is the mean over tables
    assert total["edit_dist_table_mean"] == pytest.approx(
        summary["table"]["group"]["Edit_dist"]["include_photo: False"], abs=1e-9)
    # its figures by the tables' attributes and by the pages' (the stored run also wrote a variance, which
    # OmniDocBench at this commit does not compute)
    _assert_figures(total["group"], summary["table"]["group"])
    _assert_figures(total["page"], {k: v for k, v in summary["table"]["page"].items() if k != "Edit_dist_var"})


def _assert_figures(mine: dict, theirs: dict) -> None:
    assert mine.keys() == theirs.keys()
    for figure, by_label in theirs.items():
        assert mine[figure].keys() == by_label.keys(), figure
        for label, value in by_label.items():
            assert mine[figure][label] == pytest.approx(value, abs=1e-9), (figure, label)


def test_its_normalisation_of_the_raw_strings_gives_its_stored_ones(corpus):
    folder = corpus("markdown-pages", "omnidocbench")
    stored = json.loads((folder / "end2end_quick_match_table_result.json").read_text(encoding="utf-8"))
    for table in stored:
        assert normalised_html(table["gt"]) == table["norm_gt"]
        assert normalised_html(table["pred"]) == table["norm_pred"]
        assert edit_distance(table["norm_gt"], table["norm_pred"]) == (table["Edit_num"], table["upper_len"])


# -- hand-made pages --------------------------------------------------------------------------------

def _t(body: str) -> str:
    return "<table>" + body + "</table>"


HAND_PAGES = {
    # spans, <th>, empty cells, inline tags, against a pipe table with a colon in a cell
    "p01": ([_t('<thead><tr><th>Name</th><th colspan="2">Score</th></tr></thead><tbody><tr><td rowspan="2">a</td>'
                "<td>1</td><td></td></tr><tr><td><b>2</b></td><td>x<sup>2</sup></td></tr></tbody>")],
            "Intro text\n\n| Name | Score | |\n|---|---|---|\n| a | 1 | |\n| | **2** | x: 2 |\n\nAfter.\n"),
    # two tables each side, in the other order
    "p02": ([_t("<tr><td>alpha</td><td>beta</td></tr><tr><td>gamma</td><td>delta</td></tr>"),
             _t("<tr><td>1</td><td>2</td><td>3</td></tr>")],
            _t("<tr><td>1</td><td>2</td><td>4</td></tr>") + "\n\n"
            + _t("<tr><td>alpha</td><td>beta</td></tr><tr><td>gama</td><td>delta</td></tr>") + "\n"),
    # a table missing from the prediction; an extra predicted table
    "p03": ([_t("<tr><td>only</td></tr>"), _t("<tr><td>second</td><td>table</td></tr>")],
            _t("<tr><td>only</td></tr>") + "\n"),
    "p04": ([_t("<tr><td>x</td></tr>")],
            _t("<tr><td>x</td></tr>") + "\n\n" + _t("<tr><td>extra</td><td>table</td></tr>") + "\n"),
    # more LaTeX than HTML tables: the page's tables score as missing
    "p05": ([_t("<tr><td>a</td><td>b</td></tr>")],
            "\\begin{tabular}{cc} a & b \\\\ \\end{tabular}\n\n\\begin{tabular}{c} q \\end{tabular}\n\n"
            + _t("<tr><td>a</td><td>b</td></tr>") + "\n"),
    # as many LaTeX as HTML tables: the HTML one is scored
    "p06": ([_t("<tr><td>a</td><td>b</td></tr>")],
            "\\begin{tabular}{cc} a & b \\\\ \\end{tabular}\n\n" + _t("<tr><td>a</td><td>c</td></tr>") + "\n"),
    # whitespace, full-width characters, entities, span/div, math, style attributes
    "p07": ([_t('<tr>\n  <td style="x">\uff26\uff55\uff4c\uff4c\u3000\uff57\uff49\uff44\uff54\uff48</td>\n  '
                '<td>a&amp;b &lt;c&gt;</td>\n</tr>\n<tr><td><span class="k">s</span> <div>d</div></td><td>'
                '<math alttext="x^2"><mi>x</mi></math></td></tr>')],
            '<table border="1"><tr><td>Full width</td>   <td>a&b <c></td></tr><tr><td> s d </td><td>$x^2$</td>'
            "</tr></table>\n"),
    # a span int() cannot read: its TEDS fails, the pair scores 0
    "p08": ([_t('<tr><td colspan="2">wide</td></tr><tr><td>a</td><td>b</td></tr>')],
            '<table><tr><td colspan="2.0">wide</td></tr><tr><td>a</td><td>b</td></tr></table>\n'),
    # a table nested in a cell; a page without a predicted table
    "p09": ([_t("<tr><td>outer<table><tr><td>in</td></tr></table></td><td>b</td></tr>")],
            "<table><tr><td>outer<table><tr><td>in</td></tr></table></td><td>c</td></tr></table>\n"),
    "p10": ([_t("<tr><td>lonely</td></tr>")], "No table here, just text.\n"),
    # no prediction file: the page is left out
    "p11": ([_t("<tr><td>unseen</td></tr>")], None),
    # a dashed cell is taken for a delimiter row by its pipe-table converter
    "p12": ([_t("<tr><td>h1</td><td>h2</td></tr><tr><td>v1</td><td>---</td></tr><tr><td>v3</td><td>v4</td></tr>")],
            "| h1 | h2 |\n| --- | --- |\n| v1 | --- |\n| v3 | v4 |\n"),
    # two empty tables: its TEDS divides by zero, the pair scores 0
    "p13": ([_t("")], "<table></table>\n"),
    # no ground-truth table: not scored
    "p14": ([], _t("<tr><td>stray</td></tr>") + "\n"),
    # malformed prediction HTML (stray text where tags were, an unknown <t2> element): scored on the tree
    # PubTabNet's TEDS reads
    "p16": (["<table><tr><th>\u5408\u8ba1</th></tr><tr><td>---</td></tr>\n<tr><td><b>b</b></td></tr>\n<tr><td>1</td>"
             '</tr>\n<tr><td>n<table><tr><td colspan="x">in</td></tr></table></td></tr></table>'],
            "<table>ytr><th>\u5408\u8ba1</th></tr><tr><td>---</td></tr>\n<tr><t2><b>b</b></td></tr>\n<tr><td>1</td></tr>"
            '\n<tr><td>n<table> tr><td colspan="x">in</td></tr></table></td></tr></table>\n\n# Title\n'),
    # a page that starts with a LaTeX table (and a table environment): read, its table scored as missing
    "p17": (['<table><tr><td>a b</td><td>&amp;</td></tr>  <tr><td colspan="">x<sup>2</sup></td><td style="x">b</td>'
             "</tr>\n</table>"],
            "\\begin{tabular}{cc} a & b \\\\ \\end{tabular}\n\n\\begin{table}\\begin{tabular}{c} q \\end{tabular}"
            "\\end{table}\n\n$$ a | b $$\n"),
    # three ground-truth tables, two predicted
    "p15": ([_t("<tr><td>r1</td><td>r2</td></tr>"), _t("<tr><td>r1</td><td>r2</td></tr><tr><td>r3</td><td>r4</td></tr>"),
             _t("<tr><td>zzz</td></tr>")],
            _t("<tr><td>r1</td><td>r2</td></tr><tr><td>r3</td><td>r5</td></tr>") + "\n\n"
            + _t("<tr><td>r1</td><td>r9</td></tr>") + "\n"),
}

# (page, ground-truth table): its TEDS, TEDS_structure_only, Edit_dist
HAND_FIGURES = {
    ("p01", 0): (0.5636363636363637, 0.7272727272727273, 0.5083333333333333),
    ("p02", 0): (0.9666666666666667, 1.0, 0.007936507936507936),
    ("p02", 1): (0.75, 1.0, 0.010869565217391304),
    ("p03", 0): (1.0, 1.0, 0.0),
    ("p03", 1): (0.0, 0.0, 1.0),
    ("p04", 0): (1.0, 1.0, 0.0),
    ("p05", 0): (0.0, 0.0, 1.0),
    ("p06", 0): (0.6666666666666667, 1.0, 0.012195121951219513),
    ("p07", 0): (0.9428571428571428, 1.0, 0.050359712230215826),
    ("p08", 0): (0.0, 0.0, 0.01694915254237288),
    ("p09", 0): (0.8333333333333334, 1.0, 0.008264462809917356),
    ("p10", 0): (0.0, 0.0, 1.0),
    ("p12", 0): (0.8888888888888888, 0.8888888888888888, 0.47843137254901963),
    ("p13", 0): (0.0, 0.0, 0.0),
    ("p15", 0): (0.8333333333333334, 1.0, 0.011904761904761904),
    ("p15", 1): (0.9166666666666666, 1.0, 0.008695652173913044),
    ("p15", 2): (0.0, 0.0, 1.0),
    ("p16", 0): (0.7532467532467533, 0.7857142857142857, 0.06829268292682927),
    ("p17", 0): (0.0, 0.0, 1.0),
}
HAND_GROUP = {"Edit_dist": {"language: en": 0.32538064871449907}, "TEDS": {"language: en": 0.5323839902787271},
              "TEDS_structure_only": {"language: en": 0.600098731677679}, "sample_count": {"language: en": 19}}
HAND_PAGE = {"Edit_dist": {"ALL": 0.33190541331614193, "language: english": 0.33190541331614193},
             "TEDS": {"ALL": 0.506019721019721, "language: english": 0.506019721019721},
             "TEDS_structure_only": {"ALL": 0.5712361712361712, "language: english": 0.5712361712361712}}
HAND_SUMMARY = {"TEDS": 0.5323839902787271, "TEDS_structure_only": 0.600098731677679,
                "ALL_page_avg": 0.33190541331614193, "edit_whole": 0.334043459735833,
                "edit_sample_avg": 0.32538064871449907}


@pytest.fixture
def hand_pages(tmp_path):
    pages = []
    (tmp_path / "pred").mkdir()
    for name, (tables, markdown) in HAND_PAGES.items():
        blocks = [{"category_type": "table", "anno_id": k, "order": k + 1, "html": html,
                   "latex": "\\begin{tabular}{c}x\\end{tabular}", "attribute": {"language": "en"}}
                  for k, html in enumerate(tables)]
        blocks.append({"category_type": "text_block", "anno_id": 99, "order": 50, "text": "Intro text"})
        pages.append({"layout_dets": blocks, "page_info": {"image_path": f"images/{name}.jpg",
                                                           "page_attribute": {"language": "english"}},
                      "extra": {"relation": []}})
        if markdown is not None:
            (tmp_path / "pred" / f"{name}.md").write_text(markdown, encoding="utf-8")
    (tmp_path / "gt.json").write_text(json.dumps(pages, indent=1), encoding="utf-8")
    return tmp_path


def test_the_profile_gives_its_figures_on_hand_made_pages(hand_pages):
    out = CliRunner().invoke(app, ["score", "--gt", str(hand_pages / "gt.json"), "--result",
                                   str(hand_pages / "pred"), "--profile", "omnidocbench", "--format", "json",
                                   "--jobs", "1"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    tables = _tables(report)
    assert set(tables) == set(HAND_FIGURES)
    for key, (teds, teds_s, edit) in HAND_FIGURES.items():
        mine = tables[key]
        assert (mine["teds"], mine["teds_struct"], mine["edit_dist"]) == pytest.approx((teds, teds_s, edit), abs=1e-9)
    total = report["total"]
    assert total["tables"] == 19
    assert total["teds"] == pytest.approx(HAND_SUMMARY["TEDS"], abs=1e-9)
    assert total["teds_struct"] == pytest.approx(HAND_SUMMARY["TEDS_structure_only"], abs=1e-9)
    assert total["edit_dist"] == pytest.approx(HAND_SUMMARY["ALL_page_avg"], abs=1e-9)
    assert total["edit_dist_pooled"] == pytest.approx(HAND_SUMMARY["edit_whole"], abs=1e-9)
    assert total["edit_dist_table_mean"] == pytest.approx(HAND_SUMMARY["edit_sample_avg"], abs=1e-9)
    _assert_figures(total["group"], HAND_GROUP)
    _assert_figures(total["page"], HAND_PAGE)
    documents = {d["document"]: d for d in report["documents"]}
    assert "skipped" in documents["p11"] and documents["p14"]["tables"] == []
    # the pairs its TEDS fails on are said, and the page it scores no table of
    assert "omnidocbench-teds-failed" in json.dumps(documents["p08"]) + json.dumps(documents["p13"])


def test_the_latex_page_and_a_failing_pair_are_said(hand_pages):
    out = CliRunner().invoke(app, ["score", "--gt", str(hand_pages / "gt.json"), "--result",
                                   str(hand_pages / "pred"), "--profile", "omnidocbench", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    assert "omnidocbench-teds-failed" in out.output
    assert "int cannot read" in out.output and "no element inside either table" in out.output


# -- the parts --------------------------------------------------------------------------------------

@pytest.mark.parametrize("source, expected", [
    # whitespace-only texts: one with a line break vanishes, one without is one space
    ("<table>\n <tr>\n  <td> a </td>\n  <td>\t</td> <td>\n</td></tr></table>",
     '<html><body><table border="1" ><tr><td> a </td><td> </td> <td></td></tr></table></body></html>'),
    # th as td, thead and tbody out, attributes sorted, class and style dropped
    ('<table class="c" style="w"><thead><tr><th rowspan="2" colspan="3">H</th></tr></thead><tbody><tr><td>1</td>'
     "</tr></tbody></table>",
     '<html><body><table border="1" ><tr><td colspan="3" rowspan="2">H</td></tr><tr><td>1</td></tr></table>'
     "</body></html>"),
    # span unwrapped, math as its alt text, sup and p tags dropped
    ('<table><tr><td><span>s</span><math alttext="a+b"><mi>a</mi></math> x<sup>2</sup><p>p</p></td></tr></table>',
     '<html><body><table border="1" ><tr><td>s$a+b$ x2p</td></tr></table></body></html>'),
    # entities decoded twice, an unknown one loses its semicolon, windows-1252 numbers, NFKC, quoting
    ("<table><tr><td>&amp;lt; &foo; &#150; \uff26</td><td title='say \"hi\"'>q</td></tr></table>",
     '<html><body><table border="1" ><tr><td>&lt; &foo \u2013 F</td><td title=\'say "hi"\'>q</td></tr></table>'
     "</body></html>"),
    ("no table here", ""),
    # unclosed cells nest; from the first table's start to the last table's end
    ("text before <table><tr><td>a<td>b</tr></table> after <table><tr><td>c</td></tr></table>",
     '<html><body><table border="1" ><tr><td>a<td>b</td></td></tr></table> after <table><tr><td>c</td></tr>'
     "</table></body></html>"),
])
def test_normalised_html_is_its_normalisation(source, expected):
    assert normalised_html(source) == expected


def test_page_tables_finds_what_it_finds():
    page = ("# T\n\n| a | b:c |\n|---|---|\n| 1 | 2 |\n\n$$ x | y $$\n\n<table><tr><td>h</td></tr></table>\n\n"
            "\\begin{tabular}{c} q \\end{tabular}\n")
    latex, html = page_tables(page)
    assert latex == ["\\begin{tabular}{c} q \\end{tabular}\n"]
    # (its order: by where each was found, a pipe table's place counted in the page its converter rewrote)
    assert html[1] == "<table><tr><td>h</td></tr></table>"
    # the pipe rows, their colon cell gone with the delimiter row, each cell colspan/rowspan 1
    assert html[0] == ('<table border="1" >\n    <tr>\n      <td colspan="1" rowspan="1">a</td>\n    </tr>\n'
                       '    <tr>\n      <td colspan="1" rowspan="1">1</td>\n      <td colspan="1" rowspan="1">2</td>'
                       "\n    </tr>\n</table>")


def test_json_array_members_are_its_objects():
    data = b'[{"page_info": {"image_path": "a/p1.jpg"}, "t": "]}\\""},\n 3, [1, 2], {"x": "{"}]'
    found = list(json_array_members(io.BytesIO(data), lambda b: json.loads(b).get("page_info", {}).get("image_path")
                                    if isinstance(json.loads(b), dict) else None))
    assert [m.name for m in found] == ["a/p1.jpg", "element-2", "element-3"]
    assert [json.loads(data[m.offset:m.offset + m.length]) for m in found][2] == {"x": "{"}
    assert found[1].line == 2


def test_edit_distance_is_levenshtein_over_the_longer_length():
    assert edit_distance("kitten", "sitting") == (3, 7)
    assert edit_distance("", "") == (0, 0)


def test_reference_tree_is_the_tree_pubtabnets_teds_reads():
    from convertables.scoring.teds_edit import reference_tree

    tree, fails = reference_tree('<html><body><table border="1" ><tr><td colspan="2">a<!--c-->b<i>x</i>y</td>'
                                 '<td rowspan="2.0"></td></tr></table></body></html>')
    assert tree.tags == ["td", "td", "tr", "table"] and tree.parent == [2, 2, 3, -1]
    assert tree.tokens[0] == ("a", "b", "<i>", "x", "</i>", "y") and tree.spans[0] == (2, 1)
    assert tree.elements == 4  # tr, two td, i
    assert fails  # rowspan="2.0": int() cannot read it
    # a fragment (no <html> first) holds no table lxml.html's TEDS reads
    assert reference_tree("<table><tr><td>a</td></tr></table>") == (None, False)


def test_teds_edit_scores_tables_other_readings_read(tmp_path):
    # Tables read as HTML and as Markdown are written as HTML by convertables, then normalised as
    # OmniDocBench does: the <th> is a <td>, the pipe table's header a row of <td>.
    (tmp_path / "gt").mkdir()
    (tmp_path / "result").mkdir()
    (tmp_path / "gt" / "x.html").write_text('<table><tr><th>a</th><td colspan="2">b c</td></tr></table>')
    (tmp_path / "result" / "x.md").write_text("| a | b c |\n|---|---|\n")
    report = _run("--gt", str(tmp_path / "gt"), "--result", str(tmp_path / "result"), "--metric", "teds-edit")
    table = report["documents"][0]["tables"][0]
    # <tr><td>a</td><td colspan="2">b c</td></tr> against <tr><td>a</td><td>b c</td></tr>: the second cell's
    # span differs (rename 1) of 3 elements; the strings differ by ' colspan="2"' (12 characters)
    assert table["teds"] == pytest.approx(1 - 1 / 3) and table["teds_struct"] == pytest.approx(1 - 1 / 3)
    gt = '<html><body><table border="1" ><tr><td>a</td><td colspan="2">b c</td></tr></table></body></html>'
    assert table["edit"] == [12, len(gt)]


def test_labels_are_its_group_names():
    from convertables.omnidocbench import attribute_labels, page_labels

    assert attribute_labels({"with_span": True, "language": "table_en"}) == ["language: table_en", "with_span: True"]
    assert attribute_labels(None) == []
    # list values give their items, but those naming tables; ALL is every page
    assert page_labels({"language": "english", "special_issue": ["fuzzy_scan", "table_rotate"]}) == [
        "ALL", "fuzzy_scan", "language: english"]


def test_hostile_pages_are_read_or_refused_quickly(tmp_path):
    # Many unclosed openers make OmniDocBench's patterns look at the rest of the page for each; here each
    # character is looked at about once, and a page whose unclosed tables would make its scan start again
    # too often is refused (markdown-too-large), the other pages still scored.
    (tmp_path / "pred").mkdir()
    pages = {"h1": "\\[" * 50_000, "h2": "![" * 50_000, "h3": "<table><tr><td>x</td></tr></table>\n\n" + "<table" * 20_000,
             "h4": "<table>" * 30_000, "h5": "<td>" * 30_000 + "<table><tr><td>x</td></tr></table>"}
    gt = []
    for name, markdown in pages.items():
        (tmp_path / "pred" / f"{name}.md").write_text(markdown)
        gt.append({"layout_dets": [{"category_type": "table", "order": 1,
                                    "html": "<table><tr><td>x</td></tr></table>"}],
                   "page_info": {"image_path": f"{name}.jpg"}})
    (tmp_path / "gt.json").write_text(json.dumps(gt))
    out = CliRunner().invoke(app, ["score", "--gt", str(tmp_path / "gt.json"), "--result", str(tmp_path / "pred"),
                                   "--profile", "omnidocbench", "--format", "json", "--jobs", "1"])
    assert out.exit_code == 1  # (h4's error)
    report = json.loads(out.stdout)
    documents = {d["document"]: d for d in report["documents"]}
    assert "markdown-too-large" in documents["h4"]["error"]
    assert documents["h3"]["tables"][0]["teds"] == 1.0  # ("<table" with no ">" after it opens no table)
    assert documents["h1"]["tables"][0]["teds"] == 0.0 and documents["h5"]["table_count"] == 1
