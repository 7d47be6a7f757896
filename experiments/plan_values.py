"""How an experiment file's values are read: a ``cattrs`` converter that takes each TOML value as
it is written, the attrs validators that bound them, and the one-line :class:`PlanError` they give.

TOML has types, so a plan's values are taken as written, never coerced: ``batch = "3"`` is
refused where cattrs's default hooks would read 3, ``true`` is no integer, a string holds no NUL,
a choice (``kind``, ``protocol``, ``mode``...) is one of its ``Literal``'s values. The converter's
hooks check strings, booleans, paths and choices; numbers and lists reach the validators on the
plan's classes (:mod:`experiments.plan`) as written, so that one message states the type and the
range together (every integer, number and list field has such a validator, and they hold for a
plan built in code too). Unknown fields are refused (``forbid_extra_keys``), and every failure
reads ``[[arms]] #2: batch must be an integer 1..100000, not 0``: the table, the field, why, and
the value, in one line (:func:`structure`).
"""

from __future__ import annotations

import math
import re
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeGuard, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override

from experiments.quoting import shortened

T = TypeVar("T")
Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


class PlanError(ValueError):
    """An experiment file that cannot be run, with the file and the field at fault."""


class _Unreadable(ValueError):
    """A value of the wrong type; the message says what it must be (the field is added later)."""


#: The environment variables a plan may send to a server as its key (see ``ServerSpec``).
API_KEY_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*_API_KEY")
MAX_NAME = 100
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")
PRICE_FIELDS = ("prompt", "cached_prompt", "completion")


def safe_name(value: object, field: str) -> str:
    """``value`` if it is a name safe as one path component: letters, digits, ``. _ + -``, not
    starting with a dot, at most 100 characters; raises :class:`PlanError` naming ``field``."""
    if (
        not isinstance(value, str)
        or not value
        or len(value) > MAX_NAME
        or value.startswith(".")
        or not set(value) <= _NAME_CHARACTERS
    ):
        raise PlanError(
            f"{field} must be 1 to {MAX_NAME} letters, digits, '.', '_', '+' or '-' not starting"
            f" with '.' (it names a directory), not {written(value)}"
        )
    return value


def path_name(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: ``value`` names one directory (:func:`safe_name`)."""
    safe_name(value, attribute.name)


def count(*, low: int = 1, high: int | None = None) -> Validator:
    """Validator: an integer in ``low..high`` (or None, an optional field left out)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None and not _integer(value, low, high):
            span = f"{low}..{high}" if high is not None else f"at least {low}"
            raise PlanError(f"{attribute.name} must be an integer {span}, not {written(value)}")

    return check


def _integer(value: object, low: int, high: int | None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value
        and (high is None or value <= high)
    )


def integers(values: object, low: int, high: int) -> TypeGuard[tuple[int, ...]]:
    """Whether ``values`` is a tuple of integers in ``low..high``."""
    return isinstance(values, tuple) and all(_integer(value, low, high) for value in values)


def as_float(value: object) -> object:
    """Converter: an integer number of seconds as a float; anything else as written."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def seconds(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: a number of seconds in (0, 86400]."""
    if not isinstance(value, float) or not 0 < value <= 86_400:
        raise PlanError(
            f"{attribute.name} must be a number of seconds in (0, 86400], not {written(value)}"
        )


def distinct_depths(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: distinct StarDepths 0..100 (or None)."""
    if value is not None and (not integers(value, 0, 100) or len(set(value)) != len(value)):
        raise PlanError(
            f"{attribute.name} must be a list of distinct integers 0..100, not {written(value)}"
        )


def some_names(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: a non-empty list of names (or None)."""
    if value is not None and (
        not isinstance(value, tuple) or not value or not all(isinstance(v, str) for v in value)
    ):
        raise PlanError(
            f"{attribute.name} must be a non-empty list of dataset names, not {written(value)}"
        )


def written(value: object) -> str:
    """``value`` as the file wrote it (a list, not the tuple it became), cut to an excerpt when
    long: a value may be kilobytes on one line."""
    return shortened(repr(list(value) if isinstance(value, tuple) else value))


def key_variable(instance: object, attribute: attrs.Attribute[Any], value: str | None) -> None:
    """Validator: None or the name of a variable a key may be read from (``*_API_KEY``)."""
    if value is not None and not API_KEY_VARIABLE.fullmatch(value):
        raise PlanError(
            f"{attribute.name} must name a variable ending in _API_KEY (its value is sent to the"
            f" server as the bearer token, so no other variable may be named), not {written(value)}"
        )


def price(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: None or ``prompt``, ``cached_prompt``, ``completion`` at finite rates >= 0."""
    if value is None:
        return
    assert isinstance(value, Mapping)
    unknown = sorted(set(value) - set(PRICE_FIELDS))
    if unknown:
        known = ", ".join(sorted(PRICE_FIELDS))
        raise PlanError(f"[price] has unknown field(s) {', '.join(unknown)}; known: {known}")
    for key, rate in value.items():
        if (
            isinstance(rate, bool)
            or not isinstance(rate, int | float)
            or not 0 <= rate < math.inf  # nan fails both comparisons
        ):
            raise PlanError(
                f"[price] {key} must be a finite number >= 0 (USD per million tokens), got {rate!r}"
            )


def _truth(value: object, _: type[Any]) -> bool:
    if not isinstance(value, bool):
        raise _Unreadable(f"must be true or false, not {written(value)}")
    return value


def _text(value: object, _: type[Any]) -> str:
    if not isinstance(value, str) or "\0" in value:
        raise _Unreadable(f"must be a string without NUL characters, not {written(value)}")
    return value


def _as_written(value: object, _: type[Any]) -> object:
    return value


def _path(value: object, _: type[Any]) -> Path:
    return Path(_text(value, str)).expanduser()


def _is_literal(kind: Any) -> bool:
    return get_origin(kind) is typing.Literal


def _one_of(kind: Any) -> Callable[[object, type[Any]], Any]:
    choices = get_args(kind)

    def structure(value: object, _: type[Any]) -> Any:
        if not isinstance(value, str) or value not in choices:
            raise _Unreadable(f"must be one of {', '.join(choices)}, not {written(value)}")
        return value

    return structure


def _is_sequence(kind: Any) -> bool:
    return get_origin(kind) is tuple and get_args(kind)[1:] == (Ellipsis,)


def _listing(kind: Any) -> Callable[[object, type[Any]], object]:
    def structure(value: object, _: type[Any]) -> object:
        """A list as the tuple of its items as written (the field's validator checks them)."""
        return tuple(value) if isinstance(value, list) else value

    return structure


def _table(value: object, _: type[Any]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise PlanError(
            "price must be a table: [price] prompt = ..., cached_prompt = ..., completion = ..."
            " (USD per million tokens)"
        )
    return {str(key): as_float(rate) for key, rate in value.items()}


def _converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    converter.register_structure_hook(int, _as_written)
    converter.register_structure_hook(float, _as_written)
    converter.register_structure_hook(bool, _truth)
    converter.register_structure_hook(str, _text)
    converter.register_structure_hook(Path, _path)
    converter.register_structure_hook_func(lambda kind: kind == Mapping[str, float], _table)
    converter.register_structure_hook_factory(_is_literal, _one_of)
    converter.register_structure_hook_factory(_is_sequence, _listing)
    return converter


#: The converter of experiment files (see the module doc).
CONVERTER = _converter()


def named_by_validator(*classes: type[Any]) -> None:
    """Leave the ``name`` of each of ``classes`` to its validator (:func:`path_name`), whose
    message says what a name may hold, rather than to the string hook's."""
    for kind in classes:
        CONVERTER.register_structure_hook(
            kind, make_dict_structure_fn(kind, CONVERTER, name=override(struct_hook=_as_written))
        )


def structure(table: Mapping[str, Any], kind: type[T], where: str) -> T:
    """``table`` as a ``kind``; raises :class:`PlanError` that starts with ``where`` (the table,
    e.g. ``[[arms]] #2``) and names the field, why it is refused and its value. An error of one
    of the class's own converters reaches the caller as it was raised."""
    try:
        return CONVERTER.structure(dict(table), kind)
    except PlanError as error:
        raise PlanError(_at(where, str(error))) from None
    except ClassValidationError as error:
        _, other = error.group_exceptions()
        for cause in other:
            if not isinstance(cause, PlanError | ForbiddenExtraKeysError):
                raise cause from None
        raise PlanError(_problems(error, kind, where)) from None


def _at(where: str, problem: str) -> str:
    return f"{where}: {problem}" if where else problem


def _problems(error: ClassValidationError, kind: type[Any], where: str) -> str:
    """What ``error`` found, in one line: the unknown fields if any, else the first refusal."""
    noted, other = error.group_exceptions()
    for cause in other:
        if isinstance(cause, ForbiddenExtraKeysError):
            known = ", ".join(sorted(field.name for field in attrs.fields(kind)))
            unknown = shortened(", ".join(sorted(cause.extra_fields)))
            return f"{where or 'the experiment'} has unknown field(s) {unknown}; known: {known}"
    problems = [str(cause) for cause in other if isinstance(cause, PlanError)]
    for cause, note in noted:
        if isinstance(cause, KeyError):
            problems.append(f"{note.name} is required")
        elif isinstance(cause, PlanError):
            problems.append(str(cause))
        else:
            problems.append(f"{note.name} {cause}")
    return _at(where, problems[0] if problems else str(error))
