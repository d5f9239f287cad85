"""Resolve a ``"module:Class"`` entry of an explicit registry, importing the module only when used."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TypeVar

from anonymed.errors import ConfigError

T = TypeVar("T")


def resolve(registry: Mapping[str, str], name: str, base: type[T], kind: str) -> type[T]:
    """The class registered under ``name``, checked to subclass ``base``."""
    try:
        target = registry[name]
    except KeyError:
        raise ConfigError(f"unknown {kind} {name!r}; known: {sorted(registry)}") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise ConfigError(f"{kind} {name!r} does not name a {base.__name__} subclass")
    return cls
