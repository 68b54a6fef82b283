"""How many characters ``difflib.SequenceMatcher(None, a, b)`` matches, for many pairs at once
(:func:`matched_characters`), and for one pair of long texts (:func:`matched_characters_of`).

GriTS_Con (:mod:`convertables.scoring.grits`) counts the characters of the
matching blocks of Python's ``difflib`` (the Ratcliff/Obershelp match), which
is greedy: it takes the longest common block (the first in ``a``, then in
``b``, on ties), then matches what lies left of it and what lies right of it
in the same way. That can match fewer characters than the longest common
subsequence (LCS): ``"255.1"`` and ``"71.715"`` match 1, their LCS is 2.
``difflib`` also has "autojunk": where ``b`` has 200 characters or more, a
character occurring more than ``len(b) // 100 + 1`` times in it is *popular*
and cannot start or continue a block; a block found is then extended by equal
characters on both sides, popular or not.

Many pairs are computed without a Python step per pair:

* the LCS of every pair (rapidfuzz, compiled) bounds the greedy match from
  above, and settles pairs whose LCS is 0 or 1 (one common character is one
  block) unless ``b`` has popular characters;
* for the others, each character of ``a`` is a bit mask of the positions of
  ``b`` holding it (64 positions a word); runs of matches along diagonals are
  found by shifting and and-ing these masks, all pairs and all pending
  sub-ranges of one round together, and the few runs still growing after a
  few characters are finished by comparing the characters after them; a pair
  is finished once its matched characters reach its LCS.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from typing import Sequence

import numpy as np

_WORD = 64
# _LOW[n]: the n lowest bits set (n = 0 ... 64)
_LOW = np.array([(1 << n) - 1 for n in range(_WORD + 1)], dtype=np.uint64)
_ONE = np.uint64(1)
_SIXTY_THREE = np.uint64(63)
_ROW_BUDGET = 1 << 20  # words of masks laid out at once
_TABLE_BUDGET = 1 << 23  # words of the (b, character) -> mask table at once


def popular_characters(b: str) -> frozenset[str]:
    """The characters difflib's autojunk takes out of ``b``'s index."""
    n = len(b)
    if n < 200:
        return frozenset()
    return _popular_in_long(b)


@lru_cache(maxsize=16)
def _popular_in_long(b: str) -> frozenset[str]:
    n = len(b)
    from collections import Counter

    limit = n // 100 + 1
    return frozenset(ch for ch, count in Counter(b).items() if count > limit)


class _Flat:
    """Texts' code points laid end to end: ``codes[start[k] + i]`` is ``texts[k][i]``."""

    def __init__(self, texts: Sequence[str]):
        self.length = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        self.start = np.cumsum(self.length) - self.length
        joined = "".join(texts).encode("utf-32-le", "surrogatepass")
        self.codes = np.frombuffer(joined, dtype=np.uint32).astype(np.int64)


def matched_characters(a_texts: Sequence[str], b_texts: Sequence[str]) -> np.ndarray:
    """(len(a_texts), len(b_texts)): for each pair, the total size of
    ``difflib.SequenceMatcher(None, a, b).get_matching_blocks()``."""
    from rapidfuzz.distance import LCSseq
    from rapidfuzz.process import cdist

    n_a, n_b = len(a_texts), len(b_texts)
    if n_a == 0 or n_b == 0:
        return np.zeros((n_a, n_b), dtype=np.int64)
    lcs = cdist(list(a_texts), list(b_texts), scorer=LCSseq.similarity, processor=None,
                dtype=np.int32, workers=1)
    popular = [popular_characters(b) if len(b) >= 200 else None for b in b_texts]
    has_popular = np.array([bool(p) for p in popular])
    greedy = lcs >= 2
    if has_popular.any():
        greedy |= (lcs >= 1) & has_popular[None, :]
    matched = lcs
    if greedy.any():
        pa, pb = np.nonzero(greedy)
        matched[pa, pb] = _greedy(a_texts, b_texts, pa, pb, lcs[pa, pb], popular)
    return matched


def _greedy(a_texts, b_texts, pa: np.ndarray, pb: np.ndarray, bound: np.ndarray, popular) -> np.ndarray:
    """difflib's matched characters for the pairs ``(a_texts[pa[k]], b_texts[pb[k]])``,
    ``bound`` their LCS; pairs grouped by the words of ``b``'s masks."""
    a = _Flat(a_texts)
    b = _Flat(b_texts)
    chars = np.unique(b.codes)
    # each character of the a texts as its index in chars; len(chars): in no b (and one more, past the end)
    a_char = np.searchsorted(chars, a.codes)
    a_char[(a_char == len(chars)) | (chars[np.minimum(a_char, len(chars) - 1)] != a.codes)] = len(chars)
    a_char = np.append(a_char, len(chars))
    words = (b.length + _WORD - 1) // _WORD
    pair_words = words[pb]
    out = np.zeros(len(pa), dtype=np.int64)
    for w in np.unique(pair_words).tolist():
        in_group = np.flatnonzero(pair_words == w)
        used = np.zeros(len(b_texts), dtype=bool)
        used[pb[in_group]] = True
        b_used = np.flatnonzero(used)
        per_table = max(1, _TABLE_BUDGET // ((len(chars) + 1) * w))
        for at in range(0, len(b_used), per_table):
            b_chunk = b_used[at:at + per_table]
            local = np.full(len(b_texts), -1, dtype=np.int64)
            local[b_chunk] = np.arange(len(b_chunk))
            masks = _masks(b, b_chunk, chars, w, popular)
            members = in_group[local[pb[in_group]] >= 0]
            rows = np.cumsum(a.length[pa[members]] + 1) * w
            first = 0
            while first < len(members):
                before = int(rows[first - 1]) if first else 0
                last = max(first + 1, int(np.searchsorted(rows, before + _ROW_BUDGET, side="right")))
                batch = members[first:last]
                extend = np.array([bool(popular[j]) for j in pb[batch].tolist()]) if any(
                    popular[j] for j in b_chunk.tolist()) else None
                out[batch] = _rounds(a, b, a_char, masks, local[pb[batch]] * (len(chars) + 1),
                                     pa[batch], pb[batch], bound[batch], extend, w)
                first = last
    return out


def _masks(b: _Flat, b_chunk: np.ndarray, chars: np.ndarray, n_words: int, popular) -> np.ndarray:
    """For each b of ``b_chunk`` and each character of ``chars`` (and one for
    "none"), the mask of its positions in b, popular characters left out:
    ``(len(b_chunk) * (len(chars) + 1), words)``, or one word a row without
    the second axis where one word holds every b."""
    lengths = b.length[b_chunk]
    owner = np.repeat(np.arange(len(b_chunk)), lengths)
    pos = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    codes = b.codes[np.repeat(b.start[b_chunk], lengths) + pos]
    if any(popular[j] for j in b_chunk.tolist()):
        keep = np.ones(len(codes), dtype=bool)
        for k, j in enumerate(b_chunk.tolist()):
            if popular[j]:
                here = owner == k
                keep[here] = ~np.isin(codes[here], np.array([ord(c) for c in popular[j]], dtype=np.int64))
        owner, pos, codes = owner[keep], pos[keep], codes[keep]
    masks = np.zeros((len(b_chunk) * (len(chars) + 1), n_words), dtype=np.uint64)
    np.bitwise_or.at(masks, (owner * (len(chars) + 1) + np.searchsorted(chars, codes), pos // _WORD),
                     np.left_shift(_ONE, (pos % _WORD).astype(np.uint64)))
    return masks[:, 0].copy() if n_words == 1 else masks


def _nonzero_rows(x: np.ndarray) -> np.ndarray:
    return x != 0 if x.ndim == 1 else x.any(axis=1)


def _rounds(a: _Flat, b: _Flat, a_char, masks, mask_base, pa, pb, bound, extend, n_words: int) -> np.ndarray:
    """difflib's greedy match of a batch of pairs, ``masks[mask_base[k] + c]``
    being the mask of character ``c`` in pair k's b.

    Each round takes the pending ranges (one per pair at first; a pair's
    ranges never share a row of a) and lays their rows of a end to end, each
    range followed by an empty row, as one array of masks (rows, words): a
    diagonal run of matches is then a run of rows, each mask the previous one
    shifted by a bit, and never crosses from one range into the next."""
    word_starts = np.arange(n_words, dtype=np.int64) * _WORD
    a_start = a.start[pa]
    matched = np.zeros(len(pa), dtype=np.int64)
    # pending ranges: pair, alo, ahi, blo, bhi
    task_pair = np.arange(len(pa))
    alo = np.zeros(len(pa), dtype=np.int64)
    ahi = a.length[pa]
    blo = np.zeros(len(pa), dtype=np.int64)
    bhi = b.length[pb]
    whole = True
    while len(task_pair):
        lengths = ahi - alo + 1
        ends = np.cumsum(lengths)
        row_task = np.repeat(np.arange(len(task_pair)), lengths)
        # each row's character of a (the empty row after a range reads past it, then is cleared)
        a_index = (a_start[task_pair] + alo - ends + lengths)[row_task]
        a_index += np.arange(len(row_task))
        e = masks[mask_base[task_pair][row_task] + a_char[a_index]]
        e[ends - 1] = 0
        if not whole:  # only the bits blo..bhi-1 of each range
            lo = np.clip(blo[:, None] - word_starts[None, :], 0, _WORD)
            hi = np.clip(bhi[:, None] - word_starts[None, :], 0, _WORD)
            in_range = _LOW[hi] & ~_LOW[lo]
            e &= (in_range[:, 0] if e.ndim == 1 else in_range)[row_task]
        whole = False

        tail = None
        if extend is None:  # (with popular characters, runs and equal characters differ)
            b_first = b.start[pb[task_pair]]
            tail = _Tails(a.codes, b.codes, a_index, b_first, a_start[task_pair] + ahi, b_first + bhi)
        size, end_row, end_j = _longest_runs(e, row_task, ends - lengths, tail)
        end_i = end_row - ends + lengths + alo
        i0 = np.where(size > 0, end_i - size + 1, alo)
        j0 = np.where(size > 0, end_j - size + 1, blo)
        if extend is not None:
            i0, j0, size = _extend(a, b, pa[task_pair], pb[task_pair], extend[task_pair],
                                   alo, ahi, blo, bhi, i0, j0, size)
        matched += np.bincount(task_pair, weights=size, minlength=len(matched)).astype(np.int64)
        # the ranges left and right of each block, for pairs still short of their LCS; a block
        # of 1 was the range's first match, so nothing left of it matches (unless it was extended)
        open_pair = (size > 0) & (matched[task_pair] < bound[task_pair])
        left = open_pair & (alo < i0) & (blo < j0) & ((size > 1) | (extend is not None))
        right = open_pair & (i0 + size < ahi) & (j0 + size < bhi)
        task_pair, alo, ahi, blo, bhi = (
            np.concatenate([task_pair[left], task_pair[right]]),
            np.concatenate([alo[left], (i0 + size)[right]]),
            np.concatenate([i0[left], ahi[right]]),
            np.concatenate([blo[left], (j0 + size)[right]]),
            np.concatenate([j0[left], bhi[right]]),
        )
    return matched


# Runs still growing at this length are finished by comparing characters (:class:`_Tails`).
_TAIL_FROM = 4


def _longest_runs(e: np.ndarray, row_task: np.ndarray, starts: np.ndarray, tail: _Tails | None = None):
    """The masks ``e`` (rows[, words]) of ranges laid end to end, an empty row
    after each, ``row_task`` each row's range, ``starts`` each range's first
    row: for each range, the length of its longest diagonal run of set bits,
    and the row and the bit where the first such run (in row order, then bit
    order) ends; 0 length where no bit is set.

    Runs of 2 are the rows where the previous row, shifted by a bit, meets a
    match; the first row of each range holding a run of 1 or 2 is found for
    all rows at once. Longer runs grow a length at a time on the rows still
    holding one; from :data:`_TAIL_FROM` on, ``tail`` finishes those left."""
    n_tasks = len(starts)
    size = np.zeros(n_tasks, dtype=np.int64)
    end_row = np.zeros(n_tasks, dtype=np.int64)
    end_bits = np.zeros((n_tasks, *e.shape[1:]), dtype=np.uint64)
    n_rows = len(e)
    index = np.arange(n_rows)
    none = n_rows  # "no such row"
    pairs = _shifted(e[:-1])
    pairs &= e[1:]  # pairs[k]: runs of 2 ending at row k + 1
    for length, held, offset in ((1, e, 0), (2, pairs, 1)):
        first = np.minimum.reduceat(np.where(_nonzero_rows(held), index[:len(held)], none), starts)
        found = first < none
        if length == 2:
            found &= first >= starts  # (a range's first row holds no run of 2; its slot reads the row before)
        size[found] = length
        end_row[found] = first[found] + offset
        end_bits[found] = held[first[found]]
    rows = np.flatnonzero(_nonzero_rows(pairs))
    runs = pairs[rows]
    rows += 1
    tasks = row_task[rows]  # a run stays in its range: carried along
    length = 2
    finished = None
    while len(rows):
        if length > 2:
            if tail is not None and length >= _TAIL_FROM:
                finished = tail.finish(rows, runs, tasks, length)
                break
            first = np.empty(len(tasks), dtype=bool)
            first[0] = True
            np.not_equal(tasks[1:], tasks[:-1], out=first[1:])
            task = tasks[first]
            size[task] = length
            end_row[task] = rows[first]
            end_bits[task] = runs[first]
        shifted = _shifted(runs)
        rows += 1
        shifted &= e[rows]
        live = _nonzero_rows(shifted)
        rows = rows[live]
        runs = shifted[live]
        tasks = tasks[live]
        length += 1
    end_j = _lowest_bit(end_bits)
    if finished is not None:
        task, size[task], end_row[task], end_j[task] = finished
    return size, end_row, end_j


def _shifted(x: np.ndarray) -> np.ndarray:
    """Masks (rows[, words]) shifted up by a bit, carried across words."""
    out = x << _ONE
    if x.ndim > 1:
        out[:, 1:] |= x[:, :-1] >> _SIXTY_THREE
    return out


class _Tails:
    """Finishes runs that are still growing: each one's end is extended by as
    many characters as a and b have equal after it, within the range. Where
    runs are long (a text repeated whole, a long label), this takes one step
    where growing them a length at a time takes one step a character."""

    def __init__(self, a_codes, b_codes, row_a, task_b, a_limit, b_limit):
        self.a_codes, self.b_codes = a_codes, b_codes
        self.row_a = row_a  # each row's character's index in a_codes
        self.task_b = task_b  # each range's b's first character's index in b_codes
        self.a_limit, self.b_limit = a_limit, b_limit  # the ends of each range, as indices in the codes

    def finish(self, rows, runs, tasks, length):
        """For the ranges of ``tasks``, whose ``runs`` of ``length`` end in ``rows``:
        (ranges, their longest run's length, the row and the bit where the first one ends)."""
        # a longest run is found from its length-th character alone: the bits whose
        # diagonal predecessor (the row before, a bit lower) holds no run of this length
        before = np.zeros((rows[-1] + 2, *runs.shape[1:]), dtype=np.uint64)
        before[rows + 1] = _shifted(runs)
        runs = runs & ~before[rows]
        row, task, j = _set_bits(rows, tasks, runs)
        a_pos = self.row_a[row]
        b_pos = self.task_b[task] + j
        room = np.minimum(self.a_limit[task] - a_pos, self.b_limit[task] - b_pos) - 1
        width = int(room.max())
        if width > 0:
            step = np.arange(1, width + 1)
            same = (self.a_codes[np.minimum(a_pos[:, None] + step, len(self.a_codes) - 1)]
                    == self.b_codes[np.minimum(b_pos[:, None] + step, len(self.b_codes) - 1)])
            same &= step <= room[:, None]
            extension = np.where(same.all(axis=1), width, same.argmin(axis=1))
        else:
            extension = np.zeros(len(row), dtype=np.int64)
        # of the longest, the first end (in row order, then bit order)
        total = length + extension
        end, end_j = row + extension, j + extension
        order = np.lexsort((end_j, end, -total, task))
        first = order[np.r_[True, task[order][1:] != task[order][:-1]]]
        return task[first], total[first], end[first], end_j[first]


def _set_bits(rows: np.ndarray, tasks: np.ndarray, masks: np.ndarray):
    """Each set bit of ``masks`` (rows[, words]): its row, its task and its index."""
    words = masks.reshape(len(masks), -1)
    out_rows, out_tasks, out_bits = [], [], []
    for w in range(words.shape[1]):
        live = np.flatnonzero(words[:, w])
        x, r, t = words[live, w], rows[live], tasks[live]
        while len(x):
            low = x & (~x + _ONE)
            out_rows.append(r)
            out_tasks.append(t)
            out_bits.append(np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1 + w * _WORD)
            x = x ^ low
            live = x != 0
            x, r, t = x[live], r[live], t[live]
    if not out_rows:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return np.concatenate(out_rows), np.concatenate(out_tasks), np.concatenate(out_bits)


def _lowest_bit(bits: np.ndarray) -> np.ndarray:
    """The index of the lowest set bit of each mask (rows[, words]); undefined for none."""
    if bits.ndim == 1:
        nonzero_word, word = 0, bits
    else:
        nonzero_word = (bits != 0).argmax(axis=1)
        word = bits[np.arange(len(bits)), nonzero_word]
    lowest = word & (~word + _ONE)
    return np.frexp(lowest.astype(np.float64))[1].astype(np.int64) - 1 + nonzero_word * _WORD


def _extend(a: _Flat, b: _Flat, pa, pb, extend, alo, ahi, blo, bhi, i0, j0, size):
    """difflib's extension of a block by equal characters on either side, for
    the tasks whose ``b`` has popular characters (the others never extend)."""
    i0, j0, size = i0.copy(), j0.copy(), size.copy()
    a_start, b_start = a.start[pa], b.start[pb]
    while True:
        idx = np.flatnonzero(extend & (i0 > alo) & (j0 > blo))
        if len(idx):
            idx = idx[a.codes[a_start[idx] + i0[idx] - 1] == b.codes[b_start[idx] + j0[idx] - 1]]
        if not len(idx):
            break
        i0[idx] -= 1
        j0[idx] -= 1
        size[idx] += 1
    while True:
        idx = np.flatnonzero(extend & (i0 + size < ahi) & (j0 + size < bhi))
        if len(idx):
            idx = idx[a.codes[a_start[idx] + i0[idx] + size[idx]] == b.codes[b_start[idx] + j0[idx] + size[idx]]]
        if not len(idx):
            break
        size[idx] += 1
    return i0, j0, size


_SMALL_AREA = 1 << 16  # a range of fewer cells (a's characters x b's) is searched character by character
_PAIR_BUDGET = 1 << 22  # equal unpopular characters laid out at once; more: searched character by character
_LONGEST = 1 << 20  # texts up to this length: a run's rank fits a 64-bit integer


def matched_characters_of(a: str, b: str) -> int:
    """The total size of ``difflib.SequenceMatcher(None, a, b).get_matching_blocks()``
    for one pair: difflib's greedy match, the same blocks found otherwise.

    difflib's longest block of a range is its longest diagonal run of equal
    unpopular characters (the first in ``a``, then in ``b``), extended by equal
    characters on either side. Here the runs of the whole pair are laid out
    once (numpy) and ranked (longest, then first in ``a``, then in ``b``); a
    range's block is the first run of the ranking wholly inside it, unless a
    run cut by its edges is longer there. Of a range's two sides, the larger
    goes on down the same ranking (the runs passed over lie outside it, and
    outside every range within it); the smaller lays out its own runs, or,
    when small, is searched character by character as difflib does."""
    if not a or not b:
        return 0
    popular = popular_characters(b)
    if len(a) * len(b) <= _SMALL_AREA or len(a) + len(b) > _LONGEST:
        return _searched(a, b, popular, 0, len(a), 0, len(b))
    ranking = _ranked_runs(a, b, popular, 0, len(a), 0, len(b))
    if ranking is None:
        return _searched(a, b, popular, 0, len(a), 0, len(b))
    total = 0
    # (alo, ahi, blo, bhi, ranking, where in it to go on, the runs cut by the range's edges)
    stack = [(0, len(a), 0, len(b), ranking, 0, [])]
    while stack:
        alo, ahi, blo, bhi, ranking, at, cut = stack.pop()
        if ranking is None:
            total += _searched(a, b, popular, alo, ahi, blo, bhi)
            continue
        best = None  # (size, -i, -diagonal): the greatest wins
        still_cut = []
        for start, diagonal, size in cut:
            first, end = max(start, alo, blo - diagonal), min(start + size, ahi, bhi - diagonal)
            if end > first:
                still_cut.append((start, diagonal, size))
                if best is None or (end - first, -first, -diagonal) > best:
                    best = (end - first, -first, -diagonal)
        known = len(still_cut)
        inside, at = _scan(ranking, at, alo, ahi, blo, bhi, best, still_cut)
        if inside is not None:
            start, diagonal, size = inside
            if best is None or (size, -start, -diagonal) > best:
                best = (size, -start, -diagonal)
        for start, diagonal, size in still_cut[known:]:
            first, end = max(start, alo, blo - diagonal), min(start + size, ahi, bhi - diagonal)
            if best is None or (end - first, -first, -diagonal) > best:
                best = (end - first, -first, -diagonal)
        if best is None:
            i, j, k = alo, blo, 0  # (difflib then extends an empty block at the range's start)
        else:
            k, i = best[0], -best[1]
            j = i - best[2]
            if inside is not None and i == inside[0] and j - i == inside[1]:
                at += 1
        # extended by equal characters on both sides, popular or not
        back = _common_suffix(a, i, b, j, min(i - alo, j - blo))
        i, j, k = i - back, j - back, k + back
        k += _common_prefix(a, i + k, b, j + k, min(ahi - i - k, bhi - j - k))
        if not k:
            continue
        total += k
        sides = []
        if alo < i and blo < j:
            sides.append((alo, i, blo, j))
        if i + k < ahi and j + k < bhi:
            sides.append((i + k, ahi, j + k, bhi))
        larger = max(sides, key=lambda side: (side[1] - side[0]) * (side[3] - side[2]), default=None)
        for side in sides:
            if side is larger:
                stack.append((*side, ranking, at, still_cut))
            elif (side[1] - side[0]) * (side[3] - side[2]) <= _SMALL_AREA:
                stack.append((*side, None, 0, []))
            else:
                stack.append((*side, _ranked_runs(a, b, popular, *side), 0, []))
    return total


def _scan(ranking, at: int, alo: int, ahi: int, blo: int, bhi: int, best, cut: list):
    """Goes down the ranking from ``at`` to its first run wholly inside the range
    (returned as (start, diagonal, size) with its place, None and the place to go
    on from where there is none or no later run can be longer than ``best``),
    adding the runs cut by the range's edges passed on the way to ``cut``."""
    starts, diagonals, sizes, ends, group_ends = ranking
    n = len(starts)
    least = best[0] if best is not None else 0
    # group by group first (the runs of one size starting at one place in a, by their place
    # in b): the answer is mostly a few groups on; then in stretches growing fourfold
    for _ in range(16):
        if at >= n:
            return None, at
        size = int(sizes[at])
        if size < least:
            return None, at
        start, stop = int(starts[at]), int(group_ends[at])
        if start < ahi and start + size > alo:
            # the runs ending in b before blo lie outside; from the first starting at bhi on too
            at = bisect_left(diagonals, blo - size - start + 1, at, stop)
            for at in range(at, stop):
                diagonal = int(diagonals[at])
                if start + diagonal >= bhi:
                    break
                first, end = max(start, alo, blo - diagonal), min(start + size, ahi, bhi - diagonal)
                if end > first:
                    if first == start and end == start + size:
                        return (start, diagonal, size), at
                    cut.append((start, diagonal, size))
                    least = max(least, end - first)
        at = stop
    stretch = 256
    while at < n:
        if sizes[at] < least:
            return None, at
        high = min(n, at + stretch)
        stretch *= 4
        s, d, e = starts[at:high], diagonals[at:high], ends[at:high]
        first = np.maximum(np.maximum(s, alo), blo - d)
        end = np.minimum(np.minimum(e, ahi), bhi - d)
        alive = end > first
        whole = alive & (first == s) & (end == e)
        found = int(whole.argmax()) if whole.any() else high - at
        for k in np.flatnonzero(alive[:found]).tolist():
            cut.append((int(s[k]), int(d[k]), int(e[k] - s[k])))
            least = max(least, int(end[k] - first[k]))
        if found < high - at:
            at += found
            return (int(s[found]), int(d[found]), int(e[found] - s[found])), at
        at = high
    return None, at


def _ranked_runs(a: str, b: str, popular: frozenset[str], alo: int, ahi: int, blo: int, bhi: int):
    """The maximal diagonal runs of equal unpopular characters of ``a[alo:ahi]``
    and ``b[blo:bhi]``, as arrays of their starts in ``a``, their diagonals
    (j - i), their sizes and their ends in ``a``, longest first, then by start
    in ``a``, then in ``b``; None where they are too many to lay out."""
    codes_a = _codes(a[alo:ahi])
    codes_b = _codes(b[blo:bhi])
    # (each popular character of b as -1: it starts and continues no run)
    if popular:
        known = np.sort(np.array([ord(ch) for ch in popular], dtype=np.int64))
        place = np.minimum(np.searchsorted(known, codes_b), len(known) - 1)
        codes_b[known[place] == codes_b] = -1
    b_at = np.argsort(codes_b, kind="stable")
    b_sorted = codes_b[b_at]
    first = np.searchsorted(b_sorted, codes_a, side="left")
    count = np.searchsorted(b_sorted, codes_a, side="right") - first
    pairs = int(count.sum())
    if pairs > _PAIR_BUDGET:
        return None
    # the pairs of equal characters, by i, then j
    i = np.repeat(np.arange(len(codes_a)), count)
    j = b_at[np.repeat(first - (np.cumsum(count) - count), count) + np.arange(pairs)]
    # a run starts at a pair whose characters before are not such a pair
    continues = (i > 0) & (j > 0)
    continues[continues] = codes_a[i[continues] - 1] == codes_b[j[continues] - 1]
    run_i, diagonal = i[~continues], (j - i)[~continues]
    sizes = np.ones(len(run_i), dtype=np.int64)
    growing = np.arange(len(run_i) if len(run_i) < pairs else 0)  # (where every run is one pair long: none)
    while len(growing):
        at_a = run_i[growing] + sizes[growing]
        at_b = at_a + diagonal[growing]
        inside = (at_a < len(codes_a)) & (at_b < len(codes_b))
        growing, at_a, at_b = growing[inside], at_a[inside], at_b[inside]
        growing = growing[codes_a[at_a] == codes_b[at_b]]
        sizes[growing] += 1
    # the runs are by i, then j already: a stable sort by size ranks them
    order = np.argsort(-sizes if sizes.max(initial=0) >= 1 << 15 else (-sizes).astype(np.int16), kind="stable")
    run_i, sizes, diagonal = run_i[order] + alo, sizes[order], diagonal[order] + blo - alo
    # where the group of each run (the runs of its size starting where it starts) ends
    starts_group = np.ones(len(run_i), dtype=bool)
    starts_group[1:] = (sizes[1:] != sizes[:-1]) | (run_i[1:] != run_i[:-1])
    group_ends = np.append(np.flatnonzero(starts_group)[1:], len(run_i))[np.cumsum(starts_group) - 1]
    return run_i, diagonal, sizes, run_i + sizes, group_ends


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)


def _common_prefix(a: str, i: int, b: str, j: int, limit: int) -> int:
    """The length of the common prefix of ``a[i:i + limit]`` and ``b[j:j + limit]``
    (slices compared a doubling stretch at a time, then halved)."""
    if limit <= 0 or a[i] != b[j]:
        return 0
    low, step = 1, 1
    while low < limit:
        high = min(limit, low + step)
        if a[i + low:i + high] != b[j + low:j + high]:
            while high - low > 1:
                middle = (low + high) // 2
                if a[i + low:i + middle] == b[j + low:j + middle]:
                    low = middle
                else:
                    high = middle
            return low
        low, step = high, step * 2
    return limit


def _common_suffix(a: str, i: int, b: str, j: int, limit: int) -> int:
    """The length of the common suffix of ``a[i - limit:i]`` and ``b[j - limit:j]``."""
    if limit <= 0 or a[i - 1] != b[j - 1]:
        return 0
    low, step = 1, 1
    while low < limit:
        high = min(limit, low + step)
        if a[i - high:i - low] != b[j - high:j - low]:
            while high - low > 1:
                middle = (low + high) // 2
                if a[i - middle:i - low] == b[j - middle:j - low]:
                    low = middle
                else:
                    high = middle
            return low
        low, step = high, step * 2
    return limit


def _searched(a: str, b: str, popular: frozenset[str], alo: int, ahi: int, blo: int, bhi: int) -> int:
    """The characters difflib matches within the range, its blocks and theirs:
    difflib's search of each range for its longest block, walking only the
    characters of ``a`` that can start or continue a block (those in ``b`` and
    not popular there), where difflib walks all of them."""
    common = set(a[alo:ahi]).intersection(b[blo:bhi])
    if not (common - popular if popular else common):
        # no block of unpopular characters: difflib's only block is the equal start, if any
        return _common_prefix(a, alo, b, blo, min(ahi - alo, bhi - blo))
    positions: dict[str, list[int]] = {}
    for j in range(blo, bhi):
        ch = b[j]
        if ch not in popular:
            positions.setdefault(ch, []).append(j)
    useful = [i for i in range(alo, ahi) if a[i] in positions]
    total = 0
    ranges = [(alo, ahi, blo, bhi)]
    while ranges:
        alo, ahi, blo, bhi = ranges.pop()
        # the longest block of unpopular characters, the first in a, then in b, of the longest
        # (a character of a with no place in b ends every run: the runs start afresh after it)
        best_i, best_j, k = alo, blo, 0
        runs: dict[int, int] = {}
        previous = -2
        for at in range(bisect_left(useful, alo), len(useful)):
            i = useful[at]
            if i >= ahi:
                break
            if i != previous + 1:
                runs = {}
            previous = i
            found = positions[a[i]]
            get = runs.get
            new_runs: dict[int, int] = {}
            for n in range(bisect_left(found, blo), len(found)):
                j = found[n]
                if j >= bhi:
                    break
                size = new_runs[j] = get(j - 1, 0) + 1
                if size > k:
                    best_i, best_j, k = i - size + 1, j - size + 1, size
            runs = new_runs
        i, j = best_i, best_j
        # then extended by equal characters on both sides, popular or not
        back = _common_suffix(a, i, b, j, min(i - alo, j - blo))
        i, j, k = i - back, j - back, k + back
        k += _common_prefix(a, i + k, b, j + k, min(ahi - i - k, bhi - j - k))
        if k:
            total += k
            if alo < i and blo < j:
                ranges.append((alo, i, blo, j))
            if i + k < ahi and j + k < bhi:
                ranges.append((i + k, ahi, j + k, bhi))
    return total
