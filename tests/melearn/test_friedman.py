"""Tests of the Friedman and Nemenyi tests, formulas (2.34)-(2.36), and of the critical-difference diagram."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402
from scipy import (
    optimize,  # noqa: E402
    stats,  # noqa: E402
)

from melearn import friedman_test, nemenyi_cd, nemenyi_q  # noqa: E402
from melearn.friedman import (  # noqa: E402
    friedman_chi2,
    friedman_f,
    friedman_null_distribution,
    nemenyi_test,
    rank_matrix,
)
from melearn.plotting.cd_diagram import nonsignificant_groups, plot_cd_diagram  # noqa: E402

# The textbook's Table 2.5: ranks of algorithms A, B, C on data sets D1..D4 (B and C tie on D2).
TABLE_2_5 = [[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]]

# The textbook's Table 2.6, alpha = 0.05: F critical values, rows N = 4, 5, 8, 10, 15, 20, columns k = 2..10.
TABLE_2_6_005 = {
    4: [10.128, 5.143, 3.863, 3.259, 2.901, 2.661, 2.488, 2.355, 2.250],
    5: [7.709, 4.459, 3.490, 3.007, 2.711, 2.508, 2.359, 2.244, 2.153],
    8: [5.591, 3.739, 3.072, 2.714, 2.485, 2.324, 2.203, 2.109, 2.032],
    10: [5.117, 3.555, 2.960, 2.634, 2.422, 2.272, 2.159, 2.070, 1.998],
    15: [4.600, 3.340, 2.827, 2.537, 2.346, 2.209, 2.104, 2.022, 1.955],
    20: [4.381, 3.245, 2.766, 2.492, 2.310, 2.179, 2.079, 2.000, 1.935],
}

# Demsar (2006), Table 5a: q_alpha for k = 2..10.
DEMSAR_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}


# -- independent routes, written from the definitions ---------------------------------------------------------
def brute_ranks(row):
    """Rank of each entry as 1 + (number smaller) + (number tied, others)/2, exactly, by counting."""
    return [1 + sum(Fraction(1) for y in row if y < x) + Fraction(sum(1 for y in row if y == x) - 1, 2) for x in row]


def brute_chi2(table):
    """Formula (2.34), first form, as printed, in exact arithmetic on brute-force ranks."""
    ranks = [brute_ranks(row) for row in table]
    n, k = len(ranks), len(ranks[0])
    r = [sum(row[i] for row in ranks) / n for i in range(k)]
    return Fraction(k - 1, k) * Fraction(12 * n, k * k - 1) * sum((ri - Fraction(k + 1, 2)) ** 2 for ri in r)


def anova_f_on_ranks(ranks):
    """Two-way ANOVA (blocks = data sets, treatments = algorithms) on the rank table: the F ratio."""
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    grand = ranks.mean()
    ss_total = ((ranks - grand) ** 2).sum()
    ss_treat = n * ((ranks.mean(axis=0) - grand) ** 2).sum()
    ss_block = k * ((ranks.mean(axis=1) - grand) ** 2).sum()
    ss_error = ss_total - ss_treat - ss_block
    return (ss_treat / (k - 1)) / (ss_error / ((k - 1) * (n - 1)))


Z_GRID = np.linspace(-12.0, 12.0, 4001)


def q_by_integration(k, alpha):
    """q_alpha from P(range of k N(0,1) <= w) = k * int phi(z) (Phi(z + w) - Phi(z))^(k-1) dz.

    The integrand is smooth and decays like a Gaussian, so the trapezoid rule on a uniform grid is accurate to
    rounding; the root is found by bisection-type search, independently of scipy's studentized range.
    """

    def cdf(w):
        integrand = stats.norm.pdf(Z_GRID) * (stats.norm.cdf(Z_GRID + w) - stats.norm.cdf(Z_GRID)) ** (k - 1)
        return k * np.trapezoid(integrand, Z_GRID)

    return optimize.brentq(lambda w: 1 - cdf(w) - alpha, 1e-8, 20, xtol=1e-14) / math.sqrt(2)


def check_book_example(chi2_fn, f_fn, cd_fn):
    """The textbook's worked example of section 2.4.4, to the 3 decimals it prints."""
    chi2 = chi2_fn([1.0, 2.125, 2.875], 4)
    assert round(chi2, 3) == 7.125
    assert round(f_fn(chi2, 4, 3), 3) == 24.429
    assert round(cd_fn(3, 4, alpha=0.05), 3) == 1.657


tables = hnp.arrays(
    np.int64,
    hnp.array_shapes(min_dims=2, max_dims=2, min_side=2, max_side=6),
    elements=st.integers(0, 3),  # few values: many ties
)


# -- the book's worked example --------------------------------------------------------------------------------
def test_book_worked_example():
    res = friedman_test(TABLE_2_5, alpha=0.05)
    assert res.average_ranks.tolist() == [1.0, 2.125, 2.875]
    assert res.chi2 == 7.125  # exact: 57/8
    assert res.f == pytest.approx(171 / 7, rel=1e-15)  # 24.428571...
    assert f"{res.f:.3f}" == "24.429"
    assert f"{res.critical_value:.3f}" == "5.143"
    assert res.statistic == res.f and res.reject and res.df == (2, 6)
    assert res.p_value == pytest.approx(stats.f.sf(171 / 7, 2, 6))
    assert f"{nemenyi_cd(3, 4, alpha=0.05):.3f}" == "1.657"
    check_book_example(friedman_chi2, friedman_f, nemenyi_cd)


def test_book_example_nemenyi_pairs():
    res = nemenyi_test(TABLE_2_5, alpha=0.05)
    # |A - B| = 1.125 < CD, |B - C| = 0.75 < CD, |A - C| = 1.875 > CD
    assert res.significant.tolist() == [[False, False, True], [False, False, False], [True, False, False]]
    assert res.differences[0, 2] == pytest.approx(1.875) and res.cd == pytest.approx(nemenyi_cd(3, 4))
    assert res.q == pytest.approx(nemenyi_q(3, alpha=0.05))


def test_demsar_worked_example():
    # Demsar (2006), section 3.2.2: 4 classifiers on 14 data sets, average ranks 3.143, 2.000, 2.893, 1.964
    r = np.array([44, 28, 40.5, 27.5]) / 14
    chi2 = friedman_chi2(r, 14)
    assert round(chi2, 2) == 9.28
    assert round(friedman_f(chi2, 14, 4), 2) == 3.69
    assert round(nemenyi_cd(4, 14, alpha=0.05), 2) == 1.25


@pytest.mark.parametrize(
    "mutant",
    [
        ("chi2 with 6N for 12N", lambda r, n: friedman_chi2(r, n) / 2, friedman_f, nemenyi_cd),
        ("chi2 centred at k/2", lambda r, n: float(brute_chi2_centred(r, n, shift=0.5)), friedman_f, nemenyi_cd),
        ("F with N instead of N-1", friedman_chi2, lambda c, n, k: n * c / (n * (k - 1) - c), nemenyi_cd),
        (
            "CD with 12N",
            friedman_chi2,
            friedman_f,
            lambda k, n, *, alpha: nemenyi_q(k, alpha=alpha) * math.sqrt(k * (k + 1) / (12 * n)),
        ),
        (
            "CD without sqrt 2",
            friedman_chi2,
            friedman_f,
            lambda k, n, *, alpha: math.sqrt(2) * nemenyi_q(k, alpha=alpha) * math.sqrt(k * (k + 1) / (6 * n)),
        ),
    ],
    ids=lambda m: m[0],
)
def test_a_wrong_constant_is_caught_by_the_reference_values(mutant):
    _, chi2_fn, f_fn, cd_fn = mutant
    with pytest.raises(AssertionError):
        check_book_example(chi2_fn, f_fn, cd_fn)


def brute_chi2_centred(r, n, shift):
    """(2.34) with the centre (k+1)/2 moved by ``shift``: a mutant."""
    k = len(r)
    return (k - 1) / k * 12 * n / (k**2 - 1) * sum((ri - (k + 1) / 2 + shift) ** 2 for ri in r)


# -- agreement with scipy and with the definitions ----------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 3), (4, 3), (10, 5), (30, 8), (7, 12)])
def test_chi2_equals_scipy_without_ties(shape):
    rng = np.random.default_rng(sum(shape))
    errors = rng.random(shape)  # continuous: no ties
    res = friedman_test(errors)
    expected = stats.friedmanchisquare(*errors.T).statistic
    assert res.chi2 == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert res.f == pytest.approx(anova_f_on_ranks(res.ranks), rel=1e-10)


def test_with_ties_scipy_divides_by_the_tie_correction_and_the_book_does_not():
    res = friedman_test(TABLE_2_5)
    scipy_chi2 = stats.friedmanchisquare(*np.asarray(TABLE_2_5, dtype=float).T).statistic
    # one tied pair (t = 2) in N k (k^2 - 1) = 4 * 3 * 8: correction 1 - 6/96 = 15/16
    assert scipy_chi2 == pytest.approx(7.6, rel=1e-12)
    assert res.chi2 == 7.125 and res.chi2 == pytest.approx(scipy_chi2 * 15 / 16, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_tie_correction_relation_and_anova_form_with_ties(table):
    n, k = table.shape
    res = friedman_test(table)
    ties = sum(int(c) ** 3 - int(c) for row in table for c in np.unique(row, return_counts=True)[1])
    correction = 1 - ties / (n * k * (k * k - 1))
    if correction > 0 and k >= 3:
        scipy_chi2 = stats.friedmanchisquare(*table.T.astype(float)).statistic
        assert res.chi2 == pytest.approx(scipy_chi2 * correction, rel=1e-9, abs=1e-9)
    # the ANOVA F on the ranks is (2.35) applied to the tie-corrected chi2, and >= the book's tau_F
    ranks = res.ranks
    ss_treat = n * ((res.average_ranks - (k + 1) / 2) ** 2).sum()
    ss_error = ((ranks - (k + 1) / 2) ** 2).sum() - ss_treat
    if correction > 0 and ss_error > 1e-9:
        corrected = res.chi2 / correction
        assert anova_f_on_ranks(ranks) == pytest.approx((n - 1) * corrected / (n * (k - 1) - corrected), rel=1e-9)
        assert anova_f_on_ranks(ranks) >= res.f - 1e-9


@settings(max_examples=80, deadline=None)
@given(tables)
def test_chi2_equals_the_printed_formula_in_exact_arithmetic(table):
    res = friedman_test(table)
    exact = brute_chi2(table.tolist())
    assert res.chi2 == float(exact)
    assert res.ranks.tolist() == [[float(v) for v in brute_ranks(row)] for row in table.tolist()]
    assert friedman_chi2(res.average_ranks, table.shape[0]) == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_rank_matrix_equals_scipy_rankdata(table):
    assert np.array_equal(rank_matrix(table), stats.rankdata(table, axis=1, method="average"))


def test_exact_null_mean_of_chi2_is_k_minus_1():
    # every table of rankings of k = 3 algorithms on N = 3 data sets, each equally likely under H0
    perms = list(itertools.permutations([1, 2, 3]))
    values = [brute_chi2(list(t)) for t in itertools.product(perms, repeat=3)]
    assert sum(values) / len(values) == 2
    # and melearn on the same tables
    sample = [list(t) for t in itertools.islice(itertools.product(perms, repeat=3), 0, 216, 7)]
    assert all(friedman_test(t).chi2 == float(brute_chi2(t)) for t in sample)


@pytest.mark.parametrize("k,n", [(2, 2), (2, 5), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)])
def test_exact_null_distribution_against_enumeration(k, n):
    perms = list(itertools.permutations(range(1, k + 1)))
    counts = {}
    for table in itertools.product(perms, repeat=n):
        value = brute_chi2(list(table))
        counts[value] = counts.get(value, 0) + 1
    total = len(perms) ** n
    null = friedman_null_distribution(k, n)
    assert null.chi2.tolist() == [float(v) for v in sorted(counts)]
    assert null.probability == pytest.approx([counts[v] / total for v in sorted(counts)], rel=1e-12)


@pytest.mark.parametrize("k,n", [(3, 10), (4, 8), (5, 4)])
def test_exact_null_moments(k, n):
    null = friedman_null_distribution(k, n)
    mean = (null.chi2 * null.probability).sum()
    var = ((null.chi2 - mean) ** 2 * null.probability).sum()
    assert mean == pytest.approx(k - 1, rel=1e-12)
    assert var == pytest.approx(2 * (k - 1) * (n - 1) / n, rel=1e-10)  # known exact variance under H0
    assert null.chi2.max() == n * (k - 1) and null.probability[-1] == pytest.approx(math.factorial(k) ** (1 - n))


def test_exact_null_refuses_too_much_work():
    with pytest.raises(ValueError, match="Monte Carlo"):
        friedman_null_distribution(6, 3)
    with pytest.raises(ValueError, match="n_datasets"):
        friedman_null_distribution(3, 1)
    with pytest.raises(ValueError, match="k"):
        friedman_null_distribution(1, 3)


# -- properties ---------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(tables, st.randoms(use_true_random=False))
def test_permutations_and_bounds(table, rnd):
    n, k = table.shape
    res = friedman_test(table)
    rows = list(range(n))
    cols = list(range(k))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    by_rows = friedman_test(table[rows])
    assert by_rows.chi2 == res.chi2 and by_rows.f == res.f and np.array_equal(by_rows.average_ranks, res.average_ranks)
    by_cols = friedman_test(table[:, cols])
    assert np.array_equal(by_cols.average_ranks, res.average_ranks[cols]) and by_cols.chi2 == res.chi2
    assert 0 <= res.chi2 <= n * (k - 1)
    assert res.average_ranks.sum() == pytest.approx(k * (k + 1) / 2, rel=1e-15)
    assert 0 <= res.f and 0 <= res.p_value <= 1
    # ranks only: a strictly increasing transformation of the errors changes nothing
    assert friedman_test(3 * table + 7).chi2 == res.chi2


def test_all_equal_errors_give_zero():
    res = friedman_test(np.full((5, 4), 0.2))
    assert res.chi2 == 0 and res.f == 0 and res.p_value == 1 and not res.reject
    assert res.average_ranks.tolist() == [2.5] * 4


@pytest.mark.parametrize("n,k", [(2, 2), (4, 3), (20, 10)])
def test_identical_rankings_give_infinite_f_and_reject(n, k):
    errors = np.tile(np.arange(k, dtype=float), (n, 1)) + np.arange(n)[:, None]  # same order everywhere
    res = friedman_test(errors)
    assert res.chi2 == n * (k - 1)  # exactly, not to rounding
    assert res.f == math.inf and res.statistic == math.inf and res.p_value == 0 and res.reject
    assert friedman_f(n * (k - 1), n, k) == math.inf
    # one tie anywhere and the statistic is finite again
    errors[0, 1] = errors[0, 0]
    assert math.isfinite(friedman_test(errors).f)


# -- the tables -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", sorted(TABLE_2_6_005))
def test_table_2_6(n):
    for k, printed in zip(range(2, 11), TABLE_2_6_005[n], strict=True):
        errors = np.tile(np.arange(k, dtype=float), (n, 1))
        errors[0, :2] = 0.0  # a tie keeps tau_F finite; the critical value depends on N, k, alpha only
        assert round(friedman_test(errors, alpha=0.05).critical_value, 3) == printed, (n, k)


def test_nemenyi_q_against_demsar_table_and_the_book():
    mis_rounded = []
    for alpha, row in DEMSAR_Q.items():
        for k, printed in zip(range(2, 11), row, strict=True):
            q = nemenyi_q(k, alpha=alpha)
            assert abs(q - printed) <= 0.0011, (alpha, k)
            if round(q, 3) != printed:
                mis_rounded.append((alpha, k, round(q, 4)))
    # three printed entries are not the 3-decimal rounding of the quantile (2.3437, 2.9483, 2.4595)
    assert mis_rounded == [(0.05, 3, 2.3437), (0.05, 7, 2.9483), (0.1, 5, 2.4595)]
    assert round(nemenyi_q(3, alpha=0.05), 3) == 2.344  # as the textbook's Table 2.7 prints it


@pytest.mark.parametrize("k", [2, 3, 10, 50, 500])
@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.1, 0.5, 0.999])
def test_nemenyi_q_against_integration_and_scipy(k, alpha):
    q = nemenyi_q(k, alpha=alpha)
    assert q == pytest.approx(q_by_integration(k, alpha), rel=1e-10)
    assert q == pytest.approx(stats.studentized_range.isf(alpha, k, 1e6) / math.sqrt(2), rel=1e-4)


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.1, 0.9])
def test_nemenyi_q_for_two_algorithms_is_the_normal_quantile(alpha):
    assert nemenyi_q(2, alpha=alpha) == pytest.approx(stats.norm.isf(alpha / 2), rel=1e-10)


def test_nemenyi_q_by_monte_carlo():
    rng = np.random.default_rng(20261130)
    z = rng.standard_normal((200_000, 4))
    exceed = np.mean(np.ptp(z, axis=1) / math.sqrt(2) > nemenyi_q(4, alpha=0.05))
    assert abs(exceed - 0.05) < 4 * math.sqrt(0.05 * 0.95 / 200_000)


def test_nemenyi_cd_formula():
    for k, n, alpha in [(3, 4, 0.05), (5, 10, 0.1), (10, 30, 0.05)]:
        assert nemenyi_cd(k, n, alpha=alpha) == pytest.approx(
            nemenyi_q(k, alpha=alpha) * math.sqrt(k * (k + 1) / (6 * n))
        )
    assert nemenyi_cd(3, 16) == pytest.approx(nemenyi_cd(3, 4) / 2)  # CD shrinks like 1/sqrt(N)
    assert nemenyi_q(3, alpha=0.05) > nemenyi_q(3, alpha=0.1)


# -- bad input --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "errors,match",
    [
        ([1.0, 2.0, 3.0], "2-dimensional"),
        (np.zeros((2, 2, 2)), "2-dimensional"),
        (np.zeros((0, 3)), "empty"),
        ([[1.0, 2.0, 3.0]], "at least 2 data sets"),
        ([[1.0], [2.0]], "at least 2 algorithms"),
        ([[1.0, np.nan], [2.0, 1.0]], "NaN or inf"),
        ([[1.0, np.inf], [2.0, 1.0]], "NaN or inf"),
        ([["a", "b"], ["c", "d"]], "numeric"),
    ],
)
def test_bad_errors(errors, match):
    for fn in (friedman_test, nemenyi_test, rank_matrix):
        with pytest.raises(ValueError, match="errors.*" + match):
            fn(errors)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, np.nan, "0.05", True, None])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        friedman_test(TABLE_2_5, alpha=alpha)
    with pytest.raises(ValueError, match="alpha"):
        nemenyi_q(3, alpha=alpha)
    with pytest.raises(ValueError, match="alpha"):
        nemenyi_cd(3, 4, alpha=alpha)
    with pytest.raises(ValueError, match="alpha"):
        nemenyi_test(TABLE_2_5, alpha=alpha)


@pytest.mark.parametrize("k", [1, 0, -3, 2.5, 3.0, True, "3", None])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k"):
        nemenyi_q(k)
    with pytest.raises(ValueError, match="k"):
        nemenyi_cd(k, 4)


@pytest.mark.parametrize("n", [1, 0, 4.0, True, None])
def test_bad_n_datasets(n):
    with pytest.raises(ValueError, match="n_datasets"):
        nemenyi_cd(3, n)
    with pytest.raises(ValueError, match="n_datasets"):
        friedman_chi2([1.0, 2.125, 2.875], n)
    with pytest.raises(ValueError, match="n_datasets"):
        friedman_f(1.0, n, 3)


@pytest.mark.parametrize(
    "ranks,match",
    [([2.0], "at least 2"), ([0.5, 2.5], r"\[1, 2\]"), ([1.0, 1.0, 1.0], "sum"), ([1.0, np.nan], "NaN"), ([], "empty")],
)
def test_bad_average_ranks(ranks, match):
    with pytest.raises(ValueError, match=match):
        friedman_chi2(ranks, 4)


@pytest.mark.parametrize("chi2", [-0.5, 8.5, np.nan, np.inf])
def test_bad_chi2(chi2):
    with pytest.raises(ValueError, match="chi2"):
        friedman_f(chi2, 4, 3)
    with pytest.raises(ValueError, match="n_algorithms"):
        friedman_f(1.0, 4, 1)


# -- the diagram ----------------------------------------------------------------------------------------------
def test_book_style_diagram_of_the_worked_example():
    fig, ax = plt.subplots()
    res = friedman_test(TABLE_2_5)
    cd = nemenyi_cd(3, 4, alpha=0.05)
    assert plot_cd_diagram(ax, res, cd) is ax  # a FriedmanResult is accepted
    assert len(ax.lines) == 3 and len(ax.collections) == 3
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]
    bars = [line.get_xdata() for line in ax.lines]
    for (lo, hi), r in zip(bars, res.average_ranks, strict=True):
        assert hi - lo == pytest.approx(cd) and (lo + hi) / 2 == pytest.approx(r)
    # bars overlap exactly for the pairs the Nemenyi test does not separate
    overlap = lambda i, j: min(bars[i][1], bars[j][1]) > max(bars[i][0], bars[j][0])  # noqa: E731
    assert overlap(0, 1) and overlap(1, 2) and not overlap(0, 2)
    plt.close(fig)


def test_demsar_style_diagram():
    fig, ax = plt.subplots()
    plot_cd_diagram(ax, [1.0, 2.125, 2.875], 1.657, style="demsar", names=["A", "B", "C"])
    # axis + 3 ticks + CD bar + 3 hanging lines + 2 group lines
    assert len(ax.lines) == 1 + 3 + 1 + 3 + 2
    assert sum(t.get_text().startswith(("A (", "B (", "C (")) for t in ax.texts) == 3
    plt.close(fig)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(1, 8, allow_nan=False), min_size=2, max_size=8), st.floats(0.1, 4))
def test_nonsignificant_groups_are_the_maximal_cliques(ranks, cd):
    k = len(ranks)
    ranks = [min(r, k) for r in ranks]
    groups = nonsignificant_groups(ranks, cd)
    close = lambda i, j: abs(ranks[i] - ranks[j]) <= cd  # noqa: E731
    cliques = [
        set(c)
        for size in range(2, k + 1)
        for c in itertools.combinations(range(k), size)
        if all(close(i, j) for i, j in itertools.combinations(c, 2))
    ]
    maximal = [c for c in cliques if not any(c < d for d in cliques)]
    assert sorted(map(sorted, map(set, groups))) == sorted(map(sorted, maximal))


def test_bad_plot_input():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="ax"):
        plot_cd_diagram("not an axes", [1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="style"):
        plot_cd_diagram(ax, [1.0, 2.0], 1.0, style="fancy")
    with pytest.raises(ValueError, match="cd"):
        plot_cd_diagram(ax, [1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="names"):
        plot_cd_diagram(ax, [1.0, 2.0], 1.0, names=["A"])
    with pytest.raises(ValueError, match="average_ranks"):
        plot_cd_diagram(ax, [1.0, 3.0], 1.0)
    plt.close(fig)


# -- the (2.35) identity, symbolically ------------------------------------------------------------------------
def _f_form_derivation(ss_total):
    import sympy as sp

    from melearn import Derivation, Rule

    k, n, ssa, sst, tau = sp.symbols("k N SS_A SS_T tau", positive=True)
    chi2_as_ss = Rule.assumption("(2.34) as a sum of squares", {ssa: k * (k + 1) * tau / 12})
    no_ties = Rule.assumption("no ties", {sst: ss_total(k, n)})
    d = Derivation((ssa / (k - 1)) / ((sst - ssa) / ((k - 1) * (n - 1))))
    return d.step((n - 1) * tau / (n * (k - 1) - tau), "(2.35)", rules=[chi2_as_ss, no_ties])


def test_anova_f_on_ranks_is_the_f_form_symbolically():
    from melearn import DerivationError

    assert _f_form_derivation(lambda k, n: n * k * (k**2 - 1) / 12).check().checked
    with pytest.raises(DerivationError):  # a wrong total sum of squares (variance (k^2-1)/6) is caught
        _f_form_derivation(lambda k, n: n * k * (k**2 - 1) / 6).check()


@pytest.mark.parametrize("k, n", [(10**400, 2), (13, 2), (3, 10**400), (10**6, 3)])
def test_null_distribution_refuses_huge_work_at_once(k, n):
    # a factorial of a huge k never returns, and formatting a 1000-digit work count overflows: both are avoided
    import time

    start = time.process_time()
    with pytest.raises(ValueError, match="EXACT_MAX_WORK"):
        friedman_null_distribution(k, n)
    assert time.process_time() - start < 1.0
