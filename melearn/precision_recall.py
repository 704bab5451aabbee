r"""The P-R curve and its break-even point (BEP), section 2.3.2.

Derived and checked in the book page ``chapters/precision_recall_f.ipynb``.

Conventions
-----------
As in :mod:`melearn.ranking`: labels {0, 1}, {-1, +1} or bool with the positive class 1 / +1 / True; a larger
score means "more likely positive"; a sample is predicted positive when its score is at least the threshold, so
tied scores enter together and give one point of the curve. The counts come from
:func:`melearn.ranking.threshold_counts`, computed once in O(m log m).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .ranking import threshold_counts

__all__ = ["PrCurve", "break_even_point", "pr_curve"]


class PrCurve(NamedTuple):
    """The points of a P-R curve: precision and recall with every distinct score as the threshold."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


def pr_curve(y_true, y_score) -> PrCurve:
    r"""The P-R curve (P-R曲线): precision (2.8) against recall (2.9) as the threshold falls.

    Sorting the samples by decreasing score and predicting the top ones positive, each distinct score taken as
    the threshold gives one point

    .. math:: P = \frac{TP}{TP + FP}, \qquad R = \frac{TP}{TP + FN} = \frac{TP}{m^+}.

    Derived in ``chapters/precision_recall_f.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    PrCurve
        ``precision``, ``recall`` and ``thresholds``, arrays of length (number of distinct scores).
        ``thresholds`` are the distinct scores, strictly decreasing; ``recall`` is non-decreasing and ends at
        1. There is no artificial end point: above the highest score nothing is predicted positive and
        precision is undefined, so no point is drawn there.

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    ``sklearn.metrics.precision_recall_curve`` returns the same points in the opposite order (increasing
    thresholds) and appends the point (recall 0, precision 1) with no threshold. Precision is not monotone in the
    threshold; see the page.

    Limits: m up to 2**31 samples (``melearn.ranking.MAX_SAMPLES``); any finite scores. Time O(m log m), memory
    a few arrays of length m.

    Examples
    --------
    >>> curve = pr_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> curve.precision.tolist(), curve.recall.tolist(), curve.thresholds.tolist()
    ([1.0, 0.6666666666666666, 0.5], [0.5, 1.0, 1.0], [0.9, 0.8, 0.1])
    """
    counts = threshold_counts(y_true, y_score)
    # tp + fp >= 1 at every distinct score (that score's samples are predicted positive): no division by zero
    precision = counts.tp / (counts.tp + counts.fp)
    recall = counts.tp / counts.m_pos
    return PrCurve(precision, recall, counts.thresholds)


def break_even_point(y_true, y_score) -> float:
    r"""The break-even point (平衡点, BEP) of section 2.3.2: the value at which precision (2.8) equals recall (2.9).

    Predicting the :math:`m^+` top-ranked samples positive (:math:`m^+` = number of positives) makes
    :math:`TP + FP = m^+ = TP + FN`, so precision equals recall there, both :math:`TP / m^+`. When tied scores
    straddle that cut, only part of the tied group can be taken; ordered at random, the part holds the group's
    share of positives in expectation, and that expected count is used:

    .. math::
        \mathrm{BEP} = \frac{1}{m^+}\Big(TP_{>} + (m^+ - n_{>})\,\frac{g^+}{g}\Big)

    where :math:`n_{>}` samples (:math:`TP_{>}` of them positive) score above the tied group, which holds
    :math:`g` samples, :math:`g^+` of them positive. This is also where the P-R curve interpolated within the
    tied group (true and false positives growing linearly, as in Davis and Goadrich 2006) meets the line P = R.
    Derived in ``chapters/precision_recall_f.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    float
        The BEP, in [0, 1].

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    O(m log m) for the sort inside :func:`melearn.ranking.threshold_counts`, then one binary search. The
    numerator and denominator are exact integers, divided once.

    Limits: m up to 2**31 samples (``melearn.ranking.MAX_SAMPLES``; the integer products stay below 2**63);
    any finite scores.

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between Precision-Recall and ROC curves", ICML 2006.

    Examples
    --------
    >>> break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.4, 0.3, 0.1])
    0.5
    >>> break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.8, 0.3, 0.1])  # the cut splits the tie (0.8, 0.8)
    0.75
    """
    counts = threshold_counts(y_true, y_score)
    m_pos = counts.m_pos
    admitted = counts.tp + counts.fp  # samples predicted positive at each threshold, increasing
    j = int(np.searchsorted(admitted, m_pos, side="left"))  # first threshold admitting at least m+ samples
    n_above = int(admitted[j - 1]) if j > 0 else 0
    tp_above = int(counts.tp[j - 1]) if j > 0 else 0
    group = int(admitted[j]) - n_above
    group_pos = int(counts.tp[j]) - tp_above
    # expected true positives among the m+ top-ranked = tp_above + (m+ - n_above) * group_pos / group;
    # multiplied through by the group size, everything is an integer until the one division
    return (tp_above * group + (m_pos - n_above) * group_pos) / (m_pos * group)
