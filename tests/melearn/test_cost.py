"""Tests for melearn.cost, formulas (2.23)-(2.25) and the cost curve, and for melearn.plotting.cost_curve.

Independent routes: the formulas evaluated literally in exact ``Fraction`` arithmetic; (2.23) as a loop over the
samples and through scikit-learn's confusion matrix; the lower envelope by brute force (every pairwise crossing of
the lines, exact fractions) and by dense numerical integration with a proved error bound; Monte Carlo over the
operating conditions. Each route is also shown to catch a deliberately wrong implementation.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from sklearn.metrics import confusion_matrix, zero_one_loss  # noqa: E402

import melearn  # noqa: E402
import melearn.cost as cost_module  # noqa: E402
from melearn import (  # noqa: E402
    Derivation,
    DerivationError,
    cost_curve,
    cost_sensitive_error,
    expected_total_cost,
    normalized_cost,
    positive_probability_cost,
    roc_curve,
)
from melearn.cost import _upper_hull  # noqa: E402
from melearn.plotting.cost_curve import hull_colors, plot_cost_curve, plot_roc_hull  # noqa: E402
from melearn.reference.cost import cost_sensitive_error_literal, envelope_area_exact, roc_points_exact  # noqa: E402

# -- independent reference routes ------------------------------------------------------------------------------
# (2.23) sample by sample, the ROC points and the area under the envelope of their lines in exact fractions: the
# literal routes of melearn.reference, which the book pages use too


def envelope_area_dense(fpr, tpr, n_grid):
    """The envelope on a uniform grid (np.min over all lines) and the trapezoid rule; returns (area, h).

    The grid is taken 1000 points at a time: the whole grid times 3,000 lines would be a 480 MB array.
    """
    x = np.linspace(0.0, 1.0, n_grid)
    env = np.concatenate(
        [
            np.min(np.outer(1 - part, fpr) + np.outer(part, 1 - tpr), axis=1)
            for part in np.array_split(x, -(-n_grid // 1000))
        ]
    )
    h = 1.0 / (n_grid - 1)
    return float(h * (env.sum() - 0.5 * (env[0] + env[-1]))), h


labelled_scores = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5)), min_size=2, max_size=14).filter(
    lambda v: len({yi for yi, _ in v}) == 2
)


# -- (2.23) cost-sensitive error ----------------------------------------------------------------------------------
def test_cost_sensitive_error_hand_example():
    # y = (+, +, -, -), predictions (-, +, +, -): one false negative (cost01 = 5), one false positive (cost10 = 1)
    assert cost_sensitive_error([1, 1, 0, 0], [0, 1, 1, 0], 5, 1) == 1.5
    assert cost_sensitive_error([1, 1, -1, -1], [-1, 1, 1, -1], 5, 1) == 1.5
    assert cost_sensitive_error([True, True, False, False], [False, True, True, False], 5, 1) == 1.5


def test_cost_orientation_false_negative_costs_cost01():
    # the book's class 0 is the positive class: cost01 prices a positive predicted negative
    y = [1, 0, 0, 0]
    assert cost_sensitive_error(y, [0, 0, 0, 0], cost01=7, cost10=3) == 7 / 4  # one FN
    assert cost_sensitive_error(y, [1, 1, 0, 0], cost01=7, cost10=3) == 3 / 4  # one FP
    # a swapped implementation would give 3/4 for the first: show that the two orientations do differ here
    assert cost_sensitive_error(y, [0, 0, 0, 0], cost01=3, cost10=7) != cost_sensitive_error(y, [0, 0, 0, 0], 7, 3)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60),
    st.floats(0, 100, allow_nan=False),
    st.floats(0.01, 100, allow_nan=False),
)
def test_cost_sensitive_error_matches_literal_loop(pairs, c01, c10):
    y = [int(a) for a, _ in pairs]
    pred = [int(b) for _, b in pairs]
    assert np.isclose(
        cost_sensitive_error(y, pred, c01, c10),
        float(cost_sensitive_error_literal(y, pred, c01, c10)),
        rtol=1e-12,
        atol=0,
    )


def test_cost_sensitive_error_matches_sklearn_confusion_matrix():
    rng = np.random.default_rng(20231)
    y = rng.integers(0, 2, 500)
    pred = np.where(rng.random(500) < 0.8, y, 1 - y)
    tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    assert np.isclose(cost_sensitive_error(y, pred, 4.0, 0.5), (fn * 4.0 + fp * 0.5) / 500, rtol=1e-14)
    # with unit costs it is the error rate (2.4)
    assert np.isclose(cost_sensitive_error(y, pred, 1, 1), zero_one_loss(y, pred), rtol=1e-14)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=2, max_size=40).filter(
        lambda v: len({a for a, _ in v}) == 2
    ),
    st.integers(0, 9),
    st.integers(1, 9),
)
def test_cost_sensitive_error_in_rates_is_normalized_cost_times_maximum(pairs, c01, c10):
    """(2.23) = p FNR cost01 + (1-p) FPR cost10 with p = m+/m, i.e. (2.25) at p = m+/m times its denominator."""
    y = np.array([a for a, _ in pairs])
    pred = np.array([b for _, b in pairs])
    m, m_pos = len(y), int(y.sum())
    fn = int(np.sum((y == 1) & (pred == 0)))
    fp = int(np.sum((y == 0) & (pred == 1)))
    p = Fraction(m_pos, m)
    fnr, fpr = Fraction(fn, m_pos), Fraction(fp, m - m_pos)
    exact = p * fnr * c01 + (1 - p) * fpr * c10
    assert exact == Fraction(fn * c01 + fp * c10, m)
    assert np.isclose(cost_sensitive_error(y, pred, c01, c10), float(exact), rtol=1e-12, atol=1e-15)
    norm = normalized_cost(float(fnr), float(fpr), float(p), c01, c10)
    assert np.isclose(norm * float(p * c01 + (1 - p) * c10), float(exact), rtol=1e-12, atol=1e-15)


def test_cost_sensitive_error_allows_one_class():
    assert cost_sensitive_error([1, 1, 1], [1, 0, 0], 2, 9) == 4 / 3


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([], [], 1, 1), "y_true is empty"),
        (([1, 0], [1], 1, 1), "length mismatch"),
        (([1, 2], [1, 0], 1, 1), "y_true must hold binary labels"),
        (([1, 0], [0.5, 0], 1, 1), "y_pred must hold binary labels"),
        (([1, 0], [1, 0], -1, 1), "cost01 must be non-negative"),
        (([1, 0], [1, 0], 1, np.nan), "cost10 must be finite"),
        (([1, 0], [1, 0], np.inf, 1), "cost01 must be finite"),
        (([1, 0], [1, 0], True, 1), "cost01 must be a real number"),
        (([1, 0], [1, 0], "2", 1), "cost01 must be a real number"),
        (([1, 0], [1, 0], 0, 0.0), "cost01 and cost10 are both zero"),
    ],
)
def test_cost_sensitive_error_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        cost_sensitive_error(*args)


# -- (2.24) positive probability cost ------------------------------------------------------------------------------
def test_positive_probability_cost_exact():
    for p, c01, c10 in itertools.product([Fraction(k, 8) for k in range(9)], [1, 2, 5], [1, 3, 7]):
        exact = p * c01 / (p * c01 + (1 - p) * c10)
        assert np.isclose(positive_probability_cost(float(p), c01, c10), float(exact), rtol=1e-14, atol=0)


def test_positive_probability_cost_special_values():
    assert positive_probability_cost(0.0, 3, 2) == 0.0
    assert positive_probability_cost(1.0, 3, 2) == 1.0
    assert positive_probability_cost(0.3, 2.5, 2.5) == pytest.approx(0.3, rel=1e-15)  # equal costs: P(+)cost = p
    # only the odds times the cost ratio matter: a 4x dearer false negative at p = 1/2 is a 4:1 prior at equal cost
    assert np.isclose(positive_probability_cost(0.5, 4, 1), positive_probability_cost(0.8, 1, 1), rtol=1e-15)
    assert positive_probability_cost(0.0, 0, 1) == 0.0  # cost01 = 0: positives cost nothing to miss
    assert positive_probability_cost(0.5, 1, 0) == 1.0


def test_positive_probability_cost_shapes_and_types():
    assert isinstance(positive_probability_cost(0.25, 1, 1), float)
    out = positive_probability_cost(np.linspace(0, 1, 12).reshape(3, 4), 2, 1)
    assert isinstance(out, np.ndarray) and out.shape == (3, 4)
    assert np.all(np.diff(out.ravel()) > 0)  # strictly increasing in p for positive costs


@settings(max_examples=100, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0.01, 50), st.floats(0.01, 50))
def test_positive_probability_cost_monotone_and_in_unit_interval(p1, p2, c01, c10):
    a, b = positive_probability_cost(min(p1, p2), c01, c10), positive_probability_cost(max(p1, p2), c01, c10)
    assert 0.0 <= a <= b <= 1.0


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((1.5, 1, 1), "p must lie in"),
        ((-0.1, 1, 1), "p must lie in"),
        ((np.nan, 1, 1), "p contains NaN"),
        (([], 1, 1), "p is empty"),
        ((True, 1, 1), "p must be a number"),
        (("a", 1, 1), "p must be a number"),
        ((0.5, 0, 0), "both zero"),
        ((0.5, 1, -2), "cost10 must be non-negative"),
        ((0.0, 1, 0), "p = 0 with cost10 = 0"),
        (([0.5, 1.0], 0, 1), "p = 1 with cost01 = 0"),
    ],
)
def test_positive_probability_cost_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        positive_probability_cost(*args)


# -- (2.25) normalized cost ------------------------------------------------------------------------------------------
def test_normalized_cost_exact():
    grid = [Fraction(k, 4) for k in range(5)]
    for fnr, fpr, p, c01, c10 in itertools.product(grid, grid, grid[1:-1], [1, 3], [2, 5]):
        exact = (fnr * p * c01 + fpr * (1 - p) * c10) / (p * c01 + (1 - p) * c10)
        got = normalized_cost(float(fnr), float(fpr), float(p), c01, c10)
        assert np.isclose(got, float(exact), rtol=1e-14, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0.001, 0.999), st.floats(0.01, 100), st.floats(0.01, 100))
def test_normalized_cost_is_linear_in_positive_probability_cost(fnr, fpr, p, c01, c10):
    """The key identity: cost_norm = FNR * P(+)cost + FPR * (1 - P(+)cost)."""
    pc = positive_probability_cost(p, c01, c10)
    assert np.isclose(normalized_cost(fnr, fpr, p, c01, c10), fnr * pc + fpr * (1 - pc), rtol=1e-12, atol=1e-15)


def test_normalized_cost_extremes():
    assert normalized_cost(1, 1, 0.3, 2, 7) == pytest.approx(1.0, rel=1e-15)  # the worst classifier: the maximum
    assert normalized_cost(0, 0, 0.3, 2, 7) == 0.0
    assert normalized_cost(1, 0, 0.0, 2, 7) == 0.0  # no positives: only false positives can cost
    assert normalized_cost(0, 1, 1.0, 2, 7) == 0.0  # no negatives: only false negatives can cost


def test_normalized_cost_broadcasts(running_example):
    roc = roc_curve(running_example.y, running_example.s)
    one_p = normalized_cost(1 - roc.tpr, roc.fpr, 0.5, 1, 1)
    assert one_p.shape == roc.fpr.shape
    p_grid = np.linspace(0.1, 0.9, 5)[:, None]
    table = normalized_cost(1 - roc.tpr, roc.fpr, p_grid, 1, 1)
    assert table.shape == (5, roc.fpr.size)
    assert np.allclose(table[2], one_p, rtol=0, atol=1e-15)
    assert isinstance(normalized_cost(0.1, 0.2, 0.5, 1, 1), float)
    with pytest.raises(ValueError, match="fnr, fpr and p must broadcast together"):
        normalized_cost([0.1, 0.2], [0.1, 0.2, 0.3], 0.5, 1, 1)


def test_normalized_cost_at_empirical_prior_reproduces_cost_sensitive_error():
    """For each threshold of a scorer: (2.25) at p = m+/m, times p cost01 + (1-p) cost10, is (2.23)."""
    rng = np.random.default_rng(77)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    roc = roc_curve(y, s)
    p, c01, c10 = y.mean(), 5.0, 1.0
    norm = normalized_cost(1 - roc.tpr, roc.fpr, p, c01, c10)
    direct = np.array([cost_sensitive_error(y, s >= t, c01, c10) for t in roc.thresholds])
    assert np.allclose(norm * (p * c01 + (1 - p) * c10), direct, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((1.2, 0.1, 0.5, 1, 1), "fnr must lie in"),
        ((0.1, -0.1, 0.5, 1, 1), "fpr must lie in"),
        ((0.1, 0.1, 2.0, 1, 1), "p must lie in"),
        ((np.inf, 0.1, 0.5, 1, 1), "fnr contains NaN or inf"),
        (([], 0.1, 0.5, 1, 1), "fnr is empty"),
        ((0.1, 0.1, 0.5, 0, 0), "both zero"),
        ((0.1, 0.1, 1.0, 0, 3), "p = 1 with cost01 = 0"),
        ((0.1, 0.1, 0.0, 3, 0), "p = 0 with cost10 = 0"),
    ],
)
def test_normalized_cost_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        normalized_cost(*args)


# -- the key identity, as a checked derivation (and a wrong one that must fail) ------------------------------------
def _identity_symbols():
    return sp.symbols("p c_01 c_10 FNR FPR P", positive=True)


def test_key_identity_derivation_checks_and_a_wrong_step_fails():
    p, c01, c10, fnr, fpr, P = _identity_symbols()
    pc = p * c01 / (p * c01 + (1 - p) * c10)
    definition = melearn.Rule.definition("(2.24)", {P: pc})
    norm = (fnr * p * c01 + fpr * (1 - p) * c10) / (p * c01 + (1 - p) * c10)
    Derivation(fnr * P + fpr * (1 - P)).step(norm, "substitute (2.24)", rules=[definition]).check()
    with pytest.raises(DerivationError):  # P and 1 - P swapped
        Derivation(fnr * (1 - P) + fpr * P).step(norm, "substitute (2.24)", rules=[definition]).check()
    with pytest.raises(DerivationError):  # the rule is needed: without it the step is not algebra
        Derivation(fnr * P + fpr * (1 - P)).step(norm, "substitute (2.24)").check()


# -- the upper hull -------------------------------------------------------------------------------------------------
def _counts(y, s):
    roc = roc_curve(y, s)
    m_pos, m_neg = int(np.sum(np.asarray(y) == 1)), int(np.sum(np.asarray(y) != 1))
    return np.rint(roc.fpr * m_neg).astype(np.int64), np.rint(roc.tpr * m_pos).astype(np.int64)


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_peeling_and_monotone_chain_agree(data):
    fp, tp = _counts([a for a, _ in data], [float(b) for _, b in data])
    peeled = _upper_hull(fp, tp)
    chained = _upper_hull(fp, tp, max_rounds=0)  # straight to Andrew's monotone chain
    assert peeled.tolist() == chained.tolist()
    assert peeled[0] == 0 and peeled[-1] == fp.size - 1
    # strictly concave: every interior turn is a strict right turn, in exact integers
    x, y = fp[peeled], tp[peeled]
    assert np.all((x[1:-1] - x[:-2]) * (y[2:] - y[:-2]) - (y[1:-1] - y[:-2]) * (x[2:] - x[:-2]) < 0)


def test_peeling_and_monotone_chain_agree_on_a_large_curve():
    rng = np.random.default_rng(5)
    y = rng.random(20000) < 0.4
    fp, tp = _counts(y, rng.normal(size=20000) + 0.8 * y)
    assert _upper_hull(fp, tp).tolist() == _upper_hull(fp, tp, max_rounds=0).tolist()
    assert _upper_hull(fp, tp, max_rounds=2).tolist() == _upper_hull(fp, tp).tolist()  # peel, then finish by chain


# -- the cost curve and the expected total cost --------------------------------------------------------------------
def test_seed_example_exact(running_example):
    exact = envelope_area_exact(roc_points_exact(running_example.y.tolist(), running_example.s.tolist()))
    assert exact == Fraction(3, 16)
    assert np.isclose(expected_total_cost(running_example.y, running_example.s), float(exact), rtol=1e-15, atol=0)
    curve = cost_curve(running_example.y, running_example.s)
    assert curve.fpr.tolist() == [0.0, 0.0, 0.75, 1.0]
    assert curve.tpr.tolist() == [0.0, 0.25, 1.0, 1.0]
    assert curve.thresholds.tolist() == [np.inf, 0.77, 0.23, 0.15]
    assert curve.p_cost.tolist() == [0.0, 0.0, 0.5, 1.0, 1.0]
    assert np.allclose(curve.norm_cost, [0, 0, 0.375, 0, 0], rtol=0, atol=1e-15)


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_expected_total_cost_matches_exact_fractions(data):
    y = [a for a, _ in data]
    s = [float(b) for _, b in data]
    exact = envelope_area_exact(roc_points_exact(y, s))
    assert abs(expected_total_cost(y, s) - float(exact)) <= 1e-14


@pytest.mark.parametrize(("m", "seed", "shift"), [(60, 1, 0.5), (400, 2, 1.0), (3000, 3, 1.5), (3000, 4, 0.0)])
def test_expected_total_cost_matches_dense_integration(m, seed, shift):
    """The envelope is concave with slopes from +1 down to -1, so on a grid of step h the trapezoid rule
    underestimates it, by at most (total slope decrease) * h**2 / 8 <= h**2 / 4."""
    rng = np.random.default_rng(seed)
    y = rng.random(m) < 0.35
    s = rng.normal(size=m) + shift * y
    roc = roc_curve(y, s)
    dense, h = envelope_area_dense(roc.fpr, roc.tpr, 20001)
    exact = expected_total_cost(y, s)
    assert -1e-12 <= exact - dense <= h**2 / 4 + 1e-12


def test_envelope_is_the_minimum_over_all_lines():
    """At its break points and at the middle of every piece, the envelope is the smallest line of any ROC point."""
    rng = np.random.default_rng(11)
    y = rng.random(500) < 0.5
    s = np.round(rng.normal(size=500) + y, 1)  # ties
    roc = roc_curve(y, s)
    curve = cost_curve(y, s)
    x = np.concatenate((curve.p_cost, 0.5 * (curve.p_cost[1:] + curve.p_cost[:-1])))
    env = np.interp(x, curve.p_cost, curve.norm_cost)
    brute = np.min(np.outer(1 - x, roc.fpr) + np.outer(x, 1 - roc.tpr), axis=1)
    assert np.allclose(env, brute, rtol=0, atol=1e-14)
    # the hull vertices are ROC points, and each one's line is the envelope on its piece
    roc_points = set(zip(roc.fpr.tolist(), roc.tpr.tolist(), strict=True))
    assert set(zip(curve.fpr.tolist(), curve.tpr.tolist(), strict=True)) <= roc_points
    mid = 0.5 * (curve.p_cost[1:] + curve.p_cost[:-1])
    assert np.allclose(
        (1 - curve.tpr) * mid + curve.fpr * (1 - mid), np.interp(mid, curve.p_cost, curve.norm_cost), rtol=0, atol=1e-14
    )
    assert np.all(np.diff(curve.p_cost) >= 0) and curve.p_cost[0] == 0 and curve.p_cost[-1] == 1


def test_a_check_catches_an_envelope_without_the_hull(running_example, monkeypatch):
    """Mutation: crossing consecutive ROC points' lines (no convex hull) gets a non-convex ROC curve wrong."""
    exact = float(envelope_area_exact(roc_points_exact(running_example.y.tolist(), running_example.s.tolist())))
    monkeypatch.setattr(cost_module, "_upper_hull", lambda x, y: np.arange(x.size))
    wrong = expected_total_cost(running_example.y, running_example.s)
    assert abs(wrong - exact) > 1e-3


def test_monte_carlo_over_operating_conditions():
    """Draw P(+)cost uniformly, pick the best threshold for each draw, average its normalized cost."""
    rng = np.random.default_rng(2024)
    y = rng.random(300) < 0.4
    s = rng.normal(size=300) + y
    roc = roc_curve(y, s)
    draws = rng.random(20000)
    best = np.min(np.outer(1 - draws, roc.fpr) + np.outer(draws, 1 - roc.tpr), axis=1)
    tolerance = 4 * best.std(ddof=1) / np.sqrt(draws.size)
    assert abs(best.mean() - expected_total_cost(y, s)) < tolerance


def test_perfect_constant_and_inverted_scores():
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1])
    assert expected_total_cost(y, y * 2.0 + 0.1) == 0.0  # separates the classes
    assert expected_total_cost(y, np.full(8, 0.3)) == 0.25  # min(P, 1 - P): the trivial classifiers only
    assert expected_total_cost(y, -y.astype(float)) == 0.25  # inverted: no threshold beats the trivial ones


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_properties(data):
    y = np.array([a for a, _ in data])
    s = np.array([b for _, b in data], dtype=np.int64)
    value = expected_total_cost(y, s)
    assert 0.0 <= value <= 0.25 + 1e-15
    # only the order of the scores matters: exact equality under strictly increasing transforms
    for transform in (lambda v: 2.0 * v + 1.0, lambda v: np.exp(v), lambda v: v.astype(float) ** 3 - 10.0):
        assert expected_total_cost(y, transform(s)) == value
    # label encodings
    assert expected_total_cost(np.where(y == 1, 1, -1), s) == value
    assert expected_total_cost(y == 1, s) == value
    # swapping the classes and reversing the scores mirrors the plane (P -> 1 - P): the same area
    assert np.isclose(expected_total_cost(1 - y, -s), value, rtol=0, atol=1e-14)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([1, 1, 1], [0.1, 0.2, 0.3]), "only positive"),
        (([1, 0], [0.1]), "length mismatch"),
        (([1, 0], [0.1, np.nan]), "y_score contains NaN"),
        (([], []), "empty"),
    ],
)
def test_expected_total_cost_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        expected_total_cost(*args)
    with pytest.raises(ValueError, match=match):
        cost_curve(*args)


# -- plotting ----------------------------------------------------------------------------------------------------------
@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def test_plot_cost_curve_draws_every_line_and_the_envelope(running_example, ax):
    assert plot_cost_curve(ax, running_example.y, running_example.s) is ax
    roc = roc_curve(running_example.y, running_example.s)
    (collection,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    segments = collection.get_segments()
    assert len(segments) == roc.fpr.size
    for seg, fpr, tpr in zip(segments, roc.fpr, roc.tpr, strict=True):
        assert np.allclose(seg, [[0, fpr], [1, 1 - tpr]])  # from (0, FPR) to (1, FNR)
    curve = cost_curve(running_example.y, running_example.s)
    envelope = [line for line in ax.lines if line.get_label().startswith("lower envelope")]
    assert len(envelope) == 1 and "0.1875" in envelope[0].get_label()
    assert np.allclose(envelope[0].get_xydata(), np.column_stack((curve.p_cost, curve.norm_cost)))
    assert ax.get_xlim() == (0.0, 1.0) and ax.get_ylim() == (0.0, 1.0)
    assert "P(+)" in ax.get_xlabel() and "norm" in ax.get_ylabel()
    assert len(ax.lines) == 1 + curve.fpr.size  # the envelope and one dashed line per hull vertex


def test_plot_roc_hull_and_colours(running_example, ax):
    assert plot_roc_hull(ax, running_example.y, running_example.s) is ax
    curve = cost_curve(running_example.y, running_example.s)
    hull_line = [line for line in ax.lines if line.get_label() == "convex hull"][0]
    assert np.allclose(hull_line.get_xydata(), np.column_stack((curve.fpr, curve.tpr)))
    assert hull_colors(4).shape == (4, 4)


@pytest.mark.parametrize("func", [plot_cost_curve, plot_roc_hull])
def test_plotting_rejects_bad_input(running_example, func, ax):
    with pytest.raises(ValueError, match="ax must be a matplotlib Axes"):
        func(None, running_example.y, running_example.s)
    with pytest.raises(ValueError, match="only negative"):
        func(ax, [0, 0], [0.1, 0.2])
