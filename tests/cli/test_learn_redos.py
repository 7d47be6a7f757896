"""``learn`` and ``regex`` say whether what they print can take a backtracking engine down."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from automata.safe.form import safe_form
from cegis.symbolic.passive import learn_regex
from cli.main import main

NESTED = ["--target", "a+b", "--learner", "tests.cli.redos_learners:nested"]
PLAIN = ["--print", "plain"]


def _learn(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, ["learn", *NESTED, "--json", *args])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert isinstance(report, dict)
    return report


def test_learn_json_carries_the_verdict_of_the_printed_regex_and_a_failing_attack() -> None:
    report = _learn(*PLAIN)
    redos = report["redos"]
    assert isinstance(redos, dict)
    assert report["regex"] == "(?:a+)+b" and report["exact"] is True
    assert (redos["verdict"], redos["degree"], redos["match"], redos["flavor"]) == (
        "exponential",
        None,
        "fullmatch",
        "python",
    )
    assert re.fullmatch("a+b", redos["attack"]) is None  # the attack makes the match fail
    assert redos["attack"].startswith(redos["prefix"] + redos["pumps"][0][0])


def test_learn_text_warns_under_the_regex_it_prints() -> None:
    result = CliRunner().invoke(main, ["learn", *NESTED, *PLAIN])
    lines = result.output.splitlines()
    assert lines[0] == "regex:    (?:a+)+b"
    assert lines[1].startswith(
        "warning:  ReDoS: exponential backtracking under python re.fullmatch"
    )
    assert "'a' × n" in lines[1]


def test_the_verdict_names_the_flavour_and_the_call_it_assumes() -> None:
    searched = _learn("--flavor", "javascript", *PLAIN)["redos"]
    assert isinstance(searched, dict)
    assert (searched["verdict"], searched["match"], searched["flavor"]) == (
        "exponential",
        "search",
        "javascript",
    )
    assert _learn("--flavor", "re2")["redos"] is None  # RE2 is an automaton: nothing to say


def test_a_linear_print_has_a_linear_verdict_and_no_warning() -> None:
    args = ["learn", "--positive", "ab1", "--positive", "cd22", "--negative", "1"]
    report = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert report["redos"]["verdict"] == "linear" and report["redos"]["attack"] is None
    assert "ReDoS" not in CliRunner().invoke(main, args).output


def test_learn_regex_returns_the_verdict_of_its_print() -> None:
    learned = learn_regex(["ab1", "cd22"], ["1"])
    assert learned.redos is not None and learned.redos.verdict == "linear"
    assert learned.redos.engine == "python"
    assert learn_regex(["ab1", "cd22"], ["1"], flavor="posix").redos is None


def test_regex_prints_the_verdict_and_warns_with_an_attack() -> None:
    linear = CliRunner().invoke(main, ["regex", "a*b"]).output
    quadratic = CliRunner().invoke(main, ["regex", "a*a*b", *PLAIN]).output
    assert "redos:      linear backtracking under python re.fullmatch" in linear
    assert "warning:    ReDoS: polynomial (degree 2)" in quadratic and "'a' × n" in quadratic


def test_regex_shows_the_safe_form_under_the_warning_of_its_canonical_form() -> None:
    lines = CliRunner().invoke(main, ["regex", "a*a*b"]).output.splitlines()
    assert lines[0] == "canonical:  a*a*b"
    assert any(line.startswith("warning:    ReDoS: polynomial (degree 2)") for line in lines)
    assert "safe form:  a*b  (linear backtracking under python re.fullmatch;" in lines[-1]
    assert not any(line.startswith("safe form") for line in _regex_plain("a*a*b"))


def _regex_plain(pattern: str) -> list[str]:
    return CliRunner().invoke(main, ["regex", pattern, *PLAIN]).output.splitlines()


def test_learn_prints_the_safe_form_by_default_with_the_print_it_replaces() -> None:
    report = _learn()
    assert (report["regex"], report["plain_regex"]) == ("a+b", "(?:a+)+b")
    redos = report["redos"]
    assert isinstance(redos, dict)
    assert (redos["verdict"], redos["no_linear_form"]) == ("linear", None)
    lines = CliRunner().invoke(main, ["learn", *NESTED]).output.splitlines()
    assert lines[0] == "regex:    a+b"
    assert lines[1].startswith("safe:     the linear form of (?:a+)+b (ReDoS: exponential")
    assert not any(line.startswith("warning:") for line in lines)
    assert _learn(*PLAIN)["plain_regex"] is None


def test_a_search_call_gets_its_anchors_back_on_the_safe_form() -> None:
    javascript = _learn("--flavor", "javascript")
    pcre = _learn("--flavor", "pcre")
    python = _learn("--anchored", "search")
    assert (javascript["regex"], javascript["plain_regex"]) == ("^a+b$", "^(?:a+)+b$")
    assert (pcre["regex"], pcre["plain_regex"]) == ("\\Aa+b\\z", "\\A(?:a+)+b\\z")
    assert python["regex"] == "^a+b\\Z"
    for text in ["ab", "aab", "b", "aaba", "xab", ""]:
        assert bool(re.search(str(python["regex"]), text)) == bool(re.fullmatch("a+b", text))


def test_a_print_without_a_linear_form_warns_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every candidate is tried: with the default tries the reason would name the first 2
    defaults = safe_form.__kwdefaults__
    assert defaults is not None
    monkeypatch.setitem(defaults, "tries", 100)
    lines = CliRunner().invoke(main, ["regex", "[0-9].*(?:dog|truck|ring).*"]).output.splitlines()
    alarm = next(line for line in lines if line.startswith("warning:"))
    assert "no linear form: none of the" in alarm
    assert not any(line.startswith("safe form") for line in lines)


def test_learn_regex_returns_the_safe_form_and_the_plain_print() -> None:
    learned = learn_regex(["aab", "ab", "aaaab"], ["a", "b", "abb"], flavor="javascript")
    assert learned.redos is not None and learned.redos.linear
    plain = learn_regex(
        ["aab", "ab", "aaaab"], ["a", "b", "abb"], flavor="javascript", printing="plain"
    )
    assert plain.plain is None
    assert learned.regex == plain.regex or learned.plain == plain.regex
