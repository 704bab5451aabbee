"""The public API that other code and readers rely on: names, and the fields of the records they return.

Each function is called once on a small valid input; the test checks the record's fields by name, so that a
renamed field or a dropped export fails here, not in a reader's code.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest

import melearn
from melearn.reference.ranking import PUMPKIN_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
# the pumpkin book's eight-sample example (notes on (2.20)), the running example of the book
Y, S = list(PUMPKIN_EXAMPLE.labels), list(PUMPKIN_EXAMPLE.scores)
P = [1, 1, 0, 1, 0, 0, 1, 1]

CONTRACT_FUNCTIONS = {
    # ranking, (2.18)-(2.22)
    "roc_curve", "auc", "roc_auc", "rank_loss",
    # performance measures, (2.2)-(2.17)
    "mean_squared_error", "error_rate", "accuracy", "confusion", "precision", "recall", "f_beta",
    "macro_prf", "micro_prf", "pr_curve", "break_even_point",
    # cost-sensitive evaluation, (2.23)-(2.25)
    "cost_sensitive_error", "positive_probability_cost", "normalized_cost", "expected_total_cost",
    # comparison tests, (2.26)-(2.36)
    "binomial_critical_error", "t_test", "paired_t_test", "cv52_t_test", "mcnemar_test", "friedman_test",
    "nemenyi_q", "nemenyi_cd",
    # bias and variance, (2.37)-(2.42)
    "bias_variance_decomposition",
    # evaluation methods, (2.1)
    "holdout_split", "kfold_split", "bootstrap_sample",
}  # fmt: skip


def test_every_contract_name_is_exported():
    missing = sorted(CONTRACT_FUNCTIONS - set(melearn.__all__))
    assert not missing, f"not in melearn.__all__: {missing}"
    for name in melearn.__all__:
        assert hasattr(melearn, name), name
    assert melearn.__all__ == sorted(melearn.__all__, key=str)


def test_derivation_api():
    import sympy as sp

    from melearn.derivation import Derivation, DerivationError, Expectation

    assert issubclass(DerivationError, AssertionError)
    assert melearn.Derivation is Derivation and melearn.Expectation is Expectation
    f, y = sp.symbols("f y_D")
    E = Expectation([f, y], subscript="D")
    assert {"linearity", "constant"} <= set(vars(E)) and callable(E.independent)
    d = Derivation(E(f * y))
    assert d.step(E(f) * E(y), "independence", rules=[E.independent([f], [y])]) is d
    assert d.check() is d
    tex = d._repr_latex_()
    assert r"\begin{aligned}" in tex and r"\checkmark" in tex
    d.step(E(f) * E(y) + 0 * f + sp.Integer(1) - 1 + f - f + E(y) * E(f) - E(f) * E(y), "changed after check")
    assert r"\checkmark" not in d._repr_latex_()  # a chain changed after check() shows no tick


@pytest.mark.parametrize(
    "name", sorted(set(melearn.__all__) - {"Derivation", "DerivationError", "Expectation", "Rule"})
)
def test_every_public_function_names_its_formula_and_page(name):
    doc = inspect.getdoc(getattr(melearn, name)) or ""
    assert re.search(r"\(2\.\d+\)|(table|figure|section) 2\.\d", doc, re.IGNORECASE), f"{name} names no formula"
    pages = re.findall(r"chapters/(\w+)\.ipynb", doc)
    assert pages, f"{name}'s docstring names no page that derives it"
    for page in pages:
        assert (ROOT / "chapters" / f"{page}.ipynb").is_file(), f"{name} names a missing page {page}"
    assert "Parameters" in doc and "Returns" in doc, f"{name}'s docstring lacks numpydoc sections"


def test_record_fields():
    assert set(melearn.roc_curve(Y, S)._fields) >= {"fpr", "tpr", "thresholds"}
    assert set(melearn.confusion(Y, P)._fields) >= {"tp", "fp", "fn", "tn"}
    c = melearn.confusion(Y, P)
    assert all(isinstance(getattr(c, f), int) for f in ("tp", "fp", "fn", "tn"))
    for record in (melearn.macro_prf([c, c]), melearn.micro_prf([c, c])):
        assert set(record._fields) >= {"precision", "recall", "f1"}
    assert set(melearn.pr_curve(Y, S)._fields) >= {"precision", "recall", "thresholds"}
    tests = [
        melearn.binomial_critical_error(10, 0.3, alpha=0.05),
        melearn.t_test([0.1, 0.2, 0.15, 0.12], 0.1, alpha=0.05),
        melearn.paired_t_test([0.1, 0.2, 0.15, 0.12], [0.12, 0.25, 0.16, 0.2], alpha=0.05),
        melearn.cv52_t_test(np.arange(10).reshape(5, 2) / 100 - 0.03, alpha=0.05),
        melearn.cv52_t_test(np.arange(10).reshape(5, 2) / 100 - 0.03, alpha=0.05, numerator="dietterich"),
        melearn.mcnemar_test(10, 3, alpha=0.05),
        melearn.friedman_test([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3], [0.1, 0.3, 0.2], [0.1, 0.2, 0.4]], alpha=0.05),
    ]
    for record in tests:
        assert {"statistic", "critical_value", "reject"} <= set(record._fields), type(record).__name__
        assert isinstance(record.reject, (bool, np.bool_)) or record.reject is None
    friedman = tests[-1]
    assert {"average_ranks", "chi2"} <= set(friedman._fields)
    assert friedman.statistic == friedman.f  # the contract's name for tau_F, an alias of statistic
    rng = np.random.default_rng(0)
    bv = melearn.bias_variance_decomposition(rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), np.zeros(3))
    assert set(bv._fields) >= {"error", "bias2", "variance", "noise", "cross"}
    assert np.isclose(bv.error, bv.bias2 + bv.variance + bv.noise + bv.cross, rtol=0, atol=1e-12)


def test_scalars_are_plain_python_numbers():
    for value in (
        melearn.roc_auc(Y, S),
        melearn.rank_loss(Y, S),
        melearn.auc([0, 1], [0, 1]),
        melearn.accuracy(Y, P),
        melearn.error_rate(Y, P),
        melearn.mean_squared_error([1.0, 2.0], [1.5, 2.0]),
        melearn.precision(Y, P),
        melearn.recall(Y, P),
        melearn.f_beta(Y, P),
        melearn.break_even_point(Y, S),
        melearn.cost_sensitive_error(Y, P, 2.0, 1.0),
        melearn.expected_total_cost(Y, S),
        melearn.nemenyi_q(3, alpha=0.05),
        melearn.nemenyi_cd(3, 4, alpha=0.05),
    ):
        assert type(value) in (float, int), type(value)


@pytest.mark.parametrize("rng", [0, np.random.default_rng(0)])
def test_rng_accepts_a_seed_or_a_generator(rng):
    train, test = melearn.holdout_split(Y, 0.25, rng)
    assert sorted(np.concatenate([train, test]).tolist()) == list(range(len(Y)))
    folds = melearn.kfold_split(Y, 2, 0 if isinstance(rng, int) else np.random.default_rng(0))
    assert len(folds) == 2
    in_bag, out_of_bag = melearn.bootstrap_sample(8, 0 if isinstance(rng, int) else np.random.default_rng(0))
    assert len(in_bag) == 8 and not set(out_of_bag.tolist()) & set(in_bag.tolist())


# -- one vocabulary for every test's record ---------------------------------------------------------------------
LEADING_FIELDS = ("statistic", "critical_value", "reject", "p_value", "df")


def _test_records():
    from melearn.contingency import chi2_test_of_independence

    return [
        melearn.binomial_critical_error(10, 0.3, observed=0.6),
        melearn.binomial_critical_error(10, 0.3),
        melearn.t_test([0.1, 0.2, 0.15, 0.12], 0.1),
        melearn.paired_t_test([0.1, 0.2, 0.15, 0.12], [0.12, 0.25, 0.16, 0.2]),
        melearn.cv52_t_test(np.arange(10).reshape(5, 2) / 100 - 0.03),
        melearn.mcnemar_test(10, 3),
        melearn.friedman_test([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3], [0.1, 0.3, 0.2], [0.1, 0.2, 0.4]]),
        chi2_test_of_independence([[30, 10], [10, 30]]),
    ]


def test_every_test_record_starts_with_the_same_five_fields():
    for record in _test_records():
        name = type(record).__name__
        assert record._fields[:5] == LEADING_FIELDS, name
        assert len(set(record._fields)) == len(record._fields), name


def test_the_same_thing_has_the_same_name_in_every_record():
    synonyms = {"mu", "sigma", "sigma2", "dof", "f", "tau", "crit", "pvalue"}  # the names a record must not use
    for record in _test_records():
        assert not synonyms & set(record._fields), type(record).__name__
    t = melearn.t_test([0.1, 0.2, 0.15, 0.12], 0.1)
    paired = melearn.paired_t_test([0.1, 0.2, 0.15, 0.12], [0.12, 0.25, 0.16, 0.2])
    assert np.isclose(t.mean, 0.1425) and np.isclose(paired.mean, np.mean([-0.02, -0.05, -0.01, -0.08]))
    assert np.isclose(paired.std, np.std([-0.02, -0.05, -0.01, -0.08], ddof=1))
    assert np.isclose(t.variance, np.var([0.1, 0.2, 0.15, 0.12], ddof=1))


def test_every_record_documents_each_field_under_attributes():
    for record in _test_records():
        doc = inspect.getdoc(type(record)) or ""
        assert "Attributes\n----------" in doc, type(record).__name__
        section = doc.split("Attributes\n----------", 1)[1]
        for field in record._fields:
            assert re.search(rf"^{field} : ", section, re.MULTILINE), f"{type(record).__name__}.{field} undocumented"


TEST_FUNCTIONS = [
    "binomial_critical_error",
    "t_test",
    "paired_t_test",
    "cv52_t_test",
    "mcnemar_test",
    "friedman_test",
    "nemenyi_q",
    "nemenyi_cd",
    "melearn.friedman.nemenyi_test",
    "melearn.contingency.chi2_test_of_independence",
    "melearn.paired_t_tests.paired_t_test_size",
    "melearn.paired_t_tests.cv52_t_test_size",
    "melearn.mcnemar.mcnemar_test_size",
]


@pytest.mark.parametrize("name", TEST_FUNCTIONS)
def test_alpha_is_keyword_only_with_default_005(name):
    if name.startswith("melearn."):
        module, _, attr = name.rpartition(".")
        func = getattr(__import__(module, fromlist=[attr]), attr)
    else:
        func = getattr(melearn, name)
    alpha = inspect.signature(func).parameters["alpha"]
    assert alpha.kind is inspect.Parameter.KEYWORD_ONLY and alpha.default == 0.05, name
