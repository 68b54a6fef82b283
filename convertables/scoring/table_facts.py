"""The ``table-facts`` metric: olmOCR-bench's table tests (docs/scoring.md),
passed or failed, not a similarity.

Each test states facts about one cell of a page: its text, and the texts of
the cells next to it (``up``, ``down``, ``left``, ``right``) or of its headings
(``top_heading``, ``left_heading``). The ground truth is the tests of a page
(the ``olmocr-tests`` format), the result the page's Markdown (read as the
benchmark finds its tables: the ``olmocr-markdown`` format). A test passes
where, in some table of the page, some cell's text is near enough the test's
cell and every fact holds of that cell: among the cells next to it in that
direction (its headings), one's text is near enough the fact's. Texts are
compared normalised (:func:`convertables.olmocr_tables.normalise`) by
rapidfuzz's ``fuzz.ratio`` / 100, near enough at or above ``1 - max_diffs /
len(text)``, and never below 0.5.

A page's Markdown may come as several repeats (``doc_pg1_repeat1.md``,
``doc_pg1_repeat2.md``...): a test passes when it passes on more than half of
them. A page's figure is the share of its tests that pass; the total, the
share of all tests that pass (the benchmark's score of a test file), with the
mean over tests of the share of repeats each passes beside it.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator, Mapping, NamedTuple

from rapidfuzz.fuzz import ratio

from ..diagnostics import Diagnostic, Severity
from ..olmocr_tables import NeighbourGrid, normalise
from .metric import Metric, Scored, ScoreSettings
from .presentation import Rows, Summary, notes, problem, title, warnings_field

FACTS = ("up", "down", "left", "right", "left_heading", "top_heading")
"""A test's facts, in the order they are checked (the order its explanation lists what failed)."""

MISSING = "Missing MD files"
"""The benchmark's explanation of a test whose page has no Markdown."""


class _Page:
    """A page's tables as the tests look at them: each table's grid, with its
    cells' normalised texts worked out once."""

    def __init__(self, result):
        self.grids: list[tuple[dict, dict, dict, bool]] = []
        """Each table's cells' normalised texts, the cells of each text, its relations by the facts' names
        (each a function of a cell), and whether it is a pipe table."""
        pipes = int(result.metadata.get("olmocr_pipe_tables", "0"))
        known: dict[str, str] = {}  # (a page's texts repeat: numbers, empty cells)
        for number, table in enumerate(result.tables):
            grid = NeighbourGrid((c.start_row, c.start_col, c.end_row, c.end_col, c.content or "", c.header)
                                 for region in table.regions for c in region.cells)
            texts = {}
            for key, text in grid.text.items():
                normalised = known.get(text)
                if normalised is None:
                    normalised = known[text] = normalise(text)
                texts[key] = normalised
            by_text: dict[str, list] = {}
            for key, text in texts.items():
                by_text.setdefault(text, []).append(key)
            relations = {"up": grid.up, "down": grid.down, "left": grid.left, "right": grid.right,
                         "left_heading": grid.left_headings, "top_heading": grid.top_headings}
            self.grids.append((texts, by_text, relations, number < pipes))


def _near(expected: str, max_diffs: int) -> float:
    return max(0.5, 1.0 - max_diffs / (len(expected) if len(expected) > 0 else 1))


class _Test(NamedTuple):
    """A test as it is run: its texts normalised, its threshold worked out."""

    cell: str
    facts: list[tuple[str, str, float]]
    """(fact, expected text, its threshold), the facts with a text, in :data:`FACTS`' order."""
    threshold: float
    ignore_markdown_tables: bool


def prepared(test: dict) -> _Test:
    cell = normalise(test["cell"])
    max_diffs = test.get("max_diffs", 0)
    facts = [(key, expected, _near(expected, max_diffs)) for key in FACTS
             if (expected := normalise(test.get(key) or ""))]
    return _Test(cell, facts, _near(cell, max_diffs), bool(test.get("ignore_markdown_tables")))


def run_test(test: dict | _Test, page: _Page) -> tuple[bool, str]:
    """Whether the test passes on the page, and the benchmark's explanation where it fails."""
    cell, facts, threshold, ignore_pipes = test if isinstance(test, _Test) else prepared(test)
    grids = [grid for grid in page.grids if not (grid[3] and ignore_pipes)]
    if not grids:
        return False, "No tables found in the content"
    reasons: list[str] = []
    for texts, by_text, relations, _ in grids:
        if threshold == 1.0:  # (a ratio of 1 is equal texts: found by the text)
            matches = by_text.get(cell, ())
        else:
            matches = [key for key, text in texts.items() if ratio(cell, text) / 100.0 >= threshold]
        for key in matches:
            failed = []
            for fact, expected, near in facts:
                best, best_text, holds = 0, None, False
                for other in relations[fact](key):
                    similarity = ratio(expected, texts[other]) / 100.0
                    if similarity > best:
                        best, best_text = similarity, texts[other]
                    holds = holds or similarity >= near
                if not holds:
                    failed.append(f"Cell compared to '{best_text}' doesn't match expected '{expected}' "
                                  f"(best similarity: {best:.2f})")
            if not failed:
                return True, ""
            reasons += failed
    if not reasons:
        return False, f"No cell matching '{cell}' found in any table with threshold {threshold}"
    return False, f"Found cells matching '{cell}' but relationships were not satisfied: {'; '.join(reasons)}"


class TableFactsMetric(Metric):
    name = "table-facts"
    title = "olmOCR-bench's table tests: facts about a cell, its neighbours and headings, passed or failed"
    variants = ("olmocr",)
    headline = "pass_rate"
    names = {"f1": "pass rate", "pass_rate": "pass rate", "repeat_mean": "mean repeat pass rate"}

    def has_result_repeats(self, settings: ScoreSettings) -> bool:
        return True

    def describe(self, settings: ScoreSettings) -> dict:
        return {
            "variant": "olmocr",
            "normalisation": "olmOCR-bench's: <br> a space, Markdown bold and italics and <b>, <i> taken out, "
                             "whitespace runs one space, NFC, typographic quotes and dashes made plain; texts near "
                             "enough at rapidfuzz's ratio >= max(0.5, 1 - max_diffs / length)",
            "aggregation": "a test passes when it passes on more than half of its page's repeats; a page's "
                           "pass_rate: its tests passed / its tests; total: tests passed / tests (the benchmark's "
                           "score of a test file), repeat_mean: the mean over tests of the repeats passed / repeats",
        }

    def reading_findings(self, findings: list[Diagnostic], settings: ScoreSettings) -> list[Diagnostic]:
        # (the grid check's findings on ragged or overlapping rows are how the benchmark reads tables)
        return [d for d in findings if d.severity is not Severity.INFO and d.code.startswith("olmocr")]

    def score(self, gt, result, settings: ScoreSettings, unreadable: bool = False, gt_file=None) -> dict:
        tests = _tests_of(gt)
        findings = []
        if result is None:
            why = "its Markdown cannot be read" if unreadable else MISSING
            outcomes = [(False, why)] * len(tests)
            if not unreadable:
                findings.append(Diagnostic("olmocr-missing-page", Severity.WARNING, "no Markdown for this page "
                                           "(<pdf>_pg<page>_repeat<N>.md): its tests fail; olmOCR-bench stops "
                                           "without --force"))
        elif result.metadata.get("olmocr_fails"):
            why = f"olmOCR-bench fails on this page: {result.metadata['olmocr_fails']}"
            outcomes = [(False, why)] * len(tests)
            findings.append(Diagnostic("olmocr-benchmark-fails", Severity.WARNING, why + "; its tests fail here"))
        else:
            page = _Page(result)
            outcomes = [run_test(test, page) for test in _prepared_tests(gt)]
        records = [{"id": test["id"], "passed": passed, "repeats_passed": int(passed), "repeats": 1,
                    **({} if passed else {"explanation": why})} for test, (passed, why) in zip(tests, outcomes)]
        record = _page_record(records, 1)
        if unreadable:
            record["unreadable"] = True  # (the benchmark explains a test by the repeats it could read)
        return Scored(record, findings)

    def combined(self, records: list[dict], settings: ScoreSettings) -> dict:
        """One page's record from those of its repeats (each a record of :meth:`score`)."""
        tests = []
        read = [not record.get("unreadable") for record in records]
        for outcomes in zip(*(record["tests"] for record in records)):
            passed = sum(outcome["repeats_passed"] for outcome in outcomes)
            test = {"id": outcomes[0]["id"], "passed": passed / len(outcomes) > 0.5, "repeats_passed": passed,
                    "repeats": len(outcomes)}
            readable_first = sorted(zip(outcomes, read), key=lambda pair: not pair[1])
            explanation = next((o["explanation"] for o, _ in readable_first if "explanation" in o), None)
            if explanation is not None:
                test["explanation"] = explanation
            tests.append(test)
        return _page_record(tests, len(records))

    def aggregate(self, records: Iterable[dict], settings: ScoreSettings) -> dict:
        pages = tests = passed = 0
        ratios = page_rates = 0.0
        files: dict[str, list[int]] = {}
        for record in records:
            pages += 1
            tests += record["test_count"]
            passed += record["passed"]
            ratios += sum(t["repeats_passed"] / t["repeats"] for t in record["tests"])
            page_rates += record["pass_rate"]
            counts = files.setdefault(record["gt_file"].rpartition("#")[0] or record["gt_file"], [0, 0])
            counts[0] += record["test_count"]
            counts[1] += record["passed"]
        total = {"pages": pages, "tests": tests, "passed": passed, "pass_rate": passed / tests if tests else 0.0,
                 "repeat_mean": ratios / tests if tests else 0.0}
        total["f1"] = total["pass_rate"]
        if len(files) > 1:
            total["files"] = {name: {"tests": t, "passed": p, "pass_rate": p / t if t else 0.0}
                              for name, (t, p) in files.items()}
            total["file_mean"] = sum(f["pass_rate"] for f in total["files"].values()) / len(files)
        return {"total": total, "document_mean": {"pass_rate": page_rates / pages if pages else 0.0}}

    def summary(self, report: Mapping) -> Summary:
        columns = [("document", "left"), ("tests", "right"), ("passed", "right"), ("repeats", "right"),
                   ("pass rate", "right")]

        def row(record: dict) -> list[str]:
            if not record.get("counted"):
                return [record["document"], "error" if "error" in record else "skipped", "", "", ""]
            return [record["document"], str(record["test_count"]), str(record["passed"]), str(record["repeats"]),
                    f"{record['pass_rate']:.4f}"]

        total = report["total"]
        totals = [["total (tests)", str(total["tests"]), str(total["passed"]), "", f"{total['pass_rate']:.4f}"],
                  ["mean over repeats", "", "", "", f"{total['repeat_mean']:.4f}"],
                  ["mean over pages", "", "", "", f"{report['document_mean']['pass_rate']:.4f}"]]
        if "files" in total:
            totals += [[name, str(f["tests"]), str(f["passed"]), "", f"{f['pass_rate']:.4f}"]
                       for name, f in total["files"].items()]
            totals.append(["mean over test files", "", "", "", f"{total['file_mean']:.4f}"])
        failed = [f"{r['document']}: {t['id']} failed: {t.get('explanation', '')}" for r in report["documents"]
                  if r.get("counted") for t in r["tests"] if not t["passed"]]
        shown = failed[:20] + ([f"... and {len(failed) - 20} more failed tests (the JSON report has each)"]
                               if len(failed) > 20 else [])
        return Summary(title(report), columns, Rows(report["documents"], row), totals, [*notes(report), *shown])

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        yield ["document", "gt_file", "result_file", "tests", "passed", "repeats", "pass_rate", "failed",
               "error", "warnings"]
        for record in report["documents"]:
            failed = " ".join(t["id"] for t in record.get("tests", ()) if not t["passed"])
            yield [record["document"], record["gt_file"], record["result_file"] or "", record.get("test_count", ""),
                   record.get("passed", ""), record.get("repeats", ""), record.get("pass_rate", ""), failed,
                   problem(record), warnings_field(record)]


# A page's tests, read and prepared once for all its repeats (the same text each time: its hash is kept).
_TESTS: dict[str, tuple[list[dict], list[_Test]]] = {}


def _read_tests(gt) -> tuple[list[dict], list[_Test]]:
    text = gt.metadata.get("olmocr_tests", "[]")
    found = _TESTS.get(text)
    if found is None:
        if len(_TESTS) > 16:
            _TESTS.clear()
        tests = json.loads(text)
        found = _TESTS[text] = (tests, [prepared(test) for test in tests])
    return found


def _tests_of(gt) -> list[dict]:
    return _read_tests(gt)[0]


def _prepared_tests(gt) -> list[_Test]:
    return _read_tests(gt)[1]


def _page_record(tests: list[dict], repeats: int) -> dict:
    passed = sum(1 for t in tests if t["passed"])
    rate = passed / len(tests) if tests else 0.0
    return {"tests": tests, "test_count": len(tests), "passed": passed, "repeats": repeats, "pass_rate": rate,
            "f1": rate}


METRICS = (TableFactsMetric(),)
