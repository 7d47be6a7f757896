"""A-CEGIS on the loop: feedback strategies, history, hardening, and the trajectory metrics."""

from __future__ import annotations

import asyncio
import json
import math
import re
from typing import Any

import pytest

from cegis.config import LoopConfig
from cegis.llm.acegis import HardeningCycle, harden
from cegis.llm.settings import setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.loop import run
from cegis.state import EpochState, Task
from experiments.report.trajectory import (
    from_records,
    similarity,
    summarize,
    trajectory,
    tree_edit_distance,
)
from oracle.examples import Example
from oracle.testsuite import SuiteOracle
from regexlang.dialects import parse
from tests.cegis.llm.scripted_server import Action, Reply, Rule, ScriptedServer
from tests.llm.support import make_client

GOLD = "[a-z]+dog"
DESCRIPTION = "one or more lowercase letters followed by dog"
SUITE = SuiteOracle.from_gold(GOLD, description=DESCRIPTION)
RULES = (
    Rule("PREVIOUS ATTEMPT\n[a-z]*dog", (Reply.answer("[a-z]+dog"),)),
    Rule("PREVIOUS ATTEMPT\ndog\n", (Reply.answer("[a-z]*dog"),)),
    Rule("DESCRIPTION", (Reply.answer("dog", "the word dog"),)),
)


def acegis_run(
    name: str, *, cycles: int = 0, rules: tuple[Rule, ...] = RULES
) -> tuple[ScriptedServer, EpochState, tuple[HardeningCycle, ...]]:
    setting = setting_named(name)

    async def scenario() -> tuple[ScriptedServer, EpochState, tuple[HardeningCycle, ...]]:
        async with ScriptedServer(rules) as server:
            async with make_client(server.base_url) as client:
                prepared = prepare_llm_run(
                    setting,
                    Task("python", GOLD),
                    LoopConfig(evaluate=False),
                    client,
                    description=DESCRIPTION,
                    suite=SUITE,
                )
                learner, teacher, config = prepared.learner, prepared.teacher, prepared.config
                state = await run(prepared.task, learner, teacher, config)
                state, done = await harden(state, learner, SUITE, teacher, config, cycles=cycles)
                return server, state, done

    return asyncio.run(scenario())


def test_diagnostic_feedback_carries_directional_witnesses_and_the_history() -> None:
    server, state, _ = acegis_run("acegis-diagnostic")
    assert state.outcome == "consistent" and state.epoch == 2
    second = server.requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert "<ans>dog</ans>" in second[2]["content"] and "the word dog" in second[2]["content"]
    feedback = second[3]["content"]
    missed = [t.string for t in SUITE.tests if t.label and re.fullmatch("dog", t.string) is None]
    witnesses = [json.loads(line[2:]) for line in feedback.splitlines() if line.startswith("- ")]
    assert "must match" in feedback and witnesses and set(witnesses) <= set(missed)


def test_error_only_feedback_counts_failed_hidden_tests() -> None:
    rules = (Rule("failed", (Reply.answer(GOLD),)), Rule("DESCRIPTION", (Reply.answer("dog"),)))
    server, state, _ = acegis_run("acegis-error-only", rules=rules)
    failed = sum((re.fullmatch("dog", t.string) is not None) != t.label for t in SUITE.tests)
    assert f"failed {failed} of {len(SUITE.tests)} hidden tests" in server.user_messages()[1]
    assert state.outcome == "consistent"


def test_generic_feedback_says_only_wrong_and_zero_shot_keeps_no_history() -> None:
    generic = (
        Rule("not correct", (Reply.answer(GOLD),)),
        Rule("DESCRIPTION", (Reply.answer("dog"),)),
    )
    server, _, _ = acegis_run("acegis-generic", rules=generic)
    assert "That regex is not correct" in server.user_messages()[1]
    assert not any(t.string in server.user_messages()[1] for t in SUITE.tests if t.string)
    fresh = (Rule("DESCRIPTION", (Reply.answer("dog"), Reply.answer(GOLD))),)
    server, state, _ = acegis_run("acegis-zero-shot", rules=fresh)
    assert [len(body["messages"]) for body in server.requests] == [
        2,
        2,
    ] and state.outcome == "consistent"


def test_hardening_turns_failed_probes_into_one_repair_and_reaches_robust_success() -> None:
    server, state, cycles = acegis_run("acegis-full", cycles=2)
    (cycle,) = cycles
    assert cycle.probed == "[a-z]*dog" and [e.string for e in cycle.failed] == ["dog"]
    assert cycle.repaired == GOLD and cycle.passed and cycle.robust
    assert '"dog"' in server.user_messages()[2] and "must reject" in server.user_messages()[2]
    path = from_records(state.records, SUITE, hardening=cycles, probe_final=True)
    assert [t.hypothesis for t in path.turns] == ["dog", "[a-z]*dog", GOLD]
    assert (path.pass_at_1, path.pass_at_final, path.reciprocal_rank) == (0, 1, 0.5)
    failed_first = sum((re.fullmatch("dog", t.string) is not None) != t.label for t in SUITE.tests)
    assert path.fixes == failed_first  # turn 2 passes every test turn 1 failed
    assert path.breaks == 0 and path.rer == math.inf and path.robust is True


def test_rer_counts_fixes_and_breaks_against_re_fullmatch() -> None:
    hypotheses = ["dog", "[a-z]*dog", "[a-z]+dog|ndodo", None, GOLD]
    path = trajectory(hypotheses, SUITE)

    def outcomes(h: str | None) -> list[bool]:
        return [
            h is not None and (re.fullmatch(h, t.string) is not None) == t.label
            for t in SUITE.tests
        ]

    rows = [outcomes(h) for h in hypotheses]
    fixes = sum(not a and b for x, y in zip(rows, rows[1:]) for a, b in zip(x, y))
    breaks = sum(a and not b for x, y in zip(rows, rows[1:]) for a, b in zip(x, y))
    assert (path.fixes, path.breaks) == (fixes, breaks) and breaks > 0
    assert path.rer == pytest.approx(fixes / breaks)
    summary = summarize([path, trajectory([GOLD], SUITE)])
    assert summary.pass_at_1 == 0.5 and summary.mrr == pytest.approx((1 / 2 + 1) / 2)
    assert summary.rer == pytest.approx(fixes / breaks)


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("abc", "abc", 0),
        ("abc", "abd", 1),
        ("abc", "ab", 1),
        ("(ab)*", "ab", 1),
        ("a|b", "a", 2),
        ("a*", "b+", 2),
    ],
)
def test_tree_edit_distance_on_small_trees(a: str, b: str, distance: int) -> None:
    ta, tb = parse(a, "python"), parse(b, "python")
    assert tree_edit_distance(ta, tb) == tree_edit_distance(tb, ta) == distance
    assert 0.0 <= similarity(ta, tb) <= 1.0 and (similarity(ta, tb) == 1.0) == (distance == 0)


def test_exact_variant_feeds_back_exact_counterexamples_and_decides_equivalence() -> None:
    rules = (
        Rule("PREVIOUS ATTEMPT", (Reply.answer(GOLD),)),
        Rule("DESCRIPTION", (Reply.answer("[a-z]*dog"),)),
    )
    server, state, _ = acegis_run("acegis-exact", rules=rules)
    assert state.outcome == "equivalent" and state.verdict is not None and state.verdict.exact
    feedback = server.user_messages()[1]
    witnesses = [json.loads(line[2:]) for line in feedback.splitlines() if line.startswith("- ")]
    assert "must reject" in feedback and 0 < len(witnesses) <= 6
    assert all(re.fullmatch("[a-z]*dog", w) and not re.fullmatch(GOLD, w) for w in witnesses)


def test_diagnostic_feedback_shows_witnesses_every_turn_even_when_the_mistake_repeats() -> None:
    # the model repeats "dog" for all 7 turns: the teacher has nothing new after a while, and the
    # earlier witnesses the attempt still gets wrong are shown again (at most 3 per direction)
    rules = (
        Rule("PREVIOUS ATTEMPT", (Reply.answer("dog"),)),
        Rule("DESCRIPTION", (Reply.answer("dog"),)),
    )
    server, state, _ = acegis_run("acegis-diagnostic-7", rules=rules)
    assert state.epoch == 7 and len(server.requests) == 7
    for body in server.requests[1:]:
        feedback = body["messages"][-1]["content"]
        witnesses = [
            json.loads(line[2:]) for line in feedback.splitlines() if line.startswith("- ")
        ]
        assert 1 <= len(witnesses) <= 6 and all(re.fullmatch(GOLD, w) for w in witnesses)


def test_hardening_feedback_is_capped_per_direction_like_a_turn() -> None:
    # "[a-z]+[a-z]og" passes the hidden tests and fails 8 probes, all of them strings to reject
    rules = (
        Rule("PREVIOUS ATTEMPT\n[a-z]+[a-z]og", (Reply.answer(GOLD),)),
        Rule("DESCRIPTION", (Reply.answer("[a-z]+[a-z]og"),)),
    )
    server, state, cycles = acegis_run("acegis-full", cycles=1, rules=rules)
    (cycle,) = cycles
    assert len(cycle.failed) == SUITE.config.witnesses == 3 and cycle.repaired == GOLD
    repair = server.user_messages()[-1]
    assert sum(line.startswith("- ") for line in repair.splitlines()) == 3


def test_robust_success_counts_a_run_without_a_final_hypothesis_as_not_robust() -> None:
    malformed = (
        Rule("PREVIOUS ATTEMPT", (Reply(("I cannot say.",)),)),
        Rule("DESCRIPTION", (Reply(("I cannot say.",)),)),
    )
    _, failed, _ = acegis_run("acegis-diagnostic", rules=malformed)
    _, solved, cycles = acegis_run("acegis-full", cycles=2)
    paths = [
        from_records(failed.records, SUITE, probe_final=True),
        from_records(solved.records, SUITE, hardening=cycles, probe_final=True),
    ]
    assert paths[0].robust is False and paths[1].robust is True
    assert summarize(paths).robust == 0.5
    # an unparseable turn fails every test: it breaks what the turn before passed
    broken = trajectory(["[a-z]*dog", "((", GOLD], SUITE)
    passed_first = sum(broken.turns[0].outcomes)
    assert broken.breaks == passed_first and broken.fixes == len(SUITE.tests)


class _Turns(ScriptedServer):
    """Answers the k-th request with the k-th answer, whatever the prompt."""

    def __init__(self, answers: tuple[str, ...]) -> None:
        super().__init__(())
        self.answers = answers

    def _action(self, body: dict[str, Any]) -> Action:
        return Reply.answer(self.answers[self.chat_calls - 1])


def _witnesses(feedback: str) -> dict[bool, list[str]]:
    """The witnesses of a diagnostic feedback by the label they should get."""
    shown: dict[bool, list[str]] = {True: [], False: []}
    label = None
    for line in feedback.splitlines():
        if line.startswith("It rejects these strings"):
            label = True
        elif line.startswith("It matches these strings"):
            label = False
        elif line.startswith("- ") and label is not None:
            shown[label].append(json.loads(line[2:]))
    return shown


def test_under_the_test_suite_every_witness_is_a_test_the_previous_answer_fails() -> None:
    # always wrong: too narrow (8 positives missed: new ones run out at turn 4), unparsable, too broad
    narrow = "[a-z]{1,5}dog"
    answers = (narrow, narrow, "(", narrow, narrow, ".*", "zq")

    async def scenario() -> tuple[_Turns, EpochState]:
        async with _Turns(answers) as server, make_client(server.base_url) as client:
            prepared = prepare_llm_run(
                "acegis-diagnostic-7",
                Task("python", GOLD),
                LoopConfig(evaluate=False),
                client,
                description=DESCRIPTION,
                suite=SUITE,
            )
            return server, await run(
                prepared.task, prepared.learner, prepared.teacher, prepared.config
            )

    server, state = asyncio.run(scenario())
    tests = {t.string: t.label for t in SUITE.tests}
    assert state.epoch == 7 and state.records[0].initial == ()  # no random initial sample
    assert all(record.source != "random" for record in state.records)
    assert all(isinstance(e, Example) and tests.get(e.string) == e.label for e in state.examples)
    seen: set[str] = set()
    kinds = set()
    for turn, body in enumerate(server.requests[1:], start=1):
        previous, feedback = answers[turn - 1], body["messages"][-1]["content"]
        shown = _witnesses(feedback)
        if previous == "(":  # no language, so no failed test: the syntax error alone
            assert "does not parse" in feedback and "every string above" not in feedback
            assert shown == {True: [], False: []}
            continue
        for label, strings in shown.items():
            failed = [
                s
                for s, truth in tests.items()
                if truth == label and (re.fullmatch(previous, s) is not None) != truth
            ]
            assert set(strings) <= set(failed) and len(strings) == min(
                SUITE.config.witnesses, len(failed)
            )
            fresh = [s not in seen for s in strings]
            assert fresh == sorted(fresh, reverse=True)  # new failures first, then repeats
            kinds.add(tuple(sorted(set(fresh))))
        seen |= {s for strings in shown.values() for s in strings}
    assert {(True,), (False, True), (False,)} <= kinds  # only new, new then repeated, only repeated


def test_the_history_shows_the_model_only_what_it_said() -> None:
    """A model that answers prose sees its prose as its turn, never an answer made up for it."""
    prose = "This is a regex that matches the pattern a *b"
    rules = (Rule("DESCRIPTION", (Reply((prose,)),)), Rule("no regex", (Reply((prose,)),)))
    server, state, _ = acegis_run("acegis-diagnostic", rules=rules)
    assert state.epoch == 4 and len(server.requests) == 4
    sent = [prose]
    for body in server.requests[1:]:
        said = [m["content"] for m in body["messages"] if m["role"] == "assistant"]
        assert said and all(content in sent for content in said)
        feedback = body["messages"][-1]["content"]
        assert "holds no regex" in feedback and "That regex does not parse" not in feedback
