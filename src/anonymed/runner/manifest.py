"""The manifest of finished shards: what makes a killed run resumable without loss or duplicates.

A run's work folder (owner-only) holds ``manifest.jsonl`` and one ``shard-NNNNNN.pkl`` per finished shard.
The manifest's first line names the run (a digest of the input plan and of the process); each later line
records one finished shard: its file's size and SHA-256 and its counts (ids and reasons of failures, never
text). A line is appended and fsynced only after its shard file was renamed into place, so a shard is
finished exactly when a complete line names a file with those bytes. On reopening, torn or damaged lines,
files that do not match, leftovers of another run and temporary files are all dropped, and the manifest is
rewritten with what remains. A lock file keeps two runs from sharing a folder.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from anonymed.errors import ConfigError
from anonymed.io.atomic import output_error, write_atomically
from anonymed.io.base import ReadFailure
from anonymed.runner.shardfile import file_digest

MANIFEST = "manifest.jsonl"
LOCK = "lock"
VERSION = 1


def shard_file_name(shard_id: str) -> str:
    """The file name of a shard's output."""
    return f"shard-{shard_id}.pkl"


@dataclass(frozen=True)
class ShardResult:
    """What one shard gave: its file and counts; ``built`` says the worker loaded its models for it."""

    index: int
    file: str
    sha256: str
    size: int
    read: int = 0
    written: int = 0
    failed: int = 0
    tokens: int = 0
    characters: int = 0
    seconds: float = 0.0
    spans_by_label: Mapping[str, int] = field(default_factory=dict)
    counters: Mapping[str, int] = field(default_factory=dict)
    failures: tuple[ReadFailure, ...] = ()
    built: bool = False
    with_patient: int = 0

    def to_json(self) -> dict[str, Any]:
        """The manifest line (ids and reasons of failures, never text)."""
        return {
            "index": self.index,
            "file": self.file,
            "sha256": self.sha256,
            "size": self.size,
            "read": self.read,
            "written": self.written,
            "failed": self.failed,
            "tokens": self.tokens,
            "characters": self.characters,
            "seconds": round(self.seconds, 4),
            "spans_by_label": dict(sorted(self.spans_by_label.items())),
            "counters": dict(sorted(self.counters.items())),
            "failures": [[f.index, f.record_id, f.reason] for f in self.failures],
            "with_patient": self.with_patient,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ShardResult:
        """Parse a manifest line; anything malformed raises ``KeyError``, ``TypeError`` or ``ValueError``."""
        return cls(
            index=int(data["index"]),
            file=str(data["file"]),
            sha256=str(data["sha256"]),
            size=int(data["size"]),
            read=int(data["read"]),
            written=int(data["written"]),
            failed=int(data["failed"]),
            tokens=int(data["tokens"]),
            characters=int(data["characters"]),
            seconds=float(data["seconds"]),
            spans_by_label=Counter({str(k): int(v) for k, v in dict(data["spans_by_label"]).items()}),
            counters=Counter({str(k): int(v) for k, v in dict(data["counters"]).items()}),
            failures=tuple(ReadFailure(int(i), str(rid), str(why)) for i, rid, why in data["failures"]),
            with_patient=int(data.get("with_patient", 0)),
        )


def _parse(line: str) -> ShardResult | None:
    try:
        return ShardResult.from_json(json.loads(line))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class Manifest:
    """The finished shards of one run in one work folder; open it with ``with Manifest(...) as m``."""

    def __init__(self, workdir: Path, run: str) -> None:
        self.workdir = Path(workdir)
        self.run = run
        self.finished: dict[int, ShardResult] = {}
        self._lock: IO[bytes] | None = None
        self._log: IO[str] | None = None

    @property
    def path(self) -> Path:
        """The manifest file."""
        return self.workdir / MANIFEST

    def shard_path(self, shard_id: str) -> Path:
        """Where a shard's output goes."""
        return self.workdir / shard_file_name(shard_id)

    def __enter__(self) -> Manifest:
        try:
            self.workdir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise output_error(self.workdir, exc) from None
        self._check_private()
        self._acquire()
        self.finished = self._recover()
        self._rewrite()
        self._log = self.path.open("a", encoding="utf-8")
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._lock is not None:
            self._lock.close()  # closing releases the lock
            self._lock = None

    def _check_private(self) -> None:
        """Refuse a work folder others can write to: they could plant shard files and manifest lines."""
        info = self.workdir.stat()
        theirs = hasattr(os, "geteuid") and info.st_uid != os.geteuid()
        if info.st_mode & 0o002 or theirs:
            raise ConfigError(
                f"the work folder {str(self.workdir)!r} must be yours and not writable by others (chmod 700)"
            )

    def _acquire(self) -> None:
        self._lock = (self.workdir / LOCK).open("ab")
        try:
            import fcntl
        except ImportError:  # no advisory locks on this platform
            return
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            self._lock = None
            raise ConfigError(f"another run is using the work folder {str(self.workdir)!r}") from None

    def _entries(self) -> Iterator[ShardResult]:
        """The parsable shard lines of the manifest, if it names this run; nothing otherwise."""
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            return
        try:
            header = json.loads(lines[0])
        except ValueError:
            return
        if header != {"anonymed_manifest": VERSION, "run": self.run}:
            return
        for line in lines[1:]:
            if (entry := _parse(line)) is not None:
                yield entry

    def _recover(self) -> dict[int, ShardResult]:
        """Finished shards whose file is there with the recorded bytes; every other file is removed."""
        finished: dict[int, ShardResult] = {}
        for entry in self._entries():
            named = entry.file == shard_file_name(f"{entry.index:06d}")
            if named and file_digest(self.workdir / entry.file) == (entry.size, entry.sha256):
                finished[entry.index] = entry
        keep = {entry.file for entry in finished.values()}
        for path in self.workdir.iterdir():
            ours = path.name.startswith(("shard-", ".shard-", f".{MANIFEST}"))
            if ours and path.name not in keep:
                path.unlink(missing_ok=True)
        return finished

    def _rewrite(self) -> None:
        """Replace the manifest by its header and the verified entries (atomically)."""
        lines = [json.dumps({"anonymed_manifest": VERSION, "run": self.run})]
        lines += [json.dumps(self.finished[i].to_json()) for i in sorted(self.finished)]
        write_atomically(self.path, "\n".join(lines) + "\n")  # owner-only, as every work file

    def add(self, result: ShardResult) -> None:
        """Record a finished shard (its file must already be in place): append one line and fsync."""
        if self._log is None:
            raise ConfigError("the manifest is not open")
        try:
            self._log.write(json.dumps(result.to_json()) + "\n")
            self._log.flush()
            os.fsync(self._log.fileno())
        except OSError as exc:
            raise output_error(self.path, exc) from None
        self.finished[result.index] = result

    def remove(self) -> None:
        """Delete the shard files and the manifest, then the folder if nothing else is in it."""
        for entry in self.finished.values():
            (self.workdir / entry.file).unlink(missing_ok=True)
        for name in (MANIFEST, LOCK):
            (self.workdir / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.workdir.rmdir()
