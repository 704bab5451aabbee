"""Tests for melearn.precision_recall_f: formulas (2.8)-(2.17), the P-R curve and the break-even point (2.3.2).

Routes: exact fractions of the formulas as printed; scikit-learn (precision_score, recall_score, fbeta_score,
f1_score, multilabel_confusion_matrix, precision_recall_curve after aligning its conventions) as a peer; the book's
procedure for the P-R curve (cut after each sample, or at each threshold, and count with melearn.precision /
recall); the BEP against an exact expectation (fractions) over every order of the tied samples; hypothesis
properties; the checked derivation of (2.10); and every bad input.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    f1_score,
    fbeta_score,
    multilabel_confusion_matrix,
    precision_recall_curve,
    precision_score,
    recall_score,
)

from melearn import (
    Derivation,
    DerivationError,
    Rule,
    break_even_point,
    confusion,
    f_beta,
    macro_prf,
    micro_prf,
    pr_curve,
    precision,
    recall,
)
from melearn.precision_recall_f import Confusion, PrCurve, one_vs_rest_confusions

# -- helpers: the formulas as printed, in exact fractions ------------------------------------------------------


def book_p(c):  # (2.8)
    return Fraction(c.tp, c.tp + c.fp)


def book_r(c):  # (2.9)
    return Fraction(c.tp, c.tp + c.fn)


def book_f(p, r, beta=Fraction(1)):  # (2.10), (2.11)
    return (1 + beta**2) * p * r / (beta**2 * p + r)


def labels_from(c: Confusion):
    """Labels realising a confusion record exactly."""
    y_true = [1] * c.tp + [0] * c.fp + [1] * c.fn + [0] * c.tn
    y_pred = [1] * c.tp + [1] * c.fp + [0] * c.fn + [0] * c.tn
    return np.array(y_true), np.array(y_pred)


counts = st.integers(min_value=0, max_value=40)
defined_confusions = st.builds(Confusion, st.integers(1, 40), counts, counts, counts)


# -- the confusion matrix --------------------------------------------------------------------------------------
def test_confusion_small_case_counted_by_hand():
    # samples: (1,1) (1,0) (0,1) (0,0) (1,1) -> TP 2, FN 1, FP 1, TN 1
    c = confusion([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    assert c == Confusion(tp=2, fp=1, fn=1, tn=1)
    assert all(type(v) is int for v in c) and c.m == 5


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]),
        ([1, 1, -1, -1, 1], [1, -1, 1, -1, 1]),
        ([True, True, False, False, True], [True, False, True, False, True]),
        ([1, 1, 0, 0, 1], [True, False, True, False, True]),  # codings may differ between the two
        ([1.0, 1.0, -1.0, -1.0, 1.0], [1, 0, 1, 0, 1]),
    ],
)
def test_confusion_label_codings(y_true, y_pred):
    assert confusion(y_true, y_pred) == Confusion(2, 1, 1, 1)


def test_confusion_matches_sklearn():
    rng = np.random.default_rng(1)
    y, p = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    (tn, fp), (fn, tp) = multilabel_confusion_matrix(y, p, labels=[1])[0]
    assert confusion(y, p) == Confusion(tp, fp, fn, tn)


def test_confusion_allows_one_class():
    assert confusion([0, 0, 0], [0, 1, 0]) == Confusion(0, 1, 0, 2)


# -- precision, recall, F_beta: exact and against scikit-learn --------------------------------------------------
def test_exact_small_case_in_fractions():
    y, p = [1, 1, 1, 0, 0, 0, 0, 1, 0, 1], [1, 0, 1, 1, 0, 0, 0, 1, 0, 0]
    c = confusion(y, p)
    assert c == Confusion(3, 1, 2, 4)
    assert precision(y, p) == float(Fraction(3, 4)) and recall(y, p) == float(Fraction(3, 5))
    f1 = book_f(Fraction(3, 4), Fraction(3, 5))
    assert f1 == Fraction(2 * 3, 10 + 3 - 4) == Fraction(2, 3)  # both forms of (2.10)
    assert f_beta(y, p) == pytest.approx(float(f1), rel=1e-15)
    f2 = book_f(Fraction(3, 4), Fraction(3, 5), Fraction(2))
    assert f2 == Fraction(5 * 3, 5 * 3 + 4 * 2 + 1)  # count form with beta^2 = 4
    assert f_beta(y, p, beta=2) == pytest.approx(float(f2), rel=1e-15)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("beta", [0.25, 0.5, 1.0, 2.0, 3.0])
def test_against_sklearn(seed, beta):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    p = np.where(rng.random(200) < 0.6 + 0.1 * seed, y, 1 - y)
    assert precision(y, p) == pytest.approx(precision_score(y, p), rel=1e-15)
    assert recall(y, p) == pytest.approx(recall_score(y, p), rel=1e-15)
    assert f_beta(y, p, beta=beta) == pytest.approx(fbeta_score(y, p, beta=beta), rel=1e-12)


def test_minus_one_plus_one_labels_against_sklearn():
    rng = np.random.default_rng(5)
    y = rng.choice([-1, 1], 150)
    p = rng.choice([-1, 1], 150)
    assert precision(y, p) == pytest.approx(precision_score(y, p, pos_label=1), rel=1e-15)
    assert f_beta(y, p, 2.0) == pytest.approx(fbeta_score(y, p, beta=2.0, pos_label=1), rel=1e-12)


def test_a_mutated_f_beta_is_caught_by_the_peer_route():
    # weighting FP by beta^2 instead of FN (a classic slip) must disagree with scikit-learn
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    p = np.where(rng.random(200) < 0.3, 1, y)  # many false positives, few false negatives
    c = confusion(y, p)
    b2 = 4.0
    mutated = (1 + b2) * c.tp / ((1 + b2) * c.tp + b2 * c.fp + c.fn)
    assert mutated != pytest.approx(fbeta_score(y, p, beta=2.0), rel=1e-6)
    assert f_beta(y, p, beta=2.0) == pytest.approx(fbeta_score(y, p, beta=2.0), rel=1e-12)


@given(defined_confusions, st.sampled_from([Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5)]))
def test_f_beta_equals_the_printed_formula(c, beta):
    assume(c.tp + c.fp > 0 and c.tp + c.fn > 0)
    y, p = labels_from(c)
    exact = book_f(book_p(c), book_r(c), beta)
    assert f_beta(y, p, beta=float(beta)) == pytest.approx(float(exact), rel=1e-14)
    if beta == 1:
        assert exact == Fraction(2 * c.tp, c.m + c.tp - c.tn)  # second form of (2.10)


@given(defined_confusions)
def test_f1_lies_between_min_and_max_of_p_and_r(c):
    y, p = labels_from(c)
    P, R, F = precision(y, p), recall(y, p), f_beta(y, p)
    assert min(P, R) - 1e-15 <= F <= max(P, R) + 1e-15
    # the harmonic mean: 1/F1 = (1/P + 1/R) / 2, exactly
    assert 1 / book_f(book_p(c), book_r(c)) == (1 / book_p(c) + 1 / book_r(c)) / 2


@given(defined_confusions)
def test_f_beta_tends_to_recall_and_to_precision(c):
    y, p = labels_from(c)
    P, R = precision(y, p), recall(y, p)
    assert f_beta(y, p, beta=1e6) == pytest.approx(R, abs=1e-9)
    assert f_beta(y, p, beta=1e-6) == pytest.approx(P, abs=1e-9)


@given(defined_confusions)
def test_beta_above_one_favours_recall(c):
    y, p = labels_from(c)
    P, R = precision(y, p), recall(y, p)
    assume(abs(P - R) > 1e-9)
    f_half, f_one, f_two = (f_beta(y, p, beta=b) for b in (0.5, 1.0, 2.0))
    if R > P:
        assert f_half < f_one < f_two
    else:
        assert f_half > f_one > f_two


def test_f_beta_is_zero_when_no_true_positive():
    # P = R = 0 are both defined; (2.11) reads 0/0 in P and R, its count form gives 0
    assert f_beta([1, 1, 0, 0], [0, 0, 1, 1]) == 0.0
    assert f_beta([1, 1, 0, 0], [0, 0, 1, 1], beta=3.0) == 0.0
    assert fbeta_score([1, 1, 0, 0], [0, 0, 1, 1], beta=3.0) == 0.0


def test_derivation_of_the_second_form_of_f1_checks_and_a_wrong_one_fails():
    TP, FP, TN, FN, m, P, R = sp.symbols("TP FP TN FN m P R", positive=True)
    cells = Rule.definition("cells", {m: TP + FP + TN + FN})
    defs = Rule.definition("(2.8), (2.9)", {P: TP / (TP + FP), R: TP / (TP + FN)})
    good = Derivation(2 * P * R / (P + R)).step(2 * TP / (2 * TP + FP + FN), "insert", rules=[defs])
    good.step(2 * TP / (m + TP - TN), "cells", rules=[cells]).check()
    assert good.checked
    wrong = Derivation(2 * TP / (2 * TP + FP + FN)).step(2 * TP / (m + TP + TN), "slip", rules=[cells])
    with pytest.raises(DerivationError, match="step 1"):
        wrong.check()
    # without the rule that the cells add up to m, the true step does not follow either
    unstated = Derivation(2 * TP / (2 * TP + FP + FN)).step(2 * TP / (m + TP - TN), "no rule")
    with pytest.raises(DerivationError):
        unstated.check()


# -- undefined measures and bad input ---------------------------------------------------------------------------
def test_precision_undefined_names_y_pred():
    with pytest.raises(ValueError, match="y_pred predicts no sample positive"):
        precision([1, 0, 1], [0, 0, 0])
    with pytest.raises(ValueError, match="y_pred"):
        f_beta([1, 0, 1], [0, 0, 0])


def test_recall_undefined_names_y_true():
    with pytest.raises(ValueError, match="y_true holds no positive sample"):
        recall([0, 0, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="y_true"):
        f_beta([0, 0, 0], [1, 0, 1])


@pytest.mark.parametrize("func", [confusion, precision, recall, f_beta])
@pytest.mark.parametrize(
    "y_true, y_pred, match",
    [
        ([], [], "y_true is empty"),
        ([1, 0], [1], "length mismatch"),
        ([1, 0, 2], [1, 0, 1], "y_true must hold binary labels"),
        ([1, 0, 1], [1, -1, 0], "y_pred must hold binary labels"),
        ([-1, 0, 1], [1, 0, 1], "y_true must hold binary labels"),
        ([1.0, np.nan, 0.0], [1, 0, 1], "y_true contains NaN"),
        ([1, 0, 1], [1.0, np.inf, 0.0], "y_pred contains NaN"),
        ([[1, 0], [0, 1]], [1, 0], "y_true must be 1-dimensional"),
        (["a", "b"], [1, 0], "y_true must hold binary labels"),
    ],
)
def test_bad_labels(func, y_true, y_pred, match):
    with pytest.raises(ValueError, match=match):
        func(y_true, y_pred)


@pytest.mark.parametrize("beta", [0, -1.0, np.nan, np.inf, True, "2", None, 1j])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match=r"^beta must be (positive|a real number|finite)"):
        f_beta([1, 0, 1], [1, 0, 0], beta=beta)


def test_integer_and_numpy_beta_accepted():
    assert f_beta([1, 0, 1], [1, 0, 0], beta=2) == f_beta([1, 0, 1], [1, 0, 0], beta=np.float32(2.0))


# -- macro and micro averages -----------------------------------------------------------------------------------
def _multiclass(seed, n_classes=4, m=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, m)
    noise = rng.integers(0, n_classes, m)
    p = np.where(rng.random(m) < 0.6, y, noise)
    return y, p


def test_one_vs_rest_matches_sklearn():
    y, p = _multiclass(3)
    ours = one_vs_rest_confusions(y, p)
    theirs = multilabel_confusion_matrix(y, p)
    for c, ((tn, fp), (fn, tp)) in zip(ours, theirs, strict=True):
        assert c == Confusion(tp, fp, fn, tn)


def test_one_vs_rest_string_labels_and_order():
    cs = one_vs_rest_confusions(["b", "a", "c", "a"], ["b", "b", "c", "a"], labels=["c", "b", "a"])
    assert cs == [Confusion(1, 0, 0, 3), Confusion(1, 1, 0, 2), Confusion(1, 0, 1, 2)]


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_macro_and_micro_against_sklearn(seed):
    y, p = _multiclass(seed)
    cs = one_vs_rest_confusions(y, p)
    macro, micro = macro_prf(cs), micro_prf(cs)
    assert macro.precision == pytest.approx(precision_score(y, p, average="macro"), rel=1e-14)
    assert macro.recall == pytest.approx(recall_score(y, p, average="macro"), rel=1e-14)
    assert micro.precision == pytest.approx(precision_score(y, p, average="micro"), rel=1e-14)
    assert micro.recall == pytest.approx(recall_score(y, p, average="micro"), rel=1e-14)
    assert micro.f1 == pytest.approx(f1_score(y, p, average="micro"), rel=1e-14)
    # (2.14) is the F1 of macro-P and macro-R ...
    sk_p, sk_r = precision_score(y, p, average="macro"), recall_score(y, p, average="macro")
    assert macro.f1 == pytest.approx(2 * sk_p * sk_r / (sk_p + sk_r), rel=1e-14)


def test_macro_f1_follows_the_book_not_sklearn():
    # a precise-but-incomplete class and a complete-but-imprecise one: the two "macro F1" differ a lot
    y = np.array([0] * 50 + [1] * 50)
    p = np.array([0] * 10 + [1] * 40 + [1] * 50)
    cs = one_vs_rest_confusions(y, p)
    ours = macro_prf(cs).f1
    theirs = f1_score(y, p, average="macro")
    per_class = [float(book_f(book_p(c), book_r(c))) for c in cs]
    assert theirs == pytest.approx(np.mean(per_class), rel=1e-14)  # sklearn: mean of per-class F1
    mP = (book_p(cs[0]) + book_p(cs[1])) / 2
    mR = (book_r(cs[0]) + book_r(cs[1])) / 2
    assert ours == pytest.approx(float(book_f(mP, mR)), rel=1e-14)  # the book: F1 of the means
    assert ours - theirs > 0.1


def test_macro_and_micro_exact_small_case():
    cs = [Confusion(8, 2, 2, 88), Confusion(1, 3, 0, 96)]
    mP, mR = (Fraction(8, 10) + Fraction(1, 4)) / 2, (Fraction(8, 10) + Fraction(1, 1)) / 2
    macro = macro_prf(cs)
    assert (macro.precision, macro.recall) == (pytest.approx(float(mP), rel=1e-15), pytest.approx(float(mR), rel=1e-15))
    assert macro.f1 == pytest.approx(float(book_f(mP, mR)), rel=1e-15)
    tp_bar, fp_bar, fn_bar = Fraction(9, 2), Fraction(5, 2), Fraction(2, 2)  # means over n = 2
    uP, uR = tp_bar / (tp_bar + fp_bar), tp_bar / (tp_bar + fn_bar)
    assert micro_prf(cs) == (float(uP), float(uR), pytest.approx(float(book_f(uP, uR)), rel=1e-15))
    assert tuple(macro_prf(tuple(cs))) == tuple(macro)  # any sequence, and plain tuples
    assert micro_prf([tuple(c) for c in cs]) == micro_prf(cs)


@given(defined_confusions, st.integers(1, 6))
def test_macro_equals_micro_when_all_confusions_are_equal(c, n):
    assume(c.tp + c.fn > 0)
    macro, micro = macro_prf([c] * n), micro_prf([c] * n)
    assert np.allclose(macro, micro, rtol=1e-14, atol=0)
    assert micro.precision == float(book_p(c)) and micro.recall == float(book_r(c))


@settings(max_examples=60)
@given(st.lists(defined_confusions, min_size=1, max_size=6))
def test_book_macro_f1_is_at_least_the_mean_of_per_class_f1(cs):
    # the harmonic mean is concave (and 1-homogeneous): F1(mean P, mean R) >= mean F1(P_i, R_i)
    per_class = [book_f(book_p(c), book_r(c)) for c in cs]
    assert macro_prf(cs).f1 >= float(sum(per_class) / len(per_class)) - 1e-12


@settings(max_examples=60)
@given(st.lists(defined_confusions, min_size=1, max_size=6))
def test_micro_is_pooled(cs):
    tp, fp, fn = (sum(getattr(c, f) for c in cs) for f in ("tp", "fp", "fn"))
    micro = micro_prf(cs)
    assert micro.precision == float(Fraction(tp, tp + fp)) and micro.recall == float(Fraction(tp, tp + fn))
    assert micro.f1 == pytest.approx(float(Fraction(2 * tp, 2 * tp + fp + fn)), rel=1e-14)


def test_micro_equals_accuracy_one_vs_rest():
    y, p = _multiclass(11)
    micro = micro_prf(one_vs_rest_confusions(y, p))
    acc = float(np.mean(y == p))
    assert micro.precision == pytest.approx(acc, rel=1e-15) and micro.recall == pytest.approx(acc, rel=1e-15)


@pytest.mark.parametrize("func", [macro_prf, micro_prf])
@pytest.mark.parametrize(
    "confusions, match",
    [
        ([], "confusions is empty"),
        (None, "confusions must be a sequence"),
        ([(1, 2, 3)], r"confusions\[0\] must be a confusion record"),
        ([Confusion(1, 1, 1, 1), 5], r"confusions\[1\] must be a confusion record"),
        ([(1, -1, 0, 0)], r"confusions\[0\].fp must be non-negative"),
        ([(1.5, 1, 0, 0)], r"confusions\[0\].tp must be an integer"),
        ([(True, 1, 0, 0)], r"confusions\[0\].tp must be an integer"),
        ([(0, 0, 0, 0)], r"confusions\[0\] counts no sample"),
    ],
)
def test_bad_confusions(func, confusions, match):
    with pytest.raises(ValueError, match=match):
        func(confusions)


def test_macro_undefined_names_the_matrix():
    with pytest.raises(ValueError, match=r"confusions\[1\] has TP \+ FP = 0, so its precision"):
        macro_prf([Confusion(1, 0, 1, 1), Confusion(0, 0, 2, 1)])
    with pytest.raises(ValueError, match=r"confusions\[0\] has TP \+ FN = 0, so its recall"):
        macro_prf([Confusion(0, 2, 0, 1), Confusion(1, 0, 1, 1)])


def test_micro_undefined_pooled():
    with pytest.raises(ValueError, match="micro-P is undefined"):
        micro_prf([Confusion(0, 0, 2, 1), Confusion(0, 0, 1, 1)])
    with pytest.raises(ValueError, match="micro-R is undefined"):
        micro_prf([Confusion(0, 1, 0, 1), Confusion(0, 2, 0, 1)])
    # micro needs only the pooled counts: one never-predicted class is fine
    assert micro_prf([Confusion(0, 0, 2, 1), Confusion(1, 1, 0, 1)]).precision == 0.5


@pytest.mark.parametrize(
    "y_true, y_pred, labels, match",
    [
        ([], [], None, "y_true is empty"),
        ([1, 2], [1], None, "length mismatch"),
        ([1.0, np.nan], [1.0, 2.0], None, "y_true contains NaN"),
        ([[1, 2]], [[1, 2]], None, "y_true must be 1-dimensional"),
        ([1, 2, 3], [1, 2, 2], [1, 2], "y_true holds the label 3"),
        ([1, 2, 2], [1, 2, 4], [1, 2], "y_pred holds the label 4"),
        ([1, 2], [1, 2], [1, 2, 2], "labels repeats a class"),
        ([1, 2], [1, 2], [], "labels is empty"),
        ([None, 1], [1, 1], None, "y_true contains a missing value"),
    ],
)
def test_one_vs_rest_bad_input(y_true, y_pred, labels, match):
    with pytest.raises(ValueError, match=match):
        one_vs_rest_confusions(y_true, y_pred, labels=labels)


# The P-R curve and the break-even point


def _scored(seed, m=300, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    s = rng.normal(size=m) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    return y, s


# -- the P-R curve ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ties", [False, True])
def test_pr_curve_matches_sklearn_after_aligning_conventions(seed, ties):
    y, s = _scored(seed, ties=ties)
    ours = pr_curve(y, s)
    p, r, t = precision_recall_curve(y, s)
    # scikit-learn: increasing thresholds, and a final (recall 0, precision 1) point with no threshold
    assert (p[-1], r[-1]) == (1.0, 0.0) and len(p) == len(t) + 1
    np.testing.assert_array_equal(ours.thresholds, t[::-1])
    np.testing.assert_allclose(ours.precision, p[:-1][::-1], rtol=1e-15, atol=0)
    np.testing.assert_allclose(ours.recall, r[:-1][::-1], rtol=1e-15, atol=0)


def test_pr_curve_small_case_exact(running_example):
    # the eight samples of the book's companion example: the tie at 0.47 gives one point
    y, s = running_example.y, running_example.s
    c = pr_curve(y, s)
    assert c.thresholds.tolist() == [0.77, 0.62, 0.58, 0.47, 0.33, 0.23, 0.15]
    tp = [1, 1, 2, 3, 3, 4, 4]
    n = [1, 2, 3, 5, 6, 7, 8]
    assert c.precision.tolist() == [float(Fraction(a, b)) for a, b in zip(tp, n, strict=True)]
    assert c.recall.tolist() == [float(Fraction(a, 4)) for a in tp]
    assert isinstance(c, PrCurve) and c._fields == ("precision", "recall", "thresholds")


@pytest.mark.parametrize("seed", [3, 4])
def test_pr_curve_is_precision_and_recall_at_each_threshold(seed):
    # the book's procedure: predict positive every sample scoring at least the threshold, count, divide
    y, s = _scored(seed, m=120, ties=True)
    c = pr_curve(y, s)
    for t, p, r in zip(c.thresholds, c.precision, c.recall, strict=True):
        pred = (s >= t).astype(int)
        assert p == precision(y, pred) and r == recall(y, pred)


@settings(max_examples=80)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40))
def test_pr_curve_properties(samples):
    y = np.array([a for a, _ in samples])
    s = np.array([b for _, b in samples], dtype=float)
    assume(y.any() and not y.all())
    c = pr_curve(y, s)
    assert len(c.thresholds) == len(np.unique(s)) == len(c.precision) == len(c.recall)
    assert np.all(np.diff(c.thresholds) < 0)
    assert np.all(np.diff(c.recall) >= 0) and c.recall[-1] == 1.0
    assert c.precision[-1] == pytest.approx(y.mean(), rel=1e-15)  # everything predicted positive
    assert np.all((c.precision > 0) | (c.recall == 0)) and np.all(c.precision <= 1)
    # the order of the samples does not matter
    perm = np.random.default_rng(len(samples)).permutation(len(y))
    c2 = pr_curve(y[perm], s[perm])
    for a, b in zip(c, c2, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "y",
    [[1, 0, 1, 1, 0], [1, -1, 1, 1, -1], [True, False, True, True, False], [1.0, 0.0, 1.0, 1.0, 0.0]],
)
def test_pr_curve_label_codings(y):
    c = pr_curve(y, [0.9, 0.8, 0.7, 0.3, 0.1])
    assert c.precision.tolist() == [1.0, 0.5, 2 / 3, 0.75, 0.6]


# -- the break-even point ---------------------------------------------------------------------------------------
def bep_brute_force(y, s) -> Fraction:
    """E[TP among the m+ top-ranked] / m+, the expectation over every order of tied samples, exactly."""
    y, s = np.asarray(y, dtype=bool), np.asarray(s, dtype=float)
    m_pos = int(y.sum())
    groups = [np.flatnonzero(s == v) for v in sorted(set(s.tolist()), reverse=True)]
    total, count = Fraction(0), 0
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = np.concatenate(parts)
        total += int(y[order[:m_pos]].sum())
        count += 1
    return total / count / m_pos


def test_bep_small_cases_exact(running_example):
    assert break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.4, 0.3, 0.1]) == 0.5
    # the cut after the m+ = 2 top-ranked samples splits the tie at 0.8: 1 + 1/2 positives expected
    assert break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.8, 0.3, 0.1]) == 0.75
    y8, s8 = running_example.y.tolist(), running_example.s.tolist()
    assert break_even_point(y8, s8) == float(Fraction(5, 8)) == float(bep_brute_force(y8, s8))
    # all scores tied: the expected precision of any m+ samples is the positive rate
    assert break_even_point([1, 0, 0, 1, 0], [0.5] * 5) == 0.4
    # a perfect ranking
    assert break_even_point([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8]) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3)), min_size=2, max_size=7))
def test_bep_with_ties_equals_the_expectation_over_tie_orders(samples):
    y = np.array([a for a, _ in samples])
    s = np.array([b for _, b in samples], dtype=float)
    assume(y.any() and not y.all())
    assume(math.prod(math.factorial(int(k)) for k in np.unique(s, return_counts=True)[1]) <= 5040)
    assert break_even_point(y, s) == float(bep_brute_force(y, s))


@settings(max_examples=60)
@given(st.lists(st.booleans(), min_size=2, max_size=60), st.integers(0, 2**32 - 1))
def test_bep_without_ties_is_where_the_curve_meets_p_equals_r(labels, seed):
    y = np.array(labels)
    assume(y.any() and not y.all())
    s = np.random.default_rng(seed).permutation(len(y)).astype(float)  # distinct scores
    c = pr_curve(y, s)
    m_pos = int(y.sum())
    bep = break_even_point(y, s)
    # the point of the curve with m+ samples predicted positive has P = R = BEP
    k = m_pos - 1
    assert c.precision[k] == c.recall[k] == bep
    assert bep == float(Fraction(int(y[np.argsort(-s)][:m_pos].sum()), m_pos))


def test_a_bep_that_ignores_ties_is_caught():
    # breaking the tie by position (a stable sort) is not the expectation: the brute force catches it
    y, s = [1, 0, 1, 0, 0], [0.9, 0.8, 0.8, 0.3, 0.1]
    order = np.argsort(-np.asarray(s), kind="stable")
    naive = np.asarray(y)[order][:2].mean()
    assert naive != float(bep_brute_force(y, s)) == break_even_point(y, s)


@pytest.mark.parametrize("seed", [0, 1])
def test_bep_is_invariant_to_sample_order_and_label_coding(seed):
    y, s = _scored(seed, m=200, ties=True)
    perm = np.random.default_rng(seed + 10).permutation(len(y))
    assert break_even_point(y, s) == break_even_point(y[perm], s[perm]) == break_even_point(2 * y - 1, s)


# -- bad input --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", [pr_curve, break_even_point])
@pytest.mark.parametrize(
    "y_true, y_score, match",
    [
        ([], [], "y_true is empty"),
        ([1, 0], [0.5], "length mismatch"),
        ([1, 0, 2], [0.1, 0.2, 0.3], "y_true must hold binary labels"),
        ([1, 0, 1], [0.1, np.nan, 0.3], "y_score contains NaN or inf"),
        ([1, 0, 1], [0.1, np.inf, 0.3], "y_score contains NaN or inf"),
        ([1, 1, 1], [0.1, 0.2, 0.3], "y_true holds only positive samples"),
        ([0, 0], [0.1, 0.2], "y_true holds only negative samples"),
        ([1, 0], [[0.1, 0.2]], "y_score must be 1-dimensional"),
        ([1, 0], ["a", "b"], "y_score must be numeric"),
    ],
)
def test_bad_input(func, y_true, y_score, match):
    with pytest.raises(ValueError, match=match):
        func(y_true, y_score)
