"""The runner's errors: a run directory or a server the experiment cannot be run with.

Each is the caller's to fix (move a directory aside, fix a key, repair a file), so the CLI turns
every :class:`ExperimentError` into exit code 2 with its message; outcomes of units are never
exceptions.
"""

from __future__ import annotations


class ExperimentError(Exception):
    """An experiment that cannot run (or a run directory that cannot be reported) as asked."""


class ConfigurationChanged(ExperimentError):
    """The run directory holds records of another configuration than the plan's."""


class RunDirectoryBusy(ExperimentError):
    """Another runner holds the run directory's lock."""


class DamagedRecords(ExperimentError):
    """Record lines that are neither valid records nor a torn last line."""


class ServerUnusable(ExperimentError):
    """A model server that cannot be used: it refuses the key, cannot be reached, or lacks the model."""


class ServerFailed(Exception):
    """A unit's model call failed for an infrastructure reason (auth, connection, model not found,
    quota) mid-run: the unit stays unfinished, never scored."""


class UnitRaised(Exception):
    """A unit raised in another process, and the exception comes back as text: its type, message
    and the worker's traceback (a model worker sends every one so; a symbolic worker those that
    would not survive pickling, such as a user's class whose ``__init__`` needs more than its
    ``args``, which would otherwise break the whole process pool)."""


class UnitDied(Exception):
    """The worker process running a unit alone died (``os._exit`` in a user's learner, a crash,
    the OOM killer): the unit fails, its records kept, and the same command runs it again."""
