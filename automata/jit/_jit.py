"""The one decorator every numba kernel goes through: compiled when the JIT pays, plain Python before.

Why: numba compiles a kernel on its first call, and in a fresh install (an empty cache) that costs
between a tenth of a second and several seconds per kernel, tens of seconds for a learner; even with
a warm cache, importing numba and loading the machine code cost most of a short command's start-up.
Meanwhile the automata of a learning loop are tiny, and a kernel's own Python source, run by the
interpreter, answers a small call in microseconds to milliseconds. So :func:`kernel` wraps the
function in a :class:`Kernel` that runs the source as plain Python (:attr:`Kernel.python`, the same
code with every kernel it calls bound to its Python form too) until the JIT pays, and only then
imports numba and compiles (or loads the cached machine code):

* once numba is imported (another kernel compiled or loaded), a kernel whose machine code numba has
  cached on disk (:mod:`automata.jit._disk_cache`: after ``python -m cli warmup`` or any run that
  compiled it) goes compiled from its first call, since loading it costs milliseconds; before
  that, importing numba would cost a small command most of its time (0.2 → 0.6 CPU s for two
  small regexes compared), so small work stays in the interpreter;
* a call whose arrays hold more than :data:`SMALL` elements goes compiled at once;
* a kernel whose work is bounded by a limit argument (``limit="state_limit"``: a subset
  construction or a product explores up to that many states, and the interpreter takes about a
  tenth of a millisecond per state) runs as Python with that argument cut to :data:`PYTHON_STATES`;
  when that run reports the cut limit reached (``refused``), the call is made again compiled with
  the caller's limit, so the interpreter's share of any call is bounded before it starts (a
  200,000-state refusal once took 18 s in the interpreter);
* after :data:`PYTHON_BUDGET` CPU seconds spent in a kernel's Python form, it goes compiled for good
  (while another process compiles the same kernel into the same cache, small calls go on in Python).

Both forms run the same source, so they return the same values; ``test_kernel_twins.py`` in
``tests/automata``, ``tests/oracle`` and ``tests/cegis/symbolic`` runs the workloads both ways.
``REGEX_CEGIS_KERNELS=compiled`` (or ``python``) forces one form, for benchmarks and tests;
:func:`forced` does the same in-process.

Where the cache lives (numba's own order, first usable wins): ``$NUMBA_CACHE_DIR`` when set; the
``__pycache__`` directory next to each kernel's source file; numba's per-user cache directory
(``~/.cache/numba`` on Linux). When none is usable (a read-only install run by a user without a
writable home) numba would raise ``RuntimeError("cannot cache function ...: no locator available")``;
then the kernel compiles in memory on every run, with a single warning. Time spent compiling is
accounted by :mod:`automata.jit.compile_time`, which also says once that it is happening.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
import threading
import time
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, cast, overload

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])
Mode = Literal["auto", "compiled", "python"]

#: Calls whose array arguments hold more elements than this run compiled.
SMALL = 1 << 14
#: CPU seconds of Python execution after which a kernel is compiled for the rest of the process.
PYTHON_BUDGET = 0.25
#: The most a limit argument allows a kernel's Python form (about a tenth of a second of work).
PYTHON_STATES = 1_000
#: The environment variable that forces one form for every kernel.
ENV = "REGEX_CEGIS_KERNELS"

_NO_LOCATOR = "no locator available"
#: No kernel is called through a C function pointer, so numba need not build one (a tenth of its
#: compile time for a small kernel); :func:`_register_with_numba` says the same for numba's own
#: overloads (``np.empty`` and the like), which it compiles as small functions of their own.
_OPTIONS = {"no_cfunc_wrapper": True}
#: What :meth:`Kernel._within_cap` returns when the Python form reached its cut limit.
_PAST_CAP: Any = object()
_mode: Mode = (
    cast(Mode, os.environ[ENV]) if os.environ.get(ENV) in ("compiled", "python") else "auto"
)
_lock = threading.RLock()  # a dispatcher made under it makes those of the kernels it inlines


class Kernel(Generic[F]):
    """A numba kernel that runs as plain Python while that is cheaper (see the module docstring)."""

    def __init__(
        self,
        function: F,
        size: Callable[..., int] | None = None,
        limit: str | None = None,
        refused: Callable[[Any], bool] | None = None,
        inline: bool = False,
        nogil: bool = False,
    ) -> None:
        self.py_func = function
        self.inline = inline
        self.nogil = nogil
        self._size = size or _elements
        self._limit = None if limit is None else function.__code__.co_varnames.index(limit)
        self._refused = refused or (lambda result: False)
        self._python: Callable[..., Any] | None = None
        self._dispatcher: Any = None
        self._compiled = False
        self._on_disk: bool | None = None  # whether numba's cache holds it: asked at the first call
        self._python_seconds = 0.0
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        if _mode == "python":
            return self._interpret(args)
        if self._compiled or _mode == "compiled" or self._loads_cheaply():
            self._compiled = True  # compiled once, compiled for the rest of the process
            return self.dispatcher(*args)
        small = self._size(*args) <= SMALL
        if self._python_seconds < PYTHON_BUDGET and small:
            answer = self._within_cap(args)
            if answer is not _PAST_CAP:
                return answer
            small = False  # more work than the interpreter is allowed: the compiled form's
        return self._compile_and_call(args, wait=not small)

    def _loads_cheaply(self) -> bool:
        """Whether the compiled form costs only a load from numba's cache: numba is imported
        already (by another kernel) and its cache holds this one. Before numba is imported the
        interpreter is cheaper for small work: importing it costs a small command most of its time."""
        if "numba" not in sys.modules:
            return False
        if self._on_disk is None:
            from automata.jit import _disk_cache

            self._on_disk = _disk_cache.cached(self.py_func)
        return self._on_disk

    def _compile_and_call(self, args: tuple[Any, ...], *, wait: bool) -> Any:
        with _compiling(self, wait=wait) as ours:
            if ours:
                result = self.dispatcher(*args)
                self._compiled = True
                return result
        answer = self._within_cap(
            args
        )  # another process is compiling it into this cache: go on in Python meanwhile
        return self._compile_and_call(args, wait=True) if answer is _PAST_CAP else answer

    def _within_cap(self, args: tuple[Any, ...]) -> Any:
        """The Python form's answer with the limit argument cut to :data:`PYTHON_STATES`, or
        :data:`_PAST_CAP` when the cut limit (not the caller's) was reached."""
        index = self._limit
        cut = False
        if index is not None and args[index] > PYTHON_STATES:
            args, cut = (*args[:index], PYTHON_STATES, *args[index + 1 :]), True
        start = (
            time.thread_time()
        )  # CPU seconds: a loaded machine must not tip a kernel into compiling
        result = self._interpret(args)
        self._python_seconds += time.thread_time() - start
        return _PAST_CAP if cut and self._refused(result) else result

    def _interpret(self, args: tuple[Any, ...]) -> Any:
        # numpy's fixed-width scalars wrap around as machine integers do, but warn when they do
        with np.errstate(over="ignore"):
            return self.python(*args)

    @property
    def python(self) -> Callable[..., Any]:
        """The function as plain Python, calling the Python form of every kernel it calls."""
        if self._python is None:
            self._python = _twin(self)
        return self._python

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (importing numba and creating it on first use)."""
        if self._dispatcher is None:
            with _lock:
                if self._dispatcher is None:
                    self._dispatcher = _njit(
                        _inlining(self.py_func), inline=self.inline, nogil=self.nogil
                    )
        return self._dispatcher


@overload
def kernel(function: F) -> F: ...


@overload
def kernel(
    *,
    size: Callable[..., int] | None = None,
    limit: str | None = None,
    refused: Callable[[Any], bool] | None = None,
    inline: bool = False,
    nogil: bool = False,
) -> Callable[[F], F]: ...


def kernel(
    function: F | None = None,
    *,
    size: Callable[..., int] | None = None,
    limit: str | None = None,
    refused: Callable[[Any], bool] | None = None,
    inline: bool = False,
    nogil: bool = False,
) -> Any:
    """``function`` as a :class:`Kernel` (typed as the function it wraps). ``size(*args)`` measures
    a call's work for :data:`SMALL` (default: the elements of its array arguments), for kernels
    whose arrays are allocated larger than the part a call reads. ``limit`` names the argument
    that bounds the rest of its work (a state limit) and ``refused(result)`` tells a result that
    says the limit was reached; the Python form runs under at most :data:`PYTHON_STATES` of it.
    ``inline``: compiled into every kernel that calls it, for a small kernel called in a hot loop
    (the evaluation set's random draws: 9.0 -> 6.3 ms a set inlined). ``nogil``: the compiled
    form lets the GIL go while it runs, for a kernel long enough to stall the other threads of its
    process (an event loop's among them), as the 5-15 ms of an evaluation set did."""
    if function is None:
        return lambda f: Kernel(f, size, limit, refused, inline, nogil)
    return Kernel(function, size, limit, refused, inline, nogil)


@contextlib.contextmanager
def forced(mode: Mode) -> Iterator[None]:
    """Run every kernel in ``mode`` inside the block (``auto`` restores the normal policy)."""
    global _mode
    previous, _mode = _mode, mode
    try:
        yield
    finally:
        _mode = previous


@contextlib.contextmanager
def _compiling(k: Kernel[Any], *, wait: bool) -> Iterator[bool]:
    """Hold the machine-wide lock on compiling ``k`` into the current cache directory while the
    block runs; yields False, holding nothing, when another process holds it and ``wait`` is false.

    Why: the experiment runner's workers start together and need the same kernels; without the
    lock each compiles every kernel (the same seconds, once per worker), with it one compiles and
    the others load its result from the cache. Without ``fcntl`` (Windows) every process compiles.
    """
    try:
        import fcntl
    except ImportError:
        yield True
        return
    f = k.py_func
    key = f"{f.__code__.co_filename}:{f.__qualname__}:{os.environ.get('NUMBA_CACHE_DIR', '')}"
    path = (
        Path(tempfile.gettempdir())
        / f"regex-cegis-kernels-{os.getuid()}"
        / f"{hashlib.sha1(key.encode()).hexdigest()}.lock"
    )
    try:
        path.parent.mkdir(exist_ok=True)
        handle = path.open("a")
    except OSError:
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                yield False
                return
            from automata.jit import compile_time

            # waiting for another's compilation is not run time, and that one says it compiles
            with compile_time.compiling(announce=False):
                fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _elements(*args: Any) -> int:
    total = 0
    for arg in args:
        if isinstance(arg, np.ndarray):
            total += arg.size
        elif isinstance(arg, (tuple, list)):
            total += _elements(*arg)
    return total


_module_globals: dict[str, dict[str, Any]] = {}
_twins: dict[int, types.FunctionType] = {}


def _twin(k: Kernel[Any]) -> types.FunctionType:
    """``k``'s function rebuilt over a copy of its module's globals in which kernels are Python."""
    with _lock:
        return _twin_locked(k)


def _twin_locked(k: Kernel[Any]) -> types.FunctionType:
    found = _twins.get(id(k))
    if found is None:
        found = _over(k.py_func, _globals(k.py_func.__module__))
        _twins[id(k)] = found
    return found


def _globals(module: str) -> dict[str, Any]:
    found = _module_globals.get(module)
    if found is None:
        import sys

        found = dict(vars(sys.modules[module]))
        _module_globals[module] = (
            found  # before the kernels below: they may call back into this module
        )
        for name, value in list(found.items()):
            if isinstance(value, Kernel):
                found[name] = _twin_locked(value)
    return found


def _inlining(function: F) -> F:
    """``function``, or its copy over globals in which each kernel it may inline is numba's
    dispatcher: numba inlines only a call to a dispatcher it can see."""
    inlined = {
        name: value.dispatcher
        for name, value in function.__globals__.items()
        if isinstance(value, Kernel) and value.inline and name in function.__code__.co_names
    }
    if not inlined:
        return function
    return cast(
        F, functools.update_wrapper(_over(function, {**function.__globals__, **inlined}), function)
    )


def _over(function: Callable[..., Any], names: dict[str, Any]) -> types.FunctionType:
    """``function``'s code as a function of its own over the globals ``names``."""
    return types.FunctionType(
        function.__code__, names, function.__name__, function.__defaults__, function.__closure__
    )


def _njit(function: Callable[..., Any], *, inline: bool = False, nogil: bool = False) -> Any:
    """``numba.njit(cache=True)``, or ``numba.njit`` with one warning when no cache directory is
    usable; ``inline``: inlined where kernels call it; ``nogil``: run without the GIL."""
    import numba

    _register_with_numba()
    njit: Any = numba.njit  # its stubs leave out ``no_cfunc_wrapper``
    options = {
        **_OPTIONS,
        **({"inline": "always"} if inline else {}),
        **({"nogil": True} if nogil else {}),
    }
    try:
        return njit(cache=True, **options)(function)
    except RuntimeError as error:
        if _NO_LOCATOR not in str(error):
            raise
        _warn_uncached()
        return njit(**options)(function)


@functools.cache
def _register_with_numba() -> None:
    """Teach numba that a :class:`Kernel` in a kernel's globals means its dispatcher, and start
    accounting compile time.

    A kernel calling a kernel passes its arguments as they are typed where it calls: numba would
    compile one specialization of the callee per constant (``Literal[int](3)``) and per integer
    width (an index read from an int32 array, a counter in int64), seven of ``log_change`` for one
    learner. The callee is typed with plain int64 scalars instead (numba casts at the call), so it
    compiles once per array signature; the values are the same, so the results are too.
    """
    from numba.core import datamodel, extending
    from numba.core import types as typing_module
    from numba.extending import typeof_impl

    numba_types: Any = typing_module  # numba's own annotations are partial

    from automata.jit import compile_time

    def widened(argument: Any) -> Any:
        argument = numba_types.unliteral(argument)
        if isinstance(argument, numba_types.Integer) and argument.signed and argument.bitwidth < 64:
            return numba_types.int64
        return argument

    class KernelType(numba_types.Dispatcher):  # type: ignore[misc]
        def get_call_type(self, context: Any, args: Any, kws: Any) -> Any:
            return super().get_call_type(
                context, tuple(map(widened, args)), {k: widened(v) for k, v in kws.items()}
            )

    getattr(extending, "_overload_default_jit_options", {}).update(
        _OPTIONS
    )  # private: absent, nothing changes
    registry: Any = datamodel
    registry.register_default(KernelType)(registry.models.OpaqueModel)

    @typeof_impl.register(Kernel)
    def _typeof_kernel(value: Kernel[Any], context: object) -> Any:
        return KernelType(value.dispatcher)

    compile_time.install()


@functools.cache
def _warn_uncached() -> None:
    """Warn once per process: the first kernel that cannot be cached speaks for all of them."""
    warnings.warn(
        "numba cannot cache compiled kernels here (no writable cache directory); compiling in memory "
        "on every run instead. Set NUMBA_CACHE_DIR to a writable directory to keep the cache.",
        RuntimeWarning,
        stacklevel=4,
    )
