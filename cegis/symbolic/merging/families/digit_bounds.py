"""Bounded digit fields: when a few positives show that a zero-padded number stays below a bound.

A person reading ``12:35``, ``13:47``, ``04:14``, ``03:26``, ``16:16`` knows clocks and writes the
hours as ``[0-2][0-9]``; the learner knows no clocks, but the five strings carry evidence of their
own: were the hours any two digits, five of them would all be at most 16 with probability
(17/100)^5 = 0.0001. This module is the rule that reads such evidence, and the prior it tests.

**The prior.** A *zero-padded field* is a run whose values are all digits, all of one width ``w``
of at least two, and at least one of which starts with ``0``: the padding shows that the width is
the format's and the values are numbers below some bound (hours, minutes, months, days). Its run
class is the digits, so the prior presumes its values any ``w`` digits, uniformly, until the
positives show otherwise.

**How the prior decides.** The statistic is the largest value shown, ``V``, over the ``n``
distinct values of the field (a value shown twice is no new evidence). It is fixed before looking:
the range the digits happen to span would be chosen after looking, and uniform digits fall in
*some* narrow range far more often than in a given one. Under the prior, ``n`` values are all at
most ``V`` with probability ``((V+1)/10^w)^n``; when that is below :data:`SIGNIFICANCE`, the field
is bounded. Its bound is then not ``V`` (five hours seldom show 23) but the upper confidence limit
of a bound ``B`` below which the values are uniform: the largest ``B`` under which ``n`` values
would all be at most ``V`` with probability at least the significance, ``((V+1)/(B+1))^n >=
SIGNIFICANCE``. The limit reaches ``10^w - 1`` exactly when the test fails, so one rule both decides
and bounds, and values uniform below ``B`` get a limit below ``B`` with probability at most the
significance (a test checks both by enumeration). The field is written with its leading digit
bounded by the limit's (``[0-4][0-9]`` for a limit of 42) and the other digits whole: a person's
bound, and a superset of the limit's. With five two-digit values: a largest value of 16 gives a
limit of 41 (``[0-4]``), 31 one of 79 (``[0-7]``), 36 or more none; with twenty, 23 gives 29
(``[0-2]``) and 59 gives 74 (``[0-7]``); with sixty, 59 gives 63 (``[0-6]``). (Distinct values
drawn from a uniform field are all at most ``V`` with lower probability still, so counting
distinct values keeps the test conservative.) Where negatives ask for a field narrower than its
class, the positions its positives show narrow it instead, as without the bound
(:func:`.run_writing.bounded_default`): the bound speaks for fields no negative speaks about.

Only digits: letters have no zero padding that says a field is a number. Only strings given up
front (:mod:`.shapes`, :mod:`.separated`; ``significance`` 0 elsewhere): in the learning loop a
teacher's counterexamples show a bound when the target has one."""

from __future__ import annotations

from collections.abc import Sequence

from regexlang.charset import CharSet

#: The probability, under the prior of uniform values, below which the values the positives show
#: are read as bounded (and the chance that the bound written is below the field's true bound).
SIGNIFICANCE = 0.01


def value_bound(values: Sequence[int], width: int, significance: float = SIGNIFICANCE) -> int:
    """The largest value written for a field of ``width`` digits whose values are ``values``: the
    upper confidence limit of their bound, ``10^width - 1`` when they are no significant evidence
    of one."""
    top = int(10**width) - 1  # int: a power of ints is typed Any
    if not values:
        return top
    seen, n = max(values), len(values)
    if ((seen + 1) / (top + 1)) ** n >= significance:
        return top
    # ((seen + 1) / (bound + 1)) ** n >= significance, solved for the largest integer bound (checked
    # at the neighbours, which rounding may have missed).
    guess = int((seen + 1) * significance ** (-1 / n)) - 1
    fits = [
        b
        for b in range(max(seen, guess - 1), min(top, guess + 1) + 1)
        if ((seen + 1) / (b + 1)) ** n >= significance
    ]
    return max(fits, default=seen)


def bounded_field(values: Sequence[str], significance: float = SIGNIFICANCE) -> CharSet | None:
    """The leading digits written for ``values`` when they are a zero-padded field whose values
    show a bound (:func:`value_bound` of their distinct values: its leading digit), else None."""
    distinct = set(values)
    widths = {len(v) for v in distinct}
    if (
        significance <= 0
        or len(widths) != 1
        or min(widths) < 2
        or not all(v.isascii() and v.isdigit() for v in distinct)
    ):
        return None
    if not any(v.startswith("0") for v in distinct):
        return None
    width = widths.pop()
    leading = value_bound([int(v) for v in distinct], width, significance) // int(10 ** (width - 1))
    return CharSet.range("0", str(leading)) if leading < 9 else None
