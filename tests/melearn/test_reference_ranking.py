"""Tests for melearn.reference.ranking (the literal, exact second route of the ranking and confusion pages), and
for how the pages credit the pumpkin book's eight-sample example."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from melearn import auc, confusion, pr_curve, roc_auc, roc_curve
from melearn.precision_recall_f import one_vs_rest_confusions
from melearn.reference.ranking import (
    PUMPKIN_EXAMPLE,
    literal_confusion,
    literal_one_vs_rest,
    literal_pr_points,
    literal_roc_points,
    literal_trapezoids,
)

ROOT = Path(__file__).resolve().parents[2]

labelled_scores = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5)), min_size=2, max_size=30).filter(
    lambda v: len({y for y, _ in v}) == 2
)


def test_pumpkin_example_by_hand():
    e = PUMPKIN_EXAMPLE
    points = literal_roc_points(e.labels, e.scores)
    q = Fraction(1, 4)
    assert points == [(0, 0), (0, q), (q, q), (q, 2 * q), (2 * q, 3 * q), (3 * q, 3 * q), (3 * q, 1), (1, 1)]
    terms = literal_trapezoids(points)
    assert terms == [0, Fraction(1, 16), 0, Fraction(5, 32), Fraction(3, 16), 0, Fraction(1, 4)]
    assert sum(terms) == Fraction(21, 32)


@settings(max_examples=80, deadline=None)
@given(labelled_scores)
def test_literal_roc_points_and_trapezoids_agree_with_melearn(data):
    y = [a for a, _ in data]
    s = [b / 4 for _, b in data]
    points = literal_roc_points(y, s)
    c = roc_curve(y, s)
    assert [(float(x), float(t)) for x, t in points] == list(zip(c.fpr.tolist(), c.tpr.tolist(), strict=True))
    exact = sum(literal_trapezoids(points))
    assert roc_auc(y, s) == float(exact)
    assert auc(c.fpr, c.tpr) == pytest.approx(float(exact), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(labelled_scores)
def test_literal_pr_points_agree_with_melearn(data):
    y = [a for a, _ in data]
    s = [b / 4 for _, b in data]
    points = literal_pr_points(y, s)
    c = pr_curve(y, s)
    assert [float(r) for r, _ in points] == pytest.approx(c.recall.tolist(), rel=1e-15)
    assert [float(p) for _, p in points] == pytest.approx(c.precision.tolist(), rel=1e-15)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([-1, 1]), st.sampled_from([-1, 1])), min_size=1, max_size=30))
def test_literal_confusion_agrees_with_melearn(data):
    y_true, y_pred = [a for a, _ in data], [b for _, b in data]
    assert tuple(literal_confusion(y_true, y_pred)) == tuple(confusion(y_true, y_pred)[:4])


def test_literal_one_vs_rest_agrees_with_melearn():
    rng = np.random.default_rng(5)
    labels = ["a", "b", "c"]
    y_true, y_pred = rng.choice(labels, 200).tolist(), rng.choice(labels, 200).tolist()
    mine = literal_one_vs_rest(y_true, y_pred, labels)
    theirs = one_vs_rest_confusions(y_true, y_pred, labels=labels)
    assert [tuple(c) for c in mine] == [(c.tp, c.fp, c.fn, c.tn) for c in theirs]
    assert all(sum(c) == 200 for c in mine)


def test_bad_input():
    with pytest.raises(ValueError, match="differ in length"):
        literal_confusion([1, 0], [1])
    with pytest.raises(ValueError, match="is empty"):
        literal_confusion([], [])
    with pytest.raises(ValueError, match="labels must be"):
        literal_confusion([2, 0], [1, 0])
    with pytest.raises(ValueError, match="both classes"):
        literal_roc_points([1, 1], [0.2, 0.3])


def _page_text(path: Path) -> tuple[str, str]:
    """The markdown prose and the code of a notebook, each joined."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return prose, code


PAGES = sorted(p for p in (ROOT / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_pumpkin_example_is_credited_and_never_called_ours(page):
    prose, code = _page_text(page)
    text = prose + "\n" + code
    assert not re.search(r"seed example", text, re.IGNORECASE), f"{page.name} calls the example 'the seed example'"
    uses = "PUMPKIN_EXAMPLE" in code or re.search(r"0\.77,\s*0\.62,\s*0\.58", text)
    if uses:
        assert "xie2023pumpkin" in prose, f"{page.name} uses the pumpkin book's example without citing it"
        assert not re.search(r"numbers are ours|our (own )?example", prose, re.IGNORECASE), (
            f"{page.name} claims the pumpkin book's example as its own"
        )
