"""The memory of one learner run: a value the caller owns, passed down each call, dropped with the run.

A merging learner re-learns from every example at each proposal, and most of that work repeats:
the same examples are encoded over the same alphabet in every witness and agreement round, the same
spelled hypotheses compile again the next epoch, the same factors are counted again. Remembering
that work in module-level caches made the memory invisible, shared by every run of a process and
never freed; here it is a :class:`RunCache` that the learner's memo carries from one epoch to the
next (``hybrid::dfa::Cache`` of rust's regex-automata is the model): each function's table is
bounded, and a new run starts empty. What it holds must be immutable (tuples, frozen values,
read-only arrays), since every later lookup shares the value."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar, cast

import attrs
from typing_extensions import TypeVarTuple, Unpack

R = TypeVar("R")
T = TypeVar("T")
Args = TypeVarTuple("Args")

#: Entries each function's table keeps by default: past it the oldest entry goes.
DEFAULT_LIMIT = 1 << 12


@attrs.define(eq=False)
class RunCache:
    """Results of pure functions for one run, a bounded table per function, and the latest value
    of named slots (what a round read last, to compare the next round with)."""

    _tables: dict[Callable[..., object], dict[tuple[object, ...], object]] = attrs.field(
        factory=dict, init=False
    )
    _latest: dict[Hashable, object] = attrs.field(factory=dict, init=False)

    def __call__(
        self,
        function: Callable[[Unpack[Args]], R],
        *args: *Args,
        limit: int = DEFAULT_LIMIT,
    ) -> R:
        """``function(*args)``, computed once while remembered (at most ``limit`` results of
        ``function``: the oldest is forgotten first)."""
        table = self._tables.get(function, {})
        key = cast(tuple[object, ...], args)
        try:
            return cast(R, table[key])
        except KeyError:
            pass
        value = function(*args)
        self.put(function, *args, value=value, limit=limit)
        return value

    def known(self, function: Callable[[Unpack[Args]], R], *args: *Args) -> R | None:
        """``function(*args)`` if remembered, else ``None`` (nothing is computed)."""
        return cast("R | None", self._tables.get(function, {}).get(cast(tuple[object, ...], args)))

    def put(
        self,
        function: Callable[[Unpack[Args]], R],
        *args: *Args,
        value: R,
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        """Remember ``value`` as ``function(*args)``, known another way (at most ``limit``
        results of ``function``: the oldest is forgotten first)."""
        table = self._tables.setdefault(function, {})
        key = cast(tuple[object, ...], args)
        table.pop(key, None)
        if len(table) >= limit:
            del table[next(iter(table))]
        table[key] = value

    def latest(self, slot: Hashable, default: T) -> T:
        """What :meth:`keep` put in ``slot`` last (``default`` before)."""
        return cast(T, self._latest.get(slot, default))

    def keep(self, slot: Hashable, value: object, limit: int = 16) -> None:
        """Put ``value`` in ``slot``, replacing what it held (at most ``limit`` slots: the oldest
        is forgotten first)."""
        self._latest.pop(slot, None)
        if len(self._latest) >= limit:
            del self._latest[next(iter(self._latest))]
        self._latest[slot] = value

    def __getstate__(self) -> dict[str, object]:
        """A cache does not travel: a pickled run (to another process) starts with an empty one."""
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self._tables, self._latest = {}, {}
