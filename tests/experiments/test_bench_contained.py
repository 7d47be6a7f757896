"""A contained call gives its result, or None when its child runs out of memory or CPU time or
raises; the calling process goes on either way."""

from __future__ import annotations

import functools
import operator

from experiments.bench.contained import contained


def _hog() -> bytes:
    return bytes(2 << 30)  # 2 GiB, over the cap below


def _spin() -> int:
    while True:
        pass


def test_a_contained_call_gives_its_result() -> None:
    assert contained(functools.partial(operator.add, "ab", "c")) == "abc"


def test_a_call_over_its_memory_cap_gives_none() -> None:
    assert contained(_hog, memory=256 << 20) is None
    assert contained(functools.partial(max, 1, 2), memory=256 << 20) == 2  # this process goes on


def test_a_call_over_its_cpu_cap_or_raising_gives_none() -> None:
    assert contained(_spin, seconds=1) is None
    assert contained(functools.partial(operator.truediv, 1, 0)) is None
