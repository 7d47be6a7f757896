"""Python's cyclic garbage collector paused while a learner works.

Why: a learner call allocates millions of short-lived objects while the printer's and the
learners' caches hold several hundred thousand long-lived ones; each full collection walks them
all, and collections took a fifth of the learner's time on the held-out benchmark's slowest runs,
to free almost nothing (their objects die by reference counting: a process that ran 21 of those
runs with the collector off peaked at the same memory, 605 MB against 600 MB, with 30 k cyclic
objects left). Reference counting frees as before; the collector resumes when the last call that
paused it ends (calls may overlap in threads).

Between runs the loop settles by itself (:func:`cegis.loop.run` and :func:`cegis.learn_regex` call
:func:`settle` before they start), so a process that runs many tasks one after another (a user's
script, a benchmark's or an experiment's worker) neither walks the caches earlier runs left at every
full collection nor needs to know this module exists.

A process that runs many units at once on one event loop (the experiment runner, a model worker)
reaches no point between runs: their examples pile up unfrozen, and a full collection that walks
them all holds the GIL for every thread, the loop's too (100-280 ms on Standard's 3,000-example
draws). :func:`collections_kept_short` freezes the survivors of every full collection, so the next
walks only what came since.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_depth = 0
_resume = False
_frozen = 0  # objects frozen so far (an upper bound: some died since)
_settled = 0  # objects frozen by the last settle that collected everything


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off (unless it was off already)."""
    global _depth, _resume
    with _lock:
        if not _depth:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if not _depth and _resume:
                gc.enable()


@contextlib.contextmanager
def collections_kept_short() -> Iterator[None]:
    """Run the block with the survivors of each full collection frozen as it ends (see the module
    doc); cycles among them that die later are collected by the next :func:`settle` that unfreezes
    everything, as those of settled objects are."""
    gc.callbacks.append(_freeze_survivors)
    try:
        yield
    finally:
        gc.callbacks.remove(_freeze_survivors)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    global _frozen
    if phase != "stop" or info["generation"] != 2:
        return
    if not _lock.acquire(blocking=False):  # a settle is under way (maybe this collection's)
        return
    try:
        _frozen += len(gc.get_objects(generation=2))
        gc.freeze()
    finally:
        _lock.release()


def settle() -> None:
    """Collect the cyclic garbage so far, then leave every object that survives out of later
    collections (``gc.freeze``). Between runs: the caches earlier runs leave (printed regexes,
    compiled automata, encoded words) grow to millions of objects, and each full collection walked
    them all, 0.5-1.7 s charged to whichever run it fell in.

    A frozen object still dies by reference counting, but a cycle among frozen objects that turns
    to garbage would stay. So once the frozen objects have doubled since the last settle that
    collected everything, this one unfreezes them first and collects them too: each object is
    walked a bounded number of times on average (as CPython's own oldest generation waits for a
    quarter more), and a long-lived process keeps at most about as much dead as live."""
    global _frozen, _settled
    with _lock:
        everything = _frozen >= 2 * _settled
        if everything:
            gc.unfreeze()
        gc.collect()
        fresh = len(gc.get_objects(generation=2))  # a full collection leaves its survivors there
        gc.freeze()
        _frozen = fresh if everything else _frozen + fresh
        if everything:
            _settled = _frozen
