"""melearn from several threads at once: no call changes process-wide state, so concurrent answers are sequential ones.

The binomial test's near-ties beyond ``EXACT_MAX_M`` are decided at high precision. That precision lives in a
:mod:`decimal` context local to the calling thread (``decimal.localcontext``), not in a process-wide setting such
as ``mpmath.mp.dps``: two threads that set and restored a global precision would leave it at the wrong value for
each other, and a tail summed at the other thread's precision can move the critical count by one.
"""

from __future__ import annotations

import decimal
import math
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from melearn import binomial_critical_error, friedman_test, mcnemar_test, roc_auc, t_test
from melearn.hypothesis_testing import (
    EXACT_MAX_M,
    _decimal_pi,
    _exact_tail,
    _high_precision_tail,
    _ln_factorial,
    binomial_tail_below,
)


def near_ties() -> list[tuple[int, float, float]]:
    """(m, eps0, alpha) beyond EXACT_MAX_M with alpha the floating-point tail at some count: a near-tie each."""
    cases = []
    for m, eps0 in ((EXACT_MAX_M + 1, 0.5), (2500, 0.3), (3001, 0.1), (4000, 0.45)):
        centre = int(stats.binom.isf(0.2, m, eps0))
        for c in (centre - 2, centre, centre + 3):
            cases.append((m, eps0, float(stats.binom.sf(c, m, eps0))))
    cases.append((2001, 0.5, 0.23719690446892291))  # the case in which a count of 1017 was seen instead of 1016
    return cases


CASES = near_ties()


def test_the_cases_take_the_high_precision_route(monkeypatch):
    calls = []
    original = _high_precision_tail

    def counted(c, m, eps0):
        calls.append((c, m, eps0))
        return original(c, m, eps0)

    monkeypatch.setattr("melearn.hypothesis_testing._high_precision_tail", counted)
    for m, eps0, alpha in CASES:
        binomial_critical_error(m, eps0, alpha=alpha)
    assert {m for _, m, _ in calls} == {m for m, _, _ in CASES}


def test_high_precision_tail_equals_the_exact_fraction():
    # the exact rational tail (any m, slow) against the decimal route, at both sides of the mode
    for c, m, eps0 in ((1016, 2001, 0.5), (700, 2500, 0.3), (250, 3001, 0.1), (330, 3001, 0.1)):
        exact = _exact_tail(c, m, eps0)
        precise = Fraction(_high_precision_tail(c, m, eps0))
        assert abs(precise - exact) <= exact * Fraction(1, 10**55), (c, m, eps0)


def test_ln_factorial_by_stirling_meets_the_exact_factorial():
    with decimal.localcontext(prec=90):
        ln_two_pi = (2 * _decimal_pi()).ln()
        with mpmath.workdps(100):
            assert abs(_decimal_pi() - decimal.Decimal(str(+mpmath.pi))) < decimal.Decimal(10) ** -85
        for n in (1000, 1001, 2500, 10_000):  # the series (n >= 1000) against the logarithm of n! itself
            series = _ln_factorial(n, ln_two_pi)
            exact = decimal.Decimal(math.factorial(n)).ln()
            assert abs(series - exact) < decimal.Decimal(10) ** -70, n


def test_concurrent_calls_give_the_sequential_answers():
    sequential = [binomial_critical_error(m, eps0, alpha=alpha) for m, eps0, alpha in CASES]
    assert sequential[-1].critical_count == 1016  # P(X > 1016) < alpha <= P(X > 1015), decided exactly below
    assert _exact_tail(1016, 2001, 0.5) < Fraction(0.23719690446892291) <= _exact_tail(1015, 2001, 0.5)
    jobs = [i for i in range(len(CASES)) for _ in range(8)]  # a multiple of the 8 threads that start together
    random.Random(39).shuffle(jobs)
    prec_before, dps_before = decimal.getcontext().prec, mpmath.mp.dps
    barrier = threading.Barrier(8)

    def run(i):
        barrier.wait(timeout=60)  # eight calls start together, so that they overlap
        m, eps0, alpha = CASES[i]
        return i, binomial_critical_error(m, eps0, alpha=alpha)

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(run, jobs))
    assert all(result == sequential[i] for i, result in answers)
    # nothing process-wide was changed: this thread's decimal context and mpmath's precision are as they were
    assert (decimal.getcontext().prec, mpmath.mp.dps) == (prec_before, dps_before)


def test_a_global_precision_set_elsewhere_does_not_change_the_answer():
    # another thread (or the caller) may run at any decimal or mpmath precision: the decision does not follow it
    m, eps0, alpha = CASES[-1]
    with decimal.localcontext(prec=5), mpmath.workdps(8):
        assert binomial_critical_error(m, eps0, alpha=alpha).critical_count == 1016
        assert not binomial_tail_below(1015, m, eps0, alpha)


@pytest.mark.parametrize(
    "call",
    [
        lambda rng: roc_auc(rng.integers(0, 2, 2000), rng.random(2000)),
        lambda rng: friedman_test(rng.random((12, 4))).p_value,
        lambda rng: mcnemar_test(int(rng.integers(1, 50)), int(rng.integers(1, 50))).p_value,
        lambda rng: t_test(rng.random(6) * 0.5, 0.25).statistic,
    ],
    ids=["roc_auc", "friedman_test", "mcnemar_test", "t_test"],
)
def test_other_functions_from_threads(call):
    seeds = list(range(24))
    sequential = [call(np.random.default_rng(s)) for s in seeds]
    with ThreadPoolExecutor(max_workers=6) as pool:
        concurrent = list(pool.map(lambda s: call(np.random.default_rng(s)), seeds))
    assert concurrent == sequential
