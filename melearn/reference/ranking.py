r"""Literal, exact reference implementations of the counts behind (2.8)-(2.20).

They give the confusion cells, the P-R and ROC points, and the trapezoids of the AUC. Every function counts one
sample at a time, as the formulas read, and returns Python integers or :class:`fractions.Fraction`; none of them
sorts cleverly or uses ``melearn.ranking`` or ``melearn.precision_recall_f``, which they serve to check (the
pages ``chapters/precision_recall_f.ipynb``, ``chapters/macro_micro.ipynb``, ``chapters/roc_curve.ipynb``,
``chapters/auc.ipynb`` and the tests use them as the second, independent route). They take O(m) work per threshold,
O(m^2) in all: for checking, not for use.

Labels may be {0, 1}, {-1, +1} or bool; the positive class is 1 / +1 / True. A sample is predicted positive at a
threshold when its score is at least the threshold, so tied scores enter together.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import product
from typing import NamedTuple

__all__ = [
    "PUMPKIN_EXAMPLE",
    "Cells",
    "Example",
    "literal_confusion",
    "literal_one_vs_rest",
    "literal_pr_points",
    "literal_roc_points",
    "literal_trapezoids",
    "both_class_labellings",
    "tie_pattern",
    "weak_orderings",
]


class Example(NamedTuple):
    """A small labelled ranking: sample names, scores and binary labels (1 positive, 0 negative)."""

    names: tuple[str, ...]
    scores: tuple[float, ...]
    labels: tuple[int, ...]


#: The running example, the pumpkin book's eight samples from its notes on formula (2.20) (Xie et al., 南瓜书), with
#: scores 0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15 and labels + - + + - - + - (s4 and s5 tie at 0.47).
PUMPKIN_EXAMPLE = Example(
    names=("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"),
    scores=(0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15),
    labels=(1, 0, 1, 1, 0, 0, 1, 0),
)


class Cells(NamedTuple):
    """The four cells of a binary confusion matrix (Table 2.1), as Python integers."""

    tp: int
    fp: int
    fn: int
    tn: int


def _positive(label) -> bool:
    # 1, +1, True (and 1.0) are positive; 0, -1, False are negative
    if label in (1, True):
        return True
    if label in (0, -1, False):
        return False
    raise ValueError(f"labels must be 0/1, -1/+1 or bool, got {label!r}")


def _pairs(first, second, names: tuple[str, str]) -> list[tuple]:
    a, b = list(first), list(second)
    if len(a) != len(b):
        raise ValueError(f"{names[0]} and {names[1]} differ in length: {len(a)} and {len(b)}")
    if not a:
        raise ValueError(f"{names[0]} is empty")
    return list(zip(a, b, strict=True))


def literal_confusion(y_true: Sequence, y_pred: Sequence) -> Cells:
    """Count TP, FP, FN, TN one sample at a time (Table 2.1 of the textbook)."""
    tp = fp = fn = tn = 0
    for truth, guess in _pairs(y_true, y_pred, ("y_true", "y_pred")):
        t, p = _positive(truth), _positive(guess)
        if t and p:
            tp += 1
        elif p:
            fp += 1
        elif t:
            fn += 1
        else:
            tn += 1
    return Cells(tp, fp, fn, tn)


def literal_one_vs_rest(y_true: Sequence, y_pred: Sequence, labels: Sequence) -> list[Cells]:
    """One confusion matrix per class of a multi-class task, the class against the rest, counted sample by sample."""
    pairs = _pairs(y_true, y_pred, ("y_true", "y_pred"))
    out = []
    for label in labels:
        tp = sum(1 for t, p in pairs if t == label and p == label)
        fp = sum(1 for t, p in pairs if t != label and p == label)
        fn = sum(1 for t, p in pairs if t == label and p != label)
        tn = sum(1 for t, p in pairs if t != label and p != label)
        out.append(Cells(tp, fp, fn, tn))
    return out


def _cells_at(pairs, threshold) -> Cells:
    return literal_confusion([y for y, _ in pairs], [1 if s >= threshold else 0 for _, s in pairs])


def _thresholds(pairs) -> list[float]:
    return sorted({float(s) for _, s in pairs}, reverse=True)


def literal_roc_points(y_true: Sequence, y_score: Sequence) -> list[tuple[Fraction, Fraction]]:
    """The ROC points (FPR, TPR) by (2.19) and (2.18), in exact fractions.

    The first point is at the threshold +inf, (0, 0); then one point per distinct score, the threshold falling.
    At each threshold TP, FN, FP, TN are counted over all samples anew.
    """
    pairs = [(y, float(s)) for y, s in _pairs(y_true, y_score, ("y_true", "y_score"))]
    points = []
    for threshold in [float("inf")] + _thresholds(pairs):
        c = _cells_at(pairs, threshold)
        if c.tp + c.fn == 0 or c.tn + c.fp == 0:
            raise ValueError("y_true must hold both classes")
        points.append((Fraction(c.fp, c.tn + c.fp), Fraction(c.tp, c.tp + c.fn)))  # (2.19), (2.18)
    return points


def literal_pr_points(y_true: Sequence, y_score: Sequence) -> list[tuple[Fraction, Fraction]]:
    """The P-R points (R, P) by (2.9) and (2.8), in exact fractions, one per distinct score (threshold falling)."""
    pairs = [(y, float(s)) for y, s in _pairs(y_true, y_score, ("y_true", "y_score"))]
    points = []
    for threshold in _thresholds(pairs):
        c = _cells_at(pairs, threshold)
        if c.tp + c.fn == 0:
            raise ValueError("y_true must hold a positive sample")
        points.append((Fraction(c.tp, c.tp + c.fn), Fraction(c.tp, c.tp + c.fp)))  # (2.9), (2.8)
    return points


def literal_trapezoids(points: Sequence[tuple]) -> list[Fraction]:
    r"""The terms of (2.20), :math:`\tfrac12 (x_{i+1} - x_i)(y_i + y_{i+1})`, exactly, one per segment."""
    pts = [(Fraction(x), Fraction(y)) for x, y in points]
    return [Fraction(1, 2) * (xb - xa) * (ya + yb) for (xa, ya), (xb, yb) in zip(pts[:-1], pts[1:], strict=True)]


# -- exhaustive enumeration of small rankings -------------------------------------------------------------------
def weak_orderings(m: int) -> Iterator[tuple[int, ...]]:
    """Yield every weak ordering of m samples as integer scores 0, 1, ..., top, each level used (ties allowed).

    Every ranking of m samples, ties included, orders them like exactly one of these score vectors: 3 for m = 2,
    13 for m = 3, 75 for m = 4, 541 for m = 5 (the ordered Bell numbers).
    """
    for levels in product(range(m), repeat=m):
        if set(levels) == set(range(max(levels) + 1)):
            yield levels


def both_class_labellings(m: int) -> list[tuple[int, ...]]:
    """Every labelling of m samples with 0/1 in which both classes occur (2**m - 2 of them)."""
    return [labels for labels in product((0, 1), repeat=m) if 0 < sum(labels) < m]


def tie_pattern(y_true: Sequence, y_score: Sequence) -> tuple[tuple, ...]:
    """The (score, label) pairs in sorted order: what every count of (2.8)-(2.22) depends on.

    Two labelled rankings with the same pattern differ only in the order of the samples, which no formula of the
    chapter sees; an exact route computed once per pattern therefore serves every sample order with that pattern.
    """
    return tuple(sorted(_pairs(y_score, y_true, ("y_score", "y_true"))))
