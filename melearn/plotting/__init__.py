"""Figures of the book: one module per kind of figure, each drawing onto a matplotlib ``Axes`` it is given.

Plotting functions take an ``ax`` (and return it) rather than creating figures, so a page composes them freely.
"""

from .. import _extra_figures  # noqa: F401 (first: without matplotlib, names the extra melearn[figures])
from .figure import BOOK_WIDTH, BookFigure, subplots

__all__ = ["BOOK_WIDTH", "BookFigure", "subplots"]
