"""Red-blue merging (cegis.symbolic.merging.core.redblue): the compiled loop, which skips the merges
that failed at an earlier step and searches a sink again only when a merge changed what its
search saw, picks the same merges as a plain reference that tries every red/blue pair and
searches every blue state at every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automata.jit._jit import forced
from cegis.symbolic.merging.core.quotient import Quotient
from cegis.symbolic.merging.core.redblue import MergeOrder, blue_states, red_blue
from cegis.symbolic.merging.core.symbols import SymbolicWord

samples = st.dictionaries(st.text("012", max_size=7), st.booleans(), min_size=1, max_size=30)
ORDERS = [
    MergeOrder(strategy, sinks=sinks, max_states=6)
    for strategy in ("edsm", "rpni")
    for sinks in (True, False)
]


def reference(tree: Quotient, order: MergeOrder) -> list[int] | None:
    """RPNI and EDSM as the blue-fringe papers state them: at every step, every red/blue pair is
    tried (EDSM) or the first blue state merged into the first red state that accepts it (RPNI)."""
    red = [tree.find(0)]
    while True:
        red = list(dict.fromkeys(tree.find(r) for r in red))
        blues = blue_states(tree, red, order.sinks)
        if not blues:
            return red
        if order.strategy == "rpni":
            blues = blues[:1]
        best: tuple[int, int, int] | None = None
        promoted = None
        for blue in blues:
            scores = []
            for state in red:
                mark = tree.checkpoint()
                scores.append((tree.merge(state, blue), state))
                tree.undo(mark)
            merges = [(score, state) for score, state in scores if score is not None]
            if not merges:
                promoted = blue
                break
            score, state = (
                max(merges, key=lambda m: m[0]) if order.strategy == "edsm" else merges[0]
            )
            if best is None or score > best[0]:
                best = (score, state, blue)
        if promoted is not None:
            red.append(promoted)
            if len(red) > order.max_states:
                return None
        else:
            assert best is not None
            assert tree.merge(best[1], best[2]) is not None


def merges_as_the_reference_does(mode: str, order: MergeOrder, labels: dict[str, bool]) -> bool:
    """Whether :func:`red_blue` run in ``mode`` on the prefix tree of ``labels`` picks the merges
    :func:`reference` does."""
    words = [SymbolicWord(tuple((int(c),) for c in s), label) for s, label in labels.items()]
    tree, _ = Quotient.prefix_tree(words)
    mark = tree.checkpoint()
    with forced(mode):  # type: ignore[arg-type]
        got = red_blue(tree, order)
    tree.undo(mark)
    return got == reference(tree, order)


@pytest.mark.parametrize("mode", ["python", "compiled"])
@pytest.mark.parametrize("order", ORDERS, ids=lambda o: o.name)
@settings(derandomize=True, max_examples=60, deadline=None)
@given(samples)
def test_red_blue_merges_as_the_reference_does(
    mode: str, order: MergeOrder, labels: dict[str, bool]
) -> None:
    assert merges_as_the_reference_does(mode, order, labels)


@pytest.mark.parametrize("mode", ["python", "compiled"])
@pytest.mark.parametrize("sinks", [True, False])
@settings(derandomize=True, max_examples=15, deadline=None)
@given(
    st.dictionaries(st.text("012", min_size=3, max_size=9), st.booleans(), min_size=30, max_size=60)
)
def test_evidence_kept_from_step_to_step_picks_the_merges_the_reference_does(
    mode: str, sinks: bool, labels: dict[str, bool]
) -> None:
    """Larger trees, more steps: most scores of a step are the ones kept from earlier steps."""
    assert merges_as_the_reference_does(
        mode, MergeOrder("edsm", sinks=sinks, max_states=12), labels
    )
