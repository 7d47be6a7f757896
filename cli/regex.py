"""``python -m cli regex``: parse, measure and compile one regex; optionally compare it with another.

This is the practitioner's quick look at a regex: its canonical form in the dialect, the paper's
complexity metrics (#States, StarDepth), the shortest strings it accepts, the ReDoS verdict of its
canonical form under ``re.fullmatch`` (python dialect; :mod:`cegis.redos_check`) with, when that is
not linear, its safe form: a linear print of the same language, proved on minimal DFAs, to paste
instead (not with ``--print plain``), and — with
``--against`` — whether two regexes denote the same language, with the shortest string that tells
them apart.
"""

from __future__ import annotations

import sys

import click

from automata.algebra.ops import equivalence_witness, num_states
from automata.building.compile import compile_many
from automata.errors import DEFAULT_STATE_LIMIT, AutomataError
from automata.redos import Verdict
from automata.strings.sampling import shortest
from cegis.redos_check import PRINTINGS, Printing, checked, warning
from cli.errors import MAX_STATE_LIMIT, BadInput, limit_error, syntax_error
from cli.lazy import CONTEXT
from oracle.compiling import ANSWER_SECONDS
from regexlang import DIALECTS, Dialect, RegexError, RegexSyntaxError, parse, universe, unparse
from regexlang.metrics import node_count, star_depth, text_length

#: The most shortest strings shown (each costs a walk of the DFA; 10,000 took minutes).
MAX_EXAMPLES = 1000


@click.command(context_settings=CONTEXT)
@click.argument("text")
@click.option("--dialect", type=click.Choice(DIALECTS), default="python", show_default=True)
@click.option("--against", metavar="TEXT", help="A second regex (same dialect) to compare with.")
@click.option(
    "--examples",
    default=5,
    show_default=True,
    type=click.IntRange(min=1, max=MAX_EXAMPLES),
    help="How many shortest accepted strings to show.",
)
@click.option(
    "--state-limit",
    default=DEFAULT_STATE_LIMIT,
    show_default=True,
    type=click.IntRange(min=1, max=MAX_STATE_LIMIT),
    help="Stop determinization past this many states.",
)
@click.option(
    "--seconds",
    default=ANSWER_SECONDS,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Stop a lookaround construction that runs longer than this.",
)
@click.option(
    "--print", "printing", type=click.Choice(PRINTINGS), default="safe", show_default=True,
    help="safe: under a canonical form that can backtrack super-linearly, show a linear one of the same "
    "language (proved on minimal DFAs) when one is found; plain: the canonical form's verdict only.",
)  # fmt: skip
def regex(
    text: str,
    dialect: Dialect,
    against: str | None,
    examples: int,
    state_limit: int,
    seconds: float,
    printing: Printing,
) -> None:
    """Parse TEXT, print its canonical form and metrics, and compile it to a minimal DFA.

    Exits with 0, or with 1 when --against is given and the two languages differ (so scripts can
    test equivalence); bad input exits with 2.
    """
    texts = [text] if against is None else [text, against]
    trees = []
    for t, label in zip(texts, ("", "--against")):
        try:
            trees.append(parse(t, dialect))
        except RegexSyntaxError as error:
            raise syntax_error(error, label) from None
    try:
        dfas = compile_many(trees, universe(dialect), state_limit=state_limit, seconds=seconds)
    except (AutomataError, RegexError) as error:
        raise limit_error(error) from None
    except MemoryError:
        raise BadInput(
            f"determinizing ran out of memory below --state-limit {state_limit:,}; pass a smaller one"
        ) from None
    tree, dfa = trees[0], dfas[0]
    canonical = unparse(tree, dialect)
    click.echo(f"canonical:  {canonical}")
    click.echo(f"length:     {text_length(text)}")
    click.echo(f"nodes:      {node_count(tree)}")
    click.echo(f"star depth: {star_depth(tree)}")
    click.echo(f"#states:    {num_states(dfa)}  (minimal DFA without the dead state)")
    try:
        strings = shortest(dfa, examples)
    except AutomataError as error:
        raise limit_error(error) from None
    click.echo(
        "shortest:   "
        + (", ".join(repr(s) for s in strings) if strings else "(the language is empty)")
    )
    if dialect == "python":  # the one dialect pasted into a backtracking engine as it is
        printed = checked(tree, canonical, "python", universe=universe(dialect), printing=printing)
        written = printed.plain or printed
        alarm = warning(written)
        if alarm is not None:
            click.echo(f"warning:    {alarm}")
        elif written.verdict is not None:
            click.echo(f"redos:      {_linear(written.verdict)}")
        if printed.plain is not None and printed.verdict is not None:
            proof = "the same language, proved on minimal DFAs"
            click.echo(f"safe form:  {printed.text}  ({_linear(printed.verdict)}; {proof})")
    if against is not None:
        try:
            witness = equivalence_witness(dfas[0], dfas[1], state_limit=state_limit)
        except AutomataError as error:
            raise limit_error(error) from None
        if witness is None:
            click.echo("equivalent: yes")
        else:
            side = "the first" if witness.accepted_by == "left" else "--against"
            click.echo(f"equivalent: no — {witness.string!r} is accepted only by {side}")
            sys.exit(1)


def _linear(verdict: Verdict) -> str:
    """``linear backtracking under python re.fullmatch``: a verdict without its ``ReDoS:``."""
    return verdict.describe().removeprefix("ReDoS: ")
