"""Tests of the binomial test (2.27) and the t-test (2.28)-(2.30) of section 2.4.1.

Independent routes: exact enumeration of the binomial tail with fractions.Fraction (the critical count by its
definition), SciPy's incomplete beta function for large m, scipy.stats.binomtest and scipy.stats.ttest_1samp
as peers, the book's table 2.3, exact rational mean and variance, and seeded Monte Carlo of the type-I error.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

import melearn
from melearn import binomial_critical_error, t_test
from melearn.hypothesis_testing import EXACT_MAX_M, binomial_tail_below


# -- an independent route: the definition of C-bar, enumerated exactly --------------------------------------------
def exact_tail(c: int, m: int, eps0: float) -> Fraction:
    """P(X > c) for X ~ B(m, eps0), summed term by term as fractions (eps0 at its exact binary value)."""
    p = Fraction(eps0)
    return sum((math.comb(m, i) * p**i * (1 - p) ** (m - i) for i in range(c + 1, m + 1)), Fraction(0))


def enumerated_critical_count(m: int, eps0: float, alpha: float) -> int:
    """min C in {0..m} with P(X > C) < alpha, by walking C upwards with exact tails."""
    a = Fraction(alpha)
    p = Fraction(eps0)
    tail = Fraction(1)  # P(X > -1)
    for c in range(m + 1):
        tail -= math.comb(m, c) * p**c * (1 - p) ** (m - c)  # now P(X > c)
        if tail < a:
            return c
    raise AssertionError("P(X > m) = 0 is below every alpha > 0")


def betainc_critical_count(m: int, eps0: float, alpha: float) -> int:
    """The same by bisection on P(X > C) = I_eps0(C + 1, m - C) (SciPy's regularized incomplete beta)."""
    lo, hi = -1, m  # tail(lo) >= alpha > tail(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if special.betainc(mid + 1, m - mid, eps0) < alpha:
            hi = mid
        else:
            lo = mid
    return hi


# -- the binomial test: values ----------------------------------------------------------------------------------
def test_book_example_ten_samples():
    # figure 2.6 of the book: m = 10, eps0 = 0.3; P(X > 5) = 0.0473 < 0.05 <= P(X > 4) = 0.1503
    r = binomial_critical_error(10, 0.3, alpha=0.05)
    assert r.critical_count == enumerated_critical_count(10, 0.3, 0.05) == 5
    assert r.critical_value == 0.5
    assert r.statistic is None and r.reject is None and r.p_value is None and r.observed_errors is None
    assert r.size == pytest.approx(float(exact_tail(5, 10, 0.3)), rel=1e-12)
    assert r.size_one_lower == pytest.approx(float(exact_tail(4, 10, 0.3)), rel=1e-12)


@pytest.mark.parametrize("eps0", [0.01, 0.05, 0.1, 0.3, 0.5, 0.77, 0.95])
@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.1, 0.5, 0.9])
def test_agrees_with_exact_enumeration_small_m(eps0, alpha):
    for m in range(1, 41):
        assert binomial_critical_error(m, eps0, alpha=alpha).critical_count == enumerated_critical_count(
            m, eps0, alpha
        ), m


@settings(max_examples=60, deadline=None)
@given(
    m=st.integers(1, 120),
    eps0=st.floats(0.001, 0.999),
    alpha=st.floats(1e-6, 0.999),
)
def test_agrees_with_exact_enumeration_property(m, eps0, alpha):
    assert binomial_critical_error(m, eps0, alpha=alpha).critical_count == enumerated_critical_count(m, eps0, alpha)


@pytest.mark.parametrize("m", [1000, 10_000, 100_000, 1_000_000])
@pytest.mark.parametrize("eps0", [0.001, 0.3, 0.5, 0.9])
@pytest.mark.parametrize("alpha", [1e-8, 0.05, 0.1])
def test_agrees_with_incomplete_beta_large_m(m, eps0, alpha):
    r = binomial_critical_error(m, eps0, alpha=alpha)
    assert r.critical_count == betainc_critical_count(m, eps0, alpha)
    # the defining property, through scipy.stats.binom
    assert stats.binom.sf(r.critical_count, m, eps0) < alpha
    if r.critical_count > 0:
        assert stats.binom.sf(r.critical_count - 1, m, eps0) >= alpha


def test_million_samples_is_fast():
    # no O(m) Python loop: a few tail evaluations whatever m (an O(m) loop in Python would take seconds)
    start = time.perf_counter()
    for eps0 in (0.01, 0.3, 0.5):
        binomial_critical_error(1_000_000, eps0, alpha=0.05)
    assert time.perf_counter() - start < 2.0


def test_critical_value_grows_with_eps0_and_falls_with_alpha():
    counts = [binomial_critical_error(200, e, alpha=0.05).critical_count for e in np.linspace(0.05, 0.95, 19)]
    assert counts == sorted(counts)
    counts = [binomial_critical_error(200, 0.3, alpha=a).critical_count for a in np.linspace(0.01, 0.9, 20)]
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=80, deadline=None)
@given(m=st.integers(1, 3000), eps0=st.floats(0.001, 0.999), alpha=st.floats(1e-9, 0.999))
def test_sizes_bracket_alpha(m, eps0, alpha):
    r = binomial_critical_error(m, eps0, alpha=alpha)
    assert 0 <= r.critical_count <= m
    assert r.critical_value == r.critical_count / m
    # the two sizes bracket alpha: C-bar - 1 and C-bar, not C-bar and C-bar + 1
    assert binomial_tail_below(r.critical_count, m, eps0, alpha)
    assert not binomial_tail_below(r.critical_count - 1, m, eps0, alpha)
    assert r.size <= alpha * (1 + 1e-9) and r.size_one_lower >= alpha * (1 - 1e-9)


# -- ties: the tail equals alpha exactly -------------------------------------------------------------------------
TIES = [
    # (m, eps0, alpha, C with P(X > C) == alpha exactly)
    (1, 0.5, 0.5, 0),  # P(X > 0) = 1/2
    (3, 0.5, 0.5, 1),  # P(X > 1) = 1/2 by symmetry
    (2, 0.25, 0.0625, 1),  # P(X > 1) = (1/4)^2
    (10, 0.5, 56 / 1024, 7),  # P(X > 7) = (45 + 10 + 1) / 2^10
    (11, 0.5, 0.5, 5),  # symmetry again
    (EXACT_MAX_M + 1, 0.5, 0.5, EXACT_MAX_M // 2),  # beyond the exact range: high-precision route
    (1_000_001, 0.5, 0.5, 500_000),
]


@pytest.mark.parametrize(("m", "eps0", "alpha", "c_tie"), TIES)
def test_ties_are_not_below_alpha(m, eps0, alpha, c_tie):
    if m <= 60:  # the tie itself, checked exactly
        assert exact_tail(c_tie, m, eps0) == Fraction(alpha)
        assert enumerated_critical_count(m, eps0, alpha) == c_tie + 1
    # strict "< alpha": the tie does not qualify, so C-bar is one more
    assert binomial_critical_error(m, eps0, alpha=alpha).critical_count == c_tie + 1
    # one ulp above alpha the tie qualifies; one ulp below, it does not
    assert binomial_critical_error(m, eps0, alpha=np.nextafter(alpha, 1.0)).critical_count == c_tie
    assert binomial_critical_error(m, eps0, alpha=np.nextafter(alpha, 0.0)).critical_count == c_tie + 1


def test_observed_at_a_tie():
    # m = 3, eps0 = 1/2, alpha = 1/2: C-bar = 2; observing 2 errors gives p-value P(X >= 2) = 1/2, not < alpha
    r = binomial_critical_error(3, 0.5, alpha=0.5, observed=2 / 3)
    assert (r.critical_count, r.observed_errors, r.reject, r.p_value) == (2, 2, False, 0.5)
    assert binomial_critical_error(3, 0.5, alpha=0.5, observed=1.0).reject is True


# -- the decision, against scipy.stats.binomtest (one-sided, "greater") ------------------------------------------
def test_reject_matches_scipy_binomtest_greater():
    rng = np.random.default_rng(2027)
    checked = 0
    for _ in range(600):
        m = int(rng.integers(1, 400))
        eps0 = float(rng.uniform(0.01, 0.99))
        alpha = float(rng.choice([0.01, 0.05, 0.1, rng.uniform(0.001, 0.5)]))
        x = int(rng.integers(0, m + 1))
        r = binomial_critical_error(m, eps0, alpha=alpha, observed=x / m)
        peer = stats.binomtest(x, m, eps0, alternative="greater").pvalue
        assert r.observed_errors == x
        assert r.p_value == pytest.approx(peer, rel=1e-9, abs=1e-300)
        if abs(peer - alpha) > 1e-12 * alpha:  # a floating-point tie is decided exactly by us, not by the peer
            assert r.reject == (peer < alpha), (m, eps0, alpha, x)
            checked += 1
    assert checked > 590
    # and the two-sided or "less" alternatives are different tests: they disagree somewhere
    disagree = sum(
        binomial_critical_error(20, 0.3, alpha=0.05, observed=x / 20).reject
        != (stats.binomtest(x, 20, 0.3, alternative="two-sided").pvalue < 0.05)
        for x in range(21)
    )
    assert disagree > 0


@pytest.mark.parametrize("m", [10, 37, 100])
def test_reject_exactly_above_the_critical_value(m):
    r0 = binomial_critical_error(m, 0.2, alpha=0.05)
    for x in range(m + 1):
        r = binomial_critical_error(m, 0.2, alpha=0.05, observed=x / m)
        assert r.reject == (x > r0.critical_count) == (r.statistic > r.critical_value)
    # at the critical value itself the hypothesis stands (the book's "eps-hat < eps-bar" would reject it)
    assert not binomial_critical_error(m, 0.2, alpha=0.05, observed=r0.critical_value).reject


def test_type_one_error_by_monte_carlo():
    # under eps = eps0 the rejection rate is the size P(X > C-bar) < alpha, within 4 standard errors
    rng = np.random.default_rng(7)
    n = 20_000
    for m in (10, 50, 200):
        r = binomial_critical_error(m, 0.3, alpha=0.05)
        x = rng.binomial(m, 0.3, size=n)
        rate = np.mean(x > r.critical_count)
        assert abs(rate - r.size) < 4 * math.sqrt(r.size * (1 - r.size) / n)
        assert r.size < 0.05


def test_harness_catches_off_by_one_mutants():
    # the pumpkin book's "C-bar + 1" and the non-strict "<= alpha" both disagree with the definition somewhere
    def plus_one(m, eps0, alpha):
        return binomial_critical_error(m, eps0, alpha=alpha).critical_count + 1

    def non_strict(m, eps0, alpha):
        return next(c for c in range(m + 1) if exact_tail(c, m, eps0) <= Fraction(alpha))

    cases = [(m, 0.5, a) for m in range(1, 12) for a in (0.5, 0.25, 0.125, 0.05)]
    for mutant in (plus_one, non_strict):
        assert any(mutant(*case) != enumerated_critical_count(*case) for case in cases)


# -- the binomial test: bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"m": 0}, "m"),
        ({"m": -5}, "m"),
        ({"m": 2.5}, "m"),
        ({"m": True}, "m"),
        ({"m": "10"}, "m"),
        ({"eps0": 0.0}, "eps0"),
        ({"eps0": 1.0}, "eps0"),
        ({"eps0": -0.2}, "eps0"),
        ({"eps0": float("nan")}, "eps0"),
        ({"eps0": "0.3"}, "eps0"),
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": 1.0}, "alpha"),
        ({"alpha": 1.5}, "alpha"),
        ({"alpha": float("inf")}, "alpha"),
        ({"observed": 1.2}, "observed"),
        ({"observed": -0.1}, "observed"),
        ({"observed": 0.15}, "observed"),  # not a multiple of 1/10
        ({"observed": float("nan")}, "observed"),
    ],
)
def test_binomial_bad_input(kwargs, name):
    args = {"m": 10, "eps0": 0.3, "alpha": 0.05} | kwargs
    with pytest.raises(ValueError, match=name):
        binomial_critical_error(**args)


# -- the t-test --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_t_test_matches_scipy_ttest_1samp(alternative):
    rng = np.random.default_rng(11)
    for _ in range(200):
        k = int(rng.integers(2, 30))
        errors = np.clip(rng.normal(0.2, 0.05, size=k), 0, 1)
        eps0 = float(rng.uniform(0.1, 0.3))
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        r = t_test(errors, eps0, alpha=alpha, alternative=alternative)
        peer = stats.ttest_1samp(errors, eps0, alternative=alternative)
        assert r.statistic == pytest.approx(peer.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(peer.pvalue, rel=1e-9, abs=1e-15)
        assert r.df == k - 1
        assert r.reject == (peer.pvalue < alpha)


def test_t_test_exact_moments():
    # error rates that are counts / 50: mean (2.28) and variance (2.29) as exact fractions, k - 1 denominator
    counts = [6, 4, 9, 5, 8, 7]
    rates = [Fraction(c, 50) for c in counts]
    k = len(rates)
    mu = sum(rates) / k
    var = sum((e - mu) ** 2 for e in rates) / (k - 1)
    r = t_test([float(e) for e in rates], 0.1, alpha=0.05)
    assert r.mean == pytest.approx(float(mu), rel=1e-14)
    assert r.variance == pytest.approx(float(var), rel=1e-12)
    tau = math.sqrt(k) * float(mu - Fraction(1, 10)) / math.sqrt(float(var))
    assert r.statistic == pytest.approx(tau, rel=1e-12)
    # the k denominator (population variance) would be a different number
    assert r.variance != pytest.approx(float(sum((e - mu) ** 2 for e in rates) / k), rel=1e-3)


# Table 2.3 of the book: two-sided critical values t_{alpha/2} for k error rates (k - 1 degrees of freedom)
BOOK_TABLE_2_3 = {
    0.05: {2: 12.706, 5: 2.776, 10: 2.262, 20: 2.093, 30: 2.045},
    0.10: {2: 6.314, 5: 2.132, 10: 1.833, 20: 1.729, 30: 1.699},
}


@pytest.mark.parametrize("alpha", sorted(BOOK_TABLE_2_3))
def test_t_critical_values_match_book_table_2_3(alpha):
    rng = np.random.default_rng(3)
    for k, printed in BOOK_TABLE_2_3[alpha].items():
        r = t_test(rng.uniform(0.1, 0.2, size=k), 0.15, alpha=alpha)
        assert round(r.critical_value, 3) == printed


def test_two_sided_decision_and_alternatives():
    errors = [0.12, 0.10, 0.15, 0.11, 0.14]
    two = t_test(errors, 0.10, alpha=0.05)
    assert not two.reject and abs(two.statistic) <= two.critical_value
    greater = t_test(errors, 0.10, alpha=0.05, alternative="greater")
    # one-sided at the same alpha rejects what the two-sided test keeps: t_alpha < t_{alpha/2}
    assert greater.reject and greater.critical_value < two.critical_value
    less = t_test(errors, 0.10, alpha=0.05, alternative="less")
    assert not less.reject and less.critical_value == -greater.critical_value
    assert two.p_value == pytest.approx(2 * greater.p_value)


def test_t_test_type_one_error_by_monte_carlo():
    # normal error rates with mean eps0: two-sided rejection rate alpha, within 4 standard errors
    rng = np.random.default_rng(99)
    n, k, alpha = 3000, 5, 0.1
    samples = rng.normal(0.25, 0.03, size=(n, k))
    rate = np.mean([t_test(s, 0.25, alpha=alpha).reject for s in samples])
    assert abs(rate - alpha) < 4 * math.sqrt(alpha * (1 - alpha) / n)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (([0.1],), "errors"),
        (([],), "errors"),
        (([0.1, float("nan")],), "errors"),
        (([0.1, float("inf")],), "errors"),
        (([0.1, 1.2],), "errors"),
        (([-0.1, 0.2],), "errors"),
        (([[0.1, 0.2], [0.3, 0.4]],), "errors"),
        ((["a", "b"],), "errors"),
        (([0.2, 0.2, 0.2],), "sigma"),
        (([0.1, 0.2], 0.0), "eps0"),
        (([0.1, 0.2], 1.0), "eps0"),
        (([0.1, 0.2], 0.1, 0.0), "alpha"),
        (([0.1, 0.2], 0.1, 1.0), "alpha"),
    ],
)
def test_t_test_bad_input(args, name):
    full = list(args) + [0.15, 0.05][len(args) - 1 :]
    with pytest.raises(ValueError, match=name):
        t_test(*full[:2], alpha=full[2])


def test_t_test_bad_alternative():
    with pytest.raises(ValueError, match="alternative"):
        t_test([0.1, 0.2], 0.15, alpha=0.05, alternative="two-tailed")


def test_exported():
    assert melearn.binomial_critical_error is binomial_critical_error and melearn.t_test is t_test
    assert {"binomial_critical_error", "t_test"} <= set(melearn.__all__)


def test_plot_shades_exactly_the_rejection_region():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from melearn.plotting.binomial_pmf import binomial_test_pmf

    fig, ax = plt.subplots()
    try:
        assert binomial_test_pmf(ax, 10, 0.3, alpha=0.05, observed=0.6) is ax
        keep, reject = ax.containers  # the two bar groups: kept (x <= C-bar) and rejected (x > C-bar)
        assert len(keep) == 6 and len(reject) == 5  # C-bar = 5 of m = 10: keep 0..5, reject 6..10
        heights = [bar.get_height() for bar in reject]
        assert sum(heights) == pytest.approx(binomial_critical_error(10, 0.3, alpha=0.05).size, rel=1e-12)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("alpha", [1e-300, 5e-324, 0.999999])
def test_extreme_alpha_agrees_with_exact_enumeration(alpha):
    # far tails (where floating point loses relative accuracy, down to a subnormal alpha) are still exact
    for m in (1, 7, 300):
        assert binomial_critical_error(m, 0.3, alpha=alpha).critical_count == enumerated_critical_count(m, 0.3, alpha)
