r"""The Friedman test and the Nemenyi post-hoc test: formulas (2.34)-(2.36) of section 2.4.4.

Derived and checked in the book page ``chapters/friedman_nemenyi.ipynb``.

``k`` algorithms are compared on ``N`` data sets. On each data set the algorithms are ranked by their test error,
1 for the best (lowest error); tied algorithms share the average of the ranks they occupy (平分序值). The
Friedman test (Friedman检验) asks whether all algorithms perform alike, from the average ranks (平均序值)
:math:`r_i`; when it rejects, the Nemenyi post-hoc test (Nemenyi后续检验) calls two algorithms different when
their average ranks differ by more than the critical difference (临界值域) CD.

Ranks are kept as exact integers (twice the rank, since an average of tied ranks is a multiple of 1/2), so the
statistics are computed in exact rational arithmetic and rounded once: identical rankings on every data set give
exactly :math:`\tau_{\chi^2} = N(k-1)` and :math:`\tau_F = +\infty`, never a huge finite or negative number.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from scipy import optimize, special, stats

from ._validation import as_finite_array, as_order_array, check_open_unit, check_positive_int, checked_isf

__all__ = [
    "FriedmanResult",
    "NemenyiResult",
    "NullDistribution",
    "friedman_chi2",
    "friedman_f",
    "friedman_null_distribution",
    "friedman_test",
    "nemenyi_cd",
    "nemenyi_q",
    "nemenyi_test",
    "rank_matrix",
]


class FriedmanResult(NamedTuple):
    r"""The Friedman test in the F form of formula (2.35).

    Attributes
    ----------
    statistic : float
        :math:`\tau_F` of (2.35), the statistic the test decides with (``inf`` when every data set ranks the
        algorithms alike); also readable as ``f``.
    critical_value : float
        The upper ``alpha`` quantile of :math:`F(k-1, (k-1)(N-1))`.
    reject : bool
        ``statistic > critical_value``.
    p_value : float
        The upper tail of that F distribution at :math:`\tau_F`.
    df : tuple of int
        The two degrees of freedom, :math:`(k-1, (k-1)(N-1))`.
    average_ranks : numpy.ndarray
        :math:`r_i`, the average rank of each algorithm over the data sets, shape (k,).
    chi2 : float
        :math:`\tau_{\chi^2}` of (2.34).
    ranks : numpy.ndarray
        The rank of each algorithm on each data set (ties share the average rank), shape (N, k).
    n_datasets : int
        N.
    n_algorithms : int
        k.
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: tuple[int, int]
    average_ranks: np.ndarray
    chi2: float
    ranks: np.ndarray
    n_datasets: int
    n_algorithms: int

    @property
    def f(self) -> float:
        r""":math:`\tau_F`, the same number as ``statistic`` (the name the contract gives it beside ``chi2``)."""
        return self.statistic


class NullDistribution(NamedTuple):
    r"""The exact distribution of :math:`\tau_{\chi^2}` under the null hypothesis.

    ``chi2[j]`` has probability ``probability[j]``; values strictly increasing.
    """

    chi2: np.ndarray
    probability: np.ndarray


class NemenyiResult(NamedTuple):
    r"""The Nemenyi post-hoc test: which pairs of algorithms differ by more than the critical difference.

    A post-hoc comparison of every pair rather than one test, so its record has no single statistic.

    Attributes
    ----------
    cd : float
        The critical difference CD of (2.36).
    q : float
        :math:`q_\alpha`, the Nemenyi quantile for k algorithms.
    average_ranks : numpy.ndarray
        The average rank of each algorithm, shape (k,).
    differences : numpy.ndarray
        :math:`|r_i - r_j|` for every pair, shape (k, k).
    significant : numpy.ndarray
        ``differences > cd``, shape (k, k), bool.
    """

    cd: float
    q: float
    average_ranks: np.ndarray
    differences: np.ndarray
    significant: np.ndarray


#: The smallest alpha of nemenyi_q and nemenyi_cd: SciPy's studentized range loses relative accuracy in its upper
#: tail (it computes 1 - cdf): checked against high-precision integration, q is good to about 1e-8 relatively at
#: alpha = 1e-8 for k up to 10**5, while at alpha = 1e-15 the tail is off by 10 %.
NEMENYI_MIN_ALPHA = 1e-8
#: The largest alpha of nemenyi_q and nemenyi_cd: near 1 the quantile is tiny and SciPy's lower tail is off by 1e-5
#: relatively at alpha = 1 - 1e-12 (checked against the same integration).
NEMENYI_MAX_ALPHA = 1 - 1e-8
#: The most algorithms nemenyi_test compares: it returns two k x k tables (9 bytes per entry, 225 MB at the limit).
NEMENYI_TEST_MAX_K = 5000
#: The largest N (and k) that friedman_chi2 and friedman_f take: counts exact as floats.
COUNT_MAX = 2**53
#: The largest k of nemenyi_q and nemenyi_cd (checked against the independent integration up to here).
NEMENYI_MAX_K = 10**5


def _errors_table(errors) -> np.ndarray:
    """Validate the N x k table of errors (N data sets, k algorithms)."""
    table, _ = as_order_array(errors, "errors", ndim=2)  # ranks only: integers beyond 2**53 ordered exactly
    n, k = table.shape
    if n < 2:
        raise ValueError(f"errors must have at least 2 data sets (rows), got {n}")
    if k < 2:
        raise ValueError(f"errors must have at least 2 algorithms (columns), got {k}")
    return table


def _doubled_ranks(table: np.ndarray) -> np.ndarray:
    """Twice the within-row rank of every entry, as int64: ties share the average rank, 1 = smallest.

    Each row is sorted once (O(N k log k) in all). In a row sorted increasingly, a run of equal values occupying
    0-based positions ``start..end`` shares the rank ``(start + end)/2 + 1``, so twice it is the integer
    ``start + end + 2``. ``start`` is found as a running maximum of the run starts, ``end`` as a running minimum
    (from the right) of the run ends; no Python loop over rows.
    """
    n, k = table.shape
    order = np.argsort(table, axis=1, kind="stable")
    s = np.take_along_axis(table, order, axis=1)
    position = np.broadcast_to(np.arange(k), (n, k))
    run_start = np.ones((n, k), dtype=bool)
    run_start[:, 1:] = s[:, 1:] != s[:, :-1]
    run_end = np.ones((n, k), dtype=bool)
    run_end[:, :-1] = run_start[:, 1:]
    start = np.maximum.accumulate(np.where(run_start, position, 0), axis=1)
    end = np.minimum.accumulate(np.where(run_end, position, k)[:, ::-1], axis=1)[:, ::-1]
    doubled = np.empty((n, k), dtype=np.int64)
    np.put_along_axis(doubled, order, start + end + 2, axis=1)
    return doubled


def rank_matrix(errors) -> np.ndarray:
    """Rank the algorithms on each data set: 1 for the lowest error, ties sharing the average rank.

    This is how Table 2.5 of the textbook is made (derived in ``chapters/friedman_nemenyi.ipynb``).

    Parameters
    ----------
    errors : array-like of shape (N, k)
        Test errors of k algorithms (columns) on N data sets (rows); lower is better. ``N >= 2``, ``k >= 2``.

    Returns
    -------
    numpy.ndarray of shape (N, k)
        The ranks, floats in [1, k]; each row sums to k(k+1)/2.

    Raises
    ------
    ValueError
        If ``errors`` is not 2-dimensional, is empty, holds NaN or inf, or has fewer than 2 rows or columns.

    Notes
    -----
    Ties are exact equality of the given numbers: compute errors so that equal performances are equal floats
    (for instance as counts of errors divided by the same test-set size).

    Examples
    --------
    >>> rank_matrix([[0.10, 0.20, 0.30], [0.10, 0.25, 0.25]]).tolist()
    [[1.0, 2.0, 3.0], [1.0, 2.5, 2.5]]
    """
    return _doubled_ranks(_errors_table(errors)) / 2.0


def _check_k(k, name: str = "k") -> int:
    return check_positive_int(k, name, minimum=2)


def friedman_chi2(average_ranks, n_datasets) -> float:
    r"""Formula (2.34) as printed: the Friedman statistic from the average ranks.

    .. math::
        \tau_{\chi^2} = \frac{k-1}{k} \cdot \frac{12N}{k^2-1} \sum_{i=1}^{k} \left(r_i - \frac{k+1}{2}\right)^2

    Derived in ``chapters/friedman_nemenyi.ipynb``. :func:`melearn.friedman_test` computes the same number from the
    error table in exact arithmetic; this function is the book's formula literally, for average ranks read off
    a table such as the textbook's Table 2.5.

    Parameters
    ----------
    average_ranks : array-like of shape (k,)
        The average rank :math:`r_i` of each algorithm over the N data sets; each in [1, k], summing to
        k(k+1)/2 (to rounding).
    n_datasets : int
        N, at least 2.

    Returns
    -------
    float
        :math:`\tau_{\chi^2}`, in [0, N(k-1)].

    Raises
    ------
    ValueError
        If ``average_ranks`` has fewer than 2 entries, holds NaN or inf or a value outside [1, k], does not sum to
        k(k+1)/2, or if ``n_datasets`` is not an integer of at least 2.

    Notes
    -----
    With ties the formula is used as printed, without the tie correction of
    ``scipy.stats.friedmanchisquare`` (which divides by :math:`1 - \sum (t^3 - t)/(N k (k^2-1))`).

    Examples
    --------
    >>> round(friedman_chi2([1.0, 2.125, 2.875], 4), 6)
    7.125
    """
    r = as_finite_array(average_ranks, "average_ranks")
    k = r.size
    if k < 2:
        raise ValueError(f"average_ranks must hold at least 2 algorithms, got {k}")
    n = check_positive_int(n_datasets, "n_datasets", minimum=2, maximum=COUNT_MAX, why="exact in float arithmetic")
    if np.any(r < 1) or np.any(r > k):
        raise ValueError(f"average_ranks must lie in [1, {k}] for {k} algorithms")
    if not math.isclose(float(r.sum()), k * (k + 1) / 2, rel_tol=1e-9):
        raise ValueError(f"average_ranks must sum to k(k+1)/2 = {k * (k + 1) / 2:g}, got {float(r.sum()):g}")
    return float((k - 1) / k * 12 * n / (k**2 - 1) * np.sum((r - (k + 1) / 2) ** 2))


def friedman_f(chi2, n_datasets, n_algorithms) -> float:
    r"""Formula (2.35): the F form of the Friedman statistic (Iman and Davenport).

    .. math:: \tau_F = \frac{(N-1)\,\tau_{\chi^2}}{N(k-1) - \tau_{\chi^2}}

    Derived in ``chapters/friedman_nemenyi.ipynb``, where it is shown to be the analysis-of-variance F ratio
    computed on the ranks.

    Parameters
    ----------
    chi2 : float
        :math:`\tau_{\chi^2}` of formula (2.34), in [0, N(k-1)].
    n_datasets : int
        N, at least 2.
    n_algorithms : int
        k, at least 2.

    Returns
    -------
    float
        :math:`\tau_F` in [0, +inf]. It is ``inf`` when :math:`\tau_{\chi^2} = N(k-1)`, which happens exactly
        when every data set ranks the algorithms in the same order without ties: the rankings agree perfectly,
        the error mean square of the ranks is 0 and the F ratio diverges (the strongest possible evidence, so the
        test rejects).

    Raises
    ------
    ValueError
        If ``chi2`` is not finite or lies outside [0, N(k-1)], or a count is not an integer of at least 2.

    Examples
    --------
    >>> round(friedman_f(7.125, 4, 3), 3)
    24.429
    >>> friedman_f(8.0, 4, 3)
    inf
    """
    n = check_positive_int(n_datasets, "n_datasets", minimum=2, maximum=COUNT_MAX, why="exact in float arithmetic")
    k = check_positive_int(n_algorithms, "n_algorithms", minimum=2, maximum=COUNT_MAX, why="exact in float arithmetic")
    tau = as_finite_array([chi2], "chi2")[0]
    top = n * (k - 1)
    # a value computed in floating point may overshoot the bounds by a rounding error
    if tau < 0 and math.isclose(tau, 0.0, abs_tol=1e-9):
        tau = 0.0
    if tau > top and math.isclose(tau, top, rel_tol=1e-12):
        tau = float(top)
    if not 0 <= tau <= top:
        raise ValueError(f"chi2 must lie in [0, N(k-1)] = [0, {top}], got {tau!r}")
    if tau == top:
        return math.inf
    return float((n - 1) * tau / (top - tau))


def friedman_test(errors, *, alpha=0.05) -> FriedmanResult:
    r"""The Friedman test of "all k algorithms perform alike" on N data sets: formulas (2.34) and (2.35).

    The algorithms are ranked on each data set (1 = lowest error, ties share the average rank), and

    .. math::
        \tau_{\chi^2} = \frac{12N}{k(k+1)} \left( \sum_{i=1}^{k} r_i^2 - \frac{k(k+1)^2}{4} \right), \qquad
        \tau_F = \frac{(N-1)\,\tau_{\chi^2}}{N(k-1) - \tau_{\chi^2}},

    where :math:`r_i` is the average rank of algorithm i. The test decides with :math:`\tau_F`, which under
    the null hypothesis follows (approximately) the F distribution (F分布) with (k-1, (k-1)(N-1)) degrees of
    freedom. Derived in ``chapters/friedman_nemenyi.ipynb``.

    Parameters
    ----------
    errors : array-like of shape (N, k)
        Test errors of k algorithms (columns) on N data sets (rows); lower is better. ``N >= 2``, ``k >= 2``.
        (For a measure where higher is better, pass its negative.)
    alpha : float, default 0.05
        Significance level, strictly between 0 and 1; keyword-only.

    Returns
    -------
    FriedmanResult
        ``statistic`` (:math:`\tau_F`, also readable as ``f``), ``critical_value`` (upper ``alpha`` quantile of
        F(k-1, (k-1)(N-1))), ``reject`` (``statistic > critical_value``), ``p_value`` (upper tail of the F
        distribution at :math:`\tau_F`), ``df`` (the two degrees of freedom), ``average_ranks`` (shape (k,)),
        ``chi2`` (:math:`\tau_{\chi^2}`), ``ranks`` (shape (N, k)), ``n_datasets`` and ``n_algorithms``.

    Raises
    ------
    ValueError
        If ``errors`` is not a finite 2-dimensional table with at least 2 rows and 2 columns (a ragged table is
        refused by name), or ``alpha`` is not strictly between 0 and 1 or too small for an accurate F quantile.

    Notes
    -----
    *Ties* follow the book: formula (2.34) is applied to the tie-averaged ranks as printed, with no tie
    correction. ``scipy.stats.friedmanchisquare`` divides :math:`\tau_{\chi^2}` by
    :math:`1 - \sum (t^3 - t)/(N k (k^2 - 1))` (t the sizes of the tied groups), so the two agree exactly
    without ties and scipy's value is larger with them.

    *Perfect agreement*: when every data set ranks the algorithms in the same order without ties,
    :math:`\tau_{\chi^2} = N(k-1)`, the denominator of (2.35) is 0 and :math:`\tau_F = +\infty`: the error mean
    square of the ranks is 0, so the F ratio diverges. The input is valid and the evidence against "all alike"
    is as strong as it gets, so the result is ``statistic = inf``, ``p_value = 0`` and ``reject = True``.

    The statistics are computed from integer rank sums in exact rational arithmetic and rounded once.

    Limits: any finite N x k table that fits in memory (time O(N k log k), a few copies of the table). The
    critical value is the upper quantile of F (``isf``), refused with ``ValueError`` when it does not give
    ``alpha`` back through the survival function to a relative 1e-6 or is infinite: SciPy's F quantile loses
    accuracy below about alpha = 1e-11 (at 1e-12 it is off by 1e-5 for F(2, 6), where the tail has a closed
    form), so such levels are refused. A p-value below 5e-324 is reported as 0.

    References
    ----------
    Friedman (1937); Iman and Davenport (1980); Demšar (2006), JMLR 7, 1-30.

    Examples
    --------
    The textbook's Table 2.5 (the ranks themselves may be passed as errors):

    >>> res = friedman_test([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]], alpha=0.05)
    >>> res.average_ranks.tolist()
    [1.0, 2.125, 2.875]
    >>> print(f"{res.chi2:.3f} {res.f:.3f} {res.critical_value:.3f} {res.reject}")
    7.125 24.429 5.143 True
    """
    table = _errors_table(errors)
    alpha = check_open_unit(alpha, "alpha")
    n, k = table.shape
    doubled = _doubled_ranks(table)
    # R_i: twice the rank sum of algorithm i, an exact integer (Python ints: no overflow for any N, k)
    rank_sums2 = [int(v) for v in doubled.sum(axis=0, dtype=np.int64)]
    sum_sq = sum(v * v for v in rank_sums2)  # = 4 * sum_i (N r_i)^2
    # (2.34), second form, with r_i = R_i / (2N):  12N/(k(k+1)) (sum r_i^2 - k(k+1)^2/4)
    chi2 = Fraction(12 * n, k * (k + 1)) * (Fraction(sum_sq, 4 * n * n) - Fraction(k * (k + 1) ** 2, 4))
    top = n * (k - 1)
    df = (k - 1, (k - 1) * (n - 1))
    if chi2 == top:
        f_value, p_value = math.inf, 0.0
    else:
        f_value = float((n - 1) * chi2 / (top - chi2))
        p_value = float(stats.f.sf(f_value, *df))
    critical = checked_isf(stats.f, alpha, *df)
    return FriedmanResult(
        statistic=f_value,
        critical_value=critical,
        reject=bool(f_value > critical),
        p_value=p_value,
        df=df,
        average_ranks=np.asarray(rank_sums2, dtype=np.float64) / (2 * n),
        chi2=float(chi2),
        ranks=doubled / 2.0,
        n_datasets=n,
        n_algorithms=k,
    )


def nemenyi_q(k, *, alpha=0.05) -> float:
    r"""The critical value :math:`q_\alpha` of the Nemenyi test for k algorithms (Table 2.7 of the textbook).

    .. math:: q_\alpha = \frac{Q_{1-\alpha}(k, \infty)}{\sqrt 2}

    where :math:`Q_{1-\alpha}(k, \infty)` is the upper ``alpha`` quantile of the studentized range of k
    independent standard normal variables (infinite degrees of freedom): the range of k independent
    :math:`N(0, 1)` variables exceeds :math:`\sqrt 2\, q_\alpha` with probability ``alpha``. For k = 2 it is the
    two-sided normal quantile :math:`z_{1-\alpha/2}` (1.960 for ``alpha = 0.05``). Derived in
    ``chapters/friedman_nemenyi.ipynb``.

    Parameters
    ----------
    k : int
        Number of algorithms, at least 2.
    alpha : float, default 0.05
        Significance level, strictly between 0 and 1; keyword-only.

    Returns
    -------
    float
        :math:`q_\alpha`.

    Raises
    ------
    ValueError
        If ``k`` is not an integer in [2, ``NEMENYI_MAX_K``], or ``alpha`` is not strictly between 0 and 1 or is
        outside [``NEMENYI_MIN_ALPHA``, ``NEMENYI_MAX_ALPHA``].

    Notes
    -----
    Computed with ``scipy.stats.studentized_range`` at ``df = inf``. The tests check it against an independent
    route (numerical integration of the distribution of the range of k normals) to a relative 1e-10 for k up to 500
    and ``alpha`` from 0.001 to 0.999. The printed tables (Demšar 2006, the textbook's Table 2.7) give 0.05 and
    0.10 only, and those are the levels at which the test is used.

    Limits: ``NEMENYI_MIN_ALPHA`` = 1e-8 <= ``alpha`` <= ``NEMENYI_MAX_ALPHA`` = 1 - 1e-8 and ``k <= NEMENYI_MAX_K``
    = 10**5, every corner within a second. SciPy's upper tail of the studentized range is 1 - cdf, so it loses
    relative accuracy as ``alpha`` falls (10 % at 1e-15, and at 1e-20 its isf returns a search bracket, 70.71,
    instead of the quantile). Near ``alpha = 1`` the quantile approaches 0 and the lower tail loses accuracy the
    same way (at ``1 - 1e-16`` SciPy returned 0; at k = 10**5 and ``1 - 1e-8`` its lower tail is 5.6e-12 instead
    of 1e-8). So SciPy's quantile is accepted only if the smaller tail of the range, integrated directly in
    logarithms (neither tail computed as 1 minus the other), gives ``alpha`` (or ``1 - alpha``) back to a relative
    1e-5; otherwise the quantile is solved on that integral. Beyond the limits, ``ValueError``.

    Examples
    --------
    >>> round(nemenyi_q(3, alpha=0.05), 3)
    2.344
    >>> round(nemenyi_q(2, alpha=0.10), 3)
    1.645
    """
    k = check_positive_int(k, "k", minimum=2, maximum=NEMENYI_MAX_K, why="NEMENYI_MAX_K")
    alpha = check_open_unit(alpha, "alpha", minimum=NEMENYI_MIN_ALPHA, maximum=NEMENYI_MAX_ALPHA)
    with np.errstate(all="ignore"):
        w = float(stats.studentized_range.isf(alpha, k, np.inf))
    if not (np.isfinite(w) and w > 0 and _range_tail_matches(w, k, alpha)):
        # SciPy's quantile does not give alpha back through the range's own tail (its lower tail is off for many
        # algorithms near alpha = 1, e.g. k = 10**5 at 1 - 1e-8): solve for it on that tail instead
        w = _range_quantile(k, alpha)
    return w / math.sqrt(2.0)


_RANGE_GRID = np.linspace(-13.0, 9.0, 22_001)  # step 0.001: the trapezoid rule is exact to ~1e-12 here


def _range_tail(w: float, k: int, alpha: float) -> float:
    r"""The smaller tail of the range :math:`R` of k independent standard normals at ``w``.

    For ``alpha <= 1/2`` the upper tail :math:`P(R > w)`, else the lower tail :math:`P(R \le w)`, from the
    distribution of the range given its minimum x: with :math:`Q(x) = 1 - \Phi(x)` and
    :math:`r = Q(x + w) / Q(x)`,

    .. math:: P(R \le w) = k \int \varphi(x)\, Q(x)^{k-1} (1 - r)^{k-1}\, dx, \qquad
              P(R > w) = k \int \varphi(x)\, Q(x)^{k-1} \big(1 - (1 - r)^{k-1}\big)\, dx,

    each evaluated in logarithms (``log_ndtr``, ``log1p``, ``expm1``), so that neither tail is 1 minus the other
    and both keep their relative accuracy when small. Integrated by the trapezoid rule on a fine grid (the
    integrands are smooth and vanish at both ends, where the rule converges fast).
    """
    x = _RANGE_GRID
    log_q = special.log_ndtr(-x)
    log_min_density = math.log(k) - 0.5 * x * x - 0.5 * math.log(2 * math.pi) + (k - 1) * log_q
    with np.errstate(divide="ignore", under="ignore"):  # r = 1 (w below rounding at large x) gives log 0 = -inf
        log_r = special.log_ndtr(-(x + w)) - log_q
        inner = (k - 1) * np.log1p(-np.exp(log_r))
        if alpha <= 0.5:
            values = np.exp(log_min_density) * -np.expm1(inner)
        else:
            values = np.exp(log_min_density + inner)
    return float(np.trapezoid(values, x))


def _range_tail_matches(w: float, k: int, alpha: float, rtol: float = 1e-5) -> bool:
    target = alpha if alpha <= 0.5 else 1.0 - alpha
    return abs(_range_tail(w, k, alpha) - target) <= rtol * target


def _range_quantile(k: int, alpha: float) -> float:
    """The upper ``alpha`` quantile of the range of k standard normals, solved on :func:`_range_tail`."""
    target = math.log(alpha if alpha <= 0.5 else 1.0 - alpha)
    sign = 1.0 if alpha <= 0.5 else -1.0  # the upper tail falls with w, the lower one rises

    def gap(log_w: float) -> float:
        tail = _range_tail(math.exp(log_w), k, alpha)
        return sign * ((math.log(tail) if tail > 0 else -1e300) - target)

    try:
        log_w = optimize.brentq(gap, math.log(1e-300), math.log(60.0), xtol=1e-13, rtol=1e-13)
    except ValueError as exc:
        raise ValueError(f"alpha = {alpha!r} is beyond what the range's distribution resolves for k = {k}") from exc
    w = math.exp(log_w)
    if not _range_tail_matches(w, k, alpha):
        raise ValueError(f"alpha = {alpha!r}: no accurate quantile of the range of {k} normals was found")
    return w


def nemenyi_cd(k, n_datasets, *, alpha=0.05) -> float:
    r"""Formula (2.36): the critical difference (临界值域) of the Nemenyi post-hoc test.

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}}

    Two algorithms whose average ranks differ by more than CD perform significantly differently at level
    ``alpha``. Derived in ``chapters/friedman_nemenyi.ipynb``.

    Parameters
    ----------
    k : int
        Number of algorithms, at least 2.
    n_datasets : int
        N, the number of data sets, at least 2.
    alpha : float, default 0.05
        Significance level, strictly between 0 and 1; keyword-only.

    Returns
    -------
    float
        CD, in units of average rank.

    Raises
    ------
    ValueError
        If ``k`` or ``n_datasets`` is not an integer of at least 2, or ``alpha`` is not strictly between 0 and 1;
        and beyond the limits of :func:`melearn.nemenyi_q`.

    Notes
    -----
    Limits: those of :func:`melearn.nemenyi_q` (``k <= 10**5``, ``1e-8 <= alpha <= 1 - 1e-8``); ``n_datasets`` may be
    any integer (10**400 gives CD of order 1e-200, not 0: the division is done on the integer's leading bits).

    Examples
    --------
    >>> round(nemenyi_cd(3, 4, alpha=0.05), 3)
    1.657
    """
    q = nemenyi_q(k, alpha=alpha)
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    # sqrt(k (k+1) / (6 N)) for N of any size: N = n_high * 4**s with n_high below 2**100, so that the integer
    # division k (k+1) / (6 n_high) neither overflows nor underflows; 2**-s is applied exactly at the end
    shift = max(0, (n.bit_length() - 100) // 2)
    return math.ldexp(q * math.sqrt(k * (k + 1) / (6 * (n >> (2 * shift)))), -shift)


def nemenyi_test(errors, *, alpha=0.05) -> NemenyiResult:
    r"""The Nemenyi post-hoc test (Nemenyi后续检验) on an N x k table of errors: formula (2.36).

    Algorithms i and j differ significantly when :math:`|r_i - r_j| > CD`. Derived in
    ``chapters/friedman_nemenyi.ipynb``.

    Parameters
    ----------
    errors : array-like of shape (N, k)
        As for :func:`melearn.friedman_test`.
    alpha : float, default 0.05
        Significance level, strictly between 0 and 1; keyword-only.

    Returns
    -------
    NemenyiResult
        ``cd``, ``q``, ``average_ranks`` (shape (k,)), ``differences`` (shape (k, k), :math:`|r_i - r_j|`) and
        ``significant`` (shape (k, k), bool, ``differences > cd``; the diagonal is False).

    Raises
    ------
    ValueError
        As for :func:`melearn.friedman_test`.

    Notes
    -----
    Limits: k up to ``NEMENYI_TEST_MAX_K`` = 5000 algorithms (the two k x k tables take 9 bytes per entry);
    ``alpha`` as in :func:`melearn.nemenyi_q` (at least 1e-8).

    The textbook runs the post-hoc test after the Friedman test has rejected; this function does not run the
    Friedman test itself.

    Examples
    --------
    >>> res = nemenyi_test([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]])
    >>> res.significant.astype(int).tolist()
    [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
    """
    table = _errors_table(errors)
    if table.shape[1] > NEMENYI_TEST_MAX_K:
        raise ValueError(
            f"errors has {table.shape[1]:,} algorithms (columns); the k x k tables of differences allow at most "
            f"NEMENYI_TEST_MAX_K = {NEMENYI_TEST_MAX_K:,} (use nemenyi_cd and compare the average ranks yourself)"
        )
    alpha = check_open_unit(alpha, "alpha")
    n, k = table.shape
    r = _doubled_ranks(table).sum(axis=0) / (2.0 * n)
    cd = nemenyi_cd(k, n, alpha=alpha)
    differences = np.abs(r[:, None] - r[None, :])
    return NemenyiResult(cd, nemenyi_q(k, alpha=alpha), r, differences, differences > cd)


#: The largest table of rank-sum states :func:`friedman_null_distribution` fills (entries times permutations).
EXACT_MAX_WORK = 1_000_000_000


def friedman_null_distribution(k, n_datasets) -> NullDistribution:
    r"""The exact null distribution of :math:`\tau_{\chi^2}` (2.34) for k algorithms on N data sets, without ties.

    Under the null hypothesis every data set ranks the k algorithms in one of the k! orders with equal
    probability, independently of the other data sets. The statistic depends on the rank sums
    :math:`R_i = N r_i` only, so their distribution is built one data set at a time: adding a data set shifts the
    rank sums by a permutation of 1..k, each with probability 1/k!. The last rank sum is fixed by the others
    (:math:`\sum_i R_i = Nk(k+1)/2`), so the table has :math:`(kN+1)^{k-1}` entries. Used in
    ``chapters/friedman_nemenyi.ipynb`` to measure how conservative the chi-square approximation is.

    Parameters
    ----------
    k : int
        Number of algorithms, at least 2.
    n_datasets : int
        N, at least 2.

    Returns
    -------
    NullDistribution
        ``chi2`` (the distinct values, increasing) and ``probability`` (their probabilities, summing to 1).

    Raises
    ------
    ValueError
        If ``k`` or ``n_datasets`` is not an integer of at least 2, or if the work
        :math:`N \cdot k! \cdot (kN+1)^{k-1}` exceeds ``EXACT_MAX_WORK`` (so N <= 264 for k = 3, N <= 28 for
        k = 4, N <= 6 for k = 5; about a second at the limit): use a Monte Carlo simulation beyond.

    Examples
    --------
    >>> null = friedman_null_distribution(3, 2)
    >>> [f"{v:g}" for v in null.chi2], [f"{p:.4f}" for p in null.probability]
    (['0', '1', '3', '4'], ['0.1667', '0.3333', '0.3333', '0.1667'])
    """
    k = _check_k(k)
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    size = k * n + 1
    # 13! alone exceeds EXACT_MAX_WORK: refuse larger k before computing a factorial (of a huge k it never returns)
    work = n * math.factorial(k) * size ** (k - 1) if k <= 12 else EXACT_MAX_WORK + 1
    if work > EXACT_MAX_WORK:
        raise ValueError(
            f"k = {k if k < 10**6 else 'huge'}, n_datasets = {n if n < 10**6 else 'huge'} needs "
            f"{f'about {float(work):.1e}' if k <= 12 and work < 10**300 else 'more than 1e+09'} operations, "
            "more than EXACT_MAX_WORK = "
            f"{EXACT_MAX_WORK:.0e}; use a Monte Carlo simulation"
        )
    perms = list(itertools.permutations(range(1, k + 1)))
    p = np.zeros((size,) * (k - 1))
    p[(0,) * (k - 1)] = 1.0
    for d in range(1, n + 1):
        top = (d - 1) * k + 1  # rank sums after d - 1 data sets are below this bound
        following = np.zeros_like(p)
        block = p[(slice(0, top),) * (k - 1)]
        for perm in perms:
            following[tuple(slice(s, s + top) for s in perm[:-1])] += block
        p = following / len(perms)
    # the statistic of every state, from the exact integer sum of squared rank sums
    grids = np.meshgrid(*([np.arange(size, dtype=np.int64)] * (k - 1)), indexing="ij", sparse=True)
    last = n * k * (k + 1) // 2 - sum(grids)
    sum_sq = sum(g * g for g in grids) + last * last
    occupied = (p > 0) & (last >= 0)
    values, inverse = np.unique(sum_sq[occupied], return_inverse=True)
    probability = np.bincount(inverse, weights=p[occupied])
    # tau = 12/(N k (k+1)) sum R_i^2 - 3 N (k+1), formula (2.34) with r_i = R_i / N
    chi2 = np.array([float(Fraction(12 * int(v), n * k * (k + 1)) - 3 * n * (k + 1)) for v in values])
    return NullDistribution(chi2, probability / probability.sum())
