"""The DFA value every room takes and returns, its alphabet, and its canonical (minimal) form.

* :mod:`~automata.core.dfa`: :class:`~automata.core.dfa.DFA`, a complete transition table
  ``int32[n_states, n_classes]``, an ``accepting`` bit per state and a start state; frozen, its
  arrays read-only.
* :mod:`~automata.core.alphabet`: an :class:`~automata.core.alphabet.Alphabet` splits a universe
  of characters into classes no character set in play tells apart (rust-lang/regex's
  ``ByteClasses``), so a DFA over all of Unicode has a handful of columns.
* :mod:`~automata.core.minimize`: Hopcroft minimization with a canonical numbering (and
  ``_small_kernels.py``, the Moore minimization small DFAs take), so two DFAs of one language over
  one alphabet have equal arrays.

Minimization lives here, not with the construction in :mod:`automata.building`, because every room
above needs the canonical form: products (:mod:`automata.algebra`) minimize their results, and so
do the printers. Only :mod:`automata.jit` lies below.
"""
