"""Learners by name: a user's ``module:factory`` learner is built once, and says itself whether it
asks membership queries."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cegis.learner import AsksMembership
from cegis.registry import UnknownLearner, build, spec

USER_MODULE = """
from cegis.learner import LearnerContext, Proposal, ProposalFailure

BUILT = []


class Querying:
    name = "querying"
    needs_membership = True

    async def propose(self, context: LearnerContext) -> Proposal:
        return Proposal(None, failure=ProposalFailure("search_exhausted"))


def factory() -> Querying:
    BUILT.append(1)
    return Querying()


def number() -> int:
    return 3
"""


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "user_learners_37.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "user_learners_37", raising=False)
    return "user_learners_37"


def test_a_users_learner_is_built_once_and_declares_its_membership_queries(
    user_module: str,
) -> None:
    learner = build(f"{user_module}:factory")
    assert learner.name == "querying" and sys.modules[user_module].BUILT == [1]
    named = spec(f"{user_module}:factory")
    assert named.membership and sys.modules[user_module].BUILT == [1, 1]
    assert named.build() is named.build() and sys.modules[user_module].BUILT == [1, 1]


def test_a_factory_that_returns_no_learner_is_refused(user_module: str) -> None:
    with pytest.raises(UnknownLearner, match="did not return a learner"):
        spec(f"{user_module}:number")
    with pytest.raises(UnknownLearner, match="cannot load"):
        spec(f"{user_module}:missing")


def test_registered_learners_are_fresh_values() -> None:
    lstar = build("lstar")
    assert (
        build("rpni") is not build("rpni")
        and isinstance(lstar, AsksMembership)
        and lstar.needs_membership
    )


def test_learn_builds_a_users_learner_once(user_module: str) -> None:
    from click.testing import CliRunner

    from cli.main import main

    done = CliRunner().invoke(
        main,
        ["learn", "--target", "ab", "--learner", f"{user_module}:factory", "--max-epochs", "2"],
    )
    assert done.exit_code in (1, 2) and sys.modules[user_module].BUILT == [1], done.output
