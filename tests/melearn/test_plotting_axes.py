"""Every plotting function refuses an ``ax`` that is not a matplotlib Axes, naming the argument."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from melearn.plotting._axes import check_axes  # noqa: E402
from melearn.plotting.cd_diagram import plot_cd_diagram  # noqa: E402
from melearn.plotting.cost_curve import plot_cost_curve  # noqa: E402
from melearn.plotting.pr_curve import plot_break_even_line  # noqa: E402
from melearn.plotting.roc_curve import plot_roc  # noqa: E402


def test_check_axes_accepts_axes_and_refuses_figures():
    fig, ax = plt.subplots()
    try:
        assert check_axes(ax) is ax
        with pytest.raises(ValueError, match="ax must be a matplotlib Axes, got Figure"):
            check_axes(fig)
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: plot_roc(ax, [1, 0], [0.9, 0.1]),
        lambda ax: plot_cost_curve(ax, [1, 0], [0.9, 0.1]),
        lambda ax: plot_cd_diagram(ax, [1.0, 2.0], 0.5),
        lambda ax: plot_break_even_line(ax),
    ],
)
def test_plotting_functions_refuse_a_non_axes(draw):
    with pytest.raises(ValueError, match="^ax must be"):
        draw(object())
