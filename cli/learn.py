"""``python -m cli learn``: learn a regex from a target (exact teacher) or from labeled examples.

With ``--target`` the exact teacher knows the language and the loop runs until the learned regex
denotes exactly that language (or a budget is spent); with ``--examples`` (a CSV of
``string,label`` rows) the examples are given to the learner up front and judged by a test-suite
oracle holding the same rows, so the answer is a regex consistent with all of them, the smallest
the enumeration finds within budget (``smallest-first``). The learner is any name of
:data:`cegis.registry.REGISTRY` (for ``--target`` by default the best one that needs no membership
queries) or ``llm`` (a model behind an OpenAI-compatible server, with the options of
:mod:`cli.learn_llm`). Bad input (a regex that does not parse, an empty or malformed file,
contradictory labels, a learner the teacher cannot serve) is one line on stderr and exit code 2; a
run that ends without a usable answer exits with 1.
"""

from __future__ import annotations

import asyncio
import csv
import json
import sys
from pathlib import Path
from typing import Any

import click

from automata.errors import AutomataError
from automata import compile_time
from cegis.config import Budgets, LoopConfig
from cegis.errors import RecordsError
from cegis.registry import REGISTRY, UnknownLearner, build, default_passive, spec
from cegis.records import run_recorded
from cegis.setup import exact_setting
from cegis.state import EpochState, Task
from cegis.symbolic.union import contradiction
from cli.errors import BadInput
from cli.learn_llm import llm_options, options_from, run_llm
from oracle import SAMPLING_MODES, Example, SuiteOracle, Teacher, TeacherConfig
from oracle.config import PROFILES
from regexlang import DIALECTS, Dialect, RegexSyntaxError, parse

#: The model-backed learner: its options come from :mod:`cli.learn_llm`, its setting from ``--setting``.
LLM = "llm"
#: The default for --examples: the smallest consistent regex the enumeration finds, else a consistent one.
SMALLEST_FIRST = "smallest-first"
_LABELS = {"1": True, "0": False, "true": True, "false": False}


def read_examples(path: Path) -> tuple[Example, ...]:
    """The ``string,label`` rows of a CSV file (a ``string,label`` header is skipped); BadInput on
    an unreadable, empty or malformed file or on contradictory labels."""
    try:
        rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise BadInput(f"cannot read {path}: {error}") from None
    if rows and [cell.strip().lower() for cell in rows[0]] == ["string", "label"]:
        rows = rows[1:]
    examples = []
    for number, row in enumerate(rows, start=1):
        if len(row) != 2 or row[1].strip().lower() not in _LABELS:
            raise BadInput(f"{path}: row {number} is not 'string,label' with label 0 or 1: {','.join(row)!r}")
        examples.append(Example(row[0], _LABELS[row[1].strip().lower()]))
    if not examples:
        raise BadInput(f"{path}: no labeled examples")
    clash = contradiction(tuple(examples))
    if clash is not None:
        raise BadInput(f"{path}: {clash[0].string!r} is labeled both 1 and 0")  # type: ignore[union-attr]
    return tuple(dict.fromkeys(examples))


def _setting(target: str | None, examples: Path | None, dialect: Dialect, config: LoopConfig) -> tuple[Task, Teacher]:
    if (target is None) == (examples is None):
        raise BadInput("give exactly one of --target REGEX and --examples FILE")
    if target is not None:
        try:
            parse(target, dialect)
        except RegexSyntaxError as error:
            raise BadInput(f"--target: {error}") from None
        task, teacher = exact_setting(target, dialect, config)
        if any(issue.blocking for issue in teacher.issues):
            raise BadInput(f"--target: {'; '.join(map(str, teacher.issues))}")
        return task, teacher
    assert examples is not None
    given = read_examples(examples)
    return Task(dialect, examples=given, name=str(examples)), SuiteOracle.from_examples(given, dialect=dialect)


def _report(state: EpochState, dialect: Dialect, learner: str, seconds: float) -> dict[str, object]:
    return {
        "regex": state.hypothesis,
        "dialect": dialect,
        "exact": state.outcome == "equivalent",
        "consistent": state.accepted,
        "outcome": state.outcome,
        "learner": learner,
        "epochs": state.epoch,
        "examples": len(state.examples),
        "membership_queries": state.cost.learner.membership_queries,
        "seconds": round(seconds, 3),
    }


@click.command()
@click.option("--target", metavar="REGEX", help="The regex to learn (an exact teacher judges every hypothesis).")
@click.option(
    "--examples", type=click.Path(path_type=Path), metavar="FILE", help="A CSV file of string,label rows to fit."
)
@click.option("--dialect", type=click.Choice(DIALECTS), default="python", show_default=True)
@click.option(
    "--learner",
    metavar="NAME",
    help=f"One of {', '.join([*sorted(REGISTRY), LLM])}, or package.module:factory (your own learner). "
    "Default: the best without membership queries.",
)
@click.option("--mode", type=click.Choice(SAMPLING_MODES), default="paths", show_default=True, help="Counterexample sampling.")
@click.option("--profile", type=click.Choice(PROFILES), default="improved", show_default=True, help="Teacher profile.")
@click.option("--clustered/--plain", default=False, show_default=True, help="Clustered (symbolic) counterexamples.")
@click.option("--batch", type=click.IntRange(min=1), default=250, show_default=True, help="Counterexamples per epoch.")
@click.option("--max-epochs", type=click.IntRange(min=1), default=12, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--records", type=click.Path(path_type=Path), metavar="FILE", help="Append JSON Lines records (resumes).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@llm_options
def learn(
    target: str | None,
    examples: Path | None,
    dialect: Dialect,
    learner: str | None,
    mode: str,
    profile: str,
    clustered: bool,
    batch: int,
    max_epochs: int,
    seed: int,
    records: Path | None,
    as_json: bool,
    **llm: Any,
) -> None:
    """Learn a regex from --target or --examples and print it.

    Exits with 0 when the regex is exactly the target (or consistent with every example), 1 when
    the run ended without such a regex, 2 on bad input.
    """
    name = learner or (SMALLEST_FIRST if examples is not None else default_passive())
    teacher_config = TeacherConfig(batch=batch, mode=mode, clustered=clustered, profile=profile)  # type: ignore[arg-type]
    config = LoopConfig(teacher=teacher_config, budgets=Budgets(epochs=max_epochs), seed=seed)
    task, teacher = _setting(target, examples, dialect, config)
    try:
        membership = name != LLM and spec(name).membership
    except UnknownLearner as error:
        raise BadInput(f"--learner: {error}") from None
    if membership and not callable(getattr(teacher, "label", None)):
        raise BadInput(f"learner {name!r} asks membership queries, which only --target can answer")
    started = compile_time.clock()  # compiling kernels (a first run) is not learning time
    try:
        if name == LLM:
            state = asyncio.run(run_llm(task, teacher, config, options_from(**llm), records=records))
        else:
            state = asyncio.run(run_recorded(task, build(name), teacher, config, records))
    except (OSError, RecordsError) as error:
        raise BadInput(f"--records: {error}") from None
    except UnicodeDecodeError as error:
        raise BadInput(f"--records: {records} is not UTF-8 text (byte {error.start} of a line)") from None
    except AutomataError as error:
        raise BadInput(f"--target: the teacher cannot work with this target: {error}") from None
    report = _report(state, dialect, name, compile_time.clock() - started)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    else:
        status = "exact" if report["exact"] else "consistent" if report["consistent"] else f"not learned ({state.outcome})"
        click.echo(f"regex:    {state.hypothesis if state.hypothesis is not None else '(none)'}")
        click.echo(f"status:   {status}")
        click.echo(f"learner:  {name}")
        click.echo(f"epochs:   {state.epoch}")
        click.echo(f"examples: {len(state.examples)}")
        click.echo(f"time:     {report['seconds']} s")
    if not report["consistent"]:
        sys.exit(1)
