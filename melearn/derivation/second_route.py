"""The bridge to the second route (``melearn.audit``): a checked chain's data handed over, its verdicts read back.

``Derivation.check`` calls :func:`second_opinion` after the kernel has proved every step: a step the second
route refutes, or a chain whose premises admit no model, is refused; a step it cannot evaluate is marked "kernel
only" with the reason, beside its tick and in the page's ledger. Only data crosses: the expressions of the chain
and, for each rule, its kind, its equations and the facts it states (:class:`melearn.audit.Premise`).
"""

from __future__ import annotations

import sympy as sp

from .. import audit
from .rules import carried_premises

__all__ = ["carried_premises", "premise_of", "second_opinion"]


def premise_of(rule) -> audit.Premise:
    """What ``rule`` states, as data for the second route."""
    equations, schemas, independent = [], [], []
    generalised = any(fact[0] == "schema" for fact in rule.facts)
    for equation in rule.equations:
        pair = (equation.lhs, equation.rhs)
        if equation.lhs.has(sp.Wild):
            schemas.append(pair)
        elif not generalised:
            equations.append(pair)
    for fact in rule.facts:
        if fact[0] == "schema":
            schemas.append((fact[1], fact[2]))
        elif fact[0] == "independent":
            independent.append(tuple(fact[1:]))
    carries = []
    for carried in carried_premises(rule):
        pairs = tuple((eq.lhs, eq.rhs) for eq in carried.equations if not eq.lhs.has(sp.Wild))
        if pairs:
            carries.append(pairs)
        independent += [tuple(fact[1:]) for fact in carried.facts if fact[0] == "independent"]
    return audit.Premise(rule.kind, rule.name, tuple(equations), tuple(schemas), tuple(independent), tuple(carries))


def second_opinion(derivation) -> tuple[audit.StepVerdict, ...]:
    """The second route's verdict on every checked link of ``derivation`` (raises ``audit.Contradiction``)."""
    premises = {id(rule): premise_of(rule) for rule in derivation.rules}
    links = [(link.expr, tuple(premises[id(r)] for r in link.rules)) for link in derivation.links()]
    first = derivation.first if isinstance(derivation.lhs, sp.Basic) else derivation.start
    if isinstance(derivation.lhs, sp.Basic):
        links = [(links[0][0], links[0][1])] + links[1:]
    everything = tuple(premises.values())
    # the premises of the whole chain together (a lemma's carried ones with them) must admit a model
    audit.audit_step(first, first, everything, everything)
    return audit.audit_chain(first, links, everything)
