"""Figures are under test: a page whose figure changes or disappears fails nbval.

nbval alone skips ``image/png``; ``tools/nbval_figures.py`` (loaded by the root ``conftest.py``) compares each
stored PNG with the fresh one by digest. These tests run nbval in a subprocess on a small notebook made here and
stored with ``tools/execute_notebooks.py`` (as a page is): a cell as stored passes; a cell whose plotted data
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
import pytest

from tools import execute_notebooks, nbval_figures
from tools.nbval_figures import png_summary, summarize_figures

REPO = Path(__file__).resolve().parents[1]

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
    assert request.config.pluginmanager.has_plugin("tools.nbval_figures")


def _notebook(*cells: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)] + [nbformat.v4.new_code_cell(cell) for cell in cells]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return nb


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> Path:
    """One notebook, one kernel: after the setup cell, one cell per variant, each stored with the outputs of PLOT.

    The notebook is stored with ``PLOT`` in every cell, by ``tools/execute_notebooks.py`` (twice, refusing figures
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
    outcomes = _nbval(variants, "-p", "tools.nbval_figures")
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
