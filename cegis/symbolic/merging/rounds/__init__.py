"""The rounds of a learner call: merging again with witnesses and with what agreements imply,
patching missed examples, ranking by description length, and printing the choice (see
:mod:`cegis.symbolic.merging`)."""
