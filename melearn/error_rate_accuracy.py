r"""Mean squared error, error rate and accuracy: formulas (2.2)-(2.7) of sections 2.3 and 2.3.1.

Derived and checked in the book page ``chapters/error_rate_accuracy.ipynb``, which also shows the integral forms
(2.3), (2.6) and (2.7) as the limits of these sample averages.

Conventions
-----------
:func:`mean_squared_error` takes real numbers (a regression task). :func:`error_rate` and :func:`accuracy` take
*discrete labels* of any number of classes, compared for equality: integers, booleans, finite floats or
strings, the two arrays of the same kind (numbers with numbers, strings with strings). ``True == 1`` and
``1 == 1.0`` as in Python. NaN is refused, since ``NaN != NaN`` would silently count as an error.
"""

from __future__ import annotations

import numpy as np

from ._validation import (
    as_exact_array,
    as_finite_array,
    as_fractions,
    as_label_arrays,
    check_same_length,
    exact_float,
    fits_float,
    require_finite_result,
)

__all__ = ["accuracy", "error_rate", "mean_squared_error"]


def _label_pair(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    """Validate two label arrays of the same length and kind, in dtypes that compare them as Python does."""
    t, p = as_label_arrays(y_true=y_true, y_pred=y_pred)
    check_same_length(y_true=t, y_pred=p)
    return t, p


def _exact_mse(y_true, y_pred) -> float | None:
    """The mean squared error from exact residuals when float64 cannot hold the inputs exactly (else ``None``).

    As floats, 2**53 + 1 and 2**53 are equal and their residual 0; as the exact numbers (Python integers, or
    Python numbers mixing them with floats) it is 1. Long double inputs that float64 cannot hold are taken at their
    exact values too (1 + 2**-60 and 1 differ by 2**-60, which float64 would round away). The sum of squares is an
    exact rational, divided once and rounded once.
    """
    t = as_exact_array(y_true, "y_true")
    p = as_exact_array(y_pred, "y_pred")
    check_same_length(y_true=t, y_pred=p)
    if fits_float(t) and fits_float(p):
        return None
    total = sum((a - b) ** 2 for a, b in zip(as_fractions(t), as_fractions(p), strict=True))
    return exact_float(total / t.size, "the mean squared error of y_true and y_pred")


def mean_squared_error(y_true, y_pred) -> float:
    r"""The mean squared error (均方误差) of predictions on a sample, formula (2.2).

    .. math:: E(f; D) = \frac{1}{m} \sum_{i=1}^{m} \big(f(\boldsymbol{x}_i) - y_i\big)^2

    Derived in ``chapters/error_rate_accuracy.ipynb``, where it is also shown to converge to the integral form
    (2.3) as the sample grows.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        The real-valued targets :math:`y_i`, finite.
    y_pred : array-like of shape (m,)
        The predictions :math:`f(\boldsymbol{x}_i)`, finite.

    Returns
    -------
    float
        The mean of the squared differences, at least 0.

    Raises
    ------
    ValueError
        If either argument is empty, not 1-dimensional, not numeric (strings, even "0.5", are refused), ragged,
        masked or holds NaN or inf; if their lengths differ; or if the mean squared error exceeds the largest
        float.

    Notes
    -----
    The formula is symmetric in ``y_true`` and ``y_pred``. Agrees with ``sklearn.metrics.mean_squared_error``
    (tests).

    Limits: any finite inputs. Residuals and squares that would overflow (:math:`|f - y| > 10^{154}`) are
    scaled by a power of two first, so the result is inf-free whenever it is below the largest float
    (1.8e308); a mean squared error beyond it raises ``ValueError``. Squares below 1e-308 lose precision
    gradually and those below 5e-324 count as 0 (floating-point underflow). Inputs that float64 cannot hold
    exactly (integers beyond 2**53, long double values) are taken at their exact values: the residuals and their
    squares are exact fractions, and the mean is rounded once (so 2**53 + 1 against 2**53 gives 1, and long
    doubles 1 + 2**-60 against 1 give 2**-120). Time O(m), memory two copies of the input.

    Examples
    --------
    >>> mean_squared_error([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    exact = _exact_mse(y_true, y_pred)  # integers beyond 2**53: exact residuals, not rounded ones
    if exact is not None:
        return exact
    t = as_finite_array(y_true, "y_true")
    p = as_finite_array(y_pred, "y_pred")
    with np.errstate(over="ignore", invalid="ignore"):
        residual = p - t
        value = float(np.mean(residual * residual))
    if np.isfinite(value):
        return value
    # something overflowed (a residual, a square or the sum): redo it scaled, see mean_square
    with np.errstate(over="ignore"):
        residual = p * 0.5 - t * 0.5  # cannot overflow; exact unless a half is subnormal
    return require_finite_result(mean_square(residual, 2.0), "the mean squared error of y_true and y_pred")


def mean_square(x: np.ndarray, factor: float = 1.0, axis=None):
    r"""The mean of :math:`(	ext{factor} \cdot x)^2` without overflow or underflow in between.

    Each entry is divided by a power of two :math:`2^e` near the largest :math:`|x|` (exact, bar subnormals), the
    mean of the squares of those numbers in [-1, 1] is taken, and :math:`2^{2e}\,	ext{factor}^2` is multiplied
    back in two steps, so an inf comes out only when the result itself exceeds the float range. Power-of-two
    scaling commutes with rounding, so where the plain formula does not overflow the two agree bit for bit.
    """
    top = np.max(np.abs(x), axis=axis, keepdims=True)
    _, e = np.frexp(top)
    scaled = np.ldexp(x, -e)  # |scaled| < 1
    mean = np.mean(scaled * scaled, axis=axis)
    e = np.squeeze(e, axis=axis) if axis is not None else e.reshape(())
    with np.errstate(over="ignore"):
        out = np.ldexp(np.ldexp(mean, e) * factor, e) * factor
    return float(out) if np.ndim(out) == 0 else out


def error_rate(y_true, y_pred) -> float:
    r"""The error rate (错误率): the fraction of samples classified wrongly, formula (2.4).

    .. math:: E(f; D) = \frac{1}{m} \sum_{i=1}^{m} \mathbb{I}\big(f(\boldsymbol{x}_i) \neq y_i\big)

    Derived in ``chapters/error_rate_accuracy.ipynb``, where it is also shown to converge to the integral form
    (2.6) as the sample grows.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        The true labels :math:`y_i`: discrete labels of any number of classes (integers, booleans, finite
        floats or strings).
    y_pred : array-like of shape (m,)
        The predicted labels :math:`f(\boldsymbol{x}_i)`, of the same kind as ``y_true``.

    Returns
    -------
    float
        The number of samples with ``y_pred != y_true``, divided by m; in [0, 1].

    Raises
    ------
    ValueError
        If either argument is empty, not 1-dimensional, holds NaN or inf, or has an unsupported dtype (object,
        complex); if the lengths differ; or if one holds strings and the other numbers.

    See Also
    --------
    accuracy : formula (2.5), equal to ``1 - error_rate``.

    Notes
    -----
    The count of mismatches is an exact integer, divided once. Agrees with ``sklearn.metrics.zero_one_loss``
    (tests).

    Limits: any m that fits in memory (time O(m), no extra memory beyond one boolean array). Labels may be
    numbers, booleans or strings, including a pandas ``Series`` of pandas' string dtype, a ``Categorical`` and
    integers beyond int64 (compared exactly); a masked array with masked entries, a missing value (None,
    ``pd.NA``) and a ragged list are refused with a message naming the argument.

    Examples
    --------
    >>> error_rate([0, 1, 2, 2], [0, 2, 2, 1])
    0.5
    >>> error_rate(["ripe", "unripe", "ripe"], ["ripe", "ripe", "ripe"])
    0.3333333333333333
    """
    t, p = _label_pair(y_true, y_pred)
    return int(np.count_nonzero(t != p)) / t.size


def accuracy(y_true, y_pred) -> float:
    r"""The accuracy (精度): the fraction of samples classified correctly, formula (2.5).

    .. math::
        \mathrm{acc}(f; D) = \frac{1}{m} \sum_{i=1}^{m} \mathbb{I}\big(f(\boldsymbol{x}_i) = y_i\big)
        = 1 - E(f; D)

    Derived (with the identity :math:`\mathrm{acc} = 1 - E`) in ``chapters/error_rate_accuracy.ipynb``.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        The true labels :math:`y_i`: discrete labels of any number of classes (integers, booleans, finite
        floats or strings).
    y_pred : array-like of shape (m,)
        The predicted labels :math:`f(\boldsymbol{x}_i)`, of the same kind as ``y_true``.

    Returns
    -------
    float
        The number of samples with ``y_pred == y_true``, divided by m; in [0, 1].

    Raises
    ------
    ValueError
        As :func:`error_rate`.

    Notes
    -----
    Computed from the matches, as the first form of (2.5) reads, not as ``1 - error_rate``; the tests check
    the identity. Agrees with ``sklearn.metrics.accuracy_score`` (tests).

    Limits: as :func:`error_rate` (any m that fits in memory; pandas strings and ``Categorical`` accepted,
    masked entries refused).

    Examples
    --------
    >>> accuracy([0, 1, 2, 2], [0, 2, 2, 1])
    0.5
    >>> accuracy([True, False, True], [1, 0, 0])
    0.6666666666666666
    """
    t, p = _label_pair(y_true, y_pred)
    return int(np.count_nonzero(t == p)) / t.size
