"""The audit of the trusted base: every built-in rule, instantiated on random concrete cases, compared by numbers.

Each case builds an expression the rule is about, with integer bounds drawn around each other (nonempty, empty
``b = a - 1`` and reversed ``b < a - 1`` ranges), concrete functions for function symbols and random values for
the rest; the rule rewrites it, and both sides are evaluated by writing every sum out under the kernel's
convention (a reversed range is not a sum: evaluating one fails the case). A rule that disagrees with the
numbers, or rewrites a sum over a reversed range, is a bug. The figures (rules, cases, cases where the rule
applied, cases it refused by a side condition) are printed by ``test_audit_figures``.
"""

from __future__ import annotations

import random

import pytest
import sympy as sp

from melearn.derivation import TRUSTED_BASE, Expectation, Indicator, Rule, sums
from melearn.derivation.calculus import derivative_of_sum
from melearn.derivation.integrals import IntegralOver
from melearn.derivation.iverson import decided_on_range
from melearn.derivation.limits import continuity, continuous_outer, lhopital, reciprocal

i, j = sp.symbols("i j", integer=True)
k_pos = sp.Symbol("k", integer=True, positive=True)  # declared positive, yet bound to ranges from -4
x, t = sp.symbols("x t", real=True)
s_pos = sp.Symbol("s", positive=True)
u, v = sp.IndexedBase("u"), sp.IndexedBase("v")
CASES = 20
X, Y = sp.symbols("X Y")
c1, c2 = sp.symbols("c1 c2")


class Reversed(Exception):
    """A sum over a reversed range reached the evaluation: the rule made or kept one it should have refused."""


def write_out(expr, values):
    """The number ``expr`` stands for: sums written out (empty for b = a - 1), brackets decided, values put in."""

    def one(node):
        index, lo, hi = node.limits[0]
        lo, hi = int(lo), int(hi)
        if hi < lo - 1:
            raise Reversed(str(node))
        total = sp.Integer(0)
        for n in range(lo, hi + 1):
            total += node.function.xreplace({index: sp.Integer(n)})
        return total

    expr = sp.sympify(expr)
    for _ in range(6):
        expr = expr.replace(lambda n: isinstance(n, sp.Sum) and not n.function.has(sp.Sum), one)
    expr = expr.replace(lambda n: isinstance(n, Indicator), lambda n: sp.Integer(1 if n.args[0] else 0))
    return sp.N(expr.doit().xreplace(values), 25)


def ranges(rng):
    lo = rng.randint(-4, 3)
    return lo, lo + rng.choice([-3, -2, -1, -1, 0, 1, 2, 4])  # reversed, empty, one term, several


def term_values(rng):
    values = {c1: sp.Integer(rng.randint(-5, 5)), c2: sp.Integer(rng.randint(-5, 5))}
    values |= {u[n]: sp.Integer(rng.randint(-9, 9)) for n in range(-12, 16)}
    values.update({v[n]: sp.Integer(rng.randint(-9, 9)) for n in range(-12, 16)})
    return values


def sum_case(make_rule, make_sum):
    def case(rng):
        lo, hi = ranges(rng)
        rule, expr = make_rule(rng, lo, hi), make_sum(rng, lo, hi)
        return rule, expr, term_values(rng)

    return case


def iverson_case(rng):
    lo, hi = ranges(rng)
    cut = rng.randint(lo - 3, hi + 3)
    condition = rng.choice([i <= cut, i > cut, sp.And(i > cut, i <= cut + 2), i >= cut])
    if rng.random() < 0.3:  # the bracket's bound is an index bound by an enclosing sum, declared positive
        inner = sp.Sum(Indicator(i <= k_pos) * u[i], (i, lo, hi))
        return decided_on_range(), sp.Sum(inner, (k_pos, rng.randint(-4, 0), rng.randint(0, 2))), term_values(rng)
    return decided_on_range(), sp.Sum(Indicator(condition) * u[i], (i, lo, hi)), term_values(rng)


def derivative_case(rng):
    lo, hi = ranges(rng)
    term = rng.choice([x**i, i * sp.sin(i * x), sp.exp(i * x) / (i**2 + 1), (x + i) ** 2])
    upper = hi if rng.random() < 0.8 else sp.oo  # a series must be refused
    return derivative_of_sum(), sp.Derivative(sp.Sum(term, (i, lo, upper)), x), {x: sp.Rational(rng.randint(1, 9), 10)}


def limit_case(rule_maker, bodies):
    def case(rng):
        body, point = rng.choice(bodies)
        return rule_maker(), sp.Limit(body, t, point), {}

    return case


CONTINUITY = [
    (t**2 + 3 * t, 2),
    (sp.sin(t) / (1 + t**2), 1),
    (sp.exp(t) * sp.cos(t), 0),
    (sp.Sum(t**2 * i, (i, 1, 3)), 1),
    (sp.Sum(t**2 / (1 + t**2) ** i, (i, 0, sp.oo)), 0),  # a series: 1 near 0, 0 at 0; must be refused
    (1 / t, 0),
    (sp.Integral(sp.exp(-x * t**2), (x, 0, sp.oo)), 0),  # an improper integral: refused
]
OUTER = [(t**2, 3), (sp.sin(t) / t, 0), (1 - t, 1)]
RECIPROCAL = [((x + 1) / (2 * x + 3), sp.oo), (x * sp.sin(1 / x), sp.oo), (sp.exp(-x), sp.oo)]
LHOPITAL = [
    (sp.sin(t) / t, 0),
    ((t**2 - 1) / (t - 1), 1),
    ((sp.exp(t) - 1) / sp.sin(t), 0),
    ((1 - sp.cos(t)) / t**2, 0),
]


def limit_value(expr):
    def one(node):
        body = node.args[0].replace(lambda n: isinstance(n, sp.Sum) and n.limits[0][2].is_finite, lambda n: n.doit())
        return sp.limit(body, *node.args[1:3], dir=str(node.args[3]))

    return sp.N(expr.replace(lambda n: isinstance(n, sp.Limit), one))


E = Expectation([X, Y], "audit")


def expectation_value(expr, joint):
    """Average each expectation of ``E`` over the joint support (a list of equally likely (X, Y) points)."""

    def mean(node):
        return sum((node.args[0].xreplace({X: a, Y: b}) for a, b in joint), sp.Integer(0)) / len(joint)

    return sp.N(sp.sympify(expr).replace(lambda n: isinstance(n, E.function), mean))


def expectation_case(which):
    def case(rng):
        xs = [rng.randint(-4, 4) for _ in range(3)]
        ys = [rng.randint(-4, 4) for _ in range(3)]
        joint = [(a, b) for a in xs for b in ys]  # independent: the product of the two supports
        body = {
            "linearity": c1 * X**2 + c2 * X * Y + 3 * c1 - Y,
            "constant": c1 * c2 + 2,
            "independent": X**2 * (Y + 1),
        }[which]
        rule = {"linearity": E.linearity, "constant": E.constant}.get(which) or E.independent([X], [Y])
        return rule, E(body), {c1: rng.randint(-5, 5), c2: rng.randint(-5, 5), "joint": joint}

    return case


OVER = IntegralOver([x], name="IntegralOverAudit")


def integral_case(rng):
    a, b = rng.randint(-3, 3), rng.randint(-3, 3)
    return OVER.linearity, OVER(a * x**2 + b * sp.sin(x) * c1 + c1), {c1: rng.randint(-5, 5)}


def computation_case(rng):
    lo, hi = ranges(rng)
    return Rule.computation("the sum of a polynomial", sp.Sum), sp.Sum(i**2 + 3 * i, (i, lo, hi)), {}


AUDIT = {
    "sums.linearity": sum_case(
        lambda rng, lo, hi: sums.linearity(), lambda rng, lo, hi: sp.Sum(c1 * u[i] + 2 * v[i] - c2, (i, lo, hi))
    ),
    "sums.constant_sum": sum_case(
        lambda rng, lo, hi: sums.constant_sum(), lambda rng, lo, hi: sp.Sum(c1 * c2, (i, lo, hi))
    ),
    "sums.split": sum_case(
        lambda rng, lo, hi: sums.split(rng.randint(lo - 2, hi + 1)),
        lambda rng, lo, hi: sp.Sum(u[i] * v[i], (i, lo, hi)),
    ),
    "sums.peel_first": sum_case(
        lambda rng, lo, hi: sums.peel_first(lo), lambda rng, lo, hi: sp.Sum(u[i] ** 2, (i, lo, hi))
    ),
    "sums.peel_last": sum_case(
        lambda rng, lo, hi: sums.peel_last(hi), lambda rng, lo, hi: sp.Sum(u[i] + i, (i, lo, hi))
    ),
    "sums.shift_index": sum_case(
        lambda rng, lo, hi: sums.shift_index(lo, lo + rng.randint(-3, 3)),
        lambda rng, lo, hi: sp.Sum(u[i] * i, (i, lo, hi)),
    ),
    "sums.telescoping": sum_case(
        lambda rng, lo, hi: sums.telescoping(u[i] * v[i], i),
        lambda rng, lo, hi: sp.Sum(u[i + 1] * v[i + 1] - u[i] * v[i], (i, lo, hi)),
    ),
    "iverson.decided_on_range": iverson_case,
    "calculus.derivative_of_sum": derivative_case,
    "limits.continuity": limit_case(continuity, CONTINUITY),
    "limits.continuous_outer": lambda rng: (continuous_outer(sp.exp), sp.Limit(sp.exp(rng.choice(OUTER)[0]), t, 1), {}),
    "limits.reciprocal": lambda rng: (reciprocal(s_pos), sp.Limit(rng.choice(RECIPROCAL)[0], x, sp.oo), {}),
    "limits.lhopital": limit_case(lhopital, LHOPITAL),
    "Expectation.linearity": expectation_case("linearity"),
    "Expectation.constant": expectation_case("constant"),
    "Expectation.independent": expectation_case("independent"),
    "IntegralOver.linearity": integral_case,
    "computation": computation_case,
}
FIGURES: dict[str, list[int]] = {}


def evaluate(expr, values):
    values = dict(values)
    joint = values.pop("joint", None)
    if joint is not None:
        return expectation_value(sp.sympify(expr).xreplace(values), joint)
    if expr.atoms(OVER.function):
        expr = expr.xreplace(values)
        return sp.N(expr.replace(lambda n: isinstance(n, OVER.function), lambda n: sp.integrate(n.args[0], (x, 0, 1))))
    if expr.has(sp.Limit):
        return limit_value(expr)
    return write_out(expr, values)


@pytest.mark.parametrize("name", sorted(AUDIT))
def test_each_built_in_rule_agrees_with_numbers(name):
    rng = random.Random(name)
    applied = refused = 0
    for _ in range(CASES):
        rule, expr, values = AUDIT[name](rng)
        rewritten = rule(expr)
        if rewritten == expr:
            refused += 1
            continue
        applied += 1
        try:
            after = evaluate(rewritten, values)
        except Reversed as err:
            pytest.fail(f"{name} rewrote {expr} into a sum over a reversed range: {err}")
        before = evaluate(expr, values) if not expr.has(sp.Limit) else limit_value(expr)
        assert abs(complex(before) - complex(after)) < 1e-9 * (1 + abs(complex(before))), (name, expr, rewritten)
    FIGURES[name] = [applied, refused]
    assert applied > 0, f"{name} never applied: the audit does not test it"


def test_the_audit_covers_the_trusted_base():
    # every primitive rule of TRUSTED_BASE (all but the algebra and the equation rules) has its audit
    primitives = {name for name, _, _ in TRUSTED_BASE} - {"algebra", "equation rules"}
    assert primitives == set(AUDIT)


def test_audit_figures():
    if len(FIGURES) < len(AUDIT):
        pytest.skip("run with the audit above")
    applied = sum(a for a, _ in FIGURES.values())
    refused = sum(r for _, r in FIGURES.values())
    print(f"rule audit: {len(FIGURES)} rules, {applied + refused} cases, {applied} applied, {refused} left alone")
