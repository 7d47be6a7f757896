"""``python -m cli learn``: learn a regex from a target (exact teacher) or from labeled strings.

With ``--target`` the exact teacher answers with clustered counterexamples (the paper's protocol)
until the learned regex is the target or a budget is spent; a run that ends without it still
reports its best hypothesis and that hypothesis's accuracy. With ``--examples`` (CSV) or
``--positives``/``--negatives`` (one string per line) or ``--positive S``/``--negative S`` the
strings are given up front, and the symbolic learner, reading them through its class prior,
answers with a regex consistent with all of them. ``--flavor`` prints the answer for an engine.

This module is the face only: what a file's text means is :mod:`cegis.given`, which regex a run
answers is :func:`cegis.answer.answer_of`, the run is :func:`cegis.run_recorded`. Input is read
whole but bounded (:data:`MAX_INPUT_BYTES`); a records file is locked for the run
(:func:`experiments.lock.records_lock`). Bad input is one line on stderr and exit code 2; a run
that ends without a usable answer exits with 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import click

from automata.errors import DEFAULT_STATE_LIMIT, AutomataError, SizeLimitExceeded
from automata.jit import compile_time
from cegis.answer import Answer, answer_of
from cegis.config import Budgets, LoopConfig
from cegis.errors import BrokenLearner, LearnerExited, NotAProposal, RecordsError
from cegis.generalization import generalizes
from cegis.given import GivenExamplesError, examples_from_csv, labeled, strings_from_lines
from cegis.records import run_recorded
from cegis.redos_check import (
    PRINTINGS,
    Printed,
    Printing,
    checked,
    redos_json,
    rewrite_note,
    warning,
)
from cegis.registry import REGISTRY, default_passive
from cegis.setup import exact_setting
from cegis.state import Task
from cegis.symbolic.passive import from_examples, listing_hint, printed_for
from cli.errors import MAX_STATE_LIMIT, BadInput, limit_error
from cli.interrupts import interruptible
from cli.lazy import CONTEXT
from cli.llm_options import llm_options, options_from
from cli.user_learner import user_spec
from experiments.errors import RunDirectoryBusy
from experiments.lock import records_lock
from oracle import SAMPLING_MODES, Example, SuiteOracle, Teacher, TeacherConfig
from oracle.config import PROFILES
from oracle.protocol import ContradictoryTeacher, MembershipOracle
from regexlang import DIALECTS, Dialect, RegexError, RegexSyntaxError, parse
from regexlang.flavors import ANCHORINGS, FLAVORS, Anchoring, Flavor

#: The model-backed learner: its options come from :mod:`cli.learn_llm`, its setting from ``--setting``.
LLM = "llm"
#: The default for labeled strings: the symbolic learner, which reads them through its class prior.
FROM_EXAMPLES = "symbolic"
#: The largest examples file (or standard input) read, as for dataset files.
MAX_INPUT_BYTES = 64 * 1024 * 1024
STDIN = Path("-")


def read_input(path: Path) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), at most :data:`MAX_INPUT_BYTES`; BadInput
    naming the file when it is unreadable, larger, or not UTF-8."""
    try:
        with _opened(path) as raw:
            data = raw.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise BadInput(f"{_name(path)} holds more than {MAX_INPUT_BYTES:,} bytes; not read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadInput(f"{_name(path)} is not UTF-8 text (byte {error.start})") from None


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[BinaryIO]:
    if path == STDIN:
        yield sys.stdin.buffer
        return
    with path.open("rb") as raw:
        yield raw


def _name(path: Path) -> str:
    return "standard input" if path == STDIN else str(path)


def read_examples(path: Path) -> tuple[Example, ...]:
    """The ``string,label`` rows of a CSV file (:func:`cegis.given.examples_from_csv`); BadInput
    on an unreadable, empty or malformed file or on contradictory labels."""
    try:
        return examples_from_csv(read_input(path))
    except GivenExamplesError as error:
        raise BadInput(f"{_name(path)}: {error}") from None


def read_lines(path: Path) -> tuple[str, ...]:
    """One string per line of ``path`` (``-``: standard input); a blank line is refused."""
    try:
        return strings_from_lines(read_input(path))
    except GivenExamplesError as error:
        raise BadInput(f"{_name(path)}: {error}") from None


def _given(
    examples: Path | None,
    positives: Path | None,
    negatives: Path | None,
    positive: tuple[str, ...],
    negative: tuple[str, ...],
) -> tuple[Example, ...] | None:
    """The labeled strings of ``--examples``, or of ``--positives``/``--negatives`` and the inline
    ``--positive``/``--negative`` strings, or None when none is given."""
    if examples is not None:
        if positives is not None or negatives is not None or positive or negative:
            raise BadInput("give --examples FILE or positive and negative strings, not both")
        return read_examples(examples)
    if positives is None and negatives is None and not positive and not negative:
        return None
    if positives == STDIN and negatives == STDIN:
        raise BadInput(
            "--positives - and --negatives - both read standard input: give one of them as a file"
        )
    wanted = positive + (read_lines(positives) if positives is not None else ())
    unwanted = negative + (read_lines(negatives) if negatives is not None else ())
    if not wanted:
        empty = f"--positives {_name(positives)} is empty" if positives is not None else ""
        raise BadInput(
            (empty or "no positive strings")
            + ": give positive strings in --positives FILE or --positive S;"
            " nothing is learned from negatives alone"
        )
    if not unwanted:
        click.echo(
            "warning: no negative examples, so the answer is a guess: nothing says what it must reject",
            err=True,
        )
    try:
        return labeled(wanted, unwanted)
    except GivenExamplesError as error:
        raise BadInput(f"positive and negative strings: {error}") from None


def _records_file(records: Path | None) -> Path | None:
    """``--records``: a regular file or a new one (``/dev/zero`` or a pipe would be read forever)."""
    if records is None:
        return None
    try:
        mode = records.stat().st_mode
    except FileNotFoundError:
        return records
    except OSError as error:
        raise BadInput(f"--records: cannot use {records}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise BadInput(f"--records: {records} is not a regular file")
    return records


def _setting(
    target: str | None,
    given: tuple[Example, ...] | None,
    name: str,
    dialect: Dialect,
    config: LoopConfig,
) -> tuple[Task, Teacher]:
    if (target is None) == (given is None):
        raise BadInput(
            "give exactly one of --target REGEX, --examples FILE, and positive strings"
            " (--positives FILE or --positive S)"
        )
    if target is not None:
        try:
            parse(target, dialect)
        except RegexSyntaxError as error:
            raise BadInput(f"--target: {error}") from None
        task, teacher = exact_setting(target, dialect, config)
        if any(issue.blocking for issue in teacher.issues):
            raise limit_error("; ".join(map(str, teacher.issues)), "--target")
        return task, teacher
    assert given is not None
    return Task(dialect, examples=given, name=name), SuiteOracle.from_examples(
        given, dialect=dialect
    )


def _examples_too_large(error: AutomataError, examples: Path | None) -> str:
    """The message for labeled strings the learner cannot work with: it names the option that
    gave them and what helps (fewer or shorter strings), never ``--target`` nor ``--state-limit``,
    which bounds only the teacher of a target."""
    given = "--examples" if examples is not None else "the positive and negative strings"
    exceeded = getattr(error, "exceeded", error)  # the limit errors say what exceeded it
    return (
        f"{given}: too large to learn from ({exceeded}): give fewer or shorter strings,"
        " or split them by shape and learn each group apart"
    )


def _report(
    answer: Answer,
    dialect: Dialect,
    learner: str,
    seconds: float,
    universe: Any,
    flavor: Flavor | None,
    anchored: Anchoring | None,
    printing: Printing,
) -> tuple[dict[str, object], Printed | None]:
    """The ``--json`` object of a run, and its printed regex with the ReDoS verdict (None: no
    backtracking engine in play: a dialect other than python and no ``--flavor``). For an engine
    that backtracks, ``regex`` is the safe form of the print unless ``printing`` is ``plain``
    (:func:`cegis.redos_check.checked`); ``plain_regex`` is then the print it replaces."""
    report: dict[str, object] = {
        "regex": answer.regex,
        "dialect": dialect,
        "exact": answer.exact,
        "consistent": answer.consistent,
        "outcome": answer.outcome,
        "reason": answer.reason,
        "accuracy": answer.accuracy,
        "learner": learner,
        "epochs": answer.epochs,
        "examples": answer.examples,
        "membership_queries": answer.membership_queries,
        "seconds": round(seconds, 3),
    }
    report["redos"] = report["plain_regex"] = None
    if answer.regex is None:
        return report, None
    try:
        tree = parse(answer.regex, dialect, universe)
        if flavor is not None:
            report["regex"] = printed_for(tree, flavor, anchored, universe)
    except RegexError as error:
        if flavor is None:  # a learner's print its own dialect cannot read: no verdict to give
            return report, None
        raise BadInput(f"--flavor {flavor}: {error}") from None
    if flavor is not None:
        report["dialect_regex"], report["flavor"] = answer.regex, flavor
    engine: Flavor | None = flavor or ("python" if dialect == "python" else None)
    if engine is None:
        return report, None
    printed = checked(tree, str(report["regex"]), engine, anchored, universe, printing)
    report["regex"] = printed.text
    report["plain_regex"] = None if printed.plain is None else printed.plain.text
    redos = redos_json(printed)
    if redos is not None:
        redos["no_linear_form"] = printed.reason or None
    report["redos"] = redos
    return report, printed


def _shown(regex: object) -> str:
    """The regex as the text output prints it: the empty regex visibly, no regex as ``(none)``."""
    if regex is None:
        return "(none)"
    return '"" (the empty regex: it matches the empty string only)' if regex == "" else str(regex)


def _generalizes(report: dict[str, object], given: tuple[Example, ...], task: Task) -> bool | None:
    """Whether the answer accepts a string no positive is (:func:`cegis.generalization.generalizes`);
    ``None`` without an answer."""
    text = report.get("dialect_regex", report["plain_regex"] or report["regex"])
    if not isinstance(text, str):
        return None
    return generalizes(
        parse(text, task.dialect, task.universe),
        (e.string for e in given if e.label),
        task.universe,
    )


@click.command(
    context_settings=CONTEXT,
    epilog="""Examples: a CSV of string,label rows (label 1/0 or true/false; a string,label
header is optional; quote a string holding a comma or a line break), or --positives FILE with one
string per line (and --negatives FILE; '-' reads standard input, for one of the two), or strings
given inline with --positive S / --negative S (repeatable, and added to the files'). A blank line
in a FILE is refused: the empty string is given as --positive '' (or a CSV row "",1). Default
learner: for --target the best learner without membership queries (symbolic), with clustered
counterexamples; for strings, symbolic (its class prior reads digits, letters, hex digits, ... and
counts).""",
)
@click.option(
    "--target",
    metavar="REGEX",
    help="The regex to learn (an exact teacher judges every hypothesis).",
)
@click.option(
    "--examples",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="A CSV file of string,label rows to fit.",
)
@click.option(
    "--positives",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="Strings to accept, one per line ('-': stdin; no blank lines).",
)
@click.option(
    "--negatives",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="Strings to reject, one per line ('-': stdin; no blank lines).",
)
@click.option("--positive", multiple=True, metavar="S", help="A string to accept (repeatable).")
@click.option("--negative", multiple=True, metavar="S", help="A string to reject (repeatable).")
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
    "--learner",
    metavar="NAME",
    help=f"One of {', '.join([*sorted(REGISTRY), LLM])}, or package.module:factory (your own"
    " learner). Default: symbolic (see below).",
)
@click.option(
    "--mode",
    type=click.Choice(SAMPLING_MODES),
    default="paths",
    show_default=True,
    help="Counterexample sampling.",
)
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    default="improved",
    show_default=True,
    help="Teacher profile.",
)
@click.option(
    "--clustered/--plain",
    default=True,
    show_default=True,
    help="Clustered (symbolic) counterexamples, the paper's protocol.",
)
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    default=250,
    show_default=True,
    help="Counterexamples per epoch.",
)
@click.option(
    "--max-epochs", type=click.IntRange(min=1), default=12, show_default=True,
    help="Epochs (proposal, then the teacher's answer) before the run stops without the target.",
)  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--state-limit",
    default=DEFAULT_STATE_LIMIT,
    show_default=True,
    type=click.IntRange(min=1, max=MAX_STATE_LIMIT),
    help="Most DFA states the teacher builds for the target and each hypothesis.",
)
@click.option(
    "--records",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="Append JSON Lines records (resumes; one run at a time).",
)
@click.option(
    "--print", "printing", type=click.Choice(PRINTINGS), default="safe", show_default=True,
    help="safe: for python, pcre, javascript, a print that can backtrack super-linearly is replaced by a "
    "linear one of the same language (proved on minimal DFAs) when one is found; plain: as written.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@llm_options
def learn(
    target: str | None,
    examples: Path | None,
    positives: Path | None,
    negatives: Path | None,
    positive: tuple[str, ...],
    negative: tuple[str, ...],
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
    state_limit: int,
    records: Path | None,
    printing: Printing,
    as_json: bool,
    **llm: Any,
) -> None:
    """Learn a regex from --target, --examples or positive/negative strings and print it.

    Exits with 0 when the regex is exactly the target (or consistent with every example), 1 when
    the run ended without such a regex (the best hypothesis is still printed), 2 on bad input or
    when a model server fails (its message is printed).
    """
    given = _given(examples, positives, negatives, positive, negative)
    name = learner or (FROM_EXAMPLES if given is not None else default_passive())
    teacher_config = TeacherConfig(
        batch=batch,
        mode=mode,  # type: ignore[arg-type]
        clustered=clustered,
        profile=profile,  # type: ignore[arg-type]
        state_limit=state_limit,
    )
    config = LoopConfig(teacher=teacher_config, budgets=Budgets(epochs=max_epochs), seed=seed)
    task, teacher = _setting(
        target, given, str(examples or positives or "inline strings"), dialect, config
    )
    chosen_spec = None if name == LLM else user_spec(name)
    membership = chosen_spec is not None and chosen_spec.membership
    if membership and not isinstance(teacher, MembershipOracle):
        raise BadInput(f"learner {name!r} asks membership queries, which only --target can answer")
    records = _records_file(records)
    started = compile_time.clock()  # compiling kernels (a first run) is not learning time
    try:
        with (
            records_lock(records) if records is not None else contextlib.nullcontext(),
            interruptible(),
        ):
            if name == LLM:
                from cli.learn_llm import (
                    run_llm,
                )  # only here: it imports the model client (aiohttp)

                state = asyncio.run(
                    run_llm(task, teacher, config, options_from(**llm), records=records)
                )
            else:
                assert chosen_spec is not None  # every name but the LLM's has a spec
                chosen = (
                    from_examples()
                    if given is not None and name == FROM_EXAMPLES
                    else chosen_spec.build()
                )
                state = asyncio.run(run_recorded(task, chosen, teacher, config, records))
    except RunDirectoryBusy as error:
        raise BadInput(f"--records: {error}") from None
    except (OSError, RecordsError) as error:
        raise BadInput(f"--records: {error}") from None
    except UnicodeDecodeError as error:
        raise BadInput(
            f"--records: {records} is not UTF-8 text (byte {error.start} of a line)"
        ) from None
    except AutomataError as error:  # its remedy names a keyword of the library, not an option
        if given is not None:  # no --target: the teacher is the examples, --state-limit unused
            raise BadInput(_examples_too_large(error, examples)) from None
        if isinstance(error, SizeLimitExceeded):
            raise BadInput(
                f"--target: the target is too large for the teacher: {error.exceeded}"
            ) from None
        raise limit_error(error, "--target: the teacher cannot work with this target") from None
    except (BrokenLearner, LearnerExited, NotAProposal, ContradictoryTeacher) as error:
        raise BadInput(str(error)) from None
    answer = answer_of(state)
    report, printed = _report(
        answer,
        dialect,
        name,
        compile_time.clock() - started,
        task.universe,
        flavor,
        anchored,
        printing,
    )
    if given is not None:
        report["generalizes"] = _generalizes(report, given, task)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    else:
        reason = f": {answer.reason}" if answer.reason else ""
        status = (
            "exact"
            if answer.exact
            else "consistent"
            if answer.consistent
            else f"not learned ({answer.outcome}{reason})"
        )
        best = (
            ""
            if answer.consistent or answer.accuracy is None
            else f" (best hypothesis, accuracy {answer.accuracy:.3f})"
        )
        click.echo(f"regex:    {_shown(report['regex'])}{best}")
        if printed is not None:
            for label, line in (("safe:", rewrite_note(printed)), ("warning:", warning(printed))):
                if line is not None:
                    click.echo(f"{label:9} {line}")
        click.echo(f"status:   {status}")
        failed = next((r.failure for r in reversed(state.records) if r.failure), None)
        if report["regex"] is None and failed is not None:  # say why no proposal was usable
            click.echo(f"why:      the last proposal failed: {failed}")
        if report.get("generalizes") is False:
            click.echo(
                "warning:  the regex only lists the positives: it does not generalize to any other string"
            )
            hint = listing_hint(
                [e.string for e in given or () if e.label],
                [e.string for e in given or () if not e.label],
                task.universe,
            )
            if hint:
                click.echo(f"hint:     {hint}")
        click.echo(f"learner:  {name}")
        click.echo(f"epochs:   {answer.epochs}")
        click.echo(f"examples: {answer.examples}")
        if answer.membership_queries:
            click.echo(f"queries:  {answer.membership_queries} membership queries")
        click.echo(f"time:     {report['seconds']} s")
    if not answer.consistent:
        sys.exit(1)
