"""Tests for melearn.precision_recall_f: the P-R curve and the break-even point (section 2.3.2).

Routes: scikit-learn's precision_recall_curve after aligning its conventions; the book's procedure (cut after
each sample, or at each threshold, and count with melearn.precision / recall); the BEP against an exact
expectation (fractions) over every order of the tied samples; properties with hypothesis; every bad input.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import precision_recall_curve

from melearn import break_even_point, pr_curve, precision, recall
from melearn.precision_recall_f import PrCurve


def _scored(seed, m=300, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    s = rng.normal(size=m) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    return y, s


# -- the P-R curve ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ties", [False, True])
def test_pr_curve_matches_sklearn_after_aligning_conventions(seed, ties):
    y, s = _scored(seed, ties=ties)
    ours = pr_curve(y, s)
    p, r, t = precision_recall_curve(y, s)
    # scikit-learn: increasing thresholds, and a final (recall 0, precision 1) point with no threshold
    assert (p[-1], r[-1]) == (1.0, 0.0) and len(p) == len(t) + 1
    np.testing.assert_array_equal(ours.thresholds, t[::-1])
    np.testing.assert_allclose(ours.precision, p[:-1][::-1], rtol=1e-15, atol=0)
    np.testing.assert_allclose(ours.recall, r[:-1][::-1], rtol=1e-15, atol=0)


def test_pr_curve_small_case_exact(running_example):
    # the eight samples of the book's companion example: the tie at 0.47 gives one point
    y, s = running_example.y, running_example.s
    c = pr_curve(y, s)
    assert c.thresholds.tolist() == [0.77, 0.62, 0.58, 0.47, 0.33, 0.23, 0.15]
    tp = [1, 1, 2, 3, 3, 4, 4]
    n = [1, 2, 3, 5, 6, 7, 8]
    assert c.precision.tolist() == [float(Fraction(a, b)) for a, b in zip(tp, n, strict=True)]
    assert c.recall.tolist() == [float(Fraction(a, 4)) for a in tp]
    assert isinstance(c, PrCurve) and c._fields == ("precision", "recall", "thresholds")


@pytest.mark.parametrize("seed", [3, 4])
def test_pr_curve_is_precision_and_recall_at_each_threshold(seed):
    # the book's procedure: predict positive every sample scoring at least the threshold, count, divide
    y, s = _scored(seed, m=120, ties=True)
    c = pr_curve(y, s)
    for t, p, r in zip(c.thresholds, c.precision, c.recall, strict=True):
        pred = (s >= t).astype(int)
        assert p == precision(y, pred) and r == recall(y, pred)


@settings(max_examples=80)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40))
def test_pr_curve_properties(samples):
    y = np.array([a for a, _ in samples])
    s = np.array([b for _, b in samples], dtype=float)
    assume(y.any() and not y.all())
    c = pr_curve(y, s)
    assert len(c.thresholds) == len(np.unique(s)) == len(c.precision) == len(c.recall)
    assert np.all(np.diff(c.thresholds) < 0)
    assert np.all(np.diff(c.recall) >= 0) and c.recall[-1] == 1.0
    assert c.precision[-1] == pytest.approx(y.mean(), rel=1e-15)  # everything predicted positive
    assert np.all((c.precision > 0) | (c.recall == 0)) and np.all(c.precision <= 1)
    # the order of the samples does not matter
    perm = np.random.default_rng(len(samples)).permutation(len(y))
    c2 = pr_curve(y[perm], s[perm])
    for a, b in zip(c, c2, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "y",
    [[1, 0, 1, 1, 0], [1, -1, 1, 1, -1], [True, False, True, True, False], [1.0, 0.0, 1.0, 1.0, 0.0]],
)
def test_pr_curve_label_codings(y):
    c = pr_curve(y, [0.9, 0.8, 0.7, 0.3, 0.1])
    assert c.precision.tolist() == [1.0, 0.5, 2 / 3, 0.75, 0.6]


# -- the break-even point ---------------------------------------------------------------------------------------
def bep_brute_force(y, s) -> Fraction:
    """E[TP among the m+ top-ranked] / m+, the expectation over every order of tied samples, exactly."""
    y, s = np.asarray(y, dtype=bool), np.asarray(s, dtype=float)
    m_pos = int(y.sum())
    groups = [np.flatnonzero(s == v) for v in sorted(set(s.tolist()), reverse=True)]
    total, count = Fraction(0), 0
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = np.concatenate(parts)
        total += int(y[order[:m_pos]].sum())
        count += 1
    return total / count / m_pos


def test_bep_small_cases_exact(running_example):
    assert break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.4, 0.3, 0.1]) == 0.5
    # the cut after the m+ = 2 top-ranked samples splits the tie at 0.8: 1 + 1/2 positives expected
    assert break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.8, 0.3, 0.1]) == 0.75
    y8, s8 = running_example.y.tolist(), running_example.s.tolist()
    assert break_even_point(y8, s8) == float(Fraction(5, 8)) == float(bep_brute_force(y8, s8))
    # all scores tied: the expected precision of any m+ samples is the positive rate
    assert break_even_point([1, 0, 0, 1, 0], [0.5] * 5) == 0.4
    # a perfect ranking
    assert break_even_point([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8]) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3)), min_size=2, max_size=7))
def test_bep_with_ties_equals_the_expectation_over_tie_orders(samples):
    y = np.array([a for a, _ in samples])
    s = np.array([b for _, b in samples], dtype=float)
    assume(y.any() and not y.all())
    assume(math.prod(math.factorial(int(k)) for k in np.unique(s, return_counts=True)[1]) <= 5040)
    assert break_even_point(y, s) == float(bep_brute_force(y, s))


@settings(max_examples=60)
@given(st.lists(st.booleans(), min_size=2, max_size=60), st.integers(0, 2**32 - 1))
def test_bep_without_ties_is_where_the_curve_meets_p_equals_r(labels, seed):
    y = np.array(labels)
    assume(y.any() and not y.all())
    s = np.random.default_rng(seed).permutation(len(y)).astype(float)  # distinct scores
    c = pr_curve(y, s)
    m_pos = int(y.sum())
    bep = break_even_point(y, s)
    # the point of the curve with m+ samples predicted positive has P = R = BEP
    k = m_pos - 1
    assert c.precision[k] == c.recall[k] == bep
    assert bep == float(Fraction(int(y[np.argsort(-s)][:m_pos].sum()), m_pos))


def test_a_bep_that_ignores_ties_is_caught():
    # breaking the tie by position (a stable sort) is not the expectation: the brute force catches it
    y, s = [1, 0, 1, 0, 0], [0.9, 0.8, 0.8, 0.3, 0.1]
    order = np.argsort(-np.asarray(s), kind="stable")
    naive = np.asarray(y)[order][:2].mean()
    assert naive != float(bep_brute_force(y, s)) == break_even_point(y, s)


@pytest.mark.parametrize("seed", [0, 1])
def test_bep_is_invariant_to_sample_order_and_label_coding(seed):
    y, s = _scored(seed, m=200, ties=True)
    perm = np.random.default_rng(seed + 10).permutation(len(y))
    assert break_even_point(y, s) == break_even_point(y[perm], s[perm]) == break_even_point(2 * y - 1, s)


# -- bad input --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", [pr_curve, break_even_point])
@pytest.mark.parametrize(
    "y_true, y_score, match",
    [
        ([], [], "y_true is empty"),
        ([1, 0], [0.5], "length mismatch"),
        ([1, 0, 2], [0.1, 0.2, 0.3], "y_true must hold binary labels"),
        ([1, 0, 1], [0.1, np.nan, 0.3], "y_score contains NaN or inf"),
        ([1, 0, 1], [0.1, np.inf, 0.3], "y_score contains NaN or inf"),
        ([1, 1, 1], [0.1, 0.2, 0.3], "y_true holds only positive samples"),
        ([0, 0], [0.1, 0.2], "y_true holds only negative samples"),
        ([1, 0], [[0.1, 0.2]], "y_score must be 1-dimensional"),
        ([1, 0], ["a", "b"], "y_score must be numeric"),
    ],
)
def test_bad_input(func, y_true, y_score, match):
    with pytest.raises(ValueError, match=match):
        func(y_true, y_score)
