"""Tests for melearn.evaluation_methods: hold-out, stratified k-fold, the bootstrap and formula (2.1).

Routes: the stated guarantees checked by hypothesis on random label vectors (partition, disjointness, class
shares within one sample); the exact expected out-of-bag fraction by enumerating all m**m draw sequences in
Fractions; a seeded simulation against it; scikit-learn's StratifiedKFold as a peer for the per-class counts;
every bad input.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import StratifiedKFold

from melearn import bootstrap_sample, expected_out_of_bag_fraction, holdout_split, kfold_split


# -- strategies -------------------------------------------------------------------------------------------------
@st.composite
def labels(draw, min_size=2, max_size=80):
    n_classes = draw(st.integers(1, 6))
    return np.asarray(draw(st.lists(st.integers(0, n_classes - 1), min_size=min_size, max_size=max_size)))


seeds = st.integers(0, 2**32 - 1)


def class_counts(y, idx):
    return {c: int(np.count_nonzero(y[idx] == c)) for c in np.unique(y).tolist()}


# -- hold-out ----------------------------------------------------------------------------------------------------
@given(labels(), st.floats(0.01, 0.99), seeds)
def test_holdout_partitions_and_keeps_class_shares_within_one_sample(y, test_size, seed):
    m = y.size
    n_test = int(np.floor(test_size * m + 0.5))
    if not 1 <= n_test <= m - 1:
        with pytest.raises(ValueError, match="test_size"):
            holdout_split(y, test_size, seed)
        return
    train, test = holdout_split(y, test_size, seed)
    assert test.size == n_test and train.size == m - n_test
    assert np.array_equal(np.sort(np.concatenate((train, test))), np.arange(m))
    assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)  # sorted, so no repeats
    for c, m_c in class_counts(y, np.arange(m)).items():
        share = Fraction(n_test * m_c, m)  # exact share of class c in a test set of n_test samples
        n_c = int(np.count_nonzero(y[test] == c))
        assert abs(n_c - share) < 1
        assert abs((m_c - n_c) - Fraction((m - n_test) * m_c, m)) < 1


@given(labels(), seeds)
def test_holdout_integer_test_size_is_a_count(y, seed):
    m = y.size
    for n_test in (1, m // 2, m - 1):
        if 1 <= n_test <= m - 1:
            assert holdout_split(y, n_test, seed)[1].size == n_test


def test_holdout_is_reproducible_and_accepts_a_generator():
    y = np.repeat([0, 1, 2], [10, 20, 30])
    a = holdout_split(y, 0.3, 7)
    b = holdout_split(y, 0.3, np.random.default_rng(7))
    c = holdout_split(y, 0.3, 8)
    assert all(np.array_equal(u, v) for u, v in zip(a, b, strict=True))
    assert not np.array_equal(a[1], c[1])
    assert class_counts(y, a[1]) == {0: 3, 1: 6, 2: 9}  # exact shares, no rounding needed


def test_holdout_string_labels():
    y = np.array(["good"] * 8 + ["bad"] * 4)
    train, test = holdout_split(y, 0.25, 0)
    assert sorted(y[test].tolist()) == ["bad", "good", "good"]


def test_holdout_is_random_within_each_class():
    """Every sample of a class is equally likely to be chosen: counts over many splits are near n_c/m_c."""
    y = np.repeat([0, 1], [6, 4])
    rng = np.random.default_rng(2026)
    hits = np.zeros(y.size)
    reps = 4000
    for _ in range(reps):
        hits[holdout_split(y, 0.5, rng)[1]] += 1
    # class 0 sends 3 of 6 to the test set, class 1 2 of 4: each sample with probability 1/2
    se = np.sqrt(0.25 / reps)
    assert np.all(np.abs(hits / reps - 0.5) < 5 * se)


# -- k-fold ------------------------------------------------------------------------------------------------------
@settings(max_examples=150)
@given(labels(), st.data(), seeds)
def test_kfold_test_parts_partition_the_data_with_balanced_folds(y, data, seed):
    m = y.size
    k = data.draw(st.integers(2, m))
    folds = kfold_split(y, k, seed)
    assert len(folds) == k
    tests = [test for _, test in folds]
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(m))  # disjoint, and they cover D
    sizes = [t.size for t in tests]
    assert max(sizes) - min(sizes) <= 1
    for train, test in folds:
        assert np.array_equal(np.sort(np.concatenate((train, test))), np.arange(m))
        assert np.intersect1d(train, test).size == 0
        assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)
    for c in np.unique(y).tolist():
        per_fold = [int(np.count_nonzero(y[t] == c)) for t in tests]
        assert max(per_fold) - min(per_fold) <= 1  # each class spread as evenly as possible
        assert sum(per_fold) == int(np.count_nonzero(y == c))


def test_kfold_per_class_counts_match_sklearn_stratified_kfold():
    """The multiset of per-fold class counts is the one scikit-learn's StratifiedKFold produces."""
    rng = np.random.default_rng(11)
    for _ in range(30):
        k = int(rng.integers(2, 6))
        y = rng.integers(0, 3, size=int(rng.integers(3 * k, 60)))
        y[:k] = 0  # every class present at least k times keeps scikit-learn quiet
        y[k : 2 * k] = 1
        y[2 * k : 3 * k] = 2
        ours = sorted(tuple(class_counts(y, test).values()) for _, test in kfold_split(y, k, rng))
        sk = StratifiedKFold(n_splits=k, shuffle=True, random_state=0).split(np.zeros(y.size), y)
        theirs = sorted(tuple(class_counts(y, test).values()) for _, test in sk)
        # both put floor or ceil of m_c / k of each class in every fold
        for counts in (ours, theirs):
            for c, m_c in enumerate(np.bincount(y).tolist()):
                assert {row[c] for row in counts} <= {m_c // k, -(-m_c // k)}
        assert [sum(row) for row in ours] != [] and sum(map(sum, ours)) == sum(map(sum, theirs)) == y.size


def test_kfold_with_k_equal_m_is_leave_one_out():
    y = np.array([0, 1, 1, 0, 2])
    folds = kfold_split(y, 5, 3)
    assert sorted(test.tolist() for _, test in folds) == [[0], [1], [2], [3], [4]]
    assert all(train.size == 4 for train, _ in folds)


def test_kfold_class_smaller_than_k_appears_in_as_many_folds_as_it_has_samples():
    y = np.array([0] * 10 + [1] * 2)
    folds = kfold_split(y, 5, 0)
    with_minority = [int(np.count_nonzero(y[test] == 1)) for _, test in folds]
    assert sorted(with_minority) == [0, 0, 0, 1, 1]


# -- bootstrap and formula (2.1) -------------------------------------------------------------------------------------
@given(st.integers(1, 500), seeds)
def test_bootstrap_draws_and_out_of_bag_are_complementary(m, seed):
    in_bag, oob = bootstrap_sample(m, seed)
    assert in_bag.shape == (m,) and in_bag.dtype == np.int64
    assert np.all((0 <= in_bag) & (in_bag < m))
    assert np.all(np.diff(oob) > 0)
    assert np.array_equal(np.union1d(in_bag, oob), np.arange(m))
    assert np.intersect1d(in_bag, oob).size == 0


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5, 6])
def test_expected_out_of_bag_fraction_equals_exhaustive_enumeration(m):
    """All m**m equally likely draw sequences, counted exactly: the mean out-of-bag share is (1 - 1/m)**m."""
    total_missing = sum(m - len(set(draws)) for draws in itertools.product(range(m), repeat=m))
    enumerated = Fraction(total_missing, m * m**m)
    assert enumerated == expected_out_of_bag_fraction(m)
    assert enumerated == (1 - Fraction(1, m)) ** m


def test_a_wrong_out_of_bag_formula_is_caught_by_enumeration():
    """The enumeration route can fail: 1/e or (1 - 1/m)**(m - 1) disagree with it."""
    m = 4
    total_missing = sum(m - len(set(d)) for d in itertools.product(range(m), repeat=m))
    enumerated = Fraction(total_missing, m * m**m)
    assert enumerated != (1 - Fraction(1, m)) ** (m - 1)
    assert float(enumerated) != pytest.approx(np.exp(-1), abs=1e-3)


def test_simulated_out_of_bag_fraction_matches_the_exact_expectation():
    rng = np.random.default_rng(20261130)
    for m in (2, 5, 20, 200):
        reps = 4000
        fractions = np.array([bootstrap_sample(m, rng)[1].size / m for _ in range(reps)])
        exact = float(expected_out_of_bag_fraction(m))
        se = fractions.std(ddof=1) / np.sqrt(reps)
        assert abs(fractions.mean() - exact) < 4 * se


def test_expected_out_of_bag_fraction_tends_to_one_over_e():
    values = [float(expected_out_of_bag_fraction(m)) for m in (10, 100, 1000)]
    gaps = [np.exp(-1) - v for v in values]
    assert all(g > 0 for g in gaps) and gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] == pytest.approx(np.exp(-1) / 2000, rel=1e-2)  # e^{-1}(1 - 1/(2m) + ...)


# -- bad input -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("y", "test_size", "rng", "argument"),
    [
        ([], 0.5, 0, "y"),
        ([[0, 1], [1, 0]], 0.5, 0, "y"),
        ([0.0, np.nan, 1.0], 0.5, 0, "y"),
        (np.array([0, None], dtype=object), 0.5, 0, "y"),
        ([1], 0.5, 0, "y"),
        ([0, 1, 0, 1], 0.0, 0, "test_size"),
        ([0, 1, 0, 1], 1.0, 0, "test_size"),
        ([0, 1, 0, 1], -0.2, 0, "test_size"),
        ([0, 1, 0, 1], np.nan, 0, "test_size"),
        ([0, 1, 0, 1], 0.05, 0, "test_size"),
        ([0, 1, 0, 1], 0.95, 0, "test_size"),
        ([0, 1, 0, 1], 0, 0, "test_size"),
        ([0, 1, 0, 1], 4, 0, "test_size"),
        ([0, 1, 0, 1], True, 0, "test_size"),
        ([0, 1, 0, 1], "half", 0, "test_size"),
        ([0, 1, 0, 1], 0.5, None, "rng"),
        ([0, 1, 0, 1], 0.5, -1, "rng"),
        ([0, 1, 0, 1], 0.5, 1.5, "rng"),
    ],
)
def test_holdout_refuses_bad_input(y, test_size, rng, argument):
    with pytest.raises(ValueError, match=rf"^{re.escape(argument)}\b"):
        holdout_split(y, test_size, rng)


@pytest.mark.parametrize(
    ("y", "k", "rng", "argument"),
    [
        ([], 2, 0, "y"),
        ([[0, 1]], 2, 0, "y"),
        ([0.0, np.inf], 2, 0, "y"),
        ([0, 1, 0], 1, 0, "k"),
        ([0, 1, 0], 4, 0, "k"),
        ([0, 1, 0], 2.0, 0, "k"),
        ([0, 1, 0], True, 0, "k"),
        ([0, 1, 0], 2, None, "rng"),
    ],
)
def test_kfold_refuses_bad_input(y, k, rng, argument):
    with pytest.raises(ValueError, match=rf"^{re.escape(argument)}\b"):
        kfold_split(y, k, rng)


@pytest.mark.parametrize(
    ("m", "rng", "argument"),
    [(0, 0, "m"), (-3, 0, "m"), (2.0, 0, "m"), (True, 0, "m"), ("5", 0, "m"), (5, None, "rng"), (5, "seed", "rng")],
)
def test_bootstrap_refuses_bad_input(m, rng, argument):
    with pytest.raises(ValueError, match=rf"^{re.escape(argument)}\b"):
        bootstrap_sample(m, rng)


@pytest.mark.parametrize("m", [0, 1.5, False])
def test_expected_out_of_bag_fraction_refuses_bad_m(m):
    with pytest.raises(ValueError, match=r"^m\b"):
        expected_out_of_bag_fraction(m)
