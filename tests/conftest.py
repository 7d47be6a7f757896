"""Shared test configuration: a deterministic hypothesis profile and the shared data folder.

A test that reads the public datasets takes the :func:`shared_data` fixture; it skips with a reason
when the folder is absent, and, through :func:`_skipped_without_shared_file`, when a file it reads
there is missing (``REGEX_CEGIS_DATA`` naming an empty or partial copy), as the README promises.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from experiments.data_dir import DEFAULT_DATA_DIR
from experiments.datasets.errors import DatasetNotFound

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


def _missing_shared_file(error: BaseException | None) -> Path | None:
    """The shared data file whose absence ``error`` (or an error it was raised from) reports."""
    while error is not None:
        missing = (
            error.path
            if isinstance(error, DatasetNotFound)
            else Path(str(error.filename))
            if isinstance(error, FileNotFoundError) and error.filename is not None
            else None
        )
        if missing is not None and Path(missing).resolve().is_relative_to(SHARED_DATA.resolve()):
            return Path(missing)
        error = error.__cause__ or error.__context__
    return None


@contextlib.contextmanager
def _skipped_without_shared_file(item: pytest.Item) -> Iterator[None]:
    try:
        yield
    except Exception as error:
        uses_data = "shared_data" in getattr(item, "fixturenames", ())
        missing = _missing_shared_file(error) if uses_data else None
        if missing is None:
            raise
        pytest.skip(f"shared data file not found: {missing}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _skipped_without_shared_file(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _skipped_without_shared_file(item):
        return (yield)
