"""Parquet (pyarrow, an optional dependency): a text column, an id column, every other column carried through.

The reader streams record batches row group by row group, so memory stays bounded by a batch whatever the
file size; ``iter_row_groups`` reads a range of row groups (the batch runner's shards). The writer buffers a
row group and writes it to a temporary sibling renamed into place on commit.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from anonymed.document import Document
from anonymed.errors import ConfigError, InputFileError, OutputError
from anonymed.io.atomic import (
    discard_temporary,
    output_error,
    output_mode,
    replace_durably,
    temporary_sibling,
)
from anonymed.io.base import Reader, ReadFailure, Record, Writer, unwritable
from anonymed.io.common import ERROR_KEY, RecordProblem, failure, json_type, pick_metadata, record_id
from anonymed.io.shards import Shard

#: rows decoded at a time when reading
BATCH_ROWS = 256
#: rows per row group when writing (also the writer's buffer)
ROW_GROUP_ROWS = 1024


def _pq() -> Any:
    """``pyarrow.parquet``, imported on first use (an optional dependency: the ``scale`` extra)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("Parquet needs pyarrow: pip install 'anonymed[scale]'") from None
    return pq


def _arrow_errors() -> tuple[type[BaseException], ...]:
    """What pyarrow raises on a damaged or unreadable file (its own exception base, and ``OSError``)."""
    import pyarrow as pa

    return (OSError, UnicodeDecodeError, pa.ArrowException)


def _rows(batch: Any) -> list[dict[str, Any] | None]:
    """A batch's rows as dicts; None for a row whose string cells are not valid UTF-8."""
    try:
        return batch.to_pylist()  # type: ignore[no-any-return]
    except UnicodeDecodeError:
        rows: list[dict[str, Any] | None] = []
        for i in range(batch.num_rows):
            try:
                rows.extend(batch.slice(i, 1).to_pylist())
            except UnicodeDecodeError:
                rows.append(None)
        return rows


class ParquetReader(Reader):
    """Streams a Parquet file; the id is the id column (string or integer) or else the row number (from 1).

    Every column but the text goes, in order, to ``metadata["record"]``; ``lang``, ``reference_date`` and
    the patient column (``patient_id`` unless told) are also copied into the metadata. A row whose text is
    not a string fails.
    """

    format = "parquet"

    def __init__(
        self,
        path: Path,
        *,
        lang: str = "en",
        text_field: str = "text",
        id_field: str = "id",
        patient_field: str = "patient_id",
    ) -> None:
        super().__init__(Path(path), lang=lang)
        self.text_field = text_field
        self.id_field = id_field
        self.patient_field = patient_field

    def _file(self) -> Any:
        pq = _pq()
        try:
            return pq.ParquetFile(self.path)
        except _arrow_errors() as exc:
            raise InputFileError(
                self.path.name, f"cannot open Parquet input ({type(exc).__name__})"
            ) from None

    @cached_property
    def schema(self) -> Any:
        """The file's Arrow schema (read from the footer on first use)."""
        parquet = self._file()
        try:
            schema = parquet.schema_arrow
        except _arrow_errors() as exc:
            raise InputFileError(self.path.name, f"damaged Parquet schema ({type(exc).__name__})") from None
        if self.text_field not in schema.names:
            raise ConfigError(f"text column {self.text_field!r} not in {self.path.name!r}: {schema.names}")
        return schema

    @cached_property
    def row_group_rows(self) -> tuple[int, ...]:
        """The number of rows of each row group."""
        meta = self._file().metadata
        return tuple(max(0, meta.row_group(i).num_rows) for i in range(meta.num_row_groups))  # damaged: < 0

    def writer_options(self) -> dict[str, Any]:
        """The same text and id columns and the input schema."""
        return {"text_field": self.text_field, "id_field": self.id_field, "schema": self.schema}

    def __iter__(self) -> Iterator[Record]:
        return self.iter_row_groups(0, len(self.row_group_rows))

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Whole row groups, at least ``size`` rows a shard (the last one may hold fewer)."""
        groups = self.row_group_rows
        first = first_index = count = number = 0
        for group, rows in enumerate(groups):
            count += rows
            if count >= size or group == len(groups) - 1:
                yield Shard(number, "row-groups", first, group + 1, first_index=first_index, count=count)
                first, first_index, count, number = group + 1, first_index + count, 0, number + 1

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of the shard's row groups."""
        if shard.kind != "row-groups":
            return super().read_shard(shard)
        return self.iter_row_groups(shard.start, shard.stop)

    def iter_row_groups(self, first: int, stop: int) -> Iterator[Record]:
        """The records of row groups ``first`` to ``stop - 1``, with their positions in the whole file."""
        _ = self.schema  # checks the text column before reading
        index = sum(self.row_group_rows[:first])
        parquet: Any = self._file() if first < stop else None
        for group in range(first, stop):
            expected, done = self.row_group_rows[group], 0
            reason = f"row group {group} holds fewer rows than the file's footer says"
            try:
                for batch in parquet.iter_batches(batch_size=BATCH_ROWS, row_groups=[group]):
                    for row in _rows(batch)[: expected - done]:  # the footer's count is the truth
                        yield self._record(index + done, row)
                        done += 1
            except _arrow_errors() as exc:
                reason = f"row group {group} cannot be decoded ({type(exc).__name__})"
            # a damaged row group: its unread rows fail, so that none is lost
            for position in range(index + done, index + expected):
                yield ReadFailure(position, str(position + 1), reason)
            index += expected

    def _record(self, index: int, row: dict[str, Any] | None) -> Record:
        rid = str(index + 1)
        try:
            if row is None:
                raise RecordProblem("a string cell is not valid UTF-8")
            rid = record_id(row.get(self.id_field), self.id_field, rid)
            text = row.pop(self.text_field)
            if not isinstance(text, str):
                kind = json_type(text)
                raise RecordProblem(f"text column {self.text_field!r} holds a {kind}, not a string")
        except RecordProblem as problem:
            return failure(index, rid, problem)
        return Document(rid, text, {**pick_metadata(row, self.lang, self.patient_field), "record": row})


class ParquetWriter(Writer):
    """Writes the input's columns with the anonymized text, plus a nullable ``anonymed_error`` column.

    ``schema`` (the input's, passed by ``open_writer(like=reader)``) fixes column order and types; without
    it they are inferred from the first row group (all-null columns become strings). A failed row has its
    id (converted to the id column's type when it can be), a null text and the reason.
    """

    format = "parquet"

    def __init__(
        self,
        path: Path,
        *,
        text_field: str = "text",
        id_field: str = "id",
        schema: Any = None,
        row_group_rows: int = ROW_GROUP_ROWS,
    ) -> None:
        super().__init__(Path(path))
        self.text_field = text_field
        self.id_field = id_field
        self.schema: Any = None if schema is None else self._with_error(schema)
        self.row_group_rows = row_group_rows
        self.count = 0
        self._rows: list[dict[str, Any]] = []
        self._tmp: Path | None = None
        self._writer: Any = None
        self._closed = False

    def write(self, doc: Document) -> None:
        """Buffer one row: the record's cells and the anonymized text."""
        record: Mapping[str, Any] | None = doc.metadata.get("record")
        cells = {self.id_field: doc.id} if record is None else dict(record)
        cells[self.text_field] = doc.result
        strings = [value for value in cells.values() if isinstance(value, str)]
        refused = unwritable(self.count, doc.id, *strings)
        if refused is not None:
            self.write_failure(refused)
            return
        self._add(doc.id, cells)

    def write_failure(self, failure: ReadFailure) -> None:
        """Buffer one placeholder row: the id, a null text and the reason."""
        self._add(failure.record_id, {self.id_field: failure.record_id, ERROR_KEY: failure.reason})

    def _add(self, rid: str, cells: dict[str, Any]) -> None:
        if self._closed:
            raise OutputError(f"writer for {str(self.path)!r} is closed; record {rid!r} not written")
        self._rows.append(cells)
        self.count += 1
        if len(self._rows) >= self.row_group_rows:
            self._flush()

    def _with_error(self, schema: Any) -> Any:
        import pyarrow as pa

        if ERROR_KEY in schema.names:
            return schema
        return schema.append(pa.field(ERROR_KEY, pa.string()))

    def _infer(self, rows: list[dict[str, Any]]) -> Any:
        import pyarrow as pa

        names = list(dict.fromkeys(n for row in rows for n in row if n != ERROR_KEY)) or [self.id_field]
        names = [n for n in names if n != self.text_field] + [self.text_field]
        if not rows:
            return self._with_error(pa.schema([pa.field(n, pa.string()) for n in names]))
        table = pa.Table.from_pylist([{n: row.get(n) for n in names} for row in rows])
        fields = [pa.field(f.name, pa.string()) if pa.types.is_null(f.type) else f for f in table.schema]
        return self._with_error(pa.schema(fields))

    def _table(self, rows: list[dict[str, Any]]) -> Any:
        import pyarrow as pa

        if self.schema is None:
            self.schema = self._infer(rows)
        id_type = self.schema.field(self.id_field).type if self.id_field in self.schema.names else None
        for row in rows:
            rid = row.get(self.id_field)
            if ERROR_KEY in row and id_type is not None and pa.types.is_integer(id_type):
                row[self.id_field] = int(rid) if isinstance(rid, str) and rid.isdigit() else None
        try:
            return pa.Table.from_pylist(rows, schema=self.schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError) as exc:
            raise OutputError(
                f"cannot write {str(self.path)!r}: a row does not fit the schema ({type(exc).__name__})"
            ) from None

    def _flush(self) -> None:
        """Write the buffered rows as one row group (an empty file still gets its schema)."""
        if not self._rows and self._writer is not None:
            return
        table = self._table(self._rows)
        self._rows = []
        try:
            if self._writer is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd, self._tmp = temporary_sibling(self.path)
                os.close(fd)
                self._writer = _pq().ParquetWriter(self._tmp, table.schema)
            if table.num_rows:
                self._writer.write_table(table)
        except OSError as exc:
            raise output_error(self.path, exc) from None

    def commit(self) -> None:
        """Write the last row group, close the file and rename it into place."""
        if self._closed:
            return
        self._closed = True
        try:
            self._flush()
            self._writer.close()
            assert self._tmp is not None
            handle = self._tmp.open("rb+")
        except OSError as exc:  # an OutputError too
            self.abort()
            raise output_error(self.path, exc) from None
        replace_durably(
            handle, self._tmp, self.path, lambda: discard_temporary(handle, self._tmp), mode=output_mode()
        )

    def abort(self) -> None:
        """Close and remove the temporary output."""
        self._closed = True
        if self._writer is not None:
            with contextlib.suppress(Exception):  # the temporary file is removed anyway
                self._writer.close()
            self._writer = None
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
