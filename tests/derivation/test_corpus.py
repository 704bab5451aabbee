"""An adversarial corpus: chains the checker once ticked and must refuse, one builder per case.

Every case below was accepted (``check()`` passed, a tick drawn) by the checker before the second route was wired
into it: running this file as a script (``python -m tests.derivation.test_corpus``) prints ``accepted`` or
``refused`` for each case with the ``melearn`` on the path; ``--kernel-only`` runs the kernel without the second
route (``Derivation._second_route`` replaced by one that returns no verdicts). The kernel alone accepts all of
them but the three whose schema or lemma placeholder would capture a bound variable (:data:`KERNEL_REFUSES`),
which its capture-avoiding substitution refuses; the second route (``melearn.audit``), which evaluates every step
in random concrete models of its premises, refutes each of the others, so that each of those tests fails when
the second route is taken out of ``check()``. The classes follow the issue that asked for them: bound variables
and ranges (1), lemmas and their premises (2), numbers that test too little (3), rules that say one thing and
apply another (5). A case is a builder returning the chain, which must build, and which ``check()`` refuses.
"""

from __future__ import annotations

import sys

import pytest
import sympy as sp

from melearn import audit
from melearn.derivation import Derivation, DerivationError, Expectation, Indicator, Rule
from melearn.derivation.limits import continuity, continuous_outer
from melearn.derivation.second_route import second_opinion

alpha = sp.Symbol("alpha", real=True)
s = sp.Symbol("s")  # no assumption: sympy keeps floor(s)
i, j = sp.symbols("i j", integer=True)
k_pos = sp.Symbol("k", integer=True, positive=True)
a, b, x, c = sp.symbols("a b x c")
t = sp.Symbol("t", real=True)
n = sp.Symbol("n", integer=True)
u = sp.IndexedBase("u")
SOURCE = "an adversary"
CASES: dict = {}


def case(name):
    def register(builder):
        CASES[name] = builder
        return builder

    return register


# -- class 1: bound variables and ranges, with no rule named or with a computation -------------------------------
for width in (1, 2, 3, 4, 5, 6):

    def _floor(width=width):
        return Derivation(sp.Sum(sp.floor(s), (s, alpha, alpha + width))).step(
            sp.Sum(s, (s, alpha, alpha + width)), "drop the floor"
        )

    def _ceiling(width=width):
        return Derivation(sp.Sum(sp.ceiling(s), (s, alpha, alpha + width))).step(
            sp.Sum(s, (s, alpha, alpha + width)), "drop the ceiling"
        )

    case(f"1: floor of a real index, width {width}")(_floor)
    case(f"1: ceiling of a real index, width {width}")(_ceiling)


@case("1: a free copy of the index in a bound")
def _free_copy():
    return Derivation(sp.Sum(u[i], (i, 1, i)) - sp.Sum(u[j], (j, 1, j))).step(sp.Integer(0), "rename")


@case("1: a free copy of the index in the upper bound, shifted")
def _free_copy_shifted():
    return Derivation(sp.Sum(u[i], (i, 1, i + 1)) - sp.Sum(u[j], (j, 1, j + 1))).step(sp.Integer(0), "rename")


@case("1: a free copy of the index in both bounds")
def _free_copy_two():
    return Derivation(sp.Sum(u[i], (i, i, i + 2)) - sp.Sum(u[j], (j, j, j + 2))).step(sp.Integer(0), "rename")


for low in (-6, -5, -4, -3, -2, -1):

    def _karr(low=low):
        # sympy reads sum_{j=1}^{k} 1 as k for every k (Karr's convention): the sum over k = low..10 of k
        rule = Rule.computation("the sums", sp.Sum)
        return Derivation(sp.Sum(sp.Sum(1, (j, 1, k_pos)), (k_pos, low, 10))).step(
            sp.Integer(sum(range(low, 11))), "evaluate", rules=[rule]
        )

    case(f"1: Karr's reading of inner ranges from {low}")(_karr)


@case("1: an Iverson bracket decided from a limit variable's declared positivity")
def _limit_iverson():
    tau = sp.Symbol("tau", positive=True)
    from melearn.derivation.iverson import decided_on_range

    inner = sp.Sum(Indicator(j <= tau + 3) * u[j], (j, 1, 3))
    return Derivation(sp.Limit(inner, tau, -2)).step(
        sp.Sum(u[j], (j, 1, 3)), "continuity and the bracket", rules=[continuity(), decided_on_range()]
    )


# -- class 2: lemmas and their premises ------------------------------------------------------------------------
for first, second in ((1, 2), (1, 3), (2, 5), (0, 1)):

    def _lemma_under_other_value(first=first, second=second):
        proved = Derivation(a + b).step(first + b, "a is fixed", rules=[Rule.assumption("a fixed", {a: first})])
        lemma = Rule.lemma("a's value", proved.check(), source="above")
        other = Rule.assumption("a is another value", {a: second})
        return (
            Derivation(second + b)
            .step(a + b, "the assumption", rules=[other])
            .step(first + b, "the lemma", rules=[lemma])
        )

    case(f"2: a lemma proved under a = {first} used where a = {second}")(_lemma_under_other_value)


for first, second in ((1, 2), (3, 4)):

    def _defined_twice(first=first, second=second):
        w = sp.Symbol(f"w{first}")
        proved = Derivation(w + b).step(first + b, "definition", rules=[Rule.definition("w", {w: first})])
        lemma = Rule.lemma("w's value", proved.check(), source="above")
        again = Rule.definition("w again", {w: second})
        return Derivation(second + b).step(w + b, "again", rules=[again]).step(first + b, "the lemma", rules=[lemma])

    case(f"2: w := {first} joined through a lemma to w := {second}")(_defined_twice)


@case("2: a lemma's placeholder capturing the bound index")
def _capture():
    sigma = sp.Symbol("sigma", real=True)
    tt = sp.IndexedBase("t", real=True)
    m = sp.Symbol("m", integer=True, positive=True)
    N = sp.Function("N")
    count = Rule.definition("N", {N(sigma): sp.Sum(Indicator(sigma < tt[j]), (j, 1, m))})
    lemma_chain = Derivation(sp.Sum(Indicator(sigma < tt[j]), (j, 1, m))).step(N(sigma), "definition", rules=[count])
    lemma = Rule.lemma("negatives above", lemma_chain.check(), source="above", variables=[sigma])
    return Derivation(sp.Sum(Indicator(2 * tt[j] < tt[j]), (j, 1, m))).step(N(2 * tt[j]), "the lemma", rules=[lemma])


# -- class 3: cited rules that numbers at a few small points do not refute -------------------------------------
_FALSE_CITED = {
    "Max(x, 50) = 50": (sp.Max(t, 50), sp.Integer(50)),
    "Max(x, 60) = 60": (sp.Max(t, 60), sp.Integer(60)),
    "Max(x, 70) = 70": (sp.Max(t, 70), sp.Integer(70)),
    "Max(x, 80) = 80": (sp.Max(t, 80), sp.Integer(80)),
    "Min(x, -60) = -60": (sp.Min(t, -60), sp.Integer(-60)),
    "Min(x, -70) = -70": (sp.Min(t, -70), sp.Integer(-70)),
    "exp(-t^2 - 45) = 0": (sp.exp(-(t**2) - 45), sp.Integer(0)),
    "exp(-t^2 - 70) = 0": (sp.exp(-(t**2) - 70), sp.Integer(0)),
    "exp(-t^2 - 80) = 0": (sp.exp(-(t**2) - 80), sp.Integer(0)),
    "tanh(t + 40) = 1": (sp.tanh(t + 40), sp.Integer(1)),
    "tanh(t + 50) = 1": (sp.tanh(t + 50), sp.Integer(1)),
    "cosh(t + 100) = sinh(t + 100)": (sp.cosh(t + 100), sp.sinh(t + 100)),
    "pi = 3.14159265358979": (sp.pi, sp.Rational(314159265358979, 10**14)),
    "pi = 3.141592653589793": (sp.pi, sp.Rational(3141592653589793, 10**15)),
    "e = 2.7182818284590": (sp.E, sp.Rational(27182818284590, 10**13)),
    "sqrt(2) = 1.41421356237": (sp.sqrt(2), sp.Rational(141421356237, 10**11)),
    "log(1 + exp(t - 60)) = 0": (sp.log(1 + sp.exp(t - 60)), sp.Integer(0)),
    "log(1 + exp(t - 70)) = 0": (sp.log(1 + sp.exp(t - 70)), sp.Integer(0)),
    "Abs(t - 55) = 55 - t": (sp.Abs(t - 55), 55 - t),
    "Abs(t - 65) = 65 - t": (sp.Abs(t - 65), 65 - t),
    "Min(x, -50) = -50": (sp.Min(t, -50), sp.Integer(-50)),
    "exp(-t^2 - 50) = 0": (sp.exp(-(t**2) - 50), sp.Integer(0)),
    "exp(-t^2 - 60) = 0": (sp.exp(-(t**2) - 60), sp.Integer(0)),
    "cosh(t + 60) = sinh(t + 60)": (sp.cosh(t + 60), sp.sinh(t + 60)),
    "cosh(t + 80) = sinh(t + 80)": (sp.cosh(t + 80), sp.sinh(t + 80)),
    "pi = 103993/33102": (sp.pi, sp.Rational(103993, 33102)),
    "e = 2.718281828459045": (sp.E, sp.Rational(2718281828459045, 10**15)),
    "|a|^2 = a^2 for complex a": (sp.Abs(a) ** 2, a**2),
    "Abs(t - 45) = 45 - t": (sp.Abs(t - 45), 45 - t),
    "tanh(t + 30) = 1": (sp.tanh(t + 30), sp.Integer(1)),
    "log(1 + exp(t - 50)) = 0": (sp.log(1 + sp.exp(t - 50)), sp.Integer(0)),
    "sin(t)^2 + cos(t)^2 = 1 + exp(-t^2 - 60)": (sp.sin(t) ** 2 + sp.cos(t) ** 2, 1 + sp.exp(-(t**2) - 60)),
}
for _name, (_lhs, _rhs) in _FALSE_CITED.items():

    def _false_cited(lhs=_lhs, rhs=_rhs, name=_name):
        rule = Rule.cited(name, {lhs: rhs}, source=SOURCE)
        return Derivation(lhs).step(rhs, "the cited result", rules=[rule])

    case(f"3: cited {_name}")(_false_cited)


@case("3: E[ab] = E[a] E[b] with no independence stated, as a cited rule")
def _no_independence():
    A, B = sp.symbols("A B")
    E = Expectation([A, B], subscript="X")
    rule = Rule.cited("product of means", {E(A * B): E(A) * E(B)}, source=SOURCE)
    return Derivation(E(A * B)).step(E(A) * E(B), "product", rules=[rule])


@case("3: E[a^2] = E[a]^2 as a cited rule")
def _square_of_mean():
    A = sp.Symbol("A")
    E = Expectation([A], subscript="Y")
    rule = Rule.cited("square of the mean", {E(A**2): E(A) ** 2}, source=SOURCE)
    return Derivation(E(A**2)).step(E(A) ** 2, "square", rules=[rule])


for _lhs_val, _rhs_val in ((1, 4), (1, 3), (2, 6)):

    def _contradictory(lv=_lhs_val, rv=_rhs_val):
        one = Rule.assumption("a is one", {a: lv})
        four = Rule.assumption("2a is four", {2 * a: rv})
        return Derivation(2 * a * x + a).step(rv * x + a, "2a", rules=[four]).step(rv * x + lv, "a", rules=[one])

    case(f"3: contradictory premises a = {_lhs_val} and 2a = {_rhs_val}")(_contradictory)


# -- class 5: rules that say one thing and apply another -------------------------------------------------------
@case("5: a sum-of-a-constant schema whose placeholder matches the bound index")
def _constant_schema():
    cw, nw = sp.Wild("c"), sp.Wild("n")
    rule = Rule.cited("sum of a constant", {sp.Sum(cw, (k_pos, 1, nw)): nw * cw}, source=SOURCE)
    m = sp.Symbol("m", integer=True, positive=True)
    return Derivation(sp.Sum(k_pos, (k_pos, 1, m))).step(m * k_pos, "constant", rules=[rule])


@case("5: an integral-of-a-constant schema whose placeholder matches the variable")
def _integral_schema():
    cw = sp.Wild("c")
    rule = Rule.cited("integral of a constant", {sp.Integral(cw, (t, 0, 1)): cw}, source=SOURCE)
    return Derivation(sp.Integral(t**2, (t, 0, 1))).step(t**2, "constant", rules=[rule])


@case("5: a placeholder assumption contradicting a cited rule: 1 = E[1] = 0")
def _placeholder():
    A = sp.Symbol("A")
    E = Expectation([A], subscript="Z")
    zero = Rule.assumption("E of anything is 0", {E(sp.Wild("q")): 0})
    return (
        Derivation(sp.Integer(1))
        .step(E(sp.Integer(1)), "constant", rules=[E.constant])
        .step(sp.Integer(0), "assumed", rules=[zero])
    )


#: the cases the kernel refuses by itself: a placeholder that would capture the variable a pattern binds
KERNEL_REFUSES = frozenset(
    {
        "2: a lemma's placeholder capturing the bound index",
        "5: a sum-of-a-constant schema whose placeholder matches the bound index",
        "5: an integral-of-a-constant schema whose placeholder matches the variable",
    }
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_refused(name):
    chain = CASES[name]()  # every case builds: the refusal is the check's
    with pytest.raises(DerivationError):
        chain.check()


@pytest.mark.parametrize("name", sorted(set(CASES) - KERNEL_REFUSES))
def test_refuted_by_the_second_route(name):
    """The second route alone (the kernel not consulted) refutes the step, or finds the premises admit no model."""
    try:
        verdicts = second_opinion(CASES[name]())
    except audit.Contradiction:
        return
    assert audit.REFUTED in [verdict.status for verdict in verdicts], verdicts


@pytest.mark.parametrize("name", sorted(KERNEL_REFUSES))
def test_refused_by_the_kernel(name):
    """The capture-avoiding substitution refuses these without the second route."""
    chain = CASES[name]()
    chain._second_route = lambda: ()  # the kernel alone
    with pytest.raises(DerivationError, match="does not follow"):
        chain.check()


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 60


def test_a_continuity_sympy_cannot_decide_is_refused_not_a_crash():
    # sympy raises NotImplementedError on the continuous domain of sign: the rule is refused with a message
    with pytest.raises(ValueError, match="sympy cannot decide"):
        continuous_outer(sp.sign)


def test_a_sympy_failure_inside_a_check_is_a_refusal():
    class Undecidable(sp.Function):
        @classmethod
        def eval(cls, arg):
            if arg.is_Integer:  # what sympy does when it meets what it cannot do, while a computation evaluates
                raise NotImplementedError("cannot evaluate")
            return None

    evaluate = Rule.computation("the sum written out", sp.Sum)
    chain = Derivation(sp.Sum(Undecidable(k_pos), (k_pos, 1, 3))).step(sp.Integer(1), "evaluate", rules=[evaluate])
    with pytest.raises(DerivationError, match="sympy cannot decide"):
        chain.check()


def test_a_lemma_s_premises_are_listed_in_the_ledger_of_the_page_that_uses_it():
    from melearn.derivation import ledger

    fixed = Rule.assumption("a is one", {a: 1}, source="elsewhere")
    lemma = Rule.lemma("a + b is 1 + b", Derivation(a + b).step(1 + b, "a is one", rules=[fixed]).check(), source="x")
    ledger.clear()  # a page that uses the lemma without proving it
    Derivation(a + b + x).step(1 + b + x, "the lemma", rules=[lemma]).check()
    listed = ledger.page_ledger().rules
    ledger.clear()
    assert ("a is one", "elsewhere") in listed["assumption"], listed
    assert ("a + b is 1 + b", "x") in listed["lemma"], listed


def _report(kernel_only: bool = False) -> None:
    """Print, for each case, whether the melearn on the path accepts it (check passes) or refuses it."""
    if kernel_only:
        Derivation._second_route = lambda self: ()
    accepted = 0
    for name in sorted(CASES):
        try:
            CASES[name]().check()
            verdict = "accepted"
            accepted += 1
        except Exception as refusal:  # noqa: BLE001 - any refusal or crash counts as not accepted
            verdict = f"refused ({type(refusal).__name__}: {str(refusal)[:100]})"
        print(f"{verdict:>8}  {name}")
    print(f"{accepted} of {len(CASES)} accepted")


if __name__ == "__main__":
    sys.exit(_report(kernel_only="--kernel-only" in sys.argv))
