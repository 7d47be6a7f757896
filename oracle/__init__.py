"""Teachers: exact equivalence with (clustered) counterexamples, test-suite oracles, hardening
probes, and the small protocol a user implements to plug in a custom oracle."""

from oracle.clustered import lift, misclassified, satisfies
from oracle.compiling import Compiled, compile_subject
from oracle.evaluation import EvaluationSet, Scores, accuracy, evaluation_set, score
from oracle.exact import ExactTeacher, Order, TeacherConfig
from oracle.examples import ClusteredExample, Counterexample, Example, format_position
from oracle.probes import ProbeReport
from oracle.protocol import (
    SAMPLING_MODES,
    CountedMembership,
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
    "SAMPLING_MODES",
    "ClusteredExample",
    "Compiled",
    "CountedMembership",
    "Counterexample",
    "EvaluationSet",
    "ExactTeacher",
    "Example",
    "Issue",
    "IssueKind",
    "MembershipOracle",
    "Order",
    "ProbeReport",
    "SamplingMode",
    "Scores",
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
    "misclassified",
    "remember",
    "satisfies",
    "score",
]
