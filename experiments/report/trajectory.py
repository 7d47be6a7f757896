"""A-CEGIS trajectory metrics, computed from a run's records and its test-suite oracle.

A trajectory is the sequence of hypotheses a run proposed, one per turn (epoch), the hardening
repairs last. Each turn is re-judged on the suite's hidden tests, which is deterministic, so the
metrics need nothing but the records' hypothesis texts and the suite. A turn whose proposal failed
(no regex, syntax error) fails every test. The paper names the metrics without pinning them down;
here each is defined exactly:

* **Pass@1**: 1 if turn 1 passes every hidden test, else 0.
* **Pass@final**: 1 if the last turn *before hardening* passes every hidden test, else 0.
* **MRR** (per run, the reciprocal rank): 1 / t for the first turn t (1-based) that passes every
  hidden test, 0 if none does; averaged over runs by :func:`summarize`.
* **RER** (repair efficiency ratio): over every pair of consecutive turns and every hidden test, a
  *fix* is a test failed at turn t−1 and passed at turn t, a *break* the reverse; RER = fixes ÷
  breaks. A reply that does not parse (or has no regex) is a turn that fails every test, so it
  breaks every test the turn before it passed, and the next parsing turn fixes each one it passes
  again; it is not skipped. A run without breaks has RER ``inf`` when it fixed something and is
  undefined (``None``) otherwise; :func:`summarize` divides the fixes by the breaks summed over all
  runs.
* **Structural stability**: for every pair of consecutive turns that both parsed, the tree
  similarity 1 − TED(a, b) / max(|a|, |b|), where TED is the ordered tree edit distance of the
  two ASTs (Zhang-Shasha, unit costs; a node's label is its type with its character set or repeat
  bounds) and |a| the number of nodes; the mean over those pairs, ``None`` with no such pair.
* **Robust success**: the final hypothesis (after hardening) passes every hidden test and every
  hardening probe; a run that ends without a hypothesis is not robust, so the mean is over all
  runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from cegis.llm.acegis import HardeningCycle, SuiteReporter
from cegis.state import EpochRecord
from regexlang.ast import Chars, Regex, Repeat, children
from regexlang.dialects import Dialect, parse
from regexlang.errors import RegexError


@attrs.frozen
class TurnResult:
    """One turn: its hypothesis text (``None`` when the proposal failed) and per-test outcomes."""

    hypothesis: str | None
    outcomes: tuple[bool, ...]

    @property
    def passed(self) -> bool:
        """Whether every hidden test passed."""
        return bool(self.outcomes) and all(self.outcomes)


@attrs.frozen
class Trajectory:
    """The turns of one run (``hardened`` of them after hidden-set success) and the metrics."""

    turns: tuple[TurnResult, ...]
    hardened: int = 0
    robust: bool | None = None
    stability: float | None = None

    @property
    def pass_at_1(self) -> int:
        """1 if the first turn passed every hidden test."""
        return int(bool(self.turns) and self.turns[0].passed)

    @property
    def pass_at_final(self) -> int:
        """1 if the last turn before hardening passed every hidden test."""
        before = self.turns[: len(self.turns) - self.hardened]
        return int(bool(before) and before[-1].passed)

    @property
    def reciprocal_rank(self) -> float:
        """1 / the first passing turn, 0 if none passed."""
        return next((1.0 / t for t, turn in enumerate(self.turns, start=1) if turn.passed), 0.0)

    @property
    def fixes(self) -> int:
        """Tests failed at one turn and passed at the next, summed over consecutive turns."""
        return sum(
            not a and b
            for x, y in zip(self.turns, self.turns[1:])
            for a, b in zip(x.outcomes, y.outcomes)
        )

    @property
    def breaks(self) -> int:
        """Tests passed at one turn and failed at the next, summed over consecutive turns."""
        return sum(
            a and not b
            for x, y in zip(self.turns, self.turns[1:])
            for a, b in zip(x.outcomes, y.outcomes)
        )

    @property
    def rer(self) -> float | None:
        """Fixes ÷ breaks; ``inf`` with fixes and no breaks, ``None`` with neither."""
        return _ratio(self.fixes, self.breaks)


@attrs.frozen
class Summary:
    """Metrics over many runs: means of Pass@1, Pass@final, MRR, stability and robust success;
    RER as the fixes over the breaks of all runs."""

    runs: int
    pass_at_1: float
    pass_at_final: float
    mrr: float
    fixes: int
    breaks: int
    rer: float | None
    stability: float | None
    robust: float | None


def _ratio(fixes: int, breaks: int) -> float | None:
    if breaks:
        return fixes / breaks
    return math.inf if fixes else None


def trajectory(
    hypotheses: Sequence[str | None],
    suite: SuiteReporter,
    *,
    dialect: Dialect = "python",
    hardened: int = 0,
    probe_final: bool = False,
) -> Trajectory:
    """The trajectory of ``hypotheses`` (one per turn, the last ``hardened`` from hardening) on
    ``suite``; ``probe_final`` also probes the last hypothesis for robust success."""
    turns = []
    for text in hypotheses:
        report = None if text is None else suite.evaluate(text, probe=False)
        ok = report is not None and report.valid and len(report.predicted) == len(suite.tests)
        outcomes = (
            report.outcomes if ok and report is not None else tuple(False for _ in suite.tests)
        )
        turns.append(TurnResult(text, outcomes))
    robust = None
    if probe_final and hypotheses:  # a run that ends without a hypothesis is not robust
        robust = hypotheses[-1] is not None and suite.evaluate(hypotheses[-1], probe=True).robust
    trees = [_parsed(text, dialect) for text in hypotheses]
    pairs = [(a, b) for a, b in zip(trees, trees[1:]) if a is not None and b is not None]
    stability = sum(similarity(a, b) for a, b in pairs) / len(pairs) if pairs else None
    return Trajectory(tuple(turns), hardened, robust, stability)


def from_records(
    records: Sequence[EpochRecord],
    suite: SuiteReporter,
    *,
    dialect: Dialect = "python",
    hardening: Sequence[HardeningCycle] = (),
    probe_final: bool = False,
) -> Trajectory:
    """The trajectory of a run's epoch records (hardening epochs included in the records, counted
    by ``hardening``)."""
    texts = [record.proposal_text if record.failure is None else None for record in records]
    return trajectory(
        texts, suite, dialect=dialect, hardened=len(hardening), probe_final=probe_final
    )


def summarize(trajectories: Sequence[Trajectory]) -> Summary:
    """The metrics over many runs (see the module doc)."""
    runs = len(trajectories)

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    stabilities = [t.stability for t in trajectories if t.stability is not None]
    robust = [float(t.robust) for t in trajectories if t.robust is not None]
    fixes = sum(t.fixes for t in trajectories)
    breaks = sum(t.breaks for t in trajectories)
    return Summary(
        runs,
        mean([t.pass_at_1 for t in trajectories]),
        mean([t.pass_at_final for t in trajectories]),
        mean([t.reciprocal_rank for t in trajectories]),
        fixes,
        breaks,
        _ratio(fixes, breaks),
        mean(stabilities) if stabilities else None,
        mean(robust) if robust else None,
    )


def _parsed(text: str | None, dialect: Dialect) -> Regex | None:
    if text is None:
        return None
    try:
        return parse(text, dialect)
    except RegexError:
        return None


def _label(node: Regex) -> tuple[object, ...]:
    if isinstance(node, Chars):
        return ("Chars", node.chars.intervals)
    if isinstance(node, Repeat):
        return ("Repeat", node.min, node.max)
    return (type(node).__name__,)


def _postorder(tree: Regex) -> tuple[list[tuple[object, ...]], list[int]]:
    """Node labels in postorder and, for each node, the postorder index of its leftmost leaf."""
    labels: list[tuple[object, ...]] = []
    leftmost: list[int] = []

    def visit(node: Regex) -> int:
        first = -1
        for child in children(node):
            start = visit(child)
            first = start if first < 0 else first
        labels.append(_label(node))
        leftmost.append(first if first >= 0 else len(labels) - 1)
        return leftmost[-1]

    visit(tree)
    return labels, leftmost


def tree_edit_distance(a: Regex, b: Regex) -> int:
    """The ordered tree edit distance of two ASTs with unit insert, delete and relabel costs
    (Zhang and Shasha, 1989)."""
    la, ll = _postorder(a)
    lb, rl = _postorder(b)
    keyroots_a = [i for i in range(len(la)) if all(ll[j] != ll[i] for j in range(i + 1, len(la)))]
    keyroots_b = [j for j in range(len(lb)) if all(rl[k] != rl[j] for k in range(j + 1, len(lb)))]
    tree = [[0] * len(lb) for _ in la]
    for i in keyroots_a:
        for j in keyroots_b:
            di, dj = ll[i], rl[j]
            rows, cols = i - di + 2, j - dj + 2
            forest = [[0] * cols for _ in range(rows)]
            for x in range(1, rows):
                forest[x][0] = x
            for y in range(1, cols):
                forest[0][y] = y
            for x in range(1, rows):
                for y in range(1, cols):
                    p, q = di + x - 1, dj + y - 1
                    if ll[p] == di and rl[q] == dj:
                        relabel = forest[x - 1][y - 1] + (la[p] != lb[q])
                        forest[x][y] = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1, relabel)
                        tree[p][q] = forest[x][y]
                    else:
                        sub = forest[ll[p] - di][rl[q] - dj] + tree[p][q]
                        forest[x][y] = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1, sub)
    return tree[-1][-1]


def similarity(a: Regex, b: Regex) -> float:
    """1 − TED(a, b) / max(|a|, |b|): 1 for equal trees, 0 for trees with nothing in common."""
    size = max(len(_postorder(a)[0]), len(_postorder(b)[0]))
    return 1.0 - tree_edit_distance(a, b) / size
