"""Helpers shared by the llm tests: a recording fake sleep and a client factory."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from llm.calllog import CallLog
from llm.chat import Message
from llm.client import LLMClient, Mode
from llm.config import ClientConfig
from llm.retry import RetryPolicy

MESSAGES = (Message("system", "You infer regexes."), Message("user", "Training Data:\na, 1\n"))


class FakeSleep:
    """An ``asyncio.sleep`` stand-in that records the requested delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make_client(
    base_url: str,
    *,
    sleep: FakeSleep | None = None,
    log: CallLog | None = None,
    mode: Mode = "live",
    wall_clock: float = 1_700_000_000.0,
    **settings: Any,
) -> LLMClient:
    """A client for ``base_url`` whose sleeps are recorded, with ``settings`` as config fields."""
    config = attrs.evolve(ClientConfig(base_url=base_url, api_key="sk-test-secret"), **settings)
    return LLMClient(
        config,
        log=log,
        mode=mode,
        sleep=FakeSleep() if sleep is None else sleep,
        wall_clock=lambda: wall_clock,
        rng=np.random.default_rng(0),
    )


def fast_retries(max_attempts: int = 3) -> RetryPolicy:
    """A retry policy with few attempts (sleeps are fake anyway)."""
    return RetryPolicy(max_attempts=max_attempts)
