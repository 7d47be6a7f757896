"""How many of a set of regexes print linear for an engine, as written and in their safe forms.

The measure behind the ``bench safe-forms`` table: for each tree, the print as written and the
safe form (:func:`automata.safe.form.safe_form`), with the time the safe form took. Trees a flavour
cannot print (word boundaries in no engine's spelling here) are counted apart, not as failures.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import attrs

from automata.redos import Engine, Semantics
from automata.safe.form import DEFAULT_SECONDS, SafeForm, safe_form
from regexlang.ast import Regex
from regexlang.errors import NotExpressible


@attrs.frozen
class Shares:
    """The safe forms of the printable trees with the seconds each took; ``unprintable`` counts
    the trees the flavour cannot print."""

    forms: tuple[SafeForm, ...]
    seconds: tuple[float, ...]
    unprintable: int

    @property
    def linear_before(self) -> float:
        """The share of prints as written that are linear."""
        return sum(form.original.linear for form in self.forms) / max(len(self.forms), 1)

    @property
    def linear_after(self) -> float:
        """The share of safe forms that are linear."""
        return sum(form.verdict.linear for form in self.forms) / max(len(self.forms), 1)

    @property
    def unexplained(self) -> int:
        """Non-linear safe forms that carry no reason (should be none)."""
        return sum(not form.verdict.linear and not form.reason for form in self.forms)


def linear_shares(
    trees: Iterable[Regex],
    flavor: Engine = "python",
    match: Semantics = "fullmatch",
    seconds: float = DEFAULT_SECONDS,
) -> Shares:
    """The safe form of each tree for ``flavor`` and ``match``, timed (see :class:`Shares`)."""
    forms: list[SafeForm] = []
    took: list[float] = []
    unprintable = 0
    for tree in trees:
        started = time.perf_counter()
        try:
            form = safe_form(tree, flavor, match, seconds=seconds)
        except NotExpressible:
            unprintable += 1
            continue
        took.append(time.perf_counter() - started)
        forms.append(form)
    return Shares(tuple(forms), tuple(took), unprintable)
