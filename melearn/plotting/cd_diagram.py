r"""Critical-difference diagrams of the Nemenyi post-hoc test: formula (2.36), the textbook's Figure 2.8.

Two styles. ``style="book"`` draws Figure 2.8 of the textbook: one row per algorithm, its average rank as a dot
and a horizontal bar of width CD centred on it; two algorithms differ significantly when their bars do not
overlap (bars of width CD centred at :math:`r_i` and :math:`r_j` overlap exactly when :math:`|r_i - r_j| < CD`).
``style="demsar"`` draws the diagram of Demšar (2006): the algorithms hang from a rank axis, a bar of length CD
is drawn for scale, and thick lines join the groups of algorithms no two of which differ significantly.
Used in ``chapters/friedman_nemenyi.ipynb``.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_choice, as_finite_array, check_positive_real
from ..i18n import joined, template, tr
from ._axes import check_axes, set_fonts
from .description import note, number

__all__ = ["nonsignificant_groups", "plot_cd_diagram"]


def _ranks_and_names(average_ranks, names) -> tuple[np.ndarray, list[str]]:
    ranks = getattr(average_ranks, "average_ranks", average_ranks)  # a FriedmanResult is accepted
    r = as_finite_array(ranks, "average_ranks")
    k = r.size
    if k < 2:
        raise ValueError(f"average_ranks must hold at least 2 algorithms, got {k}")
    if np.any(r < 1) or np.any(r > k):
        raise ValueError(f"average_ranks must lie in [1, {k}] for {k} algorithms")
    if names is None:
        names = [chr(ord("A") + i) if k <= 26 else f"algorithm {i + 1}" for i in range(k)]
    names = [str(name) for name in names]
    if len(names) != k:
        raise ValueError(f"length mismatch: names has {len(names)}, average_ranks has {k}")
    return r, names


def nonsignificant_groups(average_ranks, cd) -> list[tuple[int, ...]]:
    """The maximal groups of algorithms no two of which differ by more than ``cd`` in average rank.

    Parameters
    ----------
    average_ranks : array-like of shape (k,) or FriedmanResult
        The average ranks (or a result whose ``average_ranks`` are used).
    cd : float
        The critical difference, positive.

    Returns
    -------
    list of tuple of int
        Each group as the algorithms' indices in increasing order of average rank; groups of at least two
        algorithms, none contained in another, ordered by their best rank.

    Raises
    ------
    ValueError
        If the ranks are not finite values in [1, k] for k >= 2, or ``cd`` is not positive.

    Examples
    --------
    >>> nonsignificant_groups([1.0, 2.125, 2.875], 1.657)
    [(0, 1), (1, 2)]
    """
    r, _ = _ranks_and_names(average_ranks, None)
    cd = check_positive_real(cd, "cd")
    order = np.argsort(r, kind="stable")
    s = r[order]
    # for each algorithm (in rank order), the last one within cd of it. s[j] - s[i] is non-decreasing in j
    # (rounding is monotone), so counting the j with s[j] - s[i] <= cd finds it, with the very comparison
    # |r_i - r_j| <= cd that the Nemenyi test makes (k is small: a k x k table is cheap)
    last = np.count_nonzero(s[None, :] - s[:, None] <= cd, axis=1) - 1
    groups, reach = [], -1
    for i, j in enumerate(last.tolist()):
        if j > reach and j > i:  # not inside the previous group, and more than one algorithm
            groups.append(tuple(int(v) for v in order[i : j + 1]))
        reach = max(reach, j)
    return groups


def plot_cd_diagram(ax, average_ranks, cd, *, names=None, style: str = "book", color="tab:blue"):
    r"""Draw a critical-difference diagram of the Nemenyi test onto ``ax``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    average_ranks : array-like of shape (k,) or FriedmanResult
        The average rank of each algorithm (1 = best), or a :class:`melearn.friedman.FriedmanResult`, whose
        ``average_ranks`` are used.
    cd : float
        The critical difference, formula (2.36) (:func:`melearn.nemenyi_cd`), positive.
    names : sequence of str, optional
        The algorithms' names; "A", "B", ... by default.
    style : {"book", "demsar"}
        ``"book"``: Figure 2.8 of the textbook, one row per algorithm (in the given order, the first on top),
        a dot at its average rank and a bar of width CD centred on it. ``"demsar"``: the algorithms hang from a
        rank axis in rank order, with a CD scale bar and thick lines joining the groups of
        :func:`nonsignificant_groups`.
    color : matplotlib colour, default "tab:blue"
        The colour of the dots and bars (book style) or group lines (Demšar style).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, for chaining.

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, the ranks are not finite values in [1, k] (k >= 2), ``names`` has the wrong
        length, ``cd`` is not positive, or ``style`` is unknown.

    Notes
    -----
    Book style: the bars of algorithms i and j overlap exactly when :math:`|r_i - r_j| < CD`, so "bars do not
    overlap" reads "significantly different". Each algorithm adds one ``Line2D`` (its bar) and one dot, so the
    axes hold k lines and k dots (collections) afterwards.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_cd_diagram(ax, [1.0, 2.125, 2.875], 1.657) is ax
    True
    >>> len(ax.lines), len(ax.collections)
    (3, 3)
    >>> plt.close(fig)
    """
    check_axes(ax)
    r, names = _ranks_and_names(average_ranks, names)
    cd = check_positive_real(cd, "cd")
    style = as_choice(style, "style", ("book", "demsar"))
    draw = _book if style == "book" else _demsar
    drawn = draw(ax, r, cd, names, color)
    ranks = joined(f"{name} {number(rank)}" for name, rank in zip(names, r.tolist(), strict=True))
    groups = [g for g in nonsignificant_groups(r, cd) if len(g) > 1]
    said = joined((f"{{{joined([names[i] for i in g])}}}" for g in groups), "; ") if groups else ""
    text = template("critical-difference diagram: average ranks {ranks}, CD = {cd}").format(ranks=ranks, cd=number(cd))
    if said:
        text = template("{text}; not significantly different: {groups}").format(text=text, groups=said)
    note(ax, text)
    return set_fonts(drawn)


def _book(ax, r, cd, names, color):
    k = r.size
    y = np.arange(k, 0, -1)  # the first algorithm on top, as in Figure 2.8
    for yi, ri in zip(y.tolist(), r.tolist(), strict=True):
        ax.plot(
            [ri - cd / 2, ri + cd / 2], [yi, yi], color=color, lw=2, solid_capstyle="butt", marker="|", markersize=10
        )
        ax.scatter([ri], [yi], s=40, color=color, zorder=3, edgecolor="black", linewidth=0.6)
    ax.set_yticks(y, [tr(name) for name in names])
    ax.set_ylim(0.4, k + 0.6)
    lo = min(1.0, float(np.min(r)) - cd / 2) - 0.3
    hi = max(float(k), float(np.max(r)) + cd / 2) + 0.3
    ax.set_xlim(lo, hi)
    ax.set_xticks(np.arange(np.ceil(lo), np.floor(hi) + 1))
    ax.set_xlabel(tr("average rank"))
    ax.grid(axis="x", color="0.9", zorder=0)
    return ax


def _demsar(ax, r, cd, names, color):
    k = r.size
    order = np.argsort(r, kind="stable")
    ax.set_xlim(0.5, k + 0.5)
    half = (k + 1) // 2
    ax.set_ylim(-max(half, k - half) - 0.5, 2.2)
    ax.axis("off")
    # the rank axis, best rank (1) on the left
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for t in range(1, k + 1):
        ax.plot([t, t], [0, 0.15], color="black", lw=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=9)
    # the CD scale bar
    ax.plot([1, 1 + cd], [1.4, 1.4], color="black", lw=1.5, marker="|", markersize=8)
    ax.text(1 + cd / 2, 1.55, tr(f"CD = {cd:.3f}"), ha="center", va="bottom", fontsize=9)
    # algorithms: the better half hang to the left, the rest to the right
    for position, i in enumerate(order.tolist()):
        left = position < half
        depth = -(position + 1) if left else -(k - position)
        x_text = 0.6 if left else k + 0.4
        ax.plot([r[i], r[i], x_text], [0, depth, depth], color="0.3", lw=0.8)
        ax.text(
            x_text, depth + 0.1, tr(f"{names[i]} ({r[i]:.3f})"), ha="left" if left else "right", va="bottom", fontsize=9
        )
    # groups with no significant difference, as thick lines just below the axis
    groups = nonsignificant_groups(r, cd)
    step = min(0.2, 0.7 / max(len(groups), 1))
    for g, group in enumerate(groups):
        ys = -0.2 - step * g
        ax.plot([r[group[0]] - 0.03, r[group[-1]] + 0.03], [ys, ys], color=color, lw=3.5, solid_capstyle="round")
    return ax
