"""Soundness of the Iverson-bracket rule: every rewrite equals the sum it replaces, on explicit sums; undecided
brackets are left alone; false steps that lean on it are refused."""

from __future__ import annotations

import itertools

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, Indicator, sums
from melearn.derivation.iverson import decided_on_range

j = sp.Symbol("j", integer=True, positive=True)
N, b = sp.symbols("N b", integer=True, nonnegative=True)
r = sp.Symbol("r", integer=True, nonnegative=True)
m = N + b + r  # the blocks 1..N, N+1..N+b, N+b+1..m are ordered: the rule's side condition
u = sp.IndexedBase("u")
RULE = decided_on_range()

BEFORE = Indicator(j <= N)
WITH = Indicator(sp.And(j > N, j <= N + b))
AFTER = Indicator(j > N + b)

# (sum, whether the rule must decide it): each a sum over a block where the bracket is constant, or not
CASES = [
    (sp.Sum(BEFORE * u[j], (j, 1, N)), True),
    (sp.Sum(BEFORE * u[j], (j, N + 1, N + b)), True),
    (sp.Sum(BEFORE, (j, N + b + 1, m)), True),
    (sp.Sum(WITH * u[j], (j, 1, N)), True),
    (sp.Sum(WITH, (j, N + 1, N + b)), True),
    (sp.Sum(WITH * u[j], (j, N + b + 1, m)), True),
    (sp.Sum(AFTER * u[j], (j, N + b + 1, m)), True),
    (sp.Sum(AFTER, (j, 1, N)), True),
    (sp.Sum(Indicator(j >= N + 1) * u[j], (j, N + 1, m)), True),
    (sp.Sum(Indicator(2 * N - 2 * j > -1), (j, 1, N)), True),
    # undecided: the bracket changes inside the range (or may), so the rule must leave it alone
    (sp.Sum(BEFORE * u[j], (j, 1, m)), False),
    (sp.Sum(WITH, (j, 1, m)), False),
    (sp.Sum(BEFORE, (j, 1, N + 1)), False),
    (sp.Sum(Indicator(sp.Eq(j, N)), (j, 1, N)), False),
    (sp.Sum(Indicator(j**2 <= N), (j, 1, N)), False),
]


def explicit(expr, n_value, b_value, m_value):
    """Write every sum out term by term with concrete limits; a bracket is 1 or 0 by its condition."""
    values = {N: n_value, b: b_value, r: m_value - n_value - b_value}

    def write_out(node):
        index, lo, hi = node.limits[0]
        lo, hi = int(lo.subs(values)), int(hi.subs(values))
        total = sp.Integer(0)
        for k in range(lo, hi + 1):
            term = node.function.subs(index, k).subs(values)
            term = term.replace(lambda n: isinstance(n, Indicator), lambda n: sp.Integer(1 if n.args[0] else 0))
            total += term
        return total

    expr = sp.sympify(expr).replace(lambda n: isinstance(n, sp.Sum), write_out)
    expr = expr.subs(values).replace(lambda n: isinstance(n, Indicator), lambda n: sp.Integer(1 if n.args[0] else 0))
    return sp.expand(expr.subs({u[k]: 10 + 3 * k for k in range(0, 40)}))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_rewrite_equals_the_sum_it_replaces(case):
    total, decided = CASES[case]
    rewritten = RULE(total)
    assert (rewritten != total) == decided
    for n_value, b_value, extra in itertools.product(range(0, 4), range(0, 4), range(0, 3)):
        m_value = max(n_value + b_value + extra, 1)
        assert explicit(total, n_value, b_value, m_value) == explicit(rewritten, n_value, b_value, m_value)


def test_the_group_count_is_proved_and_a_wrong_count_refused():
    count = sp.Sum(BEFORE, (j, 1, m))
    good = Derivation(count)
    good.step(sp.Sum(BEFORE, (j, 1, N)) + sp.Sum(BEFORE, (j, N + 1, m)), "split", rules=[sums.split(N)])
    good.step(sp.Sum(1, (j, 1, N)), "decided", rules=[RULE])
    good.step(N, "count", rules=[sums.constant_sum()])
    assert good.check().checked
    # the bracket cannot be dropped from a sum on which it changes
    with pytest.raises(DerivationError):
        Derivation(count).step(sp.Sum(1, (j, 1, m)), "every term is 1", rules=[RULE]).check()
    # nor counted on the wrong block
    wrong = Derivation(sp.Sum(BEFORE, (j, 1, N)) + sp.Sum(BEFORE, (j, N + 1, m)))
    with pytest.raises(DerivationError):
        wrong.step(sp.Sum(1, (j, N + 1, m)), "decided", rules=[RULE]).check()


def test_an_inner_sum_that_rebinds_the_index_is_left_alone():
    inner = sp.Sum(BEFORE, (j, 1, m))
    outer = sp.Sum(inner * u[j], (j, 1, N))
    assert RULE(outer).has(inner)
