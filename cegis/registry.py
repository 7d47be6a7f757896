"""The learners by name, for the command line, benchmarks and configs that name a learner as data.

Each entry says where the learner's zero-argument constructor lives (``"module:attribute"``, imported
only when that learner is built, so one learner's heavy dependencies never load for another),
whether it needs membership queries, and a rank: the default learner of ``python -m cli learn`` is
the highest-ranked one that needs no membership queries. Registering a learner is one line in
:data:`REGISTRY`; a user's own learner needs no registration: wherever a learner is named (``cli
learn --learner``, a plan file), ``"package.module:factory"`` names a zero-argument callable that
returns one; it is called once, its learner says whether it asks membership queries
(:class:`cegis.learner.AsksMembership`), and it is handed out wrapped in
:class:`cegis.user_learner.Checked`, which holds it to the learner protocol.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

import attrs

from cegis.errors import BrokenLearner
from cegis.errors import UnknownLearner as UnknownLearner
from cegis.learner import AsksMembership, Learner
from cegis.user_learner import Checked, described


@attrs.frozen
class LearnerSpec:
    """How to build one learner and what it needs."""

    name: str
    constructor: str  # "package.module:Attribute", called with no arguments
    summary: str
    membership: bool = False  # needs a membership oracle (only teachers with `label` can drive it)
    rank: int = 0  # among learners without membership queries, the highest rank is the default
    built: Learner | None = attrs.field(default=None, eq=False, repr=False)  # a user's, built once

    def build(self) -> Learner:
        """A fresh learner (a user's learner is the one built to read its spec: learners are
        immutable values, so sharing it is safe)."""
        return self.built if self.built is not None else cast(Learner, _factory(self.constructor)())


REGISTRY: dict[str, LearnerSpec] = {
    spec.name: spec
    for spec in (
        LearnerSpec(
            "lstar",
            "cegis.symbolic.lstar:LStarLearner",
            "Angluin's L* with Rivest-Schapire counterexamples",
            True,
        ),
        LearnerSpec(
            "union",
            "cegis.symbolic.union:UnionLearner",
            "the union of the positive examples (last resort)",
        ),
        LearnerSpec(
            "smallest-first",
            "cegis.symbolic.chain:smallest_first",
            "the enumerative learner, else the best passive learner, else the union (the default for --examples)",
            rank=-1,
        ),
        LearnerSpec(
            "enumerative",
            "cegis.symbolic.enumerative:EnumerativeLearner",
            "the smallest consistent regex, by size",
        ),
        LearnerSpec(
            "rpni", "cegis.symbolic.merging:rpni", "RPNI state merging over characters", rank=1
        ),
        LearnerSpec(
            "edsm",
            "cegis.symbolic.merging:edsm",
            "evidence-driven state merging over characters",
            rank=2,
        ),
        LearnerSpec(
            "symbolic",
            "cegis.symbolic.merging:symbolic",
            "state merging over the atoms of the examples' classes",
            rank=10,
        ),
        LearnerSpec(
            "symbolic-exbar",
            "cegis.symbolic.merging:symbolic_exbar",
            "symbolic, then an exact smallest-DFA search",
            rank=3,
        ),
    )
}


def spec(name: str) -> LearnerSpec:
    """How to build the learner ``name``: a registered one, or a ``module:factory`` (imported and
    built here, once, to read its ``needs_membership``; :meth:`LearnerSpec.build` hands that learner
    out); :class:`UnknownLearner` says why not."""
    if name in REGISTRY:
        return REGISTRY[name]
    if ":" not in name:
        raise UnknownLearner(
            f"unknown learner {name!r}; known: {', '.join(sorted(REGISTRY))}, or package.module:factory"
        )
    learner, membership = _user_learner(name)
    checked = cast(Learner, Checked(learner, name))  # held to the protocol wherever it runs
    return LearnerSpec(name, name, f"user learner {name}", membership, built=checked)


def build(name: str) -> Learner:
    """A fresh learner named ``name`` (registered, or ``module:factory``)."""
    return spec(name).build()


def _user_learner(name: str) -> tuple[Any, bool]:
    """What the factory ``name`` returns and whether it asks membership queries; BrokenLearner
    naming it when importing its module, calling it or reading the learner raises or exits (Ctrl-C
    passes: it is the user's)."""
    try:
        learner = _factory(name)()
        if not callable(getattr(learner, "propose", None)) or not isinstance(
            getattr(learner, "name", None), str
        ):
            raise UnknownLearner(
                f"{name} did not return a learner (an object with a `name` and an async `propose`)"
            )
        return learner, isinstance(learner, AsksMembership) and learner.needs_membership
    except (KeyboardInterrupt, UnknownLearner):
        raise
    except BaseException as error:  # noqa: BLE001 - a user's module or factory may raise anything
        raise BrokenLearner(f"the learner {name}: its factory raised {described(error)}") from error


def _factory(constructor: str) -> Any:
    module, _, attribute = constructor.partition(":")
    try:
        factory = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as error:
        raise UnknownLearner(f"cannot load learner {constructor!r}: {error}") from None
    if not callable(factory):
        raise UnknownLearner(f"{constructor} is not callable")
    return factory


def default_passive() -> str:
    """The name of the best-ranked learner that needs no membership queries."""
    passive = [spec for spec in REGISTRY.values() if not spec.membership]
    return max(passive, key=lambda spec: spec.rank).name
