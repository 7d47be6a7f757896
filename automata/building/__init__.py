"""Building a minimal DFA from a regex: the compiler's pipeline, one module per stage.

Start at :mod:`~automata.building.compile` (``compile_regex``, ``compile_many``, ``from_text``),
which lays the pipeline out as rust-lang/regex does (``nfa/thompson/mod.rs``):

1. the alphabet: the character classes the regex's sets induce (:mod:`automata.core.alphabet`);
2. :mod:`~automata.building.positions`: the common case, a small regex, as a position (Glushkov)
   automaton determinized and minimized by one small kernel;
3. otherwise :mod:`~automata.building.nfa`, a Thompson NFA, then
   :mod:`~automata.building.determinize`, the subset construction, with the zero-width assertions
   (``^``, ``$``, ``\\b``) of :mod:`~automata.building.assertions` resolved exactly, then
   minimization (:mod:`automata.core.minimize`);
4. :mod:`~automata.building.lookaround`: regexes with lookarounds, by derivatives that turn a
   lookahead into an intersection;
5. ``&`` and ``~`` nodes: products and complements of their parts' DFAs (:mod:`automata.algebra`).

Every stage takes ``state_limit`` and raises :class:`~automata.errors.StateLimitExceeded` rather
than exhaust memory. The room stands on :mod:`automata.algebra` and :mod:`automata.core`.
"""
