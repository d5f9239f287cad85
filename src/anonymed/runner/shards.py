"""The runner's view of an input: how a worker opens it (``ReaderSpec``) and its plan of shards.

The reader plans and reads its own shards (``Reader.plan_shards`` / ``Reader.read_shard``, see
``io/shards.py``); the plan adds a fingerprint of the input (path, format, options, size and modification
time) and of the boundaries, so that a changed input or shard size never reuses finished shards.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymed.errors import ConfigError
from anonymed.io.base import Reader
from anonymed.io.registry import check_input, guess_format, open_reader
from anonymed.io.shards import Shard


@dataclass(frozen=True)
class ReaderSpec:
    """How a worker opens the input: path, format and reader options (picklable, unlike some readers)."""

    path: Path
    fmt: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, path: str | Path, fmt: str | None = None, **options: Any) -> ReaderSpec:
        """A spec with an absolute path (workers may run elsewhere) and the format guessed if not given."""
        path = Path(path).absolute()
        check_input(path)
        return cls(path, fmt or guess_format(path), dict(options))

    def open(self) -> Reader:
        """A fresh reader of the input."""
        return open_reader(self.path, self.fmt, **self.options)


@dataclass(frozen=True)
class Plan:
    """The shards of one input, in input order, and a fingerprint of the input and the boundaries."""

    shards: tuple[Shard, ...]
    fingerprint: str

    @property
    def documents(self) -> int:
        """The number of records of the input (good and failed)."""
        return sum(shard.count for shard in self.shards)


def _input_stat(path: Path) -> list[int]:
    """Size and modification time of an input file (a changed input invalidates finished shards)."""
    try:
        stat = path.stat()
    except OSError:
        return []
    return [stat.st_size, stat.st_mtime_ns] if path.is_file() else []


def plan_shards(spec: ReaderSpec, shard_size: int) -> Plan:
    """Split ``spec``'s input into shards of ``shard_size`` records, as its reader cuts them."""
    if shard_size < 1:
        raise ConfigError(f"shard size must be at least 1, got {shard_size}")
    reader = spec.open()
    shards = tuple(reader.plan_shards(shard_size))
    identity = [str(spec.path.resolve()), spec.fmt, sorted(spec.options.items()), _input_stat(reader.source)]
    text = json.dumps([identity, shard_size, [s.describe() for s in shards]], default=str)
    return Plan(shards, hashlib.blake2b(text.encode(), digest_size=16).hexdigest())
