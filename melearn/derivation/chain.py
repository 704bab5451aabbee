r"""A derivation: a chain of equal expressions, each step with its reason and the rules it uses, checked.

How a step is checked
---------------------
Step ``k`` follows from step ``k - 1`` when the two expressions are equal *modulo the rules the step names*: both
sides are rewritten with those rules (and only those) until nothing changes, and their difference must then be
zero by algebra alone (``melearn.derivation._algebra``): sums, integrals, derivatives, limits and expectations
are unknowns to algebra, so none of them is evaluated unless a named rule does it. Three more things are refused:

* a step that changes nothing (the same expression, or the same rendering, as the line before);
* a named rule the step does not need (the step still holds with that rule removed): a rule beside a step is a
  claim that the step uses it;
* a first line ``lhs = start`` that claims more than notation without being checked.

``check()`` marks the chain as proved for the exact steps it checked; adding a step, or changing the chain in any
way, removes every tick until the next ``check()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import sympy as sp

from ..i18n import joined, say, template, translate
from . import ledger as _ledger
from . import render as _render
from ._algebra import is_zero, normal_form, residue, vet_expression
from .page import Page, resolve
from .rules import Checkable, Rule, carried_premises, take_unmet

__all__ = ["Derivation", "DerivationError", "Step", "equal_modulo", "show_refusal"]

_MAX_REWRITE_ROUNDS = 50
_MAX_SIZE, _MAX_GROWTH = 5_000, 20  # nodes: a rewritten side may grow to max(5000, 20 x its size)


class DerivationError(AssertionError):
    """A step of a ``Derivation`` does not follow from the step before it, or claims what it does not use.

    ``str(error)`` is the whole message, one line of text. A refused step also carries what the book typesets
    (``melearn.derivation.render.refusal_html``): the refusal's ``kind`` (``"does not follow"``, ``"changes
    nothing"``, ``"rule not needed"``, or ``None`` for a refusal of the chain as a whole), the ``step`` number,
    its reason ``why`` (as the page wrote it), the sympy expressions ``before`` (the line before) and
    ``claimed`` (the step), the ``rules`` the step names (for ``"rule not needed"``, the one it does not need),
    the ``difference`` left between the two sides (a sympy expression), the side conditions found ``unmet``
    (text) and the ``latex_options`` of the chain.
    """

    def __init__(
        self,
        message: str = "",
        *,
        kind: str | None = None,
        step: int | None = None,
        why: str = "",
        before: sp.Basic | None = None,
        claimed: sp.Basic | None = None,
        rules: tuple = (),
        difference: sp.Basic | None = None,
        unmet: Iterable[str] = (),
        latex_options: Mapping | None = None,
    ):
        super().__init__(message)
        self.kind, self.step, self.why = kind, step, why
        self.before, self.claimed, self.difference = before, claimed, difference
        self.rules, self.unmet = tuple(rules), tuple(unmet)
        self.latex_options = dict(latex_options or {})

    def _repr_html_(self) -> str:
        return _render.refusal_html(self)


@dataclass(frozen=True)
class Step:
    """One link of a derivation: the expression, the reason it holds, and the rules it uses."""

    expr: sp.Basic
    why: str
    rules: tuple[Rule, ...] = ()


def _size(expr: sp.Basic) -> int:
    return sum(1 for _ in sp.preorder_traversal(expr))


def _rewrite(expr: sp.Basic, rules: tuple[Rule, ...]) -> sp.Basic:
    """Apply ``rules`` until the expression stops changing (algebra normal form in between).

    A rule that keeps matching its own output (a schema whose placeholder matches more than meant) would grow the
    expression without end: past a size limit the rewriting stops with an error instead.
    """
    current = normal_form(expr)
    limit = max(_MAX_SIZE, _MAX_GROWTH * _size(current))
    # definitions are unfolded before any other rule, in every round, whatever order the step names its rules in
    rules = tuple(r for r in rules if r.kind == "definition") + tuple(r for r in rules if r.kind != "definition")
    for _ in range(_MAX_REWRITE_ROUNDS):
        following = current
        for rule in rules:
            following = normal_form(rule(following))
            if _size(following) > limit:
                raise DerivationError(
                    f"the rule {rule.name!r} keeps growing the expression (past {limit} nodes): it matches more than "
                    "it should"
                )
        if following == current:
            return current
        current = following
    raise DerivationError(f"the rules {[r.name for r in rules]} did not settle after {_MAX_REWRITE_ROUNDS} rounds")


def equal_modulo(a: sp.Basic, b: sp.Basic, rules: Iterable[Rule] = ()) -> bool:
    """Return whether ``a == b`` follows from algebra and the given ``rules`` alone."""
    rules = tuple(rules)
    return is_zero(_rewrite(a, rules) - _rewrite(b, rules))


class Derivation(Checkable):
    r"""A chain of equal expressions, each with the reason it holds; checked, then rendered.

    Parameters
    ----------
    start : sympy expression
        The expression being transformed.
    lhs : sympy expression or str, optional
        What the chain is equal to, written before the first "=". A **string** is notation only (raw LaTeX): the
        first line is rendered ``lhs := start``, marked as a definition and never ticked. A **sympy expression**
        makes the first line a step of its own, ``lhs = start``, checked with ``lhs_rules`` and ticked like any
        other step.
    latex_options : mapping, optional
        Keyword arguments for ``sympy.latex`` when the chain is rendered, e.g. ``{"order": "none"}``.
    layout : {"side", "below"}
        Reasons in a column to the right of the steps, or each on its own line below its step.
    lhs_note : str
        The reason shown on the first line (default: "definition").
    lhs_rules : iterable of Rule
        The rules that prove ``lhs = start`` when ``lhs`` is an expression.

    Notes
    -----
    sympy evaluates ``(f - fbar) + (fbar - y)`` to ``f - y`` as soon as it is built. A step that only regroups
    must be built unevaluated (``sp.Add(..., evaluate=False)``; see ``melearn.derivation.display``), or it
    would render as the line before it, and be refused as a step that changes nothing.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.symbols("x")
    >>> d = Derivation(sp.sin(x) ** 2 + sp.cos(x) ** 2).step(sp.Integer(1), "Pythagoras").check()
    >>> print(d.latex())
    \begin{aligned}
    \sin^{2}{\left(x \right)} + \cos^{2}{\left(x \right)} &= 1 && \checkmark\ \text{Pythagoras}
    \end{aligned}
    >>> a, b = sp.symbols("a b")
    >>> Derivation((a + b) ** 2).step(a**2 + b**2, "forget the cross term").check()
    Traceback (most recent call last):
    ...
    melearn.derivation.chain.DerivationError: step 1 ('forget the cross term') does not follow from step 0: ...
    """

    def __init_subclass__(cls, **kwargs):
        # final: a subclass could claim to be checked (``checked`` always true) and make a lemma of anything
        raise TypeError("Derivation is final: it cannot be subclassed (a subclass could claim a check it never had)")

    def __init__(
        self,
        start: sp.Basic,
        lhs: sp.Basic | str | None = None,
        *,
        latex_options: Mapping | None = None,
        layout: str = "side",
        lhs_note: str = "definition",
        lhs_rules: Iterable[Rule] = (),
    ):
        _render.check_layout(layout)
        self._start = vet_expression(start, "start")
        self._lhs = lhs if (lhs is None or isinstance(lhs, str)) else vet_expression(lhs, "lhs")
        self._lhs_rules = _as_rules(lhs_rules)
        if self._lhs_rules and not isinstance(self._lhs, sp.Basic):
            raise ValueError("lhs_rules need an lhs that is a sympy expression (a string is notation only)")
        self._latex_options = _render.freeze_options(latex_options)
        self._layout = layout
        self._lhs_note = str(lhs_note)
        self._steps: tuple[Step, ...] = ()
        self._proved: tuple | None = None  # the signature of the chain that check() proved
        self._verdicts: tuple = ()  # the second route's verdicts on the links, set by check()

    # -- the chain -------------------------------------------------------------------------------------------
    @property
    def start(self) -> sp.Basic:
        """The expression the steps transform."""
        return self._start

    @property
    def lhs(self):
        """What the chain is equal to (notation string, expression, or None)."""
        return self._lhs

    @property
    def latex_options(self) -> Mapping:
        """The ``sympy.latex`` options of the rendering: read-only, fixed at construction.

        They change what the reader sees, and a tick is for the chain as rendered.
        """
        return self._latex_options

    @property
    def lhs_note(self) -> str:
        """The reason shown on the first line; fixed at construction."""
        return self._lhs_note

    @property
    def layout(self) -> str:
        """Where the reasons go, ``"side"`` or ``"below"``; fixed at construction."""
        return self._layout

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps, in order; read-only (add steps with ``step``)."""
        return self._steps

    @property
    def first(self) -> sp.Basic:
        """The first expression of the chain (``lhs`` when it is an expression, else ``start``)."""
        return self._lhs if isinstance(self._lhs, sp.Basic) else self._start

    @property
    def result(self) -> sp.Basic:
        """The last expression of the chain."""
        return self._steps[-1].expr if self._steps else self._start

    def equation(self) -> sp.Eq:
        """The first expression equals the last, as an unevaluated sympy equation."""
        return sp.Eq(self.first, self.result, evaluate=False)

    def _links(self) -> tuple[Step, ...]:
        """Every checked link: ``lhs = start`` (when lhs is an expression), then the steps."""
        head = (Step(self._start, self.lhs_note, self._lhs_rules),) if isinstance(self._lhs, sp.Basic) else ()
        return head + self._steps

    def signature(self) -> tuple:
        """What identifies the chain: its first expression and its links (expressions, reasons, rule objects)."""
        return (self.first, self._links())

    def step(self, expr: sp.Basic, why: str, *, rules: Iterable[Rule] = ()) -> Derivation:
        """Append a step: ``expr`` equals the previous expression because ``why``, using ``rules``.

        Returns the derivation itself, so that steps chain. Any tick is removed until the next ``check``.
        """
        if not isinstance(why, str):
            raise TypeError(f"why must be a string, got {type(why).__name__}")
        self._steps = self._steps + (Step(vet_expression(expr, "expr"), why, _as_rules(rules)),)
        self._proved = None
        return self

    # -- checking --------------------------------------------------------------------------------------------
    def check(self, *, page: Page | None = None) -> Derivation:
        """Prove every step; raise ``DerivationError`` naming the first one that does not hold.

        A step fails when it does not follow from the line before modulo its rules, when it changes nothing,
        or when one of its named rules is not needed. Returns the derivation itself when every step holds.

        The chain is checked on ``page`` (``melearn.derivation.page.Page``; the current page by default): the
        definitions made on it, and those of the chain's own rules, decide what is random; the chain is
        registered in its ledger.
        """
        if not self._steps:
            raise DerivationError(translate("the derivation has no steps to check"))
        page = resolve(page)
        with page.active():
            for rule in self.rules:
                for premise in (rule, *carried_premises(rule)):
                    for fact in premise.facts:
                        if fact[0] == "defines":
                            page.define(fact[1], fact[2])
            page.take_unmet()
            try:
                self._check_premises()
                self._check_links()
            except NotImplementedError as error:
                # sympy cannot decide something the check asked (a limit, a relation): a refusal, never a crash
                why = str(error) or type(error).__name__
                raise DerivationError(
                    template("sympy cannot decide a step of this chain: {why}").format(why=why)
                ) from None
            self._verdicts = self._second_route()
        self._proved = self.signature()
        _ledger.register(self, page)
        return self

    def _check_links(self) -> None:
        """The kernel's check of every link (see :meth:`check`)."""
        links = self._links()
        offset = 0 if isinstance(self._lhs, sp.Basic) else 1
        previous = self.first
        for index, link in enumerate(links):
            k = index + offset
            why = repr(translate(link.why))
            label = (
                template("step {k} ({why})").format(k=k, why=why)
                if k
                else template("the first line ({why})").format(why=why)
            )
            refused = dict(
                step=k,
                why=link.why,
                before=previous,
                claimed=link.expr,
                rules=link.rules,
                latex_options=self.latex_options,
            )
            if _same_on_screen(previous, link.expr, self.latex_options):
                raise DerivationError(
                    template("{label} changes nothing: it is the line before it again").format(label=label),
                    kind="changes nothing",
                    **refused,
                )
            take_unmet()
            if not equal_modulo(previous, link.expr, link.rules):
                used = joined(translate(rule.name) for rule in link.rules) or translate("no rules")
                rest = residue(_rewrite(previous, link.rules), _rewrite(link.expr, link.rules))
                unmet = take_unmet()
                message = template(
                    "{label} does not follow from step {k}: with {used}, the two sides differ by {rest}"
                ).format(label=label, k=max(k - 1, 0), used=used, rest=rest)
                if unmet:
                    unmet_text = template("side conditions not met: {unmet}").format(unmet=joined(unmet, "; "))
                    message += translate("; ") + unmet_text
                raise DerivationError(message, kind="does not follow", difference=rest, unmet=unmet, **refused)
            for rule in link.rules:
                others = tuple(r for r in link.rules if r is not rule)
                if equal_modulo(previous, link.expr, others):
                    raise DerivationError(
                        template(
                            "{label} names the rule {rule!r} but holds without it: a rule beside a step must be needed"
                        ).format(label=label, rule=translate(rule.name)),
                        kind="rule not needed",
                        **{**refused, "rules": (rule,)},
                    )
            previous = link.expr

    def _second_route(self) -> tuple:
        """Every link evaluated in random models of the premises (``melearn.audit``); refuse what it refutes."""
        from .. import audit
        from .second_route import second_opinion

        try:
            verdicts = second_opinion(self)
        except audit.Contradiction as contradiction:
            raise DerivationError(template("the premises admit no model: {why}").format(why=contradiction)) from None
        offset = 0 if isinstance(self._lhs, sp.Basic) else 1
        for index, verdict in enumerate(verdicts):
            if verdict.status == audit.REFUTED:
                k = index + offset
                raise DerivationError(
                    template("step {k} is refuted by the second route: {why}").format(k=k, why=verdict.reason)
                )
        return verdicts

    @property
    def verdicts(self) -> tuple:
        """The second route's verdict on each checked link (``melearn.audit.StepVerdict``); empty until checked."""
        return self._verdicts if self.checked else ()

    def _expressions(self) -> list[sp.Basic]:
        exprs = [self._start] + ([self._lhs] if isinstance(self._lhs, sp.Basic) else [])
        exprs += [link.expr for link in self._steps]
        for rule in self.rules:
            for equation in rule.equations:
                exprs += [equation.lhs, equation.rhs]
        return exprs

    def _check_premises(self) -> None:
        """Refuse a chain whose premises cannot all hold, or that assumes what it concludes.

        * two symbols of one name with different assumptions (they would print alike);
        * two rules of the chain giving one expression different values (``a = 1`` and ``a = 2``, a name defined
          twice as different things), after each value is rewritten by the chain's equations;
        * an assumption that is the chain's own conclusion.
        """
        by_name: dict[str, set] = {}
        for expr in self._expressions():
            for symbol in expr.atoms(sp.Symbol):
                if not isinstance(symbol, (sp.Dummy, sp.Wild)):
                    by_name.setdefault(symbol.name, set()).add(symbol)
        for name in sorted(by_name):
            if len(by_name[name]) > 1:
                raise DerivationError(
                    template("the symbol {name} appears with different assumptions: {which}").format(
                        name=name,
                        which=joined(sorted(str(_declared(s)) for s in by_name[name]), "; "),
                    )
                )
        equations = [(rule, eq.lhs, eq.rhs) for rule in self.rules for eq in rule.equations if not eq.lhs.has(sp.Wild)]
        plain = tuple(r for r in self.rules if r.equations and r.kind in ("definition", "assumption"))
        values: dict = {}
        for rule, lhs, rhs in equations:
            key = normal_form(lhs)
            values.setdefault(key, []).append((rule, rhs))
        for key, given in values.items():
            for (rule_a, a), (rule_b, b) in zip(given, given[1:], strict=False):
                if is_zero(a - b):
                    continue
                try:
                    same = equal_modulo(a, b, tuple(r for r in plain if r is not rule_a and r is not rule_b))
                except DerivationError:
                    same = False
                if not same:
                    raise DerivationError(
                        template("contradictory premises: {r1!r} gives {lhs} = {a}, {r2!r} gives {lhs} = {b}").format(
                            r1=translate(rule_a.name), r2=translate(rule_b.name), lhs=key, a=a, b=b
                        )
                    )
        first, last = self.first, self.result
        for rule in self.rules:
            if rule.kind != "assumption":
                continue
            for eq in rule.equations:
                for lhs, rhs in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
                    if is_zero(lhs - first) and is_zero(rhs - last):
                        raise DerivationError(
                            template("the assumption {rule!r} is the chain's own conclusion").format(
                                rule=translate(rule.name)
                            )
                        )

    def assumptions_used(self) -> tuple[tuple[sp.Symbol, tuple[str, ...]], ...]:
        """The symbols of the chain with declared assumptions sympy can use, and those assumptions, by name.

        Returns
        -------
        tuple of (sympy.Symbol, tuple of str)
            E.g. ``((k, ("integer", "positive")), ...)``, sorted by symbol name; bound indices included.
        """
        found: dict[sp.Symbol, tuple[str, ...]] = {}
        for expr in self._expressions():
            for symbol in expr.atoms(sp.Symbol):
                if isinstance(symbol, (sp.Dummy, sp.Wild)):
                    continue
                declared = _declared(symbol)
                if declared:
                    found[symbol] = declared
        return tuple(sorted(found.items(), key=lambda item: (item[0].name, item[1])))

    @property
    def checked(self) -> bool:
        """Whether ``check`` has passed on the chain exactly as it is now."""
        return self._proved is not None and self._proved == self.signature()

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The distinct rules the chain uses, in order of first use."""
        seen: dict[int, Rule] = {}
        for link in self._links():
            for rule in link.rules:
                seen.setdefault(id(rule), rule)
        return tuple(seen.values())

    def links(self) -> tuple[Step, ...]:
        """Every checked link of the chain (the first line when ``lhs`` is an expression, then the steps)."""
        return self._links()

    # -- rendering (melearn.derivation.render) -----------------------------------------------------------------
    def latex(self, *, reasons: bool = True, layout: str | None = None) -> str:
        r"""The chain as ``\begin{aligned} ... \end{aligned}``, with reasons and rule names beside the steps.

        A line is marked ``\checkmark`` only when ``check`` has proved the chain as it is now. Reasons and rule
        names are text (escaped: they cannot add a tick or a row). A first line given as notation (``lhs`` a
        string) is written ``lhs := start``, marked "notation, not checked" and never ticked.
        """
        layout = self.layout if layout is None else layout
        return _render.chain_latex(self, self._tex, reasons=reasons, layout=layout)

    def html(self, *, layout: str | None = None) -> str:
        """The chain as HTML rows (the book's rendering): each step's mathematics, then its reason as text."""
        layout = self.layout if layout is None else layout
        return _render.chain_html(self, self._tex, layout=layout)

    def _tex(self, expr) -> str:
        return sp.latex(expr, **self.latex_options)

    def rules_latex(self) -> str:
        r"""The rules the chain uses: name and (kind; source), the statement below, as ``\begin{aligned}...``."""
        if not self.rules:
            return _render.RuleList(())._repr_latex_().strip("$")
        return rules_latex(self.rules)

    def rule_list(self) -> _render.RuleList:
        """The rules the chain uses, for ``display``: HTML rows in the book, LaTeX elsewhere."""
        return _render.RuleList(self.rules)

    def _repr_latex_(self) -> str:
        return f"$$\n{self.latex()}\n$$"

    def _repr_html_(self) -> str:
        return self.html()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return {
            "text/html": self.html(),
            "text/latex": self._repr_latex_(),
            "text/plain": _render.chain_text(self),
        }

    def __repr__(self) -> str:
        state = "checked" if self.checked else "not checked"
        return f"<Derivation of {self.first} in {len(self._links())} steps, {state}>"


rules_latex = _render.rules_latex


def show_refusal(derivation: Derivation, *, context: str = "") -> DerivationError:
    """Check a chain that must be refused; print why it is; fail loudly if it is accepted.

    This is the only way a page shows a wrong step: if ``derivation.check()`` passes, an ``AssertionError``
    is raised (so the cell, the build and the tests fail), instead of a demonstration that cannot fail.

    In a notebook the refusal is displayed as the book shows it (``melearn.derivation.render.refusal_html``: the
    refused step typeset, the reason in words, wrapped to the column), with ``refused: <message>`` as its plain
    text; elsewhere that line is printed. ``context`` (text, e.g. ``"without independence"``) says what the
    refused chain leaves out or changes: it heads the block (and the printed line), so that it stays with its refusal.

    Returns
    -------
    DerivationError
        The refusal.
    """
    if not isinstance(derivation, Derivation):
        raise TypeError(f"show_refusal needs a Derivation, got {type(derivation).__name__}")
    try:
        derivation.check()
    except DerivationError as refusal:
        text = _render.refusal_text(refusal, context=context)
        if _shell() is None:
            say(text)
        else:
            from IPython.display import display

            bundle = {"text/html": _render.refusal_html(refusal, context=context), "text/plain": text}
            display(bundle, raw=True)
        return refusal
    raise AssertionError(f"a chain meant to be refused was accepted: {derivation!r}")


def _shell():
    """The IPython kernel running this code (a notebook, the book's build), or None in a plain interpreter."""
    try:
        from IPython import get_ipython
    except ImportError:  # IPython is not a dependency of the library
        return None
    return get_ipython()


def _declared(symbol: sp.Symbol) -> tuple[str, ...]:
    """The assumptions declared for ``symbol`` that hold (``integer``, ``positive``, ...), sorted."""
    original = getattr(symbol, "_assumptions_orig", None)
    if original is None:
        original = symbol.assumptions0
    return tuple(sorted(k for k, v in original.items() if v is True and k != "commutative"))


def _same_on_screen(a: sp.Basic, b: sp.Basic, options: Mapping) -> bool:
    if a == b:
        return True
    return sp.latex(a, **options) == sp.latex(b, **options)


def _as_rules(rules: Iterable[Rule]) -> tuple[Rule, ...]:
    rules = tuple(rules)
    for rule in rules:
        if not isinstance(rule, Rule):
            raise TypeError(f"rules must be Rule objects, got {type(rule).__name__}")
    return rules
