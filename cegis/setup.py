"""Assembly of a run against the exact teacher: the task and its teacher from a target regex.

Kept apart from :mod:`cegis.loop`, which drives any :class:`oracle.Teacher` and needs no concrete one.
"""

from __future__ import annotations

from cegis.config import LoopConfig
from cegis.state import Task
from oracle.exact import ExactTeacher
from regexlang.dialects import Dialect


def exact_setting(
    target: str, dialect: Dialect, config: LoopConfig, *, name: str = ""
) -> tuple[Task, ExactTeacher]:
    """The task of learning ``target`` and its exact teacher under ``config``, over one universe
    (the teacher's: the ``cegml`` profile narrows a simple target's universe to its own letters)."""
    teacher = ExactTeacher.from_regex(target, dialect, config=config.teacher_config)
    return Task(dialect, target, name=name or target, universe=teacher.universe), teacher
