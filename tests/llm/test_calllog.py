"""The call log: record then replay without a server, misses, reuse rules, durability, totals."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import attrs
import pytest

from llm.calllog import CallLog, ModelTotals
from llm.chat import Message, Request, SamplingParams
from llm.client import LLMClient
from llm.errors import CallLogError, ReplayMiss
from llm.results import (
    Choice,
    Completion,
    Failed,
    Result,
    Truncated,
    Usage,
    result_from_data,
    result_to_data,
)
from llm.transport import REDACTED
from tests.llm.fake_server import Answer, Delay, FakeServer, Status
from tests.llm.support import API_KEY, MESSAGES, fast_retries, make_client

OTHER = (Message("user", "something else"),)


def test_record_then_replay_without_a_server(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"

    async def record() -> list[Result]:
        async with FakeServer(models=("m1",), max_model_len=50_000) as server:
            server.push(
                Answer(content="<ans>a</ans>", reasoning="r"),
                Answer(content=None, finish_reason="length"),
            )
            with CallLog(path) as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    return [await client.complete(MESSAGES), await client.complete(OTHER)]

    async def replay() -> list[Result]:
        with CallLog(path) as log:
            async with make_client("http://127.0.0.1:9/v1", log=log, mode="replay") as client:
                assert (await client.model()).max_model_len == 50_000
                return [await client.complete(MESSAGES), await client.complete(OTHER)]

    recorded = asyncio.run(record())
    replayed = asyncio.run(replay())
    assert isinstance(replayed[0], Completion) and isinstance(replayed[1], Truncated)
    assert all(r.from_log for r in replayed) and not any(r.from_log for r in recorded)
    assert [_content(r) for r in replayed] == ["<ans>a</ans>", ""]
    assert replayed[0].reasoning == "r"


def test_replay_miss_is_a_typed_error(tmp_path: Path) -> None:
    async def scenario() -> None:
        with CallLog(tmp_path / "empty.sqlite") as log:
            async with make_client(
                "http://127.0.0.1:9/v1", log=log, mode="replay", model="m"
            ) as client:
                with pytest.raises(ReplayMiss) as caught:
                    await client.complete(MESSAGES)
        assert caught.value.model == "m" and len(caught.value.key) == 64

    asyncio.run(scenario())


def test_record_mode_reuses_what_was_paid_for_but_retries_failures(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Status(401, "denied"))
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    failed = await client.complete(MESSAGES)
                    fresh = await client.complete(MESSAGES)
                    reused = await client.complete(MESSAGES)
                assert len(server.requests) == 2  # the third call never reached the server
                assert len(log) == 2
                async with make_client(server.base_url, log=log, mode="replay") as client:
                    replayed = await client.complete(MESSAGES)
        assert isinstance(failed, Failed) and isinstance(fresh, Completion)
        assert reused == attrs.evolve(fresh, from_log=True)
        assert replayed == reused

    asyncio.run(scenario())


def test_replay_reproduces_a_logged_failure(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Status(400, "bad")) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES)
                async with make_client(server.base_url, log=log, mode="replay") as client:
                    replayed = await client.complete(MESSAGES)
        assert (
            isinstance(replayed, Failed) and replayed.reason == "bad_request" and replayed.from_log
        )

    asyncio.run(scenario())


def test_sample_index_and_repeats_name_samples_alike_in_record_and_replay(tmp_path: Path) -> None:
    params = SamplingParams(temperature=1.0)

    async def calls(client: LLMClient) -> list[str]:
        return [
            _content(await client.complete(MESSAGES, params, sample_index=index))
            for index in (0, 1, 1, 0)
        ]

    async def scenario() -> None:
        async with FakeServer(default=Answer(content="s", numbered=True)) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    recorded = await calls(client)
                async with make_client(server.base_url, log=log, mode="record") as client:
                    resumed = await calls(client)
                async with make_client(server.base_url, log=log, mode="replay") as client:
                    replayed = await calls(client)
            assert len(server.requests) == 4  # every call of the first run is its own sample
        assert recorded == ["s #0", "s #1", "s #2", "s #3"]
        assert resumed == replayed == recorded

    asyncio.run(scenario())


def test_committed_rows_are_visible_to_a_second_connection(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    request = Request("m", MESSAGES)
    result = Completion("m", (Choice("x"),), Usage(3, 4))
    writer = CallLog(path)
    writer.append(request, {"model": "m"}, result, created_at=1.0)
    # no close(): a reader must see the row as if the writer had crashed right after appending
    with CallLog(path) as reader:
        assert reader.lookup(request.key(), accept_failed=False) == Completion(
            "m", (Choice("x"),), Usage(3, 4), from_log=True
        )
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert raw.execute("SELECT COUNT(*) FROM calls").fetchone() == (1,)
    raw.close()
    writer.close()


def test_the_api_key_never_reaches_the_log(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"

    async def scenario() -> None:
        async with FakeServer() as server:
            with CallLog(path) as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES)

    asyncio.run(scenario())
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"sk-test-secret" not in stored and b"test-model" in stored


def test_token_and_latency_totals_per_model(tmp_path: Path) -> None:
    with CallLog(tmp_path / "calls.sqlite") as log:
        log.append(
            Request("a", MESSAGES),
            {},
            Completion("a", (Choice("x"),), Usage(10, 5, 2, 8), latency_s=1.5),
            0,
        )
        log.append(
            Request("a", OTHER), {}, Truncated("a", (Choice(""),), Usage(10, 100), latency_s=2.0), 0
        )
        log.append(
            Request("b", MESSAGES), {}, Failed("timeout", "slow", latency_s=30.0, attempts=6), 0
        )
        assert log.totals() == (
            ModelTotals("a", 2, 1, 1, 0, 20, 105, 2, 8, 3.5),
            ModelTotals("b", 1, 0, 0, 1, 0, 0, 0, 0, 30.0),
        )


@pytest.mark.parametrize(
    "result",
    [
        Completion("m", (Choice("a", "r", "stop"), Choice("b")), Usage(1, 2, 3, 4), 0.5, 2),
        Truncated("m", (Choice(""),), Usage()),
        Failed("rate_limited", "slow down", 429, "rate_limit_exceeded", 6, 12.0),
    ],
)
def test_results_survive_the_json_round_trip(result: Result) -> None:
    assert result_from_data(result_to_data(result), from_log=False) == result


def test_failures_in_the_transport_do_not_stop_logging(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeServer(default=Status(503, "down")) as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(
                    server.base_url, log=log, mode="record", retry=fast_retries(2)
                ) as client:
                    await client.complete(MESSAGES)
                (totals,) = log.totals()
        assert (totals.calls, totals.failed) == (1, 1)

    asyncio.run(scenario())


def _content(result: Result) -> str:
    assert not isinstance(result, Failed), result
    return result.content


def test_the_first_logged_success_and_the_latest_logged_failure_answer(tmp_path: Path) -> None:
    request = Request("m", MESSAGES)
    with CallLog(tmp_path / "calls.sqlite") as log:
        log.append(request, {}, Failed("timeout", "first failure"), 1.0)
        log.append(request, {}, Failed("server_error", "latest failure"), 2.0)
        failed = log.lookup(request.key(), accept_failed=True)
        assert isinstance(failed, Failed) and failed.message == "latest failure"
        assert log.lookup(request.key(), accept_failed=False) is None
        log.append(request, {}, Completion("m", (Choice("first answer"),)), 3.0)
        log.append(request, {}, Completion("m", (Choice("second answer"),)), 4.0)
        for accept_failed in (False, True):
            found = log.lookup(request.key(), accept_failed=accept_failed)
            assert isinstance(found, Completion) and found.content == "first answer"


def test_a_file_that_is_not_a_log_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    path.write_bytes(b"this is not a database, just some text that happens to be here" * 100)
    with pytest.raises(CallLogError) as caught:
        CallLog(path)
    assert str(path) in str(caught.value) and "move it aside" in str(caught.value)


def test_a_truncated_log_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    with CallLog(path) as log:
        for index in range(200):
            log.append(
                Request("m", MESSAGES, sample_index=index),
                {"pad": "x" * 500},
                Completion("m", (Choice("a"),)),
                0,
            )
        log._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(CallLogError):
        with CallLog(path) as log:
            log.lookup(Request("m", MESSAGES, sample_index=150).key(), accept_failed=False)
            log.totals()


@pytest.mark.parametrize("stored", ["{", '{"kind": "completion"}', '{"kind": "mystery"}', "[1, 2]"])
def test_a_corrupt_logged_row_is_a_typed_error_in_replay(tmp_path: Path, stored: str) -> None:
    path = tmp_path / "calls.sqlite"
    request = Request("m", MESSAGES)
    with CallLog(path) as log:
        log.append(request, {}, Completion("m", (Choice("a"),)), 0)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE calls SET result = ?", (stored,))
    raw.close()

    async def scenario() -> None:
        with CallLog(path) as log:
            async with make_client(
                "http://127.0.0.1:9/v1", log=log, mode="replay", model="m"
            ) as client:
                with pytest.raises(CallLogError) as caught:
                    await client.complete(MESSAGES)
        assert str(path) in str(caught.value)

    asyncio.run(scenario())


def test_a_call_in_flight_when_its_run_stops_is_left_noted_as_sent_and_unanswered(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Delay(2.0))  # the first call hangs: the run is stopped while it waits
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    call = asyncio.ensure_future(client.complete(MESSAGES))
                    while not server.requests:  # it has left: the server holds it
                        await asyncio.sleep(0.01)
                    call.cancel()
            with CallLog(tmp_path / "calls.sqlite") as log:  # the resumed run
                assert log.unanswered() == 1 and len(log) == 0
                async with make_client(server.base_url, log=log, mode="record") as client:
                    again = await client.complete(MESSAGES)
                assert (
                    isinstance(again, Completion) and len(server.requests) == 2
                )  # paid again, and it can tell
                assert log.unanswered() == 1 and len(log) == 1

    asyncio.run(scenario())


def test_an_answered_call_leaves_nothing_unanswered_and_logs_the_json_text_sent(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            with CallLog(tmp_path / "calls.sqlite") as log:
                async with make_client(server.base_url, log=log, mode="record") as client:
                    await client.complete(MESSAGES)
                    await client.complete(MESSAGES, SamplingParams(temperature=0.5))
                assert log.unanswered() == 0 and len(log) == 2
                _, rows = log.rows_after()
            for row, received in zip(rows, server.requests, strict=True):
                assert row[3] == json.dumps(  # the request column: the canonical text, as sent
                    received, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                )
            assert {headers["Content-Type"] for headers in server.headers} == {"application/json"}

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "key", [API_KEY, "sk-with\\backslash"]
)  # the second one escaped in JSON strings
def test_an_api_key_a_server_echoes_in_a_completion_is_redacted_before_anything_stores_it(
    tmp_path: Path, key: str
) -> None:
    path = tmp_path / "calls.sqlite"

    async def scenario() -> Result:
        async with FakeServer() as server:
            server.push(
                Answer(content=f"<ans>a*</ans> your key: {key}", reasoning=f"the header said {key}")
            )
            with CallLog(path) as log:
                async with make_client(
                    server.base_url, log=log, mode="record", api_key=key
                ) as client:
                    return await client.complete(MESSAGES)

    result = asyncio.run(scenario())
    assert (
        isinstance(result, Completion) and key not in result.content and REDACTED in result.content
    )
    assert key not in (result.choices[0].reasoning or "")
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert key.encode() not in stored and json.dumps(key)[1:-1].encode() not in stored


#: The tables as logs were written before a logged call named the sending note it answers.
_OLDER_SCHEMA = """
CREATE TABLE calls (id INTEGER PRIMARY KEY, key TEXT NOT NULL, model TEXT NOT NULL,
    kind TEXT NOT NULL, request TEXT NOT NULL, result TEXT NOT NULL, prompt_tokens INTEGER,
    completion_tokens INTEGER, reasoning_tokens INTEGER, cached_tokens INTEGER,
    latency_s REAL NOT NULL, attempts INTEGER NOT NULL, created_at REAL NOT NULL);
CREATE INDEX calls_by_key ON calls (key, kind);
CREATE TABLE sent (id INTEGER PRIMARY KEY, key TEXT NOT NULL, model TEXT NOT NULL,
    sent_at REAL NOT NULL, answered INTEGER NOT NULL DEFAULT 0);
CREATE TABLE models (id TEXT PRIMARY KEY, max_model_len INTEGER, recorded_at REAL NOT NULL);
INSERT INTO sent (key, model, sent_at) VALUES ('lost', 'm', 1.0);
"""


def test_a_log_of_the_older_schema_keeps_its_notes_and_answers_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(_OLDER_SCHEMA)
    request = Request("m", MESSAGES)
    with CallLog(path) as log:
        assert log.unanswered() == 1  # the older run's call in flight is still counted
        logged, note = log.logged_or_sending(request, 2.0, key=request.key())
        assert logged is None and note is not None and log.unanswered() == 2
        log.append(request, {"messages": []}, Completion("m", (Choice("a"),)), 3.0, sent=note)
        assert log.unanswered() == 1 and len(log) == 1


def test_looking_up_before_sending_notes_only_a_call_not_logged_yet(tmp_path: Path) -> None:
    request, failing = Request("m", MESSAGES), Request("m", OTHER)
    with CallLog(tmp_path / "calls.sqlite") as log:
        log.append(request, {}, Completion("m", (Choice("paid for"),)), 1.0)
        log.append(failing, {}, Failed("http_error", "503"), 1.0)
        logged, note = log.logged_or_sending(request, 2.0, key=request.key())
        assert note is None and isinstance(logged, Completion)
        assert logged.choices[0].content == "paid for"
        logged, note = log.logged_or_sending(failing, 2.0, key=failing.key())
        assert logged is None and note is not None  # a failure is asked again, and noted
        assert log.unanswered() == 1
