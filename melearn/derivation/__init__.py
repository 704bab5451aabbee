r"""Checked derivations: the chains the pages show, the rules they use, and the ledger of what each page proves.

A page builds a ``Derivation`` (a chain of equal expressions, each step with its reason and the rules it
names), calls ``Derivation.check``, and displays it: the LaTeX a reader sees is rendered from the very
expressions that were checked, and a line is ticked only when ``check()`` proved the chain as it stands.

What the checker guarantees:

* algebra alone decides a step that names no rule: no sum, integral, derivative, limit or expectation is
  evaluated or manipulated unless a named rule does it (``melearn.derivation._algebra``);
* a false step, a step that changes nothing, and a step that names a rule it does not need are refused with
  ``DerivationError``;
* anything that contains a random quantity is random under its ``Expectation``; operators over different
  random sets are different operators;
* every rule is of one kind (definition, assumption, lemma, cited, computation) and, where it is an equation,
  states the equation it applies (``melearn.derivation.rules``);
* ``page_ledger`` summarises what a page's chains rest on; claims supported only by enumeration or simulation
  are recorded as such, with their scope, never as proved.

What the checker trusts (``TRUSTED_BASE``): sympy's algebra (``expand``, ``cancel``, ``simplify``) on expressions
whose sums, integrals, derivatives, limits and operators are unknowns, under the assumptions declared on the
symbols; sympy's evaluation of the nodes a computation rule names; and the primitive rules listed in
``TRUSTED_BASE``, each with the side conditions the kernel checks where it applies the rule. Everything else a
chain uses is a rule the page states (definition, assumption, cited result, lemma) and is listed in the ledger.

Modules:

* ``chain``: the chain and its check (``Derivation``, ``Step``, ``DerivationError``);
* ``_algebra``: the algebra a step may use without naming a rule;
* ``rules``: the named facts a step may use, each of one kind (``Rule``);
* ``operators``: the operators the pages write (E, P, Var, Cov, indicator);
* ``sums``: rules for finite sums;
* ``iverson``: Iverson brackets inside finite sums, decided on the whole range;
* ``calculus``: rules of calculus beyond sympy's evaluation (a derivative of a finite sum);
* ``limits``: rules for evaluating a limit by hand, each a cited theorem;
* ``integrals``: the integral over a data distribution and its linearity;
* ``second_route``: hands a checked chain to the independent second route (``melearn.audit``) as data;
* ``page``: the state of one page (``Page``: its definitions, unmet side conditions, chains and claims);
* ``ledger``: a page's proof ledger (what its chains proved, and what it holds without a chain);
* ``trusted``: the files a ✓ rests on (``TRUSTED_FILES``) with their line counts, as the how-to-verify page
  lists them;
* ``render``: how a chain is shown (HTML rows, LaTeX, plain text);
* ``display``: unevaluated forms that keep a formula as the textbook writes it;
* ``bias_variance``: the derivation of (2.41)-(2.42).

Pages print their lines with ``melearn.i18n.say`` and ``melearn.i18n.tr``, the one home of the reader's language.
"""

from .. import _extra_derivation  # noqa: F401 (first: without sympy, names the extra melearn[derivation])
from . import sums
from .chain import Derivation, DerivationError, Step, equal_modulo, rules_latex, show_refusal
from .display import add, frac, mul, root, tex
from .ledger import page_ledger, record_argument, record_citation, record_enumeration, record_simulation
from .operators import Cov, Expectation, Indicator, P, Var, operator
from .render import rule_list
from .rules import KINDS, Rule

#: What the checker trusts: (primitive, statement, side conditions checked where it applies). Everything a chain
#: uses beyond these is a rule the page states, and is listed in its ledger.
TRUSTED_BASE: tuple[tuple[str, str, str], ...] = (
    (
        "algebra",
        "a = b when expand, cancel or simplify reduce a - b to 0 (sums, integrals, derivatives, limits, operators "
        "are unknowns, one unknown per node up to renaming its bound variables)",
        "only the assumptions declared on the symbols; never sympy's numerical equals",
    ),
    ("computation", "sympy evaluates the nodes the rule names (doit)", "sums and products only on ranges b >= a - 1"),
    ("sums.linearity", "sum_i (c a_i + d b_i) = c sum_i a_i + d sum_i b_i", "c, d free of i; range b >= a - 1"),
    ("sums.constant_sum", "sum_{i=a}^b c = (b - a + 1) c", "c free of i; b >= a - 1"),
    ("sums.split", "sum_a^b = sum_a^C + sum_{C+1}^b", "a - 1 <= C <= b"),
    ("sums.peel_first", "sum_a^b f_i = f_a + sum_{a+1}^b f_i", "b >= a"),
    ("sums.peel_last", "sum_a^b f_i = sum_a^{b-1} f_i + f_b", "b >= a"),
    ("sums.shift_index", "sum_a^b f_i = sum_{a+s}^{b+s} f_{i-s}", "b >= a - 1"),
    (
        "sums.telescoping",
        "sum_a^b (g_{i+1} - g_i) = g_{b+1} - g_a",
        "summand equal to the difference by algebra; b >= a - 1",
    ),
    (
        "iverson.decided_on_range",
        "sum_a^b I(P(j)) f_j = sum_a^b f_j (P on all of a..b), 0 (P on none)",
        "P linear in j, decided at the ends from the bounds; enclosing bound indices read without their "
        "declared assumptions; b >= a - 1",
    ),
    ("calculus.derivative_of_sum", "d/dx sum_a^b f_i = sum_a^b df_i/dx", "finite range b >= a - 1, free of x"),
    (
        "limits.continuity",
        "lim_{t->a} g(t) = g(a)",
        "a finite real; g continuous at a (sympy); only finite sums inside",
    ),
    ("limits.continuous_outer", "lim f(g) = f(lim g)", "f continuous on the real line"),
    ("limits.reciprocal", "lim_{x->oo} g(x) = lim_{t->0+} g(1/t)", "t a positive symbol not in g"),
    (
        "limits.lhopital",
        "lim N/D = lim N'/D'",
        "N(a) = D(a) = 0, N, D, N', D' continuous at the finite a, D'(a) != 0; only finite sums inside",
    ),
    ("Expectation.linearity", "E[a X + b Y] = a E[X] + b E[Y]", "a, b not random (after unfolding definitions)"),
    ("Expectation.constant", "E[c] = c", "c not random (after unfolding definitions)"),
    ("Expectation.independent", "E[g(A) h(B)] = E[g(A)] E[h(B)]", "an assumption: A, B disjoint random groups"),
    ("IntegralOver.linearity", "int (a g + b h) = a int g + b int h", "a, b free of the integration variables"),
    (
        "equation rules",
        "definition, assumption, cited, lemma: replace each left-hand side by its right-hand side",
        "definition: a fresh name; cited and assumed schemas: not refuted by numbers at random admissible points; "
        "lemma: a checked Derivation; no two premises giving one expression different values",
    ),
)
__all__ = [
    "KINDS",
    "TRUSTED_BASE",
    "Cov",
    "Derivation",
    "DerivationError",
    "Expectation",
    "Indicator",
    "P",
    "Rule",
    "Step",
    "Var",
    "add",
    "equal_modulo",
    "frac",
    "mul",
    "operator",
    "page_ledger",
    "record_argument",
    "record_citation",
    "record_enumeration",
    "record_simulation",
    "root",
    "rule_list",
    "rules_latex",
    "show_refusal",
    "sums",
    "tex",
]
