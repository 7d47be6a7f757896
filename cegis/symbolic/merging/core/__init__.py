"""State merging: the alphabet, the prefix tree and its quotients, the merge orders, exbar, and
their numba kernels (see :mod:`cegis.symbolic.merging`). Nothing here knows of families or rounds."""
