"""The edges pinned: the examples that found each defect, the bounds of the Limits lines, and the defects found
beyond them, each checked against an independent route (Python integers and fractions, mpmath)."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import numpy as np
import pandas as pd
import pytest

import melearn

from .edge_calls import BIG, TIME_LIMIT, F, close, cost_share, is_partition, normal_q


# -- the examples and the bounds, pinned ----------------------------------------------------------------
def test_counts_beyond_int64_do_not_wrap():
    assert melearn.macro_prf([(2**62, 2**62, 1, 1)]).precision == 0.5
    big = melearn.micro_prf([(10**400, 3 * 10**400, 1, 1), (10**400, 10**400, 0, 5)])
    assert big.precision == float(Fraction(2 * 10**400, 6 * 10**400))


def test_intermediate_overflow_is_avoided_or_refused():
    assert melearn.mean_squared_error([1e154, 1e154], [0, 0]) == float(Fraction(1e154) ** 2)
    with pytest.raises(ValueError, match="y_true and y_pred"):
        melearn.mean_squared_error([BIG], [-BIG])
    assert melearn.auc([-1e308, 1e308], [0.5, 0.5]) == 1e308
    with pytest.raises(ValueError, match=r"\(x, y\)"):
        melearn.auc([-1e308, 1e308], [1, 1])
    r = melearn.bias_variance_decomposition([[1e154, -1e154], [1e154, 1e154]], [[0, 0], [0, 0]], [0, 0])
    assert all(math.isfinite(v) for v in r) and math.isclose(r.error, r.bias2 + r.variance + r.noise + r.cross)


def test_underflow_does_not_make_zero_over_zero():
    assert melearn.positive_probability_cost(0.5, cost01=5e-324, cost10=0) == 1.0
    assert melearn.positive_probability_cost(5e-324, 0.5, 5e-324) == float(cost_share(5e-324, 0.5, 5e-324))
    assert melearn.cost_sensitive_error([1, 0], [0, 1], 5e-324, 5e-324) == 5e-324


def test_nemenyi_refuses_levels_it_cannot_resolve():
    with pytest.raises(ValueError, match="alpha"):
        melearn.nemenyi_q(3, alpha=1e-20)
    with pytest.raises(ValueError, match="alpha"):
        melearn.nemenyi_q(2, alpha=1e-15)


@pytest.mark.parametrize("k, alpha", [(3, 0.05), (5, 1e-4), (10, 1e-8), (2, 1e-8)])
def test_nemenyi_q_against_integration(k, alpha):
    # P(range of k standard normals > sqrt(2) q) = alpha, by mpmath quadrature
    w = mpmath.mpf(melearn.nemenyi_q(k, alpha=alpha)) * mpmath.sqrt(2)
    with mpmath.workdps(30):
        inside = k * mpmath.quad(
            lambda z: mpmath.npdf(z) * (mpmath.ncdf(z) - mpmath.ncdf(z - w)) ** (k - 1), [-mpmath.inf, 0, w, mpmath.inf]
        )
        assert abs((1 - inside) / alpha - 1) < 1e-5


@pytest.mark.parametrize(
    "call, limit",
    [
        (lambda: melearn.expected_out_of_bag_fraction(10**7), "EXACT_OOB_MAX_M"),
        (lambda: melearn.kfold_split(np.zeros(20_000), 20_000, 0), "KFOLD_MAX_INDICES"),
        (lambda: melearn.bootstrap_sample(10**13, 0), "BOOTSTRAP_MAX_M"),
        (lambda: melearn.rank_loss(np.arange(70_000) % 2, np.arange(70_000.0), method="pairwise"), "PAIRWISE_MAX_WORK"),
        (lambda: melearn.binomial_critical_error(10**9, 0.3, alpha=0.05), "BINOMIAL_MAX_M"),
        (lambda: melearn.nemenyi_q(10**6), "NEMENYI_MAX_K"),
    ],
)
def test_work_bounds_are_enforced_quickly(call, limit):
    start = time.process_time()
    with pytest.raises(ValueError, match=limit):
        call()
    assert time.process_time() - start < 2.0


def test_one_policy_for_strings_booleans_and_flags():
    for bad in ("0.5", True):
        with pytest.raises(ValueError, match="^p must"):
            melearn.positive_probability_cost(bad, 1, 1)
        with pytest.raises(ValueError, match="^alpha must"):
            melearn.t_test([0.1, 0.2], 0.1, alpha=bad)
        with pytest.raises(ValueError, match="^cost01 must"):
            melearn.positive_probability_cost(0.5, bad, 1)
    with pytest.raises(ValueError, match="^correction must be True or False"):
        melearn.mcnemar_test(3, 9, alpha=0.05, correction="False")
    with pytest.raises(ValueError, match="^numerator must be one of"):
        melearn.cv52_t_test(np.arange(10.0).reshape(5, 2), numerator=np.array(["book"]))


def test_pandas_and_masked_inputs():
    y = pd.Series(["ripe", "unripe", "ripe", "ripe"], dtype="str")
    assert melearn.error_rate(y, pd.Categorical(["ripe", "ripe", "ripe", "unripe"])) == 0.5
    assert melearn.accuracy(y.astype("string"), ["ripe", "unripe", "ripe", "ripe"]) == 1.0
    train, test = melearn.holdout_split(pd.Categorical(["a", "b"] * 4), 0.5, 0)
    assert is_partition([train, test], 8)
    labels, scores = [1, 0, 1, 0], np.ma.array([0.9, 0.1, 0.8, 0.95], mask=[0, 0, 0, 1])
    with pytest.raises(ValueError, match="y_score is a masked array"):
        melearn.roc_auc(labels, scores)
    assert melearn.roc_auc(labels, np.ma.array([0.9, 0.1, 0.8, 0.95])) == melearn.roc_auc(labels, [0.9, 0.1, 0.8, 0.95])
    with pytest.raises(ValueError, match="^y_score must be a rectangular array"):
        melearn.roc_auc([1, 0, 1], [[0.9], [0.1, 0.2], [1]])
    with pytest.raises(ValueError, match="^errors must be a rectangular array"):
        melearn.friedman_test([[1, 2], [2, 1, 3]])


def test_confusion_tables_from_numpy_pandas_and_masked_arrays():
    rows = [(1, 2, 3, 4), (2, 2, 2, 2)]
    expected = melearn.macro_prf(rows)
    assert melearn.macro_prf(pd.DataFrame(rows)) == expected
    assert melearn.macro_prf(np.asarray(rows)) == expected
    with pytest.raises(ValueError, match="^confusions is a masked array"):
        melearn.micro_prf(np.ma.masked_array([0, 1, 1], mask=[1, 0, 0]))
    with pytest.raises(ValueError, match="^confusions must be a sequence"):
        melearn.macro_prf(np.array(5))


def test_integer_scores_beyond_two_to_the_53_keep_their_order():
    # as floats, 2**60 and 2**60 + 1 are equal: a silent tie would give AUC 1/2 instead of 1
    for scores in (np.array([2**60, 2**60 + 1, 2**60 - 1]), [2**70, 2**70 + 1, 2**70 - 1]):
        labels = [0, 1, 0]
        assert melearn.roc_auc(labels, scores) == 1.0
        assert melearn.rank_loss(labels, scores, method="pairwise") == 0.0
        assert melearn.rank_loss(labels, scores, method="sorted") == 0.0
        assert len(melearn.roc_curve(labels, scores).thresholds) == 4
    ranks = melearn.friedman_test([[2**60 + 1, 2**60], [2**60 + 2, 2**60 + 1]]).average_ranks
    assert ranks.tolist() == [2.0, 1.0]


@pytest.mark.parametrize(
    "name, make_args",
    [
        ("roc_auc", lambda y, s: (y, s)),
        ("rank_loss", lambda y, s: (y, s)),
        ("expected_total_cost", lambda y, s: (y, s)),
        ("break_even_point", lambda y, s: (y, s)),
        ("mean_squared_error", lambda y, s: (s, s[::-1])),
        ("error_rate", lambda y, s: (y, y[::-1])),
        ("kfold_split", lambda y, s: (y, 10, 0)),
        ("bootstrap_sample", lambda y, s: (y.size, 0)),
    ],
)
def test_linear_and_log_linear_functions_stay_fast_at_a_stated_size(name, make_args):
    # 200 000 samples in well under TIME_LIMIT: no quadratic step hides behind the O(m log m) claims
    rng = np.random.default_rng(13)
    y = rng.integers(0, 2, 200_000)
    s = rng.normal(size=y.size).round(3)  # ties included
    start = time.process_time()
    getattr(melearn, name)(*make_args(y, s))
    assert time.process_time() - start < TIME_LIMIT


def test_many_classes_and_many_algorithms_need_no_quadratic_table():
    from melearn.friedman import nemenyi_test
    from melearn.precision_recall_f import one_vs_rest_confusions

    labels = np.arange(100_000) * 0.5  # 100 000 classes: an n x n table would hold 10**10 counts
    start = time.process_time()
    confusions = one_vs_rest_confusions(labels, labels[::-1])
    assert time.process_time() - start < TIME_LIMIT
    assert sum(c.tp for c in confusions) == 0 and all(c.fp == c.fn == 1 for c in confusions)
    with pytest.raises(ValueError, match="NEMENYI_TEST_MAX_K"):
        nemenyi_test(np.random.default_rng(0).random((2, 6000)))


# -- defects found beyond the examples, pinned -----------------------------------------------------------
def test_upper_quantiles_for_tiny_levels_are_finite_or_refused():
    # ppf(1 - alpha/2) is inf below alpha = 1e-16; the critical values are upper quantiles (isf), checked
    r = melearn.paired_t_test([0.1, 0.2, 0.4], [0.0, 0.1, 0.1], alpha=1e-20)
    assert math.isfinite(r.critical_value) and not r.reject
    assert melearn.mcnemar_test(10, 25, alpha=1e-300).critical_value == pytest.approx(1373.8726312223944, rel=1e-12)
    with pytest.raises(ValueError, match="^alpha = 1e-300 is too small"):
        melearn.friedman_test([[1, 2, 3], [2, 1, 3], [1, 3, 2]], alpha=1e-300)  # F(2, 4): SciPy's isf is inf


def test_macro_f1_does_not_underflow_before_its_value_does():
    # precision and recall near 1e-160: their product 1e-320 is subnormal, the harmonic mean is not
    big = 10**160
    r = melearn.macro_prf([(1, big - 1, big - 1, 0)])
    p = Fraction(1, big)
    close(r.f1, 2 * F(r.precision) * F(r.recall) / (F(r.precision) + F(r.recall)), rel=1e-15)
    close(r.precision, p, rel=1e-15)


def test_friedman_forms_and_polynomial_fits_at_huge_values():
    from melearn.bias_variance import polynomial_predictions
    from melearn.friedman import friedman_chi2, friedman_f

    with pytest.raises(ValueError, match="^n_datasets must be at most"):
        friedman_chi2([1.0, 2.125, 2.875], 10**400)  # was a bare OverflowError
    with pytest.raises(ValueError, match="^n_algorithms must be at most"):
        friedman_f(7.125, 4, 10**400)
    # the basis interval [-1e308, 1e308]: its centre and half-width used to overflow to inf
    fit = polynomial_predictions([[1e308, -1e308, 0.0]], [[1.0, 3.0, 2.0]], [0.0, 5e307], degree=1)
    assert np.all(np.isfinite(fit)) and fit[0, 0] == pytest.approx(2.0)
    assert fit[0, 1] == pytest.approx(2.0 - 0.5, rel=1e-12)


@pytest.mark.parametrize(
    "call, limit",
    [
        (lambda: melearn.binomial_critical_error(2000, 5e-324, alpha=5e-324), None),  # took minutes (exact 2**1074**m)
        (lambda: __import__("melearn.mcnemar").mcnemar.mcnemar_test_size(10**9), "n_discordant"),
        (lambda: __import__("melearn.mcnemar").mcnemar.mcnemar_exact_p_value(10**9, 1), "MCNEMAR_EXACT"),
    ],
)
def test_more_work_bounds(call, limit):
    start = time.process_time()
    if limit is None:
        assert call().critical_count == 1
    else:
        with pytest.raises(ValueError, match=limit):
            call()
    assert time.process_time() - start < TIME_LIMIT


def test_spreads_at_the_bottom_of_the_float_range():
    # tiny but genuine spreads are measured (squares used to underflow to a "zero variance")...
    r = melearn.t_test([1e-200, 3e-200, 2e-200], eps0=0.5, alpha=0.05)
    close(r.statistic, F(math.sqrt(3)) * (F(2e-200) - F(0.5)) / F(1e-200), rel=1e-9)
    assert melearn.paired_t_test([1e-320, 2e-320, 0.0], [0.0, 0.0, 0.0]).statistic == pytest.approx(math.sqrt(3))
    # ...while spreads of a few units of rounding are refused, not divided by
    with pytest.raises(ValueError, match="^errors differ only by rounding"):
        melearn.t_test([0.1, 0.1 + 2**-56, 0.1], eps0=0.5, alpha=0.05)


@pytest.mark.parametrize("alpha", [0.05, 1e-4, 1e-8, 1e-10])
def test_friedman_critical_value_against_the_closed_form_tail(alpha):
    # k = 3 algorithms on N = 4 data sets: F(2, 6), whose upper tail is (1 + x/3)**-3 exactly
    table = [[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]]
    critical = melearn.friedman_test(table, alpha=alpha).critical_value
    assert critical == pytest.approx(3 * (alpha ** (-1 / 3) - 1), rel=1e-6)


def test_friedman_refuses_levels_where_the_f_quantile_is_off():
    with pytest.raises(ValueError, match="^alpha = 1e-13 is too small"):
        melearn.friedman_test([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], alpha=1e-13)


def test_nemenyi_q_near_alpha_one_is_refused_not_zero():
    # SciPy returned q = 0 at alpha = 1 - 2**-53, where q is about 1.4e-16 (k = 2: the normal quantile)
    with pytest.raises(ValueError, match="^alpha = 0.9999999999999999 is above"):
        melearn.nemenyi_q(2, alpha=1 - 2**-53)
    close(melearn.nemenyi_q(2, alpha=1 - 1e-8), F(normal_q(1 - 1e-8)), rel=1e-7)
