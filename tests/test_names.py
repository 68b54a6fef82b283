"""File names: what a document is called (to pair results with ground truth),
which model a name says it holds, and what a conversion names its output."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from convertables import registry
from convertables.batch import output_name
from convertables.scoring.pairing import document_key, model_of, pair


@pytest.mark.parametrize("name, key, model", [
    ("eu-001-str.xml", "eu-001", "structure"),
    ("eu-001-str-result.xml", "eu-001", "structure"),
    ("eu-001-reg.XML", "eu-001", "region"),
    ("eu-001-reg-result.json", "eu-001", "region"),
    ("eu-001.xml", "eu-001", None),
    ("eu-001.pdf.xml", "eu-001", None),
    ("cTDaR_t10001.jpg.xml", "cTDaR_t10001", None),
    ("page.html", "page", None),
    ("page.htm", "page", None),
    ("book.xlsm", "book", None),
    ("notes.txt", "notes.txt", None),  # no format's suffix: the whole name
])
def test_a_name_gives_the_document_and_the_model(name, key, model):
    assert document_key(Path(name)) == key
    assert model_of(Path(name)) == model


@pytest.mark.parametrize("name, target, has_cells, output", [
    ("eu-001-str.xml", "json", True, "eu-001-str.json"),
    ("page.html", "icdar", True, "page-str.xml"),
    ("page.html", "icdar", False, "page-reg.xml"),
    ("eu-001-reg.json", "icdar", True, "eu-001-reg.xml"),  # the name already says the model
    ("EU-001-STR.JSON", "icdar", True, "EU-001-STR.xml"),
    ("sheet.xlsx", "html", True, "sheet.html"),
])
def test_a_conversion_names_its_output_after_its_input(name, target, has_cells, output):
    assert output_name(Path("sub") / name, registry.get(target), has_cells) == Path("sub") / output


def test_the_input_files_of_a_folder(tmp_path: Path):
    from convertables.files import input_files

    for name in ("a.xml", "B.XML", ".hidden.xml", "notes.txt", "sub/c.json", "sub/d.xlsx"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "folder.xml").mkdir()  # a folder is no file, whatever its name
    assert [p.relative_to(tmp_path).as_posix() for p in input_files(tmp_path)] == [
        "B.XML", "a.xml", "sub/c.json", "sub/d.xlsx"]
    assert input_files(tmp_path, (".json",)) == [tmp_path / "sub" / "c.json"]


def _names(paths) -> list[str | None]:
    return [p.name if p else None for p in paths]


def test_result_variants_are_candidates_of_their_documents_result_in_the_order_of_their_numbers():
    gt = [Path("gt/PMC1.xml"), Path("gt/PMC2.xml"), Path("gt/PMC3_1.xml")]
    results = [Path(f"res/{n}") for n in (
        "PMC1_10.xml", "PMC1_2.xml", "PMC1.xml", "PMC1_x.xml",  # _x: not a number, so its own document
        "PMC2_1-str.xml",  # a variant without the document's own result
        "PMC3_1.xml",  # a ground truth's own name is not a variant of PMC3
        "PMC4_1.xml",  # no ground truth PMC4
        "PMC1_" + "9" * 5000 + ".xml", "PMC1_02.xml",  # numbers of any length, leading zeros
    )]
    pairing = pair(gt, results, alternatives=False, result_variants=True)
    first, second, third = pairing.pairs
    assert _names(first.result_files) == ["PMC1.xml", "PMC1_02.xml", "PMC1_2.xml", "PMC1_10.xml",
                                          "PMC1_" + "9" * 5000 + ".xml"]
    assert _names(first.gt_files) == ["PMC1.xml"] * 5 and first.result_file.name == "PMC1.xml"
    assert (second.document, _names(second.result_files), second.result_file.name) == (
        "PMC2", ["PMC2_1-str.xml"], "PMC2_1-str.xml")
    assert (third.document, _names(third.result_files)) == ("PMC3_1", ["PMC3_1.xml"])
    assert sorted(_names(pairing.unpaired_results)) == ["PMC1_x.xml", "PMC4_1.xml"]
    assert pairing.unpaired_gt == []


def test_without_result_variants_a_variant_is_a_result_without_ground_truth():
    gt = [Path("gt/PMC1.xml"), Path("gt/PMC2.xml")]
    pairing = pair(gt, [Path("res/PMC1.xml"), Path("res/PMC1_1.xml"), Path("res/PMC2_1.xml")], alternatives=False)
    assert [_names(p.result_files) for p in pairing.pairs] == [["PMC1.xml"], [None]]
    assert _names(pairing.unpaired_results) == ["PMC1_1.xml", "PMC2_1.xml"]
    assert _names(pairing.unpaired_gt) == ["PMC2.xml"]


_NAME_PARTS = st.sampled_from(["PMC1", "PMC2", "PMC12", "eu-009", "eu-009a", "eu-009b", "x"])
_NAME_ENDINGS = st.sampled_from(["", "_1", "_2", "_10", "_01", "_1_2", "a", "b", "-str", "_x"])


@settings(max_examples=300, deadline=None)
@example({("x", ""), ("x", "a")}, {("x", "a", "")}, True, False)  # xa is its own ground truth's, not x's too
@given(st.sets(st.tuples(_NAME_PARTS, _NAME_ENDINGS), max_size=6),
       st.sets(st.tuples(_NAME_PARTS, _NAME_ENDINGS, st.sampled_from(["", "-str", "-str-result"])), max_size=10),
       st.booleans(), st.booleans())
def test_every_file_is_paired_once_or_listed_as_unpaired(gt_names, result_names, alternatives, variants):
    gt = sorted({Path(f"gt/{a}{b}.xml") for a, b in gt_names})
    results = sorted({Path(f"res/{a}{b}{c}.xml") for a, b, c in result_names})
    pairing = pair(gt, results, alternatives=alternatives, result_variants=variants)
    # every ground truth is in one document, every result used somewhere or listed (each once)
    assert sorted(g for p in pairing.pairs for g in dict.fromkeys(p.gt_files)) == sorted(gt)
    used = {r for p in pairing.pairs for r in p.result_files if r is not None}
    assert sorted(pairing.unpaired_results) == sorted(set(results) - used)
    per_document = [{r for r in p.result_files if r is not None} for p in pairing.pairs]
    assert sum(map(len, per_document)) == len(used)  # no result serves two documents
    for p in pairing.pairs:
        assert len(p.gt_files) == len(p.result_files) and p.result_file == next(
            (r for r in p.result_files if r is not None), None)
        for g, r in zip(p.gt_files, p.result_files):
            if r is not None and not alternatives:  # without a/b, a result is its ground truth's or a variant of it
                gk, rk = document_key(g), document_key(r)
                assert rk == gk or (variants and rk.startswith(gk + "_") and rk[len(gk) + 1:].isdigit())
