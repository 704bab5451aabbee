r"""Checked derivations: a chain of equal expressions, each step with its reason and the rules it uses.

A :class:`Derivation` is what a page of the book shows when it derives a formula. It holds the starting
expression and a list of steps; :meth:`Derivation.check` proves that every step equals the one before it, and
:meth:`Derivation._repr_latex_` renders the very same chain as ``\begin{aligned} ... \end{aligned}``, so the
derivation a reader sees is the one that was checked.

How a step is checked
---------------------
Step ``k`` follows from step ``k - 1`` when the two expressions are equal *modulo the rules the step names*:
both sides are rewritten with those rules (and only those) until nothing changes, and the difference must then
simplify to zero. A step that names no rule must be pure algebra. A step that silently relies on a fact it does
not name (say, independence) therefore fails, and the error names the step.

A :class:`Rule` is a named equality with a rewrite that applies it, for instance the definition
:math:`\mathbb{E}_D[f(x; D)] = \bar f(x)`. :class:`Expectation` makes the rules of an expectation operator:
linearity, the expectation of a constant, and independence of two groups of random quantities.

Examples
--------
>>> import sympy as sp
>>> a, b = sp.symbols("a b")
>>> d = Derivation((a + b) ** 2).step(a**2 + 2*a*b + b**2, "expand the square").check()
>>> d.result
a**2 + 2*a*b + b**2
>>> Derivation((a + b) ** 2).step(a**2 + b**2, "forget the cross term").check()
Traceback (most recent call last):
...
melearn.derivation.DerivationError: step 1 ('forget the cross term') does not follow from step 0: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

import sympy as sp

__all__ = ["Derivation", "DerivationError", "Expectation", "Rule", "Step", "equal_modulo"]

_MAX_REWRITE_ROUNDS = 50
LAYOUTS = ("side", "below")


class DerivationError(AssertionError):
    """A step of a :class:`Derivation` does not follow from the step before it."""


@dataclass(frozen=True)
class Rule:
    r"""A named equality that a derivation step may use.

    Parameters
    ----------
    name : str
        A short name shown beside the steps that use the rule, e.g. ``"linearity"``.
    statement : str
        The rule as LaTeX, e.g. ``r"\mathbb{E}_D[aX + bY] = a\,\mathbb{E}_D[X] + b\,\mathbb{E}_D[Y]"``.
    rewrite : callable
        Maps an expression to an equal expression in which the rule has been applied (where it applies).
    """

    name: str
    statement: str
    rewrite: Callable[[sp.Expr], sp.Expr]

    def __call__(self, expr: sp.Expr) -> sp.Expr:
        return self.rewrite(expr)

    @classmethod
    def substitution(cls, name: str, mapping: Mapping[sp.Expr, sp.Expr], statement: str | None = None) -> "Rule":
        r"""A rule that replaces each left-hand side of ``mapping`` by its right-hand side.

        Use it for definitions (:math:`\mathbb{E}_D[f] = \bar f`) and for stated assumptions
        (:math:`\mathbb{E}_D[y_D] = y`). The default statement is the mapping written as equations.
        """
        pairs = dict(mapping)
        if statement is None:
            statement = r",\quad ".join(f"{sp.latex(lhs)} = {sp.latex(rhs)}" for lhs, rhs in pairs.items())
        return cls(name, statement, lambda expr: sp.sympify(expr).subs(pairs, simultaneous=True))


@dataclass(frozen=True)
class Step:
    """One link of a derivation: the expression, the reason it holds, and the rules it uses."""

    expr: sp.Expr
    why: str
    rules: tuple[Rule, ...] = ()


def _rewrite(expr: sp.Expr, rules: Iterable[Rule]) -> sp.Expr:
    """Apply ``rules`` (and expansion) until the expression stops changing."""
    rules = tuple(rules)
    # UnevaluatedExpr only keeps a form on screen (e.g. 1/n written apart); the algebra sees through it
    current = sp.sympify(expr).replace(lambda e: isinstance(e, sp.UnevaluatedExpr), lambda e: e.args[0])
    current = sp.expand(current)
    for _ in range(_MAX_REWRITE_ROUNDS):
        following = current
        for rule in rules:
            following = sp.expand(rule(following))
        if following == current:
            return current
        current = following
    raise DerivationError(f"the rules {[r.name for r in rules]} did not settle after {_MAX_REWRITE_ROUNDS} rounds")


def _is_zero(expr: sp.Expr) -> bool:
    """Decide ``expr == 0`` symbolically: cheap normal forms first, then ``simplify``.

    Only a symbolic zero counts; sympy's numerical ``equals`` is never used, so a check cannot pass by luck.
    """
    if expr == 0:
        return True
    for normal_form in (sp.expand, sp.cancel, sp.simplify):
        if normal_form(expr) == 0:
            return True
    return False


def equal_modulo(a: sp.Expr, b: sp.Expr, rules: Iterable[Rule] = ()) -> bool:
    """Return whether ``a == b`` follows from algebra and the given ``rules`` alone."""
    rules = tuple(rules)
    difference = _rewrite(a, rules) - _rewrite(b, rules)
    return _is_zero(difference)


class Derivation:
    r"""A chain of equal expressions, each with the reason it holds; checked, then rendered.

    Parameters
    ----------
    start : sympy expression
        The expression being transformed (the left-hand side of the first line).
    lhs : sympy expression or str, optional
        What the chain is equal to, written before the first "=" instead of ``start`` itself; for instance the
        symbol :math:`E(f; D)` when ``start`` is the definition it stands for. A string is used as raw LaTeX.
    latex_options : mapping, optional
        Keyword arguments for :func:`sympy.latex` when the chain is rendered, e.g. ``{"order": "none"}`` to keep
        the order in which the terms of an unevaluated expression were written.
    layout : {"side", "below"}
        Where the reasons go when the chain is rendered: in a column to the right of the steps, or each on its
        own line below its step (for long expressions, whose right-hand column would fall off the page).
    lhs_note : str
        The reason shown on the first line ``lhs = start`` when ``lhs`` is given (by default "definition"; say
        "by (2.41)" when the chain starts from an earlier result).

    Notes
    -----
    sympy evaluates ``(f - fbar) + (fbar - y)`` to ``f - y`` as soon as it is built. A step that only regroups
    ("add and subtract fbar") must be built unevaluated, e.g. ``sp.Add(f - fbar, fbar - y, evaluate=False)``,
    or it would render as the line before it.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.symbols("x")
    >>> d = Derivation(sp.sin(x) ** 2 + sp.cos(x) ** 2).step(sp.Integer(1), "Pythagoras").check()
    >>> print(d.latex())
    \begin{aligned}
    \sin^{2}{\left(x \right)} + \cos^{2}{\left(x \right)} &= 1 && \checkmark\ \text{Pythagoras}
    \end{aligned}
    """

    def __init__(
        self,
        start: sp.Expr,
        lhs: sp.Expr | str | None = None,
        *,
        latex_options: Mapping | None = None,
        layout: str = "side",
        lhs_note: str = "definition",
    ):
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
        self.start = sp.sympify(start)
        self.lhs = lhs
        self.latex_options = dict(latex_options or {})
        self.layout = layout
        self.lhs_note = lhs_note
        self.steps: list[Step] = []
        self._checked = False

    # -- building ------------------------------------------------------------------------------------------
    def step(self, expr: sp.Expr, why: str, *, rules: Iterable[Rule] = ()) -> "Derivation":
        """Append a step: ``expr`` equals the previous expression because ``why``, using ``rules``.

        Returns the derivation itself, so that steps chain.
        """
        rules = tuple(rules)
        for rule in rules:
            if not isinstance(rule, Rule):
                raise TypeError(f"rules must be Rule objects, got {type(rule).__name__}")
        self.steps.append(Step(sp.sympify(expr), str(why), rules))
        self._checked = False
        return self

    # -- checking ------------------------------------------------------------------------------------------
    def check(self) -> "Derivation":
        """Prove every step; raise :class:`DerivationError` naming the first one that does not follow.

        Returns the derivation itself when every step holds.
        """
        if not self.steps:
            raise DerivationError("the derivation has no steps to check")
        previous = self.start
        for k, step in enumerate(self.steps, start=1):
            if not equal_modulo(previous, step.expr, step.rules):
                residue = sp.simplify(_rewrite(previous, step.rules) - _rewrite(step.expr, step.rules))
                used = ", ".join(rule.name for rule in step.rules) or "no rules"
                raise DerivationError(
                    f"step {k} ({step.why!r}) does not follow from step {k - 1}: "
                    f"with {used}, the two sides differ by {residue}"
                )
            previous = step.expr
        self._checked = True
        return self

    @property
    def checked(self) -> bool:
        """Whether :meth:`check` has passed since the last step was added."""
        return self._checked

    @property
    def result(self) -> sp.Expr:
        """The last expression of the chain."""
        return self.steps[-1].expr if self.steps else self.start

    def equation(self) -> sp.Eq:
        """The first expression equals the last, as a sympy equation (unevaluated)."""
        return sp.Eq(self.start, self.result, evaluate=False)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The distinct rules the chain uses, in order of first use."""
        seen: dict[str, Rule] = {}
        for step in self.steps:
            for rule in step.rules:
                seen.setdefault(rule.name, rule)
        return tuple(seen.values())

    # -- rendering -----------------------------------------------------------------------------------------
    def latex(self, *, reasons: bool = True, layout: str | None = None) -> str:
        r"""The chain as ``\begin{aligned} ... \end{aligned}``, with reasons and rule names beside the steps.

        A step is marked ``\checkmark`` only when :meth:`check` has passed. ``layout`` overrides the
        derivation's own (``"side"``: reasons in a right-hand column; ``"below"``: each reason under its step).
        """
        layout = self.layout if layout is None else layout
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
        tex = self._tex
        head = self.lhs if isinstance(self.lhs, str) else tex(self.lhs if self.lhs is not None else self.start)
        rows: list[tuple[str, str]] = []  # (the line "head &= expr", its note)
        if self.lhs is not None and self.steps:
            rows.append((f"{head} &= {tex(self.start)}", _note(self.lhs_note, (), self._checked)))
            head = ""
        for step in self.steps:
            rows.append((f"{head} &= {tex(step.expr)}", _note(step.why, step.rules, self._checked)))
            head = ""
        if not reasons:
            lines = [line for line, _ in rows]
        elif layout == "side":
            lines = [f"{line} && {note}" for line, note in rows]
        else:
            lines = [part for line, note in rows for part in (line, rf"&\quad {{\color{{gray}}{{{note}}}}}")]
        body = " \\\\\n".join(line.strip() for line in lines)
        return f"\\begin{{aligned}}\n{body}\n\\end{{aligned}}"

    def _tex(self, expr) -> str:
        return sp.latex(expr, **self.latex_options)

    def rules_latex(self) -> str:
        r"""The rules the chain uses, one per line, as ``\begin{aligned} ... \end{aligned}``."""
        if not self.rules:
            return r"\begin{aligned}\text{(no rules: every step is algebra)}\end{aligned}"
        body = " \\\\\n".join(f"\\text{{{_escape(rule.name)}:}} &\\quad {rule.statement}" for rule in self.rules)
        return f"\\begin{{aligned}}\n{body}\n\\end{{aligned}}"

    def _repr_latex_(self) -> str:
        return f"$$\n{self.latex()}\n$$"

    def __repr__(self) -> str:
        state = "checked" if self._checked else "not checked"
        return f"<Derivation of {self.start} in {len(self.steps)} steps, {state}>"


def _escape(text: str) -> str:
    """Escape the characters that break ``\\text{...}`` outside of ``$...$``."""
    return text.replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")


def _note(why: str, rules: tuple[Rule, ...], checked: bool) -> str:
    mark = r"\checkmark\ " if checked else ""
    names = f"\\ [\\text{{{', '.join(_escape(rule.name) for rule in rules)}}}]" if rules else ""
    return f"{mark}\\text{{{_escape(why)}}}{names}"


# -- the expectation operator ----------------------------------------------------------------------------------
class _ExpectationFunction(sp.Function):
    """An unevaluated expectation; its subscript is set by :class:`Expectation`."""

    nargs = 1
    subscript = ""

    def _latex(self, printer) -> str:
        sub = f"_{{{self.subscript}}}" if self.subscript else ""
        return rf"\mathbb{{E}}{sub}\left[{printer._print(self.args[0])}\right]"


_EXPECTATION_CLASSES: dict[str, type] = {}


def _expectation_class(subscript: str) -> type:
    # one sympy class per subscript, so that E_D built twice is the same operator
    if subscript not in _EXPECTATION_CLASSES:
        name = f"E_{subscript}" if subscript else "E"
        _EXPECTATION_CLASSES[subscript] = type(name, (_ExpectationFunction,), {"subscript": subscript})
    return _EXPECTATION_CLASSES[subscript]


class Expectation:
    r"""An expectation operator :math:`\mathbb{E}_D[\cdot]` over the given random quantities, and its rules.

    The operator stays unevaluated: ``E(f**2)`` is just :math:`\mathbb{E}_D[f^2]` until a step names a rule that
    rewrites it. Symbols not listed in ``random`` are constants under this expectation.

    Parameters
    ----------
    random : iterable of sympy symbols
        The quantities that vary with what the expectation averages over (for :math:`\mathbb{E}_D`, the training
        set :math:`D`): e.g. :math:`f(x; D)` and :math:`y_D`.
    subscript : str
        Shown as :math:`\mathbb{E}_{\text{subscript}}`.

    Examples
    --------
    >>> import sympy as sp
    >>> f, fbar = sp.symbols("f fbar")
    >>> E = Expectation([f])
    >>> mean = Rule.substitution("definition of fbar", {E(f): fbar})
    >>> Derivation(E(2 * f + 3)).step(2 * fbar + 3, "", rules=[E.linearity, E.constant, mean]).check().checked
    True
    """

    def __init__(self, random: Iterable[sp.Symbol], subscript: str = "D"):
        self.random = frozenset(sp.sympify(r) for r in random)
        if not self.random:
            raise ValueError("random must name at least one random quantity")
        self.function = _expectation_class(subscript)
        self.subscript = subscript
        e = rf"\mathbb{{E}}_{{{subscript}}}" if subscript else r"\mathbb{E}"
        self.linearity = Rule(
            "linearity",
            rf"{e}[aX + bY] = a\,{e}[X] + b\,{e}[Y] \text{{ for constants }} a, b",
            self._apply_linearity,
        )
        self.constant = Rule("expectation of a constant", rf"{e}[c] = c", self._apply_constant)

    def __call__(self, arg: sp.Expr) -> sp.Expr:
        return self.function(sp.sympify(arg))

    def is_constant(self, expr: sp.Expr) -> bool:
        """Whether ``expr`` involves none of the random quantities."""
        return not (sp.sympify(expr).free_symbols & self.random)

    def independent(self, first: Iterable[sp.Symbol], second: Iterable[sp.Symbol], name: str = "independence") -> Rule:
        r"""The rule :math:`\mathbb{E}[g(A)\,h(B)] = \mathbb{E}[g(A)]\,\mathbb{E}[h(B)]` for independent A and B."""
        group_a = frozenset(sp.sympify(s) for s in first)
        group_b = frozenset(sp.sympify(s) for s in second)
        if group_a & group_b:
            raise ValueError("the two groups of an independence rule must not share a quantity")
        e = sp.latex(self.function(sp.Symbol("X"))).split(r"\left[")[0]
        a_tex = ", ".join(sp.latex(s) for s in sorted(group_a, key=sp.default_sort_key))
        b_tex = ", ".join(sp.latex(s) for s in sorted(group_b, key=sp.default_sort_key))
        statement = rf"{e}[g({a_tex})\,h({b_tex})] = {e}[g({a_tex})]\;{e}[h({b_tex})]"

        def split(expr: sp.Expr) -> sp.Expr:
            def factorise(node):
                factors = sp.Mul.make_args(node.args[0])
                part_a = [f for f in factors if f.free_symbols & self.random and f.free_symbols & self.random <= group_a]
                part_b = [f for f in factors if f.free_symbols & self.random and f.free_symbols & self.random <= group_b]
                rest = [f for f in factors if f not in part_a and f not in part_b]
                if not part_a or not part_b or any(f.free_symbols & self.random for f in rest):
                    return node
                return self.function(sp.Mul(*rest, *part_a)) * self.function(sp.Mul(*part_b))

            return expr.replace(lambda n: isinstance(n, self.function), factorise)

        return Rule(name, statement, split)

    def _apply_linearity(self, expr: sp.Expr) -> sp.Expr:
        def distribute(node):
            total = sp.Integer(0)
            for term in sp.Add.make_args(sp.expand(node.args[0])):
                constant = [f for f in sp.Mul.make_args(term) if self.is_constant(f)]
                random = [f for f in sp.Mul.make_args(term) if not self.is_constant(f)]
                total += sp.Mul(*constant) * self.function(sp.Mul(*random))
            return total

        return sp.sympify(expr).replace(lambda n: isinstance(n, self.function), distribute)

    def _apply_constant(self, expr: sp.Expr) -> sp.Expr:
        return sp.sympify(expr).replace(
            lambda n: isinstance(n, self.function) and self.is_constant(n.args[0]), lambda n: n.args[0]
        )
