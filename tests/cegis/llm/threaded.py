"""A loopback server served from a thread of its own, for commands that run their own event loop
(``python -m cli learn``, ``python -m cli optimize`` call :func:`asyncio.run`)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

from tests.loopback import LoopbackServer


@contextlib.contextmanager
def serving(server: LoopbackServer) -> Iterator[LoopbackServer]:
    """``server`` listening on 127.0.0.1 until the block ends."""
    ready, stop = threading.Event(), threading.Event()
    failure: list[BaseException] = []

    async def serve() -> None:
        async with server:
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.02)

    def main() -> None:
        try:
            asyncio.run(serve())
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            failure.append(error)
            ready.set()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        if failure:
            raise failure[0]
        yield server
    finally:
        stop.set()
        thread.join(10)
