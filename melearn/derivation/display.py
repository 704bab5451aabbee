r"""Helpers that keep a formula on screen as the textbook writes it.

sympy rewrites what it builds: ``(k + 1)/2`` becomes ``k/2 + 1/2`` and ``(f - fbar) + (fbar - y)`` becomes
``f - y``. A derivation step that only regroups or keeps a fraction whole must be built unevaluated with these
helpers; the checker sees through them (they change the form, not the value).

Examples
--------
>>> import sympy as sp
>>> k = sp.Symbol("k")
>>> tex(frac(k + 1, 2))
'\\frac{k + 1}{2}'
"""

from __future__ import annotations

import sympy as sp

__all__ = ["add", "frac", "mul", "root", "tex"]


def frac(numerator, denominator) -> sp.Expr:
    """``numerator / denominator`` kept as one fraction (unevaluated)."""
    if sp.sympify(numerator) == 1:
        return sp.Pow(sp.sympify(denominator), -1, evaluate=False)
    return sp.Mul(sp.sympify(numerator), sp.Pow(sp.sympify(denominator), -1, evaluate=False), evaluate=False)


def add(*terms) -> sp.Expr:
    """A sum kept in the order and grouping written (unevaluated)."""
    return sp.Add(*[sp.sympify(t) for t in terms], evaluate=False)


def mul(*factors) -> sp.Expr:
    """A product kept as written (unevaluated)."""
    return sp.Mul(*[sp.sympify(f) for f in factors], evaluate=False)


def root(x) -> sp.Expr:
    """An unevaluated square root, shown as one radical."""
    return sp.Pow(sp.sympify(x), sp.Rational(1, 2), evaluate=False)


def tex(expr, **options) -> str:
    """LaTeX of a sympy expression (``sympy.latex`` with ``options``)."""
    return sp.latex(expr, **options)
