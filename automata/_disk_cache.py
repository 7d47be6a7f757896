"""Whether numba holds a kernel's machine code on disk, answered without importing numba.

Why: :mod:`automata.jit._jit` runs a kernel as plain Python until compiling pays, because compiling
costs seconds; but once the machine code is cached (after ``python -m cli warmup`` or any earlier
run that compiled it) loading it costs milliseconds, and the interpreter is then only ever the slower
way. So a kernel whose cache entry is on disk and fresh goes compiled from its first call.

How: numba keeps, per kernel, an index file ``<module>.<qualname>-<first line>.py<XY><abiflags>.nbi``
beside the machine code. It opens with numba's version, pickled as a string, then the pickled pair
(source stamp, overloads), where the stamp is the SHA-256 digest of the kernel's source file (numba
0.61 and later; numba drops an index whose version or stamp differ). The overloads cannot be
unpickled without importing numba, so the digest is looked for in the raw bytes instead (a 32-byte
digest does not occur by chance). The directories are numba's locators', in its order: a
subdirectory of ``$NUMBA_CACHE_DIR`` when set, ``__pycache__`` beside the source, then the per-user
cache (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``, as numba's appdirs has it on Linux). With
custom locators (``NUMBA_CACHE_LOCATOR_CLASSES``) or anything unreadable the answer is "not known
to be cached", which only costs speed: the kernel then follows the interpreter-first rule.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def cached(function: Callable[..., Any]) -> bool:
    """Whether a fresh numba cache index for ``function`` (a kernel's Python function) is on disk."""
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return False
    try:
        source = Path(function.__code__.co_filename)
        digest = _digest(source, source.stat().st_mtime_ns)
        version = _numba_version()
    except (OSError, importlib.metadata.PackageNotFoundError):
        return False
    name = _index_name(function, source)
    for directory in _directories(source):
        index = directory / name
        try:
            with index.open("rb") as handle:
                recorded = pickle.load(handle)  # a str: numba's version, written first on its own
                rest = handle.read()
        except FileNotFoundError:
            continue
        except (OSError, pickle.UnpicklingError, EOFError, ValueError):
            return False
        return recorded == version and digest in rest
    return False


def _index_name(function: Callable[..., Any], source: Path) -> str:
    qualname = function.__qualname__.replace("<", "").replace(">", "")
    version = f"{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return f"{source.stem}.{qualname}-{function.__code__.co_firstlineno}.py{version}.nbi"


def _directories(source: Path) -> Iterator[Path]:
    """numba's candidate cache directories for ``source``, in the order its locators try them."""
    folder = os.path.abspath(source.parent)
    subpath = "_".join([os.path.basename(folder), hashlib.sha1(folder.encode()).hexdigest()])
    if os.environ.get("NUMBA_CACHE_DIR"):
        yield Path(os.environ["NUMBA_CACHE_DIR"]) / subpath
    yield Path(folder) / "__pycache__"
    if sys.platform.startswith("linux"):
        yield (
            Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"))
            / "numba"
            / subpath
        )


@functools.cache
def _digest(source: Path, modified_ns: int) -> bytes:
    """The SHA-256 digest of a source file (per modification time: an edited file is read again)."""
    return hashlib.sha256(source.read_bytes()).digest()


@functools.cache
def _numba_version() -> str:
    return importlib.metadata.version("numba")
