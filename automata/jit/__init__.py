"""JIT plumbing: how the numba kernels of every other room are compiled, cached and timed.

The bottom room: it imports nothing else of ``automata``. The kernels themselves live in the rooms
that use them (``core/_small_kernels.py``, ``algebra/_kernels.py``, ``strings/_count_kernels.py``
...); what they share lives here:

* :mod:`~automata.jit._jit`: the one decorator every kernel goes through (``@kernel``), which runs
  a kernel as plain Python until compiling pays, then compiles it or loads its cached machine code;
* :mod:`~automata.jit._disk_cache`: whether numba has a kernel's machine code on disk, answered
  without importing numba;
* :mod:`~automata.jit.compile_time`: how long this process spent compiling, so measured run times
  can leave it out;
* :mod:`~automata.jit._intern`: the open-addressing table and growable arrays every construction
  kernel numbers its discoveries with;
* :mod:`~automata.jit.arrays`: the numpy array types kernels take and return, named once.

A new kernel goes in the room whose operation it serves, decorated with
``automata.jit._jit.kernel``; ``python -m cli warmup`` compiles it with the others.
"""
