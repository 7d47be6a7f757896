"""``python -m cli redos``: whether a regex can take a backtracking engine down, and the proof.

The verdict is static and exact for the call and engine named (:mod:`automata.redos`): linear,
polynomial of degree k, exponential, or unknown with the reason. A non-linear verdict comes with
an attack string that is then timed on the engine itself in a subprocess (Python ``re``; ``node``
for JavaScript when installed), the pump grown until a trial takes ``--seconds`` or the growth fits
the class. With ``--json`` the same facts print as one object.
"""

from __future__ import annotations

import json
from typing import Any

import click

from automata.redos import ENGINES, SEMANTICS, Engine, Semantics, Verdict, check
from automata.redos.confirm import Confirmation, confirm
from automata.redos.verdict import DEFAULT_SECONDS, OUT_OF_TIME
from cegis.redos_check import Printed, redos_json
from cli.errors import BadInput, syntax_error
from cli.lazy import CONTEXT
from regexlang import RegexSyntaxError

#: Characters of an attack shown in text output before it is cut.
SHOWN = 60


@click.command(context_settings=CONTEXT)
@click.argument("pattern")
@click.option("--flavor", type=click.Choice(ENGINES), default="python", show_default=True)
@click.option(
    "--match",
    "semantics",
    type=click.Choice(SEMANTICS),
    default="fullmatch",
    show_default=True,
    help="The call the pattern is used with (search: anywhere in the text).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--confirm/--no-confirm",
    default=True,
    show_default=True,
    help="Time the attack on the engine in a subprocess.",
)
@click.option(
    "--seconds",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0.01, max=60),
    help="Grow the attack until one trial takes this long (or the growth fits the class).",
)
@click.option(
    "--analysis-seconds",
    default=DEFAULT_SECONDS,
    show_default=True,
    type=click.FloatRange(min=0.01, max=600),
    help="Give the static analysis this many CPU seconds; past them the verdict is unknown.",
)
def redos(
    pattern: str,
    flavor: Engine,
    semantics: Semantics,
    as_json: bool,
    confirm: bool,
    seconds: float,
    analysis_seconds: float,
) -> None:
    """Decide whether PATTERN backtracks super-linearly under --flavor's engine and --match call.

    Exits with 0 for a linear verdict, 1 for a polynomial, exponential or unknown one (so scripts
    can gate on it); bad input exits with 2.
    """
    try:
        verdict = check(pattern, engine=flavor, semantics=semantics, seconds=analysis_seconds)
    except RegexSyntaxError as error:
        raise syntax_error(error) from None
    except RecursionError:
        raise BadInput("the pattern nests too deeply to analyse") from None
    timed = _confirm(pattern, verdict, seconds) if confirm and verdict.attack else None
    if as_json:
        click.echo(json.dumps(report(verdict, timed), ensure_ascii=False))
    else:
        for line in lines(verdict, timed):
            click.echo(line)
    if verdict.reason.startswith(OUT_OF_TIME):
        click.echo("pass a larger --analysis-seconds to give it more time", err=True)
    raise SystemExit(0 if verdict.linear else 1)


def _confirm(pattern: str, verdict: Verdict, seconds: float) -> Confirmation:
    return confirm(pattern, verdict, target=seconds)


def attack_text(verdict: Verdict, timed: Confirmation | None) -> str | None:
    """The attack at the pump count that was confirmed (or, untimed, a short one)."""
    if verdict.attack is None:
        return None
    if timed is not None and timed.trials:
        return verdict.attack.text(timed.trials[-1][0])
    return verdict.attack.text(16 if verdict.verdict == "exponential" else 256)


def report(verdict: Verdict, timed: Confirmation | None) -> dict[str, Any]:
    """The JSON object of ``redos --json``: the ``redos`` object of ``learn`` and ``regex``
    (:func:`cegis.redos_check.redos_json`) with the attack as timed and the timing."""
    shared = redos_json(Printed("", verdict.engine, verdict))
    assert shared is not None  # every engine here backtracks
    return {
        **shared,
        "engine": verdict.engine,
        "attack": attack_text(verdict, timed),
        "confirmed": None if timed is None else timed.confirmed,
        "confirmed_seconds": None if timed is None or not timed.trials else timed.seconds,
        "slope": None if timed is None else timed.slope,
        "confirm_note": None if timed is None else timed.reason or None,
    }


def lines(verdict: Verdict, timed: Confirmation | None) -> list[str]:
    """The text report: the verdict line, the attack's parts, the timing."""
    out = [verdict.describe()]
    attack = verdict.attack
    if attack is not None:
        pumps = " ".join(f"{p!r} × n then {i!r}" if i else f"{p!r} × n" for p, i in attack.pumps)
        out.append(f"attack: prefix {attack.prefix!r}, pump {pumps}, suffix {attack.suffix!r}")
        text = attack_text(verdict, timed) or ""
        shown = text if len(text) <= SHOWN else text[:SHOWN] + f"… ({len(text):,} characters)"
        out.append(f"attack string: {shown!r}")
    if timed is not None:
        if not timed.trials:
            out.append(f"not timed: {timed.reason}")
        else:
            n, seconds = timed.trials[-1]
            slope = "" if timed.slope is None else f", growth exponent {timed.slope:.2f}"
            cut = " (cut at the deadline)" if timed.cut else ""
            state = "confirmed" if timed.confirmed else "NOT confirmed"
            out.append(f"{state}: {seconds:.2f} s at n = {n}{cut}{slope}")
    return out
