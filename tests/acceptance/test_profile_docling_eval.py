"""The docling-eval profile (score --profile docling-eval) through the real command:
its figures against those docling-eval's own TableEvaluator gave on the same files,
and the general parts it is made of against hand-computed values.

The official figures below came from docling-eval 1.4.2 (PyPI; TableEvaluator run
unmodified on a dataset of these documents) with docling-core 2.104.0, apted 1.0.3,
Distance 0.1.3 and lxml 5.4.0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables.cli import app
from convertables.diagnostics import Diagnostics
from convertables.formats.docling import read as read_docling
from convertables.formats.doctags import read as read_doctags
from convertables.formats.html import read as read_html
from convertables.model import Cell, Region, Table
from convertables.scoring.profiles import PROFILES
from convertables.scoring.table_similarity import statistics_of
from convertables.scoring.teds import PreparedTree, docling_tree, table_tree, teds_pair


def _run(*arguments: str) -> dict:
    out = CliRunner().invoke(app, ["score", *arguments, "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# -- hand-made DoclingDocuments -------------------------------------------------------------------

def _cell(r0, c0, text, rs=1, cs=1, ch=False, rh=False):
    return {"row_span": rs, "col_span": cs, "start_row_offset_idx": r0, "end_row_offset_idx": r0 + rs,
            "start_col_offset_idx": c0, "end_col_offset_idx": c0 + cs, "text": text,
            "column_header": ch, "row_header": rh, "row_section": False}


def _grid(rows, header_rows=0):
    return [_cell(r, c, t, ch=r < header_rows) for r, row in enumerate(rows) for c, t in enumerate(row)
            if t is not None]


def _document(name: str, tables: list[dict]) -> dict:
    texts, items = [], []
    for k, table in enumerate(tables):
        captions = []
        for text in table.get("captions", ()):
            texts.append({"self_ref": f"#/texts/{len(texts)}", "parent": {"$ref": f"#/tables/{k}"}, "children": [],
                          "content_layer": "body", "label": "caption", "prov": [], "orig": text, "text": text})
            captions.append({"$ref": texts[-1]["self_ref"]})
        cells = table["cells"]
        items.append({"self_ref": f"#/tables/{k}", "parent": {"$ref": "#/body"}, "children": captions,
                      "content_layer": "body", "label": table.get("label", "table"),
                      "prov": [{"page_no": table.get("page", 1), "bbox": {"l": 10, "t": 10 + 100 * k, "r": 300,
                                                                          "b": 90 + 100 * k, "coord_origin": "TOPLEFT"},
                                "charspan": [0, 0]}],
                      "captions": captions, "references": [], "footnotes": [],
                      "data": {"table_cells": cells,
                               "num_rows": table.get("rows", max((c["end_row_offset_idx"] for c in cells), default=0)),
                               "num_cols": table.get("cols", max((c["end_col_offset_idx"] for c in cells), default=0))}})
    root = {"children": [], "content_layer": "body", "name": "_root_", "label": "unspecified"}
    return {"schema_name": "DoclingDocument", "version": "1.3.0", "name": name,
            "furniture": {**root, "self_ref": "#/furniture", "content_layer": "furniture"},
            "body": {**root, "self_ref": "#/body", "children": [{"$ref": t["self_ref"]} for t in items]},
            "groups": [], "texts": texts, "pictures": [], "tables": items, "key_value_items": [], "form_items": [],
            "pages": {"1": {"size": {"width": 612, "height": 792}, "page_no": 1},
                      "2": {"size": {"width": 612, "height": 792}, "page_no": 2}}}


A = {"cells": [_cell(0, 0, "Year", ch=True, rs=2), _cell(0, 1, "Revenue", ch=True, cs=2), _cell(1, 1, "Q1", ch=True),
               _cell(1, 2, "Q2", ch=True), _cell(2, 0, "2020", rh=True), _cell(2, 1, "10.5"), _cell(2, 2, "11"),
               _cell(3, 0, "2021", rh=True), _cell(3, 1, "12"), _cell(3, 2, "")],
     "captions": ["Table 1: Revenue by quarter."]}
A_SPLIT = {"cells": _grid([["Year", "Revenue", ""], ["", "Q1", "Q2"], ["2020", "10.5", "11"], ["2021", "12", "13"]], 2)}
B = {"cells": _grid([["a", "b", None], [None, "  c  ", "d"], ["e & f", "<b>g</b>", "x<y"]]), "rows": 4, "cols": 4}
B_PRED = {"cells": _grid([["a", "b", ""], ["", "c", "d"], ["e &amp; f", "g", "x<y"]])}
T1 = {"cells": _grid([["h1", "h2"], ["1", "2"]], 1), "captions": ["first"]}
T2 = {"cells": _grid([["x", "y", "z"], ["1", "2", "3"], ["4", "5", "6"]]), "page": 2}
T3 = {"cells": [_cell(0, 0, "merged", cs=3), _cell(1, 0, "p"), _cell(1, 1, "q"), _cell(1, 2, "r")],
      "captions": ["c1", "c2"]}
NO_ROWS = {"cells": [], "rows": 0, "cols": 0}

CASES = {  # name: (ground truth, prediction: tables or DocTags)
    "spans": ([A], [A_SPLIT]),
    "spans_same_caption": ([A], [{**A_SPLIT, "captions": ["Table 1"]}]),
    "identical": ([A], [A]),
    "holes_declared": ([B], [B_PRED]),
    "whitespace": ([{"cells": _grid([["one two", "three\nfour"], ["five", " six "]])}],
                   [{"cells": _grid([["one  two", "three four"], ["fiv", "six"]])}]),
    "several": ([T1, T2, T3], [T2, T1, {**T3, "captions": []}]),
    "missing": ([T1, T2], [T1]),
    "extra": ([T1], [T1, T2]),
    "empty_table": ([T1, NO_ROWS], [T1, T2]),
    "caption_only": ([{**NO_ROWS, "captions": ["only a caption"]}], [T1]),
    "no_tables": ([], []),
    "big_pred_grid": ([T2], [{"cells": T2["cells"], "rows": 5, "cols": 3}]),
    "zero_declared": ([T2], [{"cells": T2["cells"], "rows": 0, "cols": 0}]),
    "overlap": ([T2], [{"cells": [_cell(0, 0, "x", cs=2), _cell(0, 1, "y"), *T2["cells"][3:]]}]),
    "doc_index": ([{**T2, "label": "document_index"}, T1], [T2, T1]),
    "header_as_td": ([{"cells": _grid([["a", "b"], ["c", "d"]], 1)}], [{"cells": _grid([["a", "b"], ["c", "d"]])}]),
    "doctags_caption": ([A], "<doctag><otsl><loc_10><loc_10><loc_200><loc_100><caption><loc_10><loc_5><loc_200>"
                             "<loc_9>Table 1: Revenue.</caption><ched>Year<ched>Revenue<lcel><nl><ucel><ched>Q1"
                             "<ched>Q2<nl><rhed>2020<fcel>10.5<fcel>11<nl><rhed>2021<fcel>12<ecel><nl></otsl>"
                             "</doctag>"),
    "doctags_nocaption": ([A], "<doctag><otsl><loc_10><loc_10><loc_200><loc_100><fcel>Year<fcel>Revenue<fcel>x<nl>"
                               "<fcel>y<fcel>Q1<fcel>Q2<nl><fcel>2020<fcel>10.5<fcel>11<nl></otsl></doctag>"),
    "doctags_two": ([T1, T2], "<doctag><otsl><loc_1><loc_1><loc_9><loc_9><ched>h1<ched>h2<nl><fcel>1<fcel>2<nl>"
                              "</otsl><page_break><otsl><loc_1><loc_1><loc_9><loc_9><fcel>x<fcel>y<fcel>z<nl>"
                              "<fcel>1<fcel>2<fcel>3<nl></otsl></doctag>"),
}

OFFICIAL = {  # docling-eval's (TEDS, structure-only TEDS, is_complex) of each table it scored
    "big_pred_grid": {0: (0.619, 0.619, False)},
    "caption_only": {0: (0.222, 0.222, False)},
    "doctags_caption": {0: (1.0, 1.0, True)},
    "doctags_nocaption": {0: (0.412, 0.647, True)},
    "doctags_two": {0: (0.778, 0.778, False), 1: (0.692, 0.692, False)},
    "doc_index": {1: (1.0, 1.0, False)},
    "empty_table": {0: (1.0, 1.0, False)},
    "header_as_td": {0: (1.0, 1.0, False)},
    "holes_declared": {0: (0.556, 0.619, False)},
    "identical": {0: (1.0, 1.0, True)},
    "overlap": {0: (0.846, 0.923, False)},
    "several": {0: (0.231, 0.385, False), 1: (0.231, 0.385, False), 2: (0.7, 0.7, True)},
    "spans": {0: (0.588, 0.647, True)},
    "spans_same_caption": {0: (0.737, 0.789, True)},
    "whitespace": {0: (0.932, 1.0, False)},
}
OFFICIAL_STATISTICS = {  # its TEDS, TEDS_struct, TEDS_simple, TEDS_complex: total, mean, median, std, hist
    "teds": (18, 0.6968888888888889, 0.7184999999999999, 0.27903971652561005,
             [0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 2, 1, 2, 1, 1, 1, 0, 1, 5]),
    "teds_struct": (36, 0.7208333333333333, 0.7184999999999999, 0.2595432801783053,
                    [0, 0, 0, 0, 4, 0, 0, 2, 1, 0, 0, 2, 5, 4, 1, 3, 1, 0, 2, 11]),
    "teds_simple": (12, 0.6755833333333333, 0.735, 0.30745833666999306,
                    [0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 3]),
    "teds_complex": (6, 0.7394999999999999, 0.7184999999999999, 0.23129872459657014,
                     [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 2]),
}
# It rejected "missing" and "extra" (mismatched numbers of tables), could not evaluate
# the second table of "empty_table" and the table of "zero_declared" (empty HTML), and
# skipped the first table of "doc_index" (labelled document_index).


def _write_cases(folder: Path) -> tuple[Path, Path]:
    gt, pred = folder / "gt", folder / "pred"
    gt.mkdir()
    pred.mkdir()
    for name, (truth, prediction) in CASES.items():
        (gt / f"{name}.json").write_text(json.dumps(_document(name, truth)), encoding="utf-8")
        if isinstance(prediction, str):
            (pred / f"{name}.doctags").write_text(prediction, encoding="utf-8")
        else:
            (pred / f"{name}.json").write_text(json.dumps(_document(name, prediction)), encoding="utf-8")
    return gt, pred


def _figures(report: dict) -> dict:
    return {d["document"]: {t["gt_table"]: (t["teds"], t["teds_struct"], t["complex"]) for t in d["tables"]
                            if t["teds"] is not None}
            for d in report["documents"] if any(t["teds"] is not None for t in d["tables"])}


def test_the_profile_gives_docling_evals_figures_on_hand_made_documents(tmp_path):
    gt, pred = _write_cases(tmp_path)
    out = CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(pred), "--profile", "docling-eval",
                                   "--format", "json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert _figures(report) == OFFICIAL  # per table, exactly: both round to 3 decimals
    statistics = report["total"]["statistics"]
    for name, (count, mean, median, std, hist) in OFFICIAL_STATISTICS.items():
        figures = statistics[name]
        assert figures["count"] == count, name
        assert figures["mean"] == pytest.approx(mean, abs=1e-12), name
        assert figures["median"] == pytest.approx(median, abs=1e-12), name
        assert figures["std"] == pytest.approx(std, abs=1e-12), name
        assert figures["hist"] == hist, name
    assert statistics["teds"]["bins"][:3] == [0.0, 0.05, 0.1] and statistics["teds"]["bins"][-1] == 1.0
    assert report["total"]["teds"] == pytest.approx(OFFICIAL_STATISTICS["teds"][1], abs=1e-12)
    assert report["total"]["teds_simple"] == pytest.approx(OFFICIAL_STATISTICS["teds_simple"][1], abs=1e-12)
    assert report["total"]["teds_complex"] == pytest.approx(OFFICIAL_STATISTICS["teds_complex"][1], abs=1e-12)
    documents = {d["document"]: d for d in report["documents"]}
    for rejected in ("missing", "extra"):
        assert documents[rejected]["tables"] == [] and "tables-unequal" in documents[rejected]["warnings"][0]
    for name in ("empty_table", "zero_declared"):
        assert any("table-html-empty" in w for w in documents[name]["warnings"])
    assert documents["doc_index"]["tables"][0]["label"] == "document_index"
    assert "table-label-skipped" in documents["doc_index"]["warnings"][0]
    assert "cannot parse" in out.stderr


def test_the_profile_is_a_declaration_over_general_settings():
    profile = PROFILES["docling-eval"]
    assert profile.metric == "teds"
    assert profile.settings["table_html"] == "docling" and profile.settings["pairing"] == "order"
    assert profile.settings["round"] == 3 and tuple(profile.settings["drop_tags"]) == ("b", "i", "u")


# -- the corpus ----------------------------------------------------------------------------------

def _perturbed(doc: dict) -> dict:
    """Every table: its third cell's text reversed, every seventh cell dropped, the
    last row's one-slot cells merged in pairs; the first table's captions left out."""
    for k, table in enumerate(doc["tables"]):
        cells = table["data"]["table_cells"]
        if len(cells) > 2:
            cells[2]["text"] = cells[2]["text"][::-1]
        table["data"]["table_cells"] = cells = [c for i, c in enumerate(cells) if i % 7 != 6]
        last = max((c["start_row_offset_idx"] for c in cells), default=-1)
        row = sorted((c for c in cells if c["start_row_offset_idx"] == last), key=lambda c: c["start_col_offset_idx"])
        for a, b in zip(row[0::2], row[1::2]):
            if a["end_col_offset_idx"] == b["start_col_offset_idx"] and a["row_span"] == 1 and b["row_span"] == 1:
                a["end_col_offset_idx"] = b["end_col_offset_idx"]
                a["col_span"] = a["end_col_offset_idx"] - a["start_col_offset_idx"]
                a["text"] += " " + b["text"]
                cells.remove(b)
        if k == 0:
            table["captions"] = []
    return doc


CORPUS_OFFICIAL = {
    "cross": {0: (0.714, 0.714, False)},
    "d2203": {0: (1.0, 1.0, False), 1: (0.722, 0.833, True), 2: (0.8, 0.911, False), 3: (0.823, 0.94, False),
              4: (0.884, 1.0, False), 5: (0.816, 0.947, False)},
    "d2206": {0: (0.815, 0.944, True), 1: (0.84, 0.96, True), 2: (0.84, 0.951, False), 3: (0.855, 0.952, True),
              4: (0.852, 0.975, True)},
    "t2203": {k: (1.0, 1.0, k == 1) for k in range(6)},
}
CORPUS_STATISTICS = {
    "teds": (18, 0.8867222222222222, 0.8534999999999999, 0.10148938255424472),
    "teds_struct": (36, 0.9191111111111111, 0.9515, 0.09329026217067363),
    "teds_simple": (12, 0.9064166666666666, 0.942, 0.10485614243362479),
    "teds_complex": (6, 0.8473333333333333, 0.846, 0.0896608424378595),
}


def test_the_profile_gives_docling_evals_figures_on_the_corpus(tmp_path, corpus):
    """docling's own DoclingDocuments as ground truth; as predictions, the DocTags of
    the same paper (docling-eval turns them into a document with docling-core) and the
    documents edited by :func:`_perturbed`."""
    sources = {"d2203": corpus("doctags", "2203.01017v2.json"),
               "d2206": corpus("exports", "docling", "2206.01062-1.0.0.json"),
               "cross": corpus("exports", "docling", "cross_page_table.json")}
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    for name, source in sources.items():
        (gt / f"{name}.json").write_bytes(source.read_bytes())
        (pred / f"{name}.json").write_text(json.dumps(_perturbed(json.loads(source.read_text("utf-8")))), "utf-8")
    (gt / "t2203.json").write_bytes(sources["d2203"].read_bytes())
    (pred / "t2203.doctags").write_bytes(corpus("doctags", "2203.01017v2.doctags.txt").read_bytes())
    report = _run("--gt", str(gt), "--result", str(pred), "--profile", "docling-eval")
    assert _figures(report) == CORPUS_OFFICIAL
    for name, (count, mean, median, std) in CORPUS_STATISTICS.items():
        figures = report["total"]["statistics"][name]
        assert (figures["count"], figures["mean"], figures["median"]) == (count, pytest.approx(mean, abs=1e-12),
                                                                        pytest.approx(median, abs=1e-12)), name
        assert figures["std"] == pytest.approx(std, abs=1e-12), name
    # the paper's seventh table has no row and no caption: docling-eval cannot parse its empty HTML
    documents = {d["document"]: d for d in report["documents"]}
    assert documents["t2203"]["tables"][6]["teds"] is None


# -- the parts -----------------------------------------------------------------------------------

def _docling_table(tables: list[dict], k: int = 0) -> Table:
    return read_docling(json.dumps(_document("x", tables)).encode(), Diagnostics("x.json")).tables[k]


def test_docling_tree_is_the_tree_of_doclings_html_export():
    # <table><caption><div/></caption><tbody><tr><td/><td/></tr><tr>..</tr></tbody></table>, a 2 x 2
    # grid declared 3 x 2 (a row of two empty cells more), one caption
    table = _docling_table([{"cells": _grid([[" a ", "b"], ["c", None]]), "rows": 3, "cols": 2,
                             "captions": ["cap"]}])
    assert table.declared_size == (3, 2) and table.captions == ("cap",)  # (its cells reach 2 x 2)
    tree = docling_tree(table)
    assert tree.tags == ["div", "caption", "td", "td", "tr", "td", "td", "tr", "td", "td", "tr", "tbody", "table"]
    assert tree.elements == 12  # caption, div, tbody, 3 rows, 6 cells
    assert tree.tokens[2] == ("a",)  # trimmed
    assert tree.tokens[6] == () and tree.spans[6] == (1, 1)  # the slot no cell covers
    # no row and no caption: docling-core writes nothing, which docling-eval cannot parse
    assert docling_tree(_docling_table([NO_ROWS])) is None
    assert docling_tree(_docling_table([{**NO_ROWS, "captions": ["c"]}])).tags == ["div", "caption", "table"]


def test_docling_tree_scores_by_hand():
    # ground truth: caption + 1 x 2 grid ("ab", "c"); result: no caption, "ab", "d".
    # Elements: 1 + 1 + 1 + 1 + 2 = 6 against 4; distance: caption and div deleted (2),
    # "c" renamed "d" (1/1) = 3; TEDS = 1 - 3/6; structure: 1 - 2/6.
    gt = _docling_table([{"cells": _grid([["ab", "c"]]), "captions": ["t"]}])
    result = _docling_table([{"cells": _grid([["ab", "d"]])}])
    full, struct = teds_pair(PreparedTree(docling_tree(gt)), PreparedTree(docling_tree(result)))
    assert full == pytest.approx(0.5) and struct == pytest.approx(1 - 2 / 6)


def test_a_doctags_table_keeps_its_caption_and_grid_size():
    doc = read_doctags(b"<doctag><otsl><loc_1><loc_1><loc_9><loc_9><caption><loc_1><loc_1><loc_2><loc_2>Tab. 1 "
                       b"</caption><fcel>a<fcel>b<nl><fcel>c<ecel><nl><ecel><ecel><nl></otsl></doctag>",
                       Diagnostics("x.doctags"))
    assert doc.tables[0].captions == ("Tab. 1",) and doc.tables[0].declared_size is None  # (ecel cells fill it)


def test_drop_tags_takes_inline_tags_out_of_cells_and_elements():
    table = read_html(b"<table><tr><td><b>ab</b></td><td><i>c</i>d</td></tr></table>", Diagnostics("x.html")).document.tables[0]
    kept = table_tree(table)
    dropped = table_tree(table, drop_tags=("b", "i"))
    assert dropped.elements == kept.elements - 2
    assert [t for t in dropped.tokens if t] == [("a", "b"), ("c", "d")]
    plain = read_html(b"<table><tr><td>ab</td><td>cd</td></tr></table>", Diagnostics("y.html")).document.tables[0]
    assert teds_pair(PreparedTree(dropped), PreparedTree(table_tree(plain))) == (1.0, 1.0)


def test_round_split_and_statistics_through_the_command(tmp_path):
    gt, pred = tmp_path / "gt.json", tmp_path / "pred.json"
    gt.write_text(json.dumps(_document("d", [T1, T3])), "utf-8")
    t1_edited = {**T1, "cells": _grid([["h1", "h3"], ["1", "2"]], 1)}
    pred.write_text(json.dumps(_document("d", [t1_edited, {**T3, "captions": []}])), "utf-8")
    report = _run("--gt", str(gt), "--result", str(pred), "--metric", "teds", "--table-html", "docling",
                  "--pairing", "order", "--round", "2", "--split", "spans", "--statistics")
    tables = report["documents"][0]["tables"]
    assert [t["complex"] for t in tables] == [False, True]
    # T1: 9 elements a side (caption, div, tbody, 2 rows, 4 cells), "h2" renamed "h3" costs 1/2
    assert (tables[0]["teds"], tables[0]["teds_struct"]) == (round(1 - 0.5 / 9, 2), 1.0) == (0.94, 1.0)
    # T3 without its captions: the <caption> and its two <div> deleted, of 10 elements
    assert tables[1]["teds"] == 0.7
    total = report["total"]
    assert (total["teds_simple"], total["teds_complex"]) == (0.94, 0.7)
    assert total["statistics"]["teds_struct"]["count"] == 2  # without --compat: structure-only scores alone
    assert total["statistics"]["teds_complex"]["count"] == 1


def test_statistics_as_docling_eval_computes_them():
    figures = statistics_of([0.5, 1.0, 0.05, 0.0])
    assert figures["count"] == 4 and figures["mean"] == pytest.approx(0.3875) and figures["median"] == 0.275
    assert figures["hist"][0] == 1 and figures["hist"][1] == 1 and figures["hist"][10] == 1 and figures["hist"][19] == 1
    assert statistics_of([]) ["mean"] == -1 and statistics_of([0.2])["std"] == 0.0


def test_pairing_order_refuses_documents_with_unequal_numbers_of_tables(tmp_path):
    gt, pred = tmp_path / "gt.json", tmp_path / "pred.json"
    gt.write_text(json.dumps(_document("d", [T1, T2])), "utf-8")
    pred.write_text(json.dumps(_document("d", [T2])), "utf-8")
    report = _run("--gt", str(gt), "--result", str(pred), "--metric", "teds", "--pairing", "order")
    document = report["documents"][0]
    assert document["tables"] == [] and document["detection"]["gt"] == 2 and document["detection"]["detected"] == 1
    assert "tables-unequal" in document["warnings"][0]
    assert report["total"]["teds"] is None


def test_a_model_table_has_no_caption_or_declared_size_by_default():
    table = Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, "x")])])
    assert table.captions == () and table.declared_size is None
    # without a declared size the grid runs from row and column 0 to the last its cells reach
    table = Table(0, [Region(0, 1, cells=[Cell(1, 1, 1, 1, "x")])])
    assert docling_tree(table).tags.count("td") == 4
