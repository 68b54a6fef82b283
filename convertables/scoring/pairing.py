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

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .. import registry
from ..files import input_files

_ALTERNATIVE = re.compile(r"^(.*\d)([ab])$")
_VARIANT = re.compile(r"^(.+)_([0-9]+)$")


def document_key(path: Path) -> str:
    name = registry.without_suffix(path.name)
    for ending in (e for endings in registry.MODEL_ENDINGS.values() for e in endings):
        if name.endswith(ending):
            name = name[: -len(ending)]
            break
    if name.lower().endswith((".pdf", ".jpg", ".png", ".tif", ".tiff", ".jpeg")):
        name = name.rsplit(".", 1)[0]
    return name


def model_of(path: Path) -> str | None:
    """``structure`` or ``region`` where the name says so (``-str``, ``-reg-result``...)."""
    return registry.model_named(registry.without_suffix(path.name))


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


@dataclass
class Pairing:
    """The documents paired, and the files of either side left without a partner."""

    pairs: list[DocumentPair] = field(default_factory=list)
    unpaired_gt: list[Path] = field(default_factory=list)
    unpaired_results: list[Path] = field(default_factory=list)


def collect(path: Path, suffixes: Iterable[str], model: str | None) -> list[Path]:
    """The files of ``path`` (a file, or a folder read recursively) that hold ``model``."""
    if path.is_file():
        return [path]
    files = input_files(path, suffixes)
    if model is None:
        return files
    return [p for p in files if model_of(p) in (model, None)]


def among_inputs(path: Path, *roots: Path) -> bool:
    """Whether ``path`` is one of ``roots`` or a file that :func:`collect` would
    take from one of them (an output there would replace an input)."""
    target = path.resolve()
    suffixes = tuple(registry.folder_suffixes())
    for root in map(Path.resolve, roots):
        if target == root or (root in target.parents and target.name.lower().endswith(suffixes)):
            return True
    return False


def pair(gt_files: list[Path], result_files: list[Path], alternatives: bool = True,
         result_variants: bool = False) -> Pairing:
    """Each ground-truth document with its result. ``alternatives``: the ICDAR
    2013 convention that ``eu-009a`` and ``eu-009b`` are two ground truths of one
    PDF (other competitions' names may end so by chance: each is a document).
    ``result_variants``: the biomedical benchmark's convention that results
    ``PMC1_1``, ``PMC1_2``... are variants of ``PMC1``'s (a name that is itself a
    ground truth's is not a variant); they are tried after ``PMC1``'s own result,
    in the order of their numbers."""
    results: dict[str, Path] = {}
    duplicates: list[Path] = []
    for path in result_files:
        key = document_key(path)
        if key in results:
            duplicates.append(path)
        else:
            results[key] = path
    gt_keys = {document_key(p) for p in gt_files}
    groups: dict[str, list[Path]] = {}
    base_of = alternative_base if alternatives else str
    for path in gt_files:
        groups.setdefault(base_of(document_key(path)), []).append(path)
    variants = _variants(results, gt_keys) if result_variants else {}
    pairing = Pairing()
    used: set[str] = set()
    for base, files in groups.items():
        keys = [document_key(p) for p in files]
        # (a name that is another document's ground truth is that document's result: x-str takes no xa result)
        shared = [k for k in (base, base + "a", base + "b") if k in keys or k not in gt_keys] if alternatives else []
        chosen = [next((k for k in [key] + shared if k in results), None) for key in keys]
        tried = [(path, candidate) for path, key, own in zip(files, keys, chosen)
                 for candidate in _candidates(own, variants.get(key, []))]
        if not any(candidate for _, candidate in tried):  # scored as a document with no result; listed as unpaired
            pairing.unpaired_gt.extend(files)
            pairing.pairs.append(DocumentPair(keys[0], files, None))
            continue
        used.update(candidate for _, candidate in tried if candidate)
        first = next(candidate for _, candidate in tried if candidate)
        pairing.pairs.append(DocumentPair(
            keys[0] if len(files) == 1 else first, [path for path, _ in tried], results[first],
            [results[k] if k else None for _, k in tried],
        ))
    pairing.unpaired_results = [p for k, p in results.items() if k not in used] + duplicates
    return pairing


def _candidates(own: str | None, variants: list[str]) -> list[str | None]:
    """The results a ground truth is scored against: its own, then its variants; [None] for none."""
    candidates = ([own] if own else []) + variants
    return candidates or [None]


def _variants(results: dict[str, Path], gt_keys: set[str]) -> dict[str, list[str]]:
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
