"""The kinds of input a careful user meets, each checked against an independent route.

Each kind gets the right value (exact where the input is exact, in the input's precision where it is a long
double) or a ``ValueError`` naming the argument:

* pandas tables of mixed dtypes, read column by column before any conversion (pandas' ``to_numpy`` would meet
  int64 and float64 in float64, and uint64 and int64 too);
* values beyond float64 (integers above 2**53, long double) in the functions that are not rankings;
* ``normalized_cost`` where a product underflows or overflows although the result is an ordinary number;
* numpy durations and dates where a number is expected, and ``memoryview`` tables;
* subnormal error rates in ``t_test``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pandas as pd
import pytest

import melearn
from melearn import (
    auc,
    bias_variance_decomposition,
    binomial_critical_error,
    friedman_test,
    macro_prf,
    mcnemar_test,
    mean_squared_error,
    micro_prf,
    normalized_cost,
    t_test,
)
from melearn.bias_variance import bias_variance_by_point
from melearn.friedman import rank_matrix
from melearn.reference.ranking import literal_trapezoids

LD = np.longdouble
LONG_DOUBLE_WIDER = np.finfo(LD).nmant > np.finfo(np.float64).nmant
needs_long_double = pytest.mark.skipif(not LONG_DOUBLE_WIDER, reason="long double is float64 on this platform")


def exact_ranks(row) -> list[F]:
    """Ranks of one row, lower first, ties sharing the average rank: from the exact values."""
    return [F(sum(1 for w in row if w < v)) + F(sum(1 for w in row if w == v) + 1, 2) for v in row]


# -- pandas tables of mixed dtypes ----------------------------------------------------------------------------
def test_friedman_reads_a_mixed_frame_column_by_column():
    frame = pd.DataFrame({"a": [2**53 + 1, 1, 5, 7], "b": [2.0**53, 2.0, 3.0, 0.5], "c": [1, 3, 4, 9]})
    rows = [[2**53 + 1, 2.0**53, 1], [1, 2.0, 3], [5, 3.0, 4], [7, 0.5, 9]]  # the same table as exact Python numbers
    expected = np.mean([exact_ranks(r) for r in rows], axis=0).astype(float)
    assert rank_matrix(frame).tolist() == [[float(x) for x in exact_ranks(r)] for r in rows]
    assert friedman_test(frame).average_ranks.tolist() == expected.tolist()
    by_frame, by_rows = friedman_test(frame), friedman_test(rows)
    assert (by_frame.statistic, by_frame.p_value) == (by_rows.statistic, by_rows.p_value)
    # pandas' own conversion rounds 2**53 + 1 to 2**53 and ties the first row: the bug this guards against
    assert friedman_test(frame.to_numpy()).average_ranks.tolist() != expected.tolist()


def test_a_column_of_a_mixed_frame_is_named_when_refused():
    frame = pd.DataFrame({"a": [0.1, 0.2], "b": ["x", "y"]})
    with pytest.raises(ValueError, match="errors"):
        friedman_test(frame)
    frame = pd.DataFrame({"a": [1, 2], "b": [0.5, np.nan]})
    with pytest.raises(ValueError, match=r"errors\['b'\] contains NaN|errors contains NaN"):
        friedman_test(frame)


@pytest.mark.parametrize("dtype", [np.uint64, np.uint32, np.int32, "UInt64", object])
def test_confusion_frames_of_any_integer_dtype(dtype):
    wide = dtype in (np.uint64, "UInt64", object)
    counts = {"tp": [3, 4, 2**62 if wide else 2**31 - 1], "fp": [1, 2, 5], "fn": [2, 1, 7], "tn": [5, 6, 8]}
    frame = pd.DataFrame(counts).astype({"tp": dtype})
    rows = list(zip(*counts.values(), strict=True))
    assert micro_prf(frame) == micro_prf(rows)
    assert macro_prf(frame) == macro_prf(rows)
    assert micro_prf(frame[["tn", "fn", "fp", "tp"]]) == micro_prf(rows)  # read by name, any order


def test_a_float_count_is_blamed_on_its_own_column():
    frame = pd.DataFrame({"tp": [3, 4], "fp": [1, 2], "fn": [2, 1], "tn": [5.0, 6.5]})
    with pytest.raises(ValueError, match=r"^confusions\[0\]\.tn must be an integer"):
        micro_prf(frame)
    with pytest.raises(ValueError, match=r"^confusions\[1\]\.fn must be non-negative"):
        macro_prf(pd.DataFrame({"fn": [1, -1], "tp": [3, 4], "fp": [1, 2], "tn": [5, 6]}))


def test_a_memoryview_table_is_an_array():
    table = np.array([[3, 1, 2, 5], [4, 2, 1, 6]])
    assert micro_prf(memoryview(table)) == micro_prf(table.tolist())
    assert macro_prf(memoryview(table)) == macro_prf(table.tolist())
    assert friedman_test(memoryview(np.array([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3]]))).average_ranks.tolist() == [
        1.5,
        1.5,
        3.0,
    ]


# -- values beyond float64 --------------------------------------------------------------------------------------
def exact_bias_variance(p, yd, y) -> list[F]:
    """The five fields of bias_variance_decomposition from their formulas, in fractions, averaged over points."""
    t, n = len(p), len(y)
    totals = [F(0)] * 5
    for i in range(n):
        f = [F(row[i]) for row in p]
        o = [F(row[i]) for row in yd]
        yi = F(y[i])
        fm, om = sum(f) / t, sum(o) / t
        parts = [
            sum((a - b) ** 2 for a, b in zip(f, o, strict=True)) / t,
            (fm - yi) ** 2,
            sum((a - fm) ** 2 for a in f) / t,
            sum((b - yi) ** 2 for b in o) / t,
            -2 * sum((a - fm) * (b - om) for a, b in zip(f, o, strict=True)) / t + 2 * (fm - yi) * (yi - om),
        ]
        totals = [x + part for x, part in zip(totals, parts, strict=True)]
    return [x / n for x in totals]


def test_integers_beyond_two_to_the_53():
    big = 2**53
    assert mean_squared_error([big + 1, big], [big, big]) == 0.5
    r = bias_variance_decomposition([[big + 1], [big]], [[big], [big]], [big])
    assert list(r) == [float(x) for x in exact_bias_variance([[big + 1], [big]], [[big], [big]], [big])]
    assert r == (0.5, 0.25, 0.25, 0.0, 0.0)
    assert auc([big, big + 1], [1, 1]) == 1.0
    x, y = [0, big + 1, big + 3], [2**60 + 1, 2**60, 2**60 + 7]
    assert auc(x, y) == float(sum(literal_trapezoids(list(zip(x, y, strict=True)))))
    with pytest.raises(ValueError, match=r"x must be non-decreasing, but x\[1\] < x\[0\]"):
        auc([big + 1, big], [1, 1])
    with pytest.raises(ValueError, match=r"x must be non-decreasing, but x\[2\] < x\[1\]"):
        auc([0.0, 2**64 + 1, 2**64], [1, 1, 1])


@needs_long_double
def test_long_double_inputs_keep_their_digits():
    one, tiny = LD(1), LD(2) ** -60
    a, b = np.array([one + tiny, one]), np.array([one, one])
    assert mean_squared_error(a, b) == float(F(2**-60) ** 2 / 2)
    assert mean_squared_error(b, a) == mean_squared_error(a, b)
    r = bias_variance_decomposition(a.reshape(2, 1), b.reshape(2, 1), np.array([one]))
    assert list(r) == [float(x) for x in exact_bias_variance([[F(1) + F(2**-60)], [1]], [[1], [1]], [1])]
    assert r.variance > 0
    assert auc(np.array([one, one + tiny]), np.array([one, one])) == float(tiny)
    with pytest.raises(ValueError, match="x must be non-decreasing"):
        auc(np.array([one + tiny, one]), np.array([one, one]))


def test_float_inputs_take_the_float_route_bit_for_bit():
    rng = np.random.default_rng(39)
    p, yd, y = rng.normal(size=(5, 7)), rng.normal(size=(5, 7)), rng.normal(size=7)
    r = bias_variance_by_point(p, yd, y)
    assert np.array_equal(r.bias2, (p.mean(axis=0) - y) ** 2)
    x = np.sort(rng.random(7))
    assert auc(x, y) == float(0.5 * np.sum(np.diff(x) * (y[:-1] + y[1:])))


# -- normalized_cost: products that underflow or overflow -----------------------------------------------------
VALUES = [0.0, 5e-324, 1e-310, 1e-300, 1e-200, 1e-30, 0.25, 0.5, 1.0]
COSTS = [5e-324, 1e-300, 1e-30, 1.0, 3.0, 1e30, 1e300, 1.7e308]


def exact_normalized_cost(fnr, fpr, p, c01, c10) -> F:
    q = F(1.0 - p)  # the formula's 1 - p, rounded once as melearn rounds it
    positive, negative = F(p) * F(c01), q * F(c10)
    return (F(fnr) * positive + F(fpr) * negative) / (positive + negative)


def test_normalized_cost_against_exact_fractions():
    checked = wrong = 0
    tiny = F(np.finfo(float).tiny)
    for fnr, fpr, p, c01, c10 in itertools.product(VALUES[::2], VALUES[1::2], [1e-300, 0.1, 0.5, 0.9], COSTS, COSTS):
        exact = exact_normalized_cost(fnr, fpr, p, c01, c10)
        got = normalized_cost(fnr, fpr, p, c01, c10)
        checked += 1
        # normal results to a few units of rounding; subnormal ones to a few units of 2**-1074
        if exact >= tiny:
            wrong += abs(F(got) - exact) > exact * F(2**-50)
        else:
            wrong += abs(F(got) - exact) > 4 * F(5e-324)
    assert checked == 5 * 4 * 4 * 8 * 8
    assert wrong == 0
    assert normalized_cost(1e-300, 1e-300, 0.5, 1e-30, 1e-30) == 1e-300


# -- durations, dates, and other things that are not numbers --------------------------------------------------
SECONDS = np.timedelta64(10, "s")
DAY = np.datetime64("2026-01-01")


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda v: mcnemar_test(v, 25), "e01"),
        (lambda v: mcnemar_test(10, v), "e10"),
        (lambda v: mcnemar_test(10, 25, alpha=v), "alpha"),
        (lambda v: binomial_critical_error(v, 0.3), "m"),
        (lambda v: binomial_critical_error(10, v), "eps0"),
        (lambda v: t_test([0.1, 0.2], v), "eps0"),
        (lambda v: normalized_cost(0.1, 0.2, 0.5, v, 1.0), "cost01"),
        (lambda v: normalized_cost(0.1, 0.2, 0.5, 1.0, v), "cost10"),
        (lambda v: melearn.positive_probability_cost(0.5, v, 1.0), "cost01"),
        (lambda v: melearn.nemenyi_q(v), "k"),
        (lambda v: melearn.nemenyi_cd(4, v), "n_datasets"),
        (lambda v: melearn.f_beta([0, 1], [0, 1], beta=v), "beta"),
        (lambda v: melearn.bootstrap_sample(v, 0), "m"),
        (lambda v: melearn.kfold_split([0, 1, 0, 1], v, 0), "k"),
        (lambda v: melearn.holdout_split([0, 1, 0, 1], v, 0), "test_size"),
        (lambda v: melearn.bootstrap_sample(5, v), "rng"),
    ],
)
@pytest.mark.parametrize("value", [SECONDS, DAY, np.array(SECONDS)], ids=["timedelta64", "datetime64", "0-d"])
def test_durations_and_dates_are_not_numbers(call, name, value):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call(value)


@pytest.mark.parametrize("array", [np.array([1, 2], dtype="m8[s]"), np.array(["2026-01-01"] * 2, dtype="M8[D]")])
def test_duration_arrays_are_refused_by_name(array):
    with pytest.raises(ValueError, match="^y_score"):
        melearn.roc_auc([0, 1], array)
    with pytest.raises(ValueError, match="^errors"):
        t_test(array, 0.5)
    with pytest.raises(ValueError, match="^y_true"):
        mean_squared_error(array, [1, 2])


# -- subnormal error rates ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "errors", [[1e-320, 3e-320, 2e-320], [1e-321, 4e-321, 2e-321, 8e-321], [1e-310, 1.5e-310, 3e-310]]
)
def test_t_test_keeps_the_digits_of_subnormal_rates(errors):
    eps0 = 1e-320
    k = len(errors)
    e = [F(v) for v in errors]
    mu = sum(e) / k
    var = sum((v - mu) ** 2 for v in e) / (k - 1)
    with mpmath.workdps(40):
        difference = mu - F(eps0)
        tau = (
            mpmath.sqrt(k)
            * (mpmath.mpf(difference.numerator) / difference.denominator)
            / mpmath.sqrt(mpmath.mpf(var.numerator) / var.denominator)
        )
        assert t_test(errors, eps0).statistic == pytest.approx(float(tau), rel=4e-16)
    if errors[0] == 1e-320:
        assert t_test(errors, eps0).statistic == pytest.approx(3**0.5, rel=4e-16)  # the case: exactly sqrt(3)


def test_a_spread_of_a_few_subnormal_units_is_rounding_noise():
    # the Limits line: spreads below 64 units of rounding (here 2**-1074) count as zero, by name
    with pytest.raises(ValueError, match="^errors differ only by rounding"):
        t_test([5e-324, 2e-323, 1e-323, 4e-323], 1e-320)
