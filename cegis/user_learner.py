"""A user's learner (named ``package.module:factory``) held to the learner protocol.

A user's code may fail where the registry's learners cannot: a ``propose`` that is not ``async``,
that raises (``ValueError``, ``RecursionError``, ``MemoryError``, even ``SystemExit`` or another
``BaseException``) or that returns something other than a :class:`cegis.Proposal`. And what a run
records and prints is a proposal's ``text``, while what the teacher judges is its ``regex`` (or its
``automaton``): a ``text`` of ``zzz`` for the regex ``a*b`` would print a regex the teacher never
saw as exactly the target, and an automaton of another language would be judged in place of the
regex. So :class:`Checked` wraps every learner the registry builds from a ``module:factory``
(:func:`cegis.registry.spec`), wherever it runs (``learn``, an experiment's units): each failure
is one :class:`cegis.errors.BrokenLearner` naming the factory and what went wrong, never a silent
exit or a wrong record. A proposal that breaks the protocol is refused, not repaired: the learner
has a bug its author should see, and a run that went on would record answers it never gave.

An empty ``text`` is printed from the regex (the registry's learners print their own). Ctrl-C
(``KeyboardInterrupt``) and a cancellation of the run pass through: they are the user's, not the
learner's. The registry's own learners are not wrapped: the checks cost a compile per proposal,
and the project's tests hold those learners to the protocol.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, get_args

import attrs

from automata import DFA, AutomataError, compile_many, equivalent
from cegis.errors import BrokenLearner
from cegis.learner import Alternative, LearnerContext, Proposal
from regexlang import RegexError, parse, unparse
from regexlang.ast import Regex

#: The most characters of a user's text or error message a one-line error quotes.
QUOTED = 200


class Checked:
    """``learner`` (built by ``factory``) whose every proposal is checked: a Proposal, from an
    ``async`` propose that did not raise, whose text and automaton are the language of its regex."""

    def __init__(self, learner: Any, factory: str) -> None:
        self._learner = learner
        self._factory = factory

    @property
    def name(self) -> str:
        return str(self._learner.name)

    async def propose(self, context: LearnerContext[Any]) -> Proposal[Any]:
        proposal = await self._proposed(context)
        if not isinstance(proposal, Proposal):
            raise self._broken(f"propose returned {type(proposal).__name__}, not a cegis.Proposal")
        if proposal.regex is None:
            return proposal
        automaton = proposal.automaton
        if automaton is not None and not isinstance(automaton, DFA):
            raise self._broken(f"propose returned an automaton of type {type(automaton).__name__}")
        text, compiled = self._printed(
            proposal.regex, proposal.text, context, checked=automaton is not None
        )
        if automaton is not None and not _same_language(automaton, compiled):
            raise self._broken(
                "propose returned an automaton that is not the language of its regex"
                f" {_quoted(text)}"
            )
        candidates = tuple(self._alternative(c, context) for c in proposal.candidates)
        return attrs.evolve(proposal, text=text, candidates=candidates)

    async def _proposed(self, context: LearnerContext[Any]) -> object:
        try:
            pending = self._learner.propose(context)
            if not inspect.isawaitable(pending):
                raise self._broken(
                    f"propose returned {type(pending).__name__} without being awaited:"
                    " define it as `async def propose`"
                )
            return await pending
        except BrokenLearner:
            raise
        except KeyboardInterrupt:  # Ctrl-C (cli.interrupts raises it wherever the learner is)
            raise
        except asyncio.CancelledError as error:
            if _cancelling():  # the run is being cancelled: not the learner's doing
                raise
            raise self._broken(f"propose raised {described(error)}") from error
        except BaseException as error:  # noqa: BLE001 - a user's learner may raise anything
            raise self._broken(f"propose raised {described(error)}") from error

    def _printed(
        self, regex: object, text: object, context: LearnerContext[Any], checked: bool = False
    ) -> tuple[str, DFA | None]:
        """The text a run prints for ``regex`` (its own print when ``text`` is empty) and, when
        compiled (another text, or ``checked``: an automaton to check), the regex's automaton;
        BrokenLearner when the text is not a str of the regex's language. A regex past the state
        limit is left to the loop, which records it as a proposal that does not compile."""
        if not isinstance(regex, get_args(Regex)):
            raise self._broken(f"propose returned a regex of type {type(regex).__name__}")
        if not isinstance(text, str):
            raise self._broken(f"propose returned a text of type {type(text).__name__}, not str")
        try:
            printed = unparse(regex, context.dialect, context.universe)
            shown = text or printed
            trees = [regex] if shown == printed else [regex, parse(shown, context.dialect)]
        except RegexError as error:
            raise self._broken(f"propose returned the text {_quoted(text)}: {error}") from None
        if len(trees) == 1 and not checked:
            return shown, None
        try:
            dfas = compile_many(trees, context.universe)
        except AutomataError:
            if checked:
                raise self._broken(
                    "its automaton cannot be checked: its regex does not compile"
                ) from None
            return shown, None
        if not equivalent(dfas[0], dfas[-1]):
            raise self._broken(
                f"propose returned the text {_quoted(shown)}, which is not its regex"
                f" {_quoted(printed)}"
            )
        return shown, dfas[0]

    def _alternative(self, candidate: object, context: LearnerContext[Any]) -> Alternative:
        if not isinstance(candidate, Alternative):
            raise self._broken(
                f"propose returned a candidate of type {type(candidate).__name__},"
                " not a cegis.learner.Alternative"
            )
        text, _ = self._printed(candidate.regex, candidate.text, context)
        return attrs.evolve(candidate, text=text)

    def _broken(self, problem: str) -> BrokenLearner:
        return BrokenLearner(f"the learner {self._factory}: {problem}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._learner, name)


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _same_language(automaton: DFA, compiled: DFA | None) -> bool:
    if compiled is None:
        return False
    try:
        return equivalent(automaton, compiled)
    except AutomataError:  # another universe (or alphabet) is another language
        return False


def described(error: BaseException) -> str:
    """The error's type and message on one line, at most :data:`QUOTED` characters of it."""
    message = " ".join(str(error).split())
    if len(message) > QUOTED:
        message = message[:QUOTED] + "…"
    return type(error).__name__ + (f": {message}" if message else "")


def _quoted(text: str) -> str:
    return repr(text if len(text) <= QUOTED else text[:QUOTED] + "…")
