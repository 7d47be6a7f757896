"""The exact teacher's settings as one validated value, including which *profile* it follows.

Two profiles exist because two questions need answering. ``improved`` (the default) is this
project's teacher: the batch is split between the two sides and a side that runs short hands its
share to the other, nothing already shown is shown again, positives and negatives alternate, and
clustered examples print with every metacharacter escaped. ``cegml`` reproduces the sampling choices
of the seed paper's public reference code, so that the paper's tables can be re-run under the same
teacher: ``batch // 2`` per side without refill, positives first, repeats allowed, its budgets for
the depth-first path search, its class spelling and its looser reading of negative clusters
(:mod:`oracle.cegml` and the README's table list every difference). A profile is a field, not a
subclass, so it is chosen by name from a config file like any other setting.

Every field is checked when the value is built, so a typo in a config file fails at once with a
message naming the field instead of silently running another mode.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import attrs

from automata.errors import DEFAULT_STATE_LIMIT
from oracle.clustered import ClusteredReading
from oracle.protocol import SAMPLING_MODES, SamplingMode

#: How a verdict lists its counterexamples: alternating sides, positives first, or shortest first.
Order = Literal["interleaved", "grouped", "by_length"]
ORDERS: tuple[Order, ...] = get_args(Order)

#: Whose sampling choices the teacher follows (see the module docstring).
Profile = Literal["improved", "cegml"]
PROFILES: tuple[Profile, ...] = get_args(Profile)


def one_of(choices: tuple[str, ...]) -> Any:
    """An attrs validator: the value is one of ``choices`` (a ValueError naming the field if not)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in choices:
            raise ValueError(
                f"{attribute.name} must be one of {', '.join(map(repr, choices))}, not {value!r}"
            )

    return check


def at_least(low: int) -> Any:
    """An attrs validator: the value is an int of at least ``low``."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not int:
            raise TypeError(f"{attribute.name} must be an int, not {type(value).__name__}")
        if value < low:
            raise ValueError(f"{attribute.name} must be at least {low}, not {value}")

    return check


def is_bool(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """An attrs validator: the value is a bool."""
    if type(value) is not bool:
        raise TypeError(f"{attribute.name} must be a bool, not {type(value).__name__}")


@attrs.frozen
class TeacherConfig:
    """Settings of an exact teacher; the defaults are the seed paper's (Appendix D).

    ``eval_size`` and ``diff_ratio_k`` are the evaluation the paper reports with the teacher: 800
    held-out strings (its code's datasets hold 3,000) and Diff Ratio up to length 32 (Fig. 1; its
    code's default is 8).
    """

    batch: int = attrs.field(default=250, validator=at_least(1))
    max_len: int = attrs.field(default=32, validator=at_least(0))
    mode: SamplingMode = attrs.field(default="paths", validator=one_of(SAMPLING_MODES))
    clustered: bool = attrs.field(default=False, validator=is_bool)
    order: Order = attrs.field(default="interleaved", validator=one_of(ORDERS))
    seed: int = attrs.field(default=0, validator=at_least(0))
    state_limit: int = attrs.field(default=DEFAULT_STATE_LIMIT, validator=at_least(1))
    max_expansions: int = attrs.field(default=10_000, validator=at_least(1))
    max_frontier: int = attrs.field(default=1_000, validator=at_least(1))
    profile: Profile = attrs.field(default="improved", validator=one_of(PROFILES))
    eval_size: int = attrs.field(default=800, validator=at_least(0))
    diff_ratio_k: int = attrs.field(default=32, validator=at_least(0))

    @classmethod
    def cegml(cls, **changes: Any) -> TeacherConfig:
        """The reference code's teacher: its profile, positives first, clustered paths."""
        settings: dict[str, Any] = {
            "profile": "cegml",
            "order": "grouped",
            "clustered": True,
            **changes,
        }
        return cls(**settings)

    @property
    def reading(self) -> ClusteredReading:
        """How the profile scores clustered negatives (see :func:`oracle.clustered.satisfies`)."""
        return "loose" if self.profile == "cegml" else "universal"

    @property
    def promises_shortest(self) -> bool:
        """Whether a verdict's shortest counterexample is a shortest disagreement (``Verdict.shortest``):
        ``shortest`` mode of the ``improved`` profile; the ``cegml`` profile's draw
        (:mod:`oracle.cegml`) makes no such promise."""
        return self.mode == "shortest" and self.profile != "cegml"

    @property
    def mode_name(self) -> str:
        """The mode as recorded in verdicts, e.g. ``paths`` or ``shortest+clustered``."""
        return (
            self.mode
            + ("+clustered" if self.clustered else "")
            + ("@cegml" if self.profile == "cegml" else "")
        )
