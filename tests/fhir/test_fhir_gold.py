"""The "gold FHIR" set: PhysioNet and EDS-pseudo development notes as DocumentReferences (plain text,
HTML, latin-1): the FHIR path leaks no more gold PHI than the plain-text path on the same notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.fhir import FhirDeidentifier, FhirOptions
from anonymed.fhir.gold import ENCODINGS, leaks, read_notes, write_gold_export
from anonymed.pipeline import Pipeline
from anonymed.train.corpora import read_gold_documents
from anonymed.train.recipe import DEV_CORPORA, training_root

#: notes per language (a slice of the development notes, enough for every encoding and label)
SUBSET = {"en": 160, "fr": 150}


def gold_docs(lang: str) -> list[Document]:
    relative, fmt = DEV_CORPORA[lang]
    return read_gold_documents(training_root() / relative, fmt, lang)[: SUBSET[lang]]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_fhir_path_leaks_no_more_than_the_plain_text_path(lang: str, tmp_path: Path) -> None:
    docs = gold_docs(lang)
    notes = write_gold_export(docs, tmp_path / "in")
    config = PipelineConfig(lang=lang)
    deid = FhirDeidentifier(FhirOptions(patient_key=b"gold-key-0123456789"), config)
    deid.run(tmp_path / "in", tmp_path / "out")
    by_id = {doc.id: doc for doc in docs}
    written = read_notes(tmp_path / "out")
    fhir_out = {ref: written[deid.ids.resource_id("DocumentReference", ref)] for ref in notes}
    gold = {ref: by_id[note].gold for ref, (note, _) in notes.items()}
    # the same notes through the plain-text path, with the same pipeline and patient ids
    pipeline = Pipeline(config.replace(patient_key=b"gold-key-0123456789"))
    plain_out = {
        ref: pipeline.run(Document(ref, by_id[note].text, {"patient_id": patient, "lang": lang})).result
        for ref, (note, patient) in notes.items()
    }
    fhir_leaked, total = leaks(gold, fhir_out)
    plain_leaked, _ = leaks(gold, plain_out)
    assert total > 100
    assert fhir_leaked <= plain_leaked, (fhir_leaked, plain_leaked, total)


def test_gold_export_uses_every_encoding_and_round_trips(tmp_path: Path) -> None:
    docs = gold_docs("fr")[:6]
    notes = write_gold_export(docs, tmp_path)
    lines = (tmp_path / "DocumentReference.000.ndjson").read_text(encoding="utf-8")
    assert all(kind in lines for kind in ENCODINGS)
    decoded = read_notes(tmp_path)
    by_id = {doc.id: doc for doc in docs}
    for ref, (note, _) in notes.items():
        assert " ".join(decoded[ref].split()) == " ".join(by_id[note].text.split())
    assert leaks({ref: by_id[note].gold for ref, (note, _) in notes.items()}, decoded)[0] > 0
