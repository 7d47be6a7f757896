"""Finite automata for regex languages: Thompson NFA, subset construction, Hopcroft minimization,
products, equivalence with witnesses, counting, sampling and path enumeration.

Dense numpy tables over alphabet equivalence classes; hot loops in numba. Depends only on
``regexlang``.
"""
