"""Importing melearn is light, and the layers of the package stay apart: the structure as tests.

``import melearn`` loads nothing heavy; each public name is imported from its module on first use, and a metric
needs numpy alone. The derivation package (sympy) loads only when a derivation is used. Three layers are kept
apart, each import checked in a fresh interpreter:

* a **numeric module** (every module ``melearn/*.py`` but the package, ``i18n`` and ``_extras``) loads neither
  matplotlib, sympy, mpmath, the derivations, the reference implementations, nor the language catalogues (even with
  ``MELEARN_LANGUAGE=zh_CN`` set);
* ``melearn.reference``, the literal second route that checks the library, loads no numeric module;
* ``melearn.derivation``, the checked chains, loads no numeric module.

The explorers (``melearn.explorers``, HTML and melearn's numbers) load neither matplotlib nor sympy.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import melearn

HEAVY = ("sympy", "scipy", "matplotlib", "melearn.derivation")
PACKAGE = Path(melearn.__file__).resolve().parent
#: every module of the library's numeric layer: the modules of the package's top level but i18n and the checks that
#: name a missing extra (melearn._extras, imported first by the derivations and the figures)
NUMERIC = sorted(
    path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "i18n") and "_extra" not in path.stem
)
#: what a numeric module must not load (and the catalogues, see ``PROBE_CATALOGUES``)
NOT_NUMERIC = ("matplotlib", "sympy", "mpmath", "melearn.derivation", "melearn.reference", "melearn.plotting")


def loaded_after(code: str, watched=HEAVY, **env: str) -> set[str]:
    """The modules of ``watched`` in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    script = f"import sys\n{code}\nprint(' '.join(sorted(m for m in {tuple(watched)!r} if m in sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env={**os.environ, **env}
    )
    return set(run.stdout.split())


#: marks, in the interpreter of ``loaded_after``, that melearn.i18n has read its catalogues
CATALOGUES = "melearn.i18n:catalogues"
PROBE_CATALOGUES = (
    "i18n = sys.modules.get('melearn.i18n')\n"
    f"if i18n is not None and i18n._state['catalogue'] is not None: sys.modules[{CATALOGUES!r}] = i18n"
)


def test_importing_the_package_loads_nothing_heavy():
    assert loaded_after("import melearn") == set()


def test_a_metric_needs_numpy_alone():
    assert loaded_after("import melearn\nmelearn.roc_auc([0, 1, 1], [0.1, 0.9, 0.3])") == set()
    assert loaded_after("from melearn import f_beta\nf_beta([0, 1, 1], [0, 1, 0])") == set()


def test_the_numeric_layer_is_every_top_level_module():
    assert {"_validation", "_sorting", "ranking", "cost", "normalization", "contingency"} <= set(NUMERIC)
    # every module a public name is taken from (but the derivations) is checked below
    assert {module for module in melearn._MODULE_OF.values() if module != "derivation"} <= set(NUMERIC)


#: what the numeric modules may load and take most of their import time (scipy.stats alone about 1 s): loaded once
#: in the interpreter that then imports each numeric module in a fork of its own (:func:`loaded_by_each_numeric`)
PRELOADED = ("numpy", "scipy.optimize", "scipy.special", "scipy.stats")

_EACH_IN_A_FORK = """
import importlib, json, os, sys, traceback
for name in PRELOADED:
    importlib.import_module(name)
early = sorted(m for m in WATCHED if m in sys.modules)
assert not early, f"loaded before any numeric module is imported: {early}"
found = {}
for module in MODULES:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child imports one module, writes what it loaded of WATCHED, and ends
        status = 1
        try:
            os.close(read)
            importlib.import_module(module)
PROBE
            os.write(write, json.dumps(sorted(m for m in WATCHED if m in sys.modules)).encode())
            status = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as pipe:
        found[module] = json.loads(pipe.read() or "null")
    assert os.waitpid(pid, 0)[1] == 0, f"importing {module} failed"
print(json.dumps(found))
"""


def each_in_a_fork(preloaded, watched, modules, probe: str = "", **env: str) -> dict[str, list[str]]:
    """What of ``watched`` importing each of ``modules`` loads, each imported in a fork of one interpreter.

    The interpreter loads ``preloaded`` (and fails if anything watched came with it), then forks once per module:
    each fork starts from that same state, as a fresh interpreter with ``preloaded`` imported would. ``probe`` is
    code run in the fork after the import.
    """
    script = f"PRELOADED, WATCHED, MODULES = {tuple(preloaded)!r}, {tuple(watched)!r}, {list(modules)!r}\n"
    script += _EACH_IN_A_FORK.replace("PROBE", textwrap.indent(probe, " " * 12))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@functools.cache
def loaded_by_each_numeric() -> dict[str, list[str]]:
    """For each numeric module, what of NOT_NUMERIC and the catalogues importing it loads, with Chinese chosen."""
    modules = [f"melearn.{name}" for name in NUMERIC]
    watched = (*NOT_NUMERIC, CATALOGUES)
    return each_in_a_fork(PRELOADED, watched, modules, PROBE_CATALOGUES, MELEARN_LANGUAGE="zh_CN")


@pytest.mark.parametrize("module", NUMERIC)
def test_a_numeric_module_loads_no_figures_symbols_derivations_references_or_catalogues(module):
    assert loaded_by_each_numeric()[f"melearn.{module}"] == []


def test_each_fork_sees_what_its_module_loads_and_nothing_of_the_others():
    # sympy.abc loads sympy; json, imported in the next fork, does not see it
    assert each_in_a_fork(["numpy"], ["sympy"], ["sympy.abc", "json"]) == {"sympy.abc": ["sympy"], "json": []}
    # what comes with the preloaded modules is refused, not counted against every module
    with pytest.raises(AssertionError, match="loaded before any numeric module"):
        each_in_a_fork(["sympy"], ["sympy"], ["json"])


def test_the_reference_implementations_load_no_numeric_module():
    modules = [f"melearn.{name}" for name in NUMERIC]
    code = "import melearn.reference, melearn.reference.cost, melearn.reference.rank_loss, melearn.reference.ranking"
    assert loaded_after(code, modules) == set()


def test_the_derivations_load_no_numeric_module():
    modules = [f"melearn.{name}" for name in NUMERIC]
    derivations = sorted(path.stem for path in (PACKAGE / "derivation").glob("*.py") if path.stem != "__init__")
    code = "\n".join(f"import melearn.derivation.{name}" for name in derivations)
    assert loaded_after(code, modules) == set()


def test_choosing_chinese_loads_neither_matplotlib_nor_sympy():
    code = "import melearn, melearn.i18n\nmelearn.i18n.translate('false positive rate')"
    assert loaded_after(code, ("matplotlib", "sympy"), MELEARN_LANGUAGE="zh_CN") == set()


def test_every_public_name_resolves_and_unknown_names_fail():
    for name in melearn.__all__:
        assert getattr(melearn, name) is not None
    assert set(melearn.__all__) <= set(dir(melearn))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        melearn.nonsense  # noqa: B018


def test_the_explorers_load_no_figures_or_derivations():
    # an explorer is HTML, its states melearn's numbers: a page draws one without matplotlib or sympy
    code = "import melearn.explorers as e\ne.threshold_explorer()._repr_html_()\ne.binomial_explorer()._repr_html_()"
    watched = ("matplotlib", "sympy", "melearn.plotting", "melearn.derivation")
    assert loaded_after(code, watched) == set()
