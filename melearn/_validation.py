"""Input validation shared by every public function.

Each public function checks its input once, at the door, and raises :class:`ValueError` with a message that
names the offending argument. Nothing past the door re-checks, and nothing past the door may return a silent
NaN: an input that would make a formula undefined (one class only, zero pairs, ...) is refused here.
"""

from __future__ import annotations

import numbers
import operator

import numpy as np

__all__ = [
    "as_binary_labels",
    "as_finite_real",
    "as_finite_array",
    "as_rng",
    "check_open_unit",
    "check_positive_int",
    "check_same_length",
    "check_unit_interval",
    "require_both_classes",
]


def as_finite_array(x, name: str, *, ndim: int | None = 1, min_ndim: int = 0, dtype=np.float64) -> np.ndarray:
    """Return ``x`` as a non-empty, finite array of ``ndim`` dimensions (or, with ``ndim=None``, at least
    ``min_ndim``: a batch of experiments along leading axes).

    Raises
    ------
    ValueError
        If ``x`` is not numeric, has another number of dimensions, is empty, or holds NaN or inf.
    """
    raw = np.asarray(x)
    if raw.dtype.kind not in "biuf":  # strings, objects and complex numbers are not scores, even "0.5"
        raise ValueError(f"{name} must be numeric (bool, integer or real), got dtype {raw.dtype}")
    arr = raw.astype(dtype, copy=False)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    return arr


def as_binary_labels(y, name: str = "y_true") -> np.ndarray:
    """Return binary labels as a boolean array, ``True`` for the positive class.

    Labels may be given as {0, 1}, {-1, +1} or bool; the positive class is 1 / +1 / True. A label set such as
    {-1, 0} or {0, 1, 2} is refused, since which of its values is "positive" would be a guess.
    """
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype == bool:
        return arr.copy()
    if arr.dtype.kind not in "iuf":  # complex {0j, 1+0j} or strings are not labels
        raise ValueError(f"{name} must hold binary labels {{0, 1}}, {{-1, +1}} or bool, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    values = set(np.unique(arr).tolist())
    if not (values <= {0, 1} or values <= {-1, 1}):
        shown = sorted(values)[:5]
        raise ValueError(f"{name} must hold binary labels {{0, 1}}, {{-1, +1}} or bool, got values {shown}")
    return arr == 1


def require_both_classes(y: np.ndarray, name: str = "y_true") -> tuple[int, int]:
    """Return ``(m_pos, m_neg)`` for boolean labels, refusing a single class."""
    m_pos = int(np.count_nonzero(y))
    m_neg = int(y.size - m_pos)
    if m_pos == 0 or m_neg == 0:
        only = "positive" if m_neg == 0 else "negative"
        raise ValueError(f"{name} holds only {only} samples; both classes are needed")
    return m_pos, m_neg


def check_same_length(**arrays: np.ndarray) -> int:
    """Return the common length of the named arrays, or name the ones that differ."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"length mismatch: {shown}")
    return next(iter(lengths.values()))


def check_unit_interval(p, name: str) -> float:
    """Return ``p`` as a float in the closed interval [0, 1]."""
    value = as_finite_real(p, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return value


def check_open_unit(p, name: str) -> float:
    """Return ``p`` as a float in the open interval (0, 1), as a significance level or a null rate must be."""
    value = as_finite_real(p, name)
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}")
    return value


def check_positive_int(n, name: str, *, minimum: int = 1) -> int:
    """Return ``n`` as an ``int`` of at least ``minimum`` (booleans and non-integral floats are refused)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {_describe(n)}")
    value = operator.index(n)
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def as_rng(rng) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from a seed or a generator.

    ``None`` is refused on purpose: every random choice in this project is reproducible.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            raise ValueError(f"rng must be a non-negative integer seed or a numpy Generator, got {rng}")
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be an integer seed or a numpy.random.Generator, got {_describe(rng)}")


def as_finite_real(x, name: str) -> float:
    """Return ``x`` as a finite float; booleans, strings and non-real numbers are refused."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {_describe(x)}")
    value = float(x)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def _describe(x) -> str:
    text = repr(x)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(x).__name__} {text}"
