r"""Iverson brackets inside finite sums: an indicator whose condition is decided on the whole range of the sum.

The rank-loss page sums indicators :math:`\mathbb{I}(j \le N)` over ranges of an index :math:`j`; once a sum has
been split where the condition changes, the indicator is the same on every term of each piece, 1 or 0. Algebra
never looks inside a :class:`sympy.Sum` (:mod:`melearn.derivation._algebra`), so this takes a named rule:

.. math::

    \sum_{j=a}^{b} \mathbb{I}(P(j))\, f_j = \sum_{j=a}^{b} f_j \ \text{ if } P(j) \text{ holds for every }
    a \le j \le b, \qquad = 0 \ \text{ if it holds for none}

(Iverson's convention, Graham, Knuth and Patashnik 1994, section 2.1). The rule decides a condition only when it
is a conjunction of inequalities that are linear in the index with a numeric coefficient; an inequality is
monotone in :math:`j`, so it holds on the whole range when it holds at the range's binding end, and fails on the
whole range when it fails at the other end (sympy decides those two instances from the symbols' assumptions, or
the rule leaves the indicator alone).

Side conditions, checked where the rule applies: the range meets the sums' convention (:math:`b \ge a - 1`, so an
empty range makes both sides zero; a reversed range is refused, see :mod:`melearn.derivation.sums`); the condition
is decided from the sum's own bounds, and every index bound by an enclosing sum or integral is read without its
declared assumptions (an index declared positive may run from :math:`-5`).
``tests/derivation/test_iverson.py`` checks the rule against explicit sums.
"""

from __future__ import annotations

import sympy as sp

from .operators import Indicator
from .rules import Rule, bound_symbols, kernel_rule, range_unmet, unmet

__all__ = ["IVERSON_SOURCE", "decided_on_range"]

IVERSON_SOURCE = "Graham, Knuth and Patashnik (1994), sec. 2.1 (Iverson's convention)"

_STRICT = {
    sp.StrictLessThan: (True, True),
    sp.LessThan: (True, False),
    sp.StrictGreaterThan: (False, True),
    sp.GreaterThan: (False, False),
}


def _inequality_on_range(rel, index, lo, hi):
    """Decide ``rel`` on [lo, hi] (nonempty): True if it holds at every index, False at none, None if undecided."""
    if type(rel) not in _STRICT:
        return None
    difference = sp.expand(rel.lhs - rel.rhs)  # rel is "difference < 0", "<= 0", "> 0" or ">= 0"
    coefficient = difference.coeff(index)
    rest = sp.expand(difference - coefficient * index)
    if rest.has(index) or not coefficient.is_number or coefficient == 0:
        return None
    below, _ = _STRICT[type(rel)]  # "below": the condition asks for difference < (or <=) 0
    increasing = bool(coefficient > 0)
    # the end where the condition is hardest to meet, and the end where it is easiest
    hardest, easiest = (hi, lo) if below == increasing else (lo, hi)

    def holds_at(end):
        value = rel.func(coefficient * end + rest, 0)
        if value is sp.true:
            return True
        if value is sp.false:
            return False
        return None

    if holds_at(hardest) is True:
        return True
    if holds_at(easiest) is False:
        return False
    return None


def _condition_on_range(condition, index, lo, hi):
    if isinstance(condition, sp.And):
        verdicts = [_inequality_on_range(c, index, lo, hi) for c in condition.args]
        if any(v is False for v in verdicts):
            return False
        if all(v is True for v in verdicts):
            return True
        return None
    return _inequality_on_range(condition, index, lo, hi)


def decided_on_range() -> Rule:
    r"""Return the rule: an indicator is 1 (or 0) inside a sum whose every (or no) index satisfies its condition.

    Inside :math:`\sum_{j=a}^{b}`, :math:`\mathbb{I}(P(j))` becomes 1 when :math:`P` holds on every index of the
    range and 0 when it holds on none; cited (Iverson's convention).
    """
    name = "an indicator decided on the range of its sum"

    def transform(node, bound):
        index, lo, hi = node.limits[0]
        if any(index in inner.variables for inner in node.function.atoms(sp.Sum)):
            return node  # the index is bound again inside: leave this sum alone
        others = bound - {index}
        problem = range_unmet(index, lo, hi, others)
        if problem is not None:
            unmet(name, problem)
            return node
        # the other bound indices lose their declared assumptions: their values come from their own ranges
        plain = {b: sp.Dummy(b.name, integer=True) if b.is_integer else sp.Dummy(b.name) for b in others}
        lo_n, hi_n = lo.xreplace(plain), hi.xreplace(plain)

        def decide(indicator):
            verdict = _condition_on_range(indicator.args[0].xreplace(plain), index, lo_n, hi_n)
            if verdict is None:
                return indicator
            return sp.Integer(1 if verdict else 0)

        function = node.function.replace(lambda n: isinstance(n, Indicator) and n.args[0].has(index), decide)
        if function == node.function:
            return node
        if sp.expand(function) == 0:  # every term vanishes: a sum of zeros
            return sp.Integer(0)
        return sp.Sum(function, node.limits[0])

    def rewrite(expr):
        expr = sp.sympify(expr)
        bound = bound_symbols(expr)
        return expr.replace(lambda n: isinstance(n, sp.Sum) and len(n.limits) == 1, lambda n: transform(n, bound))

    statement = (
        r"\sum_{j=a}^{b} \mathbb{I}\big(P(j)\big)\, f_j = \sum_{j=a}^{b} f_j \text{ if } P "
        r"\text{ holds for every } a \le j \le b,\ 0 \text{ if for none}"
    )
    return kernel_rule(name, "cited", statement, rewrite, IVERSON_SOURCE)
