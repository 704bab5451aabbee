"""Tests of formulas (2.31) and (2.32): paired t-test and 5x2cv t-test (melearn.paired_t_tests).

Independent routes: exact rational arithmetic with fractions.Fraction; scipy.stats.ttest_rel; mlxtend's
paired_ttest_5x2cv (whose 5x2 differences are reproduced here from its own splits);
Monte Carlo and adaptive quadrature for the sizes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, stats

from melearn import cv52_t_test, paired_t_test
from melearn.paired_t_tests import (
    cv52_t_statistic,
    cv52_t_test_size,
    paired_t_statistic,
    paired_t_test_size,
)


# -- (2.31) ------------------------------------------------------------------------------------------------------
def _tau_squared_exact(a, b) -> Fraction:
    """tau_t^2 = k mu^2 / sigma^2 of (2.31) in exact rationals, sigma^2 with denominator k - 1."""
    deltas = [Fraction(x) - Fraction(y) for x, y in zip(a, b, strict=True)]
    k = len(deltas)
    mu = sum(deltas) / k
    sigma2 = sum((d - mu) ** 2 for d in deltas) / (k - 1)
    return k * mu * mu / sigma2


def test_paired_t_hand_case_exact():
    a = [Fraction(12, 100), Fraction(10, 100), Fraction(15, 100), Fraction(11, 100), Fraction(9, 100)]
    b = [Fraction(10, 100), Fraction(11, 100), Fraction(12, 100), Fraction(10, 100), Fraction(9, 100)]
    # deltas 0.02, -0.01, 0.03, 0.01, 0: mu = 0.01, sigma^2 = 0.001/4, tau^2 = 5 * 1e-4 / 2.5e-4 = 2
    assert _tau_squared_exact(a, b) == 2
    r = paired_t_test([float(x) for x in a], [float(x) for x in b], alpha=0.05)
    assert r.statistic == pytest.approx(math.sqrt(2), rel=1e-12)
    assert r.df == 4 and r.mean == pytest.approx(0.01) and r.std == pytest.approx(math.sqrt(0.00025))
    assert r.critical_value == pytest.approx(2.7764451051977934, rel=1e-12)
    assert r.reject is False


def test_paired_t_uses_k_minus_1_in_sigma():
    # with the population variance (denominator k) tau^2 would be 2.5, not 2: a wrong ddof is caught
    r = paired_t_test([0.12, 0.10, 0.15, 0.11, 0.09], [0.10, 0.11, 0.12, 0.10, 0.09])
    assert r.statistic**2 == pytest.approx(2.0, rel=1e-12)
    assert not np.isclose(r.statistic**2, 2.5)


@pytest.mark.parametrize("seed", range(8))
def test_paired_t_matches_scipy_ttest_rel(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 12))
    a = rng.uniform(0.05, 0.3, k)
    b = a + rng.normal(0.02 * (seed % 3), 0.02, k)
    alpha = float(rng.choice([0.01, 0.05, 0.1]))
    r = paired_t_test(a, b, alpha=alpha)
    ref = stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(abs(ref.statistic), rel=1e-10)  # the book's tau_t is |t|
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert r.reject == (ref.pvalue <= alpha)
    assert float(_tau_squared_exact(a, b)) == pytest.approx(r.statistic**2, rel=1e-9)
    assert np.sign(r.mean) == np.sign(ref.statistic)


def test_paired_t_critical_values_are_the_two_sided_t_quantiles():
    r = paired_t_test(
        [0.1, 0.2, 0.15, 0.3, 0.22, 0.1, 0.12, 0.11, 0.25, 0.2],
        [0.12, 0.18, 0.2, 0.25, 0.2, 0.13, 0.1, 0.16, 0.2, 0.2],
        alpha=0.05,
    )
    assert r.critical_value == pytest.approx(2.262157, abs=1e-6)  # t_{0.025, 9}
    assert r.df == 9


def test_paired_t_statistic_vectorised_equals_loop():
    rng = np.random.default_rng(3)
    deltas = rng.normal(0.0, 0.05, size=(20, 10))
    batch = paired_t_statistic(deltas)
    # error rates 0.5 + d (in [0, 1]) against 0.5: the same differences, up to rounding
    loop = [paired_t_test(0.5 + row, np.full(10, 0.5)).statistic for row in deltas]
    np.testing.assert_allclose(batch, loop, rtol=1e-12)
    assert batch.shape == (20,)


@pytest.mark.parametrize(
    ("a", "b", "alpha", "match"),
    [
        ([], [], 0.05, "errors_a is empty"),
        ([0.1, 0.2, 0.3], [0.1, 0.2], 0.05, "length mismatch"),
        ([0.1], [0.2], 0.05, "at least 2 folds"),
        ([0.1, np.nan], [0.2, 0.1], 0.05, "errors_a contains NaN or inf"),
        ([0.1, 0.2], [0.2, np.inf], 0.05, "errors_b contains NaN or inf"),
        ([[0.1, 0.2]], [[0.2, 0.1]], 0.05, "1-dimensional"),
        ([0.1, 0.2], [0.2, 0.1], 0.0, "alpha"),
        ([0.1, 0.2], [0.2, 0.1], 1.0, "alpha"),
        ([0.1, 0.2], [0.2, 0.1], True, "alpha"),
        (["a", "b"], [0.2, 0.1], 0.05, "errors_a must be numeric"),
        ([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], 0.05, "zero variance"),
        ([0.3, 0.2, 0.4], [0.2, 0.1, 0.3], 0.05, "zero variance"),  # equal up to rounding: 0.3 - 0.2 != 0.1
    ],
)
def test_paired_t_bad_input(a, b, alpha, match):
    with pytest.raises(ValueError, match=match):
        paired_t_test(a, b, alpha=alpha)


def test_paired_t_statistic_bad_input():
    with pytest.raises(ValueError, match="at least 2 folds"):
        paired_t_statistic([[0.1], [0.2]])
    with pytest.raises(ValueError, match=r"zero variance \(in experiment 1\)"):
        paired_t_statistic([[0.1, 0.2], [0.1, 0.1]])


def test_paired_t_test_size_exact_cases_and_monte_carlo():
    assert paired_t_test_size(10, 0.0, alpha=0.05) == pytest.approx(0.05, abs=1e-12)
    assert paired_t_test_size(5, 0.0, alpha=0.1) == pytest.approx(0.1, abs=1e-12)
    assert paired_t_test_size(10, 0.1) > 0.05 > paired_t_test_size(10, -0.05)
    # Monte Carlo with equicorrelated normal differences, 20000 experiments: 4 standard errors
    rng = np.random.default_rng(11)
    k, rho, n = 10, 0.1, 20000
    deltas = np.sqrt(rho) * rng.standard_normal((n, 1)) + np.sqrt(1 - rho) * rng.standard_normal((n, k))
    rate = np.mean(paired_t_statistic(deltas) >= stats.t.ppf(0.975, k - 1))
    expected = paired_t_test_size(k, rho, alpha=0.05)
    assert abs(rate - expected) < 4 * math.sqrt(expected * (1 - expected) / n)


def test_paired_t_test_size_bad_input():
    with pytest.raises(ValueError, match="k must be at least 2"):
        paired_t_test_size(1, 0.0)
    with pytest.raises(ValueError, match="rho must lie strictly between"):
        paired_t_test_size(5, 1.0)
    with pytest.raises(ValueError, match="rho must lie strictly between"):
        paired_t_test_size(5, -0.25)  # the smallest correlation of 5 exchangeable variables is -1/4
    with pytest.raises(ValueError, match="alpha"):
        paired_t_test_size(5, 0.0, alpha=1.5)


# -- (2.32) ------------------------------------------------------------------------------------------------------
_D = [[0.02, 0.00], [0.01, 0.03], [0.00, 0.02], [0.03, 0.01], [0.02, 0.02]]


def _cv52_tau_squared_exact(diffs, numerator: str) -> Fraction:
    """tau_t^2 of (2.32) as printed, with sigma_i^2 literally, in exact rationals."""
    d = [[Fraction(x).limit_denominator(10**6) for x in row] for row in diffs]
    total = Fraction(0)
    for first, second in d:
        mean = (first + second) / 2
        total += (first - mean) ** 2 + (second - mean) ** 2
    mu = (d[0][0] + d[0][1]) / 2 if numerator == "book" else d[0][0]
    return mu * mu / (total / 5)


def test_cv52_hand_case_both_numerators():
    # sigma_i^2 = (D1 - D2)^2 / 2 = 2e-4, 2e-4, 2e-4, 2e-4, 0: sum 8e-4, 0.2 * sum = 1.6e-4
    # book: mu = 0.01, tau = 0.01 / sqrt(1.6e-4) = 0.790569...; Dietterich: mu = 0.02, tau = 1.581139...
    assert _cv52_tau_squared_exact(_D, "book") == Fraction(5, 8)
    assert _cv52_tau_squared_exact(_D, "dietterich") == Fraction(5, 2)
    book = cv52_t_test(_D)
    diet = cv52_t_test(_D, numerator="dietterich")
    assert book.statistic == pytest.approx(math.sqrt(5 / 8), rel=1e-12)
    assert diet.statistic == pytest.approx(math.sqrt(5 / 2), rel=1e-12)
    assert book.mean == pytest.approx(0.01) and diet.mean == pytest.approx(0.02)
    np.testing.assert_allclose(book.variances, [2e-4, 2e-4, 2e-4, 2e-4, 0.0], atol=1e-18)
    assert book.df == diet.df == 5


def test_cv52_sigma2_is_half_the_squared_fold_difference():
    rng = np.random.default_rng(5)
    d = rng.normal(0, 0.05, (5, 2))
    np.testing.assert_allclose(cv52_t_test(d).variances, (d[:, 0] - d[:, 1]) ** 2 / 2, rtol=1e-12)


def test_cv52_numerator_matters_and_sign_is_kept():
    rng = np.random.default_rng(8)
    for _ in range(20):
        d = rng.normal(0, 0.05, (5, 2))
        book = cv52_t_test(d).statistic
        diet = cv52_t_test(d, numerator="dietterich").statistic
        assert float(_cv52_tau_squared_exact(d, "book")) == pytest.approx(book**2, rel=1e-6)
        assert float(_cv52_tau_squared_exact(d, "dietterich")) == pytest.approx(diet**2, rel=1e-6)
        assert np.sign(book) == np.sign(d[0].mean()) and np.sign(diet) == np.sign(d[0, 0])
        assert cv52_t_test(-d).statistic == pytest.approx(-book)


def test_cv52_critical_values_as_printed_in_the_book():
    assert cv52_t_test(_D, alpha=0.05).critical_value == pytest.approx(2.5706, abs=5e-5)
    assert cv52_t_test(_D, alpha=0.10).critical_value == pytest.approx(2.0150, abs=5e-5)


def test_cv52_reject_and_p_value_are_two_sided():
    d = np.array(_D) * [[8, 1], [1, 1], [1, 1], [1, 1], [1, 1]]  # a large first fold: |tau| grows
    for sign in (1, -1):
        r = cv52_t_test(sign * d, alpha=0.05, numerator="dietterich")
        assert r.p_value == pytest.approx(2 * stats.t.sf(abs(r.statistic), 5))
        assert r.reject == (abs(r.statistic) >= r.critical_value) == (r.p_value <= 0.05)


def test_cv52_statistic_vectorised_equals_loop():
    rng = np.random.default_rng(4)
    diffs = rng.normal(0, 0.05, (7, 5, 2))
    for numerator in ("book", "dietterich"):
        batch = cv52_t_statistic(diffs, numerator)
        loop = [cv52_t_test(d, numerator=numerator).statistic for d in diffs]
        np.testing.assert_allclose(batch, loop, rtol=1e-12)


def _mlxtend_differences(est_a, est_b, X, y, seed):
    """The 5x2 error differences eps_A - eps_B on mlxtend's own splits (its RandomState and train_test_split)."""
    from sklearn.base import clone
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(seed)
    diffs = np.empty((5, 2))
    for i in range(5):
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=rng.randint(low=0, high=32767))
        for j, (Xtr, ytr, Xte, yte) in enumerate(((X1, y1, X2, y2), (X2, y2, X1, y1))):
            err_a = np.mean(clone(est_a).fit(Xtr, ytr).predict(Xte) != yte)
            err_b = np.mean(clone(est_b).fit(Xtr, ytr).predict(Xte) != yte)
            diffs[i, j] = err_a - err_b
    return diffs


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_cv52_dietterich_matches_mlxtend(seed):
    pytest.importorskip("mlxtend")
    from mlxtend.evaluate import paired_ttest_5x2cv
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=80, n_features=5, n_informative=3, flip_y=0.1, random_state=0)
    est_a, est_b = LogisticRegression(), DecisionTreeClassifier(max_depth=2, random_state=0)
    t_mlx, p_mlx = paired_ttest_5x2cv(est_a, est_b, X, y, random_seed=seed)
    diffs = _mlxtend_differences(est_a, est_b, X, y, seed)
    diet = cv52_t_test(diffs, numerator="dietterich")
    # mlxtend differences accuracies (acc_A - acc_B = eps_B - eps_A): the same |t|, the opposite sign
    assert diet.statistic == pytest.approx(-t_mlx, rel=1e-9)
    assert diet.p_value == pytest.approx(p_mlx, rel=1e-9)
    # the book's numerator is a different statistic: a test that confused the two would fail here
    assert not np.isclose(cv52_t_test(diffs, numerator="book").statistic, -t_mlx)


@pytest.mark.parametrize(
    ("diffs", "kwargs", "match"),
    [
        (np.zeros((5, 3)), {}, r"shape \(5, 2\)"),
        (np.zeros((2, 5)), {}, r"shape \(5, 2\)"),
        (np.zeros(10), {}, "at least 2 dimension"),
        (np.zeros((2, 5, 2)), {}, r"shape \(5, 2\)"),
        ([[np.nan, 0]] * 5, {}, "diffs contains NaN or inf"),
        ([[0.01, 0.01]] * 5, {}, "zero variance"),
        ([[0.3 - 0.2, 0.1]] * 5, {}, "zero variance"),
        (_D, {"alpha": 0.0}, "alpha"),
        (_D, {"alpha": 2}, "alpha"),
        (_D, {"numerator": "mean"}, "numerator must be"),
    ],
)
def test_cv52_bad_input(diffs, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cv52_t_test(diffs, **kwargs)


def _correlated_cv52(rng, n, rho):
    chol = np.linalg.cholesky(np.array([[1.0, rho], [rho, 1.0]]))
    return rng.standard_normal((n, 5, 2)) @ chol.T


def test_cv52_size_book_is_exact_scaled_t5():
    assert cv52_t_test_size(1 / 3, alpha=0.05, numerator="book") == pytest.approx(0.05, abs=1e-12)
    assert cv52_t_test_size(1 / 3, alpha=0.10, numerator="book") == pytest.approx(0.10, abs=1e-12)
    # at rho = 0 the statistic is t(5) / sqrt(2)
    assert cv52_t_test_size(0.0, alpha=0.05, numerator="book") == pytest.approx(
        2 * stats.t.sf(math.sqrt(2) * stats.t.ppf(0.975, 5), 5)
    )


@pytest.mark.parametrize("rho", [-0.5, 0.0, 0.4])
def test_cv52_size_dietterich_quadrature_matches_adaptive_quadrature(rho):
    # the plain (z, w) form of the size, integrated adaptively: z = (D1 - D2) standardised, w ~ chi2(4) the other
    # four variance terms, m = (D1 + D2) / 2 the part of the numerator independent of both
    critical = float(stats.t.ppf(0.975, 5))
    a, sd_m = 1 - rho, math.sqrt((1 + rho) / 2)

    def integrand(w, z):
        threshold = critical * math.sqrt(a * (z * z + w) / 5)
        shift = math.sqrt(a / 2) * z
        tail = 0.5 * math.erfc((threshold - shift) / sd_m / math.sqrt(2)) + 0.5 * math.erfc(
            (threshold + shift) / sd_m / math.sqrt(2)
        )
        return tail * math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * w * math.exp(-w / 2) / 4

    reference, _ = integrate.dblquad(integrand, -10, 10, 0, 90, epsabs=1e-11)
    assert cv52_t_test_size(rho, alpha=0.05, numerator="dietterich") == pytest.approx(reference, abs=1e-7)


@pytest.mark.parametrize("rho", [0.0, 0.4])
def test_cv52_sizes_match_monte_carlo(rho):
    rng = np.random.default_rng(2024)
    n = 40000
    diffs = _correlated_cv52(rng, n, rho)
    critical = stats.t.ppf(0.975, 5)
    for numerator in ("book", "dietterich"):
        rate = np.mean(np.abs(cv52_t_statistic(diffs, numerator)) >= critical)
        expected = cv52_t_test_size(rho, alpha=0.05, numerator=numerator)
        assert abs(rate - expected) < 4 * math.sqrt(expected * (1 - expected) / n), numerator


def test_cv52_size_bad_input():
    with pytest.raises(ValueError, match="rho"):
        cv52_t_test_size(1.0)
    with pytest.raises(ValueError, match="rho"):
        cv52_t_test_size(-1.0)
    with pytest.raises(ValueError, match="numerator"):
        cv52_t_test_size(0.0, alpha=0.05, numerator="average")
    with pytest.raises(ValueError, match="alpha"):
        cv52_t_test_size(0.0, alpha=-0.1)
