"""Every public numeric function at the edges: ``STRATEGIES`` (in ``edge_calls.py``) drives each name of
``melearn.__all__`` (bar the derivation classes) with generated calls, each held to the contract of ``run``."""

from __future__ import annotations

import inspect
import re

import pytest
from hypothesis import given

import melearn

from .edge_calls import DERIVATION_NAMES, EXAMPLES, STRATEGIES, run


def test_every_public_function_is_driven():
    assert set(STRATEGIES) == set(melearn.__all__) - DERIVATION_NAMES


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_public_docstring_states_its_limits(name):
    doc = inspect.getdoc(getattr(melearn, name))
    assert re.search(r"^\s*Limits: ", doc, re.MULTILINE), f"{name} states no limits"


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_contract_at_the_edges(name):
    @EXAMPLES
    @given(call=STRATEGIES[name])
    def inner(call):
        run(name, call)

    inner()
