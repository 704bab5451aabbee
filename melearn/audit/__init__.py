r"""The second route: every step of a chain evaluated in random concrete models of its premises.

The rewrite kernel (``melearn.derivation``) proves a step by rewriting both sides with the rules the step names
until algebra finds them equal. This package checks the same step another way and shares no code with it: it
builds random concrete models of what the chain assumes (:mod:`melearn.audit.models`) and evaluates both sides
of every step in each of them, with exact rational arithmetic where it can and 160-digit arithmetic where it
cannot. A step is

* **confirmed** when both sides agree in every admissible model drawn (at least one);
* **refuted** when they differ in one: the step is false, whatever the kernel says;
* **kernel only** when no model could be evaluated: the reason is recorded (an expression this route gives no
  meaning to, a premise its random models do not meet, a value outside every model's domain).

What a model imposes: the definitions of the chain (a name takes the value of its meaning), every equation of the
rules a step names (a free quantity is fixed by it, any other equation is a constraint the model must meet), the
instances of a schema's placeholders found in the step, and the stated independence (each group its own block of
a product space). A chain whose premises fail by the same amount in every model drawn (``a = 1`` and ``2 a = 4``)
admits no model and is refused.

Only the data of the chain reaches this package: expressions, the equations of its rules, their kinds and the
independence they state (:class:`Premise`); it imports nothing of the kernel.

``Derivation.check`` calls it after the kernel has proved every step (``melearn.derivation.second_route``): a
refuted step, or premises with no model, are refused; a "kernel only" step is said so beside its tick, with its
reason, and counted in the page's ledger. Its work is bounded by a count, never a time (``MODELS`` admissible
models wanted per step, ``ATTEMPTS`` drawn at most, ``models.WORK_LIMIT`` evaluations in all), so that a verdict
is the same on every machine. It is tested on its own (``tests/melearn/test_audit.py``), on steps handed to it as data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import sympy as sp
from sympy.core.function import AppliedUndef

from .models import WORK_LIMIT, Inadmissible, Model, NotReal, Unevaluable, agree

__all__ = ["CONFIRMED", "KERNEL_ONLY", "REFUTED", "Premise", "StepVerdict", "audit_chain"]

CONFIRMED, KERNEL_ONLY, REFUTED = "confirmed", "kernel only", "refuted"
#: the models' scales, in turn: moderate values; huge ones, mostly positive or mostly negative; tiny ones
_REGIMES = ("mixed", "huge+", "tiny", "huge-", "mixed", "huge+", "mixed", "huge-")
MODELS = 4  # admissible models wanted for each step
ATTEMPTS = 10  # models drawn at most for each step


@dataclass(frozen=True)
class Premise:
    """What one rule of a chain states, as data: its kind, its equations, its schemas and its independence."""

    kind: str
    name: str
    equations: tuple = ()  # (lhs, rhs) without placeholders
    schemas: tuple = ()  # (pattern, template) with sympy.Wild placeholders
    independent: tuple = ()  # (operator class, group, group)
    carries: tuple = ()  # for a lemma: the equations its own chain assumed, as (lhs, rhs) pairs, per premise


@dataclass(frozen=True)
class StepVerdict:
    """The second route's verdict on one step: ``status`` and, unless confirmed, why."""

    status: str
    reason: str = ""
    models: int = 0
    about: str = ""
    detail: dict = field(default_factory=dict, compare=False)


class Contradiction(Exception):
    """The chain's premises admit no model."""


def _is_name(expr) -> bool:
    if isinstance(expr, (sp.Dummy, sp.Wild)):
        return False
    return isinstance(expr, (sp.Symbol, sp.Indexed, AppliedUndef)) or (
        isinstance(expr, sp.Function) and type(expr).__module__.startswith("melearn")
    )


def _occurs(name, expr) -> bool:
    if isinstance(name, sp.Symbol):
        return name in expr.free_symbols
    if isinstance(name, sp.Indexed):
        return any(x.base == name.base for x in expr.atoms(sp.Indexed))
    return any(type(n) is type(name) for n in sp.preorder_traversal(expr))


def _definition(lhs, rhs):
    """The (name, meaning) of a definition, whichever side the name is on."""
    for name, meaning in ((lhs, rhs), (rhs, lhs)):
        if _free_quantity(name) and not _occurs(name, meaning):
            return name, meaning
    return None


def _speaks_of_notation(expr) -> bool:
    """Whether ``expr`` holds an operator the page only names, or an undefined function (no meaning of their own)."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, AppliedUndef):
            return True
        if isinstance(node, sp.Function) and type(node).__module__.startswith("melearn"):
            cls = type(node)
            if not isinstance(getattr(cls, "random", None), frozenset) and getattr(cls, "audit_meaning", None) is None:
                if getattr(cls, "audit_measure", None) is None:
                    return True
    return False


def _free_quantity(expr) -> bool:
    """Whether the model may give ``expr`` any value (a symbol, an entry, a function's or operator's value)."""
    if not _is_name(expr):
        return False
    cls = type(expr)
    random_set = getattr(cls, "random", None)
    if isinstance(random_set, frozenset) or getattr(cls, "audit_measure", None) is not None:
        return False
    return getattr(cls, "audit_meaning", None) is None


def _random_operator(expr) -> bool:
    """Whether ``expr`` holds an expectation or an integral over a measure (an operator of the random model)."""
    for node in sp.preorder_traversal(expr):
        cls = type(node)
        if isinstance(node, sp.Function) and (
            isinstance(getattr(cls, "random", None), frozenset) or getattr(cls, "audit_measure", None) is not None
        ):
            return True
    return False


def _names_a_parameter(lhs, rhs) -> bool:
    """Whether ``lhs = rhs`` is a statement about the random model whose one side is a bare parameter (a symbol)."""
    for name, value in ((lhs, rhs), (rhs, lhs)):
        if isinstance(name, sp.Symbol) and _free_quantity(name) and not _occurs(name, value):
            return _random_operator(value)
    return False


def _instances(schemas, expressions):
    found = []
    for pattern, template in schemas:
        wilds = sorted(pattern.atoms(sp.Wild), key=lambda w: w.name)
        for expr in expressions:
            for node in sp.preorder_traversal(expr):
                match = node.match(pattern)
                if match is None:
                    continue
                instance = (node, template.xreplace({w: match[w] for w in wilds if w in match}))
                if instance not in found:
                    found.append(instance)
    return found


def _build(rng, premises_chain, step_premises, sides, real, whole, regime="mixed", budget=None):
    model = Model(rng, real=real, budget=budget)
    everything = list(sides)
    for premise in premises_chain:
        for lhs, rhs in premise.equations + premise.schemas:
            everything += [lhs, rhs]
    groups: dict = {}
    for premise in premises_chain:
        for cls, a, b in premise.independent:
            members = groups.setdefault(cls, [])
            for member in tuple(a) + tuple(b):
                if member not in members:
                    members.append(member)
    for cls, members in groups.items():
        random_set = getattr(cls, "random", None) or getattr(cls, "audit_measure", frozenset())
        model.add_space(cls, random_set, [(m,) for m in members], normalized=True)
    model.survey(everything, whole)  # the spaces of the other expectations, what is compared, what bounds a sum
    model.regime = regime
    for premise in premises_chain:
        if premise.kind == "definition":
            for lhs, rhs in premise.equations + premise.schemas:
                found = _definition(lhs, rhs)
                if found is not None:
                    model.define(*found)
    constraints = []
    equations = []
    schemas = []
    claims = []
    for premise in step_premises:
        if premise.kind == "definition":
            continue
        for lhs, rhs in list(premise.equations) + _instances(premise.schemas, sides):
            # an assumption or a lemma (whose own chain the second route has checked, with the premises it carries)
            # is imposed on the model; a cited result is claimed true in every model, and is checked, unless it
            # speaks of what only the page's premises give a meaning (Var, an undefined f)
            if premise.kind in ("cited", "computation") and not _speaks_of_notation(lhs - rhs):
                if _names_a_parameter(lhs, rhs):
                    # a result about the page's random model that gives a parameter its value (E[mu] = eps_0 for a
                    # random sample): the parameter is named by it, so the model takes that value
                    equations.append((lhs, rhs))
                else:
                    claims.append((premise, lhs, rhs))
            else:
                equations.append((lhs, rhs))
        schemas += list(premise.schemas)
        for carried in premise.carries:
            equations += list(carried)
    model.watch(schemas)
    model.claims = claims
    fixed: list = []
    for lhs, rhs in equations:
        for node, value in ((lhs, rhs), (rhs, lhs)):
            if (
                _free_quantity(node)
                and not _occurs(node, value)
                and not any(node == f for f in fixed)
                and not any(node == d[0] for d in model.definitions)
            ):
                model.fix(node, value)
                fixed.append(node)
                break
        else:
            constraints.append((lhs, rhs))
    # a fixed quantity that another premise also fixes is checked as a constraint too
    for lhs, rhs in equations:
        if (lhs, rhs) not in constraints:
            constraints.append((lhs, rhs))
    return model, constraints


def _text(expr) -> str:
    text = str(expr)
    return text if len(text) <= 160 else text[:157] + "..."


def audit_step(previous, expr, premises_chain, step_premises, *, seed: int = 0) -> StepVerdict:
    """Evaluate ``previous = expr`` in random models of the premises; return the verdict."""
    admissible = 0
    reasons: dict = {}
    residues: dict = {}
    real = False
    budget = [WORK_LIMIT]  # the evaluations all models of this step may make together
    for attempt in range(ATTEMPTS):
        if admissible >= MODELS:  # a count, never a time: the verdict is the same on every machine
            break
        rng = random.Random(f"{seed}:{attempt}:{real}")
        try:
            regime = _REGIMES[attempt % len(_REGIMES)]
            model, constraints = _build(
                rng, premises_chain, step_premises, (previous, expr), real, attempt % 2 == 0, regime, budget
            )
            failed = None
            untouched = [_difference(model, lhs, rhs) for lhs, rhs in constraints]
            for _ in range(4):
                # the premises the model does not meet yet: a free value is solved for each, then all checked again
                pending = [(lhs, rhs) for lhs, rhs in constraints + model.met if not model.solve(lhs, rhs)]
                schemas, model.schemas = model.schemas, []
                watched = list(model.met)
                model.schemas = schemas
                model.eval(previous), model.eval(expr)
                if not pending and len(model.met) == len(watched):
                    break
            model.schemas = []
            for lhs, rhs in constraints + list(model.met):
                a, b = model.eval(lhs), model.eval(rhs)
                if not agree(a, b):
                    failed = (lhs, rhs, a, b)
                    break
            if failed is not None:
                lhs, rhs, a, b = failed
                key = ("a premise the random models do not meet", f"{_text(lhs)} = {_text(rhs)}")
                reasons[key] = reasons.get(key, 0) + 1
                if (lhs, rhs) in constraints:
                    residues.setdefault((lhs, rhs), []).append(untouched[constraints.index((lhs, rhs))])
                continue
            left, right = model.eval(previous), model.eval(expr)
            for premise, lhs, rhs in model.claims:
                a, b = model.eval(lhs), model.eval(rhs)
                if not agree(a, b) and not (model.approximate and _close(a, b, model.scale)):
                    return StepVerdict(
                        REFUTED,
                        f"the {premise.kind} rule {premise.name!r} fails in a model of the premises: "
                        f"{_text(lhs)} = {_show(a)}, {_text(rhs)} = {_show(b)}",
                        admissible,
                    )
        except NotReal:
            real = True
            continue
        except Inadmissible as outside:
            key = ("every model drawn falls outside the domain", str(outside))
            reasons[key] = reasons.get(key, 0) + 1
            continue
        except Unevaluable as unknown:
            if budget[0] < 0 and admissible:
                break  # the work allowed is spent: the models evaluated so far decide
            return StepVerdict(KERNEL_ONLY, str(unknown), admissible, unknown.about)
        except (ZeroDivisionError, OverflowError, ValueError) as error:
            key = ("every model drawn falls outside the domain", f"{type(error).__name__}: {error}")
            reasons[key] = reasons.get(key, 0) + 1
            continue
        if not agree(left, right):
            # an approximate evaluation (an integral, a derivative, a limit) is held to fewer digits
            if model.approximate and _close(left, right, model.scale):
                admissible += 1
                continue
            if any(premise.schemas for premise in step_premises if premise.kind != "definition"):
                # a schema holds for every instance, and a model meets only the instances it met: the step may
                # rest on one it did not, so a difference here refutes nothing
                key = ("a schema the random models meet only at the instances they evaluate", "")
                reasons[key] = reasons.get(key, 0) + 1
                continue
            return StepVerdict(
                REFUTED,
                f"the two sides differ in a model of the premises: {_show(left)} against {_show(right)}",
                admissible,
                detail={"values": {str(k[0][1]): _show(v) for k, v in model.values.items() if k[0][0] == "sym"}},
            )
        admissible += 1
    for (lhs, rhs), values in residues.items():
        same = values[0] is not None and all(v is not None and agree(v, values[0]) for v in values)
        if len(values) >= ATTEMPTS // 2 and same and not agree(values[0], 0) and admissible == 0:
            raise Contradiction(
                f"the premise {_text(lhs)} = {_text(rhs)} fails by {_show(values[0])} in every model drawn"
            )
    if admissible:
        return StepVerdict(CONFIRMED, "", admissible)
    reason, about = max(reasons, key=lambda r: reasons[r]) if reasons else ("no model could be drawn", "")
    return StepVerdict(KERNEL_ONLY, reason, 0, about)


def _difference(model, lhs, rhs):
    """``lhs - rhs`` in the model as first drawn (before any value is solved for), shown."""
    from .models import add, mul

    try:
        return add(model.eval(lhs), mul(-1, model.eval(rhs)))
    except (Inadmissible, Unevaluable, ZeroDivisionError, ValueError, TypeError):
        return None


def _show(value) -> str:
    import mpmath

    from .models import is_exact

    return str(value) if is_exact(value) else mpmath.nstr(value, 20)


def _close(a, b, scale=0) -> bool:
    """Whether ``a`` and ``b`` agree to 12 digits of the largest value the numerical steps met."""
    import mpmath

    from .models import to_mp

    a, b = to_mp(a), to_mp(b)
    return abs(a - b) <= mpmath.mpf(10) ** -12 * max(1, abs(a), abs(b), scale)


def audit_chain(first, links, premises) -> tuple[StepVerdict, ...]:
    """The verdict on every link ``(expr, step_premises)`` of a chain starting at ``first``.

    ``premises`` are every premise of the chain (definitions and independence hold throughout). Raises
    ``Contradiction`` when the premises admit no model.
    """
    verdicts = []
    previous = first
    for index, (expr, step_premises) in enumerate(links):
        try:
            verdict = audit_step(previous, expr, tuple(premises), tuple(step_premises), seed=index)
        except (Contradiction, KeyboardInterrupt, MemoryError):
            raise
        except Exception as error:  # noqa: BLE001 - this route's own failure is no verdict on the step
            # (sympy, or this package, cannot handle something in the step): said as the reason, never a crash
            verdict = StepVerdict(KERNEL_ONLY, "the second route failed on this step", 0, type(error).__name__)
        verdicts.append(verdict)
        previous = expr
    return tuple(verdicts)
