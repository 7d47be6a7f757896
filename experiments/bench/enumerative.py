"""Measure the enumerative learner on the benchmark targets: ``python -m experiments.bench.enumerative``.

Two figures, printed per StarDepth of ``cegml/regex_list.json`` and per node count of the target:

* *static*: the learner is given ``n`` positive and ``n`` negative strings sampled uniformly from the
  target and its complement (lengths up to 8) and asked for the smallest consistent regex within
  its budgets; reported are how often it answers, its CPU seconds, candidates per CPU second, and
  how often the answer is exactly the target;
* *loop*: a small counterexample loop with the exact teacher (one shortest counterexample per
  epoch, clustered or not) until the answer is the target, a proposal fails, or ``epochs`` run out.

A stand-alone driver for this learner only; the learning loop of :mod:`cegis` and its benchmark
compare all learners.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

import attrs
import numpy as np

from automata.algebra.ops import complement, equivalent
from automata.building.compile import compile_many
from automata.strings.sampling import sample_strings
from cegis.symbolic.enumerative.learner import EnumerativeConfig, synthesize
from experiments.data_dir import DEFAULT_DATA_DIR
from oracle import Counterexample, ExactTeacher, Example, TeacherConfig, remember
from regexlang import parse, universe
from regexlang.dialects import Dialect
from regexlang.metrics import node_count


def targets(data: Path, key: str) -> list[tuple[int, str]]:
    """``(StarDepth, regex)`` pairs of one list (``simplyrx`` or ``extrx``) of the benchmark."""
    found: list[tuple[int, str]] = []
    for by_states in json.loads((data / "cegml" / "regex_list.json").read_text())[key]:
        for by_depth in by_states["regex_list"]:
            found.extend((by_depth["Stardepth"], r) for r in by_depth["regex_list"])
    return found


@attrs.frozen
class Outcome:
    """One target's figures in both protocols."""

    depth: int
    target_nodes: int
    answered: bool  # static: a consistent regex within the budget
    exact: bool  # static: and it is the target's language
    seconds: float
    computed: int
    learned: bool  # loop: the target's language was learned
    examples: int  # loop: labeled examples given by then


def static(
    target: str, dialect: Dialect, n: int, config: EnumerativeConfig, seed: int
) -> tuple[bool, bool, float, int]:
    """(answered, exact, seconds, candidates) for ``n`` sampled strings of each label."""
    sigma = universe(dialect)
    regex = parse(target, dialect)
    (dfa,) = compile_many([regex], sigma)
    rng = np.random.default_rng(seed)
    examples = [Example(s, True) for s in sample_strings(dfa, n, rng, max_len=8)]
    examples += [Example(s, False) for s in sample_strings(complement(dfa), n, rng, max_len=8)]
    started = time.process_time()  # CPU seconds: wall time on a shared machine says little
    result = synthesize(examples, dialect, sigma, config, seed=seed)
    seconds = time.process_time() - started
    exact = result.regex is not None and equivalent(*compile_many([regex, result.regex], sigma))
    return result.regex is not None, exact, seconds, result.stats.computed


def loop(
    target: str, dialect: Dialect, epochs: int, clustered: bool, config: EnumerativeConfig
) -> tuple[bool, int]:
    """(learned exactly, labeled examples used) in a one-shortest-counterexample loop."""
    settings = TeacherConfig(batch=1, mode="shortest", clustered=clustered)
    teacher = ExactTeacher.from_regex(target, dialect, config=settings)
    given: tuple[Counterexample, ...] = ()
    for _ in range(epochs):
        result = synthesize(given, dialect, universe(dialect), config)
        if result.regex is None:
            return False, len(given)
        verdict = teacher.check(result.regex, given)
        if verdict.equivalent:
            return True, len(given)
        given = remember(given, verdict)
    return False, len(given)


def table(title: str, groups: dict[str, list[Outcome]]) -> str:
    """One line per group: static answers, exact answers, median CPU seconds, candidates per CPU
    second, loop successes and median examples at success."""
    lines = [f"{title:>10}   n  answered  exact  cpu_s     cand/cpu_s | learned  median_examples"]
    for name, group in groups.items():
        rate = sum(o.computed for o in group) / max(1e-9, sum(o.seconds for o in group))
        used = [o.examples for o in group if o.learned]
        lines.append(
            f"{name:>10} {len(group):3d}  {sum(o.answered for o in group):8d} {sum(o.exact for o in group):6d}  "
            f"{statistics.median(o.seconds for o in group):6.3f} {rate:12.0f} | {sum(o.learned for o in group):7d}  "
            f"{statistics.median(used) if used else float('nan'):15}"
        )
    return "\n".join(lines)


def _bucket(nodes: int) -> str:
    low = (nodes - 1) // 5 * 5 + 1
    return f"{low}-{low + 4}"


def main() -> None:
    """Print the tables for the chosen dataset, by StarDepth and by the target's node count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--dataset", choices=("simplyrx", "extrx"), default="simplyrx")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="the learner's time budget per search"
    )
    parser.add_argument(
        "--candidates", type=int, default=EnumerativeConfig().max_candidates, help="its node budget"
    )
    parser.add_argument(
        "--examples", type=int, default=10, help="strings of each label in the static protocol"
    )
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--clustered", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="targets per StarDepth")
    args = parser.parse_args()
    dialect: Dialect = "simple" if args.dataset == "simplyrx" else "extended"
    config = EnumerativeConfig(max_candidates=args.candidates, seconds=args.seconds)
    outcomes: list[Outcome] = []
    for depth, target in targets(args.data, args.dataset):
        if args.limit is not None and sum(o.depth == depth for o in outcomes) >= args.limit:
            continue
        seed = sum(o.depth == depth for o in outcomes)
        answered, exact, seconds, computed = static(target, dialect, args.examples, config, seed)
        learned, examples = loop(target, dialect, args.epochs, args.clustered, config)
        nodes = node_count(parse(target, dialect))
        outcomes.append(
            Outcome(depth, nodes, answered, exact, seconds, computed, learned, examples)
        )
    by_depth: dict[str, list[Outcome]] = defaultdict(list)
    by_size: dict[str, list[Outcome]] = defaultdict(list)
    for o in sorted(outcomes, key=lambda o: (o.depth, o.target_nodes)):
        by_depth[str(o.depth)].append(o)
    for o in sorted(outcomes, key=lambda o: o.target_nodes):
        by_size[_bucket(o.target_nodes)].append(o)
    print(table("StarDepth", by_depth))
    print(table("nodes", by_size))


if __name__ == "__main__":
    main()
