"""bench llm-throughput's arithmetic: the ideal wall time and the rows of several worker counts."""

from __future__ import annotations

import attrs

from experiments.bench.llm_throughput import Row, full_rate, ideal_wall, speedups


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


def test_the_full_rate_counts_calls_until_the_first_slot_falls_empty() -> None:
    """Five units on two slots: the fourth end leaves one unit running for two slots."""
    ended = [3.0, 1.0, 2.0, 9.0, 4.0]
    answered = [0.5, 1.0, 1.5, 2.5, 3.0, 3.5, 4.0, 4.5, 8.0]
    assert full_rate(0.0, answered, ended, slots=2) == 7 / 4.0  # until 4.0, its own call in
    assert full_rate(0.5, answered, ended, slots=5) == 2 / 0.5  # all at once: until the first end
    assert full_rate(0.0, answered, ended, slots=6) is None  # the slots were never all held


def test_the_ratio_of_full_rates_is_given_when_both_rows_have_one() -> None:
    first, second = _row("simple", 256, 1, 10.0), _row("simple", 256, 2, 5.0)
    assert speedups([attrs.evolve(first, full=120.0), attrs.evolve(second, full=240.0)]) == [
        "simple at 256: 2 worker(s) 200.0 calls/s = 2.00x 1 (100.0 calls/s);"
        " at most 250.0 calls/s = 2.50x; every slot held: 240.0 calls/s = 2.00x (120.0 calls/s)"
    ]
    assert "      -" in first.line() and "   240.0" in attrs.evolve(second, full=240.0).line()


def test_a_row_without_an_ideal_shows_none_of_its_figures() -> None:
    """A failover trial's slots change mid-run: no ideal, efficiency or ceiling is printed."""
    trial = attrs.evolve(_row("simple", 64, 2, 5.0), ideal=None)
    assert trial.efficiency is None and trial.ceiling is None
    assert "  5.0       -     -    64" in trial.line()
    assert speedups([_row("simple", 64, 1, 10.0), trial]) == [
        "simple at 64: 2 worker(s) 200.0 calls/s = 2.00x 1 (100.0 calls/s)"
    ]
