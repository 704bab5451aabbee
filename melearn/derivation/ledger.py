r"""The proof ledger of a page: what its chains proved, from which rules, and what the page holds without a chain.

Every chain that passes ``check`` is registered on its page (``melearn.derivation.page.Page``: the current page
unless one is given; the kernel of a book page runs the page alone). A page records the claims it holds without
proving them by a chain: ``record_enumeration`` and ``record_simulation`` (checked only on the cases enumerated,
supported only by the runs simulated), ``record_argument`` (argued in words on the page) and ``record_citation``
(a result taken from a reference and used as stated), each with its scope or source. It ends with
``display(page_ledger())``: a table generated from the chains themselves, never written by hand.

The ledger's plain-text form is JSON (sorted keys, stable across runs), so that nbval compares it and
``book/ledger_table.py`` can read every page's ledger back from the stored notebooks to build the landing
page's table.

Examples
--------
>>> import sympy as sp
>>> from melearn.derivation import Derivation, Rule
>>> clear()
>>> a, b = sp.symbols("a b")
>>> _ = Derivation((a + b) ** 2).step(a**2 + 2*a*b + b**2, "expand").check()
>>> record_enumeration("(a + b)^2 >= 0", "every integer pair with |a|, |b| <= 3")
>>> ledger = page_ledger()
>>> ledger.steps, ledger.algebra_steps
(1, 1)
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field

import sympy as sp

from ..i18n import joined, labelled, parenthesised, template, translate
from .page import Page, resolve
from .render import math_or_text, text_html
from .rules import KINDS, carried_premises

__all__ = [
    "Ledger",
    "clear",
    "page_ledger",
    "record_argument",
    "record_citation",
    "record_enumeration",
    "record_simulation",
    "register",
]


def _rule_key(rule) -> tuple:
    return (rule.kind, rule.name, rule.statement, rule.source, rule.equations)


def content_key(derivation) -> tuple:
    """What a chain says, independent of the Python objects it is built from: a cell run twice gives one key."""
    lhs = derivation.lhs if isinstance(derivation.lhs, str) else None
    links = tuple((link.expr, link.why, tuple(_rule_key(r) for r in link.rules)) for link in derivation.links())
    return (lhs, derivation.first, links)


def register(derivation, page: Page | None = None) -> None:
    """Note a chain that has just been checked (called by ``Derivation.check``); the same content counts once."""
    resolve(page).chains[content_key(derivation)] = derivation


def record_enumeration(claim: str, scope: str, *, page: Page | None = None) -> None:
    """Record a claim checked by exhaustive enumeration only, with its scope ("every labelling with m <= 7")."""
    _record("enumerated", claim, scope, page)


def record_simulation(claim: str, scope: str, *, page: Page | None = None) -> None:
    """Record a claim supported by simulation only, with its scope and tolerance."""
    _record("simulated", claim, scope, page)


def record_argument(claim: str, scope: str, *, page: Page | None = None) -> None:
    """Record a claim the page argues in words, not by a checked chain, with what the argument covers."""
    _record("argued", claim, scope, page)


def record_citation(claim: str, source: str, *, page: Page | None = None) -> None:
    """Record a result the page takes from a reference without proving it (and uses outside any chain)."""
    _record("cited", claim, source, page)


def _record(how: str, claim: str, scope: str, page: Page | None) -> None:
    claim, scope = str(claim).strip(), str(scope).strip()
    if not claim or not scope:
        raise ValueError("a recorded claim needs both its statement and its scope")
    claims = resolve(page).claims
    entry = (how, claim, scope)
    if entry not in claims:
        claims.append(entry)


def clear() -> None:
    """Start the current page afresh: forget its definitions, unmet conditions, chains and claims."""
    resolve(None).clear()


@dataclass
class Ledger:
    """What a page's checked chains rest on.

    Attributes
    ----------
    chains : int
        Checked chains (each counted once, in its final checked form; identical chains once in all).
    steps : int
        Proved steps (the first line of a chain counts when it is checked).
    algebra_steps : int
        Steps proved by algebra alone (no rule named).
    rules : dict of str to list of (name, source)
        The rules used, by kind, each once, in order of first use.
    claims : list of dict
        The claims held without a checked chain: enumerated or simulated only, argued in words, or cited from a
        reference (``how``), each with its scope or source.
    unchecked : list of str
        First lines written as notation (a string ``lhs``): shown with ``:=``, never checked.
    symbol_assumptions : list of [str, list of str]
        The symbols whose declared assumptions (positive, integer, ...) the algebra may have used, by name.
    confirmed, kernel_only : int
        Of the proved steps, those the second route (``melearn.audit``) confirmed in random models of their
        premises, and those it could not evaluate (checked by the kernel only).
    kernel_only_reasons : dict of str to int
        Why the second route could not evaluate them, with how many steps each.
    """

    chains: int = 0
    steps: int = 0
    algebra_steps: int = 0
    rules: dict = field(default_factory=lambda: {kind: [] for kind in KINDS})
    claims: list = field(default_factory=list)
    unchecked: list = field(default_factory=list)
    symbol_assumptions: list = field(default_factory=list)
    confirmed: int = 0
    kernel_only: int = 0
    kernel_only_reasons: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The ledger as plain JSON: counts, rules by kind, claims, unchecked lines, the symbols' assumptions."""
        return {
            "chains": self.chains,
            "steps": self.steps,
            "algebra_steps": self.algebra_steps,
            "rules": {kind: [list(entry) for entry in entries] for kind, entries in self.rules.items()},
            "claims": self.claims,
            "unchecked": self.unchecked,
            "symbol_assumptions": self.symbol_assumptions,
            "second_route": {
                "confirmed": self.confirmed,
                "kernel_only": self.kernel_only,
                "reasons": dict(sorted(self.kernel_only_reasons.items())),
            },
        }

    def __repr__(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, indent=1)

    def summary(self) -> str:
        """One sentence: steps, how many by algebra, rules by kind."""
        nouns = {
            "definition": "definition",
            "assumption": "assumption",
            "lemma": "lemma",
            "cited": "cited result",
            "computation": "computation",
        }
        counts = ", ".join(f"{len(v)} {nouns[k]}" + ("s" if len(v) != 1 else "") for k, v in self.rules.items() if v)
        return f"{self.steps} steps proved in {self.chains} chains, {self.algebra_steps} by algebra alone" + (
            f"; rules used: {counts}" if counts else ""
        )

    def _repr_html_(self) -> str:
        esc = html.escape
        t = translate
        rows = [
            f"<tr><th>{t('Proved')}</th><td>"
            + template(
                "{steps} steps in {chains} checked chains; {algebra} by algebra alone, {ruled} with named rules"
            ).format(
                steps=self.steps, chains=self.chains, algebra=self.algebra_steps, ruled=self.steps - self.algebra_steps
            )
            + "</td></tr>"
        ]
        if self.confirmed or self.kernel_only:
            line = template(
                "{confirmed} confirmed in random models of their premises, {alone} checked by the kernel only"
            ).format(confirmed=self.confirmed, alone=self.kernel_only)
            if self.kernel_only_reasons:
                reasons = sorted(self.kernel_only_reasons.items())
                why = joined((labelled(esc(t(reason)), str(n)) for reason, n in reasons), "; ")
                line += " " + parenthesised(why)
            rows.append(f"<tr><th>{t('Second route')}</th><td>{line}</td></tr>")
        labels = {
            "definition": "Definitions",
            "assumption": "Assumptions",
            "lemma": "Lemmas (proved by their own chains)",
            "cited": "Cited results",
            "computation": "sympy computations",
        }
        for kind in KINDS:
            entries = self.rules[kind]
            if not entries:
                continue
            items = joined(
                (
                    text_html(t(name))
                    + (f" <em>{parenthesised(text_html(t(source)))}</em>" if _shown(source, name) else "")
                    for name, source in entries
                ),
                "; ",
            )
            rows.append(f"<tr><th>{t(labels[kind])}</th><td>{items}</td></tr>")
        for how, label in (
            ("enumerated", "Checked by enumeration only"),
            ("simulated", "Supported by simulation only"),
            ("argued", "Argued in words only"),
            ("cited", "Cited from a reference"),
        ):
            claims = [c for c in self.claims if c["how"] == how]
            if claims:
                scope = t("source" if how == "cited" else "scope")
                items = "<br>".join(
                    f"{esc(t(c['claim']))} <em>{parenthesised(labelled(scope, esc(t(c['scope']))))}</em>"
                    for c in claims
                )
                rows.append(
                    f"<tr><th>{template('{label}, not proved').format(label=t(label))}</th><td>{items}</td></tr>"
                )
        if self.unchecked:
            items = "<br>".join(math_or_text(line) for line in self.unchecked)
            rows.append(f"<tr><th>{t('Notation, not checked')}</th><td>{items}</td></tr>")
        if self.symbol_assumptions:
            items = joined(
                (
                    labelled(math_or_text(sp.latex(sp.Symbol(name))), esc(joined(t(a) for a in facts)))
                    for name, facts in self.symbol_assumptions
                ),
                "; ",
            )
            rows.append(f"<tr><th>{t('Assumptions on symbols')}</th><td>{items}</td></tr>")
        body = "\n".join(rows)
        caption = t("Proof ledger of this page")
        return f'<table class="proof-ledger">\n<caption>{caption}</caption>\n{body}\n</table>'


def _shown(source: str, name: str) -> bool:
    """Whether a rule's source is worth showing beside its name (it is not empty and not already in the name)."""
    return bool(source) and source.strip() not in name


def page_ledger(*, page: Page | None = None) -> Ledger:
    """The ledger of every chain checked (and still checked) and every claim recorded so far on the page.

    ``page`` is a ``melearn.derivation.page.Page``; the current page by default.
    """
    page = resolve(page)
    ledger = Ledger()
    seen: set[int] = set()
    facts: dict[str, set] = {}
    for key, chain in list(page.chains.items()):
        if not chain.checked or content_key(chain) != key:
            continue  # changed since it was registered: counted under its new content, if checked again
        ledger.chains += 1
        if isinstance(chain.lhs, str):
            line = f"{chain.lhs} := {sp.latex(chain.start)}"
            if line not in ledger.unchecked:
                ledger.unchecked.append(line)
        for symbol, declared in chain.assumptions_used():
            facts.setdefault(symbol.name, set()).update(declared)
        verdicts = tuple(getattr(chain, "verdicts", ()))
        for index, link in enumerate(chain.links()):
            ledger.steps += 1
            if not link.rules:
                ledger.algebra_steps += 1
            if index < len(verdicts):
                if verdicts[index].status == "kernel only":
                    ledger.kernel_only += 1
                    reason = verdicts[index].reason
                    ledger.kernel_only_reasons[reason] = ledger.kernel_only_reasons.get(reason, 0) + 1
                else:
                    ledger.confirmed += 1
            # a lemma's premises (the assumptions and definitions of the chain that proved it) are this page's too
            for rule in (r for used in link.rules for r in (used, *carried_premises(used))):
                if id(rule) in seen:
                    continue
                seen.add(id(rule))
                entry = (rule.name, rule.source)
                if entry not in ledger.rules[rule.kind]:
                    ledger.rules[rule.kind].append(entry)
    ledger.claims = [{"how": how, "claim": claim, "scope": scope} for how, claim, scope in page.claims]
    ledger.symbol_assumptions = [[name, sorted(facts[name])] for name in sorted(facts)]
    return ledger
