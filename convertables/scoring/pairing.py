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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence, overload

from .. import registry
from ..files import input_names

_ALTERNATIVE = re.compile(r"^(.*\d)([ab])$")
_VARIANT = re.compile(r"^(.+)_([0-9]+)$")


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


def model_of(path) -> str | None:
    """``structure`` or ``region`` where the name says so (``-str``, ``-reg-result``...)."""
    return registry.model_named(registry.without_suffix(source_name(path)))


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
            gt_file = _as_path(self._gt_files[gt])
            found = DocumentPair(document_key(gt_file), [gt_file],
                                 _as_path(self._result_files[result]) if result >= 0 else None)
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
                    yield position, [_as_path(self._gt_files[gt])]
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


def _as_path(source):
    return Path(source) if isinstance(source, str) else source


@dataclass
class Pairing:
    """The documents paired, and the files of either side left without a partner."""

    pairs: Pairs = field(default_factory=Pairs)
    unpaired_gt: list = field(default_factory=list)
    unpaired_results: list = field(default_factory=list)


def collect(path: Path, suffixes: Iterable[str], model: str | None) -> Sequence[str]:
    """The files of ``path`` (a file, or a folder read recursively), as text,
    that hold ``model`` (a folder's as a :class:`~convertables.files.PathList`:
    a corpus's paths as Path objects would take many times the memory)."""
    if path.is_file():
        return [str(path)]
    files = input_names(path, suffixes)
    if model is None:
        return files
    return files.where(lambda p: model_of(p) in (model, None))


def among_inputs(path: Path, *roots: Path) -> bool:
    """Whether ``path`` is one of ``roots`` or a file that :func:`collect` would
    take from one of them (an output there would replace an input)."""
    target = path.resolve()
    suffixes = tuple(registry.folder_suffixes())
    for root in map(Path.resolve, roots):
        if target == root or (root in target.parents and target.name.lower().endswith(suffixes)):
            return True
    return False


def pair(gt_files: Sequence, result_files: Sequence, alternatives: bool = True,
         result_variants: bool = False) -> Pairing:
    """Each ground-truth document with its result. ``alternatives``: the ICDAR
    2013 convention that ``eu-009a`` and ``eu-009b`` are two ground truths of one
    PDF (other competitions' names may end so by chance: each is a document).
    ``result_variants``: the biomedical benchmark's convention that results
    ``PMC1_1``, ``PMC1_2``... are variants of ``PMC1``'s (a name that is itself a
    ground truth's is not a variant); they are tried after ``PMC1``'s own result,
    in the order of their numbers. Files are given as paths (text or Path) or
    containers' members; the pairs' files are Paths (or members).

    A corpus's pairing is held while it is made: what is kept a document is an
    index where it can be (a million documents are a million of everything)."""
    results: dict[str, int] = {}  # key -> the index of its first result
    duplicates: list[int] = []
    for index, path in enumerate(result_files):
        if results.setdefault(document_key(path), index) != index:
            duplicates.append(index)
    gt_key = [document_key(p) for p in gt_files]
    base_of = alternative_base if alternatives else str
    bases: set[str] = set()
    repeated: set[str] = set()  # bases of several ground truths: alternatives, or one name in two folders
    for key in gt_key:
        base = base_of(key)
        (repeated if base in bases else bases).add(base)
    gt_keys = _Keys(gt_key, bases) if alternatives else bases
    members: dict[str, list[int]] = {}
    if repeated:
        for index, key in enumerate(gt_key):
            if base_of(key) in repeated:
                members.setdefault(base_of(key), []).append(index)
    variants = _variants(results, gt_keys) if result_variants else {}
    pairing = Pairing(Pairs(gt_files=gt_files, result_files=result_files))
    used = bytearray(len(result_files))
    for index, key in enumerate(gt_key):
        base = base_of(key)
        if base not in repeated and not variants.get(key) and base == key:  # one ground truth, one result or none
            if key not in results and alternatives:  # eu-009 takes a result named eu-009a (or b)
                key = next((k for k in (base + "a", base + "b") if k in results and k not in gt_keys), key)
            if key in results:
                used[results[key]] = 1
                pairing.pairs.append(index, results[key])
            else:
                pairing.unpaired_gt.append(gt_files[index])
                pairing.pairs.append(index, -1)
            continue
        if base in repeated:
            indices = members.pop(base, None)
            if indices is None:  # (its group was paired at its first file)
                continue
        else:
            indices = [index]
        files = [gt_files[i] for i in indices]
        keys = [gt_key[i] for i in indices]
        # (a name that is another document's ground truth is that document's result: x-str takes no xa result)
        shared = [k for k in (base, base + "a", base + "b") if k in keys or k not in gt_keys] if alternatives else []
        chosen = [next((k for k in [key] + shared if k in results), None) for key in keys]
        tried = [(path, candidate) for path, key, own in zip(files, keys, chosen)
                 for candidate in _candidates(own, variants.get(key, []))]
        if not any(candidate for _, candidate in tried):  # scored as a document with no result; listed as unpaired
            pairing.unpaired_gt.extend(files)
            pairing.pairs.append_whole(DocumentPair(keys[0], [_as_path(f) for f in files], None))
            continue
        for _, candidate in tried:
            if candidate:
                used[results[candidate]] = 1
        first = next(candidate for _, candidate in tried if candidate)
        pairing.pairs.append_whole(DocumentPair(
            keys[0] if len(files) == 1 else first, [_as_path(path) for path, _ in tried],
            _as_path(result_files[results[first]]),
            [_as_path(result_files[results[k]]) if k else None for _, k in tried],
        ))
    pairing.unpaired_results = [result_files[i] for i in results.values() if not used[i]] + [
        result_files[i] for i in duplicates]
    return pairing


class _Keys:
    """Whether a name is a ground truth's key, where alternatives make keys and
    documents' bases differ (``eu-009a`` is a key, its base ``eu-009`` is one
    only where a file is named so): held as the bases, the keys that are not
    their own base (few), and the bases that are no file's key (fewer)."""

    def __init__(self, keys: list[str], bases: set[str]):
        self._bases = bases
        self._others = {key for key in keys if alternative_base(key) != key}
        theirs = {alternative_base(key) for key in self._others}
        self._bases_only = theirs - {key for key in keys if key in theirs}

    def __contains__(self, key: str) -> bool:
        return key in self._others or (key in self._bases and key not in self._bases_only)


def _candidates(own: str | None, variants: list[str]) -> list[str | None]:
    """The results a ground truth is scored against: its own, then its variants; [None] for none."""
    candidates = ([own] if own else []) + variants
    return candidates or [None]


def _variants(results: dict[str, int], gt_keys: set[str] | _Keys) -> dict[str, list[str]]:
    """Ground-truth key -> the keys of its result's variants, by their numbers."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    for key in results:
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
