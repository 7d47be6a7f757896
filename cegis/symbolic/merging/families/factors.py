"""Hypotheses built from the factors (substrings) that every positive example shares.

State merging finds loops and joins in the prefix tree, but "contains ``New#Zealand``" (and the
products of such constraints, which people write all the time) is spelled by back edges that no
few long positives show. These families (conjunctions of shared factors, sequences, "contains one
of") only add candidates that compete on description length; a negative drops them like any other."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from cegis.symbolic.merging.candidate import Found, check_state_limit, spelled
from cegis.symbolic.merging.core.run_cache import RunCache
from cegis.symbolic.merging.evidence import Evidence
from cegis.symbolic.merging.families.pieces import (
    contains,
    one_after_another,
    piece_name,
    smallest_holding,
    starts_of,
)
from cegis.symbolic.merging.families.sequences import sequence_hypotheses
from cegis.symbolic.merging.families.shared import (
    SHORTEST_FACTOR,
    Hypotheses,
    Shared,
    shared_factors,
)
from regexlang.ast import (
    Chars,
    Complement,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
    intersection,
    union,
)
from regexlang.ast import text as text_regex
from regexlang.charset import CharSet
from regexlang.python_printing import interval_class

#: Most factors of a "contains one of" hypothesis, and the fewest and most characters of those
#: factors.
MOST_ALTERNATIVES = 3
SHORTEST_ALTERNATIVE = 3
LONGEST_ALTERNATIVE = 16

#: Marks the end of a string where factors must be suffixes.
_END = "\0"

#: Most parts (the prefix and suffix, each shared factor) a conjunction intersects: a string can
#: show any subset of them, and the automaton has a state for each, so past this it would not
#: compile within the check's states (long examples share scores of short factors by chance).
MOST_CONJOINED = 16

#: Most of the examples' classes (the most often shown first) that counting hypotheses bound.
MOST_COUNTED = 3

#: States a hypothesis (and the products building it) may reach, however long the examples: a
#: conjunction of factors shared by lines of hundreds of characters can take tens of thousands
#: of states before it fails, and one that large is never the answer printed.
MOST_STATES = 5_000


def factor_hypotheses(
    positives: Sequence[str],
    negatives: Sequence[str],
    universe: CharSet,
    classes: Sequence[CharSet] = (),
    shown: Sequence[CharSet] = (),
    *,
    cache: RunCache | None = None,
) -> Hypotheses:
    """The hypotheses of this module that the examples suggest, each with a short description,
    over ``universe``; ``classes`` partition the characters the examples tell apart (a learner's
    atoms), ``shown`` are the classes of the clustered examples, the most often shown first. What
    the same examples give again (every epoch and agreement round) is kept in the run's ``cache``."""
    run = cache or RunCache()
    alternatives = _alternatives(positives, negatives, universe, run)
    if not positives:
        return alternatives
    shared = Shared.of(positives, universe, run)
    held = _held_classes(positives, classes, shared.spelled, run)
    accepted = shared.held(negatives)  # the negatives the conjunction accepts
    if len(shared.parts()) > MOST_CONJOINED:
        conjunctions = _alone(shared)
    else:
        conjunctions = _conjunctions(shared, positives, accepted, held) + _around(
            shared, positives, accepted
        )
        conjunctions += _counted(shared, positives, accepted, shown)
    conjunctions += _framed_alternatives(shared, positives, negatives, (*shown, *classes))
    return conjunctions + sequence_hypotheses(shared, positives, negatives, held) + alternatives


def _conjunctions(
    shared: Shared, positives: Sequence[str], accepted: Sequence[str], held: dict[CharSet, int]
) -> Hypotheses:
    """The conjunction, each factor a positive holds more than once alone (``fu`` six times, without
    the coincidences of a few positives), and, when a negative refutes the conjunction (or there
    is none: no factor is shared), the conjunctions that also ask for the characters or the
    ``held`` classes every positive has, exclude what the ``accepted`` negatives share
    (``~excellent``), and keep the factors' orders."""
    parts, named = shared.parts(), shared.names()
    out = [(intersection(*parts), f"shared factors ({', '.join(named)})")] if parts else []
    if len(parts) > 1:
        out += _alone(shared)
    if not accepted:
        return out
    common = set.intersection(*map(set, accepted))
    lacking = [c for c in shared.characters if c not in common]
    if lacking:  # the words alone are refuted: ask for the characters every positive has too
        has = [contains(text_regex(c), 1, shared.anything) for c in lacking]
        out.append(
            (intersection(*parts, *has), f"shared factors ({', '.join([*named, *lacking])})")
        )
    if held:  # the words alone are refuted: ask for the classes every positive has too
        classed, classes_named = _at_least(shared, held)
        out.append(
            (
                intersection(*parts, *classed),
                f"shared factors ({', '.join([*named, *classes_named])})",
            )
        )
        still = [
            x
            for x in accepted
            if all(_counted_in(x, c, shared.cache) >= n for c, n in held.items())
        ]
        if still:  # refuted too: what follows adds to it (else to the words alone)
            parts, named, accepted = parts + classed, named + classes_named, still
    words = shared.once
    for absent, none_of in _exclusions(positives, accepted, words, shared.anything, shared.cache):
        out.append(
            (
                intersection(*parts, *absent),
                f"shared factors ({', '.join(named)}), {none_of}" if named else none_of,
            )
        )
    pairs = [
        pair
        for pair in itertools.permutations(words, 2)
        if all(shared.match(p, pair) is not None for p in positives)
    ]
    if pairs:
        kept = [one_after_another([text_regex(w) for w in pair], shared.anything) for pair in pairs]
        out.append(
            (
                intersection(*parts, *kept),
                f"shared factors ({', '.join(named)}), in order ({', '.join(map('…'.join, pairs))})",
            )
        )
    return out


def _alone(shared: Shared) -> Hypotheses:
    """Each factor every positive holds more than once, alone (``fu`` six times)."""
    return [
        (contains(text_regex(w), n, shared.anything), f"shared factors ({w} ×{n})")
        for w, n in shared.inner.items()
        if n > 1
    ]


def _counted(
    shared: Shared, positives: Sequence[str], accepted: Sequence[str], shown: Sequence[CharSet]
) -> Hypotheses:
    """For each of the first :data:`MOST_COUNTED` ``shown`` classes, the conjunction that also asks
    for as many characters of the class as every positive has (``≥ 2 letters``), and the one that
    also asks for at most as many runs of them as a positive has, when a negative it would
    otherwise accept (of the ``accepted``) has more runs; and the one that asks for as many
    characters of each of those classes (``≥ 2 digits and ≥ 3 letters``)."""
    out = []
    counted = {
        chars: min(_counted_in(p, chars, shared.cache) for p in positives)
        for chars in [c for c in shown if len(c) > 1 and not shared.universe.issubset(c)][
            :MOST_COUNTED
        ]
    }
    for chars, least in counted.items():
        most = max(shared.cache(_runs, p, chars, limit=1 << 16) for p in positives)
        asked, said = _at_least(shared, {chars: least})
        parts = [*shared.parts(), *asked]
        named = f"shared factors ({', '.join([*shared.names(), *said])})"
        if least:
            out.append((intersection(*parts), named))
        if any(
            shared.cache(_runs, n, chars, limit=1 << 16) > most
            and _counted_in(n, chars, shared.cache) >= least
            for n in accepted
        ):
            at_most = shared.cache(_runs_at_most, chars, most, shared.universe, limit=256)
            out.append(
                (
                    intersection(*parts, at_most),
                    f"{named}, at most {most} runs of {piece_name(chars)}",
                )
            )
    counts = {chars: least for chars, least in counted.items() if least}
    if len(counts) > 1:
        asked, said = _at_least(shared, counts)
        out.append(
            (
                intersection(*shared.parts(), *asked),
                f"shared factors ({', '.join([*shared.names(), *said])})",
            )
        )
    return out


def _at_least(shared: Shared, counts: dict[CharSet, int]) -> tuple[list[Regex], list[str]]:
    """The languages that ask for ``counts[c]`` characters of each class ``c``, and their names."""
    return [shared.cache(_asking, c, n, shared.universe, limit=256) for c, n in counts.items()], [
        f"{piece_name(c)} ×{n}" for c, n in counts.items()
    ]


def _asking(chars: CharSet, times: int, universe: CharSet) -> Regex:
    """The strings over ``universe`` with ``times`` characters of ``chars``."""
    return contains(Chars(chars), times, Star(Chars(universe)))


def _runs_at_most(chars: CharSet, most: int, universe: CharSet) -> Regex:
    """The strings over ``universe`` with at most ``most`` runs of ``chars`` (maximal substrings of them)."""
    others, run = Chars(universe - chars), Plus(Chars(chars))
    if not most:
        return Star(others)
    return concat(
        Star(others),
        Repeat(concat(run, Plus(others)), 0, most - 1),
        Optional(concat(run, Star(others))),
    )


def _runs(string: str, chars: CharSet) -> int:
    """How many runs of ``chars`` ``string`` has."""
    return len(_run_pattern(chars).findall(string))


def _side(string: str, word: str, after: bool) -> str:
    """What ``string`` holds after its first ``word``, or before its last one."""
    return string[string.find(word) + len(word) :] if after else string[: string.rfind(word)]


def _around(shared: Shared, positives: Sequence[str], accepted: Sequence[str]) -> Hypotheses:
    """For each factor every positive holds once: when negatives holding it refute the conjunction,
    the conjunction that also asks for one of a few :func:`covering_factors` (of at least
    :data:`SHORTEST_FACTOR` characters) before it, or after it (``ig`` or ``physics`` before ``nobel``)."""
    out: Hypotheses = []
    for word in shared.once if accepted else []:
        for after in (False, True):
            factors = covering_factors(
                [_side(p, word, after) for p in positives],
                [_side(n, word, after) for n in accepted],
                SHORTEST_FACTOR,
                cache=shared.cache,
            )
            if factors:
                pieces = [text_regex(word), union(*map(text_regex, factors))]
                sequence = one_after_another(pieces if after else pieces[::-1], shared.anything)
                where = "after" if after else "before"
                out.append(
                    (
                        intersection(*shared.parts(besides=word), sequence),
                        f"shared factors ({', '.join(shared.names())}), one of ({', '.join(factors)}) {where} {word}",
                    )
                )
    return out


def _framed_alternatives(
    shared: Shared, positives: Sequence[str], negatives: Sequence[str], classes: tuple[CharSet, ...]
) -> Hypotheses:
    """When no suffix is shared: the strings that start with the shared prefix, or else with a
    character of the smallest of ``classes`` holding every positive's first one, and end with one
    of a few suffixes that cover the positives and that no negative starting so ends with
    (``[0-9]`` … ``street`` or ``avenue``), or, after a shared prefix, with a character of the
    smallest class holding every positive's last one (``Transport#One`` … ``[0-9]``)."""
    if shared.suffix or not negatives or "" in positives:
        return []
    cache = shared.cache
    first = cache(
        smallest_holding, classes, CharSet.of("".join(p[0] for p in positives)), shared.universe
    )
    if shared.prefix:
        start, said, opening = (
            text_regex(shared.prefix),
            shared.prefix,
            [n for n in negatives if n.startswith(shared.prefix)],
        )
    elif first is not None:
        begins = cache(_run_pattern, first, limit=256).match
        start, said, opening = Chars(first), piece_name(first), [n for n in negatives if begins(n)]
    else:
        return []
    out = []
    suffixes = covering_factors(positives, opening, SHORTEST_FACTOR, ends=True, cache=cache)
    if suffixes:
        either = union(*map(text_regex, suffixes))
        out.append(
            (
                intersection(concat(start, shared.anything), concat(shared.anything, either)),
                f"starts {said}, ends with one of ({', '.join(suffixes)})",
            )
        )
    last = cache(
        smallest_holding, classes, CharSet.of("".join(p[-1] for p in positives)), shared.universe
    )
    if last is not None and shared.prefix:
        out.append(
            (
                intersection(concat(start, shared.anything), concat(shared.anything, Chars(last))),
                f"starts {said}, ends {piece_name(last)}",
            )
        )
    return out


def _exclusions(
    positives: Sequence[str],
    accepted: Sequence[str],
    words: Sequence[str],
    anything: Regex,
    cache: RunCache,
) -> list[tuple[list[Regex], str]]:
    """What to exclude so that the ``accepted`` negatives are refused (:func:`_excluded`), as it
    is, narrowed to the pieces apart from the shared ``words``, and narrowed to the shortest pieces
    no positive holds: each as the complements to intersect and a description."""
    excluded = _excluded(positives, accepted, words, cache)
    variants = [
        excluded,
        _narrowed(excluded, lambda w: _apart_from(w, words, positives)),
        _narrowed(excluded, lambda w: _minimal_absent(w, positives)),
    ]
    return [
        (
            [
                Complement(one_after_another([text_regex(w) for w in seq], anything))
                for seq in exclusions
            ],
            f"none of ({', '.join(map('…'.join, exclusions))})",
        )
        for exclusions in dict.fromkeys(tuple(v) for v in variants if v)
    ]


def _excluded(
    positives: Sequence[str], accepted: Sequence[str], words: Sequence[str], cache: RunCache
) -> list[tuple[str, ...]]:
    """What every one of the ``accepted`` negatives holds and no positive does: the characters and
    factors they share that no positive has, and those a positive has but never before (or after)
    one of ``words`` that the negatives hold it before (after); when these leave negatives, also a
    few factors no positive has that cover those (``sh`` or ``cl``)."""
    characters = sorted(set.intersection(*map(set, accepted)) - set("".join(positives)))
    out: list[tuple[str, ...]] = [(c,) for c in characters]
    for w in shared_factors(accepted):
        if any(c in w for c in characters):
            continue
        if not any(w in p for p in positives):
            out.append((w,))
            continue
        for v in (v for v in words if w not in v and v not in w):
            for seq in ((w, v), (v, w)):
                if all(starts_of(n, seq, cache) is not None for n in accepted) and not any(
                    starts_of(p, seq, cache) is not None for p in positives
                ):
                    out.append(seq)
    left = [n for n in accepted if not any(starts_of(n, seq, cache) is not None for seq in out)]
    covering = covering_factors(left, positives, SHORTEST_FACTOR, cache=cache) if left else []
    return out + [(w,) for w in covering]


def _narrowed(
    excluded: Sequence[tuple[str, ...]], narrow: Callable[[str], list[str]]
) -> list[tuple[str, ...]]:
    """``excluded`` with each single factor replaced by the factors ``narrow`` finds in it."""
    return [
        short
        for seq in excluded
        for short in ([(w,) for w in narrow(seq[0])] or [seq] if len(seq) == 1 else [seq])
    ]


def _apart_from(word: str, words: Sequence[str], positives: Sequence[str]) -> list[str]:
    """The longest piece of ``word`` between its occurrences of the shared ``words`` that no
    positive holds (``butterflies`` of ``butterfliesfireflies``), if ``word`` holds one of them."""
    pieces = [word]
    for shared in sorted(words, key=len, reverse=True):
        pieces = [piece for whole in pieces for piece in whole.split(shared)]
    if len(pieces) == 1:
        return []
    absent = [piece for piece in pieces if piece and not any(piece in p for p in positives)]
    return [max(absent, key=len)] if absent else []


def _minimal_absent(word: str, positives: Sequence[str]) -> list[str]:
    """The substrings of ``word`` that no positive holds but whose every shorter substring some
    positive does (``ha`` and ``am`` of ``sandwicham`` beside ``msandwich``): the most general
    exclusions that still refuse ``word``."""

    def absent(factor: str) -> bool:
        return not any(factor in p for p in positives)

    found = {
        word[start:end]
        for start in range(len(word))
        for end in range(start + 1, len(word) + 1)
        if absent(word[start:end])
        and (
            end - start == 1 or not (absent(word[start : end - 1]) or absent(word[start + 1 : end]))
        )
    }
    return sorted(found, key=word.find)


def _alternatives(
    positives: Sequence[str], negatives: Sequence[str], universe: CharSet, cache: RunCache
) -> list[tuple[Regex, str]]:
    """ "Contains one of" :func:`covering_factors`, when it takes more than one factor; and, when
    the factors that cover the positives regardless of the negatives take more than one, those
    with what the negatives holding them hold excluded (``dogs`` or ``cats``, but not ``mice``)."""
    anything = Star(Chars(universe))
    out: Hypotheses = []
    for factors, against in (
        (covering_factors(positives, negatives, cache=cache), ()),
        (covering_factors(positives, [], cache=cache), negatives),
    ):
        if len(factors) < 2:
            continue
        regex, named = (
            concat(anything, union(*map(text_regex, factors)), anything),
            f"contains one of ({', '.join(factors)})",
        )
        accepted = [n for n in against if any(f in n for f in factors)]
        if not against:
            out.append((regex, named))
        elif accepted:
            out += [
                (intersection(regex, *absent), f"{named}, {none_of}")
                for absent, none_of in _exclusions(positives, accepted, factors, anything, cache)
            ]
    return out


def covering_factors(
    positives: Sequence[str],
    negatives: Sequence[str],
    shortest: int = SHORTEST_ALTERNATIVE,
    ends: bool = False,
    *,
    cache: RunCache | None = None,
) -> list[str]:
    """At most :data:`MOST_ALTERNATIVES` substrings (of ``shortest`` to :data:`LONGEST_ALTERNATIVE`
    characters; when ``ends``, suffixes) that no negative contains (ends with) and that together
    cover every positive, chosen greedily (the one in most positives not yet covered, the longest
    on a tie, the last in character order on a tie of both); empty when there are none such.

    A pick covers no more positives than the one before it (each factor's count only falls), so
    when ``k`` picks are left, the next must cover a ``k``-th of the positives not yet covered, or
    the cover fails: only the factors held that often are ranked (:func:`_frequent_factors`, kept
    in the run's ``cache``: asked again of the same texts, with and without the negatives, and
    every epoch)."""
    run = cache or RunCache()
    joined = "\n".join(negatives)  # a match across two negatives only refuses a factor
    if _END in joined or any(_END in p for p in positives):
        return []
    end = _END if ends else ""
    texts = [p + end for p in positives]
    negative_text = (
        (end + "\n").join(negatives) + end if ends and negatives else joined
    )  # each negative ends with the mark
    uncovered, chosen = list(range(len(texts))), list[str]()
    while uncovered and len(chosen) < MOST_ALTERNATIVES:
        least = -(
            -len(uncovered) // (MOST_ALTERNATIVES - len(chosen))
        )  # a k-th of them, rounded up
        held = run(
            _frequent_factors,
            tuple(texts[i] for i in uncovered),
            shortest + len(end),
            ends,
            least,
            run,
            limit=64,
        )
        ranked = sorted(held, key=lambda w: (held[w], len(w), w), reverse=True)
        best = next((w for w in ranked if w not in negative_text), None)
        if best is None:  # no factor a negative lacks is held often enough
            return []
        chosen.append(best)
        uncovered = [i for i in uncovered if best not in texts[i]]
    return [] if uncovered else [w.removesuffix(end) for w in chosen]


def _frequent_factors(
    texts: tuple[str, ...], shortest: int, ends: bool, least: int, cache: RunCache
) -> Mapping[str, int]:
    """The factors of ``shortest`` to :data:`LONGEST_ALTERNATIVE` characters (when ``ends``, the
    suffixes) that at least ``least`` of ``texts`` hold, with how many hold each (read-only: the
    cache shares it). Each text's factors are kept in ``cache`` when all of them count (the same
    examples come back every epoch and agreement round); else they are found level by level
    (:func:`_held_often`)."""
    if not ends and least > 1:
        return MappingProxyType(_held_often(texts, shortest, least))
    held = Counter(
        itertools.chain.from_iterable(
            cache(_factors, text, shortest, ends, limit=1 << 10) for text in texts
        )
    )
    return MappingProxyType({w: n for w, n in held.items() if n >= least})


def _held_often(texts: Sequence[str], shortest: int, least: int) -> dict[str, int]:
    """The factors of ``shortest`` to :data:`LONGEST_ALTERNATIVE` characters that at least
    ``least`` of ``texts`` hold, with how many hold each, found level by level: a factor held that
    often has its prefix and suffix one character shorter held at least as often, so each length
    only looks where both were (in lines of hundreds of characters most of the thousands of
    factors are held by one text)."""
    found: dict[str, int] = {}
    starts: list[Sequence[int]] = [range(len(text) - shortest + 1) for text in texts]
    for length in range(shortest, LONGEST_ALTERNATIVE + 1):
        held = Counter(
            itertools.chain.from_iterable(
                {text[i : i + length] for i in places} for text, places in zip(texts, starts)
            )
        )
        frequent = {w: n for w, n in held.items() if n >= least}
        if not frequent:
            break
        found.update(frequent)
        kept = [
            {i for i in places if text[i : i + length] in frequent}
            for text, places in zip(texts, starts)
        ]
        starts = [[i for i in sorted(places) if i + 1 in places] for places in kept]
    return found


def _factors(text: str, shortest: int, ends: bool) -> frozenset[str]:
    """The factors of ``text`` of ``shortest`` to :data:`LONGEST_ALTERNATIVE` characters (when
    ``ends``, its suffixes): found once per text, they are only counted after."""
    if ends:
        return frozenset(
            text[start:]
            for start in range(max(0, len(text) - LONGEST_ALTERNATIVE), len(text) - shortest + 1)
        )
    return frozenset(
        text[i : i + length]
        for length in range(shortest, LONGEST_ALTERNATIVE + 1)
        for i in range(len(text) - length + 1)
    )


def _held_classes(
    positives: Sequence[str], classes: Sequence[CharSet], spelled: str, cache: RunCache
) -> dict[CharSet, int]:
    """The classes (of more than one character, none ``spelled`` by the factors) that every
    positive has characters of, with the fewest a positive has."""
    held = {
        c: min(_counted_in(p, c, cache) for p in positives)
        for c in classes
        if len(c) > 1 and not any(x in c for x in spelled)
    }
    return {c: n for c, n in held.items() if n}


def _counted_in(string: str, chars: CharSet, cache: RunCache) -> int:
    """:func:`_count`, kept in the run's ``cache``: the same examples are counted again every
    epoch."""
    return cache(_count, string, chars, limit=1 << 16)


def _count(string: str, chars: CharSet) -> int:
    """How many characters of ``string`` are in ``chars``."""
    return len(string) - len(_run_pattern(chars).sub("", string))


def _run_pattern(chars: CharSet) -> re.Pattern[str]:
    """The pattern whose matches in a string are its runs of ``chars`` (the maximal substrings of
    them): testing each character against the intervals of ``chars`` is far slower."""
    return re.compile(f"{interval_class(chars)}+")


def candidates(evidence: Evidence) -> Found:
    """The shared-factor hypotheses of the positives (with the implied ones), compiled: the family
    of shared factors (:class:`cegis.symbolic.merging.evidence.Family`)."""
    universe = evidence.universe
    hypotheses = factor_hypotheses(
        evidence.positives,
        evidence.negatives,
        universe,
        evidence.classes,
        evidence.shown,
        cache=evidence.cache,
    )
    limit = min(check_state_limit(), MOST_STATES)
    return spelled(hypotheses, universe, "factors", evidence.cache, limit)
