r"""Literal, exact reference implementations for (2.21)-(2.22).

The rank loss pair by pair, each positive's share of it, the pumpkin book's strip of each positive, and the area
left of the ROC curve measured on the curve itself.

Every function counts one pair (or one point, or one segment) at a time in Python integers and
:class:`fractions.Fraction`, without ``melearn.ranking``, which these functions serve to check (the page
``chapters/rank_loss.ipynb`` and the tests use them as the second, independent route). O(m^2): for checking only.

Labels may be {0, 1}, {-1, +1} or bool; the positive class is 1 / +1 / True.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .ranking import _pairs, _positive, literal_roc_points, literal_trapezoids

__all__ = [
    "area_left_between",
    "auc_trapezoids",
    "positive_shares",
    "rank_loss_pairs",
    "rank_loss_whole_ties",
    "strip_trapezoids",
]


def _split(y_true: Sequence, y_score: Sequence) -> tuple[list[float], list[float]]:
    pairs = _pairs(y_true, y_score, ("y_true", "y_score"))
    positives = [float(s) for y, s in pairs if _positive(y)]
    negatives = [float(s) for y, s in pairs if not _positive(y)]
    if not positives or not negatives:
        raise ValueError("y_true must hold both classes")
    return positives, negatives


def positive_shares(y_true: Sequence, y_score: Sequence) -> list[tuple[float, Fraction]]:
    r"""Give each positive's share of (2.21), as (score, share) pairs in the order of the samples.

    The share is :math:`\frac{1}{m^+ m^-}\sum_{x^-}(\mathbb{I}(f^+ < f^-) + \frac12 \mathbb{I}(f^+ = f^-))`.
    """
    positives, negatives = _split(y_true, y_score)
    weight = Fraction(1, len(positives) * len(negatives))
    shares = []
    for p in positives:
        lost = sum(Fraction(1) if p < q else Fraction(1, 2) if p == q else Fraction(0) for q in negatives)
        shares.append((p, weight * lost))
    return shares


def rank_loss_pairs(y_true: Sequence, y_score: Sequence) -> Fraction:
    """(2.21) literally: every (positive, negative) pair, a wrong order costing 1 and a tie 1/2, over m+ m-."""
    positives, negatives = _split(y_true, y_score)
    cost = sum(
        (Fraction(1) if p < q else Fraction(1, 2) if p == q else Fraction(0) for p in positives for q in negatives),
        Fraction(0),
    )
    return cost / (len(positives) * len(negatives))


def rank_loss_whole_ties(y_true: Sequence, y_score: Sequence) -> Fraction:
    """NOT (2.21): the variant that counts a tied pair as a whole error (scikit-learn's ``label_ranking_loss``)."""
    positives, negatives = _split(y_true, y_score)
    wrong = sum(1 for p in positives for q in negatives if p <= q)
    return Fraction(wrong, len(positives) * len(negatives))


def strip_trapezoids(y_true: Sequence, y_score: Sequence) -> list[tuple[float, Fraction]]:
    r"""Give the pumpkin book's strip of each positive, as (score, area) pairs.

    Its reading of (2.21): each positive a trapezoid of height :math:`1/m^+`, its upper base the share of negatives
    scored higher, its lower base the share scored at least as high.
    """
    positives, negatives = _split(y_true, y_score)
    height = Fraction(1, len(positives))
    strips = []
    for p in positives:
        upper = Fraction(sum(1 for q in negatives if q > p), len(negatives))
        lower = Fraction(sum(1 for q in negatives if q >= p), len(negatives))
        strips.append((p, Fraction(1, 2) * height * (upper + lower)))
    return strips


def area_left_between(points: Sequence[tuple], y_low, y_high) -> Fraction:
    r"""Measure the area between a monotone curve through ``points`` and the y axis, for y_low <= y <= y_high.

    Measured on the curve itself: on each segment x is linear in y, so the part of the segment inside the band
    contributes a trapezoid; horizontal segments contribute nothing.
    """
    y_low, y_high = Fraction(y_low), Fraction(y_high)
    pts = [(Fraction(x), Fraction(y)) for x, y in points]
    area = Fraction(0)
    for (xa, ya), (xb, yb) in zip(pts[:-1], pts[1:], strict=True):
        lo, hi = max(ya, y_low), min(yb, y_high)
        if yb <= ya or hi <= lo:
            continue
        x_lo = xa + (xb - xa) * (lo - ya) / (yb - ya)  # x is linear in y on the segment
        x_hi = xa + (xb - xa) * (hi - ya) / (yb - ya)
        area += Fraction(1, 2) * (hi - lo) * (x_lo + x_hi)
    return area


def auc_trapezoids(y_true: Sequence, y_score: Sequence) -> Fraction:
    """(2.20) on the ROC points of (2.18)-(2.19), counted literally, in exact fractions."""
    return sum(literal_trapezoids(literal_roc_points(y_true, y_score)), Fraction(0))
