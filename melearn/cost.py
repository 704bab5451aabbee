r"""Cost-sensitive error rate and cost curves: formulas (2.23)-(2.25) of section 2.3.4.

Derived and checked in the book page ``chapters/cost_curves.ipynb``.

Conventions
-----------
The textbook's cost matrix (代价矩阵, Table 2.2) holds :math:`\mathrm{cost}_{ij}`, the cost of predicting a sample
of class *i* as class *j*, and for (2.23)-(2.25) it takes **class 0 as the positive class**. So, whatever the
label encoding of ``y_true``:

* ``cost01`` is the cost of predicting a **positive as negative** (a false negative);
* ``cost10`` is the cost of predicting a **negative as positive** (a false positive).

Labels may be {0, 1}, {-1, +1} or bool, the positive class being 1 / +1 / True (the project's convention), so
with {0, 1} labels ``cost01`` is *not* "the cost of predicting label 0 as label 1". Costs are finite,
non-negative, and not both zero. A larger score means "more likely positive"; a sample is predicted positive when
its score is at least the threshold.

Every ROC point (FPR, TPR) is a line in the cost plane: by (2.24) and (2.25),
:math:`\mathrm{cost}_{norm} = \mathrm{FNR}\cdot P(+)_{cost} + \mathrm{FPR}\cdot(1 - P(+)_{cost})`, the segment
from (0, FPR) to (1, FNR). :func:`cost_curve` computes the lower envelope of all these lines exactly, from the
vertices of the ROC convex hull, and :func:`expected_total_cost` the area under it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ._validation import as_binary_labels, as_unit_array, check_nonnegative_real, check_same_length
from .ranking import threshold_counts

__all__ = [
    "CostCurve",
    "cost_curve",
    "cost_sensitive_error",
    "expected_total_cost",
    "normalized_cost",
    "positive_probability_cost",
]

# Rounds of vectorised peeling before the upper hull falls back to Andrew's monotone chain on the survivors.
# On ROC curves of a million distinct scores the peeling settles in about 15 rounds (see _upper_hull).
_PEEL_ROUNDS = 64


# -- validation ------------------------------------------------------------------------------------------------
def _as_costs(cost01, cost10) -> tuple[float, float]:
    c01 = check_nonnegative_real(cost01, "cost01")
    c10 = check_nonnegative_real(cost10, "cost10")
    if c01 == 0 and c10 == 0:
        raise ValueError("cost01 and cost10 are both zero: every prediction would cost nothing")
    return c01, c10


def _check_denominator(p: np.ndarray, c01: float, c10: float) -> None:
    """Refuse p * cost01 + (1 - p) * cost10 == 0, which would make (2.24) and (2.25) 0/0."""
    # with non-negative costs, not both zero, the denominator vanishes only at these two corners
    if c10 == 0 and np.any(p == 0):
        raise ValueError("p = 0 with cost10 = 0 makes p*cost01 + (1-p)*cost10 zero: (2.24) and (2.25) are 0/0")
    if c01 == 0 and np.any(p == 1):
        raise ValueError("p = 1 with cost01 = 0 makes p*cost01 + (1-p)*cost10 zero: (2.24) and (2.25) are 0/0")


def _float_or_array(arr: np.ndarray):
    return float(arr) if arr.ndim == 0 else arr


_TINY = np.finfo(np.float64).tiny  # the smallest normal float; products below it have lost precision or vanished


def _safe_product(product: np.ndarray, *factors: np.ndarray | float) -> np.ndarray:
    """Where a floating-point product can be trusted: finite, and either normal or zero because a factor is zero."""
    exact_zero = np.zeros(np.shape(product), dtype=bool)
    for f in factors:
        exact_zero |= f == 0
    return np.isfinite(product) & ((product >= _TINY) | exact_zero)


def _share(p: np.ndarray, c01: float, c10: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The two shares :math:`a/(a+b)` and :math:`b/(a+b)` of :math:`a = p\,c_{01}`, :math:`b = (1-p)\,c_{10}`.

    Without forming :math:`a` or :math:`b`: each factor is split into a mantissa in [1/2, 1) and a power of two
    (``frexp``), the ratio :math:`b/a` (or :math:`a/b`, whichever is at most about 4) is the ratio of the mantissa
    products times a power of two (``ldexp``, which underflows only to what is negligible beside 1), and the share
    is :math:`1/(1 + b/a)` or :math:`(a/b)/(1 + a/b)`. So neither overflow (costs near 1.8e308) nor underflow
    (costs or p near 5e-324) can turn a share into 0/0 or a wrong 0. Callers have refused a + b = 0.
    """
    q = 1.0 - p  # exact for p >= 1/2 (Sterbenz); for smaller p it is 1 - p rounded once, as the formula's 1 - p
    mp, ep = np.frexp(p)
    mq, eq = np.frexp(q)
    m1, e1 = np.frexp(np.float64(c01))
    m0, e0 = np.frexp(np.float64(c10))
    a_mant, b_mant = mp * m1, mq * m0  # in [1/4, 1), or 0 exactly when a factor is 0
    d = (ep + e1) - (eq + e0)  # a / b = (a_mant / b_mant) 2**d
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        b_over_a = np.ldexp(b_mant / a_mant, -d)  # used where a >= b roughly (d >= 0): at most 4
        a_over_b = np.ldexp(a_mant / b_mant, d)  # used where d < 0: at most 4 * 2**-1
        big_a = 1.0 / (1.0 + b_over_a)
        small_a = a_over_b / (1.0 + a_over_b)
        share_a = np.where(d >= 0, big_a, small_a)
        share_b = np.where(d >= 0, b_over_a / (1.0 + b_over_a), 1.0 / (1.0 + a_over_b))
    share_a = np.where(a_mant == 0, 0.0, np.where(b_mant == 0, 1.0, share_a))
    share_b = np.where(a_mant == 0, 1.0, np.where(b_mant == 0, 0.0, share_b))
    return share_a, share_b


# -- formulas (2.23)-(2.25) ----------------------------------------------------------------------------------
def cost_sensitive_error(y_true, y_pred, cost01, cost10) -> float:
    r"""The cost-sensitive error rate (代价敏感错误率), formula (2.23).

    .. math::
        E(f; D; \mathrm{cost}) = \frac{1}{m}\Big(\sum_{x_i \in D^+} \mathbb{I}\big(f(x_i) \ne y_i\big)
        \times \mathrm{cost}_{01} + \sum_{x_i \in D^-} \mathbb{I}\big(f(x_i) \ne y_i\big)
        \times \mathrm{cost}_{10}\Big)

    that is :math:`(FN \cdot \mathrm{cost}_{01} + FP \cdot \mathrm{cost}_{10}) / m`. Derived in
    ``chapters/cost_curves.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True binary labels, {0, 1}, {-1, +1} or bool; the positive class is 1 / +1 / True.
    y_pred : array-like of shape (m,)
        Predicted binary labels, in any of the same encodings.
    cost01 : float
        Cost of predicting a positive as negative (a false negative); finite, >= 0.
    cost10 : float
        Cost of predicting a negative as positive (a false positive); finite, >= 0, not zero together with
        ``cost01``.

    Returns
    -------
    float
        The average cost per sample, in [0, max(cost01, cost10)].

    Raises
    ------
    ValueError
        On empty labels, a length mismatch, labels that are not binary, or a cost that is negative, not finite,
        or both costs zero.

    Notes
    -----
    The errors are counted exactly in integers and divided once. One class alone is allowed: (2.23) is defined
    for any non-empty sample. With ``cost01 == cost10 == 1`` it is the error rate (2.4).

    Limits: any finite costs, from subnormal (5e-324) to the largest float: where a product count * cost would
    overflow or underflow, the formula is evaluated in exact rationals and rounded once, so the result (at most
    the larger cost) is always finite and correctly rounded. Time O(m).

    Examples
    --------
    >>> cost_sensitive_error([1, 1, 0, 0], [0, 1, 1, 0], cost01=5, cost10=1)  # one FN, one FP
    1.5
    """
    c01, c10 = _as_costs(cost01, cost10)
    y = as_binary_labels(y_true, "y_true")
    pred = as_binary_labels(y_pred, "y_pred")
    m = check_same_length(y_true=y, y_pred=pred)
    fn = int(np.count_nonzero(y & ~pred))
    fp = int(np.count_nonzero(~y & pred))
    value = (fn * c01 + fp * c10) / m
    if np.isfinite(value) and all(term >= _TINY or term == 0 for term in (fn * c01, fp * c10)):
        return value
    # a product or the sum overflowed (costs near 1.8e308), or a product lost its precision below 1e-308: take
    # the formula in exact rationals (the costs at their exact binary values) and round once; the result is at
    # most max(cost01, cost10), so it is a finite float
    total = float((fn * Fraction(c01) + fp * Fraction(c10)) / m)
    return min(total, max(c01, c10))


def positive_probability_cost(p, cost01, cost10):
    r"""The positive probability cost (正例概率代价) :math:`P(+)_{cost}`, formula (2.24).

    .. math:: P(+)_{cost} = \frac{p \times \mathrm{cost}_{01}}{p \times \mathrm{cost}_{01} + (1 - p) \times
              \mathrm{cost}_{10}}

    the horizontal axis of the cost curve. Derived in ``chapters/cost_curves.ipynb``.

    Parameters
    ----------
    p : float or array-like
        The probability that a sample is positive, in [0, 1]; an array is evaluated elementwise.
    cost01 : float
        Cost of predicting a positive as negative; finite, >= 0.
    cost10 : float
        Cost of predicting a negative as positive; finite, >= 0, not zero together with ``cost01``.

    Returns
    -------
    float or numpy.ndarray
        :math:`P(+)_{cost}` in [0, 1]: a float for a scalar ``p``, else an array of ``p``'s shape.

    Raises
    ------
    ValueError
        If ``p`` is empty, not finite or outside [0, 1]; if a cost is negative or not finite, or both are zero;
        or if ``p = 0`` with ``cost10 = 0`` (or ``p = 1`` with ``cost01 = 0``), where (2.24) is 0/0.

    Notes
    -----
    :math:`P(+)_{cost}` depends on ``p`` and the costs only through the product of the odds
    :math:`p/(1-p)` and the cost ratio :math:`\mathrm{cost}_{01}/\mathrm{cost}_{10}`: a rarer positive class
    and a dearer false negative can cancel exactly. With equal costs it is ``p``.

    Limits: any finite costs and p in [0, 1], subnormal and huge alike. Where a product :math:`p \times
    \mathrm{cost}` would overflow or underflow, the ratio is formed from mantissas and powers of two instead
    (so ``p = 0.5, cost01 = 5e-324, cost10 = 0`` gives 1, not 0/0). Time and memory O(size of p).

    Examples
    --------
    >>> positive_probability_cost(0.2, cost01=4, cost10=1)
    0.5
    >>> positive_probability_cost([0.0, 0.5, 1.0], cost01=1, cost10=1).tolist()
    [0.0, 0.5, 1.0]
    """
    c01, c10 = _as_costs(cost01, cost10)
    p = as_unit_array(p, "p")
    _check_denominator(p, c01, c10)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        positive, negative = p * c01, (1 - p) * c10
        plain = positive / (positive + negative)
        trusted = _safe_product(positive, p, c01) & _safe_product(negative, 1 - p, c10)
        trusted &= np.isfinite(positive + negative)
    if np.all(trusted):
        return _float_or_array(plain)
    share, _ = _share(p, c01, c10)
    return _float_or_array(np.where(trusted, plain, share))


def normalized_cost(fnr, fpr, p, cost01, cost10):
    r"""The normalized cost (归一化代价) :math:`\mathrm{cost}_{norm}`, formula (2.25).

    .. math:: \mathrm{cost}_{norm} = \frac{\mathrm{FNR} \times p \times \mathrm{cost}_{01} + \mathrm{FPR} \times
              (1 - p) \times \mathrm{cost}_{10}}{p \times \mathrm{cost}_{01} + (1 - p) \times \mathrm{cost}_{10}}

    the vertical axis of the cost curve: the expected cost of a classifier with these rates, divided by its
    largest possible value (that of a classifier with FNR = FPR = 1). Equals
    :math:`\mathrm{FNR}\cdot P(+)_{cost} + \mathrm{FPR}\cdot(1 - P(+)_{cost})`. Derived in
    ``chapters/cost_curves.ipynb``.

    Parameters
    ----------
    fnr : float or array-like
        False negative rate(s) (假反例率), FNR = 1 - TPR, in [0, 1].
    fpr : float or array-like
        False positive rate(s) (假正例率), formula (2.19), in [0, 1].
    p : float or array-like
        Probability that a sample is positive, in [0, 1].
    cost01 : float
        Cost of predicting a positive as negative; finite, >= 0.
    cost10 : float
        Cost of predicting a negative as positive; finite, >= 0, not zero together with ``cost01``.

    Returns
    -------
    float or numpy.ndarray
        :math:`\mathrm{cost}_{norm}` in [0, 1]: a float when ``fnr``, ``fpr`` and ``p`` are all scalars, else
        an array of their broadcast shape (numpy broadcasting: e.g. the rates of every ROC point at one ``p``,
        or one classifier over a grid of ``p``).

    Raises
    ------
    ValueError
        If ``fnr``, ``fpr`` or ``p`` is empty, not finite or outside [0, 1], or if their shapes do not
        broadcast; if a cost is negative or not finite, or both are zero; or if ``p = 0`` with ``cost10 = 0``
        (or ``p = 1`` with ``cost01 = 0``), where (2.25) is 0/0.

    Notes
    -----
    Limits: any finite costs and rates, subnormal and huge alike; where a product would overflow or underflow,
    the equivalent form :math:`\mathrm{FNR}\cdot P(+)_{cost} + \mathrm{FPR}\cdot(1 - P(+)_{cost})` is used with
    the shares formed from mantissas and powers of two. Time and memory O(broadcast size).

    Examples
    --------
    >>> normalized_cost(fnr=0.25, fpr=0.5, p=0.5, cost01=3, cost10=1)  # P(+)cost = 0.75
    0.3125
    >>> normalized_cost(fnr=[0.0, 1.0], fpr=[1.0, 0.0], p=0.5, cost01=1, cost10=3).tolist()
    [0.75, 0.25]
    """
    c01, c10 = _as_costs(cost01, cost10)
    fnr = as_unit_array(fnr, "fnr")
    fpr = as_unit_array(fpr, "fpr")
    p = as_unit_array(p, "p")
    try:
        fnr, fpr, p = np.broadcast_arrays(fnr, fpr, p)
    except ValueError as exc:
        raise ValueError(
            f"fnr, fpr and p must broadcast together, got shapes {fnr.shape}, {fpr.shape} and {p.shape}"
        ) from exc
    _check_denominator(p, c01, c10)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        positive, negative = p * c01, (1 - p) * c10
        missed, false_alarms = fnr * positive, fpr * negative
        plain = (missed + false_alarms) / (positive + negative)
        trusted = _safe_product(positive, p, c01) & _safe_product(negative, 1 - p, c10)
        # the numerator's products too: 1e-300 * 5e-31 underflows to 0 although the result is 1e-300
        trusted &= _safe_product(missed, fnr, positive) & _safe_product(false_alarms, fpr, negative)
        trusted &= np.isfinite(plain)
    if np.all(trusted):
        return _float_or_array(plain)
    # the equivalent form FNR * P(+)cost + FPR * (1 - P(+)cost), with both shares formed without overflow
    share_pos, share_neg = _share(p, c01, c10)
    return _float_or_array(np.where(trusted, plain, fnr * share_pos + fpr * share_neg))


# -- the cost curve: lower envelope of the lines of all ROC points --------------------------------------------
class CostCurve(NamedTuple):
    """The lower envelope of the cost lines of all ROC points, a concave polyline over [0, 1].

    With ``k`` vertices of the ROC convex hull, the envelope has ``k`` pieces: on
    ``[p_cost[j], p_cost[j + 1]]`` it is the line of hull vertex ``j``,
    ``norm_cost = (1 - tpr[j]) * P + fpr[j] * (1 - P)``. A piece has zero length where the hull has a vertical
    first edge or a horizontal last edge.

    Attributes
    ----------
    p_cost : ndarray of shape (k + 1,)
        The ends of the pieces, :math:`P(+)_{cost}` from 0 to 1, non-decreasing.
    norm_cost : ndarray of shape (k + 1,)
        The envelope (the smallest normalized cost of any threshold) at ``p_cost``; 0 at both ends.
    fpr, tpr : ndarray of shape (k,)
        The ROC convex hull's vertices, from (0, 0) to (1, 1): the threshold optimal on each piece.
    thresholds : ndarray of shape (k,)
        The score threshold of each vertex (``+inf`` for (0, 0), "predict everything negative").
    """

    p_cost: np.ndarray
    norm_cost: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def _cross(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Orientation of each consecutive triple: < 0 for a right (clockwise) turn, 0 for collinear points.

    Integer input gives exact signs: each product is at most about m**2, far below 2**63 for any feasible m.
    """
    return (x[1:-1] - x[:-2]) * (y[2:] - y[:-2]) - (y[1:-1] - y[:-2]) * (x[2:] - x[:-2])


def _upper_hull(x: np.ndarray, y: np.ndarray, max_rounds: int = _PEEL_ROUNDS) -> np.ndarray:
    """Indices of the upper convex hull's vertices of points sorted by (x, y), collinear points dropped.

    The points are a ROC curve in integer counts (x = false positives, y = true positives): both coordinates
    non-decreasing, first point lowest-left, last point highest-right. Two routes, the same result:

    1. Vectorised peeling: drop, all at once, every interior point whose turn is not strictly to the right
       (``cross >= 0``). A maximal run of such points is convex together with its two kept neighbours, so it
       lies on or below the chord that replaces it; each round only raises the chain. When no point is dropped,
       every turn is a strict right turn: the chain is concave, lies above every dropped point, and its vertices
       are input points, so it is the upper hull.
    2. If ``max_rounds`` rounds do not settle it, Andrew's monotone chain (one stack pass) finishes on the
       survivors, which still contain every hull vertex.

    Time: O(max_rounds * n) vectorised, plus a Python pass over the survivors only if the peeling did not settle.
    """
    idx = np.arange(x.size)
    for _ in range(max_rounds):
        if idx.size < 3:
            return idx
        keep = np.ones(idx.size, dtype=bool)
        keep[1:-1] = _cross(x[idx], y[idx]) < 0
        if keep.all():
            return idx
        idx = idx[keep]
    # Andrew's monotone chain, exact in Python integers
    xs, ys = x[idx].tolist(), y[idx].tolist()
    hull: list[int] = []
    for i in range(len(xs)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (xs[b] - xs[a]) * (ys[i] - ys[a]) - (ys[b] - ys[a]) * (xs[i] - xs[a]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return idx[np.asarray(hull, dtype=np.intp)]


def cost_curve(y_true, y_score) -> CostCurve:
    r"""The cost curve (代价曲线) of a scorer: the lower envelope of the cost lines of all its ROC points.

    Each point (FPR, TPR) of the ROC curve (:func:`melearn.roc_curve`) is the line from (0, FPR) to (1, FNR) in
    the cost plane, :math:`\mathrm{cost}_{norm} = \mathrm{FNR}\cdot P + \mathrm{FPR}\cdot(1 - P)` with
    :math:`P = P(+)_{cost}` (formulas (2.24)-(2.25)). Their minimum over all points, for each
    :math:`P \in [0, 1]`, is the cost of the best threshold at that operating condition: the envelope drawn in
    the textbook's figure 2.5. Derived in ``chapters/cost_curves.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    CostCurve
        ``p_cost`` and ``norm_cost`` (the envelope as a polyline, k + 1 points), and the ``fpr``, ``tpr`` and
        ``thresholds`` of the k ROC convex-hull vertices whose lines form it.

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    Writing :math:`\mathrm{FNR}\cdot P + \mathrm{FPR}\cdot(1 - P) = P - \big(P\cdot\mathrm{TPR} -
    (1 - P)\cdot\mathrm{FPR}\big)`, the envelope is :math:`P` minus the maximum of a linear function over the
    ROC points; a linear function is maximised over a finite set at a vertex of its convex hull, and for
    :math:`P \in [0, 1]` at a vertex of the upper-left hull from (0, 0) to (1, 1). Consecutive hull vertices
    (with steps :math:`\Delta\mathrm{FPR}, \Delta\mathrm{TPR}`) exchange the lead at
    :math:`P = \Delta\mathrm{FPR} / (\Delta\mathrm{FPR} + \Delta\mathrm{TPR})`.

    The hull is computed from the integer counts behind :func:`melearn.roc_curve` (its shared core
    :func:`melearn.ranking.threshold_counts`), so every orientation test is exact. Time O(m log m) for the
    sort, then O(n) for n distinct scores; no grid.

    Limits: m up to 2**31 samples (``melearn.ranking.MAX_SAMPLES``: the orientation tests multiply counts, exact
    in int64 below 2**63); any finite scores. Memory a few arrays of length m.

    Examples
    --------
    >>> curve = cost_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> curve.fpr.tolist(), curve.tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    >>> curve.p_cost.tolist(), curve.norm_cost.tolist()
    ([0.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 0.25, 0.0, 0.0])
    """
    counts = threshold_counts(y_true, y_score)
    fp = np.concatenate(([0], counts.fp)).astype(np.int64)
    tp = np.concatenate(([0], counts.tp)).astype(np.int64)
    thresholds = np.concatenate(([np.inf], counts.thresholds))
    m_pos, m_neg = counts.m_pos, counts.m_neg

    hull = _upper_hull(fp, tp)
    d_fp, d_tp = np.diff(fp[hull]), np.diff(tp[hull])
    # where vertex j-1 and vertex j cost the same: dFPR / (dFPR + dTPR), in counts dfp*m+ / (dfp*m+ + dtp*m-)
    breaks = (d_fp * m_pos) / (d_fp * m_pos + d_tp * m_neg)
    p_cost = np.concatenate(([0.0], breaks, [1.0]))

    fpr = fp[hull] / m_neg
    tpr = tp[hull] / m_pos
    fnr = 1.0 - tpr
    # piece j lies on the line of vertex j; the last end is the last vertex (1, 1) at P = 1, where it costs 0
    left = fnr * p_cost[:-1] + fpr * (1.0 - p_cost[:-1])
    norm_cost = np.concatenate((left, [fnr[-1]]))
    return CostCurve(p_cost, norm_cost, fpr, tpr, thresholds[hull])


def expected_total_cost(y_true, y_score) -> float:
    r"""The expected total cost (期望总体代价) over all operating conditions: the area under the cost curve.

    The area under the lower envelope of the lines (0, FPR)-(1, FNR) of all ROC points, over
    :math:`P(+)_{cost} \in [0, 1]`:

    .. math:: \int_0^1 \min_i \big(\mathrm{FNR}_i\, P + \mathrm{FPR}_i\, (1 - P)\big)\, dP,

    the normalized cost (2.25) of the best threshold, averaged over :math:`P(+)_{cost}` uniform on [0, 1]
    (textbook figure 2.5). Derived in ``chapters/cost_curves.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    float
        The area, in [0, 1/4]: 0 for scores that separate the classes, 1/4 for scores that carry no ranking
        information (constant scores), since "predict all negative" and "predict all positive" are always
        thresholds and their lines alone give :math:`\min(P, 1 - P)`.

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    Exact up to floating-point rounding: the envelope is piecewise linear (see :func:`cost_curve`), so the
    trapezoid sum over its break points is its integral. Depends on the scores only through their order, so it
    is invariant under strictly increasing transformations of the scores.

    Limits: as :func:`cost_curve`, m up to 2**31 samples; the result lies in [0, 1/4] and is always finite.

    Examples
    --------
    >>> expected_total_cost([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    0.125
    >>> expected_total_cost([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])
    0.25
    """
    curve = cost_curve(y_true, y_score)
    x, y = curve.p_cost, curve.norm_cost
    return float(0.5 * np.sum(np.diff(x) * (y[:-1] + y[1:])))
