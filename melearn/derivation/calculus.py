r"""Rules of calculus that the pages need beyond what sympy's evaluation (:meth:`Rule.computation`) states.

A :class:`sympy.Derivative` is an unknown to algebra (:mod:`melearn.derivation._algebra`). Differentiating a finite
sum term by term is not an evaluation (the sum stays a sum, with a symbolic number of terms), so it takes its own
rule: the linearity of the derivative, applied to the finitely many terms of the sum. It is cited as such, and
``tests/test_derivation_calculus.py`` checks the rewrite against explicit sums.
"""

from __future__ import annotations

import sympy as sp

from .rules import Rule

__all__ = ["CALCULUS_SOURCE", "derivative_of_sum"]

CALCULUS_SOURCE = "Apostol (1967), Calculus, vol. 1, ch. 4: the derivative of a sum is the sum of the derivatives"


def derivative_of_sum() -> Rule:
    r""":math:`\frac{d}{dx}\sum_{i=a}^{b} f_i(x) = \sum_{i=a}^{b} \frac{d}{dx} f_i(x)` when :math:`a, b` are free of x.

    Applies to the first derivative of a one-index sum whose limits do not depend on the variable (a finite sum
    of differentiable terms); any other derivative is left alone.
    """

    def applies(node) -> bool:
        if not (isinstance(node, sp.Derivative) and len(node.variable_count) == 1):
            return False
        ((variable, count),) = node.variable_count
        inner = node.expr
        if count != 1 or not isinstance(inner, sp.Sum) or len(inner.limits) != 1:
            return False
        index, lower, upper = inner.limits[0]
        return index != variable and not (lower.has(variable) or upper.has(variable))

    def move_inside(node):
        variable = node.variable_count[0][0]
        inner = node.expr
        return sp.Sum(sp.Derivative(inner.function, variable), *inner.limits)

    def rewrite(expr):
        return sp.sympify(expr).replace(applies, move_inside)

    return Rule(
        "derivative of a finite sum",
        "cited",
        r"\frac{d}{dx}\sum_{i=a}^{b} f_i(x) = \sum_{i=a}^{b} \frac{d}{dx} f_i(x)",
        rewrite,
        CALCULUS_SOURCE,
    )
