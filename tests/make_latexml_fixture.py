"""Writes tests/data/latexml/expected.json: the grids LaTeXML makes of the tables beside it.

    python tests/make_latexml_fixture.py

Each ``tests/data/latexml/*.tex`` is one table written in the style of arXiv
papers; LaTeXML (``latexmlc``, Debian's ``latexml``: the converter OmniDocBench
uses) converts it, inside a document that loads multirow, booktabs, tabularx
and longtable, to HTML5. Its first table's grid is recorded: each ``<td>``/``<th>``
of the outer table placed by the HTML table model (spans as LaTeXML wrote them),
its text with each ``<math>`` written as ``$`` + its ``alttext`` + ``$``, a
citation as ``\\cite{?}``, a nested table as its rows' lines. The tests
(tests/unit/test_latex.py) compare convertables' reading of the same sources with the
recorded grids; they run LaTeXML themselves only where it is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from lxml import html

HERE = Path(__file__).resolve().parent / "data" / "latexml"
PREAMBLE = ("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage{multirow}\n"
            "\\usepackage{booktabs}\n\\usepackage{tabularx}\n\\usepackage{longtable}\n\\begin{document}\n")


def _text(element) -> str:
    """A cell's text as LaTeXML shows it, math as its source."""
    parts = [element.text or ""]
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == "math":
            parts.append("$" + (child.get("alttext") or "") + "$")
        elif tag == "cite":
            parts.append("\\cite{?}")
        elif tag == "table":
            parts.append("\n".join(" ".join(_text(td) for td in tr if td.tag in ("td", "th"))
                                   for tr in child.iter("tr")))
        elif tag == "br":
            parts.append("\n")
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def grid_of(page: str) -> list[list]:
    """The first table of LaTeXML's HTML: [first row, first column, last row, last column, text] of each cell."""
    tree = html.fromstring(page)
    table = tree.xpath("//table[contains(@class, 'ltx_tabular')]")[0]
    rows = [tr for tr in table.iter("tr") if next(tr.iterancestors("table")) is table]
    taken: set[tuple[int, int]] = set()
    cells = []
    for y, tr in enumerate(rows):
        x = 0
        for td in tr:
            if td.tag not in ("td", "th"):
                continue
            while (y, x) in taken:
                x += 1
            rowspan = max(1, int(td.get("rowspan", "1")))  # (a negative rowspan reads as 1 in HTML)
            colspan = max(1, int(td.get("colspan", "1")))
            for dy in range(rowspan):
                for dx in range(colspan):
                    taken.add((y + dy, x + dx))
            cells.append([y, x, y + rowspan - 1, x + colspan - 1, _text(td).strip()])
            x += colspan
    return cells


def main() -> None:
    version = subprocess.run(["latexmlc", "--VERSION"], capture_output=True, text=True)
    expected = {"latexml": (version.stdout + version.stderr).strip().splitlines()[0], "tables": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for source in sorted(HERE.glob("*.tex")):
            tex = Path(tmp) / source.name
            tex.write_text(PREAMBLE + source.read_text(encoding="utf-8") + "\n\\end{document}\n", encoding="utf-8")
            out = Path(tmp) / (source.stem + ".html")
            subprocess.run(["latexmlc", "--quiet", f"--destination={out}", f"--log={out}.log", "--format=html5",
                            str(tex)], check=True, capture_output=True, cwd=tmp)
            expected["tables"][source.name] = grid_of(out.read_text(encoding="utf-8"))
    (HERE / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(expected['tables'])} tables, {expected['latexml']}", file=sys.stderr)


if __name__ == "__main__":
    main()
