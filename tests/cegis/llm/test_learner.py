"""The LLM learner end to end: the real loop, the real client, a scripted server over loopback."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import attrs
import pytest

from cegis.config import Budgets, LoopConfig
from cegis.llm.learner import LLMLearner
from cegis.llm.settings import CandidateSource, Guard, Sampling, setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.records import run_recorded
from cegis.state import EpochState, Task
from oracle.examples import Counterexample, Example
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.cegis.llm.support import TARGET, learn
from tests.llm.fake_server import Status
from tests.llm.support import make_client

WRONG = "a b*"  # consistent with a few examples, not equivalent
REPAIR = "REPAIR OF THE PREVIOUS ATTEMPT"
REFLECTION = "REFLECTION ON THE PREVIOUS EPOCH"
DATA = "TRAINING DATA"


def test_single_learns_at_first_epoch_and_sends_the_examples() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        assert state.outcome == "equivalent" and state.epoch == 1
        (record,) = state.records
        assert record.proposal_text == TARGET and record.failure is None
        assert record.cost.calls == 1 and record.cost.prompt_tokens == 100
        prompt = server.user_messages()[0]
        assert all(e.text() in prompt for e in record.initial)
        system = server.requests[0]["messages"][0]["content"]
        assert "CONSTRAINTS" in system  # regularization on

    learn((Rule(DATA, (Reply.answer(TARGET),)),), setting_named("single"), check=check)


def test_single_without_regularization_sends_no_constraints() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        assert "CONSTRAINTS" not in server.requests[0]["messages"][0]["content"]

    learn((Rule(DATA, (Reply.answer(TARGET),)),), setting_named("single-noreg"), check=check)


def test_agentic_repairs_syntax_then_consistency_within_one_epoch() -> None:
    answers = (Reply.answer("a (b"), Reply.answer("b*"), Reply.answer(TARGET))

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert state.outcome == "equivalent" and state.epoch == 1
        assert record.cost.calls == 3 and record.proposal_text == TARGET
        first_repair, second_repair = server.user_messages()[1:]
        assert REPAIR in first_repair and "Try 1: a (b" in first_repair and "^" in first_repair
        assert "Try 1: a (b" in second_repair and "Try 2: b*" in second_repair  # every previous try
        wrong = [e for e in _plain(record.initial) if _simple_accepts("b*", e.string) != e.label]
        assert wrong and all(e.text() in second_repair.split("Repair examples")[1] for e in wrong)

    learn(
        (Rule(REPAIR, answers[1:]), Rule(DATA, answers[:1])), setting_named("agentic"), check=check
    )


def _simple_accepts(regex: str, string: str) -> bool:
    """Python's ``re`` as the independent reference for a simple-dialect regex (``+`` is union)."""
    return re.fullmatch(regex.replace(" ", "").replace("+", "|"), string) is not None


def _plain(examples: tuple[Counterexample, ...]) -> list[Example]:
    """The initial random sample is plain strings."""
    assert all(isinstance(e, Example) for e in examples)
    return [e for e in examples if isinstance(e, Example)]


def test_agentic_keeps_the_best_repair_score_when_retries_run_out() -> None:
    # the best (fewest misclassified) answer is kept, even when it is not consistent
    answers = (Reply.answer("(a+b+c)*"), Reply.answer("c"), Reply.answer("((a"))

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.cost.calls == 3  # the repair budget is the epoch's calls in total
        initial = _plain(record.initial)
        scores = {}
        for regex in ("(a+b+c)*", "c"):
            wrong = sum(_simple_accepts(regex, e.string) != e.label for e in initial)
            scores[regex] = 1 - wrong / len(initial)
        assert record.proposal_text == max(scores, key=lambda r: scores[r])

    learn(
        (Rule(REPAIR, answers[1:]), Rule(DATA, answers[:1])),
        setting_named("agentic"),
        epochs=1,
        check=check,
    )


def test_reflection_shows_previous_regex_reasoning_and_new_counterexamples() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        assert state.outcome == "equivalent" and state.epoch == 2
        reflection = server.user_messages()[1]
        assert REFLECTION in reflection and f"Previous regex:\n{WRONG}" in reflection
        assert "Previous reasoning:\nfirst guess" in reflection
        added = state.records[0].added
        assert added and all(e.text() in reflection.split("New counterexamples")[1] for e in added)

    rules = (
        Rule(REFLECTION, (Reply.answer(TARGET),)),
        Rule(DATA, (Reply.answer(WRONG, "first guess"),)),
    )
    setting = attrs.evolve(setting_named("agentic"), repair_budget=1)
    learn(rules, setting, check=check)


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(("<reasoning>hm</reasoning><ans>a (b",), finish_reason="length"), "truncated"),
        (Reply(("I think it is a star of b",)), "no_regex"),
        (Reply.answer("a ? b"), "syntax_error"),
        (Status(500, {"error": {"message": "boom"}}), "server_error"),
    ],
)
def test_model_failures_are_typed_and_the_epoch_adds_random_examples(reply: Any, kind: str) -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.failure is not None and record.failure.kind == kind
        assert record.source == "random" and len(record.added) == 8
        assert state.records[1].failure is None and state.outcome == "equivalent"

    rules = (Rule(DATA, (reply, Reply.answer(TARGET))),)
    if isinstance(reply, Status):  # the client retries twice before giving up
        rules = (Rule(DATA, (reply, reply, Reply.answer(TARGET))),)
    learn(rules, setting_named("single"), check=check)


def test_token_budget_stops_the_repair_loop_with_a_typed_failure() -> None:
    setting = attrs.evolve(setting_named("agentic"), proposal_tokens=150)

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.failure is not None and record.failure.kind == "budget"
        assert record.cost.calls == 2  # 120 tokens after the first call, 240 after the second

    learn((Rule(DATA, (Reply.answer("a (b"),)),), setting, epochs=1, check=check)


@pytest.mark.parametrize("source", ["n", "calls", "reply"])
def test_multi_candidate_repair_keeps_the_best_candidate(source: CandidateSource) -> None:
    sampling = Sampling() if source == "reply" else Sampling(temperature=1.0)
    setting = attrs.evolve(
        setting_named("multi"),
        candidate_source=source,
        candidates=3,
        repair_budget=2,
        sampling=sampling,
    )
    many = ("<ans>b</ans>", f"<ans>{TARGET}</ans>", "<ans>((</ans>")
    repair = Reply(("".join(many),)) if source == "reply" else Reply(many)

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.proposal_text == TARGET and state.outcome == "equivalent"
        calls = {"n": 2, "calls": 6, "reply": 2}[source]
        assert record.cost.calls == calls == server.chat_calls
        if source == "n":
            assert server.requests[0]["n"] == server.requests[1]["n"] == 3
        if source == "reply":  # every call asks for the candidates
            assert all(
                "propose exactly 3 different candidate regexes" in m for m in server.user_messages()
            )

    rules = (Rule(REPAIR, (repair,)), Rule(DATA, (Reply.answer("a (b"),)))
    if source == "calls":  # three separate calls, one candidate each
        rules = (
            Rule(REPAIR, tuple(Reply((c,)) for c in many)),
            Rule(DATA, (Reply.answer("a (b"),)),
        )
    learn(rules, setting, epochs=1, check=check)


def test_guard_falls_back_to_a_consistent_hypothesis_when_every_draw_fails() -> None:
    # without regularization the union of the positives meets the whole contract
    setting = attrs.evolve(setting_named("guarded"), guard=Guard(draws=3), regularization=False)

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.failure is None and record.reasoning.startswith("fallback union")
        assert server.chat_calls == 3 and REPAIR in server.user_messages()[2]  # stateful feedback
        memo = record.memo
        assert memo["fallback"] == "union" and memo["draws"] == 3 and memo["conforming"] == 0
        assert memo["tally"] == {"proposals": 1, "draws": 3, "conforming": 0, "fallbacks": 1}
        assert record.verdict is not None and record.verdict.valid  # never an invalid hypothesis

    learn((Rule(DATA, (Reply.answer("(("),)),), setting, epochs=1, check=check)


def test_stateless_guard_resends_the_same_prompt_as_distinct_samples() -> None:
    setting = attrs.evolve(setting_named("guarded-stateless"), guard=Guard(draws=3, stateful=False))

    def check(server: ScriptedServer, state: EpochState) -> None:
        messages = [body["messages"] for body in server.requests]
        assert server.chat_calls == 3 and messages[0] == messages[1] == messages[2]

    learn((Rule(DATA, (Reply.answer("(("),)),), setting, epochs=1, check=check)


def test_guard_rejects_a_draw_beyond_the_regularization_bounds() -> None:
    long = " + ".join(["a b c a b c"] * 12)  # parses, but longer than 60 characters
    setting = attrs.evolve(setting_named("guarded"), guard=Guard(draws=2))

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.proposal_text == TARGET and record.memo["conforming"] == 1
        assert "at most 60 allowed" in server.user_messages()[1]

    learn(
        (Rule(REPAIR, (Reply.answer(TARGET),)), Rule(DATA, (Reply.answer(long),))),
        setting,
        epochs=1,
        check=check,
    )


def test_standard_grows_a_random_sample_on_a_log_scale() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        start = len(state.records[0].initial)
        sizes = [
            start + sum(len(x.added) for x in state.records[: i + 1])
            for i in range(len(state.records))
        ]
        assert len(state.records[0].initial) == 3 and sizes[:3] == [6, 12, 24]
        assert all(r.verdict is not None and r.verdict.mode == "sample" for r in state.records)
        assert state.outcome == "equivalent" and state.epoch == 4

    rules = (
        Rule(
            DATA,
            (Reply.answer(WRONG), Reply.answer(WRONG), Reply.answer(WRONG), Reply.answer(TARGET)),
        ),
    )
    learn(rules, setting_named("standard"), epochs=10, check=check)


def test_the_api_key_never_reaches_records_or_the_call_log(tmp_path: Any) -> None:
    from llm.calllog import CallLog

    records = tmp_path / "runs.jsonl"
    log_path = tmp_path / "calls.sqlite"

    async def scenario() -> None:
        rules = (Rule(DATA, (Status(401, {"error": {"message": "bad key"}}),)),)
        async with ScriptedServer(rules) as server:
            with CallLog(log_path) as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    setting = setting_named("single")
                    prepared = prepare_llm_run(
                        setting, Task("simple", TARGET), LoopConfig(), client
                    )
                    config = attrs.evolve(prepared.config, budgets=Budgets(epochs=1))
                    state = await run_recorded(
                        prepared.task, prepared.learner, prepared.teacher, config, records
                    )
                    assert (
                        state.records[0].failure is not None
                        and state.records[0].failure.kind == "server_error"
                    )

    asyncio.run(scenario())
    for path in tmp_path.iterdir():
        assert b"sk-test-secret" not in path.read_bytes()


def test_every_guarded_epoch_ends_with_a_hypothesis_consistent_with_its_examples() -> None:
    from automata.errors import DEFAULT_STATE_LIMIT as LIMIT
    from oracle.clustered import misclassified
    from oracle.compiling import compile_subject
    from regexlang.dialects import universe

    setting = attrs.evolve(setting_named("guarded"), guard=Guard(draws=2), regularization=False)

    def check(server: ScriptedServer, state: EpochState) -> None:
        seen = state.records[0].initial
        for record in state.records:
            text = record.proposal_text
            dfa = compile_subject(
                text, "hypothesis", dialect="simple", universe=universe("simple"), state_limit=LIMIT
            ).dfa
            assert record.failure is None and dfa is not None and not misclassified(dfa, seen)
            seen = seen + record.added
        assert [r.memo["tally"]["fallbacks"] for r in state.records] == list(
            range(1, len(state.records) + 1)
        )

    learn((Rule(DATA, (Reply.answer("a"),)),), setting, epochs=2, check=check)


def test_sampling_settings_reach_the_request_and_truncation_is_repaired() -> None:
    sampling = Sampling(temperature=0.7, seed=5, max_completion_tokens=900, reasoning_effort="low")
    setting = attrs.evolve(setting_named("agentic"), sampling=sampling)
    cut = Reply(("<reasoning>long thoughts",), finish_reason="length")

    def check(server: ScriptedServer, state: EpochState) -> None:
        body = server.requests[0]
        assert (
            body["temperature"],
            body["seed"],
            body["max_completion_tokens"],
            body["reasoning_effort"],
        ) == (0.7, 5, 900, "low")
        assert "cut off at the completion-token limit" in server.user_messages()[1]
        assert state.records[0].proposal_text == TARGET and state.outcome == "equivalent"

    learn((Rule(REPAIR, (Reply.answer(TARGET),)), Rule(DATA, (cut,))), setting, check=check)


def test_later_repairs_keep_the_epochs_reflection() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        prompts = server.user_messages()
        assert len(prompts) == 6 and REFLECTION not in prompts[1]  # epoch 0: data and 3 repairs
        assert REFLECTION in prompts[4] and REPAIR in prompts[5] and REFLECTION in prompts[5]
        assert state.outcome == "equivalent" and state.epoch == 2

    repairs = (Reply.answer("c"), Reply.answer("c"), Reply.answer("c"), Reply.answer(TARGET))
    rules = (
        Rule(REPAIR, repairs),
        Rule(REFLECTION, (Reply.answer("c"),)),
        Rule(DATA, (Reply.answer("c"),)),
    )
    learn(rules, setting_named("agentic"), check=check)


def test_learner_names_tell_custom_settings_and_models_apart() -> None:
    client = make_client("http://127.0.0.1:9/v1")
    single = setting_named("single")
    assert LLMLearner(single, client).name == "llm-single"
    custom = LLMLearner(attrs.evolve(single, repair_shown=4), client).name
    assert (
        custom.startswith("llm-single-")
        and custom != LLMLearner(attrs.evolve(single, repair_shown=5), client).name
    )
    assert LLMLearner(single, client, label="gpt-oss-120b").name == "llm-single@gpt-oss-120b"
    with pytest.raises(ValueError, match="fallback"):
        LLMLearner(setting_named("guarded"), client)
