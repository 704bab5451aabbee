"""The shared input checks: each bad input is refused with a message naming the argument."""

from __future__ import annotations

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
