"""Shards: pieces of an input that a worker can read on its own (readers plan and read their own).

A shard is a small, picklable description: byte ranges of JSON Lines, CSV and PhysioNet files (a worker
seeks to its range and reads nothing else), row groups of a Parquet file, files of a txt folder, items of
a Presidio list, or, for any other reader, a range of record positions. Reading the shards of a plan one
after the other gives exactly the records of the whole input read by its reader: same documents, ids,
failures and positions. Boundaries depend only on the input and the shard size, never on the number of
workers. ``Reader.plan_shards`` and ``Reader.read_shard`` (``io/base.py``) are the capability; each
reader of this package implements them next to its own parsing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from anonymed.errors import ConfigError


@dataclass(frozen=True)
class Shard:
    """One piece of an input: a range (bytes, row groups, items or record positions) or a list of files.

    ``first_index`` is the position of its first record in the whole input and ``first_line`` the line
    number its byte range starts at (both keep ids and failure positions equal to a whole-input read).
    """

    index: int
    kind: str
    start: int = 0
    stop: int = 0
    first_index: int = 0
    first_line: int = 1
    count: int = 0
    files: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """The shard's stable name within its plan (``000042``)."""
        return f"{self.index:06d}"

    def describe(self) -> list[Any]:
        """The fields as a JSON-able list (for the plan's fingerprint)."""
        return [self.kind, self.start, self.stop, self.first_index, self.first_line, self.count, self.files]

    def check(self, kind: str, fmt: str) -> None:
        """Refuse a shard of another kind than ``kind`` (planned by another reader)."""
        if self.kind != kind:
            raise ConfigError(f"shard {self.id} of kind {self.kind!r} does not fit a {fmt!r} reader")


def numbered(pieces: Iterable[dict[str, Any]]) -> Iterator[Shard]:
    """Shards from their fields, numbered in input order."""
    for index, fields in enumerate(pieces):
        yield Shard(index, **fields)


def position_shards(total: int, size: int, kind: str = "records") -> Iterator[Shard]:
    """Ranges of ``size`` record positions over ``total`` records."""
    for number, start in enumerate(range(0, total, size)):
        stop = min(start + size, total)
        yield Shard(number, kind, start, stop, first_index=start, count=stop - start)


def byte_range(handle: IO[bytes], start: int, stop: int) -> Iterator[bytes]:
    """The lines of ``handle`` from byte ``start`` (a line start) up to byte ``stop``."""
    handle.seek(start)
    remaining = stop - start
    while remaining > 0:
        line = handle.readline()
        if not line:
            return
        remaining -= len(line)
        yield line


def byte_shard(
    kind: str, start: int, stop: int, first_index: int, first_line: int, count: int
) -> dict[str, Any]:
    """The fields of a byte-range shard."""
    return {
        "kind": kind,
        "start": start,
        "stop": stop,
        "first_index": first_index,
        "first_line": first_line,
        "count": count,
    }
