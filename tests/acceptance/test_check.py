"""Pre-flight checks: example files under tests/cases/check/ named
``<code>--<what>.<ext>`` must produce ``<code>`` (as an error or a warning);
``ok--<what>.<ext>`` must produce neither. A new case is a new file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from convertables.checks import CheckOptions, check_paths
from convertables.diagnostics import Severity
from tests.conftest import CASES, ROOT, corpus_path
from tests.acceptance.test_cli import invoke

CHECK_CASES = sorted((CASES / "check").iterdir())


@pytest.mark.parametrize("case", CHECK_CASES, ids=[p.name for p in CHECK_CASES])
def test_check_case(case: Path):
    code = case.name.split("--")[0]
    findings = [f for f in check_paths([case]) if f.severity is not Severity.INFO]
    if code == "ok":
        assert findings == []
    else:
        assert code in {f.code for f in findings}, [f.format() for f in findings]
        assert all(f.file == str(case) for f in findings)


def test_every_emitted_code_is_documented():
    source = "\n".join(p.read_text() for p in (ROOT / "convertables").rglob("*.py"))
    emitted = set(re.findall(r'\.(?:error|warning|info|fail|add)\(\s*"([a-z0-9-]+)"', source))
    emitted |= set(re.findall(r'(?:Diagnostic|_finding|_fail|_error)\(\s*"([a-z0-9-]+)"', source))
    emitted |= set(re.findall(r'error ([a-z]+(?:-[a-z]+)+) \{', source))  # codes in preformatted lines
    documented = set(re.findall(r"^\| `([a-z0-9-]+)`", (ROOT / "docs" / "diagnostics.md").read_text(), re.M))
    assert len(emitted) > 40
    assert emitted - documented == set()


def test_reporters_and_exit_codes(tmp_path):
    bad = CASES / "check" / "slot-overlap--two-cells-one-slot-str-result.xml"
    clean = CASES / "check" / "ok--clean-str-result.xml"
    warn = CASES / "check" / "duplicate-id--repeated-ids-str-result.xml"
    result = invoke("check", bad)
    assert result.exit_code == 1
    assert f"{bad}:6: error slot-overlap" in result.output
    assert invoke("check", clean).exit_code == 0
    assert invoke("check", warn).exit_code == 0 and invoke("check", warn, "--strict").exit_code == 1
    report = json.loads(invoke("check", bad, "--format", "json").stdout)
    item = next(f for f in report["findings"] if f["code"] == "slot-overlap")
    assert {k: item[k] for k in ("code", "severity", "file", "line")} == {
        "code": "slot-overlap", "severity": "error", "file": str(bad), "line": 6}
    github = invoke("check", bad, "--format", "github").stdout
    assert f"::error file={bad},line=6,title=slot-overlap::" in github
    assert invoke("check", tmp_path / "nope").exit_code == 2
    assert invoke("check", clean, "--format", "yaml").exit_code == 2


def test_pairing_with_ground_truth(tmp_path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    clean = (CASES / "check" / "ok--clean-str-result.xml").read_text()
    for name in ("a-str.xml", "b-str.xml"):
        (gt / name).write_text(clean)
    (res / "a-str-result.xml").write_text(clean)
    (res / "c-str-result.xml").write_text(clean)
    codes = {(f.code, Path(f.file).name) for f in check_paths([res], CheckOptions(gt=gt))}
    assert ("gt-without-result", "b-str.xml") in codes
    assert ("result-without-gt", "c-str-result.xml") in codes
    moved = clean.replace('y1="700"', 'y1="-100"').replace('y2="712"', 'y2="-90"')
    (res / "a-str-result.xml").write_text(moved)
    codes = {f.code for f in check_paths([res / "a-str-result.xml"], CheckOptions(gt=gt))}
    assert "frame-mismatch" in codes


def test_result_variants_have_their_ground_truth_where_names_do_not_follow_icdar_2013(tmp_path):
    gt, res = tmp_path / "gt", tmp_path / "res"
    gt.mkdir()
    res.mkdir()
    clean = (CASES / "check" / "ok--clean-str-result.xml").read_text()
    (gt / "PMC1.xml").write_text(clean)
    moved = clean.replace('y1="700"', 'y1="-100"').replace('y2="712"', 'y2="-90"')
    for name, text in (("PMC1_1.xml", clean), ("PMC1_2.xml", moved), ("PMC2_1.xml", clean)):
        (res / name).write_text(text)
    findings = {(f.code, Path(f.file).name) for f in check_paths([res], CheckOptions(gt=gt))
                if f.code in ("result-without-gt", "gt-without-result", "frame-mismatch")}
    # each variant is compared with PMC1's ground truth; PMC2 has none
    assert findings == {("frame-mismatch", "PMC1_2.xml"), ("result-without-gt", "PMC2_1.xml")}
    # other names ending in _1 are documents of their own: eu-001 has no result
    other = tmp_path / "other"
    (other / "gt").mkdir(parents=True)
    (other / "res").mkdir()
    (other / "gt" / "eu-001.xml").write_text(clean)
    (other / "res" / "eu-001_1.xml").write_text(clean)
    findings = {(f.code, Path(f.file).name) for f in check_paths([other / "res"], CheckOptions(gt=other / "gt"))
                if f.code in ("result-without-gt", "gt-without-result")}
    assert findings == {("gt-without-result", "eu-001.xml"), ("result-without-gt", "eu-001_1.xml")}


def test_names_ending_in_a_and_b_are_alternatives_only_where_they_follow_icdar_2013(tmp_path):
    clean = (CASES / "check" / "ok--clean-str-result.xml").read_text()
    page = (ROOT / "samples" / "ctdar" / "sample.xml").read_text()
    for folder, names, result, text in (("icdar", ("eu-9a-str.xml", "eu-9b-str.xml"), "eu-9a-str-result.xml", clean),
                                        ("ctdar", ("p1a.xml", "p1b.xml"), "p1a.xml", page)):
        gt, res = tmp_path / folder / "gt", tmp_path / folder / "res"
        gt.mkdir(parents=True)
        res.mkdir()
        for name in names:
            (gt / name).write_text(text)
        (res / result).write_text(text)
        findings = check_paths([res], CheckOptions(gt=gt))
        unpaired = {Path(f.file).name for f in findings if f.code == "gt-without-result"}
        # eu-9a's result serves eu-9b too, its alternative; p1b is a cTDaR page of its own, without a result
        assert unpaired == (set() if folder == "icdar" else {"p1b.xml"})


@pytest.mark.slow
def test_the_real_ground_truth_defects_are_found():
    gt = corpus_path("icdar2013", "gt")
    findings = check_paths([gt], CheckOptions(pdf_dir=corpus_path("icdar2013", "pdf")))
    errors = {(Path(f.file).name, f.code, f.line) for f in findings if f.severity is Severity.ERROR}
    assert errors == {
        ("us-002-str.xml", "xsd", 1656),
        ("us-018-str.xml", "xsd", 7902),
        ("us-018-str.xml", "bad-number", 7902),
    }
    found = {(Path(f.file).name, f.code, f.line) for f in findings}
    assert ("us-002-str.xml", "unknown-attribute", 1656) in found
    assert ("us-035a-str.xml", "box-inverted", 338) in found and ("us-035b-str.xml", "box-inverted", 338) in found


def test_pages_and_boxes_against_the_pdf(tmp_path):
    pdf_dir = corpus_path("icdar2013", "pdf")
    clean = (CASES / "check" / "ok--clean-str-result.xml").read_text()
    (tmp_path / "eu-001-str-result.xml").write_text(clean.replace('page="1"', 'page="9"'))
    (tmp_path / "eu-002-str-result.xml").write_text(clean.replace('x2="90"', 'x2="2000"'))
    findings = {(Path(f.file).name, f.code) for f in check_paths([tmp_path], CheckOptions(pdf_dir=pdf_dir))}
    assert ("eu-001-str-result.xml", "page-missing") in findings
    assert ("eu-002-str-result.xml", "box-outside-page") in findings


def test_a_bug_of_ours_on_one_file_is_one_line_and_the_others_are_checked(tmp_path, monkeypatch):
    import convertables.checks as check

    clean = CASES / "check" / "ok--clean-str-result.xml"
    for name in ("a-str-result.xml", "b-str-result.xml"):
        (tmp_path / name).write_bytes(clean.read_bytes())
    rules = check._document_rules
    checked = []

    def fail_on_b(path, *args):
        checked.append(path.name)
        if path.name.startswith("b"):
            raise ZeroDivisionError("division by zero")
        return rules(path, *args)

    monkeypatch.setattr(check, "_document_rules", fail_on_b)
    result = invoke("check", tmp_path)
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if " error " in line]
    assert errors == [f"{tmp_path / 'b-str-result.xml'}: error internal-error unexpected ZeroDivisionError: division "
                      "by zero (hint: please report this with the input file)"]
    assert "Traceback" not in result.output and sorted(checked) == ["a-str-result.xml", "b-str-result.xml"]


@pytest.mark.parametrize("case, code, line", [
    ("index-spaces--space-before-a-number-str-result.xml", "index-spaces", 9),  # Integer.parseInt(" 1")
    ("no-page--page-less-region-str-result.xml", "no-page", 4),  # Integer.parseInt("")
    ("page-below-one--page-zero-str-result.xml", "page-below-one", 4),  # -reg: pdfResult.get(-1)
    ("bad-number--float-index-str-result.xml", "bad-number", 6),  # Integer.parseInt("1.0")
    ("bad-number--comma-decimal-reg-result.xml", "bad-number", 3),  # Float.parseFloat("10,5")
    ("grid-negative--negative-column-str-result.xml", "grid-negative", 6),  # setCell(-1, ...)
])
def test_what_the_official_tool_fails_on_is_an_error_with_its_line(case, code, line):
    """The official ICDAR 2013 tool stops with an exception on each of these (run on these
    very files, with a ground truth beside them): check says so as an error, with the line."""
    path = CASES / "check" / case
    found = [(f.severity, f.line) for f in check_paths([path]) if f.code == code]
    assert found == [(Severity.ERROR, line)]


def test_a_page_less_region_is_an_error_where_the_name_says_a_submission(tmp_path):
    """The biomedical benchmark's files leave pages out (PMC ids for names): a warning there."""
    text = (CASES / "check" / "no-page--page-less-region-str-result.xml").read_text()
    (tmp_path / "PMC123.xml").write_text(text)
    assert [f.severity for f in check_paths([tmp_path / "PMC123.xml"]) if f.code == "no-page"] == [Severity.WARNING]
