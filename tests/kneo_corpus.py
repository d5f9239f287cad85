"""The tiny corpus the word-substitution tests train on (words, a planted name, settings)."""

from __future__ import annotations

import random

from anonymed.embeddings import Hygiene, TrainParams

COMMON = [
    "the",
    "patient",
    "was",
    "seen",
    "in",
    "clinic",
    "today",
    "with",
    "chest",
    "pain",
    "and",
    "shortness",
    "of",
    "breath",
    "she",
    "denies",
    "fever",
    "cough",
    "nausea",
    "vomiting",
    "left",
    "right",
    "knee",
    "hip",
    "shoulder",
    "mild",
    "severe",
    "history",
    "of",
    "hypertension",
    "diabetes",
    "taking",
    "aspirin",
    "daily",
    "blood",
    "pressure",
    "normal",
    "exam",
    "abdomen",
    "soft",
    "nontender",
    "heart",
    "regular",
    "rhythm",
    "lungs",
    "clear",
    "straße",
    "strasse",
]
PLANTED = "qwertyson"  # a leftover name: many times, but in one note only
TWO_NOTES = "zyxwvut"  # in two notes only (below the default min_docs=3)
TINY = TrainParams(vector_size=16, epochs=3, bucket=2000, workers=1, n_max=6)
TINY_HYGIENE = Hygiene(min_count=5, min_docs=3)


def tiny_corpus(documents: int = 60, seed: int = 0) -> list[str]:
    """Notes of random common words; one note names Qwertyson six times, two notes name Zyxwvut."""
    rnd = random.Random(seed)
    notes = []
    for i in range(documents):
        words = [rnd.choice(COMMON) for _ in range(70)]
        if i == 0:
            words += ["Mr", "Qwertyson"] * 6
        if i in (1, 2):
            words += [TWO_NOTES.upper()] * 3
        notes.append(" ".join(words).capitalize() + ".")
    return notes
