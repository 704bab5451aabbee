"""Tests for melearn.plotting.roc_curve: segment kinds and the drawing of ROC curves, AUC and rank-loss areas."""

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
from melearn.plotting.roc_curve import (  # noqa: E402
    KIND_COLORS,
    KIND_STYLES,
    plot_roc,
    roc_segments,
    shade_auc,
    shade_rank_loss,
)
from melearn.reference.ranking import PUMPKIN_EXAMPLE  # noqa: E402

# the pumpkin book's eight-sample example (its notes on (2.20))
EXAMPLE_Y = np.array(PUMPKIN_EXAMPLE.labels)
EXAMPLE_S = np.array(PUMPKIN_EXAMPLE.scores)


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def kinds_by_hand(y, s):
    """Group the samples by distinct score (decreasing) and classify each group by the classes it holds."""
    out = []
    for t in sorted(set(s), reverse=True):
        classes = {yi for yi, si in zip(y, s, strict=True) if si == t}
        out.append("diagonal" if classes == {0, 1} else "vertical" if classes == {1} else "horizontal")
    return out


def test_pumpkin_example_segment_kinds():
    seg = roc_segments(EXAMPLE_Y, EXAMPLE_S)
    # 0.77 +, 0.62 -, 0.58 +, 0.47 (+,-), 0.33 -, 0.23 +, 0.15 -
    assert seg.kinds.tolist() == [
        "vertical",
        "horizontal",
        "vertical",
        "diagonal",
        "horizontal",
        "vertical",
        "horizontal",
    ]
    assert seg.kinds.tolist() == kinds_by_hand(EXAMPLE_Y.tolist(), EXAMPLE_S.tolist())
    assert {k: int(np.sum(seg.kinds == k)) for k in KIND_COLORS} == {"vertical": 3, "horizontal": 3, "diagonal": 1}
    assert seg.d_tp.tolist() == [1, 0, 1, 1, 0, 1, 0]
    assert seg.d_fp.tolist() == [0, 1, 0, 1, 1, 0, 1]
    c = roc_curve(EXAMPLE_Y, EXAMPLE_S)
    assert seg.fpr.tolist() == c.fpr.tolist() and seg.tpr.tolist() == c.tpr.tolist()


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 4)), min_size=2, max_size=25).filter(
        lambda v: len({yi for yi, _ in v}) == 2
    )
)
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
    assert plot_roc(ax, EXAMPLE_Y, EXAMPLE_S) is ax
    drawn = _segment_lines(ax)
    assert [k for k, _ in drawn] == roc_segments(EXAMPLE_Y, EXAMPLE_S).kinds.tolist()
    blue = [ln for k, ln in drawn if k == "diagonal"]
    assert len(blue) == 1
    assert list(blue[0].get_xdata()) == [0.25, 0.5] and list(blue[0].get_ydata()) == [0.5, 0.75]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(legend) == 4  # chance line and the three kinds, each once
    assert any("diagonal" in t for t in legend)


def test_colours_are_the_pumpkin_books():
    # the pumpkin book: green adds only true positives (up), red only false positives (right), blue both (a tie)
    assert to_rgba(KIND_COLORS["vertical"]) == to_rgba("tab:green")
    assert to_rgba(KIND_COLORS["horizontal"]) == to_rgba("tab:red")
    assert to_rgba(KIND_COLORS["diagonal"]) == to_rgba("tab:blue")
    assert len({to_rgba(c) for c in KIND_COLORS.values()}) == 3


def test_kinds_differ_in_line_style_and_label_too(ax):
    # legible without colour: every kind has its own line style, and the legend names the colour and the move
    assert len(set(KIND_STYLES.values())) == 3
    plot_roc(ax, EXAMPLE_Y, EXAMPLE_S)
    chance = [ln for ln in ax.get_lines() if ln.get_label().startswith("chance")]
    assert len(chance) == 1 and chance[0].get_linestyle() not in {KIND_STYLES[k] for k in KIND_STYLES}
    for kind, line in _segment_lines(ax):
        assert line.get_linestyle() == KIND_STYLES[kind]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("green") and "true positives only" in t for t in legend)
    assert any(t.startswith("red") and "false positives only" in t for t in legend)
    assert any(t.startswith("blue") and "tied" in t for t in legend)


def test_plot_roc_draws_the_example_in_the_pumpkin_books_colours(ax):
    # 0.77 +, 0.62 -, 0.58 +, 0.47 (+,-), 0.33 -, 0.23 +, 0.15 -: green, red, green, blue, red, green, red
    plot_roc(ax, EXAMPLE_Y, EXAMPLE_S)
    drawn = [to_rgba(ln.get_color()) for _, ln in _segment_lines(ax)]
    names = ["tab:green", "tab:red", "tab:green", "tab:blue", "tab:red", "tab:green", "tab:red"]
    assert drawn == [to_rgba(c) for c in names]


def test_plot_roc_without_ties_has_no_diagonal(ax):
    s = EXAMPLE_S.copy()
    s[4] = 0.46
    plot_roc(ax, EXAMPLE_Y, s, legend=False)
    assert "diagonal" not in [k for k, _ in _segment_lines(ax)]
    assert ax.get_legend() is None


def test_plot_roc_grid_has_one_cell_per_pair(ax):
    plot_roc(ax, EXAMPLE_Y, EXAMPLE_S, grid=True, points=False)
    grid = [ln for ln in ax.get_lines() if ln.get_color() == "0.85"]
    assert len(grid) == (4 - 1) + (4 - 1)  # 3 inner vertical and 3 inner horizontal lines: 16 cells


def _polygon_area(xy):
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def test_shade_auc_area_is_the_auc(ax):
    c = roc_curve(EXAMPLE_Y, EXAMPLE_S)
    shade_auc(ax, c.fpr, c.tpr)
    area = sum(_polygon_area(p.get_xy()) for p in ax.patches)
    assert len(ax.patches) == 4  # one trapezoid per segment that moves right (3 horizontal + 1 diagonal)
    assert area == pytest.approx(roc_auc(EXAMPLE_Y, EXAMPLE_S))


def test_shade_rank_loss_area_is_the_rank_loss(ax):
    c = roc_curve(EXAMPLE_Y, EXAMPLE_S)
    coll = shade_rank_loss(ax, c.fpr, c.tpr).collections[-1]
    area = sum(_polygon_area(path.vertices) for path in coll.get_paths())
    assert area == pytest.approx(rank_loss(EXAMPLE_Y, EXAMPLE_S)) and area == pytest.approx(float(Fraction(11, 32)))


def test_bad_input(ax):
    with pytest.raises(ValueError, match="^ax must be"):
        plot_roc("not an axes", EXAMPLE_Y, EXAMPLE_S)
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
