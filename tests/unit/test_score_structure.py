"""The ICDAR 2013 structure metric: hand-computed cases for each rule of docs/scoring.md, `--metric structure`,
and agreement with the official tool on the real corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convertables.diagnostics import UsageError
from convertables.model import Cell, Document, Region, Table
from convertables.scoring import ScoreSettings, score_paths
from convertables.scoring.structure import (
    TableTooLarge, icdar2013_relations, parse_table_classes, pubmed_preference, pubmed_relations, pubmed_scores,
    tables_of_classes, score_icdar2013, score_pubmed,
)
from convertables.scoring import structure
from convertables.scoring.text import default, ignorechars, ignorechars2, pubmed
from tests.conftest import corpus_path


def grid(rows: str, page: int = 1, table_id: int = 0) -> Table:
    """'A B | C .' -> a table; '.' is no cell."""
    cells = []
    for r, row in enumerate(rows.split("|")):
        for c, word in enumerate(row.split()):
            if word != ".":
                cells.append(Cell(r, c, r, c, word))
    return Table(table_id, [Region(0, page, cells=cells)])


def cells_table(*cells: Cell, page: int = 1, table_id: int = 0) -> Table:
    return Table(table_id, [Region(0, page, cells=list(cells))])


def doc(*tables: Table) -> Document:
    return Document("d.pdf", list(tables))


def rels(table: Table, rule=default) -> list[tuple]:
    return sorted(icdar2013_relations(table, rule).relations)


def test_a_plain_grid_links_neighbours_both_ways():
    assert rels(grid("A B | C D")) == sorted([
        ("A", "B", "H", 0), ("C", "D", "H", 0), ("A", "C", "V", 0), ("B", "D", "V", 0),
    ])


def test_empty_slots_between_are_counted_and_blank_cells_are_not_placed():
    # 'A . B' and 'A <blank> B' are the same: one relation with one blank slot.
    assert rels(grid("A . B")) == [("A", "B", "H", 1)]
    table = cells_table(Cell(0, 0, 0, 0, "A"), Cell(0, 1, 0, 1, "  \n"), Cell(0, 2, 0, 2, "B"))
    assert rels(table) == [("A", "B", "H", 1)]
    # and nothing links to or from a blank cell, nor to a cell with unknown content
    assert rels(cells_table(Cell(0, 0, 0, 0, None), Cell(0, 1, 0, 1, "B"))) == []


def test_a_spanning_cell_is_measured_from_its_last_slot():
    header = Cell(0, 0, 0, 1, "X")  # columns 0-1
    table = cells_table(header, Cell(1, 0, 1, 0, "A"), Cell(1, 1, 1, 1, "B"), Cell(0, 3, 0, 3, "Y"))
    assert rels(table) == sorted([
        ("X", "Y", "H", 1),  # one empty slot (column 2) after X's last column
        ("A", "B", "H", 0),
        ("X", "A", "V", 0), ("X", "B", "V", 0),
    ])


def test_parallel_links_between_two_spanning_cells_count_once():
    table = cells_table(Cell(0, 0, 1, 0, "X"), Cell(0, 1, 1, 1, "Y"))  # both span rows 0-1
    assert rels(table) == [("X", "Y", "H", 0)]


def test_a_later_cell_replaces_an_earlier_one_on_a_shared_slot():
    table = cells_table(Cell(0, 0, 0, 2, "X"), Cell(0, 1, 0, 1, "Z"))  # Z lands inside X
    assert rels(table) == sorted([("X", "Z", "H", 0), ("Z", "X", "H", 0)])


def test_increments_place_regions_in_one_table_grid():
    left = Region(0, 1, cells=[Cell(0, 0, 0, 0, "A"), Cell(1, 0, 1, 0, "C")])
    right = Region(1, 2, col_increment=1, cells=[Cell(0, 0, 0, 0, "B"), Cell(1, 0, 1, 0, "D")])
    table = Table(0, [left, right])
    assert table.page == 2  # the page of the last region
    assert rels(table) == rels(grid("A B | C D"))


def dense_relations(cells: list[Cell], words: list[str], key_length: int, place_blank: bool) -> list[tuple]:
    """The rule as the official tools word it, on a grid of one slot per row and
    column, filled cell by cell (a later cell replaces an earlier one; a blank
    one too where ``place_blank``, as the biomedical benchmark does): scan
    every row left to right, then every column top to bottom; a link from a
    content slot to the next content slot of another cell, its gap the empty
    slots between; the first link of each (from, to[, direction]) counts."""
    rows = [r for c in cells for r in (c.start_row, c.end_row)]
    cols = [k for c in cells for k in (c.start_col, c.end_col)]
    if not cells:
        return []
    r0, c0 = min(rows), min(cols)
    slots = [[None] * (max(cols) - c0 + 1) for _ in range(max(rows) - r0 + 1)]
    for k, cell in enumerate(cells):
        if not words[k] and not place_blank:
            continue
        for r in range(cell.start_row, cell.end_row + 1):
            for c in range(cell.start_col, cell.end_col + 1):
                slots[r - r0][c - c0] = k if words[k] else None
    first = {}
    for lines, direction in ((slots, "H"), (list(zip(*slots)), "V")):
        for line in lines:
            previous, gap = None, 0
            for owner in line:
                if owner is None:
                    gap += 1
                elif owner != previous:
                    if previous is not None:
                        link = (previous, owner, direction, gap)
                        first.setdefault(link[:key_length], link)
                    previous, gap = owner, 0
                else:
                    gap = 0
    return [(words[a], words[b], direction, gap) for a, b, direction, gap in first.values()]


spans = st.tuples(st.integers(-2, 5), st.integers(0, 2), st.integers(-2, 5), st.integers(0, 2),
                  st.sampled_from(["a", "b", "c", " ", ""]))


@pytest.mark.slow
@settings(max_examples=300)
@given(st.lists(spans, max_size=14))
def test_relations_are_the_dense_scan_of_the_grid(placed):
    # spans, holes, overlaps, blank cells and negative indices; words repeat, so a
    # relation is told apart by its cells only through the order it comes in
    cells = [Cell(r, c, r + h, c + w, text) for r, h, c, w, text in placed]
    words = [f"{cell.content}{k}" if cell.content.strip() else "" for k, cell in enumerate(cells)]
    named = Table(0, [Region(0, 1, cells=[Cell(c.start_row, c.start_col, c.end_row, c.end_col, w or " ")
                                          for c, w in zip(cells, words)])])
    upper = [w.upper() for w in words]
    assert list(icdar2013_relations(named, default).relations) == dense_relations(cells, upper, 3, place_blank=False)
    expected = [relation[:3] for relation in dense_relations(cells, words, 2, place_blank=True)]
    assert list(pubmed_relations(named).relations) == expected


def test_normalisations():
    assert default("a b\tc\u00a0d\n") == "ABC\u00a0D"  # no-break space kept
    assert ignorechars("a-b é\n") == "A_B_"
    assert ignorechars2("a-b é\n") == "AB"
    assert pubmed("Café  au\tlait\u00b5") == "Cafeaulait\u03bc".encode("ascii", "ignore").decode()
    assert rels(grid("a-b c"), ignorechars) == [("A_B", "C", "H", 0)]


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8") | st.sampled_from("e\u0301\u00e9\u00b5\u212b\ufb01 \t\r\n\u0308"),
               max_size=20))
def test_the_pubmed_rule_as_the_benchmark_words_it(text):
    """NFKD, combining marks dropped, NFKC, ASCII only, spaces, tabs and line breaks deleted."""
    import unicodedata

    folded = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.category(ch).startswith("M"))
    expected = unicodedata.normalize("NFKC", folded).encode("ascii", "ignore").decode("ascii")
    assert pubmed(text) == re.sub("[ \t\r\n]", "", expected)


def test_counts_are_multisets_and_page_decides_pairing():
    gt = doc(grid("1 1 | 1 1"))  # four relations, all ('1','1',*,0) in two directions
    result = doc(grid("1 1 | 1 .", page=1))
    record = score_icdar2013(gt, result)
    (t,) = record.tables
    assert (t.gt, t.correct, t.detected) == (4, 2, 2)
    other_page = doc(grid("1 1 | 1 1", page=2))
    record = score_icdar2013(gt, other_page)
    assert [(t.gt_table, t.result_table) for t in record.tables] == [(0, None), (None, 0)]
    assert record.counts == {"gt": 4, "correct": 0, "detected": 4}
    assert score_icdar2013(gt, other_page, ignore_page=True).counts == {"gt": 4, "correct": 4, "detected": 4}


def test_missed_tables_count_by_default_not_in_compat_and_false_positives_always():
    gt = doc(grid("A B", table_id=0), grid("C D | E F", table_id=1))
    result = doc(grid("C D | E F", table_id=7), grid("X Y", table_id=8))
    record = score_icdar2013(gt, result)
    # table 0 takes the first result on a tie at 0 correct ... and so steals it from table 1
    assert [(t.gt_table, t.result_table, t.correct) for t in record.tables] == [(0, 7, 0), (1, 8, 0)]
    record = score_icdar2013(doc(grid("C D | E F", table_id=1), grid("A B", table_id=0)), result)
    assert [(t.gt_table, t.result_table, t.gt, t.correct, t.detected) for t in record.tables] == [
        (1, 7, 4, 4, 4), (0, 8, 1, 0, 1)]
    one = doc(grid("C D | E F", table_id=7))
    record = score_icdar2013(gt, one)
    assert [(t.gt_table, t.result_table) for t in record.tables] == [(0, 7), (1, None)]
    assert record.counts == {"gt": 5, "correct": 0, "detected": 4}
    assert score_icdar2013(gt, one, compat=True).counts == {"gt": 1, "correct": 0, "detected": 4}
    fp = score_icdar2013(doc(grid("A B")), doc(grid("A B"), grid("X Y", table_id=1)))
    assert fp.counts == {"gt": 1, "correct": 1, "detected": 2}
    # the official wrapper counted false-positive tables too
    assert score_icdar2013(doc(grid("A B")), doc(grid("A B"), grid("X Y", table_id=1)), compat=True).counts == {
        "gt": 1, "correct": 1, "detected": 2}


def test_the_best_result_table_wins_not_the_first():
    gt = doc(grid("A B | C D"))
    result = doc(grid("A B", table_id=1), grid("A B | C D", table_id=2))
    (first, second) = score_icdar2013(gt, result).tables
    assert (first.result_table, first.correct) == (2, 4)
    assert (second.gt_table, second.result_table, second.detected) == (None, 1, 1)


def test_a_hostile_span_costs_nothing():
    huge = cells_table(Cell(0, 0, 10**9, 10**9, "A"), Cell(0, 10**9 + 1, 0, 10**9 + 1, "B"))
    assert rels(huge) == [("A", "B", "H", 0)]
    diagonal = cells_table(*[Cell(i, i, i, i, str(i)) for i in range(2100)])
    with pytest.raises(TableTooLarge):
        rels(diagonal)


def test_the_pubmed_variant_links_each_pair_of_cells_once_across_before_down():
    # B spans two rows: A and C are left of it, D below it
    table = cells_table(Cell(0, 0, 0, 0, "A"), Cell(0, 1, 1, 1, "B"), Cell(1, 0, 1, 0, "C"),
                        Cell(2, 0, 2, 1, "D"))
    assert sorted(pubmed_relations(table).relations) == [
        ("A", "B", "H"), ("A", "C", "V"), ("B", "D", "V"), ("C", "B", "H"), ("C", "D", "V")]
    # B, placed later on A's bottom-right slot, is right of A in row 1 and below it
    # in column 1: one relation, across (rows are scanned first)
    corner = cells_table(Cell(0, 0, 1, 1, "A"), Cell(1, 1, 1, 1, "B"))
    assert pubmed_relations(corner).relations == (("A", "B", "H"),)


def test_pubmed_variant():
    # an empty later cell overwrites; no blank count; case kept; accents folded
    table = cells_table(Cell(0, 0, 0, 0, "Été"), Cell(0, 1, 0, 1, "x"), Cell(0, 1, 0, 1, " "), Cell(0, 2, 0, 2, "B"))
    assert pubmed_relations(table).relations == (("Ete", "B", "H"),)
    # increments are ignored
    left = Region(0, 1, cells=[Cell(0, 0, 0, 0, "A")])
    right = Region(1, 1, col_increment=1, cells=[Cell(0, 0, 0, 0, "B")])
    assert pubmed_relations(Table(0, [left, right])).relations == ()
    # tables are paired by maximum F1, not in order
    gt = doc(grid("A B", table_id=0), grid("A B | C D", table_id=1))
    result = doc(grid("A B | C D", table_id=5), grid("A B", table_id=6))
    record = score_pubmed(gt, result)
    assert [(t.gt_table, t.result_table, t.correct) for t in record.tables] == [(0, 6, 1), (1, 5, 4)]


def test_document_mean_and_micro_total(tmp_path):
    from convertables import write

    (tmp_path / "gt").mkdir()
    (tmp_path / "res").mkdir()
    write(doc(grid("A B | C D")), tmp_path / "gt" / "d1-str.xml")
    write(doc(grid("A B | C D")), tmp_path / "res" / "d1-str-result.xml")
    write(doc(grid("A B C D E F G H I")), tmp_path / "gt" / "d2-str.xml")  # 8 relations
    write(doc(grid("A B C D . . . . .")), tmp_path / "res" / "d2.xml")    # 3 of them
    report = score_paths(tmp_path / "gt", tmp_path / "res")
    assert [d["document"] for d in report["documents"]] == ["d1", "d2"]
    assert report["total"] == {"gt": 12, "correct": 7, "detected": 7, "precision": 1.0,
                               "recall": pytest.approx(7 / 12), "f1": pytest.approx(2 * 7 / 12 / (1 + 7 / 12)),
                               "documents": 2}
    mean_recall = (1 + 3 / 8) / 2
    assert report["document_mean"]["recall"] == pytest.approx(mean_recall)
    assert report["document_mean"]["f1"] == pytest.approx(2 * mean_recall / (1 + mean_recall))


def test_alternative_ground_truths_keep_the_better(tmp_path):
    from convertables import write

    (tmp_path / "gt").mkdir()
    (tmp_path / "res").mkdir()
    write(doc(grid("A B | C D")), tmp_path / "gt" / "x-009a-str.xml")
    write(doc(grid("A B | C E")), tmp_path / "gt" / "x-009b-str.xml")
    write(doc(grid("A B | C E")), tmp_path / "res" / "x-009a.xml")
    report = score_paths(tmp_path / "gt", tmp_path / "res")
    (record,) = report["documents"]
    assert record["gt_file"].endswith("x-009b-str.xml") and record["f1"] == 1.0
    assert [a["f1"] for a in record["alternatives"]] == [0.5, 1.0]


def _pubmed_folders(tmp_path):
    from convertables import write

    (tmp_path / "gt").mkdir(parents=True)
    (tmp_path / "res").mkdir()
    write(doc(grid("A B | C D")), tmp_path / "gt" / "PMC1.xml")  # 4 relations
    # F1 0.4 (2 of 4 found, 6 detected: the second table is a false positive), TP - FP - FN = 2 - 4 - 2
    write(doc(grid("A B | C X"), grid("P Q R", table_id=1)), tmp_path / "res" / "PMC1.xml")
    write(doc(grid("A B")), tmp_path / "res" / "PMC1_1.xml")  # F1 0.4 too (1 of 4, 1 detected), 1 - 0 - 3
    write(doc(grid("A X")), tmp_path / "res" / "PMC1_2.xml")  # F1 0
    write(doc(grid("A B C")), tmp_path / "gt" / "PMC2.xml")
    write(doc(grid("A B C")), tmp_path / "res" / "PMC2_3.xml")  # only a variant: perfect
    write(doc(grid("A B")), tmp_path / "gt" / "PMC3.xml")  # no result
    return tmp_path / "gt", tmp_path / "res"


def test_pubmed_result_variants_keep_the_best_by_f1_then_by_tp_minus_fp_minus_fn(tmp_path):
    gt, res = _pubmed_folders(tmp_path)
    for jobs in (1, 2):
        report = score_paths(gt, res, ScoreSettings(variant="pubmed"), jobs=jobs)
        chosen = {d["document"]: (Path(d["result_file"]).name if d["result_file"] else None,
                                  d["gt"], d["correct"], d["detected"]) for d in report["documents"]}
        assert chosen == {"PMC1": ("PMC1_1.xml", 4, 1, 1), "PMC2": ("PMC2_3.xml", 2, 2, 2), "PMC3": (None, 1, 0, 0)}
        assert [(Path(a["result_file"]).name, a["f1"]) for a in report["documents"][0]["alternatives"]] == [
            ("PMC1.xml", 0.4), ("PMC1_1.xml", 0.4), ("PMC1_2.xml", 0.0)]
        assert {k: report["total"][k] for k in ("gt", "correct", "detected")} == {"gt": 7, "correct": 3, "detected": 3}
        assert report["unpaired"] == {"gt": [str(gt / "PMC3.xml")], "result": []}


def test_pubmed_single_variant_scores_each_documents_own_result_only(tmp_path):
    gt, res = _pubmed_folders(tmp_path)
    report = score_paths(gt, res, ScoreSettings(variant="pubmed", single_variant=True))
    chosen = {d["document"]: (d["gt"], d["correct"], d["detected"]) for d in report["documents"]}
    assert chosen == {"PMC1": (4, 2, 6), "PMC2": (2, 0, 0), "PMC3": (1, 0, 0)}
    assert sorted(Path(p).name for p in report["unpaired"]["result"]) == ["PMC1_1.xml", "PMC1_2.xml", "PMC2_3.xml"]
    # ICDAR 2013's metric knows no result variants either
    report = score_paths(gt, res)
    assert sorted(Path(p).name for p in report["unpaired"]["result"]) == ["PMC1_1.xml", "PMC1_2.xml", "PMC2_3.xml"]
    with pytest.raises(UsageError, match="--single-variant applies to --variant pubmed only"):
        score_paths(gt, res, ScoreSettings(single_variant=True))


@pytest.mark.parametrize("counts, preference", [
    ((4, 1, 1), (0.4, -2)),  # gt, correct, detected -> F1, TP - FP - FN
    ((4, 2, 6), (0.4, -4)),
    ((4, 4, 4), (1.0, 4)),
    ((4, 0, 3), (0.0, -7)),
    ((0, 0, 0), (0.0, 0)),  # the benchmark's convention: nothing to find and nothing found is F1 0, not 1
    ((0, 0, 2), (0.0, -2)),
])
def test_the_benchmarks_ranking_of_variants(counts, preference):
    assert pubmed_preference(*counts) == preference


def test_the_benchmarks_table_classes_file():
    text = "0 PMC1.nxml 1\n2 PMC1.nxml 2\n\n  1 PMC2.nxml 1  \n0 PMC3.a.nxml 3\n0 .hidden 1\n"
    listed = parse_table_classes(text)
    assert listed == [("PMC1", 1, 0), ("PMC1", 2, 2), ("PMC2", 1, 1), ("PMC3.a", 3, 0), (".hidden", 1, 0)]
    assert tables_of_classes(listed) == {"PMC1": {1, 2}, "PMC2": {1}, "PMC3.a": {3}, ".hidden": {1}}
    assert tables_of_classes(listed, (0,)) == {"PMC1": {1}, "PMC3.a": {3}, ".hidden": {1}}
    assert tables_of_classes(listed, (1, 2)) == {"PMC1": {2}, "PMC2": {1}}
    for bad, line in (("0 PMC1.nxml 1\n0 PMC1.nxml\n", 2), ("x PMC1.nxml 1\n", 1), ("0 PMC1.nxml 1 extra\n", 1)):
        with pytest.raises(ValueError, match=f"^line {line}: expected 'class file table'"):
            parse_table_classes(bad)


def test_a_subset_counts_its_ground_truth_tables_only_and_ignore_fp_drops_unpaired_results():
    gt = doc(grid("A B | C D", table_id=1), grid("E F G", table_id=2))  # 4 and 2 relations
    result = doc(grid("A B | C X", table_id=7), grid("E F G", table_id=8), grid("P Q", table_id=9))
    def counts(active, ignore_fp=False):
        outcome = score_pubmed(gt, result, active, ignore_fp)
        return outcome.counts, [(t.gt_table, t.result_table) for t in outcome.counted]
    # everything: 2 + 2 correct of 4 + 2, detected 4 + 2 + 1 (the unpaired 'P Q')
    assert counts(None) == ({"gt": 6, "correct": 4, "detected": 7}, [(1, 7), (2, 8), (None, 9)])
    # only the first table in the subset: the pair of the second counts nowhere, the unpaired result still does
    assert counts({1}) == ({"gt": 4, "correct": 2, "detected": 5}, [(1, 7), (None, 9)])
    assert counts({2}, ignore_fp=True) == ({"gt": 2, "correct": 2, "detected": 2}, [(2, 8)])
    assert counts(set(), ignore_fp=True) == ({"gt": 0, "correct": 0, "detected": 0}, [])


def test_subset_level_scoring_from_the_command_line(tmp_path):
    from convertables import write
    from typer.testing import CliRunner
    from convertables.cli import app

    gt, res = _pubmed_folders(tmp_path)
    write(doc(grid("A B | C D"), grid("E F G", table_id=1)), gt / "PMC1.xml", force=True)  # now two tables
    classes = tmp_path / "classes.csv"
    classes.write_text("0 PMC1.nxml 1\n1 PMC1.nxml 2\n1 PMC2.nxml 1\n2 PMC3.nxml 1\n")

    def run(*args):
        return CliRunner().invoke(app, ["score", "--gt", str(gt), "--result", str(res), "--variant", "pubmed",
                                        "--format", "json", *map(str, args)])

    def totals(*args):
        result = run(*args)
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        return {d["document"]: (d["gt"], d["correct"], d["detected"]) for d in report["documents"]}, report

    # class 0: PMC1's first table only; PMC1_1 ('A B') still the best variant; PMC2, PMC3 nothing
    by_doc, report = totals("--table-classes", classes, "--complexity", "0")
    assert by_doc == {"PMC1": (4, 1, 1), "PMC2": (0, 0, 0), "PMC3": (0, 0, 0)}
    assert [t["counted"] for t in report["documents"][0]["tables"]] == [True, False]
    assert f"only the ground-truth tables listed of class 0 in {classes} count" in report["aggregation"]
    # class 1: PMC1's second table ('E F G', found by no variant: each counts FN 2, and its unpaired result
    # tables as FP: PMC1.xml's 'P Q R' 2, PMC1_2's 'A X' 1, PMC1_1 none: F1 0 all, PMC1_1 best by TP-FP-FN)
    by_doc, report = totals("--table-classes", classes, "--complexity", "1,1")
    assert by_doc == {"PMC1": (2, 0, 0), "PMC2": (2, 2, 2), "PMC3": (0, 0, 0)}
    assert report["documents"][0]["result_file"].endswith("PMC1_1.xml")
    # without false positives the three tie: the first is kept
    by_doc, report = totals("--table-classes", classes, "--complexity", "1", "--ignore-fp")
    assert by_doc == {"PMC1": (2, 0, 0), "PMC2": (2, 2, 2), "PMC3": (0, 0, 0)}
    assert report["documents"][0]["result_file"].endswith("PMC1.xml")
    # every class listed: as without the file
    assert totals("--table-classes", classes)[0] == totals()[0]
    for args, message in (
        (["--complexity", "0"], "--complexity selects classes of --table-classes"),
        (["--complexity", "zero", "--table-classes", classes], "--complexity is a comma-separated list"),
        # (checked with every other path, before any work)
        (["--table-classes", tmp_path / "nope.csv"], f"--table-classes {tmp_path / 'nope.csv'}: no such file"),
    ):
        result = run(*args)
        assert result.exit_code == 2 and message in result.output, result.output
    for text, message in (
        ("0 PMC1.nxml 1\n0 PMC1.nxml\n", f"--table-classes: {classes}: line 2: expected"),
        ("\n\n", f"--table-classes: {classes}: lists no table"),
        ("0 PMC9.nxml 1\n", f"--table-classes: {classes} lists no table of these ground-truth documents"),
        (b"\xff\xfe0", f"--table-classes: {classes}: not UTF-8 text"),
    ):
        (classes.write_bytes if isinstance(text, bytes) else classes.write_text)(text)
        result = run("--table-classes", classes)
        assert result.exit_code == 2 and message in result.output, result.output
    classes.write_text("0 PMC1.nxml 1\n2 PMC3.nxml 1\n")
    result = run("--table-classes", classes, "--complexity", "0,1,5")
    assert result.exit_code == 2 and f"--complexity 1,5: {classes} lists tables of class 0, 2 only" in result.output
    for refused in (ScoreSettings(ignore_fp=True), ScoreSettings(metric="ctdar-a", single_variant=True),
                     ScoreSettings(metric="ctdar-b", table_classes=str(classes))):
        with pytest.raises(UsageError, match="applies to --variant pubmed only"):
            score_paths(gt, res, refused)


def test_a_table_classes_file_is_read_within_a_limit(tmp_path, monkeypatch):
    gt, res = _pubmed_folders(tmp_path)
    classes = tmp_path / "classes.csv"
    classes.write_text("0 PMC1.nxml 1\n" * 10)
    monkeypatch.setattr(structure, "MAX_TABLE_CLASSES_BYTES", 100)
    with pytest.raises(UsageError, match="error too-large the file has more than 100 bytes"):
        score_paths(gt, res, ScoreSettings(variant="pubmed", table_classes=str(classes)))


def test_a_subset_without_anything_in_a_document_scores_it_0_as_the_benchmark_prints_it(tmp_path):
    gt, res = _pubmed_folders(tmp_path)
    classes = tmp_path / "classes.csv"
    classes.write_text("0 PMC1.nxml 1\n")
    report = score_paths(gt, res, ScoreSettings(variant="pubmed", table_classes=str(classes)))
    assert [(d["document"], d["gt"], d["detected"], d["f1"]) for d in report["documents"]] == [
        ("PMC1", 4, 1, 0.4), ("PMC2", 0, 0, 0.0), ("PMC3", 0, 0, 0.0)]
    assert report["document_mean"]["precision"] == pytest.approx(1 / 3)
    assert pubmed_scores(0, 0, 0) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert pubmed_scores(4, 2, 2) == {"precision": 1.0, "recall": 0.5, "f1": pytest.approx(2 / 3)}
    # nothing at all in the subset: 0, not a perfect score
    report = score_paths(gt, gt, ScoreSettings(variant="pubmed", table_classes=str(classes), ignore_fp=True,
                                               single_variant=True))
    assert report["total"]["f1"] == 1.0
    empty = tmp_path / "empty"
    empty.mkdir()
    report = score_paths(gt, empty, ScoreSettings(variant="pubmed", table_classes=str(classes), ignore_fp=True))
    assert (report["total"]["gt"], report["total"]["correct"], report["total"]["f1"]) == (4, 0, 0.0)


def test_every_unreadable_variant_is_reported_and_a_readable_one_is_kept_before_it(tmp_path):
    from convertables import write

    gt, res = _pubmed_folders(tmp_path)
    for name in ("PMC1_1.xml", "PMC1_2.xml", "PMC2_3.xml"):
        (res / name).write_text("<document>")
    write(doc(grid("X Y")), res / "PMC1.xml", force=True)  # F1 0, TP-FP-FN -5
    report = score_paths(gt, res, ScoreSettings(variant="pubmed"))
    assert [Path(e.split(":")[0]).name for e in report["errors"]] == ["PMC1_1.xml", "PMC1_2.xml", "PMC2_3.xml"]
    first, second, _ = report["documents"]
    # the broken variants, read as nothing, would rank higher (F1 0, TP-FP-FN -4): PMC1.xml is kept
    assert (Path(first["result_file"]).name, first["correct"], first["detected"]) == ("PMC1.xml", 0, 1)
    assert [("error" in a) for a in first["alternatives"]] == [False, True, True]
    # with nothing readable, the unreadable file stands as no result
    assert (Path(second["result_file"]).name, second["gt"], second["correct"]) == ("PMC2_3.xml", 2, 0)


# -- the real corpus ----------------------------------------------------------------------------

def _official_tables(log: str) -> dict[str, list[tuple[int, int, int, int]]]:
    blocks = re.findall(r"Running evaluation for GT='gt/([\w-]+)-str.xml'.*?\n(.*?)\^\^\^", log, re.S)
    return {
        name: [tuple(map(int, m)) for m in re.findall(r"Table (\d+):\s+GT size: (\d+) corrDet: (\d+) detected: (\d+)", body)]
        for name, body in blocks
    }


def test_agrees_with_the_official_tool_table_by_table():
    results = corpus_path("icdar2013_results", "namysl")
    gt = corpus_path("icdar2013", "gt")
    official = _official_tables((results / "official-eval-eu.log").read_text())
    assert len(official) == 28  # the 27 EU documents and eu-009b
    from convertables.scoring.pairing import DocumentPair
    from convertables.scoring.runner import score_pair

    for name, tables in official.items():
        result = results / f"{name.removesuffix('b') + 'a' if name.endswith('b') else name}.xml"
        record = score_pair(DocumentPair(name, [gt / f"{name}-str.xml"], result), ScoreSettings(compat=True)).record
        ours = [(i + 1, t["gt"], t["correct"], t["detected"])
                for i, t in enumerate(t for t in record["tables"] if t["gt_table"] is not None)
                if t["result_table"] is not None]
        assert ours == tables, name


@pytest.mark.slow
def test_agrees_with_the_wrappers_document_lines():
    results = corpus_path("icdar2013_results", "namysl")
    log = (results / "official-eval-eu.log").read_text()
    report = score_paths(corpus_path("icdar2013", "gt"), results, ScoreSettings(compat=True))
    ours = {d["document"]: d for d in report["documents"]}
    # one line per document, and for eu-009 the line of the selected ground truth ('a': 0.95)
    selected = re.search(r"Selecting result 'a' ([\d.]+) vs. ([\d.]+)", log)
    assert ours["eu-009a"]["f1"] == float(selected.group(1))
    assert [a["f1"] for a in ours["eu-009a"]["alternatives"]] == [float(selected.group(1)), float(selected.group(2))]
    for name, (p, r, f) in ((m[0], m[1:]) for m in re.findall(
            r"\[(eu-\d+)\] PRECISION: ([\d.]+); RECALL: ([\d.]+); F1: ([\d.]+)", log)):
        record = ours[name]
        assert (f"{record['precision']:.2f}", f"{record['recall']:.2f}", f"{record['f1']:.2f}") == (p, r, f), name


@pytest.mark.slow
def test_ground_truth_against_itself_is_exactly_one():
    gt = corpus_path("icdar2013", "gt")
    report = score_paths(gt, gt)
    assert report["total"]["f1"] == 1.0 and report["document_mean"]["f1"] == 1.0
    assert report["total"]["documents"] == 67 and report["unpaired"] == {"gt": [], "result": []}
    assert report["total"]["gt"] == 25320


@pytest.mark.slow
def test_pubmed_ground_truth_against_itself_counts_198182_relations():
    gt = corpus_path("pubmed_gt", "gt")
    report = score_paths(gt, gt, ScoreSettings(variant="pubmed"), jobs=2)
    assert report["total"]["correct"] == report["total"]["gt"] == report["total"]["detected"] == 198_182
    assert report["total"]["documents"] == 863


@pytest.mark.slow
def test_agrees_with_the_published_summary_of_all_67_documents():
    """The official tool's wrapper, run by the authors of these results on all 67
    documents, printed these totals (mnamysl/tabrec-sncs, evaluation/ICDAR2013/README.md):
    per-document means P 0.8714227705826723, R 0.8467831413095247, F1 0.8589262858140391;
    GT 25319, DET 24097, CORR 22722, P 0.942938955056646, R 0.8974288084047554, F1 0.9196211753278292."""
    report = score_paths(corpus_path("icdar2013", "gt"), corpus_path("icdar2013_results", "namysl"),
                         ScoreSettings(compat=True))
    mean, total = report["document_mean"], report["total"]
    assert (mean["precision"], mean["recall"], mean["f1"]) == (0.8714227705826723, 0.8467831413095247,
                                                               0.8589262858140391)
    assert (total["gt"], total["detected"], total["correct"]) == (25319, 24097, 22722)
    assert (total["precision"], total["recall"], total["f1"]) == (0.942938955056646, 0.8974288084047554,
                                                                  0.9196211753278292)
