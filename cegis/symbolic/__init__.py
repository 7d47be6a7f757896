"""The symbolic learners: L* (membership queries), state merging (RPNI, EDSM and the symbolic
learner over the examples' character classes), enumeration of the smallest consistent regex, the
union of the positives, and the chain that tries them in turn. Build one by name with
:func:`cegis.registry.build`."""
