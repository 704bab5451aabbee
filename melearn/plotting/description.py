r"""Words for a figure: the alt text and the long description a reader who does not see it gets instead.

A figure of the book is a PNG. A screen reader reads its ``alt`` attribute, so that text must say what the
figure shows; a figure that carries a result (a curve, an area, a critical difference) also gets a longer
description a reader can open. Both are generated from what is plotted, never written beside it by hand, so
they cannot drift from the figure:

* :func:`note` records a sentence for one panel (an ``Axes``), written by the function that drew it from the
  same data (:func:`melearn.plotting.roc_curve.plot_roc` notes "ROC curve of 8 samples (4 positive, 4
  negative): 7 points from (0, 0) to (1, 1), AUC = 21/32"), or by a page for a panel it draws itself;
* :func:`describe_axes` reads the panel itself: its title, its axes (label and range shown), and each plotted
  series (its legend entry, its number of points, its first and last point);
* :func:`describe` puts the panels of a figure together: ``alt`` is the notes (or, where a panel has none, its
  title or "y against x"), ``description`` is the notes and the full reading of every panel.

A :class:`~melearn.plotting.figure.BookFigure` attaches both to the image it shows in a notebook, as the PNG
output's metadata ``{"alt": ..., "description": ...}``; the book's build puts them into the page's ``<img alt>``
and a "Description" box under the figure. The text is in the current language (:mod:`melearn.i18n`): the
sentences through :func:`melearn.i18n.template`, the labels as the figure draws them (already translated).
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from fractions import Fraction

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer

from ..i18n import joined, template
from ._axes import check_axes

__all__ = ["describe", "describe_axes", "note", "notes", "number", "plain"]

_NOTES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MAX_SERIES = 8  # series read out one by one; more are counted


def note(ax, text: str) -> None:
    """Record the sentence ``text`` (already in the current language) that says what the panel ``ax`` shows.

    Raises
    ------
    ValueError
        If ``ax`` is not a matplotlib Axes or ``text`` is not a non-empty string.
    """
    check_axes(ax)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    _NOTES.setdefault(ax, []).append(text.strip())


def notes(ax) -> list[str]:
    """The sentences recorded for the panel ``ax`` by :func:`note`, in order."""
    return list(_NOTES.get(ax, []))


def number(value) -> str:
    """A number as a description says it: a fraction as ``21/32``, an integer as ``8``, else 4 significant digits.

    >>> number(Fraction(21, 32)), number(8.0), number(0.1234567), number(-0.0)
    ('21/32', '8', '0.1235', '0')
    """
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    value = float(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


# what a screen reader should meet instead of a label's TeX: its symbols as the characters they draw
_SYMBOLS = {
    **dict(
        zip(
            "alpha beta gamma delta epsilon varepsilon zeta eta theta lambda mu nu xi pi rho sigma tau phi varphi chi "
            "psi omega Gamma Delta Theta Lambda Sigma Phi Psi Omega".split(),
            "αβγδεεζηθλμνξπρστφφχψωΓΔΘΛΣΦΨΩ",
            strict=True,
        )
    ),
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~",
    "times": "×", "cdot": "·", "pm": "±", "infty": "∞", "to": "→", "in": "∈", "ldots": "…", "dots": "…",
    "sum": "Σ", "prod": "Π", "sqrt": "√", "mid": "|", "vert": "|", "lvert": "|", "rvert": "|",
}  # fmt: skip
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0304", "tilde": "\u0303"}
_FONTS = ("mathrm", "text", "textrm", "mathit", "mathbf", "boldsymbol", "operatorname", "mathsf", "mathcal")
_SUPERSCRIPT = dict(zip("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ", strict=True))
_SUBSCRIPT = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_GROUP = r"\{([^{}]*)\}"
_SCRIPT = re.compile(r"([_^])(?:\{([^{}]*)\}|(\\?[A-Za-z0-9+\-]))")


def _script(match: re.Match) -> str:
    mark, text = match.group(1), match.group(2) if match.group(2) is not None else match.group(3)
    table = _SUPERSCRIPT if mark == "^" else _SUBSCRIPT
    if text and all(char in table for char in text):
        return "".join(table[char] for char in text)
    return mark + (text if len(text) == 1 else f"({text})")


def plain(text: str) -> str:
    r"""A label as a screen reader should meet it: TeX's symbols as the characters they draw, no ``$`` or braces.

    Greek letters, relations and accents become their characters, a font command its content, and a sub- or
    superscript its Unicode form where one exists (``H_0`` as H₀, ``m^+`` as m⁺), else it stays marked (``τ_F``).

    >>> plain(r"$\tau_F$ vs $F$ (2.35)")
    'τ_F vs F (2.35)'
    >>> plain(r"$H_0$: $\epsilon \leq 0.3$; maximal at $\epsilon = \hat\epsilon$")
    'H₀: ε ≤ 0.3; maximal at ε = ε̂'
    >>> plain(r"$e_{10} = \mathrm{round}(0.7n)$, slope $m^-/m^+$, $\chi^2(2)$")
    'e₁₀ = round(0.7n), slope m⁻/m⁺, χ²(2)'
    """
    text = text.replace("$", "")
    text = re.sub(r"\\mathbb\{E\}", "𝔼", text)
    for font in _FONTS:
        text = re.sub(rf"\\{font}\s*{_GROUP}", r"\1", text)
    for accent, mark in _ACCENTS.items():  # the accent's combining mark after its letter: \hat\epsilon as ε̂
        text = re.sub(rf"\\{accent}\s*(?:{_GROUP}|(\\[A-Za-z]+|[A-Za-z]))", rf"\1\2{mark}", text)
    text = re.sub(r"\\[,;:! ]", " ", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _SYMBOLS.get(m.group(1), m.group(1)), text)
    text = _SCRIPT.sub(_script, text)
    text = text.replace("{", "").replace("}", "").replace("\\", "")
    return unicodedata.normalize("NFC", " ".join(text.split()))  # ŷ as one character where Unicode has one


def _label(artist) -> str:
    label = artist.get_label() or ""
    return "" if label.startswith("_") else plain(label)


def _point(x, y) -> str:
    return f"({number(x)}, {number(y)})"


def _series(ax) -> list[str]:
    """One sentence per labelled series of ``ax``, and one that counts the unlabelled ones."""
    said: list[str] = []
    unlabelled = 0
    for line in ax.get_lines():
        x = np.asarray(line.get_xdata(orig=False), dtype=float)
        y = np.asarray(line.get_ydata(orig=False), dtype=float)
        keep = np.isfinite(x) & np.isfinite(y)
        x, y = x[keep], y[keep]
        name = _label(line)
        if not x.size or not line.get_visible():
            continue
        if not name:
            unlabelled += 1
            continue
        if x.size == 1:
            said.append(template("{name}: the point {p}").format(name=name, p=_point(x[0], y[0])))
        else:
            said.append(
                template("{name}: {n} points from {first} to {last}").format(
                    name=name, n=x.size, first=_point(x[0], y[0]), last=_point(x[-1], y[-1])
                )
            )
    for collection in ax.collections:
        if isinstance(collection, PathCollection):
            offsets = np.asarray(collection.get_offsets())
            name = _label(collection)
            if name and offsets.size:
                said.append(template("{name}: {n} points").format(name=name, n=len(offsets)))
    for container in ax.containers:
        if isinstance(container, BarContainer):
            name = _label(container) or template("bars")
            said.append(template("{name}: {n} bars").format(name=name, n=len(container.patches)))
    if len(said) > _MAX_SERIES:
        rest = len(said) - _MAX_SERIES
        said = said[:_MAX_SERIES] + [template("{n} more series").format(n=rest)]
    if unlabelled:
        said.append(template("{n} lines without a legend entry").format(n=unlabelled))
    return said


def _heading(ax) -> str:
    """What the panel shows, in one line: its title, then its notes; or, with neither, "y against x"."""
    title = plain(ax.get_title() or ax.get_title("left") or ax.get_title("right"))
    noted = joined(notes(ax), "; ")
    if title and noted:
        return template("{title}: {text}").format(title=title, text=noted)
    if title or noted:
        return title or noted
    xlabel, ylabel = plain(ax.get_xlabel()), plain(ax.get_ylabel())
    if xlabel and ylabel:
        return template("{y} against {x}").format(y=ylabel, x=xlabel)
    return xlabel or ylabel


def _axis(ax, which: str) -> str:
    label = plain(ax.get_xlabel() if which == "x" else ax.get_ylabel())
    low, high = ax.get_xlim() if which == "x" else ax.get_ylim()
    span = template("from {low} to {high}").format(low=number(min(low, high)), high=number(max(low, high)))
    if which == "x":
        return template("horizontal axis {label}, {span}").format(label=label or "x", span=span)
    return template("vertical axis {label}, {span}").format(label=label or "y", span=span)


def _panels(fig) -> list:
    """The panels of ``fig`` a reader sees: visible axes that show something (colour bars and empty axes aside)."""
    return [ax for ax in fig.axes if ax.get_visible() and ax.axison and (ax.has_data() or notes(ax))]


def describe_axes(ax) -> str:
    """Everything :func:`describe` says of one panel: its title and notes, its axes and its series.

    Raises
    ------
    ValueError
        If ``ax`` is not a matplotlib Axes.
    """
    check_axes(ax)
    parts = [part for part in [_heading(ax)] if part]
    parts.append(joined([_axis(ax, "x"), _axis(ax, "y")], "; "))
    parts.extend(_series(ax))
    return template("{sentences}.").format(sentences=joined(parts, "; "))


def describe(fig) -> dict[str, str]:
    """The alt text and the long description of the figure ``fig``, ``{"alt": ..., "description": ...}``.

    Returns
    -------
    dict
        ``alt``: one line saying what each panel shows (its title and notes, or "y against x");
        ``description``: every panel read in full (:func:`describe_axes`), one paragraph per panel.
        Both are empty strings for a figure with no panel that shows anything.

    Raises
    ------
    ValueError
        If ``fig`` is not a matplotlib Figure.
    """
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    panels = _panels(fig)
    suptitle = getattr(fig, "_suptitle", None)  # matplotlib keeps it there; it has no public getter
    heads = [_heading(ax) for ax in panels]
    heads = [head for head in heads if head]
    if not panels:
        return {"alt": "", "description": ""}
    if len(panels) == 1:
        alt = heads[0] if heads else ""
        paragraphs = [describe_axes(panels[0])]
    else:
        alt = template("{n} panels: {panels}").format(n=len(panels), panels=joined(heads, "; "))
        paragraphs = [
            template("Panel {k}: {text}").format(k=k, text=describe_axes(ax)) for k, ax in enumerate(panels, 1)
        ]
    if suptitle is not None and suptitle.get_text().strip():
        alt = template("{title}: {text}").format(title=plain(suptitle.get_text()), text=alt)
    return {"alt": alt, "description": "\n".join(paragraphs)}
