r"""Random concrete models of a chain's premises, and the value of an expression in one.

A model gives every free quantity of a chain a concrete value: a symbol a number with its declared assumptions
(exact rationals over wide ranges, tiny, huge, at the edges of a stated range; a complex number where no real
assumption is declared), an indexed entry an entry of a random array, an undefined function a random table, an
operator the page only names (Var, P, ...) a random value for each random variable it is applied to. An
expectation is evaluated on a random finite probability space on which exactly the chain's stated independence
holds (a product of blocks, one per independent group); a quantity the expectation lists as random takes one value
per outcome. A definition gives its name the value of its meaning (evaluated where the name is used); an equation
whose left-hand side is a free quantity fixes that quantity; any other premise is a constraint the model must meet.

Evaluation is exact (``fractions.Fraction``) while the arithmetic is rational, and otherwise in 160-digit
``mpmath`` arithmetic (complex where needed); two values agree when they are equal exactly, or to 40 significant
digits. Sums and products run over the integers ``a, a + 1, ...`` up to ``b`` (empty when ``b < a``), with their
bounds evaluated where they stand, so an inner range follows its enclosing index. Integrals are computed by
``mpmath.quad``, derivatives by ``mpmath.diff``, limits by evaluating ever closer to the point and asking the values
to settle. Nothing here imports the rewrite kernel: sympy serves only as the data structure of expressions.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

mpmath.mp.dps = 160
DIGITS = 40


class Unevaluable(Exception):
    """The expression holds something this route cannot give a value to (the reason is the message).

    ``about`` names what, when the reason alone does not (an operator's name).
    """

    def __init__(self, reason: str, about: str = ""):
        super().__init__(reason)
        self.about = about


class NotReal(Unevaluable):
    """An order comparison met a complex value: the model gives a symbol with no real assumption a complex value."""


class Inadmissible(Exception):
    """The model is outside the expression's domain (a pole, a logarithm of 0, a premise not met)."""


# -- numbers -------------------------------------------------------------------------------------------------------
def to_mp(v):
    """``v`` as an mpmath number."""
    if isinstance(v, Fraction):
        return mpmath.mpf(v.numerator) / v.denominator
    if isinstance(v, bool):
        return mpmath.mpf(int(v))
    if isinstance(v, int):
        return mpmath.mpf(v)
    return v


def is_exact(v) -> bool:
    """Whether ``v`` is an exact rational (an int or a Fraction)."""
    return isinstance(v, (int, Fraction)) and not isinstance(v, bool)


def tidy(v):
    """A Fraction with denominator 1 as an int; an mpc with zero imaginary part as an mpf."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return v.numerator
    if isinstance(v, mpmath.mpc) and v.imag == 0:
        return v.real
    return v


def add(a, b):
    """``a + b``, exact when both are."""
    if is_exact(a) and is_exact(b):
        return tidy(Fraction(a) + Fraction(b))
    return to_mp(a) + to_mp(b)


def mul(a, b):
    """``a * b``, exact when both are."""
    if is_exact(a) and is_exact(b):
        return tidy(Fraction(a) * Fraction(b))
    return to_mp(a) * to_mp(b)


def power(a, b):
    """``a ** b``: exact for a rational base and an integer (or exactly rooted) exponent."""
    if is_exact(a) and isinstance(tidy(Fraction(b)) if is_exact(b) else b, int):
        n = tidy(Fraction(b))
        if a == 0 and n < 0:
            raise Inadmissible("division by zero")
        if abs(n) > 4000:
            return to_mp(a) ** n
        return tidy(Fraction(a) ** n)
    if is_exact(a) and is_exact(b) and Fraction(a) > 0:
        # an exact rational root when there is one (sqrt(9/4) = 3/2), 160 digits otherwise
        fb = Fraction(b)
        if fb.denominator <= 12:
            fa = Fraction(a)
            num, den = _int_root(fa.numerator, fb.denominator), _int_root(fa.denominator, fb.denominator)
            if num is not None and den is not None:
                return power(Fraction(num, den), fb.numerator)
    if a == 0:
        if (is_exact(b) and Fraction(b) > 0) or (not is_exact(b) and mpmath.re(b) > 0):
            return 0
        raise Inadmissible("0 to a power that is not positive")
    return mpmath.power(to_mp(a), to_mp(b))


def _int_root(n: int, k: int):
    if n < 0:
        return None
    r = round(n ** (1.0 / k)) if n < 10**300 else int(mpmath.nint(mpmath.root(n, k)))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**k == n:
            return c
    return None


def agree(a, b) -> bool:
    """Whether two values are equal: exactly, or to ``DIGITS`` significant digits."""
    if is_exact(a) and is_exact(b):
        return Fraction(a) == Fraction(b)
    a, b = to_mp(a), to_mp(b)
    scale = max(abs(a), abs(b), mpmath.mpf(1))
    return abs(a - b) <= scale * mpmath.mpf(10) ** (-DIGITS)


def real_of(v):
    """``v`` as a real number; ``NotReal`` when it has an imaginary part."""
    if is_exact(v):
        return Fraction(v)
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > mpmath.mpf(10) ** (-DIGITS) * max(1, abs(v)):
            raise NotReal("an order comparison of a complex value")
        return v.real
    return v


def as_int(v):
    """``v`` as an int when it is a whole number, else None."""
    v = real_of(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return v.numerator
        return None
    n = int(mpmath.nint(v))
    return n if abs(v - n) <= mpmath.mpf(10) ** (-DIGITS) * max(1, abs(v)) else None


# -- random values with assumptions --------------------------------------------------------------------------------
_KEYS = ("integer", "rational", "real", "positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero",
         "even", "odd", "prime", "composite", "noninteger")  # fmt: skip


def _declared(node) -> dict:
    """What sympy knows of a symbol, an entry or a function's value (its declared assumptions and their closure)."""
    facts = {}
    for key in _KEYS:
        value = getattr(node, f"is_{key}", None)
        if value is not None:
            facts[key] = value
    return facts


def holds(value, facts: dict) -> bool:
    """Whether ``value`` has the assumptions ``facts`` (only those this route can decide numerically)."""
    for key, want in facts.items():
        have = _fact(value, key)
        if have is None:
            continue
        if have is not want:
            return False
    return True


def _fact(value, key):
    if isinstance(value, mpmath.mpc):
        if key in ("real", "extended_real", "rational", "integer", "positive", "negative", "nonnegative",
                   "nonpositive", "extended_positive", "extended_negative", "extended_nonnegative",
                   "extended_nonpositive", "even", "odd"):  # fmt: skip
            return False
        if key in ("complex", "finite"):
            return True
        if key in ("zero",):
            return value == 0
        if key in ("nonzero", "extended_nonzero"):
            return value != 0
        return None
    x = Fraction(value) if is_exact(value) else value
    integer = x.denominator == 1 if isinstance(x, Fraction) else None
    table = {
        "real": True, "extended_real": True, "complex": True, "finite": True, "infinite": False,
        "imaginary": x == 0 if False else False,
        "positive": x > 0, "extended_positive": x > 0, "negative": x < 0, "extended_negative": x < 0,
        "nonnegative": x >= 0, "extended_nonnegative": x >= 0, "nonpositive": x <= 0, "extended_nonpositive": x <= 0,
        "zero": x == 0, "nonzero": x != 0, "extended_nonzero": x != 0,
        "integer": integer, "rational": True if isinstance(x, Fraction) else None,
        "even": integer and x.numerator % 2 == 0 if integer else (False if integer is False else None),
        "odd": integer and x.numerator % 2 == 1 if integer else (False if integer is False else None),
        "noninteger": (not integer) if integer is not None else None,
        "irrational": False if isinstance(x, Fraction) else None,
        "algebraic": True if isinstance(x, Fraction) else None,
        "transcendental": False if isinstance(x, Fraction) else None,
        "hermitian": True, "antihermitian": x == 0, "commutative": True,
    }  # fmt: skip
    if key == "prime":
        return bool(integer) and sp.isprime(x.numerator) if integer is not None else None
    if key == "composite":
        return bool(integer) and x.numerator > 1 and not sp.isprime(x.numerator) if integer is not None else None
    return table.get(key)


def random_value(
    facts: dict, rng: random.Random, *, small: bool = False, real: bool | None = None, regime: str = "mixed"
):
    """A random value with the assumptions ``facts``; ``small`` for a quantity that bounds a sum or a product."""
    integer = any(facts.get(k) for k in ("integer", "even", "odd", "prime", "composite"))
    realish = integer or any(
        facts.get(k) is not None
        for k in ("real", "rational", "positive", "negative", "nonnegative", "nonpositive", "extended_real",
                  "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive")
    )  # fmt: skip
    value: Any
    for _ in range(200):
        if integer:
            if small:
                value = rng.choice([-3, -2, -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6])
            else:
                value = rng.choice([rng.randint(-6, 9), rng.randint(-6, 9), rng.choice([-1, 0, 1, 2]),
                                    rng.randint(10, 40)])  # fmt: skip
        else:
            shape = rng.random()
            if regime.startswith("huge"):
                shape = 0.6 + 0.15 * shape
            elif regime == "tiny":
                shape = 0.45 + 0.15 * shape
            p, q = rng.randint(-97, 97), rng.randint(1, 31)
            if regime in ("huge+", "huge-") and rng.random() < 0.8:
                p = abs(p) if regime == "huge+" else -abs(p)  # mostly of one sign: both signs are tried
            if shape < 0.45:
                value = Fraction(p, q)
            elif shape < 0.6:
                value = Fraction(p, q * 10 ** rng.randint(6, 30))  # tiny
            elif shape < 0.75:
                value = Fraction(p * 10 ** rng.randint(6, 30), q)  # huge
            else:
                value = rng.choice([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(2)])
            want_real = realish if real is None else (real or realish)
            if not want_real and rng.random() < 0.5:
                value = mpmath.mpc(to_mp(value), to_mp(Fraction(rng.randint(-97, 97), rng.randint(1, 31))))
        value = tidy(Fraction(value)) if is_exact(value) else value
        if holds(value, facts):
            return value
    raise Unevaluable(
        "no value found with the declared assumptions", ", ".join(sorted(k for k, v in facts.items() if v))
    )


# -- the model -----------------------------------------------------------------------------------------------------
_MAX_TERMS = 3000
#: evaluations of subexpressions the models of one step may make together (numerical integrals and derivatives
#: nested in each other, and premises solved for, make the most): past it the step is confirmed by the models
#: already evaluated, or else "kernel only", so that the cost of the second route stays bounded on every page
WORK_LIMIT = 12_000
#: a value a secant step finds stays exact while its denominator has at most this many bits
_EXACT_BITS = 256
#: a premise not met is solved for by at most this many secant steps in each of at most this many free values
_SECANT_STEPS, _CANDIDATES = 8, 3
_MAX_DEPTH = 60


def _random_entries(entries):
    """The symbols, function classes and indexed bases that a list of random entries makes random."""
    symbols: set = set()
    functions: set = set()
    bases: set = set()
    for entry in entries:
        entry = sp.sympify(entry)
        for node in sp.preorder_traversal(entry):
            if isinstance(node, AppliedUndef):
                functions.add(node.func)
            elif isinstance(node, sp.Indexed):
                bases.add(node.base.label)
            elif isinstance(node, sp.IndexedBase):
                bases.add(node.label)
        if isinstance(entry, sp.Symbol) or not isinstance(entry, (AppliedUndef, sp.Indexed, sp.IndexedBase)):
            symbols.update(s for s in entry.free_symbols if not isinstance(s, sp.Dummy))
    return symbols, functions, bases


class Space:
    """A random finite measure space: a product of blocks, each with a few outcomes and positive weights.

    ``groups`` are the stated independent groups: each group's quantities depend on its own block only, the other
    random quantities on one more block, so exactly the stated independence holds (and no more is needed).
    """

    def __init__(self, key, entries, groups, rng: random.Random, normalized: bool):
        self.key = key
        self.symbols, self.functions, self.bases = _random_entries(entries)
        self.groups = [tuple(sp.sympify(e) for e in g) for g in groups]
        self.sizes = [rng.choice([2, 2, 3])]  # block 0: the quantities in no group
        self.sizes += [rng.choice([2, 3]) for _ in self.groups]
        self.weights = []
        for size in self.sizes:
            raw = [Fraction(rng.randint(1, 9), rng.randint(1, 5)) for _ in range(size)]
            total = sum(raw)
            self.weights.append([w / total for w in raw] if normalized else raw)

    def outcomes(self):
        """Every outcome (a tuple of block indices) with its weight."""
        result: list[tuple[tuple, Fraction]] = [((), Fraction(1))]
        for block, size in enumerate(self.sizes):
            result = [(o + (b,), w * self.weights[block][b]) for o, w in result for b in range(size)]
        return result

    def random_kind(self, node) -> bool:
        """Whether ``node`` (a symbol, an entry, a function's value) is random on this space."""
        if isinstance(node, sp.Symbol):
            return node in self.symbols
        if isinstance(node, AppliedUndef):
            return node.func in self.functions
        if isinstance(node, sp.Indexed):
            return node.base.label in self.bases
        return False


class Model:
    """One random concrete model of a chain's premises (see the module docstring)."""

    def __init__(self, rng: random.Random, *, real: bool = False, budget: list | None = None):
        self.rng = rng
        # evaluations left to the step this model is drawn for, shared by all its models (a count, never a time)
        self.budget = [WORK_LIMIT] if budget is None else budget
        self.real = real
        self.values: dict = {}
        self.spaces: dict = {}
        self.definitions: list = []  # (name, parameters, meaning)
        self.fixed: list = []  # (node, rhs): a premise fixing a free quantity
        self.context: dict = {}  # space key -> current outcome
        self.bound: dict = {}  # bound variable -> value
        self.approximate = False
        self.scale = mpmath.mpf(0)  # the largest value a numerical integral or derivative gave (their accuracy)
        self.depth = 0
        self.ordered: set = set()  # quantities compared by an order relation: drawn real
        self.counts: set = set()  # quantities in the bounds of a sum or product: drawn as small whole numbers
        self.whole = True  # whether this model draws them whole (half the models do not)
        self.schemas: list = []
        self.claims: list = []  # (premise, lhs, rhs): equations a cited rule or a lemma claims, checked
        self.facts: dict = {}  # value key -> (assumptions, bounds a sum, drawn real)
        self.cache: dict = {}  # (expression, outcome, bound values) -> value; cleared when a value changes
        self.touched: list = []
        self.met: list = []  # instances of the schemas met, with the bound variables' values put in
        self.regime = "mixed"  # "huge", "tiny": most free real values of this model are huge, or tiny

    def survey(self, expressions, whole: bool):
        """Note which quantities are compared by order and which bound sums, in ``expressions``."""
        self.whole = whole
        for expr in expressions:
            for node in sp.preorder_traversal(expr):
                if isinstance(node, sp.core.relational.Relational) and node.rel_op not in ("==", "!="):
                    self.ordered.update(_kind_of(a) for a in _quantities(node))
                elif self._measure(node) is not None and type(node) not in self.spaces:
                    kind, random_set = self._measure(node)
                    self.add_space(type(node), random_set, (), normalized=(kind == "expectation"))
                elif isinstance(node, (sp.Sum, sp.Product)):
                    for limit in node.limits:
                        for bound in limit[1:]:
                            self.counts.update(_kind_of(a) for a in _quantities(bound))
                            self.ordered.update(_kind_of(a) for a in _quantities(bound))

    # -- structure -----------------------------------------------------------------------------------------------
    def add_space(self, key, entries, groups, normalized=True):
        """The space of the operator ``key`` (made once, with its random entries and independent groups)."""
        if key not in self.spaces:
            self.spaces[key] = Space(key, entries, groups, self.rng, normalized)
        return self.spaces[key]

    def define(self, name, meaning):
        """A definition ``name := meaning`` (symbols among a name's arguments are its parameters)."""
        parameters = ()
        if isinstance(name, sp.Indexed):
            args = name.indices
        elif isinstance(name, (sp.Function, AppliedUndef)) and not isinstance(name, sp.Symbol):
            args = name.args
        else:
            args = ()
        if args and all(isinstance(a, sp.Symbol) for a in args) and len(set(args)) == len(args):
            parameters = tuple(args)
        self.definitions.append((name, parameters, meaning))

    def fix(self, node, rhs):
        """A premise fixing the free quantity ``node`` to the value of ``rhs``."""
        self.fixed.append((node, rhs))

    # -- leaves --------------------------------------------------------------------------------------------------
    def _block(self, space: Space, node, key) -> int:
        for index, group in enumerate(space.groups):
            for member in group:
                if member == node:
                    return index + 1
                if isinstance(member, sp.Symbol) and isinstance(node, sp.Symbol) and member == node:
                    return index + 1
                if isinstance(node, sp.Indexed) and isinstance(member, sp.Indexed) and member.base == node.base:
                    if tuple(_hashable(self.eval(i)) for i in member.indices) == key[2]:
                        return index + 1
                if isinstance(node, sp.Indexed) and isinstance(member, sp.IndexedBase) and member == node.base:
                    return index + 1
                if isinstance(node, AppliedUndef) and isinstance(member, AppliedUndef) and member.func == node.func:
                    return index + 1
                if isinstance(node, sp.Symbol) and not isinstance(member, (AppliedUndef, sp.Indexed)):
                    if node in member.free_symbols:
                        return index + 1
        return 0

    def leaf(self, node, key, facts):
        """The value of a free quantity (a symbol, an entry, a function's value) in this model and outcome."""
        where = []
        for space in self.spaces.values():
            if space.random_kind(node):
                outcome = self.context.get(space.key) or (0,) * len(space.sizes)
                where.append((space.key, outcome[self._block(space, node, key)]))
        full = (key, tuple(where))
        if full not in self.values:
            kind = _kind_of(node)
            real = self.real or kind in self.ordered
            value = None
            if kind in self.counts:
                # half the models give the bounds of sums whole values, the other half values that are not whole
                wanted = {"integer": True} if self.whole else {"noninteger": True, "real": True}
                try:
                    value = random_value(dict(facts, **wanted), self.rng, small=True, real=True)
                except Unevaluable:
                    value = None
            if value is None:
                value = random_value(facts, self.rng, real=real, regime=self.regime)
            self.values[full] = value
            self.facts[full] = (facts, kind in self.counts, real)
        self.touched.append(full)
        return self.values[full]

    def solve(self, lhs, rhs) -> bool:
        """Change one free value so that ``lhs = rhs`` holds (secant steps); whether it now holds.

        Only values drawn freely are changed (not the bounds of sums), and only to values with their assumptions:
        a model found so is a model of the premise like any other.
        """
        self.touched = []
        self.cache.clear()
        residual = add(self.eval(lhs), mul(-1, self.eval(rhs)))
        if agree(residual, 0):
            return True
        candidates = []
        for key in reversed(self.touched):
            if key in self.facts and key not in candidates and not self.facts[key][1]:
                candidates.append(key)
        for key in candidates[:_CANDIDATES]:
            facts, _, real = self.facts[key]
            if any(facts.get(k) for k in ("integer", "even", "odd", "prime", "composite")):
                continue
            original = self.values[key]
            try:
                if self._secant(key, lhs, rhs, facts):
                    return True
            except (Inadmissible, ZeroDivisionError, ValueError, TypeError, NotReal):
                pass
            self.values[key] = original
            self.cache.clear()
        return False

    def _secant(self, key, lhs, rhs, facts) -> bool:
        def f(v):
            self.values[key] = v
            self.cache.clear()
            return add(self.eval(lhs), mul(-1, self.eval(rhs)))

        x0 = self.values[key]
        x1 = add(x0, 1)
        f0, f1 = f(x0), f(x1)
        for step in range(_SECANT_STEPS):
            if agree(f1, 0):
                break
            if step >= 2:  # not linear in this value: on in 160-digit arithmetic (exact fractions would swell)
                x0, x1, f0, f1 = to_mp(x0), to_mp(x1), to_mp(f0), to_mp(f1)
            slope = add(f1, mul(-1, f0))
            if is_exact(slope) and slope == 0:
                return False
            x2 = add(x1, mul(mul(-1, f1), mul(add(x1, mul(-1, x0)), power(slope, -1))))
            if is_exact(x2) and Fraction(x2).denominator.bit_length() > _EXACT_BITS:
                x2 = to_mp(x2)  # a secant step with a swollen denominator: every evaluation after it would crawl
            x0, f0, x1 = x1, f1, x2
            f1 = f(x1)
        self.values[key] = x1
        self.cache.clear()
        return agree(f1, 0) and holds(tidy(x1) if is_exact(x1) else x1, facts)

    # -- evaluation ----------------------------------------------------------------------------------------------
    def watch(self, schemas):
        """Note every instance of these schemas met while evaluating (checked afterwards by ``instances_met``)."""
        self.schemas = [(pattern, template, type(pattern)) for pattern, template in schemas]

    def _meet(self, expr):
        for pattern, template, head in self.schemas:
            if type(expr) is not head:
                continue
            match = expr.match(pattern)
            if match is None:
                continue
            concrete = {v: _as_sympy(value) for v, value in self.bound.items()}
            instance = (expr.xreplace(concrete), template.xreplace(match).xreplace(concrete))
            if instance not in self.met:
                self.met.append(instance)

    def eval(self, expr):
        """The value of ``expr`` in this model (at the current outcomes and bound values)."""
        atom = isinstance(expr, (sp.Symbol, sp.Number))
        if self.schemas and not atom:
            self._meet(expr)
        if not atom:
            key = (expr, frozenset(self.context.items()), frozenset(self.bound.items()))
            if key in self.cache:
                return self.cache[key]
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise Unevaluable("a step too costly to evaluate in a model", f"{WORK_LIMIT} evaluations")
        self.depth += 1
        try:
            if self.depth > _MAX_DEPTH:
                raise Unevaluable("definitions or premises refer to each other without end")
            value = self._eval(expr)
        finally:
            self.depth -= 1
        if not atom:
            self.cache[key] = value
        return value

    def _named(self, expr):
        """The value given by a definition or a fixing premise of ``expr``, or None."""
        for name, parameters, meaning in self.definitions:
            if type(name) is not type(expr) and not (isinstance(name, AppliedUndef) and isinstance(expr, AppliedUndef)):
                continue
            if isinstance(name, sp.Symbol):
                if name == expr:
                    return ("value", self.eval(meaning))
                continue
            if isinstance(name, sp.Indexed):
                if name.base != expr.base or len(name.indices) != len(expr.indices):
                    continue
                args, actual = name.indices, expr.indices
            else:
                if getattr(name, "func", None) != expr.func or len(name.args) != len(expr.args):
                    continue
                args, actual = name.args, expr.args
            if parameters:
                return ("value", self.eval(meaning.xreplace(dict(zip(parameters, actual, strict=True)))))
            if all(agree(self.eval(a), self.eval(b)) for a, b in zip(args, actual, strict=True)):
                return ("value", self.eval(meaning))
        for node, rhs in self.fixed:
            if self._same(node, expr):
                return ("value", self.eval(rhs))
        return None

    def _same(self, node, expr) -> bool:
        if node == expr:
            return True
        if type(node) is not type(expr):
            return False
        if isinstance(node, sp.Indexed):
            if node.base != expr.base or len(node.indices) != len(expr.indices):
                return False
            pairs = zip(node.indices, expr.indices, strict=True)
        elif isinstance(node, (AppliedUndef, sp.Function)) and not isinstance(node, sp.Symbol):
            if node.func != expr.func or len(node.args) != len(expr.args):
                return False
            if self._measure(node) is not None or self._meaning(node) is not None:
                return False
            if self._notation(node):
                return self._rv_key(node.args) == self._rv_key(expr.args)
            pairs = zip(node.args, expr.args, strict=True)
        else:
            return False
        return all(agree(self.eval(a), self.eval(b)) for a, b in pairs)

    @staticmethod
    def _measure(node):
        cls = type(node)
        random_set = getattr(cls, "random", None)
        if isinstance(random_set, frozenset) and hasattr(cls, "subscript"):
            return ("expectation", random_set)
        measure = getattr(cls, "audit_measure", None)
        if measure is not None:
            return ("integral", measure)
        return None

    @staticmethod
    def _meaning(node):
        return getattr(type(node), "audit_meaning", None)

    @staticmethod
    def _notation(node) -> bool:
        return (
            isinstance(node, sp.Function)
            and not isinstance(node, AppliedUndef)
            and type(node).__module__.startswith("melearn")
            and Model._measure(node) is None
            and Model._meaning(node) is None
        )

    def _rv_key(self, args):
        """The random variables ``args`` are: their values at every outcome of every space (a hashable key)."""
        keys = []
        spaces = list(self.spaces.values())
        saved = dict(self.context)
        try:
            combos: list[dict] = [{}]
            for space in spaces:
                combos = [dict(c, **{_k(space.key): o}) for c in combos for o, _ in space.outcomes()]
                if len(combos) > 400:
                    raise Unevaluable("too many outcomes to identify a random variable")
            for combo in combos:
                for space in spaces:
                    self.context[space.key] = combo[_k(space.key)]
                keys.append(tuple(_hashable(self.eval(a)) for a in args))
        finally:
            self.context = saved
        return tuple(keys)

    def _eval(self, expr):
        if isinstance(expr, bool):
            return int(expr)
        if isinstance(expr, sp.Integer):
            return int(expr)
        if isinstance(expr, sp.Rational):
            return Fraction(int(expr.p), int(expr.q))
        if isinstance(expr, sp.Float):
            self.approximate = True
            return mpmath.mpf(expr)
        if expr is sp.pi:
            return +mpmath.pi
        if expr is sp.E:
            return mpmath.e
        if expr is sp.I:
            return mpmath.mpc(0, 1)
        if expr is sp.EulerGamma:
            return +mpmath.euler
        if expr in (sp.oo, -sp.oo, sp.zoo, sp.nan):
            raise Inadmissible(f"{expr}")
        if expr in (sp.true, sp.false):
            return int(bool(expr))
        if isinstance(expr, sp.Symbol):
            if expr.is_commutative is False:
                raise Unevaluable("a noncommutative symbol")
            if expr in self.bound:
                return self.bound[expr]
            named = self._named(expr)
            if named is not None:
                return named[1]
            return self.leaf(expr, ("sym", expr), _declared(expr))
        if isinstance(expr, sp.Indexed):
            named = self._named(expr)
            if named is not None:
                return named[1]
            indices = tuple(_hashable(self.eval(i)) for i in expr.indices)
            return self.leaf(expr, ("idx", expr.base.label, indices), _declared(expr))
        if isinstance(expr, sp.Add):
            total = 0
            for a in expr.args:
                total = add(total, self.eval(a))
            return total
        if isinstance(expr, sp.Mul):
            if any(f.is_commutative is False for f in expr.atoms(sp.Symbol)):
                raise Unevaluable("a noncommutative product")
            total = 1
            for a in expr.args:
                total = mul(total, self.eval(a))
            return total
        if isinstance(expr, sp.Pow):
            base, exponent = self.eval(expr.base), self.eval(expr.exp)
            return power(base, exponent)
        if isinstance(expr, sp.UnevaluatedExpr):
            return self.eval(expr.args[0])
        if isinstance(expr, (sp.Sum, sp.Product)):
            return self._series(expr)
        if isinstance(expr, sp.Integral):
            return self._integral(expr)
        if isinstance(expr, sp.Derivative):
            return self._derivative(expr)
        if isinstance(expr, sp.Limit):
            return self._limit(expr)
        if isinstance(expr, sp.Piecewise):
            for value, condition in expr.args:
                if self.eval(condition):
                    return self.eval(value)
            raise Inadmissible("no piece of a Piecewise applies")
        if isinstance(expr, sp.core.relational.Relational):
            return int(self._relation(expr))
        if isinstance(expr, sp.And):
            return int(all(self.eval(a) for a in expr.args))
        if isinstance(expr, sp.Or):
            return int(any(self.eval(a) for a in expr.args))
        if isinstance(expr, sp.Not):
            return int(not self.eval(expr.args[0]))
        if isinstance(expr, AppliedUndef):
            named = self._named(expr)
            if named is not None:
                return named[1]
            args = tuple(_hashable(self.eval(a)) for a in expr.args)
            return self.leaf(expr, ("fn", expr.func, args), _declared(expr))
        measure = self._measure(expr)
        if measure is not None:
            named = self._named(expr)
            if named is not None:
                return named[1]
            return self._expectation(expr, measure)
        if self._meaning(expr) == "indicator":
            return int(bool(self.eval(expr.args[0])))
        if self._notation(expr):
            named = self._named(expr)
            if named is not None:
                return named[1]
            key = ("op", type(expr), self._rv_key(expr.args))
            if key not in self.values:
                self.values[key] = random_value({}, self.rng, real=True)
            return self.values[key]
        function = _FUNCTIONS.get(type(expr))
        if function is not None:
            return function(*[self.eval(a) for a in expr.args])
        raise Unevaluable("an expression with no meaning in a model", type(expr).__name__)

    def _relation(self, rel) -> bool:
        a, b = self.eval(rel.lhs), self.eval(rel.rhs)
        op = rel.rel_op
        if op == "==":
            return agree(a, b)
        if op == "!=":
            return not agree(a, b)
        a, b = real_of(a), real_of(b)
        if not (is_exact(a) and is_exact(b)):
            if agree(a, b):
                raise Unevaluable("an order comparison of two values equal to the working precision")
            a, b = to_mp(a), to_mp(b)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]

    def _series(self, node):
        limits = list(node.limits)
        product = isinstance(node, sp.Product)

        def run(level):
            if level < 0:
                return self.eval(node.function)
            index, lo, hi = limits[level]
            a, b = real_of(self.eval(lo)), real_of(self.eval(hi))
            total = 1 if product else 0
            count = 0
            value = a
            saved = self.bound.get(index, _UNBOUND)
            try:
                while _le(value, b) or agree(value, b):
                    count += 1
                    if count > _MAX_TERMS:
                        raise Unevaluable("a sum or product of too many terms to write out", str(_MAX_TERMS))
                    self.bound[index] = tidy(Fraction(value)) if is_exact(value) else value
                    term = run(level - 1)
                    total = mul(total, term) if product else add(total, term)
                    value = add(value, 1)
            finally:
                if saved is _UNBOUND:
                    self.bound.pop(index, None)
                else:
                    self.bound[index] = saved
            return total

        for limit in limits:
            if len(limit) != 3:
                raise Unevaluable("a sum without bounds")
        return run(len(limits) - 1)

    def _with(self, variable, value, expr):
        saved = self.bound.get(variable, _UNBOUND)
        self.bound[variable] = value
        try:
            return to_mp(self.eval(expr))
        finally:
            if saved is _UNBOUND:
                self.bound.pop(variable, None)
            else:
                self.bound[variable] = saved

    def _integral(self, node):
        self.approximate = True
        if len(node.limits) != 1 or len(node.limits[0]) != 3:
            raise Unevaluable("an indefinite or multiple integral")
        variable, lo, hi = node.limits[0]

        def bound(x):
            if x == sp.oo:
                return mpmath.inf
            if x == -sp.oo:
                return -mpmath.inf
            return to_mp(real_of(self.eval(x)))

        a, b = bound(lo), bound(hi)
        with mpmath.workdps(min(mpmath.mp.dps, 50) + 10):
            value, error = mpmath.quad(lambda t: self._with(variable, t, node.function), [a, b], error=True)
        if error > mpmath.mpf(10) ** -20 * max(1, abs(value)):
            raise Inadmissible("an integral whose quadrature does not settle")
        self.scale = max(self.scale, abs(value))
        return value

    def _derivative(self, node):
        self.approximate = True
        if len(node.variable_count) != 1:
            raise Unevaluable("a mixed partial derivative")
        variable, count = node.variable_count[0]
        point = to_mp(self.eval(variable))
        # central differences (mpmath.diff) with a step relative to the point, in 90-digit arithmetic
        # two step sizes must give the same value: a function that varies faster than the step is outside the model
        with mpmath.workdps(90):
            step = max(abs(point), mpmath.mpf(1)) * mpmath.mpf(10) ** -25
            values = [
                mpmath.diff(lambda t: self._with(variable, t, node.expr), point, int(count), h=h)
                for h in (step, step / 1000)
            ]
        if abs(values[0] - values[1]) > mpmath.mpf(10) ** -20 * max(1, abs(values[1])):
            raise Inadmissible("difference quotients that do not settle")
        self.scale = max(self.scale, abs(values[1]))
        return values[1]

    def _limit(self, node):
        self.approximate = True
        expr, variable, point, direction = node.args
        direction = str(direction)
        if point in (sp.oo, -sp.oo):
            sign = 1 if point == sp.oo else -1
            trials = [[sign * mpmath.mpf(10) ** e for e in (12, 16, 20, 24)]]
        else:
            at = to_mp(real_of(self.eval(point)))
            sides = {"+": [1], "-": [-1], "+-": [1, -1]}[direction]
            trials = [[at + s * mpmath.mpf(10) ** (-e) for e in (12, 16, 20, 24)] for s in sides]
        results = []
        for trial in trials:
            values = [self._with(variable, t, expr) for t in trial]
            last, before = values[-1], values[-2]
            if abs(last - before) > mpmath.mpf(10) ** -10 * max(1, abs(last)):
                raise Unevaluable("a limit whose values near the point do not settle")
            results.append(last)
        if len(results) == 2 and abs(results[0] - results[1]) > mpmath.mpf(10) ** -10 * max(1, abs(results[0])):
            raise Inadmissible("the one-sided limits differ")
        return results[0]

    def _expectation(self, node, measure):
        kind, random_set = measure
        space = self.spaces.get(type(node))
        if space is None:
            space = self.add_space(type(node), random_set, (), normalized=(kind == "expectation"))
        saved = self.context.get(space.key)
        # what the expectation averages over does not matter to its value: one computation for every outcome
        own = (
            node,
            frozenset((k, v) for k, v in self.context.items() if k != space.key),
            frozenset(self.bound.items()),
        )
        if own in self.cache:
            return self.cache[own]
        total = 0
        try:
            for outcome, weight in space.outcomes():
                self.context[space.key] = outcome
                total = add(total, mul(weight, self.eval(node.args[0])))
        finally:
            self.context[space.key] = saved
        self.cache[own] = total
        return total


_UNBOUND = object()


def _as_sympy(value):
    if is_exact(value):
        value = Fraction(value)
        return sp.Rational(value.numerator, value.denominator)
    value = to_mp(value)
    if isinstance(value, mpmath.mpc):
        return sp.Float(mpmath.nstr(value.real, 60), 60) + sp.I * sp.Float(mpmath.nstr(value.imag, 60), 60)
    return sp.Float(mpmath.nstr(value, 60), 60)


def _kind_of(node):
    if isinstance(node, sp.Indexed):
        return ("idx", node.base.label)
    if isinstance(node, AppliedUndef):
        return ("fn", node.func)
    return ("sym", node)


def _quantities(expr):
    found = set(expr.atoms(sp.Indexed)) | set(expr.atoms(AppliedUndef))
    found |= {s for s in expr.free_symbols if isinstance(s, sp.Symbol)}
    return found


def _k(key) -> str:
    return str(id(key))


def _hashable(v):
    if is_exact(v):
        return ("q", Fraction(v))
    v = to_mp(v)
    if isinstance(v, mpmath.mpc):
        return ("c", mpmath.nstr(v.real, 30), mpmath.nstr(v.imag, 30))
    return ("r", mpmath.nstr(v, 30))


def _exact_or(function):
    def apply(*args):
        return function(*[to_mp(a) for a in args])

    return apply


def _abs(v):
    if is_exact(v):
        return abs(Fraction(v))
    return abs(to_mp(v))


def _floor(v):
    v = real_of(v)
    return int(mpmath.floor(v)) if not isinstance(v, Fraction) else v.numerator // v.denominator


def _ceiling(v):
    return -_floor(mul(-1, v))


def _sign(v):
    if is_exact(v):
        f = Fraction(v)
        return (f > 0) - (f < 0)
    v = to_mp(v)
    return 0 if v == 0 else v / abs(v)


def _le(a, b) -> bool:
    if is_exact(a) and is_exact(b):
        return Fraction(a) <= Fraction(b)
    return to_mp(a) <= to_mp(b)


def _max(*args):
    values = [real_of(a) for a in args]
    if not all(is_exact(v) for v in values):
        values = [to_mp(v) for v in values]
    return max(values)


def _min(*args):
    values = [real_of(a) for a in args]
    if not all(is_exact(v) for v in values):
        values = [to_mp(v) for v in values]
    return min(values)


def _binomial(n, k):
    ki = as_int(k)
    if ki is not None:
        if ki < 0:
            return 0
        if is_exact(n) and ki <= 5000:
            result = Fraction(1)
            for j in range(ki):
                result = result * (Fraction(n) - j) / (j + 1)
            return tidy(result)
    return mpmath.binomial(to_mp(n), to_mp(k))


def _factorial(n):
    ni = as_int(n)
    if ni is not None:
        if ni < 0:
            raise Inadmissible("the factorial of a negative integer")
        if ni > 5000:
            raise Unevaluable("a factorial too large to write out")
        result = 1
        for j in range(2, ni + 1):
            result *= j
        return result
    return mpmath.factorial(to_mp(n))


def _log(v, base=None):
    if v == 0:
        raise Inadmissible("the logarithm of 0")
    result = mpmath.log(to_mp(v))
    return result if base is None else result / mpmath.log(to_mp(base))


def _kronecker(a, b):
    return int(agree(a, b))


_FUNCTIONS = {
    sp.exp: _exact_or(mpmath.exp),
    sp.log: _log,
    sp.sin: _exact_or(mpmath.sin),
    sp.cos: _exact_or(mpmath.cos),
    sp.tan: _exact_or(mpmath.tan),
    sp.sinh: _exact_or(mpmath.sinh),
    sp.cosh: _exact_or(mpmath.cosh),
    sp.tanh: _exact_or(mpmath.tanh),
    sp.atan: _exact_or(mpmath.atan),
    sp.asin: _exact_or(mpmath.asin),
    sp.acos: _exact_or(mpmath.acos),
    sp.erf: _exact_or(mpmath.erf),
    sp.erfc: _exact_or(mpmath.erfc),
    sp.gamma: _exact_or(mpmath.gamma),
    sp.loggamma: _exact_or(mpmath.loggamma),
    sp.beta: _exact_or(mpmath.beta),
    sp.Abs: _abs,
    sp.sign: _sign,
    sp.floor: _floor,
    sp.ceiling: _ceiling,
    sp.Max: _max,
    sp.Min: _min,
    sp.binomial: _binomial,
    sp.factorial: _factorial,
    sp.KroneckerDelta: _kronecker,
    sp.re: lambda v: v if is_exact(v) else mpmath.re(to_mp(v)),
    sp.im: lambda v: 0 if is_exact(v) else mpmath.im(to_mp(v)),
    sp.conjugate: lambda v: v if is_exact(v) else mpmath.conj(to_mp(v)),
}
