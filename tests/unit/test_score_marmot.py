"""Marmot error types: hand-computed cases (docs/scoring.md, `--metric marmot`)."""

from __future__ import annotations

import json

import pytest

from convertables.diagnostics import UsageError
from convertables.model import BBox, Document, Region, Table
from convertables.scoring import ScoreSettings, score_paths
from convertables.scoring.marmot import DEFAULT_PENALTIES, load_penalties, revised, score_document
from convertables.scoring.region import PageItems
from tests.conftest import ROOT

# 20 objects on page 1: a 10 x 2 grid of 8x8 characters at x = 0..90 step 10, y = 0 and 20.
PAGES = {1: PageItems.from_boxes([(x, y, x + 8, y + 8) for y in (0, 20) for x in range(0, 100, 10)])}
P = dict(DEFAULT_PENALTIES)


def doc(*boxes) -> Document:
    return Document("d.pdf", [Table(i, [Region(0, 1, bbox=BBox(*b))]) for i, b in enumerate(boxes)])


LEFT = (0, 0, 48, 28)    # 10 objects: columns 0-4, both rows
RIGHT = (50, 0, 98, 28)  # 10 objects


def test_exact_match_is_acceptable():
    out = score_document(doc(LEFT), doc(LEFT), PAGES, P)
    assert (out["nr"], out["na"], out["nm"], out["nfa"], out["nfu"]) == (1, 1, 0, 0, 0)
    assert out["tables"][0]["errors"] == [] and revised(out) == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


def test_fake_and_missed_use_equation_1():
    out = score_document(doc(LEFT), doc(RIGHT), PAGES, P)
    fake, missed = out["tables"]
    assert fake["errors"] == ["fake_mix"] and fake["score"] == pytest.approx(1.0 * 10 / 20)
    assert missed["errors"] == ["missed"] and missed["score"] == pytest.approx(0.8 * 10 / 20)
    assert (out["nr"], out["nm"], out["na"], out["nfu"]) == (1, 1, 0, 1)
    # Table II: precision = na / (nr + nfa + nfu - nm) = 0 / 1; recall = 0 / 1
    assert revised(out)["precision"] == 0.0 and revised(out)["recall"] == 0.0
    small_fake = score_document(doc(LEFT), doc(LEFT, (60, 0, 68, 8)), PAGES, P)
    assert (small_fake["nfa"], small_fake["na"]) == (1, 1)  # 1 of 20 objects: 0.05 <= 0.3
    assert revised(small_fake) == {"precision": 1 / 2, "recall": 1 / 2, "f1": pytest.approx(0.5)}


def test_split_side_by_side_is_vertical_and_stacked_is_horizontal():
    out = score_document(doc((0, 0, 98, 28)), doc(LEFT, RIGHT), PAGES, P)
    (record,) = out["tables"]
    assert "splitted_vertical" in record["errors"]
    assert record["score"] == pytest.approx(max(1.0 * (1 - 1 / 2), 0.8 * (1 - 10 / 20)))
    out = score_document(doc((0, 0, 98, 28)), doc((0, 0, 98, 8), (0, 20, 98, 28)), PAGES, P)
    assert "splitted_horizontal" in out["tables"][0]["errors"]


def test_merged_tables():
    out = score_document(doc(LEFT, RIGHT), doc((0, 0, 98, 28)), PAGES, P)
    first, second = out["tables"]
    assert "merged_horizontal" in first["errors"] and "amplified_mix" in first["errors"]
    assert first["score"] == pytest.approx(1.0 * (1 - 1 / 2))
    assert out["error_types"]["merged_horizontal"] == 2


def test_reduced_and_amplified_use_equation_2():
    out = score_document(doc(LEFT), doc((0, 0, 38, 28)), PAGES, P)  # 8 of 10 objects
    (record,) = out["tables"]
    assert record["errors"] == ["reduced"] and record["score"] == pytest.approx(0.8 * (1 - 8 / 10))
    assert record["acceptable"]  # 0.16 <= 0.3
    out = score_document(doc(LEFT), doc((0, 0, 78, 28)), PAGES, P)  # 10 of 16 objects
    (record,) = out["tables"]
    assert record["errors"] == ["amplified_mix"] and record["score"] == pytest.approx(0.6 * (1 - 10 / 16))


def test_penalties_file_overrides_and_printed_coefficients(tmp_path):
    path = tmp_path / "penalties.json"
    path.write_text(json.dumps({"threshold": 0.1, "invert_overlap_coefficients": False}))
    penalties = load_penalties(path)
    out = score_document(doc(LEFT), doc((0, 0, 38, 28)), PAGES, penalties)
    assert out["tables"][0]["score"] == pytest.approx(0.8 * 8 / 10) and out["na"] == 0
    path.write_text(json.dumps({"nonsense": 1}))
    with pytest.raises(ValueError):
        load_penalties(path)
    marmot_dir = ROOT / "samples" / "marmot"
    with pytest.raises(UsageError):
        score_paths(marmot_dir, marmot_dir, ScoreSettings(metric="marmot", penalties=str(path)))


@pytest.mark.parametrize("content, says", [
    ("[1, 2]", "one JSON object"), ('{"threshold": "high"}', 'threshold must be a number, not "high"'),
    ('{"missed": null}', "missed must be a number, not null"), ('{"missed": true}', "missed must be a number"),
    ('{"invert_overlap_coefficients": "no"}', 'must be true or false, not "no"'), ("{", "Expecting"),
])
def test_a_penalty_file_of_the_wrong_shape_is_a_usage_error(tmp_path, content, says):
    path = tmp_path / "penalties.json"
    path.write_text(content)
    marmot_dir = ROOT / "samples" / "marmot"
    with pytest.raises(UsageError) as error:
        score_paths(marmot_dir, marmot_dir, ScoreSettings(metric="marmot", penalties=str(path)))
    assert str(error.value).startswith("--penalties: ") and says in str(error.value)


def test_marmot_input_needs_no_pdf():
    marmot_dir = ROOT / "samples" / "marmot"
    report = score_paths(marmot_dir, marmot_dir, ScoreSettings(metric="marmot"))
    assert report["total"]["na"] == report["total"]["nr"] == 1 and report["total"]["precision"] == 1.0
    region = score_paths(marmot_dir, marmot_dir, ScoreSettings(metric="region"))
    assert region["total"]["complete"] == 1 and region["total"]["gt"] == 4  # the body's four characters
