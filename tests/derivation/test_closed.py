"""Rules and chains are closed to forging: no public path builds a rule, or a lemma, the kernel did not check.

Each test is a way of forging that today's checker refused to close before: a ``Derivation`` subclass whose
``checked`` is always true made a lemma of anything; ``dataclasses.replace`` on a built-in rule, or a call of the
kernel's private ``kernel_rule`` from outside the kernel, built a rule that proves ``a = b``.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, Expectation, Rule
from melearn.derivation.rules import Checkable, kernel_rule

a, b = sp.symbols("a b")
E = Expectation([a])


def test_a_derivation_cannot_be_subclassed_to_claim_it_is_checked():
    with pytest.raises(TypeError, match="final"):

        class AlwaysChecked(Derivation):  # noqa: F841 - its creation is refused
            checked = True  # type: ignore[assignment]


def test_no_other_chain_class_is_accepted_by_a_lemma():
    with pytest.raises(TypeError, match="Derivation"):

        class Forged(Checkable):  # noqa: F841 - its creation is refused
            checked = True  # type: ignore[assignment]


def test_a_lemma_still_takes_a_checked_derivation():
    chain = Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, "expand").check()
    assert Rule.lemma("square", chain).kind == "lemma"
    with pytest.raises(ValueError, match="proved first"):
        Rule.lemma("unchecked", Derivation(a).step(a + 0 * b + 1, "wrong"))


@pytest.mark.parametrize(
    "forge",
    [
        lambda rule: dataclasses.replace(rule, rewrite=lambda expr: sp.sympify(expr).subs(a, b)),
        lambda rule: dataclasses.replace(rule, statement="a = b"),
        lambda rule: copy.replace(rule, name="anything") if hasattr(copy, "replace") else dataclasses.replace(rule),
    ],
)
def test_a_built_in_rule_cannot_be_copied_with_other_fields(forge):
    with pytest.raises((TypeError, ValueError)):
        forge(E.linearity)


def test_the_kernel_rule_constructor_refuses_a_caller_outside_the_kernel():
    with pytest.raises(TypeError, match="kernel"):
        kernel_rule("a equals b", "cited", "a = b", lambda expr: sp.sympify(expr).subs(a, b), "nowhere")


def test_the_plain_constructor_is_refused():
    with pytest.raises(TypeError, match="private"):
        Rule("a equals b", "cited", "a = b", lambda expr: sp.sympify(expr).subs(a, b))


def test_a_forged_rule_proves_nothing_because_none_can_be_built():
    # the kernel's own rules still work as before, and refuse what they should
    with pytest.raises(DerivationError):
        Derivation(a).step(b, "forged", rules=[E.linearity]).check()
