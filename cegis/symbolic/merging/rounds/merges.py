"""One merge of a prefix tree: the distinct automata the learner's merge orders find on it.

Every merge order (:class:`cegis.symbolic.merging.core.redblue.MergeOrder`) runs red-blue merging
on the tree from the same checkpoint (orders that differ only in how unlabeled states are labeled
share one run), then the exact search below the smallest, within the learner's budget. Each
automaton is checked on the clustered examples left out of the tree (all at once,
:class:`cegis.symbolic.merging.core.words.PackedWords`): one that misses some either gives a
misclassified string of each as a *witness* for the next round (:mod:`.witnesses`), or, when the
rounds say to patch, has the misses patched in as exceptions (:mod:`.patching`)."""

from __future__ import annotations

import attrs

from automata.core.minimize import minimize
from automata.errors import AutomataError
from cegis.symbolic.merging.candidate import Candidate
from cegis.symbolic.merging.core.alike import alike
from cegis.symbolic.merging.core.exact import smallest
from cegis.symbolic.merging.core.prefix_tree import PrefixTree
from cegis.symbolic.merging.core.redblue import MergeOrder, red_blue, table
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.core.symbols import interned
from cegis.symbolic.merging.core.words import PackedWords
from cegis.symbolic.merging.families.listing import MAX_LISTING_STATES
from cegis.symbolic.merging.rounds.patching import patched
from cegis.symbolic.merging.settings import Settings
from oracle.examples import Example


@attrs.frozen
class Merged:
    """What one merge of a tree found: the distinct automata that label every example right (some
    patched), a misclassified string of each missed example (when not patching), and why the
    automata dropped were dropped."""

    candidates: tuple[Candidate, ...]
    witnesses: tuple[Example, ...]
    problems: tuple[str, ...]


def merged(
    built: PrefixTree, learner: Settings, patch: bool, cache: RunCache, agreeing: bool = False
) -> Merged:
    """The distinct DFAs the merge orders find that satisfy every example, and, for those that
    miss a clustered example left out of the prefix tree, one misclassified string of each such
    example (to learn from literally in another round). With ``patch`` such a DFA is instead
    patched with the missed examples as exceptions, unless it misses more than
    :data:`MAX_LISTING_STATES` (then its witnesses are given, as without ``patch``). With
    ``agreeing`` (agreements to keep), unread symbols follow the classes positive clusters
    group them with (:func:`cegis.symbolic.merging.core.alike.alike`). The run's ``cache`` keeps
    what the next rounds and epochs would find again, and what it found on an equal tree (the
    readings of plain examples build the same one)."""
    tree = built.tree.signature(), built.alphabet, built.words, built.untied
    slot = (merged, *tree, learner, patch, agreeing)
    found: Merged | None = cache.latest(slot, None)
    if found is None:
        found = _merged(built, learner, patch, cache, agreeing)
        cache.keep(slot, found)
    return found


def _merged(
    built: PrefixTree, learner: Settings, patch: bool, cache: RunCache, agreeing: bool
) -> Merged:
    alphabet, tree, untied = built.alphabet, built.tree, built.untied
    universe = alphabet.universe
    candidates: dict[tuple[object, ...], Candidate] = {}
    witnesses: dict[str, Example] = {}
    problems: list[str] = []

    def keep(red: list[int], how: str, unlabeled_accept: bool = False) -> None:
        dfa = minimize(table(tree, red, alphabet, similar, unlabeled_accept))
        missed = checked.misses(dfa)
        wrong = [untied[w][0] for w, _ in missed]
        if wrong and (not patch or len(wrong) > MAX_LISTING_STATES):
            for w, path in missed:  # many misses spell one string: build each witness once
                string = "".join(map(representatives.__getitem__, path))
                if string not in witnesses:
                    witnesses[string] = interned(string, untied[w][1].label, cache)
            if patch:  # a list longer than any hypothesis may be: not worth building
                problems.append(
                    f"{how}: {len(wrong)} clustered examples left out of the tree are missed"
                )
            return
        if wrong:
            try:
                dfa = patched(dfa, wrong, universe)
            except AutomataError as error:
                problems.append(
                    f"{how}: {len(wrong)} clustered examples left out of the tree: {error}"
                )
                return
            if dfa.n_states > MAX_LISTING_STATES:  # printing it would take long and read badly
                problems.append(f"{how}: {dfa.n_states} states with {len(wrong)} exceptions")
                return
            how += f"+{len(wrong)} exceptions"
        key = (dfa.transitions.shape, dfa.transitions.tobytes(), dfa.accepting.tobytes())
        candidates.setdefault(key, Candidate(dfa, how))

    checked = PackedWords.pack([word for _, word in untied])
    representatives = [alphabet.representative(k) for k in range(len(alphabet))]
    similar = alike(built.words, len(alphabet), cache, agreeing) if learner.complete_alike else None
    fewest = None
    for order, variants in _runs(learner.orders):  # one merge run for every labeling
        mark = tree.checkpoint()
        red = red_blue(tree, order)
        if red is None:
            problems.append(f"{order.name}: more than {order.max_states} states")
        else:
            for variant in variants:
                keep(red, variant.name, variant.unlabeled_accept)
            fewest = len(red) if fewest is None else min(fewest, len(red))
        tree.undo(mark)
    if learner.search_budget:
        mark = tree.checkpoint()
        red = smallest(tree, fewest or MergeOrder().max_states, learner.search_budget)
        if red is not None:
            keep(red, "exbar")
        tree.undo(mark)
    return Merged(tuple(candidates.values()), tuple(witnesses.values()), tuple(problems))


def _runs(orders: tuple[MergeOrder, ...]) -> tuple[tuple[MergeOrder, tuple[MergeOrder, ...]], ...]:
    """The merge runs ``orders`` need, each the part of an order that decides the merges (the
    labeling of unlabeled states does not), with the orders that label its result (in order)."""
    runs: dict[MergeOrder, list[MergeOrder]] = {}
    for order in orders:
        runs.setdefault(attrs.evolve(order, unlabeled_accept=False), []).append(order)
    return tuple((run, tuple(variants)) for run, variants in runs.items())
