"""Writes tests/data/opendataloader_tables.json: the tables opendataloader-bench itself
finds in the Markdown pages of ../shared/corpus/markdown-pages/opendataloader-bench.

    python tests/make_opendataloader_fixture.py --bench PATH/opendataloader-bench/src --oracle-python PYTHON

``PYTHON`` is an interpreter with beautifulsoup4 and lxml (the benchmark's own
dependencies for finding tables). A small runner written to a temporary file
imports the benchmark's ``converter_markdown_table`` from ``PATH`` (never copied
here), turns each page's pipe tables into HTML as the benchmark does, takes
every ``<table>`` as its ``evaluator_table.extract_tables`` does (bs4's
html.parser), and parses each with lxml as its TEDS does. For each page the
fixture keeps each table's rows, each row's cells as [colspan, rowspan], and a
SHA-256 of the cells' texts (normalised as the benchmark's ``_normalize`` does,
then with Markdown's emphasis, code marks and backslash escapes taken out,
which the benchmark leaves in a pipe cell's text and convertables reads as
markup): the shapes and a check of the texts, not the corpus's text itself.
tests/unit/test_markdown.py compares convertables' reading of the same pages with it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PAGES = ROOT.parent.parent / "shared" / "corpus" / "markdown-pages" / "opendataloader-bench"
OUT = ROOT / "data" / "opendataloader_tables.json"

RUNNER = r'''
import hashlib, json, re, sys
from html import unescape
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from converter_markdown_table import convert_to_markdown_with_html_tables
from bs4 import BeautifulSoup
from lxml import html

def normalise(text):  # the benchmark's _normalize, then what a pipe cell's Markdown marks
    text = re.sub(r"\s+", " ", re.sub(r"<br\s*/?>", "\n", unescape(text))).strip()
    text = re.sub(r"[*_`]", "", re.sub(r"\\(.)", r"\1", text))
    return re.sub(r"\s+", " ", text).strip()

pages = Path(sys.argv[2])
found = {}
for page in sorted(pages.glob("gt/*.md")) + sorted(pages.glob("pred/*/*.md")):
    soup = BeautifulSoup(convert_to_markdown_with_html_tables(page.read_text(encoding="utf-8")), "html.parser")
    tables = []
    for table in soup.find_all("table"):
        tree = html.fromstring(str(table))
        rows, texts = [], []
        for tr in tree.iter("tr"):
            if next(tr.iterancestors("table")) is not tree:
                continue
            cells = [td for td in tr if td.tag in ("td", "th")]
            rows.append([[int(td.get("colspan") or 1), int(td.get("rowspan") or 1)] for td in cells])
            texts.append([normalise(td.text_content()) for td in cells])
        digest = hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode("utf-8")).hexdigest()
        tables.append({"rows": rows, "texts_sha256": digest})
    found[str(page.relative_to(pages))] = tables
print(json.dumps(found, indent=0))
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True, help="opendataloader-bench's src folder")
    parser.add_argument("--oracle-python", required=True, help="a Python with beautifulsoup4 and lxml")
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as runner:
        runner.write(RUNNER)
    out = subprocess.run([args.oracle_python, runner.name, args.bench, str(PAGES)], check=True,
                         capture_output=True, text=True).stdout
    Path(runner.name).unlink()
    found = json.loads(out)
    OUT.write_text(json.dumps({"source": "opendataloader-bench b4b95051f81ae94c9fa20b8749f1f1371226bd71",
                               "pages": found}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(found)} pages, {sum(len(t) for t in found.values())} tables")


if __name__ == "__main__":
    main()
