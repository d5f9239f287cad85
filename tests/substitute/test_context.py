"""Value streams: the keys behind memoization within a document and across one patient's documents."""

from __future__ import annotations

import pytest

from anonymed.document import Document, Span
from anonymed.randomness import RandomSource
from anonymed.substitute.context import ValueStreams, normalise_value

KEY = b"patient-key-0123456789abcdef0123"


def _doc(doc_id: str = "d1", patient: str | None = "p1") -> Document:
    return Document(doc_id, "John  Smith", {} if patient is None else {"patient_id": patient})


def _key(doc_id: str = "d1", seed: int | None = 1, *, patient: str | None = "p1", key: bytes | None = None,
         label: str = "NAME", value: str = "John") -> bytes:  # fmt: skip
    return ValueStreams(_doc(doc_id, patient), RandomSource(seed), key).key_for(label, value)


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("John", "john"),  # case folded
        ("  John \n Smith ", "john smith"),  # whitespace collapsed and trimmed
        ("STRASSE", "strasse"),  # full case folding
        ("Straße", "strasse"),  # sharp s folds like its capital form
    ],
)
def test_normalise_value_table(text: str, normalised: str) -> None:
    assert normalise_value(text) == normalised


def test_patient_key_gives_one_stream_per_patient_whatever_the_document_or_seed() -> None:
    reference = _key("d1", 1, key=KEY)
    assert reference == _key("d2", 2, key=KEY) == _key("d3", None, key=KEY)
    assert reference == _key("d1", 1, key=KEY, value="  JOHN ")
    assert reference != _key("d1", 1, key=KEY, patient="p2")
    assert reference != _key("d1", 1, key=KEY, label="LOCATION")
    assert reference != _key("d1", 1, key=b"another-key")


def test_patient_key_without_a_patient_id_falls_back_to_the_document_stream() -> None:
    assert _key("d1", 1, patient=None, key=KEY) == _key("d1", 1, patient=None)
    assert _key("d1", 1, patient=None, key=KEY) != _key("d2", 1, patient=None, key=KEY)


def test_seeded_streams_depend_on_seed_document_label_and_value_only() -> None:
    assert _key("d1", 1) == _key("d1", 1) == _key("d1", 1, value="john")
    assert _key("d1", 1) != _key("d2", 1)
    assert _key("d1", 1) != _key("d1", 2)
    assert _key("d1", 1) != _key("d1", 1, value="Jon")


def test_secure_streams_are_stable_within_a_document_and_fresh_across_runs() -> None:
    streams = ValueStreams(_doc(), RandomSource(None))
    assert streams.key_for("NAME", "John") == streams.key_for("NAME", "JOHN")
    assert streams.key_for("NAME", "John") != streams.key_for("NAME", "Smith")
    assert streams.key_for("NAME", "John") != ValueStreams(_doc(), RandomSource(None)).key_for("NAME", "John")


def test_the_stream_of_a_span_replays_for_an_equal_value() -> None:
    doc = Document("d1", "John and JOHN")
    streams = ValueStreams(doc, RandomSource(None))
    first, second = Span.of(doc.text, 0, 4, "NAME"), Span.of(doc.text, 9, 13, "NAME")
    assert [streams.for_span(first).randbelow(10**9) for _ in range(3)] == [
        streams.for_span(second).randbelow(10**9) for _ in range(3)
    ]
