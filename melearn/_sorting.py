"""Sorting scores with their labels: the private machinery behind :mod:`melearn.ranking`.

It also serves, through :func:`melearn.ranking.threshold_counts`, the P-R curve and the cost curve.

Nothing here is a formula of the book. :mod:`melearn.ranking` states formulas (2.18)-(2.22); this module gives it,
in O(m log m), the two things they need from one sort of the scores: the true and false positives at every
distinct score (:func:`counts_at_thresholds`) and twice the number of correctly ordered (positive, negative)
pairs, ties counting one half (:func:`twice_correct_pairs`). Each has a general route for any finite scores
(:func:`counts_by_argsort`, :func:`twice_correct_pairs_by_search`) that the tests compare it with.
"""

from __future__ import annotations

import numpy as np

__all__ = ["counts_at_thresholds", "counts_by_argsort", "twice_correct_pairs", "twice_correct_pairs_by_search"]

# -- sorting scores and labels together ------------------------------------------------------------------------
# numpy sorts float64 keys much faster than it argsorts them (a vectorised sort of values; argsort carries an index
# array along). So the label is packed into the lowest bit of an integer key that orders like the score, and the
# keys are sorted as plain values: one sort then yields the scores in order AND the label of each.
_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)
_SIGN = np.uint64(0x8000_0000_0000_0000)
_FLOAT_KEYS = 0x7FF0_0000_0000_0000  # bit patterns below this are finite non-negative float64s, ordered as integers
_CHUNK = 1 << 16  # the passes over the sorted keys run in cache-sized blocks (a loop over blocks, not samples)


def _order_key(x: float) -> int:
    """The integer that orders like the float ``x``: its magnitude bits, negated when ``x < 0`` (so -0.0 -> 0)."""
    bits = int(np.float64(x).view(np.int64))
    magnitude = bits & 0x7FFF_FFFF_FFFF_FFFF
    return -magnitude if bits < 0 else magnitude


def _sorted_keys(y: np.ndarray, s: np.ndarray):
    """Sort the scores with their labels: one value sort of the integer keys ``2 (k(s) - offset) + y``.

    ``k`` is :func:`_order_key` (exact: equal scores get equal keys, and ``k(a) < k(b)`` iff ``a < b``). Returns
    ``(values, labels, offset, runs, position_sum)``: ``values`` (uint64, ascending) are ``k(s) - offset`` in
    sorted order, ``labels`` (uint8, 0/1) the labels in the same order; when some score repeats, ``runs`` is
    ``(starts, positives, sizes)`` for the runs of equal values (first index, positives in it, its length) and
    ``position_sum`` is ``None``; when none does, ``runs`` is ``None`` and ``position_sum`` is the sum of the
    sorted positions of the positives. Returns ``None`` when the keys' span needs more than 63 bits (scores of
    both signs and extreme magnitudes); the caller then takes the general route.
    """
    lo, hi = float(s.min()), float(s.max())
    k_lo, k_hi = _order_key(lo), _order_key(hi)
    offset = 0 if (k_lo >= 0 and 2 * k_hi + 1 < _FLOAT_KEYS) else k_lo
    top = 2 * (k_hi - offset) + 1  # the largest key
    sort_as: type[np.generic]
    if top < _FLOAT_KEYS:
        sort_as = np.float64  # keys read as floats are positive and finite: the fast float sort orders them
    elif top < 1 << 64:
        sort_as = np.uint64
    else:
        return None
    if offset == 0:  # no score below zero: shifting the bits left drops the sign bit (of -0.0) and doubles k
        keys = np.left_shift(s.view(np.uint64), np.uint64(1))
    else:
        key = np.bitwise_and(s.view(np.int64), _MAGNITUDE)
        if lo < 0:
            np.negative(key, out=key, where=s < 0)
        keys = key.view(np.uint64)  # unsigned arithmetic wraps: k - offset is exact modulo 2**64, and < 2**63
        keys -= np.uint64(offset % (1 << 64))
        keys <<= np.uint64(1)
    keys |= y
    keys.view(sort_as).sort()
    m = keys.size
    labels = np.empty(m, dtype=np.uint8)
    starts: list[np.ndarray] = []  # each run of equal values: its first index,
    before: list[np.ndarray] = []  # and the positives before it
    positives_so_far = 0
    position_sum = 0
    previous = None
    for start in range(0, m, _CHUNK):
        block = keys[start : start + _CHUNK]
        block_labels = labels[start : start + _CHUNK]
        np.bitwise_and(block, np.uint64(1), out=block_labels, casting="unsafe")
        block >>= np.uint64(1)
        continues = previous is not None and previous == block[0]  # the block begins inside the last run
        previous = block[-1]
        changes = block[1:] != block[:-1]
        if not starts and (continues or not changes.all()):
            # the first repeated score: no score repeated before this block, so each earlier sample is a run
            starts.append(np.arange(start))
            before.append(np.cumsum(labels[:start], dtype=np.int64) - labels[:start])
        if starts:
            local = np.flatnonzero(changes) + 1
            if not continues:
                local = np.concatenate(([0], local))
            counted = np.cumsum(block_labels, dtype=np.int64)
            starts.append(local + start)
            before.append(positives_so_far + counted[local] - block_labels[local])
            positives_so_far += int(counted[-1])
        else:
            where = np.flatnonzero(block_labels.view(bool))
            position_sum += int(where.sum(dtype=np.int64)) + start * where.size
            positives_so_far += where.size
    if not starts:
        return keys, labels, offset, None, position_sum
    run_starts, run_before = np.concatenate(starts), np.concatenate(before)
    sizes = np.diff(np.append(run_starts, m))
    positives = np.diff(np.append(run_before, positives_so_far))
    return keys, labels, offset, (run_starts, positives, sizes), None


def _scores_of(values: np.ndarray, offset: int) -> np.ndarray:
    """Invert the keys: the float64 scores whose :func:`_order_key` minus ``offset`` are ``values``."""
    if offset == 0:
        return values.view(np.float64)
    key = (values + np.uint64(offset % (1 << 64))).view(np.int64)
    if offset > 0:  # no negative key, so no negative score
        return key.view(np.float64)
    negative = key < 0
    bits = np.where(negative, np.negative(key).view(np.uint64) | _SIGN, key.view(np.uint64))
    return bits.view(np.float64)


def counts_at_thresholds(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return ``(thresholds, tp, fp)``, the core of :func:`melearn.ranking.threshold_counts`.

    ``thresholds`` are the distinct scores, strictly decreasing; ``tp[i]`` and ``fp[i]`` the true and false
    positives when every sample scoring at least ``thresholds[i]`` is predicted positive.
    """
    packed = _sorted_keys(y, s)
    if packed is None:
        return counts_by_argsort(y, s)
    values, labels, offset, runs, _ = packed
    # walk the runs of equal scores from the top score down: the threshold falls
    if runs is None:  # every score distinct: each sample is a run of one
        tp = np.cumsum(labels[::-1], dtype=np.int64)
        fp = np.arange(1, values.size + 1, dtype=np.int64) - tp
        thresholds = _scores_of(values[::-1], offset)
    else:
        starts, positives, sizes = runs
        tp = np.cumsum(positives[::-1])
        fp = np.cumsum(sizes[::-1]) - tp
        thresholds = _scores_of(values[starts[::-1]], offset)
    return thresholds, tp, fp


def counts_by_argsort(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`counts_at_thresholds` by an ``argsort`` of the scores: the general route, for any finite scores."""
    order = np.argsort(s)[::-1]  # ties need no stable order: a run of equal scores is taken whole
    s_sorted = s[order]
    # the last index of each run of equal scores, in decreasing score order
    last_of_run = np.flatnonzero(s_sorted[1:] != s_sorted[:-1])
    last_of_run = np.append(last_of_run, s_sorted.size - 1)
    tp = np.cumsum(y[order], dtype=np.int64)[last_of_run]
    fp = (last_of_run + 1) - tp
    return s_sorted[last_of_run], tp, fp


def twice_correct_pairs(y: np.ndarray, s: np.ndarray) -> int:
    r"""Twice the number of correctly ordered (positive, negative) pairs, ties counting one half.

    Returns :math:`2\sum_{x^+}\sum_{x^-} \big(\mathbb{I}(f(x^+) > f(x^-)) + \tfrac12 \mathbb{I}(f(x^+) = f(x^-))\big)`
    as an exact integer, from one sort of the scores with their labels (:func:`_sorted_keys`). Without ties, the
    positive at sorted position :math:`i` (from 0) is above :math:`i` minus the number of positives before it
    negatives, so the count is the sum of the positives' positions minus :math:`m^+(m^+-1)/2`. With ties, each
    run of equal scores holding :math:`g^+` positives and :math:`g^-` negatives above :math:`n` negatives adds
    :math:`g^+ (2n + g^-)` to twice the count. No rank array and no pairwise matrix is built.
    """
    packed = _sorted_keys(y, s)
    if packed is None:
        return twice_correct_pairs_by_search(y, s)
    _, _, _, runs, position_sum = packed
    if runs is None:
        m_pos = int(np.count_nonzero(y))
        return 2 * (position_sum - m_pos * (m_pos - 1) // 2)
    _, positives, sizes = runs
    negatives = sizes - positives
    below = np.cumsum(negatives) - negatives
    # int64 is exact: the sum is at most 2 m+ m- < 2**63 for any feasible m
    return int((positives * (2 * below + negatives)).sum(dtype=np.int64))


def twice_correct_pairs_by_search(y: np.ndarray, s: np.ndarray) -> int:
    """:func:`twice_correct_pairs` by sorting each class and binary search: the general route, for any finite scores.

    For each positive, ``searchsorted`` counts the negatives below it (``left``) and at or below it (``right``);
    ``left + right`` is twice its share.
    """
    positives = s[y]  # boolean indexing copies, so the in-place sorts below leave y_score untouched
    negatives = s[~y]
    positives.sort()
    negatives.sort()
    below = np.searchsorted(negatives, positives, side="left")
    at_or_below = np.searchsorted(negatives, positives, side="right")
    # int64 sums are exact: each term is at most 2 m-, and the sum at most 2 m+ m- < 2**63 for any feasible m
    return int(below.sum(dtype=np.int64)) + int(at_or_below.sum(dtype=np.int64))
