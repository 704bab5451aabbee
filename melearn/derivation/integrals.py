r"""The integral over a data distribution, :math:`\int_{\boldsymbol{x} \sim \mathcal{D}} g`, and its linearity.

The textbook writes the generalization error as an integral over the data distribution, (2.3), (2.6), (2.7). It
stays unevaluated (an opaque operator, like every operator of :mod:`melearn.derivation.operators`): a step that
splits it names :attr:`IntegralOver.linearity`, a cited rule whose rewrite pulls out exactly the factors that do
not vary with the integration variables. What the integral of a particular function is (the density integrates
to one, say) is a rule the page states. ``tests/derivation/test_integrals.py`` checks the linearity rule against
integrals that sympy evaluates, and that it never pulls out a factor that varies.

Examples
--------
>>> import sympy as sp
>>> from melearn.derivation import Derivation
>>> x = sp.Symbol("x")
>>> g, h = sp.Function("g"), sp.Function("h")
>>> over = IntegralOver([x])
>>> Derivation(over(2 * g(x) - h(x))).step(2 * over(g(x)) - over(h(x)), "split", rules=[over.linearity]).check().checked
True
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp
from sympy.core.function import AppliedUndef

from ._algebra import normal_form
from .operators import _Frozen, _names_found, operator
from .rules import kernel_rule

__all__ = ["INTEGRAL_SOURCE", "IntegralOver"]

#: The reference for the linearity of the integral.
INTEGRAL_SOURCE = "Rudin (1976), ch. 11 (the Lebesgue integral is linear on integrable functions)"

#: The names of the integral operators made so far in the process: kept so that each class has a name of its own
#: (classes outlive a page); no check reads it, so it is not a page's state.
_NAMES: set[str] = set()


class IntegralOver(_Frozen):
    r"""An unevaluated integral :math:`\int_{\text{domain}} g\,\mathrm{d}\boldsymbol{x}` over the given variables.

    Parameters
    ----------
    variables : iterable of sympy expressions
        What varies over the domain of integration: the integration variable and anything that depends on it
        (for a data distribution, :math:`\boldsymbol{x}` and its label :math:`y`). A factor that contains none of
        them (nor an application of a listed function) is a constant of the integral.
    domain : str
        LaTeX written under the integral sign.
    differential : str
        LaTeX of the differential.
    name : str
        The operator's name in plain text (error messages); made unique if already used.

    Attributes
    ----------
    function : type
        The operator (an opaque sympy function of one argument, the integrand).
    linearity : Rule
        :math:`\int (a\,g + b\,h) = a \int g + b \int h` for constants :math:`a, b` and integrable :math:`g, h`
        (cited).
    """

    def __init__(
        self,
        variables: Iterable[sp.Basic],
        domain: str = r"\boldsymbol{x} \sim \mathcal{D}",
        differential: str = r"\mathrm{d}\boldsymbol{x}",
        name: str = "IntegralOverD",
    ):
        self.variables = frozenset(sp.sympify(v) for v in variables)
        if not self.variables:
            raise ValueError("an integral needs at least one variable of integration")
        self._functions = frozenset(v.func for v in self.variables if isinstance(v, AppliedUndef))
        unique, count = str(name), 1
        while unique in _NAMES:
            count += 1
            unique = f"{name}{count}"
        _NAMES.add(unique)
        # a class of its own even under a name used before: two integrals never share a rule
        self.function = operator(unique, rf"\int_{{{domain}}}", brackets=(" ", rf" \,{differential}"))
        # what the second route (melearn.audit) evaluates it as: an integral over a finite measure of these variables
        self.function.audit_measure = self.variables
        self.linearity = kernel_rule(
            "linearity of the integral",
            "cited",
            r"\int (a\,g + b\,h) = a \int g + b \int h \text{ for constants } a, b \text{ and integrable } g, h",
            self._apply_linearity,
            INTEGRAL_SOURCE,
        )
        self._frozen = True

    def __call__(self, integrand: sp.Basic) -> sp.Basic:
        """Return the unevaluated integral of ``integrand``."""
        return self.function(sp.sympify(integrand))

    def varies(self, expr: sp.Basic) -> bool:
        """Whether ``expr`` varies over the domain (contains a variable of integration or a listed function)."""
        return self._varies(sp.sympify(expr), frozenset())

    def _varies(self, expr: sp.Basic, seen: frozenset) -> bool:
        if expr.has(*self.variables) or any(app.func in self._functions for app in expr.atoms(AppliedUndef)):
            return True
        for name, meaning in _names_found(expr):  # a name defined as something that varies, varies
            key = sp.srepr(name)
            if key not in seen and self._varies(meaning, seen | {key}):
                return True
        return False

    def _apply_linearity(self, expr: sp.Basic) -> sp.Basic:
        def distribute(node):
            total = sp.Integer(0)
            for term in sp.Add.make_args(normal_form(node.args[0])):  # never splits a sum inside
                factors = sp.Mul.make_args(term)
                constant = sp.Mul(*[f for f in factors if not self.varies(f)])
                varying = sp.Mul(*[f for f in factors if self.varies(f)])
                # the integral of a constant alone is not linearity's business: it stays an integral of 1
                total += constant * self.function(varying)
            return total

        return sp.sympify(expr).replace(lambda n: isinstance(n, self.function), distribute)
