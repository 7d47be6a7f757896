"""The collector is off inside a learner call and back on after it, also when calls overlap; the
loop settles what earlier runs left by itself, and a long-lived process that runs many does not
grow."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest

from cegis.gc_pause import collections_kept_short, gc_paused, settle
from cegis.symbolic.merging.merger import symbolic
from oracle.examples import Example
from regexlang import universe


def test_the_collector_is_paused_inside_and_resumes_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner pause ending does not resume it
    assert gc.isenabled()


def test_it_resumes_after_an_error_and_leaves_a_disabled_collector_off() -> None:
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_calls_in_threads_resume_it_when_the_last_ends() -> None:
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with gc_paused():
            inside.set()
            release.wait()

    thread = threading.Thread(target=hold)
    thread.start()
    inside.wait()
    with gc_paused():
        pass
    assert not gc.isenabled()  # the thread's call still runs
    release.set()
    thread.join()
    assert gc.isenabled()


def test_a_learner_call_runs_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    import cegis.symbolic.merging.merger as merging
    from cegis.symbolic.merging.gathering import learn

    seen: list[bool] = []

    def watched(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return learn(*args)

    monkeypatch.setattr(merging, "_learn", watched)
    proposal = symbolic().learn(
        [Example("ab", True), Example("b", False)], "simple", universe("simple")
    )
    assert proposal.regex is not None and seen == [False] and gc.isenabled()


class _Node:
    """An object that can hold itself: a cycle only the collector frees."""

    loop: object = None


def test_settle_collects_the_cycles_left_then_freezes_what_survives() -> None:
    garbage = _Node()
    garbage.loop = garbage
    gone = weakref.ref(garbage)
    del garbage
    kept = _Node()
    gc.unfreeze()
    try:
        settle()
        assert gone() is None  # collected before the freeze
        assert (
            gc.get_freeze_count() > 0 and kept not in gc.get_objects()
        )  # frozen: no later collection walks it
        fresh = _Node()
        assert fresh in gc.get_objects()  # objects made after it are collected as usual
    finally:
        gc.unfreeze()


def test_kept_short_freezes_what_each_full_collection_leaves_and_only_inside() -> None:
    garbage = _Node()
    garbage.loop = garbage
    gone = weakref.ref(garbage)
    del garbage
    gc.unfreeze()
    try:
        with collections_kept_short():
            survivor = _Node()
            gc.collect()
            assert gone() is None  # the collection still frees cycles
            assert not _walked(survivor)  # frozen: the next one does not walk it
            later = _Node()
            gc.collect(1)  # a younger collection freezes nothing
            assert _walked(later)
        gc.unfreeze()
        gc.collect()
        assert _walked(survivor)  # outside the block a full collection freezes nothing
    finally:
        gc.unfreeze()


def _walked(node: _Node) -> bool:
    """Whether collections walk ``node`` (it is not frozen)."""
    return any(o is node for o in gc.get_objects())


MANY_RUNS = """
import asyncio, gc, sys, weakref
from cegis import Budgets, LoopConfig, Task, run
from cegis.symbolic.union import UnionLearner
from oracle import ExactTeacher

class Node:
    def __init__(self, pile):
        self.pile = pile

config = LoopConfig(budgets=Budgets(epochs=2))
alive, sizes = [], []
for i in range(RUNS):
    pile = []
    pile.extend(Node(pile) for _ in range(20_000))  # a caller's cycle, alive when the run settles
    alive.append(weakref.ref(pile[0]))
    target = "a b" + " c" * (i % 5)
    asyncio.run(run(Task("simple", target), UnionLearner(), ExactTeacher.from_regex(target, "simple"), config))
    del pile
    sizes.append(len(gc.get_objects()) + gc.get_freeze_count())
print(sum(r() is not None for r in alive), sizes[0], max(sizes))
"""


def test_a_process_that_runs_many_tasks_does_not_grow(tmp_path: Path) -> None:
    """Every run freezes what is alive when it starts, the caller's objects too; cycles among them
    that die later are still collected (settling freezes each time and freezing alone would keep
    all 30 piles, a dozen times the objects of the first run), so the process stays bounded."""
    runs = 30
    script = tmp_path / "many_runs.py"
    script.write_text(MANY_RUNS.replace("RUNS", str(runs)))
    # kernels in one form: a numba compile in the middle of the runs (once a kernel's Python form
    # has run long enough) adds its objects to the process once, which is not what this measures
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "REGEX_CEGIS_KERNELS": "python",
    }
    done = subprocess.run(
        [sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    kept, first, most = map(int, done.stdout.split())
    assert kept <= runs // 4 and most < 4 * first, done.stdout
