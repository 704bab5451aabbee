"""Figures are under test: a page whose figure changes or disappears fails nbval.

nbval alone skips ``image/png``; ``book/nbval_figures.py`` (loaded by the root ``conftest.py``) compares each
stored PNG with the fresh one by digest. These tests run nbval in a subprocess on a small notebook made here and
stored with ``book/execute_notebooks.py`` (as a page is): a cell as stored passes; a cell whose plotted data
changed, whose plot call was deleted (empty axes) or whose figure was removed fails, and so does a cell stored
without outputs (never run). Without the plugin, nbval passes the changed figure, the empty axes and the cell
never stored: the holes it closes.
"""

from __future__ import annotations

import base64
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import nbformat
import numpy as np
import pytest

from book import execute_notebooks, nbval_figures
from book.nbval_figures import png_summary, summarize_figures

REPO = Path(__file__).resolve().parents[2]

SETUP = "import matplotlib.pyplot as plt"
# as the pages draw: plt.show() (nbval does not honour a trailing ";", so a bare ax.plot(...) would add a repr)
PLOT = "fig, ax = plt.subplots(figsize=(3, 2))\nax.plot([0, 1, 2], [0, 1, 4])\nplt.show()"
VARIANTS = {
    "same": PLOT,
    "other_data": "fig, ax = plt.subplots(figsize=(3, 2))\nax.plot([0, 1, 2], [0, 1, 3])\nplt.show()",
    "empty_axes": "fig, ax = plt.subplots(figsize=(3, 2))\nplt.show()",
    "no_figure": "x = 1",
    "never_stored": PLOT,  # stored with its outputs cleared and no execution count, as in a notebook never run
}


def _png(color: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(1, 1), dpi=50)
    ax.plot([0, 1], [0, 1], color=color)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def test_png_summary_names_size_and_digest():
    red, blue = _png("red"), _png("blue")
    assert png_summary(red).startswith("PNG 50x50, ")
    assert png_summary(red) == png_summary(red[:40] + "\n" + red[40:])  # as nbformat may wrap base64
    assert png_summary(red) != png_summary(blue)
    assert png_summary("not base64!").startswith("not base64")
    assert png_summary(base64.b64encode(b"GIF89a....").decode()).startswith("not a PNG")


def test_summarize_figures_keeps_other_outputs():
    png = _png("red")
    outputs = [
        nbformat.v4.new_output("display_data", data={"image/png": png, "text/plain": "<Figure>"}),
        nbformat.v4.new_output("stream", name="stdout", text="hello\n"),
    ]
    summarized = summarize_figures(outputs)
    assert summarized[0]["data"]["image/png"] == png_summary(png)
    assert summarized[0]["data"]["text/plain"] == "<Figure>"
    assert summarized[0].output_type == "display_data"  # nbval reads outputs by attribute
    assert summarized[1] == outputs[1]
    assert outputs[0]["data"]["image/png"] == png  # the stored notebook is not modified


def test_the_plugin_is_active(request):
    assert request.config.pluginmanager.has_plugin("book.nbval_figures")


def _notebook(*cells: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)] + [nbformat.v4.new_code_cell(cell) for cell in cells]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return nb


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> Path:
    """One notebook, one kernel: after the setup cell, one cell per variant, each stored with the outputs of PLOT.

    The notebook is stored with ``PLOT`` in every cell, by ``book/execute_notebooks.py`` (twice, refusing figures
    that differ between the runs); then each cell's source is replaced by its variant, the outputs kept.
    """
    folder = tmp_path_factory.mktemp("figures")
    path = folder / "figures.ipynb"
    nbformat.write(_notebook(*[PLOT] * len(VARIANTS)), path)
    execute_notebooks.execute(path)
    nb = nbformat.read(path, as_version=4)
    for cell, source in zip(nb.cells[1:], VARIANTS.values(), strict=True):
        assert "image/png" in cell.outputs[0]["data"]
        cell.source = source
    nb.cells[-1].outputs, nb.cells[-1].execution_count = [], None  # "never_stored"
    nbformat.write(nb, path)
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return path


def _nbval(notebook: Path, *plugin: str) -> dict[str, str]:
    """Run nbval over ``notebook`` in a fresh pytest; the outcome of each variant's cell ("passed" or the failure)."""
    folder = notebook.parent
    report = folder / f"report{len(plugin)}.xml"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(folder / "pytest.ini"),
            "--rootdir",
            str(folder),
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            *plugin,
            "--nbval",
            "-q",
            f"--junitxml={report}",
            str(notebook),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode in (0, 1), completed.stdout + completed.stderr  # 1: some tests failed
    cells = {}
    for case in ElementTree.parse(report).iter("testcase"):
        failure = case.find("failure")
        cells[case.get("name", "").strip()] = (
            "passed" if failure is None else failure.get("message", "") + (failure.text or "")
        )
    # nbval 0.11 numbers code cells from 0; cell 0 is the setup
    outcomes = {name: cells.get(f"Cell {number}") for number, name in enumerate(VARIANTS, start=1)}
    assert None not in outcomes.values(), f"not every cell ran: {sorted(cells)}\n{completed.stdout}"
    assert cells.get("Cell 0") == "passed", cells.get("Cell 0")
    return outcomes


def test_nbval_fails_when_a_figure_changes_or_disappears(variants):
    outcomes = _nbval(variants, "-p", "book.nbval_figures")
    assert outcomes["same"] == "passed", outcomes["same"]
    for name in ("other_data", "empty_axes", "no_figure", "never_stored"):
        assert outcomes[name] != "passed", f"{name}: the figure check did not fail"
    assert "no stored execution" in outcomes["never_stored"], outcomes["never_stored"]
    for name in ("other_data", "empty_axes"):
        assert "image/png" in outcomes[name] and "sha256" in outcomes[name], outcomes[name]


def test_execute_notebooks_refuses_a_figure_that_differs_between_runs(tmp_path, monkeypatch):
    """Two executions whose figures differ by one PNG byte: nothing is stored, and the message names the cell."""
    path = tmp_path / "page.ipynb"
    nbformat.write(_notebook(PLOT), path)
    before = path.read_bytes()
    runs = []
    for color in ("red", "blue"):
        nb = _notebook(PLOT)
        nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={"image/png": _png(color)})]
        runs.append(nb)
    monkeypatch.setattr(execute_notebooks, "_run", lambda path, seed: runs.pop(0))
    with pytest.raises(SystemExit, match=r"code cell 2, output 1: image/png differs"):
        execute_notebooks.execute(path)
    assert path.read_bytes() == before  # nothing stored


class _Notebook:
    """Stands for nbval's notebook collector: its setup starts the kernel."""

    path = Path("page.ipynb")

    def __init__(self, failures: int, message: str = "Kernel died before replying to kernel_info"):
        self.failures, self.message, self.calls = failures, message, 0

    def setup(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise RuntimeError(self.message)


def test_a_kernel_that_dies_while_starting_is_started_again():
    notebook = _Notebook(failures=2)
    nbval_figures._retry_kernel_start(notebook)
    with pytest.warns(UserWarning, match="died while starting"):
        notebook.setup()
    assert notebook.calls == 3


def test_a_kernel_that_keeps_dying_or_fails_otherwise_is_an_error():
    notebook = _Notebook(failures=3)
    nbval_figures._retry_kernel_start(notebook)
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="Kernel died"):
        notebook.setup()
    assert notebook.calls == nbval_figures.KERNEL_START_ATTEMPTS
    other = _Notebook(failures=1, message="No such kernel named python3")
    nbval_figures._retry_kernel_start(other)
    with pytest.raises(RuntimeError, match="No such kernel"):
        other.setup()
    assert other.calls == 1


# --- Legible on a phone -----------------------------------------------------------------------------------------
# Every figure a page draws goes through melearn.plotting.subplots. Each figure below is drawn as a page draws it
# (the plotting functions, the page's figsize and its small font sizes) and saved as the notebook saves it
# (bbox_inches="tight"); its smallest text is then measured from the matplotlib objects (every visible Text
# artist's size in pt) and the PNG's own width, as the browser shows it: at its width, or shrunk to the column.
PHONE_COLUMN = 336  # CSS px: a figure in an exercise's solution on a 390 px phone (358 px in the main text)
DESKTOP_COLUMN = 757  # CSS px: the text column at 1366 px
LEGIBLE_PX = 9.0


def _book_figures():
    """(name, draw) for figures as the pages draw them; draw() returns the BookFigure."""
    from melearn import pr_curve
    from melearn.plotting import subplots
    from melearn.plotting.bias_variance_curves import plot_decomposition
    from melearn.plotting.binomial_pmf import binomial_test_pmf
    from melearn.plotting.cd_diagram import plot_cd_diagram
    from melearn.plotting.cost_curve import plot_cost_against_prior, plot_cost_curve, plot_roc_hull
    from melearn.plotting.pr_curve import plot_break_even_line, plot_pr_curve
    from melearn.plotting.roc_curve import plot_roc, shade_auc

    labels = [1, 1, 0, 1, 0, 0, 1, 0]
    scores = [0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.1]

    def roc_pair():  # auc, roc_curve: two ROC panels side by side, annotations at fontsize 9, a figure legend
        fig, (left, right) = subplots(1, 2, figsize=(11, 6.2))
        plot_roc(left, labels, scores, grid=True, legend=False)
        shade_auc(left, [0, 0, 0.25, 0.5, 1], [0, 0.5, 0.75, 0.75, 1])
        left.text(0.5, 0.2, "3", ha="center", fontsize=9)
        left.set_title("AUC = 11/16 (areas in cells of 1/16)")
        plot_roc(right, labels, scores, grid=True, legend=False)
        (staircase,) = right.plot([0.25, 0.25, 0.5], [0.5, 0.75, 0.75], ":", color="black", label="positive first")
        right.legend(handles=[staircase], loc="lower right", fontsize="small")
        fig.legend(*left.get_legend_handles_labels(), loc="outside lower center", fontsize="small")
        return fig

    def cost_pair():  # cost_curves, ex2_6_7: ROC hull beside the cost curve, legends at "small"
        fig, (ax_roc, ax_cost) = subplots(1, 2, figsize=(11, 5.2))
        plot_roc_hull(ax_roc, labels, scores)
        ax_roc.legend(loc="lower right", fontsize="small")
        plot_cost_curve(ax_cost, labels, scores)
        ax_cost.legend(loc="upper center", fontsize="small")
        return fig

    def cost_prior():
        fig, (ax_p, ax_pc) = subplots(1, 2, figsize=(11, 4.6))
        plot_cost_against_prior(ax_p, labels, scores, cost01=5.0, cost10=1.0, priors=np.linspace(0, 1, 11))
        ax_p.legend(loc="upper center", fontsize="small")
        plot_cost_curve(ax_pc, labels, scores, hull_lines=False, shade=False, label=None)
        return fig

    def pr():  # precision_recall_f: one square panel, legend at fontsize 8
        fig, ax = subplots(figsize=(5.5, 5.5))
        plot_break_even_line(ax)
        plot_pr_curve(ax, pr_curve(labels, scores), label="classifier A", bep=0.6)
        ax.legend(loc="lower left", fontsize=8)
        return fig

    def pmf_pair():  # binomial_test, mcnemar, paired_t_tests: 1 x 2 at (11, 4), legends at fontsize 8
        fig, (left, right) = subplots(1, 2, figsize=(11, 4))
        binomial_test_pmf(left, 10, 0.3, observed=0.5)
        right.plot([0, 1, 2], [0.05, 0.04, 0.06], label="actual size")
        right.legend(fontsize=8)
        return fig

    def cd_pair():  # friedman_nemenyi: two CD diagrams with width ratios
        fig, (book, demsar) = subplots(1, 2, figsize=(11, 3.3), gridspec_kw={"width_ratios": [1.1, 1]})
        plot_cd_diagram(book, [1.0, 2.125, 2.875], 1.657, names=["A", "B", "C"])
        plot_cd_diagram(demsar, [1.0, 2.125, 2.875], 1.657, names=["A", "B", "C"], style="demsar")
        return fig

    def grid_loglog():  # benchmarks: 2 x 2 log-log panels sharing x, legends at 7.5 pt, minor tick labels
        fig, axes = subplots(2, 2, figsize=(11, 8.5), sharex=True)
        m = np.array([10.0, 100.0, 1000.0])
        for ax in axes.flat:
            ax.loglog(m, m * 1e-6, "o-", label="melearn.roc_auc")
            ax.loglog(m, m * 2e-6, "s-", label="sklearn.roc_auc_score")
            ax.legend(fontsize=7.5, loc="upper left")
            ax.set_title("AUC, distinct scores")
        axes[1, 1].set_xlabel("number of samples m")
        return fig

    def strip():  # evaluation_methods: a wide, short strip with tick labels at fontsize 7
        fig, ax = subplots(figsize=(7.0, 2.4))
        ax.imshow(np.arange(20).reshape(1, 20), aspect="auto")
        ax.set_xticks(range(20), [str(i % 2) for i in range(20)], fontsize=7)
        return fig

    def decomposition():  # bias_variance: one panel at (7, 4.2), the library's legend
        fig, ax = subplots(figsize=(7, 4.2))
        degrees = np.arange(1, 6)
        exact = {"bias2": 1 / degrees, "variance": degrees / 10, "noise": np.full(5, 0.1)}
        exact["error"] = exact["bias2"] + exact["variance"] + exact["noise"]
        plot_decomposition(ax, degrees, exact)
        return fig

    return {
        "roc_pair": roc_pair,
        "cost_pair": cost_pair,
        "cost_prior": cost_prior,
        "pr": pr,
        "pmf_pair": pmf_pair,
        "cd_pair": cd_pair,
        "grid_loglog": grid_loglog,
        "strip": strip,
        "decomposition": decomposition,
    }


def _save_as_a_notebook_does(fig) -> tuple[bytes, float]:
    """The PNG the inline backend stores (cropped to its content) and the dpi it is drawn at."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=fig.dpi)
    return buffer.getvalue(), float(fig.dpi)


def _drawn_texts(fig) -> list:
    """Every Text artist the saved figure shows: visible (with its parents), not empty, inside the figure."""
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    shown = []
    for text in fig.findobj(Text):
        artist, visible = text, True
        while artist is not None and visible:
            visible = artist.get_visible()
            artist = getattr(artist, "axes", None) if artist is text else None
        if visible and text.get_text().strip() and text.get_window_extent(renderer).width > 0:
            shown.append(text)
    return shown


@pytest.fixture(params=["en", "zh_CN"])
def edition(request):
    """Each edition's figures: the Chinese one draws its text in a CJK font (wider glyphs, the same sizes)."""
    from melearn.i18n import language, set_language

    before = language()
    set_language(request.param)
    yield request.param
    set_language(before)


@pytest.mark.parametrize("name", sorted(_book_figures()))
def test_figure_text_is_legible_on_a_phone_and_not_oversized_on_a_desktop(name, edition):
    import struct

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = _book_figures()[name]()
    try:
        png, dpi = _save_as_a_notebook_does(fig)
        width = struct.unpack(">II", png[16:24])[0]
        texts = _drawn_texts(fig)
        assert texts, "no text drawn"
        smallest = min(texts, key=lambda t: t.get_fontsize())
        size = smallest.get_fontsize()
        phone = size / 72 * dpi * min(1.0, PHONE_COLUMN / width)
        desktop = size / 72 * dpi * min(1.0, DESKTOP_COLUMN / width)
        assert phone >= LEGIBLE_PX - 1e-9, (
            f"{name}: {smallest.get_text()!r} at {size:.2f} pt in a {width} px figure is {phone:.2f} px on a phone"
        )
        # a desktop shows the figure at its width: its text about the size of the book's (16 px), not a poster's
        assert width <= 640, f"{name}: {width} px wide"
        assert desktop <= 18, f"{name}: smallest text {desktop:.1f} px on a desktop"
    finally:
        plt.close(fig)


def test_subplots_stacks_a_wide_grid_and_keeps_the_shape_asked_for():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from melearn.plotting import BOOK_WIDTH, subplots
    from melearn.plotting.figure import book_figsize

    fig, (left, right) = subplots(1, 2, figsize=(11, 4))
    try:
        assert tuple(fig.get_size_inches()) == pytest.approx((BOOK_WIDTH, 8.0))
        assert left.get_position().y0 > right.get_position().y1  # left above right, both the full width
    finally:
        plt.close(fig)
    fig, axes = subplots(2, 2, figsize=(11, 8.5))
    try:
        assert axes.shape == (2, 2) and len({ax.get_position().x0 for ax in axes.flat}) == 1
    finally:
        plt.close(fig)
    assert book_figsize(1, 1, (5.5, 5.5)) == (1, 1, (5.5, 5.5))  # a figure that fits is kept
    assert book_figsize(1, 1, (10, 4)) == (1, 1, (BOOK_WIDTH, 4.0))
    for bad, match in (((0, 1, (5, 4)), "nrows"), ((1, 2.0, (5, 4)), "ncols"), ((1, 1, (5, -1)), "figsize height")):
        with pytest.raises(ValueError, match=match):
            book_figsize(*bad)
    with pytest.raises(ValueError, match="sharex must be True or False"):
        subplots(1, 2, figsize=(11, 4), sharex="col")


def test_every_page_draws_its_figures_through_melearn_plotting():
    """A figure made with pyplot directly would escape the rule: the pages make none."""
    import re

    direct = re.compile(r"\bplt\.(subplots|figure|subplot|axes)\(|\bFigure\(")
    offenders = []
    for path in sorted((REPO / "chapters").rglob("*.ipynb")):
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "code" and direct.search(cell.source):
                offenders.append(f"{path.relative_to(REPO)} cell {index}")
    assert not offenders, offenders


@pytest.mark.parametrize(("m", "eps0", "observed"), [(10, 0.3, 0.5), (10, 0.3, None), (30, 0.3, 0.4), (100, 0.2, None)])
def test_binomial_legend_covers_no_bar_and_not_the_critical_line(m, eps0, observed):
    """The legend of the binomial test's figure sits above the bars and the critical line (they used to cross it)."""
    import matplotlib.pyplot as plt
    from matplotlib.transforms import Bbox

    from melearn.plotting import subplots
    from melearn.plotting.binomial_pmf import binomial_test_pmf

    fig, ax = subplots(figsize=(6, 4))
    try:
        binomial_test_pmf(ax, m, eps0, observed=observed)
        renderer = fig.canvas.get_renderer()
        legend = ax.get_legend().get_window_extent(renderer)

        def extent(artist):  # a line collection's own extent is its data limits: take its segments' instead
            if hasattr(artist, "get_segments"):
                return Bbox.union([Bbox(ax.transData.transform(segment)) for segment in artist.get_segments()])
            return artist.get_window_extent(renderer)

        drawn = [*ax.patches, *ax.collections, *ax.lines]
        assert len(ax.patches) == m + 1 and len(ax.collections) + len(ax.lines) >= 1, "bars and the critical line"
        covered = [str(artist.get_label()) for artist in drawn if legend.overlaps(extent(artist))]
        assert not covered, f"the legend covers {covered}"
    finally:
        plt.close(fig)
