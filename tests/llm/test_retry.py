"""Retry decisions and waits: status classes, server hints, backoff bounds."""

from __future__ import annotations

import email.utils

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm.retry import RetryPolicy, is_retryable_status, retry_after_seconds, should_retry_header

NOW = 1_700_000_000.0


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 599])
def test_transient_statuses_retry(status: int) -> None:
    assert is_retryable_status(status, quota_exhausted=False)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 413, 422])
def test_caller_errors_do_not_retry(status: int) -> None:
    assert not is_retryable_status(status, quota_exhausted=False)


def test_exhausted_quota_does_not_retry() -> None:
    assert not is_retryable_status(429, quota_exhausted=True)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, None),
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": " 0.5 "}, 0.5),
        ({"Retry-After-Ms": "1500", "Retry-After": "9"}, 1.5),
        ({"Retry-After": email.utils.formatdate(NOW + 30, usegmt=True)}, 30.0),
        ({"Retry-After": email.utils.formatdate(NOW - 30, usegmt=True)}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "-3"}, None),
        ({"Retry-After": "inf"}, None),
        ({"retry-after-ms": "nan", "Retry-After": "4"}, 4.0),
    ],
)
def test_retry_after_hints(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_seconds(headers, NOW) == (
        None if expected is None else pytest.approx(expected)
    )


def test_server_hint_is_capped() -> None:
    policy = RetryPolicy(max_retry_after=60.0)
    assert policy.delay(1, 3600.0, np.random.default_rng(0)) == 60.0
    assert policy.delay(1, 2.0, np.random.default_rng(0)) == 2.0


@given(retry=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_backoff_doubles_from_half_a_second_to_eight_with_bounded_jitter(
    retry: int, seed: int
) -> None:
    policy = RetryPolicy()
    ceiling = min(8.0, 0.5 * 2 ** (retry - 1))
    delay = policy.delay(retry, None, np.random.default_rng(seed))
    assert 0.75 * ceiling <= delay <= ceiling


def test_jitter_spreads_the_waits_of_clients_that_failed_together() -> None:
    policy = RetryPolicy()
    waits = {policy.delay(3, None, np.random.default_rng(seed)) for seed in range(50)}
    assert len(waits) == 50 and min(waits) < 1.9 and max(waits) <= 2.0


def test_no_jitter_is_a_choice() -> None:
    assert RetryPolicy(jitter=0.0).delay(3, None, np.random.default_rng(0)) == 2.0


@pytest.mark.parametrize(
    ("headers", "verdict"),
    [
        ({}, None),
        ({"x-should-retry": "true"}, True),
        ({"x-should-retry": "false"}, False),
        ({"x-should-retry": "1"}, None),
    ],
)
def test_should_retry_header(headers: dict[str, str], verdict: bool | None) -> None:
    assert should_retry_header(headers) is verdict
