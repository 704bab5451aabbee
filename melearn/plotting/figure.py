"""The figures of the book's pages: :func:`subplots`, matplotlib's ``pyplot.subplots`` with the book's text.

A page draws with ``fig, ax = subplots(...)`` and writes the words of its titles, labels and legends through
:func:`melearn.i18n.tr`; the figure then draws every text in the font of the current language
(:func:`melearn.plotting._axes.font_family`: a CJK font in Chinese), whether the page, a ``melearn.plotting``
function or matplotlib itself (tick labels, legends) created it. Nothing outside the figure is changed.

Legible on a phone
------------------
A page's figure is a PNG that the browser shrinks to the text column: about 336 CSS px on a 390 px wide phone
(358 px in the main text, 336 px inside an exercise's solution), about 760 px on a desktop. A figure
``W`` px wide shows its text at ``min(1, 336 / W)`` of its drawn size. The book's rule, held here for every page:

* **width**: a figure is at most :data:`BOOK_WIDTH` inches wide (600 px at matplotlib's 100 dpi, shown at its
  own size on a desktop). A wider ``figsize`` is narrowed to it, and a grid of several columns of panels is
  stacked into one column, panel under panel, each the full width (the axes keep the shape the page asked for,
  so ``fig, (left, right) = subplots(1, 2)`` still works; ``left`` is drawn above ``right``);
* **text**: when the figure is drawn, every text smaller than :func:`min_font_size` (tick labels, legends,
  annotations, titles, whoever made them) is enlarged to it, so that it is at least :data:`MIN_TEXT_PX` CSS px
  high at :data:`PHONE_COLUMN_PX` px display width; titles to :data:`TITLE_SCALE` times that. A text already
  larger keeps its size. At the book's width this is about 11.6 pt: 9 px on a phone, 16 px on a desktop;
* **layout**: matplotlib's constrained layout (unless the page chooses another), which makes room for the
  larger text instead of letting labels of stacked panels run into each other.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text

from ._axes import set_fonts

__all__ = [
    "BOOK_WIDTH",
    "MIN_TEXT_PX",
    "PANEL_HEIGHT_MAX",
    "PHONE_COLUMN_PX",
    "TITLE_SCALE",
    "BookFigure",
    "book_figsize",
    "min_font_size",
    "subplots",
    "text_height_px",
]

BOOK_WIDTH = 6.0
"""The widest figure of a page, in inches (a phone column's aspect; 600 px at 100 dpi)."""
PANEL_HEIGHT_MAX = 4.2
"""The tallest panel of a grid stacked into one column, in inches (two panels stay within a laptop screen)."""
PHONE_COLUMN_PX = 336
"""The narrowest column a figure is shown in on a 390 px phone, in CSS px (an exercise's solution)."""
MIN_TEXT_PX = 9.0
"""The smallest height of figure text on that phone, in CSS px (the font size, as CSS measures it)."""
TITLE_SCALE = 1.2
"""Axes titles and the figure's title are drawn at least this many times the smallest text."""


def _check_positive(name: str, value) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, got {value!r}") from None
    if not np.isfinite(number) or number <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return number


def text_height_px(size_pt: float, width_px: float, dpi: float, column_px: float = PHONE_COLUMN_PX) -> float:
    """The CSS px height of text of ``size_pt`` points in a figure ``width_px`` px wide shown in ``column_px`` px.

    The browser shows the PNG at its own width, or shrunk to the column if it is wider:
    ``size_pt / 72 * dpi * min(1, column_px / width_px)``.

    Raises
    ------
    ValueError
        If an argument is not a positive number.
    """
    size_pt = _check_positive("size_pt", size_pt)
    width_px = _check_positive("width_px", width_px)
    dpi = _check_positive("dpi", dpi)
    column_px = _check_positive("column_px", column_px)
    return size_pt / 72 * dpi * min(1.0, column_px / width_px)


def min_font_size(width_px: float, dpi: float) -> float:
    """The smallest font size, in points, that is :data:`MIN_TEXT_PX` high on a phone (see :func:`text_height_px`).

    Parameters
    ----------
    width_px : float
        The figure's width as drawn (the PNG's width), in pixels.
    dpi : float
        Its dots per inch.

    Raises
    ------
    ValueError
        If an argument is not a positive number.
    """
    return MIN_TEXT_PX / text_height_px(1.0, width_px, dpi)


def book_figsize(nrows: int, ncols: int, figsize) -> tuple[int, int, tuple[float, float]]:
    """The grid and size a figure of ``nrows`` x ``ncols`` panels and ``figsize`` inches is drawn at in the book.

    A figure at most :data:`BOOK_WIDTH` wide is kept. A wider one with one column is narrowed to it (its height
    kept); one with several columns becomes one column of ``nrows * ncols`` panels, each :data:`BOOK_WIDTH` wide
    and as high as a panel was asked to be, at most :data:`PANEL_HEIGHT_MAX`.

    Returns
    -------
    nrows, ncols : int
        The grid drawn.
    figsize : tuple of float
        Width and height in inches.

    Raises
    ------
    ValueError
        If ``nrows`` or ``ncols`` is not a positive integer, or ``figsize`` not two positive numbers.
    """
    for name, value in (("nrows", nrows), ("ncols", ncols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    try:
        width, height = figsize
    except (TypeError, ValueError):
        raise ValueError(f"figsize must be (width, height) in inches, got {figsize!r}") from None
    width, height = _check_positive("figsize width", width), _check_positive("figsize height", height)
    if width <= BOOK_WIDTH:
        return int(nrows), int(ncols), (width, height)
    if ncols == 1:
        return int(nrows), 1, (BOOK_WIDTH, height)
    panels = int(nrows) * int(ncols)
    return panels, 1, (BOOK_WIDTH, panels * min(height / nrows, PANEL_HEIGHT_MAX))


class BookFigure(Figure):
    """A matplotlib ``Figure`` that draws all its text in the font of the current language, legible on a phone."""

    def __repr__(self) -> str:
        """As a matplotlib ``Figure`` shows itself (the text a notebook stores beside the image)."""
        return super().__repr__().replace(type(self).__name__, "Figure", 1)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """No image of its own (IPython's PNG printer draws it), but the image's words: its alt text and description.

        IPython asks a displayed object for this bundle first and keeps its metadata beside the PNG its figure
        printer makes, so a notebook stores ``{"image/png": {"alt": ..., "description": ...}}`` with the image
        (see :mod:`melearn.plotting.description`).
        """
        from .description import describe

        words = describe(self)
        if not words["alt"]:
            return {}, {}
        return {}, {"image/png": words}

    def legible(self) -> float:
        """Set the font of every text and raise every text below :func:`min_font_size`; return that size (pt).

        The width is the figure's as it is being drawn (when a notebook saves it cropped to its content, the
        cropped width: the PNG's). Tick labels are raised through ``tick_params``, so that ticks matplotlib
        makes later have the size too.
        """
        set_fonts(self)
        floor = min_font_size(self.bbox.width, self.dpi)
        for ax in self.axes:
            for axis in (ax.xaxis, ax.yaxis):
                if any(float(tick.label1.get_fontsize()) < floor for tick in axis.get_major_ticks()):
                    axis.set_tick_params(which="major", labelsize=floor)
                if any(float(tick.label1.get_fontsize()) < floor for tick in axis.get_minor_ticks()):
                    axis.set_tick_params(which="minor", labelsize=floor)
        titles = [getattr(ax, name, None) for ax in self.axes for name in ("title", "_left_title", "_right_title")]
        titles.append(getattr(self, "_suptitle", None))  # matplotlib's own attributes: no public getter
        title_ids = {id(title) for title in titles if title is not None}
        for text in self.findobj(Text):
            least = floor * TITLE_SCALE if id(text) in title_ids else floor
            if float(text.get_fontsize()) < least:
                text.set_fontsize(least)
        return floor

    def draw(self, renderer):
        """Make the text legible (:meth:`legible`), then draw as matplotlib does."""
        self.legible()
        return super().draw(renderer)

    def tight_layout(self, *args, **kwargs):
        """Matplotlib's tight layout, measured with the fonts the figure is drawn in.

        A figure of :func:`subplots` is laid out by matplotlib's constrained layout each time it is drawn, which
        already makes room for every text; a page's call to ``tight_layout`` (or ``pyplot.tight_layout``) then
        keeps it rather than replacing it (matplotlib would warn and switch to a layout that ignores a figure
        legend). A figure with no layout engine or with the tight one is laid out tightly, as matplotlib does.
        """
        self.legible()
        if isinstance(self.get_layout_engine(), ConstrainedLayoutEngine):
            return None
        return super().tight_layout(*args, **kwargs)

    def get_tightbbox(self, renderer=None, *args, **kwargs):
        """The tight bounding box, measured with the fonts the figure is drawn in."""
        self.legible()
        return super().get_tightbbox(renderer, *args, **kwargs)


def subplots(nrows: int = 1, ncols: int = 1, **kwargs):
    """``matplotlib.pyplot.subplots`` for a page of the book: a ``BookFigure`` at most ``BOOK_WIDTH`` wide.

    The grid and size come from ``book_figsize``: a grid of several columns wider than the book is stacked
    into one column, and the axes are returned in the shape asked for (row by row), so page code indexes them as
    it would matplotlib's. Width ratios are then dropped (every panel is the full width); ``sharex``/``sharey``
    must be ``True`` or ``False`` for such a grid ("row" and "col" have no meaning once it is stacked).

    Parameters
    ----------
    nrows, ncols : int
        The grid of axes, as for ``pyplot.subplots``.
    **kwargs
        Passed on to ``pyplot.subplots`` (``figsize``, ``sharex``, ``gridspec_kw``, ``layout``, ...); not
        ``FigureClass``. ``layout`` defaults to ``"constrained"``.

    Returns
    -------
    fig : BookFigure
    ax : matplotlib Axes or array of Axes
        As ``pyplot.subplots`` returns them for ``nrows`` x ``ncols``.

    Raises
    ------
    ValueError
        If ``FigureClass`` is given; if the grid or ``figsize`` is not valid (``book_figsize``); if a grid to
        be stacked shares axes by "row" or "col".
    """
    import matplotlib.pyplot as plt

    if "FigureClass" in kwargs:
        raise ValueError("FigureClass must not be given: subplots draws a BookFigure")
    figsize = kwargs.pop("figsize", None)
    if figsize is None:
        figsize = plt.rcParams["figure.figsize"]
    rows, cols, size = book_figsize(nrows, ncols, figsize)
    if not any(key in kwargs for key in ("layout", "constrained_layout", "tight_layout")):
        kwargs["layout"] = "constrained"
    if (rows, cols) == (nrows, ncols):
        return plt.subplots(nrows, ncols, FigureClass=BookFigure, figsize=size, **kwargs)
    for share in ("sharex", "sharey"):
        if not isinstance(kwargs.get(share, False), (bool, np.bool_)):
            raise ValueError(f"{share} must be True or False for a grid stacked into one column, got {kwargs[share]!r}")
    gridspec_kw = dict(kwargs.pop("gridspec_kw", None) or {})
    gridspec_kw.pop("width_ratios", None)
    if "height_ratios" in gridspec_kw:
        gridspec_kw["height_ratios"] = [r for r in gridspec_kw["height_ratios"] for _ in range(ncols)]
    squeeze = kwargs.pop("squeeze", True)
    fig, axes = plt.subplots(
        rows, cols, FigureClass=BookFigure, figsize=size, gridspec_kw=gridspec_kw, squeeze=False, **kwargs
    )
    axes = np.asarray(axes).reshape(nrows, ncols)
    if squeeze:
        return fig, (axes.item() if axes.size == 1 else axes.squeeze())
    return fig, axes
