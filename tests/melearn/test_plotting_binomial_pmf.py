"""The binomial test's figure (melearn/plotting/binomial_pmf.py): its legend never sits on the data it explains.

Each case is drawn as the pages draw it (a book figure, two panels stacked on a phone's column, saved as a PNG)
and measured in the saved figure's pixels: the legend's box, with a clearance of a few pixels, against the box
of every bar, of the critical line and of the observed marker.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.transforms import Bbox

from melearn.plotting import subplots
from melearn.plotting.binomial_pmf import binomial_test_pmf

CLEARANCE = 4  # pixels between the legend's box and the nearest datum, so that nothing seems to touch it

# (m, eps0, observed, xlim) as the two pages draw them, and a few more shapes of the distribution
CASES = [
    (10, 0.3, None, None),
    (10, 0.3, 0.6, None),
    (100, 0.3, 0.36, (0.1, 0.55)),
    (30, 0.1, 0.2, None),
    (200, 0.5, 0.55, (0.35, 0.65)),
]


def _drawn(cases):
    fig, axes = subplots(1, len(cases), figsize=(11, 4))
    axes = np.atleast_1d(axes).ravel()
    for ax, (m, eps0, observed, xlim) in zip(axes, cases, strict=True):
        binomial_test_pmf(ax, m, eps0, alpha=0.05, observed=observed)
        if xlim is not None:
            ax.set_xlim(*xlim)
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")  # the final layout, as a notebook saves it
    return fig, axes


def _data_boxes(ax, renderer):
    boxes = [patch.get_window_extent(renderer) for patch in ax.patches if isinstance(patch, Rectangle)]
    # a LineCollection has no window extent of its own (matplotlib gives a null box): measure its segments
    for lines in ax.collections:
        if isinstance(lines, LineCollection):
            boxes += [Bbox(ax.transData.transform(segment)) for segment in lines.get_segments()]
    markers = [line for line in ax.lines if isinstance(line, Line2D) and line.get_marker() not in (None, "None", "")]
    boxes += [line.get_window_extent(renderer) for line in markers]
    return [box for box in boxes if box.width > 0 or box.height > 0]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"m={c[0]},eps0={c[1]},observed={c[2]}")
def test_the_legend_covers_no_bar_line_or_marker(case):
    fig, (ax,) = _drawn([case])
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer).padded(CLEARANCE)
    covered = [box for box in _data_boxes(ax, renderer) if legend.overlaps(box)]
    assert covered == [], f"the legend {legend} covers {covered}"


def test_both_panels_of_the_corrected_page_keep_their_legend_clear():
    fig, axes = _drawn([CASES[1], CASES[2]])
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        legend = ax.get_legend().get_window_extent(renderer).padded(CLEARANCE)
        assert not [box for box in _data_boxes(ax, renderer) if legend.overlaps(box)]
