"""Byte-range shards of line-based inputs (JSON Lines, CSV, PhysioNet ``id.text``).

The planner reads the file once and cuts it at record boundaries every ``size`` records; a worker seeks to
its range and parses it with the reader's own rules (the same functions and methods), so each record keeps
the id, metadata and failure reason of a whole-file read. Boundaries are chosen where the reader's state is
empty: between two JSON lines, between two CSV records, before a PhysioNet header that follows a closed
record.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from anonymed.errors import SpanError
from anonymed.io.base import ReadFailure, Record
from anonymed.io.common import RecordProblem, failure, open_input
from anonymed.io.csv_io import FIELD_LIMIT, CsvReader
from anonymed.io.jsonl import JsonlReader
from anonymed.io.physionet import END, START, PhysionetReader, _raw_records, load_phrases

#: split a binary line after each CR not followed by LF (text mode's universal newlines, as CSV reads them)
_LONE_CR = re.compile(rb"(?<=\r)(?!\n)")


def _range(handle: IO[bytes], start: int, stop: int) -> Iterator[bytes]:
    """The lines of ``handle`` from byte ``start`` (a line start) up to byte ``stop``."""
    handle.seek(start)
    remaining = stop - start
    while remaining > 0:
        line = handle.readline()
        if not line:
            return
        remaining -= len(line)
        yield line


def _shard(kind: str, start: int, stop: int, first_index: int, first_line: int, count: int) -> dict[str, Any]:
    return {
        "kind": kind,
        "start": start,
        "stop": stop,
        "first_index": first_index,
        "first_line": first_line,
        "count": count,
    }


def plan_jsonl(path: Path, size: int) -> Iterator[dict[str, Any]]:
    """Cut a JSON Lines file before every ``size``-th non-blank line."""
    start = offset = index = count = first_index = 0
    first_line = 1
    with open_input(path) as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                if count == size:
                    yield _shard("jsonl", start, offset, first_index, first_line, count)
                    start, first_line, first_index, count = offset, number, index, 0
                index += 1
                count += 1
            offset += len(line)
    if count:
        yield _shard("jsonl", start, offset, first_index, first_line, count)


def read_jsonl(
    reader: JsonlReader, start: int, stop: int, first_line: int, first_index: int
) -> Iterator[Record]:
    """The records of one byte range, parsed as ``JsonlReader`` parses each line."""
    with open_input(reader.path) as handle:
        yield from reader.read_lines(_range(handle, start, stop), first_line, first_index)


class _Pieces:
    """Decoded lines of a byte range as CSV's text mode sees them, counting the bytes handed out."""

    def __init__(self, handle: IO[bytes], start: int, stop: int | None = None) -> None:
        handle.seek(start)
        self.handle = handle
        self.offset = start
        self.stop = stop
        self._queue: list[bytes] = []

    def __iter__(self) -> _Pieces:
        return self

    def __next__(self) -> str:
        if self.stop is not None and self.offset >= self.stop:
            raise StopIteration
        while not self._queue:
            line = self.handle.readline()
            if not line:
                raise StopIteration
            self._queue = [piece for piece in _LONE_CR.split(line) if piece]
        piece = self._queue.pop(0)
        encoding = "utf-8-sig" if self.offset == 0 else "utf-8"
        self.offset += len(piece)
        return piece.decode(encoding, errors="surrogateescape")


def _csv_items(rows: Any) -> Iterator[list[str] | csv.Error]:
    """Rows (blank ones included) and row errors, as ``CsvReader`` meets them."""
    while True:
        try:
            yield next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            yield exc


def plan_csv(reader: CsvReader, size: int) -> Iterator[dict[str, Any]]:
    """Cut a CSV file after every ``size``-th record (a bad row counts, a blank line does not)."""
    _ = reader.columns  # the reader's own header checks first
    csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
    with open_input(reader.path) as handle:
        pieces = _Pieces(handle, 0)
        next(csv.reader(pieces, delimiter=reader.delimiter), None)
        start = pieces.offset
        index = count = first_index = 0
        for item in _csv_items(csv.reader(pieces, delimiter=reader.delimiter)):
            if isinstance(item, csv.Error) or item:
                index += 1
                count += 1
            if count == size:
                yield _shard("csv", start, pieces.offset, first_index, 1, count)
                start, first_index, count = pieces.offset, index, 0
        if count:
            yield _shard("csv", start, pieces.offset, first_index, 1, count)


def read_csv(reader: CsvReader, start: int, stop: int, first_index: int) -> Iterator[Record]:
    """The records of one byte range, made by ``CsvReader`` from each row."""
    header = reader.columns
    csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
    index = first_index
    with open_input(reader.path) as handle:
        for item in _csv_items(csv.reader(_Pieces(handle, start, stop), delimiter=reader.delimiter)):
            if isinstance(item, csv.Error):
                yield ReadFailure(index, str(index + 1), f"malformed CSV row ({item})")
            elif item:
                yield reader._record(index, header, item)  # the reader's own row checks
            else:
                continue
            index += 1


def plan_physionet(path: Path, size: int) -> Iterator[dict[str, Any]]:
    """Cut ``id.text`` before a record header once ``size`` records are in, where no record is open."""
    start = offset = index = count = first_index = 0
    first_line = 1
    open_record = False
    with open_input(path) as lines:
        for number, line in enumerate(lines, start=1):
            if line.startswith(START):
                if open_record:  # the previous record had no end: it ends here
                    index, count = index + 1, count + 1
                elif count >= size:
                    yield _shard("physionet", start, offset, first_index, first_line, count)
                    start, first_line, first_index, count = offset, number, index, 0
                open_record = True
            elif (not open_record and line.strip()) or (open_record and END in line):
                index, count = index + 1, count + 1
                open_record = False
            offset += len(line)
    if open_record:  # the file ends inside a record: still one record
        count += 1
    if count:
        yield _shard("physionet", start, offset, first_index, first_line, count)


def read_physionet(
    reader: PhysionetReader, start: int, stop: int, first_line: int, first_index: int
) -> Iterator[Record]:
    """The records of one byte range, split and built as ``PhysionetReader`` does."""
    phrases = load_phrases(reader.phrase_path) if reader.phrase_path.is_file() else {}
    with open_input(reader.text_path) as handle:
        for index, raw in enumerate(_raw_records(_range(handle, start, stop)), start=first_index):
            raw.line += first_line - 1  # line numbers of the whole file (ids of headerless records)
            try:
                record: Record = reader._document(raw, phrases)
            except (RecordProblem, SpanError) as problem:
                record = failure(index, raw.id, problem)
            yield record
