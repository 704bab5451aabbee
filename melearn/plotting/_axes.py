"""What every plotting function shares: the check of the ``ax`` it is given, and the font of its text."""

from __future__ import annotations

from functools import cache

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.text import Text

from ..i18n import CJK_FONTS, language


def check_axes(ax) -> Axes:
    """Return ``ax`` if it is a matplotlib ``Axes``; otherwise raise ``ValueError`` naming the argument."""
    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    return ax


@cache
def _cjk_fonts() -> tuple[str, ...]:
    """The fonts of ``melearn.i18n.CJK_FONTS`` that matplotlib can find (one added to its list if needed)."""
    from matplotlib import font_manager

    available = {font.name for font in font_manager.fontManager.ttflist}
    if not available.intersection(CJK_FONTS):  # a font installed after matplotlib's font cache was written
        for path in font_manager.findSystemFonts():
            if "wqy" in path.lower() or "cjk" in path.lower():
                font_manager.fontManager.addfont(path)
        available = {font.name for font in font_manager.fontManager.ttflist}
    return tuple(name for name in CJK_FONTS if name in available)


def font_family() -> list[str] | None:
    """The font family of figure text in the current language: ``None`` (matplotlib's own) in English.

    In Chinese: the CJK fonts that are installed (``melearn.i18n.CJK_FONTS``), then matplotlib's sans-serif
    family for any glyph they lack.
    """
    if language() == "en":
        return None
    return [*_cjk_fonts(), "sans-serif"]


def set_fonts(artist: Artist) -> Artist:
    """Draw every text of ``artist`` (an ``Axes``, a ``Figure``, a legend) in :func:`font_family`; return it.

    English changes nothing. Only ``artist`` is changed: no matplotlib setting, no other figure.
    """
    family = font_family()
    if family is not None:
        for text in artist.findobj(Text):
            text.set_fontfamily(family)
    return artist
