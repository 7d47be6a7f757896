"""Benchmark of the LLM client's own cost: calls per second and CPU per call against a loopback
server that answers instantly, next to a bare aiohttp loop as the reference, plus the call log's
record and replay rates.

The server runs in its own process pinned to one core and the client in this process pinned to
the other (on a machine with two or more cores), so the client's CPU time per call is its real
overhead: what it adds to a model call, which in production takes seconds. Run:

    python -m experiments.bench.llm --calls 10000
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp
import attrs
import click
from aiohttp import web

from llm.calllog import CallLog
from llm.chat import Message
from llm.client import LLMClient, Mode
from llm.config import ClientConfig
from llm.results import Completion

MODEL = "bench-model"
COMPLETION = (
    b'{"id":"x","object":"chat.completion","model":"bench-model","choices":[{"index":0,'
    b'"message":{"role":"assistant","content":"<reasoning>r</reasoning><ans>(a b)*</ans>"},'
    b'"finish_reason":"stop"}],"usage":{"prompt_tokens":900,"completion_tokens":20}}'
)
MODELS = b'{"object":"list","data":[{"id":"bench-model","max_model_len":65536}]}'
PROMPT = (
    Message("system", "TASK\n" + "Infer a regex. " * 100),
    Message("user", "TRAINING DATA\nab, 1\n, 0"),
)


@attrs.frozen
class Measure:
    """Calls completed, wall seconds and CPU seconds of this process."""

    calls: int
    wall: float
    cpu: float

    def line(self, label: str) -> str:
        return f"{label:<38} {self.calls / self.wall:>9.0f} calls/s {1e6 * self.cpu / self.calls:>8.1f} µs CPU/call"


def _serve(port_pipe: Connection) -> None:
    _pin(0)

    async def completion(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=COMPLETION, content_type="application/json")

    async def models(request: web.Request) -> web.Response:
        return web.Response(body=MODELS, content_type="application/json")

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", completion)
        app.router.add_get("/v1/models", models)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
        await site.start()
        port_pipe.send(runner.addresses[0][1])
        await asyncio.Event().wait()

    asyncio.run(main())


def _pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {core})


async def _timed(calls: int, concurrency: int, call: Callable[[], Awaitable[object]]) -> Measure:
    semaphore = asyncio.Semaphore(concurrency)

    async def bounded() -> object:
        async with semaphore:
            return await call()

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(bounded() for _ in range(calls)))
    return Measure(calls, time.perf_counter() - wall, time.process_time() - cpu)


async def _bare(base_url: str, calls: int, concurrency: int) -> Measure:
    """The reference: a raw aiohttp POST and JSON decode per call, nothing else."""
    body = {
        "model": MODEL,
        "messages": [m.to_wire() for m in PROMPT],
        "max_completion_tokens": 32768,
    }
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:

        async def call() -> object:
            async with session.post(base_url + "/chat/completions", json=body) as response:
                return await response.json()

        return await _timed(calls, concurrency, call)


async def _client(
    base_url: str, calls: int, concurrency: int, log: CallLog | None, mode: Mode
) -> Measure:
    config = attrs.evolve(ClientConfig(base_url=base_url), concurrency=concurrency)
    async with LLMClient(config, log=log, mode=mode) as client:
        await client.model()
        counter = iter(range(calls))

        async def call() -> object:
            # distinct sample indices make every call a log miss in record mode
            result = await client.complete(PROMPT, sample_index=next(counter))
            assert isinstance(result, Completion), result
            return result

        return await _timed(calls, concurrency, call)


@click.command()
@click.option("--calls", default=10_000, show_default=True, help="calls per measurement")
def main(calls: int) -> None:
    """Print client overhead per call, the bare-aiohttp reference, and call-log rates."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    server = context.Process(target=_serve, args=(sender,), daemon=True)
    server.start()
    try:
        base_url = f"http://127.0.0.1:{receiver.recv()}/v1"
        _pin(1)
        print(f"{calls} calls per row, loopback server in its own process, {os.cpu_count()} cores")
        asyncio.run(_client(base_url, min(calls, 2000), 64, None, "live"))  # warm-up
        for concurrency in (64, 256):
            bare = asyncio.run(_bare(base_url, calls, concurrency))
            live = asyncio.run(_client(base_url, calls, concurrency, None, "live"))
            print(bare.line(f"bare aiohttp, concurrency {concurrency}"))
            print(live.line(f"LLMClient live, concurrency {concurrency}"))
            print(f"{'':<38} client/bare CPU per call: {live.cpu / bare.cpu:.2f}x")
        with tempfile.TemporaryDirectory() as folder, CallLog(Path(folder) / "calls.sqlite") as log:
            record = asyncio.run(_client(base_url, calls, 64, log, "record"))
            replay = asyncio.run(_client(base_url, calls, 64, log, "replay"))
            print(record.line("LLMClient record, concurrency 64"))
            print(replay.line("LLMClient replay (log only)"))
            print(f"{'':<38} replay/live-record speed: {record.wall / replay.wall:.1f}x")
    finally:
        server.terminate()
        server.join()


if __name__ == "__main__":
    main()
