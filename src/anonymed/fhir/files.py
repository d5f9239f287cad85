"""Reading and writing FHIR exports: NDJSON (optionally gzipped) bulk files, Bundles, single resources.

An input is a folder (every ``*.ndjson``, ``*.ndjson.gz``, ``*.json`` and ``*.json.gz`` under it, in
sorted order; other files are listed as skipped) or one such file. Outputs keep the relative names.
Resources are plain dicts parsed with ``orjson`` when installed (the ``fhir`` extra), else ``json``.
Gzip outputs carry no name or time in their header, so identical runs give identical bytes.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, Final, cast

from anonymed.errors import InputError

try:  # the fast parser of the ``fhir`` extra; the standard library's otherwise
    import orjson

    def loads(data: bytes) -> Any:
        """Parse JSON bytes."""
        return orjson.loads(data)

    def dumps(value: Any, *, indent: bool = False) -> bytes:
        """JSON bytes (compact, or indented by two spaces)."""
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0)

    JSONError: tuple[type[Exception], ...] = (orjson.JSONDecodeError,)
except ImportError:  # pragma: no cover - exercised only without the extra
    import json

    def loads(data: bytes) -> Any:
        """Parse JSON bytes."""
        return json.loads(data)

    def dumps(value: Any, *, indent: bool = False) -> bytes:
        """JSON bytes (compact, or indented by two spaces)."""
        text = json.dumps(
            value, ensure_ascii=False, indent=2 if indent else None, separators=None if indent else (",", ":")
        )
        return text.encode("utf-8")

    JSONError = (json.JSONDecodeError, UnicodeDecodeError)

SUFFIXES: Final = (".ndjson", ".ndjson.gz", ".json", ".json.gz")


@dataclass(frozen=True)
class ExportFile:
    """One input file: its path, its name relative to the input, NDJSON or JSON, gzipped or not."""

    path: Path
    relative: PurePosixPath

    @property
    def gzipped(self) -> bool:
        """Whether the file is gzip-compressed."""
        return self.path.name.endswith(".gz")

    @property
    def ndjson(self) -> bool:
        """Whether the file holds one resource per line."""
        return self.path.name.removesuffix(".gz").endswith(".ndjson")


def discover(source: Path) -> tuple[list[ExportFile], list[str]]:
    """The export files of a folder or file, and the names of the other files (skipped)."""
    if source.is_file():
        if not source.name.endswith(SUFFIXES):
            raise InputError(source.name, f"not a FHIR export file (expected one of {SUFFIXES})")
        return [ExportFile(source, PurePosixPath(source.name))], []
    if not source.is_dir():
        raise InputError(source.name, "input not found")
    files, skipped = [], []
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        relative = PurePosixPath(path.relative_to(source).as_posix())
        if any(part.startswith(".") for part in relative.parts):
            continue
        (
            files.append(ExportFile(path, relative))
            if path.name.endswith(SUFFIXES)
            else skipped.append(str(relative))
        )
    return files, skipped


def _open(file: ExportFile) -> BinaryIO:
    try:
        raw = file.path.open("rb")
    except OSError as exc:
        raise InputError(str(file.relative), f"cannot open input: {exc.strerror}") from None
    return cast(BinaryIO, gzip.GzipFile(fileobj=raw, mode="rb")) if file.gzipped else raw


def read(file: ExportFile) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """``(line, resource)`` per resource, or ``(line, reason)`` for one that cannot be read."""
    with _open(file) as stream:
        try:
            if not file.ndjson:
                yield (1, _resource(stream.read()))
                return
            for number, line in enumerate(stream, start=1):
                if line.strip():
                    yield (number, _resource(line))
        except (OSError, EOFError) as exc:
            yield (0, f"file unreadable ({type(exc).__name__})")


def _resource(data: bytes) -> dict[str, Any] | str:
    try:
        value = loads(data)
    except JSONError:
        return "malformed JSON"
    if not isinstance(value, dict) or not isinstance(value.get("resourceType"), str):
        return "not a FHIR resource (no resourceType)"
    return value


class ExportWriter:
    """Writes one output file: NDJSON lines or one indented JSON resource, gzipped like the input."""

    def __init__(self, target: Path, file: ExportFile) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        self.ndjson = file.ndjson
        self._raw = target.open("xb")
        zipped = gzip.GzipFile(filename="", mode="wb", fileobj=self._raw, mtime=0) if file.gzipped else None
        self._stream: BinaryIO = cast(BinaryIO, zipped) if zipped is not None else self._raw
        self.written = 0

    def write(self, resource: dict[str, Any]) -> None:
        """Write one resource."""
        self._stream.write(dumps(resource, indent=not self.ndjson) + b"\n")
        self.written += 1

    def close(self) -> None:
        """Flush and close."""
        if self._stream is not self._raw:
            self._stream.close()
        self._raw.close()
