"""What ``score`` does for every document, made cheaper without changing a result:
the tree edit distance of two trees that need no edit, the sniffers' gates, the
Markdown sniffer on a line of dashes, and when the worker processes start."""

from __future__ import annotations

import random
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pytest

from convertables import registry
from convertables.scoring import runner
from convertables.scoring.executors import Executor
from convertables.scoring.tree_edit import Tree, _tree_distances, distance
from convertables.sniffing import SNIFF_BYTES, as_utf8

CASES = Path(__file__).parents[1] / "cases"


# -- the tree edit distance ---------------------------------------------------------------------

def _parents(rng: random.Random, n: int) -> list[int]:
    """A random tree's parent indices in postorder (the root last, its parent -1)."""
    children: dict[int, list[int]] = {0: []}
    for node in range(1, n):
        children[node] = []
        children[rng.randrange(node)].append(node)
    order: list[int] = []

    def walk(node: int) -> None:
        for child in children[node]:
            walk(child)
        order.append(node)

    walk(0)
    at = {node: k for k, node in enumerate(order)}
    parent_of = {child: node for node, kids in children.items() for child in kids}
    return [at[parent_of[node]] if node in parent_of else -1 for node in order]


def _solved(t1: Tree, t2: Tree, rename: np.ndarray) -> float:
    """The distance from the whole programme, whatever the trees."""
    return float(_tree_distances(t1, t2, rename).td[-1, -1])


@pytest.mark.parametrize("seed", range(12))
def test_two_trees_of_one_shape_renamed_for_nothing_are_at_distance_zero(seed):
    rng = random.Random(seed)
    parents = _parents(rng, rng.randint(1, 40))
    t1, t2 = Tree.from_parents(parents), Tree.from_parents(list(parents))
    rename = np.array([[rng.choice([0.0, 1.0, rng.random()]) for _ in parents] for _ in parents])
    np.fill_diagonal(rename, 0.0)
    assert distance(t1, t2, rename) == 0.0 == _solved(t1, t2, rename)


@pytest.mark.parametrize("seed", range(12))
def test_one_costly_rename_between_counterparts_is_solved_as_before(seed):
    rng = random.Random(100 + seed)
    parents = _parents(rng, rng.randint(2, 40))
    t1, t2 = Tree.from_parents(parents), Tree.from_parents(parents)
    rename = np.array([[rng.choice([0.0, 1.0, rng.random()]) for _ in parents] for _ in parents])
    np.fill_diagonal(rename, 0.0)
    node = rng.randrange(len(parents))
    rename[node, node] = 0.5
    found = distance(t1, t2, rename)
    assert found == _solved(t1, t2, rename)
    assert 0.0 < found <= 0.5


def test_trees_of_other_shapes_or_negative_costs_are_solved_as_before():
    t1 = Tree.from_parents([2, 2, -1])  # a root with two leaves
    t2 = Tree.from_parents([1, 2, -1])  # a chain of three
    # (leaves that are siblings cannot both map into a chain: one deleted, one inserted)
    assert distance(t1, t2, np.zeros((3, 3))) == _solved(t1, t2, np.zeros((3, 3))) == 2.0
    negative = np.zeros((3, 3))
    negative[0, 1] = -5.0  # (no distance: the diagonal, free, is then not the least; the leaf into the middle is)
    assert distance(t2, t2, negative) == _solved(t2, t2, negative) == -3.0


# -- the sniffers' gates ------------------------------------------------------------------------

def _heads() -> list[bytes]:
    found = []
    for path in sorted(CASES.rglob("*")):
        if path.is_file():
            data = path.read_bytes()[:SNIFF_BYTES]
            found.append(data)
            stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n\x0b\x0c")
            found += [b"\xef\xbb\xbf" + stripped, b" \n\t" + stripped, b"\xef\xbb\xbf\x0c " + stripped,
                      b'<?xml version="1.0"?>\n<!-- a comment -->\n' + stripped]
    return [as_utf8(head) for head in found]


def test_every_gate_passes_the_heads_its_sniffer_takes_and_the_format_found_is_the_same():
    heads = _heads()
    formats = list(registry.formats().values())
    gated = [fmt for fmt in formats if fmt.sniff_gate is not None]
    assert {"docling", "icdar", "xlsx", "mineru", "pagexml"} <= {fmt.name for fmt in gated}
    taken = 0
    for head in heads:
        for fmt in gated:
            if fmt.sniff(head):
                taken += 1
                assert fmt.sniff_gate(head), (fmt.name, head[:80])
        assert registry.sniffed(head) is next((fmt for fmt in formats if fmt.sniff(head)), None), head[:80]
    assert taken > 50  # (the cases hold files of most formats)


def _run(code: str, timeout: float = 60) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True)
    return out.stdout


def test_a_text_page_is_sniffed_without_importing_the_json_xml_and_workbook_formats():
    imported = _run(
        "import sys\n"
        "from convertables import registry\n"
        "print(registry.sniffed(b'A page of text,\\n\\nand a second paragraph.\\n'))\n"
        "print(registry.sniffed(b'| a | b |\\n|---|---|\\n| 1 | 2 |\\n').name)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('convertables.formats.'))))\n").split("\n")
    assert imported[:2] == ["None", "markdown"]
    modules = set(imported[2].split())
    for name in ("docling", "mineru", "azure", "icdar", "abbyy", "pagexml", "xlsx", "delimited",
                 "opendataloader_markdown"):
        assert f"convertables.formats.{name}" not in modules, name


def test_the_markdown_sniffer_on_a_line_of_dashes_that_is_no_delimiter_row():
    # (each further dash doubled the work of the pattern this replaced)
    start = time.perf_counter()
    found = _run("from convertables import registry\n"
                 "head = b'Some text\\n|-|' + b'-' * 60 + b'x\\n'\n"
                 "print(registry.sniffed(head))\n"
                 "print(registry.sniffed(b'Some text\\n| a | b |\\n|:-|---:|\\n').name)\n", timeout=120)
    assert found.split() == ["None", "markdown"]
    assert time.perf_counter() - start < 60


# -- when worker processes start ----------------------------------------------------------------

class _Recorder(Executor):
    """An executor that scores here and says that it was asked."""

    name = "recorder"
    may_score_here = True

    def __init__(self):
        self.asked = 0
        self.workers = 0

    def start(self, workers):
        self.workers = workers
        return workers

    def check_reaches(self, path):
        pass

    def map(self, function, items):
        self.asked += 1
        return [function(item) for item in items]

    def close(self):
        pass


class _Pair(int):
    """A document to score, known by its number."""

    gt_files = ("gt.xml",)


def _busy(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


@pytest.mark.parametrize("imports", [True, False])
def test_a_document_that_imported_modules_is_not_counted_in_the_projected_work(monkeypatch, imports):
    def score_pair(pair, settings, explain=False):
        if pair == 1:  # a library's first use: the module, and its cost
            if imports:
                monkeypatch.setitem(sys.modules, "convertables_test_first_use", types.ModuleType("first_use"))
            _busy(0.2)
        return pair

    monkeypatch.setattr(runner, "score_pair", score_pair)
    monkeypatch.setattr(runner, "SERIAL_WORK_S", 0.1)
    executor, workers = _Recorder(), []
    scored = list(runner.score_documents([_Pair(n) for n in range(10)], settings=None, jobs=2, workers_used=workers,
                                         executor=executor))
    assert scored == list(range(10))
    if imports:  # the rest, projected from the other documents, is too little for a pool
        assert executor.asked == 0 and workers == [1]
    else:  # 0.2 s of CPU counted: past SERIAL_WORK_S, the rest to the workers
        assert executor.asked == 1 and workers == [2]
