r"""The states of the book's interactive explorers, computed by melearn when a page is built.

Every state an explorer can reach, computed with numpy and melearn's numeric modules only (no figures, no
derivations, no catalogues): :func:`threshold_states`, :func:`binomial_states`, :func:`bias_variance_states`, and
the seeded score sets of :func:`generated_scores`. The package :mod:`melearn.explorers` describes the grids;
:mod:`melearn.explorers.html` writes them into a page.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._validation import (
    as_binary_labels,
    as_finite_array,
    as_rng,
    check_nonnegative_real,
    check_open_unit,
    check_positive_int,
    check_same_length,
)

__all__ = [
    "COST_PAIRS",
    "bias_variance_states",
    "binomial_states",
    "generated_scores",
    "threshold_states",
]

#: The cost pairs (cost01, cost10) offered by the threshold explorer, the ratio cost01 / cost10 going from 1/5 to 5;
#: cost01 is the cost of a false negative and cost10 that of a false positive, as in ``melearn.cost``.
COST_PAIRS = ((1, 5), (1, 4), (1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1))


def _fraction_text(numerator: int, denominator: int) -> str:
    """``"2/3"``: a ratio of counts as a reader writes it (unreduced, so the counts stay visible)."""
    return f"{numerator}/{denominator}"


def generated_scores(m_pos, m_neg, separation, *, seed, decimals=2):
    r"""Seeded scores of a binary classifier: positives and negatives from two normal distributions.

    A positive's latent score is :math:`N(\text{separation}, 1)`, a negative's :math:`N(0, 1)`; the score shown is
    the logistic function of it, rounded to ``decimals`` places, so that scores lie in (0, 1) and close ones tie
    (a tied group that holds both classes is one diagonal step of the ROC curve, formulas (2.18)-(2.19); a group of
    one class is a vertical or a horizontal step). Samples are returned in the order drawn, positives first.

    Parameters
    ----------
    m_pos, m_neg : int
        The numbers of positives and negatives, each at least 1.
    separation : float
        The distance between the two means in standard deviations, >= 0: 0 is a classifier no better than chance,
        2 a good one.
    seed : int
        Seed of ``numpy.random.default_rng``; keyword-only.
    decimals : int, default 2
        Decimal places of the scores, at least 1.

    Returns
    -------
    tuple of numpy.ndarray
        ``(labels, scores)``: int labels (1 positive, 0 negative) and float scores, of length ``m_pos + m_neg``.

    Raises
    ------
    ValueError
        If ``m_pos``, ``m_neg`` or ``decimals`` is not a positive integer, ``separation`` is negative or not
        finite, or ``seed`` is not a non-negative integer.

    Examples
    --------
    >>> labels, scores = generated_scores(3, 2, 1.5, seed=1)
    >>> labels.tolist()
    [1, 1, 1, 0, 0]
    >>> bool(np.all((scores > 0) & (scores < 1)))
    True
    """
    m_pos = check_positive_int(m_pos, "m_pos")
    m_neg = check_positive_int(m_neg, "m_neg")
    separation = check_nonnegative_real(separation, "separation")
    decimals = check_positive_int(decimals, "decimals")
    if isinstance(seed, np.random.Generator):
        raise ValueError("seed must be an integer seed (a generator would not fix the data set)")
    rng = as_rng(seed)
    latent = np.concatenate((separation + rng.standard_normal(m_pos), rng.standard_normal(m_neg)))
    scores = np.round(1.0 / (1.0 + np.exp(-latent)), decimals)
    # keep the scores strictly inside (0, 1) after rounding
    step = 10.0**-decimals
    scores = np.clip(scores, step, 1.0 - step)
    labels = np.concatenate((np.ones(m_pos, dtype=int), np.zeros(m_neg, dtype=int)))
    return labels, scores


def threshold_states(y_true, y_score, *, names=None, cost_pairs=COST_PAIRS):
    r"""Every state of the threshold explorer: one classifier's scores cut at each distinct score.

    The cut at stop :math:`k` predicts positive every sample whose score is at least the :math:`k`-th largest
    distinct score (stop 0 predicts none positive, threshold :math:`+\infty`), so a group of tied scores enters
    at one stop, as :func:`melearn.roc_curve` defines it. At each stop the state holds the confusion matrix
    (Table 2.1), precision (2.8) and recall (2.9) (from :func:`melearn.pr_curve`), F1 (2.10), TPR (2.18) and FPR
    (2.19) (from :func:`melearn.roc_curve`), and, for each cost pair, the normalized cost (2.25) of that ROC point
    at the positive probability cost (2.24) of the pair (from :func:`melearn.normalized_cost`), the prior
    :math:`p` being the share of positives.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    names : sequence of str, optional
        The samples' names; ``"1"``, ``"2"``, ... by default.
    cost_pairs : sequence of (float, float), default ``COST_PAIRS``
        The pairs (cost01, cost10) offered: cost of a false negative, of a false positive; finite, >= 0, not both
        zero; keyword-only.

    Returns
    -------
    dict
        ``samples``: the samples in ranked order (decreasing score, ties in input order), each a dict with
        ``name``, ``score``, ``label`` (1 or 0) and ``stop``, the stop at which it is first predicted positive;
        ``stops``: one dict per stop (``threshold`` is ``None`` at stop 0) with ``tp``, ``fp``, ``fn``, ``tn``,
        ``precision`` (``None`` when TP + FP = 0, where (2.8) is 0/0), ``recall``, ``f1``, ``tpr``, ``fpr``,
        ``fnr``, the same as fractions of counts (``precision_text`` ...), ``kind`` (the ROC segment that reaches
        this stop: ``"vertical"``, ``"horizontal"`` or ``"diagonal"``; ``None`` at stop 0) and ``cost``, the
        normalized cost at each cost pair; ``costs``: one dict per cost pair with ``cost01``, ``cost10``,
        ``p_cost`` and ``best``, the stops of least normalized cost; and ``m_pos``, ``m_neg``, ``p``.

    Raises
    ------
    ValueError
        On bad labels or scores (as :func:`melearn.roc_curve`), ``names`` of another length, or a bad cost pair
        (as :func:`melearn.normalized_cost`).

    Examples
    --------
    >>> states = threshold_states([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], cost_pairs=[(1, 1)])
    >>> [(s["tp"], s["fp"]) for s in states["stops"]]
    [(0, 0), (1, 0), (2, 1), (2, 2)]
    >>> [s["kind"] for s in states["stops"]][1:]
    ['vertical', 'diagonal', 'horizontal']
    """
    from ..cost import normalized_cost, positive_probability_cost
    from ..precision_recall_f import pr_curve
    from ..ranking import roc_curve, threshold_counts

    y = as_binary_labels(y_true, "y_true")
    s = as_finite_array(y_score, "y_score")
    m = check_same_length(y_true=y, y_score=s)
    if names is None:
        names = [str(i + 1) for i in range(m)]
    names = [str(name) for name in names]
    if len(names) != m:
        raise ValueError(f"names must name every sample: {len(names)} names for {m} samples")
    pairs = [tuple(pair) for pair in cost_pairs]
    if not pairs or any(len(pair) != 2 for pair in pairs):
        raise ValueError("cost_pairs must be a non-empty sequence of pairs (cost01, cost10)")
    counts = threshold_counts(y, s)
    roc = roc_curve(y, s)
    pr = pr_curve(y, s)
    m_pos, m_neg = counts.m_pos, counts.m_neg
    p = m_pos / m
    tp = np.concatenate(([0], counts.tp)).astype(int)
    fp = np.concatenate(([0], counts.fp)).astype(int)
    fnr = 1.0 - roc.tpr
    costs = []
    cost_at = []
    for c01, c10 in pairs:
        c01 = check_nonnegative_real(c01, "cost01")
        c10 = check_nonnegative_real(c10, "cost10")
        p_cost = float(positive_probability_cost(p, c01, c10))
        values = np.asarray(normalized_cost(fnr, roc.fpr, p, c01, c10), dtype=float)
        # the least cost is decided exactly: lines of two ROC points that cross at P(+)cost tie, which their
        # rounded float costs need not show. With p = m+/m, (2.25) is (FN cost01 + FP cost10) / (m (p cost01 +
        # (1 - p) cost10)): the same positive denominator at every stop, so the numerators decide.
        exact = [(m_pos - int(tp[k])) * Fraction(c01) + int(fp[k]) * Fraction(c10) for k in range(tp.size)]
        least = min(exact)
        costs.append(
            {
                "cost01": c01,
                "cost10": c10,
                "p_cost": p_cost,
                "best": [k for k, value in enumerate(exact) if value == least],
            }
        )
        cost_at.append(values)
    stops = []
    for k in range(tp.size):
        t, f = int(tp[k]), int(fp[k])
        fn, tn = m_pos - t, m_neg - f
        if k == 0:
            kind = None
        else:
            d_tp, d_fp = t - int(tp[k - 1]), f - int(fp[k - 1])
            kind = "vertical" if d_fp == 0 else "horizontal" if d_tp == 0 else "diagonal"
        # (2.10) in its count form 2TP / (m + TP - TN), defined (0) even where P is 0/0
        f1 = Fraction(2 * t, m + t - tn)
        stops.append(
            {
                "threshold": None if k == 0 else float(counts.thresholds[k - 1]),
                "tp": t,
                "fp": f,
                "fn": fn,
                "tn": tn,
                "precision": None if k == 0 else float(pr.precision[k - 1]),
                "precision_text": None if k == 0 else _fraction_text(t, t + f),
                "recall": float(roc.tpr[k]),
                "recall_text": _fraction_text(t, m_pos),
                "f1": float(f1),
                "f1_text": _fraction_text(2 * t, m + t - tn),
                "tpr": float(roc.tpr[k]),
                "fpr": float(roc.fpr[k]),
                "fnr": float(fnr[k]),
                "fpr_text": _fraction_text(f, m_neg),
                "kind": kind,
                "cost": [float(values[k]) for values in cost_at],
            }
        )
    order = np.argsort(-s, kind="stable")
    distinct = counts.thresholds.astype(float)
    samples = []
    for i in order.tolist():
        stop = int(np.flatnonzero(distinct == s[i])[0]) + 1
        samples.append({"name": names[i], "score": float(s[i]), "label": int(y[i]), "stop": stop})
    return {"samples": samples, "stops": stops, "costs": costs, "m_pos": m_pos, "m_neg": m_neg, "p": p}


def binomial_states(ms, eps0s, alphas):
    r"""Every state of the binomial-test explorer: the test of (2.26)-(2.27) on a grid of m, eps0 and alpha.

    For each :math:`m` and :math:`\epsilon_0` the distribution (2.26) of the number :math:`X` of misclassified
    test samples, :math:`P(X = i) = \binom{m}{i}\epsilon_0^i(1 - \epsilon_0)^{m - i}` (computed in exact
    rationals from the binary value of :math:`\epsilon_0`, then rounded); for each :math:`\alpha` besides, the
    critical count :math:`\bar C`, the critical value :math:`\bar\epsilon = \bar C / m` and the size of the test
    from :func:`melearn.binomial_critical_error` (formula (2.27) as corrected).

    Parameters
    ----------
    ms : sequence of int
        Numbers of test samples, each at least 1 (at most 1000: the distribution is listed in full).
    eps0s : sequence of float
        Error rates of the hypothesis, each strictly between 0 and 1.
    alphas : sequence of float
        Significance levels, each strictly between 0 and 1.

    Returns
    -------
    dict
        ``ms``, ``eps0s``, ``alphas`` as given; ``pmf``: a dict keyed ``"m|eps0"`` of the m + 1 probabilities;
        ``tests``: a dict keyed ``"m|eps0|alpha"`` of ``critical_count``, ``critical_value``, ``size`` and
        ``size_one_lower``. The keys print the numbers in ``:g`` format.

    Raises
    ------
    ValueError
        If a grid is empty, or an ``m`` is not an integer in [1, 1000], an ``eps0`` or an ``alpha`` not strictly
        between 0 and 1.

    Examples
    --------
    >>> grid = binomial_states([10], [0.3], [0.05])
    >>> grid["tests"]["10|0.3|0.05"]["critical_count"]
    5
    >>> round(sum(grid["pmf"]["10|0.3"]), 12)
    1.0
    """
    from ..hypothesis_testing import binomial_critical_error

    grids = {"ms": list(ms), "eps0s": list(eps0s), "alphas": list(alphas)}
    for name, values in grids.items():
        if not values:
            raise ValueError(f"{name} must hold at least one value")
    ms = [check_positive_int(m, "m", maximum=1000, why="the distribution is listed in full") for m in ms]
    eps0s = [check_open_unit(e, "eps0") for e in eps0s]
    alphas = [check_open_unit(a, "alpha") for a in alphas]
    pmf, tests = {}, {}
    for m in ms:
        for eps0 in eps0s:
            e = Fraction(eps0)
            pmf[f"{m}|{eps0:g}"] = [float(math.comb(m, i) * e**i * (1 - e) ** (m - i)) for i in range(m + 1)]
            for alpha in alphas:
                r = binomial_critical_error(m, eps0, alpha=alpha)
                tests[f"{m}|{eps0:g}|{alpha:g}"] = {
                    "critical_count": r.critical_count,
                    "critical_value": r.critical_value,
                    "size": r.size,
                    "size_one_lower": r.size_one_lower,
                }
    return {"ms": ms, "eps0s": eps0s, "alphas": alphas, "pmf": pmf, "tests": tests}


def bias_variance_states(x_train, labels_train, x_test, labels_test, y_true, degrees, *, shown=8):
    r"""Every state of the bias-variance explorer: polynomial least squares of each degree on T training sets.

    At each degree the decomposition (2.42) by :func:`melearn.bias_variance_decomposition` (bias², variance,
    noise, error and the sample cross term), the mean prediction :math:`\bar f(x)` (2.37) at the test points,
    and the fits of the first ``shown`` training sets, by :func:`melearn.bias_variance.polynomial_predictions`.

    Parameters
    ----------
    x_train : array-like of shape (m,)
        The inputs shared by every training set (a fixed design).
    labels_train : array-like of shape (T, m)
        The labels of the T training sets.
    x_test : array-like of shape (n,)
        The test points.
    labels_test : array-like of shape (T, n)
        Each training set's noisy test labels :math:`y_D` at the test points.
    y_true : array-like of shape (n,)
        The true labels :math:`y` at the test points.
    degrees : sequence of int
        Polynomial degrees, each >= 0 and below m.
    shown : int, default 8
        How many sampled fits to keep per degree, between 1 and T; keyword-only.

    Returns
    -------
    dict
        ``x``, ``y_true`` (the test points and true labels), ``degrees`` and one dict per degree in ``states``
        with ``bias2``, ``variance``, ``noise``, ``error``, ``cross``, ``mean_fit`` (n values) and ``fits``
        (``shown`` lists of n values).

    Raises
    ------
    ValueError
        On inputs of mismatched shapes, non-finite values, a degree that is negative or not below m, or ``shown``
        out of range.
    """
    from ..bias_variance import bias_variance_decomposition, polynomial_predictions

    xt = as_finite_array(x_train, "x_train")
    lt = as_finite_array(labels_train, "labels_train", ndim=2)
    xs = as_finite_array(x_test, "x_test")
    ls = as_finite_array(labels_test, "labels_test", ndim=2)
    yt = as_finite_array(y_true, "y_true")
    if lt.shape[1] != xt.size:
        raise ValueError(f"labels_train must have one column per input: {lt.shape[1]} columns, {xt.size} inputs")
    if ls.shape != (lt.shape[0], xs.size):
        raise ValueError(f"labels_test must have shape (T, n) = {(lt.shape[0], xs.size)}, got {ls.shape}")
    if yt.size != xs.size:
        raise ValueError(f"y_true must have one value per test point: {yt.size} values, {xs.size} points")
    shown = check_positive_int(shown, "shown", maximum=lt.shape[0], why="the number of training sets")
    degrees = [check_positive_int(d, "degrees", minimum=0, maximum=xt.size - 1, why="below m") for d in degrees]
    if not degrees:
        raise ValueError("degrees must hold at least one degree")
    inputs = np.broadcast_to(xt, lt.shape)
    states = []
    for d in degrees:
        pred = polynomial_predictions(inputs, lt, xs, d)
        r = bias_variance_decomposition(pred, ls, yt)
        states.append(
            {
                "bias2": r.bias2,
                "variance": r.variance,
                "noise": r.noise,
                "error": r.error,
                "cross": r.cross,
                "mean_fit": pred.mean(axis=0).tolist(),
                "fits": pred[:shown].tolist(),
            }
        )
    return {"x": xs.tolist(), "y_true": yt.tolist(), "degrees": degrees, "states": states}
