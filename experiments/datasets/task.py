"""One benchmark task: a target regex with the alphabet it is learned over and its complexity cell.

Every dataset, generated or loaded, ends as a tuple of :class:`Task` values, so runs, bucketing and
reports handle them alike. A task carries the target as text in its dialect (what a record stores
and a teacher parses), not as a tree.

The complexity of a target is the seed paper's pair (Sec. 5): *#States*, the states of the minimal
DFA without its dead state (:func:`automata.num_states`), and *StarDepth*, the nesting depth of
unbounded repetition (:func:`regexlang.metrics.star_depth`). Both are recomputed here from the
target; ``listed`` keeps the cell a source file files the target under, when it says, because the
paper's tables group by those labels and for seven of its extended targets the two differ (its
builder counted the dead state).

The alphabet is a field because it is a choice. The Simple Regex dataset is described over
``{a, b, c}``, but the paper's code learns each simple target over the letters that target uses;
loaders and the generator default to the latter (:func:`own_letters`) and accept a fixed alphabet.
#States does not depend on that choice: extra letters only lead to the dead state.
"""

from __future__ import annotations

import attrs

from automata import DFA, compile_regex, num_states
from automata.errors import DEFAULT_STATE_LIMIT
from regexlang import CharSet, Dialect, parse
from regexlang.ast import Regex
from regexlang.metrics import star_depth, used_chars


@attrs.frozen(order=True)
class Metrics:
    """The complexity cell of a target: minimal-DFA states without the dead state, and StarDepth."""

    states: int
    star_depth: int


@attrs.frozen
class Task:
    """A target to learn: ``target`` in ``dialect`` over ``alphabet``, from dataset ``source``."""

    id: str
    dialect: Dialect
    target: str
    alphabet: CharSet
    metrics: Metrics
    source: str
    description: str | None = None
    listed: Metrics | None = None

    def regex(self) -> Regex:
        """The target parsed in its dialect over its alphabet."""
        return parse(self.target, self.dialect, self.alphabet)


def own_letters(regex: Regex) -> CharSet:
    """The characters a regex mentions: the alphabet the paper's code learns a simple target over."""
    return used_chars(regex)


def measure(regex: Regex, dfa: DFA) -> Metrics:
    """The cell of ``regex``, whose minimal DFA is ``dfa``."""
    return Metrics(num_states(dfa), star_depth(regex))


def make_task(
    id: str,
    regex: Regex,
    target: str,
    dialect: Dialect,
    alphabet: CharSet,
    source: str,
    *,
    description: str | None = None,
    listed: Metrics | None = None,
    state_limit: int = DEFAULT_STATE_LIMIT,
) -> tuple[Task, DFA]:
    """The task of an already parsed target, and the minimal DFA it was measured with.

    Raises ``StateLimitExceeded`` when the target's DFA passes ``state_limit``.
    """
    dfa = compile_regex(regex, alphabet, state_limit=state_limit)
    task = Task(id, dialect, target, alphabet, measure(regex, dfa), source, description, listed)
    return task, dfa
