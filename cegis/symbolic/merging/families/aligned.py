"""Templates of positives whose skeletons differ by optional parts, aligned into one skeleton.

``ann.lee@mail.org`` and ``bo@web.io`` have different skeletons (``r.r@r.r`` and ``r@r.r``), so
the run templates (:mod:`.templates`) write each skeleton apart, the second from its own few
values; a person writes one skeleton with the missing part optional,
``[a-z]+(?:\\.[a-z]+)?@[a-z]+\\.[a-z]+``, each run from the values of every positive that has it.

Each positive is cut into *tokens* (separator characters, and runs of word characters by kind) and
matched into the longest one's tokens in order (the first place each token fits). Tokens some
positives lack become optional groups, one per stretch that the same positives lack; each run is
written from the values the positives show there (:func:`.run_writing.levels`, at the uniform
levels, and at its narrowest). A positive that does not fit into the longest has no alignment here:
the family answers nothing."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from cegis.symbolic.merging.families.run_writing import Home, levels, narrowest_run
from cegis.symbolic.merging.families.templates import UNIFORM_LEVELS, Cut, Template, cut_runs
from regexlang.ast import Optional, Regex, concat
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet

#: A token: a separator character, or a run by its kind (:func:`.templates.cut_runs`).
_Token = str | int


def aligned_templates(positives: Sequence[str], universe: CharSet, cut: Cut) -> list[Template]:
    """The aligned templates of the positives under ``cut`` (runs at each uniform level, and at
    their narrowest), or none when they share one skeleton or do not align."""
    tokenized = [_tokens(p, cut) for p in positives]
    if len({tuple(t for t, _ in tokens) for tokens in tokenized}) < 2:
        return []
    longest = max(tokenized, key=len)
    spine = [t for t, _ in longest]
    places = [_matched([t for t, _ in tokens], spine) for tokens in tokenized]
    if any(p is None for p in places):
        return []
    present: list[set[int]] = [set() for _ in spine]
    values: list[list[str]] = [[] for _ in spine]
    for tokens, place in zip(tokenized, places):
        assert place is not None
        for (_, value), at in zip(tokens, place):
            present[at].add(id(tokens))
            values[at].append(value)
    home = Home(universe)
    ladders = [
        levels(values[at], home) if isinstance(token, int) else [text_regex(token)]
        for at, token in enumerate(spine)
    ]
    out: dict[Regex, Template] = {}
    everyone = {id(tokens) for tokens in tokenized}
    for level in range(UNIFORM_LEVELS):
        parts = [ladder[min(level, len(ladder) - 1)] for ladder in ladders]
        regex = _grouped(parts, present, everyone)
        out.setdefault(regex, Template(regex, f"aligned template ({cut} runs at level {level})", 1))
    tightest = [
        narrowest_run(values[at], home) if isinstance(token, int) else text_regex(token)
        for at, token in enumerate(spine)
    ]
    regex = _grouped(tightest, present, everyone)
    out.setdefault(regex, Template(regex, f"aligned template ({cut} runs at their narrowest)", 1))
    return list(out.values())


def _tokens(string: str, cut: Cut) -> list[tuple[_Token, str]]:
    """The tokens of ``string`` with the text each stands for."""
    skeleton, before, runs, after = cut_runs(string, cut)
    given = iter(runs)
    out: list[tuple[_Token, str]] = [(c, c) for c in before]
    out += [(part, next(given)) if isinstance(part, int) else (part, part) for part in skeleton]
    return out + [(c, c) for c in after]


def _matched(tokens: Sequence[_Token], spine: Sequence[_Token]) -> list[int] | None:
    """Where each token goes in ``spine``, in order, each at the first place it fits; None when
    one fits nowhere after the token before it."""
    out, at = [], 0
    for token in tokens:
        while at < len(spine) and spine[at] != token:
            at += 1
        if at == len(spine):
            return None
        out.append(at)
        at += 1
    return out


def _grouped(parts: Sequence[Regex], present: Sequence[set[int]], everyone: set[int]) -> Regex:
    """The parts in order, each stretch of neighbours that the same positives lack optional."""
    out: list[Regex] = []
    for shown, stretch in itertools.groupby(
        zip(parts, present), key=lambda pair: frozenset(pair[1])
    ):
        written = concat(*(part for part, _ in stretch))
        out.append(written if shown == everyone else Optional(written))
    return concat(*out)
