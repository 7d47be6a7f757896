"""The LLM settings measure what the papers measure (issue 21), each checked through a scripted
loopback server that answers as vLLM's OpenAI server does (400 on ``n > 1`` at temperature 0,
hidden reasoning in ``message.reasoning``, usage without details, ``/tokenize``)."""

from __future__ import annotations

import asyncio
from typing import Any

import attrs
import pytest

from cegis.config import LoopConfig
from cegis.llm.settings import Guard, LLMSetting, setting_named
from cegis.llm.setup import prepare_llm_run
from cegis.loop import initial_state, run
from cegis.state import EpochState, Task
from oracle.exact import ExactTeacher
from oracle.examples import Example
from regexlang.charset import CharSet
from tests.cegis.llm import support
from tests.cegis.llm.scripted_server import Reply, Rule, ScriptedServer
from tests.cegis.llm.support import TARGET
from tests.llm.fake_server import Status
from tests.llm.support import make_client

DATA = "TRAINING DATA"
REPAIR = "REPAIR OF THE PREVIOUS ATTEMPT"


def learn(rules: tuple[Rule, ...], setting: LLMSetting, **options: Any) -> None:
    """:func:`tests.cegis.llm.support.learn` against a server that answers like vLLM."""
    support.learn(rules, setting, vllm=True, **options)


def test_an_agentic_epoch_makes_three_calls_in_total() -> None:
    # never consistent: the epoch spends its whole repair budget, which counts every call
    def check(server: ScriptedServer, state: EpochState) -> None:
        assert [record.cost.calls for record in state.records] == [3, 3]
        assert server.chat_calls == 6

    learn(
        (Rule(REPAIR, (Reply.answer("c"),)), Rule(DATA, (Reply.answer("c"),))),
        setting_named("agentic"),
        epochs=2,
        check=check,
    )


HIDDEN = "HIDDEN-CHAIN-OF-THOUGHT"


def test_hidden_reasoning_never_reaches_a_later_prompt() -> None:
    # no <reasoning> tag in the content, a chain of thought in the server's reasoning field
    wrong = Reply(("<ans>c</ans>",), hidden=HIDDEN)
    stated = Reply(("<reasoning>stated reason</reasoning><ans>a</ans>",), hidden=HIDDEN)

    def check(server: ScriptedServer, state: EpochState) -> None:
        assert server.chat_calls >= 4
        assert not any(HIDDEN in str(body["messages"]) for body in server.requests)
        assert all(HIDDEN not in record.reasoning for record in state.records)
        assert any("stated reason" in message for message in server.user_messages())

    learn(
        (Rule(REPAIR, (stated,)), Rule(DATA, (wrong,))),
        setting_named("agentic"),
        epochs=2,
        check=check,
    )


def test_standard_reaches_3000_examples_with_malformed_replies() -> None:
    # every reply lacks <ans>: each size records its failure and the schedule still moves on
    def check(server: ScriptedServer, state: EpochState) -> None:
        seen = [len(record.initial) for record in state.records[:1]]
        for record in state.records:
            seen.append(seen[-1] + len(record.added))
        assert seen[:-1] == [3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3000]
        assert all(
            record.failure is not None and record.failure.kind == "no_regex"
            for record in state.records
        )
        assert server.chat_calls == 11 and state.outcome != "equivalent"

    learn(
        (Rule(DATA, (Reply(("I am not sure.",)),)),),
        setting_named("standard"),
        epochs=11,
        check=check,
    )


def test_standard_96_stops_its_sample_at_96_strings_and_sends_every_call() -> None:
    # the named setting of a small context: the paper's schedule cut at 96, each size one call
    def check(server: ScriptedServer, state: EpochState) -> None:
        seen = [len(record.initial) for record in state.records[:1]]
        for record in state.records:
            seen.append(seen[-1] + len(record.added))
        assert seen[: len(state.records)] == [3, 6, 12, 24, 48, 96]
        assert server.chat_calls == 6 and len(state.records) == 6
        assert state.outcome != "equivalent"

    assert setting_named("standard").sample_sizes()[-1] == 3000
    learn(
        (Rule(DATA, (Reply(("I am not sure.",)),)),),
        setting_named("standard-96"),
        epochs=11,
        check=check,
    )


def _union_of_positives(config: LoopConfig) -> str:
    """The union of the initial sample's positives: consistent with it (RepairScore 1), not the target."""
    sample = initial_state(
        Task("simple", TARGET), ExactTeacher.from_regex(TARGET, "simple"), config
    ).examples
    return " + ".join(
        " ".join(e.string) or "epsilon" for e in sample if isinstance(e, Example) and e.label
    )


def test_only_the_answer_with_the_best_repair_score_meets_the_teacher() -> None:
    # Sec. 5.6: the union of the positives first (RepairScore 1, not equivalent), the target second
    # (RepairScore 1 too): the earlier wins the tie, and the target never meets the teacher
    config = LoopConfig(initial_size=8)
    union = _union_of_positives(config)
    reply = Reply((f"<reasoning>two</reasoning><ans>{union}</ans><ans>{TARGET}</ans>",))

    def check(server: ScriptedServer, state: EpochState) -> None:
        (record,) = state.records
        assert state.outcome != "equivalent" and record.proposal_text == union
        assert record.accepted_candidate is None and record.candidates_checked == 0
        assert record.totals.equivalence_queries == 1
        assert list(record.memo["scored"]) == [
            {"text": union, "score": 1.0, "failure": None},
            {"text": TARGET, "score": 1.0, "failure": None},
        ]
        assert record.memo["selected"] == 0

    learn(
        (Rule(DATA, (reply,)),),
        attrs.evolve(setting_named("multi"), candidates=2),
        config=config,
        epochs=1,
        check=check,
    )


def test_a_later_answer_with_a_better_repair_score_is_selected() -> None:
    config = LoopConfig(initial_size=8)
    reply = Reply((f"<reasoning>three</reasoning><ans>a</ans><ans>((</ans><ans>{TARGET}</ans>",))

    def check(server: ScriptedServer, state: EpochState) -> None:
        (record,) = state.records
        assert (
            state.outcome == "equivalent"
            and record.proposal_text == TARGET
            and record.memo["selected"] == 2
        )
        scores = [item["score"] for item in record.memo["scored"]]
        assert (
            scores[1] == 0.0 and 0.5 < scores[0] < 1.0 == scores[2]
        )  # "((" does not parse; "a" misses positives
        assert record.totals.equivalence_queries == 1

    learn(
        (Rule(DATA, (reply,)),),
        attrs.evolve(setting_named("multi"), candidates=3),
        config=config,
        epochs=1,
        check=check,
    )


def test_candidates_from_n_or_calls_at_temperature_0_are_refused_naming_the_field() -> None:
    for source in ("n", "calls"):
        with pytest.raises(ValueError, match=r"sampling\.temperature > 0"):
            attrs.evolve(setting_named("multi"), candidate_source=source)
    assert setting_named("multi-n").sampling.temperature == 1.0


def test_multi_asks_for_ten_answers_in_one_reply_and_succeeds_when_one_is_right() -> None:
    answers = [f"<ans>{'a ' * k}b</ans>" for k in range(1, 10)]
    answers.insert(5, f"<ans>{TARGET}</ans>")
    reply = Reply(("<reasoning>ten</reasoning>" + "".join(answers),))

    def check(server: ScriptedServer, state: EpochState) -> None:
        assert state.outcome == "equivalent" and state.records[-1].proposal_text == TARGET
        assert server.chat_calls == len(state.records)  # one call per epoch
        assert all("n" not in body for body in server.requests)
        assert "propose exactly 10 different candidate regexes" in server.user_messages()[0]

    learn((Rule(DATA, (reply,)),), setting_named("multi"), check=check)


def test_every_request_carries_a_seed_derived_from_its_sample() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        seeds = [body["seed"] for body in server.requests]
        assert len(seeds) == 3 and len(set(seeds)) == 3

    learn(
        (Rule(REPAIR, (Reply.answer("c"),)), Rule(DATA, (Reply.answer("c"),))),
        setting_named("agentic"),
        epochs=1,
        check=check,
    )


def test_an_http_error_of_a_repair_round_is_in_the_epoch_record() -> None:
    refused = Status(
        400,
        {
            "object": "error",
            "message": "bad thing in the request",
            "type": "BadRequestError",
            "code": 400,
        },
    )

    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.failure is None and record.proposal_text == "c"  # the best try still stands
        (error,) = record.memo["errors"]
        assert (
            error.startswith("round 1: bad_request (HTTP 400)")
            and "bad thing in the request" in error
        )

    learn(
        (Rule(REPAIR, (refused,)), Rule(DATA, (Reply.answer("c"),))),
        setting_named("agentic"),
        epochs=1,
        check=check,
    )


def test_the_naive_and_input_only_prompts_ask_for_the_answer_in_ans() -> None:
    for name in ("prompt-naive", "prompt-input-only"):

        def check(server: ScriptedServer, state: EpochState, name: str = name) -> None:
            system = server.requests[0]["messages"][0]["content"]
            prompt = system + server.user_messages()[0]
            assert (
                "<ans>" in prompt
                and "described below" not in system
                and "REGEX SYNTAX" not in system
            )
            assert ("INPUT FORMAT" in system) == (name == "prompt-input-only")
            assert state.outcome == "equivalent"

        learn(
            (Rule(DATA, (Reply((f"<ans>{TARGET}</ans>",)),)),),
            setting_named(name),
            epochs=1,
            check=check,
        )


def test_the_alphabet_is_stated_from_the_examples_in_the_dialects_notation() -> None:
    async def scenario() -> None:
        rules = (Rule(DATA, (Reply.answer("(b + c)*"),)),)
        async with (
            ScriptedServer(rules, vllm=True) as scripted,
            make_client(scripted.base_url) as client,
        ):
            task = Task("simple", "(b + c)*", universe=CharSet.of("bc"))
            prepared = prepare_llm_run("single", task, LoopConfig(), client)
            state = await run(prepared.task, prepared.learner, prepared.teacher, prepared.config)
            system = scripted.requests[0]["messages"][0]["content"]
            used = sorted(
                {c for e in state.records[0].initial if isinstance(e, Example) for c in e.string}
            )
            assert f"The strings of the data use these characters: {', '.join(used)}." in system
            assert "alphabet is fixed" not in system

    asyncio.run(scenario())


def test_the_guard_records_a_fallback_that_violates_its_contract() -> None:
    # every draw is malformed; the union of the positives outgrows the 60-character bound
    def check(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert record.failure is not None and record.failure.kind == "outside_dialect"
        assert "at most 60 allowed" in record.memo["violation"] and record.memo["fallback"] is None
        assert record.memo["tally"]["fallbacks"] == 0

    setting = attrs.evolve(setting_named("guarded"), guard=Guard(draws=2, fallbacks=("union",)))
    learn((Rule(DATA, (Reply.answer("(("),)),), setting, epochs=1, check=check)


def test_the_guard_can_draw_all_k_to_measure_conformance() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        (record,) = state.records
        assert (
            server.chat_calls == 3
            and record.proposal_text == TARGET
            and state.outcome == "equivalent"
        )
        assert (record.memo["draws"], record.memo["conforming"]) == (3, 1)

    setting = attrs.evolve(setting_named("guarded"), guard=Guard(draws=3, draw_all=True))
    learn(
        (Rule(REPAIR, (Reply.answer("c"),)), Rule(DATA, (Reply.answer(TARGET),))),
        setting,
        epochs=1,
        check=check,
    )


def test_the_stateless_guard_sends_distinct_seeds() -> None:
    def check(server: ScriptedServer, state: EpochState) -> None:
        assert server.chat_calls == 3 and len({body["seed"] for body in server.requests}) == 3
        assert (
            len({str(body["messages"]) for body in server.requests}) == 1
        )  # the same prompt each time

    setting = attrs.evolve(
        setting_named("guarded-stateless"),
        guard=Guard(draws=3, stateful=False, fallbacks=("union",)),
    )
    learn((Rule(DATA, (Reply.answer("(("),)),), setting, epochs=1, check=check)


def _chars(body: dict[str, object]) -> int:
    messages: list[dict[str, str]] = body["messages"]  # type: ignore[assignment]
    return sum(len(m["content"]) for m in messages)


def test_the_output_budget_is_fitted_with_the_servers_tokenizer_and_every_cut_recorded() -> None:
    context = 20_000

    def check(server: ScriptedServer, state: EpochState) -> None:
        body = server.requests[0]
        counted = _chars(body) // 4  # what the scripted /tokenize says
        assert server.tokenize_calls >= 1 and body["max_completion_tokens"] == context - counted
        (call,) = state.records[0].memo["calls"]
        assert (call["asked_budget"], call["sent_budget"]) == (32768, context - counted)
        assert (
            call["reasoning_tokens"] is None and call["cached_tokens"] is None
        )  # vLLM reported none
        assert state.records[0].cost.reasoning_tokens is None

    learn(
        (Rule(DATA, (Reply.answer(TARGET),)),),
        setting_named("single"),
        config=LoopConfig(initial_size=200),
        epochs=1,
        check=check,
        max_model_len=context,
    )


def test_examples_that_no_longer_fit_follow_the_settings_overflow_policy() -> None:
    # the full prompt leaves too little room; half of the examples fit
    config = LoopConfig(initial_size=400)

    def failing(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert (
            server.chat_calls == 0
            and record.failure is not None
            and record.failure.kind == "budget"
        )
        assert [c["failure"] for c in record.memo["calls"]] == ["context_overflow"]

    def newest(server: ScriptedServer, state: EpochState) -> None:
        record = state.records[0]
        assert server.chat_calls == 1 and record.failure is None
        shown = record.memo["shown"]
        assert shown is not None and shown < 400
        user = server.user_messages()[0]
        assert f"The data has {len(record.initial)} lines" in user and "newest" in user
        assert record.initial[-1].text() in user  # the newest example is shown
        assert [c["failure"] for c in record.memo["calls"]][-1] is None

    rules = (Rule(DATA, (Reply.answer(TARGET),)),)
    single = setting_named("single")
    learn(rules, single, config=config, epochs=1, check=failing, max_model_len=3_000)
    learn(
        rules,
        attrs.evolve(single, overflow="newest"),
        config=config,
        epochs=1,
        check=newest,
        max_model_len=3_000,
    )
