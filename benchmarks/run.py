"""Time melearn's ranking measures against scikit-learn, SciPy and the floor ``np.sort``, in one process.

Run from the repository root::

    python benchmarks/run.py                                  # m = 1e5, 1e6, 1e7; 5 repetitions
    python benchmarks/run.py --sizes 1e5,1e6 --repeat 3 --out results-small.csv

For every size m and two score sets (continuous scores, and the same scores rounded to 3 decimals, so that
many samples tie) it first checks that every implementation gives the same answer (AUC to 1e-12, the same curve
points), so a fast wrong answer cannot win, and only then times them. Repetitions are interleaved (one call of
each implementation per round), so a burst of load on a shared machine hits all of them alike; the best and the
median are kept. Peak memory is measured apart from the timings, with ``tracemalloc`` (numpy reports its array
allocations to it), as the peak of extra memory during one call divided by the size of the scores.

It also times formula (2.21) as printed (``rank_loss(method="pairwise")``, O(m+ m-)) against the sorted count
for small m, to locate the crossover that ``melearn.ranking.PAIRWISE_MAX_PAIRS`` should sit at, and times
``binomial_critical_error`` against a plain scan with ``scipy.stats.binom``.

Writes one CSV row per (benchmark, score set, m, implementation) and a JSON description of the machine. The
book page ``chapters/benchmarks.ipynb`` reads both; it never runs this script.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import platform
import statistics
import sys
import time
import timeit
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn.metrics import auc as sk_auc
from sklearn.metrics import precision_recall_curve, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

import melearn
from melearn import binomial_critical_error, pr_curve, rank_loss, roc_auc, roc_curve
from melearn._validation import as_binary_labels, as_order_array
from melearn.ranking import PAIRWISE_MAX_PAIRS

COLUMNS = [
    "benchmark",  # auc, rank_loss, roc_curve, pr_curve, rank_loss_small, binomial_critical_error
    "scores",  # "distinct" or "rounded_3" (many ties)
    "m",  # number of samples (for binomial_critical_error: the test size m)
    "pairs",  # m+ m-, the number of (positive, negative) pairs
    "implementation",
    "repeats",
    "best_s",
    "median_s",
    "ratio_to_sort",  # best_s / best_s of np.sort on the same scores
    "reference",  # the peer implementation this row is compared with
    "speedup_vs_reference",  # best_s of the reference / best_s of this row
    "peak_x_scores",  # peak extra memory during one call / size of the scores (8 m bytes)
    "agrees",  # the answer matched the reference before timing
]

#: roc_auc with the labels as int64 0/1, and the validation of those labels and the scores alone (rows of "auc")
INT_LABELS = "melearn.roc_auc(int labels)"
VALIDATION = "melearn validation(int labels)"

AUC_TOL = 1e-12
POSITIVE_RATE = 0.3
SEED = 20261130


# -- data --------------------------------------------------------------------------------------------------------
def make_scores(m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Labels (bool, 30% positive) and probability-like scores of a fair classifier (AUC about 0.8)."""
    y = rng.random(m) < POSITIVE_RATE
    z = rng.standard_normal(m) + 1.2 * y
    return y, 1.0 / (1.0 + np.exp(-z))


# -- measuring ---------------------------------------------------------------------------------------------------
def time_interleaved(functions: dict, repeat: int) -> dict:
    """Best and median wall time of each function, calling each once per round for ``repeat`` rounds."""
    times = {name: [] for name in functions}
    for _ in range(repeat):
        for name, fn in functions.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: (min(t), statistics.median(t)) for name, t in times.items()}


def loops_for(timer: timeit.Timer, min_time: float) -> int:
    """The first of 1, 2, 5, 10, 20, 50, ... calls that take at least ``min_time`` s (timeit's autorange, which
    fixes 0.2 s)."""
    power = 1
    while True:
        for factor in (1, 2, 5):
            if timer.timeit(power * factor) >= min_time:
                return power * factor
        power *= 10


def time_small(fn, repeat: int, min_time: float = 0.2) -> tuple[float, float]:
    """Best and median time per call of a fast function (each repetition loops for about ``min_time / 4`` s)."""
    timer = timeit.Timer(fn)
    number = max(1, loops_for(timer, min_time) // 4)
    per_call = [t / number for t in timer.repeat(repeat=max(repeat, 3), number=number)]
    return min(per_call), statistics.median(per_call)


def peak_extra_bytes(fn) -> int:
    """Peak memory allocated during one call of ``fn`` above what was allocated before it (tracemalloc)."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


# -- agreement checks (run before any timing) --------------------------------------------------------------------
def mwu_auc(y: np.ndarray, s: np.ndarray) -> float:
    result = scipy.stats.mannwhitneyu(s[y], s[~y], alternative="greater", method="asymptotic")
    return float(result.statistic) / (np.count_nonzero(y) * np.count_nonzero(~y))


def sk_curve_auc(y: np.ndarray, s: np.ndarray) -> float:
    fpr, tpr, _ = sk_roc_curve(y, s)
    return float(sk_auc(fpr, tpr))


def roc_points_agree(y: np.ndarray, s: np.ndarray) -> bool:
    ours = roc_curve(y, s)
    fpr, tpr, thresholds = sk_roc_curve(y, s, drop_intermediate=False)
    return (
        np.array_equal(ours.thresholds, thresholds)
        and np.allclose(ours.fpr, fpr, rtol=0, atol=AUC_TOL)
        and np.allclose(ours.tpr, tpr, rtol=0, atol=AUC_TOL)
    )


def pr_points_agree(y: np.ndarray, s: np.ndarray) -> bool:
    ours = pr_curve(y, s)
    precision, recall, thresholds = precision_recall_curve(y, s)
    # scikit-learn: thresholds increasing, and a last point (recall 0, precision 1) with no threshold
    return (
        np.array_equal(ours.thresholds, thresholds[::-1])
        and np.allclose(ours.precision, precision[:-1][::-1], rtol=0, atol=AUC_TOL)
        and np.allclose(ours.recall, recall[:-1][::-1], rtol=0, atol=AUC_TOL)
    )


def scipy_critical_count(m: int, eps0: float, alpha: float) -> int:
    """The smallest C with P(X > C) < alpha, X ~ B(m, eps0), by one vectorised scan of every C."""
    tail = scipy.stats.binom.sf(np.arange(m + 1), m, eps0)
    return int(np.argmax(tail < alpha))


# -- the benchmarks ----------------------------------------------------------------------------------------------
def row(benchmark, scores, m, pairs, name, repeats, best, median, **extra) -> dict:
    out = dict.fromkeys(COLUMNS, "")
    out.update(benchmark=benchmark, scores=scores, m=m, pairs=pairs, implementation=name, repeats=repeats)
    out.update(best_s=best, median_s=median)
    out.update(extra)
    return out


def bench_size(m: int, repeat: int, rng: np.random.Generator) -> list[dict]:
    y, distinct = make_scores(m, rng)
    rows = []
    for label, s in (("distinct", distinct), ("rounded_3", np.round(distinct, 3))):
        pairs = int(np.count_nonzero(y)) * int(np.count_nonzero(~y))
        # 1. agreement, before any timing
        exact = roc_auc(y, s)
        aucs = {
            "melearn.roc_auc": exact,
            "sklearn.roc_auc_score": float(roc_auc_score(y, s)),
            "sklearn.roc_curve+auc": sk_curve_auc(y, s),
            "scipy.mannwhitneyu": mwu_auc(y, s),
        }
        agrees = {name: abs(value - exact) <= AUC_TOL for name, value in aucs.items()}
        agrees["melearn.rank_loss"] = abs((1.0 - rank_loss(y, s)) - aucs["sklearn.roc_auc_score"]) <= AUC_TOL
        agrees["np.sort"] = bool(np.all(np.diff(np.sort(s)) >= 0))
        agrees["melearn.roc_curve"] = roc_points_agree(y, s)
        agrees["melearn.pr_curve"] = pr_points_agree(y, s)
        agrees["sklearn.roc_curve"] = agrees["melearn.roc_curve"]
        agrees["sklearn.precision_recall_curve"] = agrees["melearn.pr_curve"]
        y_int = y.astype(np.int64)
        agrees[INT_LABELS] = roc_auc(y_int, s) == exact
        labels, _ = as_binary_labels(y_int, "y_true"), as_order_array(s, "y_score")
        agrees[VALIDATION] = bool(np.array_equal(labels, y))

        # 2. timing, interleaved
        functions = {
            "np.sort": lambda: np.sort(s),
            "melearn.roc_auc": lambda: roc_auc(y, s),
            "sklearn.roc_auc_score": lambda: roc_auc_score(y, s),
            "sklearn.roc_curve+auc": lambda: sk_curve_auc(y, s),
            "scipy.mannwhitneyu": lambda: mwu_auc(y, s),
            "melearn.rank_loss": lambda: rank_loss(y, s),
            "melearn.roc_curve": lambda: roc_curve(y, s),
            "sklearn.roc_curve": lambda: sk_roc_curve(y, s, drop_intermediate=False),
            "melearn.pr_curve": lambda: pr_curve(y, s),
            "sklearn.precision_recall_curve": lambda: precision_recall_curve(y, s),
            # labels as the integers 0 and 1 (as most data sets store them), and the validation of those labels
            # and of the scores alone: its share of roc_auc (np.unique over the labels once cost more than the sort)
            INT_LABELS: lambda: roc_auc(y_int, s),
            VALIDATION: lambda: (as_binary_labels(y_int, "y_true"), as_order_array(s, "y_score")),
        }
        timings = time_interleaved(functions, repeat)
        # 3. memory, apart from the timings
        peaks = {name: peak_extra_bytes(fn) / s.nbytes for name, fn in functions.items()}

        benchmark_of = {
            "np.sort": ["auc", "rank_loss", "roc_curve", "pr_curve"],
            "melearn.roc_auc": ["auc"],
            "sklearn.roc_auc_score": ["auc", "rank_loss"],
            "sklearn.roc_curve+auc": ["auc"],
            "scipy.mannwhitneyu": ["auc"],
            "melearn.rank_loss": ["rank_loss"],
            "melearn.roc_curve": ["roc_curve"],
            "sklearn.roc_curve": ["roc_curve"],
            "melearn.pr_curve": ["pr_curve"],
            "sklearn.precision_recall_curve": ["pr_curve"],
            INT_LABELS: ["auc"],
            VALIDATION: ["auc"],
        }
        reference_of = {
            "auc": "sklearn.roc_auc_score",
            "rank_loss": "sklearn.roc_auc_score",
            "roc_curve": "sklearn.roc_curve",
            "pr_curve": "sklearn.precision_recall_curve",
        }
        sort_best = timings["np.sort"][0]
        for name, benchmarks in benchmark_of.items():
            best, median = timings[name]
            for benchmark in benchmarks:
                reference = reference_of[benchmark]
                rows.append(
                    row(
                        benchmark,
                        label,
                        m,
                        pairs,
                        name,
                        repeat,
                        best,
                        median,
                        ratio_to_sort=best / sort_best,
                        reference=reference,
                        speedup_vs_reference=timings[reference][0] / best,
                        peak_x_scores=peaks[name],
                        agrees=bool(agrees[name]),
                    )
                )
    return rows


def bench_rank_loss_small(sizes: list[int], repeat: int, rng: np.random.Generator, min_time: float) -> list[dict]:
    """Formula (2.21) as printed against the sorted count, for small m (balanced classes, distinct scores)."""
    rows = []
    for m in sizes:
        y = np.arange(m) % 2 == 0
        s = rng.random(m)
        pairs = int(np.count_nonzero(y)) * int(np.count_nonzero(~y))
        pairwise = rank_loss(y, s, method="pairwise")
        agrees = pairwise == rank_loss(y, s, method="sorted") and abs(pairwise - (1 - roc_auc_score(y, s))) <= AUC_TOL
        results = {
            "np.sort": time_small(lambda: np.sort(s), repeat, min_time),
            'melearn.rank_loss(method="pairwise")': time_small(
                lambda: rank_loss(y, s, method="pairwise"), repeat, min_time
            ),
            'melearn.rank_loss(method="sorted")': time_small(
                lambda: rank_loss(y, s, method="sorted"), repeat, min_time
            ),
        }
        reference = 'melearn.rank_loss(method="pairwise")'
        for name, (best, median) in results.items():
            rows.append(
                row(
                    "rank_loss_small",
                    "distinct",
                    m,
                    pairs,
                    name,
                    max(repeat, 3),
                    best,
                    median,
                    ratio_to_sort=best / results["np.sort"][0],
                    reference=reference,
                    speedup_vs_reference=results[reference][0] / best,
                    agrees=bool(agrees),
                )
            )
    return rows


def bench_binomial(m: int, repeat: int) -> list[dict]:
    eps0, alpha = 0.1, 0.05
    ours = binomial_critical_error(m, eps0, alpha=alpha).critical_count
    agrees = ours == scipy_critical_count(m, eps0, alpha)
    timings = time_interleaved(
        {
            "melearn.binomial_critical_error": lambda: binomial_critical_error(m, eps0, alpha=alpha),
            "scipy.stats.binom.sf scan": lambda: scipy_critical_count(m, eps0, alpha),
        },
        max(repeat, 3),
    )
    reference = "scipy.stats.binom.sf scan"
    return [
        row(
            "binomial_critical_error",
            "",
            m,
            "",
            name,
            max(repeat, 3),
            best,
            median,
            reference=reference,
            speedup_vs_reference=timings[reference][0] / best,
            agrees=bool(agrees),
        )
        for name, (best, median) in timings.items()
    ]


# -- reporting ---------------------------------------------------------------------------------------------------
def machine_description(argv: list[str]) -> dict:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as info:
            models = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
        cpu = models[0] if models else cpu
    except OSError:
        pass
    try:
        from numpy._core._multiarray_umath import __cpu_features__

        avx512 = sorted(k for k, v in __cpu_features__.items() if v and k.startswith("AVX512"))
    except ImportError:  # an older or newer numpy layout
        avx512 = []
    return {
        "date_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
        "cpu_model": cpu,
        "logical_cores": os.cpu_count(),
        "load_average_1min_at_start": round(os.getloadavg()[0], 2),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "melearn": getattr(melearn, "__version__", "source tree"),
        "numpy_avx512_features": avx512,
        "command": "python benchmarks/run.py " + " ".join(argv),
        "pairwise_max_pairs": PAIRWISE_MAX_PAIRS,
    }


def fmt(value, spec: str) -> str:
    return "" if value == "" else format(value, spec)


def write_csv(rows: list[dict], path: Path) -> None:
    formats = {
        "best_s": ".6g",
        "median_s": ".6g",
        "ratio_to_sort": ".4g",
        "speedup_vs_reference": ".4g",
        "peak_x_scores": ".3g",
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for r in rows:
            writer.writerow({k: fmt(v, formats[k]) if k in formats else v for k, v in r.items()})


def print_table(rows: list[dict]) -> None:
    header = f"{'benchmark':<24}{'scores':<10}{'m':>10}  {'implementation':<38}{'best s':>10}{'median s':>10}"
    header += f"{'/np.sort':>9}{'speedup':>9}{'peak x':>8}  ok"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['benchmark']:<24}{r['scores']:<10}{r['m']:>10}  {r['implementation']:<38}"
            f"{r['best_s']:>10.4g}{r['median_s']:>10.4g}{fmt(r['ratio_to_sort'], '.2f'):>9}"
            f"{fmt(r['speedup_vs_reference'], '.2f'):>9}{fmt(r['peak_x_scores'], '.2f'):>8}  {r['agrees']}"
        )


def validation_shares(rows: list[dict]) -> list[str]:
    """One line per (m, scores): the validation's share of roc_auc with integer labels, and both against np.sort."""
    best = {}
    for r in rows:
        if r["benchmark"] == "auc":
            best.setdefault((r["m"], r["scores"]), {})[r["implementation"]] = r["best_s"]
    lines = []
    for (m, scores), times in best.items():
        if INT_LABELS in times and VALIDATION in times:
            sort, total, check = times["np.sort"], times[INT_LABELS], times[VALIDATION]
            lines.append(
                f"roc_auc, m = {m:,}, {scores}, int labels: {total / sort:.2f} x np.sort, of which validating labels "
                f"and scores {check / sort:.2f} x np.sort ({100 * check / total:.0f} % of roc_auc)"
            )
    return lines


def crossover(rows: list[dict]) -> int | None:
    """The fewest pairs at which the sorted count beat the pairwise sum (best times), if it ever did."""
    best = {}
    for r in rows:
        if r["benchmark"] == "rank_loss_small":
            best.setdefault(r["pairs"], {})[r["implementation"]] = r["best_s"]
    for pairs in sorted(best):
        if best[pairs]['melearn.rank_loss(method="sorted")'] < best[pairs]['melearn.rank_loss(method="pairwise")']:
            return pairs
    return None


def parse_sizes(text: str) -> list[int]:
    return [int(float(part)) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1e5,1e6,1e7", help="comma-separated m (default 1e5,1e6,1e7)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions of each timing (default 5)")
    parser.add_argument(
        "--small-sizes",
        default="20,32,64,100,128,160,200,400,1000,2000",
        help="m for the pairwise-against-sorted rank loss timings",
    )
    parser.add_argument(
        "--min-time",
        type=float,
        default=0.2,
        help="seconds a timing of the small sizes first loops for, to choose its number of calls (default 0.2)",
    )
    parser.add_argument("--binomial-m", type=int, default=10**6, help="m for binomial_critical_error")
    parser.add_argument("--out", default="benchmarks/results.csv", help="the CSV to write")
    parser.add_argument("--machine", default=None, help="the machine JSON (default: machine.json beside --out)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not args.min_time > 0:
        parser.error("--min-time must be positive")
    out = Path(args.out)
    machine_path = Path(args.machine) if args.machine else out.with_name("machine.json")

    machine = machine_description(argv)
    rng = np.random.default_rng(SEED)
    rows = []
    for m in parse_sizes(args.sizes):
        print(f"m = {m:,} ...", file=sys.stderr, flush=True)
        rows += bench_size(m, args.repeat, rng)
    rows += bench_rank_loss_small(parse_sizes(args.small_sizes), args.repeat, rng, args.min_time)
    rows += bench_binomial(args.binomial_m, args.repeat)
    machine["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)

    write_csv(rows, out)
    machine_path.write_text(json.dumps(machine, indent=2) + "\n")
    print_table(rows)
    print()
    print("\n".join(validation_shares(rows)))
    measured = crossover(rows)
    print(
        f"\nrank_loss: the sorted count first beats the pairwise sum at {measured} pairs "
        f"(PAIRWISE_MAX_PAIRS = {PAIRWISE_MAX_PAIRS})"
    )
    print(f"wrote {out} and {machine_path}")
    failed = [r for r in rows if not r["agrees"]]
    if failed:
        print(
            f"DISAGREEMENT in {len(failed)} rows: " + ", ".join(sorted({r["implementation"] for r in failed})),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
