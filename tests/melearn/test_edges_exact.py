"""Exact where the input is exact, one policy for every refusal, and each function at the corner of its Limits
line, answered within ``TIME_LIMIT`` against an independent route."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import numpy as np
import pandas as pd
import pytest

import melearn

from .edge_calls import TIME_LIMIT, F, close, normal_q


# -- exact where the input is exact, one policy everywhere (the second pass) ------------------------------------
class TestExactComparison:
    """One rule (``melearn._validation.exact_comparable``): inputs compare as Python compares them."""

    def test_integers_just_above_two_to_the_53_keep_their_order(self):
        # the switch to exact ranking used to be tested on float(max |x|), where 2**53 + 1 is already 2**53
        assert melearn.roc_auc([1, 0], [2**53, 2**53 + 1]) == 0.0
        assert melearn.roc_auc([1, 0], np.array([2**53, 2**53 + 1])) == 0.0
        assert melearn.roc_auc([1, 0], [-(2**53) - 1, -(2**53)]) == 0.0
        for method in ("auto", "pairwise", "sorted"):
            assert melearn.rank_loss([1, 0], [2**53, 2**53 + 1], method=method) == 1.0
        ranks = melearn.friedman_test([[2**53, 2**53 + 1], [0, 1], [0, 1]]).average_ranks
        assert ranks.tolist() == [1.0, 2.0]

    def test_thresholds_stay_strictly_decreasing_and_exact(self):
        scores = [2**60 - 2, 2**60 + 3]
        roc = melearn.roc_curve([1, 0], scores)
        assert roc.thresholds[0] == np.inf and list(roc.thresholds[1:]) == [2**60 + 3, 2**60 - 2]
        assert list(melearn.pr_curve([1, 0], scores).thresholds) == [2**60 + 3, 2**60 - 2]
        one_plus = np.longdouble(1) + np.finfo(np.longdouble).eps
        t = melearn.roc_curve([1, 0], np.array([1, one_plus], dtype=np.longdouble)).thresholds
        assert t[1] == one_plus and t[2] == 1 and t[1] > t[2]

    def test_no_tie_is_made_by_a_conversion(self):
        assert melearn.roc_auc([1, 0, 1], [2**70, 2**70 + 1, 0.5]) == 0.0  # a list numpy would make float64 of
        assert melearn.roc_auc([1, 0, 1], [2**53 + 1, 2.0**53 + 2, 0.5]) == 0.0
        one_plus = np.longdouble(1) + np.finfo(np.longdouble).eps  # 1 + 2**-63, equal to 1 as a float64
        assert melearn.roc_auc([1, 0], np.array([1, one_plus], dtype=np.longdouble)) == 0.0
        assert melearn.roc_auc([1, 0], [Fraction(1, 3), 1 / 3]) == float(Fraction(1, 3) > 1 / 3)
        assert melearn.roc_auc([1, 0], [10**400, 10**400 + 1]) == 0.0  # beyond the float range: ranked exactly

    def test_labels_are_equal_exactly_when_python_says_so(self):
        from melearn.precision_recall_f import one_vs_rest_confusions

        assert melearn.error_rate([2**53 + 1], [2.0**53]) == 1.0
        assert melearn.error_rate(np.array([2**53 + 1]), np.array([2.0**53])) == 1.0
        assert melearn.accuracy([2**63 + 1, 2**53], [float(2**63), 2.0**53]) == 0.5
        assert melearn.error_rate([2**53, True], [2.0**53, 1]) == 0.0  # True == 1, 2**53 == 2.0**53
        assert len(one_vs_rest_confusions([2**53 + 1, 2.0**53], [2.0**53, 2**53 + 1])) == 2
        with pytest.raises(ValueError, match="^y_true and y_pred must hold labels of one kind"):
            melearn.error_rate([b"a", b"b"], ["a", "b"])
        with pytest.raises(ValueError, match="^y_true and y_pred must hold labels of one kind"):
            melearn.accuracy([b"a", b"b"], [0, 1])

    def test_mean_squared_error_of_integers_beyond_two_to_the_53(self):
        assert melearn.mean_squared_error(np.array([2**53 + 1, 7]), np.array([2**53, 7])) == 0.5
        assert melearn.mean_squared_error(np.array([2**63 - 1]), np.array([2**63 - 2])) == 1.0
        assert melearn.mean_squared_error([10**400], [10**400 + 2]) == 4.0
        with pytest.raises(ValueError, match="mean squared error of y_true and y_pred is too large"):
            melearn.mean_squared_error([10**400], [0])


class TestOnePolicy:
    """One range policy for error rates and their differences, one for booleans, one for named columns."""

    def test_confusion_tables_are_read_by_column_name(self):
        rows = [(3, 1, 2, 10), (6, 2, 1, 5)]
        frame = pd.DataFrame(rows, columns=["tp", "fp", "fn", "tn"])
        for name in ("micro_prf", "macro_prf"):
            expected = getattr(melearn, name)(rows)
            assert getattr(melearn, name)(frame[["tn", "fn", "fp", "tp"]]) == expected
            assert getattr(melearn, name)(frame.rename(columns=str.upper)[["FP", "TN", "TP", "FN"]]) == expected
            with pytest.raises(ValueError, match="^confusions is a DataFrame with columns"):
                getattr(melearn, name)(frame.set_axis(["a", "b", "c", "d"], axis=1))

    def test_error_rates_and_their_differences_have_one_range(self):
        with pytest.raises(ValueError, match=r"^errors_a must hold error rates in \[0, 1\]"):
            melearn.paired_t_test([5.0, -3.0], [0, 0])
        diffs = [[0.02, 0.0], [0.01, 0.03], [0.0, 0.02], [0.03, 0.01], [0.02, 1.5]]
        with pytest.raises(ValueError, match=r"^diffs must hold differences of error rates, in \[-1, 1\]"):
            melearn.cv52_t_test(diffs)
        with pytest.raises(ValueError, match=r"^errors must hold error rates in \[0, 1\]"):
            melearn.t_test([0.1, 1.2], 0.3)
        diffs[4][1] = -1.0  # the ends belong to the range
        assert math.isfinite(melearn.cv52_t_test(diffs).statistic)

    @pytest.mark.parametrize(
        "call, argument",
        [
            (lambda: melearn.t_test([True, False, True, False], 0.3), "errors"),
            (lambda: melearn.t_test([True, 0.5, 0.25], 0.3), "errors"),
            (lambda: melearn.auc([False, True], [0.0, 1.0]), "x"),
            (lambda: melearn.mean_squared_error([True, False], [0, 0]), "y_true"),
            (lambda: melearn.paired_t_test([True, False], [0.1, 0.2]), "errors_a"),
            (lambda: melearn.cv52_t_test(np.ones((5, 2), dtype=bool)), "diffs"),
            (lambda: melearn.friedman_test([[True, False], [False, True]]), "errors"),
            (lambda: melearn.bias_variance_decomposition([[1.0], [2.0]], [[1.0], [2.0]], [True]), "y_true"),
            (lambda: __import__("melearn.normalization").normalization.min_max_normalize([True, False]), "x"),
            (lambda: __import__("melearn.normalization").normalization.z_score_normalize([0.0, 1.0, True]), "x"),
            (lambda: melearn.roc_auc([1, 0], [True, False]), "y_score"),
            (lambda: melearn.positive_probability_cost([True, 0.5], 1.0, 1.0), "p"),
        ],
    )
    def test_booleans_are_not_numbers(self, call, argument):
        with pytest.raises(ValueError, match=rf"^{argument} (holds|mixes) booleans.*booleans are not numbers"):
            call()


class TestOverflowAndLimits:
    """Intermediate overflow rescaled where the result is representable; a refusal by name where it is not."""

    def test_normalisation_rescales_instead_of_refusing(self):
        from melearn.normalization import min_max_normalize, z_score_normalize

        got = min_max_normalize([1e10], reference=[0, 1e-300], feature_range=(0, 1e-300))
        close(got[0], F(1e10), rel=1e-15)
        close(z_score_normalize([1e308], reference=[-0.75, 0.75])[0], F(1e308) / F(0.75), rel=1e-15)
        expected = F(1.7e308) / F(0.75) * F(0.7)
        close(min_max_normalize([1.7e308], reference=[0, 0.75], feature_range=(0, 0.7))[0], expected, rel=1e-15)
        # refused by the argument's name and the entry that overflows
        with pytest.raises(ValueError, match=r"^x: x\[0\] normalises to a value too large"):
            z_score_normalize([1e308], reference=[-1e-300, 1e-300])
        with pytest.raises(ValueError, match=r"^x: x\[1, 0\] normalises to a value too large"):
            min_max_normalize([[0.5], [1e308]], reference=[[0.0], [1e-300]])

    @pytest.mark.parametrize("name", ["chi2_statistic", "expected_counts", "chi2_test_of_independence"])
    def test_counts_beyond_the_float_range_are_refused_by_name(self, name):
        from melearn import contingency

        with pytest.raises(ValueError, match="^table holds a count of 2\\*\\*53 or more"):
            getattr(contingency, name)([[10**400, 1], [1, 1]])


def _t_upper_tail(t, df):
    """P(T > t) for Student's t with ``df`` degrees of freedom, by mpmath's regularised incomplete beta."""
    t = mpmath.mpf(t)
    return mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2


def _range_tail(k, w, lower):
    """P(R <= w) (``lower``) or P(R > w) for the range R of k standard normals, by mpmath quadrature."""
    with mpmath.workdps(20):
        w = mpmath.mpf(w)
        if lower:

            def f(z):
                return k * mpmath.npdf(z) * (mpmath.ncdf(z + w) - mpmath.ncdf(z)) ** (k - 1)
        else:

            def f(z):
                inside = (mpmath.ncdf(z + w) - mpmath.ncdf(z)) ** (k - 1)
                return k * mpmath.npdf(z) * ((1 - mpmath.ncdf(z)) ** (k - 1) - inside)

        return mpmath.quad(f, [-mpmath.inf, *[mpmath.mpf(v) / 2 for v in range(-16, 1)], mpmath.inf])


def _binomial_tail(m, p, c):
    """P(X > c), X ~ B(m, p), summed from the log-pmf at c + 1 (mpmath) by the ratio of successive terms."""
    with mpmath.workdps(30):
        log_pmf = (
            mpmath.loggamma(m + 1)
            - mpmath.loggamma(c + 2)
            - mpmath.loggamma(m - c)
            + (c + 1) * mpmath.log(p)
            + (m - c - 1) * mpmath.log(1 - p)
        )
        term = float(mpmath.exp(log_pmf))
    total, i, ratio = 0.0, c + 1, p / (1 - p)
    while term > total * 1e-18 and i <= m:
        total += term
        term *= (m - i) / (i + 1) * ratio
        i += 1
    return total


def _nemenyi_corner(k, alpha):
    q = melearn.nemenyi_q(k, alpha=alpha)
    tail = _range_tail(k, q * math.sqrt(2), alpha > 0.5)
    target = 1 - mpmath.mpf(alpha) if alpha > 0.5 else mpmath.mpf(alpha)
    assert abs(tail / target - 1) < 1e-5, (k, alpha, q)
    return q


def _t_corner(result, alpha, df):
    assert abs(_t_upper_tail(result.critical_value, df) / (mpmath.mpf(alpha) / 2) - 1) < 1e-6


def _binomial_corner():
    m, eps0, alpha = 10**8, 0.3, 0.05
    c = melearn.binomial_critical_error(m, eps0, alpha=alpha).critical_count
    assert _binomial_tail(m, eps0, c) < alpha <= _binomial_tail(m, eps0, c - 1)


# (the function, its Limits corner, a check against an independent route); each must answer within TIME_LIMIT
LIMIT_CORNERS = [
    ("nemenyi_q k=2 alpha=1e-8", lambda: close(melearn.nemenyi_q(2, alpha=1e-8), F(normal_q(1e-8)), rel=1e-7)),
    (
        "nemenyi_q k=2 alpha=1-1e-8",
        lambda: close(melearn.nemenyi_q(2, alpha=1 - 1e-8), F(normal_q(1 - 1e-8)), rel=1e-7),
    ),
    ("nemenyi_q k=10**5 alpha=1e-8", lambda: _nemenyi_corner(10**5, 1e-8)),
    ("nemenyi_q k=10**5 alpha=0.05", lambda: _nemenyi_corner(10**5, 0.05)),
    ("nemenyi_q k=10**5 alpha=1-1e-8", lambda: _nemenyi_corner(10**5, 1 - 1e-8)),
    (
        "nemenyi_cd k=10**5 alpha=1-1e-8 N=10**400",
        lambda: close(
            melearn.nemenyi_cd(10**5, 10**400, alpha=1 - 1e-8),
            F(_nemenyi_corner(10**5, 1 - 1e-8)) * F(math.sqrt(10**5 * (10**5 + 1) / 6)) / 10**200,
            rel=1e-12,
        ),
    ),
    ("t_test k=2 alpha=1e-150", lambda: _t_corner(melearn.t_test([0.1, 0.2], 0.3, alpha=1e-150), 1e-150, 1)),
    ("t_test k=4 alpha=1e-160", lambda: _t_corner(melearn.t_test([0.1, 0.2, 0.1, 0.3], 0.3, alpha=1e-160), 1e-160, 3)),
    (
        "t_test k=5 alpha=1e-270",
        lambda: _t_corner(melearn.t_test([0.1, 0.2, 0.1, 0.3, 0.2], 0.3, alpha=1e-270), 1e-270, 4),
    ),
    (
        "t_test k=6 alpha=1e-265",
        lambda: _t_corner(melearn.t_test([0.1, 0.2, 0.1, 0.3, 0.2, 0.5], 0.3, alpha=1e-265), 1e-265, 5),
    ),
    (
        "paired_t_test k=2 alpha=1e-150",
        lambda: _t_corner(melearn.paired_t_test([0.1, 0.2], [0.0, 0.3], alpha=1e-150), 1e-150, 1),
    ),
    (
        "paired_t_test k=4 alpha=1e-160",
        lambda: _t_corner(melearn.paired_t_test([0.1, 0.2, 0.4, 0.3], [0.0] * 4, alpha=1e-160), 1e-160, 3),
    ),
    (
        "paired_t_test k=5 alpha=1e-270",
        lambda: _t_corner(melearn.paired_t_test([0.1, 0.2, 0.4, 0.3, 0.2], [0.0] * 5, alpha=1e-270), 1e-270, 4),
    ),
    (
        "cv52_t_test alpha=1e-265 diffs at +-1",
        lambda: _t_corner(
            melearn.cv52_t_test([[1.0, -1.0], [0.5, 0.0], [0, 1], [-1, 0], [0.25, 0.5]], alpha=1e-265), 1e-265, 5
        ),
    ),
    (
        "friedman_test alpha=1e-11",
        lambda: close(
            melearn.friedman_test([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], alpha=1e-11).critical_value,
            F(float(3 * (mpmath.mpf(1e-11) ** (-mpmath.mpf(1) / 3) - 1))),
            rel=1e-6,
        ),
    ),
    ("binomial_critical_error m=10**8", _binomial_corner),
    (
        "expected_out_of_bag_fraction m=10**5 exact",
        lambda: close(
            F(melearn.expected_out_of_bag_fraction(10**5)),
            F(float(mpmath.exp(10**5 * mpmath.log1p(-mpmath.mpf(1) / 10**5)))),
            rel=1e-15,
        ),
    ),
    (
        "mcnemar_test counts of any size",
        lambda: close(
            melearn.mcnemar_test(10**400, 10**400 + 10**200).statistic,
            Fraction((10**200 - 1) ** 2, 2 * 10**400 + 10**200),
            rel=1e-15,
        ),
    ),
    (
        "micro_prf counts of any size",
        lambda: close(melearn.micro_prf([(10**400, 10**400, 1, 0)]).precision, Fraction(1, 2), rel=0),
    ),
]


@pytest.mark.parametrize("corner, check", LIMIT_CORNERS, ids=[c for c, _ in LIMIT_CORNERS])
def test_each_limits_line_holds_at_its_corners(corner, check):
    # mpmath (or exact) routes are the reference; the library's call itself is timed inside the check
    start = time.process_time()
    check()
    assert time.process_time() - start < 3 * TIME_LIMIT, corner  # the reference routes take part of the time
