"""The derivation checker must accept true chains and name the first step of a false one."""

from __future__ import annotations

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, Expectation, Rule, equal_modulo

a, b, c, x = sp.symbols("a b c x")


def expand_square() -> Derivation:
    return Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, "expand the square")


def test_true_chain_passes_and_returns_itself():
    d = expand_square()
    assert d.check() is d
    assert d.checked
    assert d.result == a**2 + 2 * a * b + b**2
    assert d.equation().lhs == (a + b) ** 2


@pytest.mark.parametrize(
    "wrong, what",
    [
        (a**2 + b**2, "a dropped cross term"),
        (a**2 - 2 * a * b + b**2, "a wrong sign"),
        (a**2 + 3 * a * b + b**2, "a wrong constant"),
        (a**2 + 2 * a * b + b**2 + sp.Rational(1, 10**12), "an off-by-a-hair constant"),
    ],
)
def test_wrong_step_is_caught_and_named(wrong, what):
    d = Derivation((a + b) ** 2).step((a + b) * (a + b), "write the square as a product").step(wrong, what)
    with pytest.raises(DerivationError, match=r"step 2 .* does not follow from step 1"):
        d.check()
    assert not d.checked


def test_first_failing_step_is_the_one_named():
    d = (
        Derivation(sp.Integer(2) * x)
        .step(x + x, "split")
        .step(3 * x, "wrong")  # the first bad step
        .step(2 * x + x, "consistent with the wrong one")
    )
    with pytest.raises(DerivationError, match=r"step 2 \('wrong'\)"):
        d.check()


def test_derivation_error_is_an_assertion_error():
    assert issubclass(DerivationError, AssertionError)


def test_empty_derivation_is_not_a_proof():
    with pytest.raises(DerivationError, match="no steps"):
        Derivation(a).check()


def test_adding_a_step_clears_the_checked_mark():
    d = expand_square().check()
    d.step(a**2 + 2 * a * b + b**2, "restate")
    assert not d.checked
    assert r"\checkmark" not in d.latex()


def test_step_needs_the_rule_it_uses():
    f, fbar = sp.symbols("f fbar")
    E = Expectation([f])
    mean = Rule.substitution("definition of fbar", {E(f): fbar})
    start = E(2 * f + 3)
    with pytest.raises(DerivationError):
        Derivation(start).step(2 * fbar + 3, "no rules named").check()
    with pytest.raises(DerivationError):  # linearity alone cannot turn E[f] into fbar
        Derivation(start).step(2 * fbar + 3, "linearity only", rules=[E.linearity, E.constant]).check()
    Derivation(start).step(2 * fbar + 3, "all three", rules=[E.linearity, E.constant, mean]).check()


def test_constant_rule_is_needed_for_constants():
    f = sp.symbols("f")
    E = Expectation([f])
    with pytest.raises(DerivationError):
        Derivation(E(f + c)).step(E(f) + c, "linearity only", rules=[E.linearity]).check()
    Derivation(E(f + c)).step(E(f) + c, "linearity and constants", rules=[E.linearity, E.constant]).check()


def test_linearity_does_not_pull_out_random_factors():
    f, g = sp.symbols("f g")
    E = Expectation([f, g])
    assert not equal_modulo(E(f * g), E(f) * E(g), [E.linearity, E.constant])


def test_independence_splits_only_independent_groups():
    f, g, h = sp.symbols("f g h")
    E = Expectation([f, g, h])
    independent = E.independent([f], [g])
    assert equal_modulo(E(f * g), E(f) * E(g), [E.linearity, independent])
    assert equal_modulo(E(c * f**2 * g), c * E(f**2) * E(g), [E.linearity, independent])
    # h belongs to neither group, so nothing may be split off a product involving it
    assert not equal_modulo(E(f * h), E(f) * E(h), [E.linearity, independent])
    with pytest.raises(ValueError, match="share"):
        E.independent([f], [f, g])


def test_cross_term_vanishes_only_with_independence_and_a_zero_mean_factor():
    f, fbar, y_d, y = sp.symbols("f fbar y_D y")
    E = Expectation([f, y_d])
    mean = Rule.substitution("definition of fbar", {E(f): fbar})
    noise = Rule.substitution("zero-mean noise", {E(y_d): y})
    independent = E.independent([f], [y_d])
    cross = E((f - fbar) * (y - y_d))
    always = [E.linearity, E.constant, independent]
    # E[(f - fbar)(y - y_D)] = E[f - fbar] E[y - y_D]: either factor's zero mean kills it
    assert equal_modulo(cross, sp.Integer(0), always + [mean])
    assert equal_modulo(cross, sp.Integer(0), always + [noise])
    assert not equal_modulo(cross, sp.Integer(0), always)
    for missing in always:
        rest = [r for r in always if r is not missing] + [mean, noise]
        assert not equal_modulo(cross, sp.Integer(0), rest), missing.name


def test_expectation_of_same_subscript_is_one_operator():
    f = sp.symbols("f")
    assert Expectation([f])(f) == Expectation([f])(f)
    assert Expectation([f], subscript="D")(f) != Expectation([f], subscript="x")(f)


def test_expectation_needs_random_quantities():
    with pytest.raises(ValueError, match="random"):
        Expectation([])


def test_rules_must_be_rules():
    with pytest.raises(TypeError, match="Rule"):
        Derivation(a).step(a, "why", rules=["linearity"])


def test_latex_renders_the_checked_chain():
    d = expand_square()
    unchecked = d.latex()
    assert unchecked.startswith(r"\begin{aligned}") and unchecked.endswith(r"\end{aligned}")
    assert r"\checkmark" not in unchecked
    checked = d.check().latex()
    assert sp.latex((a + b) ** 2) in checked
    assert sp.latex(a**2 + 2 * a * b + b**2) in checked
    assert r"\checkmark\ \text{expand the square}" in checked
    assert d._repr_latex_().startswith("$$") and r"\begin{aligned}" in d._repr_latex_()
    assert r"\begin{align}" not in d._repr_latex_()


def test_latex_names_rules_beside_steps_and_states_them():
    f, fbar = sp.symbols("f fbar")
    E = Expectation([f])
    mean = Rule.substitution("definition of fbar", {E(f): fbar})
    d = Derivation(E(f + 1)).step(fbar + 1, "expectation of each term", rules=[E.linearity, E.constant, mean])
    text = d.check().latex()
    assert r"[\text{linearity, expectation of a constant, definition of fbar}]" in text
    rules = d.rules_latex()
    assert r"\text{linearity:}" in rules and r"\mathbb{E}_{D}" in rules
    assert [r.name for r in d.rules] == ["linearity", "expectation of a constant", "definition of fbar"]


def test_lhs_is_shown_as_a_definition_line():
    e = sp.Symbol("E")
    d = Derivation((a + b) ** 2, lhs=e).step(a**2 + 2 * a * b + b**2, "expand").check()
    first = d.latex().splitlines()[1]
    assert first.startswith("E &= ") and "definition" in first


def test_special_characters_in_reasons_are_escaped():
    d = Derivation(a).step(a, "100% sure & done").check()
    assert r"100\% sure \& done" in d.latex()


def test_unevaluated_regrouping_is_checked_and_rendered_as_written():
    f, fbar, y = sp.symbols("f fbar y")
    regrouped = sp.Add(f - fbar, fbar - y, evaluate=False)
    d = Derivation(f - y).step(regrouped, "add and subtract fbar").check()
    assert sp.latex(regrouped) != sp.latex(f - y)
    assert sp.latex(regrouped) in d.latex()


def test_unevaluated_expr_is_a_display_device_only():
    n, t = sp.symbols("n t")
    shown = sp.UnevaluatedExpr(1 / n) * (t + t)
    Derivation(2 * t / n).step(shown, "write 1/n apart").check()
    with pytest.raises(DerivationError):
        Derivation(2 * t / n).step(sp.UnevaluatedExpr(1 / n) * t, "lose a factor 2").check()


def test_layout_below_puts_each_reason_under_its_step():
    d = Derivation((a + b) ** 2, lhs="S", lhs_note="by (2.41)", layout="below")
    d.step(a**2 + 2 * a * b + b**2, "expand").check()
    below = d.latex()
    assert below == d.latex(layout="below") != d.latex(layout="side")
    lines = below.splitlines()
    assert lines[1].startswith("S &= ") and "&&" not in below
    assert r"\text{by (2.41)}" in lines[2] and r"\text{expand}" in lines[4]
    assert below.count(r"\checkmark") == 2
    assert d.latex(reasons=False).count("\\\\") == 1  # two lines, no notes
    with pytest.raises(ValueError, match="layout"):
        d.latex(layout="margin")
    with pytest.raises(ValueError, match="layout"):
        Derivation(a, layout="margin")
