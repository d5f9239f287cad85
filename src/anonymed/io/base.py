"""Streaming reader and writer interfaces: records come in one at a time and go out in input order."""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from anonymed.document import LONE_SURROGATE, Document
from anonymed.io.shards import Shard, position_shards


@dataclass(frozen=True)
class ReadFailure:
    """An input record that could not be read: its position, id (if known) and the reason, never its text."""

    index: int
    record_id: str
    reason: str


Record = Document | ReadFailure


def unwritable(index: int, record_id: str, *texts: str) -> ReadFailure | None:
    """The failure to write instead of a record whose output text holds a lone surrogate, else None."""
    for text in texts:
        if text.isascii():  # constant time in CPython: the usual note needs no scan
            continue
        found = LONE_SURROGATE.search(text)
        if found is not None:
            rid = record_id.encode("utf-8", "backslashreplace").decode("utf-8")
            return ReadFailure(index, rid, f"output holds a lone surrogate at character {found.start()}")
    return None


class Reader(ABC):
    """Iterates over the records of one input (file or folder) without loading it whole.

    Yields a ``Document`` per good record and a ``ReadFailure`` per bad one, in input order, so that
    callers can count and report failures and writers can keep N records in = N records out.
    The original record's other fields travel in ``Document.metadata["record"]``.
    """

    format: str

    def __init__(self, path: Path, *, lang: str = "en") -> None:
        self.path = path
        self.lang = lang

    @abstractmethod
    def __iter__(self) -> Iterator[Record]:
        """The records, in input order."""

    def writer_options(self) -> dict[str, Any]:
        """Options that make a writer of the same format reproduce this input's layout (fields, columns)."""
        return {}

    @property
    def source(self) -> Path:
        """The file whose size and modification time identify the input (a change voids finished shards)."""
        return self.path

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Shards of ``size`` records (``io/shards.py``); here record positions, counted in one pass.

        A reader that can seek in or split its input overrides this and ``read_shard``.
        """
        return position_shards(sum(1 for _ in self), size)

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of one shard of this reader's plan, exactly as the whole-input read gives them."""
        shard.check("records", self.format)
        return itertools.islice(iter(self), shard.start, shard.stop)


class Writer(ABC):
    """Writes processed documents in input order; atomic: output appears complete or not at all.

    Use as a context manager: everything goes to a temporary path next to the target and is renamed
    into place on a clean exit; on an exception the temporary output is removed.
    """

    format: str

    def __init__(self, path: Path) -> None:
        self.path = path

    @abstractmethod
    def write(self, doc: Document) -> None:
        """Write one processed document (its ``result`` text replaces the input text)."""

    @abstractmethod
    def write_failure(self, failure: ReadFailure) -> None:
        """Write a placeholder for a failed record (id and reason, never text) so that no record is lost."""

    @abstractmethod
    def commit(self) -> None:
        """Rename the temporary output into place."""

    @abstractmethod
    def abort(self) -> None:
        """Remove the temporary output."""

    def __enter__(self) -> Writer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()


class TeeWriter(Writer):
    """Writes every record to a main writer and a side writer; both commit or abort together."""

    def __init__(self, main: Writer, side: Writer) -> None:
        super().__init__(main.path)
        self.main = main
        self.side = side
        self.format = main.format

    def write(self, doc: Document) -> None:
        """Write to both."""
        self.main.write(doc)
        self.side.write(doc)

    def write_failure(self, failure: ReadFailure) -> None:
        """Write the placeholder to both."""
        self.main.write_failure(failure)
        self.side.write_failure(failure)

    def commit(self) -> None:
        """Commit the side output first, so a complete main output always has its report."""
        self.side.commit()
        self.main.commit()

    def abort(self) -> None:
        """Abort both."""
        self.side.abort()
        self.main.abort()
