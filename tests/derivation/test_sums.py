"""Soundness of the finite-sum rules: every rewrite equals the sum it replaces, on explicit random sums."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from melearn.derivation import sums

i = sp.Symbol("i", integer=True)
a, n = sp.symbols("a n", integer=True)
# ordered bounds a - 1 <= C < b, so that every rule's side condition holds on the symbolic sums
c0, c1 = sp.symbols("c0 c1", integer=True, nonnegative=True)
C = a + c0
b = C + c1 + 1
u, v = sp.IndexedBase("u"), sp.IndexedBase("v")
c, d = sp.symbols("c d")

CASES = [
    (sums.linearity(), sp.Sum(c * u[i] + d * v[i] + 3, (i, a, b))),
    (sums.linearity(), sp.Sum(c * (u[i] - 2 * v[i]), (i, a, b))),
    (sums.constant_sum(), sp.Sum(c * d, (i, a, b))),
    (sums.split(C), sp.Sum(u[i] * v[i], (i, a, b))),
    (sums.peel_first(a), sp.Sum(u[i] ** 2, (i, a, b))),
    (sums.peel_last(b), sp.Sum(u[i] + i, (i, a, b))),
    (sums.shift_index(a, a + 2), sp.Sum(u[i] * i, (i, a, b))),
    (sums.telescoping(u[i] * v[i], i), sp.Sum(u[i + 1] * v[i + 1] - u[i] * v[i], (i, a, b))),
    (sums.telescoping(u[i], i), sp.Sum(u[i] - u[i + 1], (i, a, b))),
]


def explicit(expr, values):
    # the sums written out term by term (a >= 1 keeps every index in range), then the random terms put in
    return sp.expand(expr.subs(values["limits"]).doit().xreplace(values["terms"]))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_each_rewrite_equals_the_sum_it_replaces(case):
    rule, total = CASES[case]
    rewritten = rule(total)
    assert rewritten != total, "the rule must apply to its own example"
    rng = random.Random(case)
    for _ in range(20):
        lo = rng.randint(1, 4)
        hi = lo + rng.randint(1, 6)
        cut = rng.randint(lo, hi - 1)
        limits = {a: lo, c0: cut - lo, c1: hi - cut - 1}
        terms = {
            **{u[s]: rng.randint(-9, 9) for s in range(0, 20)},
            **{v[s]: rng.randint(-9, 9) for s in range(0, 20)},
            c: rng.randint(-5, 5),
            d: rng.randint(-5, 5),
        }
        values = {"limits": limits, "terms": terms}
        assert explicit(total, values) == explicit(rewritten, values)


def test_rules_leave_what_they_do_not_match_alone():
    s = sp.Sum(u[i], (i, a, b))
    assert sums.peel_first(0)(s) == s
    assert sums.peel_last(n)(s) == s
    assert sums.shift_index(0, 1)(s) == s
    assert sums.telescoping(u[i], i)(s) == s  # u_i is not a difference
    assert sums.linearity()(s) == s
    assert sums.constant_sum()(s) == s
    assert sums.split(b)(s) == s  # already ends at the split point: no empty sums are made
    unordered = sp.Sum(u[i], (i, a, n))  # n >= a - 1 is not known: no rule applies
    for rule in (sums.linearity(), sums.constant_sum(), sums.split(C), sums.peel_first(a), sums.peel_last(n)):
        assert rule(sp.Sum(2 * u[i], (i, a, n))) == sp.Sum(2 * u[i], (i, a, n)) and rule(unordered) == unordered


def test_the_rules_are_cited():
    for rule, _ in CASES:
        assert rule.kind == "cited" and "Graham" in rule.source


def test_split_at_a_point_that_depends_on_the_index_is_not_applied():
    g = sp.Symbol("g", integer=True)
    T = sp.IndexedBase("T")
    s = sp.Sum(u[g], (g, 1, n))
    assert sums.split(T[g])(s) == s


def test_two_splits_in_one_step_each_split_their_own_sum():
    from melearn.derivation import Derivation

    # 0 <= s <= t <= e: each split point lies in the range it splits
    s, t, e = sp.symbols("s t e", integer=True, nonnegative=True)
    t, e = s + t, s + t + e
    whole = sp.Sum(u[i], (i, 1, e))
    parts = sp.Sum(u[i], (i, 1, s)) + sp.Sum(u[i], (i, s + 1, t)) + sp.Sum(u[i], (i, t + 1, e))
    rules = [sums.split(s, lower=1, upper=e), sums.split(t, lower=s + 1, upper=e)]
    assert Derivation(whole).step(parts, "split twice", rules=rules).check().checked


def test_relations_are_compared_in_a_standard_form():
    from melearn.derivation import Derivation, Indicator

    assert (
        Derivation(Indicator(sp.Lt(a, n)) + 1)
        .step(sp.Add(Indicator(sp.Gt(n, a)), 1, evaluate=False), "the same relation")
        .check()
        .checked
    )
