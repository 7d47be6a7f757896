"""Passive state-merging learners: RPNI and EDSM over characters, and the symbolic learner over
the atoms of the examples' character sets, with hypothesis families competing on description length.

The learners (:mod:`.merger`: :class:`MergingLearner` and the registry's factories :func:`rpni`,
:func:`edsm`, :func:`symbolic`, :func:`symbolic_exbar`) re-learn from every example at each
proposal. One call (:mod:`.gathering`) gathers :class:`.candidate.Candidate` values (an automaton,
how it was found, its regex when spelled, the family that made it) and chooses one. The package has
three rooms and a doorway between them:

``core/`` — state merging, knowing nothing of families or rounds
    :mod:`.core.symbols` (the alphabet: characters or atoms, symbolic words),
    :mod:`.core.prefix_tree` (building the tree from the examples), :mod:`.core.quotient` (the
    prefix tree and its quotients, with undo), :mod:`.core.redblue` (RPNI and EDSM merge orders),
    :mod:`.core.exact` (exbar, the smallest consistent DFA within a budget), :mod:`.core.alike`
    (where an unread symbol goes), :mod:`.core.words` (packed words checked on a table), and the
    numba kernels (``_kernels``, ``_redblue_kernels``).

``families/`` — hypothesis families, one module each, named for what they find
    :mod:`.families.templates` (fields and separators, each field written by
    :mod:`.families.run_writing`), :mod:`.families.shapes` (class-and-count shapes of strings
    given up front, the patterns of the prior), :mod:`.families.separated` (fields along a
    repeated separator), :mod:`.families.factors` (shared factors, with :mod:`.families.sequences`
    for them in order, built on :mod:`.families.shared` and :mod:`.families.pieces`),
    :mod:`.families.anchored` (how strings start or end), :mod:`.families.subsequence` (classes in
    order), :mod:`.families.listing` (the positives' own language, everything but the negatives),
    :mod:`.families.runs` (the listing's long runs looped); and the readings of plain examples
    through classes that families and rounds share: :mod:`.families.prior` (the classes people
    write), :mod:`.families.classes` (the classes the examples ask for) and
    :mod:`.families.digit_bounds` (the bounds a few zero-padded numbers show).

``rounds/`` — the rounds that make candidates again and choose among them
    :mod:`.rounds.merges` (one merge of a tree by every order), :mod:`.rounds.witnesses` (learning
    again with the strings of missed examples), :mod:`.rounds.patching` (missed examples as
    exceptions), :mod:`.rounds.agreement` and :mod:`.rounds.agreeing` (what shortest
    counterexamples imply, and the rounds that learn it), :mod:`.rounds.scoring` with
    :mod:`.rounds.pumping` (description length), :mod:`.rounds.selection` (the shortest
    description whose print is right), :mod:`.rounds.printing` and :mod:`.rounds.unbounded`
    (printing policy).

The doorway: :mod:`.candidate` (the candidate, and compiling a spelled one), :mod:`.evidence`
(what a family reads, and the :class:`.evidence.Family` protocol) and :mod:`.settings` (what the
rounds read of a learner). Imports run one way: the learner, then the call, then the rounds, then
the families, then the doorway, then the core.

**A new family** goes in ``families/<what it finds>.py``. It implements the
:class:`.evidence.Family` protocol: a function ``candidates(evidence: Evidence) -> Found`` that
reads the examples (:class:`.evidence.Evidence`: positives and negatives as strings, the atoms and
the classes the teacher showed, the strings agreements imply) and returns its candidates with the
problems of the hypotheses it could not compile (a family that writes regexes hands them to
:func:`.candidate.spelled`). It joins a tuple of families in :mod:`.gathering`; the rounds rank it
with every other candidate by description length and check it against every example, so a family
only proposes."""

from cegis.symbolic.merging.core.redblue import MergeOrder
from cegis.symbolic.merging.merger import MergingLearner, edsm, rpni, symbolic, symbolic_exbar

__all__ = ["MergeOrder", "MergingLearner", "edsm", "rpni", "symbolic", "symbolic_exbar"]
