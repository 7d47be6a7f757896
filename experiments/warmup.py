"""A small workload that calls every numba kernel compiled: ``python -m cli warmup`` runs it once
per install, and each benchmark worker runs it before its first measured run (then it only loads the
cached machine code), so no run's time holds compiling, loading or the kernels' Python form.

It compiles and compares regexes of each dialect, small and large, counts, samples, lists the
shortest strings, runs the exact teacher, the state-merging learners in the loop, the enumerative
search and the readable printer's structure constructions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from automata.building.compile import from_text
from automata.core.dfa import infinite
from automata.jit import compile_time
from automata.jit._jit import forced
from automata.printing.readable import readable
from automata.strings.sampling import shortest
from cegis.config import Budgets, LoopConfig
from cegis.loop import run
from cegis.registry import build
from cegis.setup import exact_setting
from cegis.symbolic.enumerative.search import warm_up
from oracle import TeacherConfig
from oracle.evaluation import evaluation_set

#: Targets whose learning touches every kernel: a small simple one, the general subset construction
#: (assertions) and minimizer (more than a thousand cells), an extended one with counts.
_TARGETS = (
    ("(a b* + c)*", "simple"),
    ("(a + b)* a (a + b) (a + b) (a + b) (a + b) (a + b) (a + b) (a + b) (a + b)", "simple"),
    (r"\bab+\b|x$", "python"),
    ("[0-9]{5}(-[0-9]{4})?", "python"),
    ("#[0-9a-fA-F]{3}", "extended"),
)


def warm(done: Callable[[str], object] = lambda target: None) -> float:
    """Compile (or load) every kernel, calling ``done`` with each target learned; the seconds
    numba spent compiling."""
    before = compile_time.compile_seconds()
    with forced("compiled"):
        for target, dialect in _TARGETS:
            for learner in ("symbolic", "edsm", "rpni"):
                for clustered in (True, False):
                    config = LoopConfig(
                        teacher=TeacherConfig(batch=50, clustered=clustered),
                        budgets=Budgets(epochs=2),
                    )
                    task, teacher = exact_setting(target, dialect, config)  # type: ignore[arg-type]
                    asyncio.run(run(task, build(learner), teacher, config))
            done(f"{target} ({dialect})")
        shortest(from_text("(a + b)* c", "simple"), 20)  # the listing of `cli regex --examples`
        readable(
            from_text("[abc]*abcab[abc]*", "extended")
        )  # its core: automata.printing.structure.explore
        warm_up()
        evaluation_set(from_text("(a b* + c)*", "simple"), profile="cegml")
        infinite(from_text("(a b* + c)*", "simple"))  # its components serve the ReDoS search too
    return compile_time.compile_seconds() - before
