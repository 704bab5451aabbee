r"""Testing a learner's generalization error rate: formulas (2.26)-(2.30) of section 2.4.1 (假设检验).

Derived and checked in the book pages ``chapters/binomial_test.ipynb`` (2.26)-(2.27) as printed,
``chapters/binomial_test_corrected.ipynb`` ((2.27) as corrected: the binomial test, 二项检验) and
``chapters/t_test.ipynb`` ((2.28)-(2.30): the :math:`t`-test over :math:`k` test error rates, t检验).

Conventions
-----------
:math:`\epsilon_0` is the generalization error rate (泛化错误率) named by the hypothesis, :math:`\alpha` the
significance level (显著度) and :math:`1 - \alpha` the confidence (置信度). A test error rate (测试错误率) is a
fraction of misclassified test samples, so on :math:`m` samples it is a multiple of :math:`1/m`.

The binomial test is **one-sided**, as in the book: it tests :math:`H_0: \epsilon \le \epsilon_0` against
:math:`H_1: \epsilon > \epsilon_0`. The :math:`t`-test is two-sided, as in the book, unless asked otherwise.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from scipy import stats

from ._validation import (
    as_choice,
    as_error_rates,
    check_open_unit,
    check_positive_int,
    check_unit_interval,
    checked_isf,
)

__all__ = ["BinomialTestResult", "TTestResult", "binomial_critical_error", "binomial_tail_below", "t_test"]

# A floating-point tail P(X > C) this close to alpha (relatively) is not trusted to decide "tail < alpha": the
# decision is then taken exactly (m <= EXACT_MAX_M) or at high precision (larger m). SciPy's tail is accurate to
# about 1e-15 relatively, so the band only catches genuine near-ties.
TIE_RTOL = 1e-9
# A spread smaller than this many units of rounding of the largest error rate is rounding noise (as in
# melearn.paired_t_tests): the t statistic would divide by it.
_ROUNDING_UNITS = 64
# Up to this m a near-tie is decided in exact integer arithmetic (at most m/2 big-integer terms, ~0.1 s at 2000).
EXACT_MAX_M = 2000
# Beyond EXACT_MAX_M a near-tie is decided by a truncated sum at this many significant digits, and a tail that
# agrees with alpha to TIE_DIGITS digits is taken as equal to it (so "tail < alpha" is false).
HIGH_PRECISION_DPS = 60
TIE_DIGITS = 40
# After SciPy's quantile the critical count is adjusted by +-1 steps; more steps than this switch to bisection.
MAX_WALK = 8
# The exact route works with integers of about m * bits(denominator of eps0) bits; a subnormal eps0 has a
# denominator of 2**1074, so the exact route is taken only below this size (that of m = 2000, eps0 = 0.3).
EXACT_MAX_BITS = 2000 * 64
#: The largest m of binomial_critical_error: a near-tie beyond EXACT_MAX_M sums O(sqrt(m)) terms at high
#: precision (about 3 s at 10**8).
BINOMIAL_MAX_M = 10**8


class BinomialTestResult(NamedTuple):
    r"""The binomial test of :math:`H_0: \epsilon \le \epsilon_0`, formula (2.27) as corrected.

    Attributes
    ----------
    statistic : float or None
        The observed test error rate :math:`\hat\epsilon`; ``None`` when no observation was given.
    critical_value : float
        The critical error rate :math:`\bar\epsilon = \bar C / m` (临界值).
    reject : bool or None
        Whether :math:`H_0` is rejected at level :math:`\alpha`: ``statistic > critical_value``, decided exactly on
        the error count; ``None`` when no observation was given.
    p_value : float or None
        :math:`P_{\epsilon_0}(X \ge \hat\epsilon m)`, the one-sided p-value; ``None`` without an observation.
    df : None
        Always ``None``: the binomial distribution :math:`B(m, \epsilon_0)` has no degrees of freedom. The field is
        kept so that every test record of melearn starts with the same five fields.
    critical_count : int
        :math:`\bar C`, the smallest :math:`C` with :math:`P_{\epsilon_0}(X > C) < \alpha`.
    size : float
        :math:`P_{\epsilon_0}(X > \bar C)`, the actual size (type-I error rate at :math:`\epsilon = \epsilon_0`)
        of the test; below :math:`\alpha`.
    size_one_lower : float
        :math:`P_{\epsilon_0}(X > \bar C - 1)`, the size the test would have with critical count
        :math:`\bar C - 1`; at least :math:`\alpha` (1.0 when :math:`\bar C = 0`). ``size`` and
        ``size_one_lower`` are the two sizes that bracket :math:`\alpha`.
    observed_errors : int or None
        :math:`\hat\epsilon m`, the observed number of misclassified samples.
    """

    statistic: float | None
    critical_value: float
    reject: bool | None
    p_value: float | None
    df: None
    critical_count: int
    size: float
    size_one_lower: float
    observed_errors: int | None


class TTestResult(NamedTuple):
    r"""The :math:`t`-test of formulas (2.28)-(2.30) over :math:`k` test error rates.

    Attributes
    ----------
    statistic : float
        :math:`\tau_t = \sqrt{k}\,(\mu - \epsilon_0) / \sigma`, formula (2.30).
    critical_value : float
        For the two-sided test, :math:`t_{\alpha/2}`, the upper :math:`\alpha/2` point of :math:`t(k-1)`; the
        region :math:`[-t_{\alpha/2}, t_{\alpha/2}]` is accepted. For ``"greater"``, :math:`t_\alpha`; for
        ``"less"``, :math:`-t_\alpha`.
    reject : bool
        Whether :math:`H_0: \mu = \epsilon_0` is rejected at level :math:`\alpha`.
    p_value : float
        The p-value of ``statistic`` under :math:`t(k-1)` for the chosen alternative.
    df : int
        The degrees of freedom, :math:`k - 1`.
    mean : float
        :math:`\mu`, the mean of the error rates, formula (2.28).
    variance : float
        :math:`\sigma^2`, their variance with the :math:`k - 1` denominator, formula (2.29).
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: int
    mean: float
    variance: float


# -- the binomial test -----------------------------------------------------------------------------------------
def _exact_tail(c: int, m: int, eps0: float) -> Fraction:
    r""":math:`P(X > c)` for :math:`X \sim B(m, \epsilon_0)` as an exact fraction (``eps0`` as its exact binary value).

    With :math:`\epsilon_0 = a/b`, the tail is :math:`b^{-m} \sum_{i>c} \binom{m}{i} a^i (b-a)^{m-i}`; the
    shorter of the two sides of ``c`` is summed in integers. Used for near-ties only, with ``m <= EXACT_MAX_M``.
    """
    a, b = Fraction(eps0).as_integer_ratio()
    if c + 1 > m - c:  # few upper terms: sum i = c+1..m
        lo, hi, complement = c + 1, m, False
    else:  # few lower terms: 1 - sum i = 0..c
        lo, hi, complement = 0, c, True
    term = math.comb(m, lo) * a**lo * (b - a) ** (m - lo)
    total = 0
    for i in range(lo, hi + 1):
        total += term
        if i < hi:  # binom(m, i+1) a^(i+1) (b-a)^(m-i-1), an exact integer division
            term = term * (m - i) * a // ((i + 1) * (b - a))
    tail = Fraction(total, b**m)
    return 1 - tail if complement else tail


def _bernoulli_even(count: int) -> list[Fraction]:
    r"""The Bernoulli numbers :math:`B_2, B_4, \ldots, B_{2\,count}`, exact (Akiyama-Tanigawa algorithm)."""
    n_max = 2 * count
    row: list[Fraction] = []
    numbers = []
    for n in range(n_max + 1):
        row.append(Fraction(1, n + 1))
        for j in range(n, 0, -1):
            row[j - 1] = j * (row[j - 1] - row[j])
        numbers.append(row[0])  # B_n (with B_1 = +1/2, unused here)
    return [numbers[2 * k] for k in range(1, count + 1)]


# ln n! by Stirling's series from this n on; below it, the logarithm of the exact integer n!. With 20 terms the
# series' error at n = 1000 is below the first omitted term, |B_42| / (42 * 41 * 1000**41) < 1e-100.
_STIRLING_MIN_N = 1000
_STIRLING_TERMS = _bernoulli_even(20)


def _decimal_pi() -> decimal.Decimal:
    r""":math:`\pi` to the current decimal context's precision (the recipe of the :mod:`decimal` documentation)."""
    decimal.getcontext().prec += 2
    three = decimal.Decimal(3)
    lasts, t, s, n, na, d, da = decimal.Decimal(0), three, three, 1, 0, 0, 24
    while s != lasts:
        lasts = s
        n, na = n + na, na + 8
        d, da = d + da, da + 32
        t = (t * n) / d
        s += t
    decimal.getcontext().prec -= 2
    return +s


def _ln_factorial(n: int, ln_two_pi: decimal.Decimal) -> decimal.Decimal:
    r""":math:`\ln n!` in the current decimal context: exact n! below ``_STIRLING_MIN_N``, Stirling's series above."""
    if n < _STIRLING_MIN_N:
        return decimal.Decimal(math.factorial(n)).ln()
    x = decimal.Decimal(n)
    total = x * x.ln() - x + (ln_two_pi + x.ln()) / 2
    power = x
    x2 = x * x
    for k, b in enumerate(_STIRLING_TERMS, start=1):
        total += decimal.Decimal(b.numerator) / (decimal.Decimal(b.denominator * 2 * k * (2 * k - 1)) * power)
        power *= x2
    return total


def _high_precision_tail(c: int, m: int, eps0: float) -> decimal.Decimal:
    """:math:`P(X > c)` to about ``HIGH_PRECISION_DPS`` digits, summing only the terms that matter.

    Terms fall geometrically away from the mode, so the sum starts at the side of ``c`` next to the mode and stops
    once the rest is provably below the working precision (ratio bound). O(sqrt(m)) terms, for near-ties only.
    The arithmetic is Python's :mod:`decimal` in a context of its own (``decimal.localcontext``, which is local to
    the calling thread and restored on return): no process-wide precision is changed, so threads may call this at
    once.
    """
    # the digits of ln m! (up to 1e9 at m = 1e8) come on top of the digits the tail needs
    precision = HIGH_PRECISION_DPS + 10 + len(str(m)) + 2
    with decimal.localcontext(prec=precision, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX):
        ln_two_pi = (2 * _decimal_pi()).ln()
        p = decimal.Decimal(eps0)  # the exact binary value of eps0
        q = 1 - p
        mode = math.floor((m + 1) * eps0)
        upper = c + 1 >= mode  # summing upwards from c+1 the terms decrease; else sum i = c, c-1, ... downwards
        i = c + 1 if upper else c
        log_term = (
            _ln_factorial(m, ln_two_pi)
            - _ln_factorial(i, ln_two_pi)
            - _ln_factorial(m - i, ln_two_pi)
            + i * p.ln()
            + (m - i) * q.ln()
        )
        term = log_term.exp()
        total = decimal.Decimal(0)
        tolerance = decimal.Decimal(10) ** (-(HIGH_PRECISION_DPS + 5))
        while True:
            total += term
            if upper:
                if i == m:
                    break
                ratio = (m - i) * p / ((i + 1) * q)  # pmf(i+1) / pmf(i), decreasing in i
                i += 1
            else:
                if i == 0:
                    break
                ratio = i * q / ((m - i + 1) * p)  # pmf(i-1) / pmf(i), decreasing as i falls
                i -= 1
            term *= ratio
            # every later ratio is smaller, so the rest is at most term / (1 - ratio)
            if ratio < 1 and term / (1 - ratio) < tolerance * total:
                total += term / (1 - ratio) / 2  # the rest lies in (0, term / (1 - ratio)): take the middle
                break
        return +total if upper else 1 - total


def binomial_tail_below(c: int, m: int, eps0: float, alpha: float) -> bool:
    r"""Decide :math:`P(X > c) < \alpha` for :math:`X \sim B(m, \epsilon_0)`, exactly at ties.

    Floating point decides when the tail is not within a relative ``TIE_RTOL`` of ``alpha``; a near-tie is decided
    in exact rational arithmetic for ``m <= EXACT_MAX_M`` and at ``HIGH_PRECISION_DPS`` digits beyond (a tail equal
    to ``alpha`` in ``TIE_DIGITS`` digits counts as equal). ``eps0`` and ``alpha`` are taken at their exact binary
    values. Arguments are not validated (internal helper of :func:`binomial_critical_error`).
    """
    if c >= m:
        return True  # P(X > m) = 0 < alpha
    if c < 0:
        return False  # P(X > -1) = 1 >= alpha
    tail = float(stats.binom.sf(c, m, eps0))
    if abs(tail - alpha) > TIE_RTOL * alpha and alpha >= np.finfo(float).tiny:
        return tail < alpha
    if m <= EXACT_MAX_M and m * Fraction(eps0).denominator.bit_length() <= EXACT_MAX_BITS:
        return _exact_tail(c, m, eps0) < Fraction(alpha)
    precise = _high_precision_tail(c, m, eps0)
    a = decimal.Decimal(alpha)  # exact
    with decimal.localcontext(prec=HIGH_PRECISION_DPS, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX):
        if abs(precise - a) <= a.scaleb(-TIE_DIGITS):
            return False  # a tie: the tail equals alpha, and "< alpha" fails
        return bool(precise < a)


def _critical_count(m: int, eps0: float, alpha: float) -> int:
    """The smallest C in {0, ..., m} with P(X > C) < alpha: SciPy's quantile, then exact +-1 adjustments."""
    start = float(stats.binom.isf(alpha, m, eps0))  # smallest k with sf(k) <= alpha, in floating point
    c = int(min(max(start, 0.0), float(m))) if math.isfinite(start) else m
    for _ in range(MAX_WALK):
        if not binomial_tail_below(c, m, eps0, alpha):
            c += 1  # the tail at c is still >= alpha
        elif binomial_tail_below(c - 1, m, eps0, alpha):
            c -= 1  # a smaller count already works
        else:
            return c
    # the quantile was far off (never seen): bisect, the tail being decreasing in C
    lo, hi = -1, m  # below(lo) is False, below(hi) is True
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if binomial_tail_below(mid, m, eps0, alpha):
            hi = mid
        else:
            lo = mid
    return hi


def binomial_critical_error(m, eps0, *, alpha=0.05, observed=None) -> BinomialTestResult:
    r"""The critical error rate of the one-sided binomial test: formula (2.27) as corrected.

    Tests :math:`H_0: \epsilon \le \epsilon_0` (the generalization error rate is at most :math:`\epsilon_0`)
    against :math:`H_1: \epsilon > \epsilon_0`, from the number :math:`X = \hat\epsilon m` of test samples that a
    learner misclassifies among :math:`m`, where :math:`X \sim B(m, \epsilon)` by formula (2.26). The critical
    value is

    .. math:: \bar\epsilon = \min \epsilon \quad \text{s.t.} \quad
              \sum_{i = \epsilon m + 1}^{m} \binom{m}{i} \epsilon_0^i (1 - \epsilon_0)^{m - i} < \alpha,

    with :math:`\epsilon` ranging over :math:`\{0, 1/m, \ldots, 1\}`, i.e. :math:`\bar\epsilon = \bar C / m` for
    the smallest count :math:`\bar C` with :math:`P_{\epsilon_0}(X > \bar C) < \alpha`. :math:`H_0` is rejected
    when :math:`\hat\epsilon > \bar\epsilon`; the size of this test, :math:`P_{\epsilon_0}(X > \bar C)`, is below
    :math:`\alpha`. Derived in ``chapters/binomial_test_corrected.ipynb``; the printed form of (2.27) is discussed
    in ``chapters/binomial_test.ipynb``.

    Parameters
    ----------
    m : int
        The number of test samples, at least 1.
    eps0 : float
        :math:`\epsilon_0`, the error rate of the hypothesis, strictly between 0 and 1.
    alpha : float, default 0.05
        The significance level :math:`\alpha` (显著度), strictly between 0 and 1; keyword-only.
    observed : float, optional
        The observed test error rate :math:`\hat\epsilon`, a multiple of :math:`1/m` in [0, 1] (for a count
        :math:`x` of misclassified samples pass ``x / m``). Without it the test's critical value is returned and
        ``statistic``, ``reject``, ``p_value`` and ``observed_errors`` are ``None``.

    Returns
    -------
    BinomialTestResult
        ``statistic`` (:math:`\hat\epsilon`), ``critical_value`` (:math:`\bar\epsilon`), ``reject``,
        ``critical_count`` (:math:`\bar C`), ``size``, ``size_one_lower``, ``p_value``, ``observed_errors``.

    Raises
    ------
    ValueError
        If ``m`` is not an integer in [1, ``BINOMIAL_MAX_M``], ``eps0`` or ``alpha`` is not strictly between 0 and
        1, or ``observed`` is not in [0, 1] or not a multiple of ``1 / m``.

    Notes
    -----
    The inequality is strict, and it is decided exactly: a tail that SciPy computes within a relative
    ``TIE_RTOL`` of ``alpha`` is recomputed in exact rational arithmetic (``m <= EXACT_MAX_M``) or with
    ``HIGH_PRECISION_DPS`` digits (a tail equal to ``alpha`` in ``TIE_DIGITS`` digits counts as a tie), with
    ``eps0`` and ``alpha`` taken at their exact binary values. So with ``m = 3, eps0 = 0.5, alpha = 0.5``,
    where :math:`P(X > 1) = 1/2` exactly, :math:`\bar C = 2`. The search starts at SciPy's quantile
    ``binom.isf`` and moves by single steps, so it costs a few evaluations of the binomial tail whatever ``m``.

    Limits: m up to ``BINOMIAL_MAX_M`` = 10**8 (a near-tie beyond ``EXACT_MAX_M`` sums O(sqrt(m)) terms at high
    precision, about 3 s at the limit); beyond, ``ValueError``. Any ``eps0`` and ``alpha`` in (0, 1) are
    accepted, subnormal ones included: the decision "tail < alpha" is taken exactly where the floating-point tail
    is within ``TIE_RTOL`` of ``alpha`` or ``alpha`` is subnormal. ``size`` and ``p_value`` are floating-point
    tails: below about 1e-308 they lose relative precision, and below 5e-324 they are 0.

    ``reject`` is ``True`` exactly when the one-sided p-value :math:`P_{\epsilon_0}(X \ge \hat\epsilon m)` is
    below ``alpha``, which is what ``scipy.stats.binomtest(x, m, eps0, alternative="greater")`` reports. The
    book's wording "not rejected if :math:`\hat\epsilon < \bar\epsilon`" would reject at
    :math:`\hat\epsilon = \bar\epsilon`, where the size exceeds :math:`\alpha` (see the book page).

    References
    ----------
    Zhou Zhihua, *Machine Learning* (机器学习), section 2.4.1; the pumpkin book (南瓜书), appendix to (2.27);
    Casella and Berger, *Statistical Inference*, 2nd ed., section 8.3.

    Examples
    --------
    Ten test samples, :math:`H_0: \epsilon \le 0.3`, :math:`\alpha = 0.05` (the example of the binomial-test pages):

    >>> r = binomial_critical_error(10, 0.3, alpha=0.05, observed=0.6)
    >>> r.critical_count, r.critical_value, r.reject
    (5, 0.5, True)
    >>> print(f"{r.size:.4f} < 0.05 <= {r.size_one_lower:.4f}")
    0.0473 < 0.05 <= 0.1503
    >>> binomial_critical_error(10, 0.3, alpha=0.05, observed=0.5).reject
    False
    """
    m = check_positive_int(m, "m", maximum=BINOMIAL_MAX_M, why="BINOMIAL_MAX_M")
    eps0 = check_open_unit(eps0, "eps0")
    alpha = check_open_unit(alpha, "alpha")
    errors = None
    if observed is not None:
        rate = check_unit_interval(observed, "observed")
        errors = round(rate * m)
        if abs(rate * m - errors) > 1e-6:
            raise ValueError(f"observed must be a multiple of 1/m = 1/{m} (a test error rate), got {rate!r}")
    c = _critical_count(m, eps0, alpha)
    size = float(stats.binom.sf(c, m, eps0))
    size_one_lower = float(stats.binom.sf(c - 1, m, eps0)) if c > 0 else 1.0
    if errors is None:
        return BinomialTestResult(None, c / m, None, None, None, c, size, size_one_lower, None)
    p_value = float(stats.binom.sf(errors - 1, m, eps0))
    return BinomialTestResult(errors / m, c / m, bool(errors > c), p_value, None, c, size, size_one_lower, errors)


# -- the t-test ------------------------------------------------------------------------------------------------
_ALTERNATIVES = ("two-sided", "greater", "less")


def t_test(errors, eps0, *, alpha=0.05, alternative="two-sided") -> TTestResult:
    r"""The :math:`t`-test of :math:`H_0: \mu = \epsilon_0` over :math:`k` test error rates: formulas (2.28)-(2.30).

    With :math:`k` test error rates :math:`\hat\epsilon_1, \ldots, \hat\epsilon_k` (from repeated hold-out or
    cross-validation),

    .. math:: \mu = \frac{1}{k} \sum_{i=1}^{k} \hat\epsilon_i, \qquad
              \sigma^2 = \frac{1}{k-1} \sum_{i=1}^{k} (\hat\epsilon_i - \mu)^2, \qquad
              \tau_t = \frac{\sqrt{k}\,(\mu - \epsilon_0)}{\sigma},

    and :math:`\tau_t` follows :math:`t(k-1)` when the error rates are independent normal draws with mean
    :math:`\epsilon_0`. The book's test is two-sided: :math:`H_0` is kept when
    :math:`\tau_t \in [-t_{\alpha/2}, t_{\alpha/2}]` and rejected otherwise. Derived in ``chapters/t_test.ipynb``.

    Parameters
    ----------
    errors : array-like of shape (k,)
        The test error rates, each in [0, 1]; at least two, and not all equal.
    eps0 : float
        :math:`\epsilon_0`, the error rate of the hypothesis, strictly between 0 and 1.
    alpha : float, default 0.05
        The significance level, strictly between 0 and 1; keyword-only.
    alternative : {"two-sided", "greater", "less"}, optional
        ``"two-sided"`` (the book) rejects when :math:`|\tau_t| > t_{\alpha/2}`; ``"greater"`` tests
        :math:`H_1: \mu > \epsilon_0` and rejects when :math:`\tau_t > t_\alpha`; ``"less"`` rejects when
        :math:`\tau_t < -t_\alpha`.

    Returns
    -------
    TTestResult
        ``statistic`` (:math:`\tau_t`), ``critical_value``, ``reject``, ``mean`` (:math:`\mu`), ``variance``
        (:math:`\sigma^2`), ``df`` (:math:`k-1`), ``p_value``.

    Raises
    ------
    ValueError
        If ``errors`` is not 1-dimensional, has fewer than two values, holds NaN, inf, booleans or values
        outside [0, 1], or all its values are equal, even up to rounding (:math:`\sigma = 0`, so :math:`\tau_t`
        is undefined); if ``eps0`` or ``alpha`` is not strictly between 0 and 1 or too small for an accurate
        critical value (see Limits); or if ``alternative`` is not one of the three above.

    Notes
    -----
    The book compares ":math:`|\mu - \epsilon_0|`" with the critical values; it is :math:`\tau_t`, the
    standardized difference, that follows :math:`t(k-1)` and must be compared. Error rates from one
    :math:`k`-fold cross-validation share training data and are not independent, which this test assumes.

    Limits: any k >= 2 that fits in memory (time O(k)). Error rates whose spread is only rounding (sigma below 64
    units of rounding of the largest rate) are refused as equal; the deviations are scaled before squaring, so
    rates down to 5e-324 keep their spread; a :math:`\tau_t` beyond the float range is refused. ``alpha`` is
    refused when SciPy's t quantile does not give it back through the survival function to a relative 1e-6
    (below about 1e-150 for one degree of freedom, k = 2; 1e-160 for three, k = 4; 1e-265 for five, k = 6;
    1e-270 for any other k): no search bracket or inf is ever returned as the critical value.

    References
    ----------
    Zhou Zhihua, *Machine Learning* (机器学习), section 2.4.1, table 2.3.

    Examples
    --------
    >>> r = t_test([0.12, 0.10, 0.15, 0.11, 0.14], eps0=0.10, alpha=0.05)
    >>> print(f"mu={r.mean:.3f} tau={r.statistic:.4f} t_crit={r.critical_value:.4f} reject={r.reject}")
    mu=0.124 tau=2.5880 t_crit=2.7764 reject=False
    """
    e = as_error_rates(errors, "errors")  # the one range policy: error rates in [0, 1], booleans refused
    k = e.size
    if k < 2:
        raise ValueError(f"errors must hold at least 2 test error rates (k >= 2), got {k}")
    eps0 = check_open_unit(eps0, "eps0")
    alpha = check_open_unit(alpha, "alpha")
    alternative = as_choice(alternative, "alternative", _ALTERNATIVES)
    if np.all(e == e[0]):
        raise ValueError("errors are all equal: sigma = 0 in (2.29), so tau_t in (2.30) is undefined")
    # Everything is computed on the error rates scaled by a power of two 2**-E near the largest (exact, and bit
    # for bit the plain formulas wherever these neither overflow nor underflow), so that subnormal error rates
    # (below 2.2e-308, where a float keeps fewer digits) keep every digit of their mean, spread and tau_t.
    _, big = np.frexp(np.max(np.abs(e)))
    big = int(big)
    es = np.ldexp(e, -big)
    mu_scaled = float(np.mean(es))  # (2.28), times 2**-E
    mu = math.ldexp(mu_scaled, big)  # reported; a subnormal mean is rounded here only
    # (2.29), k - 1 in the denominator. The deviations are scaled by a power of two near the largest before they
    # are squared, so error rates that differ by 1e-300 still give their spread rather than 0.
    deviations = es - mu_scaled
    _, scale = np.frexp(np.max(np.abs(deviations)))
    scale = int(scale)
    scaled_variance = float(np.sum(np.ldexp(deviations, -scale) ** 2) / (k - 1))
    sigma_scaled = math.ldexp(math.sqrt(scaled_variance), scale)  # sigma times 2**-E
    variance = math.ldexp(scaled_variance, 2 * (scale + big))  # reported; may underflow to 0 below 1e-308 alone
    # a unit of rounding of the largest error rate (for subnormals, 2**-1074), times 2**-E
    rounding_unit = max(np.finfo(np.float64).eps * float(np.max(np.abs(es))), math.ldexp(5e-324, -big))
    if not sigma_scaled > _ROUNDING_UNITS * rounding_unit:
        raise ValueError(
            "errors differ only by rounding (sigma in (2.29) is below 64 units of rounding of the largest error "
            "rate), so tau_t in (2.30) would divide by noise; treat them as equal"
        )
    with np.errstate(over="ignore"):
        # eps0 * 2**-E overflows only where tau_t itself does (it is then at least sqrt(k / 2) times as large)
        try:
            eps0_scaled = math.ldexp(eps0, -big)
        except OverflowError:
            eps0_scaled = math.inf
        tau = math.sqrt(k) * (mu_scaled - eps0_scaled) / sigma_scaled  # (2.30)
    if not math.isfinite(tau):
        raise ValueError("errors have so small a spread that tau_t in (2.30) exceeds the largest float (1.8e308)")
    df = k - 1
    if alternative == "two-sided":
        critical = checked_isf(stats.t, alpha / 2, df)
        reject = abs(tau) > critical
        p_value = float(2 * stats.t.sf(abs(tau), df))
    elif alternative == "greater":
        critical = checked_isf(stats.t, alpha, df)
        reject = tau > critical
        p_value = float(stats.t.sf(tau, df))
    else:
        critical = -checked_isf(stats.t, alpha, df)
        reject = tau < critical
        p_value = float(stats.t.cdf(tau, df))
    return TTestResult(tau, critical, bool(reject), min(p_value, 1.0), df, mu, variance)
