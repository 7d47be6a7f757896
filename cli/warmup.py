"""``python -m cli warmup``: compile every numba kernel now, so no later run pays for it.

A fresh install has an empty kernel cache. Small work never needs it (kernels run as plain Python
until the JIT pays, see :mod:`automata._jit`), but a long run compiles the kernels it leans on
during its first minutes, once per install. This command pays that up front: it runs a small
workload with every kernel forced to compile (or to load from the cache: a second warmup takes a
second or two) — compiling and comparing regexes of each dialect, small and large, counting,
sampling, listing the shortest strings, the exact teacher, the state-merging learners in the loop,
the enumerative search and the readable printer's structure constructions.
"""

from __future__ import annotations

import asyncio
import time

import click

from automata import compile_time
from automata._jit import forced
from automata.compile import from_text
from automata.readable import readable
from automata.sampling import shortest
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.registry import build
from cegis.setup import exact_setting
from cegis.symbolic.enumerative.search import warm_up
from oracle import TeacherConfig

#: Targets whose learning touches every kernel: a small simple one, the general subset construction
#: (assertions) and minimizer (more than a thousand cells), an extended one with counts.
_TARGETS = (
    ("(a b* + c)*", "simple"),
    ("(a + b)* a (a + b) (a + b) (a + b) (a + b) (a + b) (a + b) (a + b) (a + b)", "simple"),
    (r"\bab+\b|x$", "python"),
    ("[0-9]{5}(-[0-9]{4})?", "python"),
    ("#[0-9a-fA-F]{3}", "extended"),
)


def warm(echo: bool = False) -> float:
    """Compile (or load) every kernel; the seconds numba spent compiling."""
    before = compile_time.compile_seconds()
    with forced("compiled"):
        for target, dialect in _TARGETS:
            for learner in ("symbolic", "edsm", "rpni"):
                for clustered in (True, False):
                    config = LoopConfig(teacher=TeacherConfig(batch=50, clustered=clustered), budgets=Budgets(epochs=2))
                    task, teacher = exact_setting(target, dialect, config)  # type: ignore[arg-type]
                    asyncio.run(run(task, build(learner), teacher, config))
            if echo:
                click.echo(f"  {target} ({dialect})")
        shortest(from_text("(a + b)* c", "simple"), 20)  # the listing of `cli regex --examples`
        readable(from_text("[abc]*abcab[abc]*", "extended"))  # its core: automata.structure.explore
        warm_up()
    return compile_time.compile_seconds() - before


@click.command()
def warmup() -> None:
    """Compile every numba kernel now (once per install), so later runs start warm."""
    started = time.perf_counter()
    compiled = warm(echo=True)
    click.echo(f"kernels ready in {time.perf_counter() - started:.1f} s ({compiled:.1f} s of it compiling)")
