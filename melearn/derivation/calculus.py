r"""Rules of calculus that the pages need beyond what sympy's evaluation (:meth:`Rule.computation`) states.

A :class:`sympy.Derivative` is an unknown to algebra (:mod:`melearn.derivation._algebra`). Differentiating a finite
sum term by term is not an evaluation (the sum stays a sum, with a symbolic number of terms), so it takes its own
rule: the linearity of the derivative, applied to the finitely many terms of the sum. It is cited as such, and
``tests/derivation/test_calculus.py`` checks the rewrite against explicit sums.
"""

from __future__ import annotations

import sympy as sp

from .rules import Rule, bound_symbols, kernel_rule, range_unmet, unmet

__all__ = ["CALCULUS_SOURCE", "derivative_of_sum"]

CALCULUS_SOURCE = "Apostol (1967), Calculus, vol. 1, ch. 4: the derivative of a sum is the sum of the derivatives"


def derivative_of_sum() -> Rule:
    r""":math:`\frac{d}{dx}\sum_{i=a}^{b} f_i(x) = \sum_{i=a}^{b} \frac{d}{dx} f_i(x)` when :math:`a, b` are free of x.

    Applies to the first derivative of a one-index sum whose limits do not depend on the variable (a finite sum
    of differentiable terms); any other derivative is left alone. Side condition, checked where it applies: the sum
    is finite, its range meeting the sums' convention (:math:`b \ge a - 1`, finite bounds); a series (an infinite
    bound) is refused, since term-by-term differentiation of a series needs uniform convergence.
    """
    name = "derivative of a finite sum"

    def applies(node) -> bool:
        if not (isinstance(node, sp.Derivative) and len(node.variable_count) == 1):
            return False
        ((variable, count),) = node.variable_count
        inner = node.expr
        if count != 1 or not isinstance(inner, sp.Sum) or len(inner.limits) != 1:
            return False
        index, lower, upper = inner.limits[0]
        if index == variable or lower.has(variable) or upper.has(variable):
            return False
        problem = range_unmet(index, lower, upper, bound_symbols(node) - {index})
        if problem is not None:
            unmet(name, problem)
            return False
        return True

    def move_inside(node):
        variable = node.variable_count[0][0]
        inner = node.expr
        return sp.Sum(sp.Derivative(inner.function, variable), *inner.limits)

    def rewrite(expr):
        return sp.sympify(expr).replace(applies, move_inside)

    return kernel_rule(
        name,
        "cited",
        r"\frac{d}{dx}\sum_{i=a}^{b} f_i(x) = \sum_{i=a}^{b} \frac{d}{dx} f_i(x)",
        rewrite,
        CALCULUS_SOURCE,
    )
