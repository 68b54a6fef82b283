"""One-file-per-table exports joined into documents (--join), and pandas'
exports read alike by their HTML and workbook routes."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from convertables import convert, read, score, write
from convertables.cli import app
from convertables.joining import per_table_name
from convertables.model import Table

# Camelot's export(): one file a table, named by the document, its page and its number there.
CAMELOT = {
    "report-page-1-table-1.csv": '"Year","Sales"\n"2019","10"\n"2020","12"\n',
    "report-page-1-table-2.csv": '"Region","Share"\n"North","0.4"\n',
    "report-page-3-table-1.csv": '"Total","22"\n',
    "notes.csv": "this,is,no,table,file\n",  # a side file: not read from a folder
}


def _camelot(folder: Path) -> Path:
    folder.mkdir()
    for name, text in CAMELOT.items():
        (folder / name).write_text(text)
    return folder


def _grid(table: Table) -> list[list[str]]:
    rows: dict[int, dict[int, str]] = {}
    for cell in table.cells():
        rows.setdefault(cell.start_row, {})[cell.start_col] = cell.content
    return [[row[c] for c in sorted(row)] for _, row in sorted(rows.items())]


@pytest.mark.parametrize("name, expected", [
    ("report-page-3-table-2.csv", ("report", 3, 2)),
    ("annual-report-2020-page-12-table-1.html", ("annual-report-2020", 12, 1)),
    ("doc_page_2_table_1.xlsx", ("doc", 2, 1)),
    ("doc_page2_table10.csv", ("doc", 2, 10)),
    ("scan_p4_t2.json", ("scan", 4, 2)),
    ("report.csv", None),
    ("page-1-table-1.csv", None),  # no document's name before
])
def test_per_table_names(name, expected):
    found = per_table_name(Path(name))
    assert (found[:3] if found else None) == expected


def test_a_folder_of_per_table_files_converts_into_one_document(tmp_path: Path):
    folder = _camelot(tmp_path / "camelot")
    report = convert(folder, tmp_path / "out", to_format="icdar", join=True)
    assert report.converted == 1 and not report.failed
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report-str.xml"]
    doc = read(tmp_path / "out" / "report-str.xml")
    assert [t.page for t in doc.tables] == [1, 1, 3]
    assert [_grid(t) for t in doc.tables] == [
        [["Year", "Sales"], ["2019", "10"], ["2020", "12"]], [["Region", "Share"], ["North", "0.4"]], [["Total", "22"]]]
    # the files named on the command line, into one file; the same document
    result = CliRunner().invoke(app, ["convert", *sorted(str(p) for p in folder.glob("report-*")), "--join",
                                      "--to", "json", "-o", str(tmp_path / "report.json")])
    assert result.exit_code == 0, result.output
    assert [_grid(t) for t in read(tmp_path / "report.json").tables] == [_grid(t) for t in doc.tables]
    # without --join each file is a document of its own (and notes.csv is read only when named)
    apart = convert(folder, tmp_path / "apart", to_format="json", from_format="csv")
    assert apart.converted == 4


def test_score_joins_the_results_and_pairs_them_with_the_ground_truth(tmp_path: Path):
    folder = _camelot(tmp_path / "camelot")
    (tmp_path / "gt").mkdir()
    (joined,) = convert(folder, to_format="json", join=True).outcomes  # the ground truth: the export itself
    (tmp_path / "report.json").write_bytes(joined.data)
    write(read(tmp_path / "report.json"), tmp_path / "gt" / "report-str.xml")
    report = score(tmp_path / "gt", folder, join=True)
    assert report.total["f1"] == 1.0 and report.total["gt"] > 0 and report["unpaired"] == {"gt": [], "result": []}
    assert report.documents[0]["document"] == "report"
    # a table lost from the export: its relations are missed
    (folder / "report-page-1-table-2.csv").unlink()
    fewer = score(tmp_path / "gt", folder, join=True)
    assert 0 < fewer.total["recall"] < 1 and fewer.total["precision"] == 1.0
    cli = CliRunner().invoke(app, ["score", "--gt", str(tmp_path / "gt"), "--result", str(folder), "--join",
                                   "--format", "json", "--jobs", "1"])
    assert cli.exit_code == 0 and json.loads(cli.stdout)["total"] == fewer.total
    # without --join the per-table CSVs are not results (not read from folders): the ground truth is unpaired
    assert score(tmp_path / "gt", folder)["unpaired"]["gt"] == [str(tmp_path / "gt" / "report-str.xml")]


# -- pandas: DataFrame.to_html writes a line break in a cell as the two characters \n ------------

# As DataFrame({"name": ["alpha", "beta"], "note": ["line one\nline two", "tab\there"]}).to_html() writes it.
PANDAS_HTML = r"""<table border="1" class="dataframe">
  <thead>
    <tr style="text-align: right;">
      <th></th>
      <th>name</th>
      <th>note</th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <th>0</th>
      <td>alpha</td>
      <td>line one\nline two</td>
    </tr>
    <tr>
      <th>1</th>
      <td>beta</td>
      <td>tab\there</td>
    </tr>
  </tbody>
</table>
"""


def _pandas_workbook(path: Path) -> None:
    """As the same frame's to_excel() writes it: labels bold, the corner empty, text as it is."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for column, label in ((2, "name"), (3, "note")):
        sheet.cell(row=1, column=column, value=label).font = openpyxl.styles.Font(bold=True)
    for row, (name, note) in enumerate((("alpha", "line one\nline two"), ("beta", "tab\there")), start=2):
        sheet.cell(row=row, column=1, value=row - 2).font = openpyxl.styles.Font(bold=True)
        sheet.cell(row=row, column=2, value=name)
        sheet.cell(row=row, column=3, value=note)
    book.save(path)


def test_the_html_and_the_workbook_route_of_one_pandas_export_give_the_same_text(tmp_path: Path):
    (tmp_path / "frame.html").write_text(PANDAS_HTML)
    _pandas_workbook(tmp_path / "frame.xlsx")
    by_html = {(c.start_row, c.start_col): c.content for c in read(tmp_path / "frame.html").tables[0].cells()}
    by_xlsx = {(c.start_row, c.start_col): c.content for c in read(tmp_path / "frame.xlsx").tables[0].cells()}
    assert by_html[(1, 2)] == by_xlsx[(1, 2)] == "line one\nline two"
    assert by_html[(2, 2)] == by_xlsx[(2, 2)] == "tab\there"
    assert {k: v for k, v in by_html.items() if v} == {k: v for k, v in by_xlsx.items() if v}
    # outside pandas' tables a backslash and an n are text
    plain = tmp_path / "plain.html"
    plain.write_text(PANDAS_HTML.replace(' class="dataframe"', ""))
    assert r"line one\nline two" in {c.content for c in read(plain).tables[0].cells()}


def test_a_table_exported_twice_is_joined_once_and_page_0_names_no_page(tmp_path: Path):
    folder = tmp_path / "both"
    folder.mkdir()
    (folder / "doc-page-1-table-1.csv").write_text("a,b\n1,2\n")
    (folder / "doc-page-1-table-1.html").write_text("<table><tr><td>a</td><td>b</td></tr></table>")
    report = convert(folder, tmp_path / "out", to_format="json", join=True)
    (outcome,) = report.outcomes
    assert len(read(tmp_path / "out" / "doc.json").tables) == 1
    assert [d.code for d in outcome.diagnostics if d.code == "join-duplicate"] == ["join-duplicate"]
    assert per_table_name(Path("doc-page-0-table-1.csv")) is None


def test_joined_tables_keep_their_html_skeleton_and_markup(tmp_path: Path):
    from convertables.joining import group, join

    (tmp_path / "report-page-2-table-1.html").write_text(
        "<table><thead><tr><th>Year</th></tr></thead><tr><td><i>2019</i></td></tr></table>")
    (tmp_path / "report-page-1-table-1.html").write_text("<table><tr><td>A</td></tr></table>")
    groups, _ = group(sorted(tmp_path.iterdir()))
    (files,) = groups.values()
    joined = join(files, read)
    assert [t.html_structure for t in joined.tables] == [
        ("<tr>", "<td>", "</td>", "</tr>"),
        ("<thead>", "<tr>", "<th>", "</th>", "</tr>", "</thead>", "<tr>", "<td>", "</td>", "</tr>")]
    assert joined.tables[1].cells()[1].markup == ("<i>", "2", "0", "1", "9", "</i>")
