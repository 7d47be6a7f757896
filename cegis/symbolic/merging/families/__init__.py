"""Hypothesis families, one module each, named for what they find; each implements
:class:`cegis.symbolic.merging.evidence.Family` (see :mod:`cegis.symbolic.merging` for the list and
for where a new one goes)."""
