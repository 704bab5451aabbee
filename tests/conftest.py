"""Shared pytest configuration for the library tests.

Hypothesis: no per-example deadline (a loaded 2-core machine makes timings meaningless, and a deadline failure
says nothing about correctness); under CI=true the examples are derandomized, so that a run of CI on the same
commit is reproducible. Locally they stay random, to keep finding new cases.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "local")
