"""Reading a FIFO in a thread, with a guard that fails the test (instead of hanging the suite) when
the read waits for a writer: how the tests show a path is refused before it is opened."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path


def without_waiting(fifo: Path, read: Callable[[], object]) -> BaseException | None:
    """What ``read`` raised (None if nothing); fails the test if it waited for a writer."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            read()
        except Exception as error:  # the test looks at what it was
            raised.append(error)

    reader = threading.Thread(target=run, daemon=True)
    reader.start()
    reader.join(timeout=30)  # a guard against hanging the suite, not a timing assertion
    waited = reader.is_alive()
    if waited:  # a writer end releases the open it blocks in, so the thread ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
    assert not waited, "opening the FIFO waited for a writer"
    return raised[0] if raised else None
