"""The one protocol every learner implements, LLM or symbolic, and the values it exchanges.

Following the teacher's pattern (:class:`oracle.Teacher`), a learner is anything with an async
``propose(context) -> Proposal`` method: no base class. The loop hands it a :class:`LearnerContext`
(everything the learner may see this epoch) and gets back a :class:`Proposal` value that carries its
own cost and, when nothing usable came out, a typed :class:`ProposalFailure` instead of an
exception. A learner that needs memory across epochs (L*'s observation table, an LLM's previous
reasoning) returns it in ``Proposal.memo`` and receives it back as ``context.previous.memo``: the
learner object itself stays immutable, so a run is a pure fold over epoch states. The memo's type is
the type parameter of :class:`Learner`, :class:`LearnerContext` and :class:`Proposal` (``Any`` when
left out), so mypy checks that a learner reads back the memo it proposed.

Optional abilities are declared, each by a small protocol the loop asks with ``isinstance``: a
learner that asks membership queries (:class:`AsksMembership`), one whose memo survives a restart
(:class:`MemoCodec`; :class:`RestartableLearner` is both protocols at once, for a learner class
that wants mypy to check its codec against its memo). A proposal may carry the automaton of its
hypothesis (``Proposal.automaton``), which the teacher and the scorer then use instead of compiling
the hypothesis again.

CPU-bound learners must not block the event loop (run their search in a worker thread), so many
runs can share one process.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, Protocol, cast, runtime_checkable

import attrs
from typing_extensions import TypeVar

from automata.core.dfa import DFA
from oracle.clustered import ClusteredReading
from oracle.examples import Counterexample
from oracle.protocol import MembershipOracle, Verdict
from regexlang.ast import Regex
from regexlang.charset import CharSet
from regexlang.dialects import Dialect

#: The type of a learner's memo (``Any`` when a learner leaves it out).
Memo = TypeVar("Memo", default=Any)

#: Why a proposal carries no usable hypothesis.
FailureKind = Literal[
    "no_regex",  # the answer contained no regex at all
    "syntax_error",  # the regex does not parse in the dialect
    "outside_dialect",  # it parses but uses what the setting forbids (alphabet, regularization bounds)
    "does_not_compile",  # it parses but its automaton is too large or unsupported
    "inconsistent",  # it contradicts an accumulated example (a guarded learner's contract)
    "truncated",  # the model ran out of completion tokens
    "server_error",  # the model server failed after retries
    "timeout",  # the learner's time budget ran out
    "budget",  # a node, token or query budget ran out
    "search_exhausted",  # a symbolic search found no consistent hypothesis within its bounds
]


@attrs.frozen
class ProposalFailure:
    """A typed reason why a proposal has no usable hypothesis, with a human-readable detail."""

    kind: FailureKind
    detail: str = ""

    def __str__(self) -> str:
        return self.kind.replace("_", " ") + (f": {self.detail}" if self.detail else "")


@attrs.frozen
class LearnerCost:
    """What one proposal cost: model calls and tokens, membership queries and wall-clock seconds.

    ``reasoning_tokens`` and ``cached_tokens`` (prompt tokens served from the server's prefix
    cache) are ``None`` when a server did not report them: unknown, not 0, and a sum with an
    unknown part is unknown. ``prompt_tokens`` and ``completion_tokens`` sum what the servers
    reported; ``unreported_calls`` counts the calls whose reply left either count out (or gave one
    no server could mean), so while it is above 0 those sums are lower bounds, never the total.
    ``counted_tokens`` holds what those calls left out as the client counted it
    (:func:`llm.results.counted_in_place_of_usage`), so a token budget still counts every call.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int | None = 0
    membership_queries: int = 0
    seconds: float = 0.0
    cached_tokens: int | None = 0
    unreported_calls: int = 0
    counted_tokens: int = 0

    def __add__(self, other: LearnerCost) -> LearnerCost:
        return LearnerCost(
            self.calls + other.calls,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            _known_sum(self.reasoning_tokens, other.reasoning_tokens),
            self.membership_queries + other.membership_queries,
            self.seconds + other.seconds,
            _known_sum(self.cached_tokens, other.cached_tokens),
            self.unreported_calls + other.unreported_calls,
            self.counted_tokens + other.counted_tokens,
        )

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens (reasoning tokens are part of the completion), with the
        client's count standing in for any the servers did not report: what a budget compares."""
        return self.prompt_tokens + self.completion_tokens + self.counted_tokens


def _known_sum(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


@attrs.frozen
class Alternative:
    """An alternative hypothesis a learner tried in its proposal (a repair try, one of several
    answers), which the loop puts before the teacher when the proposal's own is refuted (a
    merging learner's ranked :class:`cegis.symbolic.merging.candidate.Candidate` is another thing)."""

    regex: Regex
    text: str


@attrs.frozen
class Proposal(Generic[Memo]):
    """A learner's answer for one epoch: a hypothesis, or a typed failure; never both missing.

    ``text`` is the hypothesis printed in the task's dialect (or the raw answer when it failed to
    parse), ``reasoning`` whatever explanation the learner gave, ``memo`` the learner's own state
    handed back to it next epoch (an immutable value; ``None`` for stateless learners).
    ``candidates`` are every usable hypothesis the learner tried for this proposal, in the order
    tried (the seed paper's Alg. 2 checks each try for equivalence): when ``regex`` is not
    equivalent, the loop asks the teacher about each of them and the first equivalent one wins.
    ``draft`` says ``text`` is a quick print (:func:`automata.printing.readable.draft`): the loop prints a
    run's last hypothesis readably (:func:`cegis.hypothesis.presented`). ``automaton``, when the
    learner built it anyway, is the minimal DFA of ``regex`` over the task's universe as
    :func:`automata.compile_regex` builds it: the teacher (an :class:`oracle.AutomatonTeacher`) and
    the loop's scoring use it instead of compiling ``regex`` again. Records keep the printed
    ``text``, never the automaton, so it must be the language of the print.
    """

    regex: Regex | None
    text: str = ""
    reasoning: str = ""
    failure: ProposalFailure | None = None
    cost: LearnerCost = LearnerCost()
    memo: Memo | None = None
    candidates: tuple[Alternative, ...] = ()
    draft: bool = False
    automaton: DFA | None = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if (self.regex is None) == (self.failure is None):
            raise ValueError("a proposal holds either a regex or a failure, exactly one of them")

    @property
    def ok(self) -> bool:
        """Whether the proposal carries a hypothesis."""
        return self.regex is not None


@attrs.frozen
class LearnerContext(Generic[Memo]):
    """Everything a learner may see in one epoch.

    ``examples`` are all labeled examples accumulated so far (plain and clustered, in the order
    given; clustered ones are read universally). ``previous`` is the learner's own last proposal and
    ``verdict`` the teacher's answer to it (both ``None`` in the first epoch). ``membership`` is a
    membership oracle when the setting allows queries (L*), else ``None``; the loop counts the
    queries. ``seed`` makes any randomness of the learner reproducible. ``reading`` is how the
    teacher's profile scores clustered negatives (``universal``, or the ``cegml`` profile's ``loose``;
    see :func:`oracle.clustered.satisfies`), for learners that check their own candidates.
    """

    dialect: Dialect
    universe: CharSet
    examples: tuple[Counterexample, ...]
    epoch: int = 0
    previous: Proposal[Memo] | None = None
    verdict: Verdict | None = None
    membership: MembershipOracle | None = None
    seed: int = 0
    reading: ClusteredReading = "universal"


class Learner(Protocol[Memo]):
    """Proposes a hypothesis from what the context shows; failures come back as values."""

    @property
    def name(self) -> str:
        """A short stable name used in records and reports (e.g. ``lstar``, ``rpni``)."""
        ...

    async def propose(self, context: LearnerContext[Memo]) -> Proposal[Memo]:
        """The next hypothesis for ``context``, or a typed failure."""
        ...


@runtime_checkable
class AsksMembership(Protocol):
    """Optional: a learner that asks membership queries (L*) says so, and the loop hands it the
    teacher's ``label`` (unless ``LoopConfig.membership`` decides otherwise)."""

    @property
    def needs_membership(self) -> bool:
        """Whether the learner must be given a membership oracle."""
        ...


@runtime_checkable
class MemoCodec(Protocol[Memo]):
    """Optional: a learner whose memo must survive a restart encodes it as JSON data.

    A run resumed from its records hands the decoded memo back in ``context.previous.memo``, so
    the resumed run continues exactly as the uninterrupted one would. A learner without these
    methods gets ``memo=None`` after a resume (fine when its memo is only a cache).
    """

    def encode_memo(self, memo: Memo) -> object:
        """``memo`` as JSON-serialisable data (dicts, lists, strings, numbers, booleans, None)."""
        ...

    def decode_memo(self, data: object) -> Memo | None:
        """The memo that :meth:`encode_memo` turned into ``data``."""
        ...


class RestartableLearner(Learner[Memo], MemoCodec[Memo], Protocol[Memo]):
    """A learner whose memo survives a restart: a class that declares it (``class
    Mine(RestartableLearner[Table])``) has mypy check that it encodes and decodes the memo it
    proposes."""


def memo_codec(learner: Learner[Memo]) -> MemoCodec[Memo] | None:
    """The learner itself when it can encode its memo as JSON, else None."""
    return cast(MemoCodec[Memo], learner) if isinstance(learner, MemoCodec) else None
