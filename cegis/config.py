"""One value holding every knob of a learning run, so a setting is data, not code.

The defaults are the seed paper's configuration (Appendix D): at most 8 initial labeled examples,
balanced between the target language and its complement; at most 12 epochs; at most 250
counterexamples per round (the teacher's ``batch``); strings of length at most 32 (the teacher's
``max_len``); accuracy measured on 800 held-out strings and Diff Ratio up to length 32 (the teacher's
``eval_size`` and ``diff_ratio_k``). When a proposal fails (no regex, does not compile, times out) the epoch
adds the next ``fallback_size`` random labeled examples instead of counterexamples, as the
reference code does. Everything the teacher is told (sampling mode, clustered, order, batch,
profile, lengths) lives in :attr:`LoopConfig.teacher`, an :class:`oracle.TeacherConfig` carried whole, so a
teacher setting added to ``oracle`` travels through the loop and its records untouched.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from oracle.exact import TeacherConfig


@attrs.frozen
class Budgets:
    """Limits on a run; ``None`` means unlimited. A run stops before an epoch once one is spent."""

    epochs: int | None = 12
    examples: int | None = None  # labeled examples accumulated (a clustered line counts as one)
    membership_queries: int | None = None
    tokens: int | None = None  # prompt plus completion tokens
    seconds: float | None = None  # learner plus teacher wall-clock seconds (not deterministic)


@attrs.frozen
class LoopConfig:
    """Every setting of a learning run; ``seed`` fixes all of its randomness."""

    teacher: TeacherConfig = TeacherConfig()
    budgets: Budgets = Budgets()
    seed: int = 0
    initial_size: int = 8
    fallback_size: int = 8
    evaluate: bool = True  # score every hypothesis (teacher.eval_size strings, Diff Ratio) when the target is known
    #: Hand the learner a counted membership oracle: ``None`` when the learner declares it needs one
    #: (a ``needs_membership`` attribute), True or False to force it.
    membership: bool | None = None
    #: The characters random examples are spelled with: ``readable`` (a character no reader can
    #: see, such as U+58457 drawn for an NL-RX target over all of Unicode, is replaced by a readable
    #: member of its class, so the label is unchanged; alphabets of readable characters are drawn
    #: as before) or ``universe`` (any member of the task's universe).
    example_alphabet: Literal["readable", "universe"] = "readable"

    def to_json(self) -> dict[str, Any]:
        """The settings as plain JSON data (for records)."""
        return attrs.asdict(self)

    @property
    def max_len(self) -> int:
        """The longest string any example of the run may have (the teacher's bound)."""
        return self.teacher.max_len

    @property
    def teacher_config(self) -> TeacherConfig:
        """The teacher's settings with the run's seed."""
        return attrs.evolve(self.teacher, seed=self.seed)
