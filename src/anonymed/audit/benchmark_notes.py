"""Synthetic patients (Faker names) and their notes: MTSamples texts with names where clinicians write them.

A note gets a header line (``PATIENT NAME: Anna Beth Cole``, ``RE: Cole, Anna``...), the patient's name in
place of the transcription's placeholders (``Mr. ABC``, ``Ms. XYZ``) or of its first mentions of "the
patient", and clinicians' names in place of ``Dr. XYZ``. Every name written is a gold NAME span.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from faker import Faker

from anonymed.document import Span
from anonymed.errors import ResourceError
from anonymed.labels import Label
from anonymed.randomness import RandomSource

_TOKEN = re.compile(r"[A-Z][a-z]+")
_PLACEHOLDER = re.compile(r"\b(?:Mr|Mrs|Ms|Miss)\.? (?:ABC|XYZ|XXX|ABCD|X)\b")
_THE_PATIENT = re.compile(r"\b[Tt]he patient\b")
_DOCTOR = re.compile(r"\bDr\.? (?:ABC|XYZ|XXX|ABCD|X)\b")
_HEADERS: tuple[str, ...] = ("PATIENT NAME: {full}", "PATIENT: {last}, {first}", "RE: {full}", "NAME: {full}")
MENTIONS = 2  # "the patient" replaced at most this many times per note


@dataclass(frozen=True)
class Person:
    """A synthetic person: name tokens (first, optional middle, last) and sex (F/M)."""

    first: str
    middle: str | None
    last: str
    sex: str

    @property
    def full(self) -> str:
        """First, middle and last name."""
        return " ".join(t for t in (self.first, self.middle, self.last) if t)

    @property
    def title(self) -> str:
        """Mr. or Ms."""
        return "Mr." if self.sex == "M" else "Ms."


class NameMaker:
    """Draws unique Faker names whose tokens are plain capitalised words absent from ``vocabulary``."""

    def __init__(self, rng: RandomSource, vocabulary: frozenset[str], middle_share: float) -> None:
        self.faker = Faker("en_US")
        cast(Any, self.faker).random = rng.python  # Faker's stub omits the ``random`` property
        self.rng, self.vocabulary, self.middle_share = rng, vocabulary, middle_share
        self.used: set[str] = set()

    def _token(self, draw: Callable[[], str]) -> str:
        for _ in range(1000):
            token = draw()
            if _TOKEN.fullmatch(token) and token.lower() not in self.vocabulary:
                return token
        raise ResourceError("Faker gave no usable name token in 1000 draws")

    def person(self, sex: str) -> Person:
        """A new person of ``sex`` whose full name no one else has."""
        first_draw = self.faker.first_name_female if sex == "F" else self.faker.first_name_male
        while True:
            first, last = self._token(first_draw), self._token(self.faker.last_name)
            middle = self._token(first_draw) if self.rng.uniform() < self.middle_share else None
            person = Person(first, middle if middle != first else None, last, sex)
            if person.full not in self.used:
                self.used.add(person.full)
                return person


class NoteWriter:
    """Builds a note's text and its gold NAME spans piece by piece."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[tuple[int, int, str]] = []
        self.length = 0

    def text(self, value: str) -> None:
        """Append plain text."""
        self.parts.append(value)
        self.length += len(value)

    def name(self, value: str, subtype: str) -> None:
        """Append a name, each of its words a NAME span (so separators are never part of a span)."""
        for match in re.finditer(r"[A-Za-z]+", value):
            self.spans.append((self.length + match.start(), self.length + match.end(), subtype))
        self.text(value)

    def result(self) -> tuple[str, tuple[Span, ...]]:
        """The text and its spans."""
        text = "".join(self.parts)
        return text, tuple(Span.of(text, s, e, Label.NAME, subtype=sub) for s, e, sub in self.spans)


def write_note(
    source: str, patient: Person, doctors: list[str], rng: RandomSource
) -> tuple[str, tuple[Span, ...]]:
    """A note about ``patient`` from a source transcription, with its gold NAME spans."""
    writer = NoteWriter()
    header = rng.choice(_HEADERS)
    for piece in re.split(r"(\{full\}|\{first\}|\{last\})", header):
        if piece in ("{full}", "{first}", "{last}"):
            writer.name(patient.full if piece == "{full}" else getattr(patient, piece[1:-1]), "patient")
        else:
            writer.text(piece)
    writer.text("\n\n")
    patterns = _PLACEHOLDER if _PLACEHOLDER.search(source) else _THE_PATIENT
    events = sorted(
        [(m.start(), m.end(), "patient") for m in list(patterns.finditer(source))[:MENTIONS]]
        + [(m.start(), m.end(), "doctor") for m in _DOCTOR.finditer(source)]
    )
    cursor, mentions = 0, 0
    for start, end, kind in events:
        writer.text(source[cursor:start])
        if kind == "doctor":
            writer.text("Dr. ")
            writer.name(rng.choice(doctors), "clinician")
        else:
            mentions += 1
            if mentions == 1 and patterns is _THE_PATIENT:
                writer.name(f"{patient.first} {patient.last}", "patient")
            else:
                writer.text(f"{patient.title} ")
                writer.name(patient.last, "patient")
        cursor = end
    writer.text(source[cursor:])
    return writer.result()
