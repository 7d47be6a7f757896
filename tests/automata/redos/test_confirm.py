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
    asymptotic,
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


def _chain(degree: int, largest: int) -> tuple[tuple[int, float], ...]:
    """Trials of a chain of pumps up to ``largest``: time in its path count, a product of
    ``(n + a)`` terms, the slowest trial 1 s."""
    counts = [n for n in pump_counts(Attack("", (("a", ""),), "")) if n <= largest]
    paths = [math.prod(n + a for a in range(1, degree + 1)) for n in counts]
    return tuple((n, p / paths[-1]) for n, p in zip(counts, paths, strict=True))


@pytest.mark.parametrize(("degree", "largest"), [(2, 5000), (3, 600), (4, 152)])
def test_a_chain_timed_past_the_dense_counts_fits_its_degree_from_below(
    degree: int, largest: int
) -> None:
    # the plain log-log slope: the chain's lower-order terms leave it a little under the degree
    trials = _chain(degree, largest)
    assert asymptotic(trials)
    slope = fitted_slope(trials)
    assert slope is not None and degree - 0.15 < slope < degree


def test_one_slow_trial_at_the_top_does_not_raise_the_degree() -> None:
    # the last trial 1.4 times its least, as single runs were on a loaded machine: a fitted shift
    # of n took that bend for a chain's lower-order terms and read 4.7
    trials = list(_chain(4, 152))
    trials[-1] = (trials[-1][0], trials[-1][1] * 1.4)
    assert fitted_slope(tuple(trials)) == pytest.approx(4.0, abs=0.3)


def test_a_chain_reaching_the_target_within_the_dense_counts_gives_no_degree() -> None:
    # a degree 8 reaches a second at n = 5, where its slope is far below 8: not asymptotic
    trials = _chain(8, 5)
    assert not asymptotic(trials)
    slope = fitted_slope(trials)
    assert slope is not None and slope < 7.5
    assert not asymptotic(_chain(2, DENSE))
    assert asymptotic(_chain(2, 15))  # the first pump count past the dense ones


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
