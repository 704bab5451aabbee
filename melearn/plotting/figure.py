"""The figures of the book's pages: :func:`subplots`, matplotlib's ``pyplot.subplots`` with the book's text.

A page draws with ``fig, ax = subplots(...)`` and writes the words of its titles, labels and legends through
:func:`melearn.i18n.tr`; the figure then draws every text in the font of the current language
(:func:`melearn.plotting._axes.font_family`: a CJK font in Chinese), whether the page, a ``melearn.plotting``
function or matplotlib itself (tick labels, legends) created it. Nothing outside the figure is changed.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from ._axes import set_fonts

__all__ = ["BookFigure", "subplots"]


class BookFigure(Figure):
    """A matplotlib ``Figure`` that draws all its text in the font of the current language."""

    def __repr__(self) -> str:
        """As a matplotlib ``Figure`` shows itself (the text a notebook stores beside the image)."""
        return super().__repr__().replace(type(self).__name__, "Figure", 1)

    def draw(self, renderer):
        """Set the font of every text (:func:`melearn.plotting._axes.set_fonts`), then draw as matplotlib does."""
        set_fonts(self)
        return super().draw(renderer)

    def tight_layout(self, *args, **kwargs):
        """Matplotlib's tight layout, measured with the fonts the figure is drawn in."""
        set_fonts(self)
        return super().tight_layout(*args, **kwargs)

    def get_tightbbox(self, renderer=None, *args, **kwargs):
        """The tight bounding box, measured with the fonts the figure is drawn in."""
        set_fonts(self)
        return super().get_tightbbox(renderer, *args, **kwargs)


def subplots(nrows: int = 1, ncols: int = 1, **kwargs):
    """``matplotlib.pyplot.subplots`` for a page of the book: the figure is a ``BookFigure``.

    Parameters
    ----------
    nrows, ncols : int
        The grid of axes, as for ``pyplot.subplots``.
    **kwargs
        Passed on to ``pyplot.subplots`` (``figsize``, ``sharex``, ``gridspec_kw``, ...); not ``FigureClass``.

    Returns
    -------
    fig : BookFigure
    ax : matplotlib Axes or array of Axes
        As ``pyplot.subplots`` returns them.

    Raises
    ------
    ValueError
        If ``FigureClass`` is given.
    """
    import matplotlib.pyplot as plt

    if "FigureClass" in kwargs:
        raise ValueError("FigureClass must not be given: subplots draws a BookFigure")
    return plt.subplots(nrows, ncols, FigureClass=BookFigure, **kwargs)
