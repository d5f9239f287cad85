"""CSV with a header row: a chosen text column, an id column, every other column carried through."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import IO, Any, TextIO

from anonymed.document import LONE_SURROGATE, Document
from anonymed.errors import ConfigError, InputFileError
from anonymed.io.atomic import FileWriter
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.common import (
    ERROR_KEY,
    UTF8,
    RecordProblem,
    failure,
    open_input,
    pick_metadata,
    text_encoding,
)
from anonymed.io.shards import Shard, byte_shard, numbered

#: the csv module refuses fields over 128 KiB by default; notes can be megabytes (process-wide setting)
FIELD_LIMIT = 2**31 - 1
#: split a binary line after each CR not followed by LF (text mode's universal newlines, as CSV reads them)
_LONE_CR = re.compile(rb"(?<=\r)(?!\n)")


def _valid(cell: str) -> bool:
    """False when the cell holds bytes that were not UTF-8 (decoded as lone surrogates)."""
    return LONE_SURROGATE.search(cell) is None


def _shown(header: Sequence[str]) -> str:
    """How a header is described in errors: its size only (a file without a header row has a note there)."""
    return f"{len(header)} columns, names not shown (the first row may be a record); see --text-field"


class CsvReader(Reader):
    """Streams a CSV file row by row; bytes are decoded with ``surrogateescape`` and checked per row.

    The id is the id column or else the data row number (from 1). The other columns, in order, go to
    ``metadata["record"]``; ``lang``, ``reference_date`` and the patient column (``patient_id`` unless
    told) are also copied into the metadata. A row whose field count differs from the header's fails;
    blank lines are skipped.
    """

    format = "csv"

    def __init__(
        self,
        path: Path,
        *,
        lang: str = "en",
        text_field: str = "text",
        id_field: str = "id",
        delimiter: str = ",",
        patient_field: str = "patient_id",
        encoding: str = UTF8,
    ) -> None:
        super().__init__(Path(path), lang=lang)
        self.text_field = text_field
        self.id_field = id_field
        self.delimiter = delimiter
        self.patient_field = patient_field
        self.encoding = text_encoding(encoding)

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """The header row (read on first use)."""
        with self._rows() as rows:
            return self._header(rows)

    def writer_options(self) -> dict[str, Any]:
        """The same text and id columns, delimiter and column order."""
        return {
            "text_field": self.text_field,
            "id_field": self.id_field,
            "delimiter": self.delimiter,
            "columns": self.columns,
        }

    def __iter__(self) -> Iterator[Record]:
        csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
        with self._rows() as rows:
            header = self._header(rows)
            yield from self._records(csv.reader(rows, delimiter=self.delimiter), header, 0)

    def _records(self, rows: Any, header: Sequence[str], first_index: int) -> Iterator[Record]:
        """The records of CSV rows (a malformed row fails, a blank line is skipped)."""
        index = first_index
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except csv.Error as exc:
                yield ReadFailure(index, str(index + 1), f"malformed CSV row ({exc})")
                index += 1
                continue
            if row:
                yield self._record(index, header, row)
                index += 1

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Byte ranges cut after every ``size``-th record (a bad row counts, a blank line does not)."""
        return numbered(self._plan(size))

    def _plan(self, size: int) -> Iterator[dict[str, Any]]:
        _ = self.columns  # the reader's own header checks first
        csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
        with open_input(self.path) as handle:
            pieces = _Pieces(handle, 0)
            next(csv.reader(pieces, delimiter=self.delimiter), None)
            start = pieces.offset
            index = count = first_index = 0
            for item in _csv_items(csv.reader(pieces, delimiter=self.delimiter)):
                if isinstance(item, csv.Error) or item:
                    index += 1
                    count += 1
                if count == size:
                    yield byte_shard("csv", start, pieces.offset, first_index, 1, count)
                    start, first_index, count = pieces.offset, index, 0
            if count:
                yield byte_shard("csv", start, pieces.offset, first_index, 1, count)

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of one byte range, made from each row as a whole read makes them."""
        if shard.kind != "csv":
            return super().read_shard(shard)
        return self._read_range(shard)

    def _read_range(self, shard: Shard) -> Iterator[Record]:
        header = self.columns
        csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
        with open_input(self.path) as handle:
            pieces = _Pieces(handle, shard.start, shard.stop, self.encoding)
            rows = csv.reader(pieces, delimiter=self.delimiter)
            yield from self._records(rows, header, shard.first_index)

    def _rows(self) -> io.TextIOWrapper:
        raw = open_input(self.path)
        encoding = "utf-8-sig" if self.encoding == UTF8 else self.encoding
        return io.TextIOWrapper(raw, encoding=encoding, errors="surrogateescape", newline="")

    def _header(self, rows: io.TextIOWrapper) -> tuple[str, ...]:
        try:
            header = tuple(next(csv.reader(rows, delimiter=self.delimiter), ()))
        except csv.Error as exc:
            raise InputFileError(self.path.name, f"malformed CSV header ({exc})") from None
        if not all(_valid(name) for name in header):
            raise InputFileError(self.path.name, "the header row is not valid UTF-8")
        if header and self.text_field not in header:
            raise ConfigError(
                f"text column {self.text_field!r} not in the header of {self.path.name!r}: {_shown(header)}"
            )
        return header

    def _record(self, index: int, header: Sequence[str], row: list[str]) -> Record:
        rid = str(index + 1)
        try:
            bad = [i for i, cell in enumerate(row[: len(header)]) if not _valid(cell)]
            cells = dict(zip(header, row, strict=False))
            bad_names = {header[i] for i in bad}
            if self.id_field in cells and self.id_field not in bad_names and cells[self.id_field]:
                rid = cells[self.id_field]
            if bad:
                name = "UTF-8" if self.encoding == UTF8 else self.encoding
                # the column by position: a header may hold anything, and no cell or name goes into a message
                raise RecordProblem(f"not valid {name} in column {bad[0] + 1}")
            if len(row) != len(header):
                raise RecordProblem(f"row has {len(row)} fields, the header has {len(header)}")
        except RecordProblem as problem:
            return failure(index, rid, problem)
        text = cells.pop(self.text_field)
        return Document(rid, text, {**pick_metadata(cells, self.lang, self.patient_field), "record": cells})


class _Pieces:
    """Decoded lines of a byte range as CSV's text mode sees them, counting the bytes handed out."""

    def __init__(self, handle: IO[bytes], start: int, stop: int | None = None, encoding: str = UTF8) -> None:
        handle.seek(start)
        self.encoding = encoding
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
        encoding = "utf-8-sig" if self.offset == 0 and self.encoding == UTF8 else self.encoding
        self.offset += len(piece)
        return piece.decode(encoding, errors="surrogateescape")


def _csv_items(rows: Any) -> Iterator[list[str] | csv.Error]:
    """Rows (blank ones included) and row errors, as the reader meets them."""
    while True:
        try:
            yield next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            yield exc


class CsvWriter(FileWriter):
    """Writes a CSV with the input's columns, the anonymized text in the text column.

    ``columns`` (the input header) fixes the order; without it the columns are taken from the first
    record (id first if the record lacks it, text last). A failed record is a row with its id, an empty
    text and empty cells; when at least one record failed, the output gains a last column
    ``anonymed_error`` (empty for good rows, the reason for failed ones): the file written so far is
    rewritten once, at commit. A run without failures has exactly the input's columns.
    """

    format = "csv"

    def __init__(
        self,
        path: Path,
        *,
        text_field: str = "text",
        id_field: str = "id",
        delimiter: str = ",",
        columns: Sequence[str] | None = None,
    ) -> None:
        super().__init__(path)
        self.text_field = text_field
        self.id_field = id_field
        self.delimiter = delimiter
        self.columns: tuple[str, ...] | None = tuple(columns) if columns else None
        #: data row number -> reason, for the rows of failed records
        self.errors: dict[int, str] = {}

    def format_document(self, doc: Document) -> str:
        """One row: the record's cells and the anonymized text."""
        record: Mapping[str, Any] | None = doc.metadata.get("record")
        cells = {self.id_field: doc.id} if record is None else dict(record)
        cells[self.text_field] = doc.result
        return self._row(cells, list(cells))

    def write_failure(self, failure: ReadFailure) -> None:
        """Write the placeholder row and remember the reason for the ``anonymed_error`` column."""
        self.errors[self.count] = failure.reason
        super().write_failure(failure)

    def format_failure(self, failure: ReadFailure) -> str:
        """One row: the id, empty text and other cells (the reason goes to the error column)."""
        cells = {self.id_field: failure.record_id, self.text_field: "", ERROR_KEY: failure.reason}
        return self._row(cells, [self.id_field, self.text_field])

    def _row(self, cells: Mapping[str, Any], first_columns: list[str]) -> str:
        if self.columns is None:
            names = ([self.id_field] if self.id_field not in first_columns else []) + first_columns
            self.columns = tuple(dict.fromkeys([*names, self.text_field]))
        row = self._line([cells.get(name, "") for name in self.columns])
        return (self._line(list(self.columns)) if self.count == 0 else "") + row

    def _line(self, values: list[Any]) -> str:
        """One CSV line ending in ``\\n``; a cell holding a line break of any kind (a lone CR too) is quoted.

        The csv module quotes only the characters of its line terminator: with ``\\n`` alone, a lone CR
        went out bare and split the record in two when read back.
        """
        out = io.StringIO()
        csv.writer(out, delimiter=self.delimiter, lineterminator="\r\n").writerow(values)
        return out.getvalue()[:-2] + "\n"

    def footer(self) -> str:
        """The header row when no record was written (an empty input still gives a valid CSV)."""
        if self.count > 0 or self.columns is None:
            return ""
        return self._line(list(self.columns))

    def commit(self) -> None:
        """Add the ``anonymed_error`` column if a record failed (and the input had none), then commit."""
        if self.errors and not self._closed and ERROR_KEY not in (self.columns or ()):
            self._out.rewrite(self._add_error_column)
        super().commit()

    def _add_error_column(self, source: TextIO, target: TextIO) -> None:
        csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
        rows = csv.reader(source, delimiter=self.delimiter)
        header = next(rows, None)
        if header is None:
            return
        target.write(self._line([*header, ERROR_KEY]))
        for number, row in enumerate(rows):
            target.write(self._line([*row, self.errors.get(number, "")]))
