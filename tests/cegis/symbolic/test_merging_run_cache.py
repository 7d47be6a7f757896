"""The run cache (:mod:`cegis.symbolic.merging.core.run_cache`): results remembered per function,
bounded, never shared across runs or pickled along; what it shares is read-only."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from cegis.symbolic.merging.core.alike import alike
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import SymbolicWord


def test_a_result_is_computed_once_and_the_oldest_goes_past_the_limit() -> None:
    calls: list[int] = []

    def square(n: int) -> int:
        calls.append(n)
        return n * n

    cache = RunCache()
    assert [cache(square, n, limit=2) for n in (1, 2, 1, 3, 1)] == [1, 4, 1, 9, 1]
    assert calls == [1, 2, 3, 1]  # 1 was the oldest when 3 came: forgotten, computed again
    assert RunCache()(square, 2) == 4 and calls[-1] == 2  # another run remembers nothing


def test_slots_keep_the_latest_value_and_a_pickled_cache_is_empty() -> None:
    cache = RunCache()
    cache.keep("a", 1)
    cache.keep("a", 2)
    assert cache.latest("a", 0) == 2 and cache.latest("b", 0) == 0
    assert pickle.loads(pickle.dumps(cache)).latest("a", 0) == 0


def test_the_alike_table_a_run_shares_refuses_writes() -> None:
    words = [SymbolicWord(((0, 1), (2,)), True)]
    table = alike(words, 3, RunCache())
    assert table.tolist() == [[1], [0], [-1]]
    with pytest.raises(ValueError):
        table[0, 0] = 2
    assert isinstance(table, np.ndarray)
