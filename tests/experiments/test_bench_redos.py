"""The pieces of ``bench redos`` that decide its ground truth and read the peers' answers."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from automata.redos.confirm import fitted_slope
from experiments.bench.redos import _recheck_attack
from experiments.bench.redos_peers import PeerAnswer
from experiments.bench.redos_timing import pumped_family


def test_the_slope_is_fitted_over_every_slow_enough_trial() -> None:
    quadratic = tuple((n, 1e-6 * n * n) for n in (100, 141, 200, 282, 400, 565, 800))
    assert fitted_slope(quadratic) == pytest.approx(2.0)
    # the start-up noise of the first trials, far below the slowest, does not bend the fit
    noisy = ((10, 3e-3), (14, 2.5e-3), *quadratic)
    assert fitted_slope(noisy) == pytest.approx(2.0)


def test_a_high_degree_is_fitted_from_the_measurable_trials_below_the_span() -> None:
    # degree 8: n = 2 takes 3.6 ms, n = 4 already 0.92 s, far past the span of the slowest
    assert fitted_slope(((1, 1e-5), (2, 3.6e-3), (4, 0.92))) == pytest.approx(8.0, abs=0.01)


def test_too_few_measurable_trials_give_no_slope() -> None:
    assert fitted_slope(((100, 1e-5), (200, 4e-5))) is None
    assert fitted_slope(((100, 1e-5), (200, 0.4))) is None


def test_the_pumped_family_holds_only_failing_inputs_and_finds_the_nested_loop() -> None:
    family = pumped_family("(?:a+)+b", "fullmatch")
    assert family
    assert all(re.fullmatch("(?:a+)+b", attack.text(5)) is None for attack in family)
    assert any(attack.pumps[0][0] == "a" for attack in family)


def test_a_recheck_attack_reads_as_ours() -> None:
    answer = PeerAnswer(True, "polynomial", 3, ((("x", "a"), ("y", "b")), "!"), 1.0)
    attack = _recheck_attack(answer)
    assert attack is not None and attack.text(2) == "xaayb" + "b!"
    assert _recheck_attack(PeerAnswer(False, None, None, None, 1.0)) is None


@pytest.mark.slow
def test_the_quick_bench_prints_the_table() -> None:
    from cli.main import main

    result = CliRunner().invoke(main, ["bench", "redos", "--quick"])
    assert result.exit_code == 0, result.output
    assert "precision" in result.output and "families: static class" in result.output
