r"""Cross-validated t-tests (交叉验证t检验), section 2.4.2: formulas (2.31) and (2.32).

* :func:`paired_t_test`, formula (2.31): the :math:`k`-fold cross-validated paired t-test (成对t检验).
* :func:`cv52_t_test`, formula (2.32): the 5x2 cross-validated t-test (5×2交叉验证t检验), with the book's
  numerator or Dietterich's.

Derived and checked in the book page ``chapters/paired_t_tests.ipynb``. McNemar's test of section 2.4.3 is in
:mod:`melearn.mcnemar`.

Besides the tests, the module computes their *size*, the probability of rejecting a true null hypothesis, under
the models the page analyses (:func:`paired_t_test_size`, :func:`cv52_t_test_size`), and offers the statistics
vectorised over many experiments (:func:`paired_t_statistic`, :func:`cv52_t_statistic`) for simulations.

Conventions
-----------
A test rejects the null hypothesis when its statistic reaches the critical value: the book says the hypothesis
"cannot be rejected" when the statistic is *smaller* than the critical value, and is rejected otherwise. Both
t-tests are two-sided (critical value :math:`t_{\alpha/2}`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special, stats

from ._validation import (
    as_choice,
    as_error_differences,
    as_error_rates,
    as_finite_array,
    check_open_unit,
    check_positive_int,
    check_real_interval,
    check_same_length,
    checked_isf,
    require_finite_result,
)

__all__ = [
    "CV52TTestResult",
    "PairedTTestResult",
    "cv52_t_statistic",
    "cv52_t_test",
    "cv52_t_test_size",
    "paired_t_statistic",
    "paired_t_test",
    "paired_t_test_size",
]

# A spread smaller than this many units of rounding of the largest input is indistinguishable from zero: error
# rates such as 0.3 - 0.2 and 0.2 - 0.1 differ in their last bits only, and dividing by that "spread" would make
# a huge, meaningless statistic.
_ROUNDING_UNITS = 64

_NUMERATORS = ("book", "dietterich")

# Gauss-Jacobi nodes for the size of Dietterich's 5x2cv test (see cv52_t_test_size)
_QUADRATURE_POINTS = 64
#: The largest k of paired_t_test_size (t distribution with k - 1 degrees of freedom, as a float).
SIZE_MAX_K = 10**12


class PairedTTestResult(NamedTuple):
    r"""The :math:`k`-fold cross-validated paired t-test, formula (2.31).

    Attributes
    ----------
    statistic : float
        :math:`\tau_t = |\sqrt{k}\,\mu / \sigma|`.
    critical_value : float
        :math:`t_{\alpha/2,\,k-1}`, the upper :math:`\alpha/2` point of :math:`t(k-1)`.
    reject : bool
        Whether the hypothesis "A and B perform the same" is rejected at level :math:`\alpha`:
        ``statistic >= critical_value``.
    p_value : float
        Two-sided: :math:`P(|T| \ge \tau_t)` for :math:`T \sim t(k-1)`.
    df : int
        The degrees of freedom, :math:`k - 1`.
    mean : float
        :math:`\mu`, the mean of the differences ``errors_a - errors_b`` (negative: A has the smaller mean error).
    std : float
        :math:`\sigma`, their sample standard deviation (denominator :math:`k - 1`), as in (2.31). (Not the
        variance: :math:`\sigma^2` of differences near the float range would overflow.)
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: int
    mean: float
    std: float


class CV52TTestResult(NamedTuple):
    r"""The 5x2 cross-validated t-test, formula (2.32).

    Attributes
    ----------
    statistic : float
        :math:`\tau_t = \mu / \sqrt{0.2 \sum_{i=1}^5 \sigma_i^2}`; signed, as printed.
    critical_value : float
        :math:`t_{\alpha/2,\,5}`; the test rejects when :math:`|\tau_t|` reaches it.
    reject : bool
        ``abs(statistic) >= critical_value``.
    p_value : float
        Two-sided: :math:`P(|T| \ge |\tau_t|)` for :math:`T \sim t(5)`.
    df : int
        The degrees of freedom, 5.
    mean : float
        :math:`\mu`, the numerator: :math:`0.5(\Delta_1^1 + \Delta_1^2)` for the book, :math:`\Delta_1^1` for
        Dietterich.
    variances : numpy.ndarray
        The five variance estimates :math:`\sigma_i^2` of the replications, shape (5,).
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: int
    mean: float
    variances: np.ndarray


# -- validation helpers ----------------------------------------------------------------------------------------
def _check_numerator(numerator) -> str:
    return as_choice(numerator, "numerator", _NUMERATORS)


def _power_of_two_scale(x: np.ndarray, axes) -> np.ndarray:
    """The exponents e with max |x| over ``axes`` in [2**(e-1), 2**e), 0 where that maximum is 0."""
    _, e = np.frexp(np.max(np.abs(x), axis=axes))
    return e


def _where_too_small(spread: np.ndarray, scale: np.ndarray, exponent=0) -> np.ndarray:
    """Where a spread is zero, or so small that it is only rounding of inputs of the given scale.

    Both are given divided by ``2**exponent``. The unit of rounding of the inputs is eps times their scale, but
    never below the smallest subnormal 2**-1074 (inputs near 5e-324 are rounded to multiples of it).
    """
    unit = np.maximum(np.finfo(np.float64).eps * scale, np.ldexp(1.0, -1074 - np.asarray(exponent)))
    return spread <= _ROUNDING_UNITS * unit


def _describe_rows(bad: np.ndarray) -> str:
    if bad.ndim == 0:
        return ""
    rows = [tuple(int(i) for i in idx) for idx in np.argwhere(bad)[:3]]
    shown = ", ".join(str(r[0]) if len(r) == 1 else str(r) for r in rows)
    return f" (in experiment {shown}{', ...' if bad.sum() > 3 else ''})"


# -- (2.31): the k-fold cross-validated paired t-test ----------------------------------------------------------
def _paired_t(deltas: np.ndarray, scale: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # The statistic is scale-free, so each experiment's differences are divided by a power of two near their
    # largest magnitude (exact; bit for bit the plain computation wherever that neither overflows nor underflows):
    # squares of differences up to 1.8e308 or down to 5e-324 neither overflow nor vanish. mu and sigma are scaled
    # back at the end.
    e = _power_of_two_scale(deltas, -1)
    scaled = np.ldexp(deltas, e[..., None] * -1)
    k = deltas.shape[-1]
    mu = scaled.mean(axis=-1)
    sigma = scaled.std(axis=-1, ddof=1)
    with np.errstate(over="ignore"):  # a scale far above the differences becomes inf: all rounding, refused below
        bad = _where_too_small(sigma, np.ldexp(scale, -e), e)
    if np.any(bad):
        raise ValueError(
            f"the differences {name} have zero variance{_describe_rows(bad)}: every fold gives the same difference "
            "(up to rounding), so tau_t = |sqrt(k) mu / sigma| is undefined; a t-test cannot judge it"
        )
    tau = np.abs(np.sqrt(k) * mu / sigma)
    with np.errstate(over="ignore"):
        return tau, np.ldexp(mu, e), np.ldexp(sigma, e)


def paired_t_statistic(deltas) -> np.ndarray | float:
    r"""The statistic :math:`\tau_t = |\sqrt{k}\,\mu / \sigma|` of formula (2.31), for one or many experiments.

    Parameters
    ----------
    deltas : array-like of shape (..., k)
        The differences :math:`\Delta_i = \epsilon_i^A - \epsilon_i^B` of the k folds, along the last axis; any
        leading axes index independent experiments (as in a simulation). k >= 2.

    Returns
    -------
    float or numpy.ndarray of shape (...)
        :math:`\tau_t` for each experiment, :math:`\sigma` being the sample standard deviation (denominator
        k - 1).

    Raises
    ------
    ValueError
        If ``deltas`` is empty, holds NaN, inf or booleans, has fewer than 2 folds, or if the differences of an
        experiment have zero variance (all equal up to rounding), where :math:`\tau_t` is undefined.

    Notes
    -----
    The statistic is scale-free, so ``deltas`` may be any finite numbers (a simulation's normal deviates, say),
    scaled by a power of two before squaring; :func:`~melearn.paired_t_test`, which reads its inputs as error rates,
    holds them to [0, 1].

    Examples
    --------
    >>> round(paired_t_statistic([0.02, -0.01, 0.03, 0.01, 0.00]), 6)
    1.414214
    >>> paired_t_statistic([[0.02, 0.04], [0.01, -0.01]]).round(6).tolist()
    [3.0, 0.0]
    """
    d = as_finite_array(deltas, "deltas", ndim=None, min_ndim=1)
    if d.shape[-1] < 2:
        raise ValueError(f"deltas must hold at least 2 folds along its last axis, got {d.shape[-1]}")
    tau, _, _ = _paired_t(d, np.max(np.abs(d), axis=-1), "deltas")
    return float(tau) if tau.ndim == 0 else tau


def paired_t_test(errors_a, errors_b, *, alpha: float = 0.05) -> PairedTTestResult:
    r"""The k-fold cross-validated paired t-test (交叉验证成对t检验), formula (2.31).

    With :math:`\Delta_i = \epsilon_i^A - \epsilon_i^B` the difference of the two learners' test error rates on
    fold i, :math:`\mu` and :math:`\sigma` the mean and the sample standard deviation of the k differences,

    .. math:: \tau_t = \left| \frac{\sqrt{k}\,\mu}{\sigma} \right|,

    and the hypothesis "A and B perform the same" is rejected at level :math:`\alpha` when :math:`\tau_t` is not
    smaller than :math:`t_{\alpha/2,\,k-1}`. Derived, with why overlapping training sets break the test's
    independence assumption, in ``chapters/paired_t_tests.ipynb``.

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (k,)
        Test error rates of learners A and B, ``errors_a[i]`` and ``errors_b[i]`` on the same fold i. k >= 2.
    alpha : float, default 0.05
        Significance level, in (0, 1); keyword-only.

    Returns
    -------
    PairedTTestResult
        ``statistic`` (:math:`\tau_t`), ``critical_value`` (:math:`t_{\alpha/2,k-1}`), ``reject``, ``p_value``
        (two-sided), ``df`` (k - 1), ``mean`` and ``std``.

    Raises
    ------
    ValueError
        If the arrays are empty, differ in length, hold NaN or inf, booleans, values outside [0, 1] (error
        rates) or fewer than 2 folds, if ``alpha`` is not in (0, 1), or if the differences have zero variance
        (the statistic would be 0/0 or infinite).

    Notes
    -----
    :math:`\sigma` uses the denominator k - 1: only then is :math:`\sqrt{k}\mu/\sigma` t-distributed with k - 1
    degrees of freedom (for independent normal differences). The test is that of ``scipy.stats.ttest_rel``
    (which reports the signed statistic; tests). Differences that are equal up to rounding (0.3 - 0.2 and
    0.2 - 0.1) count as equal.

    Limits: error rates in [0, 1] (the one range policy of the library;
    :func:`~melearn.paired_t_tests.paired_t_statistic` takes any finite differences) and any k >= 2 that fits in
    memory (time O(k)). The differences are scaled by a power of two before squaring, so rates down to 5e-324
    keep their spread. ``alpha`` is refused when the t quantile
    does not give it back through the survival function to a relative 1e-6 (below about 1e-150 for k = 2,
    1e-160 for k = 4, 1e-265 for k = 6, 1e-270 for any other k); the critical value is the upper quantile
    itself (``isf``), never ``ppf(1 - alpha/2)``, which is inf below alpha = 1e-16.

    References
    ----------
    Zhou, *Machine Learning* (机器学习), section 2.4.2. Dietterich (1998), Neural Computation 10(7).

    Examples
    --------
    >>> r = paired_t_test([0.12, 0.10, 0.15, 0.11, 0.09], [0.10, 0.11, 0.12, 0.10, 0.09], alpha=0.05)
    >>> round(r.statistic, 6), round(r.critical_value, 4), r.reject
    (1.414214, 2.7764, False)
    """
    a = as_error_rates(errors_a, "errors_a", ndim=None, min_ndim=1)  # the one range policy: [0, 1]
    b = as_error_rates(errors_b, "errors_b", ndim=None, min_ndim=1)
    for arr, name in ((a, "errors_a"), (b, "errors_b")):
        if arr.ndim != 1:
            raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    k = check_same_length(errors_a=a, errors_b=b)
    if k < 2:
        raise ValueError(f"errors_a and errors_b must hold at least 2 folds, got {k}")
    alpha = check_open_unit(alpha, "alpha")
    scale = max(np.max(np.abs(a)), np.max(np.abs(b)))
    with np.errstate(over="ignore"):
        deltas = a - b
    if np.all(np.isfinite(deltas)):
        tau, mu, sigma = _paired_t(deltas, np.asarray(scale), "errors_a - errors_b")
    else:  # a difference overflowed: halve first (exact bar subnormals), double mu and sigma after
        tau, mu, sigma = _paired_t(a * 0.5 - b * 0.5, np.asarray(scale * 0.5), "errors_a - errors_b")
        with np.errstate(over="ignore"):
            mu, sigma = mu * 2.0, sigma * 2.0
    require_finite_result(sigma, "the standard deviation of errors_a - errors_b")
    require_finite_result(mu, "the mean of errors_a - errors_b")
    statistic = float(tau)
    df = k - 1
    critical = checked_isf(stats.t, alpha / 2.0, df)
    p_value = float(min(1.0, 2.0 * stats.t.sf(statistic, df)))
    return PairedTTestResult(statistic, critical, bool(statistic >= critical), p_value, df, float(mu), float(sigma))


def paired_t_test_size(k: int, rho: float, *, alpha: float = 0.05) -> float:
    r"""Probability that the paired t-test (2.31) rejects a true hypothesis when the folds are correlated.

    For k differences that are normal with mean 0, a common variance and a common correlation :math:`\rho`
    between any two folds,

    .. math:: \tau_t = \sqrt{\frac{1 + (k-1)\rho}{1 - \rho}}\;|T|, \qquad T \sim t(k-1),

    exactly, so the size is :math:`2\,P\big(T \ge t_{\alpha/2,k-1} / c\big)` with c the factor above; it equals
    :math:`\alpha` only for :math:`\rho = 0`. Derived in ``chapters/paired_t_tests.ipynb``.

    Parameters
    ----------
    k : int
        Number of folds, at least 2.
    rho : float
        Correlation between the differences of two folds, in (-1/(k-1), 1).
    alpha : float, default 0.05
        Nominal significance level, in (0, 1); keyword-only.

    Returns
    -------
    float
        The actual probability of rejecting a true hypothesis.

    Raises
    ------
    ValueError
        If k < 2, or ``rho`` or ``alpha`` is outside its range.

    Examples
    --------
    >>> round(paired_t_test_size(10, 0.0, alpha=0.05), 6)
    0.05
    >>> round(paired_t_test_size(10, 0.1, alpha=0.05), 4)
    0.1539
    """
    k = check_positive_int(k, "k", minimum=2, maximum=SIZE_MAX_K, why="SIZE_MAX_K")
    rho = check_real_interval(rho, "rho", -1.0 / (k - 1), 1.0)
    alpha = check_open_unit(alpha, "alpha")
    scale = np.sqrt((1.0 + (k - 1) * rho) / (1.0 - rho))
    critical = checked_isf(stats.t, alpha / 2.0, k - 1)
    return float(2.0 * stats.t.sf(critical / scale, k - 1))


# -- (2.32): the 5x2 cross-validated t-test --------------------------------------------------------------------
def _cv52(d: np.ndarray, numerator: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # Scale-free like (2.31). The statistic is computed with each experiment divided by a power of two near its
    # largest |difference| (exact), so no mean or square overflows or vanishes; the reported sigma_i^2 are computed
    # with each replication scaled by its own power of two, and mu from the unscaled differences, so that a small
    # replication beside a large one keeps all its digits.
    e = _power_of_two_scale(d, (-2, -1))
    scaled = np.ldexp(d, -np.asarray(e)[..., None, None])
    tau, bad = _cv52_scaled(scaled, numerator, e)
    if np.any(bad):
        raise ValueError(
            f"diffs has zero variance{_describe_rows(bad)}: in each of the 5 replications both folds give the same "
            "difference (up to rounding), so sum(sigma_i^2) = 0 and tau_t is undefined"
        )
    e_row = _power_of_two_scale(d, -1)
    sigma2 = _sigma2(np.ldexp(d, -np.asarray(e_row)[..., None]))
    first, second = d[..., 0, 0], d[..., 0, 1]
    with np.errstate(over="ignore"):
        sigma2 = np.ldexp(np.ldexp(sigma2, e_row), e_row)
        if numerator == "book":  # the mean of the first replication, halved first where the sum would overflow
            mu = np.where(np.isfinite(first + second), (first + second) / 2.0, first * 0.5 + second * 0.5)
        else:
            mu = first
    return tau, mu, sigma2


def _sigma2(d: np.ndarray) -> np.ndarray:
    """sigma_i^2 as printed in the book: the squared deviations of the two folds from their mean."""
    first, second = d[..., 0], d[..., 1]
    mean = (first + second) / 2.0
    return (first - mean) ** 2 + (second - mean) ** 2


def _cv52_scaled(d: np.ndarray, numerator: str, e) -> tuple[np.ndarray, np.ndarray]:
    """tau_t of (2.32) from differences scaled into [-1, 1], and where the spread is only rounding."""
    first, second = d[..., 0], d[..., 1]
    mu = (first[..., 0] + second[..., 0]) / 2.0 if numerator == "book" else first[..., 0]
    denominator = np.sqrt(0.2 * _sigma2(d).sum(axis=-1))
    bad = _where_too_small(denominator, np.max(np.abs(d), axis=(-2, -1)), e)
    with np.errstate(divide="ignore", invalid="ignore"):
        return mu / denominator, bad


def _as_cv52_diffs(diffs) -> np.ndarray:
    d = as_finite_array(diffs, "diffs", ndim=None, min_ndim=2)
    if d.shape[-2:] != (5, 2):
        raise ValueError(f"diffs must have shape (5, 2) (5 replications x 2 folds), got {d.shape}")
    return d


def cv52_t_statistic(diffs, numerator: str = "book") -> np.ndarray | float:
    r"""The statistic :math:`\tau_t` of formula (2.32), for one or many 5x2cv experiments.

    Parameters
    ----------
    diffs : array-like of shape (..., 5, 2)
        ``diffs[..., i, j]`` is :math:`\Delta_{i+1}^{j+1}`, the error difference of A and B on fold j of
        replication i; leading axes index independent experiments.
    numerator : {"book", "dietterich"}
        ``"book"``: :math:`\mu = 0.5(\Delta_1^1 + \Delta_1^2)`, as printed in formula (2.32); ``"dietterich"``:
        :math:`\mu = \Delta_1^1`, as in Dietterich (1998) and mlxtend's ``paired_ttest_5x2cv``.

    Returns
    -------
    float or numpy.ndarray of shape (...)
        The signed statistic :math:`\mu / \sqrt{0.2 \sum_{i=1}^5 \sigma_i^2}`.

    Raises
    ------
    ValueError
        If ``diffs`` does not end in shape (5, 2), holds NaN, inf or booleans, if ``numerator`` is unknown, or
        if :math:`\sum_i \sigma_i^2 = 0` in an experiment.

    Notes
    -----
    The statistic is scale-free, so ``diffs`` may be any finite numbers (a simulation's normal deviates, say);
    :func:`~melearn.cv52_t_test`, which reads them as differences of error rates, holds them to [-1, 1].

    Examples
    --------
    >>> d = [[0.02, 0.00], [0.01, 0.03], [0.00, 0.02], [0.03, 0.01], [0.02, 0.02]]
    >>> round(cv52_t_statistic(d), 6), round(cv52_t_statistic(d, "dietterich"), 6)
    (0.790569, 1.581139)
    """
    numerator = _check_numerator(numerator)
    tau, _, _ = _cv52(_as_cv52_diffs(diffs), numerator)
    return float(tau) if tau.ndim == 0 else tau


def cv52_t_test(diffs, *, alpha: float = 0.05, numerator: str = "book") -> CV52TTestResult:
    r"""The 5x2 cross-validated t-test (5×2交叉验证t检验), formula (2.32).

    Five replications of 2-fold cross-validation give the differences :math:`\Delta_i^1, \Delta_i^2`
    (i = 1, ..., 5); with :math:`\bar\Delta_i = (\Delta_i^1 + \Delta_i^2)/2`,

    .. math::
        \sigma_i^2 = \big(\Delta_i^1 - \bar\Delta_i\big)^2 + \big(\Delta_i^2 - \bar\Delta_i\big)^2,
        \qquad \tau_t = \frac{\mu}{\sqrt{0.2 \sum_{i=1}^5 \sigma_i^2}},

    compared two-sided with :math:`t_{\alpha/2,5}`. The book takes :math:`\mu = 0.5(\Delta_1^1 + \Delta_1^2)`;
    Dietterich (1998), who proposed the test, takes :math:`\mu = \Delta_1^1`. Derived, and the two numerators
    compared, in ``chapters/paired_t_tests.ipynb``.

    Parameters
    ----------
    diffs : array-like of shape (5, 2)
        ``diffs[i, j]`` is :math:`\Delta_{i+1}^{j+1} = \epsilon^A - \epsilon^B` on fold j + 1 of replication
        i + 1.
    alpha : float, default 0.05
        Significance level, in (0, 1); keyword-only.
    numerator : {"book", "dietterich"}, default "book"
        Which numerator :math:`\mu` to use (see above).

    Returns
    -------
    CV52TTestResult
        ``statistic`` (signed :math:`\tau_t`), ``critical_value`` (:math:`t_{\alpha/2,5}`), ``reject``
        (:math:`|\tau_t| \ge t_{\alpha/2,5}`), ``p_value`` (two-sided), ``df`` (5), ``mean`` and ``variances``.

    Raises
    ------
    ValueError
        If ``diffs`` is not of shape (5, 2), holds NaN, inf, booleans or values outside [-1, 1] (differences of
        error rates), if ``alpha`` is not in (0, 1), if ``numerator`` is unknown, or if every replication has two
        equal differences (zero variance).

    Notes
    -----
    With the book's numerator the statistic is not t(5)-distributed under the assumptions of Dietterich's
    derivation: for independent normal folds it is :math:`t(5)/\sqrt 2`, and the test rejects a true
    hypothesis far less often than :math:`\alpha` (see :func:`cv52_t_test_size`). The Dietterich variant agrees
    with ``mlxtend.evaluate.paired_ttest_5x2cv`` (tests; mlxtend differences accuracies, so its statistic has
    the opposite sign).

    Limits: differences of error rates in [-1, 1] (the one range policy of the library;
    :func:`~melearn.paired_t_tests.cv52_t_statistic` takes any finite differences): they are scaled by a power
    of two before squaring, so differences down to 5e-324 keep their spread. ``alpha`` down to about 1e-265
    (checked by a round trip through the t survival function).

    References
    ----------
    Zhou, *Machine Learning* (机器学习), section 2.4.2. Dietterich (1998), Neural Computation 10(7).

    Examples
    --------
    >>> d = [[0.02, 0.00], [0.01, 0.03], [0.00, 0.02], [0.03, 0.01], [0.02, 0.02]]
    >>> r = cv52_t_test(d, alpha=0.05)
    >>> round(r.statistic, 6), round(r.critical_value, 4), r.reject
    (0.790569, 2.5706, False)
    >>> round(cv52_t_test(d, numerator="dietterich").statistic, 6)
    1.581139
    """
    numerator = _check_numerator(numerator)
    d = _as_cv52_diffs(diffs)
    as_error_differences(d, "diffs", ndim=None)  # the one range policy: differences of error rates in [-1, 1]
    if d.ndim != 2:
        raise ValueError(f"diffs must have shape (5, 2) (5 replications x 2 folds), got {d.shape}")
    alpha = check_open_unit(alpha, "alpha")
    tau, mu, sigma2 = _cv52(d, numerator)
    require_finite_result(sigma2, "sigma2 of diffs")
    statistic = float(tau)
    critical = checked_isf(stats.t, alpha / 2.0, 5)
    p_value = float(min(1.0, 2.0 * stats.t.sf(abs(statistic), 5)))
    return CV52TTestResult(statistic, critical, bool(abs(statistic) >= critical), p_value, 5, float(mu), sigma2)


def cv52_t_test_size(rho: float, *, alpha: float = 0.05, numerator: str = "book") -> float:
    r"""Probability that the 5x2cv t-test (2.32) rejects a true hypothesis, under a normal model.

    The model: within each replication the two differences are normal with mean 0, a common variance and
    correlation :math:`\rho`; the five replications are independent.

    * ``"book"``: :math:`\mu = 0.5(\Delta_1^1 + \Delta_1^2)` is independent of every :math:`\sigma_i^2`, and
      :math:`\tau_t = c\,T` with :math:`T \sim t(5)` and :math:`c = \sqrt{(1+\rho) / (2(1-\rho))}` exactly, so
      the size is :math:`2P(T \ge t_{\alpha/2,5}/c)`: :math:`\alpha` only at :math:`\rho = 1/3`.
    * ``"dietterich"``: :math:`\mu = \Delta_1^1` shares :math:`\Delta_1^1 - \Delta_1^2` with :math:`\sigma_1^2`,
      so numerator and denominator are dependent. Writing :math:`b = z / r` with :math:`z` the standardised
      :math:`\Delta_1^1 - \Delta_1^2` and :math:`r^2` the standardised :math:`\sum_i \sigma_i^2 \sim \chi^2(5)`
      (independent of b, density :math:`\tfrac34 (1 - b^2)` on [-1, 1]), and averaging over r in closed form,

      .. math:: \text{size} = \tfrac34 \int_{-1}^{1} (1 - b^2) \Big[ S_5\Big(\tfrac{t_{\alpha/2,5}\sqrt{a} -
         \sqrt{5a/2}\,b}{s}\Big) + S_5\Big(\tfrac{t_{\alpha/2,5}\sqrt{a} + \sqrt{5a/2}\,b}{s}\Big) \Big]\,db,

      :math:`a = 1 - \rho`, :math:`s = \sqrt{(1+\rho)/2}`, :math:`S_5` the upper tail of t(5); evaluated by
      Gauss-Jacobi quadrature (agrees with adaptive 2-D quadrature and Monte Carlo, tests). It is below
      :math:`\alpha` at :math:`\rho = 0` (0.028 for :math:`\alpha = 0.05`): the dependence makes the test
      conservative.

    Derived in ``chapters/paired_t_tests.ipynb``.

    Parameters
    ----------
    rho : float
        Correlation between the two folds' differences of a replication, in (-1, 1).
    alpha : float, default 0.05
        Nominal significance level, in (0, 1); keyword-only.
    numerator : {"book", "dietterich"}, default "book"

    Returns
    -------
    float
        The probability of rejecting a true hypothesis.

    Raises
    ------
    ValueError
        If ``rho`` or ``alpha`` is outside its range or ``numerator`` is unknown.

    Examples
    --------
    >>> round(cv52_t_test_size(1 / 3, alpha=0.05), 6)
    0.05
    >>> round(cv52_t_test_size(0.0), 5), round(cv52_t_test_size(0.0, numerator="dietterich"), 5)
    (0.01498, 0.02814)
    """
    rho = check_real_interval(rho, "rho", -1.0, 1.0)
    alpha = check_open_unit(alpha, "alpha")
    numerator = _check_numerator(numerator)
    critical = checked_isf(stats.t, alpha / 2.0, 5)
    if numerator == "book":
        scale = np.sqrt((1.0 + rho) / (2.0 * (1.0 - rho)))
        return float(2.0 * stats.t.sf(critical / scale, 5))
    # Unit variance. d = D1 - D2 = sqrt(2(1 - rho)) z, so sigma_1^2 = d^2 / 2 = (1 - rho) z^2, and the other four
    # sigma_i^2 sum to (1 - rho) w with w ~ chi2(4). D1 = m + d / 2, where m = (D1 + D2) / 2 ~ N(0, (1 + rho) / 2)
    # is independent of d (equal variances) and of w. In "polar" form, r^2 = z^2 + w ~ chi2(5) is independent of
    # b = z / r, whose density on [-1, 1] is (3/4)(1 - b^2). Given (r, b) the test rejects when
    # |m + sqrt(a/2) r b| >= t_c sqrt(a/5) r (a = 1 - rho), and averaging the normal tail of m over r ~ chi(5)
    # gives a t(5) tail: E[P(Z >= lam R)] = P(T >= lam sqrt(5)). What is left is one smooth integral over b.
    a = 1.0 - rho
    sd_m = np.sqrt((1.0 + rho) / 2.0)
    b, weights = special.roots_jacobi(_QUADRATURE_POINTS, 1.0, 1.0)  # weight (1 - b)(1 + b) on [-1, 1]
    upper = stats.t.sf((critical * np.sqrt(a) - np.sqrt(2.5 * a) * b) / sd_m, 5)
    lower = stats.t.sf((critical * np.sqrt(a) + np.sqrt(2.5 * a) * b) / sd_m, 5)
    return float(0.75 * weights @ (upper + lower))
