"""Tests of formula (2.33): McNemar's test (melearn.mcnemar).

Independent routes: exact rational arithmetic with fractions.Fraction, statsmodels' mcnemar, SciPy's binomial
test, and exact enumeration of the sizes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from melearn import mcnemar_test
from melearn.mcnemar import mcnemar_exact_p_value, mcnemar_test_size


# -- (2.33) ------------------------------------------------------------------------------------------------------
def test_mcnemar_hand_case_with_and_without_correction():
    r = mcnemar_test(10, 25, alpha=0.05)
    assert Fraction((abs(10 - 25) - 1) ** 2, 10 + 25) == Fraction(28, 5)
    assert r.statistic == pytest.approx(5.6, rel=1e-15)
    # without the continuity correction it would be 225 / 35 = 6.43: a missing "- 1" is caught
    assert mcnemar_test(10, 25, correction=False).statistic == pytest.approx(225 / 35)
    assert r.df == 1 and r.reject is True
    assert r.critical_value == pytest.approx(3.8415, abs=5e-5)
    assert mcnemar_test(10, 25, alpha=0.1).critical_value == pytest.approx(2.7055, abs=5e-5)


def test_mcnemar_matches_statsmodels():
    pytest.importorskip("statsmodels")
    from statsmodels.stats.contingency_tables import mcnemar

    for e01 in range(0, 31, 3):
        for e10 in range(0, 31, 4):
            if e01 + e10 == 0:
                continue
            table = [[17, e01], [e10, 23]]  # rows: B correct / wrong, columns: A correct / wrong
            ref = mcnemar(table, exact=False, correction=True)
            r = mcnemar_test(e01, e10)
            assert r.statistic == pytest.approx(ref.statistic, rel=1e-12, abs=1e-15)
            assert r.p_value == pytest.approx(ref.pvalue, rel=1e-10)
            if e01 != e10:
                raw = mcnemar(table, exact=False, correction=False)
                assert not np.isclose(r.statistic, raw.statistic)
            exact = mcnemar(table, exact=True)
            assert mcnemar_exact_p_value(e01, e10) == pytest.approx(exact.pvalue, rel=1e-10)


def test_mcnemar_zero_discordant_raises_where_statsmodels_says_significant():
    from statsmodels.stats.contingency_tables import mcnemar

    with np.errstate(divide="ignore", invalid="ignore"):
        ref = mcnemar([[40, 0], [0, 10]], exact=False, correction=True)
    assert np.isinf(ref.statistic) and ref.pvalue == 0.0  # the pitfall melearn refuses
    with pytest.raises(ValueError, match=r"e01 \+ e10 = 0"):
        mcnemar_test(0, 0)
    assert mcnemar_exact_p_value(0, 0) == 1.0


@pytest.mark.parametrize(
    ("e01", "e10", "alpha", "match"),
    [
        (-1, 3, 0.05, "e01 must be non-negative"),
        (3, -2, 0.05, "e10 must be non-negative"),
        (2.5, 3, 0.05, "e01 must be an integer"),
        (3.0, 3, 0.05, "e01 must be an integer"),
        (True, 3, 0.05, "e01 must be an integer"),
        (3, "4", 0.05, "e10 must be an integer"),
        (3, 4, 0.0, "alpha"),
        (3, 4, 1.0, "alpha"),
        (0, 0, 0.05, r"e01 \+ e10 = 0"),
    ],
)
def test_mcnemar_bad_input(e01, e10, alpha, match):
    with pytest.raises(ValueError, match=match):
        mcnemar_test(e01, e10, alpha=alpha)


def test_mcnemar_accepts_numpy_integers_and_is_symmetric():
    assert mcnemar_test(np.int64(7), np.int32(19)).statistic == mcnemar_test(19, 7).statistic == 121 / 26


def _binomial_pmf(n, j) -> Fraction:
    return Fraction(math.comb(n, j), 2**n)


@pytest.mark.parametrize(("e01", "e10"), [(1, 9), (0, 5), (4, 4), (3, 12), (20, 7), (0, 1)])
def test_mcnemar_exact_p_value_by_enumeration_and_scipy(e01, e10):
    n = e01 + e10
    tail = sum(_binomial_pmf(n, j) for j in range(min(e01, e10) + 1))
    assert mcnemar_exact_p_value(e01, e10) == pytest.approx(float(min(Fraction(1), 2 * tail)), rel=1e-12)
    assert mcnemar_exact_p_value(e01, e10) == pytest.approx(stats.binomtest(e01, n, 0.5).pvalue, rel=1e-10)


@pytest.mark.parametrize("n", [1, 2, 5, 9, 17, 30, 64])
@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_mcnemar_size_by_exact_enumeration(n, alpha):
    size = {"chi2": Fraction(0), "chi2_uncorrected": Fraction(0), "exact": Fraction(0)}
    for j in range(n + 1):
        pmf = _binomial_pmf(n, j)
        size["chi2"] += pmf * mcnemar_test(j, n - j, alpha=alpha).reject
        size["chi2_uncorrected"] += pmf * mcnemar_test(j, n - j, alpha=alpha, correction=False).reject
        size["exact"] += pmf * (mcnemar_exact_p_value(j, n - j) <= alpha)
    for method, value in size.items():
        assert mcnemar_test_size(n, alpha=alpha, method=method) == pytest.approx(float(value), abs=1e-14), method
    assert size["chi2"] <= size["chi2_uncorrected"]  # the correction only ever makes rejecting harder


def test_mcnemar_size_bad_input():
    with pytest.raises(ValueError, match="n_discordant must be at least 1"):
        mcnemar_test_size(0)
    with pytest.raises(ValueError, match="method"):
        mcnemar_test_size(10, alpha=0.05, method="midp")
    with pytest.raises(ValueError, match="alpha"):
        mcnemar_test_size(10, alpha=1.0)
