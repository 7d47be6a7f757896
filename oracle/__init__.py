"""Teachers: exact equivalence with (clustered) counterexamples, test-suite oracles, hardening
probes, and the small protocol a user implements to plug in a custom oracle."""

from oracle.clustered import Reading, lift, misclassified, satisfies
from oracle.compiling import Compiled, compile_subject
from oracle.config import ORDERS, PROFILES, Order, Profile, TeacherConfig
from oracle.errors import ContradictoryTeacher, OracleError, SearchTooLarge
from oracle.evaluation import EvaluationSet, Scores, accuracy, evaluation_set, score
from oracle.exact import ExactTeacher
from oracle.examples import (
    ClusteredExample,
    Counterexample,
    Example,
    Spelling,
    format_position,
    parse_pattern,
)
from oracle.matching import matcher
from oracle.probes import ProbeReport
from oracle.protocol import (
    SAMPLING_MODES,
    AutomatonTeacher,
    CountedMembership,
    ExampleSchedule,
    Issue,
    IssueKind,
    MembershipOracle,
    SamplingMode,
    Spend,
    Teacher,
    Verdict,
    remember,
)
from oracle.testsuite import SuiteConfig, SuiteOracle, SuiteReport

__all__ = [
    "ORDERS",
    "PROFILES",
    "SAMPLING_MODES",
    "AutomatonTeacher",
    "ClusteredExample",
    "Compiled",
    "ContradictoryTeacher",
    "CountedMembership",
    "Counterexample",
    "EvaluationSet",
    "ExactTeacher",
    "Example",
    "ExampleSchedule",
    "Issue",
    "IssueKind",
    "MembershipOracle",
    "Order",
    "OracleError",
    "ProbeReport",
    "Profile",
    "Reading",
    "SamplingMode",
    "Scores",
    "SearchTooLarge",
    "Spelling",
    "Spend",
    "SuiteConfig",
    "SuiteOracle",
    "SuiteReport",
    "Teacher",
    "TeacherConfig",
    "Verdict",
    "accuracy",
    "compile_subject",
    "evaluation_set",
    "format_position",
    "lift",
    "matcher",
    "misclassified",
    "parse_pattern",
    "remember",
    "satisfies",
    "score",
]
