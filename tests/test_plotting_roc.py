"""Tests for melearn.plotting.roc: segment kinds and the drawing of ROC curves, AUC and rank-loss areas."""

from __future__ import annotations

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from melearn import rank_loss, roc_auc, roc_curve  # noqa: E402
from melearn.plotting.roc import KIND_COLORS, plot_roc, roc_segments, shade_auc, shade_rank_loss  # noqa: E402

SEED_Y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
SEED_S = np.array([0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15])


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def kinds_by_hand(y, s):
    """Group the samples by distinct score (decreasing) and classify each group by the classes it holds."""
    out = []
    for t in sorted(set(s), reverse=True):
        classes = {yi for yi, si in zip(y, s) if si == t}
        out.append("diagonal" if classes == {0, 1} else "vertical" if classes == {1} else "horizontal")
    return out


def test_seed_example_segment_kinds():
    seg = roc_segments(SEED_Y, SEED_S)
    # 0.77 +, 0.62 -, 0.58 +, 0.47 (+,-), 0.33 -, 0.23 +, 0.15 -
    assert seg.kinds.tolist() == ["vertical", "horizontal", "vertical", "diagonal", "horizontal", "vertical",
                                  "horizontal"]
    assert seg.kinds.tolist() == kinds_by_hand(SEED_Y.tolist(), SEED_S.tolist())
    assert {k: int(np.sum(seg.kinds == k)) for k in KIND_COLORS} == {"vertical": 3, "horizontal": 3, "diagonal": 1}
    assert seg.d_tp.tolist() == [1, 0, 1, 1, 0, 1, 0]
    assert seg.d_fp.tolist() == [0, 1, 0, 1, 1, 0, 1]
    c = roc_curve(SEED_Y, SEED_S)
    assert seg.fpr.tolist() == c.fpr.tolist() and seg.tpr.tolist() == c.tpr.tolist()


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 4)), min_size=2, max_size=25)
       .filter(lambda v: len({yi for yi, _ in v}) == 2))
def test_segment_kinds_match_hand_grouping(data):
    y = [yi for yi, _ in data]
    s = [float(si) for _, si in data]
    seg = roc_segments(y, s)
    assert seg.kinds.tolist() == kinds_by_hand(y, s)
    assert int(seg.d_tp.sum()) == sum(y) and int(seg.d_fp.sum()) == len(y) - sum(y)


def _segment_lines(ax):
    """The coloured segment lines drawn by plot_roc (two points, one of the kind colours)."""
    colours = {to_rgba(c): k for k, c in KIND_COLORS.items()}
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 2 and to_rgba(ln.get_color()) in colours]
    return [(colours[to_rgba(ln.get_color())], ln) for ln in lines]


def test_plot_roc_draws_each_segment_in_its_colour(ax):
    assert plot_roc(ax, SEED_Y, SEED_S) is ax
    drawn = _segment_lines(ax)
    assert [k for k, _ in drawn] == roc_segments(SEED_Y, SEED_S).kinds.tolist()
    blue = [ln for k, ln in drawn if k == "diagonal"]
    assert len(blue) == 1
    assert list(blue[0].get_xdata()) == [0.25, 0.5] and list(blue[0].get_ydata()) == [0.5, 0.75]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(legend) == 4  # chance line and the three kinds, each once
    assert any("diagonal" in t for t in legend)


def test_plot_roc_without_ties_has_no_diagonal(ax):
    s = SEED_S.copy()
    s[4] = 0.46
    plot_roc(ax, SEED_Y, s, legend=False)
    assert "diagonal" not in [k for k, _ in _segment_lines(ax)]
    assert ax.get_legend() is None


def test_plot_roc_grid_has_one_cell_per_pair(ax):
    plot_roc(ax, SEED_Y, SEED_S, grid=True, points=False)
    grid = [ln for ln in ax.get_lines() if ln.get_color() == "0.85"]
    assert len(grid) == (4 - 1) + (4 - 1)  # 3 inner vertical and 3 inner horizontal lines: 16 cells


def _polygon_area(xy):
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def test_shade_auc_area_is_the_auc(ax):
    c = roc_curve(SEED_Y, SEED_S)
    shade_auc(ax, c.fpr, c.tpr)
    area = sum(_polygon_area(p.get_xy()) for p in ax.patches)
    assert len(ax.patches) == 4  # one trapezoid per segment that moves right (3 horizontal + 1 diagonal)
    assert area == pytest.approx(roc_auc(SEED_Y, SEED_S))


def test_shade_rank_loss_area_is_the_rank_loss(ax):
    c = roc_curve(SEED_Y, SEED_S)
    coll = shade_rank_loss(ax, c.fpr, c.tpr).collections[-1]
    area = sum(_polygon_area(path.vertices) for path in coll.get_paths())
    assert area == pytest.approx(rank_loss(SEED_Y, SEED_S)) and area == pytest.approx(float(Fraction(11, 32)))


def test_bad_input(ax):
    with pytest.raises(ValueError, match="^ax must be"):
        plot_roc("not an axes", SEED_Y, SEED_S)
    with pytest.raises(ValueError, match="^y_true"):
        plot_roc(ax, [1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="^y_score"):
        roc_segments([1, 0], [0.1, np.nan])
    with pytest.raises(ValueError, match="^fpr must be non-decreasing"):
        shade_auc(ax, [0.0, 0.5, 0.25], [0.0, 0.5, 1.0])
    with pytest.raises(ValueError, match="^tpr must be non-decreasing"):
        shade_rank_loss(ax, [0.0, 0.5, 1.0], [0.0, 0.75, 0.5])
    with pytest.raises(ValueError, match="^fpr must have at least two"):
        shade_auc(ax, [0.0], [0.0])
    with pytest.raises(ValueError, match="length mismatch"):
        shade_auc(ax, [0.0, 1.0], [0.0, 0.5, 1.0])
    with pytest.raises(ValueError, match="^ax must be"):
        shade_auc(None, [0.0, 1.0], [0.0, 1.0])
