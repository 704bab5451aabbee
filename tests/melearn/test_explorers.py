"""The interactive explorers show melearn's numbers: every embedded state against melearn, computed another way.

The states are read back from the HTML a page embeds (the JSON, after its rounding to 6 significant digits), and
each is compared with what melearn gives for that state by a second route: the confusion matrix counted with
``melearn.confusion`` on the predictions at that threshold, the P-R and ROC points from ``melearn.pr_curve`` and
``melearn.roc_curve``, the cost from ``melearn.normalized_cost`` on those counts, the critical value from
``melearn.binomial_critical_error`` and the distribution from SciPy, the bias-variance terms from
``melearn.bias_variance_decomposition`` on fits made here.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from melearn import (
    bias_variance_decomposition,
    binomial_critical_error,
    confusion,
    f_beta,
    normalized_cost,
    positive_probability_cost,
    pr_curve,
    roc_curve,
)
from melearn.bias_variance import polynomial_predictions
from melearn.explorers import (
    COST_PAIRS,
    bias_variance_explorer,
    bias_variance_states,
    binomial_explorer,
    binomial_states,
    dumps,
    generated_scores,
    threshold_datasets,
    threshold_explorer,
    threshold_states,
)
from melearn.reference.ranking import PUMPKIN_EXAMPLE

RTOL = 1e-5  # the JSON keeps 6 significant digits


def embedded(explorer) -> dict:
    """The JSON a page embeds, parsed back from the explorer's HTML."""
    found = re.findall(r'<script type="application/json" class="mlx-data">(.*?)</script>', explorer._repr_html_())
    assert len(found) == 1
    return json.loads(found[0])


def close(shown, value) -> bool:
    return abs(shown - value) <= RTOL * abs(value) + 1e-12


@pytest.fixture(scope="module")
def threshold_page():
    return threshold_datasets(), embedded(threshold_explorer())


def test_the_pumpkin_example_is_the_first_data_set(threshold_page):
    specs, _ = threshold_page
    assert specs[0]["scores"] == list(PUMPKIN_EXAMPLE.scores)
    assert specs[0]["labels"] == list(PUMPKIN_EXAMPLE.labels)
    assert len(specs) == 4


def test_every_threshold_state_is_melearns(threshold_page):
    specs, data = threshold_page
    assert len(data["sets"]) == len(specs)
    for spec, shown in zip(specs, data["sets"], strict=True):
        y, s = np.array(spec["labels"]), np.array(spec["scores"])
        roc, pr = roc_curve(y, s), pr_curve(y, s)
        p = y.mean()
        assert len(shown["stops"]) == np.unique(s).size + 1
        for k, state in enumerate(shown["stops"]):
            predicted = s >= (np.inf if k == 0 else np.sort(np.unique(s))[::-1][k - 1])
            c = confusion(y, predicted)
            assert (state["tp"], state["fp"], state["fn"], state["tn"]) == tuple(c)
            assert close(state["tpr"], c.tp / (c.tp + c.fn)) and close(state["tpr"], roc.tpr[k])
            assert close(state["fpr"], c.fp / (c.fp + c.tn)) and close(state["fpr"], roc.fpr[k])
            assert state["tpr_shown"] == f"{c.tp / (c.tp + c.fn):.3f}"
            assert state["fpr_text"] == f"{c.fp}/{c.fp + c.tn}"
            if k == 0:
                assert state["precision"] is None and state["precision_text"] is None
                assert state["f1"] == 0
            else:
                assert close(state["precision"], c.tp / (c.tp + c.fp)) and close(
                    state["precision"], pr.precision[k - 1]
                )
                assert close(state["recall"], pr.recall[k - 1])
                assert close(state["f1"], f_beta(y, predicted)) if c.tp else state["f1"] == 0
                assert state["precision_shown"] == f"{c.tp / (c.tp + c.fp):.3f}"
                assert state["threshold"] == pr.thresholds[k - 1]
            fnr, fpr = c.fn / (c.tp + c.fn), c.fp / (c.fp + c.tn)
            for j, (c01, c10) in enumerate(COST_PAIRS):
                want = normalized_cost(fnr, fpr, p, c01, c10)
                assert close(state["cost"][j], want)
                assert state["cost_shown"][j] == f"{want:.3f}"
        for j, (c01, c10) in enumerate(COST_PAIRS):
            cost = shown["costs"][j]
            assert close(cost["p_cost"], positive_probability_cost(p, c01, c10))
            # (2.25) in exact rationals, from the counts of each stop
            q, m_pos, m_neg = Fraction(int(y.sum()), y.size), int(y.sum()), int(y.size - y.sum())
            exact = [
                (Fraction(st["fn"], m_pos) * q * c01 + Fraction(st["fp"], m_neg) * (1 - q) * c10)
                / (q * c01 + (1 - q) * c10)
                for st in shown["stops"]
            ]
            assert cost["best"] == [k for k, value in enumerate(exact) if value == min(exact)]


def test_a_tied_group_moves_as_one_diagonal_step(threshold_page):
    _, data = threshold_page
    pumpkin = data["sets"][0]
    stop_of = {sample["name"]: sample["stop"] for sample in pumpkin["samples"]}
    assert stop_of["s4"] == stop_of["s5"] == 4 and pumpkin["tied"] == [4]
    before, after = pumpkin["stops"][3], pumpkin["stops"][4]
    assert (after["tp"] - before["tp"], after["fp"] - before["fp"]) == (1, 1)
    assert after["kind"] == "diagonal"
    assert [s["kind"] for s in pumpkin["stops"][1:]] == [
        "vertical", "horizontal", "vertical", "diagonal", "horizontal", "vertical", "horizontal"
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(20))
def test_each_stop_admits_exactly_one_group_of_tied_scores(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 30))
    y = rng.integers(0, 2, m)
    y[:2] = [0, 1]
    s = rng.integers(0, 6, m).astype(float)  # few values: many ties
    states = threshold_states(y, s, cost_pairs=[(1, 1)])
    ranked = [sample["score"] for sample in states["samples"]]
    assert ranked == sorted(s.tolist(), reverse=True)
    for k, state in enumerate(states["stops"]):
        admitted = {i for i, sample in enumerate(states["samples"]) if sample["stop"] <= k}
        threshold = np.inf if k == 0 else state["threshold"]
        assert admitted == {i for i, score in enumerate(ranked) if score >= threshold}
        if k:
            group = [sample for sample in states["samples"] if sample["stop"] == k]
            assert len({sample["score"] for sample in group}) == 1
            labels = {sample["label"] for sample in group}
            kind = "diagonal" if labels == {0, 1} else "vertical" if labels == {1} else "horizontal"
            assert state["kind"] == kind


def test_every_binomial_state_is_melearns():
    data = embedded(binomial_explorer())
    assert len(data["tests"]) == 5 * 5 * 3
    for m, _ in data["ms"]:
        for eps0, _ in data["eps0s"]:
            pmf = data["pmf"][f"{m}|{eps0}"]["p"]
            want = stats.binom.pmf(np.arange(m + 1), m, float(eps0))
            assert np.allclose(pmf, want, rtol=RTOL, atol=1e-300)
            for alpha, _ in data["alphas"]:
                shown = data["tests"][f"{m}|{eps0}|{alpha}"]
                r = binomial_critical_error(m, float(eps0), alpha=float(alpha))
                assert shown["critical_count"] == r.critical_count
                assert close(shown["critical_value"], r.critical_value)
                assert close(shown["size"], stats.binom.sf(r.critical_count, m, float(eps0)))
                assert shown["size"] < float(alpha) <= shown["size_one_lower"]
                assert shown["critical_value_shown"] == f"{r.critical_count}/{m} = {r.critical_value:.3f}"
                assert shown["size_shown"] == f"{r.size:.4f}"


def test_the_binomial_axis_zooms_to_the_mass_and_holds_every_critical_value():
    data = embedded(binomial_explorer())
    narrowest = 1.0
    for m, _ in data["ms"]:
        for eps0, _ in data["eps0s"]:
            low, high = data["pmf"][f"{m}|{eps0}"]["x"]
            assert 0 <= low < high <= 1
            counts = np.arange(m + 1)
            outside = stats.binom.pmf(counts[(counts / m < low) | (counts / m > high)], m, float(eps0)).sum()
            assert outside < 2e-4, (m, eps0, outside)
            for alpha, _ in data["alphas"]:
                c = binomial_critical_error(m, float(eps0), alpha=float(alpha)).critical_count
                assert low <= c / m and (c + 1) / m <= high, (m, eps0, alpha)
            ticks = [value for value, _ in data["pmf"][f"{m}|{eps0}"]["xticks"]]
            assert ticks[0] == low and ticks[-1] == high and 3 <= len(ticks) <= 5
            narrowest = min(narrowest, high - low)
    assert narrowest <= 0.4  # at m = 100 the axis is no longer 0 to 1


def _bias_variance_inputs(seed=7, T=200):
    rng = np.random.default_rng(seed)
    x_train, x_test = np.linspace(0, 1, 12), np.linspace(0, 1, 41)
    g = np.sin(2 * np.pi * x_test)
    train = np.sin(2 * np.pi * x_train) + 0.3 * rng.standard_normal((T, 12))
    test = g + 0.3 * rng.standard_normal((T, 41))
    return x_train, train, x_test, test, g


def test_every_bias_variance_state_is_melearns():
    x_train, train, x_test, test, g = _bias_variance_inputs()
    data = embedded(bias_variance_explorer(bias_variance_states(x_train, train, x_test, test, g, range(11))))
    assert data["degrees"] == list(range(11))
    for d, state in zip(range(11), data["states"], strict=True):
        pred = polynomial_predictions(np.broadcast_to(x_train, train.shape), train, x_test, d)
        r = bias_variance_decomposition(pred, test, g)
        for key in ("bias2", "variance", "noise", "error"):
            assert close(state[key], getattr(r, key))
            assert state[f"{key}_shown"] == f"{getattr(r, key):.4f}"
        assert np.allclose(state["mean_fit"], pred.mean(axis=0), rtol=RTOL, atol=1e-9)
        assert np.allclose(state["fits"], pred[:8], rtol=RTOL, atol=1e-9)


def test_the_html_is_deterministic_and_self_contained():
    first, second = threshold_explorer()._repr_html_(), threshold_explorer()._repr_html_()
    assert first == second
    # nothing loaded from elsewhere: the only address is the SVG namespace, a name, not a request
    assert re.findall(r"https?://[^\s\"']+", first) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"\bsrc=|\bhref=|@import|url\(http|fetch\(|XMLHttpRequest", first)
    assert 'id="threshold-explorer"' in first and "@media print" in first
    assert dumps({"b": 1.0000004, "a": -0.0}) == '{"a":0.0,"b":1.0}'
    assert dumps(["</script>"]) == '["<\\/script>"]'


def test_generated_scores_are_seeded_and_tie():
    a = generated_scores(10, 10, 1.0, seed=3)
    b = generated_scores(10, 10, 1.0, seed=3)
    assert all(np.array_equal(u, v) for u, v in zip(a, b, strict=True))
    assert not np.array_equal(a[1], generated_scores(10, 10, 1.0, seed=4)[1])
    assert np.all((a[1] > 0) & (a[1] < 1)) and a[0].sum() == 10


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: generated_scores(0, 5, 1.0, seed=1), "m_pos"),
        (lambda: generated_scores(5, 2.5, 1.0, seed=1), "m_neg"),
        (lambda: generated_scores(5, 5, -1.0, seed=1), "separation"),
        (lambda: generated_scores(5, 5, 1.0, seed=-1), "rng"),
        (lambda: generated_scores(5, 5, 1.0, seed=np.random.default_rng(1)), "seed"),
        (lambda: threshold_states([1, 0], [0.5, np.nan]), "y_score"),
        (lambda: threshold_states([1, 2], [0.5, 0.4]), "y_true"),
        (lambda: threshold_states([1, 0], [0.5, 0.4], names=["a"]), "names"),
        (lambda: threshold_states([1, 0], [0.5, 0.4], cost_pairs=[(1, -1)]), "cost10"),
        (lambda: threshold_states([1, 0], [0.5, 0.4], cost_pairs=[]), "cost_pairs"),
        (lambda: binomial_states([0], [0.3], [0.05]), "m"),
        (lambda: binomial_states([10], [1.0], [0.05]), "eps0"),
        (lambda: binomial_states([10], [0.3], [0.0]), "alpha"),
        (lambda: binomial_states([], [0.3], [0.05]), "ms"),
        (lambda: bias_variance_states([0, 1], [[1, 2]], [0.5], [[1, 2]], [1], [0]), "labels_test"),
        (lambda: bias_variance_states([0, 1], [[1, 2]], [0.5], [[1]], [1], [2], shown=1), "degrees"),
        (lambda: bias_variance_states([0, 1], [[1, 2]], [0.5], [[1]], [1], [0], shown=2), "shown"),
        (lambda: threshold_explorer(name="Not an id"), "name"),
        (lambda: threshold_explorer(start=(9, 0)), "start"),
        (lambda: threshold_explorer(cost_start=99), "cost_start"),
        (lambda: binomial_explorer(start=(0, 0)), "start"),
        (lambda: bias_variance_explorer({"x": []}), "states"),
        (lambda: dumps({"a": float("nan")}), "non-finite"),
    ],
)
def test_bad_inputs_raise_value_error_naming_the_argument(call, argument):
    with pytest.raises(ValueError, match=re.escape(argument)):
        call()
