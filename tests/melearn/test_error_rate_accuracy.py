"""Tests for melearn.error_rate_accuracy: formulas (2.2), (2.4) and (2.5).

Routes: exact small cases computed with fractions.Fraction straight from the printed sums; scikit-learn's
mean_squared_error, accuracy_score and zero_one_loss; properties (acc + E = 1, invariances); every bad input.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from melearn import accuracy, error_rate, error_rate_accuracy, mean_squared_error

# -- strategies -------------------------------------------------------------------------------------------------
finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def real_pairs(draw):
    m = draw(st.integers(1, 40))
    return draw(st.lists(finite, min_size=m, max_size=m)), draw(st.lists(finite, min_size=m, max_size=m))


@st.composite
def label_pairs(draw):
    m = draw(st.integers(1, 60))
    n_classes = draw(st.integers(1, 5))
    labels = st.integers(0, n_classes - 1)
    return draw(st.lists(labels, min_size=m, max_size=m)), draw(st.lists(labels, min_size=m, max_size=m))


# -- exact small cases: the printed sums in Fractions --------------------------------------------------------------
def mse_fraction(y_true, y_pred) -> Fraction:
    """(2.2) literally, in exact rational arithmetic."""
    return sum((Fraction(f) - Fraction(y)) ** 2 for y, f in zip(y_true, y_pred, strict=True)) / len(y_true)


def error_fraction(y_true, y_pred) -> Fraction:
    """(2.4) literally: the indicator I(f(x_i) != y_i) summed, over m."""
    return Fraction(sum(1 for y, f in zip(y_true, y_pred, strict=True) if f != y), len(y_true))


def accuracy_fraction(y_true, y_pred) -> Fraction:
    """(2.5), first form, literally."""
    return Fraction(sum(1 for y, f in zip(y_true, y_pred, strict=True) if f == y), len(y_true))


def test_mse_small_exact_case():
    # residuals 0, 0.5, -2, 1.5: squares 0, 1/4, 4, 9/4, mean 13/8
    y_true = [1.0, 2.0, 3.0, -1.0]
    y_pred = [1.0, 2.5, 1.0, 0.5]
    assert mse_fraction(y_true, y_pred) == Fraction(13, 8)
    assert mean_squared_error(y_true, y_pred) == 13 / 8


def test_error_rate_and_accuracy_small_exact_case():
    # ten watermelons, three classes; mismatches at positions 1, 4, 7 -> E = 3/10, acc = 7/10
    y_true = [0, 1, 2, 2, 1, 0, 0, 2, 1, 1]
    y_pred = [0, 2, 2, 2, 0, 0, 0, 1, 1, 1]
    assert error_fraction(y_true, y_pred) == Fraction(3, 10)
    assert accuracy_fraction(y_true, y_pred) == Fraction(7, 10)
    assert error_rate(y_true, y_pred) == float(Fraction(3, 10))
    assert accuracy(y_true, y_pred) == float(Fraction(7, 10))


@given(real_pairs())
def test_mse_equals_exact_fraction(pair):
    y_true, y_pred = pair
    exact = mse_fraction(y_true, y_pred)
    assert mean_squared_error(y_true, y_pred) == pytest.approx(float(exact), rel=1e-12, abs=1e-300)


@given(label_pairs())
def test_error_and_accuracy_equal_exact_fractions(pair):
    y_true, y_pred = pair
    assert error_rate(y_true, y_pred) == float(error_fraction(y_true, y_pred))
    assert accuracy(y_true, y_pred) == float(accuracy_fraction(y_true, y_pred))


# -- peer library ----------------------------------------------------------------------------------------------------
@given(real_pairs())
def test_mse_matches_sklearn(pair):
    y_true, y_pred = pair
    expected = skm.mean_squared_error(y_true, y_pred)
    assert mean_squared_error(y_true, y_pred) == pytest.approx(expected, rel=1e-12, abs=1e-300)


@given(label_pairs())
def test_error_rate_and_accuracy_match_sklearn(pair):
    y_true, y_pred = pair
    assert error_rate(y_true, y_pred) == pytest.approx(skm.zero_one_loss(y_true, y_pred), abs=1e-15)
    assert accuracy(y_true, y_pred) == pytest.approx(skm.accuracy_score(y_true, y_pred), abs=1e-15)


def test_string_labels_match_sklearn():
    y_true = ["ripe", "unripe", "ripe", "overripe", "ripe"]
    y_pred = ["ripe", "ripe", "ripe", "overripe", "unripe"]
    assert error_rate(y_true, y_pred) == pytest.approx(skm.zero_one_loss(y_true, y_pred))
    assert accuracy(y_true, y_pred) == pytest.approx(skm.accuracy_score(y_true, y_pred))
    assert error_rate(y_true, y_pred) == 0.4


# -- properties ------------------------------------------------------------------------------------------------------
@given(label_pairs())
def test_accuracy_plus_error_rate_is_exactly_one(pair):
    y_true, y_pred = pair
    assert accuracy(y_true, y_pred) + error_rate(y_true, y_pred) == 1.0


@given(label_pairs(), st.integers(0, 10_000))
def test_invariant_under_permutation_of_samples(pair, seed):
    y_true, y_pred = np.asarray(pair[0]), np.asarray(pair[1])
    order = np.random.default_rng(seed).permutation(y_true.size)
    assert error_rate(y_true[order], y_pred[order]) == error_rate(y_true, y_pred)
    assert accuracy(y_true[order], y_pred[order]) == accuracy(y_true, y_pred)


@given(label_pairs())
def test_invariant_under_renaming_the_classes(pair):
    # any one-to-one relabelling (here: integers to strings) changes nothing
    y_true, y_pred = pair
    names = np.array(["alpha", "beta", "gamma", "delta", "epsilon"])
    assert error_rate(names[y_true], names[y_pred]) == error_rate(y_true, y_pred)
    assert error_rate(y_pred, y_true) == error_rate(y_true, y_pred)  # symmetric


@given(real_pairs(), finite)
def test_mse_invariant_under_a_common_shift_and_symmetric(pair, shift):
    y_true, y_pred = np.asarray(pair[0]), np.asarray(pair[1])
    base = mean_squared_error(y_true, y_pred)
    assert mean_squared_error(y_pred, y_true) == base
    assert mean_squared_error(y_true + shift, y_pred + shift) == pytest.approx(base, rel=1e-6, abs=1e-3)
    assert mean_squared_error(y_true, y_true) == 0.0


@settings(max_examples=50)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=30))
def test_perfect_and_all_wrong_classifiers(y):
    y = np.asarray(y)
    assert error_rate(y, y) == 0.0 and accuracy(y, y) == 1.0
    assert error_rate(y, y + 1) == 1.0 and accuracy(y, y + 1) == 0.0


def test_bool_and_integer_labels_compare_as_python_does():
    assert accuracy([True, False, True], [1, 0, 0]) == pytest.approx(2 / 3)
    assert error_rate([1.0, 2.0], [1, 2]) == 0.0


def test_mse_is_the_mean_not_the_sum():
    # a mutated implementation (sum instead of mean, or forgetting the square) must disagree with the route
    y_true, y_pred = [0.0, 0.0, 0.0, 0.0], [1.0, -1.0, 2.0, 0.0]
    assert mean_squared_error(y_true, y_pred) == float(mse_fraction(y_true, y_pred)) == 1.5


def test_a_mutated_error_rate_is_caught_by_the_exact_route(monkeypatch):
    """The Fraction route can fail: counting matches instead of mismatches disagrees with it."""
    y_true, y_pred = [0, 1, 1, 2], [0, 1, 2, 2]
    mutated = lambda t, p: np.count_nonzero(np.asarray(t) == np.asarray(p)) / len(t)  # noqa: E731
    monkeypatch.setattr(error_rate_accuracy, "error_rate", mutated)
    assert error_rate_accuracy.error_rate(y_true, y_pred) != float(error_fraction(y_true, y_pred))


# -- bad input -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", [error_rate, accuracy])
@pytest.mark.parametrize(
    ("y_true", "y_pred", "argument"),
    [
        ([], [], "y_true"),
        ([0, 1], [], "y_pred"),
        ([[0, 1]], [[0, 1]], "y_true"),
        ([0, 1], [[0, 1]], "y_pred"),
        ([0.0, np.nan], [0.0, 1.0], "y_true"),
        ([0.0, 1.0], [0.0, np.inf], "y_pred"),
        ([0, 1, 1], [0, 1], "length mismatch"),
        (["a", "b"], [0, 1], "y_true and y_pred"),
        (np.array([1, None], dtype=object), [0, 1], "y_true"),
        ([0, 1], np.array([1 + 1j, 2j]), "y_pred"),
    ],
)
def test_label_measures_refuse_bad_input(func, y_true, y_pred, argument):
    with pytest.raises(ValueError, match=rf"^{re.escape(argument)}\b"):
        func(y_true, y_pred)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "argument"),
    [
        ([], [], "y_true"),
        ([1.0], [], "y_pred"),
        ([[1.0]], [[1.0]], "y_true"),
        ([1.0, np.nan], [1.0, 2.0], "y_true"),
        ([1.0, 2.0], [1.0, -np.inf], "y_pred"),
        ([1.0, 2.0], [1.0], "length mismatch"),
        (["a"], [1.0], "y_true"),
        ([1.0], ["b"], "y_pred"),
    ],
)
def test_mse_refuses_bad_input(y_true, y_pred, argument):
    with pytest.raises(ValueError, match=rf"^{re.escape(argument)}\b"):
        mean_squared_error(y_true, y_pred)


def test_complementary_counts_divide_to_exactly_one_for_every_m_up_to_2000():
    """The reason acc + E == 1.0 holds exactly: a/m + (m - a)/m rounds to 1.0 for every count a."""
    for m in range(1, 2001):
        a = np.arange(m + 1)
        assert np.all(a / m + (m - a) / m == 1.0)


def test_results_are_python_floats():
    for value in (error_rate([0, 1], [0, 0]), accuracy([0, 1], [0, 0]), mean_squared_error([0.0], [1.0])):
        assert type(value) is float
