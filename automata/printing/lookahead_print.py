"""Writing a language with lookaheads, the way people write password rules: ``(?=.*[0-9])(?=.*[a-z])[a-z0-9]{8,}``.

An intersection has no spelling in any engine, and its automaton's print can be hundreds of
characters (the rule above, by state elimination, is a 400-character ladder of counted classes).
Engines with lookaheads write ``A ∩ B ∩ C`` as ``(?=A')(?=B')C`` where ``A'·Σ* ∩ C = A ∩ C``, and
``C ∖ B`` as ``(?!B')C``. The prints proposed here, each compiled back (:mod:`automata.building.lookaround`)
and compared with the automaton before it is returned:

* *the intersection as written*: when the tree is ``A & B & …`` (or holds ``~B`` parts), one part
  is printed as the consumer and the others as lookaheads, ``(?=A')`` with ``A'`` the print of ``A``
  (ending in ``Σ*``, which the lookahead drops) or of ``A`` then ``\\Z``, and ``(?!B')`` likewise;
* *classes and lengths*: the consumer is ``[S]{m,n}``, with ``S`` the characters the automaton
  reads and ``m``, ``n`` its shortest and longest accepted lengths, and a lookahead ``(?=.*[c])``
  is added for each class ``c`` every accepted string contains (kept only where needed); what the
  consumer and those still let through that the language does not, ``D``, is then excluded by one
  negative lookahead when ``D`` is closed in one direction: ``(?!.*K)`` for "contains a factor of
  ``K``" (``\\.\\.``, no two dots in a row), ``(?!.*K\\Z)`` for a suffix (``\\.tmp``), ``(?!K)`` for a
  prefix, ``K`` the core of ``D`` (:func:`automata.printing.structure.core`).

The caller renders each print for its engine and keeps it only when it is shorter than the
automaton's own print; RE2 and POSIX have no lookarounds and never ask.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from automata.algebra.ops import complement, difference, equivalent, intersection
from automata.building.compile import compile_regex
from automata.core.dfa import DFA, coreachable_states
from automata.core.minimize import minimize
from automata.errors import AutomataError
from automata.printing.readable import draft, readable
from automata.printing.structure import core
from regexlang.ast import (
    Assertion,
    AssertKind,
    Chars,
    Complement,
    Concat,
    Intersection,
    Lookaround,
    Optional,
    Plus,
    Regex,
    Repeat,
    Star,
    concat,
)
from regexlang.charset import CharSet

#: States any automaton built while looking for a print may reach.
STATE_LIMIT = 5_000
#: Prints are looked for only for minimal DFAs this small (beyond, the search costs more than it saves).
MAX_STATES = 200
#: A language let through beyond the target is excluded by a lookahead only when this small.
MAX_EXTRA = 40


def lookahead_prints(
    dfa: DFA, tree: Regex | None = None, worth: Callable[[Regex], bool] | None = None
) -> list[Regex]:
    """Trees with lookaheads denoting exactly ``dfa``'s language (module doc), checked; ``tree`` is
    the regex ``dfa`` came from, if any (its intersection is tried as written). With ``worth``,
    only the proposals it keeps are checked (compiling one back costs most of the search: the
    caller keeps a print only when it is shorter)."""
    minimal = minimize(dfa)
    if minimal.n_states > MAX_STATES:
        return []
    found = []
    for candidate in _proposals(minimal, tree):
        if worth is not None and not worth(candidate):
            continue
        try:
            if equivalent(
                minimal,
                compile_regex(candidate, minimal.alphabet.universe, state_limit=STATE_LIMIT),
            ):
                found.append(candidate)
        except AutomataError:
            continue
    return found


def _proposals(dfa: DFA, tree: Regex | None) -> Iterator[Regex]:
    try:
        if isinstance(tree, (Intersection, Complement)):
            yield from _as_written(tree, dfa.alphabet.universe)
        proposal = _by_classes(dfa)
        if proposal is not None:
            yield proposal
    except AutomataError:
        return


def _sigma_star(universe: CharSet) -> Regex:
    return Star(Chars(universe))


def _body(part: Regex, universe: CharSet) -> Regex:
    """``A'`` with ``A'·Σ* ∩ rest = A ∩ rest`` for any rest: ``A`` printed, without its final Σ*
    when it has one, else followed by ``\\Z``."""
    printed = readable(
        compile_regex(part, universe, state_limit=STATE_LIMIT), size_limit=STATE_LIMIT
    )
    sigma_star = _sigma_star(universe)
    if printed == sigma_star:
        return concat()
    if isinstance(printed, Concat) and printed.parts[-1] == sigma_star:
        return concat(*printed.parts[:-1])
    return concat(printed, Assertion(AssertKind.TEXT_END))


def _as_written(tree: Intersection | Complement, universe: CharSet) -> Iterator[Regex]:
    parts = tree.parts if isinstance(tree, Intersection) else (tree,)
    wanted = [part for part in parts if not isinstance(part, Complement)]
    unwanted = [part.inner for part in parts if isinstance(part, Complement)]
    negatives = [Lookaround(_body(part, universe), negative=True) for part in unwanted]
    if not wanted:
        yield concat(*negatives, _sigma_star(universe))
        return
    for consumer in wanted:
        positives = [Lookaround(_body(part, universe)) for part in wanted if part is not consumer]
        printed = readable(
            compile_regex(consumer, universe, state_limit=STATE_LIMIT), size_limit=STATE_LIMIT
        )
        yield concat(*positives, *negatives, printed)


def _by_classes(dfa: DFA) -> Regex | None:
    """Consumer ``[S]{m,n}``, a ``(?=.*[c])`` per class every string has, and at most one ``(?!…)``;
    decided on plain automata (each lookahead's language), so only the winner is compiled back."""
    rows = dfa.transitions.tolist()
    accepting = dfa.accepting.tolist()
    live = coreachable_states(rows, accepting)
    if not live[dfa.start]:
        return None
    alphabet = dfa.alphabet
    universe = alphabet.universe
    sigma_star = _sigma_star(universe)
    reached = _reachable(rows, dfa.start, live)
    used = sorted({cls for q in reached for cls, t in enumerate(rows[q]) if live[t]})
    consumer = _counted(
        Chars(CharSet(i for cls in used for i in alphabet.classes[cls].intervals)),
        *_lengths(rows, accepting, dfa.start, live),
    )
    looks = {
        Lookaround(concat(sigma_star, Chars(alphabet.classes[cls]))): _plain(
            concat(sigma_star, Chars(alphabet.classes[cls]), sigma_star), universe
        )
        for cls in used
        if not _accepts_avoiding(rows, accepting, dfa.start, cls)
    }
    consumed = _plain(consumer, universe)
    allowed = _meet(consumed, looks.values())
    if not equivalent(allowed, dfa):
        extra = minimize(difference(allowed, dfa, state_limit=STATE_LIMIT))
        if extra.n_states > MAX_EXTRA:
            return None
        exclusion = _exclusion(extra, allowed, dfa)
        if exclusion is None:
            return None
        looks[exclusion[0]] = exclusion[1]
    needed = dict(looks)
    for look in looks:  # drop the lookaheads the others and the consumer imply
        fewer = {other: language for other, language in needed.items() if other is not look}
        if equivalent(_meet(consumed, fewer.values()), dfa):
            needed = fewer
    return concat(*needed, consumer)


def _plain(tree: Regex, universe: CharSet) -> DFA:
    return compile_regex(tree, universe, state_limit=STATE_LIMIT)


def _meet(first: DFA, others: Iterable[DFA]) -> DFA:
    for other in others:
        first = intersection(first, other, state_limit=STATE_LIMIT)
    return first


def _exclusion(extra: DFA, allowed: DFA, dfa: DFA) -> tuple[Lookaround, DFA] | None:
    """``(?!…)`` excluding from ``allowed`` the strings ``extra`` it has beyond ``dfa``'s language,
    when ``extra`` spreads over ``allowed`` by a factor, suffix or prefix; with the language it lets
    through. Tried on a quick print of each core; only the one that works is printed readably."""
    universe = dfa.alphabet.universe
    sigma_star = _sigma_star(universe)
    for kind in ("factor", "suffix", "prefix"):
        kernel = core(extra, kind)
        if kernel is None:
            continue
        before = [sigma_star] if kind != "prefix" else []
        after = [sigma_star] if kind != "suffix" else []
        spread = _plain(concat(*before, draft(kernel, size_limit=STATE_LIMIT), *after), universe)
        if equivalent(difference(allowed, spread, state_limit=STATE_LIMIT), dfa):
            end = [Assertion(AssertKind.TEXT_END)] if kind == "suffix" else []
            body = concat(*before, readable(kernel, size_limit=STATE_LIMIT), *end)
            return Lookaround(body, negative=True), complement(spread)
    return None


def _counted(chars: Chars, low: int, high: int | None) -> Regex:
    if (low, high) == (1, 1):
        return chars
    if high is None and low <= 1:
        return Plus(chars) if low else Star(chars)
    if (low, high) == (0, 1):
        return Optional(chars)
    return Repeat(chars, low, high)


def _reachable(rows: list[list[int]], start: int, live: list[bool]) -> set[int]:
    seen = {start}
    stack = [start]
    while stack:
        for target in rows[stack.pop()]:
            if live[target] and target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def _accepts_avoiding(
    rows: list[list[int]], accepting: list[bool], start: int, avoided: int
) -> bool:
    """Whether some accepted string has no character of class ``avoided``."""
    seen = {start}
    stack = [start]
    while stack:
        state = stack.pop()
        if accepting[state]:
            return True
        for cls, target in enumerate(rows[state]):
            if cls != avoided and target not in seen:
                seen.add(target)
                stack.append(target)
    return False


def _lengths(
    rows: list[list[int]], accepting: list[bool], start: int, live: list[bool]
) -> tuple[int, int | None]:
    """The shortest and the longest accepted length (None when unbounded), over live states."""
    depth = {start: 0}
    queue = [start]
    for state in queue:  # breadth first: the shortest
        for target in rows[state]:
            if live[target] and target not in depth:
                depth[target] = depth[state] + 1
                queue.append(target)
    shortest = min(depth[q] for q in depth if accepting[q])
    longest: dict[int, int] = {}
    on_path: set[int] = set()
    unbounded: set[int] = set()  # remembered too: a DFA has many paths to one cycle

    def walk(state: int) -> int | None:  # the longest accepted rest from ``state``; None on a cycle
        if state in on_path or state in unbounded:
            return None
        if state not in longest:
            on_path.add(state)
            rests = [walk(t) for t in set(rows[state]) if live[t]]
            on_path.discard(state)
            if None in rests:
                unbounded.add(state)
                return None
            longest[state] = max(
                [0 if accepting[state] else -1] + [r + 1 for r in rests if r is not None]
            )
        return longest[state]

    return shortest, walk(start)
