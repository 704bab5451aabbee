r"""The book's interactive explorers: the states melearn computes when a page is built, and the page that shows them.

An explorer on a page of the book (a threshold slider, the binomial test's :math:`m`, :math:`\epsilon_0` and
:math:`\alpha`, a polynomial degree) shows only numbers computed here: every state it can reach is listed in a
small grid, embedded in the page as JSON, and the page's script only selects a state and draws it. Three grids:

* :func:`threshold_states`: one classifier's scores cut at each distinct score (section 2.3, formulas (2.8)-(2.10),
  (2.18)-(2.19), (2.24)-(2.25) and Table 2.1): the confusion matrix, P, R, F1, TPR and FPR, the point on the
  P-R and ROC curves, and the line of that ROC point in the cost plane with its cost at each cost ratio;
* :func:`binomial_states`: the binomial test of (2.26)-(2.27) as corrected, for :math:`m`, :math:`\epsilon_0` and
  :math:`\alpha` on small grids: the distribution of the test error rate and the critical value;
* :func:`bias_variance_states`: the decomposition (2.42) of polynomial least squares at each degree, with a few
  of the sampled fits.

:func:`generated_scores` makes the seeded score sets of different difficulty and class ratio the threshold
explorer offers besides the pumpkin book's eight samples.

Each of :func:`threshold_explorer`, :func:`binomial_explorer` and :func:`bias_variance_explorer` returns an
:class:`Explorer`, which a notebook displays as HTML: a ``<style>``, the controls (an ``<input type="range">`` per
quantity, keyboard and touch operable, each with an ``aria-label``), empty SVG panels, the grid of states as JSON,
and ``explorer.js``, which only selects the state the controls name and draws it. Nothing is loaded from elsewhere,
so the page works offline and in both editions; the labels are translated (:func:`melearn.i18n.tr`) when the page
is executed. In print the explorer is hidden (``@media print``) and a static figure stands in for it.

The package has two modules and one door: ``states.py`` computes the grids with numpy and melearn's numeric modules
only (no figures, no derivations, no catalogues), ``html.py`` writes them into a page with the script and style
beside it (``explorer.js``, ``explorer.css``); the pages import every name from ``melearn.explorers``. Neither
loads matplotlib or sympy.
"""

from .html import Explorer, bias_variance_explorer, binomial_explorer, dumps, threshold_datasets, threshold_explorer
from .states import COST_PAIRS, bias_variance_states, binomial_states, generated_scores, threshold_states

__all__ = [
    "COST_PAIRS",
    "Explorer",
    "bias_variance_explorer",
    "bias_variance_states",
    "binomial_explorer",
    "binomial_states",
    "dumps",
    "generated_scores",
    "threshold_datasets",
    "threshold_explorer",
    "threshold_states",
]
