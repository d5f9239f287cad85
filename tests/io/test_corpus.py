"""io/corpus.py: compressed training corpora and the one MTSamples loader."""

from __future__ import annotations

import lzma
from pathlib import Path

from anonymed.io.base import ReadFailure
from anonymed.io.corpus import MTSAMPLES, NOTE_TYPES, documents, mtsamples_notes, open_corpus

ROWS = (
    "note_id,medical_specialty,keywords,transcription\n"
    'a1,Cardiovascular / Pulmonary,"chest pain, angina",Chest pain for two days.\n'
    "a2,Surgery,,Incision closed.\n"
    "a3,Letters\n"
)


def _xz(tmp_path: Path) -> Path:
    path = tmp_path / "notes.csv.xz"
    path.write_bytes(lzma.compress(ROWS.encode("utf-8")))
    return path


def test_a_compressed_csv_reads_as_the_plain_file_would(tmp_path: Path) -> None:
    failures: list[ReadFailure] = []
    with open_corpus(_xz(tmp_path), "csv", text_field="transcription", id_field="note_id") as reader:
        docs = list(documents(reader, failures))
    assert [d.id for d in docs] == ["a1", "a2"]
    assert [f.record_id for f in failures] == ["a3"]  # a short row fails alone, by id


def test_mtsamples_notes_keep_the_other_columns_and_skip_bad_rows(tmp_path: Path) -> None:
    docs = mtsamples_notes(_xz(tmp_path))
    assert [(d.id, d.text) for d in docs] == [("a1", "Chest pain for two days."), ("a2", "Incision closed.")]
    assert docs[0].metadata["record"]["keywords"] == "chest pain, angina"
    assert "transcription" not in docs[0].metadata["record"]


def test_every_note_type_is_spelled_as_in_the_shipped_mtsamples() -> None:
    specialties = {d.metadata["record"]["medical_specialty"].strip() for d in mtsamples_notes()}
    assert MTSAMPLES.exists() and specialties >= NOTE_TYPES
