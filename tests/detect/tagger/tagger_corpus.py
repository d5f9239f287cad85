"""A tiny generated corpus for tagger tests: names after titles and relatives, dates, filler sentences."""

from __future__ import annotations

from anonymed.detect.tagger.features import FeatureLexicons
from anonymed.document import Document, Span

_NAMES = (
    "Smith",
    "Garcia",
    "Nguyen",
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Kowalski",
    "Haddad",
    "Brennan",
    "Tanaka",
)
_FIRST = ("Anna", "Bob", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jon")
_DATES = ("3/12", "11/2", "7/23/2019", "1/5", "12/30/2001", "6/14", "9/9", "10/01/2020", "2/28", "5/17")
_FILLER = (
    "BP stable overnight.",
    "Lungs clear, sats 95% on 2L.",
    "Plan to wean vent in the morning.",
    "Pain controlled with morphine.",
)


def _note(index: int) -> Document:
    name, first, date = _NAMES[index % 10], _FIRST[(index * 3) % 10], _DATES[(index * 7) % 10]
    parts: list[tuple[str, str | None]] = [
        (_FILLER[index % 4] + " Seen by Dr. ", None),
        (name, "NAME"),
        (" on ", None),
        (date, "DATE"),
        (". Daughter ", None),
        (first, "NAME"),
        (" visited. " + _FILLER[(index + 1) % 4], None),
    ]
    text, spans, offset = "", [], 0
    for chunk, label in parts:
        if label is not None:
            spans.append((offset, offset + len(chunk), label))
        text += chunk
        offset += len(chunk)
    gold = tuple(Span.of(text, s, e, label) for s, e, label in spans)
    return Document(f"n{index}", text, {"lang": "en", "patient_id": str(index)}, gold=gold)


def tiny_corpus() -> list[Document]:
    """Forty short annotated notes."""
    return [_note(i) for i in range(40)]


def tiny_lexicons() -> FeatureLexicons:
    """Small word lists (the real ones come from the lexicon resources)."""
    return FeatureLexicons(
        {"first": frozenset(f.lower() for f in _FIRST), "common": frozenset({"seen", "by", "on", "visited"})}
    )
