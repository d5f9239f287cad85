"""The benchmark generator: known names where clinicians write them, diagnoses, misses, protected copies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anonymed.audit.benchmark import Benchmark, BenchmarkConfig, make_benchmark
from anonymed.audit.benchmark_store import load_benchmark, save_benchmark
from anonymed.audit.mtsamples import source_notes
from anonymed.labels import Label

CONFIG = BenchmarkConfig(
    patients=12, min_notes=2, max_notes=3, miss_rate=0.25, protections=("removal", "replacement")
)


@pytest.fixture(scope="module")
def bench() -> Benchmark:
    return make_benchmark(CONFIG)


def _mentions(text: str, name: str) -> bool:
    return any(re.search(rf"\b{re.escape(token)}\b", text) for token in name.split())


def test_every_patient_has_notes_diagnoses_and_a_two_or_three_token_name(bench: Benchmark) -> None:
    assert len(bench.patients) == 12
    assert len({p.name for p in bench.patients}) == 12
    for patient in bench.patients:
        assert 2 <= len(patient.name.split()) <= 3
        assert 2 <= len(patient.notes) <= 3
        assert patient.diagnoses
    assert len(bench.documents) == sum(len(p.notes) for p in bench.patients)


def test_patient_diagnoses_are_those_of_their_notes(bench: Benchmark) -> None:
    by_id = {note.id: note for note in source_notes()}
    for patient in bench.patients:
        docs = [d for d in bench.documents if d.patient_id == patient.id]
        expected = {dx for d in docs for dx in by_id[d.metadata["source"]].diagnoses}
        assert set(patient.diagnoses) == expected


def test_names_are_written_in_the_header_and_marked_as_gold_spans(bench: Benchmark) -> None:
    names = {p.id: p.name for p in bench.patients}
    for doc in bench.documents:
        header = doc.text.split("\n", 1)[0]
        assert re.match(r"(PATIENT NAME|PATIENT|RE|NAME): ", header)
        patient_spans = [s for s in doc.gold if s.subtype == "patient"]
        assert patient_spans and all(s.label is Label.NAME for s in doc.gold)
        assert {s.text for s in patient_spans} <= set(names[doc.patient_id].split())


def test_the_detector_misses_the_configured_share_of_patients(bench: Benchmark) -> None:
    assert sum(p.missed for p in bench.patients) == round(0.25 * 12)


def test_removal_keeps_only_the_missed_names(bench: Benchmark) -> None:
    texts = bench.copies["removal"].texts
    for doc, text in zip(bench.documents, texts, strict=True):
        patient = next(p for p in bench.patients if p.id == doc.patient_id)
        assert _mentions(text, patient.name) == patient.missed
        assert "[NAME]" in text or patient.missed
    assert bench.copies["removal"].decoys == frozenset()


def test_replacement_writes_surrogates_instead_of_the_detected_names(bench: Benchmark) -> None:
    copy = bench.copies["replacement"]
    assert copy.decoys  # surrogate name tokens the attacker will also find
    for doc, text in zip(bench.documents, copy.texts, strict=True):
        patient = next(p for p in bench.patients if p.id == doc.patient_id)
        assert (patient.name.split()[-1] in text) == patient.missed or patient.name.split()[
            -1
        ].lower() in copy.decoys


def test_ground_truth_subjects_depend_on_the_protection(bench: Benchmark) -> None:
    missed = sum(p.missed for p in bench.patients)
    assert len(bench.audit_data("removal").patients) == missed  # only missed names reach the release
    assert len(bench.audit_data("none").patients) == 12  # nothing removed: every name is there
    assert bench.audit_data("replacement").decoys == bench.copies["replacement"].decoys


def test_the_same_seed_gives_the_same_benchmark(bench: Benchmark) -> None:
    again = make_benchmark(CONFIG)
    assert [d.text for d in again.documents] == [d.text for d in bench.documents]
    assert again.copies["replacement"].texts == bench.copies["replacement"].texts


def test_a_saved_benchmark_loads_back_identical(bench: Benchmark, tmp_path: Path) -> None:
    loaded = load_benchmark(save_benchmark(bench, tmp_path / "bench"))
    assert loaded.config == bench.config
    assert loaded.patients == bench.patients
    assert [(d.id, d.text, d.gold, d.patient_id) for d in loaded.documents] == [
        (d.id, d.text, d.gold, d.patient_id) for d in bench.documents
    ]
    assert {k: (v.texts, v.decoys) for k, v in loaded.copies.items()} == {
        k: (v.texts, v.decoys) for k, v in bench.copies.items()
    }


def test_sentence_substitution_is_skipped_with_a_reason_when_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    import anonymed.methods.sentences as sentences  # where the methods layer checks what sentences need

    monkeypatch.setattr(sentences, "MODULES", ("anonymed.no_such_module",))
    small = make_benchmark(BenchmarkConfig(patients=3, min_notes=1, max_notes=1, protections=("sentences",)))
    assert "sentences" not in small.copies
    assert "not available" in small.skipped["sentences"]
    assert small.available == ()
