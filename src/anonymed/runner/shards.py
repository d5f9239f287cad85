"""Split an input into shards a worker can read on its own, and read one shard back.

A shard is a small, picklable description: byte ranges of JSON Lines, CSV and PhysioNet files (a worker
seeks to its range and reads nothing else), row groups of a Parquet file, files of a txt folder, or, for
the other formats, a range of record positions. Reading the shards of a plan one after the other gives
exactly the records of the whole input read by its reader: same documents, ids, failures and positions.
Boundaries depend only on the input and the shard size, never on the number of workers.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from anonymed.document import Document
from anonymed.errors import ConfigError
from anonymed.io.base import Reader, Record
from anonymed.io.common import RecordProblem, decode_utf8, failure
from anonymed.io.csv_io import CsvReader
from anonymed.io.jsonl import JsonlReader
from anonymed.io.parquet import ParquetReader
from anonymed.io.physionet import PhysionetReader
from anonymed.io.registry import guess_format, open_reader
from anonymed.io.txt import TxtReader
from anonymed.runner import shards_text


@dataclass(frozen=True)
class Shard:
    """One piece of an input: a range (bytes, row groups or record positions) or a list of files.

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
    """Split ``spec``'s input into shards of ``shard_size`` records (a Parquet shard: whole row groups)."""
    if shard_size < 1:
        raise ConfigError(f"shard size must be at least 1, got {shard_size}")
    reader = spec.open()
    shards = tuple(Shard(i, **fields) for i, fields in enumerate(_plan(reader, shard_size)))
    data_path = reader.text_path if isinstance(reader, PhysionetReader) else spec.path
    identity = [str(spec.path.resolve()), spec.fmt, sorted(spec.options.items()), _input_stat(data_path)]
    text = json.dumps([identity, shard_size, [s.describe() for s in shards]], default=str)
    return Plan(shards, hashlib.blake2b(text.encode(), digest_size=16).hexdigest())


def _plan(reader: Reader, size: int) -> Iterator[dict[str, Any]]:
    if isinstance(reader, JsonlReader):
        return shards_text.plan_jsonl(reader.path, size)
    if isinstance(reader, CsvReader):
        return shards_text.plan_csv(reader, size)
    if isinstance(reader, PhysionetReader):
        return shards_text.plan_physionet(reader.text_path, size)
    if isinstance(reader, ParquetReader):
        return _plan_parquet(reader, size)
    if isinstance(reader, TxtReader):
        return _plan_txt(reader, size)
    return _plan_records(reader, size)


def read_shard(reader: Reader, shard: Shard) -> Iterator[Record]:
    """The records of one shard, exactly as the whole-input read gives them."""
    if shard.kind == "jsonl" and isinstance(reader, JsonlReader):
        return shards_text.read_jsonl(reader, shard.start, shard.stop, shard.first_line, shard.first_index)
    if shard.kind == "csv" and isinstance(reader, CsvReader):
        return shards_text.read_csv(reader, shard.start, shard.stop, shard.first_index)
    if shard.kind == "physionet" and isinstance(reader, PhysionetReader):
        return shards_text.read_physionet(
            reader, shard.start, shard.stop, shard.first_line, shard.first_index
        )
    if shard.kind == "row-groups" and isinstance(reader, ParquetReader):
        return reader.iter_row_groups(shard.start, shard.stop)
    if shard.kind == "files" and isinstance(reader, TxtReader):
        return _read_txt(reader, shard)
    if shard.kind == "records":
        return itertools.islice(iter(reader), shard.start, shard.stop)
    raise ConfigError(f"shard {shard.id} of kind {shard.kind!r} does not fit a {reader.format!r} reader")


def _plan_parquet(reader: ParquetReader, size: int) -> Iterator[dict[str, Any]]:
    first = first_index = count = 0
    for group, rows in enumerate(reader.row_group_rows):
        count += rows
        if count >= size:
            yield _groups(first, group + 1, first_index, count)
            first, first_index, count = group + 1, first_index + count, 0
    if first < len(reader.row_group_rows):
        yield _groups(first, len(reader.row_group_rows), first_index, count)


def _groups(start: int, stop: int, first_index: int, count: int) -> dict[str, Any]:
    return {"kind": "row-groups", "start": start, "stop": stop, "first_index": first_index, "count": count}


def _plan_txt(reader: TxtReader, size: int) -> Iterator[dict[str, Any]]:
    files = (relpath.as_posix() for _, relpath in reader._files())  # the reader's own walk and order
    for number in itertools.count():
        chunk = tuple(itertools.islice(files, size))
        if not chunk:
            return
        yield {"kind": "files", "first_index": number * size, "count": len(chunk), "files": chunk}


def _read_txt(reader: TxtReader, shard: Shard) -> Iterator[Record]:
    """The txt reader's records for the shard's files (same ids, metadata and failure reasons)."""
    single = reader.path.is_file()
    for index, name in enumerate(shard.files, start=shard.first_index):
        relpath = PurePosixPath(name)
        path = reader.path if single else reader.path.joinpath(*relpath.parts)
        rid = relpath.with_suffix("").as_posix()
        try:
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise RecordProblem(f"cannot read file ({exc.strerror or type(exc).__name__})") from None
            text = decode_utf8(data, first=True)
        except RecordProblem as problem:
            yield failure(index, rid, problem)
            continue
        yield Document(rid, text, {"relpath": relpath.as_posix(), "lang": reader.lang})


def _plan_records(reader: Reader, size: int) -> Iterator[dict[str, Any]]:
    """Position ranges for formats that cannot seek (one pass to count; workers skip to their range)."""
    total = sum(1 for _ in reader)
    for start in range(0, total, size):
        stop = min(start + size, total)
        yield {"kind": "records", "start": start, "stop": stop, "first_index": start, "count": stop - start}
