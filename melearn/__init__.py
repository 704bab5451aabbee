"""melearn: the formulas of Chapter 2 of Zhou Zhihua's *Machine Learning* (机器学习), implemented and checked.

Every public function names the formula it implements and the book page that derives it. The public names
below are the project's contract (see the API reference page of the book); the modules behind them are not.
"""

from .derivation import Derivation, DerivationError, Expectation, Rule

# section 2.2, formula (2.1): hold-out, k-fold cross-validation, bootstrap
from .splits import bootstrap_sample, expected_out_of_bag_fraction, holdout_split, kfold_split

# sections 2.3 and 2.3.1, formulas (2.2)-(2.7): mean squared error, error rate, accuracy
from .error_measures import accuracy, error_rate, mean_squared_error

# section 2.3.2, formulas (2.8)-(2.17): confusion matrix, precision, recall, F, macro/micro averages, P-R curve
from .confusion_measures import confusion, f_beta, macro_prf, micro_prf, precision, recall
from .precision_recall import break_even_point, pr_curve

# section 2.3.3, formulas (2.18)-(2.22): ROC curve, AUC, rank loss
from .ranking import auc, rank_loss, roc_auc, roc_curve

# section 2.3.4, formulas (2.23)-(2.25): cost-sensitive error rate, cost curve, expected total cost
from .cost import cost_curve, cost_sensitive_error, expected_total_cost, normalized_cost, positive_probability_cost

# section 2.4.1, formulas (2.26)-(2.30): binomial test, t-test
from .error_rate_tests import binomial_critical_error, t_test

# sections 2.4.2 and 2.4.3, formulas (2.31)-(2.33): cross-validated t-tests, McNemar's test
from .paired_tests import cv52_t_test, mcnemar_test, paired_t_test

# section 2.4.4, formulas (2.34)-(2.36): Friedman test, Nemenyi post-hoc test
from .friedman import friedman_test, nemenyi_cd, nemenyi_q

# section 2.5, formulas (2.37)-(2.42): the bias-variance decomposition
from .bias_variance import bias_variance_by_point, bias_variance_decomposition

__version__ = "0.1.0"

__all__ = [
    "Derivation",
    "DerivationError",
    "Expectation",
    "Rule",
    "accuracy",
    "auc",
    "bias_variance_by_point",
    "bias_variance_decomposition",
    "binomial_critical_error",
    "bootstrap_sample",
    "break_even_point",
    "confusion",
    "cost_curve",
    "cost_sensitive_error",
    "cv52_t_test",
    "error_rate",
    "expected_out_of_bag_fraction",
    "expected_total_cost",
    "f_beta",
    "friedman_test",
    "holdout_split",
    "kfold_split",
    "macro_prf",
    "mcnemar_test",
    "mean_squared_error",
    "micro_prf",
    "nemenyi_cd",
    "nemenyi_q",
    "normalized_cost",
    "paired_t_test",
    "positive_probability_cost",
    "pr_curve",
    "precision",
    "rank_loss",
    "recall",
    "roc_auc",
    "roc_curve",
    "t_test",
]
