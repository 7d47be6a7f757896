"""Hardening probes: strings near what a task talks about, labeled by the gold regex.

A regex can pass a dozen hidden tests and still be wrong one character away from them. A-CEGIS
therefore *hardens* a passing hypothesis: it builds probe strings near the task's description
tokens, the literals of the hypothesis and of the gold regex, and the existing examples — with
insertions, deletions, substitutions, repetitions and length-boundary edits — labels them with the
gold regex and reports every probe the hypothesis gets wrong. *Robust success* means passing the
hidden tests and every probe.

Counted repetitions get their own seeds: for ``(dog){2,}`` the probes include ``dog``, ``dogdog``
and ``dogdogdog``, the strings on either side of the bound. The generator interleaves its sources
round-robin so a probe budget covers every seed and every kind of edit rather than exhausting the
first example. Labels always come from the gold DFA.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence

import attrs
import numpy as np

from automata.algebra.ops import accepts_many
from automata.core.dfa import DFA
from oracle import mutations
from oracle.examples import Example
from oracle.protocol import Spend
from regexlang.ast import Chars, Concat, Plus, Regex, Repeat, children


@attrs.frozen
class ProbeReport:
    """Gold-labeled probes and the ones the hypothesis mislabels."""

    probes: tuple[Example, ...]
    failures: tuple[Example, ...]
    spend: Spend = Spend()

    @property
    def passed(self) -> bool:
        """Whether the hypothesis labels every probe correctly."""
        return not self.failures


def description_tokens(description: str) -> list[str]:
    """The words of a natural-language description (runs of letters and digits)."""
    words = "".join(c if c.isalnum() else " " for c in description).split()
    return list(dict.fromkeys(words))


def regex_literals(regex: Regex) -> list[str]:
    """Maximal runs of literal characters in ``regex``, e.g. ``dog`` in ``.*(dog){2,}.*``."""
    found: list[str] = []

    def walk(node: Regex) -> None:
        if isinstance(node, Chars) and node.chars.is_single():
            found.append(node.chars.first())
        elif isinstance(node, Concat):
            for single, group in itertools.groupby(
                node.parts, key=lambda p: isinstance(p, Chars) and p.chars.is_single()
            ):
                if single:
                    found.append("".join(p.chars.first() for p in group if isinstance(p, Chars)))
                else:
                    for part in group:
                        walk(part)
        else:
            for child in children(node):
                walk(child)

    walk(regex)
    return list(dict.fromkeys(found))


def _sample_string(node: Regex) -> str | None:
    """A cheap string of a repeated block (its first characters and options), used as a seed."""
    if isinstance(node, Chars):
        return node.chars.first() if node.chars else None
    if isinstance(node, Concat):
        parts = [_sample_string(p) for p in node.parts]
        return None if any(p is None for p in parts) else "".join(p for p in parts if p is not None)
    if isinstance(node, (Plus, Repeat)):
        inner = _sample_string(node.inner)
        return None if inner is None else inner * (node.min if isinstance(node, Repeat) else 1)
    options = [_sample_string(c) for c in children(node)]
    return next((o for o in options if o is not None), "")


def repetition_seeds(regex: Regex) -> list[str]:
    """For each counted or ``+`` repetition, its block repeated just below, at and above the bound."""
    seeds: list[str] = []

    def walk(node: Regex) -> None:
        if isinstance(node, (Repeat, Plus)):
            block = _sample_string(node.inner)
            if block:
                low, high = (node.min, node.max) if isinstance(node, Repeat) else (1, None)
                counts = {low - 1, low, low + 1} | ({high, high + 1} if high is not None else set())
                seeds.extend(block * k for k in sorted(counts) if k >= 0)
        for child in children(node):
            walk(child)

    walk(regex)
    return list(dict.fromkeys(seeds))


def _edits(seed: str, pool: str) -> Iterator[str]:
    yield seed
    yield from mutations.repetitions(seed)
    yield from mutations.boundaries(seed)
    yield from mutations.deletions(seed)
    yield from mutations.substitutions(seed, pool)
    yield from mutations.insertions(seed, pool)


def _embeddings(token: str, examples: Sequence[str]) -> Iterator[str]:
    for example in examples:
        middle = len(example) // 2
        yield token + example
        yield example + token
        yield example[:middle] + token + example[middle:]


def _round_robin(sources: Iterable[Iterable[str]]) -> Iterator[str]:
    iterators = [iter(s) for s in sources]
    while iterators:
        alive = []
        for it in iterators:
            item = next(it, None)
            if item is not None:
                yield item
                alive.append(it)
        iterators = alive


def probe_strings(
    *,
    tokens: Sequence[str],
    literals: Sequence[str],
    examples: Sequence[str],
    pool: str,
    rng: np.random.Generator,
    limit: int = 400,
    max_len: int = 32,
) -> tuple[str, ...]:
    """Up to ``limit`` distinct probe strings of length ``<= max_len`` near the given seeds.

    Each seed's edits are shuffled with ``rng`` and the seeds are interleaved, so a small budget
    still reaches every seed and every kind of edit.
    """
    seeds = list(dict.fromkeys([*tokens, *literals, *examples]))
    sources: list[list[str]] = []
    for seed in seeds:
        edits = mutations.unique(_edits(seed, pool), max_len)
        head, tail = edits[:1], edits[1:]
        rng.shuffle(tail)
        sources.append(head + tail)
    for token in dict.fromkeys([*tokens, *literals]):
        sources.append(mutations.unique(_embeddings(token, examples), max_len))
    return tuple(itertools.islice(dict.fromkeys(_round_robin(sources)), limit))


def harden(hypothesis: DFA, gold: DFA, probes: Sequence[str]) -> ProbeReport:
    """Label ``probes`` with ``gold`` and collect those ``hypothesis`` labels differently."""
    gold_labels = accepts_many(gold, probes)
    predicted = accepts_many(hypothesis, probes)
    labeled = tuple(Example(s, bool(g)) for s, g in zip(probes, gold_labels))
    failures = tuple(e for e, p in zip(labeled, predicted) if bool(p) != e.label)
    return ProbeReport(labeled, failures, Spend(0.0, len(probes)))
