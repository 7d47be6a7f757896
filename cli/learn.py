"""``python -m cli learn``: learn a regex from a target (exact teacher) or from labeled strings.

With ``--target`` the exact teacher answers with clustered counterexamples (the paper's protocol)
until the learned regex is the target or a budget is spent; a run that ends without it still
reports its best hypothesis and that hypothesis's accuracy. With ``--examples`` (CSV) or
``--positives``/``--negatives`` (one string per line) the strings are given up front, and the
symbolic learner, reading them through its class prior, answers with a regex consistent with all
of them. ``--flavor`` prints the answer for an engine. Bad input is one line on stderr and exit
code 2; a run that ends without a usable answer exits with 1.
"""

from __future__ import annotations

import asyncio
import csv
import json
import sys
from pathlib import Path
from typing import Any

import click

from automata.errors import AutomataError, SizeLimitExceeded
from automata import compile_time
from cegis.config import Budgets, LoopConfig
from cegis.errors import RecordsError
from cegis.passive import from_examples, printed_for
from cegis.registry import REGISTRY, UnknownLearner, build, default_passive, spec
from cegis.records import run_recorded
from cegis.setup import exact_setting
from cegis.state import EpochState, Task
from cegis.symbolic.union import contradiction
from cli.errors import BadInput
from cli.llm_options import llm_options, options_from
from oracle import SAMPLING_MODES, Example, SuiteOracle, Teacher, TeacherConfig
from oracle.config import PROFILES
from regexlang import DIALECTS, Dialect, RegexError, RegexSyntaxError, parse
from regexlang.flavors import ANCHORINGS, FLAVORS, Anchoring, Flavor

#: The model-backed learner: its options come from :mod:`cli.learn_llm`, its setting from ``--setting``.
LLM = "llm"
#: The default for labeled strings: the symbolic learner, which reads them through its class prior.
FROM_EXAMPLES = "symbolic"
_LABELS = {"1": True, "0": False, "true": True, "false": False}


def read_examples(path: Path) -> tuple[Example, ...]:
    """The ``string,label`` rows of a CSV file as written (quoted line breaks and separators kept,
    a byte-order mark dropped; a ``string,label`` header is skipped); BadInput on an unreadable,
    empty or malformed file or on contradictory labels."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as opened:
            rows = list(csv.reader(opened))
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
    return _checked(tuple(examples), str(path))


def read_lines(path: Path, label: bool) -> tuple[Example, ...]:
    """One example per line of ``path`` (``-``: standard input), all labeled ``label``. Lines end
    at ``\n`` only (a ``\r`` before it is dropped), so U+2028 or ``\x85`` stay inside a string."""
    try:
        if str(path) == "-":
            text = sys.stdin.buffer.read().decode("utf-8-sig")
        else:
            with path.open(encoding="utf-8-sig", newline="") as opened:
                text = opened.read()
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"cannot read {path}: {error}") from None
    lines = text.removesuffix("\n").split("\n") if text else []
    return tuple(Example(line.removesuffix("\r"), label) for line in lines)


def _checked(examples: tuple[Example, ...], where: str) -> tuple[Example, ...]:
    clash = contradiction(examples)
    if clash is not None:
        raise BadInput(f"{where}: {clash[0].string!r} is labeled both 1 and 0")  # type: ignore[union-attr]
    return tuple(dict.fromkeys(examples))


def _given(examples: Path | None, positives: Path | None, negatives: Path | None) -> tuple[Example, ...] | None:
    """The labeled strings of ``--examples`` or ``--positives``/``--negatives``, or None."""
    if examples is not None:
        if positives is not None or negatives is not None:
            raise BadInput("give --examples FILE or --positives/--negatives FILE, not both")
        return read_examples(examples)
    if positives is None and negatives is None:
        return None
    if positives is None:
        raise BadInput("--negatives needs --positives FILE: nothing to learn from negatives alone")
    given = read_lines(positives, True) + (read_lines(negatives, False) if negatives is not None else ())
    if not any(e.label for e in given):
        raise BadInput(f"{positives}: no positive strings")
    if negatives is None:
        click.echo("warning: no negative examples, so the answer is a guess: nothing says what it must reject", err=True)
    return _checked(given, "--positives/--negatives")


def _setting(
    target: str | None, given: tuple[Example, ...] | None, name: str, dialect: Dialect, config: LoopConfig
) -> tuple[Task, Teacher]:
    if (target is None) == (given is None):
        raise BadInput("give exactly one of --target REGEX, --examples FILE and --positives FILE")
    if target is not None:
        try:
            parse(target, dialect)
        except RegexSyntaxError as error:
            raise BadInput(f"--target: {error}") from None
        task, teacher = exact_setting(target, dialect, config)
        if any(issue.blocking for issue in teacher.issues):
            raise BadInput(f"--target: {'; '.join(map(str, teacher.issues))}")
        return task, teacher
    assert given is not None
    return Task(dialect, examples=given, name=name), SuiteOracle.from_examples(given, dialect=dialect)


def _best(state: EpochState) -> tuple[str | None, float | None]:
    """The final hypothesis, or, when the run ended without one that passed, the hypothesis of
    the best accuracy on the teacher's evaluation set (the latest on a tie), with that accuracy."""
    scored = [(r.scores.accuracy, r.epoch, r.proposal_text) for r in state.records if r.scores is not None and r.proposal_text]
    if state.outcome == "equivalent" or not scored:
        final = state.hypothesis or next((r.proposal_text for r in reversed(state.records) if r.failure is None and r.proposal_text), None)
        return final, next((r.scores.accuracy for r in reversed(state.records) if r.scores is not None), None)
    accuracy, _, text = max(scored)
    return text, accuracy


def _report(
    state: EpochState, dialect: Dialect, learner: str, seconds: float, flavor: Flavor | None, anchored: Anchoring | None
) -> dict[str, object]:
    text, accuracy = _best(state)
    report: dict[str, object] = {
        "regex": text,
        "dialect": dialect,
        "exact": state.outcome == "equivalent",
        "consistent": state.accepted,
        "outcome": state.outcome,
        "accuracy": accuracy,
        "learner": learner,
        "epochs": state.epoch,
        "examples": len(state.examples),
        "membership_queries": state.cost.learner.membership_queries,
        "seconds": round(seconds, 3),
    }
    if flavor is not None and text is not None:
        alphabet = state.task.universe
        try:
            report["regex"] = printed_for(parse(text, dialect, alphabet), flavor, anchored, alphabet)
        except RegexError as error:
            raise BadInput(f"--flavor {flavor}: {error}") from None
        report["dialect_regex"], report["flavor"] = text, flavor
    return report


@click.command(epilog="""Examples: a CSV of string,label rows (label 1/0 or true/false; a string,label
header is optional; quote a string holding a comma or a line break), or --positives FILE with one
string per line (and --negatives FILE; '-' reads standard input). Default learner: for --target
the best learner without membership queries (symbolic), with clustered counterexamples; for
strings, symbolic (its class prior reads digits, letters, hex digits, ... and counts).""")
@click.option("--target", metavar="REGEX", help="The regex to learn (an exact teacher judges every hypothesis).")
@click.option(
    "--examples", type=click.Path(path_type=Path), metavar="FILE", help="A CSV file of string,label rows to fit."
)
@click.option("--positives", type=click.Path(path_type=Path), metavar="FILE", help="Strings to accept, one per line ('-': stdin).")
@click.option("--negatives", type=click.Path(path_type=Path), metavar="FILE", help="Strings to reject, one per line ('-': stdin).")
@click.option(
    "--dialect", type=click.Choice(DIALECTS), default="python", show_default=True,
    help="Syntax of --target and of the learned regex: python (re.fullmatch), simple, extended (& and ~).",
)  # fmt: skip
@click.option(
    "--flavor", type=click.Choice(FLAVORS), default=None,
    help="Print the answer for this engine (escapes, classes, groups). python, pcre, javascript: with lookaheads "
    "((?=.*[0-9])[a-z0-9]{8,}) where that is exact and shorter; re2, posix have no lookarounds: & and ~ print "
    "through the automaton.",
)  # fmt: skip
@click.option(
    "--anchored", type=click.Choice(ANCHORINGS), default=None,
    help="fullmatch: for a whole-string call (re.fullmatch); search: with anchors for a search call. "
    "Default: what the flavour's usual call needs (python, re2: fullmatch; pcre, javascript, posix: search).",
)  # fmt: skip
@click.option(
    "--learner", metavar="NAME",
    help=f"One of {', '.join([*sorted(REGISTRY), LLM])}, or package.module:factory (your own learner). Default: symbolic (see below).",
)
@click.option("--mode", type=click.Choice(SAMPLING_MODES), default="paths", show_default=True, help="Counterexample sampling.")
@click.option("--profile", type=click.Choice(PROFILES), default="improved", show_default=True, help="Teacher profile.")
@click.option("--clustered/--plain", default=True, show_default=True, help="Clustered (symbolic) counterexamples, the paper's protocol.")
@click.option("--batch", type=click.IntRange(min=1), default=250, show_default=True, help="Counterexamples per epoch.")
@click.option(
    "--max-epochs", type=click.IntRange(min=1), default=12, show_default=True,
    help="Epochs (proposal, then the teacher's answer) before the run stops without the target.",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--records", type=click.Path(path_type=Path), metavar="FILE", help="Append JSON Lines records (resumes).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@llm_options
def learn(
    target: str | None,
    examples: Path | None,
    positives: Path | None,
    negatives: Path | None,
    dialect: Dialect,
    flavor: Flavor | None,
    anchored: Anchoring | None,
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
    """Learn a regex from --target, --examples or --positives/--negatives and print it.

    Exits with 0 when the regex is exactly the target (or consistent with every example), 1 when
    the run ended without such a regex (the best hypothesis is still printed), 2 on bad input.
    """
    given = _given(examples, positives, negatives)
    name = learner or (FROM_EXAMPLES if given is not None else default_passive())
    teacher_config = TeacherConfig(batch=batch, mode=mode, clustered=clustered, profile=profile)  # type: ignore[arg-type]
    config = LoopConfig(teacher=teacher_config, budgets=Budgets(epochs=max_epochs), seed=seed)
    task, teacher = _setting(target, given, str(examples or positives), dialect, config)
    try:
        membership = name != LLM and spec(name).membership
    except UnknownLearner as error:
        raise BadInput(f"--learner: {error}") from None
    if membership and not callable(getattr(teacher, "label", None)):
        raise BadInput(f"learner {name!r} asks membership queries, which only --target can answer")
    started = compile_time.clock()  # compiling kernels (a first run) is not learning time
    try:
        if name == LLM:
            from cli.learn_llm import run_llm  # only here: it imports the model client (aiohttp)

            state = asyncio.run(run_llm(task, teacher, config, options_from(**llm), records=records))
        else:
            chosen = from_examples() if given is not None and name == FROM_EXAMPLES else build(name)
            state = asyncio.run(run_recorded(task, chosen, teacher, config, records))
    except (OSError, RecordsError) as error:
        raise BadInput(f"--records: {error}") from None
    except UnicodeDecodeError as error:
        raise BadInput(f"--records: {records} is not UTF-8 text (byte {error.start} of a line)") from None
    except SizeLimitExceeded as error:  # its remedy names a keyword of the library, not an option here
        raise BadInput(f"--target: the target is too large for the teacher: {error.exceeded}") from None
    except AutomataError as error:
        raise BadInput(f"--target: the teacher cannot work with this target: {error}") from None
    report = _report(state, dialect, name, compile_time.clock() - started, flavor, anchored)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    else:
        status = "exact" if report["exact"] else "consistent" if report["consistent"] else f"not learned ({state.outcome})"
        best = "" if report["consistent"] or report["accuracy"] is None else f" (best hypothesis, accuracy {report['accuracy']:.3f})"
        click.echo(f"regex:    {report['regex'] if report['regex'] is not None else '(none)'}{best}")
        click.echo(f"status:   {status}")
        click.echo(f"learner:  {name}")
        click.echo(f"epochs:   {state.epoch}")
        click.echo(f"examples: {len(state.examples)}")
        click.echo(f"time:     {report['seconds']} s")
    if not report["consistent"]:
        sys.exit(1)
