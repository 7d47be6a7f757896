"""Process-wide memory stays small and read-only: few module-level caches, none in the merging
learner, and none that hands out a value a caller could write into (the next caller would read
the write). Memory that grows with a run's data travels as a value the run owns instead
(:class:`automata.printing.to_regex.Joins`, the merging learner's ``RunCache``)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from automata.building import determinize
from automata.core import alphabet as alphabets
from automata.strings import sampling
from regexlang.charset import CharSet

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("regexlang", "automata", "oracle", "llm", "cegis", "experiments", "cli")
MOST = 30
#: Container types a cached function must not return (they can be written into).
MUTABLE = ("list", "dict", "set", "bytearray", "List", "Dict", "Set", "MutableMapping")


def _cache_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("lru_cache", "cache")


def _cached_functions() -> list[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    map(_cache_decorator, node.decorator_list)
                ):
                    found.append((path.relative_to(ROOT), node))
    return found


def test_the_package_keeps_at_most_thirty_caches_and_none_in_merging() -> None:
    cached = _cached_functions()
    listing = "\n".join(f"{path}:{node.lineno} {node.name}" for path, node in cached)
    assert len(cached) <= MOST, listing
    assert not [p for p, _ in cached if p.parts[:3] == ("cegis", "symbolic", "merging")], listing


def test_no_cached_function_is_declared_to_return_a_writable_container() -> None:
    writable = []
    for path, node in _cached_functions():
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        names = {n.id for n in ast.walk(ast.parse(returns or "None")) if isinstance(n, ast.Name)}
        if names & set(MUTABLE):
            writable.append(f"{path}:{node.lineno} {node.name} -> {returns}")
    assert not writable


def _refuses_writes(array: np.ndarray) -> None:
    with pytest.raises(ValueError, match="read-only"):
        array[(0,) * array.ndim] = 1


def test_cached_arrays_and_mappings_refuse_writes() -> None:
    universe = CharSet.of("abc")
    a = alphabets.partition(universe, [CharSet.of("a")])
    b = alphabets.partition(universe, [CharSet.of("b")])
    _refuses_writes(alphabets.identity_map(3))
    _refined, maps = alphabets.common_refinement([a, b])
    for column_map in maps:
        _refuses_writes(column_map)
    _, members = alphabets.partition_with_members(universe, [CharSet.of("a")])
    with pytest.raises(TypeError):
        members[CharSet.of("b")] = (0,)  # type: ignore[index]
    _refuses_writes(determinize._verdicts())
    table, _free = sampling._edges(a, "representatives")
    _refuses_writes(table)
