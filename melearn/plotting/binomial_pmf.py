r"""The binomial test drawn on the binomial distribution: formula (2.26) with the rejection region of (2.27).

Used by ``chapters/binomial_test.ipynb`` and ``chapters/binomial_test_corrected.ipynb``.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..hypothesis_testing import binomial_critical_error
from ..i18n import tr
from ._axes import check_axes, set_fonts

__all__ = ["binomial_test_pmf"]

HEADROOM = 1.6  # the y axis reaches at least this multiple of the highest bar: the legend sits above the bars
CLEARANCE = 0.04  # axes fraction kept free between the critical line's top and the legend's box


def binomial_test_pmf(ax, m, eps0, *, alpha=0.05, observed=None, accept_color="0.75", reject_color="tab:red"):
    r"""Bar chart of :math:`P(\hat\epsilon; \epsilon_0)` over :math:`\hat\epsilon`, the rejection region shaded.

    Draws the distribution (2.26) of the test error rate :math:`\hat\epsilon` when the generalization error rate
    is :math:`\epsilon_0`, colours the rejection region :math:`\hat\epsilon > \bar\epsilon` of the one-sided
    binomial test (formula (2.27) as corrected, :func:`melearn.binomial_critical_error`) and marks
    :math:`\bar\epsilon`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    m : int
        Number of test samples.
    eps0 : float
        The error rate of the hypothesis, strictly between 0 and 1.
    alpha : float, default 0.05
        The significance level, strictly between 0 and 1; keyword-only.
    observed : float, optional
        An observed test error rate to mark with a triangle.
    accept_color, reject_color : color, optional
        Colours of the bars kept and rejected.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, with the bars, the critical value and a legend stating the test's size.
    """
    check_axes(ax)
    result = binomial_critical_error(m, eps0, alpha=alpha, observed=observed)
    counts = np.arange(m + 1)
    pmf = stats.binom.pmf(counts, m, eps0)
    rejected = counts > result.critical_count
    width = 0.8 / m
    ax.bar(counts[~rejected] / m, pmf[~rejected], width=width, color=accept_color, label=tr("keep $H_0$"))
    ax.bar(
        counts[rejected] / m,
        pmf[rejected],
        width=width,
        color=reject_color,
        label=tr(rf"reject $H_0$: size $= {result.size:.4f} < \alpha = {alpha:g}$"),
    )
    # the critical line stops a little above the highest bar, leaving the top of the axes to the legend
    top = float(pmf.max())
    ax.vlines(
        result.critical_value,
        0,
        1.08 * top,
        colors="k",
        linestyles="--",
        linewidth=1,
        label=rf"$\bar\epsilon = {result.critical_count}/{m}$",
    )
    if observed is not None:
        ax.plot(
            [result.statistic],
            [0],
            marker="^",
            markersize=10,
            color="k",
            linestyle="none",
            label=tr(rf"observed $\hat\epsilon = {result.statistic:g}$"),
        )
    ax.set_xlabel(tr(r"test error rate $\hat\epsilon$"))
    ax.set_ylabel(rf"$P(\hat\epsilon;\ \epsilon_0 = {eps0:g})$")
    ax.set_title(rf"$m = {m}$, $H_0: \epsilon \leq {eps0:g}$")
    legend = ax.legend(fontsize="small", loc="upper right")
    set_fonts(ax)
    _make_room_for(legend, ax, 1.08 * top)
    return ax


def _make_room_for(legend, ax, data_top: float) -> None:
    """Raise the y axis until ``data_top`` (data units) is below ``legend``'s box, as the figure is drawn.

    The legend's height is a number of points, so its share of the axes depends on the axes' height once the
    figure is laid out and its text sized (:class:`~melearn.plotting.figure.BookFigure` raises small text): it
    is measured on the laid-out figure, and the top of the y axis set so that the highest datum stays
    ``CLEARANCE`` of the axes below the legend's box (at least ``HEADROOM`` times the highest bar).
    """
    figure = ax.get_figure(root=True)
    figure.draw_without_rendering()
    box = legend.get_window_extent(figure.canvas.get_renderer()).transformed(ax.transAxes.inverted())
    free = box.y0 - CLEARANCE
    top = data_top / 1.08 * HEADROOM
    if free > 0:
        top = max(top, data_top / free)
    ax.set_ylim(0, top)
