"""The quick ways of the ``unstructured`` profile give what the plain ones give:
``matching_blocks.matched_characters_of`` (a ranking of runs, small ranges
searched character by character) against difflib itself, and the readings of
plain table markup in ``unstructured_eval`` against html.parser's tree."""

from __future__ import annotations

import difflib
import random
import re

import pytest

from convertables.formats import unstructured_eval
from convertables.scoring import matching_blocks

WORDS = ["revenue", "profit", "total", "north", "2021", "q1", "margin", "net", "\u00e9\U0001F600", "a", ""]
ALPHABETS = ["ab", "abc ", "abcdefgh 0123", "a\u00e9\U0001F600 b\u0301", "abcdefghijklmnopqrstuvwxyz0123456789 .,"]


def _difflib(a: str, b: str) -> int:
    return sum(block.size for block in difflib.SequenceMatcher(None, a, b).get_matching_blocks())


def _text(rng: random.Random) -> str:
    if rng.random() < 0.4:
        alphabet = rng.choice(ALPHABETS)
        return "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 30, 199, 200, 201, 400, 900])))
    # a table's text: words and numbers (200 characters or more: difflib's autojunk takes popular ones out)
    return " ".join(f"{rng.choice(WORDS)} {rng.randint(0, 99)}" for _ in range(rng.choice([3, 30, 60, 150])))


def _edited(rng: random.Random, a: str) -> str:
    b = list(a)
    for _ in range(rng.randint(0, 20)):
        if not b:
            break
        k, roll = rng.randrange(len(b)), rng.random()
        if roll < 0.4:
            b[k] = rng.choice("ab 0x\u00e9")
        elif roll < 0.6:
            del b[k:k + rng.randint(1, 30)]
        elif roll < 0.8:
            b[k:k] = list(a[rng.randrange(len(a)):][:rng.randint(1, 40)])
        else:  # a stretch moved
            moved = b[k:k + rng.randint(1, 50)]
            del b[k:k + len(moved)]
            at = rng.randrange(len(b) + 1)
            b[at:at] = moved
    return "".join(b)


@pytest.mark.parametrize("small_area", [1, 64, matching_blocks._SMALL_AREA])
def test_matched_characters_of_are_difflibs_whichever_way_each_range_is_searched(monkeypatch, small_area):
    # small_area 1: every range from a ranking of runs (the larger side going on down its
    # parent's, runs cut by the edges); the default: small ranges character by character
    monkeypatch.setattr(matching_blocks, "_SMALL_AREA", small_area)
    rng = random.Random(small_area)
    for _ in range(250):
        a = _text(rng)
        roll = rng.random()
        b = _edited(rng, a) if roll < 0.6 else _text(rng) if roll < 0.8 else _edited(rng, a) * rng.randint(1, 3)
        if rng.random() < 0.5:
            a, b = b, a
        assert matching_blocks.matched_characters_of(a, b) == _difflib(a, b), (a, b)


def test_matched_characters_of_long_tables_are_difflibs():
    rng = random.Random(3)
    cells = [f"{rng.choice(WORDS)} {rng.randint(0, 9999)}" for _ in range(600)]
    a = " ".join(cells)
    b = " ".join(cells[:290] + cells[296:]).replace("revenue 1", "revenue 7")
    assert len(matching_blocks.popular_characters(b)) > 5  # (autojunk at work)
    assert matching_blocks.matched_characters_of(a, b) == _difflib(a, b)
    assert matching_blocks.matched_characters_of(b, a) == _difflib(b, a)


def _tree_cells(monkeypatch, source: str):
    """html_cells with html.parser doing all the reading."""
    with monkeypatch.context() as patched:
        never = re.compile("(?!)")
        patched.setattr(unstructured_eval, "_BARE_TABLE", never)
        patched.setattr(unstructured_eval, "_FLAT_TABLE", never)
        patched.setattr(unstructured_eval, "_PLAIN_MARKUP", never)
        return unstructured_eval.html_cells(source)


def _spans(rng: random.Random, most: int = 3) -> str:
    return "".join(f' {rng.choice(["colspan", "rowspan"])}=' + (f'"{value}"' if rng.random() < 0.6 else value)
                   for value in (rng.choice(["0", "1", "2", "3", "02"]) for _ in range(rng.randint(1, most))))


def _cell_tag(rng: random.Random) -> str:
    return f"<{rng.choice(['td', 'th'])}{_spans(rng)}>"


def test_plain_table_markup_reads_as_html_parser_reads_it(monkeypatch):
    rng = random.Random(5)
    texts = ["", " ", "\n", " \n ", "a", " a b ", "x>y", "\t1\r\n", "\u00e9\U0001F600", "]]>", "\f", "\r", "R&amp;D",
             "&#65;", "&#x1F600;", "&nbsp;x", "&amp", "&#12e;", "&", "&copy;&lt;", "&#0;", "&#128;", "&bogus;"]
    tags = ["table", "thead", "tbody", "tfoot", "tr", "td", "th"]
    bare = flat = plain = 0
    for _ in range(1500):
        if rng.random() < 0.5:  # rows of cells, now and then one unclosed or closed by the other tag
            rows = []
            for _ in range(rng.randint(0, 5)):
                cells = []
                for _ in range(rng.randint(0, 5)):
                    tag = rng.choice(["td", "th"])
                    end = tag if rng.random() < 0.95 else rng.choice(["td", "th"])
                    spans = _spans(rng, 2) if rng.random() < 0.3 else ""
                    cells.append(f"<{tag}{spans}>{rng.choice(texts)}" + (f"</{end}>" if rng.random() < 0.97 else ""))
                rows.append("<tr>" + "".join(cells) + ("</tr>" if rng.random() < 0.97 else ""))
            source = "<table>" + "".join(rows) + "</table>" + (" " if rng.random() < 0.05 else "")
        else:  # any sequence of table tags (cells with spans, quoted or not) and text
            parts = [rng.choice([f"<{rng.choice(tags)}>", f"</{rng.choice(tags)}>", rng.choice(texts), _cell_tag(rng)])
                     for _ in range(rng.randint(0, 30))]
            source = ("<table>" if rng.random() < 0.7 else "") + "".join(parts)
        bare += unstructured_eval._BARE_TABLE.fullmatch(source) is not None
        flat += unstructured_eval._FLAT_TABLE.fullmatch(source) is not None
        plain += unstructured_eval._PLAIN_MARKUP.fullmatch(source) is not None
        assert unstructured_eval.html_cells(source) == _tree_cells(monkeypatch, source), source
    assert bare > 50 and flat > 100 and plain > 500  # (each quick reading was taken)


def test_markup_beyond_plain_goes_to_html_parser(monkeypatch):
    for source in ["<table><tr><TD>x</TD></tr></table>", "<table><tr><td>a<br>b</td></tr></table>",
                   '<table><tr><td colspan="x">a</td></tr></table>', "<table><tr><td  rowspan=2>a</td></tr></table>",
                   '<table border="1"><tr><td>a</td></tr></table>', "<table><tr><td>a &amp b</td></tr></table>",
                   "<table><tr><td>a &x-y; b</td></tr></table>"]:
        assert unstructured_eval._PLAIN_MARKUP.fullmatch(source) is None, source
        assert unstructured_eval.html_cells(source) == _tree_cells(monkeypatch, source)
    source = '<table><tr><td colspan="2">a &amp; b&#x41;</td></tr><tr><td rowspan=2>c</td><td>d</td></tr></table>'
    assert unstructured_eval._PLAIN_MARKUP.fullmatch(source) is not None
    assert unstructured_eval.html_cells(source) == _tree_cells(monkeypatch, source) == [
        (0, 0, 2, 1, "a & bA"), (1, 0, 1, 2, "c"), (1, 1, 1, 1, "d")]


def test_the_two_writings_of_a_table_give_one_content_ratio():
    from rapidfuzz import fuzz

    from convertables.scoring.table_accuracy import _content_ratios

    def by_row(cells):  # (the other writing, a line of columns above a line of texts)
        return "\t".join([str(col) for _, col, _ in cells]) + "\n" + "\t".join([text for _, _, text in cells])

    rng = random.Random(1)
    pieces = ["a", "b c", "", " ", "\u00a0", "\u2003x", "\x1c", "\x85", "\u00e9", "12", "\u3000y z", "\t", "\r\n"]

    def table():
        return [(rng.randint(0, 5), rng.randint(0, 5), "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))))
                for _ in range(rng.randint(0, 8))]

    for _ in range(2000):
        gt, result = table(), table()
        by_column, by_row_ratio = _content_ratios(gt, result)
        assert by_column == by_row_ratio == fuzz.token_ratio(by_row(gt), by_row(result), processor=None)
