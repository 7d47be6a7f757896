"""Teachers: exact equivalence with (clustered) counterexamples, test-suite oracles, hardening
probes, and the small protocol a user implements to plug in a custom oracle.

The names below are the ones a user (and the packages above) need: the :class:`Teacher` protocol
and its answers (:class:`Verdict`, :class:`Spend`, :class:`Issue`), the teachers
(:class:`ExactTeacher`, :class:`AutomatonTeacher`, :class:`SuiteOracle`) with their configurations,
the examples they hand out, and a few helpers the learners share. Everything else is imported from
its module (``oracle.evaluation``, ``oracle.examples``, ``oracle.config`` ...).
"""

from oracle.clustered import misclassified, satisfies
from oracle.config import TeacherConfig
from oracle.errors import ContradictoryTeacher, OracleError, SearchTooLarge
from oracle.evaluation import evaluation_set, score
from oracle.exact import ExactTeacher
from oracle.examples import ClusteredExample, Counterexample, Example
from oracle.matching import matcher
from oracle.protocol import (
    SAMPLING_MODES,
    AutomatonTeacher,
    CountedMembership,
    ExampleSchedule,
    Issue,
    IssueKind,
    MembershipOracle,
    Spend,
    Teacher,
    Verdict,
    remember,
)
from oracle.testsuite import SuiteConfig, SuiteOracle

__all__ = [
    "SAMPLING_MODES",
    "AutomatonTeacher",
    "ClusteredExample",
    "ContradictoryTeacher",
    "CountedMembership",
    "Counterexample",
    "ExactTeacher",
    "Example",
    "ExampleSchedule",
    "Issue",
    "IssueKind",
    "MembershipOracle",
    "OracleError",
    "SearchTooLarge",
    "Spend",
    "SuiteConfig",
    "SuiteOracle",
    "Teacher",
    "TeacherConfig",
    "Verdict",
    "evaluation_set",
    "matcher",
    "misclassified",
    "remember",
    "satisfies",
    "score",
]
