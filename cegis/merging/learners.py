"""State-merging learners behind the :class:`cegis.learner.Learner` protocol.

A learner here is a frozen description (alphabet granularity, merge orders); each proposal
re-learns from scratch on every example accumulated so far, so an early wrong merge made from
sparse data is never carried into later epochs, and no memory passes between epochs. Each merge
order yields one DFA consistent with the examples; the proposal is the *smallest* of them (fewest
states of the minimal DFA, then the shortest printed regex): smaller hypotheses generalize better
from the same evidence (Occam), read better, and keep the teacher far below its state limit.

The printed regex is what the teacher sees, so it is parsed back and compiled, and it must label
every example as the example says (clustered ones universally, :func:`oracle.misclassified`)
before it is proposed; a candidate that fails is dropped, and when none is left the proposal is a
typed failure, never a silently inconsistent hypothesis. The search runs in a worker thread so the
event loop stays free.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Sequence

import attrs

from automata.dfa import DFA
from automata.errors import AutomataError
from automata.compile import compile_regex
from automata.minimize import minimize
from automata.ops import dead_state
from automata.to_regex import to_regex
from cegis.learner import LearnerContext, LearnerCost, Proposal, ProposalFailure
from cegis.merging.quotient import LabelConflict, Quotient
from cegis.merging.redblue import MergeOrder, red_blue, table
from cegis.merging.symbols import Granularity, distinguishing, encode, symbol_alphabet
from automata.alphabet import Alphabet
from oracle.clustered import misclassified, satisfies
from oracle.examples import ClusteredExample, Counterexample
from regexlang.ast import Chars, Complement, EmptySet, Star
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse, unparse
from regexlang.errors import RegexError

#: States the printed regex may compile to when checked (far below the teacher's limit).
CHECK_STATE_LIMIT = 20_000


@attrs.frozen
class MergingLearner:
    """A passive learner: the smallest DFA that ``orders`` of red-blue merging find, printed."""

    name: str
    granularity: Granularity
    orders: tuple[MergeOrder, ...]

    async def propose(self, context: LearnerContext) -> Proposal:
        """The smallest consistent hypothesis for the context's examples, or a typed failure."""
        return await asyncio.to_thread(self.learn, context.examples, context.dialect, context.universe)

    def learn(self, examples: Sequence[Counterexample], dialect: Dialect, universe: CharSet) -> Proposal:
        """:meth:`propose` without the event loop: a pure function of the examples."""
        started = time.perf_counter()
        proposal = _learn(examples, dialect, universe, self.granularity, self.orders)
        return attrs.evolve(proposal, cost=LearnerCost(seconds=time.perf_counter() - started))


def rpni() -> MergingLearner:
    """Classic RPNI over characters (Oncina & García), breadth-first merge order, no sinks."""
    return MergingLearner("rpni", "characters", (MergeOrder("rpni", sinks=False),))


def edsm() -> MergingLearner:
    """Evidence-driven state merging over characters, with rejecting sinks."""
    return MergingLearner("edsm", "characters", (MergeOrder("edsm"),))


def symbolic() -> MergingLearner:
    """Red-blue merging over the atoms of the examples' character sets; the smallest of the EDSM
    and RPNI orders, with and without sinks."""
    orders = tuple(MergeOrder(s, sinks=k) for k in (True, False) for s in ("edsm", "rpni"))
    return MergingLearner("symbolic", "atoms", orders)


def _learn(
    examples: Sequence[Counterexample],
    dialect: Dialect,
    universe: CharSet,
    granularity: Granularity,
    orders: Sequence[MergeOrder],
) -> Proposal:
    try:
        alphabet, tree, untied = _prefix_tree(examples, universe, granularity)
    except (ValueError, LabelConflict) as error:
        return _failure("search_exhausted", str(error))
    candidates: dict[tuple[int, ...], tuple[DFA, str]] = {}
    problems: list[str] = []
    for order in orders:
        how = order.strategy + ("+sinks" if order.sinks else "")
        mark = tree.checkpoint()
        red = red_blue(tree, order)
        if red is None:
            problems.append(f"{how}: more than {order.max_states} states")
        else:
            dfa = minimize(table(tree, red, alphabet))
            if all(satisfies(dfa, e) for e in untied):
                key = (dfa.n_states, *dfa.accepting.tolist(), *dfa.transitions.ravel().tolist())
                candidates.setdefault(key, (dfa, how))
            else:
                problems.append(f"{how}: an untied clustered example is misclassified")
        tree.undo(mark)
    for dfa, how in sorted(candidates.values(), key=lambda c: _size(c[0])):
        text = _printed(dfa, dialect, universe, examples)
        problem = _check(text, examples, dialect, universe)
        if problem is None:
            states = dfa.n_states - (dead_state(dfa) is not None)
            reasoning = f"{how} over {len(alphabet)} {granularity}: {states} states"
            return Proposal(parse(text, dialect, universe), text, reasoning)
        problems.append(f"{how}: {problem}")
    return _failure("search_exhausted", "; ".join(problems) or "no merge order succeeded")


def _prefix_tree(
    examples: Sequence[Counterexample], universe: CharSet, granularity: Granularity
) -> tuple[Alphabet, Quotient, list[Counterexample]]:
    """The alphabet, the prefix tree, and the clustered examples it could not tie. At atom
    granularity, two examples that meet in one node with different labels split the characters
    that tell them apart off their classes, and the tree is built again."""
    refine: set[str] = set()
    while True:
        alphabet = symbol_alphabet(examples, universe, granularity, refine)
        encoded = [(e, w) for e, w in ((e, encode(e, alphabet)) for e in examples) if w is not None]
        try:
            tree, untied = Quotient.prefix_tree([w for _, w in encoded])
        except LabelConflict as conflict:
            split = distinguishing(encoded[conflict.first][0], encoded[conflict.second][0], refine)
            if not split:
                raise
            refine |= split
            continue
        return alphabet, tree, [encoded[i][0] for i in untied]


def _size(dfa: DFA) -> tuple[int, int]:
    return dfa.n_states, int((dfa.transitions != dfa.transitions[:, :1]).sum())


def _printed(dfa: DFA, dialect: Dialect, universe: CharSet, examples: Sequence[Counterexample]) -> str:
    regex = to_regex(dfa)
    if regex != EmptySet():
        return unparse(regex, dialect, universe)
    if dialect != "simple":  # the empty language has a spelling: the complement of everything
        return unparse(Complement(Star(Chars(universe))), dialect, universe)
    # The simple dialect cannot write the empty language: accept one string no example rejects.
    for length in range(len(examples) + 1):  # each example covers at most one length
        for word in map("".join, itertools.product(sorted(universe), repeat=length)):
            if not any(_holds(e, word) for e in examples):
                return unparse(text_regex(word), dialect, universe)
    raise AssertionError("unreachable: fewer examples than strings")


def _holds(example: Counterexample, word: str) -> bool:
    return word in example if isinstance(example, ClusteredExample) else word == example.string


def _check(text: str, examples: Sequence[Counterexample], dialect: Dialect, universe: CharSet) -> str | None:
    """Why the printed ``text`` is not a usable hypothesis for ``examples``, or ``None``."""
    try:
        compiled = compile_regex(parse(text, dialect, universe), universe, state_limit=CHECK_STATE_LIMIT)
    except (RegexError, AutomataError) as error:
        return f"the printed regex does not compile back: {error}"
    wrong = misclassified(compiled, examples)
    return f"{len(wrong)} examples misclassified, e.g. {wrong[0].text()}" if wrong else None


def _failure(kind: str, detail: str) -> Proposal:
    return Proposal(None, failure=ProposalFailure(kind, detail))  # type: ignore[arg-type]
