"""The derivation checker, tested as an adversary would: false steps refused, true steps accepted.

Each false step below is one a careless page could write (or one the previous checker accepted); each true step
is there so that a checker which refuses everything fails too.
"""

from __future__ import annotations

import pytest
import sympy as sp

from melearn.derivation import (
    Derivation,
    DerivationError,
    Expectation,
    Indicator,
    P,
    Rule,
    equal_modulo,
    page_ledger,
    record_enumeration,
    show_refusal,
    sums,
)
from melearn.derivation import ledger as ledger_module

a, b, c, x, t = sp.symbols("a b c x t")
k, m, n = sp.symbols("k m n", integer=True, positive=True)
i, j = sp.symbols("i j", integer=True)
p, q = sp.symbols("p q", positive=True)
u = sp.IndexedBase("u")
f = sp.Function("f")
D = sp.Symbol("D")
fx = f(x, D)
y_D = sp.Symbol("y_D")


def chain(start, end, rules=(), why="the step"):
    return Derivation(start).step(end, why, rules=rules)


def refused(start, end, rules=()) -> bool:
    try:
        chain(start, end, rules).check()
    except DerivationError:
        return True
    return False


# -- false steps: each must be refused --------------------------------------------------------------------------
E_f = Expectation([fx, y_D])
E_a = Expectation([a], "S")
E_b = Expectation([b], "S")
wild = sp.Wild("w")
A, B = sp.symbols("A B")  # events
complement = Rule.cited("complement", {P(sp.Not(wild)): 1 - P(wild)}, source="Casella and Berger (2002)")

FALSE_STEPS = {
    # calculus evaluated silently (all accepted by the previous checker's simplify fallback)
    "derivative evaluated": (sp.Derivative(t**3, t), 3 * t**2, []),
    "integral evaluated": (sp.Integral(t**2, (t, 0, 1)), sp.Rational(1, 3), []),
    "sum in closed form": (sp.Sum(j, (j, 1, k)), k * (k + 1) / 2, []),
    "limit evaluated": (sp.Limit((1 - 1 / m) ** m, m, sp.oo), sp.exp(-1), []),
    "product evaluated": (sp.Product(2, (j, 1, k)), 2**k, []),
    "sum split by expansion": (sp.Sum(u[j] + 1, (j, 1, k)), sp.Sum(u[j], (j, 1, k)) + k, []),
    "sum split without its rule": (
        sp.Sum(u[j] + u[j + 1], (j, 1, k)),
        sp.Sum(u[j], (j, 1, k)) + sp.Sum(u[j + 1], (j, 1, k)),
        [],
    ),
    "integral split without its rule": (
        sp.Integral(t + t**2, (t, 0, 1)),
        sp.Integral(t, (t, 0, 1)) + sp.Integral(t**2, (t, 0, 1)),
        [],
    ),
    "constant pulled out of a sum silently": (sp.Sum(2 * u[j], (j, 1, k)), 2 * sp.Sum(u[j], (j, 1, k)), []),
    "product of sums": (sp.Sum(u[j] * u[j], (j, 1, k)), sp.Sum(u[j], (j, 1, k)) ** 2, [sums.linearity()]),
    "sum of a constant off by one": (sp.Sum(c, (j, 0, n)), n * c, [sums.constant_sum()]),
    "split at the wrong index": (
        sp.Sum(u[j], (j, 1, n)),
        sp.Sum(u[j], (j, 1, k)) + sp.Sum(u[j], (j, k, n)),
        [sums.split(k)],
    ),
    "telescoping off by one": (sp.Sum(u[j + 1] - u[j], (j, 1, n)), u[n] - u[1], [sums.telescoping(u[j], j)]),
    "telescoping what does not telescope": (
        sp.Sum(u[j + 2] - u[j], (j, 1, n)),
        u[n + 1] - u[1],
        [sums.telescoping(u[j], j)],
    ),
    "derivative via the wrong computation": (
        sp.Derivative(t**3, t),
        3 * t**2,
        [Rule.computation("integrals", sp.Integral)],
    ),
    # missing assumptions
    "log of a product without positivity": (sp.log(a * b), sp.log(a) + sp.log(b), []),
    "log of a power without positivity": (sp.log(a**2), 2 * sp.log(a), []),
    "square root of a square": (sp.sqrt(x**2), x, []),
    "root of a product without positivity": (sp.sqrt(a * b), sp.sqrt(a) * sp.sqrt(b), []),
    "power of a power without assumptions": ((a**b) ** c, a ** (b * c), []),
    "absolute value dropped": (sp.Abs(x), x, []),
    # random quantities treated as constants
    "random function as a constant": (E_f(fx**2), fx**2, [E_f.constant]),
    "square of the mean by linearity": (E_f(fx**2), E_f(fx) ** 2, [E_f.linearity]),
    "another application of a random function": (E_f(f(sp.Symbol("z"), D)), f(sp.Symbol("z"), D), [E_f.constant]),
    "a function of a random quantity": (E_f(sp.exp(fx)), sp.exp(fx), [E_f.constant]),
    "product split by linearity alone": (E_f(fx * y_D), E_f(fx) * E_f(y_D), [E_f.linearity]),
    "linearity through a non-linear function": (E_f(sp.exp(fx + y_D)), sp.exp(E_f(fx) + E_f(y_D)), [E_f.linearity]),
    # operators confused
    "one operator's constant rule on another": (E_b(b), b, [E_a.constant]),
    "one operator's linearity on another": (E_b(2 * b), 2 * E_b(b), [E_a.linearity]),
    "probability as a number": (P(sp.Eq(a, b)), sp.Rational(1, 2), []),
    "indicator as its argument": (Indicator(sp.Lt(a, b)), 1, []),
    # plain algebra slips
    "a dropped cross term": ((a + b) ** 2, a**2 + b**2, []),
    "a wrong sign": ((a + b) ** 2, a**2 - 2 * a * b + b**2, []),
    "an off-by-a-hair constant": ((a + b) ** 2, a**2 + 2 * a * b + b**2 + sp.Rational(1, 10**12), []),
    # a cited schema applies to its instances only
    "a schema misapplied": (P(sp.Not(A)), P(A), [complement]),
}


@pytest.mark.parametrize("name", sorted(FALSE_STEPS))
def test_false_step_is_refused(name):
    start, end, rules = FALSE_STEPS[name]
    d = chain(start, end, rules, why=name)
    with pytest.raises(DerivationError, match=r"^step 1 "):
        d.check()
    assert not d.checked
    assert r"\checkmark" not in d.latex()


def test_at_least_thirty_false_steps():
    assert len(FALSE_STEPS) >= 30


# -- true steps: each must be accepted, with exactly the rules it needs -------------------------------------------
mean = Rule.definition("(2.37)", {sp.Symbol("fbar"): E_f(fx)})
TRUE_STEPS = {
    "expand a square": ((a + b) ** 2, a**2 + 2 * a * b + b**2, []),
    "Pythagoras": (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1), []),
    "log of a product of positives": (sp.log(p * q), sp.log(p) + sp.log(q), []),
    "log of a power of a positive": (sp.log(p**2), 2 * sp.log(p), []),
    "binomial absorption is algebra": (i * sp.binomial(m, i), m * sp.binomial(m - 1, i - 1), []),
    "integral, computed": (
        sp.Integral(t**2, (t, 0, 1)),
        sp.Rational(1, 3),
        [Rule.computation("integral of t^2", sp.Integral)],
    ),
    "derivative, computed": (sp.Derivative(t**3, t), 3 * t**2, [Rule.computation("derivative of t^3", sp.Derivative)]),
    "limit, computed": (sp.Limit((1 - 1 / m) ** m, m, sp.oo), sp.exp(-1), [Rule.computation("the limit", sp.Limit)]),
    "sum of integers, computed": (sp.Sum(j, (j, 1, k)), k * (k + 1) / 2, [Rule.computation("sum of 1..k", sp.Sum)]),
    "sum split by its rule": (
        sp.Sum(2 * u[j] + 1, (j, 1, k)),
        2 * sp.Sum(u[j], (j, 1, k)) + sp.Sum(1, (j, 1, k)),
        [sums.linearity()],
    ),
    "sum of a constant": (sp.Sum(c, (j, 1, n)), n * c, [sums.constant_sum()]),
    "split at C": (
        sp.Sum(u[j], (j, 1, n + k)),
        sp.Sum(u[j], (j, 1, k)) + sp.Sum(u[j], (j, k + 1, n + k)),
        [sums.split(k)],
    ),
    "peel the first term": (sp.Sum(u[j], (j, 0, n)), u[0] + sp.Sum(u[j], (j, 1, n)), [sums.peel_first(0)]),
    "peel the last term": (sp.Sum(u[j], (j, 0, n)), sp.Sum(u[j], (j, 0, n - 1)) + u[n], [sums.peel_last(n)]),
    "shift the index": (sp.Sum(u[j], (j, 0, n)), sp.Sum(u[j - 1], (j, 1, n + 1)), [sums.shift_index(0, 1)]),
    "telescoping": (sp.Sum(u[j + 1] - u[j], (j, 1, n)), u[n + 1] - u[1], [sums.telescoping(u[j], j)]),
    "telescoping downwards": (sp.Sum(u[j - 1] - u[j], (j, 0, n)), u[-1] - u[n], [sums.telescoping(-u[j - 1], j)]),
    "linearity of expectation": (E_f(2 * fx + 3), 2 * sp.Symbol("fbar") + 3, [E_f.linearity, E_f.constant, mean]),
    "independence splits a product": (E_f(fx * y_D), E_f(fx) * E_f(y_D), [E_f.independent([fx], [y_D])]),
    "a cited schema on its instance": (P(sp.Not(A)) + P(sp.Not(B)), 2 - P(A) - P(B), [complement]),
    "expectation of an expectation": (E_f(E_f(fx) * fx), E_f(fx) ** 2, [E_f.linearity]),
}


@pytest.mark.parametrize("name", sorted(TRUE_STEPS))
def test_true_step_is_accepted_with_exactly_its_rules(name):
    start, end, rules = TRUE_STEPS[name]
    d = chain(start, end, rules, why=name)
    assert d.check() is d and d.checked
    assert r"\checkmark" in d.latex()


def test_the_two_demos_of_the_sum_rules_agree_with_sympy():
    # a rule's rewrite is an instance of its statement: the computed closed forms agree with sympy's own
    for name in ("sum split by its rule", "split at C", "peel the first term", "telescoping"):
        start, end, _ = TRUE_STEPS[name]
        concrete = {k: 4, n: 6}
        values = {u[s]: sp.Integer(s) ** 2 + 3 for s in range(-2, 9)}
        left = start.subs(concrete).doit().subs(values)
        right = end.subs(concrete).doit().subs(values)
        assert sp.simplify(left - right) == 0, name


# -- rules that are not needed, steps that change nothing, tampering ----------------------------------------------
def test_a_rule_the_step_does_not_need_is_refused():
    d = chain((a + b) ** 2, a**2 + 2 * a * b + b**2, [sums.linearity()])
    with pytest.raises(DerivationError, match="holds without it"):
        d.check()


def test_two_rules_each_sufficient_are_both_refused():
    first = Rule.assumption("a is 1", {a: 1})
    second = Rule.assumption("a is one", {a: 1})
    with pytest.raises(DerivationError, match="holds without it"):
        chain(a + b, 1 + b, [first, second]).check()


def test_every_rule_of_a_many_rule_step_is_needed():
    rules = [E_f.linearity, E_f.constant, mean]
    for dropped in rules:
        kept = [r for r in rules if r is not dropped]
        with pytest.raises(DerivationError, match="^step 1 .* does not follow"):
            chain(E_f(2 * fx + 3), 2 * sp.Symbol("fbar") + 3, kept).check()


def test_a_step_that_changes_nothing_is_refused():
    with pytest.raises(DerivationError, match="changes nothing"):
        chain(a + b, a + b).check()
    with pytest.raises(DerivationError, match="changes nothing"):
        chain(a + b, b + a).check()  # the same expression, written as sympy orders it


def test_a_step_that_only_regroups_is_shown_and_accepted():
    regrouped = sp.Add(a - c, c + b, evaluate=False)
    assert Derivation(a + b).step(regrouped, "add and subtract c").check().checked


def test_adding_a_step_after_check_removes_every_tick():
    d = chain((a + b) ** 2, a**2 + 2 * a * b + b**2).check()
    d.step((a + b) ** 2 + 0 * a + a - a, "back")  # builds (a + b)**2: refused at check, but first: no ticks
    assert not d.checked and r"\checkmark" not in d.latex()


def test_tampering_with_the_steps_removes_every_tick():
    d = chain((a + b) ** 2, a**2 + 2 * a * b + b**2).check()
    assert isinstance(d.steps, tuple)
    with pytest.raises(AttributeError):
        d.steps.append(None)  # type: ignore[attr-defined]
    d._steps = d._steps[:0] + (type(d._steps[0])(a**2 + b**2, "forged"),)
    assert not d.checked and r"\checkmark" not in d.latex()


def test_a_notation_first_line_is_never_ticked():
    d = Derivation((a + b) ** 2, lhs="S").step(a**2 + 2 * a * b + b**2, "expand").check()
    first, second = d.latex().split("\\\\\n")
    assert r"S &\mathrel{:=}" in first and r"\checkmark" not in first
    assert r"\checkmark" in second


def test_an_expression_first_line_is_checked():
    s = sp.Symbol("S")
    name = Rule.definition("S", {s: (a + b) ** 2})
    d = Derivation((a + b) ** 2, lhs=s, lhs_rules=[name]).step(a**2 + 2 * a * b + b**2, "expand").check()
    assert d.latex().count(r"\checkmark") == 2
    wrong = Derivation((a - b) ** 2, lhs=s, lhs_rules=[name]).step(a**2 - 2 * a * b + b**2, "expand")
    with pytest.raises(DerivationError, match="^the first line"):
        wrong.check()


def test_an_empty_chain_is_not_a_proof():
    with pytest.raises(DerivationError, match="no steps"):
        Derivation(a).check()


def test_the_first_failing_step_is_the_one_named():
    d = Derivation(2 * x).step(sp.Add(x, x, evaluate=False), "split").step(3 * x, "wrong").step(2 * x + x, "consistent")
    with pytest.raises(DerivationError, match=r"step 2 \('wrong'\)"):
        d.check()


# -- rules: kinds, statements, lemmas ---------------------------------------------------------------------------
def test_rules_have_a_kind_and_state_their_equation():
    rule = Rule.definition("(2.37)", {sp.Symbol("fbar"): E_f(fx)}, source="(2.37)")
    assert rule.kind == "definition" and r"\mathrel{:=}" in rule.statement
    assert rule.statement == rf"\bar{{f}} \mathrel{{:=}} {sp.latex(E_f(fx))}"
    with pytest.raises(TypeError, match="private"):
        Rule("x", "cited", "x", lambda e: e)
    with pytest.raises(ValueError, match="source"):
        Rule.cited("folklore", {a: b}, source="")
    with pytest.raises(ValueError, match="says nothing"):
        Rule.assumption("tautology", {a: a})
    with pytest.raises(ValueError, match="computation evaluates"):
        Rule.computation("sin", sp.sin)
    with pytest.raises(TypeError):
        chain(a, b, ["not a rule"])  # type: ignore[list-item]


def test_a_lemma_needs_a_checked_chain_and_states_what_it_proved():
    proof = Derivation((p + q) ** 2).step(p**2 + 2 * p * q + q**2, "expand")
    with pytest.raises(ValueError, match="proved first"):
        Rule.lemma("square", proof)
    proof.check()
    lemma = Rule.lemma("square", proof, source="proved above")
    assert (
        lemma.kind == "lemma" and lemma.statement == f"{sp.latex((p + q) ** 2)} = {sp.latex(p**2 + 2 * p * q + q**2)}"
    )


def test_a_general_lemma_honours_its_symbols_assumptions():
    # proved for a positive exponent: the integral of t^p over [0, 1] is 1/(p + 1) (false for p <= -1)
    proof = Derivation(sp.Integral(t**p, (t, 0, 1))).step(
        1 / (p + 1), "", rules=[Rule.computation("integral", sp.Integral)]
    )
    lemma = Rule.lemma("integral of a power", proof.check(), variables=[p])
    r = sp.Symbol("r", positive=True)
    assert chain(sp.Integral(t**r, (t, 0, 1)), 1 / (r + 1), [lemma]).check().checked
    # it must not apply to an exponent that may be -1 or less
    with pytest.raises(DerivationError):
        chain(sp.Integral(t**x, (t, 0, 1)), 1 / (x + 1), [lemma]).check()


def test_independence_needs_its_own_disjoint_random_groups():
    with pytest.raises(ValueError, match="must not share"):
        E_f.independent([fx], [fx])
    with pytest.raises(ValueError, match="own operator"):
        E_f.independent([fx], [a])


def test_an_expectation_needs_a_random_quantity():
    with pytest.raises(ValueError, match="random"):
        Expectation([])


def test_the_same_operator_built_twice_is_one_operator():
    assert Expectation([fx, y_D])(fx) == E_f(fx)
    assert Expectation([a], "S")(a) != Expectation([a, b], "S")(a)


def test_equal_modulo_uses_the_given_rules_only():
    one = Rule.assumption("a = 1", {a: 1})
    assert equal_modulo(a + b, 1 + b, [one])
    assert not equal_modulo(a + b, 1 + b)


# -- refusal demos and the ledger ------------------------------------------------------------------------------
def test_show_refusal_prints_the_refusal_and_fails_when_the_step_passes(capsys):
    error = show_refusal(chain((a + b) ** 2, a**2 + b**2, why="forget the cross term"))
    assert isinstance(error, DerivationError)
    assert capsys.readouterr().out.startswith("refused: step 1 ('forget the cross term')")
    with pytest.raises(AssertionError, match="meant to be refused was accepted"):
        show_refusal(chain((a + b) ** 2, a**2 + 2 * a * b + b**2))


def test_the_ledger_counts_what_the_chains_rest_on():
    ledger_module.clear()
    chain((a + b) ** 2, a**2 + 2 * a * b + b**2).check()
    chain(E_f(2 * fx + 3), 2 * sp.Symbol("fbar") + 3, [E_f.linearity, E_f.constant, mean]).check()
    show_refusal(chain((a + b) ** 2, a**2 + b**2))  # refused chains are not counted
    unchecked = chain(a * (b + c), a * b + a * c).check()
    unchecked.step(a * b + c * a + 0, "same")  # changed after check: no longer counted
    record_enumeration("AUC = 1 - rank loss", "every labelling with m <= 5")
    ledger = page_ledger()
    assert (ledger.chains, ledger.steps, ledger.algebra_steps) == (2, 2, 1)
    assert ledger.rules["definition"] == [("(2.37)", "")]
    assert [name for name, _ in ledger.rules["cited"]] == ["linearity of expectation", "expectation of a constant"]
    assert ledger.claims == [
        {"how": "enumerated", "claim": "AUC = 1 - rank loss", "scope": "every labelling with m <= 5"}
    ]
    assert '"algebra_steps": 1' in repr(ledger) and "Checked by enumeration only" in ledger._repr_html_()
    with pytest.raises(ValueError, match="scope"):
        record_enumeration("a claim", "")
    ledger_module.clear()


# -- rendering --------------------------------------------------------------------------------------------------
def test_latex_names_rules_beside_steps_and_lists_them_with_kind_and_source():
    d = chain(E_f(2 * fx + 3), 2 * sp.Symbol("fbar") + 3, [E_f.linearity, E_f.constant, mean]).check()
    tex = d.latex()
    assert r"\checkmark" in tex and "linearity of expectation" in tex
    listed = d.rules_latex()
    assert "(cited; Casella and Berger (2002)" in listed and "(definition)" in listed


def test_special_characters_in_reasons_are_escaped():
    d = chain((a + b) ** 2, a**2 + 2 * a * b + b**2, why="50% & #1").check()
    assert r"50\% \& \#1" in d.latex()


def test_layout_below_puts_each_reason_under_its_step():
    d = Derivation((a + b) ** 2, layout="below").step(a**2 + 2 * a * b + b**2, "expand").check()
    assert r"&\quad {\color{gray}{\checkmark\ \text{expand}}}" in d.latex()
    with pytest.raises(ValueError, match="layout"):
        Derivation(a, layout="diagonal")


def test_unevaluated_expr_is_a_display_device_only():
    shown = sp.UnevaluatedExpr(sp.Rational(1, 2)) * (a + b)
    assert Derivation(shown).step(a / 2 + b / 2, "distribute").check().checked


def test_a_chain_built_twice_counts_once_in_the_ledger():
    ledger_module.clear()
    for _ in range(2):
        chain((a + b) ** 2, a**2 + 2 * a * b + b**2).check()
    assert (page_ledger().chains, page_ledger().steps) == (1, 1)
    ledger_module.clear()


def test_a_placeholder_for_a_bound_index_is_instantiated():
    # E[sum_j X_j] = sum_j E[X_j]: the schema's index placeholder must become the sum's own index
    X = sp.IndexedBase("X")
    E = Expectation([X])
    w, lo, hi, idx = sp.Wild("w"), sp.Wild("lo"), sp.Wild("hi"), sp.Wild("idx")
    swap = Rule.cited("E of a finite sum", {E(sp.Sum(w, (idx, lo, hi))): sp.Sum(E(w), (idx, lo, hi))}, source="C&B")
    assert chain(E(sp.Sum(X[j], (j, 1, n))), sp.Sum(E(X[j]), (j, 1, n)), [swap]).check().checked
    with pytest.raises(DerivationError):  # the summand of the other index: E[X_j] summed over k is not it
        chain(E(sp.Sum(X[j], (j, 1, n))), sp.Sum(E(X[j]), (k, 1, n)), [swap]).check()


def test_linearity_of_expectation_does_not_split_a_sum_inside():
    X, Y = sp.IndexedBase("X"), sp.IndexedBase("Y")
    E = Expectation([X, Y])
    inside = E(sp.Sum(X[j] + Y[j], (j, 1, n)))
    with pytest.raises(DerivationError):
        chain(inside, E(sp.Sum(X[j], (j, 1, n))) + E(sp.Sum(Y[j], (j, 1, n))), [E.linearity]).check()
    split = chain(inside, E(sp.Sum(X[j], (j, 1, n)) + sp.Sum(Y[j], (j, 1, n))), [sums.linearity()]).check()
    assert split.checked


def test_a_schema_that_feeds_on_its_own_output_is_stopped():
    w = sp.Wild("w")
    E = Expectation([x])
    greedy = Rule.cited("second moment", {E(w**2): sp.Symbol("V") + E(w) ** 2}, source="C&B")
    with pytest.raises(DerivationError, match="keeps growing|did not settle"):
        chain(E(x), sp.Symbol("V") + E(sp.sqrt(x)) ** 2 + 1, [greedy]).check()


def test_the_package_docstring_names_every_module_it_holds():
    import pkgutil

    import melearn.derivation as package

    modules = sorted(module.name for module in pkgutil.iter_modules(package.__path__))
    assert len(modules) >= 10
    assert [name for name in modules if f"``{name}``" not in package.__doc__] == []


def test_the_second_route_line_of_a_ledger_is_punctuated_as_its_language_writes():
    """The kernel-only reasons and their counts: "reason: 2" in English, "reason：2" in Chinese (the Chinese build
    refuses half-width punctuation after Chinese text)."""
    from melearn import i18n

    before = i18n.language()
    ledger = ledger_module.Ledger(confirmed=3, kernel_only=2)
    ledger.kernel_only_reasons["a step too costly to evaluate in a model"] = 2
    try:
        i18n.set_language("en")
        assert "a step too costly to evaluate in a model: 2" in ledger._repr_html_()
        i18n.set_language("zh_CN")
        chinese = ledger._repr_html_()
    finally:
        i18n.set_language(before)
    row = chinese[chinese.index("第二条途径") :]
    assert "：2" in row and ":" not in row.split("</td>")[0], row
