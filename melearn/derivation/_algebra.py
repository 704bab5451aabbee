r"""The algebra a step may use without naming a rule, and nothing more.

The checker decides ``a == b`` by deciding ``a - b == 0``. A difference may contain sums, integrals, derivatives,
limits, products and expectations. Left to itself, sympy evaluates them while it simplifies (``simplify`` turns
``Integral(t**2, (t, 0, 1))`` into ``1/3`` and ``expand`` splits a sum of a sum into two sums), and a step that
rests on calculus would then pass as "algebra". So, before any normal form is taken, every such node is replaced
by an opaque atom (``atomize``): the same node (up to the algebra of its arguments) is the same atom, and
different nodes are different atoms. What remains is decided by ``expand``, ``cancel`` and ``simplify``, which
respect the assumptions of the symbols (``log(a*b) = log(a) + log(b)`` holds only for positive ``a``, ``b``;
``sqrt(x**2) = x`` only for nonnegative ``x``). Only a symbolic zero counts: sympy's numerical ``equals`` is
never used, so a check cannot pass by luck.
"""

from __future__ import annotations

import sympy as sp
from sympy.concrete.expr_with_limits import ExprWithLimits


class OpaqueOperator(sp.Function):
    """Base class of the book's operators (expectation, probability, variance, ...): never evaluated by algebra."""


#: Node types that algebra treats as unknowns: a named rule must rewrite them.
OPAQUE = (ExprWithLimits, sp.Derivative, sp.Limit, sp.Subs, OpaqueOperator)


def strip_display(expr: sp.Basic) -> sp.Basic:
    """The value of a display form, with sympy's automatic evaluation restored.

    ``UnevaluatedExpr`` wrappers are removed and unevaluated sums, products and powers rebuilt (they only keep a
    form on screen, e.g. a fraction kept whole).
    """
    expr = sp.sympify(expr)
    if not expr.args or isinstance(expr, (sp.Symbol, sp.Number)):
        return expr
    args = tuple(strip_display(a) for a in expr.args)
    if isinstance(expr, sp.UnevaluatedExpr):
        return args[0]
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow)):
        return expr.func(*args)  # evaluated: Add(a, a) becomes 2*a, Mul(1, 1/x) becomes 1/x
    if args == expr.args:
        return expr
    return expr.func(*args)


class Atoms:
    """A table of opaque nodes and the atoms that stand for them, shared by the two sides of one comparison."""

    def __init__(self):
        self._atom_of: dict[sp.Basic, sp.Dummy] = {}
        self._node_of: dict[sp.Dummy, sp.Basic] = {}

    def atom(self, node: sp.Basic) -> sp.Dummy:
        # nodes that differ only in how a relation is written (N < j, j > N) are one unknown; the node is put
        # back as first written, so that rules match what the page wrote
        key = node.replace(lambda e: isinstance(e, sp.core.relational.Relational), lambda e: e.canonical)
        if key not in self._atom_of:
            atom = sp.Dummy(f"op{len(self._atom_of)}")
            self._atom_of[key] = atom
            self._node_of[atom] = node
        return self._atom_of[key]

    def restore(self, expr: sp.Basic) -> sp.Basic:
        """Put the opaque nodes back in place of their atoms."""
        for _ in range(len(self._node_of) + 1):
            if not (expr.free_symbols & set(self._node_of)):
                return expr
            expr = expr.xreplace(self._node_of)
        return expr


def _canonical_argument(arg: sp.Basic, table: Atoms) -> sp.Basic:
    if isinstance(arg, sp.Tuple):
        return sp.Tuple(*[_canonical_argument(a, table) for a in arg.args])
    inner = atomize(arg, table)
    if isinstance(inner, sp.Expr):
        inner = sp.expand(inner)
    return table.restore(inner)


def atomize(expr: sp.Basic, table: Atoms) -> sp.Basic:
    """Replace every opaque node of ``expr`` by its atom in ``table`` (innermost nodes first)."""
    expr = strip_display(expr)

    def visit(node):
        if isinstance(node, OPAQUE):
            key = node.func(*[_canonical_argument(a, table) for a in node.args])
            return table.atom(key)
        if not node.args or isinstance(node, (sp.Symbol, sp.Number)):
            return node
        new_args = [visit(a) for a in node.args]
        if all(n is o for n, o in zip(new_args, node.args, strict=True)):
            return node
        return node.func(*new_args)

    return visit(expr)


def normal_form(expr: sp.Basic) -> sp.Basic:
    """``expr`` expanded everywhere except inside opaque nodes (whose arguments are expanded on their own)."""
    table = Atoms()
    flat = atomize(expr, table)
    if isinstance(flat, sp.Expr):
        flat = sp.expand(flat)
    return table.restore(flat)


def is_zero(expr: sp.Basic) -> bool:
    """Decide ``expr == 0`` by algebra alone: opaque nodes are unknowns, only a symbolic zero counts."""
    table = Atoms()
    flat = atomize(expr, table)
    if flat == 0:
        return True
    for form in (sp.expand, sp.cancel, sp.simplify):
        try:
            if form(flat) == 0:
                return True
        except (sp.PolynomialError, TypeError, ValueError, NotImplementedError):
            continue
    return False


def algebraically_equal(a: sp.Basic, b: sp.Basic) -> bool:
    """Whether ``a == b`` by algebra alone (no calculus, no operator, no rule)."""
    return is_zero(sp.sympify(a) - sp.sympify(b))


def residue(a: sp.Basic, b: sp.Basic) -> sp.Basic:
    """The difference ``a - b`` in its simplest algebraic form (opaque nodes left as they are), for messages."""
    table = Atoms()
    flat = atomize(sp.sympify(a) - sp.sympify(b), table)
    try:
        flat = sp.simplify(flat)
    except (sp.PolynomialError, TypeError, ValueError, NotImplementedError):
        pass
    return table.restore(flat)
