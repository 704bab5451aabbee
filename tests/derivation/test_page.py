"""One state object per page: what a page's checks read and write is the page's, and nothing of it reaches the next."""

from __future__ import annotations

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, Expectation, Rule, page_ledger, record_enumeration
from melearn.derivation import ledger as ledger_module
from melearn.derivation import page as page_module
from melearn.derivation.page import Page

f, g = sp.symbols("f g")
E = Expectation([f])


@pytest.fixture(autouse=True)
def fresh_page():
    ledger_module.clear()
    yield
    ledger_module.clear()


def constant_step():
    """E[g] = g, by the expectation of a constant: true exactly when g is not random."""
    return Derivation(E(g)).step(g, "a constant", rules=[E.constant])


def test_a_definition_is_not_seen_on_the_next_page():
    Rule.definition("g", {g: 2 * f})  # on this page g means 2f: random
    assert E.is_random(g)
    with pytest.raises(DerivationError):
        constant_step().check()
    ledger_module.clear()  # the next page: g is a new name, defined nowhere
    assert not E.is_random(g)
    assert constant_step().check().checked


def test_clear_forgets_definitions_unmet_conditions_chains_and_claims():
    Rule.definition("g", {g: 2 * f})
    a = sp.Symbol("a")
    Derivation((a + 1) ** 2).step(a**2 + 2 * a + 1, "expand").check()
    record_enumeration("a claim", "a scope")
    page_module.current().note_unmet("a rule: a condition")
    page = page_module.current()
    assert page.definitions and page.chains and page.claims and page.unmet
    ledger_module.clear()
    assert (page.definitions, page.chains, page.claims, page.unmet) == ([], {}, [], [])
    ledger = page_ledger()
    assert (ledger.chains, ledger.steps, ledger.claims) == (0, 0, [])


def test_two_pages_do_not_share_their_state():
    first, second = Page(), Page()
    definition = Rule.definition("g", {g: 2 * f}, page=first)
    assert first.definitions == [(g, 2 * f)] and second.definitions == [] == page_module.current().definitions
    with pytest.raises(DerivationError):
        constant_step().check(page=first)
    chain = constant_step().check(page=second)  # on the second page g is defined nowhere: a constant
    record_enumeration("a claim", "a scope", page=second)
    assert list(second.chains.values()) == [chain] and first.chains == {}
    assert page_ledger(page=second).steps == 1 and page_ledger(page=first).steps == 0
    assert page_ledger(page=second).claims and not page_ledger(page=first).claims
    assert page_ledger().steps == 0  # neither is the current page
    # a chain that names a definition brings it to the page it is checked on
    Derivation(E(g)).step(2 * E(f), "unfold", rules=[definition, E.linearity]).check(page=second)
    assert (g, 2 * f) in second.definitions


def test_a_check_on_a_page_leaves_the_current_page_alone():
    other = Page()
    constant_step().check(page=other)
    assert page_module.current() is not other
    assert page_module.current().chains == {}


def test_a_refusal_names_its_unmet_condition_and_leaves_none_behind():
    from melearn.derivation import sums

    i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True)
    u = sp.IndexedBase("u")
    chain = Derivation(sp.Sum(u[i], (i, 1, n))).step(u[1] + sp.Sum(u[i], (i, 2, n)), "peel", rules=[sums.peel_first(1)])
    with pytest.raises(DerivationError) as refusal:
        chain.check()
    assert refusal.value.unmet
    assert page_module.current().unmet == []


def test_a_page_is_named_by_a_page_object():
    with pytest.raises(TypeError, match="page must be a Page"):
        page_ledger(page="the next page")  # type: ignore[arg-type]
