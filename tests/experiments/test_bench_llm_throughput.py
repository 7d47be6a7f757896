"""bench llm-throughput's arithmetic: the ideal wall time and the rows of several worker counts."""

from __future__ import annotations

from experiments.bench.llm_throughput import Row, ideal_wall, speedups


def _row(label: str, concurrency: int, workers: int, wall: float) -> Row:
    return Row(label, concurrency, workers, 10, 1000, wall, 4.0, concurrency, 0, 0, 0, 1, 0.25, 0.1)


def test_the_ideal_schedules_the_longest_chains_first() -> None:
    assert ideal_wall([4, 3, 3, 2], slots=2, latency=0.5) == 3.0  # {4, 2} and {3, 3}
    assert ideal_wall([5], slots=8, latency=2.0) == 10.0


def test_each_worker_count_is_compared_with_the_first_of_its_list_and_concurrency() -> None:
    """Beside the ceiling of a runner that costs nothing: 1,000 calls in an ideal 4 s."""
    rows = [
        _row("simple", 256, 1, 10.0),
        _row("simple", 256, 2, 5.0),
        _row("simple", 256, 4, 4.0),
        _row("extended", 256, 1, 8.0),
    ]
    assert speedups(rows) == [
        "simple at 256: 2 worker(s) 200.0 calls/s = 2.00x 1 (100.0 calls/s);"
        " at most 250.0 calls/s = 2.50x",
        "simple at 256: 4 worker(s) 250.0 calls/s = 2.50x 1 (100.0 calls/s);"
        " at most 250.0 calls/s = 2.50x",
    ]
    assert "   2 " in rows[1].line()  # the worker count is a column of its own
