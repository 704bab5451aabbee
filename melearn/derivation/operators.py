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
from .page import current
from .rules import Rule, kernel_rule

__all__ = ["Cov", "Expectation", "Indicator", "P", "Var", "operator"]

#: The reference for the rules of expectation (linearity, constants, products of independent variables).
EXPECTATION_SOURCE = "Casella and Berger (2002), properties of expectation"


class ExpectationNode(OpaqueOperator):
    """An unevaluated expectation; its class carries the subscript and the random quantities."""

    nargs = 1
    subscript = ""
    random: frozenset = frozenset()
    latex_name = r"\mathbb{E}"

    def _latex(self, printer, exp=None) -> str:
        return _power(rf"{self.latex_name}\left[{printer._print(self.args[0])}\right]", exp)


#: One class per (subscript, random set), for the whole process: interning, not state of a page or a check (sympy
#: compares applications by class, so the operator built twice on one page must be the same class; a class built on
#: one page and met on another is the same immutable operator). Its one effect beyond identity: an operator whose
#: subscript another one already shows draws its random set too, decided by the operators made before it.
_OPERATORS: dict[tuple, type] = {}


def _expectation_class(subscript: str, random: frozenset) -> type[sp.Function]:
    # one class per (subscript, random set): the same operator built twice is the same; operators over different
    # random sets are different classes, whatever their subscripts, so no rule of one applies to the other (sympy
    # compares applications by class, not by name; the name, shown in messages, is the same for all E_D)
    key = (subscript, random)
    if key not in _OPERATORS:
        name = f"E_{subscript}" if subscript else "E"
        latex_name = rf"\mathbb{{E}}_{{{subscript}}}" if subscript else r"\mathbb{E}"
        if any(other == subscript for other, _ in _OPERATORS):
            # another operator already shows this subscript: this one shows its random set as well
            listed = ", ".join(sp.latex(r) for r in sorted(random, key=sp.default_sort_key))
            latex_name = rf"\mathbb{{E}}_{{{subscript}\,[{listed}]}}" if subscript else rf"\mathbb{{E}}_{{[{listed}]}}"
        _OPERATORS[key] = type(
            name, (ExpectationNode,), {"subscript": subscript, "random": random, "latex_name": latex_name}
        )
    return _OPERATORS[key]


def _random_atoms(entries) -> tuple[frozenset, frozenset, frozenset]:
    """The symbols, function classes and indexed bases that make an expression random.

    Whatever is built from a random quantity is random: a compound entry (``p + q``) makes each of its symbols
    random; an indexed entry ``X[i]`` makes every entry of ``X`` random; a function application ``f(x; D)`` makes
    every application of ``f`` random.
    """
    symbols: set = set()
    functions: set = set()
    bases: set = set()
    for entry in entries:
        for node in sp.preorder_traversal(entry):
            if isinstance(node, AppliedUndef):
                functions.add(node.func)
            elif isinstance(node, sp.Indexed):
                bases.add(node.base)
            elif isinstance(node, sp.IndexedBase):
                bases.add(node)
        if isinstance(entry, sp.Symbol) or not isinstance(entry, (AppliedUndef, sp.Indexed, sp.IndexedBase)):
            symbols.update(s for s in entry.free_symbols if not isinstance(s, sp.Dummy))
    return frozenset(symbols), frozenset(functions), frozenset(bases)


def _involves(expr: sp.Basic, atoms) -> bool:
    symbols, functions, bases = atoms
    if expr.has(*symbols) if symbols else False:
        return True
    if any(app.func in functions for app in expr.atoms(AppliedUndef)):
        return True
    return any(x.base in bases for x in expr.atoms(sp.Indexed)) or (bool(bases) and expr.has(*bases))


def _names_found(expr: sp.Basic):
    """The meanings of the names defined on the current page (``Rule.definition``) that occur in ``expr``."""
    for name, meaning in list(current().definitions):
        if isinstance(name, AppliedUndef):
            if any(a.func == name.func for a in expr.atoms(AppliedUndef)):
                yield name, meaning
        elif isinstance(name, sp.Indexed):
            if any(x.base == name.base for x in expr.atoms(sp.Indexed)):
                yield name, meaning
        elif expr.has(name):
            yield name, meaning


class _Frozen:
    """Fields set once, in ``__init__``; assigning one afterwards raises ``AttributeError``."""

    _frozen = False

    def __setattr__(self, key, value):
        if self._frozen:
            raise AttributeError(f"{type(self).__name__} is immutable: {key} cannot be reassigned")
        object.__setattr__(self, key, value)

    def __delattr__(self, key):
        raise AttributeError(f"{type(self).__name__} is immutable: {key} cannot be deleted")


class Expectation(_Frozen):
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
        from ._algebra import vet_expression

        self.random = frozenset(vet_expression(r, "random") for r in random)
        if not self.random:
            raise ValueError("random must name at least one random quantity")
        self.subscript = str(subscript)
        self.function = _expectation_class(self.subscript, self.random)
        self._atoms = _random_atoms(self.random)
        e = self._tex()
        self.linearity = kernel_rule(
            "linearity of expectation",
            "cited",
            rf"{e}[aX + bY] = a\,{e}[X] + b\,{e}[Y] \text{{ for constants }} a, b",
            self._apply_linearity,
            EXPECTATION_SOURCE,
        )
        self.constant = kernel_rule(
            "expectation of a constant", "cited", rf"{e}[c] = c", self._apply_constant, EXPECTATION_SOURCE
        )
        self._frozen = True

    def _tex(self) -> str:
        return self.function.latex_name

    def __call__(self, arg: sp.Basic) -> sp.Basic:
        """The expectation of ``arg`` under this operator, as an unevaluated node."""
        return self.function(sp.sympify(arg))

    def is_random(self, expr: sp.Basic) -> bool:
        """Whether ``expr`` contains a random quantity of this operator (outside its own expectations)."""
        return self._random(sp.sympify(expr), frozenset())

    def _random(self, expr: sp.Basic, seen: frozenset) -> bool:
        # decided on what the expression means: a name defined (anywhere, in any order) as something random is
        # random, whether or not its definition has been unfolded yet
        own = [n for n in expr.atoms(self.function)]
        if own:
            expr = expr.xreplace({n: sp.Dummy() for n in own})
        if _involves(expr, self._atoms):
            return True
        for name, meaning in _names_found(expr):
            key = sp.srepr(name)
            if key not in seen and self._random(meaning, seen | {key}):
                return True
        return False

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
        if group_a & group_b or any(_may_coincide(x, y) for x in group_a for y in group_b):
            raise ValueError("the two groups of an independence rule must not share a quantity")
        if not (group_a | group_b) <= self.random:
            raise ValueError("an independence rule relates random quantities of its own operator")
        rest = self.random - group_a - group_b
        e = self._tex()
        a_tex = ", ".join(sp.latex(s) for s in sorted(group_a, key=sp.default_sort_key))
        b_tex = ", ".join(sp.latex(s) for s in sorted(group_b, key=sp.default_sort_key))
        statement = rf"{e}[g({a_tex})\,h({b_tex})] = {e}[g({a_tex})]\;{e}[h({b_tex})]"

        def involves(expr, group):
            # an entry X[k] involves the group's X[m] unless k and m are known to differ; names defined as
            # something that involves the group involve it too
            if expr.has(*group) or any(
                app.func in {r.func for r in group if isinstance(r, AppliedUndef)} for app in expr.atoms(AppliedUndef)
            ):
                return True
            if any(_may_coincide(x, g) for x in expr.atoms(sp.Indexed) for g in group):
                return True
            return any(involves(meaning, group) for _, meaning in _names_found(expr) if meaning != expr)

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

        return kernel_rule(
            name, kind, statement, split, source, facts=(("independent", self.function, group_a, group_b),)
        )

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


def _may_coincide(x: sp.Basic, y: sp.Basic) -> bool:
    """Whether two indexed entries of one base may be the same entry (their indices are not known to differ)."""
    if not (isinstance(x, sp.Indexed) and isinstance(y, sp.Indexed)) or x.base != y.base:
        return False
    return all(sp.expand(a - b).is_nonzero is not True for a, b in zip(x.indices, y.indices, strict=False))


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
Indicator.audit_meaning = "indicator"  # what the second route (melearn.audit) evaluates it as
