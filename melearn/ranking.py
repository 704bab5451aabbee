r"""ROC curve, AUC and rank loss: formulas (2.18)-(2.22) of section 2.3.3.

Derived and checked in the book pages ``chapters/roc_curve.ipynb`` (2.18)-(2.19), ``chapters/auc.ipynb`` (2.20)
and ``chapters/rank_loss.ipynb`` (2.21)-(2.22).

Conventions
-----------
Labels may be {0, 1}, {-1, +1} or bool, the positive class being 1 / +1 / True. A larger score means "more
likely positive", and a sample is predicted positive when its score is at least the threshold, so lowering the
threshold past a score admits every sample with that score at once: tied scores give one point of the curve.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validation import (
    as_binary_labels,
    as_choice,
    as_finite_array,
    as_order_array,
    check_same_length,
    require_both_classes,
    require_finite_result,
)

__all__ = ["RocCurve", "ThresholdCounts", "auc", "rank_loss", "roc_auc", "roc_curve", "threshold_counts"]

# Below this many (positive, negative) pairs, rank_loss(method="auto") uses the book's pairwise sum: it is exact
# and, for so few pairs, as fast as sorting (see benchmarks/).
PAIRWISE_MAX_PAIRS = 4096
#: The most (positive, negative) pairs that rank_loss(method="pairwise") compares one by one (a few seconds).
PAIRWISE_MAX_WORK = 10**9
#: The largest number of samples of the ranking functions: pair counts up to 2 m+ m- <= m**2 / 2 stay exact in
#: int64 below 2**63.
MAX_SAMPLES = 2**31


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


class ThresholdCounts(NamedTuple):
    """Counts of predicted positives at every distinct score, the score used as the threshold.

    ``tp[i]`` and ``fp[i]`` are the true and false positives when every sample scoring at least
    ``thresholds[i]`` is predicted positive; thresholds are the distinct scores, strictly decreasing.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    m_pos: int
    m_neg: int


class RocCurve(NamedTuple):
    """The points of a ROC curve, formulas (2.18)-(2.19)."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def _labels_and_scores(y_true, y_score, values_out: list | None = None) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Validate a (labels, scores) pair once; return boolean labels, float scores, m+ and m-.

    Integer scores beyond 2**53 are replaced by their exact ranks (see :func:`as_order_array`), so that distinct
    integers never tie as floats; their distinct values are appended to ``values_out`` (when given) to turn
    ranks back into thresholds.
    """
    y = as_binary_labels(y_true, "y_true")
    s, values = as_order_array(y_score, "y_score")
    if values_out is not None:
        values_out.append(values)
    m = check_same_length(y_true=y, y_score=s)
    if m > MAX_SAMPLES:
        raise ValueError(f"y_true holds {m:,} samples, more than MAX_SAMPLES = 2**31 (exact int64 pair counts)")
    m_pos, m_neg = require_both_classes(y, "y_true")
    return y, s, m_pos, m_neg


def threshold_counts(y_true, y_score) -> ThresholdCounts:
    """True and false positives at each distinct score, in O(m log m).

    Sorting the scores once, the counts at a threshold are cumulative sums of the labels from the top score down
    to the last sample of that score; only where the sorted score changes is a threshold taken, so tied scores
    are admitted together. This is the shared core of :func:`roc_curve` and :func:`melearn.pr_curve`.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    ThresholdCounts
        ``thresholds`` (distinct scores, strictly decreasing), ``tp`` and ``fp`` (int64 arrays of the same
        length), ``m_pos`` and ``m_neg``.

    Notes
    -----
    The labels ride in the lowest bit of integer keys that order like the scores, so one value sort (no
    ``argsort``) orders both; scores of both signs spanning extreme magnitudes (keys wider than 63 bits) take an
    ``argsort`` instead. Either way the counts are exact integers. Timed in ``chapters/benchmarks.ipynb``.
    Integer scores beyond 2**53 (which would tie as floats) are ordered exactly by their ranks; their thresholds
    are reported as the nearest floats.
    """
    values: list = []
    y, s, m_pos, m_neg = _labels_and_scores(y_true, y_score, values)
    counts = _threshold_counts(y, s, m_pos, m_neg)
    if values[0] is not None:  # the scores were ranks of huge integers: report the integers (as floats)
        counts = counts._replace(thresholds=values[0][counts.thresholds.astype(np.intp)])
    return counts


def _threshold_counts(y: np.ndarray, s: np.ndarray, m_pos: int, m_neg: int) -> ThresholdCounts:
    packed = _sorted_keys(y, s)
    if packed is None:
        return _threshold_counts_by_argsort(y, s, m_pos, m_neg)
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
    return ThresholdCounts(thresholds, tp, fp, m_pos, m_neg)


def _threshold_counts_by_argsort(y: np.ndarray, s: np.ndarray, m_pos: int, m_neg: int) -> ThresholdCounts:
    """:func:`threshold_counts` by an ``argsort`` of the scores: the general route, for any finite scores."""
    order = np.argsort(s)[::-1]  # ties need no stable order: a run of equal scores is taken whole
    s_sorted = s[order]
    # the last index of each run of equal scores, in decreasing score order
    last_of_run = np.flatnonzero(s_sorted[1:] != s_sorted[:-1])
    last_of_run = np.append(last_of_run, s_sorted.size - 1)
    tp = np.cumsum(y[order], dtype=np.int64)[last_of_run]
    fp = (last_of_run + 1) - tp
    return ThresholdCounts(s_sorted[last_of_run], tp, fp, m_pos, m_neg)


def roc_curve(y_true, y_score) -> RocCurve:
    r"""The ROC curve: true positive rate against false positive rate as the threshold falls.

    Implements formulas (2.18) and (2.19),

    .. math:: \mathrm{TPR} = \frac{TP}{TP + FN}, \qquad \mathrm{FPR} = \frac{FP}{TN + FP},

    at every distinct score taken as the threshold (derived in ``chapters/roc_curve.ipynb``).

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr`` and ``thresholds``, arrays of length (number of distinct scores + 1). The curve starts at
        (0, 0) with threshold ``+inf`` and ends at (1, 1); thresholds are strictly decreasing, so a group of tied
        scores gives one (diagonal) segment.

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    See Also
    --------
    roc_auc : the area under this curve, in O(m log m).

    Notes
    -----
    Limits: m up to ``MAX_SAMPLES`` = 2**31; any finite scores (subnormal to 1.8e308, both signs). Time
    O(m log m), memory a few arrays of length m.

    Examples
    --------
    >>> curve = roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> curve.fpr.tolist(), curve.tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    >>> curve.thresholds.tolist()
    [inf, 0.9, 0.8, 0.1]
    """
    counts = threshold_counts(y_true, y_score)
    fpr = np.concatenate(([0.0], counts.fp / counts.m_neg))
    tpr = np.concatenate(([0.0], counts.tp / counts.m_pos))
    thresholds = np.concatenate(([np.inf], counts.thresholds))
    return RocCurve(fpr, tpr, thresholds)


def auc(x, y) -> float:
    r"""Area under a curve given by its points, by the trapezoid rule: formula (2.20).

    .. math:: \mathrm{AUC} = \frac{1}{2} \sum_{i=1}^{m-1} (x_{i+1} - x_i)\,(y_i + y_{i+1})

    Derived in ``chapters/auc.ipynb``.

    Parameters
    ----------
    x : array-like of shape (n,)
        Abscissae, non-decreasing (for a ROC curve, the false positive rates); at least two points.
    y : array-like of shape (n,)
        Ordinates (for a ROC curve, the true positive rates).

    Returns
    -------
    float
        The trapezoid sum.

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is empty, holds NaN or inf, has fewer than two points, if their lengths differ, if
        ``x`` decreases anywhere, or if the area exceeds the largest float (1.8e308).

    Notes
    -----
    Limits: any finite points. Steps :math:`x_{i+1} - x_i`, sums :math:`y_i + y_{i+1}` and their products that
    would overflow (coordinates beyond about 1e154) are avoided by scaling x and y by powers of two, so an
    area below the largest float is returned finite, and a larger one raises ``ValueError``. Time and memory
    O(n).

    Examples
    --------
    >>> auc([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    0.875
    """
    x = as_finite_array(x, "x")
    y = as_finite_array(y, "y")
    check_same_length(x=x, y=y)
    if x.size < 2:
        raise ValueError(f"x must have at least two points to enclose an area, got {x.size}")
    decreasing = x[1:] < x[:-1]
    if np.any(decreasing):
        first = int(np.flatnonzero(decreasing)[0])
        raise ValueError(f"x must be non-decreasing, but x[{first + 1}] < x[{first}]")
    with np.errstate(over="ignore", invalid="ignore"):
        area = float(0.5 * np.sum(np.diff(x) * (y[:-1] + y[1:])))
    if np.isfinite(area):
        return area
    # a step, a sum of ordinates or a product overflowed: redo it with x and y scaled by powers of two (exact),
    # so every term is at most 4 in magnitude, and scale the area back in two steps
    _, ex = np.frexp(np.max(np.abs(x)))
    _, ey = np.frexp(np.max(np.abs(y)))
    xs, ys = np.ldexp(x, -ex), np.ldexp(y, -ey)
    scaled = 0.5 * np.sum(np.diff(xs) * (ys[:-1] + ys[1:]))
    with np.errstate(over="ignore"):
        return require_finite_result(float(np.ldexp(np.ldexp(scaled, ex), ey)), "the area under the points (x, y)")


def _pair_counts(y: np.ndarray, s: np.ndarray) -> int:
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
        return _pair_counts_by_search(y, s)
    _, _, _, runs, position_sum = packed
    if runs is None:
        m_pos = int(np.count_nonzero(y))
        return 2 * (position_sum - m_pos * (m_pos - 1) // 2)
    _, positives, sizes = runs
    negatives = sizes - positives
    below = np.cumsum(negatives) - negatives
    # int64 is exact: the sum is at most 2 m+ m- < 2**63 for any feasible m
    return int((positives * (2 * below + negatives)).sum(dtype=np.int64))


def _pair_counts_by_search(y: np.ndarray, s: np.ndarray) -> int:
    """:func:`_pair_counts` by sorting each class and binary search: the general route, for any finite scores.

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


def roc_auc(y_true, y_score) -> float:
    r"""Area under the ROC curve, in O(m log m), with no pairwise matrix.

    Equals :func:`auc` of :func:`roc_curve` (formula (2.20)) and :math:`1 - \ell_{\mathrm{rank}}` (formula
    (2.22)): the probability that a random positive scores above a random negative, ties counting one half.
    Computed from exact integer pair counts (see ``chapters/rank_loss.ipynb`` for the identity), so it is
    exact up to the final division.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    float
        The AUC, in [0, 1].

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    Time O(m log m) for one sort of the scores with their labels packed into integer keys (scores of both signs
    spanning extreme magnitudes sort each class and binary-search instead); extra memory about one copy of the
    scores. Agrees with ``sklearn.metrics.roc_auc_score`` (tests); timed against it and against ``np.sort`` in
    ``chapters/benchmarks.ipynb``.

    Limits: m up to ``MAX_SAMPLES`` = 2**31 (pair counts exact in int64); any finite scores, subnormal and
    huge alike (the order of floats is exact). A masked array with masked entries is refused rather than
    scored whole.

    Examples
    --------
    >>> roc_auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    0.875
    """
    y, s, m_pos, m_neg = _labels_and_scores(y_true, y_score)
    return _pair_counts(y, s) / (2 * m_pos * m_neg)


def _rank_loss_pairwise(y: np.ndarray, s: np.ndarray, m_pos: int, m_neg: int) -> float:
    """Formula (2.21) literally: every (positive, negative) pair, ties counting one half.

    Counted in blocks of positives so that memory stays bounded; the count is an exact integer (twice the loss
    numerator), divided once.
    """
    positives, negatives = s[y], s[~y]
    twice_wrong = 0
    block = max(1, (1 << 22) // negatives.size)
    for start in range(0, positives.size, block):
        p = positives[start : start + block, None]
        twice_wrong += 2 * int(np.count_nonzero(p < negatives)) + int(np.count_nonzero(p == negatives))
    return twice_wrong / (2 * m_pos * m_neg)


def rank_loss(y_true, y_score, *, method: str = "auto") -> float:
    r"""The ranking loss, formula (2.21): the fraction of (positive, negative) pairs ranked wrongly.

    .. math::
        \ell_{\mathrm{rank}} = \frac{1}{m^+ m^-} \sum_{x^+ \in D^+} \sum_{x^- \in D^-}
        \Big( \mathbb{I}\big(f(x^+) < f(x^-)\big) + \tfrac{1}{2}\,\mathbb{I}\big(f(x^+) = f(x^-)\big) \Big)

    Derived, with :math:`\mathrm{AUC} = 1 - \ell_{\mathrm{rank}}` (2.22), in ``chapters/rank_loss.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    method : {"auto", "pairwise", "sorted"}
        ``"pairwise"`` evaluates the double sum as printed, O(m+ m-): the reference route. ``"sorted"`` counts
        the same pairs from one sort of the scores with their labels, O(m log m). ``"auto"`` takes the pairwise sum
        for at most ``PAIRWISE_MAX_PAIRS`` pairs and the sorted count above. All three give the same number:
        both count pairs exactly in integers and divide once.

    Returns
    -------
    float
        The loss, in [0, 1].

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, a single class, an
        unknown ``method``, or ``method="pairwise"`` with more than ``PAIRWISE_MAX_WORK`` pairs.

    Notes
    -----
    A tied pair counts one half. ``sklearn.metrics.label_ranking_loss`` counts it as a whole error, so it differs
    from (2.21) whenever a positive and a negative share a score.

    Limits: m up to ``MAX_SAMPLES`` = 2**31. ``method="pairwise"`` compares :math:`m^+ m^-` pairs and is refused
    above ``PAIRWISE_MAX_WORK`` = 10**9 pairs (a few seconds); "sorted" and "auto" have no such limit (O(m log m)).

    Examples
    --------
    >>> rank_loss([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    0.125
    >>> rank_loss([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], method="pairwise")
    0.125
    """
    method = as_choice(method, "method", ("auto", "pairwise", "sorted"))
    y, s, m_pos, m_neg = _labels_and_scores(y_true, y_score)
    if method == "pairwise" and m_pos * m_neg > PAIRWISE_MAX_WORK:
        raise ValueError(
            f"method='pairwise' would compare m+ m- = {m_pos * m_neg:,} pairs, more than PAIRWISE_MAX_WORK = "
            f"{PAIRWISE_MAX_WORK:,}; use method='sorted' (the same number in O(m log m))"
        )
    if method == "pairwise" or (method == "auto" and m_pos * m_neg <= PAIRWISE_MAX_PAIRS):
        return _rank_loss_pairwise(y, s, m_pos, m_neg)
    return (2 * m_pos * m_neg - _pair_counts(y, s)) / (2 * m_pos * m_neg)
