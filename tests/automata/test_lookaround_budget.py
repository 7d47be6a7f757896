"""Lookaround compilation stops at the state limit or the caller's time budget, whichever comes
first, with a clear error (issue 50, item 6: these regexes ran for minutes before)."""

from __future__ import annotations

import pickle
import string

import pytest

from automata import StateLimitExceeded, TimeLimitExceeded, accepts, from_text

#: Thirty lookaheads: the DFA has about 2³⁰ states, and every residual is a large expression.
THIRTY = "".join(f"(?=.*{string.ascii_lowercase[i % 26]}{i % 10})" for i in range(30)) + "[a-z0-9]*"


def test_thirty_lookaheads_stop_at_the_time_budget() -> None:
    with pytest.raises(TimeLimitExceeded, match=r"lookarounds took more than its 0\.5 s budget"):
        from_text(THIRTY, "python", seconds=0.5)


@pytest.mark.parametrize("text", ["(a(?=.{20}b)|b)*", "(?=a{10000})a*", THIRTY])
def test_a_spent_budget_stops_any_lookaround_compile(text: str) -> None:
    with pytest.raises(TimeLimitExceeded):
        from_text(text, "python", seconds=0)


@pytest.mark.parametrize("text", ["(a(?=.{20}b)|b)*", "(?=a{10000})a*"])
def test_the_state_limit_comes_first_when_it_is_smaller(text: str) -> None:
    with pytest.raises(StateLimitExceeded, match="more than 300 states"):
        from_text(text, "python", state_limit=300, seconds=60)


def test_a_budget_large_enough_changes_nothing() -> None:
    dfa = from_text("(?=.*[0-9])[a-z0-9]{2}", "python", seconds=60)
    assert [accepts(dfa, s) for s in ("a1", "1a", "ab", "12", "a12")] == [
        True,
        True,
        False,
        True,
        False,
    ]


def test_the_error_survives_pickling() -> None:
    error = TimeLimitExceeded("the DFA of x", 1.5)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is TimeLimitExceeded and str(copy) == str(error) and copy.seconds == 1.5
