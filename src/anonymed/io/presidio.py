"""Presidio-research synthetic data: one JSON list of ``{full_text, masked, spans, template_id, metadata}``.

The file is a single JSON value, so the reader loads it whole (the published set is 1 MB); the items are
then turned into documents one at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from anonymed.document import Document, Span
from anonymed.errors import InputFileError, SpanError
from anonymed.io.atomic import FileWriter
from anonymed.io.base import Reader, ReadFailure, Record
from anonymed.io.common import (
    ERROR_KEY,
    RecordProblem,
    check_unicode,
    dumps,
    failure,
    gold_entity,
    json_type,
    open_input,
    pick_metadata,
)
from anonymed.io.shards import Shard, position_shards
from anonymed.labels import PRESIDIO_LABELS


class PresidioReader(Reader):
    """Presidio items with gold spans via ``PRESIDIO_LABELS``; the id is the item's number (from 1).

    ``spans`` becomes ``Document.gold`` and is not carried in ``metadata["record"]``: it holds the
    original PHI values. The other fields (``masked``, ``template_id``, ``metadata``) are carried.
    """

    format = "presidio"

    def __iter__(self) -> Iterator[Record]:
        yield from self._records(self._items(), 0)

    def plan_shards(self, size: int) -> Iterator[Shard]:
        """Ranges of ``size`` items (the list is parsed once to count them; no document is built)."""
        return position_shards(len(self._items()), size, "items")

    def read_shard(self, shard: Shard) -> Iterator[Record]:
        """The records of the shard's items."""
        if shard.kind != "items":
            return super().read_shard(shard)
        return self._records(self._items()[shard.start : shard.stop], shard.start)

    def _records(self, items: list[Any], first_index: int) -> Iterator[Record]:
        for index, item in enumerate(items, start=first_index):
            rid = str(index + 1)
            try:
                record: Record = self._document(item, rid)
            except (RecordProblem, SpanError) as problem:
                record = failure(index, rid, problem)
            yield record

    def _items(self) -> list[Any]:
        with open_input(self.path) as handle:
            try:
                items = json.load(handle)
            except UnicodeDecodeError as exc:
                raise InputFileError(self.path.name, f"not valid UTF-8 (byte offset {exc.start})") from None
            except json.JSONDecodeError as exc:
                raise InputFileError(
                    self.path.name, f"malformed JSON ({exc.msg} at line {exc.lineno})"
                ) from None
            except RecursionError:
                raise InputFileError(self.path.name, "malformed JSON (nested too deeply)") from None
        if not isinstance(items, list):
            raise InputFileError(self.path.name, f"holds a JSON {json_type(items)}, not an array")
        return items

    def _document(self, item: Any, rid: str) -> Document:
        if not isinstance(item, dict):
            raise RecordProblem(f"item is a JSON {json_type(item)}, not an object")
        check_unicode(item)
        text = item.get("full_text")
        if not isinstance(text, str):
            raise RecordProblem(f"full_text is a JSON {json_type(text)}, not a string")
        spans = item.get("spans") or []
        if not isinstance(spans, list):
            raise RecordProblem(f"spans is a JSON {json_type(spans)}, not an array")
        record = {key: value for key, value in item.items() if key not in ("full_text", "spans")}
        extra = item.get("metadata")
        extra = extra if isinstance(extra, dict) else {}
        metadata = {**pick_metadata(extra, self.lang), "record": record}
        return Document(rid, text, metadata, gold=tuple(_span(span, text) for span in spans))


def _span(span: Any, text: str) -> Span:
    keys = ("start_position", "end_position", "entity_type")
    start, end, name, (label, subtype) = gold_entity(span, "span", keys, PRESIDIO_LABELS)
    if text[start:end] != span.get("entity_value"):
        raise RecordProblem(f"gold span {start}-{end} ({name}) does not match the text")
    return Span.of(text, start, end, label, subtype=subtype)


class PresidioWriter(FileWriter):
    """Writes a JSON list of items ``{full_text, <other fields>}`` with the anonymized text, streamed.

    A failed record becomes ``{"id": <number>, "anonymed_error": reason}``.
    """

    format = "presidio"

    def header(self) -> str:
        """The list opens."""
        return "[\n"

    def footer(self) -> str:
        """The list closes."""
        return "\n]\n"

    def format_document(self, doc: Document) -> str:
        """One item: the anonymized text first, then the carried fields."""
        record: Mapping[str, Any] = doc.metadata.get("record") or {"id": doc.id}
        return self._item({"full_text": doc.result, **{k: v for k, v in record.items() if k != "full_text"}})

    def format_failure(self, failure: ReadFailure) -> str:
        """One placeholder item."""
        return self._item({"id": failure.record_id, ERROR_KEY: failure.reason})

    def _item(self, item: Mapping[str, Any]) -> str:
        return ("" if self.count == 0 else ",\n") + dumps(item)
