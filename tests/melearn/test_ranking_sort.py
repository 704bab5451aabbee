"""The one-sort route of melearn._sorting (labels packed into the keys) against (2.21) counted pair by pair.

melearn._sorting is the private sorting behind melearn.ranking.

The fast route and the general route (argsort, or per-class sorts and binary search) must give the same exact
integer counts on awkward scores: signed zeros, subnormals, both signs, extreme magnitudes, runs of ties that
cross the blocks in which the sorted keys are read.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from melearn import _sorting, ranking
from melearn._sorting import counts_by_argsort, twice_correct_pairs, twice_correct_pairs_by_search
from melearn.ranking import threshold_counts


def pairwise_twice_correct(y, s) -> int:
    """Formula (2.21)'s complement counted pair by pair, exactly: 2 * (pairs ordered right + ties / 2)."""
    pos, neg = s[y], s[~y]
    total = Fraction(0)
    for p in pos.tolist():
        for n in neg.tolist():
            total += 1 if p > n else (Fraction(1, 2) if p == n else 0)
    return int(2 * total)


AWKWARD = np.array(
    [
        0.0,
        -0.0,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        1.0,
        -1.0,
        0.5,
        2.0,
        -3.5,
        1e308,
        -1e308,
        1.7976931348623157e308,
        1e-300,
        7.0,
    ]
)


def score_sets(rng):
    yield "probabilities", rng.random(40)
    yield "rounded", np.round(rng.random(40), 1)
    yield "above one", 3 + np.round(rng.random(40), 1)
    yield "both signs, ties", np.round(rng.standard_normal(40), 1)
    yield "negative only", -rng.random(40) * 1e5
    yield "signed zeros and subnormals", rng.choice(AWKWARD[:4], size=40)
    yield "extreme magnitudes", rng.choice(AWKWARD, size=40)
    yield "one value", np.full(40, 0.25)


@pytest.mark.parametrize("chunk", [1, 3, 64, 1 << 16])
def test_packed_sort_counts_pairs_exactly(monkeypatch, chunk):
    monkeypatch.setattr(_sorting, "_CHUNK", chunk)  # small blocks: runs of ties cross block edges
    rng = np.random.default_rng(11)
    for trial in range(6):
        for name, s in score_sets(rng):
            y = rng.random(s.size) < 0.4
            y[:2] = [True, False]
            expected = pairwise_twice_correct(y, s)
            assert twice_correct_pairs(y, s) == expected, (name, trial)
            assert twice_correct_pairs_by_search(y, s) == expected, (name, trial)
            fast = threshold_counts(y, s)
            thresholds, tp, fp = counts_by_argsort(y, s)
            assert np.array_equal(fast.thresholds, thresholds), (name, trial)
            assert np.array_equal(fast.tp, tp) and np.array_equal(fast.fp, fp), (name, trial)
            assert fast.tp.dtype == np.int64 and fast.thresholds.dtype == np.float64


def test_every_route_is_taken():
    y = np.array([True, False, True, False])
    routes = {}
    for name, s in {
        "float keys": [0.1, 0.2, 0.2, 0.9],
        "unsigned keys": [-1.0, 0.5, 1.0, -0.5],
        "general": [-1e308, 1e308, 0.0, 1.0],
    }.items():
        packed = _sorting._sorted_keys(y, np.array(s))
        routes[name] = packed is not None
    assert routes == {"float keys": True, "unsigned keys": True, "general": False}


def test_thresholds_are_the_scores_themselves():
    s = np.array([-2.5, 1e-310, 0.3, 0.3, -0.0, 7.25, -1e-5])
    y = np.array([1, 0, 1, 0, 1, 0, 0], dtype=bool)
    counts = threshold_counts(y, s)
    assert counts.thresholds.tolist() == [7.25, 0.3, 1e-310, 0.0, -1e-5, -2.5]
    assert counts.tp.tolist() == [0, 1, 1, 2, 2, 3] and counts.fp.tolist() == [1, 2, 3, 3, 4, 4]


def test_input_scores_are_left_untouched():
    rng = np.random.default_rng(5)
    s = np.round(rng.standard_normal(300), 2)
    y = rng.random(300) < 0.5
    kept = s.copy()
    ranking.roc_auc(y, s)
    threshold_counts(y, s)
    assert np.array_equal(s, kept) and np.array_equal(np.signbit(s), np.signbit(kept))


def test_a_broken_tie_rule_is_caught(monkeypatch):
    # a mutant that keeps the packed labels' order inside a tie (negatives first) counts a tied pair as correct
    def ties_count_whole(y, s):
        values, labels, _, runs, position_sum = _sorting._sorted_keys(y, s)
        where = np.flatnonzero(labels)
        m_pos = where.size
        return 2 * (int(where.sum()) - m_pos * (m_pos - 1) // 2)

    y = np.array([True, False, True, False])
    s = np.array([0.8, 0.8, 0.1, 0.05])
    assert ties_count_whole(y, s) != pairwise_twice_correct(y, s)
    assert twice_correct_pairs(y, s) == pairwise_twice_correct(y, s)
