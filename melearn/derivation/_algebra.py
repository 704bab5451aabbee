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

import re
from fractions import Fraction

import sympy as sp
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.function import AppliedUndef


class OpaqueOperator(sp.Function):
    """Base class of the book's operators (expectation, probability, variance, ...): never evaluated by algebra."""


#: Node types that algebra treats as unknowns: a named rule must rewrite them.
OPAQUE = (ExprWithLimits, sp.Derivative, sp.Limit, sp.Subs, OpaqueOperator)

#: The canonical bound variables, interned: a pure function of its key (the same Dummy for the same position), so
#: a cache of immutable values and not state of a page or a check.
_CANONICAL: dict[tuple, sp.Dummy] = {}


def _canonical_variable(depth: int, position: int, kind: str) -> sp.Dummy:
    key = (depth, position, kind)
    if key not in _CANONICAL:
        assumptions = {"integer": True} if kind == "index" else {}
        _CANONICAL[key] = sp.Dummy(f"_bound{depth}_{position}", **assumptions)
    return _CANONICAL[key]


def bound_key(node: sp.Basic) -> sp.Basic:
    r"""``node`` with its bound variables renamed canonically: :math:`\sum_i u_i` and :math:`\sum_j u_j` agree.

    The variables bound by sums, products, integrals and limits are replaced, outermost first, by fixed
    placeholders numbered by depth and position; an index of a sum or product keeps only that it is an integer
    (its declared assumptions say nothing about the range it runs over), the variable of an integral or a limit
    keeps none.
    """

    def visit(expr, depth):
        if isinstance(expr, (ExprWithLimits, sp.Limit)):
            if isinstance(expr, sp.Limit):
                variables = [expr.args[1]]
                kind = "variable"
            else:
                variables = list(expr.variables)
                kind = "index" if isinstance(expr, (sp.Sum, sp.Product)) else "variable"
            renaming = {v: _canonical_variable(depth, k, kind) for k, v in enumerate(variables)}
            expr = expr.xreplace(renaming)
            depth += 1
        if not expr.args or isinstance(expr, (sp.Symbol, sp.Number)):
            return expr
        args = tuple(visit(a, depth) for a in expr.args)
        if args == expr.args:
            return expr
        return expr.func(*args, evaluate=False) if isinstance(expr, (sp.Add, sp.Mul, sp.Pow)) else expr.func(*args)

    return visit(sp.sympify(node), 0)


_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho", "sigma", "varsigma", "tau", "upsilon", "phi",
    "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
    "Psi", "Omega",
}  # fmt: skip
#: LaTeX commands a symbol's name may use besides Greek letters: accents and fonts (they decorate a letter).
_DECORATIONS = {
    "bar", "hat", "tilde", "overline", "widehat", "widetilde", "dot", "ddot", "vec", "boldsymbol", "mathbf",
    "mathcal", "mathit", "mathrm", "mathsf", "mathbb", "bm", "ell", "min", "max", "prime", "text", "operatorname",
}  # fmt: skip
_NUMERIC = re.compile(r"^[\s+\-]*(\d+\.?\d*|\.\d+)([eE][+\-]?\d+)?(/\d+)?\s*$")
_CONSTANTS = {"pi", "oo", "zoo", "nan", "infty", "infinity"}


def name_problem(name: str) -> str | None:
    """Why a symbol's name would read as something else on the page, or None when it reads as a name."""
    stripped = name.strip()
    if not stripped:
        return "it is empty"
    if _NUMERIC.match(stripped) or stripped.lstrip("+-").replace(",", "").isdigit():
        return "it reads as a number"
    if stripped in _CONSTANTS or stripped.lstrip("\\") in {"pi", "infty"}:
        return "it reads as a constant"
    if any(c in stripped for c in "&%$#~\n") or "\\\\" in stripped or "\u2713" in stripped or "\u2714" in stripped:
        return "it holds a character that is not part of a name"
    if stripped.count("{") != stripped.count("}"):
        return "its braces are unbalanced"
    for command in re.findall(r"\\([A-Za-z]+)", stripped):
        if command not in _GREEK and command not in _DECORATIONS:
            return f"it holds the LaTeX command \\{command}, which is not a letter or a decoration"
    for inner in re.findall(r"\\text\{([^}]*)\}", stripped):
        if "\\" in inner:
            return "its \\text{...} holds a command"
    return None


def vet_expression(expr, argument: str) -> sp.Basic:
    """``expr`` as a sympy expression the kernel can check; refused (naming ``argument``) when it is not one.

    Refused: what is not a sympy expression (None, a string, a list...), a ``sympy.stats`` object (its expectations
    and probabilities would be evaluated as algebra), and a symbol whose name reads as something else (a number, a
    constant, a check mark or another LaTeX command).
    """
    if isinstance(expr, bool) or expr is None or not isinstance(expr, (sp.Basic, int, Fraction)):
        raise TypeError(f"{argument} must be a sympy expression, got {type(expr).__name__}: {expr!r}")
    expr = sp.sympify(expr)
    if not isinstance(expr, sp.Basic):
        raise TypeError(f"{argument} must be a sympy expression, got {type(expr).__name__}")
    for node in sp.preorder_traversal(expr):
        if str(getattr(type(node), "__module__", None) or "").startswith("sympy.stats"):
            raise ValueError(
                f"{argument} holds the sympy.stats object {node}: its expectations and probabilities would be "
                "evaluated as algebra; write them with melearn.derivation's operators"
            )
    names = {s.name for s in expr.atoms(sp.Symbol) if not isinstance(s, (sp.Dummy, sp.Wild))}
    names |= {str(f.func) for f in expr.atoms(AppliedUndef)}
    names |= {str(x.label) for x in expr.atoms(sp.IndexedBase)}
    for name in sorted(names):
        problem = name_problem(name)
        if problem:
            raise ValueError(f"{argument} holds a symbol named {name!r}: {problem}")
    return expr


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
        # and nodes that differ only in the names of their bound variables (sum_i u_i, sum_j u_j) are one unknown
        key = node.replace(lambda e: isinstance(e, sp.core.relational.Relational), lambda e: e.canonical)
        key = bound_key(key)
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
