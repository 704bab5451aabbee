"""melearn: the formulas of Chapter 2 of Zhou Zhihua's *Machine Learning* (机器学习), implemented and checked.

Every public function names the formula it implements and the book page that derives it. The names below
(``melearn.__all__``) are the project's contract, importable from the package itself. Behind them, one module per
subsection of the textbook, named as the book names it (see ``_HOMES``); what a module lists in its ``__all__`` is
public and documented on the API page of the book, and a name starting with ``_`` (or a module such as
``melearn._sorting``) is private and used by no page.

Importing the package is light: each name is imported from its module when it is first used, so computing a
metric loads numpy alone, and sympy (for derivations), SciPy (for the tests' distributions) and matplotlib
(for figures) load only when something needs them.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: Where each public name lives: one module per subsection of the textbook, in the book's order. The page of the
#: book that derives a module's formulas has the module's name (or, for sections with several pages, is listed).
_HOMES = {
    # 2.2 evaluation methods (评估方法), formula (2.1): hold-out, k-fold cross-validation, bootstrap
    "evaluation_methods": ["bootstrap_sample", "expected_out_of_bag_fraction", "holdout_split", "kfold_split"],
    # 2.3.1 error rate and accuracy (错误率与精度), formulas (2.2)-(2.7)
    "error_rate_accuracy": ["accuracy", "error_rate", "mean_squared_error"],
    # 2.3.2 precision, recall and F1 (查准率、查全率与F1), formulas (2.8)-(2.17), the P-R curve and the BEP;
    # pages precision_recall_f and macro_micro
    "precision_recall_f": [
        "break_even_point",
        "confusion",
        "f_beta",
        "macro_prf",
        "micro_prf",
        "pr_curve",
        "precision",
        "recall",
    ],
    # 2.3.3 ROC and AUC (ROC与AUC), formulas (2.18)-(2.22); pages roc_curve, auc and rank_loss
    "ranking": ["auc", "rank_loss", "roc_auc", "roc_curve"],
    # 2.3.4 cost-sensitive error rate and cost curves (代价敏感错误率与代价曲线), formulas (2.23)-(2.25);
    # page cost_curves
    "cost": [
        "cost_curve",
        "cost_sensitive_error",
        "expected_total_cost",
        "normalized_cost",
        "positive_probability_cost",
    ],
    # 2.4.1 hypothesis testing (假设检验), formulas (2.26)-(2.30): the binomial test and the t-test;
    # pages binomial_test, binomial_test_corrected and t_test
    "hypothesis_testing": ["binomial_critical_error", "t_test"],
    # 2.4.2 cross-validated t-tests (交叉验证t检验), formulas (2.31)-(2.32); page paired_t_tests
    "paired_t_tests": ["cv52_t_test", "paired_t_test"],
    # 2.4.3 McNemar's test (McNemar检验), formula (2.33); page mcnemar
    "mcnemar": ["mcnemar_test"],
    # 2.4.4 the Friedman test and the Nemenyi post-hoc test (Friedman检验与Nemenyi后续检验), formulas (2.34)-(2.36);
    # page friedman_nemenyi
    "friedman": ["friedman_test", "nemenyi_cd", "nemenyi_q"],
    # 2.5 bias and variance (偏差与方差), formulas (2.37)-(2.42); page bias_variance
    "bias_variance": ["bias_variance_by_point", "bias_variance_decomposition"],
    # the checked derivations of every page (needs sympy)
    "derivation": ["Derivation", "DerivationError", "Expectation", "Rule"],
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'melearn' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
