"""The shared input checks: each bad input is refused with a message naming the argument."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from melearn import _validation as v


@pytest.mark.parametrize("labels", [[0, 1, 1], [-1, 1, 1], [False, True, True], np.array([0.0, 1.0, 1.0])])
def test_binary_label_encodings_agree(labels):
    assert v.as_binary_labels(labels, "y").tolist() == [False, True, True]


@pytest.mark.parametrize(
    "labels, message",
    [
        ([], "y_true is empty"),
        ([0, 1, 2], "binary"),
        ([-1, 0, 1], "binary"),
        ([-1, 0], "binary"),
        ([0.5, 1.0], "binary"),
        (["a", "b"], "binary"),
        (["0", "1"], "binary"),
        (np.array([0j, 1 + 0j]), "binary"),
        ([0.0, np.nan], "NaN"),
        ([[0, 1]], "1-dimensional"),
    ],
)
def test_bad_labels_are_refused(labels, message):
    with pytest.raises(ValueError, match=message):
        v.as_binary_labels(labels, "y_true")
    with pytest.raises(ValueError, match="y_true"):
        v.as_binary_labels(labels, "y_true")


def test_single_class_is_refused():
    with pytest.raises(ValueError, match="y_true holds only positive"):
        v.require_both_classes(np.array([True, True]), "y_true")
    with pytest.raises(ValueError, match="y_true holds only negative"):
        v.require_both_classes(np.array([False]), "y_true")
    assert v.require_both_classes(np.array([True, False, False]), "y_true") == (1, 2)


@pytest.mark.parametrize(
    "values, message",
    [
        ([], "empty"),
        ([1.0, np.inf], "NaN or inf"),
        ([np.nan], "NaN or inf"),
        (["x"], "numeric"),
        (["0.5"], "numeric"),
        ([None, 1.0], "missing value"),
        (np.array([1 + 2j]), "numeric"),
        ([[1.0]], "1-dim"),
    ],
)
def test_bad_arrays_are_refused(values, message):
    with pytest.raises(ValueError, match=f"y_score.*{message}|{message}.*"):
        v.as_finite_array(values, "y_score")


def test_length_mismatch_names_both():
    with pytest.raises(ValueError, match="y_true has 2, y_score has 3"):
        v.check_same_length(y_true=np.zeros(2), y_score=np.zeros(3))


@pytest.mark.parametrize("bad", [-0.1, 1.1, np.nan, np.inf, "0.5", True, None])
def test_unit_interval(bad):
    with pytest.raises(ValueError, match="p"):
        v.check_unit_interval(bad, "p")


@pytest.mark.parametrize("bad", [0, 1, 0.0, 1.0, -0.5, np.nan])
def test_open_unit_interval(bad):
    with pytest.raises(ValueError, match="alpha"):
        v.check_open_unit(bad, "alpha")


def test_interval_accepts_numpy_scalars():
    assert v.check_open_unit(np.float32(0.25), "alpha") == 0.25
    assert v.check_unit_interval(np.int64(1), "p") == 1.0


@pytest.mark.parametrize("bad", [0, -3, 2.5, 2.0, True, "3", None])
def test_positive_int(bad):
    with pytest.raises(ValueError, match="m "):
        v.check_positive_int(bad, "m")


def test_positive_int_accepts_numpy_integers():
    assert v.check_positive_int(np.int64(5), "m") == 5
    assert v.check_positive_int(2, "k", minimum=2) == 2


def test_rng_from_seed_or_generator():
    g = np.random.default_rng(1)
    assert v.as_rng(g) is g
    assert v.as_rng(7).integers(1000) == np.random.default_rng(7).integers(1000)
    for bad in (None, -1, 1.5, "seed", True):
        with pytest.raises(ValueError, match="rng"):
            v.as_rng(bad)


def test_batches_of_experiments_need_a_minimum_rank():
    assert v.as_finite_array([[0.1, 0.2]], "diffs", ndim=None, min_ndim=2).shape == (1, 2)
    with pytest.raises(ValueError, match="diffs must have at least 2 dimension"):
        v.as_finite_array([0.1, 0.2], "diffs", ndim=None, min_ndim=2)
    with pytest.raises(ValueError, match="errors_a must be numeric"):
        v.as_finite_array(["0.1", "0.2"], "errors_a", ndim=None, min_ndim=1)


# -- the one policy: pandas, masked, ragged, huge integers, flags and choices ----------------------------------
def test_pandas_string_and_categorical_labels_are_unwrapped():
    import pandas as pd

    for y in (pd.Series(["a", "b"], dtype="str"), pd.Series(["a", "b"], dtype="string"), pd.Categorical(["a", "b"])):
        assert v.as_labels(y, "y").tolist() == ["a", "b"]
        assert v.is_string_labels(v.as_labels(y, "y"))
    assert v.as_binary_labels(pd.Series([1, 0], dtype="Int64"), "y_true").tolist() == [True, False]
    with pytest.raises(ValueError, match="^y contains a missing value"):
        v.as_labels(pd.Series(["a", None], dtype="string"), "y")
    with pytest.raises(ValueError, match="^y_score contains NaN"):
        v.as_finite_array(pd.Series([0.5, None], dtype="Float64"), "y_score")


def test_masked_entries_are_refused_and_a_clean_mask_is_accepted():
    with pytest.raises(ValueError, match="^y_score is a masked array with masked entries"):
        v.as_finite_array(np.ma.array([0.1, 0.2], mask=[0, 1]), "y_score")
    assert v.as_finite_array(np.ma.array([0.1, 0.2]), "y_score").tolist() == [0.1, 0.2]


@pytest.mark.parametrize("ragged", [[[1, 2], [3]], [1, [2]], [[0.1], [0.2, 0.3]]])
def test_ragged_input_is_refused_by_name(ragged):
    with pytest.raises(ValueError, match="^x must be a rectangular array"):
        v.as_finite_array(ragged, "x", ndim=None)


def test_integers_beyond_int64():
    assert v.as_finite_array([2**70, 1], "x").tolist() == [float(2**70), 1.0]
    with pytest.raises(ValueError, match="^x holds an integer too large"):
        v.as_finite_array([10**400, 1], "x")
    labels = v.as_labels([2**70, 0, 2**70], "y")
    assert labels.tolist() == [2**70, 0, 2**70] and labels.dtype == object
    with pytest.raises(ValueError, match="^alpha is too large to be represented"):
        v.as_real(10**400, "alpha")
    assert v.check_positive_int(10**400, "m") == 10**400
    with pytest.raises(ValueError, match="^m must be at most 10 .LIMIT.. got an integer of about 400 digits"):
        v.check_positive_int(10**400, "m", maximum=10, why="LIMIT")


@pytest.mark.parametrize("bad", ["False", "True", 0, 1, None, [True]])
def test_flags_are_booleans_only(bad):
    with pytest.raises(ValueError, match="^correction must be True or False"):
        v.as_bool(bad, "correction")
    assert v.as_bool(np.False_, "correction") is False


@pytest.mark.parametrize("bad", ["Book", None, np.array(["book"]), ["book"], 1])
def test_choices_are_strings_from_the_list(bad):
    with pytest.raises(ValueError, match="^numerator must be one of 'book', 'dietterich'"):
        v.as_choice(bad, "numerator", ("book", "dietterich"))


def test_numeric_strings_and_booleans_are_never_numbers():
    for bad in ("0.5", b"0.5", True, np.bool_(False)):
        with pytest.raises(ValueError, match="^alpha must be a real number"):
            v.as_real(bad, "alpha")
    assert v.as_real(np.array(0.25), "alpha") == 0.25
    assert v.as_real(Fraction(1, 3), "alpha") == 1 / 3


def test_real_interval_messages():
    assert v.check_real_interval(0.5, "rho", -1.0, 1.0) == 0.5
    with pytest.raises(ValueError, match=r"^rho must lie strictly between -1 and 1, got 1.0"):
        v.check_real_interval(1.0, "rho", -1.0, 1.0)
    with pytest.raises(ValueError, match=r"^p must lie in \[0, 1\]"):
        v.check_real_interval(2.0, "p", 0.0, 1.0, closed="both")


def test_quantiles_are_checked_by_a_round_trip():
    from scipy import stats

    assert v.checked_isf(stats.norm, 0.025) == pytest.approx(1.959963984540054, rel=1e-15)
    with pytest.raises(ValueError, match="^alpha = 1e-100 is too small"):
        v.checked_isf(stats.f, 1e-100, 2, 6)  # SciPy returns inf here, not the quantile


def test_unrepresentable_results_are_refused():
    with pytest.raises(ValueError, match="^the area is too large"):
        v.require_finite_result(np.array([1.0, np.inf]), "the area")
    assert v.require_finite_result(1.5, "x") == 1.5


def test_signs_share_one_message_format():
    assert v.check_positive_real(0.5, "beta") == 0.5 and v.check_nonnegative_real(0, "cost01") == 0.0
    with pytest.raises(ValueError, match=r"^beta must be positive, got 0.0$"):
        v.check_positive_real(0, "beta")
    with pytest.raises(ValueError, match=r"^cost01 must be non-negative, got -1.0$"):
        v.check_nonnegative_real(-1, "cost01")
    with pytest.raises(ValueError, match=r"^e01 must be non-negative, got -1$"):
        v.check_positive_int(-1, "e01", minimum=0)


@pytest.mark.parametrize("bad", [True, "1.5", None, np.array([1.0, 2.0])])
def test_the_critical_difference_of_a_diagram_is_a_real_number(bad):
    # before every check went through _validation.py, cd=True drew a diagram with CD = 1
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from melearn.plotting.cd_diagram import nonsignificant_groups, plot_cd_diagram

    fig, ax = plt.subplots()
    try:
        with pytest.raises(ValueError, match="^cd must be a real number"):
            plot_cd_diagram(ax, [1.0, 2.0, 3.0], bad)
        with pytest.raises(ValueError, match="^cd must be a real number"):
            nonsignificant_groups([1.0, 2.0, 3.0], bad)
        with pytest.raises(ValueError, match="^style must be one of 'book', 'demsar', got int 1"):
            plot_cd_diagram(ax, [1.0, 2.0, 3.0], 1.0, style=1)
    finally:
        plt.close(fig)


# -- the rule of exact comparison ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "values, exact_dtype",
    [
        (np.array([2**53, 2**53 + 1]), np.int64),
        (np.array([1.0, 2.0], dtype=np.float32), np.float64),
        (np.array([1, 2], dtype=np.longdouble), np.float64),  # float64 holds them: no long double kept
        (np.array([1, np.longdouble(1) + np.finfo(np.longdouble).eps], dtype=np.longdouble), np.longdouble),
    ],
)
def test_exact_comparable_keeps_what_float64_would_round(values, exact_dtype):
    out = v.exact_comparable(values)
    assert out.dtype == exact_dtype
    assert (out[1:] != out[:-1]).all()  # no tie made


def test_the_switch_to_exact_ranks_is_decided_on_the_exact_values():
    keys, values = v.as_order_array([2**53, 2**53 + 1], "s")
    assert keys.tolist() == [0.0, 1.0] and values.tolist() == [2**53, 2**53 + 1]
    keys, values = v.as_order_array(np.array([2**53, -(2**53)]), "s")  # exact as floats: no ranks needed
    assert values is None and keys.tolist() == [2.0**53, -(2.0**53)]
    keys, values = v.as_order_array([2**70 + 1, 0.5, 2**70], "s")  # numpy alone makes float64 of this list
    assert keys.tolist() == [2.0, 0.0, 1.0] and values.tolist() == [0.5, 2**70, 2**70 + 1]
    with pytest.raises(ValueError, match="^s holds booleans"):
        v.as_order_array([True, False], "s")
    with pytest.raises(ValueError, match="^s mixes booleans"):
        v.as_order_array([True, 0.5], "s")
    with pytest.raises(ValueError, match="^s contains NaN or inf"):
        v.as_order_array([2**70, float("nan")], "s")


def test_label_arrays_compare_as_python_compares_them():
    t, p = v.as_label_arrays(y_true=[2**53 + 1, 3], y_pred=[2.0**53, 3.0])
    assert (t != p).tolist() == [True, False]
    t, p = v.as_label_arrays(y_true=np.array([2**62 + 1]), y_pred=np.array([2.0**62]))
    assert (t != p).tolist() == [True]
    t, p = v.as_label_arrays(y_true=[True, 0], y_pred=[1, 0])  # booleans are labels: True == 1
    assert (t == p).all()
    for a, b in (([b"a"], ["a"]), (["a"], [0]), ([b"a"], [0])):
        with pytest.raises(ValueError, match="^y_true and y_pred must hold labels of one kind"):
            v.as_label_arrays(y_true=a, y_pred=b)
    one_plus = np.longdouble(1) + np.finfo(np.longdouble).eps
    t, p = v.as_label_arrays(y_true=np.array([one_plus]), y_pred=[1.0])
    assert (t != p).tolist() == [True]
    with pytest.raises(ValueError, match="^y_true holds long double values"):
        v.as_label_arrays(y_true=np.array([one_plus]), y_pred=[2**70 + 1])


def test_one_range_for_error_rates_and_their_differences():
    assert v.as_error_rates([0.0, 1.0], "e").tolist() == [0.0, 1.0]
    assert v.as_error_differences([-1.0, 1.0], "d").tolist() == [-1.0, 1.0]
    with pytest.raises(ValueError, match=r"^e must hold error rates in \[0, 1\], got -5e-324"):
        v.as_error_rates([0.5, -5e-324], "e")
    with pytest.raises(ValueError, match=r"^d must hold differences of error rates, in \[-1, 1\]"):
        v.as_error_differences([1.0000000000000002], "d")
    with pytest.raises(ValueError, match="^e holds booleans"):
        v.as_error_rates(np.array([True, False]), "e")


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64, np.float32, np.float64, np.longdouble])
def test_binary_labels_are_checked_by_counting_not_by_sorting(dtype, monkeypatch):
    # min/max (integers) or two comparisons (floats) decide: no np.unique, whose hash over 10**7 labels cost more
    # than the sort of the scores; the distinct values are only collected for the refusal's message
    signed = np.issubdtype(dtype, np.signedinteger) or np.issubdtype(dtype, np.floating)
    accepted = [[0, 1, 1, 0], [1, 1, 1, 1], [0, 0, 0, 0]] + ([[-1, 1, 1], [-1, -1, -1]] if signed else [])
    refused = [[0, 1, 2], [2, 3]] + ([[-1, 0, 1], [-1, 0], [-2, 1]] if signed else [])
    if np.issubdtype(dtype, np.floating):
        refused += [[0, 0.5, 1], [-1, 0.5, 1], [1, 1.0000001]]
    with monkeypatch.context() as patched:
        patched.setattr(np, "unique", lambda *a, **k: pytest.fail("np.unique called on valid labels"))
        for labels in accepted:
            arr = np.array(labels, dtype=dtype)
            assert v.as_binary_labels(arr).tolist() == [v == 1 for v in labels]
    for labels in refused:
        with pytest.raises(ValueError, match=r"^y_true must hold binary labels .* got values"):
            v.as_binary_labels(np.array(labels, dtype=dtype))
