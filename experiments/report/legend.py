"""What each column of the report's tables means, with its unit: the line under every table.

:func:`experiments.report.tables.markdown` writes every table of the report and ends it with
:func:`legend`, built from :data:`COLUMNS` (one entry per column name) and :data:`PATTERNS`
(families of names such as ``SD=2`` or ``≤512``), so a table added later gets its legend by naming
its columns here; a column missing from both is marked "(not described)" in the legend itself
rather than left out silently (``tests/experiments/test_report_legend.py`` checks every table
the report writes). Abbreviations are spelled out here once instead of in each section's prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SECONDS = "seconds per finished run, learner plus teacher, without numba's compiling"

#: Column name → what it holds, with its unit.
COLUMNS = {
    "arm": "the plan's arm: one learner in one setting",
    "runs": "runs (target × seed) counted",
    "success": "share of finished runs that learned the target's language, % (successes/finished runs)",
    "all": "every StarDepth together, as in the SD columns",
    "examples*": "labeled examples the teacher showed, median over successful runs",
    "epochs*": "proposals made (loop epochs), median over successful runs",
    "MQ*": "membership queries the learner asked, median over successful runs",
    "s p50": "median " + _SECONDS,
    "s p95": "95th percentile " + _SECONDS,
    "length ×*": "printed length of the learned regex ÷ the target's, median over successful runs",
    "tokens p50": "prompt + completion tokens per finished run, median",
    "#States": "states of the target's minimal DFA (without the dead state)",
    "SD": "StarDepth of the targets (all: every StarDepth together)",
    "mean tokens per run": "prompt + completion tokens, mean over finished runs",
    "Pareto-optimal": (
        "yes when it succeeds at all and no other arm reaches at least this success with fewer"
        " tokens (not compared when its tokens are unknown)"
    ),
    "calls": "model calls made (answered from the call log included)",
    "prompt tokens": "tokens sent, as the server counted them (≥ when some calls reported none)",
    "of them cached": "prompt tokens the server served from its prompt cache (— when it did not say)",
    "completion tokens": "tokens the model generated, reasoning included (≥ when some calls reported none)",
    "reasoning tokens": "generated tokens spent on reasoning (— when the server did not say)",
    "p50 s/call": "median seconds per call, retries included",
    "p95 s/call": "95th percentile seconds per call, retries included",
    "cost (USD)": "prompt, cached prompt and completion tokens at the plan's price per million tokens",
    "overflow policy": "what the setting does when the prompt outgrows the context",
    "context overflows": "calls refused, or not sent, because the prompt left no room for an answer",
    "output budget cuts": "calls whose completion budget was cut below the one asked to fit the context",
    "epochs with examples cut": "epochs whose prompt showed only the newest examples",
    "proposals": "hypotheses asked of the learner (one per epoch)",
    "answers": "answers asked of the model: each try read (<ans> block, draw), each empty call",
    "parsable": "answers holding a regex the model wrote that parsed in the task's dialect",
    "answer-format rate": "parsable answers ÷ answers (0 to 1)",
    "truncated": "answers cut at the output budget before they closed",
    "no_regex": "answers without an answer block holding a regex",
    "syntax_error": "answers whose regex did not parse in the task's dialect",
    "server_error": "calls lost to a server failure (HTTP errors after retries)",
    "budget": "calls not sent: the prompt left no room for an answer",
    "other failures": "answers that failed in any other way (or records that do not say how)",
    "outside grammar": "calls whose reply lay outside the answer grammar the request carried",
    "fallback answered": "proposals the guard's symbolic fallback answered",
    "runs succeeded": "finished runs the teacher accepted ÷ finished runs",
    "free arm / constrained arm": "one setting's arm without and with constrained answers (all: every such pair)",
    "answers free": "answers asked of the model by the arm without constrained answers",
    "answers constrained": "answers asked of the model by the arm with constrained answers",
    "rate free": "answer-format rate without constrained answers (parsable ÷ answers)",
    "rate constrained": "answer-format rate with constrained answers (parsable ÷ answers)",
    "not sent free": (
        "answers lost without constrained answers to calls not sent, their prompt outgrowing the"
        " context (failed answers, in the rate)"
    ),
    "not sent constrained": (
        "answers lost with constrained answers to calls not sent, their prompt outgrowing the"
        " context (failed answers, in the rate)"
    ),
    "succeeded free": "finished runs the teacher accepted ÷ finished runs, without constrained answers",
    "succeeded constrained": "finished runs the teacher accepted ÷ finished runs, with constrained answers",
    "draws": "samples drawn from the model for them",
    "conformance over K draws": (
        "conforming draws ÷ (K × proposals), for arms that draw all K samples of every proposal "
        "(— for arms that stop at the first conforming draw)"
    ),
    "fallback trigger rate (runs)": "runs whose final output the fallback learner produced ÷ runs (SEVerA Table 8)",
    "draws per proposal": "all K samples, or until one conforms",
    "contract violations": "proposals whose answer broke the guard's contract",
    "success without fallback runs": (
        "success over the runs whose final output the model produced, "
        "fallback runs left out of numerator and denominator, % (SEVerA Eq. 21)"
    ),
    "Pass@1": "share of runs whose first proposal passes every hidden test (0 to 1)",
    "Pass@final": "share of runs whose last proposal before hardening passes every hidden test (0 to 1)",
    "MRR": "mean over runs of 1 / the first passing turn (0 when none passes)",
    "RER (fixes/breaks)": "hidden tests fixed ÷ broken from one turn to the next, over all runs",
    "stability": "mean tree similarity of consecutive parsed proposals (0 to 1)",
    "robust": "share of runs whose final regex passes every hidden test and hardening probe (0 to 1)",
    "never": "runs in which no turn passed every hidden test",
    "calls with deviations": "calls whose reply did something the request did not ask for",
    "deviations (calls)": "each kind of departure from the request, with the calls that showed it",
}

#: Families of column names, each with its meaning (the matched number is ``{0}``).
PATTERNS = (
    (
        re.compile(r"SD=(\d+)"),
        "runs on targets of StarDepth {0} (nesting depth of stars): "
        "success rate of the finished ones, with their counts",
    ),
    (
        re.compile(r"≤(\d+)"),
        "mean over the finished runs that had proposed a hypothesis from at most {0} labeled "
        "examples (shown + membership queries); n = how many runs the mean is over",
    ),
    (re.compile(r"turn (\d+)"), "runs whose first fully passing proposal came at turn {0}"),
)


def legend(header: Sequence[str]) -> str:
    """One line naming each column with its meaning; a family (``SD=0``, ``SD=1``, ...) is
    described once, with N for its number."""
    parts = []
    families: set[str] = set()
    for column in header:
        family = next(
            ((pattern, text) for pattern, text in PATTERNS if pattern.fullmatch(column)), None
        )
        if family is None:
            parts.append(f"**{column}** {COLUMNS.get(column, '(not described)')}")
        elif family[0].pattern not in families:
            families.add(family[0].pattern)
            name = re.sub(r"\d+", "N", column)
            parts.append(f"**{name}** {family[1].format('N')}")
    return "Columns: " + "; ".join(parts) + "."
