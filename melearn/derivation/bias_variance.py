r"""The derivation of the bias-variance decomposition, (2.41) and (2.42), as checked chains.

The textbook's seven lines of (2.41) become one chain whose every step names the rules it uses: linearity of
:math:`\mathbb{E}_D` and the expectation of a constant (cited), the definition (2.37) of :math:`\bar f(x)`, and two
hypotheses: zero-mean noise, and the independence of :math:`f(\boldsymbol x; D)` and :math:`y_D` (the reason
the pumpkin book gives for the vanishing cross term: the noise does not depend on :math:`f`). The step to (2.42)
uses (2.41) as a lemma and the definitions (2.38)-(2.40). Shown on ``chapters/bias_variance.ipynb``; the
numeric decomposition is :mod:`melearn.bias_variance`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sympy as sp

from .chain import Derivation
from .display import add, mul
from .operators import Expectation
from .rules import Rule

__all__ = ["RULE_NAMES", "BiasVarianceDerivation", "bias_variance_derivation"]

#: The names of the rules of :func:`bias_variance_derivation`, as shown beside the steps.
RULE_NAMES = (
    "linearity",
    "constant",
    "(2.37)",
    "zero-mean noise",
    "independence",
    "(2.38)",
    "(2.39)",
    "(2.40)",
)


@dataclass(frozen=True)
class BiasVarianceDerivation:
    r"""The symbols, rules and chains of the bias-variance decomposition (2.37)-(2.42).

    Attributes
    ----------
    f, f_bar, y_D, y : sympy symbols
        :math:`f(x; D)`, :math:`\bar f(x)`, :math:`y_D`, :math:`y`; :math:`f(x; D)` and :math:`y_D` are random
        under :math:`\mathbb{E}_D`, the other two are constants.
    var, bias2, eps2 : sympy symbols
        :math:`\mathrm{var}(x)`, :math:`\mathrm{bias}^2(x)`, :math:`\varepsilon^2`.
    E : Expectation
        The operator :math:`\mathbb{E}_D`.
    rules : dict of str to Rule
        Every rule the chains may use, by name (see ``RULE_NAMES``).
    chain_2_41, cross_term : Derivation
        The textbook's seven lines of (2.41), and the lemma that the cross term
        :math:`\mathbb{E}_D[2(f(x; D) - \bar f(x))(\bar f(x) - y_D)]` is zero. Not yet checked: call ``.check()``.
    """

    f: sp.Symbol
    f_bar: sp.Symbol
    y_D: sp.Symbol
    y: sp.Symbol
    var: sp.Symbol
    bias2: sp.Symbol
    eps2: sp.Symbol
    E: Expectation
    rules: dict
    chain_2_41: Derivation
    cross_term: Derivation

    def chain_2_42(self) -> Derivation:
        """The step from (2.41) to (2.42): (2.41) as a lemma (so ``chain_2_41`` must be checked), then (2.38)-(2.40)."""
        lemma = Rule.lemma("(2.41)", self.chain_2_41, source="proved above")
        options = self.chain_2_41.latex_options
        chain = Derivation(self.chain_2_41.start, lhs="E(f; D)", latex_options=options, layout="below")
        chain.step(self.chain_2_41.result, "(2.41)", rules=[lemma])
        chain.step(
            add(self.bias2, self.var, self.eps2),
            "definitions",
            rules=[self.rules[n] for n in ("(2.40)", "(2.38)", "(2.39)") if n in self.rules],
        )
        return chain


def bias_variance_derivation(omit: Iterable[str] = (), *, short: bool = False) -> BiasVarianceDerivation:
    r"""Build the textbook's derivation of the bias-variance decomposition (2.41), ready to check.

    Parameters
    ----------
    omit : iterable of str, optional
        Names of rules (see ``RULE_NAMES``) to leave out of every step, to show that a check then fails at the
        step that needs the rule.
    short : bool, optional
        Render :math:`f(x; D)` as :math:`f` and :math:`\bar f(x)` as :math:`\bar f` (a printing option only: the
        checked expressions are the same), so that long lines fit on a page.

    Returns
    -------
    BiasVarianceDerivation
        The symbols, the rules and the unchecked chains.

    Raises
    ------
    ValueError
        If ``omit`` names a rule that does not exist.

    Examples
    --------
    >>> bv = bias_variance_derivation()
    >>> bv.chain_2_41.check().checked, bv.cross_term.check().checked, bv.chain_2_42().check().checked
    (True, True, True)
    >>> len(bv.chain_2_41.steps) + 1  # the textbook's seven lines, the first being the definition of E(f; D)
    7
    >>> bias_variance_derivation(omit=["independence"]).chain_2_41.check()
    Traceback (most recent call last):
    ...
    melearn.derivation.chain.DerivationError: step 3 ('the cross term vanishes') does not follow from step 2: ...
    """
    omit = frozenset(omit)
    unknown = sorted(omit - set(RULE_NAMES))
    if unknown:
        raise ValueError(f"omit names unknown rules {unknown}; the rules are {list(RULE_NAMES)}")

    f = sp.Symbol("f(x; D)")
    f_bar = sp.Symbol(r"\bar{f}(x)")
    y_D = sp.Symbol("y_D")
    y = sp.Symbol("y")
    var = sp.Symbol(r"\operatorname{var}(x)")
    bias2 = sp.Symbol(r"\operatorname{bias}^{2}(x)")
    eps2 = sp.Symbol(r"\varepsilon^{2}")
    E = Expectation([f, y_D], subscript="D")

    rules = {
        "linearity": E.linearity,
        "constant": E.constant,
        "(2.37)": Rule.definition("(2.37)", {f_bar: E(f)}, source="(2.37)"),
        "zero-mean noise": Rule.assumption("zero-mean noise", {E(y_D): y}, source="section 2.5, before (2.41)"),
        "independence": E.independent(
            [f],
            [y_D],
            name="independence",
            source="the pumpkin book's reason for (2.41): the noise does not depend on f",
        ),
        "(2.38)": Rule.definition("(2.38)", {var: E((f - f_bar) ** 2)}, source="(2.38)"),
        "(2.39)": Rule.definition("(2.39)", {eps2: E((y_D - y) ** 2)}, source="(2.39)"),
        "(2.40)": Rule.definition("(2.40)", {bias2: (f_bar - y) ** 2}, source="(2.40)"),
    }
    rules = {name: rule for name, rule in rules.items() if name not in omit}

    def use(*names):
        return [rules[name] for name in names if name in rules]

    options: dict[str, object] = {"order": "none"}
    tf, tfb = r"f(x; D)", r"\bar f(x)"  # how the reasons write f(x; D) and f_bar(x)
    if short:
        options["symbol_names"] = {f: "f", f_bar: r"\bar f"}
        tf, tfb = "f", r"\bar f"
    mean_zero = rf"$\mathbb{{E}}_D[{tf} - {tfb}] = 0$"
    d_f = add(f, -f_bar)  # f(x; D) - f_bar(x)
    d_fy = add(f_bar, -y_D)  # f_bar(x) - y_D
    d_bias = add(f_bar, -y)  # f_bar(x) - y
    d_noise = add(y, -y_D)  # y - y_D
    var_term = E(d_f**2)

    chain = Derivation(E(add(f, -y_D) ** 2), lhs="E(f; D)", latex_options=options, layout="below")
    chain.step(E(add(f, -f_bar, f_bar, -y_D) ** 2), rf"add and subtract ${tfb}$")
    chain.step(add(var_term, E(d_fy**2), E(mul(2, d_f, d_fy))), "expand the square", rules=use("linearity"))
    chain.step(
        add(var_term, E(d_fy**2)),
        "the cross term vanishes",
        rules=use("linearity", "constant", "(2.37)", "independence"),
    )
    chain.step(add(var_term, E(add(f_bar, -y, y, -y_D) ** 2)), "add and subtract $y$")
    chain.step(
        add(var_term, E(d_bias**2), E(d_noise**2), mul(2, E(mul(d_bias, d_noise)))),
        "expand the square",
        rules=use("linearity"),
    )
    chain.step(
        add(var_term, d_bias**2, E(add(y_D, -y) ** 2)),
        rf"${tfb} - y$ is a constant",
        rules=use("linearity", "constant", "zero-mean noise"),
    )

    cross = Derivation(E(mul(2, d_f, d_fy)), latex_options=options, layout="below")
    cross.step(E(add(mul(2, d_f, d_bias), mul(2, d_f, d_noise))), "add and subtract $y$")
    cross.step(
        add(mul(2, d_bias, E(d_f)), mul(2, E(mul(d_f, d_noise)))), rf"${tfb} - y$ is a constant", rules=use("linearity")
    )
    cross.step(mul(2, E(mul(d_f, d_noise))), mean_zero, rules=use("linearity", "constant", "(2.37)"))
    cross.step(mul(2, E(d_f), E(d_noise)), "factorise", rules=use("linearity", "constant", "independence"))
    cross.step(sp.Integer(0), mean_zero, rules=use("linearity", "constant", "(2.37)"))

    return BiasVarianceDerivation(f, f_bar, y_D, y, var, bias2, eps2, E, rules, chain, cross)
