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

import cmath
import random
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import InitVar, dataclass, field

import sympy as sp
from sympy.core.function import AppliedUndef

from ._algebra import OPAQUE, OpaqueOperator, bound_key, normal_form, vet_expression
from .page import Page, current, resolve

__all__ = ["KINDS", "Checkable", "Rule", "carried_premises", "unmet"]

#: The kinds of rule, in the order the ledger lists them.
KINDS = ("definition", "assumption", "lemma", "cited", "computation")

#: The token that only this package holds: ``Rule(...)`` is built by the package's factories, never directly.
_KERNEL = object()


def unmet(rule_name: str, condition: str) -> None:
    """Note on the current page that the rule ``rule_name`` did not apply somewhere because ``condition`` fails.

    A refusal then names the condition that kept a rule from applying (``Derivation.check`` reads the notes).
    """
    current().note_unmet(f"{rule_name}: {condition}")


def take_unmet() -> list[str]:
    """The side conditions noted on the current page since the last call, and forget them."""
    return current().take_unmet()


def rule_name(name) -> str:
    r"""A rule's name as text: a string as it is, a sympy condition as its formula (``$...$``, typeset by the book).

    A name that is a condition is rendered from the sympy objects themselves, so that the reader sees
    :math:`C \le m`, not ``C <= m``: a relation (``sympy.Le(C, m)``), or a chain of inequalities given as a tuple
    of relations each starting where the one before ends, written as one chain :math:`0 < p < 1` (build a
    relation that sympy would decide at once, such as ``0 < p`` for a positive ``p``, with ``evaluate=False``). A
    string may hold formulas of its own between dollar signs.

    >>> import sympy as sp
    >>> p, C, m = sp.Symbol("p", positive=True), sp.Symbol("C"), sp.Symbol("m")
    >>> rule_name((sp.Lt(0, p, evaluate=False), sp.Lt(p, 1))), rule_name(sp.Le(C, m)), rule_name("complement")
    ('$0 < p < 1$', '$C \\leq m$', 'complement')
    >>> rule_name((sp.Lt(0, C + 1), sp.Le(C + 1, m)))
    '$0 < C + 1 \\leq m$'
    """
    if isinstance(name, str):
        return name
    if isinstance(name, (tuple, list)) and name and all(isinstance(r, sp.core.relational.Relational) for r in name):
        return f"${condition_latex(tuple(name))}$"
    if not isinstance(name, sp.Basic):
        raise TypeError(f"name must be a string, a sympy expression or a tuple of relations, got {name!r}")
    return f"${condition_latex(name)}$"


_SIGNS = {sp.StrictLessThan: "<", sp.LessThan: r"\leq", sp.StrictGreaterThan: ">", sp.GreaterThan: r"\geq"}


def condition_latex(condition) -> str:
    r"""LaTeX of a condition; a tuple of relations that share their ends, as one chain :math:`a < b \le c`."""
    if not isinstance(condition, tuple):
        return sp.latex(condition)
    if len(condition) == 1:
        return sp.latex(condition[0])
    if not all(type(r) in _SIGNS for r in condition):
        raise ValueError(f"a chain of conditions is made of inequalities, got {condition}")
    for before, after in zip(condition, condition[1:], strict=False):
        if before.rhs != after.lhs:
            raise ValueError(f"a chain of conditions: {before} ends where {after} does not start")
    terms = [sp.latex(condition[0].lhs)]
    for relation in condition:
        terms += [_SIGNS[type(relation)], sp.latex(relation.rhs)]
    return " ".join(terms)


class Checkable:
    """What ``Rule.lemma`` is made from: a chain the kernel checks (``melearn.derivation.chain.Derivation``).

    The chain module imports this one (a step names its rules); this base class lets a lemma recognise a chain
    without importing the chain module back (no import cycle).
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        # the one chain a lemma is made from is the kernel's own: no other class can claim to be checked
        if (cls.__module__, cls.__qualname__) != ("melearn.derivation.chain", "Derivation"):
            raise TypeError(
                f"{cls.__qualname__}: a lemma is made from a Derivation (melearn.derivation.chain) only, never from "
                "another chain class"
            )
        super().__init_subclass__(**kwargs)

    # what a lemma reads of its chain; every chain defines them
    @property
    def checked(self) -> bool:  # pragma: no cover
        """Whether the kernel has checked the chain as it is now."""
        raise NotImplementedError

    @property
    def first(self) -> sp.Basic:  # pragma: no cover
        """The first expression of the chain."""
        raise NotImplementedError

    @property
    def result(self) -> sp.Basic:  # pragma: no cover
        """The last expression of the chain."""
        raise NotImplementedError

    @property
    def rules(self) -> tuple[Rule, ...]:  # pragma: no cover
        """The rules the chain uses."""
        raise NotImplementedError


#: The modules whose rules are code (the built-in rules of ``TRUSTED_BASE``): the only callers of ``kernel_rule``.
KERNEL_MODULES = frozenset(
    f"melearn.derivation.{name}" for name in ("sums", "iverson", "calculus", "limits", "operators", "integrals")
)


def kernel_rule(
    name: str, kind: str, statement: str, rewrite, source: str = "", equations: tuple = (), facts: tuple = ()
) -> Rule:
    """A rule whose rewrite is code: for the kernel's modules only (``KERNEL_MODULES``, each tested in ``tests/``).

    Called from anywhere else it is refused (``TypeError``): a page builds its rules with the ``Rule`` factories,
    whose statements are rendered from what they apply.
    """
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if caller not in KERNEL_MODULES:
        raise TypeError(
            f"kernel_rule is the kernel's own ({', '.join(sorted(KERNEL_MODULES))}), not {caller or 'this code'}'s: "
            "build a rule with Rule.definition, Rule.assumption, Rule.cited, Rule.lemma or Rule.computation"
        )
    return Rule(name, kind, statement, rewrite, source, equations, facts, _token=_KERNEL)


@dataclass(frozen=True, eq=False)
class Rule:
    r"""A named fact that a derivation step may use.

    Build rules with the constructors (``definition``, ``assumption``, ``lemma``, ``cited``,
    ``computation``). The plain constructor is private to the kernel's modules (``kernel_rule``), whose rewrites
    are code: called directly it is refused, since a statement and a rewrite given separately could differ, and so
    is a copy of a rule with other fields (``dataclasses.replace``).

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
    facts : tuple
        What the rule states beyond its equations, as data for the second route (``melearn.audit``):
        ``("independent", operator, group, group)``, ``("schema", pattern, template)``.
    """

    name: str
    kind: str
    statement: str
    rewrite: Callable[[sp.Basic], sp.Basic] = field(repr=False)
    source: str = ""
    equations: tuple = ()
    facts: tuple = field(default=(), repr=False)
    # the kernel's token, checked at construction and never stored: a copy with other fields
    # (``dataclasses.replace``) is built without it, and refused
    _token: InitVar[object] = None

    def __post_init__(self, _token):
        if _token is not _KERNEL:
            raise TypeError(
                "Rule(...) is private: build a rule with Rule.definition, Rule.assumption, Rule.cited, Rule.lemma or "
                "Rule.computation (its statement is then rendered from what it applies)"
            )
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not str(self.name).strip():
            raise ValueError("name must not be empty")

    def __call__(self, expr: sp.Basic) -> sp.Basic:
        """``expr`` with the rule applied wherever it applies."""
        return self.rewrite(expr)

    # -- rules that are equations ---------------------------------------------------------------------------
    @classmethod
    def _from_equations(
        cls, kind: str, name: str | sp.Basic, mapping, source: str, symbol: str = "=", page: Page | None = None
    ) -> Rule:
        name = rule_name(name)
        pairs = _pairs(mapping)
        statement = r",\quad ".join(f"{sp.latex(lhs)} {symbol} {sp.latex(rhs)}" for lhs, rhs in pairs)
        equations = tuple(sp.Eq(lhs, rhs, evaluate=False) for lhs, rhs in pairs)
        for lhs, rhs in pairs:
            vet_expression(lhs, "the rule's left-hand side")
            vet_expression(rhs, "the rule's right-hand side")
        facts: tuple = ()
        if kind == "definition":
            defined = tuple(_check_definition(lhs, rhs) for lhs, rhs in pairs)
            # the definitions are the page's (an expectation decides randomness on them), and the rule's: a chain
            # that names it brings them to the page it is checked on
            facts = tuple(("defines", name_, meaning) for name_, meaning in defined)
            for name_, meaning in defined:
                resolve(page).define(name_, meaning)
        elif kind == "cited" or (kind == "assumption" and any(lhs.has(sp.Wild) for lhs, _ in pairs)):
            # a cited result, or an assumed schema, claims its equation for every admissible value: try numbers
            for lhs, rhs in pairs:
                point = refuting_point(lhs, rhs)
                if point is not None:
                    raise ValueError(f"the {kind} rule {name!r} is false: {lhs} = {rhs} fails at {point}")
        return cls(name, kind, statement, _substitute(pairs), source, equations, facts, _token=_KERNEL)

    @classmethod
    def definition(cls, name: str | sp.Basic, mapping, *, source: str = "", page: Page | None = None) -> Rule:
        r"""A definition: each left-hand side is a new name for its right-hand side (shown as ``:=``).

        ``mapping`` is ``{name: meaning}`` or a ``(name, meaning)`` pair; the rule unfolds each name into its
        meaning (on both sides of a step, so it proves steps that fold a meaning into the name as well).
        ``source`` names the formula that defines it, e.g. ``"(2.37)"``. The definition is made on ``page``
        (``melearn.derivation.page.Page``; the current page by default).
        """
        return cls._from_equations("definition", name, mapping, source, symbol=r"\mathrel{:=}", page=page)

    @classmethod
    def assumption(cls, name: str | sp.Basic, mapping, *, source: str = "") -> Rule:
        """A hypothesis, stated as equations ``{lhs: rhs}``: the derivation holds only where it does."""
        return cls._from_equations("assumption", name, mapping, source)

    @classmethod
    def cited(cls, name: str | sp.Basic, mapping, *, source: str) -> Rule:
        """A result taken from a reference (``source``, required), stated as equations ``{lhs: rhs}``.

        Left-hand sides may hold ``sympy.Wild`` placeholders: the rule then applies to every instance.
        """
        if not str(source).strip():
            raise ValueError("a cited rule needs its source")
        return cls._from_equations("cited", name, mapping, source)

    @classmethod
    def lemma(cls, name: str | sp.Basic, derivation, *, source: str = "", variables: Iterable[sp.Symbol] = ()) -> Rule:
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
        name = rule_name(name)
        if not isinstance(derivation, Checkable):
            raise TypeError(f"derivation must be a Derivation, got {type(derivation).__name__}")
        if not derivation.checked:
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
        if variables:
            # the placeholders are shown as what they are: each symbol stands for any expression with its assumptions
            shown = []
            for v in sorted(variables, key=lambda s: s.name):
                facts = [k for k, value in sorted(v.assumptions0.items()) if value is True and k != "commutative"]
                declared = getattr(v, "_assumptions_orig", None) or {}
                facts = sorted(k for k, value in declared.items() if value is True and k != "commutative") or facts
                shown.append(sp.latex(v) + (rf"\ \text{{({', '.join(facts)})}}" if facts else ""))
            statement += r"\quad \text{for every }" + r",\ ".join(shown)
        stated: tuple = (("schema", pattern, template),) if variables else ()
        # the lemma carries the premises of the chain that proved it (its assumptions and definitions), so that
        # wherever it is used they are premises too (the second route imposes them; the ledger lists them)
        stated += (("carries", derivation.rules),)
        equation = (sp.Eq(lhs, rhs, evaluate=False),)
        return cls(name, "lemma", statement, rewrite, source, equation, stated, _token=_KERNEL)

    # -- sympy computations -----------------------------------------------------------------------------------
    @classmethod
    def computation(cls, name: str | sp.Basic, target, *, statement: str | None = None) -> Rule:
        r"""A rule in which sympy evaluates the nodes ``target`` names, and nothing else.

        Parameters
        ----------
        name : str
            Named for what it evaluates: ``"integral of a linear function"``, ``"the sum of 1, m times"``.
        target : sympy class, tuple of classes, list of nodes, or callable
            Which nodes are evaluated: every node of a class (``Integral``, ``Derivative``, ``Limit``, ``Sum``,
            ``Product``, ``Subs``); exactly the listed nodes (up to the names of their bound variables); or the
            nodes a predicate selects.
        statement : None
            Not accepted (a ``TypeError`` names it): the statement is rendered from ``target`` (the listed
            nodes, or the classes), so that it says what the rule evaluates.

        Notes
        -----
        A sum or product is evaluated only when its range satisfies :math:`b \ge a - 1` (empty when
        :math:`b = a - 1`); sympy's reading of reversed ranges (Karr's convention) is never used.
        """
        name = rule_name(name)
        if statement is not None:
            raise TypeError(
                "statement: a computation's statement is rendered from its target; to name particular nodes, pass "
                "them as target (a list of nodes)"
            )
        if isinstance(target, (list, set, frozenset)):
            nodes = [sp.sympify(n) for n in target]
            if not nodes or not all(isinstance(n, OPAQUE) for n in nodes):
                raise ValueError("target: a list of nodes must hold sums, products, integrals, derivatives or limits")
            keys = {bound_key(n) for n in nodes}
            predicate = lambda node: bound_key(node) in keys  # noqa: E731
            shown = sorted(nodes, key=sp.default_sort_key)
            statement = r"\text{sympy evaluates }" + r",\ ".join(sp.latex(n) for n in shown)
        elif isinstance(target, type) or isinstance(target, tuple):
            classes = target if isinstance(target, tuple) else (target,)
            if not all(isinstance(c, type) and issubclass(c, OPAQUE) for c in classes):
                raise ValueError("a computation evaluates sums, products, integrals, derivatives or limits")
            predicate = lambda node: isinstance(node, classes)  # noqa: E731
            what = " and ".join(c.__name__.lower() for c in classes)
            statement = rf"\text{{sympy evaluates every {what} it is applied to}}"
        elif callable(target):
            predicate = target
            statement = r"\text{sympy evaluates the nodes selected by the rule's condition: }" + (
                rf"\text{{{_text(name)}}}"
            )
        else:
            raise TypeError("target must be a sympy class, a tuple of them, a list of nodes, or a predicate")

        def admissible(node) -> bool:
            if isinstance(node, (sp.Sum, sp.Product)):
                for index, lo, hi in node.limits:
                    problem = range_unmet(index, lo, hi)
                    if problem:
                        unmet(name, problem)
                        return False
            return True

        def evaluate(expr):
            return sp.sympify(expr).replace(
                lambda n: isinstance(n, OPAQUE) and predicate(n) and admissible(n), lambda n: n.doit(deep=False)
            )

        return cls(name, "computation", statement, evaluate, "sympy", _token=_KERNEL)


def carried_premises(rule, seen=None) -> tuple:
    """The assumptions and definitions a lemma carries: those of the chain that proved it, and of its lemmas."""
    seen = set() if seen is None else seen
    found = []
    for fact in rule.facts:
        if fact[0] != "carries":
            continue
        for carried in fact[1]:
            if id(carried) in seen:
                continue
            seen.add(id(carried))
            if carried.kind in ("assumption", "definition"):
                found.append(carried)
            elif carried.kind == "lemma":
                found.extend(carried_premises(carried, seen))
    return tuple(found)


def _text(text: str) -> str:
    out = str(text).replace("\\", r"\textbackslash ")
    for c in "&%#$_{}":
        out = out.replace(c, "\\" + c)
    return out


def range_unmet(index, lo, hi, bound=frozenset()) -> str | None:
    r"""Why the range ``index = lo..hi`` is not one the kernel sums over, or None when it is.

    One convention: a range holds :math:`b - a + 1 \ge 0` integers (empty when :math:`b = a - 1`). A reversed
    range :math:`b < a - 1` is refused (sympy would read it by Karr's convention, as a negative sum), and so is
    a range whose order the assumptions do not decide. Symbols in ``bound`` (indices bound by an enclosing sum or
    integral) are read without their declared assumptions: their values come from their own ranges.
    """
    lo, hi = sp.sympify(lo), sp.sympify(hi)
    where = rf"${sp.latex(index)} = {sp.latex(lo)}, \ldots, {sp.latex(hi)}$"
    if lo.has(sp.oo, -sp.oo, sp.zoo) or hi.has(sp.oo, -sp.oo, sp.zoo):
        return f"the range {where} is infinite (only finite sums are manipulated)"
    length = neutral(sp.expand(hi - lo + 1), bound)
    if length.is_integer is not True:
        return f"the range {where} does not hold a whole number of terms ($b - a$ must be an integer)"
    if length.is_negative:
        return f"the range {where} is reversed ($b < a - 1$): refused, not read by sympy's convention"
    if length.is_nonnegative is not True:
        return rf"the range {where} is not known to satisfy $b \ge a - 1$"
    return None


def neutral(expr, bound):
    """``expr`` with each symbol of ``bound`` replaced by one that has no declared assumption (but integrality)."""
    if not bound:
        return expr
    return expr.xreplace({b: sp.Dummy(b.name, integer=True) if b.is_integer else sp.Dummy(b.name) for b in bound})


def bound_symbols(expr) -> frozenset:
    """The variables bound anywhere in ``expr`` (indices of sums and products, variables of integrals)."""
    from sympy.concrete.expr_with_limits import ExprWithLimits

    found = set()
    for node in sp.sympify(expr).atoms(ExprWithLimits):
        found.update(node.variables)
    return frozenset(found)


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
    # capture-avoiding: a placeholder never stands for an expression holding a variable the pattern binds (the
    # lemma sum_j I(sigma < t_j) = N(sigma) does not apply to sigma = 2 t_j, whose j the sum would capture)
    from sympy.concrete.expr_with_limits import ExprWithLimits

    wilds = sorted(pattern.atoms(sp.Wild), key=lambda w: w.name)
    bound = bound_symbols(pattern)

    def outside(expr, variable):
        # expr without the parts where ``variable`` is bound: what stays is where a value holding it would be free
        return expr.replace(lambda n: isinstance(n, ExprWithLimits) and variable in n.variables, lambda n: sp.S.Zero)

    def admissible_match(node):
        match = node.match(pattern)
        if match is None:
            return None
        for wild, value in match.items():
            for variable in sp.sympify(value).free_symbols & bound:
                if outside(template, variable).has(wild) or outside(pattern, variable).has(wild):
                    return None  # the variable would be captured by, or escape from, the pattern's binder
        return match

    def instantiate(match):
        return template.xreplace({w: match[w] for w in wilds if w in match})

    def rewrite(expr):
        expr = sp.sympify(expr)
        return expr.replace(
            lambda node: admissible_match(node) is not None, lambda node: instantiate(admissible_match(node))
        )

    return rewrite


def _wild_for(symbol: sp.Symbol) -> sp.Wild:
    """A placeholder matching exactly the expressions that have every assumption of the symbol (``assumptions0``)."""
    required = sorted((key, value) for key, value in symbol.assumptions0.items() if key != "commutative")
    properties = [lambda e, key=key, value=value: getattr(e, f"is_{key}", None) is value for key, value in required]
    return sp.Wild(f"{symbol.name}_", properties=properties)


def _check_definition(lhs: sp.Basic, rhs: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    """The (name, meaning) of a definition ``lhs := rhs``; refused unless one side is a fresh name.

    A definition introduces a name: a symbol, an undefined function or a notation operator (``Var``, ``P``)
    applied to arguments, or an indexed entry, that does not occur in its meaning (not even as another symbol of
    the same name). Written the other way round (``{E(f): fbar}``, folding a meaning into a new name) the name is
    the right-hand side. A number is never a name.
    """
    if lhs.is_number:
        raise ValueError(f"a definition introduces a name, not a number: {lhs} := {rhs}")
    for name, meaning in ((lhs, rhs), (rhs, lhs)):
        label = _name_of(name)
        if label is None:
            continue
        if label in _names_in(meaning):
            raise ValueError(f"a definition introduces a fresh name: {label} is used in its own meaning {meaning}")
        return name, meaning
    raise ValueError(f"a definition introduces a name (a symbol or an undefined function applied), got {lhs} := {rhs}")


def _name_of(expr: sp.Basic) -> str | None:
    """The name a definition of ``expr`` introduces, or None when ``expr`` is not a name."""
    if isinstance(expr, (sp.Dummy, sp.Wild)):
        return None
    if isinstance(expr, sp.Symbol):
        return expr.name
    if isinstance(expr, AppliedUndef):
        return str(expr.func)
    if isinstance(expr, sp.Indexed):
        return str(expr.base.label)
    if isinstance(expr, OpaqueOperator) and not hasattr(type(expr), "random"):
        return type(expr).__name__  # a notation operator (Var, P, ...): the definition gives its meaning
    return None


def _names_in(expr: sp.Basic) -> set[str]:
    names = {s.name for s in expr.atoms(sp.Symbol) if not isinstance(s, (sp.Dummy, sp.Wild))}
    names |= {str(f.func) for f in expr.atoms(AppliedUndef)}
    names |= {str(x.base.label) for x in expr.atoms(sp.Indexed)}
    names |= {type(n).__name__ for n in expr.atoms(OpaqueOperator) if not hasattr(type(n), "random")}
    return names


# -- numbers that refute an equation ------------------------------------------------------------------------------
_POINTS = 6


def _value(symbol, rng: random.Random):
    """A random value with the symbol's assumptions (a Wild's properties are tried on it), or None."""
    a = symbol.assumptions0
    for _ in range(40):
        if a.get("integer") or a.get("even") or a.get("odd") or a.get("prime"):
            value = sp.Integer(rng.randint(-6, 9))
        elif a.get("rational") or a.get("real") or a.get("positive") or a.get("negative") or a.get("finite"):
            value = sp.Rational(rng.randint(-40, 40), rng.randint(1, 9))
        else:
            value = sp.Rational(rng.randint(-40, 40), rng.randint(1, 9))
        ok = all(getattr(value, f"is_{k}", None) is v for k, v in a.items() if k != "commutative")
        if isinstance(symbol, sp.Wild):
            ok = ok and all(prop(value) for prop in symbol.properties)
        if ok:
            return value
    return None


def refuting_point(lhs: sp.Basic, rhs: sp.Basic, *, seed: int = 0) -> dict | None:
    """A point where ``lhs = rhs`` is numerically false, or None if none was found (or none can be evaluated).

    Free symbols and placeholders get random values with their assumptions (exact rationals, small integers);
    sums and products with integer bounds are written out; an expression holding an operator, an undefined
    function or anything else that does not evaluate to a number is skipped.
    """
    rng = random.Random(seed)
    difference = sp.sympify(lhs) - sp.sympify(rhs)
    if difference.atoms(AppliedUndef) or difference.atoms(OpaqueOperator) or difference.atoms(sp.Indexed):
        return None
    symbols = sorted(difference.free_symbols | difference.atoms(sp.Wild), key=lambda s: s.name)
    for _ in range(_POINTS):
        point = {}
        for s in symbols:
            value = _value(s, rng)
            if value is None:
                return None
            point[s] = value
        try:
            concrete = sp.sympify(lhs).xreplace(point), sp.sympify(rhs).xreplace(point)
            if any(
                not (hi - lo + 1).is_nonnegative
                for side in concrete
                for node in side.atoms(sp.Sum, sp.Product)
                for _, lo, hi in node.limits
            ):
                continue  # a reversed range: not a sum under the kernel's convention
            left, right = (complex(sp.N(side.doit(), 30)) for side in concrete)
        except Exception:  # noqa: BLE001 - anything that does not evaluate to a number is skipped
            continue
        if any(cmath.isnan(z) or cmath.isinf(z) for z in (left, right)):
            continue
        if abs(left - right) > 1e-9 * (1 + abs(left) + abs(right)):
            return {str(k): v for k, v in point.items()}
    return None
