"""melearn: the formulas of Chapter 2 of Zhou Zhihua's *Machine Learning* (机器学习), implemented and checked.

Every public function names the formula it implements and the book page that derives it. The public names
below are the project's contract (see the API reference page of the book); the modules behind them are not.
"""

from .derivation import Derivation, DerivationError, Expectation, Rule

# section 2.3.3, formulas (2.18)-(2.22): ROC curve, AUC, rank loss
from .ranking import auc, rank_loss, roc_auc, roc_curve

__version__ = "0.1.0"

__all__ = [
    "Derivation",
    "DerivationError",
    "Expectation",
    "Rule",
    "auc",
    "rank_loss",
    "roc_auc",
    "roc_curve",
]
