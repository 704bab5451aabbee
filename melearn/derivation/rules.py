r"""Rules: the named facts a derivation step may use, each of one kind and stated by the equation it applies.

Every rule is one of five kinds, and the kind is shown wherever the rule is:

``definition``
    introduces a name: :math:`\bar f(\boldsymbol x) := \mathbb{E}_D[f(\boldsymbol x; D)]`.
``assumption``
    a hypothesis the derivation rests on (the textbook's, or a model's): zero-mean noise, independence.
``lemma``
    an equation proved by its own checked chain (``Rule.lemma`` takes the checked
    ``Derivation`` itself), with where it is proved.
``cited``
    a result taken from a reference, with the reference: linearity of expectation, a finite-sum identity.
``computation``
    sympy evaluates something (an integral, a derivative, a limit, a finite sum), named for what it evaluates.

A rule that is an equation is built from the equation (``Rule.definition``, ``Rule.assumption``,
``Rule.cited``, ``Rule.lemma``): its rewrite replaces each left-hand side by its right-hand side, and its
statement is rendered from the same equation, so the reader sees exactly the rule that was applied. A left-hand
side may hold ``sympy.Wild`` placeholders, making the rule a schema that applies to every instance; a lemma
can be generalised the same way over the symbols it was proved for (their assumptions become conditions on what a
placeholder may stand for). The few rules whose rewrite needs code (the expectation rules of
``Expectation``, the finite-sum rules of ``melearn.derivation.sums``) live in this
package and are tested for soundness there; pages build their rules with the constructors below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from ._algebra import OPAQUE, normal_form

__all__ = ["KINDS", "Rule"]

#: The kinds of rule, in the order the ledger lists them.
KINDS = ("definition", "assumption", "lemma", "cited", "computation")

_ASSUMPTION_KEYS = ("integer", "positive", "nonnegative", "negative", "nonpositive", "real", "nonzero")


@dataclass(frozen=True, eq=False)
class Rule:
    r"""A named fact that a derivation step may use.

    Build rules with the constructors (``definition``, ``assumption``, ``lemma``, ``cited``,
    ``computation``); the plain constructor is for the rules of this package, whose rewrites are code.

    Parameters
    ----------
    name : str
        A short name shown beside the steps that use the rule, e.g. ``"linearity of expectation"``.
    kind : {"definition", "assumption", "lemma", "cited", "computation"}
        What the rule is (see the module docstring).
    statement : str
        The rule as LaTeX. For an equation it is rendered from the equation itself.
    rewrite : callable
        Maps an expression to an equal expression in which the rule has been applied (where it applies).
    source : str
        Where the rule comes from: the reference of a cited result, where a lemma is proved, the formula a
        definition or assumption is taken from (for example ``"(2.37)"``). Shown in the ledger.
    equations : tuple of sympy.Eq
        The equations the rule applies, when it is an equation.
    """

    name: str
    kind: str
    statement: str
    rewrite: Callable[[sp.Basic], sp.Basic] = field(repr=False)
    source: str = ""
    equations: tuple = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not str(self.name).strip():
            raise ValueError("name must not be empty")

    def __call__(self, expr: sp.Basic) -> sp.Basic:
        """``expr`` with the rule applied wherever it applies."""
        return self.rewrite(expr)

    # -- rules that are equations ---------------------------------------------------------------------------
    @classmethod
    def _from_equations(cls, kind: str, name: str, mapping, source: str, symbol: str = "=") -> Rule:
        pairs = _pairs(mapping)
        statement = r",\quad ".join(f"{sp.latex(lhs)} {symbol} {sp.latex(rhs)}" for lhs, rhs in pairs)
        equations = tuple(sp.Eq(lhs, rhs, evaluate=False) for lhs, rhs in pairs)
        return cls(name, kind, statement, _substitute(pairs), source, equations)

    @classmethod
    def definition(cls, name: str, mapping, *, source: str = "") -> Rule:
        r"""A definition: each left-hand side is a new name for its right-hand side (shown as ``:=``).

        ``mapping`` is ``{name: meaning}`` or a ``(name, meaning)`` pair; the rule unfolds each name into its
        meaning (on both sides of a step, so it proves steps that fold a meaning into the name as well).
        ``source`` names the formula that defines it, e.g. ``"(2.37)"``.
        """
        return cls._from_equations("definition", name, mapping, source, symbol=r"\mathrel{:=}")

    @classmethod
    def assumption(cls, name: str, mapping, *, source: str = "") -> Rule:
        """A hypothesis, stated as equations ``{lhs: rhs}``: the derivation holds only where it does."""
        return cls._from_equations("assumption", name, mapping, source)

    @classmethod
    def cited(cls, name: str, mapping, *, source: str) -> Rule:
        """A result taken from a reference (``source``, required), stated as equations ``{lhs: rhs}``.

        Left-hand sides may hold ``sympy.Wild`` placeholders: the rule then applies to every instance.
        """
        if not str(source).strip():
            raise ValueError("a cited rule needs its source")
        return cls._from_equations("cited", name, mapping, source)

    @classmethod
    def lemma(cls, name: str, derivation, *, source: str = "", variables: Iterable[sp.Symbol] = ()) -> Rule:
        r"""The equation a checked derivation proved (its first expression equals its last), as a rule.

        Parameters
        ----------
        name : str
            The lemma's name.
        derivation : Derivation
            A chain that has passed ``check`` (refused otherwise).
        source : str
            Where it is proved, e.g. ``"proved above"`` or ``"the rank-loss page"``.
        variables : iterable of sympy symbols
            Symbols the lemma holds for in general: each becomes a placeholder that matches any expression with
            the symbol's assumptions (an ``integer, nonnegative`` symbol matches only expressions sympy knows to
            be nonnegative integers). Without them the lemma applies to its own expressions only.
        """
        if not getattr(derivation, "checked", False):
            raise ValueError("a lemma must be proved first: call check() on its derivation")
        lhs, rhs = derivation.first, derivation.result
        variables = tuple(variables)
        if variables:
            wilds = {v: _wild_for(v) for v in variables}
            pattern, template = lhs.xreplace(wilds), rhs.xreplace(wilds)
            rewrite = _replace_pattern(normal_form(pattern), template)
        else:
            rewrite = _substitute(((lhs, rhs),))
        statement = f"{sp.latex(lhs)} = {sp.latex(rhs)}"
        return cls(name, "lemma", statement, rewrite, source, (sp.Eq(lhs, rhs, evaluate=False),))

    # -- sympy computations -----------------------------------------------------------------------------------
    @classmethod
    def computation(cls, name: str, target, *, statement: str | None = None) -> Rule:
        r"""A rule in which sympy evaluates the nodes of type ``target`` (e.g. ``sympy.Integral``), and nothing else.

        Parameters
        ----------
        name : str
            Named for what it evaluates: ``"integral of a linear function"``, ``"the sum of 1, m times"``.
        target : sympy class, tuple of classes, or callable
            Which nodes are evaluated (``Integral``, ``Derivative``, ``Limit``, ``Sum``, ``Product``), or a
            predicate on nodes for a narrower choice.
        statement : str, optional
            LaTeX shown for the rule; by default the kind of node sympy evaluates.
        """
        if isinstance(target, type) or isinstance(target, tuple):
            classes = target if isinstance(target, tuple) else (target,)
            if not all(issubclass(c, OPAQUE) for c in classes):
                raise ValueError("a computation evaluates sums, products, integrals, derivatives or limits")
            predicate = lambda node: isinstance(node, classes)  # noqa: E731
            what = " and ".join(c.__name__.lower() for c in classes)
        elif callable(target):
            predicate = target
            what = "selected nodes"
        else:
            raise TypeError("target must be a sympy class, a tuple of them, or a predicate")
        if statement is None:
            statement = rf"\text{{sympy evaluates the {what}}}"

        def evaluate(expr):
            return sp.sympify(expr).replace(
                lambda n: isinstance(n, OPAQUE) and predicate(n), lambda n: n.doit(deep=False)
            )

        return cls(name, "computation", statement, evaluate, "sympy")


def _pairs(mapping) -> tuple[tuple[sp.Basic, sp.Basic], ...]:
    if isinstance(mapping, Mapping):
        items = list(mapping.items())
    elif isinstance(mapping, sp.Equality):
        items = [(mapping.lhs, mapping.rhs)]
    elif isinstance(mapping, tuple) and len(mapping) == 2 and not isinstance(mapping[0], (tuple, sp.Equality)):
        items = [mapping]
    else:
        items = []
        for item in mapping:
            items.extend(_pairs(item))
    pairs = tuple((sp.sympify(lhs), sp.sympify(rhs)) for lhs, rhs in items)
    if not pairs:
        raise ValueError("a rule needs at least one equation")
    for lhs, rhs in pairs:
        if lhs == rhs:
            raise ValueError(f"the equation {lhs} = {rhs} says nothing")
    return pairs


def _substitute(pairs):
    # the checker hands rules expressions in normal form (expanded outside sums, integrals and operators), so a
    # left-hand side is matched in that form too
    exact = [(normal_form(lhs), rhs) for lhs, rhs in pairs if not lhs.has(sp.Wild)]
    patterns = [(lhs, rhs) for lhs, rhs in pairs if lhs.has(sp.Wild)]

    def rewrite(expr):
        expr = sp.sympify(expr)
        if exact:
            expr = expr.subs(exact, simultaneous=True)
        for pattern, template in patterns:
            expr = _replace_pattern(pattern, template)(expr)
        return expr

    return rewrite


def _replace_pattern(pattern, template):
    # the template is instantiated structurally (xreplace), so a placeholder that stands for a bound index (the
    # index of a sum, the variable of an integral) is replaced too; sympy's own substitution would leave it
    wilds = sorted(pattern.atoms(sp.Wild), key=lambda w: w.name)

    def instantiate(match):
        return template.xreplace({w: match[w] for w in wilds if w in match})

    def rewrite(expr):
        expr = sp.sympify(expr)
        return expr.replace(lambda node: node.match(pattern) is not None, lambda node: instantiate(node.match(pattern)))

    return rewrite


def _wild_for(symbol: sp.Symbol) -> sp.Wild:
    """A placeholder matching exactly the expressions that have the symbol's assumptions."""
    required = [key for key in _ASSUMPTION_KEYS if symbol.assumptions0.get(key) is True]
    properties = [lambda e, key=key: getattr(e, f"is_{key}") is True for key in required]
    return sp.Wild(f"{symbol.name}_", properties=properties)
