"""Shared test setup: Hypothesis profiles and paths.

Hypothesis profiles (pick one with HYPOTHESIS_PROFILE=name):

* ``ci``: loaded when the CI environment variable is set; derandomized, 30 examples.
* ``dev``: the local default, 60 examples.
* ``fuzz``: 2000 examples, for a long hunt (``HYPOTHESIS_PROFILE=fuzz pytest tests/properties``).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# The parse cache (dsl/cache.py) of the test run goes to a fresh folder, not the user's,
# and so do the caches of the command-line runs the tests start.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="meeple-test-cache-")

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=30,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("fuzz", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def hare_path() -> Path:
    """games/hare.rules, the example game."""
    return ROOT / "games" / "hare.rules"
