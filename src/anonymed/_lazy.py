"""Registries of components by name: the built-in ones (``"module:Class"``, imported only when used), those
registered in code, and those other packages declare as entry points.

A package adds a detector or an operator without editing anonymed by declaring an entry point in its own
metadata (``pyproject.toml``)::

    [project.entry-points."anonymed.detectors"]
    mrn_site = "my_package.detectors:SiteMrnDetector"

Entry points are read when a name is not found among the built-in and registered ones (so a package
installed after the first look-up is still found); a built-in name always wins over a plug-in's.
``Registry.register`` adds a class from code, in this process only (spawned worker processes read entry
points, not code registrations).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from anonymed.errors import ConfigError

T = TypeVar("T")


def _import(target: str) -> object:
    module_name, _, attribute = target.partition(":")
    value: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


class Registry(Mapping[str, str], Generic[T]):
    """Components of one kind by name -> ``"module:Class"``; ``resolve`` imports and checks the class."""

    def __init__(self, kind: str, base: type[T], builtin: Mapping[str, str], group: str) -> None:
        self.kind = kind
        self.base = base
        self.group = group
        self._builtin = dict(builtin)
        self._registered: dict[str, type[T]] = {}
        self._plugins: dict[str, str] | None = None

    def plugins(self, *, refresh: bool = False) -> dict[str, str]:
        """The group's entry points: name -> ``"module:attribute"`` (read once, or again on ``refresh``)."""
        if self._plugins is None or refresh:
            found = {ep.name: ep.value for ep in entry_points(group=self.group)}
            self._plugins = {name: value for name, value in found.items() if name not in self._builtin}
        return self._plugins

    def _target(self, name: str) -> str | None:
        if name in self._builtin:
            return self._builtin[name]
        if name in self._registered:
            cls = self._registered[name]
            return f"{cls.__module__}:{cls.__qualname__}"
        plugins = self.plugins()
        if name not in plugins:
            plugins = self.plugins(refresh=True)
        return plugins.get(name)

    def __getitem__(self, name: str) -> str:
        target = self._target(name)
        if target is None:
            raise KeyError(name)
        return target

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._target(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter({**self._builtin, **self._registered, **self.plugins()})

    def __len__(self) -> int:
        return len({**self._builtin, **self._registered, **self.plugins()})

    def source(self, name: str) -> str:
        """Where ``name`` comes from: ``builtin``, ``registered`` or ``entry point``."""
        if name in self._builtin:
            return "builtin"
        return "registered" if name in self._registered else "entry point"

    def register(self, name: str, cls: type[T], *, replace: bool = False) -> None:
        """Add ``cls`` as ``name`` in this process; a taken name needs ``replace=True`` (built-ins never)."""
        if not (isinstance(cls, type) and issubclass(cls, self.base)):
            raise ConfigError(f"{self.kind} {name!r}: {cls!r} is not a {self.base.__name__} subclass")
        if name in self._builtin or (name in self and not replace):
            raise ConfigError(f"{self.kind} name {name!r} is already taken ({self.source(name)})")
        self._registered[name] = cls

    def unregister(self, name: str) -> None:
        """Remove a class registered in code (no effect on built-ins and entry points)."""
        self._registered.pop(name, None)

    def resolve(self, name: str) -> type[T]:
        """The class registered under ``name``, checked to subclass the registry's base."""
        if name in self._registered:
            return self._registered[name]
        target = self._target(name)
        if target is None:
            raise ConfigError(f"unknown {self.kind} {name!r}; known: {sorted(self)}")
        try:
            cls = _import(target)
        except (ImportError, AttributeError) as exc:
            where = f"{self.kind} {name!r} ({self.source(name)} {target!r})"
            raise ConfigError(f"{where} cannot be loaded: {type(exc).__name__}") from None
        if not (isinstance(cls, type) and issubclass(cls, self.base)):
            raise ConfigError(f"{self.kind} {name!r} does not name a {self.base.__name__} subclass")
        return cls
