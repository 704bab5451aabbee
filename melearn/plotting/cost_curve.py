r"""The cost plane (the textbook's figure 2.5) and the ROC convex hull behind it: formulas (2.24)-(2.25).

Every ROC point (FPR, TPR) is a line in the cost plane, from (0, FPR) to (1, FNR) with FNR = 1 - TPR.
:func:`plot_cost_curve` draws all of them, and shades the area under their lower envelope, the expected total
cost (:func:`melearn.expected_total_cost`). :func:`plot_roc_hull` draws the ROC curve with its convex hull; the
hull's vertices are exactly the points whose lines form the envelope, and both functions colour vertex ``j`` and
its line alike. :func:`plot_cost_against_prior` draws the same normalized costs against the prior p instead of
P(+)cost: curves, not lines, when the costs differ. Used in ``chapters/cost_curves.ipynb``.
"""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps
from matplotlib.collections import LineCollection

from ..cost import cost_curve, normalized_cost
from ..i18n import tr
from ..ranking import roc_curve
from ._axes import check_axes, set_fonts

__all__ = ["hull_colors", "plot_cost_against_prior", "plot_cost_curve", "plot_roc_hull"]

_P_LABEL = r"positive probability cost $P(+)_{cost}$"
_C_LABEL = r"normalized cost $cost_{norm}$"


def hull_colors(k: int) -> np.ndarray:
    """Colour ``k`` hull vertices, in order from (0, 0) to (1, 1): an array of shape (k, 4) (RGBA)."""
    return colormaps["viridis"](np.linspace(0.0, 0.85, k))


def plot_cost_curve(
    ax,
    y_true,
    y_score,
    *,
    lines: bool = True,
    hull_lines: bool = True,
    shade: bool = True,
    color: str = "tab:red",
    alpha: float = 0.3,
    label: str | None = "lower envelope",
):
    """Draw the cost plane of a scorer onto ``ax``: one line per ROC point, and the shaded lower envelope.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    lines : bool, default True
        Draw the line from (0, FPR) to (1, FNR) of every ROC point (thin, grey).
    hull_lines : bool, default True
        Draw the lines of the ROC convex hull's vertices across the whole plane, coloured as
        :func:`plot_roc_hull` colours the vertices (see :func:`hull_colors`).
    shade : bool, default True
        Shade the area under the envelope: the expected total cost.
    color : str
        Colour of the envelope and its shading.
    alpha : float
        Opacity of the shading.
    label : str or None
        Legend label of the envelope, in English (translated here, :func:`melearn.i18n.tr`); the area is appended.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, or on bad labels or scores (as :func:`melearn.roc_curve`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_cost_curve(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]) is ax
    True
    >>> plt.close(fig)
    """
    check_axes(ax)
    roc = roc_curve(y_true, y_score)
    curve = cost_curve(y_true, y_score)
    if lines:
        left = np.column_stack((np.zeros_like(roc.fpr), roc.fpr))  # (0, FPR)
        right = np.column_stack((np.ones_like(roc.tpr), 1 - roc.tpr))  # (1, FNR)
        segments = np.stack((left, right), axis=1)
        ax.add_collection(
            LineCollection(list(segments), colors="0.55", linewidths=0.8, label=tr("one line per ROC point"))
        )
    if hull_lines:
        for fpr, tpr, c in zip(curve.fpr, curve.tpr, hull_colors(curve.fpr.size), strict=True):
            ax.plot([0, 1], [fpr, 1 - tpr], color=c, lw=1.3, ls="--")
    area = float(0.5 * np.sum(np.diff(curve.p_cost) * (curve.norm_cost[:-1] + curve.norm_cost[1:])))
    text = None if label is None else tr(f"{label} (area {area:.4f})")
    ax.plot(curve.p_cost, curve.norm_cost, color=color, lw=2.5, label=text, zorder=3)
    if shade:
        ax.fill_between(curve.p_cost, 0, curve.norm_cost, color=color, alpha=alpha, lw=0, zorder=2)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(tr(_P_LABEL))
    ax.set_ylabel(tr(_C_LABEL))
    return set_fonts(ax)


def plot_roc_hull(ax, y_true, y_score, *, curve_color: str = "0.35", label: str | None = "ROC curve"):
    """Draw the ROC curve and its convex hull onto ``ax``, the hull's vertices coloured as in the cost plane.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    curve_color : str
        Colour of the ROC curve.
    label : str or None
        Legend label of the ROC curve, in English (translated here, :func:`melearn.i18n.tr`).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, or on bad labels or scores (as :func:`melearn.roc_curve`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_roc_hull(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]) is ax
    True
    >>> plt.close(fig)
    """
    check_axes(ax)
    roc = roc_curve(y_true, y_score)
    curve = cost_curve(y_true, y_score)
    ax.plot(roc.fpr, roc.tpr, color=curve_color, lw=1.5, marker="o", ms=3, label=None if label is None else tr(label))
    ax.plot(curve.fpr, curve.tpr, color="black", lw=1.2, ls="--", label=tr("convex hull"))
    ax.scatter(curve.fpr, curve.tpr, c=hull_colors(curve.fpr.size), s=60, zorder=3, edgecolors="black", linewidths=0.6)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("false positive rate (FPR)"))
    ax.set_ylabel(tr("true positive rate (TPR)"))
    return set_fonts(ax)


def plot_cost_against_prior(
    ax, y_true, y_score, *, cost01: float, cost10: float, priors=None, color: str = "0.35", chords: bool = True
):
    """Draw the normalized cost (2.25) of every ROC point against the prior p, with the costs fixed.

    Against P(+)cost (formula (2.24)) each ROC point is a straight line from (0, FPR) to (1, FNR); against p it is
    a ratio of two linear functions with the same ends, which bends unless FNR = FPR or the costs are equal.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    cost01, cost10 : float
        The costs of a false negative and of a false positive (the textbook's names), nonnegative.
    priors : array-like, optional
        The values of p at which the curves are drawn; by default 201 points from 0 to 1.
    color : str
        Colour of the curves.
    chords : bool, default True
        Also draw, dotted, the straight chord from (0, FPR) to (1, FNR) of every curve, for comparison.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, on bad labels or scores (as :func:`melearn.roc_curve`), or on bad costs or
        priors (as :func:`melearn.normalized_cost`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_cost_against_prior(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], cost01=5.0, cost10=1.0) is ax
    True
    >>> plt.close(fig)
    """
    check_axes(ax)
    roc = roc_curve(y_true, y_score)
    p = np.linspace(0.0, 1.0, 201) if priors is None else np.asarray(priors, dtype=float)
    fnr = 1 - roc.tpr
    values = normalized_cost(fnr[:, None], roc.fpr[:, None], p[None, :], cost01, cost10)
    for k, row in enumerate(values):
        ax.plot(p, row, color=color, lw=1.2, label=tr("one curve per ROC point") if k == 0 else None)
    if chords:
        for k, (a, b) in enumerate(zip(roc.fpr, fnr, strict=True)):
            chord_label = tr("its chord (0, FPR)-(1, FNR)") if k == 0 else None
            ax.plot([0, 1], [a, b], color="0.6", lw=0.8, ls=":", label=chord_label)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("probability of a positive $p$"))
    ax.set_ylabel(tr(_C_LABEL))
    return set_fonts(ax)
