"""A peer's call run in a forked child with a memory and CPU cap, so a peer that blows up costs
one answer, not the benchmark.

grex aborts the whole process when an allocation fails (Rust's out-of-memory handler), and on
some inputs it asks for that much: 170 GB on the long-lines row at 100 lines, which killed the
benchmark's worker pool. :func:`contained` runs the call in a child whose address space may grow
by ``memory`` bytes and whose CPU time is capped at ``seconds``; a child that dies or fails gives
None. Linux and other systems with ``fork``; elsewhere the call runs in this process.
"""

from __future__ import annotations

import os
import pickle
import resource
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Address space a contained call may add to what its process already maps: grex took up to 7.2 GB
#: on the long-lines row at 20 lines, and asked for 170 GB at 100.
MEMORY = 10 << 30
#: CPU seconds a contained call may take.
SECONDS = 120


def contained(work: Callable[[], T], *, memory: int = MEMORY, seconds: int = SECONDS) -> T | None:
    """``work()``'s result, computed in a capped child; None when the child died or raised."""
    if not hasattr(os, "fork"):
        return work()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's lines run in another process
        status = 1
        try:
            os.close(read)
            cap = _mapped() + memory
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
            with os.fdopen(write, "wb") as out:
                out.write(pickle.dumps(work()))
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        data = answer.read()
    _, status = os.waitpid(child, 0)
    return pickle.loads(data) if status == 0 and data else None  # noqa: S301 - our own child's


def _mapped() -> int:
    """Bytes of address space this process maps now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")
