"""The words of a figure (melearn.plotting.description): generated from what is drawn, and attached to its PNG."""

from __future__ import annotations

from fractions import Fraction

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from melearn import i18n  # noqa: E402
from melearn.plotting import subplots  # noqa: E402
from melearn.plotting.cd_diagram import plot_cd_diagram  # noqa: E402
from melearn.plotting.description import describe, describe_axes, note, number, plain  # noqa: E402
from melearn.plotting.roc_curve import plot_roc, roc_segments, roc_summary  # noqa: E402

# the pumpkin book's eight-sample example (its notes on (2.20))
LABELS = [1, 0, 1, 1, 0, 0, 1, 0]
SCORES = [0.77, 0.62, 0.58, 0.47, 0.47, 0.33, 0.23, 0.15]


@pytest.fixture(autouse=True)
def _english_and_closed():
    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)
    plt.close("all")


def test_roc_alt_text_states_the_exact_auc_of_the_drawn_curve():
    fig, ax = subplots(figsize=(5, 5))
    plot_roc(ax, LABELS, SCORES)
    alt = describe(fig)["alt"]
    assert alt.startswith("ROC curve of 8 samples (4 positive, 4 negative): 8 points from (0, 0) to (1, 1)")
    assert "AUC = 21/32" in alt and "1 diagonal" in alt


def test_the_auc_in_words_is_the_trapezoid_sum_of_another_route():
    from melearn import rank_loss, roc_auc

    for labels, scores in [(LABELS, SCORES), ([1, 0, 1, 0, 0], [0.9, 0.9, 0.4, 0.4, 0.1])]:
        text = roc_summary(roc_segments(labels, scores))
        said = Fraction(text.split("AUC = ")[1].split(";")[0])
        assert float(said) == pytest.approx(roc_auc(labels, scores), abs=1e-12)
        assert float(1 - said) == pytest.approx(rank_loss(labels, scores), abs=1e-12)  # (2.22)


def test_a_changed_figure_changes_its_words():
    fig, ax = subplots(figsize=(5, 5))
    plot_roc(ax, LABELS, [0.77, 0.62, 0.58, 0.47, 0.46, 0.33, 0.23, 0.15])  # the tie broken
    assert "AUC = 21/32" not in describe(fig)["alt"] and "0 diagonal" in describe(fig)["alt"]


def test_a_page_panel_is_read_from_its_artists():
    fig, ax = subplots(figsize=(5, 4))
    ax.plot([0, 1, 2], [3, 4, 5], label="$\\tau_F$ curve")
    ax.plot([1], [2], "o", label="the mean")
    ax.plot([0, 1], [0, 0])
    ax.set_xlabel("x label")
    ax.set_ylabel("y label")
    words = describe(fig)
    assert words["alt"] == "y label against x label"
    text = describe_axes(ax)
    assert "τ_F curve: 3 points from (0, 3) to (2, 5)" in text
    assert "the mean: the point (1, 2)" in text and "1 lines without a legend entry" in text
    assert "horizontal axis x label, from" in text


def test_panels_are_numbered_and_a_note_replaces_the_heading():
    fig, (left, right) = subplots(1, 2, figsize=(11, 4))
    left.plot([0, 1], [0, 1])
    left.set_title("left title")
    right.bar([1, 2, 3], [1, 2, 1], label="counts")
    note(right, "three counts")
    words = describe(fig)
    assert words["alt"] == "2 panels: left title; three counts"
    assert words["description"].splitlines()[1].startswith("Panel 2: three counts")
    assert "counts: 3 bars" in words["description"]


def test_an_empty_figure_has_no_words_and_its_png_no_metadata():
    fig, _ = subplots()
    assert describe(fig) == {"alt": "", "description": ""}
    assert fig._repr_mimebundle_() == ({}, {})


def test_the_png_carries_the_words_through_ipython():
    from IPython.core.formatters import DisplayFormatter
    from matplotlib_inline.backend_inline import set_matplotlib_formats  # noqa: F401 - registers the png printer

    formatter = DisplayFormatter()
    formatter.formatters["image/png"].for_type(
        matplotlib.figure.Figure, lambda fig: b"png"
    )  # the inline backend's printer, without drawing
    fig, ax = subplots(figsize=(5, 5))
    plot_roc(ax, LABELS, SCORES)
    data, metadata = formatter.format(fig)
    assert "image/png" in data
    assert metadata["image/png"]["alt"].startswith("ROC curve of 8 samples")


def test_cd_diagram_says_ranks_and_groups():
    fig, ax = subplots(figsize=(6, 3))
    plot_cd_diagram(ax, [1.0, 2.125, 2.875], 1.657)
    assert describe(fig)["alt"] == (
        "critical-difference diagram: average ranks A 1, B 2.125, C 2.875, CD = 1.657; "
        "not significantly different: {A, B}; {B, C}"
    )


def test_the_words_are_chinese_in_the_chinese_edition():
    i18n.set_language("zh_CN")
    fig, ax = subplots(figsize=(5, 5))
    plot_roc(ax, LABELS, SCORES)
    alt = describe(fig)["alt"]
    assert alt.startswith("8 个样本（4 个正例，4 个反例）的 ROC 曲线") and "AUC = 21/32" in alt


def test_numbers_and_labels_in_words():
    assert [number(Fraction(3, 4)), number(2.0), number(1 / 3)] == ["3/4", "2", "0.3333"]
    assert plain(r"$\chi^2(2)$ density") == "χ²(2) density"
    # what the book's figures put in their titles: no TeX command left for a screen reader to spell out
    titles = {
        r"$m = 10$, $H_0$: $\epsilon \leq 0.3$": "m = 10, H₀: ε ≤ 0.3",
        r"p-values, $e_{10} = \mathrm{round}(0.7n)$": "p-values, e₁₀ = round(0.7n)",
        r"$\tau_t$ follows $t(4)$, not $\mathcal{N}(0,1)$": "τₜ follows t(4), not N(0,1)",
        r"$P(+)\mathrm{cost}$ against $p$": "P(+)cost against p",
        r"a line of slope $m^-/m^+$": "a line of slope m⁻/m⁺",
        r"$\bar{f}(x)$ and $\hat y$": "f̄(x) and ŷ",
    }
    assert {tex: plain(tex) for tex in titles} == titles


@pytest.mark.parametrize("bad", [None, "ax", 3])
def test_bad_arguments_are_refused(bad):
    with pytest.raises(ValueError, match="ax must be"):
        note(bad, "text")
    with pytest.raises(ValueError, match="fig must be"):
        describe(bad)
    fig, ax = subplots()
    with pytest.raises(ValueError, match="text must be"):
        note(ax, "  ")
