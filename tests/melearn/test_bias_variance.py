"""Tests of melearn.bias_variance: formulas (2.37)-(2.42), the bias-variance decomposition."""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

from melearn import bias_variance_decomposition  # noqa: E402
from melearn.bias_variance import (  # noqa: E402
    BiasVariance,
    bias_variance_by_point,
    polynomial_predictions,
)
from melearn.plotting.bias_variance_curves import plot_cross_scaling, plot_decomposition  # noqa: E402


# -- an independent route: the definitions taken literally, one training set and one point at a time, exactly --
def literal_fractions(predictions, y_observed, y_true):
    """(2.37)-(2.41) with Python loops over Fractions; cross from its own formula, never as a remainder."""
    P = [[Fraction(v) for v in row] for row in predictions]
    Y = [[Fraction(v) for v in row] for row in y_observed]
    yt = [Fraction(v) for v in y_true]
    T, n = len(P), len(yt)
    out = {k: Fraction(0) for k in ("error", "bias2", "variance", "noise", "cross")}
    for i in range(n):
        f_bar = sum(P[t][i] for t in range(T)) / T
        out["error"] += sum((P[t][i] - Y[t][i]) ** 2 for t in range(T)) / T
        out["variance"] += sum((P[t][i] - f_bar) ** 2 for t in range(T)) / T
        out["noise"] += sum((Y[t][i] - yt[i]) ** 2 for t in range(T)) / T
        out["bias2"] += (f_bar - yt[i]) ** 2
        # the two cross terms of the book's expansion, as sample means
        out["cross"] += sum(2 * (P[t][i] - f_bar) * (f_bar - Y[t][i]) for t in range(T)) / T
        out["cross"] += sum(2 * (f_bar - yt[i]) * (yt[i] - Y[t][i]) for t in range(T)) / T
    return {k: v / n for k, v in out.items()}


def agrees_with_literal(implementation, predictions, y_observed, y_true) -> bool:
    exact = literal_fractions(predictions, y_observed, y_true)
    got = implementation(predictions, y_observed, y_true)
    return all(np.isclose(getattr(got, k), float(v), rtol=1e-12, atol=1e-12) for k, v in exact.items())


def small_integer_case(seed, T=4, n=3):
    rng = np.random.default_rng(seed)
    return (
        rng.integers(-5, 6, size=(T, n)).astype(float),
        rng.integers(-5, 6, size=(T, n)).astype(float),
        rng.integers(-5, 6, size=n).astype(float),
    )


def test_hand_example():
    # two training sets, two points: worked by hand
    r = bias_variance_decomposition([[1.0, 2.0], [3.0, 2.0]], [[1.0, 1.0], [1.0, 3.0]], [1.0, 2.0])
    assert isinstance(r, BiasVariance)
    assert (r.error, r.bias2, r.variance, r.noise, r.cross) == (1.5, 0.5, 0.5, 0.5, 0.0)
    assert all(type(v) is float for v in r)


@pytest.mark.parametrize("seed", range(8))
def test_matches_literal_fractions(seed):
    P, Y, y = small_integer_case(seed)
    assert agrees_with_literal(bias_variance_decomposition, P, Y, y)
    exact = literal_fractions(P, Y, y)
    # in exact arithmetic the identity holds with no rounding at all
    assert exact["error"] == exact["bias2"] + exact["variance"] + exact["noise"] + exact["cross"]


def test_a_mutated_implementation_is_caught():
    """Dividing the variance by T - 1 (the unbiased estimator) breaks the identity; the literal route sees it."""

    def mutant(predictions, y_observed, y_true):
        r = bias_variance_decomposition(predictions, y_observed, y_true)
        T = np.shape(predictions)[0]
        return r._replace(variance=r.variance * T / (T - 1))

    P, Y, y = small_integer_case(3)
    assert agrees_with_literal(bias_variance_decomposition, P, Y, y)
    assert not agrees_with_literal(mutant, P, Y, y)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda T: st.integers(1, 5).flatmap(
            lambda n: st.tuples(
                arrays(np.float64, (T, n), elements=st.floats(-1e3, 1e3)),
                arrays(np.float64, (T, n), elements=st.floats(-1e3, 1e3)),
                arrays(np.float64, (n,), elements=st.floats(-1e3, 1e3)),
            )
        )
    )
)
def test_identity_holds_to_rounding(case):
    P, Y, y = case
    r = bias_variance_decomposition(P, Y, y)
    scale = max(1.0, r.error, r.bias2, r.variance, r.noise, abs(r.cross))
    assert abs(r.error - (r.bias2 + r.variance + r.noise + r.cross)) <= 1e-12 * scale
    assert min(r.error, r.bias2, r.variance, r.noise) >= 0.0


def test_by_point_averages_to_the_decomposition():
    P, Y, y = small_integer_case(11, T=5, n=4)
    by_point = bias_variance_by_point(P, Y, y)
    total = bias_variance_decomposition(P, Y, y)
    for field in BiasVariance._fields:
        assert getattr(by_point, field).shape == (4,)
        assert np.isclose(getattr(by_point, field).mean(), getattr(total, field), rtol=1e-14, atol=1e-14)


def test_noise_free_labels_leave_no_noise_and_no_cross_term():
    P, _, y = small_integer_case(5)
    Y = np.tile(y, (P.shape[0], 1))
    r = bias_variance_decomposition(P, Y, y)
    assert r.noise == 0.0 and r.cross == 0.0
    assert r.error == pytest.approx(r.bias2 + r.variance, rel=1e-14)


def test_a_learner_that_ignores_the_data_has_no_variance():
    _, Y, y = small_integer_case(6)
    P = np.tile([1.0, -2.0, 0.5], (Y.shape[0], 1))
    r = bias_variance_decomposition(P, Y, y)
    assert r.variance == 0.0
    assert r.bias2 == pytest.approx(np.mean((P[0] - y) ** 2), rel=1e-14)


def test_shifting_everything_changes_nothing():
    P, Y, y = small_integer_case(7)
    a = bias_variance_decomposition(P, Y, y)
    b = bias_variance_decomposition(P + 100.0, Y + 100.0, y + 100.0)
    assert np.allclose(a, b, rtol=1e-9, atol=1e-9)


# -- in expectation: independent noise makes the cross term vanish; a test label used in training does not --
def _fixed_design_study(rng, T, m=12, degree=2, sigma=0.5, in_sample=False):
    x = np.linspace(0.0, 1.0, m)
    truth = np.cos(3.0 * x)
    Y_train = truth + sigma * rng.standard_normal((T, m))
    P = polynomial_predictions(np.broadcast_to(x, (T, m)), Y_train, x, degree)
    Y_test = Y_train if in_sample else truth + sigma * rng.standard_normal((T, m))
    return bias_variance_decomposition(P, Y_test, truth)


def test_cross_term_vanishes_in_expectation_only_with_independent_test_labels():
    rng = np.random.default_rng(2037)
    sigma, m, degree, T, reps = 0.5, 12, 2, 50, 200
    out = np.array([_fixed_design_study(rng, T, m, degree, sigma).cross for _ in range(reps)])
    inn = np.array([_fixed_design_study(rng, T, m, degree, sigma, in_sample=True).cross for _ in range(reps)])
    # Monte Carlo tolerance: 4 standard errors of the mean over the repetitions
    assert abs(out.mean()) < 4 * out.std(ddof=1) / np.sqrt(reps)
    # with the label in the training set, E[cross] = -2 sigma^2 tr(H) / m = -2 sigma^2 (degree + 1) / m exactly
    expected = -2 * sigma**2 * (degree + 1) / m
    assert abs(inn.mean() - expected) < 4 * inn.std(ddof=1) / np.sqrt(reps)
    assert inn.mean() < -10 * abs(out.mean())


# -- mlxtend: its "bias" is measured against one observed label per point --------------------------------------
class RecordingPolynomial:
    """A scikit-learn-style regressor (least-squares cubic) that records every prediction it makes."""

    def __init__(self, degree=3):
        self.degree = degree
        self.predictions = []

    def fit(self, X, y):
        self.coef_ = np.polyfit(X[:, 0], y, self.degree)
        return self

    def predict(self, X):
        p = np.polyval(self.coef_, X[:, 0])
        self.predictions.append(p)
        return p


def test_aligns_exactly_with_mlxtend():
    """mlxtend's loss and variance are ours; its "bias" is our bias2 + noise + cross, with y_observed = y_test.

    mlxtend keeps one observed test label per point for every bootstrap round, so its "bias",
    mean((main_prediction - y_test)^2), mixes the book's bias^2 with the noise. Given the predictions it made
    (recorded), the test labels repeated for every round as y_D, and the noise-free function as y, our fields
    must reproduce its three numbers to rounding.
    """
    mlxtend_evaluate = pytest.importorskip("mlxtend.evaluate")
    rng = np.random.default_rng(42)
    g = lambda x: np.sin(2.0 * np.pi * x)  # noqa: E731
    x_train = rng.uniform(0.0, 1.0, 30)
    y_train = g(x_train) + 0.3 * rng.standard_normal(30)
    x_test = np.linspace(0.05, 0.95, 20)
    y_test = g(x_test) + 0.3 * rng.standard_normal(20)
    model = RecordingPolynomial(degree=3)
    loss, bias, var = mlxtend_evaluate.bias_variance_decomp(
        model, x_train[:, None], y_train, x_test[:, None], y_test, loss="mse", num_rounds=40, random_seed=7
    )
    P = np.array(model.predictions)
    assert P.shape == (40, 20)
    r = bias_variance_decomposition(P, np.tile(y_test, (40, 1)), g(x_test))
    assert loss == pytest.approx(r.error, rel=1e-12)
    assert var == pytest.approx(r.variance, rel=1e-12)
    assert bias == pytest.approx(r.bias2 + r.noise + r.cross, rel=1e-12)
    assert bias != pytest.approx(r.bias2, rel=1e-3)  # the conventions do differ
    # with noise-free test labels the two "bias" terms coincide
    model = RecordingPolynomial(degree=3)
    _, bias0, _ = mlxtend_evaluate.bias_variance_decomp(
        model, x_train[:, None], y_train, x_test[:, None], g(x_test), loss="mse", num_rounds=40, random_seed=7
    )
    r0 = bias_variance_decomposition(np.array(model.predictions), np.tile(g(x_test), (40, 1)), g(x_test))
    assert bias0 == pytest.approx(r0.bias2, rel=1e-12)
    assert r0.noise == 0.0 and abs(r0.cross) < 1e-15


# -- bad input ----------------------------------------------------------------------------------------------
GOOD = (np.zeros((3, 2)), np.ones((3, 2)), np.zeros(2))


@pytest.mark.parametrize(
    "position, bad, pattern",
    [
        (0, np.zeros(6), "predictions must be 2-dimensional"),
        (1, np.zeros(6), "y_observed must be 2-dimensional"),
        (2, np.zeros((1, 2)), "y_true must be 1-dimensional"),
        (0, np.zeros((0, 2)), "predictions is empty"),
        (1, np.zeros((3, 0)), "y_observed is empty"),
        (2, np.zeros(0), "y_true is empty"),
        (0, [[0.0, np.nan], [0.0, 0.0], [0.0, 0.0]], "predictions contains NaN or inf"),
        (1, [[0.0, np.inf], [0.0, 0.0], [0.0, 0.0]], "y_observed contains NaN or inf"),
        (2, [0.0, -np.inf], "y_true contains NaN or inf"),
        (0, [["a", "b"], ["c", "d"], ["e", "f"]], "predictions must be numeric"),
        (1, np.ones((4, 2)), "y_observed must have the shape of predictions"),
        (1, np.ones((3, 3)), "y_observed must have the shape of predictions"),
        (2, np.zeros(3), "y_true must hold one true label per point"),
    ],
)
def test_bad_input_names_the_argument(position, bad, pattern):
    args = list(GOOD)
    args[position] = bad
    with pytest.raises(ValueError, match=pattern):
        bias_variance_decomposition(*args)


def test_one_training_set_is_refused():
    with pytest.raises(ValueError, match="predictions must come from at least 2 training sets"):
        bias_variance_decomposition(np.zeros((1, 2)), np.ones((1, 2)), np.zeros(2))


# -- the polynomial learner ---------------------------------------------------------------------------------
@pytest.mark.parametrize("degree", [0, 1, 3, 6])
def test_polynomial_predictions_match_numpy_polyfit(degree):
    rng = np.random.default_rng(degree)
    X = rng.uniform(-1.0, 2.0, size=(5, 10))
    Y = np.sin(X) + 0.1 * rng.standard_normal((5, 10))
    x_eval = np.linspace(-1.0, 2.0, 7)
    got = polynomial_predictions(X, Y, x_eval, degree)
    want = np.array([np.polyval(np.polyfit(X[t], Y[t], degree), x_eval) for t in range(5)])
    assert got.shape == (5, 7)
    assert np.allclose(got, want, rtol=1e-9, atol=1e-9)
    # a different point per training set
    per_set = polynomial_predictions(X, Y, X, degree)
    assert np.allclose(per_set, [np.polyval(np.polyfit(X[t], Y[t], degree), X[t]) for t in range(5)], atol=1e-9)


@pytest.mark.parametrize(
    "kwargs, pattern",
    [
        ({"degree": 4}, "degree must be less than the training set size 4"),
        ({"degree": -1}, "degree must be non-negative"),
        ({"degree": 1.5}, "degree must be an integer"),
        ({"y_train": np.zeros((2, 3))}, "y_train must have the shape of x_train"),
        ({"x_eval": np.zeros((3, 2))}, "x_eval must have one row per training set"),
        ({"x_train": np.full((2, 4), np.nan)}, "x_train contains NaN or inf"),
        ({"x_eval": []}, "x_eval is empty"),
    ],
)
def test_polynomial_predictions_bad_input(kwargs, pattern):
    args = {"x_train": np.arange(8.0).reshape(2, 4), "y_train": np.ones((2, 4)), "x_eval": [0.5], "degree": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=pattern):
        polynomial_predictions(**args)


# -- figures ------------------------------------------------------------------------------------------------
def test_figures_draw():
    degrees = np.arange(4)
    exact = {"bias2": [0.4, 0.2, 0.05, 0.01], "variance": [0.01, 0.02, 0.04, 0.08], "noise": [0.09] * 4}
    measured = [BiasVariance(0.5, 0.4, 0.01, 0.09, 0.0)] * 4
    fig, (a, b) = plt.subplots(1, 2)
    assert plot_decomposition(a, degrees, exact, measured) is a
    assert len(a.get_lines()) >= 4
    assert plot_cross_scaling(b, [10, 100, 1000], [0.1, 0.03, 0.01], -0.5, np.log(0.3)) is b
    assert b.get_xscale() == "log" and b.get_yscale() == "log"
    plt.close(fig)
