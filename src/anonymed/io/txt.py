"""Plain text: a folder of ``.txt`` files (one note each, recursive) or a single ``.txt`` file."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

from anonymed.document import Document
from anonymed.errors import InputFileError, OutputError
from anonymed.io.atomic import AtomicDir, AtomicFile
from anonymed.io.base import Reader, ReadFailure, Record, Writer, unwritable
from anonymed.io.common import ERROR_KEY, UTF8, RecordProblem, decode_utf8, dumps, failure, text_encoding
from anonymed.io.shards import Shard

#: the manifest of failed records in an output folder
FAILURES_FILE = "_failures.jsonl"


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise RecordProblem(f"cannot read file ({exc.strerror or type(exc).__name__})") from None


class TxtReader(Reader):
    """Reads one note per ``.txt`` file: a folder walked recursively in sorted order, or one file.

    The id is the relative path without extension (``sub/note``; the file's stem for a single file) and
    ``metadata["relpath"]`` the relative path. Hidden files and folders (``.name``) are skipped.
    """

    format = "txt"

    def __init__(self, path: Path, *, lang: str = "en", encoding: str = UTF8) -> None:
        super().__init__(Path(path), lang=lang)
        self.encoding = text_encoding(encoding)

    def __iter__(self) -> Iterator[Record]:
        return self._read(self._files(), 0)

    def _read(self, files: Iterable[tuple[Path, PurePosixPath]], first_index: int) -> Iterator[Record]:
        for index, (path, relpath) in enumerate(files, start=first_index):
            rid = relpath.with_suffix("").as_posix()
            try:
                text = decode_utf8(_read(path), first=True, encoding=self.encoding)
            except RecordProblem as problem:
                yield failure(index, rid, problem)
                continue
            yield Document(rid, text, {"relpath": relpath.as_posix(), "lang": self.lang})

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Lists of ``size`` files, in the reader's own walk and order."""
        files = (relpath.as_posix() for _, relpath in self._files())
        for number in itertools.count():
            chunk = tuple(itertools.islice(files, size))
            if not chunk:
                return
            yield Shard(number, "files", first_index=number * size, count=len(chunk), files=chunk)

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of the shard's files (same ids, metadata and failure reasons as a whole read)."""
        if shard.kind != "files":
            return super().read_shard(shard)
        single = self.path.is_file()
        relpaths = [PurePosixPath(name) for name in shard.files]
        files = [(self.path if single else self.path.joinpath(*rel.parts), rel) for rel in relpaths]
        return self._read(files, shard.first_index)

    def _files(self) -> Iterator[tuple[Path, PurePosixPath]]:
        if self.path.is_file():
            yield self.path, PurePosixPath(self.path.name)
            return
        if not self.path.is_dir():
            raise InputFileError(self.path.name, "no such file or folder")
        for folder, dirs, files in os.walk(self.path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            base = Path(folder)
            for name in sorted(files):
                if name.endswith(".txt") and not name.startswith("."):
                    yield base / name, PurePosixPath((base / name).relative_to(self.path).as_posix())


class TxtWriter(Writer):
    """Writes notes as ``.txt`` files: a folder (input relative paths) or, for a ``.txt`` path, one file.

    In a folder, failed records are listed in ``_failures.jsonl`` (``{"id", "index", "anonymed_error"}``).
    A single-file output holds exactly one document: a second one or a failure is an ``OutputError``.
    """

    format = "txt"

    def __init__(self, path: Path, *, single: bool | None = None) -> None:
        super().__init__(Path(path))
        self.single = self.path.suffix == ".txt" if single is None else single
        self._file = AtomicFile(self.path)
        self._dir = AtomicDir(self.path)
        self._seen: set[str] = set()
        self._failures: list[str] = []
        self._closed = False

    def write(self, doc: Document) -> None:
        """Write the document's text to its file (a failure in its place if the text is not Unicode)."""
        self._check_open(doc.id)
        refused = unwritable(len(self._seen) + len(self._failures), doc.id, doc.result)
        if refused is not None:
            self.write_failure(refused)
            return
        if self.single:
            if self._seen:
                raise OutputError(f"{str(self.path)!r} holds one document; got a second (record {doc.id!r})")
            self._seen.add(doc.id)
            self._file.stream.write(doc.result)
            return
        relpath = self._relpath(doc)
        self._seen.add(relpath.as_posix())
        self._dir.write_file(relpath, doc.result.encode("utf-8"))

    def write_failure(self, failure: ReadFailure) -> None:
        """Record the failure in the folder's manifest."""
        self._check_open(failure.record_id)
        if self.single:
            raise OutputError(
                f"{str(self.path)!r} is a single file and cannot hold the failed record {failure.record_id!r}"
            )
        line = {"id": failure.record_id, "index": failure.index, ERROR_KEY: failure.reason}
        self._failures.append(dumps(line) + "\n")

    def commit(self) -> None:
        """Write the manifest (if any failure) and move the output into place."""
        if self._closed:
            return
        self._closed = True
        if self.single:
            self._file.commit()
            return
        if self._failures:
            self._dir.write_file(PurePosixPath(FAILURES_FILE), "".join(self._failures).encode("utf-8"))
        self._dir.commit()

    def abort(self) -> None:
        """Remove the temporary output."""
        self._closed = True
        self._file.abort()
        self._dir.abort()

    def _check_open(self, rid: str) -> None:
        if self._closed:
            raise OutputError(f"writer for {str(self.path)!r} is closed; record {rid!r} not written")

    def _relpath(self, doc: Document) -> PurePosixPath:
        name = str(doc.metadata.get("relpath") or f"{doc.id}.txt")
        relpath = PurePosixPath(name)
        if relpath.is_absolute() or ".." in relpath.parts or not relpath.parts or name == FAILURES_FILE:
            raise OutputError(f"record {doc.id!r}: unsafe output file name {name!r}")
        if name in self._seen:
            raise OutputError(f"record {doc.id!r}: output file {name!r} written twice")
        return relpath
