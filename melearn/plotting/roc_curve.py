r"""ROC curves drawn segment by segment: formulas (2.18)-(2.22) of section 2.3.3.

Lowering the threshold past one distinct score moves the ROC curve by one segment. If only positives have that
score, the segment goes straight up (true positives only); if only negatives, straight right (false positives
only); if a tied group holds both classes, the segment is a diagonal. :func:`roc_segments` classifies the
segments from exact integer counts, and :func:`plot_roc` draws them coloured by kind, in the pumpkin book's
colours (its notes on (2.20) and (2.21)): green for a segment that adds only true positives (up), red for one that
adds only false positives (right), blue for a tied group of both (diagonal). Each kind also has its own line
style and legend label, so the figure does not depend on telling red from green. :func:`shade_auc` fills
the trapezoids of formula (2.20) and :func:`shade_rank_loss` the area left of the curve, which is the rank loss
(2.21). Used in ``chapters/roc_curve.ipynb``, ``chapters/auc.ipynb`` and ``chapters/rank_loss.ipynb``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import as_finite_array, check_same_length
from ..i18n import template, tr
from ..ranking import threshold_counts
from ._axes import check_axes, set_fonts
from .description import note, number

__all__ = [
    "KIND_COLORS",
    "KIND_STYLES",
    "RocSegments",
    "plot_roc",
    "roc_segments",
    "roc_summary",
    "shade_auc",
    "shade_rank_loss",
]

#: The colour of each kind of segment, as in the pumpkin book's figure for (2.20)-(2.21): green when only true
#: positives are added (vertical), red when only false positives are (horizontal), blue for a tied group holding
#: both classes (diagonal).
KIND_COLORS = {"vertical": "tab:green", "horizontal": "tab:red", "diagonal": "tab:blue"}

#: The line style of each kind of segment, so that the kinds stay apart for readers who cannot tell red from
#: green (and in greyscale print): solid up, dashed right, dash-dotted diagonal.
KIND_STYLES = {"vertical": "-", "horizontal": "--", "diagonal": "-."}

_KIND_LABELS = {
    "vertical": "green, solid: true positives only (up)",
    "horizontal": "red, dashed: false positives only (right)",
    "diagonal": "blue, dash-dot: tied positives and negatives (diagonal)",
}


class RocSegments(NamedTuple):
    """The points of a ROC curve and the kind of each segment between consecutive points.

    ``kinds[i]`` is ``"vertical"``, ``"horizontal"`` or ``"diagonal"`` for the segment from point ``i`` to
    point ``i + 1``; ``d_tp[i]`` and ``d_fp[i]`` are the positives and negatives admitted along it.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    kinds: np.ndarray
    d_tp: np.ndarray
    d_fp: np.ndarray


def roc_segments(y_true, y_score) -> RocSegments:
    """The ROC curve's points and the kind of each of its segments, from exact counts.

    Parameters
    ----------
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.

    Returns
    -------
    RocSegments
        ``fpr`` and ``tpr`` as :func:`melearn.roc_curve` gives them (length n + 1 for n distinct scores),
        ``kinds`` (n strings), and the integer steps ``d_tp`` and ``d_fp`` (n each).

    Raises
    ------
    ValueError
        On empty input, a length mismatch, NaN or inf scores, labels that are not binary, or a single class.

    Notes
    -----
    The kind is decided from the integer counts of positives and negatives in each group of tied scores, never
    by comparing floating-point rates, so a segment is "diagonal" exactly when its group holds both classes.

    Examples
    --------
    >>> seg = roc_segments([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> seg.kinds.tolist()
    ['vertical', 'diagonal', 'horizontal']
    """
    counts = threshold_counts(y_true, y_score)
    tp = np.concatenate(([0], counts.tp))
    fp = np.concatenate(([0], counts.fp))
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    kinds = np.where(d_fp == 0, "vertical", np.where(d_tp == 0, "horizontal", "diagonal"))
    return RocSegments(fp / counts.m_neg, tp / counts.m_pos, kinds, d_tp, d_fp)


def plot_roc(ax, y_true, y_score, *, grid: bool = False, points: bool = True, legend: bool = True):
    """Draw the ROC curve onto ``ax``, each segment coloured by its kind, with a legend.

    Vertical segments (only true positives admitted) are green and solid, horizontal ones (only false positives)
    red and dashed, and the diagonal segment of a tied group holding both classes blue and dash-dotted (the
    pumpkin book's colours; see ``KIND_COLORS`` and ``KIND_STYLES``). The chance line FPR = TPR is drawn
    dotted and grey.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    y_true : array-like of shape (m,)
        Binary labels, {0, 1}, {-1, +1} or bool; both classes must occur.
    y_score : array-like of shape (m,)
        Finite scores; larger means more likely positive.
    grid : bool, default False
        Draw the grid of cells of width 1/m- and height 1/m+: one cell per (positive, negative) pair.
    points : bool, default True
        Mark the points of the curve.
    legend : bool, default True
        Add a legend naming the kinds of segment present.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, for chaining.

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
    >>> plot_roc(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]) is ax
    True
    >>> plt.close(fig)
    """
    check_axes(ax)
    seg = roc_segments(y_true, y_score)
    if grid:
        m_pos, m_neg = int(seg.d_tp.sum()), int(seg.d_fp.sum())
        for k in range(1, m_neg):
            ax.axvline(k / m_neg, color="0.85", lw=0.8, zorder=0)
        for k in range(1, m_pos):
            ax.axhline(k / m_pos, color="0.85", lw=0.8, zorder=0)
    ax.plot([0, 1], [0, 1], ls=":", color="0.6", lw=1, label=tr("chance (FPR = TPR)"))
    labelled = set()
    for i, kind in enumerate(seg.kinds.tolist()):
        label = tr(_KIND_LABELS[kind]) if kind not in labelled else None
        labelled.add(kind)
        ax.plot(
            seg.fpr[i : i + 2],
            seg.tpr[i : i + 2],
            color=KIND_COLORS[kind],
            ls=KIND_STYLES[kind],
            lw=2.5,
            label=label,
            solid_capstyle="round",
            dash_capstyle="round",
        )
    if points:
        ax.plot(seg.fpr, seg.tpr, "o", color="black", ms=3.5, zorder=3)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("false positive rate (FPR)"))
    ax.set_ylabel(tr("true positive rate (TPR)"))
    if legend:
        ax.legend(loc="lower right", fontsize="small")
    note(ax, roc_summary(seg))
    return set_fonts(ax)


def roc_summary(seg: RocSegments) -> str:
    """What a drawn ROC curve shows, in words (its alt text): samples, points, ends and the exact AUC (2.20).

    The AUC is summed from the integer steps, as (2.20) sums trapezoids: ``sum d_fp * (tp_before + tp_after) / 2``
    over ``m+ m-``, a fraction.

    >>> text = roc_summary(roc_segments([1, 0, 1, 1, 0, 0, 1, 0], [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]))
    >>> text.split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['ROC curve of 8 samples (4 positive, 4 negative): 8 points from (0, 0) to (1, 1), AUC = 21/32',
     'segments: 3 up, 3 right, 1 diagonal']
    """
    from fractions import Fraction

    m_pos, m_neg = int(seg.d_tp.sum()), int(seg.d_fp.sum())
    tp = np.concatenate(([0], np.cumsum(seg.d_tp)))
    twice_area = int(np.sum(seg.d_fp * (tp[:-1] + tp[1:])))
    auc = Fraction(twice_area, 2 * m_pos * m_neg)
    return template(
        "ROC curve of {m} samples ({pos} positive, {neg} negative): {n} points from {first} to {last}, AUC = {auc}"
    ).format(
        m=m_pos + m_neg,
        pos=m_pos,
        neg=m_neg,
        n=seg.fpr.size,
        first=f"({number(seg.fpr[0])}, {number(seg.tpr[0])})",
        last=f"({number(seg.fpr[-1])}, {number(seg.tpr[-1])})",
        auc=number(auc),
    ) + template("; segments: {up} up, {right} right, {diagonal} diagonal").format(
        up=int(np.sum(seg.kinds == "vertical")),
        right=int(np.sum(seg.kinds == "horizontal")),
        diagonal=int(np.sum(seg.kinds == "diagonal")),
    )


def _curve(fpr, tpr) -> tuple[np.ndarray, np.ndarray]:
    x = as_finite_array(fpr, "fpr")
    y = as_finite_array(tpr, "tpr")
    check_same_length(fpr=x, tpr=y)
    if x.size < 2:
        raise ValueError(f"fpr must have at least two points, got {x.size}")
    if np.any(np.diff(x) < 0):
        raise ValueError("fpr must be non-decreasing")
    if np.any(np.diff(y) < 0):
        raise ValueError("tpr must be non-decreasing")
    return x, y


def shade_auc(ax, fpr, tpr, *, color: str = "tab:blue", alpha: float = 0.25):
    """Fill the trapezoids of formula (2.20) under the curve through (``fpr``, ``tpr``), one per segment.

    Each trapezoid is outlined, so a reader sees the sum (2.20) term by term: a vertical segment gives an empty
    trapezoid, a horizontal one a rectangle, a diagonal one a true trapezoid.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    fpr, tpr : array-like of shape (n,)
        The curve's points, both non-decreasing, at least two.
    color : str
        Fill colour.
    alpha : float
        Fill opacity.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, or ``fpr``/``tpr`` are not two non-decreasing finite arrays of equal length
        (at least two points).
    """
    check_axes(ax)
    x, y = _curve(fpr, tpr)
    for i in range(x.size - 1):  # one polygon per segment of the curve (not per sample)
        if x[i + 1] > x[i]:
            ax.fill(
                [x[i], x[i + 1], x[i + 1], x[i]],
                [0, 0, y[i + 1], y[i]],
                facecolor=color,
                alpha=alpha,
                edgecolor=color,
                lw=0.8,
            )
    return ax


def shade_rank_loss(ax, fpr, tpr, *, color: str = "tab:orange", alpha: float = 0.3):
    """Fill the area between the curve through (``fpr``, ``tpr``) and the TPR axis: the rank loss (2.21).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    fpr, tpr : array-like of shape (n,)
        The curve's points, both non-decreasing, at least two.
    color : str
        Fill colour.
    alpha : float
        Fill opacity.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    ValueError
        As :func:`shade_auc`.
    """
    check_axes(ax)
    x, y = _curve(fpr, tpr)
    ax.fill_betweenx(y, 0, x, facecolor=color, alpha=alpha, lw=0)
    return ax
