"""The HTML report (score --html): one self-contained page, checked as written and as a real
headless Chromium shows it (selenium; skipped where chromium or chromedriver is absent)."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from convertables import Document, UsageError, score, write
from convertables.cli import app
from convertables.htmlreport import histogram_counts, page
from convertables.model import Cell, Region, Table
from tests.conftest import ROOT, corpus_path
from tests.unit.test_explain import GT, RESULT, ctdar_table, doc, grid, page_doc

SAMPLES = ROOT / "samples"
HOSTILE = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def corpus(tmp_path: Path) -> tuple[Path, Path]:
    """Three documents: 'a' with lost relations and a result table no ground truth took, 'b' perfect,
    'c' with half its table found."""
    gt, res = tmp_path / "gt", tmp_path / "res"
    write(GT, gt / "a-str.xml")
    write(RESULT, res / "a-str-result.xml")
    write(doc(grid("P Q | R S")), gt / "b-str.xml")
    write(doc(grid("P Q | R S")), res / "b-str-result.xml")
    write(doc(grid("K L | M N")), gt / "c-str.xml")
    write(doc(grid("K L")), res / "c-str-result.xml")
    return gt, res


# -- the page as written -----------------------------------------------------------------------------

def test_the_page_refers_to_nothing_outside_it_and_forbids_loading_anything(tmp_path: Path):
    gt, res = corpus(tmp_path)
    report = score(gt, res, html=tmp_path / "report.html")
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert text == page(report)
    assert "://" not in text and "@import" not in text and "url(" not in text
    assert re.findall(r'\b(?:src|href|action|srcset)\s*=\s*"(?!#doc-\d+")', text) == []
    assert "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';" in text
    # each document's detail is embedded as JSON text, and the totals are the report's
    assert len(re.findall(r'<script type="application/json" id="detail-\d+">', text)) == 3
    assert f'<td data-key="f1">{report.total["f1"]:.4f}</td>' in text


def test_text_from_the_documents_is_never_markup(tmp_path: Path):
    hostile = doc(Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, HOSTILE), Cell(0, 1, 0, 1, "B")])]))
    hostile.filename = HOSTILE
    report = score(hostile, hostile, explain=True)
    report["documents"][0]["document"] = HOSTILE  # (names come from files; one could be anything)
    text = page(report)
    assert "<script>window.pwned" not in text and "<img src=x" not in text
    assert "&lt;/script&gt;&lt;script&gt;window.pwned" in text  # the name, escaped in the table
    assert "\\u003c/script>\\u003cscript>window.pwned" in text  # the cell, in the detail's JSON


def test_score_writes_the_page_as_other_outputs_refusing_to_replace_or_to_write_among_the_inputs(tmp_path: Path):
    gt, res = corpus(tmp_path)
    target = tmp_path / "out" / "report.html"
    result = invoke("score", "--gt", gt, "--result", res, "--html", target)
    assert result.exit_code == 0, result.output
    first = target.read_bytes()
    assert first.startswith(b"<!DOCTYPE html>") and first.rstrip().endswith(b"</html>")
    result = invoke("score", "--gt", gt, "--result", res, "--html", target)
    assert result.exit_code == 2 and f"error: {target} exists already; pass --force to replace it" in result.output
    assert invoke("score", "--gt", gt, "--result", res, "--html", target, "--force").exit_code == 0
    assert target.read_bytes() == first  # the same page for the same run
    result = invoke("score", "--gt", gt, "--result", res, "--html", res / "x.html")
    assert result.exit_code == 2 and "is one of the inputs; refused even with --force" in result.output
    assert not (res / "x.html").exists()
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]  # no temporary file left
    # --format html: the same page on standard output
    assert invoke("score", "--gt", gt, "--result", res, "--format", "html").stdout.encode() == first


def test_the_library_writes_the_page_too(tmp_path: Path):
    gt, res = corpus(tmp_path)
    with pytest.raises(UsageError, match="exists already; pass force=True"):
        (tmp_path / "taken.html").write_text("mine")
        score(gt, res, html=tmp_path / "taken.html")
    assert (tmp_path / "taken.html").read_text() == "mine"
    report = score(gt, res, explain=True)
    report.write_html(tmp_path / "later.html")
    plain = score(gt, res)
    plain.write_html(tmp_path / "plain.html")  # without details: the numbers, and a word for each document
    text = (tmp_path / "plain.html").read_text()
    assert "no detail was recorded" in text and 'id="detail-' not in text
    assert 'id="detail-0"' in (tmp_path / "later.html").read_text()


def test_the_histogram_counts_counted_documents_by_f1_one_in_the_last_bar():
    records = [{"f1": f, "counted": True} for f in (0.0, 0.05, 0.1, 0.55, 0.99, 1.0)] + [{"f1": 0.3}]
    assert histogram_counts(records) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]


# -- in a browser ----------------------------------------------------------------------------------

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1400,1000")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
    binary = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        pytest.skip("chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    yield driver
    driver.quit()


def show(browser, path: Path) -> float:
    """Open the page and wait for its script to have run (a large page may still be
    loading when the driver hands back); the seconds it took."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    start = time.perf_counter()
    browser.get(path.as_uri())
    try:
        WebDriverWait(browser, 120, poll_frequency=0.05).until(lambda driver: driver.execute_script(
            "return document.readyState === 'complete' && document.body.dataset.ready === '1'"))
    except TimeoutException:
        pytest.fail(f"the page's script did not run: {browser.get_log('browser')}")
    return time.perf_counter() - start


def open_document(browser, i: int):
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, f'a[data-open="{i}"]').click()
    section = browser.find_element(By.ID, f"doc-{i}")
    assert section.get_attribute("open") is not None
    return section


def cell(section, side: str, text: str):
    from selenium.webdriver.common.by import By

    (found,) = [c for c in section.find_elements(By.CSS_SELECTOR, f".side.{side} .cell") if c.text == text]
    return found


def colour(browser, element) -> str:
    return browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", element)


SKY_BLUE, YELLOW, VERMILLION, GREY = "rgb(140, 203, 239)", "rgb(245, 236, 122)", "rgb(224, 123, 60)", \
    "rgb(236, 236, 236)"


def quiet_console(browser) -> list:
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


@pytest.mark.slow
def test_the_page_in_chromium_totals_histogram_sorting_colours_and_a_cells_relations(browser, tmp_path: Path):
    from selenium.webdriver.common.by import By

    gt, res = corpus(tmp_path)
    report = score(gt, res, html=tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    total = browser.find_element(By.CSS_SELECTOR, '#totals tr[data-row="total"] td[data-key="f1"]')
    # 3 + 4 + 1 relations correct of 7 + 4 + 4 in the ground truth, 6 + 4 + 1 detected: 2 x 8 / 26
    assert total.text == f"{report.total['f1']:.4f}" == "0.6154"
    mean = browser.find_element(By.CSS_SELECTOR, '#totals tr[data-row="document_mean"] td[data-key="f1"]')
    assert mean.text == f"{report.document_mean['f1']:.4f}"
    bars = browser.find_elements(By.CSS_SELECTOR, "#histogram rect.bar")
    assert [int(b.get_attribute("data-n")) for b in bars] == [0, 0, 0, 0, 2, 0, 0, 0, 0, 1]  # 0.4615, 0.4, 1

    # sorting by F1, one way then the other
    def names():
        return [r.find_element(By.TAG_NAME, "a").text
                for r in browser.find_elements(By.CSS_SELECTOR, "#documents-table tbody tr")]

    assert names() == ["a", "b", "c"]
    heading = browser.find_element(By.CSS_SELECTOR, '#documents-table th[data-key="f1"]')
    heading.click()
    assert names() == ["c", "a", "b"] and heading.get_attribute("aria-sort") == "ascending"
    heading.click()
    assert names() == ["b", "a", "c"]

    section = open_document(browser, 0)
    # E was read as part of F: E lost all its relations, C some, A none; in the result, the X Y table is unpaired
    assert [colour(browser, cell(section, "gt", t)) for t in "ACE"] == [SKY_BLUE, YELLOW, VERMILLION]
    assert colour(browser, cell(section, "result", "C")) == SKY_BLUE
    assert colour(browser, cell(section, "result", "X")) == VERMILLION
    unpaired = section.find_element(By.CSS_SELECTOR, ".side.result.unpaired")
    assert "unpaired" in unpaired.find_element(By.CSS_SELECTOR, ".badge").text
    cell(section, "gt", "E").click()
    info = section.find_element(By.CSS_SELECTOR, ".pair .info")
    listed = [li.text for li in info.find_elements(By.CSS_SELECTOR, "li")]
    assert listed == ["\u201cD\u201d \u2192 \u201cE\u201d: missed", "\u201cE\u201d \u2192 \u201cF\u201d: missed",
                      "\u201cB\u201d \u2193 \u201cE\u201d: missed"]
    assert sorted(c.text for c in section.find_elements(By.CSS_SELECTOR, ".side.gt .cell.rel")) == ["B", "D", "F"]
    cell(section, "result", "C").click()
    assert [li.text for li in info.find_elements(By.CSS_SELECTOR, "li")] == [
        "\u201cB\u201d \u2192 \u201cC\u201d: right"]
    legend = browser.find_element(By.ID, "legend").text
    assert "all its relations found" in legend and "none found" in legend
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert quiet_console(browser) == []
    browser.save_screenshot(str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_ctdar_b_in_chromium_colours_cells_at_the_threshold_chosen(browser, tmp_path: Path):
    from selenium.webdriver.common.by import By

    gt, res = tmp_path / "gt", tmp_path / "res"
    write(doc(ctdar_table()), gt / "page.xml", "ctdar")
    write(doc(ctdar_table(shift=15)), res / "page.xml", "ctdar")
    score(gt, res, "ctdar-b", html=tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    section = open_document(browser, 0)
    moved = section.find_elements(By.CSS_SELECTOR, ".side.gt .cell")[3]
    assert colour(browser, moved) == SKY_BLUE  # at IoU 0.6 its relations are found
    moved.click()
    assert "IoU 0.739" in section.find_element(By.CSS_SELECTOR, ".partner-line").text
    (at_08,) = [b for b in section.find_elements(By.CSS_SELECTOR, ".levels button") if b.text == "0.8"]
    at_08.click()
    assert colour(browser, moved) == VERMILLION
    moved.click()
    assert "Mapped to no result cell at IoU \u2265 0.8" in section.find_element(By.CSS_SELECTOR, ".partner-line").text
    assert len(section.find_elements(By.CSS_SELECTOR, ".sheet .box")) == 2
    assert quiet_console(browser) == []


@pytest.mark.slow
def test_region_in_chromium_draws_its_pages(browser, tmp_path: Path):
    from selenium.webdriver.common.by import By

    gt_doc, result_doc = page_doc((0, 695, 48, 715)), page_doc((20, 695, 68, 715))
    report = score(gt_doc, result_doc, "region", explain=True)
    report.write_html(tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    section = open_document(browser, 0)
    boxes = section.find_elements(By.CSS_SELECTOR, ".sheet .box")
    assert [b.get_attribute("title") for b in boxes] == ["ground truth 0.0: 5 items, 3 found",
                                                         "result 0.0: 5 items, 3 right"]
    assert colour(browser, boxes[0]) == "rgba(245, 236, 122, 0.45)"
    assert len(section.find_elements(By.CSS_SELECTOR, ".sheet canvas")) == 1
    rows = section.find_elements(By.CSS_SELECTOR, "table.scores tbody tr")
    assert len(rows) == 1 and "3" in rows[0].text
    assert quiet_console(browser) == []


@pytest.mark.slow
def test_hostile_text_is_shown_as_text_in_chromium(browser, tmp_path: Path):
    hostile = doc(Table(0, [Region(0, 1, cells=[Cell(0, 0, 0, 0, HOSTILE), Cell(0, 1, 0, 1, "B")])]))
    report = score(hostile, hostile, explain=True)
    report["documents"][0]["document"] = HOSTILE
    report.write_html(tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    section = open_document(browser, 0)
    assert cell(section, "gt", HOSTILE).text == HOSTILE
    assert browser.execute_script("return window.pwned === undefined")


@pytest.mark.slow
def test_the_icdar_2013_results_in_chromium(browser, tmp_path: Path):
    from selenium.webdriver.common.by import By

    gt, res = corpus_path("icdar2013", "gt"), corpus_path("icdar2013_results", "namysl")
    result = invoke("score", "--gt", gt, "--result", res, "--html", tmp_path / "report.html", "--jobs", "2")
    assert result.exit_code == 0, result.output
    show(browser, tmp_path / "report.html")
    rows = browser.find_elements(By.CSS_SELECTOR, "#documents-table tbody tr")
    assert len(rows) == 67
    assert browser.find_element(By.CSS_SELECTOR, '#totals tr[data-row="total"] td[data-key="f1"]').text == "0.9196"
    assert sum(int(b.get_attribute("data-n")) for b in browser.find_elements(By.CSS_SELECTOR, "#histogram .bar")) == 67
    (eu_018,) = [int(r.get_attribute("data-i")) for r in rows if r.text.startswith("eu-018 ")]
    section = open_document(browser, eu_018)
    assert len(section.find_elements(By.CSS_SELECTOR, ".pair")) == 2
    assert section.find_elements(By.CSS_SELECTOR, ".side.gt .cell.o-N")
    # no section is drawn before it is opened
    assert browser.execute_script("return document.querySelectorAll('details.doc[data-drawn]').length") == 1
    assert quiet_console(browser) == []
    browser.save_screenshot(str(tmp_path / "icdar2013.png"))


@pytest.mark.slow
def test_the_pubmed_set_in_chromium(browser, tmp_path: Path):
    from selenium.webdriver.common.by import By

    gt = corpus_path("pubmed_gt", "gt")
    result = invoke("score", "--gt", gt, "--result", gt, "--variant", "pubmed", "--html", tmp_path / "report.html",
                    "--jobs", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    show(browser, tmp_path / "report.html")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#documents-table tbody tr")) == 863
    section = open_document(browser, 862)
    outcomes = {c.get_attribute("data-o") for c in section.find_elements(By.CSS_SELECTOR, ".cell")}
    assert outcomes and outcomes <= {"A", "-"}  # the ground truth against itself: every relation found
    assert quiet_console(browser) == []


@pytest.mark.slow
def test_a_metric_that_aligns_cells_colours_them_and_names_each_ones_partner(browser, tmp_path: Path):
    """What TEDS or GriTS could give (kind "cells"): outcomes of the cells themselves, partners with a similarity."""
    import json

    from selenium.webdriver.common.by import By

    from convertables.scoring.explain import Details, table_grid

    table = grid("A B")
    gt, result = table_grid(table), table_grid(table)
    gt.update(outcome=["A", "S"], partners=[[[0, 1.0]], [[1, 0.5]]])
    result.update(outcome=["A", "N"], partners=[[[0, 1.0]], [[-1, 0.0]]])
    detail = {"kind": "cells", "levels": [], "measure": "similarity", "notes": [],
              "pairs": [{"gt": gt, "result": result, "scores": {"teds": 0.75}, "counted": True}]}
    report = score(doc(table), doc(table))
    report.details = Details()
    report.details.add(0, json.dumps(detail))
    report.write_html(tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    assert "matched in part" in browser.find_element(By.ID, "legend").text
    section = open_document(browser, 0)
    assert "teds 0.7500" in section.find_element(By.CSS_SELECTOR, ".caption").text
    assert [colour(browser, cell(section, side, "B")) for side in ("gt", "result")] == [YELLOW, VERMILLION]
    cell(section, "gt", "B").click()
    line = section.find_element(By.CSS_SELECTOR, ".partner-line").text
    assert line == "Mapped to result cell \u201cB\u201d, similarity 0.500."
    cell(section, "result", "B").click()
    assert section.find_element(By.CSS_SELECTOR, ".partner-line").text == "Mapped to no ground-truth cell."
    assert quiet_console(browser) == []


@pytest.mark.slow
def test_teds_in_chromium_colours_cells_by_the_tree_edit_mapping(browser, tmp_path: Path):
    """A cell's text changed (12.5 -> 12.8: one edit in four characters, similarity 0.75) and a row lost."""
    from selenium.webdriver.common.by import By

    def page_of(rows: list[list[str]]) -> str:
        body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in row) + "</tr>" for row in rows)
        return f"<html><body><table>{body}</table></body></html>"

    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    (gt / "t.html").write_text(page_of([["Name", "Value"], ["a", "12.5"], ["b", "41"], ["c", "7"]]))
    (res / "t.html").write_text(page_of([["Name", "Value"], ["a", "12.8"], ["b", "41"]]))
    score(gt, res, "teds", html=tmp_path / "report.html")
    show(browser, tmp_path / "report.html")
    section = open_document(browser, 0)
    assert [colour(browser, cell(section, "gt", text)) for text in ("a", "12.5", "c", "7")] == [
        SKY_BLUE, YELLOW, VERMILLION, VERMILLION]
    cell(section, "gt", "12.5").click()
    line = section.find_element(By.CSS_SELECTOR, ".partner-line").text
    assert line.startswith("Mapped to result cell \u201c12.8\u201d") and line.endswith(" 0.750.")
    cell(section, "gt", "c").click()
    assert section.find_element(By.CSS_SELECTOR, ".partner-line").text == "Mapped to no result cell."
    assert quiet_console(browser) == []
