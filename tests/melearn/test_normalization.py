"""Tests of min-max (2.43) and z-score (2.44) normalisation: each claim of exercise 2.8 as a property test.

The claims (``chapters/exercises/ex2_8.ipynb`` argues them): min-max maps the reference onto exactly
[x'_min, x'_max]; z-score gives mean 0 and standard deviation 1 but no fixed range (Samuelson's bound
|z| <= sqrt(n - 1)); both are invariant under a positive affine change of units; one far outlier squeezes the other
normalised values of both into an interval whose width tends to 0; a new sample outside the old range leaves
[x'_min, x'_max] under min-max (and keeps the order), while z-score has no range to leave.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from melearn.normalization import min_max_normalize, z_score_normalize

moderate = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
samples = hnp.arrays(np.float64, st.integers(2, 40), elements=moderate).filter(lambda a: np.ptp(a) > 1e-3)
scale_factor = st.floats(1e-3, 1e3)
shift = st.floats(-1e6, 1e6)


def literal_min_max(x, ref, low=0.0, high=1.0):
    """(2.43) as printed, one value at a time."""
    x_min, x_max = min(ref), max(ref)
    return [low + (v - x_min) / (x_max - x_min) * (high - low) for v in x]


def literal_z(x, ref):
    """(2.44) as printed, with the population standard deviation, one value at a time."""
    mean = math.fsum(ref) / len(ref)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in ref) / len(ref))
    return [(v - mean) / sd for v in x]


# -- the formulas ------------------------------------------------------------------------------------------------
@given(samples, st.floats(-10, 10), st.floats(0.1, 10))
def test_min_max_is_formula_2_43(x, low, width):
    got = min_max_normalize(x, feature_range=(low, low + width))
    np.testing.assert_allclose(got, literal_min_max(x.tolist(), x.tolist(), low, low + width), rtol=1e-9, atol=1e-9)


@given(samples)
def test_z_score_is_formula_2_44(x):
    np.testing.assert_allclose(z_score_normalize(x), literal_z(x.tolist(), x.tolist()), rtol=1e-7, atol=1e-7)


def test_against_scikit_learn_style_references():
    x = np.array([[1.0, -5.0], [2.0, 0.0], [4.0, 5.0], [9.0, 20.0]])
    mm = min_max_normalize(x)
    np.testing.assert_allclose(mm[:, 0], [0, 1 / 8, 3 / 8, 1])
    np.testing.assert_allclose(mm[:, 1], [0, 0.2, 0.4, 1])
    z = z_score_normalize(x, ddof=1)
    np.testing.assert_allclose(z, (x - x.mean(0)) / x.std(0, ddof=1))


# -- claim 1: ranges -----------------------------------------------------------------------------------------------
@given(samples, st.floats(-100, 100), st.floats(0.01, 100))
def test_min_max_maps_the_reference_onto_the_range_exactly(x, low, width):
    high = low + width
    got = min_max_normalize(x, feature_range=(low, high))
    assert got.min() == low and np.isclose(got.max(), high, rtol=1e-12, atol=0)
    assert np.all(got >= low) and np.all(got <= high + 1e-12 * (1 + abs(high)))


@given(samples)
def test_z_score_has_mean_zero_and_standard_deviation_one(x):
    z = z_score_normalize(x)
    assert abs(z.mean()) < 1e-9 and abs(z.std() - 1) < 1e-9


@given(samples)
def test_z_score_range_is_bounded_by_samuelson(x):
    # Samuelson (1968): with the population standard deviation, every |z| <= sqrt(n - 1); equality for one point
    # against n - 1 equal others. So a rule "|z| > 3 flags an outlier" can never fire for n <= 10.
    z = z_score_normalize(x)
    assert np.all(np.abs(z) <= math.sqrt(x.size - 1) * (1 + 1e-9))


def test_samuelson_bound_is_attained():
    n = 10
    z = z_score_normalize([0.0] * (n - 1) + [1.0])
    assert np.isclose(z[-1], math.sqrt(n - 1))


# -- claim 2: units ----------------------------------------------------------------------------------------------
@given(samples, scale_factor, shift)
def test_both_invariant_under_positive_affine_maps(x, a, b):
    y = a * x + b
    assume(np.ptp(y) > 1e-6 * max(1.0, np.max(np.abs(y))))  # the map must not erase the spread by rounding
    np.testing.assert_allclose(min_max_normalize(y), min_max_normalize(x), atol=1e-6)
    np.testing.assert_allclose(z_score_normalize(y), z_score_normalize(x), atol=1e-5)


@given(samples, scale_factor, shift)
def test_negative_maps_mirror(x, a, b):
    y = -a * x + b
    assume(np.ptp(y) > 1e-6 * max(1.0, np.max(np.abs(y))))
    np.testing.assert_allclose(min_max_normalize(y), 1 - min_max_normalize(x), atol=1e-6)
    np.testing.assert_allclose(z_score_normalize(y), -z_score_normalize(x), atol=1e-5)


# -- claim 3: outliers ---------------------------------------------------------------------------------------------
@given(samples, st.floats(10, 1e6))
def test_one_outlier_squeezes_the_others_under_both(x, factor):
    # an outlier at distance factor * range above the maximum: min-max puts the others in an interval of width
    # exactly range / (range + distance) = 1 / (1 + factor); z-score in one of width range / sigma, also -> 0
    r = np.ptp(x)
    outlier = x.max() + factor * r
    with_outlier = np.append(x, outlier)
    mm = min_max_normalize(with_outlier)[:-1]
    assert np.isclose(np.ptp(mm), 1 / (1 + factor), rtol=1e-6)
    z = z_score_normalize(with_outlier)[:-1]
    sigma = with_outlier.std()
    assert np.isclose(np.ptp(z), r / sigma, rtol=1e-6)
    # sigma >= distance of the outlier from the mean of all / sqrt(n) ... so the width is at most
    # sqrt(n) * r / (factor * r * (n - 1) / n): it tends to 0 as the outlier moves away
    n = with_outlier.size
    assert np.ptp(z) <= math.sqrt(n) * n / ((n - 1) * factor) * (1 + 1e-9)


# -- claim 4: new samples ------------------------------------------------------------------------------------------
@given(samples, st.floats(1e-3, 1e3))
def test_a_new_sample_beyond_the_old_maximum_leaves_the_range(x, beyond):
    new = x.max() + beyond * np.ptp(x)
    got = min_max_normalize([new], reference=x)
    assert got[0] > 1 and np.isclose(got[0], 1 + beyond, rtol=1e-9)
    # z-score: the new value is simply larger than every old one, nothing to leave
    assert z_score_normalize([new], reference=x)[0] > z_score_normalize(x).max()


@given(samples, st.lists(moderate, min_size=1, max_size=10))
def test_both_keep_the_order_of_new_samples(x, new):
    new = np.sort(np.array(new))
    assert np.all(np.diff(min_max_normalize(new, reference=x)) >= 0)
    assert np.all(np.diff(z_score_normalize(new, reference=x)) >= 0)


def test_refitting_with_a_new_maximum_changes_every_old_value():
    x = np.array([0.0, 1.0, 2.0, 4.0])
    before = min_max_normalize(x)
    after = min_max_normalize(np.append(x, 8.0))[:-1]
    assert np.all(after[1:] != before[1:]) and np.allclose(after, before / 2)


# -- validation ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("function", [min_max_normalize, z_score_normalize])
@pytest.mark.parametrize(
    "args, message",
    [
        (([1.0, 1.0, 1.0],), "constant feature"),
        (([[1.0, 2.0], [1.0, 3.0]],), "constant feature"),
        (([],), "x is empty"),
        ((["a", "b"],), "x must be numeric"),
        (([1.0, np.nan],), "NaN or inf"),
        (([[[1.0, 2.0]]],), "x must be 1-dimensional"),
        (([[1.0, 2.0]], [[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]]), "reference must have the features of x"),
        (([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]]), "reference must have the features of x"),
        (([1e308], [0.0, 1e-300]), "too large"),
    ],
)
def test_refusals(function, args, message):
    with pytest.raises(ValueError, match=message):
        function(*args)


def test_feature_range_and_ddof_refusals():
    with pytest.raises(ValueError, match="feature_range must have low < high"):
        min_max_normalize([1.0, 2.0], feature_range=(1.0, 1.0))
    with pytest.raises(ValueError, match="feature_range must be a pair"):
        min_max_normalize([1.0, 2.0], feature_range=1.0)
    with pytest.raises(ValueError, match=r"feature_range\[1\] must be a real number"):
        min_max_normalize([1.0, 2.0], feature_range=(0.0, "1"))
    with pytest.raises(ValueError, match="ddof must be at most 1"):
        z_score_normalize([1.0, 2.0], ddof=2)
    with pytest.raises(ValueError, match="ddof must be an integer"):
        z_score_normalize([1.0, 2.0], ddof=0.5)


def test_extreme_magnitudes_do_not_overflow():
    got = min_max_normalize([-1e308, 0.0, 1e308], feature_range=(-1e308, 1e308))
    np.testing.assert_allclose(got, [-1e308, 0.0, 1e308])
    np.testing.assert_allclose(z_score_normalize([-1e308, 0.0, 1e308]), [-math.sqrt(1.5), 0.0, math.sqrt(1.5)])
    np.testing.assert_allclose(z_score_normalize([0.0, 1e-320, 2e-320]), [-math.sqrt(1.5), 0.0, math.sqrt(1.5)])
    np.testing.assert_allclose(min_max_normalize([1e-320, 3e-320, 5e-320]), [0.0, 0.5, 1.0])
