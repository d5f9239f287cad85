"""Atomic outputs: a hidden temporary sibling file or folder, fsynced and renamed into place on commit.

Permissions follow one rule for every output and every file and folder inside one: owner-only by default
(files 0600, folders 0700: outputs of clinical notes may still hold missed identifiers), or, inside
``output_permissions(private=False)`` (``anonymed ... --umask``), what the umask leaves of 0666 for files
and 0777 for folders. Temporary outputs are owner-only until they are committed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from abc import abstractmethod
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path, PurePosixPath
from typing import IO, Any, TextIO

from anonymed.document import Document
from anonymed.errors import OutputError
from anonymed.io.base import ReadFailure, Writer, unwritable


def output_error(path: Path, exc: OSError) -> OutputError:
    """An ``OutputError`` naming the output path and the system's reason (one already made is kept)."""
    if isinstance(exc, OutputError):  # an OSError too: wrapping it again would lose its reason
        return exc
    reason = exc.strerror or type(exc).__name__
    if path.name.startswith("."):  # a hidden temporary or work sibling: the user knows its folder, not it
        return OutputError(f"cannot write in the output's folder {str(path.parent)!r}: {reason}")
    return OutputError(f"cannot write {str(path)!r}: {reason}")


def remove_stale_temporaries(target: Path) -> int:
    """Remove the temporary siblings a killed writer of ``target`` left (``.name.XXXXXXXX.tmp``/``.old``).

    Only a caller that knows no other writer of ``target`` is running may call this (the batch runner,
    under its work-folder lock). Returns how many were removed.
    """
    stale = re.compile(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}\.(?:tmp|old)")
    removed = 0
    try:
        siblings = list(target.parent.iterdir())
    except OSError:
        return 0
    for path in siblings:
        if stale.fullmatch(path.name):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            removed += 1
    return removed


def current_umask() -> int:
    """The process's umask (from ``/proc`` where it can be read, else by setting and restoring it)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o077)  # the fallback briefly sets a strict mask, never a loose one
    os.umask(mask)
    return mask


#: whether outputs are owner-only (the default) or follow the umask
_PRIVATE: ContextVar[bool] = ContextVar("anonymed_private_outputs", default=True)


@contextlib.contextmanager
def output_permissions(*, private: bool) -> Iterator[None]:
    """Outputs written inside are owner-only (``private``) or follow the umask."""
    token = _PRIVATE.set(private)
    try:
        yield
    finally:
        _PRIVATE.reset(token)


def output_mode(*, folder: bool = False) -> int:
    """The mode of an output file (or folder): 0600 (0700) when private, else 0666 (0777) less the umask."""
    if _PRIVATE.get():
        return 0o700 if folder else 0o600
    return (0o777 if folder else 0o666) & ~current_umask()


def make_folders(root: Path, relative: PurePosixPath) -> None:
    """Create ``root/relative`` and the folders between, each with the output folder mode."""
    path = root
    for part in relative.parts:
        path = path / part
        if not path.is_dir():
            path.mkdir()
            path.chmod(output_mode(folder=True))


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries to disk (best effort: not every platform can open folders)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temporary_sibling(target: Path) -> tuple[int, Path]:
    """A new file next to ``target`` (descriptor and path), named as ``remove_stale_temporaries`` finds it."""
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise output_error(target, exc) from None
    return fd, Path(name)


def replace_durably(
    stream: IO[Any], tmp: Path, target: Path, abort: Callable[[], None], *, mode: int | None = None
) -> None:
    """Flush, fsync and close ``stream`` (the file at ``tmp``), rename it over ``target``, fsync the folder.

    ``mode``: permissions set first. On failure ``abort()`` runs and an ``OutputError`` naming ``target``
    is raised.
    """
    try:
        stream.flush()
        if mode is not None:
            os.fchmod(stream.fileno(), mode)
        os.fsync(stream.fileno())
        stream.close()
        os.replace(tmp, target)
    except OSError as exc:
        abort()
        raise output_error(target, exc) from None
    fsync_dir(target.parent)


def discard_temporary(stream: IO[Any] | None, tmp: Path | None) -> None:
    """Close ``stream`` (errors ignored) and remove the temporary file ``tmp``, where there are any."""
    if stream is not None:
        with contextlib.suppress(OSError):
            stream.close()
    if tmp is not None:
        tmp.unlink(missing_ok=True)


def write_atomically(target: Path, text: str, *, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to a temporary sibling of ``target``, fsync it and rename it over ``target``.

    ``mode``: the file's permissions (``output_mode()`` for an output; ``None`` leaves it owner-only, as
    the temporary file is made: work files). Errors are an ``OutputError`` naming ``target``.
    """
    fd, tmp = temporary_sibling(target)
    stream = open(fd, "w", encoding="utf-8")  # noqa: SIM115 (closed by replace_durably or discard_temporary)
    try:
        stream.write(text)
    except BaseException as exc:  # a full disk, text that cannot be encoded, an interrupt: no temporary left
        discard_temporary(stream, tmp)
        if isinstance(exc, OSError):
            raise output_error(target, exc) from None
        raise
    replace_durably(stream, tmp, target, lambda: discard_temporary(stream, tmp), mode=mode)


class AtomicFile:
    """One output file, written to a temporary sibling (opened on first use) and renamed over the target."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self._tmp: Path | None = None
        self._stream: TextIO | None = None

    @property
    def stream(self) -> TextIO:
        """The temporary file's text stream (UTF-8, no newline translation)."""
        if self._stream is None:
            try:
                self.target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise output_error(self.target, exc) from None
            fd, self._tmp = temporary_sibling(self.target)
            self._stream = open(fd, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed in commit/abort)
        return self._stream

    def commit(self) -> None:
        """Flush, fsync and rename the temporary file over the target (empty if nothing was written)."""
        stream = self.stream
        assert self._tmp is not None
        replace_durably(stream, self._tmp, self.target, self.abort, mode=output_mode())

    def rewrite(self, transform: Callable[[TextIO, TextIO], None]) -> None:
        """Pass what was written so far through ``transform(old, new)`` into a new temporary file."""
        stream = self.stream
        old = self._tmp
        assert old is not None
        try:
            stream.close()
            self._stream = self._tmp = None
            with open(old, encoding="utf-8", newline="") as source:
                transform(source, self.stream)
        except OSError as exc:
            raise output_error(self.target, exc) from None
        finally:
            old.unlink(missing_ok=True)

    def abort(self) -> None:
        """Close and remove the temporary file; the target is left as it was."""
        discard_temporary(self._stream, self._tmp)


class AtomicDir:
    """One output folder, built in a temporary sibling (created on first use) and swapped in on commit."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self._root: Path | None = None

    @property
    def root(self) -> Path:
        """The temporary folder."""
        if self._root is None:
            try:
                self.target.parent.mkdir(parents=True, exist_ok=True)
                name = tempfile.mkdtemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".tmp")
            except OSError as exc:
                raise output_error(self.target, exc) from None
            self._root = Path(name)
        return self._root

    def write_file(self, relpath: PurePosixPath, data: bytes) -> None:
        """Write and fsync one file under the temporary folder."""
        path = self.root.joinpath(*relpath.parts)
        try:
            make_folders(self.root, relpath.parent)
            with path.open("xb") as handle:
                os.fchmod(handle.fileno(), output_mode())
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise output_error(self.target / relpath, exc) from None

    def commit(self) -> None:
        """Swap the temporary folder in; a previous output is moved aside first and removed after."""
        root = self.root
        fsync_dir(root)
        backup: Path | None = None
        try:
            root.chmod(output_mode(folder=True))
            backup = Path(
                tempfile.mkdtemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".old")
            )
            if self.target.exists():
                os.replace(self.target, backup / "previous")
            try:
                os.replace(root, self.target)
            except OSError:
                if (backup / "previous").exists():
                    os.replace(backup / "previous", self.target)
                raise
        except OSError as exc:
            self.abort()
            if backup is not None and not (backup / "previous").exists():
                shutil.rmtree(backup, ignore_errors=True)
            raise output_error(self.target, exc) from None
        fsync_dir(self.target.parent)
        shutil.rmtree(backup, ignore_errors=True)

    def abort(self) -> None:
        """Remove the temporary folder; the target is left as it was."""
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)


class FileWriter(Writer):
    """A writer whose output is one text file made atomic by ``AtomicFile``; subclasses format records."""

    def __init__(self, path: Path) -> None:
        super().__init__(Path(path))
        self.count = 0
        self._out = AtomicFile(self.path)
        self._closed = False

    @abstractmethod
    def format_document(self, doc: Document) -> str:
        """The output text of one document (including its line end or separator)."""

    @abstractmethod
    def format_failure(self, failure: ReadFailure) -> str:
        """The output text of a failed record's placeholder (id and reason, never text)."""

    def header(self) -> str:
        """Text written before the first record."""
        return ""

    def footer(self) -> str:
        """Text written after the last record."""
        return ""

    def write(self, doc: Document) -> None:
        """Write one processed document (a failure in its place if its output is not Unicode)."""
        chunk = self.format_document(doc)
        refused = unwritable(self.count, doc.id, chunk)
        if refused is not None:
            self.write_failure(refused)
            return
        self._emit(doc.id, lambda: chunk)

    def write_failure(self, failure: ReadFailure) -> None:
        """Write a placeholder for a failed record."""
        self._emit(failure.record_id, lambda: self.format_failure(failure))

    def _emit(self, rid: str, make: Callable[[], str]) -> None:
        if self._closed:
            raise OutputError(f"writer for {str(self.path)!r} is closed; record {rid!r} not written")
        chunk = make()
        try:
            if self.count == 0:
                self._out.stream.write(self.header())
            self._out.stream.write(chunk)
        except OSError as exc:
            raise output_error(self.path, exc) from None
        self.count += 1

    def commit(self) -> None:
        """Write the header (if no record came) and footer, then rename the output into place."""
        if self._closed:
            return
        try:
            self._out.stream.write((self.header() if self.count == 0 else "") + self.footer())
        except OSError as exc:
            self.abort()
            raise output_error(self.path, exc) from None
        self._closed = True
        self._out.commit()

    def abort(self) -> None:
        """Remove the temporary output."""
        self._closed = True
        self._out.abort()
