"""Helpers shared by the llm tests: a recording fake sleep and clock, a client factory, and a
port that accepts no connections."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

from llm.calllog import CallLog
from llm.chat import Message
from llm.client import LLMClient, Mode
from llm.config import ClientConfig
from llm.retry import RetryPolicy

API_KEY = "sk-test-secret"
MESSAGES = (Message("system", "You infer regexes."), Message("user", "Training Data:\na, 1\n"))


class FakeSleep:
    """An ``asyncio.sleep`` stand-in that records the requested delays and returns at once.

    Its ``clock`` is a monotonic clock that only these sleeps advance.
    """

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.now = 0.0

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def make_client(
    base_url: str,
    *,
    sleep: FakeSleep | None = None,
    log: CallLog | None = None,
    mode: Mode = "live",
    wall_clock: float = 1_700_000_000.0,
    clock: Callable[[], float] | None = None,
    seed: int = 0,
    **settings: Any,
) -> LLMClient:
    """A client for ``base_url`` whose sleeps are recorded, with ``settings`` as config fields."""
    config = attrs.evolve(ClientConfig(base_url=base_url, api_key=API_KEY), **settings)
    return LLMClient(
        config,
        log=log,
        mode=mode,
        sleep=FakeSleep() if sleep is None else sleep,
        wall_clock=lambda: wall_clock,
        clock=time.monotonic if clock is None else clock,
        rng=np.random.default_rng(seed),
    )


@contextlib.contextmanager
def unaccepting_port() -> Iterator[int]:
    """A loopback port whose accept queue is full, so a new connection hangs in the handshake."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        fillers = []
        try:
            for _ in range(4):
                filler = socket.socket()
                filler.setblocking(False)
                filler.connect_ex(("127.0.0.1", port))
                fillers.append(filler)
            yield port
        finally:
            for filler in fillers:
                filler.close()


def fast_retries(max_attempts: int = 3) -> RetryPolicy:
    """A retry policy with few attempts (sleeps are fake anyway)."""
    return RetryPolicy(max_attempts=max_attempts)
