"""What a new user meets first: every help screen whole, the values options take,
and the shortcuts the registry makes."""

from __future__ import annotations

import inspect
import re
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import registry
from convertables.cli import app
from tests.acceptance.test_html_report import browser, quiet_console, show  # noqa: F401 (a fixture)

from conftest import ROOT, load_script

_root_and_commands = load_script(ROOT / "tools" / "cli_reference.py")._root_and_commands

runner = CliRunner()
WIDE = {"COLUMNS": "3000"}  # (nothing wrapped: each help text on one line of the screen)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _help(*words: str) -> str:
    result = runner.invoke(app, [*words, "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    return _flat(result.output)


def _paragraphs(help_text: str) -> list[str]:
    return [_flat(p) for p in inspect.cleandoc(help_text).split("\n\n") if p.strip()]


def _commands():
    _, _, commands = _root_and_commands()
    return commands


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name, _ in _commands()] + ["textract2icdar"])
def test_every_help_screen_shows_every_character_of_its_texts(name):
    group, ctx, _ = _root_and_commands()
    command = group.get_command(ctx, name)
    shown = _help(name)
    for paragraph in _paragraphs(command.help):
        assert paragraph in shown, paragraph
    for param in command.params:
        if getattr(param, "help", None) and not param.hidden:
            assert _flat(param.help) in shown, (param.name, param.help)


def test_the_help_keeps_tags_and_brackets():
    shown = _help("score")
    assert "the text of <th> cells" in shown and "or compare it as for <td>." in shown
    assert "(doc-page-<p>-table-<k>.csv...)" in shown
    assert "[default: the CPUs this process may use" in shown
    root = _help()
    for name in registry.FORMATS:  # the tagline names every format of the registry
        assert f" {name}," in root or f" {name}." in root
    assert "A shortcut SOURCE2TARGET (icdar2json, textract2icdar, ...) is convert --from SOURCE --to TARGET" in root


# Options that take free text (or a number, a path): every other option lists its values.
FREE_TEXT = {"--encoding", "--complexity", "--drop-tags"}


@pytest.mark.parametrize("name", ["convert", "icdar2json", "formats", "check", "score", "merge-reports"])
def test_options_with_a_fixed_set_of_values_list_them(name):
    shown = _help(name)
    rows = re.findall(r"│\s+(?:\*\s+)?(--[a-z-]+)(?:\s+-[a-z])?\s+<str>", shown)
    assert set(rows) <= FREE_TEXT, rows


def test_the_values_of_format_variant_and_result_format_are_shown():
    score = _help("score")
    assert "--format text|json|github|csv|html" in score
    assert "--variant icdar2013|pubmed|chars|area|marmot|ctdar2019|pubtabnet|pubtables1m" in score
    readers = "|".join(f.name for f in registry.FORMATS.values() if f.reads)
    assert f"--result-format {readers}" in score
    assert "--format text|json|github" in _help("check") and "--model region|structure" in _help("check")
    assert "--format text|json" in _help("convert") and "--format text|json" in _help("formats")


def test_score_examples_cover_teds_grits_and_the_html_report():
    shown = _help("score")
    assert "--metric teds" in shown and "--metric grits" in shown and "--html report.html" in shown


TEXTRACT = (Path(__file__).parents[1] / "cases" / "textract" / "merged-cells-headers-title-footer"
            / "input.json")


def test_any_reader_to_any_writer_is_a_shortcut(tmp_path):
    by_shortcut, by_convert = tmp_path / "a" / "page-str.xml", tmp_path / "b" / "page-str.xml"
    result = runner.invoke(app, ["textract2icdar", str(TEXTRACT), "-o", str(by_shortcut)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["convert", str(TEXTRACT), "--from", "textract", "--to", "icdar",
                                 "-o", str(by_convert)])
    assert result.exit_code == 0, result.output
    assert by_shortcut.read_bytes() == by_convert.read_bytes() and b"<cell " in by_shortcut.read_bytes()
    # a name with a hyphen, and a shortcut's own help listing its two formats' options only
    assert "--box-frame" not in _help("pubtabnet-html2icdar") and "--model" in _help("pubtabnet-html2icdar")
    # not listed: the list keeps the seed shortcuts, and says the rule
    listing = _help()
    assert " textract2icdar " not in listing and " icdar2json " in listing


@pytest.mark.parametrize("name, why", [
    ("icdar2textract", "No such command 'icdar2textract': textract cannot be written"),
    ("icdar2nothing", "No such command 'icdar2nothing'"),
])
def test_a_shortcut_that_cannot_be_says_why(name, why):
    result = runner.invoke(app, [name, str(TEXTRACT)], env=WIDE)
    assert result.exit_code == 2 and why in _flat(result.output), result.output


@pytest.mark.parametrize("head, kind", [
    (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "a PDF"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "a JPEG image"),
    (b"II*\x00\x08\x00\x00\x00", "a TIFF image"),
])
@pytest.mark.parametrize("how", [["--to", "icdar"], ["--from", "icdar", "--to", "json"]])
def test_a_pdf_or_an_image_says_what_turns_it_into_a_readable_format(tmp_path, head, kind, how):
    page = tmp_path / ("eu-001.xml" if "--from" in how else "eu-001.pdf")  # (a name that says nothing either)
    page.write_bytes(head + b"\x00" * 200)
    result = runner.invoke(app, ["convert", str(page), *how, "-o", str(tmp_path / "out.xml")], env=WIDE)
    assert result.exit_code == 1, result.output
    line = _flat(result.output)
    assert f"{page}: error pdf-or-image {kind}: it holds no table structure convertables can read" in line
    for extractor in ("AWS Textract (textract)", "ABBYY FineReader (abbyy)", "docling (docling)",
                      "Camelot, Tabula or pdfplumber (csv)"):
        assert extractor in line
    assert "pass --from" not in line and not (tmp_path / "out.xml").exists()


# -- check: a report a person can read ----------------------------------------------------

def _region(table: int, ids: list[int]) -> str:
    cells = "".join(f'<cell id="{i}" start-row="{n}" start-col="0"><bounding-box x1="72" y1="{700 - 14 * n}" '
                    f'x2="140" y2="{712 - 14 * n}"/><content>c{n}</content></cell>' for n, i in enumerate(ids))
    return f'<table id="{table}"><region id="1" page="1" col-increment="0" row-increment="0">{cells}</region></table>'


def _icdar(*tables: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<document filename="x.pdf">{"".join(tables)}</document>\n'


def test_check_groups_repeats_puts_errors_first_and_counts_by_code(tmp_path):
    folder = tmp_path / "gt"
    folder.mkdir()
    # a-str: one repeated id in each of three tables (three duplicate-id findings in one file)
    (folder / "a-str.xml").write_text(_icdar(*(_region(t, [1, 1, 2]) for t in (1, 2, 3))))
    (folder / "b-str.xml").write_text(_icdar(_region(1, [1, 1])))
    # c-str, checked last: an error
    (folder / "c-str.xml").write_text(_icdar(_region(1, [1, 2])).replace('x1="72"', 'x1="7ß"', 1))
    (folder / "d.xml").write_text(_icdar(_region(1, [1, 2])))  # a name that does not say the model: an info
    result = runner.invoke(app, ["check", str(folder)], env=WIDE)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[1].split(" ", 2)[:2] for line in lines] == [
        ["error", "bad-number"], ["error", "xsd"], ["warning", "duplicate-id"], ["warning", "duplicate-id"]]
    assert lines[0].startswith(f"{folder / 'c-str.xml'}:")
    assert lines[2].startswith(f"{folder / 'a-str.xml'}:") and lines[2].endswith(
        "(and 2 more duplicate-id in this file; -v shows each)")
    assert lines[3].startswith(f"{folder / 'b-str.xml'}:") and "more" not in lines[3]
    assert result.stderr.strip() == ("2 error(s), 4 warning(s), 1 info(s) (-v shows them) in 4 file(s): "
                                     "1 bad-number, 1 xsd, 4 duplicate-id, 1 file-name")
    verbose = runner.invoke(app, ["check", str(folder), "-v"], env=WIDE)
    assert len(verbose.stdout.splitlines()) == 2 + 4 + 1 and "info file-name" in verbose.stdout.splitlines()[-1]
    quiet = runner.invoke(app, ["check", str(folder), "-q"], env=WIDE)
    assert len(quiet.stdout.splitlines()) == 2


@pytest.mark.slow
def test_check_of_the_official_ground_truth_shows_its_three_defects_first(corpus):
    gt, pdf = corpus("icdar2013", "gt"), corpus("icdar2013", "pdf")
    result = runner.invoke(app, ["check", str(gt), "--pdf-dir", str(pdf)], env=WIDE)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    # us-002's col-end, us-018's x1='26ß', us-035a/b's inverted box: before the 153 duplicate ids
    first = [(Path(line.split(":", 1)[0]).name, line.split(": ", 1)[1].split(" ", 2)[1]) for line in lines[:6]]
    assert first == [("us-018-str.xml", "bad-number"), ("us-002-str.xml", "xsd"), ("us-018-str.xml", "xsd"),
                     ("us-002-str.xml", "unknown-attribute"), ("us-035a-str.xml", "box-inverted"),
                     ("us-035b-str.xml", "box-inverted")]
    assert sum(" duplicate-id " in line for line in lines) < 153 and len(lines) < 80
    assert result.stderr.strip().endswith("3 error(s), 160 warning(s) in 69 file(s): 2 xsd, 1 bad-number, "
                                          "153 duplicate-id, 4 box-outside-page, 2 box-inverted, "
                                          "1 unknown-attribute")


# -- progress: on a terminal, never in a pipe -----------------------------------------------

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "icdar" / "sample-str.xml"


def _run(args: list[str], terminal: bool) -> tuple[int, str]:
    """The command in a process of its own, its standard error a terminal (a
    pseudo-terminal) or a pipe: (exit code, what it wrote there)."""
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "convertables", *args]
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    if not terminal:
        done = subprocess.run(command, capture_output=True, env=env, timeout=120)
        return done.returncode, done.stderr.decode("utf-8", "replace")
    pty = pytest.importorskip("pty")
    main, other = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=other, env=env)
    os.close(other)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # (the other end closed)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    return process.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.parametrize("command, word", [("convert", "converting"), ("check", "checking"), ("score", "scoring")])
def test_long_commands_show_one_progress_bar_on_a_terminal_and_none_in_a_pipe(tmp_path, command, word):
    folder = tmp_path / "gt"
    folder.mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}-str.xml").write_bytes(SAMPLE.read_bytes())
    args = {"convert": ["convert", str(folder), "--to", "json", "-o", str(tmp_path / "out")],
            "check": ["check", str(folder)],
            "score": ["score", "--gt", str(folder), "--result", str(folder), "--jobs", "1"]}[command]
    code, shown = _run(args, terminal=True)
    assert code == 0, shown
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert re.search(rf"{word} ━+ 3/3 ", plain), plain  # the same look: what, a bar, done of all
    code, piped = _run([*args, "--force"] if command == "convert" else args, terminal=False)
    assert code == 0, piped
    assert word not in piped and "━" not in piped and "\x1b[" not in piped


# -- the reports speak each metric's language ----------------------------------------------

def _html_tables(folder: Path, rows_of: dict[str, list[list[str]]]) -> Path:
    folder.mkdir()
    for name, rows in rows_of.items():
        body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>" for row in rows)
        (folder / f"{name}.html").write_text(
            f"<html><body><table><tr><th>Name</th><th>Value</th></tr>{body}</table></body></html>")
    return folder


def _visible_text(page: str) -> str:
    """The page's text as a reader sees it: no script, no tags."""
    import html as html_module

    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<style\b.*?</style>", " ", page, flags=re.S)
    return _flat(html_module.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("metric, headline, columns", [
    ("teds", "TEDS", "TEDS TEDS-struct"),
    ("grits", "GriTS_Con", "GriTS_Con GriTS_Top GriTS_Loc acc_con"),
])
def test_a_table_similarity_report_names_its_headline_not_f1(tmp_path, metric, headline, columns):
    gt = _html_tables(tmp_path / "gt", {"t": [["a", "12.5"], ["b", "41"], ["c", "7"]], "u": [["a", "1"]]})
    res = _html_tables(tmp_path / "res", {"t": [["a", "12.8"], ["b", "41"]], "u": [["a", "1"]]})
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--metric", metric,
                                 "--html", str(tmp_path / "report.html")], env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"document tables {columns}" in _flat(result.stdout) and "F1" not in result.stdout
    page = (tmp_path / "report.html").read_text()
    shown = _visible_text(page)
    assert "F1" not in shown and "F1" not in re.sub(r"<script>.*?</script>", "", page, flags=re.S)
    assert f"{headline} of the documents" in shown
    assert re.search(rf"<th [^>]*data-key=\"{re.escape(metric if metric == 'teds' else 'grits_con')}\">"
                     rf"{headline}</th>", page)
    assert re.search(rf'<span class="figure">{headline} 1\.0000</span>', page)
    assert f"{headline} in [0.9, 1.0]: 1 document" in page
    if metric == "teds":  # the note on <th> cells says what the legend says, no letter of the edit script
        assert "a \\u003cth> cell mapped to a \\u003cth> cell is matched whole, whatever their texts" in page
        assert " is A " not in page


@pytest.mark.parametrize("metric, folder, headline", [("structure", "icdar", "F1"), ("ctdar-b", "ctdar", "WAvg F1")])
def test_the_adjacency_reports_keep_f1_and_wavg_f1(tmp_path, metric, folder, headline):
    sample = next((Path(__file__).resolve().parents[2] / "samples" / folder).glob("*.xml"))
    if metric == "structure":
        sample = sample.with_name("sample-str.xml")
    result = runner.invoke(app, ["score", "--gt", str(sample), "--result", str(sample), "--metric", metric,
                                 "--html", str(tmp_path / "report.html")], env=WIDE)
    assert result.exit_code == 0, result.output
    assert headline in result.stdout
    page = (tmp_path / "report.html").read_text()
    assert f"{headline} of the documents" in _visible_text(page)
    assert f'<span class="figure">{headline} 1.0000</span>' in page


def test_the_page_states_the_clearance_below_the_sticky_legend():
    from convertables.htmlreport import _asset

    assert re.search(r"details\.doc \{[^}]*scroll-margin-top: calc\(var\(--legend-height", _asset("page.css"))
    assert "scrollIntoView" in _asset("page.js")


@pytest.mark.slow
def test_a_link_to_a_document_opens_it_below_the_legend_in_chromium(browser, tmp_path):
    """report.html#doc-19: the section opens, scrolled so that the sticky legend leaves its title in view."""
    names = [f"d{i:02}" for i in range(30)]
    rows = {name: [["a", str(i)], ["b", "x"]] for i, name in enumerate(names)}
    gt = _html_tables(tmp_path / "gt", rows)
    res = _html_tables(tmp_path / "res", {name: [["a", "0"]] for name in names})
    report = tmp_path / "report.html"
    result = runner.invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--metric", "teds",
                                 "--html", str(report)])
    assert result.exit_code == 0, result.output
    for how in ("load", "hashchange"):
        if how == "load":
            browser.get(report.as_uri() + "#doc-19")
        else:
            show(browser, report)
            browser.execute_script("location.hash = '#doc-7'")
        target = "doc-19" if how == "load" else "doc-7"
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 60, poll_frequency=0.05).until(lambda driver: driver.execute_script(
            "var d = document.getElementById(arguments[0]);"
            "return document.body.dataset.ready === '1' && d.open && d.dataset.drawn", target))
        time.sleep(0.3)  # (a smooth scroll, where there is one, ends)
        title, legend, view = browser.execute_script(
            "var s = document.querySelector('#' + arguments[0] + ' > summary').getBoundingClientRect();"
            "var l = document.getElementById('legend').getBoundingClientRect();"
            "return [[s.top, s.bottom], [l.top, l.bottom], window.innerHeight];", target)
        assert legend[1] > legend[0] and legend[0] <= 1  # the legend is stuck at the top of the window
        assert legend[1] <= title[0] < view / 3, (how, title, legend)  # the title just below it, not under it
    assert quiet_console(browser) == []


# -- where the test data comes from ---------------------------------------------------------

@pytest.mark.slow
def test_without_the_corpus_each_data_set_is_one_skip_line(tmp_path):
    """Tests that ask for the corpus in their body and through fixtures, two data sets."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider", "tests/unit/test_pubtabnet.py"],
        cwd=root, capture_output=True, text=True, timeout=600,
        env={**os.environ, "CONVERTABLES_CORPUS": str(tmp_path / "none")})
    skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 2, done.stdout
    assert {re.sub(r"SKIPPED \[\d+\] ", "", line) for line in skips} == {
        f"tests/conftest.py:{line}: shared corpus data set {name!r} not found (set CONVERTABLES_CORPUS)"
        for name in ("pubtabnet", "fintabnet") for line in [_corpus_path_line()]}


def _corpus_path_line() -> int:
    from tests.conftest import corpus_path

    return corpus_path.__code__.co_firstlineno


def test_readme_names_the_corpus_sources_and_the_variable():
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "CONVERTABLES_CORPUS" in readme
    for folder in ("icdar2013", "icdar2013_results", "ctdar2019", "pubmed_gt", "pubtabnet", "fintabnet",
                   "pubtables1m", "pod", "exports"):
        assert f"`{folder}/" in readme, folder
    for source in ("ICDAR 2013", "cTDaR", "PubMed", "PubTabNet", "PROVENANCE.md"):
        assert source in readme


def test_page_sizes_are_read_without_the_characters_and_agree_with_them(corpus, tmp_path):
    from convertables.diagnostics import InputError
    from convertables.pdf import page_sizes, read_pdf

    for name in ("eu-001", "eu-015", "us-022"):  # (eu-015: pages displayed rotated)
        pdf = corpus("icdar2013", "pdf", f"{name}.pdf")
        assert page_sizes(pdf) == read_pdf(pdf).sizes and page_sizes(pdf)
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    for path, message in ((bad, "not a readable PDF"), (tmp_path, "is not a file")):
        with pytest.raises(InputError) as raised:
            page_sizes(path)
        assert raised.value.diagnostic.code == "pdf-unreadable" and message in raised.value.diagnostic.message


@pytest.mark.parametrize("name", ["convert", "check", "score", "merge-reports"])
def test_examples_keep_their_indentation_under_their_heading(name):
    output = runner.invoke(app, [name, "--help"], env=WIDE).output
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    heading = lines.index(" Examples:")
    assert lines[heading + 1].startswith(" " * 5 + "convertables "), lines[heading + 1]
