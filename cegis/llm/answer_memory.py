"""What a learner has already worked out about the answer texts of its run.

A model repeats itself: the rounds of one epoch and the epochs of one run often bring back the same
reply, the same regex. Reading a reply, compiling its regex and checking its bounds depend on the
text alone (and the task's dialect and universe, part of every key), and the examples an answer
misclassifies change only when the examples do (the rounds of an epoch share one tuple of them).
:class:`AnswerMemory` keeps those results for the learner of one run, so a text seen again costs a
lookup; what it gives back is what the work would have given, so records are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import attrs

from oracle.examples import Counterexample

T = TypeVar("T")

#: Entries kept before the memory starts afresh: far more distinct answers than a run's epochs and
#: rounds give, so only a learner reused across very many runs ever reaches it.
MAX_ENTRIES = 4096


@attrs.define(eq=False)
class AnswerMemory:
    """Results keyed by what determines them (a text and the task's settings), and the examples
    each answer misclassifies among the current examples."""

    _seen: dict[Hashable, Any] = attrs.field(factory=dict)
    _examples: Sequence[Counterexample] | None = None
    _wrong: dict[Hashable, tuple[Counterexample, ...]] = attrs.field(factory=dict)

    def holds(self, key: Hashable) -> bool:
        """Whether :meth:`remembered` has the result of ``key`` (and would do no work)."""
        return key in self._seen

    def remembered(self, key: Hashable, work: Callable[[], T]) -> T:
        """``work()``, done once per ``key``: its result must depend on nothing else."""
        if key in self._seen:
            found: T = self._seen[key]
            return found
        if len(self._seen) >= MAX_ENTRIES:
            self._seen.clear()
        result = self._seen[key] = work()
        return result

    def misclassified(
        self,
        key: Hashable,
        examples: Sequence[Counterexample],
        work: Callable[[], tuple[Counterexample, ...]],
    ) -> tuple[Counterexample, ...]:
        """``work()``, the examples the answer of ``key`` misclassifies among ``examples``: done
        once per key while the examples are the same object (the rounds of one epoch)."""
        if examples is not self._examples:
            self._examples, self._wrong = examples, {}
        if key not in self._wrong:
            self._wrong[key] = work()
        return self._wrong[key]
