"""Writes tests/data/latexml_real.json: the grids LaTeXML makes of real tables.

    python tests/make_latexml_real_fixture.py [--fetch]

The tables are real ones, not written for the tests: OmniDocBench's LaTeX table
annotations (read from the shared corpus, ``CONVERTABLES_CORPUS``), tables of
paper sources in public GitHub repositories (read from a local cache,
``CONVERTABLES_LATEX_SOURCES``, laid out as ``owner+name/path``; ``--fetch``
fills it from raw.githubusercontent.com at the recorded commits), and the few of
those vendored under tests/data/latex_real/ (their licence allows it; see the
README there). Their text stays out of the fixture: for each table it records
where it comes from, LaTeXML's grid shape (rows, columns, every spanning cell)
and a SHA-256 digest of its cells' texts in reading order, each text as
tests/unit/test_latex_real.py compares it (math as its source, spaces and braces
dropped). Each table is converted the way tests/make_latexml_fixture.py does it,
inside a document that loads the packages real papers use.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.make_latexml_fixture import grid_of  # noqa: E402

FIXTURE = HERE / "data" / "latexml_real.json"
VENDORED = HERE / "data" / "latex_real"
CORPUS = Path(os.environ.get("CONVERTABLES_CORPUS", HERE.parent.parent / "shared" / "corpus"))
OMNIDOCBENCH = ("markdown-pages", "omnidocbench", "OmniDocBench_demo_table.json")
PREAMBLE = ("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage{multirow}\n"
            "\\usepackage{booktabs}\n\\usepackage{array}\n\\usepackage{tabularx}\n\\usepackage{longtable}\n"
            "\\usepackage{amsmath}\n\\usepackage{amssymb}\n\\usepackage{natbib}\n\\begin{document}\n")

# Tables of paper sources on GitHub: repository, commit, path, licence, and which
# of the file's outermost table environments (0-based), and the vendored copy if any.
GITHUB = [
    {"repo": "cc-chen-tech/renewal-cage-arxiv", "commit": "5ec8fa4c6fcdcd9fc525b3f7b5cc2ae7f238d63e",
     "path": "paper/main.tex", "license": "MIT", "tables": [0, 1],
     "vendored": ["renewal_cage_0.tex", "renewal_cage_1.tex"]},
    {"repo": "acl-org/acl-style-files", "commit": "d5adc823ff0f80f98c80405ca0ab66c68e684409",
     "path": "acl_latex.tex", "license": None, "tables": [0, 1, 2]},
] + [
    # tables inside equations, cut from arXiv papers (matrices drawn as tabulars, ragged rows)
    {"repo": "allofphysicsgraph/latex-in-arxiv", "commit": "f4828fafec4d0251f544ee0ce679213282d40875",
     "path": f"trainer/compiled/{name}.tex", "license": None, "tables": list(range(count))}
    for name, count in [("134a9fef89e13a2f", 1), ("20e35c2c138e88c9", 2), ("284248a80a3f9fc2", 1),
                        ("33670f5e4ce55f0d", 1), ("3be1a30136b7d8bf", 1), ("7cf344863f5a86fa", 2),
                        ("8d915af5058a9a8f", 1), ("9076678d67ad234d", 2), ("98840f96616b97cf", 1),
                        ("9f1307cb8a3c9272", 1), ("b137fe99eb7edafb", 1), ("b70668e7ec9695a3", 1),
                        ("b77e2e83d14ee68a", 4)]
]

# Where convertables reads a table otherwise than LaTeXML, and why (docs/formats.md, latex).
# "text": the same grid, texts that differ; "empty-columns": LaTeXML leaves out the
# columns that are empty in every row (LaTeX draws them, convertables keeps them).
DIFFERENCES = {
    ("acl-org/acl-style-files", "acl_latex.tex", 0): ("text", "LaTeXML sets ` and ' inside \\verb as typographic "
                                                              "quotes"),
    ("acl-org/acl-style-files", "acl_latex.tex", 2): ("text", "an undefined command (\\citeposs, of acl.sty): "
                                                              "LaTeXML writes its name and argument, convertables "
                                                              "its source"),
}
EMPTY_COLUMNS = ("empty-columns", "LaTeXML leaves out the columns empty in every row, which LaTeX draws")

_ENVIRONMENT = re.compile(r"\\(begin|end)\{(tabular\*?|tabularx|longtable)\}")


def _uncommented(text: str) -> str:
    """The text with each comment blanked out (same length, so offsets hold)."""
    return re.sub(r"(?<!\\)%[^\n]*", lambda m: " " * len(m.group(0)), text)


def outer_tables(text: str) -> list[str]:
    """Each outermost tabular/tabular*/tabularx/longtable environment of a source, as written."""
    found, depth, start = [], 0, 0
    for match in _ENVIRONMENT.finditer(_uncommented(text)):
        if match.group(1) == "begin":
            if depth == 0:
                start = match.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                found.append(text[start:match.end()])
    return found


def comparable(text: str) -> str:
    """A cell's text as the comparison takes it: LaTeXML rewrites math (``\\beta_1``
    as ``\\beta_{1}``) and citations, and spaces differ."""
    return re.sub(r"[\s{}]+", "", re.sub(r"\\cite\w*\{[^}]*\}", r"\\cite{?}", text))


def without_empty_columns(cells: list[list]) -> list[list]:
    """The grid with each column that is empty in every row left out (single
    cells only: a column under a spanning cell is never empty)."""
    filled = {c for r0, c0, r1, c1, text in cells if comparable(text) or c0 != c1 for c in range(c0, c1 + 1)}
    kept = sorted(filled)
    new = {c: i for i, c in enumerate(kept)}
    return [[r0, new[c0], r1, new[c1], text] for r0, c0, r1, c1, text in cells if c0 in new and c1 in new]


def shape_of(cells: list[list]) -> dict:
    """Rows, columns, the spanning cells and the digest of a grid's texts, in reading order."""
    cells = sorted(cells, key=lambda c: (c[0], c[1]))
    texts = "\n".join(comparable(c[4]) for c in cells)
    return {"rows": 1 + max((c[2] for c in cells), default=-1), "columns": 1 + max((c[3] for c in cells), default=-1),
            "cells": len(cells), "spans": [c[:4] for c in cells if c[0] != c[2] or c[1] != c[3]],
            "digest": hashlib.sha256(texts.encode("utf-8")).hexdigest()}


def latexml_grid(table: str, workdir: Path) -> list[list]:
    tex = workdir / "t.tex"
    tex.write_text(PREAMBLE + table + "\n\\end{document}\n", encoding="utf-8")
    out = workdir / "t.html"
    subprocess.run(["latexmlc", "--quiet", f"--destination={out}", f"--log={workdir / 't.log'}", "--format=html5",
                    str(tex)], check=True, capture_output=True, cwd=workdir, timeout=300)
    # (LaTeXML wraps a long math source in its alttext with "%" and a line break)
    return [[*cell[:4], re.sub(r"%\n", "", cell[4])] for cell in grid_of(out.read_text(encoding="utf-8"))]


def omnidocbench_tables(annotations: Path) -> list[tuple[str, str]]:
    """(page image#annotation id, LaTeX) of each table of OmniDocBench's annotations, in order."""
    pages = json.loads(annotations.read_text(encoding="utf-8"))
    return [(f"{page['page_info']['image_path']}#{block['anno_id']}", block["latex"])
            for page in pages for block in page["layout_dets"] if block["category_type"] == "table"]


def cached_source(cache: Path, entry: dict, fetch: bool) -> str | None:
    local = cache / entry["repo"].replace("/", "+") / entry["path"]
    if not local.exists() and fetch:
        url = f"https://raw.githubusercontent.com/{entry['repo']}/{entry['commit']}/{entry['path']}"
        local.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (a fixed https address)
            local.write_bytes(response.read())
    return local.read_text(encoding="utf-8") if local.exists() else None


def _has_empty_columns(latex: str) -> bool:
    """Whether convertables' reading has a column empty in every row (what
    LaTeXML leaves out). The generator asks convertables this only to label
    the difference; the grids recorded are LaTeXML's."""
    from convertables.latex_tables import find_tables

    (table,) = find_tables(latex)
    cells = [[c.start_row, c.start_col, c.end_row, c.end_col, c.content] for c in table.cells]
    return len(without_empty_columns(cells)) != len(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fetch", action="store_true", help="fetch missing GitHub sources into the cache")
    args = parser.parse_args()
    old = json.loads(FIXTURE.read_text(encoding="utf-8")) if FIXTURE.exists() else {"tables": []}
    kept = {(t["source"], t.get("path"), t["index"]): t for t in old["tables"]}
    version = subprocess.run(["latexmlc", "--VERSION"], capture_output=True, text=True)
    fixture = {"latexml": (version.stdout + version.stderr).strip().splitlines()[0], "tables": []}
    cache = Path(os.environ.get("CONVERTABLES_LATEX_SOURCES", HERE.parent / ".latex-sources"))
    jobs: list[tuple[dict, str | None]] = []
    if CORPUS.joinpath(*OMNIDOCBENCH).exists():
        for index, (key, latex) in enumerate(omnidocbench_tables(CORPUS.joinpath(*OMNIDOCBENCH))):
            jobs.append(({"source": "corpus", "path": "/".join(OMNIDOCBENCH), "key": key, "index": index}, latex))
    else:  # the corpus is not here: keep what was recorded of it
        jobs.extend((record, None) for record in old["tables"] if record["source"] == "corpus")
    for entry in GITHUB:
        text = cached_source(cache, entry, args.fetch)
        tables = outer_tables(text) if text is not None else []
        for n, index in enumerate(entry["tables"]):
            record = {"source": "github", "repo": entry["repo"], "commit": entry["commit"], "path": entry["path"],
                      "index": index, "license": entry["license"]}
            if entry.get("vendored"):
                record["vendored"] = entry["vendored"][n]
                vendored = VENDORED / entry["vendored"][n]
                jobs.append((record, vendored.read_text(encoding="utf-8") if vendored.exists() else None))
            else:
                jobs.append((record, tables[index] if index < len(tables) else None))
    with tempfile.TemporaryDirectory() as tmp:
        for record, latex in jobs:
            if latex is None:  # its source is not here: keep what was recorded
                previous = kept.get((record["source"], record.get("path"), record["index"]))
                if previous:
                    fixture["tables"].append(previous)
                else:
                    print(f"missing and never recorded: {record}", file=sys.stderr)
                continue
            grid = latexml_grid(latex, Path(tmp))
            record["latexml"] = shape_of(grid)
            difference = DIFFERENCES.get((record.get("repo"), record["path"], record["index"]))
            if difference is None and _has_empty_columns(latex):
                difference = EMPTY_COLUMNS
            if difference:
                record["difference"], record["why"] = difference
            fixture["tables"].append(record)
    FIXTURE.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(fixture['tables'])} tables, {fixture['latexml']}", file=sys.stderr)


if __name__ == "__main__":
    main()
