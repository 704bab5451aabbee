"""The limit rules of melearn.derivation.limits: each agrees with sympy's limit algorithm where it applies, and
leaves alone every limit its theorem does not cover."""

from __future__ import annotations

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, show_refusal
from melearn.derivation.limits import continuity, continuous_outer, lhopital, reciprocal

x = sp.Symbol("x", positive=True)
t = sp.Symbol("t", positive=True)
u = sp.Symbol("u", real=True)


def value(expr):
    """Evaluate every limit of ``expr`` with sympy's own algorithm (the independent route)."""
    return sp.simplify(expr.replace(lambda n: isinstance(n, sp.Limit), lambda n: n.doit()))


@pytest.mark.parametrize(
    "rule, limit",
    [
        (continuous_outer(), sp.Limit(sp.exp(x * sp.log(1 - 1 / x)), x, sp.oo)),
        (continuous_outer(), sp.Limit(sp.exp(sp.sin(u) / u), u, 0)),
        (continuous_outer(sp.sin), sp.Limit(sp.sin(1 / x), x, sp.oo)),
        (reciprocal(t), sp.Limit(x * sp.log(1 - 1 / x), x, sp.oo)),
        (reciprocal(t), sp.Limit((1 + 2 / x) ** x, x, sp.oo)),
        (lhopital(), sp.Limit(sp.log(1 - t) / t, t, 0)),
        (lhopital(), sp.Limit(sp.sin(u) / u, u, 0)),
        (lhopital(), sp.Limit((sp.exp(u) - 1) / sp.sin(u), u, 0)),
        (lhopital(), sp.Limit((u**2 - 1) / (u - 1), u, 1)),
        (continuity(), sp.Limit(-1 / (1 - t), t, 0)),
        (continuity(), sp.Limit(sp.cos(u) + u**2, u, 2)),
    ],
)
def test_each_rewrite_keeps_the_value_of_the_limit(rule, limit):
    rewritten = rule(limit)
    assert rewritten != limit, "the rule should apply here"
    assert sp.simplify(value(rewritten) - value(limit)) == 0


@pytest.mark.parametrize(
    "rule, limit",
    [
        # L'Hopital on a form that is not 0/0: (u + 1)/u at 0 is 1/0, and the derivative ratio 1/1 is wrong
        (lhopital(), sp.Limit((u + 1) / u, u, 0)),
        # 0/0 where the denominator's derivative vanishes at the point: the theorem needs D' != 0 near a, which
        # the rule only accepts when D' is continuous and nonzero at a (conservative: this one is left alone)
        (lhopital(), sp.Limit((sp.exp(u) - 1 - u) / u**2, u, 0)),
        # a numerator whose derivative is not continuous at the point (sqrt at 0): refused, conservatively
        (lhopital(), sp.Limit(sp.sqrt(t) / sp.sin(t), t, 0)),
        # at infinity (the rule covers finite points only)
        (lhopital(), sp.Limit(sp.log(x) / x, x, sp.oo)),
        # continuity at a point where the function is not continuous
        (continuity(), sp.Limit(sp.sin(u) / u, u, 0)),
        (continuity(), sp.Limit(1 / t, t, 0)),
        (continuity(), sp.Limit(sp.sign(u), u, 0)),
        # continuity says nothing about a limit at infinity
        (continuity(), sp.Limit(1 / x, x, sp.oo)),
        # t = 1/x only turns limits at infinity into limits at 0+
        (reciprocal(t), sp.Limit(sp.sin(u) / u, u, 0)),
        # an outer function other than the one named is not moved
        (continuous_outer(), sp.Limit(sp.sin(1 / x), x, sp.oo)),
    ],
)
def test_a_rule_leaves_alone_what_its_theorem_does_not_cover(rule, limit):
    assert rule(limit) == limit


def test_functions_not_continuous_on_the_real_line_are_refused():
    with pytest.raises(ValueError):
        continuous_outer(sp.log)
    with pytest.raises(ValueError):
        continuous_outer(sp.tan)


def test_the_new_variable_must_be_a_positive_symbol():
    with pytest.raises(ValueError):
        reciprocal(sp.Symbol("s"))


def test_the_bootstrap_limit_is_proved_step_by_step_and_each_rule_is_needed():
    m = sp.Symbol("m", positive=True)
    steps = [
        (sp.exp(sp.Limit(m * sp.log(1 - 1 / m), m, sp.oo)), continuous_outer()),
        (sp.exp(sp.Limit(sp.log(1 - t) / t, t, 0)), reciprocal(t)),
        (sp.exp(sp.Limit(-1 / (1 - t), t, 0)), lhopital()),
        (sp.exp(-1), continuity()),
    ]
    chain = Derivation(sp.Limit(sp.exp(m * sp.log(1 - 1 / m)), m, sp.oo))
    for expr, rule in steps:
        chain.step(expr, rule.name, rules=[rule])
    assert chain.check().checked
    previous = chain.start
    for expr, _rule in steps:
        with pytest.raises(DerivationError):
            Derivation(previous).step(expr, "without its rule").check()
        previous = expr


def test_false_limit_steps_are_refused():
    # a sign slip in the derivative
    show_refusal(
        Derivation(sp.Limit(sp.log(1 - t) / t, t, 0)).step(sp.Limit(1 / (1 - t), t, 0), "slip", rules=[lhopital()])
    )
    # the limit of a ratio is not the ratio of the values when the value is 0/0
    show_refusal(Derivation(sp.Limit(sp.sin(u) / u, u, 0)).step(sp.Integer(0), "plug in", rules=[continuity()]))
    # the limit at infinity silently evaluated
    show_refusal(Derivation(sp.Limit((1 - 1 / x) ** x, x, sp.oo)).step(sp.exp(-1), "no rule"))
    # t = 1/x with the wrong side of zero
    show_refusal(
        Derivation(sp.Limit(x * sp.log(1 - 1 / x), x, sp.oo)).step(
            sp.Limit(sp.log(1 + t) / t, t, 0), "t = -1/x", rules=[reciprocal(t)]
        )
    )
