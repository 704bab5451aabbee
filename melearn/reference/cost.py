r"""Literal, exact reference implementations for (2.23)-(2.25) and the cost curve.

The cost-sensitive error rate one sample at a time, and the area under the lower envelope of the cost lines with no
hull at all.

Everything is counted in Python integers and :class:`fractions.Fraction`, without ``melearn.cost``, which these
functions serve to check (the page ``chapters/cost_curves.ipynb`` and the tests use them as the second route).
Every pair of lines is intersected: O(n^2) crossings for n ROC points, O(n^3) work in all; for checking only.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from .ranking import _pairs, _positive, literal_roc_points

__all__ = ["cost_line", "cost_sensitive_error_literal", "envelope_area_exact", "roc_points_exact"]


def roc_points_exact(y_true: Sequence, y_score: Sequence) -> list[tuple[Fraction, Fraction]]:
    """Count the ROC points (FPR, TPR) in exact fractions, from (0, 0) (threshold +inf) down every distinct score."""
    return literal_roc_points(y_true, y_score)


def cost_sensitive_error_literal(y_true: Sequence, y_pred: Sequence, cost01, cost10) -> Fraction:
    """(2.23) as printed, one sample at a time: a misclassified positive costs ``cost01``, a negative ``cost10``."""
    pairs = _pairs(y_true, y_pred, ("y_true", "y_pred"))
    total = Fraction(0)
    for truth, guess in pairs:
        t, p = _positive(truth), _positive(guess)
        if t and not p:  # x_i in D+, misclassified
            total += Fraction(cost01)
        elif p and not t:  # x_i in D-, misclassified
            total += Fraction(cost10)
    return total / len(pairs)


def cost_line(fpr, tpr, p_cost) -> Fraction:
    """Evaluate the cost line of the ROC point (FPR, TPR) at P(+)cost: FNR * P(+)cost + FPR * (1 - P(+)cost)."""
    fpr, tpr, p_cost = Fraction(fpr), Fraction(tpr), Fraction(p_cost)
    return (1 - tpr) * p_cost + fpr * (1 - p_cost)


def envelope_area_exact(points: Sequence[tuple]) -> Fraction:
    """Integrate the lower envelope of the cost lines of ``points`` (FPR, TPR) over P(+)cost in [0, 1], exactly.

    The trapezoid rule on 0, 1 and every crossing of two lines inside (0, 1) is exact: between consecutive
    crossings the minimum of the lines is one line.
    """
    lines = [(Fraction(fpr), 1 - Fraction(tpr)) for fpr, tpr in points]  # values at P(+)cost = 0 and 1
    if not lines:
        raise ValueError("points must not be empty")

    def envelope(x):
        return min(a * (1 - x) + b * x for a, b in lines)

    crossings = {Fraction(0), Fraction(1)}
    for (a1, b1), (a2, b2) in combinations(lines, 2):
        if (b1 - a1) != (b2 - a2):
            x = (a2 - a1) / ((b1 - a1) - (b2 - a2))
            if 0 < x < 1:
                crossings.add(x)
    xs = sorted(crossings)
    return sum(
        ((x1 - x0) * (envelope(x0) + envelope(x1)) / 2 for x0, x1 in zip(xs[:-1], xs[1:], strict=True)), Fraction(0)
    )
