"""The optional parts of melearn and the extra that installs each: a missing one is named, with how to get it.

``pip install melearn`` brings numpy and SciPy only: every metric, test, split and reference implementation runs
on them. The derivation checker needs sympy (``melearn[derivation]``), the figures need matplotlib
(``melearn[figures]``), and running the book's pages needs both and Jupyter (``melearn[book]``).
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "require"]

#: each extra of pyproject.toml's [project.optional-dependencies] that a part of melearn needs, and the modules it
#: brings that the part imports
EXTRAS = {"derivation": ("sympy",), "figures": ("matplotlib",)}


def require(extra: str, part: str) -> None:
    """Raise ``ModuleNotFoundError`` naming ``extra`` when a module it installs is missing; else do nothing."""
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise ModuleNotFoundError(
                f"{part} needs {module}, which a plain `pip install melearn` leaves out: install the extra with "
                f"`pip install 'melearn[{extra}]'` (or `pip install {module}`)",
                name=module,
            )
