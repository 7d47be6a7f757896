"""Shared test configuration: a deterministic hypothesis profile and the shared data folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from experiments.data_dir import DEFAULT_DATA_DIR

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci")

SHARED_DATA = DEFAULT_DATA_DIR


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared datasets folder (``../shared/data``); tests that need it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder not found at {SHARED_DATA}")
    return SHARED_DATA
