"""Plug-in learners that break their protocol, each in one way, for ``learn --learner
tests.cli.plugin_learners:<factory>`` (the tests of :mod:`tests.cli.test_learn_plugin_learners`)."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from typing import Any

from automata import compile_regex
from cegis.learner import Alternative, LearnerContext, Proposal
from regexlang import parse


class Scripted:
    """A learner whose ``propose`` is ``answer`` (called with the context, awaited when async)."""

    name = "scripted"

    def __init__(self, answer: Callable[[LearnerContext], Any]) -> None:
        self.propose = answer


def _target(context: LearnerContext) -> Any:
    return parse("a*b", context.dialect, context.universe)


def wrong_text() -> Scripted:
    """The target's regex printed as ``zzz``."""

    async def answer(context: LearnerContext) -> Proposal:
        return Proposal(regex=_target(context), text="zzz")

    return Scripted(answer)


def number_text() -> Scripted:
    """The target's regex with an int for its text."""

    async def answer(context: LearnerContext) -> Proposal:
        return Proposal(regex=_target(context), text=12345)  # type: ignore[arg-type]

    return Scripted(answer)


def other_automaton() -> Scripted:
    """The target's regex carrying the automaton of ``b``."""

    async def answer(context: LearnerContext) -> Proposal:
        other = compile_regex(parse("b", context.dialect, context.universe), context.universe)
        return Proposal(regex=_target(context), text="a*b", automaton=other)

    return Scripted(answer)


def no_text() -> Scripted:
    """The target's regex without a text (the loop prints it)."""

    async def answer(context: LearnerContext) -> Proposal:
        return Proposal(regex=_target(context))

    return Scripted(answer)


def wrong_candidate() -> Scripted:
    """``b`` as the proposal, and the target's regex as a candidate printed ``b``."""

    async def answer(context: LearnerContext) -> Proposal:
        other = parse("b", context.dialect, context.universe)
        return Proposal(regex=other, text="b", candidates=(Alternative(_target(context), "b"),))

    return Scripted(answer)


class Custom(BaseException):
    """A BaseException of the learner's own."""


def raising(error: BaseException) -> Callable[[], Scripted]:
    """A factory of a learner whose propose raises ``error``."""

    async def answer(context: LearnerContext) -> Proposal:
        raise error

    return lambda: Scripted(answer)


exits = raising(SystemExit(0))
value_error = raising(ValueError("bad\nthings"))
memory_error = raising(MemoryError())
custom_base = raising(Custom("not an Exception"))
cancels = raising(asyncio.CancelledError())
generator_exit = raising(GeneratorExit())


def recursion() -> Scripted:
    """A learner whose propose recurses without end."""

    def deeper(depth: int) -> int:
        return deeper(depth + 1) + 1

    async def answer(context: LearnerContext) -> Proposal:
        deeper(0)
        raise AssertionError("unreachable")

    return Scripted(answer)


def not_async() -> Scripted:
    """A learner whose propose is a plain function."""
    return Scripted(lambda context: Proposal(regex=_target(context), text="a*b"))


def blocking() -> Scripted:
    """A learner whose propose blocks the event loop (says so on stderr first)."""

    async def answer(context: LearnerContext) -> Proposal:
        print("proposing", file=sys.stderr, flush=True)
        time.sleep(600)
        raise AssertionError("unreachable")

    return Scripted(answer)


def factory_exits() -> Scripted:
    """A factory that exits instead of returning a learner."""
    raise SystemExit(0)


def factory_custom() -> Scripted:
    """A factory that raises a BaseException of its own."""
    raise Custom("no learner")


def too_large() -> Scripted:
    """A regex past the state limit, its text spelled otherwise than its print."""

    async def answer(context: LearnerContext) -> Proposal:
        text = "((a|b)*a(a|b){24})"
        return Proposal(regex=parse(text, context.dialect, context.universe), text=text)

    return Scripted(answer)
