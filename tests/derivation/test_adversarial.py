"""The second adversarial corpus: false steps, unsound premises and misleading names the kernel must refuse.

Each case is a chain, a rule or an object an adversary would build to put a tick on a false line (or a true step
the kernel must accept). A refusal is any of ``DerivationError`` (a chain refused at ``check``), ``ValueError``,
``TypeError`` (refused at construction) or ``AttributeError`` (an immutable field). The classes follow the
issue that asked for them: built-in rules without their side conditions, page rules never tested, operators and
random quantities, names that read as something else, true steps refused, and the ledger.
"""

from __future__ import annotations

import pytest
import sympy as sp
import sympy.stats as stats

from melearn.derivation import Derivation, DerivationError, Expectation, Indicator, Rule, page_ledger, sums
from melearn.derivation import ledger as ledger_module
from melearn.derivation.calculus import derivative_of_sum
from melearn.derivation.integrals import IntegralOver
from melearn.derivation.iverson import decided_on_range
from melearn.derivation.limits import continuity

REFUSED = (DerivationError, ValueError, TypeError, AttributeError)

i, j = sp.symbols("i j", integer=True)
k_pos = sp.Symbol("k", integer=True, positive=True)
a_int, b_int = sp.symbols("a_1 b_1", integer=True)
a, b, c, x = sp.symbols("a b c x")
t = sp.Symbol("t", real=True)
u = sp.IndexedBase("u")


def refuse(build):
    with pytest.raises(REFUSED):
        chain = build()
        if isinstance(chain, Derivation):
            chain.check()


# -- 1. built-in rules without their side conditions -------------------------------------------------------------
SIDE_CONDITIONS = {
    "constant sum over a reversed range": lambda: Derivation(sp.Sum(1, (i, 6, 3))).step(
        sp.Integer(-2), "", rules=[sums.constant_sum()]
    ),
    "constant sum over an unordered range": lambda: Derivation(sp.Sum(c, (i, a_int, b_int))).step(
        (b_int - a_int + 1) * c, "", rules=[sums.constant_sum()]
    ),
    "computation reads a reversed range by Karr's convention": lambda: Derivation(sp.Sum(i, (i, 5, 2))).step(
        sp.Integer(-7), "", rules=[Rule.computation("a finite sum", sp.Sum)]
    ),
    "peel the first term of an empty range": lambda: Derivation(sp.Sum(u[i], (i, 1, 0))).step(
        u[1] + sp.Sum(u[i], (i, 2, 0)), "", rules=[sums.peel_first(1)]
    ),
    "peel the last term of an empty range": lambda: Derivation(sp.Sum(u[i], (i, 1, 0))).step(
        sp.Sum(u[i], (i, 1, -1)) + u[0], "", rules=[sums.peel_last(0)]
    ),
    "split outside the range": lambda: Derivation(sp.Sum(u[i], (i, 1, 3))).step(
        sp.Sum(u[i], (i, 1, 5)) + sp.Sum(u[i], (i, 6, 3)), "", rules=[sums.split(5)]
    ),
    "telescoping over a reversed range": lambda: Derivation(sp.Sum(u[i + 1] - u[i], (i, 5, 2))).step(
        u[3] - u[5], "", rules=[sums.telescoping(u[i], i)]
    ),
    "shift over a reversed range": lambda: Derivation(sp.Sum(u[i], (i, 5, 2))).step(
        sp.Sum(u[i - 1], (i, 6, 3)), "", rules=[sums.shift_index(5, 6)]
    ),
    "linearity over a reversed range": lambda: Derivation(sp.Sum(2 * u[i], (i, 5, 2))).step(
        2 * sp.Sum(u[i], (i, 5, 2)), "", rules=[sums.linearity()]
    ),
    "Iverson decides from the declared positivity of a bound index": lambda: Derivation(
        sp.Sum(u[k_pos] * sp.Sum(Indicator(j <= k_pos), (j, 1, 1)), (k_pos, -5, -1))
    ).step(sp.Sum(u[k_pos] * sp.Sum(1, (j, 1, 1)), (k_pos, -5, -1)), "", rules=[decided_on_range()]),
    "Iverson on a reversed range": lambda: Derivation(sp.Sum(Indicator(j <= 0) * u[j], (j, 3, 1))).step(
        sp.Sum(u[j], (j, 3, 1)) * 0, "", rules=[decided_on_range()]
    ),
    "derivative term by term of a series": lambda: Derivation(
        sp.Derivative(sp.Sum(x**i * u[i], (i, 0, sp.oo)), x)
    ).step(sp.Sum(sp.Derivative(x**i * u[i], x), (i, 0, sp.oo)), "", rules=[derivative_of_sum()]),
    "limit moved inside a series": lambda: Derivation(
        sp.Limit(sp.Sum(t**2 / (1 + t**2) ** i, (i, 0, sp.oo)), t, 0)
    ).step(sp.Integer(0), "", rules=[continuity()]),
    "limit moved inside an improper integral": lambda: Derivation(
        sp.Limit(sp.Integral(t * sp.exp(-t * x), (x, 0, sp.oo)), t, 0)
    ).step(sp.Integral(0, (x, 0, sp.oo)), "", rules=[continuity()]),
}


@pytest.mark.parametrize("case", sorted(SIDE_CONDITIONS))
def test_side_conditions_are_checked(case):
    refuse(SIDE_CONDITIONS[case])


# -- 2. rules a page supplies ------------------------------------------------------------------------------------
def _placeholder_drops_even():
    n = sp.Symbol("n", even=True)
    proof = Derivation(sp.Pow(-1, n, evaluate=False)).step(sp.Integer(1), "an even power of -1").check()
    lemma = Rule.lemma("even power", proof, variables=[n])  # holds for even n only
    m = sp.Symbol("m", integer=True)  # an integer, not known to be even
    return Derivation((-1) ** m + x).step(1 + x, "", rules=[lemma])


class _FakeChain:
    checked = True
    first, result = sp.Integer(1), sp.Integer(2)


PAGE_RULES = {
    "a cited identity numbers refute": lambda: Rule.cited("square", {(a + b) ** 2: a**2 + b**2}, source="folklore"),
    "a cited schema numbers refute": lambda: Rule.cited(
        "square", {(sp.Wild("p") + sp.Wild("q")) ** 2: sp.Wild("p") ** 2 + sp.Wild("q") ** 2}, source="folklore"
    ),
    "an assumed schema numbers refute": lambda: Rule.assumption("double", {2 * sp.Wild("p"): sp.Wild("p")}),
    "a cited sum identity numbers refute": lambda: Rule.cited(
        "sum of 1..n", {sp.Sum(i, (i, 1, k_pos)): k_pos**2 / 2}, source="folklore"
    ),
    "an assumption that is the conclusion": lambda: Derivation(a**2).step(
        b, "", rules=[Rule.assumption("the claim", {a**2: b})]
    ),
    "two assumptions a = 1 and a = 2": lambda: (
        Derivation(sp.Integer(1))
        .step(a, "", rules=[Rule.assumption("a is 1", {a: 1})])
        .step(sp.Integer(2), "", rules=[Rule.assumption("a is 2", {a: 2})])
    ),
    "a definition of a number": lambda: Rule.definition("two", {sp.Integer(2): sp.Integer(3)}),
    "a definition of a name in terms of itself": lambda: Rule.definition("x", {x: x + 1}),
    "a definition redefining a symbol with new assumptions": lambda: Rule.definition(
        "positive x", {sp.Symbol("x", positive=True): sp.sqrt(x**2)}
    ),
    "the raw Rule constructor": lambda: Rule("anything", "cited", "1 = 1", lambda e: sp.Integer(0)),
    "a lemma from an object that only says it is checked": lambda: Rule.lemma("fake", _FakeChain()),
    "a computation with a free-text statement": lambda: Rule.computation(
        "an integral", sp.Integral, statement=r"\int_0^1 t\,dt = \tfrac12"
    ),
    "a placeholder that drops 'even'": _placeholder_drops_even,
}


@pytest.mark.parametrize("case", sorted(PAGE_RULES))
def test_page_rules_are_checked(case):
    refuse(PAGE_RULES[case])


def test_a_computation_evaluates_the_nodes_it_names_and_no_other():
    only = Rule.computation("the integral of t", [sp.Integral(t, (t, 0, 1))])
    assert r"\int" in only.statement  # the statement shows the node it evaluates
    assert Derivation(sp.Integral(t, (t, 0, 1)) + x).step(sp.Rational(1, 2) + x, "", rules=[only]).check().checked
    with pytest.raises(DerivationError):
        Derivation(sp.Integral(t**2, (t, 0, 1))).step(sp.Rational(1, 3), "", rules=[only]).check()


# -- 3. operators and random quantities --------------------------------------------------------------------------
def _random_behind_a_name(order):
    f, z = sp.Symbol("f_adv"), sp.Symbol("z_adv")
    E = Expectation([f], "adv")
    define = Rule.definition("z", {z: f + 1})
    rules = [E.constant, define] if order == "constant first" else [define, E.constant]
    return Derivation(E(z)).step(f + 1, "", rules=rules)


def _random_behind_a_name_in_two_steps():
    f, w = sp.Symbol("f_adv2"), sp.Symbol("w_adv2")
    E = Expectation([f], "adv2")
    define = Rule.definition("w", {w: f**2})
    return Derivation(E(w)).step(w, "", rules=[E.constant]).step(f**2, "", rules=[define])


def _compound_random():
    p, q = sp.symbols("p_adv q_adv")
    E = Expectation([p + q], "adv3")
    return Derivation(E(2 * p + 2 * q)).step(2 * p + 2 * q, "", rules=[E.constant])


def _indexed_random():
    X = sp.IndexedBase("X_adv")
    E = Expectation([X[i]], "adv4")
    return Derivation(E(X[i + 1])).step(X[i + 1], "", rules=[E.constant])


def _reassign(field):
    def build():
        E = Expectation([sp.Symbol("f_adv5")], "adv5")
        setattr(E, field, frozenset() if field == "random" else "other")

    return build


def _same_rendering():
    y = sp.Symbol("y_adv6")
    first, second = Expectation([y], "adv6"), Expectation([y, sp.Symbol("g_adv6")], "adv6")
    if sp.latex(first(y)) == sp.latex(second(y)):
        raise AssertionError("two operators over different random sets print alike")  # not a refusal: fails


def _independent_entries_may_coincide():
    X = sp.IndexedBase("X_adv7")
    E = Expectation([X[i], X[j]], "adv7")
    return E.independent([X[i]], [X[j]])


def _integral_through_a_name():
    g, cc = sp.Function("g_adv"), sp.Symbol("c_adv")
    over = IntegralOver([x], name="IntegralAdv")
    Rule.definition("c", {cc: x})
    return Derivation(over(cc * g(x))).step(cc * over(g(x)), "", rules=[over.linearity])


OPERATORS = {
    "a random quantity behind a name, constant rule first": lambda: _random_behind_a_name("constant first"),
    "a random quantity behind a name, definition first": lambda: _random_behind_a_name("definition first"),
    "a random quantity behind a name, definition in a later step": _random_behind_a_name_in_two_steps,
    "a compound random entry p + q": _compound_random,
    "an indexed random entry X[i] and X[i+1]": _indexed_random,
    "reassigning an operator's random set": _reassign("random"),
    "reassigning an operator's subscript": _reassign("subscript"),
    "reassigning an operator's function": _reassign("function"),
    "independence of entries that may coincide": _independent_entries_may_coincide,
    "a factor that varies through a definition pulled out of an integral": _integral_through_a_name,
    "a sympy.stats expectation": lambda: Derivation(stats.Expectation(stats.Normal("N_adv", 0, 1) ** 2)).step(
        sp.Integer(1), "algebra?"
    ),
    "a sympy.stats probability": lambda: Derivation(stats.Probability(stats.Normal("M_adv", 0, 1) > 0)).step(
        sp.Rational(1, 2), "algebra?"
    ),
}


@pytest.mark.parametrize("case", sorted(OPERATORS))
def test_operators_cannot_be_fooled(case):
    refuse(OPERATORS[case])


def test_operators_over_different_sets_render_differently():
    y = sp.Symbol("y_adv8")
    first, second = Expectation([y], "adv8"), Expectation([y, sp.Symbol("g_adv8")], "adv8")
    assert sp.latex(first(y)) != sp.latex(second(y))


# -- 4. names that read as something else, and inputs that are not expressions ------------------------------------
def _true_square(name_or_symbol):
    # a true step by algebra: refused only because of the symbol's name
    other = name_or_symbol if isinstance(name_or_symbol, sp.Symbol) else sp.Symbol(name_or_symbol)
    return Derivation((a + other) ** 2).step(a**2 + 2 * a * other + other**2, "expand")


NAMES = {
    "a symbol named 2": lambda: _true_square("2"),
    "a symbol named 0.5": lambda: _true_square("0.5"),
    "a symbol named \\checkmark": lambda: _true_square(r"\checkmark"),
    "a symbol named \\text{\\checkmark}": lambda: _true_square(r"\text{\checkmark}"),
    "a symbol named pi": lambda: _true_square("pi"),
    "a symbol named with a colour command": lambda: _true_square(r"\color{red}{x}"),
    "two symbols of one name with different assumptions": lambda: Derivation(
        (sp.Symbol("r") + sp.Symbol("r", positive=True)) ** 2
    ).step(
        sp.Symbol("r") ** 2 + 2 * sp.Symbol("r") * sp.Symbol("r", positive=True) + sp.Symbol("r", positive=True) ** 2,
        "expand",
    ),
}


@pytest.mark.parametrize("case", sorted(NAMES))
def test_names_that_read_as_something_else_are_refused(case):
    refuse(NAMES[case])


INPUTS = {
    "Derivation(None)": (lambda: Derivation(None), "start"),
    "a string start": (lambda: Derivation("x + 1").step(x + 1, ""), "start"),
    "a list start": (lambda: Derivation([1, 2]), "start"),
    "a step that is None": (lambda: Derivation(a).step(None, ""), "expr"),
    "a step that is a string": (lambda: Derivation(a).step("a", ""), "expr"),
}


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_inputs_that_are_not_expressions_are_refused_by_name(case):
    build, argument = INPUTS[case]
    with pytest.raises(TypeError, match=argument):
        build()


# -- 5. true steps that must be accepted: alpha-renaming of bound variables ---------------------------------------
def test_renaming_a_bound_index_is_algebra():
    n = sp.Symbol("n", integer=True, positive=True)
    assert Derivation(sp.Sum(u[i], (i, 1, n))).step(sp.Sum(u[j], (j, 1, n)), "rename").check().checked


def test_renaming_an_integration_variable_is_algebra():
    f, s = sp.Function("f"), sp.Symbol("s")
    assert Derivation(sp.Integral(f(t), (t, 0, 1))).step(sp.Integral(f(s), (s, 0, 1)), "rename").check().checked


def test_renaming_does_not_confuse_free_and_bound():
    n = sp.Symbol("n", integer=True, positive=True)
    with pytest.raises(DerivationError):
        Derivation(sp.Sum(u[i] * j, (i, 1, n))).step(sp.Sum(u[j] * j, (j, 1, n)), "capture").check()


# -- 6. the ledger ---------------------------------------------------------------------------------------------------
def _run_cell():
    fbar = sp.Symbol("fbar_adv")
    mean = Rule.definition("(2.20)", {fbar: a + b}, source="(2.20)")
    return Derivation(fbar + c, lhs="G").step(a + b + c, "", rules=[mean]).check()


def test_a_cell_run_twice_counts_once():
    ledger_module.clear()
    _run_cell()
    _run_cell()
    assert page_ledger().chains == 1


def test_notation_lines_and_symbol_assumptions_are_listed():
    ledger_module.clear()
    chain = _run_cell()
    n = sp.Symbol("n_adv", integer=True, positive=True)
    Derivation(sp.log(2 * n)).step(sp.log(2) + sp.log(n), "").check()
    ledger = page_ledger().to_dict()
    assert ledger["unchecked"] == [r"G := c + \bar{f}_{adv}"]
    assert ledger["symbol_assumptions"] == [["n_adv", ["integer", "positive"]]]
    assert chain.assumptions_used() == ()


def test_a_source_equal_to_the_name_is_not_doubled():
    ledger_module.clear()
    _run_cell()
    assert "(2.20) <em>((2.20))</em>" not in page_ledger()._repr_html_()


def test_a_placeholder_is_shown_as_one_with_its_assumptions():
    n = sp.Symbol("n", even=True)
    proof = Derivation(sp.Pow(-1, n, evaluate=False)).step(sp.Integer(1), "an even power of -1").check()
    statement = Rule.lemma("even power", proof, variables=[n]).statement
    assert r"\text{for every }n" in statement and "(even)" in statement  # not readable as a bound index n
