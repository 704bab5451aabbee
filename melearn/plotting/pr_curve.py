"""P-R curves with their break-even points (the book's figure 2.3), drawn from data rather than smoothed."""

from __future__ import annotations

from ..i18n import tr
from ..precision_recall_f import PrCurve
from ._axes import check_axes, set_fonts

__all__ = ["plot_pr_curve", "plot_break_even_line"]


def plot_pr_curve(ax, curve: PrCurve, *, label: str | None = None, bep: float | None = None, color=None, **kwargs):
    """Draw a P-R curve (recall on x, precision on y) onto ``ax``, and mark its break-even point if given.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    curve : PrCurve
        From :func:`melearn.pr_curve`. Consecutive points are joined by straight segments; no point is added
        at recall 0, where precision is undefined.
    label : str, optional
        Legend label of the curve, in English (translated here, :func:`melearn.i18n.tr`); the BEP's value is
        appended when ``bep`` is given.
    bep : float, optional
        The break-even point, from :func:`melearn.break_even_point`; drawn as a dot at (bep, bep).
    color : optional
        Matplotlib colour of the curve and its BEP.
    **kwargs
        Passed on to ``ax.plot`` for the curve.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    check_axes(ax)
    text = label
    if label is not None and bep is not None:
        text = f"{label} (BEP = {bep:.3f})"
    (line,) = ax.plot(curve.recall, curve.precision, label=None if text is None else tr(text), color=color, **kwargs)
    if bep is not None:
        ax.plot([bep], [bep], "o", color=line.get_color(), markersize=7, zorder=3)
    ax.set_xlabel(tr("recall $R$"))
    ax.set_ylabel(tr("precision $P$"))
    ax.set_xlim(0.0, 1.02)
    ax.set_ylim(0.0, 1.02)
    ax.set_aspect("equal")
    return set_fonts(ax)


def plot_break_even_line(ax, **kwargs):
    """Draw the line P = R on which every break-even point lies; returns ``ax``."""
    check_axes(ax)
    style = {"color": "0.5", "linestyle": "--", "linewidth": 1.0, "label": "$P = R$"}
    style.update(kwargs)
    if isinstance(style["label"], str):
        style["label"] = tr(style["label"])
    ax.plot([0.0, 1.0], [0.0, 1.0], **style)
    return set_fonts(ax)
