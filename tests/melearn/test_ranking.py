"""Tests for melearn.ranking: the ROC curve, AUC and rank loss, formulas (2.18)-(2.22).

Independent routes: a brute-force enumeration of every (positive, negative) pair in exact Fractions, a
trapezoid sum in Fractions over exact counts, and scikit-learn. Every bad input of the contract is tried, and
mutants (a rank loss counting ties as whole errors, an AUC ignoring ties, a ROC curve with one point per sample)
are shown to be caught by the same checks.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from melearn import auc, rank_loss, ranking, roc_auc, roc_curve
from melearn.ranking import threshold_counts
from melearn.reference.rank_loss import rank_loss_pairs, rank_loss_whole_ties
from melearn.reference.ranking import literal_roc_points, literal_trapezoids


# -- independent reference routes ------------------------------------------------------------------------------
# The literal, exact routes of melearn.reference (which the book pages use too): the ROC points counted at each
# distinct score, the trapezoids of (2.20), every (positive, negative) pair of (2.21), and the wrong variant of
# (2.21) that counts a tied pair as a whole error.
def brute_auc(y, s) -> Fraction:
    """AUC by enumerating every (positive, negative) pair: 1 - (2.21), ties counting one half, in Fractions."""
    return 1 - rank_loss_pairs(y, s)


def trapezoid(points) -> Fraction:
    """Formula (2.20) in Fractions."""
    return sum(literal_trapezoids(points), Fraction(0))


def check_against_reference(y, s, *, auc_fn=roc_auc, loss_fn=rank_loss, curve_fn=roc_curve):
    """The checks the property tests run; the mutation tests below feed mutants through them."""
    y = np.asarray(y)
    s = np.asarray(s, dtype=float)
    ys, ss = [bool(v) for v in y], [float(v) for v in s]
    exact = brute_auc(ys, ss)
    assert auc_fn(y, s) == float(exact)
    for method in ("pairwise", "sorted", "auto"):
        assert loss_fn(y, s, method=method) == float(1 - exact)
    curve = curve_fn(y, s)
    points = literal_roc_points(ys, ss)
    assert curve.fpr.tolist() == [float(p[0]) for p in points]
    assert curve.tpr.tolist() == [float(p[1]) for p in points]
    assert curve.thresholds.tolist() == [float("inf"), *sorted(set(ss), reverse=True)]
    assert trapezoid(points) == exact


# -- data strategies -------------------------------------------------------------------------------------------
@st.composite
def labelled_scores(draw, max_size=30, n_levels=6):
    """Labels with both classes and scores drawn from few levels, so that ties (also mixed ones) are common."""
    m = draw(st.integers(2, max_size))
    y = draw(st.lists(st.booleans(), min_size=m, max_size=m).filter(lambda v: any(v) and not all(v)))
    levels = draw(st.integers(1, n_levels))
    s = draw(st.lists(st.integers(0, levels), min_size=m, max_size=m))
    return np.array(y), np.array(s, dtype=float) / levels


PROPERTY = settings(max_examples=120, deadline=None)


# -- the seed example --------------------------------------------------------------------------------------------
def test_seed_example_exact_values(running_example):
    # by hand: s1 beats all 4 negatives, s3 beats 3, s4 beats 2 and ties s5, s7 beats 1 -> 10.5 of 16 pairs
    pairs = [(p, n) for p, n in product(range(8), range(8)) if running_example.y[p] == 1 and running_example.y[n] == 0]
    assert len(pairs) == 16
    won = sum(
        Fraction(1)
        if running_example.s[p] > running_example.s[n]
        else Fraction(1, 2)
        if running_example.s[p] == running_example.s[n]
        else 0
        for p, n in pairs
    )
    assert won == Fraction(21, 2)
    exact_auc = won / 16
    assert exact_auc == Fraction(21, 32)
    assert roc_auc(running_example.y, running_example.s) == float(exact_auc) == 0.65625
    assert rank_loss(running_example.y, running_example.s) == float(1 - exact_auc) == 0.34375
    curve = roc_curve(running_example.y, running_example.s)
    assert auc(curve.fpr, curve.tpr) == 0.65625
    check_against_reference(running_example.y, running_example.s)


def test_seed_example_curve_points(running_example):
    curve = roc_curve(running_example.y, running_example.s)
    # thresholds: +inf, then the 7 distinct scores (0.47 twice in the data, once here)
    assert curve.thresholds.tolist() == [np.inf, 0.77, 0.62, 0.58, 0.47, 0.33, 0.23, 0.15]
    assert (curve.fpr * 4).tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert (curve.tpr * 4).tolist() == [0, 1, 1, 2, 3, 3, 4, 4]
    counts = threshold_counts(running_example.y, running_example.s)
    assert counts.tp.tolist() == [1, 1, 2, 3, 3, 4, 4]
    assert counts.fp.tolist() == [0, 1, 1, 2, 3, 3, 4]
    assert (counts.m_pos, counts.m_neg) == (4, 4)


def test_docstring_example_by_hand():
    # 1 positive above both negatives, 1 tied with a negative and above the other: (2 + 1.5) / 4
    assert roc_auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]) == 0.875


@pytest.mark.parametrize(
    "encode",
    [
        lambda y: y,
        lambda y: 2 * y - 1,
        lambda y: y.astype(bool),
        lambda y: y.astype(float),
        lambda y: (2 * y - 1).astype(float),
    ],
    ids=["01", "pm1", "bool", "01-float", "pm1-float"],
)
def test_label_encodings_agree(running_example, encode):
    y = encode(running_example.y)
    assert roc_auc(y, running_example.s) == 0.65625
    assert rank_loss(y, running_example.s) == 0.34375
    assert roc_curve(y, running_example.s).tpr.tolist() == roc_curve(running_example.y, running_example.s).tpr.tolist()


# -- properties --------------------------------------------------------------------------------------------------
@PROPERTY
@given(labelled_scores())
def test_exact_agreement_with_brute_force(data):
    check_against_reference(*data)


@PROPERTY
@given(labelled_scores())
def test_auc_in_unit_interval_and_one_minus_rank_loss(data):
    y, s = data
    a = roc_auc(y, s)
    assert 0.0 <= a <= 1.0
    assert a + rank_loss(y, s) == pytest.approx(1.0, abs=1e-15)
    assert float(Fraction(a) + Fraction(rank_loss(y, s, method="sorted"))) == pytest.approx(1.0, abs=1e-15)


@PROPERTY
@given(labelled_scores(), st.sampled_from(["exp", "affine", "cube", "arctan"]))
def test_invariant_under_strictly_increasing_transform(data, name):
    y, s = data
    g = {
        "exp": lambda v: np.exp(v / 3),
        "affine": lambda v: 3 * v - 7,
        "cube": lambda v: (v - 0.4) ** 3,
        "arctan": lambda v: np.arctan(5 * v),
    }[name]
    t = g(s)
    assert np.unique(t).size == np.unique(s).size  # the transform kept every distinct score distinct
    assert roc_auc(y, t) == roc_auc(y, s)
    assert rank_loss(y, t) == rank_loss(y, s)
    a, b = roc_curve(y, t), roc_curve(y, s)
    assert a.fpr.tolist() == b.fpr.tolist() and a.tpr.tolist() == b.tpr.tolist()


@PROPERTY
@given(labelled_scores())
def test_negated_scores_give_one_minus_auc(data):
    y, s = data
    exact = brute_auc(y.tolist(), s.tolist())
    assert roc_auc(y, -s) == float(1 - exact)
    assert rank_loss(y, -s) == float(exact)


@PROPERTY
@given(labelled_scores())
def test_duplicating_every_sample_changes_nothing(data):
    y, s = data
    y2, s2 = np.tile(y, 2), np.tile(s, 2)
    assert roc_auc(y2, s2) == roc_auc(y, s)
    assert rank_loss(y2, s2) == rank_loss(y, s)
    a, b = roc_curve(y2, s2), roc_curve(y, s)
    for field in ("fpr", "tpr", "thresholds"):
        assert getattr(a, field).tolist() == getattr(b, field).tolist()


@PROPERTY
@given(labelled_scores())
def test_roc_curve_shape(data):
    y, s = data
    c = roc_curve(y, s)
    assert (c.fpr[0], c.tpr[0], c.thresholds[0]) == (0.0, 0.0, np.inf)
    assert (c.fpr[-1], c.tpr[-1]) == (1.0, 1.0)
    assert np.all(np.diff(c.thresholds) < 0)
    assert np.all(np.diff(c.fpr) >= 0) and np.all(np.diff(c.tpr) >= 0)
    assert c.thresholds.size == np.unique(s).size + 1
    assert c.thresholds[1:].tolist() == sorted(set(s.tolist()), reverse=True)
    # every segment moves: each distinct score holds at least one sample
    assert np.all((np.diff(c.fpr) > 0) | (np.diff(c.tpr) > 0))


@PROPERTY
@given(labelled_scores())
def test_auc_of_roc_curve_equals_roc_auc(data):
    y, s = data
    c = roc_curve(y, s)
    assert auc(c.fpr, c.tpr) == pytest.approx(roc_auc(y, s), rel=1e-12, abs=1e-15)


@PROPERTY
@given(labelled_scores(max_size=120, n_levels=40))
def test_rank_loss_methods_agree(data):
    y, s = data
    pairwise = rank_loss(y, s, method="pairwise")
    assert rank_loss(y, s, method="sorted") == pairwise
    assert rank_loss(y, s, method="auto") == pairwise


def test_rank_loss_auto_switches_to_sorted_above_threshold(monkeypatch):
    rng = np.random.default_rng(7)
    y = np.arange(200) % 2 == 0
    s = rng.integers(0, 30, size=200).astype(float)
    expected = float(1 - brute_auc(y.tolist(), s.tolist()))
    assert 100 * 100 > ranking.PAIRWISE_MAX_PAIRS
    calls = []
    original = ranking._rank_loss_pairwise
    monkeypatch.setattr(ranking, "_rank_loss_pairwise", lambda *a: calls.append(1) or original(*a))
    assert rank_loss(y, s, method="auto") == expected
    assert calls == []  # the sorted route answered
    assert rank_loss(y, s, method="pairwise") == expected
    assert calls == [1]


def test_auc_on_general_points():
    # trapezoid rule on a non-ROC polyline, checked in Fractions
    x = [0.0, 0.25, 0.25, 0.5, 1.0]
    y = [0.5, 0.25, 1.0, 0.75, 0.0]
    exact = trapezoid(list(zip(map(Fraction, x), map(Fraction, y), strict=True)))
    assert auc(x, y) == float(exact)


def test_large_input_is_fast_and_exact():
    rng = np.random.default_rng(2018)
    m = 200_000
    y = rng.random(m) < 0.3
    s = np.round(rng.normal(size=m) + y, 2)  # many ties
    a = roc_auc(y, s)
    c = roc_curve(y, s)
    assert auc(c.fpr, c.tpr) == pytest.approx(a, rel=1e-10)
    assert rank_loss(y, s) == pytest.approx(1 - a, abs=1e-15)


# -- cross-checks against scikit-learn ---------------------------------------------------------------------------
try:
    import sklearn.metrics as sklearn_metrics
except ImportError:  # pragma: no cover - scikit-learn is pinned in the test environment
    sklearn_metrics = None
needs_sklearn = pytest.mark.skipif(sklearn_metrics is None, reason="scikit-learn is not installed")


@needs_sklearn
@PROPERTY
@given(labelled_scores(), st.sampled_from(["01", "pm1", "bool"]))
def test_roc_curve_matches_sklearn(data, encoding):
    y, s = data
    y = {"01": y.astype(int), "pm1": 2 * y.astype(int) - 1, "bool": y}[encoding]
    # sklearn drops collinear points unless drop_intermediate=False; it also starts at (0, 0) with +inf
    fpr, tpr, thr = sklearn_metrics.roc_curve(y, s, drop_intermediate=False)
    c = roc_curve(y, s)
    np.testing.assert_allclose(c.fpr, fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.tpr, tpr, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(c.thresholds, thr)
    assert roc_auc(y, s) == pytest.approx(sklearn_metrics.roc_auc_score(y, s), rel=1e-12, abs=1e-15)


@needs_sklearn
def test_sklearn_drop_intermediate_default_drops_points(running_example):
    # the pitfall the pages mention: sklearn's default curve drops collinear points (runs of one class)
    y = np.array([1, 1, 1, 0, 0, 1, 0, 0])
    s = np.arange(8.0)[::-1]
    fpr, tpr, _ = sklearn_metrics.roc_curve(y, s)
    ours = roc_curve(y, s)
    assert ours.fpr.size == 9 and fpr.size < ours.fpr.size
    assert sklearn_metrics.auc(fpr, tpr) == pytest.approx(roc_auc(y, s)) == pytest.approx(auc(ours.fpr, ours.tpr))
    # on the seed example no three consecutive points are collinear, so nothing is dropped
    assert (
        sklearn_metrics.roc_curve(running_example.y, running_example.s)[0].size
        == roc_curve(running_example.y, running_example.s).fpr.size
    )


@needs_sklearn
@PROPERTY
@given(labelled_scores())
def test_sklearn_label_ranking_loss_counts_ties_as_whole_errors(data):
    y, s = data
    theirs = sklearn_metrics.label_ranking_loss(y.astype(int)[None, :], s[None, :])
    assert theirs == pytest.approx(float(rank_loss_whole_ties(y.tolist(), s.tolist())), abs=1e-12)
    mixed_ties = bool(set(s[y].tolist()) & set(s[~y].tolist()))
    if mixed_ties:
        assert theirs > rank_loss(y, s)
    else:
        assert theirs == pytest.approx(rank_loss(y, s), abs=1e-12)


@needs_sklearn
def test_sklearn_label_ranking_loss_on_seed_example(running_example):
    theirs = sklearn_metrics.label_ranking_loss(running_example.y[None, :], running_example.s[None, :])
    assert theirs == 0.375 == float(Fraction(12, 32))  # the tie (s4, s5) counted whole
    assert rank_loss(running_example.y, running_example.s) == 0.34375  # ... and as one half by (2.21)


# -- the checks can fail: mutants ---------------------------------------------------------------------------------
def test_whole_error_mutant_is_caught_on_tied_data(running_example):
    def mutant(y, s, method="auto"):
        return float(rank_loss_whole_ties([bool(v) for v in y], list(s)))

    with pytest.raises(AssertionError):
        check_against_reference(running_example.y, running_example.s, loss_fn=mutant)
    # without a mixed tie the mutant agrees, which is why tied data must be in the tests
    untied = running_example.s.copy()
    untied[4] = 0.46
    check_against_reference(running_example.y, untied, loss_fn=mutant)


def test_auc_ignoring_ties_is_caught(running_example, monkeypatch):
    def pair_counts_no_ties(y, s):  # a tie counts 0 instead of 1/2
        neg = np.sort(s[~y])
        return 2 * int(np.searchsorted(neg, s[y], side="left").sum())

    monkeypatch.setattr(ranking, "twice_correct_pairs", pair_counts_no_ties)
    with pytest.raises(AssertionError):
        check_against_reference(running_example.y, running_example.s)


def test_roc_curve_with_one_point_per_sample_is_caught(running_example):
    def per_sample_curve(y, s):  # sorts samples but does not group tied scores
        order = np.argsort(-np.asarray(s), kind="stable")
        y = np.asarray(y, dtype=bool)[order]
        tp, fp = np.cumsum(y), np.cumsum(~y)
        return ranking.RocCurve(np.r_[0, fp / fp[-1]], np.r_[0, tp / tp[-1]], np.r_[np.inf, np.asarray(s)[order]])

    with pytest.raises(AssertionError):
        check_against_reference(running_example.y, running_example.s, curve_fn=per_sample_curve)


def test_wrong_trapezoid_constant_is_caught(running_example):
    c = roc_curve(running_example.y, running_example.s)
    wrong = float(np.sum(np.diff(c.fpr) * (c.tpr[:-1] + c.tpr[1:])))  # forgot the 1/2 of (2.20)
    assert wrong != float(brute_auc(running_example.y.tolist(), running_example.s.tolist()))
    assert auc(c.fpr, c.tpr) == float(brute_auc(running_example.y.tolist(), running_example.s.tolist()))


# -- bad input: every function, every argument ----------------------------------------------------------------------
GOOD_Y = [1, 0, 1, 0]
GOOD_S = [0.9, 0.8, 0.8, 0.1]
LABEL_FUNCTIONS = {
    "roc_curve": roc_curve,
    "roc_auc": roc_auc,
    "rank_loss": rank_loss,
    "rank_loss_pairwise": lambda y, s: rank_loss(y, s, method="pairwise"),
    "rank_loss_sorted": lambda y, s: rank_loss(y, s, method="sorted"),
    "threshold_counts": threshold_counts,
}
BAD_LABEL_INPUTS = {
    "empty y_true": ([], GOOD_S, r"^y_true is empty"),
    "empty y_score": (GOOD_Y, [], r"y_score is empty|length mismatch"),
    "both empty": ([], [], r"^y_true is empty"),
    "length mismatch": (GOOD_Y, GOOD_S[:3], r"length mismatch: y_true has 4, y_score has 3"),
    "NaN score": (GOOD_Y, [0.9, np.nan, 0.8, 0.1], r"^y_score contains NaN"),
    "inf score": (GOOD_Y, [0.9, np.inf, 0.8, 0.1], r"^y_score contains NaN or inf"),
    "-inf score": (GOOD_Y, [0.9, -np.inf, 0.8, 0.1], r"^y_score contains NaN or inf"),
    "NaN label": ([1.0, np.nan, 1.0, 0.0], GOOD_S, r"^y_true contains NaN"),
    "only positives": ([1, 1, 1, 1], GOOD_S, r"^y_true holds only positive"),
    "only negatives": ([0, 0, 0, 0], GOOD_S, r"^y_true holds only negative"),
    "only -1": ([-1, -1, -1, -1], GOOD_S, r"^y_true holds only negative"),
    "labels 0,1,2": ([0, 1, 2, 1], GOOD_S, r"^y_true must hold binary labels"),
    "labels -1,0": ([-1, 0, -1, 0], GOOD_S, r"^y_true must hold binary labels"),
    "labels -1,0,1": ([-1, 0, 1, 1], GOOD_S, r"^y_true must hold binary labels"),
    "labels 0.5": ([1, 0.5, 1, 0], GOOD_S, r"^y_true must hold binary labels"),
    "string labels": (["pos", "neg", "pos", "neg"], GOOD_S, r"^y_true must hold binary labels"),
    "string scores": (GOOD_Y, ["high", "low", "low", "lowest"], r"^y_score must be numeric"),
    "2-d labels": ([[1, 0], [1, 0]], GOOD_S, r"^y_true must be 1-dimensional"),
    "2-d scores": (GOOD_Y, [[0.9, 0.8], [0.8, 0.1]], r"^y_score must be 1-dimensional"),
    "scalar scores": (GOOD_Y, 0.5, r"^y_score must be 1-dimensional"),
}


@pytest.mark.parametrize("case", sorted(BAD_LABEL_INPUTS))
@pytest.mark.parametrize("name", sorted(LABEL_FUNCTIONS))
def test_bad_label_score_input(name, case):
    y, s, match = BAD_LABEL_INPUTS[case]
    with pytest.raises(ValueError, match=match):
        LABEL_FUNCTIONS[name](y, s)


BAD_AUC_INPUTS = {
    "empty x": ([], [0.0, 1.0], r"^x is empty"),
    "empty y": ([0.0, 1.0], [], r"^y is empty"),
    "length mismatch": ([0.0, 0.5, 1.0], [0.0, 1.0], r"length mismatch: x has 3, y has 2"),
    "NaN x": ([0.0, np.nan, 1.0], [0.0, 0.5, 1.0], r"^x contains NaN"),
    "NaN y": ([0.0, 0.5, 1.0], [0.0, np.nan, 1.0], r"^y contains NaN"),
    "inf x": ([0.0, 0.5, np.inf], [0.0, 0.5, 1.0], r"^x contains NaN or inf"),
    "inf y": ([0.0, 0.5, 1.0], [0.0, np.inf, 1.0], r"^y contains NaN or inf"),
    "one point": ([0.5], [0.5], r"^x must have at least two points"),
    "decreasing x": ([0.0, 0.5, 0.25, 1.0], [0.0, 0.5, 0.75, 1.0], r"^x must be non-decreasing, but x\[2\] < x\[1\]"),
    "string x": (["a", "b"], [0.0, 1.0], r"^x must be numeric"),
    "string y": ([0.0, 1.0], ["a", "b"], r"^y must be numeric"),
    "2-d x": ([[0.0, 1.0]], [0.0, 1.0], r"^x must be 1-dimensional"),
    "2-d y": ([0.0, 1.0], [[0.0, 1.0]], r"^y must be 1-dimensional"),
}


@pytest.mark.parametrize("case", sorted(BAD_AUC_INPUTS))
def test_bad_auc_input(case):
    x, y, match = BAD_AUC_INPUTS[case]
    with pytest.raises(ValueError, match=match):
        auc(x, y)


@pytest.mark.parametrize("method", ["exact", "", "Pairwise", None, 1])
def test_rank_loss_bad_method(method):
    with pytest.raises(ValueError, match=r"^method must be"):
        rank_loss(GOOD_Y, GOOD_S, method=method)


def test_bad_method_is_refused_before_anything_else():
    # a bad method is named even when the data are bad too
    with pytest.raises(ValueError, match=r"^method"):
        rank_loss([], [], method="exact")


def test_no_silent_nan_or_inf_output():
    # the smallest valid inputs give finite numbers
    assert roc_auc([1, 0], [0.0, 0.0]) == 0.5
    assert rank_loss([True, False], [1.0, 0.0]) == 0.0
    assert roc_curve([-1, 1], [3.0, 3.0]).tpr.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("name", sorted(LABEL_FUNCTIONS))
def test_inputs_are_not_modified(running_example, name):
    # the fast routes sort copies in place; the caller's arrays must stay as they were
    y = running_example.y.copy()
    s = running_example.s[::-1].copy()
    LABEL_FUNCTIONS[name](y, s)
    assert y.tolist() == running_example.y.tolist() and s.tolist() == running_example.s[::-1].tolist()
