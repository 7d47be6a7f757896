"""The smallest consistent DFA by backtracking red-blue search (exbar), within a merge budget.

Greedy merging never undoes an early wrong merge made from sparse data; exbar (Lang 1999) searches
the same red-blue space by iterative deepening on the number of red states, fail-first, and its
first solution is a smallest consistent DFA of the prefix tree (the Occam choice). It is
exponential in the worst case, so it runs within ``budget`` trial merges below a known solution."""

from __future__ import annotations

from cegis.symbolic.merging.core.quotient import Quotient
from cegis.symbolic.merging.core.redblue import blue_states


class _OutOfBudget(Exception):
    pass


def smallest(tree: Quotient, below: int, budget: int, sinks: bool = True) -> list[int] | None:
    """Red states of a smallest consistent quotient with fewer than ``below`` states, merged in
    ``tree`` (undoable); ``None`` when there is none or ``budget`` trial merges run out first."""
    searcher = _Search(tree, budget, sinks)
    for bound in range(1, below):
        mark = tree.checkpoint()
        try:
            found = searcher.search([tree.find(0)], bound)
        except _OutOfBudget:
            tree.undo(mark)
            return None
        if found is not None:
            return found
        tree.undo(mark)
    return None


class _Search:
    def __init__(self, tree: Quotient, budget: int, sinks: bool) -> None:
        self.tree, self.budget, self.sinks = tree, budget, sinks

    def search(self, red: list[int], bound: int) -> list[int] | None:
        tree = self.tree
        red = list(dict.fromkeys(tree.find(r) for r in red))
        blues = blue_states(tree, red, self.sinks)
        if not blues:
            return red
        choice: tuple[int, list[tuple[int, int]]] | None = None
        for blue in blues:
            options = self._options(red, blue)
            if choice is None or len(options) < len(choice[1]):
                choice = (blue, options)
            if not options and len(red) >= bound:
                return None
        assert choice is not None
        blue, options = choice
        for _, state in options:
            mark = tree.checkpoint()
            tree.merge(state, blue)
            found = self.search(red, bound)
            if found is not None:
                return found
            tree.undo(mark)
        if len(red) < bound:
            return self.search([*red, blue], bound)
        return None

    def _options(self, red: list[int], blue: int) -> list[tuple[int, int]]:
        """The red states ``blue`` merges into consistently, best evidence first."""
        tree = self.tree
        options = []
        for state in red:
            self.budget -= 1
            if self.budget < 0:
                raise _OutOfBudget
            mark = tree.checkpoint()
            score = tree.merge(state, blue)
            tree.undo(mark)
            if score is not None:
                options.append((-score, state))
        options.sort()
        return options
