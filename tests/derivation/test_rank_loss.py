"""The assumptions of the rank-loss derivation hold on explicit data, and the exact reference routes that the pages
``chapters/rank_loss.ipynb`` and ``chapters/cost_curves.ipynb`` share agree with the fast functions.

The derivation of AUC = 1 - rank loss rests on two stated assumptions: with the negatives sorted by falling score,
t_j > σ exactly for j <= N(σ) and t_j = σ exactly for N(σ) < j <= N(σ) + b(σ) ("negatives in falling order"), and
the positives of a tied group share its score. Here both are checked, term by term, on random scores with ties,
together with the two lemmas they give (a positive loses N(σ) + b(σ)/2 pairs; a group loses the trapezoid left of
its segment, in units of one pair).
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from melearn import expected_total_cost, rank_loss, roc_auc
from melearn.reference.cost import cost_sensitive_error_literal, envelope_area_exact, roc_points_exact
from melearn.reference.rank_loss import (
    area_left_between,
    auc_trapezoids,
    positive_shares,
    rank_loss_pairs,
    rank_loss_whole_ties,
    strip_trapezoids,
)
from melearn.reference.ranking import PUMPKIN_EXAMPLE, literal_roc_points


def random_case(rng: random.Random):
    m = rng.randint(2, 12)
    labels = [rng.randint(0, 1) for _ in range(m)]
    labels[0], labels[1] = 1, 0  # both classes
    scores = [rng.randint(0, 4) for _ in range(m)]  # few levels: many ties
    return labels, scores


@pytest.mark.parametrize("seed", range(40))
def test_the_falling_order_assumption_and_the_lemmas_hold(seed):
    labels, scores = random_case(random.Random(seed))
    negatives = sorted((s for y, s in zip(labels, scores, strict=True) if not y), reverse=True)  # t_1 >= t_2 >= ...
    positives = sorted((s for y, s in zip(labels, scores, strict=True) if y), reverse=True)  # s_1 >= s_2 >= ...
    m_pos, m_neg = len(positives), len(negatives)
    for sigma in sorted(set(scores)) + [-1, 9]:
        n = sum(1 for t in negatives if t > sigma)
        b = sum(1 for t in negatives if t == sigma)
        r = sum(1 for t in negatives if t < sigma)
        assert r >= 0 and n + b + r == m_neg  # every negative is above, tied with or below sigma
        for j, t in enumerate(negatives, start=1):
            assert (sigma < t) == (j <= n)  # negatives in falling order, the first equation
            assert (sigma == t) == (n < j <= n + b)  # and the second
        lost = sum(Fraction(1) if sigma < t else Fraction(1, 2) if sigma == t else 0 for t in negatives)
        assert lost == n + Fraction(b, 2)  # one positive's lost pairs
    # groups: distinct scores from the top; T_g positives above group g; the group's points on the ROC curve
    levels = sorted(set(scores), reverse=True)
    points = literal_roc_points(labels, scores)
    total = Fraction(0)
    for sigma in levels:
        above = sum(1 for s in positives if s > sigma)
        group = [i for i, s in enumerate(positives) if s == sigma]
        assert group == list(range(above, above + len(group)))  # the group's positives are consecutive, tied
        n = sum(1 for t in negatives if t > sigma)
        b = sum(1 for t in negatives if t == sigma)
        x0, x1 = Fraction(n, m_neg), Fraction(n + b, m_neg)
        y0, y1 = Fraction(above, m_pos), Fraction(above + len(group), m_pos)
        g = levels.index(sigma)  # the curve passes through the points around group g: (2.18), (2.19)
        assert (x0, y0) == points[g] and (x1, y1) == points[g + 1]
        trapezoid = Fraction(1, 2) * (y1 - y0) * (x0 + x1)  # L_g
        assert len(group) * (n + Fraction(b, 2)) == m_pos * m_neg * trapezoid  # the group lemma
        total += trapezoid
    assert total == rank_loss_pairs(labels, scores) == 1 - auc_trapezoids(labels, scores)


@pytest.mark.parametrize("seed", range(40))
def test_reference_routes_agree_with_each_other_and_with_melearn(seed):
    labels, scores = random_case(random.Random(100 + seed))
    loss = rank_loss_pairs(labels, scores)
    assert sum(share for _, share in positive_shares(labels, scores)) == loss
    assert sum(area for _, area in strip_trapezoids(labels, scores)) == loss
    assert area_left_between(roc_points_exact(labels, scores), 0, 1) == loss
    assert rank_loss_whole_ties(labels, scores) >= loss
    y, s = np.array(labels), np.array(scores, dtype=float)
    assert rank_loss(y, s) == float(loss) and roc_auc(y, s) == float(1 - loss)
    assert expected_total_cost(y, s) == pytest.approx(
        float(envelope_area_exact(roc_points_exact(labels, scores))), rel=0, abs=1e-15
    )


def test_the_running_example_values():
    labels, scores = PUMPKIN_EXAMPLE.labels, PUMPKIN_EXAMPLE.scores
    assert rank_loss_pairs(labels, scores) == Fraction(11, 32)
    assert rank_loss_whole_ties(labels, scores) == Fraction(3, 8)
    assert envelope_area_exact(roc_points_exact(labels, scores)) == Fraction(3, 16)
    assert cost_sensitive_error_literal([1, 0, 0, 0], [0, 1, 0, 0], 7, 3) == Fraction(10, 4)
