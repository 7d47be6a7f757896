"""Printing a DFA back as a regex a person would write, never changing its language.

* :mod:`~automata.printing.to_regex`: state elimination, the print that always exists;
* :mod:`~automata.printing.readable`: the shortest of several candidate prints, each checked equal
  to the DFA's language before it is kept;
* :mod:`~automata.printing.structure` and :mod:`~automata.printing.counted`: languages derived from
  the minimal DFA (cores, cuts, closures, a counted class at the end) out of which ``readable``
  writes structured prints (``Σ*dogΣ*``, ``[a-z]{1,4}[0-9]{2}``);
* :mod:`~automata.printing.lookahead_print`: an intersection written as lookaheads, the way people
  write password rules;
* :mod:`~automata.printing.pruning`: regexes with ``&`` and ``~`` simplified, each step checked.

Every print here is checked on automata to accept exactly the DFA's language; a generalisation
that changes the language belongs to the learner that wants it. The top room: it compiles
candidates (:mod:`automata.building`) and compares them (:mod:`automata.algebra`).
"""
