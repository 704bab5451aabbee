"""melearn: the formulas of Chapter 2 of Zhou Zhihua's *Machine Learning* (机器学习), implemented and checked.

Every public function names the formula it implements and the book page that derives it. The public names
below are the project's contract (see the API reference page of the book); the modules behind them are not.

Importing the package is light: each name is imported from its module when it is first used, so computing a
metric loads numpy alone, and sympy (for derivations), SciPy (for the tests' distributions) and matplotlib
(for figures) load only when something needs them.
"""

from __future__ import annotations

import importlib
import os

__version__ = "0.1.0"

#: Where each public name lives, in the textbook's order.
_HOMES = {
    # section 2.2, formula (2.1): hold-out, k-fold cross-validation, bootstrap
    "splits": ["bootstrap_sample", "expected_out_of_bag_fraction", "holdout_split", "kfold_split"],
    # sections 2.3 and 2.3.1, formulas (2.2)-(2.7): mean squared error, error rate, accuracy
    "error_measures": ["accuracy", "error_rate", "mean_squared_error"],
    # section 2.3.2, formulas (2.8)-(2.17): confusion matrix, precision, recall, F, macro/micro averages, P-R curve
    "confusion_measures": ["confusion", "f_beta", "macro_prf", "micro_prf", "precision", "recall"],
    "precision_recall": ["break_even_point", "pr_curve"],
    # section 2.3.3, formulas (2.18)-(2.22): ROC curve, AUC, rank loss
    "ranking": ["auc", "rank_loss", "roc_auc", "roc_curve"],
    # section 2.3.4, formulas (2.23)-(2.25): cost-sensitive error rate, cost curve, expected total cost
    "cost": [
        "cost_curve",
        "cost_sensitive_error",
        "expected_total_cost",
        "normalized_cost",
        "positive_probability_cost",
    ],
    # section 2.4.1, formulas (2.26)-(2.30): binomial test, t-test
    "error_rate_tests": ["binomial_critical_error", "t_test"],
    # sections 2.4.2 and 2.4.3, formulas (2.31)-(2.33): cross-validated t-tests, McNemar's test
    "paired_tests": ["cv52_t_test", "mcnemar_test", "paired_t_test"],
    # section 2.4.4, formulas (2.34)-(2.36): Friedman test, Nemenyi post-hoc test
    "friedman": ["friedman_test", "nemenyi_cd", "nemenyi_q"],
    # section 2.5, formulas (2.37)-(2.42): the bias-variance decomposition
    "bias_variance": ["bias_variance_by_point", "bias_variance_decomposition"],
    # the checked derivations of every page (needs sympy)
    "derivation": ["Derivation", "DerivationError", "Expectation", "Rule"],
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


# The language of the text melearn generates (derivation reasons, rule names, printed lines, figure labels): one
# setting, MELEARN_LANGUAGE (en by default; zh_CN for the Chinese edition). See melearn.i18n.
if os.environ.get("MELEARN_LANGUAGE", "en") not in ("", "en"):
    from .i18n import set_language

    set_language(os.environ["MELEARN_LANGUAGE"])
    del set_language


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'melearn' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
