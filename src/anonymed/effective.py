"""The effective configuration: layers laid over each other, each value remembering where it came from.

A configuration is data shaped like its TOML file: tables (``[pipeline]``, ``[operators]``,
``[operator_params.fake]``...) of keys. A *layer* is such a document from one source; ``merge`` lays the
layers in the order of ``SOURCES`` (built-in defaults < profile < configuration file < command-line
options < a service request's fields), key by key: a later layer's value replaces an earlier one's, except
under ``ADDITIVE`` keys (the allow and deny lists), whose files add up. The result (``Effective``) holds
the values and, for each key, the source it came from; it prints as TOML (``anonymed config show``, the
user's own view: every value, the seed too, so that it reads back as a configuration file) and as JSON
(what run summaries and manifests record: secret values, ``SECRET_KEYS``, only as where they came from).
docs/configuration.md documents the rule and every key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import tomli_w

from anonymed.errors import ConfigError
from anonymed.tomlfile import read_toml

#: where a value can come from, lowest precedence first
SOURCES: Final = ("default", "profile", "file", "option", "request")
#: a key's place in the document: ("pipeline", "lang"), ("operator_params", "fake", "locale")...
Key = tuple[str, ...]
#: keys naming files: a configuration file's are relative to its folder, an option's to the working folder
PATH_KEYS: Final = frozenset(
    {
        ("known", "side_file"),
        ("known", "clinicians"),
        ("known", "places"),
        ("lists", "allow"),
        ("lists", "deny"),
        ("hybrid", "bank"),
        ("hybrid", "space"),
        ("words", "space"),
        ("sentences", "bank"),
    }
)
#: keys whose values add up across layers (lists of files) instead of being replaced
ADDITIVE: Final = frozenset({("lists", "allow"), ("lists", "deny")})
#: keys whose values are secrets (the seed: anyone who knows it can replay, and so undo, a run's random
#: choices): JSON records them only as their source, under ``secrets`` (``Effective.to_json``)
SECRET_KEYS: Final = frozenset({("pipeline", "seed")})
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Layer:
    """One source's configuration document."""

    source: str
    data: Mapping[str, Any]

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ConfigError(f"unknown configuration source {self.source!r}; known: {list(SOURCES)}")


def plain(value: Any) -> Any:
    """``value`` as TOML data: tuples as lists, paths as strings, mapping keys as strings."""
    if isinstance(value, Mapping):
        return {str(getattr(k, "value", k)): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset):
        return [plain(item) for item in value]
    if isinstance(value, Path):
        return str(value)
    return value


def absolute_paths(data: Mapping[str, Any], base: Path) -> dict[str, Any]:
    """A copy of ``data`` whose file names (``PATH_KEYS``) are absolute, read relative to ``base``."""
    copy = {name: dict(table) if isinstance(table, Mapping) else table for name, table in data.items()}
    for table, key in PATH_KEYS:
        section = copy.get(table)
        if not isinstance(section, dict) or key not in section:
            continue
        value = section[key]
        where = f"[{table}] {key}"
        if isinstance(value, str | Path):
            path = os.path.abspath(base / value)
            section[key] = [path] if (table, key) in ADDITIVE else path
        elif isinstance(value, list) and all(isinstance(item, str | Path) for item in value):
            section[key] = [os.path.abspath(base / item) for item in value]
        else:
            kind = "a file name or a list of file names" if (table, key) in ADDITIVE else "a file name"
            raise ConfigError(f"{where} must be {kind}")
    return copy


def file_layer(path: Path) -> Layer:
    """The configuration file at ``path`` as a layer (its file names absolute, read from its folder)."""
    return Layer("file", absolute_paths(read_toml(path), Path(path).parent))


def _leaves(data: Mapping[str, Any], prefix: Key = ()) -> list[tuple[Key, Any]]:
    found: list[tuple[Key, Any]] = []
    for name, value in data.items():
        key = (*prefix, str(getattr(name, "value", name)))
        if isinstance(value, Mapping):
            found.extend(_leaves(value, key))
        else:
            found.append((key, plain(value)))
    return found


@dataclass(frozen=True)
class Effective:
    """Configuration values after every layer, and the source of each (``sources[key]``)."""

    values: Mapping[str, Any]
    sources: Mapping[Key, str]

    def get(self, *key: str, default: Any = None) -> Any:
        """The value at ``key`` (``get("pipeline", "lang")``), or ``default``."""
        node: Any = self.values
        for part in key:
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node

    def source(self, *key: str) -> str | None:
        """Where the value at ``key`` came from (None: not set anywhere)."""
        return self.sources.get(key)

    def only(self, selected: Sequence[str]) -> Effective:
        """The same configuration restricted to some tables or keys (``"words"``, ``"pipeline.seed"``)."""
        wanted = [tuple(item.split(".")) for item in selected]
        sources = {key: src for key, src in self.sources.items() if any(key[: len(w)] == w for w in wanted)}
        values: dict[str, Any] = {}
        for key in sources:
            node = values
            for part in key[:-1]:
                node = node.setdefault(part, {})
            node[key[-1]] = self.get(*key)
        return Effective(_frozen(values), MappingProxyType(sources))

    def to_json(self) -> dict[str, Any]:
        """``{"values": the document, "sources": {"pipeline.lang": "default", ...}}`` as written into files
        and responses: a secret (``SECRET_KEYS``) set by any source is left out of both and recorded as
        ``"secrets": {"seed": {"source": "option"}}``, never its value (``to_toml`` keeps it)."""
        values = plain(self.values)
        sources = {".".join(key): source for key, source in sorted(self.sources.items())}
        secrets: dict[str, Any] = {}
        for key in sorted(SECRET_KEYS):
            source = sources.pop(".".join(key), None)
            table = values
            for part in key[:-1]:
                table = table.get(part) if isinstance(table, dict) else None
            if isinstance(table, dict):
                table.pop(key[-1], None)
            if source is not None:
                secrets[key[-1]] = {"source": source}
        return {"values": values, "sources": sources, **({"secrets": secrets} if secrets else {})}

    def to_toml(self, *, comments: bool = True) -> str:
        """The values as a TOML document, each key followed by a comment naming its source."""
        lines: list[str] = []
        for table, header in _tables(self.values):
            if lines:
                lines.append("")
            lines.append(f"[{'.'.join(_toml_key(part) for part in header)}]")
            for name, value in table.items():
                text = f"{_toml_key(name)} = {_inline(value)}"
                source = self.sources.get((*header, name))
                lines.append(f"{text}  # {source}" if comments and source else text)
        return "\n".join(lines) + "\n"


def _tables(data: Mapping[str, Any], prefix: Key = ()) -> list[tuple[dict[str, Any], Key]]:
    """Each (sub-)table holding values, with its header, in document order (sub-tables after)."""
    scalars = {k: v for k, v in data.items() if not isinstance(v, Mapping)}
    found = [(scalars, prefix)] if scalars and prefix else []
    for name, value in data.items():
        if isinstance(value, Mapping):
            found.extend(_tables(value, (*prefix, name)))
    return found


def _inline(value: Any) -> str:
    """A TOML value on one line: arrays and inline tables written out, scalars by tomli-w."""
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    return tomli_w.dumps({"v": plain(value)})[len("v = ") :].rstrip("\n")


def _toml_key(name: str) -> str:
    return name if _BARE_KEY.match(name) else tomli_w.dumps({name: 0}).split(" = ")[0]


def merge(layers: Sequence[Layer]) -> Effective:
    """Lay ``layers`` over each other in order (module docstring); the source of each value is kept."""
    values: dict[str, Any] = {}
    sources: dict[Key, str] = {}
    for layer in layers:
        for key, value in _leaves(layer.data):
            node = values
            for part in key[:-1]:
                child = node.get(part)
                if not isinstance(child, dict):
                    child = node[part] = {}
                node = child
            if key in ADDITIVE and isinstance(node.get(key[-1]), list):
                added = value if isinstance(value, list) else [value]
                value = [*node[key[-1]], *(item for item in added if item not in node[key[-1]])]
            node[key[-1]] = value
            sources[key] = layer.source
    return Effective(_frozen(values), MappingProxyType(sources))


def _frozen(data: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType({k: _frozen(v) if isinstance(v, dict) else v for k, v in data.items()})
