"""Hand-made documents for Unstructured's table evaluation (``score --profile
unstructured``): for each case a ground truth (a list of elements, each table a
``Table`` element whose ``text`` is a list of cells) and a prediction
(partition's elements, tables in ``metadata.text_as_html``).

tests/make_unstructured_fixture.py runs Unstructured's own evaluation on them
and keeps its figures in tests/data/unstructured_official.json;
tests/acceptance/test_profile_unstructured.py scores them through the command.
Also: the opendataloader-bench pages of the corpus as such documents, each
page's tables as HTML (:func:`page_tables`).
"""

from __future__ import annotations

import json
from pathlib import Path


def gt_table(rows: list[list]) -> dict:
    """A ground-truth table of rows of cells: text, or (text, w, h); None: no cell."""
    cells = []
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell is not None:
                text, w, h = (cell, 1, 1) if isinstance(cell, str) else cell
                cells.append({"id": f"c{y}-{x}", "x": x, "y": y, "w": w, "h": h, "content": text})
    return {"type": "Table", "text": cells}


def gt_cells(cells: list[tuple]) -> dict:
    """A ground-truth table of (x, y, w, h, text) cells."""
    return {"type": "Table", "text": [{"id": str(k), "x": x, "y": y, "w": w, "h": h, "content": text}
                                      for k, (x, y, w, h, text) in enumerate(cells)]}


def html(rows: list[list]) -> str:
    out = "<table>"
    for row in rows:
        out += "<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>"
    return out + "</table>"


def predicted(source: str, k: int = 0) -> dict:
    return {"type": "Table", "element_id": f"t{k}", "text": "flat",
            "metadata": {"text_as_html": source, "page_number": 1}}


A = [["Name", "Qty", "Price"], ["apple", "3", "1.20"], ["pear", "5", "0.80"], ["plum", "12", "2.00"]]
B = [["Year", "Revenue", "Profit"], ["2020", "100", "10"], ["2021", "120", "14"]]
C = [["City", "Population"], ["Oslo", "700000"], ["Bergen", "285000"], ["Trondheim", "210000"]]
SPANNED = [(0, 0, 1, 2, "Fruit"), (1, 0, 2, 1, "Sales"), (1, 1, 1, 1, "Q1"), (2, 1, 1, 1, "Q2"), (0, 2, 1, 1, "apple"),
           (1, 2, 1, 1, "3"), (2, 2, 1, 1, "4"), (0, 3, 1, 1, "pear"), (1, 3, 1, 1, "5"), (2, 3, 1, 1, "6")]
LONG = "The quick brown fox jumps over the lazy dog while the committee reviews the annual budget report " * 3


def hand_cases() -> dict[str, tuple[list, list]]:
    """{name: (ground-truth elements, predicted elements)}."""
    thead = ("<table><thead><tr><th>Name</th><th>Qty</th><th>Price</th></tr></thead><tbody>"
             + "".join("<tr>" + "".join(f"<td>{t}</td>" for t in row) + "</tr>" for row in A[1:]) + "</tbody></table>")
    return {
        "exact": ([gt_table(A)], [predicted(html(A))]),
        "missing_table": ([gt_table(A), gt_table(B)], [predicted(html(A))]),
        "extra_table": ([gt_table(A)], [predicted(html(A)), predicted(html([["foo", "bar"], ["baz", "qux"]]), 1)]),
        "shifted_rows": ([gt_table(A)], [predicted(html([["", "", ""]] + A))]),
        "swapped_columns": ([gt_table(A)], [predicted(html([[r[1], r[0], r[2]] for r in A]))]),
        "spans": ([gt_cells(SPANNED)], [predicted(
            '<table><tr><th rowspan="2">Fruit</th><th colspan="2">Sales</th></tr><tr><th>Q1</th><th>Q2</th></tr>'
            '<tr><td>apple</td><td>3</td><td>4</td></tr><tr><td>pear</td><td>5</td><td>6</td></tr></table>')]),
        "spans_flat_prediction": ([gt_cells(SPANNED)], [predicted(html(
            [["Fruit", "Sales", ""], ["", "Q1", "Q2"], ["apple", "3", "4"], ["pear", "5", "6"]]))]),
        "empty_cells": ([gt_table([["Item", "", "Note"], ["a", "1", ""], ["", "2", "x"]])],
                        [predicted(html([["Item", "", "Note"], ["a", "1", "x"], ["", "2", ""]]))]),
        "wrong_content": ([gt_table(A)], [predicted(html(
            [["Nane", "Qty", "Prise"], ["apple", "8", "1.20"], ["pears", "5", "0.8"], ["plum", "12", "2.00"]]))]),
        "several_tables": ([gt_table(A), gt_table(B), gt_table(C)],
                           [predicted(html(C), 0), predicted(html(A), 1), predicted(html(B[:2]), 2)]),
        "false_positive_only": ([{"type": "NarrativeText", "text": "hello"}], [predicted(html(A))]),
        "no_tables": ([{"type": "Title", "text": "x"}],
                      [{"type": "Title", "element_id": "e", "text": "x", "metadata": {}}]),
        "nothing_predicted": ([gt_table(A)], [{"type": "NarrativeText", "element_id": "e", "text": "apple",
                                               "metadata": {}}]),
        "cells_only_prediction": ([gt_table(A)], [{"type": "Table", "element_id": "t", "text": "flat", "metadata": {
            "table_as_cells": [{"x": x, "y": y, "w": 1, "h": 1, "content": t}
                               for y, row in enumerate(A) for x, t in enumerate(row)]}}]),
        "table_with_attributes": ([gt_table(A)], [predicted(html(A).replace("<table>", '<table border="1">'))]),
        "duplicates": ([gt_table([["x", "x", "y"], ["x", "y", "y"], ["z", "x", "x"]])],
                       [predicted(html([["x", "y", "x"], ["x", "x", "y"], ["x", "z", "x"]]))]),
        "br_entities_whitespace": ([gt_table([["a b", "R&D"], ["  spaced  out ", "x"]])], [predicted(
            "<table><tr><td>a<br>b</td><td>R&amp;D</td></tr><tr><td>\n  spaced  out </td><td>x</td></tr></table>")]),
        "nested_table": ([gt_table(A)], [predicted(
            "<table><tr><td>Name</td><td>Qty<table><tr><td>in1</td><td>in2</td></tr></table></td><td>Price</td></tr>"
            "<tr><td>apple</td><td>3</td><td>1.20</td></tr></table>")]),
        "upper_case": ([gt_table(A)], [predicted(html([[t.upper() for t in r] for r in A]))]),
        "span_moves_past_its_own_span": ([gt_cells([(0, 0, 1, 2, "A"), (1, 0, 1, 1, "B"), (2, 0, 1, 1, "C"),
                                                    (1, 1, 2, 1, "D"), (0, 2, 1, 1, "E"), (1, 2, 1, 1, "F"),
                                                    (2, 2, 1, 1, "G")])], [predicted(
            '<table><tr><td rowspan="2">A</td><td>B</td><td>C</td></tr><tr><td colspan="2">D</td></tr>'
            '<tr><td>E</td><td>F</td><td>G</td></tr></table>')]),
        "two_predictions_one_table": ([gt_table(A), gt_table(C)], [predicted(html(A), 0), predicted(html(A[:3]), 1)]),
        "thead_tbody_th": ([gt_table(A)], [predicted(thead)]),
        "long_cells": ([gt_table([["Description", "Id"], [LONG, "1"], ["short", "2"]])], [predicted(html(
            [["Description", "Id"], [LONG.replace("budget", "budgets").replace("fox", "cat"), "1"], ["short", "2"]]))]),
        "unclosed_cells": ([gt_table(A)], [predicted(
            "<table><tr><td>Name<td>Qty<td>Price</tr><tr><td>apple<td>3<td>1.20</tr></table>")]),
        "rowspan_in_ground_truth": ([gt_cells([(0, 0, 1, 2, "K"), (1, 0, 1, 1, "v1"), (1, 1, 1, 1, "v2"),
                                              (0, 2, 1, 1, "L"), (1, 2, 1, 1, "v3")])], [predicted(
            '<table><tr><td rowspan="2">K</td><td>v1</td></tr><tr><td>v2</td></tr><tr><td>L</td><td>v3</td></tr>'
            '</table>')]),
        "empty_html_table": ([gt_table(A)], [predicted("<table></table>"), predicted(html(A), 1)]),
        "reordered_rows": ([gt_table(A)], [predicted(html([A[0], A[3], A[1], A[2]]))]),
        "transposed": ([gt_table(C)], [predicted(html([list(r) for r in zip(*C)]))]),
        "two_equal_ground_truth_tables": ([gt_table(B), gt_table(B)], [predicted(html(B))]),
        "extra_column_by_rowspan": ([gt_table(B)], [predicted(
            '<table><tr><td rowspan="3">X</td><td>Year</td><td>Revenue</td><td>Profit</td></tr><tr><td>2020</td>'
            '<td>100</td><td>10</td></tr><tr><td>2021</td><td>120</td><td>14</td></tr></table>')]),
    }


def write_hand_cases(root: Path) -> None:
    """Each case as ``root/gt/<name>.pdf.json`` and ``root/pred/<name>.pdf.json``
    (the evaluation pairs a prediction with the ground truth of its name)."""
    for side in ("gt", "pred"):
        (root / side).mkdir(parents=True, exist_ok=True)
    for name, (gt, prediction) in hand_cases().items():
        (root / "gt" / f"{name}.pdf.json").write_text(json.dumps(gt), encoding="utf-8")
        (root / "pred" / f"{name}.pdf.json").write_text(json.dumps(prediction), encoding="utf-8")


def page_tables(page: Path) -> list[str]:
    """The HTML of each table of a Markdown page, as opendataloader-bench finds them."""
    from convertables.formats.opendataloader_markdown import decode, pipe_tables_as_html, table_sources

    return table_sources(pipe_tables_as_html(decode(page.read_bytes())))


def prediction_elements(sources: list[str]) -> list[dict]:
    return [{"type": "Table", "element_id": f"t{k}", "text": "", "metadata": {"text_as_html": source,
                                                                                "page_number": 1}}
            for k, source in enumerate(sources)]
