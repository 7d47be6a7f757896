"""A ``click`` group whose commands are imported only when they run.

Each subcommand names the module that defines it (``"cli.regex:regex"``), so ``python -m cli regex``
imports the regex toolchain and nothing else: no HTTP client, no benchmark peers (pyformlang is a
dev-only package that a plain ``pip install -e .`` does not bring), and a start-up measured in
tenths of a second. ``--help`` lists every command with its one-line summary without importing it.
Every command gets ``--version`` and ``-h`` when it is loaded, so a command module added later
needs nothing for either; the commands of :mod:`cli` also declare :data:`CONTEXT` themselves, since
``click`` fixes a command's help option the first time it runs, which may be before any group
loads it (a test or a script that invokes ``cli.learn.learn`` directly).
"""

from __future__ import annotations

import importlib

import attrs
import click

#: ``-h`` beside ``--help``, for every command.
CONTEXT = {"help_option_names": ["-h", "--help"]}
#: ``--version`` (the installed project's version), for the group and, added on load, every command.
version_option = click.version_option(package_name="regex-cegis", message="%(prog)s %(version)s")


@attrs.frozen
class LazyCommand:
    """Where a command lives (``module:attribute``) and the one line ``--help`` shows for it."""

    target: str
    summary: str

    def load(self) -> click.Command:
        """Import the module and return the command object."""
        module_name, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        if not any("--version" in param.opts for param in command.params):
            version_option(command)
        command.context_settings = {**CONTEXT, **command.context_settings}
        return command


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is invoked."""

    def __init__(self, *args: object, lazy: dict[str, LazyCommand], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            return self.lazy[cmd_name].load()
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.lazy[name].summary) for name in sorted(self.lazy)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
