r"""The book's interactive explorers as self-contained HTML: the states melearn computed, and a small script.

The output is deterministic, as nbval compares it byte for byte: the JSON has sorted keys and every float rounded
to 6 significant digits, and element ids come from the explorer's fixed name. Every number the page shows is
formatted here, in Python (``*_shown`` and ``*_text`` fields), so the script formats no statistic either.

Hand-written JavaScript rather than a plotting library: the three explorers need lines, dots and bars in SVG,
about 12 KB of script and 6 KB of style, where Bokeh's inline scripts for a plot with widgets weigh 1.6 MB (see
the book page ``chapters/threshold_explorer.ipynb``).
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path

import numpy as np

from ..i18n import labelled, tr, translate
from .states import COST_PAIRS, binomial_states, generated_scores, threshold_states

__all__ = [
    "Explorer",
    "bias_variance_explorer",
    "binomial_explorer",
    "dumps",
    "threshold_datasets",
    "threshold_explorer",
]

_HERE = Path(__file__).resolve().parent
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
#: what each kind of ROC segment looks like in the explorer (the colours and styles of
#: :func:`melearn.plotting.roc_curve.plot_roc`, and its legend's words, so that one translation serves both)
_KIND_LABELS = {
    "vertical": "green, solid: true positives only (up)",
    "horizontal": "red, dashed: false positives only (right)",
    "diagonal": "blue, dash-dot: tied positives and negatives (diagonal)",
}
#: the formula number of each quantity the threshold explorer shows (the Chinese edition's numbering)
COST_LABEL = "cost ratio cost01 : cost10 (false negative : false positive)"
FORMULAS = {"precision": "(2.8)", "recall": "(2.9)", "f1": "(2.10)", "tpr": "(2.18)", "fpr": "(2.19)"}


def _rounded(value):
    """``value`` with every float rounded to 6 significant digits (and -0.0 written 0.0), recursively."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"an explorer state holds a non-finite number: {number}")
        return float(f"{number:.6g}") + 0.0
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, dict):
        return {str(k): _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_rounded(v) for v in value]
    raise ValueError(f"an explorer state holds a {type(value).__name__}, which JSON cannot hold")


def dumps(data) -> str:
    """The JSON of ``data`` as embedded in a page: sorted keys, floats to 6 significant digits, ``</`` escaped.

    >>> dumps({"b": 1 / 3, "a": [2.0, None]})
    '{"a":[2.0,null],"b":0.333333}'
    """
    text = json.dumps(_rounded(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("</", "<\\/")


class Explorer:
    """An interactive figure: HTML for the book (``_repr_html_``), one line of text elsewhere."""

    def __init__(self, name: str, kind: str, body: str, data, summary: str):
        self.name, self.kind, self.body, self.data, self.summary = name, kind, body, data, summary

    def _repr_html_(self) -> str:
        script = (_HERE / "explorer.js").read_text(encoding="utf-8")
        style = (_HERE / "explorer.css").read_text(encoding="utf-8")
        return (
            f'<div class="mlx tex2jax_ignore mathjax_ignore" id="{self.name}" data-kind="{self.kind}">'
            f"<style>{style}</style>{self.body}"
            f'<script type="application/json" class="mlx-data">{dumps(self.data)}</script>'
            f"<script>{script}\nwindow.melearnExplorers({json.dumps(self.name)});</script></div>"
        )

    def __repr__(self) -> str:
        return self.summary

    @property
    def html_size(self) -> int:
        """The size in bytes (UTF-8) of the HTML the page embeds."""
        return len(self._repr_html_().encode("utf-8"))


def _check_name(name) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"name must be lower-case letters, digits and hyphens, starting with a letter, got {name!r}")
    return name


def _e(text: str) -> str:
    return html.escape(tr(text))


def _range(name: str, label: str, maximum: int, value: int) -> str:
    return (
        f'<div class="mlx-control"><label for="{{id}}-{name}">{html.escape(labelled(tr(label), ""))}'
        f'<output class="mlx-value" data-mlx="{name}-value"></output></label>'
        f'<input type="range" id="{{id}}-{name}" data-mlx="{name}" min="0" max="{maximum}" step="1" '
        f'value="{value}" aria-label="{_e(label)}"></div>'
    )


def _ticks(values, fmt="{:g}"):
    return [[float(v), fmt.format(v)] for v in values]


def _unit_axes(xlabel: str, ylabel: str, *, x=(0, 1.02)) -> dict:
    """Axes over the unit square (a little room above 1 so that a point at 1 is not cut), ticked at 0, 0.5, 1.

    Drawn 280 by 250 units, three in a row on a desktop (each about 230 px wide, its text about 12 px high).
    """
    unit = _ticks([0, 0.5, 1])
    return {
        "x": list(x),
        "y": [0, 1.02],
        "xticks": unit,
        "yticks": unit,
        "xlabel": xlabel,
        "ylabel": ylabel,
        "width": 280,
        "height": 250,
    }


# -- one threshold, four views ----------------------------------------------------------------------------------
def threshold_datasets():
    """The score sets the threshold explorer offers: the pumpkin book's eight samples and three generated ones.

    Returns
    -------
    list of dict
        Each with ``key``, ``label`` (English, translated when drawn), ``labels``, ``scores`` and ``names``. The
        first is the running example of the ROC pages, the pumpkin book's notes on (2.20) (南瓜书); the others
        come from :func:`generated_scores` with fixed seeds: a good classifier on balanced
        classes, a weak one on balanced classes, and a fair one with four negatives to each positive.
    """
    from ..reference.ranking import PUMPKIN_EXAMPLE

    sets = [
        {
            "key": "pumpkin",
            "label": "the pumpkin book's eight samples",
            "labels": list(PUMPKIN_EXAMPLE.labels),
            "scores": list(PUMPKIN_EXAMPLE.scores),
            "names": list(PUMPKIN_EXAMPLE.names),
        }
    ]
    generated = (
        ("easy", "generated: easy, 10 positives, 10 negatives", 10, 10, 2.5, 25),
        ("hard", "generated: hard, 10 positives, 10 negatives", 10, 10, 0.7, 26),
        ("imbalanced", "generated: 5 positives, 20 negatives", 5, 20, 1.5, 27),
    )
    for key, label, m_pos, m_neg, separation, seed in generated:
        labels, scores = generated_scores(m_pos, m_neg, separation, seed=seed)
        names = [f"{'p' if y else 'n'}{i + 1 if y else i + 1 - m_pos}" for i, y in enumerate(labels.tolist())]
        sets.append({"key": key, "label": label, "labels": labels.tolist(), "scores": scores.tolist(), "names": names})
    return sets


def _threshold_set(spec) -> dict:
    states = threshold_states(spec["labels"], spec["scores"], names=spec["names"])
    for stop in states["stops"]:
        t = stop["threshold"]
        stop["threshold_text"] = (
            tr("no sample predicted positive (threshold above the top score)")
            if t is None
            else tr(f"predict positive when score ≥ {t:g}")
        )
        stop["threshold_short"] = "+∞" if t is None else f"≥ {t:g}"
        for key in ("precision", "recall", "f1", "tpr", "fpr"):
            value = stop[key]
            stop[key + "_shown"] = None if value is None else f"{value:.3f}"
        stop["cost_shown"] = [f"{c:.3f}" for c in stop["cost"]]
    thresholds = [s["threshold"] for s in states["stops"]]
    for cost in states["costs"]:
        cost["ratio_text"] = f"{cost['cost01']:g} : {cost['cost10']:g}"
        cost["p_cost_shown"] = f"{cost['p_cost']:.3f}"
        best = ", ".join(
            tr("none predicted positive") if thresholds[k] is None else f"≥ {thresholds[k]:g}" for k in cost["best"]
        )
        cost["best_text"] = f"{tr('least cost at this ratio: threshold')} {best}"
    for sample in states["samples"]:
        sample["score_text"] = f"{sample['score']:g}"
    stops = [s["stop"] for s in states["samples"]]
    states["tied"] = sorted({k for k in stops if stops.count(k) > 1})
    states["label"] = tr(spec["label"])
    return states


def threshold_explorer(datasets=None, *, name="threshold-explorer", start=(0, 4), cost_start=4) -> Explorer:
    r"""One threshold, four views: a classifier's scores cut at a threshold the reader moves.

    Shows together the ranked samples with the cut, the confusion matrix (Table 2.1), P (2.8), R (2.9), F1
    (2.10), TPR (2.18) and FPR (2.19), the point on the P-R and on the ROC curve (segments in the pumpkin book's
    colours, as :func:`melearn.plotting.roc_curve.plot_roc` draws them), and the line of that ROC point in the
    cost plane (2.25) with the cost at the positive probability cost (2.24) of the chosen cost ratio. Every state
    is computed by :func:`melearn.explorers.threshold_states`.

    Parameters
    ----------
    datasets : list of dict, optional
        As :func:`threshold_datasets` returns (the default).
    name : str, default "threshold-explorer"
        The element id (lower-case letters, digits, hyphens); keyword-only.
    start : (int, int), default (0, 4)
        The data set and the stop shown first; keyword-only.
    cost_start : int, default 4
        The index in :data:`melearn.explorers.COST_PAIRS` shown first (4: 1 : 1); keyword-only.

    Returns
    -------
    Explorer

    Raises
    ------
    ValueError
        On a bad ``name``, ``start`` or ``cost_start``, or bad data (as :func:`melearn.explorers.threshold_states`).
    """
    name = _check_name(name)
    specs = threshold_datasets() if datasets is None else list(datasets)
    if not specs:
        raise ValueError("datasets must hold at least one data set")
    sets = [_threshold_set(spec) for spec in specs]
    first, stop = start
    if not (isinstance(first, int) and 0 <= first < len(sets)):
        raise ValueError(f"start must name a data set (0 to {len(sets) - 1}) and a stop, got {start!r}")
    if not (isinstance(stop, int) and 0 <= stop < len(sets[first]["stops"])):
        raise ValueError(f"start's stop must be 0 to {len(sets[first]['stops']) - 1}, got {stop!r}")
    if not (isinstance(cost_start, int) and 0 <= cost_start < len(COST_PAIRS)):
        raise ValueError(f"cost_start must be 0 to {len(COST_PAIRS) - 1}, got {cost_start!r}")
    data = {
        "sets": sets,
        "start_stop": stop,
        "cost_start": cost_start,
        "pr_axes": _unit_axes(tr("recall R"), tr("precision P")),
        "roc_axes": _unit_axes(tr("false positive rate (FPR)"), tr("true positive rate (TPR)")),
        "cost_axes": _unit_axes("P(+)cost", tr("normalized cost"), x=(0, 1)),
        "labels": {
            "score": tr("score"),
            "positive": tr("positive example"),
            "negative": tr("negative example"),
            "cut_here": tr("cut here"),
            "tie": tr("tied scores: they enter together"),
            "undefined_p": tr("0/0: undefined, nothing predicted positive"),
            "no_pr_point": tr("no P-R point: precision is 0/0 when nothing is predicted positive"),
        },
    }
    options = "".join(
        f'<option value="{i}"{" selected" if i == first else ""}>{html.escape(s["label"])}</option>'
        for i, s in enumerate(sets)
    )
    legend = "".join(
        f'<span><span class="mlx-swatch" style="border-top-color:{color};border-top-style:{style}"></span>'
        f"{_e(_KIND_LABELS[kind])}</span>"
        for kind, color, style in (
            ("vertical", "#2ca02c", "solid"),
            ("horizontal", "#d62728", "dashed"),
            ("diagonal", "#1f77b4", "dotted"),
        )
    )

    def metric(key: str, name: str, formula: str) -> str:
        return (
            f'<li><span class="mlx-eq">{FORMULAS[key]}</span> {_e(name) if name else ""} {html.escape(formula)} = '
            f'<span class="mlx-value" data-mlx="{key}"></span></li>'
        )

    body = (
        f"<h4>{_e('One threshold, four views')}</h4>"
        '<div class="mlx-controls">'
        f'<div class="mlx-control"><label for="{{id}}-data">{_e("scores")}</label>'
        f'<select id="{{id}}-data" data-mlx="data" aria-label="{_e("scores")}">{options}</select></div>'
        + _range("slider", "threshold", len(sets[first]["stops"]) - 1, stop)
        + _range(
            "cost",
            COST_LABEL,
            len(COST_PAIRS) - 1,
            cost_start,
        )
        + "</div>"
        f'<p class="mlx-note" data-mlx="threshold" aria-live="polite"></p>'
        '<div class="mlx-ranked" data-mlx="ranked" role="group" '
        f'aria-label="{_e("ranked samples, highest score first")}">'
        "</div>"
        '<div class="mlx-numbers">'
        f'<div class="mlx-panel"><h4>{_e("confusion matrix (Table 2.1)")}</h4>'
        '<table class="mlx-confusion"><thead><tr><th></th>'
        f"<th>{_e('predicted positive')}</th><th>{_e('predicted negative')}</th></tr></thead><tbody>"
        f'<tr><th>{_e("actually positive")}</th><td class="mlx-good">TP <span data-mlx="tp"></span></td>'
        f'<td class="mlx-bad">FN <span data-mlx="fn"></span></td></tr>'
        f'<tr><th>{_e("actually negative")}</th><td class="mlx-bad">FP <span data-mlx="fp"></span></td>'
        f'<td class="mlx-good">TN <span data-mlx="tn"></span></td></tr></tbody></table></div>'
        '<ul class="mlx-metrics" aria-live="polite">'
        + metric("precision", "precision", "P = TP/(TP+FP)")
        + metric("recall", "recall", "R = TP/(TP+FN)")
        + metric("f1", "", "F1 = 2TP/(m+TP-TN)")
        + metric("tpr", "true positive rate", "TPR = TP/(TP+FN)")
        + metric("fpr", "false positive rate", "FPR = FP/(TN+FP)")
        + "</ul></div>"
        '<div class="mlx-panels mlx-views">'
        f'<div class="mlx-panel"><h4>{_e("P-R curve")}</h4>'
        f'<svg data-mlx="pr" role="img" aria-label="{_e("P-R curve")}"></svg>'
        '<p class="mlx-note" data-mlx="pr-note"></p></div>'
        f'<div class="mlx-panel"><h4>{_e("ROC curve")}</h4>'
        f'<svg data-mlx="roc" role="img" aria-label="{_e("ROC curve")}"></svg>'
        '<p class="mlx-note" data-mlx="roc-note"></p></div>'
        f'<div class="mlx-panel"><h4>{_e("cost plane: the line of this ROC point (2.25)")}</h4>'
        f'<svg data-mlx="cost-plane" role="img" aria-label="{_e("cost plane")}"></svg></div>'
        "</div>"
        f'<p class="mlx-legend">{legend}</p>'
        '<p class="mlx-note">'
        f'{_e("cost ratio")} <span data-mlx="ratio"></span>: (2.24) P(+)cost = <span data-mlx="p-cost"></span>, '
        f'(2.25) {_e("normalized cost")} = <span class="mlx-value" data-mlx="cost-norm"></span>. '
        '<span data-mlx="best"></span></p>'
    ).replace("{id}", name)
    summary = tr("[interactive explorer: one threshold, four views; in print, the static figure below]")
    return Explorer(name, "threshold", body, data, summary)


# -- the binomial test ------------------------------------------------------------------------------------------
#: the mass a zoomed axis of the binomial explorer may leave out on each side
_TAIL = 1e-4


def _mass_range(p, m: int, critical) -> tuple[float, float]:
    """The x range of the binomial explorer at one m and eps0: where the mass of ``p`` (P(X = i), i = 0..m) is.

    The counts from the first whose lower tail reaches ``_TAIL`` to the last whose upper tail does, widened to
    hold the first rejected count of each critical count in ``critical`` (so the rejection region and the critical
    value are always in view) and half a bar on each side, as error rates i / m; then widened to round ticks and
    cut to [0, 1].
    """
    p = np.asarray(p, dtype=float)
    lower, upper = np.cumsum(p), np.cumsum(p[::-1])[::-1]
    first = int(np.argmax(lower >= _TAIL))
    last = int(m - np.argmax(upper[::-1] >= _TAIL))
    first = min([first, *critical])
    last = max([last, *(c + 1 for c in critical)])
    low, high = max(0.0, (first - 0.5) / m), min(1.0, (last + 0.5) / m)
    step = _nice_ceiling((high - low) / 4)
    return max(0.0, math.floor(low / step + 1e-9) * step), min(1.0, math.ceil(high / step - 1e-9) * step)


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``value`` (an axis's top)."""
    power = 10.0 ** math.floor(math.log10(value))
    return next(f * power for f in (1, 2, 2.5, 5, 10) if f * power >= value * (1 - 1e-12))


def _tick_values(low: float, high: float) -> list[float]:
    """Three to five round values from ``low`` to ``high`` (an axis's ticks)."""
    step = _nice_ceiling((high - low) / 4)
    first = math.ceil(low / step - 1e-9)
    return [round(k * step, 10) for k in range(first, int(math.floor(high / step + 1e-9)) + 1)]


def binomial_explorer(
    ms=(10, 20, 30, 50, 100),
    eps0s=(0.1, 0.2, 0.3, 0.4, 0.5),
    alphas=(0.01, 0.05, 0.1),
    *,
    name="binomial-explorer",
    start=(0, 2, 1),
) -> Explorer:
    r"""The binomial test (2.26)-(2.27) with :math:`m`, :math:`\epsilon_0` and :math:`\alpha` under the reader's hand.

    Shows the distribution of the test error rate under :math:`\epsilon = \epsilon_0` as bars, the rejection
    region :math:`\hat\epsilon > \bar\epsilon` in red, and the critical value :math:`\bar\epsilon = \bar C / m` of
    (2.27) as corrected with the test's size, from :func:`melearn.explorers.binomial_states`.

    The error-rate axis of each :math:`m` and :math:`\epsilon_0` is zoomed to where the distribution's mass is
    (all but :math:`10^{-4}` on each side, and the critical value at every :math:`\alpha`), so that at
    :math:`m = 100` the rejection region is not a sliver at one end of [0, 1].

    Parameters
    ----------
    ms, eps0s, alphas : sequence
        The grids (see :func:`melearn.explorers.binomial_states`).
    name : str, default "binomial-explorer"
        The element id; keyword-only.
    start : (int, int, int), default (0, 2, 1)
        Indices of the first m, eps0 and alpha shown (m = 10, eps0 = 0.3, alpha = 0.05); keyword-only.

    Returns
    -------
    Explorer

    Raises
    ------
    ValueError
        On a bad ``name`` or ``start``, or bad grids (as :func:`melearn.explorers.binomial_states`).
    """
    name = _check_name(name)
    grid = binomial_states(ms, eps0s, alphas)
    sizes = (len(grid["ms"]), len(grid["eps0s"]), len(grid["alphas"]))
    if len(start) != 3 or not all(isinstance(i, int) and 0 <= i < n for i, n in zip(start, sizes, strict=True)):
        raise ValueError(f"start must be three indices into the grids of sizes {sizes}, got {start!r}")
    pmf = {}
    for key, values in grid["pmf"].items():
        m, eps0 = key.split("|")
        critical = [grid["tests"][f"{key}|{a:g}"]["critical_count"] for a in grid["alphas"]]
        low, high = _mass_range(values, int(m), critical)
        top = _nice_ceiling(max(values))
        pmf[key] = {
            "p": values,
            "x": [low, high],
            "xticks": _ticks(_tick_values(low, high)),
            "ymax": top,
            "yticks": _ticks([0, top / 2, top]),
        }
    tests = {}
    for key, t in grid["tests"].items():
        m = int(key.split("|")[0])
        tests[key] = dict(
            t,
            critical_value_shown=f"{t['critical_count']}/{m} = {t['critical_value']:.3f}",
            size_shown=f"{t['size']:.4f}",
            size_one_lower_shown=f"{t['size_one_lower']:.4f}",
        )
    data = {
        "ms": [[m, f"{m}"] for m in grid["ms"]],
        "eps0s": [[f"{e:g}", f"{e:g}"] for e in grid["eps0s"]],
        "alphas": [[f"{a:g}", f"{a:g}"] for a in grid["alphas"]],
        "pmf": pmf,
        "tests": tests,
        "labels": {"x": tr("test error rate ε̂"), "y": tr("probability P(ε̂; ε₀)")},
    }
    body = (
        f"<h4>{_e('The binomial test, moved by hand')}</h4>"
        '<div class="mlx-controls">'
        + _range("m", "number of test samples m", sizes[0] - 1, start[0])
        + _range("eps0", "error rate of the hypothesis ε₀", sizes[1] - 1, start[1])
        + _range("alpha", "significance level α", sizes[2] - 1, start[2])
        + "</div>"
        f'<svg data-mlx="pmf" data-clip="{{id}}-clip" role="img" aria-label="{_e("binomial distribution (2.26)")}">'
        "</svg>"
        '<ul class="mlx-metrics" aria-live="polite">'
        f'<li><span class="mlx-eq">(2.27)</span> {_e("critical count")} C̄ = '
        f'<span class="mlx-value" data-mlx="critical-count"></span>{html.escape(translate("; "))}'
        f'{_e("critical value")} ε̄ = C̄/m = <span class="mlx-value" data-mlx="critical-value"></span></li>'
        f'<li>{_e("size of the test")} P(X > C̄) = <span class="mlx-value" data-mlx="size"></span> &lt; α = '
        '<span data-mlx="alpha-value"></span> ≤ P(X > C̄ − 1) = '
        '<span class="mlx-value" data-mlx="size-one-lower"></span></li>'
        f"<li>{_e('red bars: rejected (ε̂ > ε̄); grey bars: kept')}</li>"
        "</ul>"
    ).replace("{id}", name)
    # the α shown in the line of the size repeats the control's value: one element per data-mlx name
    body = body.replace(
        '&lt; α = <span data-mlx="alpha-value"></span>', '&lt; α = <span data-mlx="alpha-again"></span>', 1
    )
    summary = tr("[interactive explorer: the binomial test; in print, the static figure above]")
    return Explorer(name, "binomial", body, data, summary)


# -- bias and variance ------------------------------------------------------------------------------------------
def bias_variance_explorer(states, *, name="bias-variance-explorer", start=3, ylim=(0.0, 0.65)) -> Explorer:
    r"""Bias and variance (2.37)-(2.42) with the polynomial degree under the reader's hand.

    Left: bias², variance, noise and error against the degree (the sample moments of
    :func:`melearn.bias_variance_decomposition`), the chosen degree marked; right: the true function, the fits of
    a few training sets at that degree and their mean over all training sets.

    Parameters
    ----------
    states : dict
        From :func:`melearn.explorers.bias_variance_states`.
    name : str, default "bias-variance-explorer"
        The element id; keyword-only.
    start : int, default 3
        The index of the degree shown first; keyword-only.
    ylim : (float, float), default (0, 0.65)
        The range of the left panel's vertical axis; keyword-only.

    Returns
    -------
    Explorer

    Raises
    ------
    ValueError
        On a bad ``name``, ``start``, ``ylim`` or ``states``.
    """
    name = _check_name(name)
    if not isinstance(states, dict) or not {"x", "y_true", "degrees", "states"} <= set(states):
        raise ValueError("states must be the dict of melearn.explorers.bias_variance_states")
    degrees = list(states["degrees"])
    if not (isinstance(start, int) and 0 <= start < len(degrees)):
        raise ValueError(f"start must be 0 to {len(degrees) - 1}, got {start!r}")
    low, high = (float(v) for v in ylim)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"ylim must be two finite numbers, low < high, got {ylim!r}")
    shown = []
    for st in states["states"]:
        shown.append(
            dict(
                st,
                **{f"{k}_shown": f"{st[k]:.4f}" for k in ("bias2", "variance", "noise", "error")},
                cross_shown=f"{st['cross']:+.4f}",
            )
        )
    top = degrees[-1]
    data = {
        "x": states["x"],
        "y_true": states["y_true"],
        "degrees": degrees,
        "states": shown,
        "curve_axes": {
            "x": [degrees[0] - 0.3, top + 0.3],
            "y": [low, high],
            "xticks": _ticks(range(degrees[0], top + 1, 2)),
            "yticks": _ticks(_tick_values(low, high)),
            "xlabel": tr("polynomial degree"),
            "ylabel": tr("mean over the test points"),
        },
        "fit_axes": {
            "x": [0, 1],
            "y": [-2, 2],
            "xticks": _ticks([0, 0.5, 1]),
            "yticks": _ticks([-2, -1, 0, 1, 2]),
            "xlabel": "x",
            "ylabel": "f(x; D)",
        },
    }
    legend = "".join(
        f'<span><span class="mlx-swatch" style="border-top-color:{color};border-top-style:{style}"></span>'
        f"{_e(label)}</span>"
        for color, style, label in (
            ("#1f77b4", "solid", "bias²"),
            ("#ff7f0e", "dashed", "variance"),
            ("#6b7280", "dotted", "noise"),
            ("#1d1f22", "solid", "error"),
        )
    )
    fit_legend = "".join(
        f'<span><span class="mlx-swatch" style="border-top-color:{color};border-top-style:{style}"></span>'
        f"{_e(label)}</span>"
        for color, style, label in (
            ("#1d1f22", "solid", "true function"),
            ("#7aa6cf", "solid", "fits to single training sets"),
            ("#ff7f0e", "dashed", "mean fit over all training sets"),
        )
    )
    body = (
        f"<h4>{_e('Bias and variance, degree by degree')}</h4>"
        '<div class="mlx-controls">' + _range("degree", "polynomial degree", len(degrees) - 1, start) + "</div>"
        '<div class="mlx-panels">'
        f'<div class="mlx-panel"><svg data-mlx="curves" data-clip="{{id}}-clip2" role="img" '
        f'aria-label="{_e("bias, variance and error")}"></svg>'
        f'<p class="mlx-legend">{legend}</p></div>'
        f'<div class="mlx-panel"><svg data-mlx="fits" data-clip="{{id}}-clip" role="img" '
        f'aria-label="{_e("sampled fits")}"></svg><p class="mlx-legend">{fit_legend}</p></div>'
        "</div>"
        '<ul class="mlx-metrics" aria-live="polite">'
        f'<li><span class="mlx-eq">(2.42)</span> {_e("error")} <span class="mlx-value" data-mlx="error"></span> = '
        f'{_e("bias²")} <span class="mlx-value" data-mlx="bias2"></span> + '
        f'{_e("variance")} <span class="mlx-value" data-mlx="variance"></span> + '
        f'{_e("noise")} <span class="mlx-value" data-mlx="noise"></span> + '
        f'{_e("cross term")} <span class="mlx-value" data-mlx="cross"></span></li>'
        "</ul>"
    ).replace("{id}", name)
    summary = tr("[interactive explorer: bias and variance; in print, the static figure above]")
    return Explorer(name, "bias-variance", body, data, summary)
