"""The exact teacher takes lookaround targets and hypotheses in the python dialect, as any other."""

from __future__ import annotations

import re

from oracle.exact import ExactTeacher
from oracle.examples import Example


def test_a_lookaround_target_is_judged_and_answered_with_true_counterexamples() -> None:
    target = "(?=.*[0-9])[a-z0-9]{8,}"
    teacher = ExactTeacher.from_regex(target, "python")
    assert teacher.issues == ()
    verdict = teacher.check("[a-z0-9]{8,}")
    assert not verdict.equivalent and verdict.issues == () and verdict.counterexamples
    for example in verdict.counterexamples:
        assert isinstance(example, Example)  # the default teacher answers with plain strings
        assert example.label == (re.fullmatch(target, example.string) is not None)
        assert (
            re.fullmatch("[a-z0-9]{8,}", example.string) is not None
        )  # the hypothesis says yes to each
    assert teacher.check("(?=[a-z]*[0-9])[a-z0-9]{8,}").equivalent  # a lookaround hypothesis, equal
