"""A learner the user names as ``package.module:factory``, built and held to its protocol.

A user's code may fail where the registry's learners cannot: a factory that needs arguments or
raises, a ``propose`` that is not ``async``, that raises (``ValueError``, ``RecursionError``,
``MemoryError``, even ``SystemExit``) or that returns something other than a
:class:`cegis.Proposal`. Each is the user's to fix, so each is one :class:`BadInput` line naming the
factory (exit code 2), never a traceback from deep inside the loop and never a silent exit:
:func:`user_spec` builds the factory once (the learner it hands out), and :class:`Checked` wraps
the learner so a failure stops the run with its type.

What a run prints is the proposal's ``text`` and what the teacher judges is its ``regex`` (or its
``automaton``), so the three must be one language: a ``text`` of ``zzz`` for the regex ``a*b``
would print a regex the teacher never saw as exactly the target. :class:`Checked` prints an empty
``text`` from the regex and refuses a text or an automaton of another language.
"""

from __future__ import annotations

import inspect
from typing import Any, get_args

import attrs

from automata import DFA, AutomataError, compile_many, equivalent
from cegis.learner import LearnerContext, Proposal
from cegis.registry import REGISTRY, LearnerSpec, UnknownLearner, spec
from cli.errors import BadInput, BrokenLearner
from regexlang import RegexError, parse, unparse
from regexlang.ast import Regex

#: The most characters of a user's text or error message a one-line error quotes.
QUOTED = 200


def user_spec(name: str) -> LearnerSpec:
    """The spec of learner ``name``; BadInput when it is unknown or its factory fails."""
    try:
        return spec(name)
    except UnknownLearner as error:
        raise BadInput(f"--learner: {error}") from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(name, error) from None


class Checked:
    """``learner`` (built by ``factory``) whose every proposal is checked: a Proposal, from an
    ``async`` propose that did not raise, printed in the language of its regex."""

    def __init__(self, learner: Any, factory: str) -> None:
        self._learner = learner
        self._factory = factory

    @property
    def name(self) -> str:
        return str(self._learner.name)

    async def propose(self, context: LearnerContext) -> Proposal:
        proposal = await self._proposed(context)
        if not isinstance(proposal, Proposal):
            raise self._broken(f"propose returned {type(proposal).__name__}, not a cegis.Proposal")
        return proposal if proposal.regex is None else self._printed(proposal, context)

    async def _proposed(self, context: LearnerContext) -> object:
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
        except (Exception, SystemExit) as error:  # noqa: BLE001 - a user's learner may raise anything
            raise self._broken(f"propose raised {_described(error)}") from None

    def _printed(self, proposal: Proposal, context: LearnerContext) -> Proposal:
        """``proposal`` with its text printed from its regex when empty; BrokenLearner when its
        text or automaton is not the regex's language."""
        regex, text, automaton = proposal.regex, proposal.text, proposal.automaton
        if not isinstance(regex, get_args(Regex)):
            raise self._broken(f"propose returned a regex of type {type(regex).__name__}")
        assert regex is not None
        if not isinstance(text, str):
            raise self._broken(f"propose returned a text of type {type(text).__name__}, not str")
        if automaton is not None and not isinstance(automaton, DFA):
            raise self._broken(f"propose returned an automaton of type {type(automaton).__name__}")
        try:
            printed = unparse(regex, context.dialect, context.universe)
            if text == "":
                text = printed
            trees = [regex] if text == printed else [regex, parse(text, context.dialect)]
            dfas = compile_many(trees, context.universe)
        except (RegexError, AutomataError) as error:
            raise self._broken(f"its text {_quoted(text)} cannot be checked: {error}") from None
        if not equivalent(dfas[0], dfas[-1]):
            raise self._broken(
                f"propose returned the text {_quoted(text)}, which is not its regex {_quoted(printed)}"
            )
        if automaton is not None and not _same_language(automaton, dfas[0]):
            raise self._broken(
                f"propose returned an automaton that is not the language of its regex {_quoted(printed)}"
            )
        return attrs.evolve(proposal, text=text)

    def _broken(self, problem: str) -> BrokenLearner:
        return BrokenLearner(f"the learner {self._factory}: {problem}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._learner, name)


def _same_language(automaton: DFA, compiled: DFA) -> bool:
    try:
        return equivalent(automaton, compiled)
    except AutomataError:  # another universe (or alphabet) is another language
        return False


def built(chosen: LearnerSpec) -> Any:
    """The learner of ``chosen`` (a user's, built once by :func:`user_spec`, wrapped in :class:`Checked`)."""
    name = chosen.name
    try:
        learner = chosen.build()
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's factory may raise anything
        raise _failed(name, error) from None
    return learner if name in REGISTRY else Checked(learner, name)


def _failed(name: str, error: BaseException) -> BadInput:
    return BadInput(f"--learner: the factory {name} failed: {_described(error)}")


def _described(error: BaseException) -> str:
    """The error's type and message on one line, at most :data:`QUOTED` characters of it."""
    message = " ".join(str(error).split())
    if len(message) > QUOTED:
        message = message[:QUOTED] + "…"
    return type(error).__name__ + (f": {message}" if message else "")


def _quoted(text: str) -> str:
    return repr(text if len(text) <= QUOTED else text[:QUOTED] + "…")
