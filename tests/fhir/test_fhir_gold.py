"""The "gold FHIR" set: PhysioNet and EDS-pseudo development notes as DocumentReferences (plain text,
HTML, latin-1): the FHIR path leaks no more gold PHI than the plain-text path on the same notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.evaluate.leaks import Anonymized, LeakReport, evaluate_leaks
from anonymed.fhir import FhirDeidentifier, FhirOptions
from anonymed.fhir.gold import ENCODINGS, read_notes, write_gold_export
from anonymed.pipeline import Pipeline
from anonymed.train.corpora import read_gold_documents
from anonymed.train.recipe import DEV_CORPORA, training_root

#: notes per language (a slice of the development notes, enough for every encoding and label)
SUBSET = {"en": 160, "fr": 150}
KEY = b"gold-key-0123456789"


def gold_docs(lang: str) -> list[Document]:
    relative, fmt = DEV_CORPORA[lang]
    return read_gold_documents(training_root() / relative, fmt, lang)[: SUBSET[lang]]


def leak_report(docs: dict[str, Document], outputs: dict[str, str]) -> LeakReport:
    """The leak rate of ``anonymed evaluate leaks`` (its text survives at or near its place), by alignment."""
    return evaluate_leaks(Anonymized(docs[ref], outputs[ref]) for ref in outputs)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_fhir_path_leaks_no_more_than_the_plain_text_path(lang: str, tmp_path: Path) -> None:
    """Both with the default profile and the same key, measured the same way (main's leak measure)."""
    docs = gold_docs(lang)
    notes = write_gold_export(docs, tmp_path / "in")
    config = PipelineConfig(lang=lang)
    deid = FhirDeidentifier(FhirOptions(patient_key=KEY), config)
    deid.run(tmp_path / "in", tmp_path / "out")
    by_id = {doc.id: doc for doc in docs}
    by_ref = {ref: by_id[note] for ref, (note, _) in notes.items()}
    written = read_notes(tmp_path / "out")
    fhir_out = {ref: written[deid.ids.resource_id("DocumentReference", ref)] for ref in notes}
    # the same notes through the plain-text path, with the same profile, key and patient ids
    pipeline = Pipeline(config.replace(patient_key=KEY))
    plain_out = {
        ref: pipeline.run(Document(ref, by_id[note].text, {"patient_id": patient, "lang": lang})).result
        for ref, (note, patient) in notes.items()
    }
    fhir_leaks = leak_report(by_ref, fhir_out).overall
    plain_leaks = leak_report(by_ref, plain_out).overall
    assert fhir_leaks.items > 100 and fhir_leaks.items == plain_leaks.items
    assert fhir_leaks.leaked <= plain_leaks.leaked, (fhir_leaks.leaked, plain_leaks.leaked)


def test_gold_export_uses_every_encoding_and_round_trips(tmp_path: Path) -> None:
    docs = gold_docs("fr")[:6]
    notes = write_gold_export(docs, tmp_path)
    lines = (tmp_path / "DocumentReference.000.ndjson").read_text(encoding="utf-8")
    assert all(kind in lines for kind in ENCODINGS)
    decoded = read_notes(tmp_path)
    by_id = {doc.id: doc for doc in docs}
    for ref, (note, _) in notes.items():
        assert " ".join(decoded[ref].split()) == " ".join(by_id[note].text.split())
    unchanged = leak_report({ref: by_id[note] for ref, (note, _) in notes.items()}, decoded).overall
    assert unchanged.leaked == unchanged.items > 0  # an unchanged note leaks every gold item
