"""Soundness of the calculus rules: the derivative of a finite sum, moved inside, equals the derivative outside."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError
from melearn.derivation.calculus import derivative_of_sum

i = sp.Symbol("i", integer=True)
a = sp.Symbol("a", integer=True)
n0 = sp.Symbol("n0", integer=True, nonnegative=True)
b = a - 1 + n0  # b >= a - 1: the range meets the sums' convention
x, y = sp.symbols("x y")

SUMMANDS = [
    sp.binomial(6, i) * x**i * (1 - x) ** (6 - i),
    (i + 1) * sp.sin(i * x),
    sp.exp(i * x) / (i + 2) + x**2 * i,
    y * x**i,
]


@pytest.mark.parametrize("case", range(len(SUMMANDS)))
def test_rewrite_equals_the_derivative_it_replaces(case):
    rule = derivative_of_sum()
    total = sp.Derivative(sp.Sum(SUMMANDS[case], (i, a, b)), x)
    rewritten = rule(total)
    assert rewritten != total, "the rule must apply to its own example"
    rng = random.Random(case)
    for _ in range(5):
        lo = rng.randint(0, 2)
        hi = lo + rng.randint(0, 4)
        point = {x: sp.Rational(rng.randint(1, 9), 10), y: rng.randint(-3, 3)}
        outside = sp.diff(sp.Sum(SUMMANDS[case], (i, lo, hi)).doit(), x).subs(point)
        inside = rewritten.subs({a: lo, n0: hi - lo + 1}).doit().subs(point)
        assert sp.simplify(outside - inside) == 0


def test_leaves_alone_what_it_does_not_state():
    rule = derivative_of_sum()
    limits_move = sp.Derivative(sp.Sum(x * i, (i, 0, x)), x)  # the number of terms depends on x
    second = sp.Derivative(sp.Sum(x**i, (i, a, b)), (x, 2))
    other_variable = sp.Derivative(sp.Sum(x**i, (i, a, b)), y)
    two_indices = sp.Derivative(sp.Sum(x**i * i, (i, a, b), (y, 0, 3)), x)
    for expr in (limits_move, second, two_indices):
        assert rule(expr) == expr
    # a derivative in another variable is moved inside as well (the limits do not depend on y): still sound
    assert rule(other_variable) == sp.Sum(sp.Derivative(x**i, y), (i, a, b))


def test_a_chain_needs_the_rule_and_refuses_a_wrong_step():
    inside = sp.Sum(sp.Derivative(x**i, x), (i, a, b))
    outside = sp.Derivative(sp.Sum(x**i, (i, a, b)), x)
    with pytest.raises(DerivationError):
        Derivation(outside).step(inside, "no rule named").check()
    Derivation(outside).step(inside, "term by term", rules=[derivative_of_sum()]).check()
    with pytest.raises(DerivationError):
        Derivation(outside).step(
            sp.Sum(sp.Derivative(x ** (i + 1), x), (i, a, b)), "wrong", rules=[derivative_of_sum()]
        ).check()
