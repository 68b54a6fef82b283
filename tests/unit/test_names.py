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


def test_input_names_are_in_the_order_of_sorted_paths(tmp_path: Path, monkeypatch):
    """Folders walked one by one give the order of the paths sorted by their
    parts (a folder "a" before "a-b" and "a.xml", unlike the paths as text)."""
    from convertables.files import input_names

    names = ("a.xml", "a-b.xml", "a/z.xml", "a/b/c.xml", "a-b/y.xml", "A.xml", "a0/x.xml", "b.htm", "a/.h.xml")
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "a", target_is_directory=True)  # (not followed, as rglob)
    expected = sorted(p for p in tmp_path.rglob("*") if p.is_file() and not p.name.startswith("."))
    assert list(input_names(tmp_path)) == [str(p) for p in expected]
    assert [Path(p).relative_to(tmp_path).as_posix() for p in input_names(tmp_path)][:4] == [
        "A.xml", "a/b/c.xml", "a/z.xml", "a-b/y.xml"]
    monkeypatch.chdir(tmp_path)
    assert list(input_names(Path("."))) == [str(p.relative_to(tmp_path)) for p in expected]  # "x.xml", not "./x.xml"


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


@pytest.mark.slow
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


def _plain_pairing(gt_files, result_files, alternatives, variants):
    """Pairing restated plainly, every document as a whole (the rule pair()
    keeps compactly for the usual documents, one ground truth and one result)."""
    import re

    from convertables.scoring.pairing import alternative_base

    results = {}
    duplicates = []
    for path in result_files:
        results.setdefault(document_key(path), path) is path or duplicates.append(path)
    gt_keys = {document_key(p) for p in gt_files}
    groups = {}
    for path in gt_files:
        key = document_key(path)
        groups.setdefault(alternative_base(key) if alternatives else key, []).append(path)
    found = {}
    for key in results if variants else ():
        match = re.fullmatch(r"(.+)_([0-9]+)", key)
        if match and key not in gt_keys and match.group(1) in gt_keys:
            found.setdefault(match.group(1), []).append((int(match.group(2)), key))
    found = {base: [key for _, key in sorted(numbered)] for base, numbered in found.items()}
    documents, unpaired_gt, used = [], [], set()
    for base, files in groups.items():
        keys = [document_key(p) for p in files]
        shared = [k for k in (base, base + "a", base + "b") if k in keys or k not in gt_keys] if alternatives else []
        chosen = [next((k for k in [key] + shared if k in results), None) for key in keys]
        tried = [(path, candidate) for path, key, own in zip(files, keys, chosen)
                 for candidate in ([own] if own else []) + found.get(key, []) or [None]]
        if not any(c for _, c in tried):
            unpaired_gt.extend(files)
            documents.append((keys[0], [str(f) for f in files], [None] * len(files)))
            continue
        used.update(c for _, c in tried if c)
        first = next(c for _, c in tried if c)
        documents.append((keys[0] if len(files) == 1 else first, [str(p) for p, _ in tried],
                          [str(results[c]) if c else None for _, c in tried]))
    unpaired = [p for k, p in results.items() if k not in used] + duplicates
    return documents, [str(p) for p in unpaired_gt], [str(p) for p in unpaired]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sets(st.tuples(_NAME_PARTS, _NAME_ENDINGS), max_size=8),
       st.lists(st.tuples(_NAME_PARTS, _NAME_ENDINGS, st.sampled_from(["", "-str", "-str-result"]),
                          st.sampled_from(["res", "res/sub"])), max_size=12),
       st.booleans(), st.booleans(), st.booleans())
def test_pairs_kept_compactly_are_the_plain_rule(gt_names, result_names, alternatives, variants, as_text):
    from convertables.scoring.pairing import KeyIndex

    _check_pairing(gt_names, result_names, alternatives, variants, as_text)
    from convertables.scoring import pairing

    large = KeyIndex.LARGE
    try:
        KeyIndex.LARGE = 0  # the keys held as hashes, as a large corpus's
        _check_pairing(gt_names, result_names, alternatives, variants, as_text)
        pairing._hash = len  # names of one length share a hash: some keys alone, some not
        _check_pairing(gt_names, result_names, alternatives, variants, as_text)
    finally:
        KeyIndex.LARGE = large
        pairing._hash = hash


def _check_pairing(gt_names, result_names, alternatives, variants, as_text):
    gt = [f"gt/{a}{b}.xml" for a, b in sorted(gt_names)]
    results = [f"{d}/{a}{b}{c}.xml" for a, b, c, d in result_names]  # (duplicate names: the first is taken)
    given_gt, given_results = (gt, results) if as_text else ([Path(p) for p in gt], [Path(p) for p in results])
    pairing = pair(given_gt, given_results, alternatives=alternatives, result_variants=variants)
    documents, unpaired_gt, unpaired_results = _plain_pairing(given_gt, given_results, alternatives, variants)
    assert [(p.document, [str(g) for g in p.gt_files], [str(r) if r else None for r in p.result_files])
            for p in pairing.pairs] == documents
    assert all(isinstance(g, Path) for p in pairing.pairs for g in p.gt_files)  # (text is made a Path)
    assert [str(p) for p in pairing.unpaired_gt] == unpaired_gt
    assert [str(p) for p in pairing.unpaired_results] == unpaired_results
    positions = [i for i, p in enumerate(pairing.pairs) if p.result_file is None]
    assert [i for i, _ in pairing.pairs.without_result()] == positions
    assert [p.document for p in pairing.pairs[1::2]] == [d for d, *_ in documents[1::2]]


@pytest.mark.slow
def test_pairs_take_little_memory_a_document():
    """A corpus's pairing is held for the whole run: it must not cost an object
    a document (a million documents were gigabytes)."""
    import tracemalloc

    count = 20_000
    gt = [f"/data/corpus/gt/folder{i // 1000:03d}/PMC{1000000 + i}.xml" for i in range(count)]
    results = [f"/data/corpus/results/folder{i // 1000:03d}/PMC{1000000 + i}-str.xml" for i in range(count)]
    for alternatives in (False, True):
        tracemalloc.start()
        try:
            pairing = pair(gt, results, alternatives=alternatives, result_variants=True)
            held, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(pairing.pairs) == count and pairing.pairs[-1].result_file == Path(results[-1])
        assert held / count < 40  # two indices a document, and slack (an object a document is hundreds)
        assert peak / count < 200  # while pairing: hashes, indices and their sorting (keys as strings: 380)


def test_a_folders_file_list_takes_little_memory_a_file():
    import tracemalloc

    from convertables.files import PathList

    count = 20_000
    tracemalloc.start()
    try:
        paths = PathList()
        for folder in range(count // 1000):
            paths.add(f"/data/corpus/gt/folder{folder:03d}", [f"PMC{1000000 + i}.xml" for i in range(1000)])
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(paths) == count and paths[-1] == "/data/corpus/gt/folder019/PMC1000999.xml"
    assert paths[1000] == "/data/corpus/gt/folder001/PMC1000000.xml" and paths[999].endswith("000/PMC1000999.xml")
    assert held / count < 40  # the name's characters and two numbers (a str a path is over 100 bytes)
    assert list(PathList(list(paths))) == list(paths)
