"""The call log's commits (the note before a request leaves, the logged answer) run in worker
threads, never on the event loop: with hundreds of calls in flight, SQLite commits on the loop
delay every other call's reply."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from experiments.bench.latency_server import MODEL, LatencyServer
from llm.calllog import CallLog
from llm.chat import Message
from llm.client import LLMClient
from llm.config import ClientConfig
from llm.results import Completion
from tests.experiments.runner_support import synchronous


@synchronous
async def test_call_log_commits_run_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: dict[str, set[int]] = {"sending": set(), "append": set()}
    for name in threads:
        real = getattr(CallLog, name)

        def seen(self: CallLog, *args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            threads[_name].add(threading.get_ident())
            return _real(self, *args, **kw)

        monkeypatch.setattr(CallLog, name, seen)
    loop_thread = threading.get_ident()
    async with LatencyServer(0.0) as server:
        with CallLog(tmp_path / "calls.sqlite3") as log:
            config = ClientConfig(base_url=server.base_url, model=MODEL)
            async with LLMClient(config, log=log, mode="record") as client:
                results = await asyncio.gather(
                    *(client.complete([Message("user", f"call {i}")]) for i in range(8))
                )
            assert len(log) == 8 and log.unanswered() == 0
    assert all(isinstance(r, Completion) for r in results)
    assert threads["sending"] and threads["append"]
    assert loop_thread not in threads["sending"] | threads["append"]


@synchronous
async def test_with_a_free_slot_one_trip_looks_a_call_up_and_notes_it_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips: list[str] = []
    real = asyncio.to_thread

    async def counted(work: Any, /, *args: Any, **kw: Any) -> Any:
        trips.append(getattr(work, "__name__", repr(work)))
        return await real(work, *args, **kw)

    async with LatencyServer(0.0) as server:
        with CallLog(tmp_path / "calls.sqlite3") as log:
            config = ClientConfig(base_url=server.base_url, model=MODEL)
            async with LLMClient(config, log=log, mode="record") as client:
                await client.complete([Message("user", "first")])  # the model is found
                monkeypatch.setattr(asyncio, "to_thread", counted)
                fresh = await client.complete([Message("user", "second")])
                again = await client.complete([Message("user", "second")])
            assert len(log) == 2 and log.unanswered() == 0
    assert isinstance(fresh, Completion) and isinstance(again, Completion)
    assert again.from_log and again.choices == fresh.choices
    assert trips == ["_lookup_or_note", "append", "_lookup_or_note"]
