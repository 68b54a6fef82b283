"""The ICDAR 2013 reader and writer on the real public data (skipped where absent)."""

from __future__ import annotations

import pytest
from lxml import etree

from convertables import ReadOptions, WriteOptions
from convertables.diagnostics import Diagnostics, Severity
from convertables.formats import canonical_json, icdar
from convertables.validation import validate_json, validate_xml
from convertables.files import read_document
from tests.conftest import corpus_path
from tests.helpers import grid, without_blank_cells


def _gt_files(pattern: str = "*.xml"):
    return sorted(corpus_path("icdar2013", "gt").glob(pattern))


def _read(path, **options):
    diagnostics = Diagnostics(str(path))
    doc = icdar.read(path.read_bytes(), diagnostics, ReadOptions(**options)).document
    return doc, diagnostics


def test_every_ground_truth_file_reads():
    files = _gt_files()
    assert len(files) == 142
    total_cells = 0
    for path in files:
        doc, diagnostics = _read(path)
        assert doc.tables, path.name
        total_cells += sum(len(r.cells) for r in doc.regions())
        unexpected = [d for d in diagnostics if d.severity is Severity.ERROR and "us-018" not in path.name]
        assert not unexpected, unexpected
    # 14,530 <cell> elements in the 71 structure files, none dropped.
    assert total_cells == 14530


def test_known_malformations_are_reported_with_file_and_line():
    gt = corpus_path("icdar2013", "gt")
    _, d018 = _read(gt / "us-018-str.xml")
    bad = [d for d in d018 if d.code == "bad-number"]
    assert [(d.line, d.severity) for d in bad] == [(7902, Severity.ERROR)]
    assert bad[0].file.endswith("us-018-str.xml") and "26ß" in bad[0].message

    doc002, d002 = _read(gt / "us-002-str.xml")
    unknown = [d for d in d002 if d.code == "unknown-attribute"]
    assert [(d.line, d.hint) for d in unknown] == [(1656, "did you mean end-col?")]
    # ignored, as the official tool ignores it: the cell spans one column
    cell = next(c for c in doc002.tables[0].regions[0].cells if c.start_row == 3 and c.start_col == 0)
    assert (cell.end_row, cell.end_col) == (3, 0)

    for name in ("us-035a-str.xml", "us-035b-str.xml"):
        doc, d035 = _read(gt / name)
        inverted = [d for d in d035 if d.code == "box-inverted"]
        assert [d.line for d in inverted] == [338]
        assert all(c.bbox.is_ordered for c in doc.tables[0].cells() if c.bbox)


def test_negative_start_row_made_up_by_the_increment_is_legal():
    doc, diagnostics = _read(corpus_path("icdar2013", "gt", "us-019-str.xml"))
    region = doc.tables[0].regions[0]
    assert region.row_increment == 1
    assert [c.content for c in region.cells if c.start_row == -1] == ["Variable", "Assumption"]
    assert not [d for d in diagnostics if d.severity is Severity.ERROR]


def test_instructions_are_skipped_unless_asked():
    path = corpus_path("icdar2013", "gt", "eu-001-reg.xml")
    skipped, _ = _read(path)
    kept, _ = _read(path, keep_instructions=True)
    assert skipped.tables[0].regions[0].instructions == ()
    assert len(kept.tables[0].regions[0].instructions) == etree.parse(str(path)).getroot().xpath(
        "count(table[1]/region[1]/instruction)"
    )
    assert kept.tables[0].regions[0].instructions[2].subinstr_id == 2


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["-str.xml", "-reg.xml"])
def test_round_trip_through_json_keeps_every_ground_truth_grid(suffix):
    for path in _gt_files(f"*{suffix}"):
        original, _ = _read(path)
        as_json = canonical_json.write(original, Diagnostics())
        assert validate_json(__import__("json").loads(as_json)) == []
        from_json = canonical_json.read(as_json, Diagnostics())
        assert from_json == original, path.name
        xml = icdar.write(from_json, Diagnostics(), WriteOptions())
        back, _ = _read_bytes(xml)
        expected = without_blank_cells(original)
        assert grid(back) == grid(expected), path.name
        assert [r.bbox for r in back.regions()] == [r.bbox for r in expected.regions()], path.name


def _read_bytes(data: bytes):
    diagnostics = Diagnostics("<written>")
    return read_document(data, icdar.FORMAT, diagnostics.file or "<input>", ReadOptions(), diagnostics), diagnostics


@pytest.mark.slow
def test_written_files_validate_against_our_xsds():
    for path in _gt_files():
        doc, _ = _read(path, keep_instructions=True)
        model = "structure" if path.name.endswith("-str.xml") else "region"
        xml = icdar.write(doc, Diagnostics(), WriteOptions(model=model))
        assert validate_xml(etree.fromstring(xml), model) == [], path.name


def test_real_ground_truth_meets_our_xsds_except_its_known_defects():
    """Lenient where the real ground truth legitimately varies, strict on its defects."""
    failing = {}
    for path in _gt_files():
        model = "structure" if path.name.endswith("-str.xml") else "region"
        findings = validate_xml(etree.parse(str(path)).getroot(), model, path.name)
        if findings:
            failing[path.name] = [f.line for f in findings]
    assert failing == {"us-002-str.xml": [1656], "us-018-str.xml": [7902]}


def test_real_result_files_read():
    files = sorted(corpus_path("icdar2013_results", "namysl").glob("*.xml"))
    assert len(files) == 67
    for path in files:
        doc, diagnostics = _read(path)
        assert not [d for d in diagnostics if d.severity is Severity.ERROR], path.name
        cells = doc.tables[0].cells()
        assert cells and all(c.bbox is not None for c in cells)
    # cell/@type="header" sets the header flag; floats and negative coordinates are kept
    doc, _ = _read(corpus_path("icdar2013_results", "namysl", "eu-001.xml"))
    first = doc.tables[0].regions[0].cells[0]
    assert first.header and first.content == "THRESHOLD FOR RELEASES"
    assert (first.bbox.y1, first.bbox.y2) == (-1776.0, -1769.0)


@pytest.mark.slow
def test_pubmed_ground_truth_reads():
    files = sorted(corpus_path("pubmed_gt", "gt").glob("*.xml"))
    assert len(files) == 863
    cells = 0
    for path in files:
        doc, diagnostics = _read(path)
        assert not [d for d in diagnostics if d.severity is Severity.ERROR], path.name
        assert all(r.page == 1 and r.bbox is None for r in doc.regions())
        cells += sum(len(r.cells) for r in doc.regions())
    assert cells > 100_000
