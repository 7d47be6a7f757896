"""Safe forms: of the equivalent prints of a regex, one a backtracking engine runs in linear time.

A regex printed for Python, PCRE or JavaScript runs on an engine that backtracks, and many
natural prints take it polynomial or exponential time on a hostile text (:mod:`automata.redos`):
``.*[0-9].*`` is quadratic under ``re.fullmatch``, though ``[^0-9\\n]*[0-9].*`` means the same and is
linear. This room finds such forms and proves them before showing them: every candidate's
language under the call is compared with the original's on minimal DFAs, and only a candidate
whose own verdict is linear is returned. Candidates come from three sources, tried in order of
readability: language-preserving rewrites of the tree (:mod:`~automata.safe.rewrites`), prints of
the minimal DFA, and possessive loops where the engine has them (:mod:`~automata.safe.possessive`).
:mod:`~automata.safe.form` runs the search within a budget of candidates tried. The room sits above
``redos`` and ``printing``: it uses both.
"""

from automata.safe.form import DEFAULT_TRIES, SafeForm, safe_form

__all__ = ["DEFAULT_TRIES", "SafeForm", "safe_form"]
