"""Tests of Pearson's chi-square test of independence (exercise 2.9) against SciPy and the literal formula."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from melearn.contingency import chi2_statistic, chi2_test_of_independence, expected_counts


def _no_empty_margin(t):
    return np.all(t.sum(0) > 0) and np.all(t.sum(1) > 0)


shapes = st.tuples(st.integers(2, 5), st.integers(2, 5))
tables = shapes.flatmap(lambda s: hnp.arrays(np.int64, s, elements=st.integers(0, 60))).filter(_no_empty_margin)
tables_2x2 = hnp.arrays(np.int64, (2, 2), elements=st.integers(0, 60)).filter(_no_empty_margin)


def literal_x2(table):
    """X^2 = sum (O - E)^2 / E with E = R_i C_j / n, in exact fractions."""
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    n = sum(rows)
    total = Fraction(0)
    for i, row in enumerate(table):
        for j, o in enumerate(row):
            e = Fraction(rows[i] * cols[j], n)
            total += (o - e) ** 2 / e
    return total


@given(tables)
def test_statistic_matches_scipy_and_the_literal_formula(table):
    r = chi2_test_of_independence(table)
    ref = stats.chi2_contingency(table, correction=False)
    assert np.isclose(r.statistic, ref.statistic, rtol=1e-9, atol=1e-12)
    assert np.isclose(r.statistic, float(literal_x2(table.tolist())), rtol=1e-9, atol=1e-12)
    assert np.isclose(r.p_value, ref.pvalue, rtol=1e-7, atol=1e-300)
    assert r.df == ref.dof == (table.shape[0] - 1) * (table.shape[1] - 1)
    np.testing.assert_allclose(r.expected, ref.expected_freq)
    assert r.reject == (r.statistic > stats.chi2.isf(0.05, r.df))


@given(tables_2x2)
def test_yates_correction_matches_scipy(table):
    ours = chi2_statistic(table, correction=True)
    assert np.isclose(ours, stats.chi2_contingency(table, correction=True).statistic, rtol=1e-9, atol=1e-12)


@given(tables_2x2)
def test_two_by_two_shortcut(table):
    # X^2 = n (ad - bc)^2 / (row and column totals multiplied), derived on the exercise page
    (a, b), (c, d) = table.tolist()
    n = a + b + c + d
    shortcut = Fraction(n * (a * d - b * c) ** 2, (a + b) * (c + d) * (a + c) * (b + d))
    assert literal_x2(table.tolist()) == shortcut
    assert np.isclose(chi2_statistic(table), float(shortcut), rtol=1e-12, atol=1e-12)


def test_batch_equals_one_table_at_a_time():
    rng = np.random.default_rng(9)
    batch = rng.integers(1, 30, size=(4, 3, 2, 3))
    got = chi2_statistic(batch)
    assert got.shape == (4, 3)
    for idx in np.ndindex(4, 3):
        assert got[idx] == chi2_statistic(batch[idx])


def test_expected_counts_keep_the_margins():
    t = np.array([[3, 9, 1], [7, 2, 8]])
    e = expected_counts(t)
    np.testing.assert_allclose(e.sum(0), t.sum(0))
    np.testing.assert_allclose(e.sum(1), t.sum(1))


def test_independent_table_gives_zero():
    assert chi2_statistic([[2, 4], [3, 6]]) == 0.0


@pytest.mark.parametrize(
    "table, message",
    [
        ([[1, 2, 3]], "at least 2 rows"),
        ([1, 2], "2-dimensional"),
        ([[1, -2], [3, 4]], "non-negative integers"),
        ([[1.5, 2], [3, 4]], "non-negative integers"),
        ([[0, 0], [3, 4]], "row or a column with no sample"),
        ([[0, 1], [0, 4]], "row or a column with no sample"),
        ([[1, np.nan], [3, 4]], "NaN or inf"),
        ([["a", "b"], ["c", "d"]], "must hold counts"),
        ([[True, False], [False, True]], "must hold counts"),
        ([[2**60, 1], [1, 1]], "2\\*\\*53"),
    ],
)
def test_refusals(table, message):
    with pytest.raises(ValueError, match=message):
        chi2_test_of_independence(table)


def test_other_refusals():
    with pytest.raises(ValueError, match="alpha must lie strictly between 0 and 1"):
        chi2_test_of_independence([[1, 2], [3, 4]], alpha=1.0)
    with pytest.raises(ValueError, match="Yates' correction is defined for 2 x 2 tables"):
        chi2_statistic([[1, 2, 3], [3, 4, 5]], correction=True)
    with pytest.raises(ValueError, match="correction must be True or False"):
        chi2_statistic([[1, 2], [3, 4]], correction="yes")
    with pytest.raises(ValueError, match="one 2-dimensional table"):
        chi2_test_of_independence(np.ones((2, 2, 2), dtype=int))
