"""The pieces of ``bench redos`` that decide its ground truth and read the peers' answers."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from automata.redos.confirm import fitted_slope
from experiments.bench.redos import Claim, _column, _recheck_attack, _shown
from experiments.bench.redos_peers import PeerAnswer
from experiments.bench.redos_timing import Growth, pumped_family


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


def test_a_slope_timed_within_the_dense_pump_counts_is_counted_apart_from_the_degrees() -> None:
    # a degree 8 reached the target at n = 5 (slope 6.4), a degree 4 at n = 152 (slope 3.9)
    chain8 = Growth(((2, 6e-3), (3, 0.07), (4, 0.45), (5, 2.1)), 6.4, exponential=False)
    chain4 = Growth(((76, 0.15), (96, 0.37), (120, 0.9), (152, 2.3)), 3.9, exponential=False)
    truths = [_shown(chain8, "static attack"), _shown(chain4, "static attack")]
    assert [(t.largest, t.asymptotic) for t in truths] == [(5, False), (152, True)]
    claims = [Claim(True, "polynomial", 8, True, 1e-3), Claim(True, "polynomial", 4, True, 1e-3)]
    column = _column(claims, truths)
    assert column["degree ±0.5 of slope"] == "1.000 of 1"
    assert column["slope not a degree (n ≤ 12)"] == "1"


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
