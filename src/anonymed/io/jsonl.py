"""JSON Lines: one JSON object per line, a configurable text field and id field."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from anonymed.document import Document, Span
from anonymed.errors import SpanError
from anonymed.io.atomic import FileWriter
from anonymed.io.base import ReadFailure, Record
from anonymed.io.common import (
    ERROR_KEY,
    UTF8,
    LineFileReader,
    RecordProblem,
    decode_utf8,
    dumps,
    failure,
    json_type,
    open_input,
    parse_json,
    pick_metadata,
    record_id,
    text_encoding,
)
from anonymed.io.shards import Shard, byte_shard, numbered

T = TypeVar("T")


def parse_lines(
    lines: Iterable[bytes],
    make: Callable[[int, str, dict[str, Any]], T],
    id_field: str,
    *,
    first_line: int = 1,
    first_index: int = 0,
    encoding: str = UTF8,
) -> Iterator[T | ReadFailure]:
    """``make(index, id, object)`` of each non-blank line's JSON object, or the ``ReadFailure`` of a bad line.

    The id is the ``id_field`` value (string or integer), else the line number; a line that is not UTF-8 or
    not a JSON object, or that ``make`` refuses (``RecordProblem``, ``SpanError``), is a failure.
    """
    index = first_index
    for number, line in enumerate(lines, start=first_line):
        if not line.strip():
            continue
        rid = str(number)
        try:
            obj = parse_json(decode_utf8(line, first=number == 1, encoding=encoding))
            if not isinstance(obj, dict):
                raise RecordProblem(f"line holds a JSON {json_type(obj)}, not an object")
            rid = record_id(obj.get(id_field), id_field, rid)
            item: T | ReadFailure = make(index, rid, obj)
        except (RecordProblem, SpanError) as problem:
            item = failure(index, rid, problem)
        yield item
        index += 1


class JsonlReader(LineFileReader):
    """Streams a JSON Lines file line by line; each line is decoded and parsed on its own.

    The id is the id field (string or integer) or else the line number (from 1). Every field but the
    text (and the gold fields of subclasses) is kept, in order, in ``metadata["record"]``; ``lang``,
    ``reference_date`` and the patient field (``patient_id`` unless told) are also copied into the
    metadata (the latter as ``patient_id``). Blank lines are not records.
    """

    format = "jsonl"
    range_kind = "jsonl"
    #: fields turned into ``Document.gold`` and therefore not carried in ``metadata["record"]``
    gold_fields: tuple[str, ...] = ()

    def __init__(
        self,
        path: Path,
        *,
        lang: str = "en",
        text_field: str = "text",
        id_field: str = "id",
        patient_field: str = "patient_id",
        encoding: str = UTF8,
    ) -> None:
        super().__init__(Path(path), lang=lang)
        self.text_field = text_field
        self.id_field = id_field
        self.patient_field = patient_field
        self.encoding = text_encoding(encoding)

    def writer_options(self) -> dict[str, Any]:
        """The same text and id fields."""
        return {"text_field": self.text_field, "id_field": self.id_field}

    def read_lines(
        self, lines: Iterable[bytes], first_line: int = 1, first_index: int = 0
    ) -> Iterator[Record]:
        """The records of ``lines``, the first being line ``first_line`` and record ``first_index``."""
        return parse_lines(
            lines, self._record, self.id_field, first_line=first_line, first_index=first_index,
            encoding=self.encoding,
        )  # fmt: skip

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Byte ranges cut before every ``size``-th non-blank line."""
        return numbered(_plan_lines(self.path, size))

    def _record(self, index: int, rid: str, obj: dict[str, Any]) -> Record:
        return self.document(obj, rid)

    def document(self, obj: Mapping[str, Any], rid: str) -> Document:
        """The document of one parsed record."""
        text = obj.get(self.text_field)
        if self.text_field not in obj:
            raise RecordProblem(f"missing text field {self.text_field!r}")
        if not isinstance(text, str):
            raise RecordProblem(f"text field {self.text_field!r} is a JSON {json_type(text)}, not a string")
        skip = {self.text_field, *self.gold_fields}
        record = {key: value for key, value in obj.items() if key not in skip}
        metadata = {**pick_metadata(obj, self.lang, self.patient_field), "record": record}
        return Document(rid, text, metadata, gold=self.gold(obj, text))

    def gold(self, obj: Mapping[str, Any], text: str) -> tuple[Span, ...]:
        """Gold spans carried by the record (none for plain JSON Lines)."""
        return ()


def _plan_lines(path: Path, size: int) -> Iterator[dict[str, Any]]:
    """Byte ranges of ``size`` non-blank lines (blank lines count in line numbers only)."""
    start = offset = index = count = first_index = 0
    first_line = 1
    with open_input(path) as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                if count == size:
                    yield byte_shard("jsonl", start, offset, first_index, first_line, count)
                    start, first_line, first_index, count = offset, number, index, 0
                index += 1
                count += 1
            offset += len(line)
    if count:
        yield byte_shard("jsonl", start, offset, first_index, first_line, count)


class JsonlWriter(FileWriter):
    """Writes one JSON object per line: the input record with the anonymized text in the text field.

    Other fields come from ``metadata["record"]`` unchanged (the text field goes last); a document read
    from a format without records gets ``{id_field: id, text_field: text}``. A failed record becomes
    ``{id_field: id, "anonymed_error": reason}``.
    """

    format = "jsonl"

    def __init__(self, path: Path, *, text_field: str = "text", id_field: str = "id") -> None:
        super().__init__(path)
        self.text_field = text_field
        self.id_field = id_field

    def format_document(self, doc: Document) -> str:
        """The record as one JSON line."""
        record = doc.metadata.get("record")
        out: dict[str, Any] = {self.id_field: doc.id} if record is None else dict(record)
        out.pop(self.text_field, None)
        out[self.text_field] = doc.result
        return dumps(out) + "\n"

    def format_failure(self, failure: ReadFailure) -> str:
        """The placeholder as one JSON line."""
        return dumps({self.id_field: failure.record_id, ERROR_KEY: failure.reason}) + "\n"
