"""The integral over a data distribution (melearn.derivation.integrals): its linearity rule agrees with integrals
sympy evaluates, and never pulls out a factor that varies with the variable of integration."""

from __future__ import annotations

import pytest
import sympy as sp

from melearn.derivation import Derivation, show_refusal
from melearn.derivation.integrals import IntegralOver

x = sp.Symbol("x", real=True)
y = sp.Symbol("y")
a, b = sp.symbols("a b", real=True)
f, p = sp.Function("f"), sp.Function("p")


def as_integral(expr, over):
    """The same expression with the operator replaced by sympy's integral over [0, 1] (the independent route)."""
    return expr.replace(lambda n: isinstance(n, over.function), lambda n: sp.Integral(n.args[0], (x, 0, 1))).doit()


@pytest.mark.parametrize(
    "integrand",
    [
        3 * x**2 - 2 * x + 5,
        a * sp.exp(x) + b * x,
        (a + 1) * (x - a) ** 2,
        sp.Rational(1, 2) * sp.sin(x) - a * b * sp.cos(x),
    ],
)
def test_linearity_keeps_the_value(integrand):
    over = IntegralOver([x])
    rewritten = over.linearity(over(integrand))
    assert rewritten != over(integrand)
    assert sp.simplify(as_integral(rewritten, over) - as_integral(over(integrand), over)) == 0


def test_factors_that_vary_stay_inside():
    over = IntegralOver([x, y])
    rewritten = over.linearity(over(2 * y * f(x) - a * p(x)))
    assert rewritten == 2 * over(y * f(x)) - a * over(p(x))
    # a function applied to x varies, even when listed only through x
    assert not any(n.args[0] == 1 for n in rewritten.atoms(over.function))


def test_listed_function_applications_vary_wherever_they_are_applied():
    z = sp.Symbol("z")
    over = IntegralOver([f(x)])
    assert over.varies(f(z)) and not over.varies(a * z)


def test_a_product_is_not_split_and_a_varying_factor_not_pulled_out():
    over = IntegralOver([x, y])
    # int f g != int f int g
    show_refusal(Derivation(over(f(x) * p(x))).step(over(f(x)) * over(p(x)), "split", rules=[over.linearity]))
    # y is the label of x: it varies, so it is not a constant of the integral
    show_refusal(Derivation(over(y * p(x))).step(y * over(p(x)), "pull out", rules=[over.linearity]))
    # without the rule, the integral is an unknown to algebra
    show_refusal(Derivation(over(f(x) + p(x))).step(over(f(x)) + over(p(x)), "no rule"))


def test_two_integrals_over_different_variables_are_different_operators():
    first, second = IntegralOver([x]), IntegralOver([y])
    assert first.function is not second.function
    show_refusal(
        Derivation(first(2 * f(x))).step(2 * first(f(x)), "the other operator's rule", rules=[second.linearity])
    )


def test_an_integral_needs_a_variable():
    with pytest.raises(ValueError):
        IntegralOver([])
