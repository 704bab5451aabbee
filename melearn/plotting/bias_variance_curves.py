r"""Figures of the bias-variance page (``chapters/bias_variance.ipynb``), formulas (2.37)-(2.42).

Each function draws onto the ``Axes`` it is given and returns it.
"""

from __future__ import annotations

import numpy as np

from ..i18n import tr
from ._axes import check_axes, set_fonts

__all__ = ["plot_cross_scaling", "plot_decomposition", "plot_training_label_cross"]

_COLOURS = {"bias2": "tab:blue", "variance": "tab:orange", "noise": "tab:gray", "error": "black"}


def plot_decomposition(ax, complexity, exact, measured=None, *, xlabel="polynomial degree"):
    r"""The bias-variance dilemma: :math:`\mathrm{bias}^2`, variance, noise and their sum against complexity.

    Parameters
    ----------
    ax : matplotlib Axes
    complexity : array-like of shape (k,)
        The model complexity of each column (e.g. the polynomial degree).
    exact : mapping with keys ``"bias2"``, ``"variance"``, ``"noise"``, each array-like of shape (k,)
        The terms of (2.42), drawn as lines; their sum is drawn as the expected error.
    measured : sequence of k ``BiasVariance`` records, optional
        Sample decompositions, drawn as markers on top of the lines.
    xlabel : str
        Label of the horizontal axis.
    """
    check_axes(ax)
    k = np.asarray(complexity)
    labels = {"bias2": r"$\mathrm{bias}^2$", "variance": "variance", "noise": r"noise $\varepsilon^2$"}
    total = np.zeros(k.shape, dtype=float)
    for key, label in labels.items():
        values = np.asarray(exact[key], dtype=float)
        total = total + values
        ax.plot(k, values, color=_COLOURS[key], label=tr(label), linestyle="--" if key == "noise" else "-")
    ax.plot(k, total, color=_COLOURS["error"], linewidth=2, label=tr(r"sum $E(f; D)$"))
    if measured is not None:
        for key in ("bias2", "variance", "error"):
            points = [getattr(record, key) for record in measured]
            ax.plot(k, points, "o", color=_COLOURS[key], markersize=4, markerfacecolor="none")
        ax.plot([], [], "o", color="0.3", markerfacecolor="none", label=tr("measured (sample moments)"))
    best = int(np.argmin(total))
    ax.axvline(k[best], color="0.7", linewidth=1, zorder=0)
    ax.set_xlabel(tr(xlabel))
    ax.set_ylabel(tr("squared error"))
    ax.legend(frameon=False)
    return set_fonts(ax)


def plot_cross_scaling(ax, n_training_sets, rms_cross, slope, intercept):
    r"""The cross term against the number of training sets, log-log, with the :math:`T^{-1/2}` reference.

    Parameters
    ----------
    ax : matplotlib Axes
    n_training_sets : array-like of shape (k,)
        The numbers :math:`T` of training sets.
    rms_cross : array-like of shape (k,)
        The root mean square of the ``cross`` field over repeated studies with :math:`T` training sets.
    slope, intercept : float
        The least-squares line through the points (log T, log rms): log rms = intercept + slope log T.
    """
    check_axes(ax)
    t = np.asarray(n_training_sets, dtype=float)
    rms = np.asarray(rms_cross, dtype=float)
    ax.loglog(t, rms, "o", color="tab:purple", label=tr("rms of cross"))
    ax.loglog(t, np.exp(intercept) * t**slope, color="tab:purple", linewidth=1, label=tr(f"fitted slope {slope:.3f}"))
    anchor = rms[0] * np.sqrt(t[0])
    ax.loglog(t, anchor / np.sqrt(t), color="0.5", linestyle=":", label=tr("slope $-1/2$"))
    ax.set_xlabel(tr("number of training sets $T$"))
    ax.set_ylabel(tr("rms of the cross term"))
    ax.legend(frameon=False)
    return set_fonts(ax)


def plot_training_label_cross(ax, complexity, cross_in, cross_out, theory, *, xlabel="polynomial degree"):
    r"""The cross term when the test label was in the training set, against an independent test label.

    Parameters
    ----------
    ax : matplotlib Axes
    complexity : array-like of shape (k,)
        The model complexity of each column (e.g. the polynomial degree).
    cross_in, cross_out : array-like of shape (k,)
        The ``cross`` field with the training labels as test labels, and with independent test labels.
    theory : array-like of shape (k,)
        The expected cross term with the training labels, :math:`-2\sigma^2 p / m` for least squares with
        :math:`p` parameters on :math:`m` fixed inputs (Hastie, Tibshirani and Friedman 2009, section 7.4).
    xlabel : str
        Label of the horizontal axis.
    """
    check_axes(ax)
    k = np.asarray(complexity)
    ax.plot(k, np.asarray(theory, dtype=float), color="0.5", linestyle=":", label=r"$-2\sigma^2 p / m$")
    ax.plot(k, np.asarray(cross_in, dtype=float), "o-", color="tab:red", label=tr("test label was in the training set"))
    ax.plot(k, np.asarray(cross_out, dtype=float), "s--", color="tab:green", label=tr("independent test label"))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel(tr(xlabel))
    ax.set_ylabel(tr("cross term"))
    ax.legend(frameon=False)
    return set_fonts(ax)
