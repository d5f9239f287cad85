"""The document model: spans validate their offsets, documents check their spans, everything is frozen."""

from __future__ import annotations

import dataclasses

import pytest

from anonymed import Document, Label, Span, SpanError
from anonymed.labels import EDS_PSEUDO_LABELS, PHYSIONET_LABELS, PRESIDIO_LABELS, SUBTYPES, parse_label

TEXT = "Seen by Dr. Park on 7/22."


def test_span_of_slices_its_text() -> None:
    span = Span.of(TEXT, 12, 16, "NAME", subtype="clinician")
    assert span.text == "Park"
    assert span.full_label == "NAME/clinician"


@pytest.mark.parametrize(
    ("start", "end", "label", "subtype"),
    [
        (5, 5, "NAME", None),  # empty span
        (-1, 3, "NAME", None),  # negative start
        (20, 40, "DATE", None),  # runs past the end of the text
        (12, 16, "PERSON", None),  # label outside the taxonomy
        (12, 16, "NAME", "city"),  # subtype of another label
    ],
)
def test_span_of_rejects_invalid_spans(start: int, end: int, label: str, subtype: str | None) -> None:
    with pytest.raises(SpanError):
        Span.of(TEXT, start, end, label, subtype=subtype)


def test_span_rejects_text_of_the_wrong_length() -> None:
    with pytest.raises(SpanError):
        Span(0, 4, Label.NAME, "Par")


def test_span_error_message_names_offsets_not_text() -> None:
    with pytest.raises(SpanError) as info:
        Document("d1", TEXT, spans=(Span(0, 4, Label.NAME, "Jane"),))
    assert "Jane" not in str(info.value) and "Seen" not in str(info.value)
    assert "0-4" in str(info.value)


def test_document_is_frozen_and_metadata_read_only() -> None:
    doc = Document("d1", TEXT, {"patient_id": 7, "lang": "fr"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        doc.text = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        doc.metadata["lang"] = "en"  # type: ignore[index]
    assert doc.patient_id == "7" and doc.lang == "fr"


def test_with_spans_sorts_by_position() -> None:
    spans = [Span.of(TEXT, 20, 24, "DATE"), Span.of(TEXT, 12, 16, "NAME")]
    doc = Document("d1", TEXT).with_spans(spans)
    assert [s.start for s in doc.spans] == [12, 20]


def test_result_is_output_when_substituted() -> None:
    doc = Document("d1", TEXT)
    assert doc.result == TEXT
    assert doc.evolve(output="X").result == "X"


@pytest.mark.parametrize(
    ("mapping", "key", "expected"),
    [
        (PHYSIONET_LABELS, "HCPName", (Label.NAME, "clinician")),  # clinician names
        (PHYSIONET_LABELS, "DateYear", (Label.DATE, "year")),  # bare years
        (EDS_PSEUDO_LABELS, "SECU", (Label.ID, "nir")),  # French social security number
        (EDS_PSEUDO_LABELS, "HOPITAL", (Label.LOCATION, "hospital")),  # hospitals are locations
        (PRESIDIO_LABELS, "US_SSN", (Label.ID, "ssn")),  # Presidio SSN
    ],
)
def test_corpus_labels_map_into_the_taxonomy(
    mapping: dict[str, tuple[Label, str | None]], key: str, expected: tuple[Label, str | None]
) -> None:
    assert mapping[key] == expected


def test_every_corpus_mapping_uses_valid_subtypes() -> None:
    for mapping in (PHYSIONET_LABELS, EDS_PSEUDO_LABELS, PRESIDIO_LABELS):
        for label, subtype in mapping.values():
            assert subtype is None or subtype in SUBTYPES[label]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("NAME", (Label.NAME, None)),  # bare label
        ("name/patient", (Label.NAME, "patient")),  # case-insensitive with subtype
        ("CONTACT/fax", (Label.CONTACT, "fax")),  # contact subtype
        ("DATE/", (Label.DATE, None)),  # an empty subtype means none
    ],
)
def test_parse_label_accepts_label_and_subtype(value: str, expected: tuple[Label, str | None]) -> None:
    assert parse_label(value) == expected


@pytest.mark.parametrize("value", ["PERSON", "NAME/city"])
def test_parse_label_rejects_unknown_values(value: str) -> None:
    with pytest.raises(SpanError):
        parse_label(value)


def test_doc_state_keeps_values_under_typed_keys_equal_by_name() -> None:
    from anonymed.document import DocState, StateKey

    state = DocState()
    key = StateKey[int]("count")
    assert state.get(key) is None and key not in state
    built = []
    assert state.computed(key, lambda: built.append(1) or 3) == 3
    assert state.computed(StateKey[int]("count"), lambda: built.append(1) or 4) == 3  # same name, same entry
    assert built == [1]
    state.set(key, 5)
    assert state.get(StateKey[int]("count")) == 5 and len(state) == 1
    assert state.get(StateKey[int]("other")) is None
