"""The strings a DFA accepts: how many of each length, drawn at random, listed, walked as paths.

* :mod:`~automata.strings.counting`: the exact number of accepted strings of each length (a
  weighted path count over classes), the completion table the others read, and the diff ratio of
  two languages;
* :mod:`~automata.strings.sampling`: strings drawn uniformly at random by unranking that table, and
  the shortest strings in shortlex order;
* :mod:`~automata.strings.paths`: loop-free accepting paths with the classes of each step merged,
  the raw material of clustered counterexamples.

Teachers draw their tests and counterexamples here, and experiments measure languages. The dynamic
programs run in numba (``_count_kernels.py``, ``_shortest_kernel.py``). The room stands on
:mod:`automata.algebra` and :mod:`automata.core`; it builds nothing from regexes.
"""
