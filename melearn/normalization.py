r"""Min-max and z-score normalisation (规范化): formulas (2.43) and (2.44) of exercise 2.8.

The exercise writes :math:`x` and :math:`x'` for a variable before and after normalisation, :math:`x_{\min}`,
:math:`x_{\max}` for its smallest and largest value before, :math:`x'_{\min}`, :math:`x'_{\max}` for the smallest
and largest value wanted after, and :math:`\bar x`, :math:`\sigma_x` for its mean and standard deviation before:

.. math::

    x' = x'_{\min} + \frac{x - x_{\min}}{x_{\max} - x_{\min}} \times (x'_{\max} - x'_{\min}) \qquad (2.43)

    x' = \frac{x - \bar x}{\sigma_x} \qquad (2.44)

Both functions take the statistics (:math:`x_{\min}, x_{\max}` or :math:`\bar x, \sigma_x`) from ``reference``
(by default the data themselves) and apply the map to ``x``: that is how a model normalises new samples with the
statistics of its training set, and where the two methods differ (a new sample outside the old range). A 2-d
array is normalised column by column (one column per feature). The advantages and drawbacks of each are argued,
and each claim tested, on ``chapters/exercises/ex2_8.ipynb`` and in ``tests/melearn/test_normalization.py``.

Both maps are unchanged when the data are multiplied by a power of two, so they are computed on data scaled by
a power of two near their largest magnitude: no difference or square overflows, whatever the size of
the numbers.
"""

from __future__ import annotations

import numpy as np

from ._validation import as_finite_array, as_real, check_positive_int

__all__ = ["min_max_normalize", "z_score_normalize"]


def _data(x, name: str) -> np.ndarray:
    arr = as_finite_array(x, name, ndim=None, min_ndim=1)
    if arr.ndim > 2:
        raise ValueError(
            f"{name} must be 1-dimensional (one feature) or 2-dimensional (samples x features), got shape {arr.shape}"
        )
    return arr


def _pair(x, reference) -> tuple[np.ndarray, np.ndarray]:
    x = _data(x, "x")
    ref = x if reference is None else _data(reference, "reference")
    if ref.ndim != x.ndim or (x.ndim == 2 and ref.shape[1] != x.shape[1]):
        raise ValueError(f"reference must have the features of x: x has shape {x.shape}, reference {ref.shape}")
    return x, ref


def _finite_result(out: np.ndarray, also: str | None) -> np.ndarray:
    """``out`` when every normalised value is finite; else a ValueError naming the entry of ``x`` that overflows.

    The value of x there lies too far from the reference's range (or spread), relative to that range, for its
    normalised value to be a float: the message names ``x`` (and ``reference``, and ``also`` where given).
    """
    beyond = ~np.isfinite(out)
    if np.any(beyond):
        index = tuple(int(i) for i in np.argwhere(beyond)[0])
        where = f"x[{index[0]}]" if len(index) == 1 else f"x[{index[0]}, {index[1]}]"
        extra = f" and {also}" if also else ""
        raise ValueError(
            f"x: {where} normalises to a value too large to be represented as a float (above 1.8e308): it lies "
            f"too far outside reference's range for the result to be a float (x, reference{extra} decide it)"
        )
    return out


def _power_of_two_scale(ref: np.ndarray) -> np.ndarray:
    """Per feature, a power of two within a factor 2 of the largest magnitude of ``ref`` (1 for an all-zero one).

    Divided by it, every magnitude of ``ref`` is below 2 (2**1024 itself is beyond the float range, so the power
    is the one just below the largest magnitude, not above it).
    """
    largest = np.max(np.abs(ref), axis=0)
    _, exponent = np.frexp(largest)  # largest = mantissa * 2**exponent with mantissa in [0.5, 1)
    return np.ldexp(1.0, np.where(largest > 0, exponent - 1, 0))


def min_max_normalize(x, reference=None, *, feature_range=(0.0, 1.0)) -> np.ndarray:
    r"""Min-max normalisation, formula (2.43): map ``[x_min, x_max]`` of ``reference`` linearly onto ``feature_range``.

    Exercise 2.8; its advantages and drawbacks are argued on ``chapters/exercises/ex2_8.ipynb``.

    Parameters
    ----------
    x : array-like of shape (m,) or (m, d)
        The values to normalise (d features, one per column).
    reference : array-like of shape (n,) or (n, d), optional
        Where :math:`x_{\min}` and :math:`x_{\max}` are taken from (per feature); by default ``x`` itself.
    feature_range : pair of reals (low, high), low < high
        :math:`(x'_{\min}, x'_{\max})`, the range the reference is mapped onto.

    Returns
    -------
    numpy.ndarray
        :math:`x'` of (2.43), that is :math:`x'_{\min} + (x - x_{\min})\,r` with the ratio
        :math:`r = (x'_{\max} - x'_{\min}) / (x_{\max} - x_{\min})`, of the shape of ``x``. Values of ``x`` outside the
        reference's range land outside ``feature_range``.

    Raises
    ------
    ValueError
        If an array is empty, not numeric, holds NaN or inf, or has more than 2 dimensions; if the features of
        ``x`` and ``reference`` differ; if ``feature_range`` is not two finite reals with low < high; if a feature
        of ``reference`` is constant (:math:`x_{\max} = x_{\min}`: (2.43) is 0/0); or if a result is beyond the
        float range.

    Examples
    --------
    >>> min_max_normalize([2.0, 4.0, 6.0]).tolist()
    [0.0, 0.5, 1.0]
    >>> min_max_normalize([8.0], reference=[2.0, 4.0, 6.0]).tolist()  # a new sample beyond the old maximum
    [1.5]
    """
    x, ref = _pair(x, reference)
    try:
        low, high = feature_range
    except (TypeError, ValueError) as exc:
        raise ValueError(f"feature_range must be a pair (low, high), got {feature_range!r}") from exc
    low, high = as_real(low, "feature_range[0]"), as_real(high, "feature_range[1]")
    if not low < high:
        raise ValueError(f"feature_range must have low < high, got ({low!r}, {high!r})")
    scale = _power_of_two_scale(ref)
    rs = ref / scale  # exact: a power of two
    lo, hi = np.min(rs, axis=0), np.max(rs, axis=0)
    if np.any(hi == lo):
        raise ValueError("reference has a constant feature (x_max = x_min), for which (2.43) is 0/0")
    width = high - low
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # a value beyond the range is refused below
        # halves: neither the span of the data nor that of the target range can overflow
        unit = (x / scale / 2 - lo / 2) / (hi / 2 - lo / 2)
        if np.isfinite(width):
            out = low + unit * width
        else:  # a target range wider than the float range
            out = 2 * (low / 2 + unit * (high / 2 - low / 2))
        overflowed = ~np.isfinite(out)
        if np.any(overflowed):
            # an intermediate overflowed (x / scale, the unit or its product with the width): take the product
            # (x/2 - x_min/2) (high/2 - low/2) / ((x_max - x_min)/2) by mantissas and exponents, so that only a
            # result beyond the float range is inf
            term = _product_ratio(x / 2 - (lo * scale) / 2, high / 2 - low / 2, (hi / 2 - lo / 2), scale, 1)
            out = np.where(overflowed, _plus(low, term), out)
    return _finite_result(out, "feature_range")


def _product_ratio(a, b, c, scale, shift: int) -> np.ndarray:
    """``a * b / (c * scale) * 2**shift`` without overflow or underflow in between (``scale`` a power of two).

    Each factor is split into a mantissa in [0.5, 1) and an exponent (exact); the mantissas are combined (their
    product and quotient lie in [0.25, 2]) and the exponents added, so the result is inf only when it is itself
    beyond the float range.
    """
    ma, ea = np.frexp(a)
    mb, eb = np.frexp(b)
    mc, ec = np.frexp(c)
    _, es = np.frexp(scale)  # scale = 2**(es - 1)
    return np.ldexp(ma * mb / mc, ea + eb - ec - (es - 1) + shift)


def _plus(low: float, term: np.ndarray) -> np.ndarray:
    """``low + term``, taken as ``2 (low/2 + term/2)`` where ``term`` alone is beyond the float range."""
    out = low + term
    half = np.ldexp(np.frexp(term)[0], np.frexp(term)[1] - 1)  # term / 2, exact, even when term itself overflowed
    return np.where(np.isfinite(out), out, 2 * (low / 2 + half))


def z_score_normalize(x, reference=None, *, ddof=0) -> np.ndarray:
    r"""z-score normalisation, formula (2.44): subtract the mean of ``reference``, divide by its standard deviation.

    Exercise 2.8; its advantages and drawbacks are argued on ``chapters/exercises/ex2_8.ipynb``.

    Parameters
    ----------
    x : array-like of shape (m,) or (m, d)
        The values to normalise (d features, one per column).
    reference : array-like of shape (n,) or (n, d), optional
        Where :math:`\bar x` and :math:`\sigma_x` are taken from (per feature); by default ``x`` itself.
    ddof : int, default 0
        The divisor of :math:`\sum (x_i - \bar x)^2` is :math:`n - \mathrm{ddof}`: 0 for the standard deviation
        of the data as a population, 1 for the sample standard deviation. The exercise does not say which.

    Returns
    -------
    numpy.ndarray
        :math:`x' = (x - \bar x) / \sigma_x`, of the shape of ``x``.

    Raises
    ------
    ValueError
        If an array is empty, not numeric, holds NaN or inf, or has more than 2 dimensions; if the features of
        ``x`` and ``reference`` differ; if ``ddof`` is not an integer in [0, n); if a feature of ``reference`` is
        constant (:math:`\sigma_x = 0`: (2.44) is 0/0); or if a result is beyond the float range.

    Examples
    --------
    >>> z_score_normalize([2.0, 4.0, 6.0, 8.0]).round(6).tolist()
    [-1.341641, -0.447214, 0.447214, 1.341641]
    """
    x, ref = _pair(x, reference)
    n = ref.shape[0]
    ddof = check_positive_int(
        ddof, "ddof", minimum=0, maximum=n - 1, why=f"the reference has {n} samples and n - ddof must be positive"
    )
    scale = _power_of_two_scale(ref)
    rs = ref / scale  # exact: a power of two; now every |value| < 2
    mean = np.mean(rs, axis=0)
    sd = np.sqrt(np.sum((rs - mean) ** 2, axis=0) / (n - ddof))
    # a constant feature: every deviation is zero (sd can be a rounding residue of the mean, so compare values)
    constant = np.all(rs == rs[0], axis=0)
    if np.any(constant):
        raise ValueError("reference has a constant feature (sigma_x = 0), for which (2.44) is 0/0")
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # beyond the float range: refused below
        out = (x / scale - mean) / sd
        overflowed = ~np.isfinite(out)
        if np.any(overflowed):  # x / scale overflowed: (x/2 - mean/2) / sd by mantissas and exponents
            term = _product_ratio(x / 2 - (mean * scale) / 2, np.ones_like(sd), sd, scale, 1)
            out = np.where(overflowed, term, out)
    return _finite_result(out, None)
