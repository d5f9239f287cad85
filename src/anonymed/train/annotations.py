"""Extra training annotations: JSONL ``{"id", "text", "lang", "spans": [{start, end, label, subtype}]}``.

The format of the shared contracts, as ``anonymed review export`` writes it (``annotations.jsonl``): one
note per line with its PHI, offsets in Python ``str`` indices over ``text``; overlapping spans are kept,
as the gold readers keep them. ``anonymed train recognizer --extra FILE`` adds these notes to the
training data. Training data must be right: a bad line fails the
whole file, with its line number and id, never its text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from anonymed.document import Document, Span
from anonymed.errors import InputError
from anonymed.io.base import ReadFailure
from anonymed.io.common import RecordProblem, json_type, open_input
from anonymed.io.jsonl import parse_lines
from anonymed.labels import parse_label


def _span(data: Any, text: str) -> Span:
    if not isinstance(data, dict):
        raise RecordProblem(f"span is a JSON {json_type(data)}, not an object")
    start, end, label = data.get("start"), data.get("end"), data.get("label")
    subtype = data.get("subtype")
    if not (isinstance(start, int) and isinstance(end, int) and isinstance(label, str)):
        raise RecordProblem("span needs integer start and end and a string label")
    if subtype is not None and not isinstance(subtype, str):
        raise RecordProblem(f"subtype is a JSON {json_type(subtype)}, not a string or null")
    if not 0 <= start < end <= len(text):
        raise RecordProblem(f"span offsets {start}-{end} outside the text (length {len(text)})")
    name, sub = parse_label(label if subtype is None else f"{label}/{subtype}")
    return Span.of(text, start, end, name, subtype=sub)


def _note(index: int, rid: str, obj: dict[str, Any]) -> Document:
    text, lang, spans = obj.get("text"), obj.get("lang"), obj.get("spans")
    if not isinstance(text, str):
        raise RecordProblem(f"text is a JSON {json_type(text)}, not a string")
    if not isinstance(lang, str):
        raise RecordProblem(f"lang is a JSON {json_type(lang)}, not a string")
    if not isinstance(spans, list):
        raise RecordProblem(f"spans is a JSON {json_type(spans)}, not an array")
    gold = tuple(sorted((_span(span, text) for span in spans), key=lambda s: (s.start, s.end)))
    # each note is its own cross-validation group: a reviewed note names no patient
    metadata = {"lang": lang, "patient_id": f"extra:{rid}", "corpus": "extra"}
    return Document(rid, text, metadata, gold=gold)


def read_annotations(path: Path) -> list[Document]:
    """The annotated notes of a JSONL annotations file, gold spans in ``Document.gold``; a bad line fails."""
    notes = []
    with open_input(path) as lines:
        for record in parse_lines(lines, _note, "id"):
            if isinstance(record, ReadFailure):
                raise InputError(record.record_id, f"bad annotation line in {path.name}: {record.reason}")
            notes.append(record)
    return notes


def notes_of_language(notes: Sequence[Document], lang: str, source: str) -> list[Document]:
    """The notes of ``lang``; an ``InputError`` when there are notes but none in that language."""
    kept = [doc for doc in notes if doc.lang == lang]
    if notes and not kept:
        raise InputError(source, f"none of its {len(notes)} annotated notes is in language {lang!r}")
    return kept


def file_digest(path: Path) -> str:
    """``sha256:`` of a file's bytes (to name extra data in a model's metadata without its path)."""
    digest = hashlib.sha256()
    with open_input(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"sha256:{digest.hexdigest()}"
