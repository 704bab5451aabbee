"""The calls that drive every public numeric function at its edges, and the contract each call is held to.

Huge and tiny floats, subnormals, huge integers, empty, constant, ragged, pandas and masked input, one strategy per
public name (``STRATEGIES``), and ``run``, which holds a call to the contract: the function returns a correct value
(checked against an independent route: Python integers and fractions, mpmath) with no NaN or inf except where
documented, or it raises ``ValueError`` or ``TypeError`` whose message names one of its arguments; never another
exception type, and never more than ``TIME_LIMIT`` seconds on inputs of at most ``MAX_LEN`` elements. The time limits
count the test process's own CPU time (``time.process_time``), not the wall clock: ``make test`` runs these tests at a
lower priority beside the builds, where a call waits for a core for seconds (a 100 000-class call once took 9 s of
wall time that way). Used by ``test_edges.py`` (the contract for every name), ``test_edges_pinned.py`` (examples and
bounds pinned) and ``test_edges_exact.py`` (exact inputs, one policy, the Limits corners).
"""

from __future__ import annotations

import inspect
import math
import re
import time
from fractions import Fraction

import mpmath
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import melearn

DERIVATION_NAMES = {"Derivation", "DerivationError", "Expectation", "Rule"}
TIME_LIMIT = 5.0  # CPU seconds per call (time.process_time), on inputs of at most MAX_LEN elements
MAX_LEN = 12
EXAMPLES = settings(
    max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None
)
BIG = 1.7976931348623157e308

# -- building blocks ---------------------------------------------------------------------------------------------
SPECIAL_FLOATS = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 1e-160, 1e-154, 1e154, 1e160,
                  1e300, BIG, -BIG, 1.0, -1.0, 0.5]  # fmt: skip
finite_floats = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(allow_nan=False, allow_infinity=False))
unit_floats = st.one_of(
    st.sampled_from([0.0, 5e-324, 1e-300, 0.5, 1.0 - 2**-53, 1.0, 1e-16]), st.floats(0.0, 1.0, allow_nan=False)
)
open_unit = st.one_of(st.sampled_from([5e-324, 1e-300, 1e-20, 1e-8, 0.05, 0.5, 1 - 2**-53]), st.floats(0, 1)).filter(
    lambda v: 0 < v < 1
)
nonneg_floats = st.one_of(st.sampled_from([0.0, 5e-324, 1e-300, 1.0, 1e300, BIG]), st.floats(0, BIG))
# scalars that must be refused where a number is expected (with a message naming the argument)
BAD_SCALARS = ["0.5", True, np.True_, None, 1j, float("nan"), float("inf"), -float("inf"), 10**400, [0.5]]
bad_scalars = st.sampled_from(BAD_SCALARS)


def huge_ints():
    return st.one_of(st.integers(0, 20), st.sampled_from([2**31, 2**53 + 1, 2**62, 2**63, 2**64, 2**100, 10**400]))


# integers where float64 stops being exact: just above 2**53 and 2**63, and Python ints beyond int64 (both signs)
NEAR_2_53 = [2**53 - 1, 2**53, 2**53 + 1, 2**53 + 2, -(2**53) - 1, -(2**53)]
NEAR_2_63 = [2**63 - 1, 2**63, 2**63 + 1, -(2**63), -(2**63) - 1]
BEYOND_INT64 = [2**64 + 1, 2**70, 2**70 + 1, -(2**70), 10**400, 10**400 + 1]
exact_ints = st.one_of(st.integers(-3, 3), st.sampled_from(NEAR_2_53 + NEAR_2_63 + BEYOND_INT64))
ONE_PLUS = np.longdouble(1) + np.finfo(np.longdouble).eps  # 1 + 2**-63: equal to 1 in float64
LONG_DOUBLES = [np.longdouble(1), ONE_PLUS, np.longdouble(-1), np.longdouble(0.5), np.longdouble(2) ** 70 + 1]


@st.composite
def exact_scores(draw, m):
    """Scores of one dressing: floats, integers near 2**53 / 2**63 / beyond int64, long double, or booleans.

    Returns ``(object, values, refuse)``: ``values`` the Python (or long double) numbers, compared exactly.
    """
    kind = draw(st.sampled_from(["float", "float", "ints", "int64", "longdouble", "bool", "mixed"]))
    if kind == "float":
        values = draw(st.lists(finite_floats, min_size=m, max_size=m))
        obj, refuse = draw(container(values))
        return obj, values, refuse
    if kind == "ints":  # Python integers of any size, in a list
        values = draw(st.lists(exact_ints, min_size=m, max_size=m))
        return values, values, False
    if kind == "int64":  # an int64 array just above 2**53 (and near 2**63 - 1)
        values = draw(st.lists(st.sampled_from(NEAR_2_53 + [2**63 - 1, -(2**63), 0, 1]), min_size=m, max_size=m))
        return np.asarray(values, dtype=np.int64), values, False
    if kind == "longdouble":
        values = draw(st.lists(st.sampled_from(LONG_DOUBLES), min_size=m, max_size=m))
        return np.asarray(values, dtype=np.longdouble), values, False
    if kind == "bool":  # booleans are not numbers
        values = draw(st.lists(st.booleans(), min_size=m, max_size=m))
        return values, values, True
    # integers beyond 2**53 beside floats in one list (numpy would make float64 of it and tie them)
    values = draw(st.lists(st.sampled_from([2**53 + 1, 2.0**53, 0.5, 2**70 + 1, float(2**70)]), min_size=m, max_size=m))
    return values, values, False


def container(values, *, numeric=True):
    """``values`` in one of the containers users pass; returns (object, must_refuse)."""
    kinds = ["list", "tuple", "array", "series", "masked_clean", "masked", "ragged"]
    return st.sampled_from(kinds).map(lambda kind: _wrap(values, kind))


def _wrap(values, kind):
    values = list(values)
    if kind == "list":
        return values, False
    if kind == "tuple":
        return tuple(values), False
    if kind == "array":
        try:
            return _exact_array(values), False
        except (OverflowError, ValueError):
            return values, False
    if kind == "series":
        return pd.Series(_exact_array(values) if values else values), False
    if kind == "masked_clean":
        try:
            return np.ma.array(_exact_array(values), mask=np.zeros(len(values), dtype=bool)), False
        except (OverflowError, ValueError, TypeError):
            return values, False
    if kind == "masked":
        if not values:
            return values, False
        try:
            mask = np.zeros(len(values), dtype=bool)
            mask[0] = True
            return np.ma.array(values, mask=mask), True
        except (OverflowError, ValueError, TypeError):
            return values, False
    if kind == "ragged":
        if not values:
            return values, False
        return [values[0], list(values[:2])] + values[2:], True
    raise AssertionError(kind)


def _exact_array(values):
    """``values`` as a numpy array that holds them exactly (numpy alone makes float64 of [2**63 + 1, 2**53])."""
    arr = np.asarray(values)
    if arr.dtype != object and arr.tolist() != list(values):  # compared as Python compares them
        arr = np.empty(len(values), dtype=object)
        arr[:] = list(values)
    return arr


class Call:
    """One call of a public function: arguments, whether it must be refused, and a checker of its result."""

    def __init__(self, args=(), kwargs=None, *, refuse=False, check=None):
        self.args, self.kwargs, self.refuse, self.check = tuple(args), dict(kwargs or {}), refuse, check

    def __repr__(self):
        return f"Call({_short(self.args)}, {_short(self.kwargs)}, refuse={self.refuse})"


def _short(x):
    text = repr(x)
    return text if len(text) < 300 else text[:300] + "..."


# -- the contract --------------------------------------------------------------------------------------------
def _arguments(name):
    return list(inspect.signature(getattr(melearn, name)).parameters)


def _names_an_argument(name, message):
    return any(re.search(rf"(?<![A-Za-z_]){re.escape(p)}(?![A-Za-z_])", message) for p in _arguments(name))


def _all_finite(x):
    if x is None or isinstance(x, (bool, np.bool_, int, Fraction, str)):
        return True
    if isinstance(x, (float, np.floating)):
        return math.isfinite(x)
    if isinstance(x, np.ndarray):
        return x.dtype.kind not in "fc" or bool(np.all(np.isfinite(x)))
    if isinstance(x, (tuple, list)):
        return all(_all_finite(v) for v in x)
    raise AssertionError(f"unexpected result type {type(x).__name__}")


def _finite_except_documented(name, out):
    if name in ("roc_curve", "cost_curve"):
        assert out.thresholds[0] == np.inf, "the curve starts at threshold +inf"
        rest = out._replace(thresholds=out.thresholds[1:])
        return _all_finite(rest)
    if name == "friedman_test" and out.f == math.inf:
        assert out.chi2 == out.n_datasets * (out.n_algorithms - 1) and out.p_value == 0.0 and out.reject
        return _all_finite(out._replace(statistic=0.0))  # f is statistic
    if name in ("kfold_split",):
        return True
    return _all_finite(out)


def run(name, call: Call):
    """Call ``melearn.<name>`` and hold it to the contract; return the result, or None if it was refused."""
    func = getattr(melearn, name)
    start = time.process_time()
    try:
        out = func(*call.args, **call.kwargs)
    except (ValueError, TypeError) as exc:
        elapsed = time.process_time() - start
        assert elapsed < TIME_LIMIT, f"{name} took {elapsed:.1f} s to refuse"
        assert _names_an_argument(name, str(exc)), f"{name} refused without naming an argument: {exc!r}"
        assert call.refuse is not False, f"{name} refused a valid input {call!r}: {exc}"
        return None
    except Exception as exc:  # noqa: BLE001 - any other type breaks the contract
        pytest.fail(f"{name}{call!r} raised {type(exc).__name__}: {exc}")
    elapsed = time.process_time() - start
    assert elapsed < TIME_LIMIT, f"{name} took {elapsed:.1f} s"
    assert call.refuse is not True, f"{name} accepted an input it must refuse: {call!r} -> {_short(out)}"
    assert _finite_except_documented(name, out), f"{name} returned NaN or inf: {_short(out)}"
    if call.check is not None:
        call.check(out)
    return out


# -- exact references --------------------------------------------------------------------------------------------
def F(x):
    return Fraction(x) if not isinstance(x, Fraction) else x


def close(value, exact, *, scale=None, rel=1e-12):
    """``value`` equals the exact rational ``exact`` to a relative ``rel`` (of ``scale``, when cancellation is
    possible); an exact value beyond the float range must not have been returned at all."""
    exact = F(exact)
    bound = F(rel) * (abs(exact) if scale is None else F(scale)) + F(5e-324) * 4
    if abs(abs(exact) - F(BIG)) > bound:  # not within the computation's rounding of the float edge
        assert fits(exact) is not False, f"returned {value!r} for a value beyond the float range"
    assert abs(F(value) - exact) <= bound, f"{value!r} != {float(exact)!r}"


def beyond(*exact):
    """Whether a result must be refused as beyond the float range: True, False, or None (at the edge: either)."""
    verdicts = [fits(v) for v in exact]
    if any(v is False for v in verdicts):
        return True
    return None if any(v is None for v in verdicts) else False


def spread_verdict(sigma, unit):
    """Must a spread ``sigma`` (exact) be refused as rounding noise of inputs with rounding unit ``unit``?
    True below 32 units, False above 256, None (either) between: the guard is at 64 units of a float sigma."""
    if sigma < 32 * unit:
        return True
    return False if sigma > 256 * unit else None


def mp(exact):
    """An exact fraction as an mpmath number (no overflow or underflow at any size)."""
    exact = F(exact)
    return mpmath.mpf(exact.numerator) / exact.denominator


def fits(exact):
    """Whether an exact value rounds to a finite float: True, False, or None within 1e-12 of the edge (where the
    rounding of a correct computation may go either way, so either answer is accepted)."""
    size = abs(F(exact))
    if abs(size - F(BIG)) <= F(BIG) / 10**12:
        return None
    return size < F(BIG)


# -- strategies, one per public name ----------------------------------------------------------------------------
@st.composite
def binary_labels(draw, min_size=0, m=None):
    size = m if m is not None else draw(st.integers(min_size, MAX_LEN))
    values = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    encoding = draw(st.sampled_from(["01", "pm1", "bool", "float", "Int64", "boolean"]))
    if encoding == "01":
        raw = [int(v) for v in values]
    elif encoding == "pm1":
        raw = [1 if v else -1 for v in values]
    elif encoding == "float":
        raw = [1.0 if v else 0.0 for v in values]
    else:
        raw = list(values)
    if encoding in ("Int64", "boolean"):
        obj = pd.Series([int(v) for v in values] if encoding == "Int64" else values, dtype=encoding)
        return obj, values, False
    obj, refuse = draw(container(raw))
    return obj, values, refuse


@st.composite
def scored(draw, *, need_both=True):
    m = draw(st.integers(0, MAX_LEN))
    labels, truth, refuse_l = draw(binary_labels(m=m))
    obj, scores, refuse_s = draw(exact_scores(m))
    refuse = refuse_l or refuse_s or m == 0 or (need_both and (all(truth) or not any(truth)))
    return labels, obj, truth, scores, refuse


def _strictly_decreasing(values):
    """Compared as Python compares the exact values (object and long double thresholds included)."""
    values = list(values)
    return all(a > b for a, b in zip(values[:-1], values[1:], strict=True))


def _pair_fraction(truth, scores):
    pos = [s for t, s in zip(truth, scores, strict=True) if t]
    neg = [s for t, s in zip(truth, scores, strict=True) if not t]
    good = sum(Fraction(1) if p > n else Fraction(1, 2) if p == n else 0 for p in pos for n in neg)
    return good / (len(pos) * len(neg))


@st.composite
def ranking_call(draw, name):
    labels, scores, truth, raw, refuse = draw(scored())

    def check(out):
        if name == "roc_auc":
            close(out, _pair_fraction(truth, raw), rel=1e-15)
        elif name == "rank_loss":
            close(out, 1 - _pair_fraction(truth, raw), scale=1, rel=1e-15)
        elif name == "roc_curve":
            assert out.fpr[0] == out.tpr[0] == 0 and out.fpr[-1] == out.tpr[-1] == 1
            assert len(out.thresholds) == len(set(raw)) + 1 and _strictly_decreasing(out.thresholds)
            assert sorted(set(raw), reverse=True) == list(out.thresholds[1:])  # the exact scores
        elif name == "pr_curve":
            assert len(out.thresholds) == len(set(raw)) and out.recall[-1] == 1
            assert _strictly_decreasing(out.thresholds) and sorted(set(raw), reverse=True) == list(out.thresholds)
            assert np.all((0 <= out.precision) & (out.precision <= 1))
        elif name == "break_even_point":
            assert 0 <= out <= 1
        elif name == "expected_total_cost":
            assert 0 <= out <= 0.25 + 1e-15
        elif name == "cost_curve":
            assert out.p_cost[0] == 0 and out.p_cost[-1] == 1 and np.all(np.diff(out.p_cost) >= 0)

    kwargs = {}
    if name == "rank_loss":
        kwargs["method"] = draw(st.sampled_from(["auto", "pairwise", "sorted"]))
    return Call((labels, scores), kwargs, refuse=refuse, check=check)


@st.composite
def label_pair_call(draw, name):
    m = draw(st.integers(0, MAX_LEN))
    kinds = ["int", "huge", "str", "pandas_str", "categorical", "bool", "float", "near53", "bytes", "longdouble"]
    kind = draw(st.sampled_from(kinds))
    pool = {
        "int": st.integers(-3, 3), "huge": st.sampled_from([2**70, -(2**70), 0, 1]),
        "str": st.sampled_from(["a", "b", "c"]),
        "pandas_str": st.sampled_from(["a", "b"]), "categorical": st.sampled_from(["x", "y"]), "bool": st.booleans(),
        "float": st.sampled_from([0.5, -0.0, 0.0, 1e300, 5e-324]),
        "near53": st.sampled_from([2**53, 2**53 + 1, 2**63 + 1, 2**70 + 1]), "bytes": st.sampled_from([b"a", b"b"]),
        "longdouble": st.sampled_from(LONG_DOUBLES[:3]),
    }[kind]  # fmt: skip
    a = draw(st.lists(pool, min_size=m, max_size=m))
    b = draw(st.lists(pool, min_size=m, max_size=m))
    refuse = m == 0
    if kind == "near53" and draw(st.booleans()):
        b = [float(v) for v in b]  # the same integers rounded to floats: Python says 2**53 + 1 != 2.0**53
    if kind == "bytes" and draw(st.booleans()):
        b = [v.decode() for v in b]  # text against bytes: never equal in Python, so refused, not scored
        refuse = refuse or True
    if kind == "pandas_str":
        ya, yb = pd.Series(a, dtype="string"), pd.Series(b, dtype="str")
    elif kind == "categorical":
        ya, yb = pd.Categorical(a), pd.Series(b, dtype="category")
    elif kind == "longdouble":
        ya, yb = np.asarray(a, dtype=np.longdouble), np.asarray(b, dtype=np.longdouble)
    elif kind == "near53" and draw(st.booleans()):  # numpy arrays: int64 or object against float64
        exact_dtype = object if any(abs(v) >= 2**63 for v in a) else np.int64  # np.asarray alone may round
        ya, yb = (
            np.asarray(a, dtype=exact_dtype),
            np.asarray(b, dtype=float if b and isinstance(b[0], float) else object),
        )
    else:
        (ya, ra), (yb, rb) = draw(container(a)), draw(container(b))
        refuse = refuse or ra or rb
    mismatches = sum(bool(x != y) for x, y in zip(a, b, strict=True))

    def check(out):
        expected = Fraction(mismatches, m) if name == "error_rate" else Fraction(m - mismatches, m)
        close(out, expected, rel=1e-15)

    return Call((ya, yb), refuse=refuse, check=check)


@st.composite
def confusion_call(draw, name):
    m = draw(st.integers(0, MAX_LEN))
    (yt, truth, r1), (yp, pred, r2) = draw(binary_labels(m=m)), draw(binary_labels(m=m))
    tp = sum(t and p for t, p in zip(truth, pred, strict=True))
    fp = sum(p and not t for t, p in zip(truth, pred, strict=True))
    fn = sum(t and not p for t, p in zip(truth, pred, strict=True))
    refuse = r1 or r2 or m == 0
    kwargs = {}
    beta = Fraction(1)
    if name == "f_beta":
        b = draw(st.one_of(st.sampled_from([1e-300, 1e-200, 1e200, 1e300, BIG, 5e-324, 1.0, 2.0]), bad_scalars))
        kwargs["beta"] = b
        if isinstance(b, float) and math.isfinite(b) and b > 0:
            beta = Fraction(b)
        else:
            refuse = True
    if name in ("precision", "f_beta") and tp + fp == 0:
        refuse = True
    if name in ("recall", "f_beta") and tp + fn == 0:
        refuse = True

    def check(out):
        if name == "confusion":
            assert tuple(out) == (tp, fp, fn, m - tp - fp - fn)
        elif name == "precision":
            close(out, Fraction(tp, tp + fp), rel=1e-15)
        elif name == "recall":
            close(out, Fraction(tp, tp + fn), rel=1e-15)
        else:
            b2 = beta * beta
            close(out, (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp), rel=1e-15)

    return Call((yt, yp), kwargs, refuse=refuse, check=check)


@st.composite
def prf_call(draw, name):
    n = draw(st.integers(0, 4))
    rows = draw(st.lists(st.tuples(huge_ints(), huge_ints(), huge_ints(), huge_ints()), min_size=n, max_size=n))
    refuse = n == 0 or any(sum(r) == 0 for r in rows)
    if name == "macro_prf":
        refuse = refuse or any(r[0] + r[1] == 0 or r[0] + r[2] == 0 for r in rows)
    else:
        tp, fp, fn = (sum(r[i] for r in rows) for i in range(3))
        refuse = refuse or tp + fp == 0 or tp + fn == 0
    if draw(st.booleans()) and rows:
        rows[0] = draw(st.sampled_from([(1, 1, 1, True), (1.0, 1, 1, 1), (-1, 2, 2, 2), (1, 1, 1), ("1", 1, 1, 1)]))
        refuse = True
    table: object = rows
    frame = draw(st.sampled_from(["rows", "rows", "named", "reordered", "unnamed", "other names"]))
    if frame != "rows" and rows and all(len(r) == 4 and all(type(v) is int for v in r) for r in rows):
        df = pd.DataFrame([list(r) for r in rows], columns=["tp", "fp", "fn", "tn"], dtype=object)
        if frame == "reordered":
            df = df[list(draw(st.permutations(["tp", "fp", "fn", "tn"])))]
        elif frame == "unnamed":
            df.columns = range(4)
        elif frame == "other names":
            df.columns = ["a", "b", "c", "d"]
            refuse = True  # read by position they could swap counts: refused by name
        table = df

    def check(out):
        if name == "macro_prf":
            ps = [Fraction(r[0], r[0] + r[1]) for r in rows]
            rs = [Fraction(r[0], r[0] + r[2]) for r in rows]
            p, r = sum(ps) / n, sum(rs) / n
            close(out.precision, p, rel=1e-14)
            close(out.recall, r, rel=1e-14)
            got_p, got_r = F(out.precision), F(out.recall)
            close(out.f1, 2 * got_p * got_r / (got_p + got_r) if got_p + got_r else 0, rel=1e-14)
        else:
            close(out.precision, Fraction(tp, tp + fp), rel=1e-15)
            close(out.recall, Fraction(tp, tp + fn), rel=1e-15)
            close(out.f1, Fraction(2 * tp, 2 * tp + fn + fp), rel=1e-15)

    return Call((table,), refuse=refuse, check=check)


@st.composite
def mse_call(draw):
    m = draw(st.integers(0, MAX_LEN))
    kind = draw(st.sampled_from(["float", "float", "ints", "int64", "bool"]))
    values = {"float": finite_floats, "ints": exact_ints, "int64": st.sampled_from(NEAR_2_53 + [2**63 - 1, 0]),
              "bool": st.booleans()}[kind]  # fmt: skip
    a = draw(st.lists(values, min_size=m, max_size=m))
    b = draw(st.lists(values, min_size=m, max_size=m))
    if kind == "int64":
        (ya, ra), (yb, rb) = (np.asarray(a, dtype=np.int64), False), (np.asarray(b, dtype=np.int64), False)
    else:
        (ya, ra), (yb, rb) = draw(container(a)), draw(container(b))
    exact = sum((F(x) - F(y)) ** 2 for x, y in zip(a, b, strict=True)) / m if m else 0
    refuse = ra or rb or m == 0 or (kind == "bool" or beyond(exact))
    return Call((ya, yb), refuse=refuse, check=lambda out: close(out, exact, rel=1e-13))


@st.composite
def auc_call(draw):
    n = draw(st.integers(0, MAX_LEN))
    x = sorted(draw(st.lists(finite_floats, min_size=n, max_size=n)))
    y = draw(st.lists(finite_floats, min_size=n, max_size=n))
    if n >= 2 and draw(st.integers(0, 9)) == 0:
        x[0], x[-1] = x[-1], x[0]
    (xo, rx), (yo, ry) = draw(container(x)), draw(container(y))
    if n and draw(st.integers(0, 7)) == 0:  # booleans are not numbers
        xo, rx = [v > 0 for v in x] if draw(st.booleans()) else [True] + x[1:], True
    terms = [(F(x[i + 1]) - F(x[i])) * (F(y[i]) + F(y[i + 1])) / 2 for i in range(n - 1)]
    exact = sum(terms)
    decreasing = any(b < a for a, b in zip(x[:-1], x[1:], strict=True))
    scale = sum(abs(t) for t in terms)
    # the sum may cancel: within its rounding (relative to the size of the terms) of the float edge, either answer
    margin = scale / 10**12
    edge = None if abs(abs(exact) - F(BIG)) <= margin else beyond(exact)
    refuse = rx or ry or n < 2 or decreasing or edge
    return Call((xo, yo), refuse=refuse, check=lambda out: close(out, exact, scale=scale, rel=1e-13))


@st.composite
def cost_error_call(draw):
    m = draw(st.integers(0, MAX_LEN))
    (yt, truth, r1), (yp, pred, r2) = draw(binary_labels(m=m)), draw(binary_labels(m=m))
    c01, c10 = draw(st.one_of(nonneg_floats, bad_scalars)), draw(st.one_of(nonneg_floats, bad_scalars))
    ok_cost = all(isinstance(c, float) and math.isfinite(c) and c >= 0 for c in (c01, c10)) and (c01 or c10)
    refuse = r1 or r2 or m == 0 or not ok_cost
    fn = sum(t and not p for t, p in zip(truth, pred, strict=True))
    fp = sum(p and not t for t, p in zip(truth, pred, strict=True))

    def check(out):
        close(out, (fn * F(c01) + fp * F(c10)) / m, rel=1e-13)

    return Call((yt, yp, c01, c10), refuse=refuse, check=check)


def cost_share(p, c01, c10):
    a, b = F(p) * F(c01), (1 - F(p)) * F(c10)
    return a / (a + b)


@st.composite
def probability_cost_call(draw, name):
    shape = draw(st.sampled_from(["scalar", "list", "series", "masked", "string", "bad", "booleans"]))
    n = draw(st.integers(0, 4))
    ps = draw(st.lists(unit_floats, min_size=n, max_size=n))
    c01, c10 = draw(nonneg_floats), draw(nonneg_floats)
    if draw(st.integers(0, 5)) == 0:
        c01 = draw(bad_scalars)
    refuse = False
    if shape == "scalar":
        p_obj, ps = (ps[0], ps[:1]) if ps else (0.5, [0.5])
    elif shape == "list":
        p_obj = ps
        refuse = not ps
    elif shape == "series":
        p_obj = pd.Series(ps, dtype="Float64")
        refuse = not ps
    elif shape == "masked":
        p_obj = np.ma.array(ps + [0.5], mask=[False] * len(ps) + [True])
        refuse = True
    elif shape == "string":
        p_obj, refuse = "0.5", True
    elif shape == "booleans":  # a list mixing booleans with probabilities: booleans are not numbers
        p_obj, refuse = [True, *ps], True
    else:
        p_obj, refuse = draw(bad_scalars.filter(lambda v: not isinstance(v, list))), True
    ok_cost = all(isinstance(c, float) and math.isfinite(c) and c >= 0 for c in (c01, c10)) and (c01 or c10)
    refuse = refuse or not ok_cost
    if ok_cost and any((p == 0 and c10 == 0) or (p == 1 and c01 == 0) for p in ps):
        refuse = True
    args = (p_obj, c01, c10)
    fnr = fpr = None
    if name == "normalized_cost":
        fnr, fpr = draw(unit_floats), draw(unit_floats)
        args = (fnr, fpr, p_obj, c01, c10)

    def check(out):
        values = np.atleast_1d(out)
        for v, p in zip(values, ps, strict=True):
            share = cost_share(p, c01, c10)
            if name == "positive_probability_cost":
                close(v, share, scale=1, rel=1e-14)
            else:
                close(v, F(fnr) * share + F(fpr) * (1 - share), scale=1, rel=1e-14)

    return Call(args, refuse=refuse, check=check)


@st.composite
def bias_variance_call(draw, name):
    t, n = draw(st.integers(1, 3)), draw(st.integers(0, 3))
    cell = finite_floats if draw(st.booleans()) else st.sampled_from([1e154, -1e154, 1e-160, 3e-160, 0.0, 1e100])
    p = draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=t, max_size=t))
    yd = draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=t, max_size=t))
    y = draw(st.lists(cell, min_size=n, max_size=n))
    refuse = t < 2 or n == 0
    fields = []
    for i in range(n):
        P, Y, yt = [F(r[i]) for r in p], [F(r[i]) for r in yd], F(y[i])
        fm = sum(P) / t
        error = sum((a - b) ** 2 for a, b in zip(P, Y, strict=True)) / t
        variance = sum((a - fm) ** 2 for a in P) / t
        noise = sum((b - yt) ** 2 for b in Y) / t
        bias2 = (fm - yt) ** 2
        cross = error - bias2 - variance - noise
        scale = max([abs(v) for v in P + Y + [yt]]) ** 2
        fields.append(((error, bias2, variance, noise, cross), scale))
    if not refuse:
        refuse = beyond(*[v for f, _ in fields for v in f])
    if name == "bias_variance_decomposition" and not refuse:
        means = [sum(f[j] for f, _ in fields) / n for j in range(5)]
        refuse = refuse or beyond(*means)
    kind = draw(st.sampled_from(["list", "array", "ragged", "dataframe"]))
    if kind == "array":
        p = np.asarray(p, dtype=float).reshape(t, n)
    elif kind == "ragged" and n >= 1:
        p = [p[0] + [0.0]] + p[1:]
        refuse = True
    elif kind == "dataframe":
        p = pd.DataFrame(np.asarray(p, dtype=float).reshape(t, n))
    if n and draw(st.integers(0, 9)) == 0:  # booleans are not numbers
        y, refuse = [True] * n, True

    def check(out):
        if name == "bias_variance_by_point":
            for j in range(5):
                for i, (f, scale) in enumerate(fields):
                    close(out[j][i], f[j], scale=scale, rel=1e-12)
        else:
            scale = max(s for _, s in fields) / n
            for j in range(5):
                close(out[j], sum(f[j] for f, _ in fields) / n, scale=scale, rel=1e-12)

    return Call((p, yd, y), refuse=refuse, check=check)


def _tail(m, eps0, c):
    """P(X > c), X ~ B(m, eps0), as an exact fraction."""
    p = F(eps0)
    return sum(math.comb(m, i) * p**i * (1 - p) ** (m - i) for i in range(c + 1, m + 1))


@st.composite
def binomial_call(draw):
    m = draw(st.one_of(st.integers(1, 40), st.sampled_from([0, -1, 10**8 + 1, 10**400]), bad_scalars))
    eps0 = draw(st.one_of(open_unit, st.sampled_from([0.0, 1.0]), bad_scalars))
    alpha = draw(st.one_of(open_unit, st.sampled_from([0.0, 1.0]), bad_scalars))
    good = lambda v: isinstance(v, float) and 0 < v < 1  # noqa: E731
    refuse = not (isinstance(m, int) and not isinstance(m, bool) and 1 <= m <= 10**8 and good(eps0) and good(alpha))

    def check(out):
        c = out.critical_count
        assert _tail(m, eps0, c) < F(alpha), "the critical count must give a tail below alpha"
        assert c == 0 or _tail(m, eps0, c - 1) >= F(alpha), "and be the smallest such count"

    return Call((m, eps0), {"alpha": alpha}, refuse=refuse, check=check)


def _tau_t(values, eps0):
    k = len(values)
    mu = sum(F(v) for v in values) / k
    var = sum((F(v) - mu) ** 2 for v in values) / (k - 1)
    return mu, var


@st.composite
def t_test_call(draw):
    k = draw(st.integers(0, 6))
    errors = draw(st.lists(unit_floats, min_size=k, max_size=k))
    errors_obj, bad_errors = errors, False
    if k and draw(st.integers(0, 5)) == 0:  # booleans are not numbers; rates outside [0, 1] are not error rates
        errors_obj = draw(st.sampled_from([[True] + errors[1:], [v > 0.5 for v in errors], [1.5] + errors[1:]]))
        bad_errors = True
    eps0 = draw(st.one_of(open_unit, bad_scalars))
    alpha = draw(st.one_of(st.sampled_from([0.05, 0.01, 0.5, 1e-10]), bad_scalars))
    alternative = draw(st.sampled_from(["two-sided", "greater", "less", "both", 1]))
    refuse = k < 2 or len(set(errors)) < 2 or not isinstance(eps0, float) or not (0 < eps0 < 1)
    refuse = (
        refuse
        or bad_errors
        or not isinstance(alpha, float)
        or not (0 < alpha < 1)
        or alternative not in ("two-sided", "greater", "less")
    )
    if not refuse:
        mu, var = _tau_t(errors, eps0)
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mp(var))
            unit = max(mpmath.mpf(2) ** -52 * max(errors), mpmath.mpf(2) ** -1074)
            refuse = spread_verdict(sigma, unit)
            if refuse is False:
                tau = mpmath.sqrt(k) * abs(mp(mu - F(eps0))) / sigma
                refuse = None if tau > BIG / 2 else False

    def check(out):
        mu, var = _tau_t(errors, eps0)
        close(out.mean, mu, rel=1e-14)
        # tau to within its floating-point rounding: the mean and the deviations are rounded at the scale of the
        # largest error rate, an error of about k eps max|e| / sigma relative to the statistic's scale
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mp(var))
            tau = mpmath.sqrt(k) * mp(mu - F(eps0)) / sigma
            unit = max(mpmath.mpf(2) ** -52 * max(errors), mpmath.mpf(2) ** -1074)
            slack = 8 * k * unit / sigma * (abs(tau) + mpmath.sqrt(k))
            assert abs(out.statistic - tau) <= 1e-9 * abs(tau) + slack, (out.statistic, tau)

    return Call((errors_obj, eps0), {"alpha": alpha, "alternative": alternative}, refuse=refuse, check=check)


@st.composite
def paired_call(draw):
    k = draw(st.integers(0, 6))
    # error rates: in [0, 1]; now and then one outside (or a boolean), which the one range policy refuses
    rates = st.one_of(unit_floats, unit_floats, unit_floats, finite_floats)
    a = draw(st.lists(rates, min_size=k, max_size=k))
    b = draw(st.lists(rates, min_size=k, max_size=k))
    alpha = draw(st.one_of(st.sampled_from([0.05, 1e-10, 1e-300]), bad_scalars))
    (ao, ra), (bo, rb) = draw(container(a)), draw(container(b))
    if k and draw(st.integers(0, 7)) == 0:
        ao, ra = [True] + a[1:], True
    outside = any(not 0 <= v <= 1 for v in a + b)
    refuse = ra or rb or k < 2 or outside or not isinstance(alpha, float) or not (0 < alpha < 1)
    d = [F(x) - F(y) for x, y in zip(a, b, strict=True)]
    if not refuse:
        mu = sum(d) / k
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mp(sum((v - mu) ** 2 for v in d) / (k - 1)))
            unit = max(mpmath.mpf(2) ** -52 * max(abs(v) for v in a + b), mpmath.mpf(2) ** -1074)
            refuse = spread_verdict(sigma, unit)
            if refuse is False and (sigma > BIG / 2 or alpha < 1e-250):
                refuse = None  # sigma at the float edge, or a t(1) quantile beyond SciPy's reach: either way

    def check(out):
        mu = sum(d) / k
        var = sum((v - mu) ** 2 for v in d) / (k - 1)
        top = max(abs(v) for v in d)
        close(out.mean, mu, scale=top, rel=1e-13)
        # the differences a - b are rounded at the scale of the largest input: tau is right to that rounding
        with mpmath.workdps(30):
            sigma = mpmath.sqrt(mp(var))
            tau = mpmath.sqrt(k) * abs(mp(mu)) / sigma
            unit = max(mpmath.mpf(2) ** -52 * max(abs(v) for v in a + b), mpmath.mpf(2) ** -1074)
            slack = 8 * k * unit / sigma * (tau + mpmath.sqrt(k))
            assert abs(out.statistic - tau) <= 1e-9 * tau + slack, (out.statistic, tau)

    return Call((ao, bo), {"alpha": alpha}, refuse=refuse, check=check)


@st.composite
def cv52_call(draw):
    shape = draw(st.sampled_from([(5, 2)] * 6 + [(4, 2), (5,), (2, 5, 2)]))
    size = int(np.prod(shape))
    diff_values = st.one_of(st.floats(-1, 1), st.sampled_from([-1.0, 1.0, 5e-324, -1e-300, 0.0]), finite_floats)
    cells = draw(st.lists(diff_values, min_size=size, max_size=size))
    diffs = np.asarray(cells, dtype=float).reshape(shape)
    numerator = draw(st.sampled_from(["book", "dietterich"] * 3 + ["Book", None]))
    alpha = draw(st.one_of(st.sampled_from([0.05, 1e-10]), st.sampled_from([0.05, 1e-10]), bad_scalars))
    refuse = shape != (5, 2) or numerator not in ("book", "dietterich") or not isinstance(alpha, float)
    refuse = refuse or not (isinstance(alpha, float) and 0 < alpha < 1)
    refuse = refuse or any(not -1 <= v <= 1 for v in cells)  # differences of error rates lie in [-1, 1]
    if not refuse:
        d = [[F(v) for v in row] for row in diffs.tolist()]
        sigma2 = [sum((v - (r[0] + r[1]) / 2) ** 2 for v in r) for r in d]
        with mpmath.workdps(30):
            denominator = mpmath.sqrt(mp(Fraction(1, 5) * sum(sigma2)))
            unit = max(mpmath.mpf(2) ** -52 * max(abs(v) for v in cells), mpmath.mpf(2) ** -1074)
            refuse = spread_verdict(denominator, unit) or beyond(*sigma2)

    def check(out):
        d = [[F(v) for v in row] for row in diffs.tolist()]
        sigma2 = [sum((v - (r[0] + r[1]) / 2) ** 2 for v in r) for r in d]
        mu = (d[0][0] + d[0][1]) / 2 if numerator == "book" else d[0][0]
        close(out.mean, mu, rel=1e-14)
        for got, exact in zip(out.variances, sigma2, strict=True):
            close(got, exact, scale=max(sigma2), rel=1e-12)
        tau2 = mu * mu / (Fraction(1, 5) * sum(sigma2))
        if fits(tau2):
            close(out.statistic**2, tau2, rel=1e-9)

    if draw(st.integers(0, 9)) == 0:  # booleans are not numbers
        return Call((diffs > 0,), {"alpha": alpha, "numerator": numerator}, refuse=True)
    return Call((diffs,), {"alpha": alpha, "numerator": numerator}, refuse=refuse, check=check)


@st.composite
def mcnemar_call(draw):
    e01, e10 = draw(huge_ints()), draw(huge_ints())
    correction = draw(st.sampled_from([True, False, np.False_, "False", 0, None]))
    alpha = draw(st.one_of(st.sampled_from([0.05, 1e-10, 1e-300]), bad_scalars))
    refuse = e01 + e10 == 0 or not isinstance(correction, (bool, np.bool_))
    refuse = refuse or not (isinstance(alpha, float) and 0 < alpha < 1)
    if not refuse:
        num = abs(e01 - e10) - (1 if correction else 0)
        refuse = beyond(Fraction(num * num, e01 + e10))

    def check(out):
        num = abs(e01 - e10) - (1 if correction else 0)
        close(out.statistic, Fraction(num * num, e01 + e10), rel=1e-15)
        assert out.reject == (out.statistic >= out.critical_value)

    return Call((e01, e10), {"alpha": alpha, "correction": correction}, refuse=refuse, check=check)


@st.composite
def friedman_call(draw):
    n, k = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cell = st.one_of(finite_floats, st.sampled_from([0.1, 0.2])) if draw(st.booleans()) else exact_ints
    cells = draw(st.lists(cell, min_size=n * k, max_size=n * k))
    table = [cells[i * k : (i + 1) * k] for i in range(n)]
    table_obj: object = table
    if draw(st.integers(0, 9)) == 0:  # booleans are not numbers
        table_obj = [[v > 0 for v in row] for row in table]
    alpha = draw(st.one_of(st.sampled_from([0.05, 0.1, 1e-10, 1e-300]), bad_scalars))
    refuse = n < 2 or k < 2 or not (isinstance(alpha, float) and 0 < alpha < 1) or table_obj is not table
    if not refuse and alpha < 1e-9:
        refuse = None  # SciPy's F quantile loses accuracy below about 1e-11: refused by name there, either way

    def check(out):
        ranks = [
            [Fraction(sum(1 for w in row if w < v)) + Fraction(sum(1 for w in row if w == v) + 1, 2) for v in row]
            for row in table
        ]
        r = [sum(ranks[i][j] for i in range(n)) / n for j in range(k)]
        chi2 = Fraction(12 * n, k * (k + 1)) * (sum(v * v for v in r) - Fraction(k * (k + 1) ** 2, 4))
        close(out.chi2, chi2, scale=n * k, rel=1e-14)
        assert out.average_ranks.tolist() == [float(v) for v in r]

    return Call((table_obj,), {"alpha": alpha}, refuse=refuse, check=check)


def normal_q(alpha):
    """q for k = 2: the two-sided normal quantile, by mpmath."""
    with mpmath.workdps(40):
        return float(mpmath.sqrt(2) * mpmath.erfinv(1 - mpmath.mpf(alpha)))


@st.composite
def nemenyi_call(draw, name):
    k = draw(st.one_of(st.integers(2, 12), st.sampled_from([1, 0, 10**5 + 1, 10**400]), bad_scalars))
    alpha = draw(st.one_of(st.sampled_from([0.05, 0.1, 1e-8, 1e-9, 1e-20, 0.999]), open_unit, bad_scalars))
    good_k = isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= 10**5
    refuse = not good_k or not (isinstance(alpha, float) and 1e-8 <= alpha <= 1 - 1e-8)
    args: tuple = (k,)
    n = None
    if name == "nemenyi_cd":
        n = draw(st.one_of(st.integers(2, 50), st.sampled_from([1, 10**400]), bad_scalars))
        refuse = refuse or not (isinstance(n, int) and not isinstance(n, bool) and n >= 2)
        args = (k, n)

    def check(out):
        if k == 2:
            q = normal_q(alpha)
            value = (
                out if name == "nemenyi_q" else out / math.sqrt(k * (k + 1) / 6) * math.sqrt(n) if n < 10**300 else None
            )
            if value is not None:
                close(value, F(q), rel=1e-7)
        assert out > 0

    return Call(args, {"alpha": alpha}, refuse=refuse, check=check)


@st.composite
def labels_for_split(draw):
    m = draw(st.integers(0, MAX_LEN))
    kind = draw(st.sampled_from(["int", "str", "pandas_str", "categorical", "bool", "huge"]))
    pool = st.sampled_from({"int": [0, 1, 2], "str": ["a", "b"], "pandas_str": ["a", "b"], "categorical": ["x", "y"],
                            "bool": [True, False], "huge": [2**70, 0]}[kind])  # fmt: skip
    values = draw(st.lists(pool, min_size=m, max_size=m))
    if kind == "pandas_str":
        return pd.Series(values, dtype="str"), m, False
    if kind == "categorical":
        return pd.Categorical(values), m, False
    obj, refuse = draw(container(values))
    return obj, m, refuse


def is_partition(parts, m):
    joined = np.sort(np.concatenate(parts))
    return joined.tolist() == list(range(m))


@st.composite
def holdout_call(draw):
    y, m, refuse = draw(labels_for_split())
    test_size = draw(st.one_of(st.sampled_from([0.5, 0.25, 1, 2, 0.999, 1e-300, 5e-324]), bad_scalars))
    rng = draw(st.one_of(st.integers(0, 2**70), st.sampled_from([None, -1, 1.5, "0"])))
    refuse = refuse or m < 2 or not isinstance(rng, int) or rng < 0
    if isinstance(test_size, bool) or not isinstance(test_size, (int, float)):
        refuse = True
    elif isinstance(test_size, int):
        refuse = refuse or not 1 <= test_size <= m - 1
    else:
        n_test = math.floor(test_size * m + 0.5) if math.isfinite(test_size) else -1
        refuse = refuse or not (0 < test_size < 1) or not 1 <= n_test <= m - 1

    def check(out):
        assert is_partition(out, m)

    return Call((y, test_size, rng), refuse=refuse, check=check)


@st.composite
def kfold_call(draw):
    y, m, refuse = draw(labels_for_split())
    k = draw(st.one_of(st.integers(1, 14), st.sampled_from([10**9, 2**70]), bad_scalars))
    rng = draw(st.one_of(st.integers(0, 100), st.sampled_from([np.random.default_rng(0), None])))
    good_k = isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= m
    refuse = refuse or m == 0 or not good_k or rng is None

    def check(out):
        assert len(out) == k and is_partition([test for _, test in out], m)
        assert all(is_partition([train, test], m) for train, test in out)

    return Call((y, k, rng), refuse=refuse, check=check)


@st.composite
def bootstrap_call(draw):
    m = draw(st.one_of(st.integers(1, 40), st.sampled_from([0, 10**8 + 1, 10**13, 10**400]), bad_scalars))
    rng = draw(st.one_of(st.integers(0, 2**70), st.sampled_from([None, True, "1"])))
    refuse = not (isinstance(m, int) and not isinstance(m, bool) and 1 <= m <= 10**8) or not (
        isinstance(rng, int) and not isinstance(rng, bool)
    )

    def check(out):
        in_bag, oob = out
        assert len(in_bag) == m and set(oob.tolist()) == set(range(m)) - set(in_bag.tolist())

    return Call((m, rng), refuse=refuse, check=check)


@st.composite
def oob_call(draw):
    m = draw(
        st.one_of(
            st.integers(1, 300),
            st.sampled_from([10**5 + 1, 10**7, 10**18, 10**400]),
            st.sampled_from([0, -3, 2.0, True, "5"]),
        )
    )
    exact = draw(st.sampled_from([True, False, "no"]))
    good_m = isinstance(m, int) and not isinstance(m, bool) and m >= 1
    refuse = not good_m or exact == "no" or (exact is True and m > 10**5)

    def check(out):
        if exact is True:
            assert out == Fraction(m - 1, m) ** m
        elif m <= 300:
            close(out, Fraction(m - 1, m) ** m, rel=1e-13)
        else:
            with mpmath.workdps(60):
                expected = mpmath.exp(m * mpmath.log1p(-mpmath.mpf(1) / m))
            close(out, F(float(expected)), rel=1e-13)

    return Call((m,), {"exact": exact}, refuse=refuse, check=check)


STRATEGIES = {
    "accuracy": label_pair_call("accuracy"),
    "error_rate": label_pair_call("error_rate"),
    "auc": auc_call(),
    "bias_variance_by_point": bias_variance_call("bias_variance_by_point"),
    "bias_variance_decomposition": bias_variance_call("bias_variance_decomposition"),
    "binomial_critical_error": binomial_call(),
    "bootstrap_sample": bootstrap_call(),
    "break_even_point": ranking_call("break_even_point"),
    "confusion": confusion_call("confusion"),
    "cost_curve": ranking_call("cost_curve"),
    "cost_sensitive_error": cost_error_call(),
    "cv52_t_test": cv52_call(),
    "expected_out_of_bag_fraction": oob_call(),
    "expected_total_cost": ranking_call("expected_total_cost"),
    "f_beta": confusion_call("f_beta"),
    "friedman_test": friedman_call(),
    "holdout_split": holdout_call(),
    "kfold_split": kfold_call(),
    "macro_prf": prf_call("macro_prf"),
    "mcnemar_test": mcnemar_call(),
    "mean_squared_error": mse_call(),
    "micro_prf": prf_call("micro_prf"),
    "nemenyi_cd": nemenyi_call("nemenyi_cd"),
    "nemenyi_q": nemenyi_call("nemenyi_q"),
    "normalized_cost": probability_cost_call("normalized_cost"),
    "paired_t_test": paired_call(),
    "positive_probability_cost": probability_cost_call("positive_probability_cost"),
    "pr_curve": ranking_call("pr_curve"),
    "precision": confusion_call("precision"),
    "rank_loss": ranking_call("rank_loss"),
    "recall": confusion_call("recall"),
    "roc_auc": ranking_call("roc_auc"),
    "roc_curve": ranking_call("roc_curve"),
    "t_test": t_test_call(),
}
