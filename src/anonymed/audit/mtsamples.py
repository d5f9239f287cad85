"""The benchmark's source material: distinct MTSamples notes with their diagnoses and the patient's sex.

A note's diagnoses are its clinical specialty (not the note types such as "Discharge Summary") and its first
keyword phrases of one to three words that at least ``min_notes`` notes share (rarer ones cannot be tested,
and the boilerplate keyword is dropped).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from anonymed.audit.data import diagnosis_key
from anonymed.embeddings.tokenize import words
from anonymed.io.corpus import MTSAMPLES, NOTE_TYPES, mtsamples_notes

#: what is not a diagnosis, normalised as diagnoses are: the note types (``io/corpus.py: NOTE_TYPES``) and
#: the "specialties" that name a kind of report (surgery: operative reports, radiology: imaging reports;
#: together they fill half the corpus and would be everyone's diagnosis)
REPORT_KINDS = frozenset(
    {diagnosis_key(kind) for kind in NOTE_TYPES} | {"general medicine", "autopsy", "radiology"}
)
_FEMALE = re.compile(r"\b(?:she|her|hers)\b", re.IGNORECASE)
_MALE = re.compile(r"\b(?:he|his|him)\b", re.IGNORECASE)


@dataclass(frozen=True)
class SourceNote:
    """One distinct MTSamples transcription with its diagnoses and the sex its pronouns suggest (F/M/U)."""

    id: str
    text: str
    diagnoses: tuple[str, ...]
    sex: str


def _keywords(row: dict[str, str]) -> list[str]:
    phrases = [diagnosis_key(k) for k in row.get("keywords", "").split(",")]
    return list(dict.fromkeys(p for p in phrases if p and len(p.split()) <= 3))


def _sex(text: str) -> str:
    female, male = len(_FEMALE.findall(text)), len(_MALE.findall(text))
    return "F" if female > male else "M" if male > female else "U"


@lru_cache(maxsize=4)
def source_notes(min_notes: int = 5, per_note: int = 4, path: Path = MTSAMPLES) -> tuple[SourceNote, ...]:
    """The distinct non-empty MTSamples notes with their diagnoses (loaded once per process)."""
    rows: dict[str, dict[str, str]] = {}
    for doc in mtsamples_notes(path):
        text = doc.text.strip()
        if text and text not in rows:
            rows[text] = {**doc.metadata["record"], "note_id": doc.id}
    shared = Counter(k for row in rows.values() for k in _keywords(row))
    notes: list[SourceNote] = []
    for text, row in rows.items():
        specialty = diagnosis_key(row.get("medical_specialty", ""))
        keywords = [k for k in _keywords(row) if shared[k] >= min_notes and k != specialty]
        diagnoses = ([specialty] if specialty and specialty not in REPORT_KINDS else []) + keywords[:per_note]
        notes.append(SourceNote(row["note_id"], text, tuple(diagnoses), _sex(text)))
    return tuple(notes)


@lru_cache(maxsize=1)
def source_vocabulary(path: Path = MTSAMPLES) -> frozenset[str]:
    """Every lower-cased word of the MTSamples notes (names that are words would blur the ground truth)."""
    return frozenset(w for note in source_notes(path=path) for w in words(note.text))
