"""A package's exports imported on first use (PEP 562), so that importing one light module of a
package (``llm.chat``, ``cegis.llm.settings``) does not import its heavy ones (``aiohttp`` through
the client): a command that never talks to a model starts without them."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` whose exported names live in the modules
    ``where`` maps them to; a name is imported when first read, then kept on the package."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
