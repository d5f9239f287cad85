"""EDS-Pseudo (AP-HP): JSON Lines ``{"note_id", "note_text", "entities": [{start, end, label}]}``, French."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from anonymed.document import Span
from anonymed.io.common import RecordProblem, gold_entity, json_type
from anonymed.io.jsonl import JsonlReader, JsonlWriter
from anonymed.labels import EDS_PSEUDO_LABELS


class EdsPseudoReader(JsonlReader):
    """EDS-Pseudo notes with their gold entities mapped through ``EDS_PSEUDO_LABELS``.

    The notes are French: ``lang`` is accepted for a uniform signature, but every document gets ``fr``
    unless its record names a language. Gold spans with leading or trailing spaces (3 in the corpus) are
    narrowed to their non-space part. ``entities`` becomes ``Document.gold`` and is not carried in
    ``metadata["record"]`` (its offsets describe the original text).
    """

    format = "eds-pseudo"
    gold_fields = ("entities",)

    def __init__(self, path: Path, *, lang: str = "fr") -> None:
        super().__init__(path, lang="fr", text_field="note_text", id_field="note_id")

    def writer_options(self) -> dict[str, Any]:
        """The EDS-Pseudo writer has fixed fields."""
        return {}

    def gold(self, obj: Mapping[str, Any], text: str) -> tuple[Span, ...]:
        """The record's entities as gold spans."""
        entities = obj.get("entities", [])
        if not isinstance(entities, list):
            raise RecordProblem(f"entities is a JSON {json_type(entities)}, not an array")
        return tuple(_span(entity, text) for entity in entities)


def _span(entity: Any, text: str) -> Span:
    keys = ("start", "end", "label")
    start, end, _, (label, subtype) = gold_entity(entity, "entity", keys, EDS_PSEUDO_LABELS)
    while start < end <= len(text) and text[start].isspace():
        start += 1
    while start < end <= len(text) and text[end - 1].isspace():
        end -= 1
    return Span.of(text, start, end, label, subtype=subtype)


class EdsPseudoWriter(JsonlWriter):
    """Writes EDS-Pseudo lines ``{"note_id", "note_text"}`` with the anonymized text (no stale entities)."""

    format = "eds-pseudo"

    def __init__(self, path: Path) -> None:
        super().__init__(path, text_field="note_text", id_field="note_id")
