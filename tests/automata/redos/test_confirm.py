"""Confirming an attack: the pump counts the engine is timed at and the growth fit read from them
(the one fit ``bench redos`` uses too)."""

from __future__ import annotations

import math
import sys

import pytest

from automata.redos.confirm import (
    DENSE,
    GROWTH,
    MAX_LENGTH,
    exponential,
    fitted_slope,
    json_lines_child,
    pump_counts,
    time_attack,
)
from automata.redos.verdict import Attack


def test_pump_counts_take_every_small_value_then_grow_geometrically() -> None:
    counts = pump_counts(Attack("x", (("ab", ""),), "!"))
    assert counts[:DENSE] == list(range(1, DENSE + 1))
    later = counts[DENSE:]
    assert all(b / a <= GROWTH + 0.1 for a, b in zip(later, later[1:], strict=False))
    assert len(Attack("x", (("ab", ""),), "!").text(counts[-1])) <= MAX_LENGTH


def test_a_degree_eight_attack_has_several_trials_within_the_fit() -> None:
    # n^8 from 1 µs at n = 1: the dense counts leave at least three trials within the span
    trials = tuple((n, 1e-6 * n**8) for n in pump_counts(Attack("", (("a", ""),), "")) if n <= 9)
    assert fitted_slope(trials) == pytest.approx(8.0)


@pytest.mark.parametrize("degree", [2, 4, 5, 8])
def test_the_shifted_fit_reads_a_chain_of_pumps_at_small_n_as_its_degree(degree: int) -> None:
    # a chain's path count is a product of (n + a) terms: the plain log-log slope reads it low
    counts = [n for n in pump_counts(Attack("", (("a", ""),), "")) if n <= 40]
    paths = [math.prod(n + a for a in range(1, degree + 1)) for n in counts]
    trials = tuple((n, 0.5 * p / paths[-1]) for n, p in zip(counts, paths, strict=True))
    assert fitted_slope(trials) == pytest.approx(degree, abs=0.3)


def test_one_slow_trial_does_not_make_a_polynomial_exponential() -> None:
    cubic = [(n, 1e-6 * n**3) for n in range(10, 60, 5)]
    cubic[-1] = (cubic[-1][0], cubic[-1][1] * 2.5)  # the last trial slowed by the machine
    assert not exponential(tuple(cubic), cut=False)
    assert exponential(tuple((n, 1e-6 * 2**n) for n in range(10, 24)), cut=False)


def test_an_exponential_reaching_the_target_at_small_n_is_exponential() -> None:
    # (?:.*[A-Za-z].*){7,} on re: x3.8 per pump, 0.1 s at n = 6, local slopes below 8
    trials = ((1, 1.4e-4), (2, 5.1e-4), (3, 2.0e-3), (4, 8.2e-3), (5, 28.7e-3), (6, 0.1115))
    assert exponential(trials, cut=False)
    eighth = tuple((n, 1e-6 * math.prod(n + a for a in range(1, 9))) for n in range(1, 8))
    assert not exponential(eighth, cut=False)


def test_a_child_ended_by_its_cpu_time_limit_counts_as_cut() -> None:
    ends = "import os, signal; print('[1, 0.5]', flush=True); os.kill(os.getpid(), signal.SIGPROF)"
    rows, cut = json_lines_child([sys.executable, "-c", ends], {}, silence=60.0)
    assert rows == [[1, 0.5]] and cut


def test_an_exponential_attack_is_cut_at_its_deadline_and_counted_that_long() -> None:
    attack = Attack("", (("a", ""),), "b")
    timed = time_attack("(a|a)*c", "python", "fullmatch", attack, target=10.0, deadline=0.3)
    assert timed is not None
    trials, cut = timed
    assert cut and trials[-1][1] >= 0.3
