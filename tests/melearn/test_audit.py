"""The second route (``melearn.audit``): steps evaluated in random concrete models of their premises.

Each false step below is refuted by the numbers alone (no kernel code runs: the premises are handed over as
data), each true one confirmed, and what the route cannot evaluate is reported as such, with its reason.
"""

from __future__ import annotations

import pytest
import sympy as sp

from melearn import audit
from melearn.audit import CONFIRMED, KERNEL_ONLY, REFUTED, Premise, audit_step
from melearn.derivation import Expectation, Indicator

a, b, x = sp.symbols("a b x")
t = sp.Symbol("t", real=True)
i, j, n = sp.symbols("i j n", integer=True)
k_pos = sp.Symbol("k", integer=True, positive=True)
alpha = sp.Symbol("alpha", real=True)
s = sp.Symbol("s")  # no integer assumption: sympy keeps floor(s)
u = sp.IndexedBase("u")


def verdict(left, right, *premises, chain=()):
    return audit_step(sp.sympify(left), sp.sympify(right), tuple(chain) + tuple(premises), tuple(premises))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (sp.Sum(sp.floor(s), (s, alpha, alpha + 2)), sp.Sum(s, (s, alpha, alpha + 2))),  # floor of a real index
        (sp.Sum(u[i], (i, 1, i)) - sp.Sum(u[j], (j, 1, j)), 0),  # free copies of the index in the bounds
        (sp.Max(x, 50), 50),
        (sp.binomial(n, 10), 0),
        (sp.exp(-(t**2) - 50), 0),
        (sp.cosh(t + 60), sp.sinh(t + 60)),
        (sp.pi, sp.Rational(103993, 33102)),
        (sp.Abs(a) ** 2, a**2),  # a has no real assumption: complex models refute it
        (sp.Sum(sp.Sum(1, (j, 1, i)), (i, -5, 10)), 40),  # Karr's reading of the empty inner ranges
        ((a + b) ** 2, a**2 + b**2),
        (sp.sqrt(x**2), x),
    ],
)
def test_false_steps_are_refuted(left, right):
    assert verdict(left, right).status == REFUTED


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (sp.Sum(sp.Sum(1, (j, 1, i)), (i, 1, 4)), 10),
        (sp.Sum(sp.Sum(1, (j, 1, i)), (i, -5, 10)), 55),  # an inner range follows its enclosing index
        ((a + b) ** 2, a**2 + 2 * a * b + b**2),
        (sp.Sum(u[i], (i, 1, n)), sp.Sum(u[j], (j, 1, n))),
        (sp.sqrt(t**2), sp.Abs(t)),
        (sp.Sum(i, (i, 1, k_pos)), k_pos * (k_pos + 1) / 2),
        (sp.Integral(t**2, (t, 0, 1)), sp.Rational(1, 3)),
        (sp.Limit(sp.sin(t) / t, t, 0), 1),
    ],
)
def test_true_steps_are_confirmed(left, right):
    assert verdict(left, right).status == CONFIRMED


def test_premises_are_imposed():
    # a = 2 as a premise: 2 + b = a + b holds, 1 + b = a + b does not
    two = Premise("assumption", "a is two", ((a, sp.Integer(2)),))
    assert verdict(a + b, 2 + b, two).status == CONFIRMED
    assert verdict(a + b, 1 + b, two).status == REFUTED


def test_contradictory_premises_admit_no_model():
    one = Premise("assumption", "a is one", ((a, sp.Integer(1)),))
    four = Premise("assumption", "2a is four", ((2 * a, sp.Integer(4)),))
    with pytest.raises(audit.Contradiction):
        verdict(a + 1, 2, one, four)


def test_expectations_on_random_spaces():
    X, Y = sp.symbols("X Y")
    E = Expectation([X, Y], subscript="audit")
    assert verdict(E(2 * X + 3), 2 * E(X) + 3).status == CONFIRMED
    # no independence stated: E[XY] = E[X]E[Y] fails on a random joint space
    assert verdict(E(X * Y), E(X) * E(Y)).status == REFUTED
    # stated independence: the space is a product, and the step holds
    independent = Premise("assumption", "X, Y independent", (), (), ((E.function, (X,), (Y,)),))
    assert verdict(E(X * Y), E(X) * E(Y), independent).status == CONFIRMED
    # E[a X] = a E[X], then a := X: E[X^2] = X E[X] is false
    assert verdict(E(X * X), X * E(X)).status == REFUTED


def test_indicator_and_definitions():
    c = sp.Symbol("c", real=True)
    assert verdict(Indicator(c < 0) + Indicator(c >= 0), 1).status == CONFIRMED
    m = sp.Symbol("m")
    mean = Premise("definition", "m", ((m, (a + b) / 2),))
    assert verdict(2 * m, a + b, mean, chain=(mean,)).status == CONFIRMED
    assert verdict(2 * m, a + 2 * b, mean, chain=(mean,)).status == REFUTED


def test_what_cannot_be_evaluated_is_kernel_only_with_its_reason():
    q = sp.Symbol("q", commutative=False)
    result = verdict(q * q, q**2)
    assert result.status == KERNEL_ONLY and "noncommutative" in result.reason


def test_an_entry_reached_through_a_bound_index_is_the_entry_itself():
    # e_1, e_2 independent: e_i inside a sum, at i = 1, is the same random variable as e_1 (one block of the space)
    e = sp.IndexedBase("e")
    E = Expectation([e[1], e[2]], subscript="")
    independent = Premise("assumption", "independence", independent=((E.function, (e[1],), (e[2],)),))
    left, right = sp.Sum(E(e[i]), (i, 1, 2)), E(e[1]) + E(e[2])
    assert verdict(left, right, chain=(independent,)).status == CONFIRMED
    assert verdict(left, E(e[1]) + 2 * E(e[2]), chain=(independent,)).status == REFUTED


def test_a_cited_result_naming_a_parameter_gives_the_model_its_value():
    # E[mu] = eps_0 for the mean of a random sample: eps_0 is named by the result, so it takes the value E[mu];
    # a cited result between random quantities alone (E[AB] = E[A] E[B]) is claimed, and refuted
    mu, e0, A, B = sp.symbols("mu epsilon_0 A B", real=True)
    E = Expectation([mu, A, B], subscript="")
    named = Premise("cited", "mean of a random sample", equations=((E(mu), e0),))
    assert verdict(2 * E(mu), 2 * e0, named).status == CONFIRMED
    product = Premise("cited", "product of means", equations=((E(A * B), E(A) * E(B)),))
    assert verdict(E(A * B), E(A) * E(B), product).status == REFUTED


def test_the_work_of_a_step_is_bounded():
    # a step whose models would take more evaluations than the limit is "kernel only", with that reason
    big = sp.Sum(sp.Sum(sp.Sum(u[i] * u[j] * u[n], (n, 1, 30)), (j, 1, 30)), (i, 1, 30))
    heavy = verdict(big + a, a + big)
    assert heavy.status == KERNEL_ONLY and heavy.reason == "a step too costly to evaluate in a model"
