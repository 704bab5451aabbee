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

Modules: ``chain`` (the chain and its check), ``rules``,
``operators`` (E, P, Var, Cov, indicator), ``sums`` (finite-sum
rules), ``ledger``, ``display`` (unevaluated forms for display),
``bias_variance`` (the derivation of (2.41)-(2.42)).
"""

from . import sums
from .chain import Derivation, DerivationError, Step, equal_modulo, rules_latex, show_refusal
from .display import add, frac, mul, root, say, tex
from .ledger import page_ledger, record_enumeration, record_simulation
from .operators import Cov, Expectation, Indicator, P, Var, operator
from .render import rule_list
from .rules import KINDS, Rule

__all__ = [
    "KINDS",
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
    "record_enumeration",
    "record_simulation",
    "root",
    "rule_list",
    "rules_latex",
    "say",
    "show_refusal",
    "sums",
    "tex",
]
