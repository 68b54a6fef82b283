"""Writes tests/grits_official.json: inputs for GriTS and the official code's numbers for them.

    python tests/make_grits_fixture.py --official PATH/table-transformer/src --oracle-python PYTHON

``PYTHON`` is an interpreter with the official code's dependencies (numpy,
PyMuPDF 1.21.1 as its environment.yml pins them); the official ``grits.py`` is
imported from ``PATH`` by a small runner written to a temporary file, never
copied here. The tests (tests/unit/test_grits.py) read the inputs and compare
convertables' numbers with the official ones kept in the file; they never run
the official code.

Three sets:

* ``generated``: seeded random grids with spanning cells, texts and boxes, and a
  "result" for each (rows and columns deleted or duplicated, cells merged or
  split, texts edited, boxes moved), as cell lists; the official scores them
  through ``cells_to_relspan_grid``/``cells_to_grid`` and
  ``grits_top``/``grits_con``/``grits_loc``;
* ``pubtabnet``: the 20 PubTabNet examples (../shared/corpus/pubtabnet) as HTML
  (structure tokens with the cells' tokens, inline tags kept, text escaped for
  XML; no ``prettify``) and a perturbed copy of each (rows deleted or
  duplicated, cells' tokens edited or swapped); the official scores the two
  HTML strings with ``grits_from_html``, and reports its cells' texts;
* ``markup``: generated tables written as HTML with inline tags, line breaks,
  comments, entities and whitespace in the cells, each against a perturbed
  copy written plainly.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "grits_official.json"
CORPUS = ROOT.parent / "shared" / "corpus" / "pubtabnet" / "PubTabNet_Examples.jsonl"

RUNNER = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import grits

def cell_lists(true_cells, pred_cells):
    out = {}
    grids = {
        "top": (grits.cells_to_relspan_grid, {}, None, grits.grits_top),
        "con": (grits.cells_to_grid, {"key": "cell_text"}, object, grits.grits_con),
        "loc": (grits.cells_to_grid, {"key": "bbox"}, None, grits.grits_loc),
    }
    for kind, (make, kwargs, dtype, function) in grids.items():
        t = np.array(make(true_cells, **kwargs), dtype=dtype)
        p = np.array(make(pred_cells, **kwargs), dtype=dtype)
        f, precision, recall, _ = function(t, p)
        out["grits_" + kind] = float(f)
        out["grits_precision_" + kind] = float(precision)
        out["grits_recall_" + kind] = float(recall)
    return out

def from_html(true_html, pred_html):
    try:
        m = grits.grits_from_html(true_html, pred_html)
    except Exception as exc:
        return {"error": type(exc).__name__}
    out = {k: float(v) for k, v in m.items() if not k.endswith("upper_bound")}
    out["true_texts"] = [[c["row_nums"], c["column_nums"], c["cell_text"]] for c in grits.html_to_cells(true_html)]
    return out

items = json.load(open(sys.argv[2]))
results = []
for item in items:
    if "true_html" in item:
        results.append(from_html(item["true_html"], item["pred_html"]))
    else:
        to = lambda cells: [{"row_nums": list(range(c[0], c[2] + 1)), "column_nums": list(range(c[1], c[3] + 1)),
                             "cell_text": c[4], "bbox": c[5]} for c in cells]
        try:
            results.append(cell_lists(to(item["true"]), to(item["pred"])))
        except Exception as exc:
            results.append({"error": type(exc).__name__})
json.dump(results, open(sys.argv[3], "w"))
'''


def _benchmark_module():
    spec = importlib.util.spec_from_file_location("grits_vs_official", ROOT / "benchmarks" / "grits_vs_official.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rounded(cells: list[list]) -> list[list]:
    return [[*c[:5], [round(v, 2) for v in c[5]]] for c in cells]


def generated(bench, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for k in range(70):
        n_rows, n_cols = rng.randint(1, 10), rng.randint(1, 7)
        gt = bench.make_table(rng, n_rows, n_cols, span_rate=rng.choice((0.0, 0.08, 0.25)))
        result = bench.perturb(rng, gt, operations=rng.choice((0, 1, 2, 4, 8)))
        items.append({"true": _rounded(gt), "pred": _rounded(result)})
    # repeated rows and columns (ties in the alignments) and texts difflib matches short of their LCS
    for k in range(12):
        n_rows, n_cols = rng.randint(2, 8), rng.randint(2, 6)
        row = [rng.choice(("1.5", "2.5", "15.2", "", "x")) for _ in range(n_cols)]
        gt = [[r, c, r, c, row[c] if rng.random() < 0.7 else "255.1", [c * 10.0, r * 5.0, c * 10 + 9.5, r * 5 + 4.5]]
              for r in range(n_rows) for c in range(n_cols)]
        result = bench.perturb(rng, gt, operations=rng.choice((0, 1, 2)))
        for cell in result:
            if rng.random() < 0.3:
                cell[4] = rng.choice(("71.715", "51.2", "1.5", "2.5"))
        items.append({"true": gt, "pred": result})
    # few distinct texts and spans, independent grids: ties everywhere in the alignments
    for k in range(40):
        gt = bench.make_table(rng, rng.randint(1, 5), rng.randint(1, 5), span_rate=0.3)
        result = bench.make_table(rng, rng.randint(1, 5), rng.randint(1, 5), span_rate=0.3)
        for cell in gt + result:
            cell[4] = rng.choice(("a", "b", "ab", ""))
            cell[5] = [round(v / 20) * 20.0 for v in cell[5]]
        items.append({"true": gt, "pred": result})
    # long texts (difflib's autojunk from 200 characters on)
    for k in range(3):
        gt = bench.make_table(rng, 2, 3)
        for cell in gt:
            cell[4] = " ".join(rng.choice(bench.WORDS) for _ in range(rng.randint(30, 60)))
        result = bench.perturb(rng, gt, operations=2)
        items.append({"true": _rounded(gt), "pred": _rounded(result)})
    return items


# -- PubTabNet examples as HTML --------------------------------------------------------------

def _xml_tokens(tokens: list[str]) -> str:
    return "".join(t if len(t) > 1 and t.startswith("<") else html.escape(t, quote=False) for t in tokens)


def _rows(structure: list[str], cells: list[list[str]]) -> tuple[list[str], list]:
    """The structure cut into rows: ``(head, rows)``, each row a list of
    (opening tokens, cell tokens); head holds the tokens before the first row."""
    rows, row, opening, k = [], None, [], 0
    groups = []
    for token in structure:
        if token == "<tr>":
            row = []
        elif token == "</tr>":
            rows.append((groups[-1] if groups else "tbody", row))
            row = None
        elif token in ("<thead>", "<tbody>"):
            groups.append(token[1:-1])
        elif token in ("</thead>", "</tbody>"):
            pass
        elif token.startswith("<td"):
            opening = [token]
            if token == "<td>":
                row.append((opening, cells[k]))
                k += 1
        elif token == ">":
            opening.append(token)
            row.append((opening, cells[k]))
            k += 1
        elif token == "</td>":
            pass
        else:
            opening.append(token)
    return rows


def _html(rows) -> str:
    out = ["<table>"]
    group = None
    for row_group, cells in rows:
        if row_group != group:
            if group is not None:
                out.append(f"</{group}>")
            out.append(f"<{row_group}>")
            group = row_group
        out.append("<tr>")
        for opening, tokens in cells:
            out.append("".join(opening) + _xml_tokens(tokens) + "</td>")
        out.append("</tr>")
    if group is not None:
        out.append(f"</{group}>")
    out.append("</table>")
    return "".join(out)


def _spans_rows(opening: list[str]) -> bool:
    return any("rowspan" in t for t in opening)


def _edit_tokens(rng: random.Random, tokens: list[str]) -> list[str]:
    tokens = list(tokens)
    text_at = [i for i, t in enumerate(tokens) if not (len(t) > 1 and t.startswith("<"))]
    what = rng.random()
    if what < 0.4 and text_at:
        del tokens[rng.choice(text_at)]
    elif what < 0.8:
        tokens.insert(rng.choice(text_at) if text_at else len(tokens), rng.choice("0123456789.,- abc"))
    elif text_at:
        tokens[rng.choice(text_at)] = rng.choice("0123456789")
    return tokens


def pubtabnet(seed: int = 11) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        structure = record["html"]["structure"]["tokens"]
        cells = [c["tokens"] for c in record["html"]["cells"]]
        rows = _rows(structure, cells)
        true_html = _html(rows)
        result = [(group, [(list(o), list(t)) for o, t in cells]) for group, cells in rows]
        # rows deleted or duplicated only where no cell spans rows (no holes made)
        row_ops = not any(_spans_rows(o) for _, cells in result for o, _ in cells)
        for _ in range(rng.randint(1, 4)):
            what = rng.random()
            if what < 0.3 and row_ops and len(result) > 2:  # a row deleted
                del result[rng.randrange(1, len(result))]
            elif what < 0.5 and row_ops:  # a row duplicated, its texts edited
                i = rng.randrange(len(result))
                result.insert(i + 1, (result[i][0], [(list(o), _edit_tokens(rng, t)) for o, t in result[i][1]]))
            elif what < 0.8:  # texts edited
                for _ in range(rng.randint(1, 5)):
                    group, cells = rng.choice(result)
                    k = rng.randrange(len(cells))
                    cells[k] = (cells[k][0], _edit_tokens(rng, cells[k][1]))
            else:  # two neighbouring cells' texts swapped
                group, cells = rng.choice(result)
                if len(cells) > 1:
                    k = rng.randrange(len(cells) - 1)
                    cells[k], cells[k + 1] = (cells[k][0], cells[k + 1][1]), (cells[k + 1][0], cells[k][1])
        items.append({"name": record["filename"], "true_html": true_html, "pred_html": _html(result)})
    return items


# -- generated tables with markup in their cells -------------------------------------------------

def _decorated(rng: random.Random, text: str) -> str:
    words = text.split(" ") if text else []
    out = []
    for k, word in enumerate(words):
        word = html.escape(word, quote=False)
        what = rng.random()
        if what < 0.15:
            word = f"<b>{word}</b>"
        elif what < 0.25:
            word = f"<i>{word[:1]}</i>{word[1:]}"
        elif what < 0.32:
            word = f"{word}<sup>a</sup>"
        elif what < 0.37:
            word = f"<span><b>{word}</b> </span>"
        out.append(word)
        if k < len(words) - 1:
            out.append(rng.choice((" ", " ", "  ", "\n", "<br/>", " <br/> ", "<!-- c --> ")))
    inner = "".join(out)
    what = rng.random()
    if what < 0.1:
        inner = f" {inner} "
    elif what < 0.15:
        inner = f"\n  {inner}\n"
    elif what < 0.2:
        inner = inner + " &amp; co"
    elif what < 0.25:
        inner = "&lt;" + inner + "&#160;"
    return inner


def _cells_html(rng: random.Random | None, cells: list[list]) -> str:
    rows: dict[int, list] = {}
    for c in sorted(cells, key=lambda c: (c[0], c[1])):
        rows.setdefault(c[0], []).append(c)
    out = ["<table>"]
    for r in range(max(rows) + 1 if rows else 0):
        out.append("<tr>")
        for c in rows.get(r, []):
            attrs = (f' rowspan="{c[2] - c[0] + 1}"' if c[2] > c[0] else "") + (
                f' colspan="{c[3] - c[1] + 1}"' if c[3] > c[1] else "")
            text = _decorated(rng, c[4]) if rng is not None else html.escape(c[4], quote=False)
            out.append(f"<td{attrs}>{text}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def markup(bench, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for k in range(30):
        gt = bench.make_table(rng, rng.randint(2, 10), rng.randint(2, 6))
        result = bench.perturb(rng, gt)
        items.append({"true_html": _cells_html(rng, gt), "pred_html": _cells_html(None, result)})
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--official", required=True, help="the official repository's src folder (holding grits.py)")
    parser.add_argument("--oracle-python", required=True, help="a Python with numpy and PyMuPDF for it")
    args = parser.parse_args()
    bench = _benchmark_module()
    sets = {"generated": generated(bench), "pubtabnet": pubtabnet(), "markup": markup(bench)}
    with tempfile.TemporaryDirectory() as folder:
        runner = Path(folder) / "runner.py"
        runner.write_text(RUNNER)
        for name, items in sets.items():
            inputs, outputs = Path(folder) / "in.json", Path(folder) / "out.json"
            inputs.write_text(json.dumps(items))
            subprocess.run([args.oracle_python, str(runner), str(Path(args.official).resolve()), str(inputs),
                            str(outputs)], check=True)
            for item, official in zip(items, json.loads(outputs.read_text())):
                item["official"] = official
    FIXTURE.write_text(json.dumps(sets, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
