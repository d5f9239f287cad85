"""Per-shard output files: the processed records of one shard, pickled one by one, written atomically.

A worker writes its shard to a hidden temporary sibling (owner-only, 0600), fsyncs it and renames it into
place, so a shard file either is complete or does not exist; its SHA-256 goes to the manifest. The driver
streams the records back in order into the real writer. Shard files hold processed documents, source text
included: they live in the run's owner-only work folder, are read back only by this module (whose
unpickler accepts anonymed's own types and plain values, nothing else) and are removed after the run.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Iterator, Mapping
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any

from anonymed.document import Document
from anonymed.errors import OutputError
from anonymed.io.atomic import discard_temporary, output_error, replace_durably, temporary_sibling
from anonymed.io.base import ReadFailure, Record, Writer

#: modules whose classes a shard file may name (besides anonymed's own), and the plain builtins
_MODULES = frozenset({"datetime", "decimal", "uuid", "zoneinfo", "collections"})
_BUILTINS = frozenset({"set", "frozenset", "bytearray", "complex", "slice", "range"})


def _proxy(values: dict[str, Any]) -> Mapping[str, Any]:
    """Rebuild a read-only mapping (documents keep their metadata in one)."""
    return MappingProxyType(values)


class _Pickler(pickle.Pickler):
    """Pickles read-only mappings as the dicts they wrap."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, MappingProxyType):
            return _proxy, (dict(obj),)
        if isinstance(obj, Enum):  # by value through the class: Python 3.11.x differ (some use getattr)
            return type(obj), (obj.value,)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Only anonymed's classes and plain value types: a shard file cannot run arbitrary code.

    A name is one attribute (no dots: ``anonymed.io.atomic`` + ``os.system`` would reach any module) and
    must be a class (or the read-only mapping rebuilder): no function of anonymed can be called either.
    """

    def find_class(self, module: str, name: str) -> Any:
        ours = module == "anonymed" or module.startswith("anonymed.")
        allowed = "." not in name and (
            ours or module in _MODULES or (module == "builtins" and name in _BUILTINS)
        )
        if not allowed:
            raise pickle.UnpicklingError(f"shard files cannot hold {module}.{name}")
        found = super().find_class(module, name)
        if found is not _proxy and not (
            isinstance(found, type) and (not ours or found.__module__.startswith("anonymed."))
        ):
            raise pickle.UnpicklingError(f"shard files cannot hold {module}.{name}")
        return found


def dumps(obj: Any) -> bytes:
    """One record (or any picklable value with documents inside) as bytes."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


class ShardFileWriter(Writer):
    """Writes one shard's records to ``path`` atomically; ``sha256`` and ``size`` describe the result."""

    format = "anonymed-shard"

    def __init__(self, path: Path) -> None:
        super().__init__(Path(path))
        self._hash = hashlib.sha256()
        self.size = 0
        self._tmp: Path | None = None
        self._handle: IO[bytes] | None = None

    @property
    def sha256(self) -> str:
        """The hex digest of the bytes written so far."""
        return self._hash.hexdigest()

    def _stream(self) -> IO[bytes]:
        if self._handle is None:
            fd, self._tmp = temporary_sibling(self.path)
            self._handle = open(fd, "wb")  # noqa: SIM115 (closed in commit/abort)
        return self._handle

    def _dump(self, record: Record) -> None:
        data = dumps(record)
        try:
            self._stream().write(data)
        except OSError as exc:
            raise output_error(self.path, exc) from None
        self._hash.update(data)
        self.size += len(data)

    def write(self, doc: Document) -> None:
        """Append one processed document."""
        self._dump(doc)

    def write_failure(self, failure: ReadFailure) -> None:
        """Append one failure placeholder."""
        self._dump(failure)

    def commit(self) -> None:
        """Flush, fsync and rename the temporary file into place (an empty shard gives an empty file)."""
        handle = self._stream()
        assert self._tmp is not None
        replace_durably(handle, self._tmp, self.path, self.abort)

    def abort(self) -> None:
        """Close and remove the temporary file."""
        discard_temporary(self._handle, self._tmp)


def file_digest(path: Path) -> tuple[int, str]:
    """Size and SHA-256 of a file; ``(-1, "")`` when it cannot be read."""
    digest = hashlib.sha256()
    size = 0
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
    except OSError:
        return -1, ""
    return size, digest.hexdigest()


class _Hashing(io.RawIOBase):
    """A read-only stream that hashes what passes through it."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.handle.read(len(buffer))
        buffer[: len(data)] = data
        self.digest.update(data)
        return len(data)


def _load(stream: io.BufferedReader[Any], name: str) -> Record | None:
    """The next record of a shard file, or None at its end."""
    try:
        if not stream.peek(1):
            return None
        record = _Unpickler(stream).load()
    except Exception as exc:  # a damaged file can fail in many ways; none may pass as a record
        raise OutputError(f"cannot read shard file {name!r} ({type(exc).__name__})") from None
    if not isinstance(record, Document | ReadFailure):
        raise OutputError(f"shard file {name!r} holds a {type(record).__name__}, not a record")
    return record


def read_shard_file(path: Path, sha256: str) -> Iterator[Record]:
    """The records of a shard file in order; a file whose bytes do not match ``sha256`` is an error."""
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise output_error(path, exc) from None
    with raw:
        hashing = _Hashing(raw)
        stream = io.BufferedReader(hashing, buffer_size=1 << 20)
        while (record := _load(stream, path.name)) is not None:
            yield record
    if hashing.digest.hexdigest() != sha256:
        raise OutputError(f"shard file {path.name!r} does not match its manifest entry")
