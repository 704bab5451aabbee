"""Importing melearn is light, and numeric code never loads the symbolic machinery.

``import melearn`` loads nothing heavy; each public name is imported from its module on first use, and a metric
needs numpy alone. The derivation package (sympy) loads only when a derivation is used.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import melearn

HEAVY = ("sympy", "scipy", "matplotlib", "melearn.derivation")


def loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(run.stdout.split())


def test_importing_the_package_loads_nothing_heavy():
    assert loaded_after("import melearn") == set()


def test_a_metric_needs_numpy_alone():
    assert loaded_after("import melearn\nmelearn.roc_auc([0, 1, 1], [0.1, 0.9, 0.3])") == set()
    assert loaded_after("from melearn import f_beta\nf_beta([0, 1, 1], [0, 1, 0])") == set()


NUMERIC_MODULES = sorted({module for module in melearn._MODULE_OF.values() if module != "derivation"})


@pytest.mark.parametrize("module", NUMERIC_MODULES)
def test_no_numeric_module_imports_sympy_or_the_derivations(module):
    loaded = loaded_after(f"import melearn.{module}")
    assert "sympy" not in loaded and "melearn.derivation" not in loaded


def test_every_public_name_resolves_and_unknown_names_fail():
    for name in melearn.__all__:
        assert getattr(melearn, name) is not None
    assert set(melearn.__all__) <= set(dir(melearn))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        melearn.nonsense  # noqa: B018
