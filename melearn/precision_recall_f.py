r"""Precision, recall and F1 (查准率、查全率与F1), section 2.3.2: formulas (2.8)-(2.17), the P-R curve and the BEP.

Everything section 2.3.2 defines, in the book's order: the confusion matrix (Table 2.1), precision (2.8) and
recall (2.9), :math:`F_1` and :math:`F_\beta` (2.10)-(2.11), the macro- and micro-averages over several confusion
matrices (2.12)-(2.17), the P-R curve and its break-even point (BEP). Derived and checked in the book pages
``chapters/precision_recall_f.ipynb`` ((2.8)-(2.11), the P-R curve, the BEP) and ``chapters/macro_micro.ipynb``
((2.12)-(2.17)).

Conventions
-----------
Binary labels may be {0, 1}, {-1, +1} or bool, the positive class being 1 / +1 / True, for the true labels and
the predictions alike. Counts are exact integers; each measure is one division of integers (or, for the
averages, a mean of such quotients), so no rounding accumulates. For the P-R curve, as in :mod:`melearn.ranking`,
a larger score means "more likely positive" and a sample is predicted positive when its score is at least the
threshold, so tied scores enter together and give one point of the curve; the counts come from
:func:`melearn.ranking.threshold_counts`, computed once in O(m log m).

Undefined measures
------------------
Precision :math:`TP / (TP + FP)` has no value when nothing is predicted positive, recall :math:`TP / (TP + FN)`
none when there is no positive sample. Rather than invent one (scikit-learn returns 0 with a warning, or what
its ``zero_division`` says), these functions raise :class:`ValueError` naming the argument responsible:
``y_pred`` for precision, ``y_true`` for recall, ``confusions[i]`` for an average. A mean that silently
includes a made-up 0 changes macro-averages, which is exactly where such a choice hides.

:math:`F_\beta` is defined when precision and recall are. When both are 0 (:math:`TP = 0`), the printed form
:math:`(1+\beta^2) P R / (\beta^2 P + R)` reads 0/0, but :math:`F_\beta` is a weighted harmonic mean
(:math:`1/F_\beta` is a weighted mean of :math:`1/P` and :math:`1/R`, both infinite), and the count form
:math:`(1+\beta^2)TP / ((1+\beta^2)TP + \beta^2 FN + FP)` has a positive denominator: both give
:math:`F_\beta = 0`, which is what is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ._validation import (
    as_array,
    as_binary_labels,
    as_label_arrays,
    check_positive_int,
    check_positive_real,
    check_same_length,
)
from .ranking import threshold_counts

__all__ = [
    "Confusion",
    "PRF",
    "PrCurve",
    "break_even_point",
    "confusion",
    "f_beta",
    "macro_prf",
    "micro_prf",
    "one_vs_rest_confusions",
    "pr_curve",
    "precision",
    "recall",
]


class Confusion(NamedTuple):
    """The binary confusion matrix (混淆矩阵), Table 2.1 of the book, as four counts.

    ``tp``, ``fp``, ``fn``, ``tn`` are the true positives (真正例), false positives (假正例), false negatives
    (假反例) and true negatives (真反例); they add up to the number of samples ``m``.
    """

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def m(self) -> int:
        """The number of samples, TP + FP + FN + TN."""
        return self.tp + self.fp + self.fn + self.tn


class PRF(NamedTuple):
    """Precision, recall and F1 of an average over several confusion matrices, formulas (2.12)-(2.17)."""

    precision: float
    recall: float
    f1: float


class PrCurve(NamedTuple):
    """The points of a P-R curve: precision and recall with every distinct score as the threshold."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


# -- single confusion matrix ------------------------------------------------------------------------------------
def confusion(y_true, y_pred) -> Confusion:
    """The binary confusion matrix of predictions against true labels (Table 2.1 of the book).

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True binary labels, {0, 1}, {-1, +1} or bool.
    y_pred : array-like of shape (m,)
        Predicted binary labels, in any of the same codings (it need not match that of ``y_true``).

    Returns
    -------
    Confusion
        ``tp``, ``fp``, ``fn``, ``tn`` as Python ints, with ``tp + fp + fn + tn == m``.

    Raises
    ------
    ValueError
        If either argument is empty, not 1-dimensional, holds labels that are not binary (or NaN), or if their
        lengths differ. One class only is allowed: the matrix is still defined.

    Notes
    -----
    Derived in ``chapters/precision_recall_f.ipynb``. O(m): four boolean counts.

    Limits: any m that fits in memory; counts are Python ints. Labels may be lists, numpy arrays or pandas
    objects (nullable ``Int64``/``boolean`` included, without missing values); a masked array with masked entries
    is refused.

    Examples
    --------
    >>> confusion([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    Confusion(tp=2, fp=1, fn=1, tn=1)
    """
    y = as_binary_labels(y_true, "y_true")
    p = as_binary_labels(y_pred, "y_pred")
    check_same_length(y_true=y, y_pred=p)
    tp = int(np.count_nonzero(y & p))
    fp = int(np.count_nonzero(p)) - tp
    fn = int(np.count_nonzero(y)) - tp
    return Confusion(tp, fp, fn, int(y.size) - tp - fp - fn)


def _precision(c: Confusion, name: str) -> float:
    if c.tp + c.fp == 0:
        raise ValueError(
            f"{name} predicts no sample positive (TP + FP = 0), so precision (2.8) TP / (TP + FP) is undefined"
        )
    return c.tp / (c.tp + c.fp)


def _recall(c: Confusion, name: str) -> float:
    if c.tp + c.fn == 0:
        raise ValueError(f"{name} holds no positive sample (TP + FN = 0), so recall (2.9) TP / (TP + FN) is undefined")
    return c.tp / (c.tp + c.fn)


def precision(y_true, y_pred) -> float:
    r"""Precision (查准率), formula (2.8): the fraction of predicted positives that are positive.

    .. math:: P = \frac{TP}{TP + FP}

    Derived in ``chapters/precision_recall_f.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True binary labels, {0, 1}, {-1, +1} or bool.
    y_pred : array-like of shape (m,)
        Predicted binary labels.

    Returns
    -------
    float
        P, in [0, 1].

    Raises
    ------
    ValueError
        On bad labels (see :func:`confusion`), or if ``y_pred`` predicts no sample positive (TP + FP = 0):
        precision is then undefined, and no stand-in value is returned.

    Notes
    -----
    Limits: as :func:`confusion` (any m that fits in memory, time O(m)); one exact integer division.

    Examples
    --------
    >>> precision([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    return _precision(confusion(y_true, y_pred), "y_pred")


def recall(y_true, y_pred) -> float:
    r"""Recall (查全率), formula (2.9): the fraction of positives that are predicted positive.

    .. math:: R = \frac{TP}{TP + FN}

    Derived in ``chapters/precision_recall_f.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True binary labels, {0, 1}, {-1, +1} or bool.
    y_pred : array-like of shape (m,)
        Predicted binary labels.

    Returns
    -------
    float
        R, in [0, 1].

    Raises
    ------
    ValueError
        On bad labels (see :func:`confusion`), or if ``y_true`` holds no positive sample (TP + FN = 0).

    Notes
    -----
    Limits: as :func:`confusion` (any m that fits in memory, time O(m)); one exact integer division.

    Examples
    --------
    >>> recall([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    return _recall(confusion(y_true, y_pred), "y_true")


def _f_from_counts(tp: int, fp: int, fn: int, beta2: Fraction | int = 1) -> float:
    # the count form of (2.11): (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP); its denominator is positive once
    # precision and recall are defined, and it is 0 (not 0/0) when TP = 0. Computed in exact rationals (Python
    # integers of any size, beta^2 exactly) and rounded once, so neither a huge count nor a beta of 1e200 (whose
    # square overflows a float) nor a beta of 1e-200 (whose square underflows) can spoil it.
    tp, fp, fn = int(tp), int(fp), int(fn)
    beta2 = Fraction(beta2)
    numerator = (1 + beta2) * tp
    return float(numerator / (numerator + beta2 * fn + fp))


def f_beta(y_true, y_pred, beta=1.0) -> float:
    r"""The :math:`F_\beta` measure, formulas (2.10) (:math:`\beta = 1`) and (2.11).

    .. math::
        F_\beta = \frac{(1 + \beta^2) \times P \times R}{(\beta^2 \times P) + R},
        \qquad \frac{1}{F_\beta} = \frac{1}{1 + \beta^2}\left(\frac{1}{P} + \frac{\beta^2}{R}\right),

    the weighted harmonic mean (加权调和平均) of precision and recall; :math:`F_1 = 2TP / (m + TP - TN)`.
    Derived in ``chapters/precision_recall_f.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True binary labels, {0, 1}, {-1, +1} or bool.
    y_pred : array-like of shape (m,)
        Predicted binary labels.
    beta : float, default 1.0
        The relative weight of recall: :math:`\beta > 1` favours recall, :math:`\beta < 1` precision.

    Returns
    -------
    float
        :math:`F_\beta`, in [0, 1]; between min(P, R) and max(P, R); 0 when TP = 0.

    Raises
    ------
    ValueError
        On bad labels (see :func:`confusion`), if ``beta`` is not a positive finite number, or when precision
        (``y_pred`` predicts no positive) or recall (``y_true`` holds no positive) is undefined.

    Notes
    -----
    Computed from the counts, :math:`(1+\beta^2)TP / ((1+\beta^2)TP + \beta^2 FN + FP)`, which equals (2.11)
    wherever P and R are defined and is 0 rather than 0/0 when P = R = 0.

    Limits: any positive finite ``beta`` (1e-300 to 1e300 alike): the count form is evaluated in exact
    rational arithmetic with :math:`\beta^2` taken exactly and rounded once, so it neither overflows nor
    underflows. Time O(m), memory a few boolean arrays of length m.

    Examples
    --------
    >>> f_beta([1, 1, 0, 0, 1], [1, 0, 0, 0, 1])
    0.8
    >>> round(f_beta([1, 1, 0, 0, 1], [1, 0, 0, 0, 1], beta=2.0), 6)
    0.714286
    """
    beta2 = Fraction(check_positive_real(beta, "beta")) ** 2  # exact: beta^2 never over- or underflows
    c = confusion(y_true, y_pred)
    _precision(c, "y_pred")
    _recall(c, "y_true")
    return _f_from_counts(c.tp, c.fp, c.fn, beta2)


# -- several confusion matrices ---------------------------------------------------------------------------------
def _as_confusion_table(confusions) -> np.ndarray:
    """Validate a sequence of confusion records; return an (n, 4) table of Python ints, columns tp, fp, fn, tn.

    Counts are integers of any size (a pooled count may exceed int64), so the table has dtype object and every
    sum of counts is an exact Python integer: nothing wraps around.
    """
    columns = getattr(confusions, "columns", None)
    if columns is not None and hasattr(confusions, "to_numpy"):  # a DataFrame: its column names say which is which
        confusions = _named_columns(confusions, list(columns))
        if confusions.shape[1] == 4:
            # column by column, before any conversion: pandas would meet uint64 and int64 counts in float64, and a
            # column of floats would be blamed on the first count of its row
            fields = [as_array(confusions.iloc[:, j], f"confusions.{f}") for j, f in enumerate(Confusion._fields)]
            confusions = list(zip(*(column.tolist() for column in fields), strict=True))
    if isinstance(confusions, (np.ma.MaskedArray, memoryview)) or hasattr(confusions, "to_numpy"):
        confusions = as_array(confusions, "confusions")  # pandas tables unwrapped, masked entries refused by name
    if isinstance(confusions, np.ndarray) or not isinstance(confusions, Sequence) or isinstance(confusions, str):
        try:
            confusions = list(confusions)
        except TypeError as exc:
            raise ValueError(
                f"confusions must be a sequence of confusion records, got {type(confusions).__name__}"
            ) from exc
    if len(confusions) == 0:
        raise ValueError("confusions is empty")
    rows = []
    for i, c in enumerate(confusions):
        is_row = isinstance(c, (tuple, list)) or (isinstance(c, np.ndarray) and c.ndim == 1)
        values = tuple(c) if is_row else None
        if values is None or len(values) != 4:
            raise ValueError(
                f"confusions[{i}] must be a confusion record (tp, fp, fn, tn), got {type(c).__name__} {c!r:.60}"
            )
        row = [
            check_positive_int(v, f"confusions[{i}].{field}", minimum=0)
            for field, v in zip(Confusion._fields, values, strict=True)
        ]
        if sum(row) == 0:
            raise ValueError(f"confusions[{i}] counts no sample (TP + FP + FN + TN = 0)")
        rows.append(row)
    table = np.empty((len(rows), 4), dtype=object)
    table[...] = rows
    return table


def _named_columns(frame, columns: list):
    """A DataFrame of confusion counts in the order tp, fp, fn, tn, read by its column names.

    Columns named tp, fp, fn, tn (any order, any case) are taken by name; the default integer columns 0-3 are
    taken by position, as a numpy table is. Anything else is refused: reading named columns by position would
    silently swap counts (columns tn, fn, fp, tp would be read as tp, fp, fn, tn).
    """
    if columns == list(range(len(columns))):
        return frame
    names = [str(c).lower() if isinstance(c, str) else c for c in columns]
    if sorted(map(str, names)) == sorted(Confusion._fields) and len(set(names)) == 4:
        return frame[[columns[names.index(field)] for field in Confusion._fields]]
    shown = ", ".join(repr(c) for c in columns[:6])
    raise ValueError(
        f"confusions is a DataFrame with columns [{shown}]: name its columns tp, fp, fn, tn (in any order), or pass "
        "the counts without names, in that order; other names would be read by position and could swap counts"
    )


def _f1(p: float, r: float) -> float:
    # the harmonic mean of p and r; 0 when both are 0 (the limit: 1/F1 = (1/p + 1/r) / 2 is infinite)
    if p + r == 0:
        return 0.0
    if p * r >= np.finfo(np.float64).tiny:
        return 2.0 * p * r / (p + r)
    return 2.0 * p * (r / (p + r))  # p * r would underflow (p or r below 1e-154): r / (p + r) lies in [0, 1]


def macro_prf(confusions) -> PRF:
    r"""Macro-averaged precision, recall and F1 (宏平均), formulas (2.12)-(2.14).

    .. math::
        \text{macro-}P = \frac{1}{n}\sum_{i=1}^n P_i, \quad
        \text{macro-}R = \frac{1}{n}\sum_{i=1}^n R_i, \quad
        \text{macro-}F1 = \frac{2 \times \text{macro-}P \times \text{macro-}R}{\text{macro-}P + \text{macro-}R}

    Derived in ``chapters/macro_micro.ipynb``.

    Parameters
    ----------
    confusions : sequence of Confusion, length n
        The n binary confusion matrices (from n test sets, n training/test rounds, or the classes of a
        multi-class problem one-vs-rest; see :func:`one_vs_rest_confusions`). Plain 4-tuples
        ``(tp, fp, fn, tn)`` of non-negative ints are accepted too, and a pandas ``DataFrame`` whose columns are
        named tp, fp, fn, tn (read by name, in any order; other names are refused).

    Returns
    -------
    PRF
        ``precision``, ``recall``, ``f1``.

    Raises
    ------
    ValueError
        If ``confusions`` is empty, an entry is not four non-negative integer counts or counts no sample, or a
        matrix ``confusions[i]`` has an undefined precision (TP + FP = 0) or recall (TP + FN = 0).

    Notes
    -----
    macro-F1 here is the book's (2.14): the F1 of macro-P and macro-R. scikit-learn's
    ``f1_score(average="macro")`` is the mean of the per-matrix F1 scores instead, a different number in
    general (see the page).

    Limits: counts are integers of any size (each ratio :math:`TP_i/(TP_i + FP_i)` is formed from exact Python
    integers and rounded once, so counts beyond int64 neither wrap nor overflow). Time and memory O(n) for n
    matrices.

    Examples
    --------
    >>> macro_prf([Confusion(8, 2, 2, 88), Confusion(1, 3, 0, 96)])
    PRF(precision=0.525, recall=0.9, f1=0.6631578947368422)
    """
    table = _as_confusion_table(confusions)
    tp, fp, fn = table[:, 0], table[:, 1], table[:, 2]
    for counts, what, formula in ((tp + fp, "precision", "TP + FP"), (tp + fn, "recall", "TP + FN")):
        if np.any(counts == 0):
            i = int(np.flatnonzero(counts == 0)[0])
            raise ValueError(
                f"confusions[{i}] has {formula} = 0, so its {what} (needed for the macro average) is undefined"
            )
    # Python integers divide with one correct rounding, whatever their size
    p = float(np.mean((tp / (tp + fp)).astype(np.float64)))
    r = float(np.mean((tp / (tp + fn)).astype(np.float64)))
    return PRF(p, r, _f1(p, r))


def micro_prf(confusions) -> PRF:
    r"""Micro-averaged precision, recall and F1 (微平均), formulas (2.15)-(2.17).

    .. math::
        \text{micro-}P = \frac{\overline{TP}}{\overline{TP} + \overline{FP}}, \quad
        \text{micro-}R = \frac{\overline{TP}}{\overline{TP} + \overline{FN}}, \quad
        \text{micro-}F1 = \frac{2 \times \text{micro-}P \times \text{micro-}R}{\text{micro-}P + \text{micro-}R}

    where the bars are means over the n matrices. Derived in ``chapters/macro_micro.ipynb``.

    Parameters
    ----------
    confusions : sequence of Confusion, length n
        The n binary confusion matrices (or 4-tuples ``(tp, fp, fn, tn)``, or a ``DataFrame`` with columns
        named tp, fp, fn, tn in any order, read by name).

    Returns
    -------
    PRF
        ``precision``, ``recall``, ``f1``.

    Raises
    ------
    ValueError
        If ``confusions`` is empty, an entry is not four non-negative integer counts or counts no sample, or if
        the pooled counts leave micro-P (no positive prediction at all) or micro-R (no positive sample at all)
        undefined.

    Notes
    -----
    The factor 1/n of the means cancels, so the pooled integer sums are divided once: exact up to that division.

    Limits: counts are integers of any size; the pooled sums are exact Python integers (never wrapping at
    int64), divided once with correct rounding. Time and memory O(n).

    Examples
    --------
    >>> micro_prf([Confusion(8, 2, 2, 88), Confusion(1, 3, 0, 96)])
    PRF(precision=0.6428571428571429, recall=0.8181818181818182, f1=0.72)
    """
    table = _as_confusion_table(confusions)
    tp, fp, fn = (int(v) for v in table[:, :3].sum(axis=0))  # exact Python integers
    if tp + fp == 0:
        raise ValueError("confusions predict no sample positive in total (sum of TP + FP = 0): micro-P is undefined")
    if tp + fn == 0:
        raise ValueError("confusions hold no positive sample in total (sum of TP + FN = 0): micro-R is undefined")
    p = tp / (tp + fp)
    r = tp / (tp + fn)
    return PRF(p, r, _f_from_counts(tp, fp, fn))


def one_vs_rest_confusions(y_true, y_pred, labels=None) -> list[Confusion]:
    """One binary confusion matrix per class of a multi-class problem, that class against the rest.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        True class labels (integers or strings).
    y_pred : array-like of shape (m,)
        Predicted class labels.
    labels : sequence, optional
        The classes, in the order of the returned list; by default the sorted union of the labels seen.

    Returns
    -------
    list of Confusion
        ``result[i]`` counts class ``labels[i]`` as positive and every other class as negative.

    Raises
    ------
    ValueError
        If an argument is empty, not 1-dimensional, holds NaN, if the lengths differ, or if a label is missing
        from ``labels`` (or ``labels`` is empty or repeats a class).

    Examples
    --------
    >>> one_vs_rest_confusions([0, 0, 1, 2], [0, 1, 1, 2])
    [Confusion(tp=1, fp=0, fn=1, tn=2), Confusion(tp=1, fp=1, fn=0, tn=2), Confusion(tp=1, fp=0, fn=0, tn=3)]
    """
    if labels is None:
        y, p = as_label_arrays(y_true=y_true, y_pred=y_pred)  # one kind, compared exactly (see _validation)
    else:
        y, p, classes = as_label_arrays(y_true=y_true, y_pred=y_pred, labels=labels)
    m = check_same_length(y_true=y, y_pred=p)
    if labels is None:
        classes = np.unique(np.concatenate([y, p]))
    else:
        if np.unique(classes).size != classes.size:
            raise ValueError("labels repeats a class")
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    index = {}
    for name, arr in (("y_true", y), ("y_pred", p)):
        pos = np.clip(np.searchsorted(sorted_classes, arr), 0, sorted_classes.size - 1)
        missing = sorted_classes[pos] != arr
        if np.any(missing):
            raise ValueError(
                f"{name} holds the label {arr[np.flatnonzero(missing)[0]].item()!r}, which is not in labels"
            )
        index[name] = order[pos]
    n = classes.size
    # three counts per class, O(m + n): no n x n table, which for many classes (float labels, say) would need
    # n**2 entries
    truth, predicted = index["y_true"], index["y_pred"]
    tp = np.bincount(truth[truth == predicted], minlength=n)
    fp = np.bincount(predicted, minlength=n) - tp
    fn = np.bincount(truth, minlength=n) - tp
    tn = m - tp - fp - fn
    return [Confusion(int(a), int(b), int(c), int(d)) for a, b, c, d in zip(tp, fp, fn, tn, strict=True)]


# -- the P-R curve and the break-even point ----------------------------------------------------------------
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
        ``thresholds`` are the distinct scores, strictly decreasing (exact, as in :func:`melearn.roc_curve`,
        for scores that float64 cannot hold); ``recall`` is non-decreasing and ends at 1. There is no
        artificial end point: above the highest score nothing is predicted positive and precision is undefined,
        so no point is drawn there.

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
