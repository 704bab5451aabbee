r"""Rules for evaluating a limit by hand, each a cited theorem whose hypotheses the rule checks before it applies.

Algebra never touches a :class:`sympy.Limit` (see :mod:`melearn.derivation._algebra`): moving a limit inside a
continuous function, substituting :math:`t = 1/x`, L'Hôpital's rule and evaluating a limit by continuity each take
a named rule. A rule rewrites a limit only where the theorem it cites applies, and leaves every other limit alone:

* :func:`continuous_outer` -- :math:`\lim g = L \Rightarrow \lim f(g) = f(L)` for a function :math:`f` continuous on
  the real line (e.g. :math:`\exp`);
* :func:`reciprocal` -- :math:`\lim_{x\to\infty} g(x) = \lim_{t\to 0^+} g(1/t)`;
* :func:`lhopital` -- :math:`\lim_{t\to a} N/D = \lim_{t\to a} N'/D'` for a :math:`0/0` form at a finite point
  :math:`a`, with :math:`N, D, N', D'` continuous at :math:`a` and :math:`D'(a) \neq 0`;
* :func:`continuity` -- :math:`\lim_{t\to a} g(t) = g(a)` for :math:`g` continuous at a finite point :math:`a`.

Like every equation between limits, a step by :func:`continuous_outer` or :func:`lhopital` says: the left-hand
limit exists and equals the right-hand one *when the right-hand limit exists*; a chain that ends in a number (by
:func:`continuity`) establishes that it does. ``tests/derivation/test_limits.py`` checks every rule against
sympy's own limit algorithm on examples, and that each refuses what its theorem does not cover.
"""

from __future__ import annotations

import sympy as sp
from sympy.calculus.util import continuous_domain

from ._algebra import OPAQUE
from .rules import Rule, kernel_rule, range_unmet, unmet

__all__ = ["LIMIT_SOURCE", "continuity", "continuous_outer", "lhopital", "reciprocal"]

#: The reference for the theorems on limits used here (each rule names its theorem).
LIMIT_SOURCE = "Rudin (1976)"


def _limits(rewrite_one):
    def rewrite(expr):
        return sp.sympify(expr).replace(lambda n: isinstance(n, sp.Limit), rewrite_one)

    return rewrite


def _parts(node: sp.Limit):
    body, variable, point, direction = node.args
    return body, variable, point, str(direction)


def _continuous_at(expr, variable, point, rule: str = "continuity") -> bool:
    """Whether sympy can show that ``expr`` (a function of ``variable``) is continuous at the finite ``point``.

    Side conditions: the point is a finite real number; every finite sum in ``expr`` has a range that does not
    depend on the variable and meets the sums' convention, and its term is continuous at the point for every
    index (so the sum is); an infinite sum (a series), an integral, a limit or an operator in ``expr`` is
    refused: moving a limit inside needs a uniform bound this rule cannot check.
    """
    if not (point.is_real and point.is_finite) or point.free_symbols:
        return False
    for node in sp.preorder_traversal(expr):
        if isinstance(node, OPAQUE) and node.has(variable):
            if not (isinstance(node, sp.Sum) and len(node.limits) == 1):
                unmet(rule, f"{node} is not a finite sum (a limit moves inside finite sums only)")
                return False
            index, lo, hi = node.limits[0]
            problem = range_unmet(index, lo, hi)
            if problem is None and (lo.has(variable) or hi.has(variable)):
                problem = f"the range of {node} depends on {variable}"
            if problem is not None:
                unmet(rule, problem)
                return False
            if not _continuous_at(node.function.xreplace({index: sp.Dummy("k", integer=True)}), variable, point, rule):
                return False
    sums = sorted({n for n in expr.atoms(sp.Sum) if n.has(variable)}, key=sp.default_sort_key)
    if sums:
        # a polynomial in finite sums of continuous terms, with coefficients continuous at the point, is continuous
        names = [sp.Dummy(f"s{k}") for k in range(len(sums))]
        outer = expr.xreplace(dict(zip(sums, names, strict=True)))
        if outer.has(variable) and any(isinstance(n, OPAQUE) for n in sp.preorder_traversal(outer)):
            return False
        if not outer.is_polynomial(*names):
            unmet(rule, "the sums enter the expression other than polynomially")
            return False
        return all(_continuous_at(c, variable, point, rule) for c in sp.Poly(outer, *names).coeffs())
    real = sp.Dummy("u", real=True)
    try:
        domain = continuous_domain(expr.xreplace({variable: real}), real, sp.S.Reals)
    except (NotImplementedError, ValueError, TypeError):
        return False
    return domain.contains(point) is sp.true


def continuous_outer(function=sp.exp) -> Rule:
    r""":math:`\lim f(g) = f(\lim g)` for a one-argument ``function`` continuous on the whole real line.

    Refused at construction for a function sympy cannot show continuous on :math:`\mathbb{R}` (``log``, ``1/x``).
    """
    probe = sp.Dummy("u", real=True)
    try:
        domain = continuous_domain(function(probe), probe, sp.S.Reals)
    except NotImplementedError:  # sympy cannot tell (sign): a refusal, not a crash
        raise ValueError(f"{function} is not shown continuous on the real line: sympy cannot decide it") from None
    if domain != sp.S.Reals:
        raise ValueError(f"{function} is not continuous on the real line")

    def one(node):
        body, variable, point, direction = _parts(node)
        if isinstance(body, function) and len(body.args) == 1:
            return function(sp.Limit(body.args[0], variable, point, direction))
        return node

    name = sp.latex(function(sp.Symbol("g")))
    outer = sp.latex(function(sp.Symbol(r"\lim g")))
    return kernel_rule(
        f"continuity of {function.__name__}",
        "cited",
        rf"\lim {name} = {outer} \text{{ ({function.__name__} continuous on }} \mathbb{{R}})",
        _limits(one),
        f"{LIMIT_SOURCE}, Theorem 4.7 (a continuous function of a convergent argument)",
    )


def reciprocal(new: sp.Symbol) -> Rule:
    r""":math:`\lim_{x\to\infty} g(x) = \lim_{t\to 0^+} g(1/t)`, with ``new`` (a positive symbol) for :math:`t`."""
    if not (isinstance(new, sp.Symbol) and new.is_positive):
        raise ValueError("the new variable must be a positive symbol")

    def one(node):
        body, variable, point, _ = _parts(node)
        if point is not sp.oo or body.has(new):
            return node
        return sp.Limit(body.xreplace({variable: 1 / new}), new, 0, "+")

    t = sp.latex(new)
    return kernel_rule(
        f"substitute ${t} = 1/x$",
        "cited",
        rf"\lim_{{x \to \infty}} g(x) = \lim_{{{t} \to 0^+}} g(1/{t})",
        _limits(one),
        f"{LIMIT_SOURCE}, Definitions 4.25 and 4.33 (one-sided limits, limits at infinity)",
    )


def lhopital() -> Rule:
    r"""L'Hôpital's rule for a :math:`0/0` form at a finite point.

    Rewrites :math:`\lim_{t\to a} N(t)/D(t)` into :math:`\lim_{t\to a} N'(t)/D'(t)` (sympy differentiates) only when
    :math:`N` and :math:`D` are continuous at :math:`a` with :math:`N(a) = D(a) = 0`, :math:`N'` and :math:`D'` are
    continuous at :math:`a`, and :math:`D'(a) \neq 0` (so :math:`D' \neq 0` near :math:`a`, as the theorem
    requires). Stricter than the theorem: a limit it leaves alone may still be one L'Hôpital's rule covers.
    """

    def one(node):
        body, variable, point, direction = _parts(node)
        numerator, denominator = sp.fraction(sp.together(body))
        if not denominator.has(variable):
            return node
        for part in (numerator, denominator):
            if not _continuous_at(part, variable, point) or sp.simplify(part.subs(variable, point)) != 0:
                return node
        d_num, d_den = sp.diff(numerator, variable), sp.diff(denominator, variable)
        # N', D' continuous at a (so N, D are differentiable near a) and D'(a) != 0 (so D' != 0 near a): the
        # hypotheses of the theorem, checked more strictly than it needs
        if not (_continuous_at(d_num, variable, point) and _continuous_at(d_den, variable, point)):
            return node
        if sp.simplify(d_den.subs(variable, point)) == 0:
            return node
        return sp.Limit(d_num / d_den, variable, point, direction)

    return kernel_rule(
        "L'Hôpital",
        "cited",
        r"\lim_{t \to a} \frac{N(t)}{D(t)} = \lim_{t \to a} \frac{N'(t)}{D'(t)} \text{ when } N(a) = D(a) = 0,"
        r"\ D'(a) \neq 0",
        _limits(one),
        f"{LIMIT_SOURCE}, Theorem 5.13",
    )


def continuity() -> Rule:
    r""":math:`\lim_{t\to a} g(t) = g(a)` for :math:`g` continuous at the finite point :math:`a` (checked by sympy)."""

    def one(node):
        body, variable, point, _ = _parts(node)
        if not _continuous_at(body, variable, point):
            return node
        return body.subs(variable, point)

    return kernel_rule(
        "continuity",
        "cited",
        r"\lim_{t \to a} g(t) = g(a) \text{ for } g \text{ continuous at } a",
        _limits(one),
        f"{LIMIT_SOURCE}, Theorem 4.6",
    )
