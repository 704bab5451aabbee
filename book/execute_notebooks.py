"""Execute notebooks in place, storing their outputs, so that nbval can compare them later.

Usage: ``python -m book.execute_notebooks PATH [PATH ...]`` where a PATH is a notebook or a folder of them.

Each notebook runs in its own folder (as in the book build and under nbval) with a fresh kernel. No execution
timing is recorded, so re-running an unchanged notebook leaves no diff. Each notebook is run under two different
``PYTHONHASHSEED`` values and the outputs of the two runs must agree: an output that depends on the hash seed
(the order of a set, say) would make nbval fail at random, so it is refused here. The comparison covers every
output, PNG figures included, byte for byte: nbval compares the stored figures with fresh ones (through
``book/nbval_figures.py``), so a figure that is not byte-identical from one run to the next is refused too.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

KERNEL = "python3"


def _outputs(nb) -> list:
    return [cell.get("outputs", []) for cell in nb.cells if cell.cell_type == "code"]


def first_difference(first, second) -> str | None:
    """Where the outputs of two executions of one notebook first differ (``None`` if they agree)."""
    for number, (a, b) in enumerate(zip(_outputs(first), _outputs(second), strict=True), start=1):
        if a == b:
            continue
        if len(a) != len(b):
            return f"code cell {number}: {len(a)} outputs, then {len(b)}"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x == y:
                continue
            keys = sorted(
                k
                for k in set(x.get("data", {})) | set(y.get("data", {}))
                if x.get("data", {}).get(k) != y.get("data", {}).get(k)
            )
            what = ", ".join(keys) if keys else (x.get("output_type") or "output")
            return f"code cell {number}, output {index + 1}: {what} differs"
    return None


def _merge_streams(nb) -> None:
    """Join consecutive stream outputs of the same name, as nbval does before comparing.

    A kernel under load may deliver one ``print`` as several stream messages; the split is arbitrary, so it is
    removed before the two runs are compared and before the outputs are stored.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        merged = []
        for output in cell.get("outputs", []):
            previous = merged[-1] if merged else None
            if (
                output.get("output_type") == "stream"
                and previous is not None
                and previous.get("output_type") == "stream"
                and previous.get("name") == output.get("name")
            ):
                previous["text"] += output["text"]
            else:
                merged.append(output)
        cell["outputs"] = merged


def _run(path: Path, hash_seed: str):
    nb = nbformat.read(path, as_version=4)
    os.environ["PYTHONHASHSEED"] = hash_seed
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name=KERNEL,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    _merge_streams(nb)
    return nb


def execute(path: Path) -> float:
    start = time.perf_counter()
    first = _run(path, "0")
    second = _run(path, "12345")
    difference = first_difference(first, second)
    if difference is not None:
        raise SystemExit(
            f"{path}: outputs differ between two executions (PYTHONHASHSEED 0 and 12345), {difference}; "
            "make them deterministic (seeded generators, fixed formats, sorted sets, PNG figures)"
        )
    first.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": KERNEL}
    nbformat.write(first, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    paths: list[Path] = []
    for arg in argv or ["chapters"]:
        p = Path(arg)
        paths.extend(sorted(p.rglob("*.ipynb")) if p.is_dir() else [p])
    paths = [p for p in paths if ".ipynb_checkpoints" not in p.parts and "_build" not in p.parts]
    for path in paths:
        seconds = execute(path)
        print(f"{path}: executed twice in {seconds:.1f} s, outputs stored")


if __name__ == "__main__":
    main(sys.argv[1:])
