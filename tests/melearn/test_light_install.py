"""``pip install melearn`` brings numpy and SciPy only, and every metric runs there; a missing extra is named.

The package is installed from a copy of its sources (pyproject.toml, README, LICENSE, melearn/) into a fresh
virtual environment, with pip as a user would run it (its cache and the configured index: the registry must be
reachable, or the wheels of numpy, SciPy and setuptools in pip's cache). What it installs is listed; then the
metrics, the tests and the reference implementations run there and give the answers they give in the full
environment, and importing the figures or the derivations says which extra to install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: run in both environments; the light one must print what the full one prints
PROBE = r"""
import json
import melearn
from melearn import (binomial_critical_error, friedman_test, mcnemar_test, roc_auc, roc_curve, rank_loss, t_test,
                     pr_curve, normalized_cost, bias_variance_decomposition, kfold_split, micro_prf, confusion)
from melearn.reference.ranking import PUMPKIN_EXAMPLE, literal_roc_points
y, s = PUMPKIN_EXAMPLE.labels, PUMPKIN_EXAMPLE.scores
out = {
    "roc_auc": roc_auc(y, s),
    "rank_loss": rank_loss(y, s),
    "roc_curve": roc_curve(y, s).tpr.tolist(),
    "pr_curve": pr_curve(y, s).precision.tolist(),
    "literal": [[str(v) for v in point] for point in literal_roc_points(y, s)],
    "binomial": binomial_critical_error(10, 0.3, alpha=0.05, observed=0.6)[:4],
    "binomial_near_tie": binomial_critical_error(2001, 0.5, alpha=0.23719690446892291).critical_count,
    "t_test": list(t_test([0.12, 0.10, 0.15, 0.11, 0.14], 0.10)[:5]),
    "mcnemar": list(mcnemar_test(10, 25)[:5]),
    "friedman": friedman_test([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3], [0.1, 0.3, 0.2]]).average_ranks.tolist(),
    "cost": normalized_cost(0.25, 0.5, 0.5, 3, 1),
    "bias_variance": list(bias_variance_decomposition([[1.0, 2.0], [3.0, 2.0]], [[1.0, 1.0], [1.0, 3.0]], [1.0, 2.0])),
    "kfold": [test.tolist() for _, test in kfold_split([0, 1] * 5, 5, 0)],
    "micro": list(micro_prf([confusion([0, 1, 1], [0, 1, 0]), confusion([1, 1, 0], [1, 0, 0])])),
}
refusals = {}
for part, code in (("figures", "import melearn.plotting"), ("derivation", "from melearn import Derivation")):
    try:
        exec(code)
    except ModuleNotFoundError as exc:
        refusals[part] = str(exc)
out["refusals"] = refusals
print(json.dumps(out))
"""


def run_probe(python: str | Path) -> dict:
    done = subprocess.run([str(python), "-c", PROBE], capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def copy_sources(target: Path) -> Path:
    target.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(ROOT / "melearn", target / "melearn", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_the_light_install_brings_numpy_and_scipy_only(tmp_path):
    source = copy_sources(tmp_path / "source")
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    if done.returncode != 0:
        offline = any(word in done.stderr for word in ("NewConnectionError", "No matching distribution", "offline"))
        if offline and os.environ.get("CI") != "true":
            pytest.skip(f"pip could not reach the registry or its cache for numpy and SciPy: {done.stderr[-300:]}")
        pytest.fail(done.stderr[-2000:])
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=json"], capture_output=True, text=True, check=True
    )
    installed = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert installed - {"pip", "setuptools"} == {"melearn", "numpy", "scipy"}

    light = run_probe(python)
    full = run_probe(sys.executable)
    refusals = light.pop("refusals")
    assert full.pop("refusals") == {}  # the full environment has every extra
    assert light == full
    assert light["binomial_near_tie"] == 1016
    assert "pip install 'melearn[figures]'" in refusals["figures"] and "matplotlib" in refusals["figures"]
    assert "pip install 'melearn[derivation]'" in refusals["derivation"] and "sympy" in refusals["derivation"]
