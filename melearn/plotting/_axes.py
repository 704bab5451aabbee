"""The one check every plotting function makes of the ``ax`` it is given."""

from __future__ import annotations

from matplotlib.axes import Axes


def check_axes(ax) -> Axes:
    """Return ``ax`` if it is a matplotlib ``Axes``; otherwise raise ``ValueError`` naming the argument."""
    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    return ax
