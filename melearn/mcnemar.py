r"""McNemar's test (McNemar检验), section 2.4.3: formula (2.33).

:func:`mcnemar_test` compares two learners on one test set from the discordant cells of their 2x2 contingency
table (列联表), with the continuity correction (连续性校正). Derived and checked in the book page
``chapters/mcnemar.ipynb``. Besides the test, :func:`mcnemar_exact_p_value` gives the exact binomial p-value and
:func:`mcnemar_test_size` the probability of rejecting a true hypothesis, which the page analyses.

The test rejects when its statistic reaches the upper :math:`\alpha` quantile of :math:`\chi^2(1)`: the book
says the hypothesis "cannot be rejected" when the statistic is *smaller* than the critical value.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

from ._validation import as_bool, as_choice, check_open_unit, check_positive_int, checked_isf

__all__ = ["McNemarResult", "mcnemar_exact_p_value", "mcnemar_test", "mcnemar_test_size"]

_METHODS = ("chi2", "chi2_uncorrected", "exact")
#: The largest number of discordant samples for the exact McNemar p-value and the size computation (SciPy's
#: binomial takes n as a float, exact below 2**53; mcnemar_test_size also builds arrays of n + 1 entries).
MCNEMAR_EXACT_MAX_N = 10**7


class McNemarResult(NamedTuple):
    r"""McNemar's test, formula (2.33).

    Attributes
    ----------
    statistic : float
        :math:`\tau_{\chi^2} = (|e_{01} - e_{10}| - 1)^2 / (e_{01} + e_{10})` (without the - 1 when
        ``correction=False``).
    critical_value : float
        The upper :math:`\alpha` quantile of :math:`\chi^2(1)`: 3.8415 for :math:`\alpha = 0.05`.
    reject : bool
        ``statistic >= critical_value``.
    p_value : float
        :math:`P(X \ge \tau_{\chi^2})` for :math:`X \sim \chi^2(1)`.
    df : int
        The degrees of freedom, 1.
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: int


# -- (2.33): McNemar's test ------------------------------------------------------------------------------------
def _check_counts(e01, e10) -> tuple[int, int]:
    e01 = check_positive_int(e01, "e01", minimum=0)
    e10 = check_positive_int(e10, "e10", minimum=0)
    return e01, e10


def mcnemar_test(e01: int, e10: int, *, alpha: float = 0.05, correction: bool = True) -> McNemarResult:
    r"""McNemar's test (McNemar检验) of two classifiers on one test set, formula (2.33).

    From the discordant cells of the contingency table (列联表) -- :math:`e_{01}` samples that exactly one of
    the learners classifies correctly in one way, :math:`e_{10}` in the other --

    .. math:: \tau_{\chi^2} = \frac{\big(|e_{01} - e_{10}| - 1\big)^2}{e_{01} + e_{10}},

    approximately :math:`\chi^2(1)` under the hypothesis that both learners have the same error rate; rejected
    at level :math:`\alpha` when not smaller than the upper :math:`\alpha` quantile :math:`\chi^2_\alpha`
    (3.8415 for :math:`\alpha = 0.05`). Derived in ``chapters/mcnemar.ipynb``.

    Parameters
    ----------
    e01, e10 : int
        The two discordant counts, non-negative integers, not both 0.
    alpha : float, default 0.05
        Significance level, in (0, 1); keyword-only.
    correction : bool, default True
        Keep the continuity correction (连续性校正), the "- 1" of (2.33). ``False`` gives the uncorrected
        statistic :math:`(e_{01} - e_{10})^2 / (e_{01} + e_{10})`, for comparison.

    Returns
    -------
    McNemarResult
        ``statistic``, ``critical_value``, ``reject``, ``p_value`` (upper tail of :math:`\chi^2(1)`), ``df`` (1).

    Raises
    ------
    ValueError
        If a count is negative or not an integer, if ``alpha`` is not in (0, 1), or if
        :math:`e_{01} + e_{10} = 0`: with no discordant sample the statistic is 0/0. (``statsmodels`` then
        reports an infinite statistic and p = 0, a false "significant difference"; the exact test gives p = 1.)

    Notes
    -----
    When :math:`e_{01} = e_{10}` the corrected numerator is :math:`(0 - 1)^2 = 1`, as printed and as in
    ``statsmodels.stats.contingency_tables.mcnemar(table, exact=False, correction=True)`` (tests); the resulting
    :math:`1/(e_{01}+e_{10}) \le 1` never reaches a critical value. For small :math:`e_{01} + e_{10}` prefer the
    exact binomial test, :func:`mcnemar_exact_p_value`.

    Limits: counts are integers of any size, the statistic formed in exact integers and divided once; a statistic
    beyond the float range (counts above about 1e308) raises ``ValueError``. ``correction`` must be a bool (the
    string ``"False"`` is refused, not read as true). ``alpha`` down to about 1e-310 (checked by a round trip
    through the chi-square survival function).

    References
    ----------
    Zhou, *Machine Learning* (机器学习), section 2.4.3. McNemar (1947), Psychometrika 12(2). Edwards (1948),
    Psychometrika 13(3), for the continuity correction.

    Examples
    --------
    >>> r = mcnemar_test(10, 25, alpha=0.05)
    >>> round(r.statistic, 6), round(r.critical_value, 4), r.reject
    (5.6, 3.8415, True)
    """
    e01, e10 = _check_counts(e01, e10)
    alpha = check_open_unit(alpha, "alpha")
    correction = as_bool(correction, "correction")
    n = e01 + e10
    if n == 0:
        raise ValueError(
            "e01 + e10 = 0: no test sample is classified correctly by exactly one learner, so "
            "tau_chi2 = (|e01 - e10| - 1)^2 / (e01 + e10) is 0/0 and undefined; the data show no difference "
            "(the exact binomial test gives p = 1)"
        )
    numerator = abs(e01 - e10) - (1 if correction else 0)
    try:
        statistic = numerator * numerator / n  # exact Python integers of any size, up to this one division
    except OverflowError as exc:
        raise ValueError(
            "e01 and e10 are so large that tau_chi2 exceeds the largest float (1.8e308); it is at most e01 + e10"
        ) from exc
    critical = checked_isf(stats.chi2, alpha, 1)
    p_value = float(stats.chi2.sf(statistic, 1))
    return McNemarResult(float(statistic), critical, bool(statistic >= critical), p_value, 1)


def mcnemar_exact_p_value(e01: int, e10: int) -> float:
    r"""The exact (binomial) two-sided p-value of McNemar's hypothesis.

    Given :math:`n = e_{01} + e_{10}` discordant samples, :math:`e_{01} \sim \mathrm{Binomial}(n, 1/2)` under
    the hypothesis, so :math:`p = \min\big(1,\; 2\,P(X \le \min(e_{01}, e_{10}))\big)`, :math:`X \sim
    \mathrm{Binomial}(n, 1/2)`. With :math:`n = 0` there is no evidence at all, and p = 1.

    Parameters
    ----------
    e01, e10 : int
        The two discordant counts, non-negative integers.

    Returns
    -------
    float
        The two-sided p-value (as ``scipy.stats.binomtest(e01, n, 0.5)`` and statsmodels' ``exact=True``, tests).

    Raises
    ------
    ValueError
        If a count is negative or not an integer.

    Examples
    --------
    >>> round(mcnemar_exact_p_value(1, 9), 6)
    0.021484
    >>> mcnemar_exact_p_value(0, 0)
    1.0
    """
    e01, e10 = _check_counts(e01, e10)
    n = e01 + e10
    if n == 0:
        return 1.0
    if n > MCNEMAR_EXACT_MAX_N:
        raise ValueError(f"e01 + e10 must be at most MCNEMAR_EXACT_MAX_N = {MCNEMAR_EXACT_MAX_N:,} for the exact test")
    return float(min(1.0, 2.0 * stats.binom.cdf(min(e01, e10), n, 0.5)))


def mcnemar_test_size(n_discordant: int, *, alpha: float = 0.05, method: str = "chi2") -> float:
    r"""Probability that McNemar's test rejects a true hypothesis, given n discordant samples.

    Under the hypothesis :math:`e_{01} \sim \mathrm{Binomial}(n, 1/2)` given :math:`n = e_{01} + e_{10}`, so the
    size is :math:`\sum_{j \in R} \binom{n}{j} 2^{-n}`, where :math:`R` is the set of values :math:`j` of
    :math:`e_{01}` at which the test rejects.

    Parameters
    ----------
    n_discordant : int
        :math:`n = e_{01} + e_{10}`, at least 1.
    alpha : float, default 0.05
        Nominal significance level, in (0, 1); keyword-only.
    method : {"chi2", "chi2_uncorrected", "exact"}, default "chi2"
        ``"chi2"``: formula (2.33) with the continuity correction; ``"chi2_uncorrected"``: without it;
        ``"exact"``: the exact binomial test (:func:`mcnemar_exact_p_value` <= alpha).

    Returns
    -------
    float
        The conditional probability of rejecting a true hypothesis.

    Raises
    ------
    ValueError
        If ``n_discordant`` < 1, ``alpha`` is outside (0, 1) or ``method`` is unknown.

    Examples
    --------
    >>> round(mcnemar_test_size(50, alpha=0.05), 6)
    0.032839
    >>> round(mcnemar_test_size(50, alpha=0.05, method="chi2_uncorrected"), 6)
    0.064909
    """
    n = check_positive_int(
        n_discordant, "n_discordant", minimum=1, maximum=MCNEMAR_EXACT_MAX_N, why="arrays of n + 1 entries"
    )
    alpha = check_open_unit(alpha, "alpha")
    method = as_choice(method, "method", _METHODS)
    j = np.arange(n + 1)
    pmf = stats.binom.pmf(j, n, 0.5)
    if method == "exact":
        p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(j, n - j), n, 0.5))
        rejects = p <= alpha
    else:
        gap = np.abs(2 * j - n) - (1 if method == "chi2" else 0)
        rejects = gap * gap / n >= checked_isf(stats.chi2, alpha, 1)
    return float(pmf[rejects].sum())
