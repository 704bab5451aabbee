"""A pytest plugin that makes nbval compare the PNG figures of a notebook, not only its text.

nbval 0.11 leaves ``image/png`` out of its comparison (it is in ``IPyNbFile.skip_compare`` unless ``--nbdime``
is given), so a page whose plot call was deleted, leaving empty axes, still passed. This plugin takes
``image/png`` out of that skip list for every notebook nbval collects and compares each figure by its exact
bytes. Before nbval compares, each PNG (base64 in the notebook) is replaced by a one-line summary, ``PNG 640x480,
23456 bytes, sha256 0123abcd...``: equal summaries mean equal bytes, and a failure reads as which figure
changed size or content instead of two pages of base64.

Byte equality holds because every input of the rendering is pinned: matplotlib with its own copy of FreeType
and its bundled DejaVu fonts, Pillow and its zlib (``requirements/lock.txt``), and no date or random id in a PNG.
``book/execute_notebooks.py`` runs each notebook twice and refuses to store figures that differ between the two
runs. A figure that must differ between runs (a timing plot, say) has no place in a page.

The plugin also closes a second hole: nbval does not compare the outputs of a code cell stored without an
execution count (a cell never run, or a notebook saved with its outputs cleared), so a page whose outputs were
never stored passed while the book, built from the stored outputs by ``make test``, showed none. Such a cell now
fails after it has run, telling to store the page with ``make notebooks``.

And it retries a kernel that dies while starting (``Kernel died before replying to kernel_info``), up to three
attempts per notebook, with a warning: on a busy machine two kernels started at once can race for the same TCP
ports, and one lost start would otherwise error every cell of a page that has nothing wrong with it.

Loaded by the ``conftest.py`` at the repository root (so ``pytest chapters/PAGE.ipynb`` compares figures too).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
import warnings

import nbformat
import pytest

PNG = "image/png"
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_summary(encoded: str) -> str:
    """``PNG <width>x<height>, <n> bytes, sha256 <digest>`` for a base64 PNG as stored in a notebook."""
    try:
        raw = base64.b64decode("".join(encoded.split()), validate=True)
    except (binascii.Error, ValueError):
        return f"not base64 ({len(encoded)} characters, sha256 {hashlib.sha256(encoded.encode()).hexdigest()})"
    digest = hashlib.sha256(raw).hexdigest()
    if raw[:8] != _SIGNATURE or raw[12:16] != b"IHDR":
        return f"not a PNG ({len(raw)} bytes, sha256 {digest})"
    width, height = struct.unpack(">II", raw[16:24])
    return f"PNG {width}x{height}, {len(raw)} bytes, sha256 {digest}"


def summarize_figures(outputs: list) -> list:
    """A copy of ``outputs`` with every ``image/png`` replaced by :func:`png_summary` (the rest untouched)."""
    summarized = []
    for output in outputs:
        data = output.get("data") if isinstance(output, dict) else None
        if data and PNG in data:
            output = nbformat.from_dict({**output, "data": {**data, PNG: png_summary(data[PNG])}})
        summarized.append(output)
    return summarized


def _compare_figures_too(item) -> None:
    parent = item.parent
    if PNG in parent.skip_compare:
        parent.skip_compare = tuple(key for key in parent.skip_compare if key != PNG)
    compare = item.compare_outputs

    def compare_outputs(test, ref, skip_compare=None):
        return compare(summarize_figures(test), summarize_figures(ref), skip_compare)

    item.compare_outputs = compare_outputs


def _require_stored_outputs(item) -> None:
    run = item.runtest

    def runtest():
        run()
        if item.cell.execution_count is None:
            pytest.fail(
                f"{item.path.name}, code {item.name.lower()}: no stored execution (execution_count is empty), so its "
                "outputs were never compared; store the page's outputs with `make notebooks`",
                pytrace=False,
            )

    item.runtest = runtest


KERNEL_START_ATTEMPTS = 3


def _retry_kernel_start(notebook) -> None:
    setup = notebook.setup

    def setup_with_retries():
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            try:
                return setup()
            except RuntimeError as error:
                if "Kernel died before replying" not in str(error) or attempt == KERNEL_START_ATTEMPTS:
                    raise
                warnings.warn(
                    f"{notebook.path.name}: the kernel died while starting ({error}); starting another", stacklevel=1
                )

    notebook.setup = setup_with_retries


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items) -> None:
    try:
        from nbval.plugin import IPyNbCell
    except ImportError:  # nbval not installed: no notebook was collected
        return
    notebooks = {}
    for item in items:
        if isinstance(item, IPyNbCell):
            _compare_figures_too(item)
            _require_stored_outputs(item)
            notebooks[id(item.parent)] = item.parent
    for notebook in notebooks.values():
        _retry_kernel_start(notebook)
