r"""The operators the pages write: expectation, probability, variance, covariance, indicator.

Each is an unevaluated sympy function: algebra treats ``E(f**2)`` as an unknown, so nothing is said about it
unless a step names a rule. ``Expectation`` brings its own rules (linearity, constants, independence); the
other operators are notation, whose facts a page states as definitions, assumptions or cited rules.

Examples
--------
>>> import sympy as sp
>>> from melearn.derivation import Derivation, Rule
>>> f, fbar = sp.symbols("f fbar")
>>> E = Expectation([f])
>>> mean = Rule.definition("(2.37)", {E(f): fbar})
>>> Derivation(E(2 * f + 3)).step(2 * fbar + 3, "", rules=[E.linearity, E.constant, mean]).check().checked
True
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp
from sympy.core.function import AppliedUndef

from ._algebra import OpaqueOperator, normal_form
from .rules import Rule

__all__ = ["Cov", "Expectation", "Indicator", "P", "Var", "operator"]

#: The reference for the rules of expectation (linearity, constants, products of independent variables).
EXPECTATION_SOURCE = "Casella and Berger (2002), properties of expectation"


class ExpectationNode(OpaqueOperator):
    """An unevaluated expectation; its class carries the subscript and the random quantities."""

    nargs = 1
    subscript = ""
    random: frozenset = frozenset()

    def _latex(self, printer, exp=None) -> str:
        sub = f"_{{{self.subscript}}}" if self.subscript else ""
        return _power(rf"\mathbb{{E}}{sub}\left[{printer._print(self.args[0])}\right]", exp)


_OPERATORS: dict[tuple, type] = {}


def _expectation_class(subscript: str, random: frozenset) -> type[sp.Function]:
    # one class per (subscript, random set): the same operator built twice is the same; operators over different
    # random sets are different classes, whatever their subscripts, so no rule of one applies to the other (sympy
    # compares applications by class, not by name; the name, shown in messages, is the same for all E_D)
    key = (subscript, random)
    if key not in _OPERATORS:
        name = f"E_{subscript}" if subscript else "E"
        _OPERATORS[key] = type(name, (ExpectationNode,), {"subscript": subscript, "random": random})
    return _OPERATORS[key]


class Expectation:
    r"""An expectation operator :math:`\mathbb{E}_D[\cdot]` over the given random quantities, and its rules.

    The operator stays unevaluated: ``E(f**2)`` is :math:`\mathbb{E}_D[f^2]` until a step names a rule that
    rewrites it. An expression is random under this operator when it contains a random quantity: one of the
    listed symbols, one of the listed function applications such as :math:`f(x; D)`, or any other application
    of a listed function (``f(z, D)`` when ``f(x, D)`` is listed). Everything else is a constant. An expectation
    by this same operator is a constant under it (what it averages over is integrated out).

    Parameters
    ----------
    random : iterable of sympy expressions
        The quantities that vary with what the expectation averages over (for :math:`\mathbb{E}_D`, the training
        set :math:`D`): symbols, function applications, indexed symbols.
    subscript : str
        Shown as :math:`\mathbb{E}_{\text{subscript}}`.

    Attributes
    ----------
    linearity, constant : Rule
        :math:`\mathbb{E}[aX + bY] = a\,\mathbb{E}[X] + b\,\mathbb{E}[Y]` for constants :math:`a, b`, and
        :math:`\mathbb{E}[c] = c`; both cited (properties of expectation).
    """

    def __init__(self, random: Iterable[sp.Basic], subscript: str = "D"):
        self.random = frozenset(sp.sympify(r) for r in random)
        if not self.random:
            raise ValueError("random must name at least one random quantity")
        self.subscript = str(subscript)
        self.function = _expectation_class(self.subscript, self.random)
        self._random_functions = frozenset(r.func for r in self.random if isinstance(r, AppliedUndef))
        e = self._tex()
        self.linearity = Rule(
            "linearity of expectation",
            "cited",
            rf"{e}[aX + bY] = a\,{e}[X] + b\,{e}[Y] \text{{ for constants }} a, b",
            self._apply_linearity,
            EXPECTATION_SOURCE,
        )
        self.constant = Rule(
            "expectation of a constant", "cited", rf"{e}[c] = c", self._apply_constant, EXPECTATION_SOURCE
        )

    def _tex(self) -> str:
        return rf"\mathbb{{E}}_{{{self.subscript}}}" if self.subscript else r"\mathbb{E}"

    def __call__(self, arg: sp.Basic) -> sp.Basic:
        """The expectation of ``arg`` under this operator, as an unevaluated node."""
        return self.function(sp.sympify(arg))

    def is_random(self, expr: sp.Basic) -> bool:
        """Whether ``expr`` contains a random quantity of this operator (outside its own expectations)."""
        expr = sp.sympify(expr)
        own = [n for n in expr.atoms(self.function)]
        if own:
            expr = expr.xreplace({n: sp.Dummy() for n in own})
        if expr.has(*self.random):
            return True
        return any(app.func in self._random_functions for app in expr.atoms(AppliedUndef))

    def is_constant(self, expr: sp.Basic) -> bool:
        """Whether ``expr`` is a constant under this operator (it contains no random quantity)."""
        return not self.is_random(expr)

    def independent(
        self,
        first: Iterable[sp.Basic],
        second: Iterable[sp.Basic],
        name: str = "independence",
        *,
        kind: str = "assumption",
        source: str = "",
    ) -> Rule:
        r"""The rule :math:`\mathbb{E}[g(A)\,h(B)] = \mathbb{E}[g(A)]\,\mathbb{E}[h(B)]` for independent A and B.

        Independence is a hypothesis, so the rule is an ``assumption`` (name where it is assumed in ``source``);
        the product rule it licenses is the cited property of expectation. The two groups must be disjoint and
        together hold random quantities of this operator only.
        """
        group_a = frozenset(sp.sympify(s) for s in first)
        group_b = frozenset(sp.sympify(s) for s in second)
        if not group_a or not group_b:
            raise ValueError("each group of an independence rule must name at least one random quantity")
        if group_a & group_b:
            raise ValueError("the two groups of an independence rule must not share a quantity")
        if not (group_a | group_b) <= self.random:
            raise ValueError("an independence rule relates random quantities of its own operator")
        rest = self.random - group_a - group_b
        e = self._tex()
        a_tex = ", ".join(sp.latex(s) for s in sorted(group_a, key=sp.default_sort_key))
        b_tex = ", ".join(sp.latex(s) for s in sorted(group_b, key=sp.default_sort_key))
        statement = rf"{e}[g({a_tex})\,h({b_tex})] = {e}[g({a_tex})]\;{e}[h({b_tex})]"

        def involves(expr, group):
            return expr.has(*group) or any(
                app.func in {r.func for r in group if isinstance(r, AppliedUndef)} for app in expr.atoms(AppliedUndef)
            )

        def split(expr: sp.Basic) -> sp.Basic:
            def factorise(node):
                factors = sp.Mul.make_args(node.args[0])
                part_a, part_b, constants = [], [], []
                for factor in factors:
                    in_a, in_b = involves(factor, group_a), involves(factor, group_b)
                    if rest and involves(factor, rest) or (in_a and in_b):
                        return node
                    if in_a:
                        part_a.append(factor)
                    elif in_b:
                        part_b.append(factor)
                    else:
                        constants.append(factor)
                if not part_a or not part_b or constants:
                    return node
                return self.function(sp.Mul(*part_a)) * self.function(sp.Mul(*part_b))

            return sp.sympify(expr).replace(lambda n: isinstance(n, self.function), factorise)

        return Rule(name, kind, statement, split, source)

    def _apply_linearity(self, expr: sp.Basic) -> sp.Basic:
        def distribute(node):
            total = sp.Integer(0)
            # expanded outside sums, integrals and operators only: linearity of E does not split a sum inside it
            for term in sp.Add.make_args(normal_form(node.args[0])):
                constant = [f for f in sp.Mul.make_args(term) if self.is_constant(f)]
                random = [f for f in sp.Mul.make_args(term) if not self.is_constant(f)]
                total += sp.Mul(*constant) * self.function(sp.Mul(*random))
            return total

        return sp.sympify(expr).replace(lambda n: isinstance(n, self.function), distribute)

    def _apply_constant(self, expr: sp.Basic) -> sp.Basic:
        return sp.sympify(expr).replace(
            lambda n: isinstance(n, self.function) and self.is_constant(n.args[0]), lambda n: n.args[0]
        )


def _power(tex: str, exp) -> str:
    return tex if exp is None else f"{{{tex}}}^{{{exp}}}"


class _NotationOperator(OpaqueOperator):
    """An operator that is notation only: its facts are stated by the page's rules."""

    symbol = ""
    left, right = r"\left(", r"\right)"

    def _latex(self, printer, exp=None) -> str:
        inside = ", ".join(printer._print(a) for a in self.args)
        return _power(f"{self.symbol}{self.left}{inside}{self.right}", exp)


def operator(
    name: str, symbol: str, *, nargs: int = 1, brackets: tuple[str, str] = (r"\left(", r"\right)")
) -> type[sp.Function]:
    r"""A new unevaluated operator, printed as ``symbol(args)``: e.g. ``operator("P", r"\mathrm{P}")``."""
    return type(
        name, (_NotationOperator,), {"nargs": nargs, "symbol": symbol, "left": brackets[0], "right": brackets[1]}
    )


#: Probability of an event, :math:`\mathrm{P}(\cdot)`.
P = operator("P", r"\mathrm{P}")
#: Variance, :math:`\operatorname{Var}[\cdot]`.
Var = operator("Var", r"\operatorname{Var}", brackets=(r"\left[", r"\right]"))
#: Covariance, :math:`\operatorname{Cov}[\cdot, \cdot]`.
Cov = operator("Cov", r"\operatorname{Cov}", nargs=2, brackets=(r"\left[", r"\right]"))
#: The indicator function, :math:`\mathbb{I}(\cdot)`: 1 when its argument holds, 0 otherwise.
Indicator = operator("Indicator", r"\mathbb{I}")
