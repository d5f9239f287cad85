"""One exception hierarchy for anonymed; messages carry ids, offsets and option values, never note text."""

from __future__ import annotations


class AnonymedError(Exception):
    """Base class of every error anonymed raises on purpose."""


class ConfigError(AnonymedError, ValueError):
    """A configuration value or command-line option is invalid; the message names it."""


class SpanError(AnonymedError, ValueError):
    """A span's offsets or label are inconsistent with its document."""


class InputError(AnonymedError):
    """One input record could not be read or processed; carries the record id (and offset) only."""

    def __init__(self, record_id: str, reason: str, *, offset: int | None = None) -> None:
        self.record_id = record_id
        self.reason = reason
        self.offset = offset
        where = f" at offset {offset}" if offset is not None else ""
        super().__init__(f"record {record_id!r}{where}: {reason}")


class InputFileError(InputError):
    """A whole input file or folder could not be read (missing, unreadable, a bad header); names the file."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(name, reason)
        self.args = (f"input {name!r}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])


class OutputError(AnonymedError, OSError):
    """An output could not be written (full disk, read-only folder); nothing partial is left behind."""


class ResourceError(AnonymedError):
    """A model, space, bank or table could not be found or loaded; the message names its path."""


class MethodUnavailable(ConfigError):
    """A method cannot run in this installation or service (a missing extra or resource); says why."""
