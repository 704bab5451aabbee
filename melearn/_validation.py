"""Input validation shared by every public function: one policy, one message format.

Each public function checks its input once, at the door, and raises :class:`ValueError` with a message that
starts with (or names) the offending argument. Nothing past the door re-checks, and nothing past the door may
return a silent NaN or inf: an input that would make a formula undefined (one class only, zero pairs, ...) or a
result that cannot be represented is refused with a message that says so.

The policy
----------
* **Numbers** are Python or numpy integers and reals (``fractions.Fraction`` too). Booleans, strings (even
  ``"0.5"``), ``None`` and complex numbers are refused: a flag or a text is not a number. An integer too large for
  a float is refused where a float is needed, with a message saying so; counts stay Python integers of any size.
* **Flags** (``correction``) are ``True`` or ``False`` (or numpy booleans); the string ``"False"`` is refused.
* **Choices** (``method``, ``numerator``) are one of the listed strings.
* **Arrays** may be lists, tuples, numpy arrays, pandas ``Series``/``Index``/``DataFrame`` (any dtype pandas
  offers, including its string dtype and ``Categorical``) and numpy masked arrays *without* masked entries. A
  masked array with masked entries is refused: dropping the mask would silently score the masked samples. A
  ragged nested list is refused with a message naming the argument. Missing values (``None``, ``pd.NA``, NaN)
  are refused.
* **Labels** (discrete classes) are numbers, booleans or strings; **binary labels** are {0, 1}, {-1, +1} or bool.
  Text (``str``) and bytes are different kinds, as strings and numbers are: ``b"a" != "a"`` in Python, so two
  label arrays of different kinds are refused rather than compared (every sample would silently differ).
* **Booleans are not numbers.** A boolean (or an array of them, or a list mixing them with numbers) passed where
  a number is expected (scores, error rates, data, coordinates) is refused by name; as a label it is a label
  (``True == 1`` as in Python).
* **Exact comparison** (:func:`exact_comparable`, the one rule behind every ranking, label and counting
  function): values are compared as Python compares them. Integers of any size compare exactly (int64 when they
  fit, else exact Python integers: 2**53 + 1 differs from 2**53 and from ``2.0**53``); floats compare as floats;
  a mix of floats and integers or fractions that float64 cannot hold is kept as Python numbers (compared
  exactly, never rounded first); long double values compare as long double unless float64 holds them exactly,
  and are refused where they would have to be compared with another kind that long double cannot hold. The
  decision is taken on the exact values, never after a conversion to float.
* **Error rates** lie in [0, 1] and **differences of error rates** in [-1, 1] (:func:`as_error_rates`,
  :func:`as_error_differences`): every test of error rates refuses values outside, by name.
"""

from __future__ import annotations

import numbers
import operator
from fractions import Fraction

import numpy as np

__all__ = [
    "as_array",
    "as_binary_labels",
    "as_bool",
    "as_choice",
    "as_error_differences",
    "as_error_rates",
    "as_exact_array",
    "as_finite_array",
    "as_finite_real",
    "as_label_arrays",
    "as_labels",
    "as_order_array",
    "as_real",
    "as_rng",
    "as_unit_array",
    "check_nonnegative_real",
    "check_open_unit",
    "check_positive_real",
    "check_positive_int",
    "checked_isf",
    "as_fractions",
    "exact_comparable",
    "exact_float",
    "fits_float",
    "check_real_interval",
    "check_same_length",
    "check_unit_interval",
    "is_string_labels",
    "require_both_classes",
    "require_finite_result",
]

_NUMERIC_KINDS = frozenset("biuf")
_STRING_KINDS = frozenset("US")


# -- arrays --------------------------------------------------------------------------------------------------
def _is_bool(x) -> bool:
    return isinstance(x, (bool, np.bool_))


def _not_a_number(x) -> bool:
    """Whether a scalar is refused as a number: a boolean, or a numpy duration or date.

    numpy's ``timedelta64`` derives from its signed integers, so it passes ``isinstance(x, numbers.Integral)``;
    but 10 seconds is not the count 10.
    """
    return isinstance(x, (bool, np.bool_, np.timedelta64, np.datetime64))


def _objects_to_array(arr: np.ndarray, name: str) -> np.ndarray:
    """Give an object array (pandas strings, Categorical values, huge Python ints, mixed input) a proper dtype.

    All strings -> str; all bytes -> bytes; all booleans -> bool; all integers -> int64 when they fit, else left
    as Python ints (exact labels, scores or counts); all reals -> float64 when float64 holds every one of them
    exactly, else left as Python numbers (compared exactly: see :func:`exact_comparable`). Anything else (``None``,
    ``pd.NA``, mixed strings and numbers, nested objects) is refused.
    """
    flat = arr.ravel().tolist()
    if not flat:
        return arr.astype(np.float64)
    if all(isinstance(v, str) for v in flat):
        return arr.astype(str)
    if all(isinstance(v, bytes) for v in flat):
        return arr.astype(bytes)
    if all(_is_bool(v) for v in flat):
        return arr.astype(bool)
    if all(isinstance(v, numbers.Real) and not _not_a_number(v) for v in flat):
        if all(isinstance(v, numbers.Integral) for v in flat):
            try:
                return arr.astype(np.int64)
            except OverflowError:
                return arr  # Python integers beyond int64: kept exact
        if all(_float_holds(v) for v in flat):
            return _to_float(arr, name)
        return arr  # integers beyond 2**53 (or fractions) among floats: kept exact, never rounded to tie
    missing = next((v for v in flat if v is None or _is_missing(v)), _NOTHING)
    if missing is not _NOTHING:
        raise ValueError(f"{name} contains a missing value ({missing!r}); drop or fill it first")
    kinds = sorted({type(v).__name__ for v in flat})
    raise ValueError(f"{name} must hold numbers (or, for labels, strings of one kind), got elements of type {kinds}")


def _float_holds(v) -> bool:
    """Whether float64 holds the real number ``v`` exactly (decided on ``v`` itself, not on a rounded copy)."""
    if isinstance(v, float) or (isinstance(v, np.floating) and v.dtype.itemsize <= 8):
        return True
    if isinstance(v, numbers.Integral):
        return -(2**53) <= int(v) <= 2**53
    try:
        return bool(float(v) == v)  # Python compares a float with a long double or a Fraction exactly
    except OverflowError:
        return False


_NOTHING = object()


def _is_missing(v) -> bool:
    try:
        return bool(v != v)  # NaN and pandas' NA (whose comparison raises) are missing
    except TypeError:
        return True


def _to_float(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` as float64; an integer too large for a float is refused, not turned into inf."""
    try:
        out = arr.astype(np.float64)
    except OverflowError as exc:
        raise ValueError(f"{name} holds an integer too large to be represented as a float (above 1.8e308)") from exc
    if arr.dtype.kind == "f" and out.dtype != arr.dtype:  # float128 or float16: overflow shows as new infs
        if np.any(np.isinf(out) & np.isfinite(arr)):
            raise ValueError(f"{name} holds a value too large to be represented as a float64 (above 1.8e308)")
    return out


def as_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a numpy array under the policy above, before any dtype or shape check.

    pandas objects are unwrapped (``to_numpy``), masked arrays refused when anything is masked, ragged input refused
    with a message naming ``name``, and object arrays given a proper dtype (:func:`_objects_to_array`).
    """
    if isinstance(x, np.ma.MaskedArray):
        if np.ma.getmaskarray(x).any():
            raise ValueError(
                f"{name} is a masked array with masked entries: melearn does not silently use or drop them; pass "
                f"{name}.compressed() (and the same samples of the other arguments) or {name}.filled(value)"
            )
        x = np.ma.getdata(x)
    elif not isinstance(x, np.ndarray) and hasattr(x, "to_numpy") and callable(x.to_numpy):
        if _is_mixed_frame(x):
            return _frame_by_columns(x, name)
        try:
            x = x.to_numpy()  # pandas Series, Index, DataFrame, Categorical, extension arrays
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:  # numpy refuses ragged nested sequences
        raise ValueError(
            f"{name} must be a rectangular array: its rows have different lengths or it mixes numbers and sequences"
        ) from exc
    if arr.dtype.kind == "f" and isinstance(x, (list, tuple)) and arr.size and _may_hide_integers(arr):
        # numpy turned a list mixing Python integers and floats into float64, rounding integers beyond 2**53:
        # read the list again as Python objects, so that the exact values decide
        arr = np.asarray(x, dtype=object)
    if arr.dtype == object:
        arr = _objects_to_array(arr, name)
    return arr


def _is_mixed_frame(x) -> bool:
    """Whether ``x`` is a table (a pandas ``DataFrame``) whose columns have more than one dtype."""
    dtypes = getattr(x, "dtypes", None)
    if dtypes is None or not hasattr(dtypes, "tolist") or getattr(x, "ndim", 0) != 2:
        return False
    return len({str(d) for d in dtypes.tolist()}) > 1


def _frame_by_columns(frame, name: str) -> np.ndarray:
    """A table of mixed column dtypes read column by column, before any conversion to one dtype.

    pandas' ``to_numpy`` would first convert every column to one common dtype (int64 and float64 meet in float64,
    rounding integers beyond 2**53; uint64 and int64 meet in float64 too), so that equal-looking values would tie
    and counts would turn into floats. Each column is validated on its own, under the name ``name[column]``, and
    the columns are put side by side as the exact Python numbers they hold (:func:`_objects_to_array` then gives
    the table the narrowest dtype that holds every value exactly).
    """
    columns = [as_array(frame.iloc[:, j], f"{name}[{label!r}]") for j, label in enumerate(frame.columns)]
    if len({c.dtype for c in columns}) == 1:
        return np.stack(columns, axis=1)
    table = np.empty((len(frame), len(columns)), dtype=object)
    for j, column in enumerate(columns):
        table[:, j] = list(column) if column.dtype.kind == "f" and column.dtype.itemsize > 8 else column.tolist()
    return _objects_to_array(table, name)


def _may_hide_integers(arr: np.ndarray) -> bool:
    """Whether a float array built from a list may hold rounded integers: some magnitude is 2**53 or more."""
    with np.errstate(invalid="ignore"):
        return bool(np.any(np.abs(arr) >= 2.0**53))


def _refuse_booleans(x, arr: np.ndarray, name: str) -> None:
    """Booleans are not numbers: refuse a boolean array, or a list in which numpy turned booleans into numbers."""
    hint = f"; pass {name} as the integers 0 and 1 if that is meant"
    if arr.dtype == bool:
        raise ValueError(f"{name} holds booleans, and booleans are not numbers{hint}")
    if isinstance(x, (list, tuple)) and _holds_boolean(x):
        raise ValueError(f"{name} mixes booleans with numbers, and booleans are not numbers{hint}")


def _holds_boolean(x) -> bool:
    for v in x:
        if _is_bool(v) or (isinstance(v, (list, tuple)) and _holds_boolean(v)):
            return True
    return False


def _object_finite(arr: np.ndarray) -> bool:
    """Whether an object array of Python numbers holds no NaN or inf (compared exactly, not converted)."""
    return all(not isinstance(v, (float, np.floating)) or np.isfinite(v) for v in arr.ravel().tolist())


def as_finite_array(x, name: str, *, ndim: int | None = 1, min_ndim: int = 0, dtype=np.float64) -> np.ndarray:
    """Return ``x`` as a non-empty, finite float array of ``ndim`` dimensions.

    With ``ndim=None`` the array needs at least ``min_ndim`` dimensions: a batch of experiments along leading axes.

    Raises
    ------
    ValueError
        If ``x`` is not numeric (strings, even "0.5", and booleans are refused), has another number of
        dimensions, is empty, is ragged or masked, holds NaN or inf, or holds an integer too large for a float.
    """
    raw = as_array(x, name)
    if raw.dtype.kind not in _NUMERIC_KINDS and raw.dtype != object:  # object here: exact Python numbers
        raise ValueError(f"{name} must be numeric (integer or real), got dtype {raw.dtype}")
    _refuse_booleans(x, raw, name)
    arr = _to_float(raw, name) if raw.dtype != dtype else raw
    arr = arr.astype(dtype, copy=False)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    return arr


def exact_comparable(arr: np.ndarray) -> np.ndarray:
    """The one rule for exact comparison: ``arr`` in a dtype in which numpy compares as Python compares the inputs.

    Integers (int64, uint64, or Python integers of any size in an object array) and exact Python numbers (an
    object array mixing floats with integers or fractions that float64 cannot hold) are returned unchanged:
    numpy compares them exactly (object arrays through Python's own comparisons). Floats of at most 64 bits
    become float64 (exact). Long double values become float64 when float64 holds every one of them exactly, and
    stay long double otherwise (compared without rounding). Strings and bytes are returned unchanged.
    """
    if arr.dtype.kind != "f":
        return arr
    if arr.dtype.itemsize <= 8:
        return arr.astype(np.float64, copy=False)
    with np.errstate(over="ignore"):
        as64 = arr.astype(np.float64)
    return as64 if np.array_equal(as64.astype(arr.dtype), arr) else arr


def as_exact_array(x, name: str, *, ndim: int | None = 1) -> np.ndarray:
    """Validate a non-empty, finite numeric array and return it exact, as :func:`exact_comparable` gives it.

    Booleans, strings, NaN and inf are refused by name; integers of any size and long double values are kept
    exact (nothing is rounded to float64 here).
    """
    raw = as_array(x, name)
    if raw.dtype.kind not in _NUMERIC_KINDS and raw.dtype != object:
        raise ValueError(f"{name} must be numeric (integer or real), got dtype {raw.dtype}")
    _refuse_booleans(x, raw, name)
    if ndim is not None and raw.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty")
    exact = exact_comparable(raw)
    if exact.dtype == object:
        if not _object_finite(exact):
            raise ValueError(f"{name} contains NaN or inf")
    elif exact.dtype.kind == "f" and not np.all(np.isfinite(exact)):
        raise ValueError(f"{name} contains NaN or inf")
    return exact


def as_fractions(arr: np.ndarray) -> list:
    """The entries of an exact array as exact fractions (nested lists for more than one dimension).

    Integers of any size, floats and long double values (through their ``as_integer_ratio``, so no bit of a long
    double is lost) become :class:`fractions.Fraction`; the route of the functions whose inputs float64 cannot
    hold (:func:`fits_float`), taken before any rounding.
    """

    def one(v):
        if isinstance(v, np.floating):
            return Fraction(*v.as_integer_ratio())
        return Fraction(v)

    def each(values):
        return [each(v) if isinstance(v, list) else one(v) for v in values]

    values = list(arr) if arr.dtype.kind == "f" and arr.dtype.itemsize > 8 else arr.tolist()
    if arr.ndim > 1:
        values = [as_fractions(np.asarray(row)) for row in arr]
    return each(values)


def exact_float(value: Fraction, what: str) -> float:
    """An exact result rounded once to the nearest float; beyond the float range a ValueError saying ``what``."""
    try:
        return float(value)
    except OverflowError as exc:
        raise ValueError(f"{what} is too large to be represented as a float (above 1.8e308)") from exc


def fits_float(arr: np.ndarray) -> bool:
    """Whether float64 holds every entry of an exact array (tested on the exact values, not on rounded ones)."""
    if arr.dtype == np.float64 or arr.dtype == bool:
        return True
    if arr.dtype.kind in "iu":
        return bool(arr.min() >= -(2**53) and arr.max() <= 2**53)
    return False  # long double that float64 cannot hold, or exact Python numbers


def as_order_array(x, name: str, *, ndim: int | None = 1) -> tuple[np.ndarray, np.ndarray | None]:
    """Validate an array whose *order* matters (scores, errors to rank); return ``(keys, values)``.

    The order is the exact one (:func:`exact_comparable`): as floats, 2**53 and 2**53 + 1 would tie, and so
    would long double values 1 and 1 + 2**-60. When float64 holds every input exactly (floats, integers within
    2**53), ``keys`` is that float array and ``values`` is ``None``. Otherwise ``keys`` are the exact dense ranks
    (0, 1, ... in increasing order, equal values sharing one) as floats and ``values`` the distinct inputs in
    increasing order, exact (int64, long double, or Python numbers), so that ``values[keys]`` recovers the
    inputs. Integers too large for a float are ranked exactly rather than refused. Booleans are refused.
    """
    exact = as_exact_array(x, name, ndim=ndim)
    if fits_float(exact):
        return exact.astype(np.float64, copy=False), None
    distinct, inverse = np.unique(exact.ravel(), return_inverse=True)
    return inverse.reshape(exact.shape).astype(np.float64), distinct


def as_unit_array(x, name: str) -> np.ndarray:
    """A probability or a rate: a non-empty float array (0-d allowed) with every entry finite and in [0, 1].

    A bare boolean is refused (it is not a probability); booleans inside an array are refused too.
    """
    arr = as_array(x, name)
    if arr.dtype.kind not in "iuf" and arr.dtype != object:
        raise ValueError(f"{name} must be a number in [0, 1] or an array of them, got dtype {arr.dtype}")
    _refuse_booleans(x, arr, name)
    arr = _to_float(arr, name)
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    outside = (arr < 0) | (arr > 1)
    if np.any(outside):
        raise ValueError(f"{name} must lie in [0, 1], got {float(arr[outside].flat[0])!r}")
    return arr


def _within(arr: np.ndarray, name: str, low: float, high: float, what: str) -> np.ndarray:
    """``arr`` when every entry lies in [low, high]; else a ValueError naming ``name`` and the first outsider."""
    outside = (arr < low) | (arr > high)
    if np.any(outside):
        raise ValueError(f"{name} must hold {what}, got {float(arr[outside].flat[0])!r}")
    return arr


def as_error_rates(x, name: str, **kwargs) -> np.ndarray:
    """Error rates: :func:`as_finite_array` with every entry in [0, 1] (the one range policy for error rates)."""
    return _within(as_finite_array(x, name, **kwargs), name, 0.0, 1.0, "error rates in [0, 1]")


def as_error_differences(x, name: str, **kwargs) -> np.ndarray:
    """Differences of two error rates: :func:`as_finite_array` with every entry in [-1, 1] (the one policy)."""
    arr = as_finite_array(x, name, **kwargs)
    return _within(arr, name, -1.0, 1.0, "differences of error rates, in [-1, 1]")


def as_labels(y, name: str) -> np.ndarray:
    """Return discrete class labels as a non-empty 1-d array of numbers, booleans or strings.

    pandas' string dtype and ``Categorical`` are accepted (as their values); integers beyond int64 stay exact
    Python integers.

    Raises
    ------
    ValueError
        If ``y`` is not 1-dimensional, is empty, is ragged or masked, holds NaN, inf or a missing value, or has a
        dtype that is neither numeric, boolean nor string (complex numbers, dates, mixed objects).
    """
    arr = as_array(y, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype.kind not in _NUMERIC_KINDS | _STRING_KINDS and arr.dtype != object:
        raise ValueError(f"{name} must hold labels that are numbers, booleans or strings, got dtype {arr.dtype}")
    if (arr.dtype.kind == "f" and not np.all(np.isfinite(arr))) or (arr.dtype == object and not _object_finite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    return arr


def _label_kind(arr: np.ndarray) -> str:
    return {"U": "text (str)", "S": "bytes"}.get(arr.dtype.kind, "numbers")


def as_label_arrays(**named) -> list[np.ndarray]:
    """Validate label arrays that are compared with each other; return them in dtypes that compare exactly.

    Each is validated by :func:`as_labels`. They must be of one kind: text, bytes or numbers (booleans count as
    numbers, ``True == 1``); ``"a"`` never equals ``b"a"`` or a number, so a mix is refused rather than scored as
    all different. Numbers follow :func:`exact_comparable`; when two arrays' dtypes would meet in float64 (an
    integer beyond 2**53 against a float: numpy would round the integer, Python does not), both become arrays of
    Python numbers, compared exactly. Long double values that float64 cannot hold are compared as long double
    with floats and integers within 2**53, and refused against anything else.
    """
    arrays = {name: as_labels(y, name) for name, y in named.items()}
    kinds = {name: _label_kind(a) for name, a in arrays.items()}
    if len(set(kinds.values())) > 1:
        names = " and ".join(kinds)
        shown = ", ".join(f"{kind} in {name}" for name, kind in kinds.items())
        raise ValueError(
            f"{names} must hold labels of one kind, got {shown}: a string never equals a number, nor text its "
            "bytes, so every sample would silently count as different"
        )
    if next(iter(kinds.values())) != "numbers":
        return list(arrays.values())
    exact = {name: exact_comparable(a) for name, a in arrays.items()}
    dtypes = {a.dtype for a in exact.values()}
    if len(dtypes) == 1 or all(dt.kind in "bi" and dt.itemsize <= 8 for dt in dtypes):
        return list(exact.values())  # one dtype, or booleans and int64 only: numpy compares exactly
    long_double = [name for name, a in exact.items() if a.dtype.kind == "f" and a.dtype.itemsize > 8]
    if long_double:
        others = [name for name in exact if name not in long_double and not fits_float(exact[name])]
        if others:
            raise ValueError(
                f"{long_double[0]} holds long double values that float64 cannot hold, and {others[0]} holds "
                f"values of dtype {exact[others[0]].dtype} that long double cannot hold exactly: comparing them "
                "would round; pass both as long double, or both as Python integers"
            )
        return [a.astype(np.longdouble) for a in exact.values()]
    if all(fits_float(a) for a in exact.values()):
        return [a.astype(np.float64, copy=False) for a in exact.values()]
    return [_as_python_numbers(a) for a in exact.values()]


def _as_python_numbers(arr: np.ndarray) -> np.ndarray:
    out = np.empty(arr.shape, dtype=object)
    out[...] = arr.tolist()  # Python ints and floats, compared as Python compares them
    return out


def is_string_labels(arr: np.ndarray) -> bool:
    """Whether validated labels are strings (as opposed to numbers or booleans)."""
    return arr.dtype.kind in _STRING_KINDS


def as_binary_labels(y, name: str = "y_true") -> np.ndarray:
    """Return binary labels as a boolean array, ``True`` for the positive class.

    Labels may be given as {0, 1}, {-1, +1} or bool; the positive class is 1 / +1 / True. A label set such as
    {-1, 0} or {0, 1, 2} is refused, since which of its values is "positive" would be a guess.
    """
    arr = as_array(y, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype == bool:
        return arr.copy()
    if arr.dtype.kind not in "iuf" and arr.dtype != object:  # complex {0j, 1+0j} or strings are not labels
        raise ValueError(f"{name} must hold binary labels {{0, 1}}, {{-1, +1}} or bool, got dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf")
    if not _binary_label_values(arr):
        shown = sorted(set(np.unique(arr).tolist()))[:5]  # the refusal only: the distinct values, to show them
        raise ValueError(f"{name} must hold binary labels {{0, 1}}, {{-1, +1}} or bool, got values {shown}")
    return np.asarray(arr == 1, dtype=bool)


def _binary_label_values(arr: np.ndarray) -> bool:
    """Whether the values of ``arr`` lie within {0, 1} or within {-1, 1}: decided in linear time, without sorting.

    Integers: their minimum and maximum decide, with one count of zeros when both -1 and 1 may occur. Floats: two
    comparisons per sample (a minimum and maximum of 0 and 1 would also pass 0.5). Python objects (integers beyond
    int64): as a set.
    """
    if arr.dtype.kind in "iu":
        low, high = arr.min(), arr.max()
        if low >= 0:
            return bool(high <= 1)
        return bool(low >= -1 and high <= 1 and not np.any(arr == 0))
    if arr.dtype.kind == "f":
        positive = arr == 1
        if np.all(positive | (arr == 0)):
            return True
        return bool(np.all(positive | (arr == -1)))
    values = set(arr.tolist())
    return values <= {0, 1} or values <= {-1, 1}


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


# -- scalars ---------------------------------------------------------------------------------------------------
def _describe(x) -> str:
    text = repr(x)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(x).__name__} {text}"


def _scalar(x):
    """Unwrap a 0-d numpy array into its scalar, so that ``np.array(0.5)`` counts as the number 0.5."""
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "biuf":
        return x[()]
    return x


def as_real(x, name: str) -> float:
    """Return ``x`` as a finite float; booleans, strings (even ``"0.5"``), None and complex numbers are refused.

    An integer (or fraction) too large for a float is refused with a message saying so, not turned into inf.
    """
    x = _scalar(x)
    if _not_a_number(x) or not isinstance(x, numbers.Real):
        hint = " (numeric strings are not converted)" if isinstance(x, (str, bytes)) else ""
        raise ValueError(f"{name} must be a real number, got {_describe(x)}{hint}")
    try:
        value = float(x)
    except OverflowError as exc:
        raise ValueError(
            f"{name} is too large to be represented as a float (above 1.8e308), got {_describe(x)}"
        ) from exc
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


as_finite_real = as_real  # the former name, kept for callers


def check_real_interval(x, name: str, low: float, high: float, *, closed: str = "neither") -> float:
    """Return ``x`` as a float in the interval from ``low`` to ``high``.

    ``closed`` is "neither", "both", "left" or "right": which ends belong to the interval.
    """
    value = as_real(x, name)
    left_ok = value >= low if closed in ("both", "left") else value > low
    right_ok = value <= high if closed in ("both", "right") else value < high
    if not (left_ok and right_ok):
        if closed == "neither":
            raise ValueError(f"{name} must lie strictly between {low:g} and {high:g}, got {value!r}")
        lb = "[" if closed in ("both", "left") else "("
        rb = "]" if closed in ("both", "right") else ")"
        raise ValueError(f"{name} must lie in {lb}{low:g}, {high:g}{rb}, got {value!r}")
    return value


def check_positive_real(x, name: str) -> float:
    """Return ``x`` as a finite float greater than 0 (a weight such as ``beta``, a width such as ``cd``)."""
    value = as_real(x, name)
    if not value > 0.0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return value


def check_nonnegative_real(x, name: str) -> float:
    """Return ``x`` as a finite float of at least 0 (a cost)."""
    value = as_real(x, name)
    if value < 0.0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")
    return value


def check_unit_interval(p, name: str) -> float:
    """Return ``p`` as a float in the closed interval [0, 1]."""
    value = as_real(p, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return value


def check_open_unit(p, name: str, *, minimum: float = 0.0, maximum: float = 1.0) -> float:
    """Return ``p`` as a float in the open interval (0, 1), as a significance level or a null rate must be.

    ``minimum`` (> 0) and ``maximum`` (< 1) bound the values whose result the caller can vouch for (accuracy
    limits of a special function); a ``p`` beyond them is refused with a message saying so.
    """
    value = as_real(p, name)
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}")
    if value < minimum:
        raise ValueError(
            f"{name} = {value!r} is below {minimum:g}, the smallest value for which the result is accurate "
            "(the special function behind it loses its accuracy there)"
        )
    if value > maximum:
        raise ValueError(
            f"{name} = {value!r} is above {maximum!r}, the largest value for which the result is accurate "
            "(the special function behind it loses its accuracy there)"
        )
    return value


def check_positive_int(n, name: str, *, minimum: int = 1, maximum: int | None = None, why: str = "") -> int:
    """Return ``n`` as an ``int`` of at least ``minimum`` (and at most ``maximum``, whose reason is ``why``).

    Booleans, strings and non-integral numbers (even 2.0) are refused; integers of any size are accepted below
    ``maximum``.
    """
    n = _scalar(n)
    if _not_a_number(n) or not isinstance(n, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {_describe(n)}")
    value = operator.index(n)
    if value < minimum:
        bound = "non-negative" if minimum == 0 else f"at least {minimum}"  # as check_nonnegative_real says it
        raise ValueError(f"{name} must be {bound}, got {_show_int(value)}")
    if maximum is not None and value > maximum:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be at most {maximum:,}{reason}, got {_show_int(value)}")
    return value


def _show_int(value: int) -> str:
    """An integer for a message: in full when short, else its size (str() of a huge int is itself refused)."""
    if value.bit_length() < 100:
        return f"{value:,}" if abs(value) >= 10**6 else str(value)
    return f"an integer of about {int(value.bit_length() * 0.30103)} digits"


def as_bool(x, name: str) -> bool:
    """Return a flag: ``True`` or ``False`` (numpy booleans too); strings such as ``"False"`` and 0/1 are refused."""
    x = _scalar(x)
    if not _is_bool(x):
        raise ValueError(f"{name} must be True or False, got {_describe(x)}")
    return bool(x)


def as_choice(x, name: str, choices: tuple[str, ...]) -> str:
    """Return ``x`` if it is one of the strings ``choices``; anything else (other strings, arrays) is refused."""
    if not isinstance(x, str) or x not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {shown}, got {_describe(x)}")
    return x


def as_rng(rng) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from a seed or a generator.

    ``None`` is refused on purpose: every random choice in this project is reproducible. Seeds are non-negative
    integers of any size.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    rng = _scalar(rng)
    if isinstance(rng, numbers.Integral) and not _not_a_number(rng):
        if rng < 0:
            raise ValueError(f"rng must be a non-negative integer seed or a numpy Generator, got {rng}")
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be an integer seed or a numpy.random.Generator, got {_describe(rng)}")


# -- results ---------------------------------------------------------------------------------------------------
def require_finite_result(value, what: str):
    """Return ``value`` if every entry is finite; else refuse: the true result is beyond the float range.

    Called where an algorithm that avoids overflow in its intermediate results still meets a result that no float
    can hold, so that the caller sees a ``ValueError`` that says so rather than a silent inf.
    """
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{what} is too large to be represented as a float (above 1.8e308)")
    return value


def checked_isf(distribution, alpha: float, *args, name: str = "alpha", rtol: float = 1e-6) -> float:
    """The upper ``alpha`` quantile of a SciPy distribution, checked by a round trip through its survival function.

    ``distribution.isf(alpha, *args)`` is accepted only if it is finite and ``distribution.sf`` of it gives
    ``alpha`` back to a relative ``rtol`` (for ``alpha > 1/2``, ``distribution.cdf`` gives ``1 - alpha`` back: the
    smaller tail is compared, so that a quantile near the bottom of the distribution is checked too). Otherwise the
    level is beyond what the special function resolves, and a ``ValueError`` naming ``name`` says so (rather than
    returning a search bracket or inf as the quantile).
    """
    q = float(distribution.isf(alpha, *args))
    if alpha <= 0.5:  # compare the smaller tail, relatively: near alpha = 1 the lower tail 1 - alpha is what is small
        target, back = alpha, float(distribution.sf(q, *args)) if np.isfinite(q) else np.nan
    else:
        target, back = 1.0 - alpha, float(distribution.cdf(q, *args)) if np.isfinite(q) else np.nan
    if not (np.isfinite(q) and abs(back - target) <= rtol * target):
        raise ValueError(
            f"{name} = {alpha!r} is too {'small' if alpha <= 0.5 else 'close to 1'} for an accurate critical value "
            f"here: the quantile {q!r} does not give {name} back through the distribution function"
        )
    return q
