"""Configuration data: the check of typed parameter records against their types (TOML: ``tomlfile``).

Parameters come from TOML files and JSON requests, where nothing stops ``max_tries = "3"`` or
``locales = 0``; a dataclass does not check them, so without this a wrong type fails later, deep inside
an operator, as a ``TypeError``. Messages name the field and the expected and given types, never values.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from anonymed.errors import ConfigError

_SEQUENCES = (tuple, list)
_SETS = (frozenset, set, tuple, list)


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits the type ``hint`` (only the shapes parameter records use are checked)."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if origin is tuple or origin is list:
        items = args[:1] if origin is list or (len(args) == 2 and args[1] is Ellipsis) else ()
        return isinstance(value, _SEQUENCES) and all(_fits(item, items[0]) for item in value if items)
    if origin in (frozenset, set):
        return isinstance(value, _SETS) and all(_fits(item, args[0]) for item in value if args)
    if origin in (dict, Mapping, typing.Mapping):
        key, val = args if len(args) == 2 else (Any, Any)
        return isinstance(value, Mapping) and all(_fits(k, key) and _fits(v, val) for k, v in value.items())
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def check_types(params: Any, owner: str) -> None:
    """Raise ``ConfigError`` naming the first field of dataclass ``params`` whose value has a wrong type."""
    if not dataclasses.is_dataclass(params):
        return
    try:
        hints = typing.get_type_hints(type(params))
    except (NameError, TypeError):  # an annotation that cannot be resolved is not checked
        return
    for item in dataclasses.fields(params):
        hint = hints.get(item.name, Any)
        value = getattr(params, item.name)
        if not _fits(value, hint):
            expected = getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
            raise ConfigError(
                f"{owner}: parameter {item.name!r} must be {expected}, got a {_type_name(value)}"
            )
