"""Pairing result files with ground-truth files by document name.

A document's key is its file name without the suffixes that competitions and
tools add: ``eu-001-str.xml``, ``eu-001-str-result.xml``, ``eu-001.xml`` and
``eu-001.pdf.xml`` are all ``eu-001``. Alternative ground truths of one PDF
(``eu-009a``, ``eu-009b``) form one document: each is scored and the better
kept. A result for ``eu-009a`` (or ``eu-009``) serves both. Where asked (the
biomedical benchmark's convention), results named ``PMC1_1``, ``PMC1_2`` are
variants of the result for ``PMC1``: each is scored and the best kept.
"""

from __future__ import annotations

import os
import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, overload

from .. import registry
from ..inputs import model_of  # noqa: F401 (pairing's names' rule, defined where inputs are collected)

_ALTERNATIVE = re.compile(r"^(.*\d)([ab])$")
_VARIANT = re.compile(r"^(.+)_([0-9]+)$")
_REPEAT = re.compile(r"^(.+)_repeat([0-9]+)$")


def source_name(source) -> str:
    """The file name of a source: a path as text or a Path, or a container's
    member (which has a ``name``)."""
    return os.path.basename(source) if isinstance(source, str) else source.name


def document_key(path) -> str:
    """The document a file (or a container's member) holds, by its name."""
    name = registry.without_suffix(source_name(path))
    for ending in (e for endings in registry.MODEL_ENDINGS.values() for e in endings):
        if name.endswith(ending):
            name = name[: -len(ending)]
            break
    if name.lower().endswith((".pdf", ".jpg", ".png", ".tif", ".tiff", ".jpeg")):
        name = name.rsplit(".", 1)[0]
    return name


def alternative_base(key: str) -> str:
    """``eu-009b`` -> ``eu-009``; other keys are their own base."""
    match = _ALTERNATIVE.match(key)
    return match.group(1) if match else key


@dataclass
class DocumentPair:
    """A document's ground-truth file(s) and the result(s) they are scored against.

    ``gt_files[i]`` is scored against ``result_files[i]``, and the best of these
    candidates is kept: the alternatives (``a``, ``b``) of one PDF, or one ground
    truth repeated for each variant of its result.
    """

    document: str
    gt_files: list[Path]
    """One, the alternatives (``a``, ``b``) of one PDF, or one repeated for each result variant."""
    result_file: Path | None
    """The first candidate's result."""
    result_files: list[Path | None] = field(default_factory=list)
    """The result each ground truth of ``gt_files`` is scored against (by default ``result_file`` for all)."""
    joined: dict = field(default_factory=dict)
    """A result that stands for one-file-per-table exports (``--join``): its files (joining.TableFile)."""

    def __post_init__(self):
        if not self.result_files:
            self.result_files = [self.result_file] * len(self.gt_files)


class Pairs(Sequence[DocumentPair]):
    """The documents paired, in order, held compactly: a corpus of a million
    documents is a million pairs, and an object each would be most of a run's
    memory. A document of one ground truth and at most one result is two
    indices into the sides' file lists; the others (alternatives, variants) are
    kept whole. Each :class:`DocumentPair` is made when asked for, its files as
    :class:`~pathlib.Path` (paths given as text) or as given; ``joined`` (the
    one-file-per-table results, by result file) is attached to it then."""

    def __init__(self, pairs: Iterable[DocumentPair] = (), gt_files: Sequence = (), result_files: Sequence = ()):
        self._gt_files, self._result_files = gt_files, result_files
        self._gt = array("q")  # a ground truth's index, or -1: the pair is in _whole
        self._result = array("q")  # its result's index, or -1: none
        self._whole: dict[int, DocumentPair] = {}
        self.joined: dict = {}
        for p in pairs:
            self.append_whole(p)

    def append(self, gt_index: int, result_index: int) -> None:
        """A document of the ground truth ``gt_files[gt_index]`` and the result ``result_files[result_index]`` (-1: none)."""
        self._gt.append(gt_index)
        self._result.append(result_index)

    def append_whole(self, pair_: DocumentPair) -> None:
        self._whole[len(self._gt)] = pair_
        self._gt.append(-1)
        self._result.append(-1)

    def __len__(self) -> int:
        return len(self._gt)

    @overload
    def __getitem__(self, index: int) -> DocumentPair: ...
    @overload
    def __getitem__(self, index: slice) -> Selection: ...
    def __getitem__(self, index):
        if isinstance(index, slice):
            return Selection(self, range(len(self))[index])
        if index < 0:
            index += len(self)
        gt = self._gt[index]
        if gt < 0:
            found = self._whole[index]
        else:
            result = self._result[index]
            gt_file = as_path(self._gt_files[gt])
            found = DocumentPair(document_key(gt_file), [gt_file],
                                 as_path(self._result_files[result]) if result >= 0 else None)
        if self.joined:
            found.joined = {r: self.joined[r] for r in found.result_files if r in self.joined}
        return found

    def __iter__(self) -> Iterator[DocumentPair]:
        return (self[i] for i in range(len(self)))

    def select(self, positions: Sequence[int]) -> Selection:
        """The pairs at ``positions`` (a range, or a list in order)."""
        return Selection(self, positions)

    def without_result(self) -> Iterator[tuple[int, list]]:
        """The position and ground-truth files of each document paired with no result."""
        for position, (gt, result) in enumerate(zip(self._gt, self._result)):
            if gt >= 0:
                if result < 0:
                    yield position, [as_path(self._gt_files[gt])]
            elif self._whole[position].result_file is None:
                yield position, self._whole[position].gt_files


class Selection(Sequence[DocumentPair]):
    """Some of the pairs of a :class:`Pairs`, by position; slicing it gives another, made as little as its positions."""

    def __init__(self, pairs: Pairs, positions: Sequence[int]):
        self._pairs, self.positions = pairs, positions

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Selection(self._pairs, self.positions[index])
        return self._pairs[self.positions[index]]


def as_path(source):
    """A path given as text as a Path; a Path or a container's member as it is."""
    return Path(source) if isinstance(source, str) else source


@dataclass
class Pairing:
    """The documents paired, and the files of either side left without a partner."""

    pairs: Pairs = field(default_factory=Pairs)
    unpaired_gt: list = field(default_factory=list)
    unpaired_results: list = field(default_factory=list)


def pair(gt_files: Sequence, result_files: Sequence, alternatives: bool = True,
         result_variants: bool = False, result_repeats: bool = False) -> Pairing:
    """Each ground-truth document with its result. ``alternatives``: the ICDAR
    2013 convention that ``eu-009a`` and ``eu-009b`` are two ground truths of one
    PDF (other competitions' names may end so by chance: each is a document).
    ``result_variants``: the biomedical benchmark's convention that results
    ``PMC1_1``, ``PMC1_2``... are variants of ``PMC1``'s (a name that is itself a
    ground truth's is not a variant); they are tried after ``PMC1``'s own result,
    in the order of their numbers. ``result_repeats``: olmOCR's convention that
    results ``doc_pg1_repeat1``, ``doc_pg1_repeat2``... are repeats of the
    document ``doc_pg1``: they are its candidates, in the order of their numbers
    (a result named ``doc_pg1`` itself is none). Files are given as paths (text
    or Path) or containers' members; the pairs' files are Paths (or members)."""
    if result_repeats:
        return _pair_repeats(gt_files, result_files)
    base_of = alternative_base if alternatives else str
    results = KeyIndex(result_files, document_key)
    bases = KeyIndex(gt_files, lambda path: base_of(document_key(path)))
    gt_keys = KeyIndex(gt_files, document_key) if alternatives else bases
    members = bases.repeated()  # bases of several ground truths: alternatives, or one name in two folders
    variants = _variants(results, gt_keys) if result_variants else {}
    pairing = Pairing(Pairs(gt_files=gt_files, result_files=result_files))
    used = bytearray(len(result_files))
    for index, path in enumerate(gt_files):
        key = document_key(path)
        base = base_of(key)
        if base not in members and not variants.get(key) and base == key:  # one ground truth, one result or none
            found = results.get(key)
            if found < 0 and alternatives:  # eu-009 takes a result named eu-009a (or b)
                found = next((results.get(k) for k in (base + "a", base + "b") if k in results and k not in gt_keys),
                             -1)
            if found >= 0:
                used[found] = 1
            else:
                pairing.unpaired_gt.append(path)
            pairing.pairs.append(index, found)
            continue
        indices = members.get(base, [index])
        if indices[0] != index:  # (its group was paired at its first file)
            continue
        files = [gt_files[i] for i in indices]
        keys = [document_key(f) for f in files]
        # (a name that is another document's ground truth is that document's result: x-str takes no xa result)
        shared = [k for k in (base, base + "a", base + "b") if k in keys or k not in gt_keys] if alternatives else []
        chosen = [next((k for k in [key] + shared if k in results), None) for key in keys]
        tried = [(path, candidate) for path, key, own in zip(files, keys, chosen)
                 for candidate in _candidates(own, variants.get(key, []))]
        if not any(candidate for _, candidate in tried):  # scored as a document with no result; listed as unpaired
            pairing.unpaired_gt.extend(files)
            pairing.pairs.append_whole(DocumentPair(keys[0], [as_path(f) for f in files], None))
            continue
        for _, candidate in tried:
            if candidate:
                used[results.get(candidate)] = 1
        first = next(candidate for _, candidate in tried if candidate)
        pairing.pairs.append_whole(DocumentPair(
            keys[0] if len(files) == 1 else first, [as_path(path) for path, _ in tried],
            as_path(result_files[results.get(first)]),
            [as_path(result_files[results.get(k)]) if k else None for _, k in tried],
        ))
    pairing.unpaired_results = [result_files[i] for i in results.firsts() if not used[i]] + [
        result_files[i] for i in results.duplicates()]
    return pairing


def _pair_repeats(gt_files: Sequence, result_files: Sequence) -> Pairing:
    results = KeyIndex(result_files, document_key)
    repeats: dict[str, list[tuple[int, str, str]]] = {}
    for key in results.names():
        match = _REPEAT.match(key)
        if match:
            digits = match.group(2).lstrip("0")
            repeats.setdefault(match.group(1), []).append((len(digits), digits, key))
    pairing = Pairing(Pairs(gt_files=gt_files, result_files=result_files))
    used = bytearray(len(result_files))
    for path in gt_files:
        found = [results.get(key) for *_, key in sorted(repeats.get(document_key(path), ()))]
        for index in found:
            used[index] = 1
        if not found:
            pairing.unpaired_gt.append(path)
        files = [as_path(result_files[index]) for index in found]
        pairing.pairs.append_whole(DocumentPair(document_key(path), [as_path(path)] * max(1, len(files)),
                                                files[0] if files else None, files))
    pairing.unpaired_results = [result_files[i] for i in results.firsts() if not used[i]] + [
        result_files[i] for i in results.duplicates()]
    return pairing


_hash = hash  # (a test makes names collide)


class KeyIndex:
    """The items of a sequence by a key of each (a file's document name): the
    first item of each key, the later ones of a key, and whether a name is one's
    key. A corpus's keys as strings in a dict would be the largest thing a run
    holds (a million documents: hundreds of megabytes); a large one is held as
    the keys' hashes, sorted, with each item's index (arrays of numbers), and a name found by its
    hash is checked against its item's key. Keys that share a hash (several
    items of one key, or, rarely, two keys of one hash) are kept as strings."""

    LARGE = 4096
    """Sequences of more items than this are held as hashes (a smaller one as a dict)."""

    def __init__(self, items: Sequence, key: Callable[[object], str]):
        self._items, self._key = items, key
        self._exact: dict[str, list[int]] = {}  # key -> its items' indices, where keys share a hash
        self._shared: set[int] = set()
        if len(items) <= self.LARGE:
            self._hashes = None
            for index, item in enumerate(items):
                self._exact.setdefault(key(item), []).append(index)
            return
        hashes = array("q", (_hash(key(item)) for item in items))
        order = sorted(range(len(hashes)), key=hashes.__getitem__)  # (stable: of one hash, the items in order)
        hashes = array("q", (hashes[i] for i in order))
        kept_hashes, kept_order = array("q"), array("q")
        for position, value in enumerate(hashes):
            shared = (position > 0 and hashes[position - 1] == value) or (
                position + 1 < len(hashes) and hashes[position + 1] == value)
            if shared:
                self._shared.add(value)
                self._exact.setdefault(key(items[order[position]]), []).append(order[position])
            else:
                kept_hashes.append(value)
                kept_order.append(order[position])
        self._hashes, self._order = kept_hashes, kept_order

    def get(self, name: str) -> int:
        """The index of the first item whose key is ``name``, or -1."""
        if self._hashes is None or name in self._exact:
            return self._exact.get(name, (-1,))[0]
        value = _hash(name)
        if value in self._shared:
            return -1
        at = bisect_left(self._hashes, value)
        if at == len(self._hashes) or self._hashes[at] != value:
            return -1
        index = self._order[at]
        return index if self._key(self._items[index]) == name else -1

    def __contains__(self, name: str) -> bool:
        return self.get(name) >= 0

    def repeated(self) -> dict[str, list[int]]:
        """Each key of several items, with their indices in order."""
        return {name: indices for name, indices in self._exact.items() if len(indices) > 1}

    def firsts(self) -> list[int]:
        """The index of each key's first item, in the items' order."""
        if self._hashes is None:
            return [indices[0] for indices in self._exact.values()]
        return sorted([*self._order, *(indices[0] for indices in self._exact.values())])

    def duplicates(self) -> list[int]:
        """The items after the first of their key, in their order."""
        return sorted(index for indices in self._exact.values() for index in indices[1:])

    def names(self) -> Iterator[str]:
        """Each key, once, in the order of its first item."""
        return (self._key(self._items[index]) for index in self.firsts())


def _candidates(own: str | None, variants: list[str]) -> list[str | None]:
    """The results a ground truth is scored against: its own, then its variants; [None] for none."""
    candidates = ([own] if own else []) + variants
    return candidates or [None]


def _variants(results: KeyIndex, gt_keys: KeyIndex) -> dict[str, list[str]]:
    """Ground-truth key -> the keys of its result's variants, by their numbers."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    for key in results.names():
        match = _VARIANT.match(key)
        if match and key not in gt_keys and match.group(1) in gt_keys:
            digits = match.group(2).lstrip("0")
            found.setdefault(match.group(1), []).append((len(digits), digits, key))  # numeric order, any length
    return {base: [key for *_, key in sorted(numbered)] for base, numbered in found.items()}


def find_pdf(path: Path, filename: str | None, pdf_dir: Path) -> Path | None:
    """The PDF of a document in ``pdf_dir``: by the file's key, its alternative's
    ``a`` PDF (``eu-009b`` -> ``eu-009a.pdf``), or the document's own filename."""
    key = document_key(path)
    for name in (key, alternative_base(key) + "a", alternative_base(key), Path(filename or "").stem):
        if name and (pdf_dir / f"{name}.pdf").is_file():
            return pdf_dir / f"{name}.pdf"
    return None
