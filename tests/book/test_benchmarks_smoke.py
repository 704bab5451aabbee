"""The benchmark script still runs (at a tiny size) and refuses a fast wrong answer.

Times are not asserted: CI machines differ. What is asserted is that ``benchmarks/run.py`` exits 0, writes every
column and row the book page reads, and flags an implementation that disagrees with its peers. (The exactness of
the fast sorting route it measures is tested in ``tests/melearn/test_ranking_sort.py``.)
"""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from melearn import ranking

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "run.py"


def load_run_module():
    spec = importlib.util.spec_from_file_location("benchmarks_run", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the script ---------------------------------------------------------------------------------------------------
def test_script_runs_and_writes_every_row(tmp_path):
    out = tmp_path / "r.csv"
    args = ["--sizes", "1000,3000", "--repeat", "1", "--small-sizes", "20,100", "--binomial-m", "10000"]
    args += ["--min-time", "0.01"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,  # make test runs it at a lower priority beside the builds: it may wait for a core
    )
    assert done.returncode == 0, done.stderr
    assert "PAIRWISE_MAX_PAIRS" in done.stdout

    run = load_run_module()
    with open(out, newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == run.COLUMNS
        rows = list(reader)
    assert all(r["agrees"] == "True" for r in rows)
    for m in ("1000", "3000"):
        for scores in ("distinct", "rounded_3"):
            got = {(r["benchmark"], r["implementation"]) for r in rows if r["m"] == m and r["scores"] == scores}
            for benchmark in ("auc", "rank_loss", "roc_curve", "pr_curve"):
                assert (benchmark, "np.sort") in got
            assert ("auc", "melearn.roc_auc") in got and ("auc", "sklearn.roc_auc_score") in got
            assert ("auc", "scipy.mannwhitneyu") in got and ("auc", "sklearn.roc_curve+auc") in got
            assert ("roc_curve", "melearn.roc_curve") in got and ("pr_curve", "melearn.pr_curve") in got
    small = [r for r in rows if r["benchmark"] == "rank_loss_small"]
    assert sorted({int(r["m"]) for r in small}) == [20, 100]
    assert {r["implementation"] for r in rows if r["benchmark"] == "binomial_critical_error"} == {
        "melearn.binomial_critical_error",
        "scipy.stats.binom.sf scan",
    }
    for r in rows:
        assert float(r["best_s"]) > 0 and float(r["median_s"]) >= float(r["best_s"])
        if r["ratio_to_sort"]:
            sort_row = next(
                q
                for q in rows
                if q["benchmark"] == r["benchmark"]
                and q["m"] == r["m"]
                and q["scores"] == r["scores"]
                and q["implementation"] == "np.sort"
            )
            ratio = float(r["best_s"]) / float(sort_row["best_s"])
            assert float(r["ratio_to_sort"]) == pytest.approx(ratio, rel=1e-3)
    machine = json.loads((tmp_path / "machine.json").read_text())
    for key in ("cpu_model", "logical_cores", "numpy", "scipy", "scikit-learn", "date_utc"):
        assert machine[key]


def test_a_fast_wrong_answer_is_flagged(monkeypatch, tmp_path):
    run = load_run_module()
    monkeypatch.setattr(run, "roc_auc", lambda y, s: ranking.roc_auc(y, s) + 1e-9)
    rows = run.bench_size(300, 1, np.random.default_rng(0))
    flagged = {r["implementation"] for r in rows if not r["agrees"]}
    # every AUC is compared with melearn's, so a wrong melearn.roc_auc sets them all apart from it
    assert "scipy.mannwhitneyu" in flagged and "sklearn.roc_auc_score" in flagged


def test_a_wrong_curve_is_flagged(monkeypatch):
    run = load_run_module()

    def shifted(y, s):
        curve = ranking.roc_curve(y, s)
        return curve._replace(tpr=np.minimum(curve.tpr + 1e-9, 1.0))

    monkeypatch.setattr(run, "roc_curve", shifted)
    y = np.arange(50) % 3 == 0
    s = np.random.default_rng(1).random(50)
    assert not run.roc_points_agree(y, s)


def test_main_exits_nonzero_on_disagreement(monkeypatch, tmp_path):
    run = load_run_module()
    monkeypatch.setattr(run, "scipy_critical_count", lambda m, eps0, alpha: -1)
    code = run.main(
        [
            "--sizes",
            "200",
            "--repeat",
            "1",
            "--small-sizes",
            "20",
            "--binomial-m",
            "1000",
            "--min-time",
            "0.01",
            "--out",
            str(tmp_path / "r.csv"),
        ]
    )
    assert code == 1


def test_scipy_scan_matches_the_definition():
    run = load_run_module()
    from scipy import stats

    c = run.scipy_critical_count(10, 0.3, 0.05)
    assert stats.binom.sf(c, 10, 0.3) < 0.05 <= stats.binom.sf(c - 1, 10, 0.3)
    assert c == 5  # the book's figure 2.6 example
