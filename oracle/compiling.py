"""From regex text or tree to a minimal DFA, with every failure turned into a typed :class:`Issue`.

Teachers must never let bad input escape as an exception: a learner's hypothesis that does not
parse, or whose automaton would pass the state limit, is an ordinary outcome of a learning round and
is reported in the verdict. This module is the one place that catches those errors: every typed
error of ``automata`` and ``regexlang``, and the interpreter's own guards (``RecursionError``,
``MemoryError``) as a last line for inputs no typed guard caught yet. It also flags
the two degenerate languages, empty and universal, which are legal (an empty target has only
negative counterexamples) but worth telling the caller about.
"""

from __future__ import annotations

import attrs

from automata.algebra.ops import is_empty, is_universal
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.errors import AutomataError, StateLimitExceeded, UnsupportedRegex
from oracle.protocol import Issue, Subject
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect, parse
from regexlang.errors import RegexError, UnsupportedFeature

#: Seconds one compile of a subject may take before it is a ``resource_limit`` issue. The state
#: limit alone does not bound a lookaround construction (a residual's derivative can grow at every
#: state: thirty lookaheads ran ten minutes below it), and an answer that takes minutes to compile
#: would hold its run and its worker; a minute is far above any target of the papers' datasets.
COMPILE_SECONDS = 60.0
#: Seconds one compile of a model's answer (and of a regex given to ``python -m cli regex``) may take
#: by default: an answer past it is unusable, with the reason, and its proposal goes on. Lookaround
#: answers of the papers' tasks compile in well under a second; thirty lookaheads, whose DFA has
#: about 2³⁰ states, would otherwise hold the proposal for the teacher's minute.
ANSWER_SECONDS = 10.0


@attrs.frozen(eq=False)
class Compiled:
    """A regex and its minimal DFA, or the issues that prevented building it."""

    regex: Regex | None
    dfa: DFA | None
    issues: tuple[Issue, ...] = ()


def compile_subject(
    regex: str | Regex,
    subject: Subject,
    *,
    dialect: Dialect,
    universe: CharSet,
    state_limit: int,
    seconds: float | None = COMPILE_SECONDS,
) -> Compiled:
    """Parse (when given text) and compile ``regex`` within ``state_limit`` states and ``seconds``;
    failures and degenerate languages become issues.

    Anything but text or a regex tree is the caller's mistake, not the learner's: a TypeError."""
    if not isinstance(regex, (str, Regex)):
        raise TypeError(
            f"a {subject} is regex text (str) or a regexlang tree, not {type(regex).__name__}"
        )
    try:
        tree = parse(regex, dialect, universe) if isinstance(regex, str) else regex
    except UnsupportedFeature as error:
        return Compiled(None, None, (Issue(subject, "unsupported", str(error)),))
    except RegexError as error:
        return Compiled(None, None, (Issue(subject, "syntax_error", str(error)),))
    except (RecursionError, MemoryError) as error:
        return Compiled(None, None, (guard_issue(subject, error),))
    try:
        dfa = compile_regex(tree, universe, state_limit=state_limit, seconds=seconds)
        return Compiled(tree, dfa, language_issues(dfa, subject))
    except StateLimitExceeded as error:
        return Compiled(tree, None, (Issue(subject, "state_limit", str(error)),))
    except UnsupportedRegex as error:
        return Compiled(tree, None, (Issue(subject, "unsupported", str(error)),))
    except (AutomataError, RecursionError, MemoryError) as error:
        return Compiled(tree, None, (guard_issue(subject, error),))


def compile_carried(
    regex: Regex,
    automaton: DFA | None,
    subject: Subject,
    *,
    dialect: Dialect,
    universe: CharSet,
    state_limit: int,
) -> Compiled:
    """:func:`compile_subject` of ``regex``, taking ``automaton`` (its minimal DFA, built by a learner)
    when it is over ``universe``; an automaton past ``state_limit`` states is the same issue as a
    compile that passes it."""
    if automaton is None or automaton.alphabet.universe != universe:
        return compile_subject(
            regex, subject, dialect=dialect, universe=universe, state_limit=state_limit
        )
    if automaton.n_states > state_limit:
        return Compiled(
            regex,
            None,
            (Issue(subject, "state_limit", str(StateLimitExceeded("the DFA", state_limit))),),
        )
    return Compiled(regex, automaton, language_issues(automaton, subject))


def guard_issue(subject: Subject, error: Exception) -> Issue:
    """A ``resource_limit`` issue for an error raised by a length, depth or memory guard."""
    return Issue(
        subject,
        "resource_limit",
        f"{type(error).__name__}: {error}" if str(error) else type(error).__name__,
    )


def language_issues(dfa: DFA, subject: Subject) -> tuple[Issue, ...]:
    """An issue when ``dfa`` accepts nothing or everything over its universe."""
    if is_empty(dfa):
        return (Issue(subject, "empty_language"),)
    if is_universal(dfa):
        return (Issue(subject, "universal_language"),)
    return ()
