"""``python -m cli warmup``: compile every numba kernel now, so no later run pays for it.

A fresh install has an empty kernel cache. Small work never needs it (kernels run as plain Python
until the JIT pays, see :mod:`automata.jit._jit`), but a long run compiles the kernels it leans on
during its first minutes, once per install. This command pays that up front: it runs
:func:`experiments.warmup.warm`, a small workload with every kernel forced to compile (or to load
from the cache: a second warmup takes a second or two).
"""

from __future__ import annotations

import time

import click

from cli.lazy import CONTEXT
from experiments.warmup import warm


@click.command(context_settings=CONTEXT)
def warmup() -> None:
    """Compile every numba kernel now (once per install), so later runs start warm."""
    started = time.perf_counter()
    compiled = warm(lambda target: click.echo(f"  {target}"))
    click.echo(
        f"kernels ready in {time.perf_counter() - started:.1f} s ({compiled:.1f} s of it compiling)"
    )
