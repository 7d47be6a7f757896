"""The algebra of regular languages on DFAs: products, decisions, equivalence with witnesses.

Everything is in :mod:`~automata.algebra.ops`, short functions over frozen DFAs in the manner of
greenery: :func:`~automata.algebra.ops.union`, :func:`~automata.algebra.ops.intersection`,
:func:`~automata.algebra.ops.difference`, :func:`~automata.algebra.ops.complement`; the decisions
:func:`~automata.algebra.ops.is_empty`, :func:`~automata.algebra.ops.is_subset`,
:func:`~automata.algebra.ops.equivalent`; and the witnesses that explain a "no"
(:func:`~automata.algebra.ops.equivalence_witness`: the shortest string one language has and the
other lacks). Two DFAs over different alphabets are read through their common refinement
(:func:`~automata.algebra.ops.align`), never copied.

The product explorations run in numba (``_kernels.py``) or, for the pairs of few-state DFAs a
teacher compares every round, in plain Python (``_small_pairs.py``); both give the same arrays and
``tests/automata/test_two_paths.py`` holds them to it. This room stands on :mod:`automata.core`;
the compiler (:mod:`automata.building`) uses it for ``&`` and ``~``.
"""
