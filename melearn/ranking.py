r"""ROC and AUC (ROC与AUC), section 2.3.3: the ROC curve, AUC and rank loss, formulas (2.18)-(2.22).

Derived and checked in the book pages ``chapters/roc_curve.ipynb`` (2.18)-(2.19), ``chapters/auc.ipynb`` (2.20)
and ``chapters/rank_loss.ipynb`` (2.21)-(2.22).

Conventions
-----------
Labels may be {0, 1}, {-1, +1} or bool, the positive class being 1 / +1 / True. A larger score means "more
likely positive", and a sample is predicted positive when its score is at least the threshold, so lowering the
threshold past a score admits every sample with that score at once: tied scores give one point of the curve.

The sorting behind every function here (one sort of the scores with their labels, in O(m log m)) is in the private
module ``melearn._sorting``; this module reads as the formulas.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._sorting import counts_at_thresholds, twice_correct_pairs
from ._validation import (
    as_binary_labels,
    as_choice,
    as_exact_array,
    as_fractions,
    as_order_array,
    check_same_length,
    exact_float,
    fits_float,
    require_both_classes,
    require_finite_result,
)

__all__ = [
    "PAIRWISE_MAX_PAIRS",
    "RocCurve",
    "ThresholdCounts",
    "auc",
    "rank_loss",
    "roc_auc",
    "roc_curve",
    "threshold_counts",
]

#: The most (positive, negative) pairs for which rank_loss(method="auto") takes the book's pairwise sum, exact
#: and, for so few pairs, as fast as sorting (timed in chapters/benchmarks.ipynb); above, it sorts.
PAIRWISE_MAX_PAIRS = 4096
#: The most (positive, negative) pairs that rank_loss(method="pairwise") compares one by one (a few seconds).
PAIRWISE_MAX_WORK = 10**9
#: The largest number of samples of the ranking functions: pair counts up to 2 m+ m- <= m**2 / 2 stay exact in
#: int64 below 2**63.
MAX_SAMPLES = 2**31


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


def _labels_and_scores(y_true, y_score) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray | None]:
    """Validate a (labels, scores) pair once; return boolean labels, float scores, m+, m- and the score values.

    Scores that float64 cannot hold exactly are replaced by their exact ranks (see :func:`as_order_array`), so
    that distinct scores never tie as floats; their distinct values (``None`` when the scores are float64 as
    given) come last, to turn ranks back into thresholds.
    """
    y = as_binary_labels(y_true, "y_true")
    s, values = as_order_array(y_score, "y_score")
    m = check_same_length(y_true=y, y_score=s)
    if m > MAX_SAMPLES:
        raise ValueError(f"y_true holds {m:,} samples, more than MAX_SAMPLES = 2**31 (exact int64 pair counts)")
    m_pos, m_neg = require_both_classes(y, "y_true")
    return y, s, m_pos, m_neg, values


def threshold_counts(y_true, y_score) -> ThresholdCounts:
    """True and false positives at each distinct score, in O(m log m).

    Sorting the scores once, the counts at a threshold are cumulative sums of the labels from the top score down
    to the last sample of that score; only where the sorted score changes is a threshold taken, so tied scores
    are admitted together. This is the shared core of :func:`melearn.roc_curve` and :func:`melearn.pr_curve`.

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
    Scores that float64 cannot hold exactly (integers beyond 2**53, Python integers of any size, long double
    values that float64 would round) are ordered exactly by their ranks (see ``melearn._validation``'s rule of
    exact comparison), and their thresholds are reported exactly, so that they stay strictly decreasing where
    float64 would collapse them: an object array of Python integers (or Python numbers) for integer scores, a
    long double array for long double scores. Otherwise ``thresholds`` is float64.
    """
    y, s, m_pos, m_neg, values = _labels_and_scores(y_true, y_score)
    counts = ThresholdCounts(*counts_at_thresholds(y, s), m_pos, m_neg)
    if values is not None:  # the scores were exact ranks: report the exact scores
        return counts._replace(thresholds=_exact_thresholds(values[counts.thresholds.astype(np.intp)]))
    return counts


def _exact_thresholds(values: np.ndarray) -> np.ndarray:
    """Exact scores as thresholds: long double stays long double; integers become Python integers (object)."""
    if values.dtype.kind == "f":
        return values
    out = np.empty(values.shape, dtype=object)
    out[...] = values.tolist()
    return out


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
        scores gives one (diagonal) segment. ``thresholds`` is float64, except for scores that float64 cannot
        hold exactly (integers beyond 2**53, long double): then they are the exact scores (an object array of
        ``inf`` and Python integers, or long double), still strictly decreasing (see
        :func:`~melearn.ranking.threshold_counts`).

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    See Also
    --------
    roc_auc : the area under this curve, in O(m log m).

    Notes
    -----
    Limits: m up to ``MAX_SAMPLES`` = 2**31; any finite scores (subnormal to 1.8e308, both signs), integers of
    any size and long double compared exactly; booleans are refused (they are not numbers). Time O(m log m),
    memory a few arrays of length m.

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
    area below the largest float is returned finite, and a larger one raises ``ValueError``. Points that float64
    cannot hold exactly (integers beyond 2**53, long double values) are taken at their exact values: the order of
    ``x`` is checked on them and the trapezoids are exact fractions, rounded once. Time and memory O(n).

    Examples
    --------
    >>> auc([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    0.875
    """
    xe = as_exact_array(x, "x")
    ye = as_exact_array(y, "y")
    check_same_length(x=xe, y=ye)
    if xe.size < 2:
        raise ValueError(f"x must have at least two points to enclose an area, got {xe.size}")
    decreasing = xe[1:] < xe[:-1]  # on the exact values: as floats, 2**53 + 1 and then 2**53 would look level
    if np.any(decreasing):
        first = int(np.flatnonzero(decreasing)[0])
        raise ValueError(f"x must be non-decreasing, but x[{first + 1}] < x[{first}]")
    if not (fits_float(xe) and fits_float(ye)):
        # integers beyond 2**53 or long double values: the trapezoids of the exact values, rounded once
        xs, ys = as_fractions(xe), as_fractions(ye)
        area = sum((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) for i in range(len(xs) - 1)) / 2
        return exact_float(area, "the area under the points (x, y)")
    x = xe.astype(np.float64, copy=False)
    y = ye.astype(np.float64, copy=False)
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


def roc_auc(y_true, y_score) -> float:
    r"""Area under the ROC curve, in O(m log m), with no pairwise matrix.

    Equals :func:`melearn.auc` of :func:`melearn.roc_curve` (formula (2.20)) and :math:`1 - \ell_{\mathrm{rank}}`
    (formula (2.22)): the probability that a random positive scores above a random negative, ties counting one half.
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
    huge alike (the order of floats is exact), integers of any size and long double values compared exactly
    (2**53 + 1 ranks above 2**53); booleans are refused. A masked array with masked entries is refused rather than
    scored whole.

    Examples
    --------
    >>> roc_auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    0.875
    """
    y, s, m_pos, m_neg, _ = _labels_and_scores(y_true, y_score)
    return twice_correct_pairs(y, s) / (2 * m_pos * m_neg)


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
    y, s, m_pos, m_neg, _ = _labels_and_scores(y_true, y_score)
    if method == "pairwise" and m_pos * m_neg > PAIRWISE_MAX_WORK:
        raise ValueError(
            f"method='pairwise' would compare m+ m- = {m_pos * m_neg:,} pairs, more than PAIRWISE_MAX_WORK = "
            f"{PAIRWISE_MAX_WORK:,}; use method='sorted' (the same number in O(m log m))"
        )
    if method == "pairwise" or (method == "auto" and m_pos * m_neg <= PAIRWISE_MAX_PAIRS):
        return _rank_loss_pairwise(y, s, m_pos, m_neg)
    return (2 * m_pos * m_neg - twice_correct_pairs(y, s)) / (2 * m_pos * m_neg)
