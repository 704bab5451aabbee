r"""Rules for finite sums :math:`\sum_{i=a}^{b}`, the manipulations the pages use, each stated as its identity.

Algebra never touches a ``sympy.Sum`` (see ``melearn.derivation._algebra``), so splitting a sum,
pulling out a constant, peeling a term, shifting an index or telescoping each takes a named rule. They are the
elementary laws of finite sums (Graham, Knuth and Patashnik, *Concrete Mathematics*, chapter 2), cited as such;
each rewrite below applies exactly its identity, and ``tests/derivation/test_sums.py`` checks every one against
explicit sums of random terms.

Every rule acts on one-index sums ``Sum(f, (i, a, b))`` only; a sum with several limits is left alone.

Side conditions, checked where a rule applies (a sum that fails them is left alone, and a refused step names the
condition): one convention for ranges, :math:`\sum_{i=a}^{b}` holds :math:`b - a + 1 \ge 0` terms (empty when
:math:`b = a - 1`); a reversed range :math:`b < a - 1` is refused, never read by sympy's (Karr's) convention;
bounds must be finite. The order of the bounds is decided from the bounds themselves, reading an index bound by an
enclosing sum without its declared assumptions. ``split`` needs :math:`a - 1 \le C \le b`; ``peel_first`` and
``peel_last`` need a nonempty range.
"""

from __future__ import annotations

import sympy as sp

from ._algebra import algebraically_equal, normal_form
from .rules import Rule, bound_symbols, kernel_rule, neutral, range_unmet, unmet

__all__ = ["SUM_SOURCE", "constant_sum", "linearity", "peel_first", "peel_last", "shift_index", "split", "telescoping"]

SUM_SOURCE = "Graham, Knuth and Patashnik (1994), ch. 2"


def _one_index(node) -> bool:
    return isinstance(node, sp.Sum) and len(node.limits) == 1


def _sum_rule(name: str, statement: str, transform, extra=None) -> Rule:
    """A cited rule applying ``transform`` to each one-index sum whose range meets the convention (and ``extra``)."""

    def rewrite(expr):
        expr = sp.sympify(expr)
        bound = bound_symbols(expr)

        def one(node):
            index, lo, hi = node.limits[0]
            problem = range_unmet(index, lo, hi, bound - {index})
            if problem is None and extra is not None:
                problem = extra(node, index, lo, hi, bound - {index})
            if problem is not None:
                unmet(name, problem)
                return node
            return transform(node, index, lo, hi)

        return expr.replace(_one_index, one)

    return kernel_rule(name, "cited", statement, rewrite, SUM_SOURCE)


def _nonempty(node, index, lo, hi, bound):
    if neutral(sp.expand(hi - lo), bound).is_nonnegative is not True:
        return f"the range {index} = {lo}..{hi} is not known to be nonempty (b >= a)"
    return None


def linearity() -> Rule:
    r""":math:`\sum_i (c\,a_i + d\,b_i) = c \sum_i a_i + d \sum_i b_i` for :math:`c, d` free of :math:`i`."""

    def transform(node, i, lo, hi):
        terms = sp.Add.make_args(normal_form(node.function))  # expanded, but a sum inside is not split
        if len(terms) == 1:
            factors = sp.Mul.make_args(terms[0])
            constant = [f for f in factors if not f.has(i)]
            if not constant:
                return node
        total = sp.Integer(0)
        for term in terms:
            factors = sp.Mul.make_args(term)
            constant = sp.Mul(*[f for f in factors if not f.has(i)])
            varying = sp.Mul(*[f for f in factors if f.has(i)])
            total += constant * sp.Sum(varying, (i, lo, hi))
        return total

    return _sum_rule("linearity of the sum", r"\sum_{i} (c\,a_i + d\,b_i) = c \sum_{i} a_i + d \sum_{i} b_i", transform)


def constant_sum() -> Rule:
    r""":math:`\sum_{i=a}^{b} c = (b - a + 1)\,c` for :math:`c` free of :math:`i` (and :math:`b \ge a - 1`)."""

    def transform(node, i, lo, hi):
        if node.function.has(i):
            return node
        return (hi - lo + 1) * node.function

    return _sum_rule("sum of a constant", r"\sum_{i=a}^{b} c = (b - a + 1)\,c \quad (b \ge a - 1)", transform)


def split(at, *, lower=None, upper=None) -> Rule:
    r""":math:`\sum_{i=a}^{b} f_i = \sum_{i=a}^{C} f_i + \sum_{i=C+1}^{b} f_i`, at :math:`C =` ``at``.

    ``at`` must not involve the sum's own index (such a sum is left alone). Without ``lower``/``upper`` the rule
    splits every one-index sum that does not already end at ``at`` or start after it; give the limits of the sum to
    split when a step splits at two points, so that each rule splits its own sum only.
    """
    at = sp.sympify(at)
    lower = None if lower is None else sp.sympify(lower)
    upper = None if upper is None else sp.sympify(upper)

    def transform(node, i, lo, hi):
        if hi == at or lo == at + 1 or at.has(i):
            return node
        if (lower is not None and lo != lower) or (upper is not None and hi != upper):
            return node
        return sp.Sum(node.function, (i, lo, at)) + sp.Sum(node.function, (i, at + 1, hi))

    def inside(node, i, lo, hi, bound):
        if at.has(i) or hi == at or lo == at + 1:
            return None  # left alone by the transform anyway
        if (lower is not None and lo != lower) or (upper is not None and hi != upper):
            return None
        if neutral(sp.expand(at - lo + 1), bound).is_nonnegative is not True or (
            neutral(sp.expand(hi - at), bound).is_nonnegative is not True
        ):
            return (
                rf"the split point ${c}$ is not known to lie in $a - 1 \le C \le b$ for the range "
                rf"${sp.latex(i)} = {sp.latex(lo)}, \ldots, {sp.latex(hi)}$"
            )
        return None

    c = sp.latex(at)
    name = f"split the sum at ${c}$"
    return _sum_rule(
        name,
        rf"\sum_{{i=a}}^{{b}} f_i = \sum_{{i=a}}^{{{c}}} f_i + \sum_{{i={c}+1}}^{{b}} f_i \quad (a - 1 \le {c} \le b)",
        transform,
        inside,
    )


def peel_first(lower) -> Rule:
    r""":math:`\sum_{i=a}^{b} f_i = f_a + \sum_{i=a+1}^{b} f_i` for sums whose lower limit is ``lower``."""
    lower = sp.sympify(lower)

    def transform(node, i, lo, hi):
        if lo != lower:
            return node
        return node.function.subs(i, lo) + sp.Sum(node.function, (i, lo + 1, hi))

    def applies(node, i, lo, hi, bound):
        return _nonempty(node, i, lo, hi, bound) if lo == lower else None

    return _sum_rule(
        "peel the first term", r"\sum_{i=a}^{b} f_i = f_a + \sum_{i=a+1}^{b} f_i \quad (b \ge a)", transform, applies
    )


def peel_last(upper) -> Rule:
    r""":math:`\sum_{i=a}^{b} f_i = \sum_{i=a}^{b-1} f_i + f_b` for sums whose upper limit is ``upper``."""
    upper = sp.sympify(upper)

    def transform(node, i, lo, hi):
        if hi != upper:
            return node
        return sp.Sum(node.function, (i, lo, hi - 1)) + node.function.subs(i, hi)

    def applies(node, i, lo, hi, bound):
        return _nonempty(node, i, lo, hi, bound) if hi == upper else None

    return _sum_rule(
        "peel the last term", r"\sum_{i=a}^{b} f_i = \sum_{i=a}^{b-1} f_i + f_b \quad (b \ge a)", transform, applies
    )


def shift_index(lower_from, lower_to) -> Rule:
    r""":math:`\sum_{i=a}^{b} f_i = \sum_{i=a+s}^{b+s} f_{i-s}`: sums from ``lower_from`` start at ``lower_to``."""
    lower_from, lower_to = sp.sympify(lower_from), sp.sympify(lower_to)
    shift = lower_to - lower_from

    def transform(node, i, lo, hi):
        if lo != lower_from or shift == 0:
            return node
        return sp.Sum(node.function.subs(i, i - shift), (i, lo + shift, hi + shift))

    return _sum_rule("shift the index", r"\sum_{i=a}^{b} f_i = \sum_{i=a+s}^{b+s} f_{i-s}", transform)


def telescoping(term, index) -> Rule:
    r""":math:`\sum_{i=a}^{b} (g_{i+1} - g_i) = g_{b+1} - g_a`, for the given :math:`g_i` (``term`` in ``index``).

    A sum is rewritten only when its summand equals :math:`g_{i+1} - g_i` (or its negative) by algebra.
    """
    term, index = sp.sympify(term), sp.sympify(index)

    def transform(node, i, lo, hi):
        g = term.subs(index, i)
        difference = g.subs(i, i + 1) - g
        if algebraically_equal(node.function, difference):
            sign = 1
        elif algebraically_equal(node.function, -difference):
            sign = -1
        else:
            return node
        return sign * (g.subs(i, hi + 1) - g.subs(i, lo))

    shown = sp.Symbol("i", integer=True)
    g_tex = sp.latex(term.subs(index, shown))  # the schema's index is i, whatever the page calls it
    return _sum_rule(
        "telescoping",
        rf"\sum_{{i=a}}^{{b}} \left(g_{{i+1}} - g_i\right) = g_{{b+1}} - g_a,\quad g_{{i}} = {g_tex}",
        transform,
    )
