"""The derivation of the bias-variance decomposition (2.41)-(2.42): the chains check, and each rule is needed."""

from __future__ import annotations

from functools import cache

import pytest

from melearn.derivation import Derivation, DerivationError
from melearn.derivation.bias_variance import RULE_NAMES, bias_variance_derivation


@cache
def checked():
    """The derivation with (2.41) and the cross term checked: built and checked once (about 1 s), then shared.

    The tests only read it (they build their own chains from its expressions and rules); a test that needs to
    change a derivation builds its own with :func:`bias_variance_derivation`.
    """
    bv = bias_variance_derivation()
    bv.chain_2_41.check()
    bv.cross_term.check()
    return bv


def test_the_three_chains_check_and_follow_the_book():
    bv = checked()
    chain_2_42 = bv.chain_2_42().check()
    assert len(bv.chain_2_41.steps) + 1 == 7  # the textbook's seven lines
    tex = bv.chain_2_41.latex(layout="side")
    lines = tex.split("\\\\\n")
    assert len(lines) == 7
    # the first line names E(f; D) (a definition, not ticked); each later line shows a new expression, ticked
    assert r"\mathrel{:=}" in lines[0] and r"\checkmark" not in lines[0]
    assert all(r"\checkmark" in line for line in lines[1:])
    rhs = [line.split("=", 1)[1].split("&&")[0].strip() for line in lines]
    assert len(set(rhs)) == 7
    assert chain_2_42.result == bv.bias2 + bv.var + bv.eps2


def test_chain_2_42_needs_2_41_checked_first():
    with pytest.raises(ValueError, match="proved first"):
        bias_variance_derivation().chain_2_42()


def test_unchecked_chain_is_not_marked():
    assert r"\checkmark" not in bias_variance_derivation().chain_2_41.latex()


def _first_step_using(chain, name):
    return next(k for k, step in enumerate(chain.steps, start=1) if name in {r.name for r in step.rules})


@pytest.mark.parametrize("name", [n for n in RULE_NAMES if not n.startswith("(2.3") and n != "(2.40)"])
def test_removing_a_rule_fails_at_the_step_that_needs_it(name):
    full = checked()
    bv = bias_variance_derivation(omit=[name])
    key = full.rules[name].name
    failed = 0
    for attr in ("chain_2_41", "cross_term"):
        chain = getattr(full, attr)
        if key not in {r.name for r in chain.rules}:
            getattr(bv, attr).check()  # a chain that never used the rule is unaffected
            continue
        k = _first_step_using(chain, key)
        with pytest.raises(DerivationError, match=rf"^step {k} "):
            getattr(bv, attr).check()
        failed += 1
    assert failed >= 1  # every rule is used somewhere


@pytest.mark.parametrize("name", ["(2.38)", "(2.39)", "(2.40)"])
def test_the_definitions_of_2_42_are_each_needed(name):
    bv = checked()
    rules = [r for r in bv.chain_2_42().steps[-1].rules if r.name != name]
    chain = Derivation(bv.chain_2_41.result).step(bv.bias2 + bv.var + bv.eps2, "definitions", rules=rules)
    with pytest.raises(DerivationError, match="^step 1 "):
        chain.check()


def test_independence_is_what_kills_the_cross_term():
    bv = bias_variance_derivation(omit=["independence"])
    with pytest.raises(DerivationError, match=r"^step 3 \('the cross term vanishes'\)"):
        bv.chain_2_41.check()
    # zero-mean noise is not needed for that term: the lemma holds without it
    assert bias_variance_derivation(omit=["zero-mean noise"]).cross_term.check().checked


def test_a_wrong_final_step_is_refused():
    bv = checked()
    rules = bv.chain_2_42().steps[-1].rules
    wrong = Derivation(bv.chain_2_41.result).step(bv.bias2 + bv.var, "forget the noise", rules=rules)
    with pytest.raises(DerivationError, match="forget the noise"):
        wrong.check()


def test_unknown_rule_name_is_refused():
    with pytest.raises(ValueError, match="omit names unknown rules"):
        bias_variance_derivation(omit=["symmetry"])


def test_short_notation_changes_the_printing_only():
    book, short = bias_variance_derivation(), bias_variance_derivation(short=True)
    for attr in ("chain_2_41", "cross_term"):
        a, b = getattr(book, attr), getattr(short, attr)
        assert [s.expr for s in a.steps] == [s.expr for s in b.steps]
        assert [[r.name for r in s.rules] for s in a.steps] == [[r.name for r in s.rules] for s in b.steps]
        assert b.check().checked
    # the operator's subscript may list its random set (when another E_D was made first): compare the rest
    name = book.E.function.latex_name
    assert "f(x; D)" in book.chain_2_41.latex().replace(name, "")
    assert "f(x; D)" not in short.chain_2_41.latex().replace(name, "")


def test_stacked_rendering_shows_the_same_chain():
    import sympy as sp

    bv = bias_variance_derivation(short=True)
    chain = bv.chain_2_41
    assert r"\checkmark" not in chain.latex()
    chain.check()
    side, stacked = chain.latex(layout="side"), chain.latex()
    assert chain.layout == "below" and stacked == chain.latex(layout="below")
    for step in chain.steps:
        expr = sp.latex(step.expr, **chain.latex_options)
        assert expr in side and expr in stacked
        assert step.why in stacked
        assert ", ".join(r.name for r in step.rules) in stacked
    assert stacked.count(r"\checkmark") == side.count(r"\checkmark") == 6  # six steps; the definition line has none
    assert stacked.startswith(r"\begin{aligned}") and stacked.endswith(r"\end{aligned}")


def test_zero_mean_noise_cannot_replace_independence_in_the_cross_term():
    bv = checked()
    expanded, cross_gone = bv.chain_2_41.steps[1].expr, bv.chain_2_41.steps[2].expr
    rules = [bv.E.linearity, bv.E.constant, bv.rules["(2.37)"], bv.rules["zero-mean noise"]]
    with pytest.raises(DerivationError, match="does not follow"):
        Derivation(expanded).step(cross_gone, "zero-mean noise instead", rules=rules).check()
    # and naming zero-mean noise beside independence is refused as a rule the step does not need
    with pytest.raises(DerivationError, match="holds without it"):
        Derivation(expanded).step(cross_gone, "both", rules=rules + [bv.rules["independence"]]).check()


def test_nonzero_mean_noise_leaves_a_fourth_term_unless_the_noise_is_redefined():
    import sympy as sp

    from melearn.derivation import Rule

    bv = checked()
    E, f, f_bar, y_D, y = bv.E, bv.f, bv.f_bar, bv.y_D, bv.y
    y_bar, b = sp.symbols("ybar b")
    mean_label = Rule.definition("mean label", {y_bar: E(y_D)})
    offset = Rule.definition("b", {b: y_bar - y})
    base = [E.linearity, E.constant, bv.rules["(2.37)"], bv.rules["independence"]]
    start = E((f - y_D) ** 2)
    redefined = E((f - f_bar) ** 2) + (f_bar - y_bar) ** 2 + E((y_D - y_bar) ** 2)
    assert Derivation(start).step(redefined, "", rules=base + [mean_label]).check().checked
    four_terms = bv.bias2 + bv.var + bv.eps2 - 2 * b * (f_bar - y)
    defs = [bv.rules[n] for n in ("(2.38)", "(2.39)", "(2.40)")]
    assert Derivation(start).step(four_terms, "", rules=base + [mean_label, offset] + defs).check().checked
    # the book's three terms do not follow once the noise mean is not zero
    with pytest.raises(DerivationError, match="does not follow"):
        Derivation(start).step(bv.bias2 + bv.var + bv.eps2, "", rules=base + [mean_label] + defs).check()
