"""Shared pytest configuration for the library tests, and the running example as a fixture.

Hypothesis: no per-example deadline (a loaded 2-core machine makes timings meaningless, and a deadline failure
says nothing about correctness); under CI=true the examples are derandomized, so that a run of CI on the same
commit is reproducible. Locally they stay random, to keep finding new cases.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import settings

from melearn.reference.ranking import PUMPKIN_EXAMPLE

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "local")


@pytest.fixture
def running_example():
    """The book's running example, the pumpkin book's eight samples (melearn.reference.PUMPKIN_EXAMPLE), as arrays.

    ``y`` are the labels (1 positive, 0 negative), ``s`` the scores, ``names`` s1 ... s8; s4 and s5 tie at 0.47.
    """
    return RunningExample(
        y=np.array(PUMPKIN_EXAMPLE.labels), s=np.array(PUMPKIN_EXAMPLE.scores), names=PUMPKIN_EXAMPLE.names
    )


class RunningExample(NamedTuple):
    """The running example as numpy arrays."""

    y: np.ndarray
    s: np.ndarray
    names: tuple[str, ...]
