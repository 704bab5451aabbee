r"""Pearson's chi-square test (卡方检验) of independence for a contingency table (列联表): exercise 2.9.

An :math:`r \times c` table counts :math:`n` samples by two categorical variables: :math:`O_{ij}` samples fall in
row :math:`i` and column :math:`j`. If the two variables are independent, the expected count of a cell given the
margins is :math:`E_{ij} = R_i C_j / n` (row total times column total over :math:`n`), and Pearson's statistic

.. math::

    X^2 = \sum_{i=1}^{r} \sum_{j=1}^{c} \frac{(O_{ij} - E_{ij})^2}{E_{ij}}

follows approximately the :math:`\chi^2` distribution with :math:`(r-1)(c-1)` degrees of freedom (Pearson 1900;
Agresti 2002, section 3.2). The test rejects independence at level :math:`\alpha` when :math:`X^2` exceeds the
upper :math:`\alpha` quantile. For a 2 x 2 table ``correction=True`` applies Yates' continuity correction, each
:math:`|O_{ij} - E_{ij}|` shortened by 1/2 (never below 0), as ``scipy.stats.chi2_contingency`` does.

Derived, simulated against its :math:`\chi^2` approximation and related to McNemar's test (2.33) on
``chapters/exercises/ex2_9_10.ipynb``.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np
from scipy import stats

from ._validation import as_array, as_bool, check_open_unit, checked_isf

__all__ = ["ContingencyTestResult", "chi2_statistic", "chi2_test_of_independence", "expected_counts"]


class ContingencyTestResult(NamedTuple):
    r"""Pearson's chi-square test of independence.

    Attributes
    ----------
    statistic : float
        :math:`X^2`.
    critical_value : float
        The upper ``alpha`` quantile of :math:`\chi^2(\mathrm{df})`.
    reject : bool
        ``statistic > critical_value``.
    p_value : float
        The upper tail of :math:`\chi^2(\mathrm{df})` at ``statistic``.
    df : int
        The degrees of freedom, :math:`(r-1)(c-1)`.
    expected : numpy.ndarray
        The table of expected counts :math:`E_{ij}`.
    """

    statistic: float
    critical_value: float
    reject: bool
    p_value: float
    df: int
    expected: np.ndarray


def _tables(table, name: str = "table") -> np.ndarray:
    """Validate counts: at least 2 dimensions (a batch of tables along leading axes), non-negative integers."""
    arr = as_array(table, name)
    if arr.dtype == bool or (arr.dtype.kind not in "iuf" and arr.dtype != object):
        raise ValueError(f"{name} must hold counts (non-negative integers), got dtype {arr.dtype}")
    if arr.ndim < 2:
        raise ValueError(f"{name} must be a 2-dimensional table of counts (or a batch of them), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.shape[-2] < 2 or arr.shape[-1] < 2:
        raise ValueError(f"{name} needs at least 2 rows and 2 columns, got shape {arr.shape[-2:]}")
    if arr.dtype == object:  # Python integers beyond int64 (or exact Python numbers): judged before any conversion
        flat = arr.ravel().tolist()
        if any(isinstance(v, numbers.Integral) and abs(int(v)) >= 2**53 for v in flat):
            raise ValueError(f"{name} holds a count of 2**53 or more, beyond exact float arithmetic")
    values = arr.astype(np.float64) if arr.dtype != object else np.array(arr.tolist(), dtype=np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or inf")
    if np.any(values < 0) or np.any(values != np.floor(values)):
        raise ValueError(f"{name} must hold counts (non-negative integers)")
    if np.any(values >= 2.0**53):
        raise ValueError(f"{name} holds a count of 2**53 or more, beyond exact float arithmetic")
    return values


def expected_counts(table) -> np.ndarray:
    r"""Return the counts expected under independence given the margins: :math:`E_{ij} = R_i C_j / n`.

    Parameters
    ----------
    table : array-like of shape (..., r, c)
        Non-negative integer counts, r, c >= 2 (leading axes: a batch of tables).

    Raises
    ------
    ValueError
        If ``table`` is not such an array, or a row or column of a table sums to 0 (its expected counts are 0 and
        the statistic is undefined).

    Examples
    --------
    >>> expected_counts([[10, 20], [30, 40]]).tolist()
    [[12.0, 18.0], [28.0, 42.0]]
    """
    values = _tables(table)
    rows = values.sum(axis=-1, keepdims=True)
    cols = values.sum(axis=-2, keepdims=True)
    if np.any(rows == 0) or np.any(cols == 0):
        raise ValueError("table has a row or a column with no sample: its expected counts are 0 and X^2 is undefined")
    n = values.sum(axis=(-2, -1), keepdims=True)
    return rows * (cols / n)


def chi2_statistic(table, *, correction=False) -> np.ndarray | float:
    r"""Compute Pearson's :math:`X^2 = \sum_{ij} (O_{ij} - E_{ij})^2 / E_{ij}` of a table, or of each of a batch.

    Parameters
    ----------
    table : array-like of shape (..., r, c)
        Non-negative integer counts, r, c >= 2.
    correction : bool, default False
        Yates' continuity correction (2 x 2 tables only): each :math:`|O_{ij} - E_{ij}|` shortened by
        :math:`\min(1/2, |O_{ij} - E_{ij}|)`.

    Returns
    -------
    float or numpy.ndarray
        A float for one table, an array of the batch's shape for a batch.

    Raises
    ------
    ValueError
        As ``expected_counts``; or ``correction=True`` for a table that is not 2 x 2.

    Examples
    --------
    >>> round(chi2_statistic([[10, 20], [30, 40]]), 6)
    0.793651
    """
    correction = as_bool(correction, "correction")
    observed = _tables(table)
    expected = expected_counts(observed)
    gap = np.abs(observed - expected)
    if correction:
        if observed.shape[-2:] != (2, 2):
            raise ValueError(f"Yates' correction is defined for 2 x 2 tables, got {observed.shape[-2:]}")
        gap = gap - np.minimum(0.5, gap)
    statistic = np.sum(gap**2 / expected, axis=(-2, -1))
    return float(statistic) if statistic.ndim == 0 else statistic


def chi2_test_of_independence(table, *, alpha=0.05, correction=False) -> ContingencyTestResult:
    r"""Test that the row and column variables of a contingency table are independent (Pearson's chi-square test).

    The chi-square test (卡方检验) of exercise 2.9, section 2.4; the procedure is derived, its null distribution
    simulated and its relation to McNemar's test (2.33) shown on ``chapters/exercises/ex2_9_10.ipynb``.

    Parameters
    ----------
    table : array-like of shape (r, c)
        Non-negative integer counts, r, c >= 2, no empty row or column.
    alpha : float, default 0.05
        The significance level, in (0, 1); keyword-only.
    correction : bool, default False
        Yates' continuity correction (2 x 2 tables only).

    Returns
    -------
    ContingencyTestResult
        ``statistic`` (:math:`X^2`), ``critical_value``, ``reject``, ``p_value``, ``df`` = (r-1)(c-1),
        ``expected``.

    Raises
    ------
    ValueError
        If ``table`` is not a 2-d table of counts with no empty row or column, ``alpha`` is not in (0, 1), or
        ``correction=True`` for a table that is not 2 x 2.

    Examples
    --------
    >>> r = chi2_test_of_independence([[30, 10], [10, 30]])
    >>> round(r.statistic, 4), r.df, r.reject
    (20.0, 1, True)
    """
    observed = _tables(table)
    if observed.ndim != 2:
        raise ValueError(f"table must be one 2-dimensional table, got shape {observed.shape}")
    alpha = check_open_unit(alpha, "alpha")
    statistic = float(chi2_statistic(observed, correction=correction))
    dof = (observed.shape[0] - 1) * (observed.shape[1] - 1)
    critical = checked_isf(stats.chi2, alpha, dof)
    return ContingencyTestResult(
        statistic=statistic,
        critical_value=critical,
        reject=bool(statistic > critical),
        p_value=float(stats.chi2.sf(statistic, dof)),
        df=dof,
        expected=expected_counts(observed),
    )
