"""Every exception class the packages define survives pickling whole: the runner's worker processes
send a unit's exception back to the runner, and one that cannot be rebuilt there (its ``__init__``
needs more than its ``args``) broke the whole pool (issue 50, item 5). Each class is built from
its constructor's annotations and must come back with its type, message, ``args`` and fields."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path
from typing import Any

import pytest

from cegis.learner import ProposalFailure

PACKAGES = ("regexlang", "automata", "oracle", "llm", "cegis", "experiments", "cli")
#: Optional extras a module may need (the real-model server, GEPA, ray): such a module is left out.
OPTIONAL = {"ray", "gepa", "llama_cpp", "uvicorn", "fastapi", "sse_starlette", "grex"}
#: A value for each annotation a constructor of ours takes.
SAMPLES: dict[str, Any] = {
    "str": "a message",
    "int": 7,
    "float": 2.5,
    "Path": Path("some/file.json"),
    "tuple[str, ...]": ("model-a", "model-b"),
    "dict[tuple[int, int], int]": {(2, 1): 3},
    "OSError": OSError(28, "No space left on device"),
    "BaseException": ValueError("inner"),
    "ProposalFailure": ProposalFailure("syntax_error", "unbalanced parenthesis"),
}


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            names.append(info.name)
    return names


def _exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if (error.name or "").partition(".")[0] in OPTIONAL:
                continue
            raise
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__.partition(".")[0] in PACKAGES
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[key] for key in sorted(found)]


CLASSES = _exception_classes()


def _instance(cls: type[BaseException]) -> BaseException:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if parameters and parameters[0].kind is inspect.Parameter.VAR_POSITIONAL:
        return cls("a message")
    values = [
        SAMPLES[str(p.annotation)] for p in parameters if p.default is inspect.Parameter.empty
    ]
    return cls(*values)


def test_the_walk_finds_the_exceptions_of_every_layer() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {
        "RegexSyntaxError",
        "StateLimitExceeded",
        "ContradictoryTeacher",
        "ReplayMiss",
        "CallLogError",
        "ModelDiscoveryError",
        "MalformedDataset",
        "LabelConflict",
        "BadInput",
    } <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_an_exception_survives_pickling_whole(cls: type[BaseException]) -> None:
    error = _instance(cls)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is cls
    assert str(again) == str(error) and again.args == error.args
    assert _fields(again) == _fields(error)


def _fields(error: BaseException) -> dict[str, Any]:
    return {key: str(value) for key, value in vars(error).items()}


def test_each_layer_has_one_errors_module_with_a_base_class() -> None:
    from cegis.errors import CegisError
    from oracle.errors import OracleError

    cegis_errors = [c for c in CLASSES if c.__module__.startswith("cegis.")]
    oracle_errors = [c for c in CLASSES if c.__module__.startswith("oracle.")]
    public = [c for c in cegis_errors + oracle_errors if not c.__name__.startswith("_")]
    assert all(c.__module__ in {"cegis.errors", "oracle.errors"} for c in public), public
    assert all(issubclass(c, CegisError) for c in public if c.__module__ == "cegis.errors")
    assert all(issubclass(c, OracleError) for c in public if c.__module__ == "oracle.errors")
