r"""The bias-variance decomposition: formulas (2.37)-(2.42) of section 2.5.

Derived and checked in the book page ``chapters/bias_variance.ipynb``.

:func:`bias_variance_decomposition` splits the mean squared error of many models, each trained on its own
training set, into the sample versions of :math:`\mathrm{bias}^2(x)`, :math:`\mathrm{var}(x)` and
:math:`\varepsilon^2`, plus the cross terms that vanish only in expectation; :func:`polynomial_predictions` fits
one least-squares polynomial per training set, the learner of the page's numerical study. The symbolic
derivation of (2.41) and (2.42) is :mod:`melearn.derivation.bias_variance`; this module imports neither sympy
nor the derivation code.

Conventions
-----------
For a test point :math:`x`, :math:`y` is its true label, :math:`y_D` its label as recorded alongside the training
set :math:`D` (the true label plus noise), and :math:`f(x; D)` the prediction of the model learned from
:math:`D`. An array ``predictions[t, i]`` is :math:`f(x_i; D_t)` and ``y_observed[t, i]`` is :math:`y_{D_t}` at
:math:`x_i`; the expectation :math:`\mathbb{E}_D` becomes the mean over the rows ``t``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validation import (
    as_exact_array,
    as_finite_array,
    as_fractions,
    check_positive_int,
    exact_float,
    fits_float,
    require_finite_result,
)

__all__ = [
    "BiasVariance",
    "bias_variance_by_point",
    "bias_variance_decomposition",
    "polynomial_predictions",
]


# -- the numbers ---------------------------------------------------------------------------------------------
class BiasVariance(NamedTuple):
    r"""The sample bias-variance decomposition, ``error == bias2 + variance + noise + cross``.

    Each field is the sample version, over the training sets, of a term of (2.41)-(2.42):
    ``error`` of :math:`E(f; D)`, ``bias2`` of :math:`\mathrm{bias}^2(x)` (2.40), ``variance`` of
    :math:`\mathrm{var}(x)` (2.38), ``noise`` of :math:`\varepsilon^2` (2.39); ``cross`` holds the two cross
    terms of (2.41), whose expectations vanish when the noise has zero mean and is independent of the training
    set, but whose sample values do not.
    """

    error: float | np.ndarray
    bias2: float | np.ndarray
    variance: float | np.ndarray
    noise: float | np.ndarray
    cross: float | np.ndarray


def _validated(predictions, y_observed, y_true) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = as_finite_array(predictions, "predictions", ndim=2)
    yd = as_finite_array(y_observed, "y_observed", ndim=2)
    y = as_finite_array(y_true, "y_true", ndim=1)
    if yd.shape != p.shape:
        raise ValueError(
            f"y_observed must have the shape of predictions (n_training_sets, n_points): "
            f"y_observed has {yd.shape}, predictions has {p.shape}"
        )
    if y.shape[0] != p.shape[1]:
        raise ValueError(
            f"y_true must hold one true label per point: y_true has length {y.shape[0]}, "
            f"predictions has {p.shape[1]} points (columns)"
        )
    if p.shape[0] < 2:
        raise ValueError(
            f"predictions must come from at least 2 training sets (rows) to show any variance, got {p.shape[0]}"
        )
    return p, yd, y


def _exact_by_point(predictions, y_observed, y_true) -> BiasVariance | None:
    """The fields at each point from exact fractions when float64 cannot hold the inputs (else ``None``).

    As floats, 2**53 + 1 and 2**53 are equal, and every field of ``[[2**53 + 1], [2**53]]`` against 2**53 would be
    0; integers beyond 2**53 and long double values are taken at their exact values instead, each field computed
    from its own formula in fractions and rounded once.
    """
    arrays = [
        as_exact_array(predictions, "predictions", ndim=2),
        as_exact_array(y_observed, "y_observed", ndim=2),
        as_exact_array(y_true, "y_true", ndim=1),
    ]
    if all(fits_float(a) for a in arrays):
        return None
    _validated(*(a.astype(np.float64) if fits_float(a) else a.astype(object) for a in arrays))  # shapes, by name
    p, yd, y = (as_fractions(a) for a in arrays)
    t_count = len(p)
    fields: list[list[float]] = [[] for _ in BiasVariance._fields]
    for i, yi in enumerate(y):
        f = [row[i] for row in p]
        o = [row[i] for row in yd]
        f_mean, y_mean = sum(f) / t_count, sum(o) / t_count
        values = (
            sum((a - b) ** 2 for a, b in zip(f, o, strict=True)) / t_count,  # error
            (f_mean - yi) ** 2,  # bias2, (2.40)
            sum((a - f_mean) ** 2 for a in f) / t_count,  # variance, (2.38)
            sum((b - yi) ** 2 for b in o) / t_count,  # noise, (2.39)
            -2 * sum((a - f_mean) * (b - y_mean) for a, b in zip(f, o, strict=True)) / t_count
            + 2 * (f_mean - yi) * (yi - y_mean),  # cross
        )
        for name, field, value in zip(BiasVariance._fields, fields, values, strict=True):
            field.append(exact_float(value, f"{name} at some point of predictions, y_observed and y_true"))
    return BiasVariance(*(np.array(field) for field in fields))


def bias_variance_by_point(predictions, y_observed, y_true) -> BiasVariance:
    r"""The sample bias-variance decomposition at each test point, formulas (2.37)-(2.41).

    Like :func:`bias_variance_decomposition`, without the final average over the points: every field is an
    array of shape (n_points,). Derived in ``chapters/bias_variance.ipynb``.

    Parameters
    ----------
    predictions : array-like of shape (n_training_sets, n_points)
        :math:`f(x_i; D_t)`, the prediction at point ``i`` of the model trained on training set ``t``.
    y_observed : array-like of shape (n_training_sets, n_points)
        :math:`y_{D_t}` at point ``i``: the noisy label of the point that goes with training set ``t``.
    y_true : array-like of shape (n_points,)
        :math:`y`, the true (noise-free) label of each point.

    Returns
    -------
    BiasVariance
        ``error``, ``bias2``, ``variance``, ``noise`` and ``cross``, arrays of shape (n_points,) with
        ``error == bias2 + variance + noise + cross`` up to rounding.

    Raises
    ------
    ValueError
        If an input is not numeric, has the wrong number of dimensions, is empty or holds NaN or inf; if
        ``y_observed`` and ``predictions`` differ in shape; if ``y_true`` does not have one entry per column; if
        there are fewer than 2 training sets; or if a field at some point exceeds the largest float (1.8e308).

    Notes
    -----
    Limits: any finite inputs. Each point's values are scaled by a power of two before squaring, so no square,
    sum or product overflows in between and the identity holds with finite parts whenever every part is below
    the largest float; otherwise ``ValueError``. Parts below about 1e-308 times the point's largest squared value
    underflow to 0. Time O(T n), memory a few arrays of the input's shape.

    With :math:`T` training sets every :math:`\mathbb{E}_D` is a mean over them (dividing by :math:`T`, not
    :math:`T - 1`, so that the identity is exact). Writing :math:`\hat f` for the mean prediction (2.37) and
    :math:`\bar y_D` for the mean observed label, expanding
    :math:`f - y_D = (f - \hat f) + (\hat f - y) + (y - y_D)` gives the identity with

    .. math::

        \mathrm{cross} = -2\,\widehat{\mathrm{cov}}_D(f, y_D) + 2\,(\hat f - y)(y - \bar y_D),

    the sample covariance of prediction and observed label (zero in expectation when the noise at the test
    point is independent of the training set) plus the bias times the mean noise (zero in expectation when the
    noise has zero mean). The third cross term of the expansion, :math:`2(\hat f - y)\,\overline{(f - \hat f)}`,
    is exactly zero. Each field is computed from its own formula, not as a remainder, so the identity is a
    check rather than a definition.

    Examples
    --------
    >>> r = bias_variance_by_point([[1.0, 2.0], [3.0, 2.0]], [[1.0, 1.0], [1.0, 3.0]], [1.0, 2.0])
    >>> r.bias2.tolist(), r.variance.tolist(), r.noise.tolist(), r.cross.tolist()
    ([1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0])
    >>> r.error.tolist()
    [2.0, 1.0]
    """
    exact = _exact_by_point(predictions, y_observed, y_true)
    if exact is not None:
        return exact
    p, yd, y = _validated(predictions, y_observed, y_true)
    # Each point's numbers are divided by a power of two 2**e near their largest magnitude (exact: power-of-two
    # scaling commutes with rounding, so the fields are those of the plain formulas bit for bit wherever these
    # neither overflow nor underflow), the moments of numbers in [-1, 1] are taken, and 2**(2e) multiplied back.
    # So values up to 1.8e308 give no inf or NaN in between; a field beyond the float range is refused.
    top = np.maximum(np.max(np.maximum(np.abs(p), np.abs(yd)), axis=0), np.abs(y))
    _, e = np.frexp(top)
    p, yd, y = np.ldexp(p, -e), np.ldexp(yd, -e), np.ldexp(y, -e)
    f_mean = p.mean(axis=0)  # (2.37), the mean prediction
    y_mean = yd.mean(axis=0)  # the mean observed label
    error = np.mean((p - yd) ** 2, axis=0)  # (2.41), first line
    variance = np.mean((p - f_mean) ** 2, axis=0)  # (2.38)
    noise = np.mean((yd - y) ** 2, axis=0)  # (2.39)
    bias2 = (f_mean - y) ** 2  # (2.40)
    covariance = np.mean((p - f_mean) * (yd - y_mean), axis=0)
    cross = -2.0 * covariance + 2.0 * (f_mean - y) * (y - y_mean)
    fields = []
    with np.errstate(over="ignore"):
        for name, field in zip(BiasVariance._fields, (error, bias2, variance, noise, cross), strict=True):
            fields.append(
                require_finite_result(
                    np.ldexp(np.ldexp(field, e), e), f"{name} at some point of predictions, y_observed and y_true"
                )
            )
    return BiasVariance(*fields)


def bias_variance_decomposition(predictions, y_observed, y_true) -> BiasVariance:
    r"""The bias-variance decomposition (2.42) measured on many training sets, averaged over the points.

    Formulas (2.37)-(2.42), derived in ``chapters/bias_variance.ipynb``: at each point :math:`x` the expected
    error :math:`E(f; D) = \mathbb{E}_D[(f(x; D) - y_D)^2]` equals :math:`\mathrm{bias}^2(x) + \mathrm{var}(x)
    + \varepsilon^2` in expectation. With finitely many training sets the sample moments satisfy
    ``error == bias2 + variance + noise + cross`` exactly (up to rounding), where ``cross`` holds the terms that
    vanish only in expectation.

    Parameters
    ----------
    predictions : array-like of shape (n_training_sets, n_points)
        :math:`f(x_i; D_t)`, the prediction at point ``i`` of the model trained on training set ``t``.
    y_observed : array-like of shape (n_training_sets, n_points)
        :math:`y_{D_t}` at point ``i``: the noisy label of the point that goes with training set ``t``.
    y_true : array-like of shape (n_points,)
        :math:`y`, the true (noise-free) label of each point.

    Returns
    -------
    BiasVariance
        ``error``, ``bias2``, ``variance``, ``noise`` and ``cross`` (floats): the means over the points of the
        fields of :func:`bias_variance_by_point`.

    Raises
    ------
    ValueError
        If an input is not numeric, has the wrong number of dimensions, is empty or holds NaN or inf; if
        ``y_observed`` and ``predictions`` differ in shape; if ``y_true`` does not have one entry per column; if
        there are fewer than 2 training sets; or if a field exceeds the largest float (1.8e308).

    See Also
    --------
    bias_variance_by_point : the same decomposition at every point.

    Notes
    -----
    The book's :math:`\mathbb{E}_D` is an expectation over training sets; here it is the mean over the
    ``n_training_sets`` rows. ``cross`` is :math:`-2` times the sample covariance between prediction and
    observed label plus :math:`2\,\widehat{\mathrm{bias}}\times` the mean noise; it shrinks like
    :math:`1/\sqrt{T}` with the number :math:`T` of training sets when the test labels' noise is independent of
    the training sets, and does not shrink when a test label was part of the training set.

    Unlike ``mlxtend.evaluate.bias_variance_decomp``, which measures its "bias" against one observed label per
    point (so that it equals ``bias2 + noise + cross`` here), this function separates the noise from the bias.

    Limits: as :func:`bias_variance_by_point` (any finite inputs, scaled per point; a field beyond 1.8e308 is
    refused); the means over the points are summed at a power-of-two scale, so they overflow only when the mean
    itself would. Time O(T n).

    References
    ----------
    .. [1] Zhou Zhihua, *Machine Learning* (机器学习), Tsinghua University Press, 2016, section 2.5.
    .. [2] S. Geman, E. Bienenstock, R. Doursat, "Neural networks and the bias/variance dilemma", Neural
       Computation 4(1), 1992.

    Examples
    --------
    >>> r = bias_variance_decomposition([[1.0, 2.0], [3.0, 2.0]], [[1.0, 1.0], [1.0, 3.0]], [1.0, 2.0])
    >>> r.error, r.bias2, r.variance, r.noise, r.cross
    (1.5, 0.5, 0.5, 0.5, 0.0)
    """
    by_point = bias_variance_by_point(predictions, y_observed, y_true)
    return BiasVariance(
        *(
            _mean_without_overflow(field, f"{name} (averaged over the points of predictions)")
            for name, field in zip(BiasVariance._fields, by_point, strict=True)
        )
    )


def _mean_without_overflow(x: np.ndarray | float, name: str) -> float:
    """The mean of ``x``, its sum taken at a power-of-two scale so that it overflows only if the mean does."""
    _, e = np.frexp(np.max(np.abs(x)))
    with np.errstate(over="ignore"):
        mean = float(np.ldexp(np.mean(np.ldexp(x, -e)), e))
    return require_finite_result(mean, name)


def polynomial_predictions(x_train, y_train, x_eval, degree: int) -> np.ndarray:
    r"""Fit one least-squares polynomial per training set and predict at the evaluation points.

    The learner of the numerical study on ``chapters/bias_variance.ipynb``: training set ``t`` is
    ``(x_train[t], y_train[t])``; its polynomial of degree ``degree`` minimises the squared error on it, and
    ``result[t]`` is that polynomial evaluated at ``x_eval``. All training sets are solved at once.

    Parameters
    ----------
    x_train, y_train : array-like of shape (n_training_sets, m)
        Inputs and labels of each training set (``m`` samples each).
    x_eval : array-like of shape (n_points,) or (n_training_sets, n_points)
        Where to predict; a 1-d array is shared by every training set.
    degree : int
        The polynomial degree, at least 0 and less than ``m`` (so that the fit is determined).

    Returns
    -------
    numpy.ndarray of shape (n_training_sets, n_points)
        ``predictions[t, i]``, the fit of training set ``t`` at point ``i``.

    Raises
    ------
    ValueError
        On non-finite or empty input, mismatched shapes, or a degree that is negative or not below ``m``.

    Notes
    -----
    The polynomials are written in the Legendre basis on the interval spanned by all the inputs, which keeps
    the design matrices well conditioned for the degrees of the page (up to about 12); the fitted function does
    not depend on the basis. Each least-squares problem is solved by a (stacked) pseudo-inverse.

    Limits: any finite inputs (the interval is centred and scaled without overflow, even for inputs near
    1.8e308); ``degree`` below the training set size m. The basis is shared by all training sets, so one whose
    inputs span a tiny part of the common interval (below about 1e-15 of it) is fitted as if its inputs were
    equal: the pseudo-inverse drops the directions it cannot resolve. Time O(T m degree^2), memory O(T m degree).

    Examples
    --------
    >>> x = [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]
    >>> y = [[1.0, 3.0, 5.0], [0.0, 0.0, 3.0]]
    >>> polynomial_predictions(x, y, [3.0], degree=1).round(6).tolist()
    [[7.0], [4.0]]
    """
    xt = as_finite_array(x_train, "x_train", ndim=2)
    yt = as_finite_array(y_train, "y_train", ndim=2)
    if yt.shape != xt.shape:
        raise ValueError(f"y_train must have the shape of x_train: y_train has {yt.shape}, x_train has {xt.shape}")
    xe = as_finite_array(x_eval, "x_eval", ndim=2 if np.ndim(x_eval) == 2 else 1)
    if xe.ndim == 1:
        xe = np.broadcast_to(xe, (xt.shape[0], xe.shape[0]))
    elif xe.shape[0] != xt.shape[0]:
        raise ValueError(
            f"x_eval must have one row per training set: x_eval has {xe.shape[0]} rows, x_train has {xt.shape[0]}"
        )
    degree = check_positive_int(degree, "degree", minimum=0)
    if degree >= xt.shape[1]:
        raise ValueError(f"degree must be less than the training set size {xt.shape[1]}, got {degree}")
    low = min(xt.min(), xe.min())
    high = max(xt.max(), xe.max())
    # halved before adding: high - low and low + high overflow for inputs near the largest float (the same numbers
    # bit for bit otherwise); every x lies within scale of the centre, so x - centre cannot overflow
    centre = low / 2.0 + high / 2.0
    scale = high / 2.0 - low / 2.0 if high > low else 1.0

    def design(x):
        return np.polynomial.legendre.legvander((x - centre) / scale, degree)

    coefficients = np.linalg.pinv(design(xt)) @ yt[..., None]  # (T, degree + 1, 1)
    return (design(xe) @ coefficients)[..., 0]
