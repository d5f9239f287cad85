"""Detected spans, one JSON line per document: ``{"id", "spans": [{start, end, label, text, ...}]}``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from anonymed.document import Document, Span
from anonymed.errors import InputError, SpanError
from anonymed.io.atomic import FileWriter
from anonymed.io.base import ReadFailure, Record
from anonymed.io.common import ERROR_KEY, RecordProblem, dumps, json_type, open_input
from anonymed.io.jsonl import parse_lines
from anonymed.labels import Label


@dataclass(frozen=True)
class SpanRecord:
    """The spans found in one document, as read back from a spans file."""

    id: str
    spans: tuple[Span, ...]


class SpansWriter(FileWriter):
    """Writes ``doc.spans`` of each document (``Span.to_json``); a failure is ``{"id", "anonymed_error"}``."""

    format = "spans"

    def format_document(self, doc: Document) -> str:
        """One JSON line with the document's spans."""
        return dumps({"id": doc.id, "spans": [span.to_json() for span in doc.spans]}) + "\n"

    def format_failure(self, failure: ReadFailure) -> str:
        """One JSON line naming the failure."""
        return dumps({"id": failure.record_id, ERROR_KEY: failure.reason}) + "\n"


class SpansReader:
    """Reads a spans file back: a ``SpanRecord`` per line, or a ``ReadFailure`` (bad line or failure line)."""

    format = "spans"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def __iter__(self) -> Iterator[SpanRecord | ReadFailure]:
        with open_input(self.path) as lines:
            yield from parse_lines(lines, _record, "id")


def _record(index: int, rid: str, obj: dict[str, Any]) -> SpanRecord | ReadFailure:
    if ERROR_KEY in obj:
        return ReadFailure(index, rid, str(obj[ERROR_KEY]))
    spans = obj.get("spans")
    if not isinstance(spans, list):
        raise RecordProblem(f"spans is a JSON {json_type(spans)}, not an array")
    return SpanRecord(rid, tuple(_span(span) for span in spans))


def _span(data: Any) -> Span:
    if not isinstance(data, dict):
        raise RecordProblem(f"span is a JSON {json_type(data)}, not an object")
    try:
        start, end, label, text = int(data["start"]), int(data["end"]), str(data["label"]), str(data["text"])
        score = float(data.get("score", 1.0))
    except (KeyError, TypeError, ValueError):
        raise RecordProblem("span needs integer start and end, a label, a text and a numeric score") from None
    if label not in Label.__members__:
        raise RecordProblem(f"unknown label {label!r} at offsets {start}-{end}")
    subtype = data.get("subtype")
    source = str(data.get("source", "gold"))
    return Span(start, end, Label(label), text, source, score, None if subtype is None else str(subtype))


def attach_spans(records: Iterable[Record], found: Iterable[SpanRecord | ReadFailure]) -> Iterator[Record]:
    """Pair each input record with the spans read back for it (same order and ids), as ``doc.spans``."""
    for index, (record, spans) in enumerate(zip_longest(records, found)):
        if record is None or spans is None:
            raise InputError(f"position {index}", "the spans file and the input have different lengths")
        rid = record.id if isinstance(record, Document) else record.record_id
        other = spans.id if isinstance(spans, SpanRecord) else spans.record_id
        if rid != other:
            raise InputError(rid, f"the spans file has record {other!r} at position {index}")
        if isinstance(record, ReadFailure):
            yield record
            continue
        if isinstance(spans, ReadFailure):
            yield spans
            continue
        try:
            attached: Record = record.with_spans(spans.spans)
        except SpanError as exc:
            attached = ReadFailure(index, rid, str(exc))
        yield attached
