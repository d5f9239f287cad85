"""Regex recognizers for structured PHI: dates, times, phones, e-mails, URLs, IPs, identifiers, postal
codes and ages, in English and French."""

from __future__ import annotations

import re
from functools import partial
from typing import ClassVar, Final

from anonymed.detect.base import Detector
from anonymed.detect.custom import compile_patterns
from anonymed.detect.patterns import (
    addresses,
    ages,
    contact,
    dates,
    formats,
    holidays,
    ids,
    national,
    people,
    places,
    spaced,
    textdates,
    times,
    years,
)
from anonymed.detect.patterns.base import Finder, PatternParams, Scan, resolve_overlaps
from anonymed.detect.patterns.recognizer import find_declared
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.labels import Label

__all__ = ["FINDERS", "PatternDetector", "PatternParams", "all_patterns", "mark_births"]

#: every recognizer, in no particular order (overlaps are resolved by score, then length)
FINDERS: Final[tuple[Finder, ...]] = (
    dates.find_numeric_dates,
    textdates.find_text_dates,
    holidays.find_holidays,
    years.find_years,
    times.find_times,
    contact.find_contacts,
    ids.find_ids,
    places.find_zips,
    ages.find_ages,
    spaced.find_spaced,
    partial(find_declared, formats.RECOGNIZERS),
    partial(find_declared, people.RECOGNIZERS),
    partial(find_declared, addresses.RECOGNIZERS),
    partial(find_declared, national.RECOGNIZERS),
)

_MODULES: Final = (
    dates,
    textdates,
    years,
    times,
    contact,
    ids,
    places,
    ages,
    spaced,
    formats,
    people,
    addresses,
    holidays,
    national,
)


def all_patterns() -> tuple[re.Pattern[str], ...]:
    """Every compiled regular expression the recognizers use (for safety tests)."""
    return tuple(pattern for module in _MODULES for pattern in module.PATTERNS)


#: words announcing a date of birth
_BIRTH: Final = re.compile(
    r"\b(?:née?s?|nee|naissance|ddn|dob|d\.o\.b|born|birth|birthday|date of birth|birthdate)\b", re.I
)


def mark_births(scan: Scan, spans: list[Span]) -> list[Span]:
    """Retype as DATE/birth the dates that a birth word announces (nearest date after the word only)."""
    marked: list[Span] = []
    previous_end = 0
    for span in spans:
        if span.label is Label.DATE and span.subtype is None:
            window_start = max(previous_end, span.start - 40)
            before = scan.text[window_start : span.start]
            if _BIRTH.search(before[before.rfind("\n") + 1 :]):
                span = scan.span(span.start, span.end, Label.DATE, "birth", span.score)
            previous_end = span.end
        marked.append(span)
    return marked


class PatternDetector(Detector[PatternParams]):
    """Finds dates, contacts, identifiers, postal codes and ages with validated regular expressions."""

    name: ClassVar[str] = "patterns"
    params_type = PatternParams

    def __init__(self, params: PatternParams | None = None) -> None:
        super().__init__(params)
        self.custom = compile_patterns(self.params.custom)  # the site's formats (anonymed.detect.custom)

    def detect(self, doc: Document) -> list[Span]:
        """Non-overlapping spans found in ``doc.text`` (source ``patterns``)."""
        return self.detect_text(doc.text, doc.lang)

    def detect_view(self, view: NoteView) -> list[Span]:
        """Non-overlapping spans found in the view's document; its shared word keys let some recognizers
        skip a note early (no month or weekday name: no named date)."""
        keys = view.word_keys
        return self._scan(Scan(view.text, view.lang, self.params, keys))

    def detect_text(self, text: str, lang: str = "en") -> list[Span]:
        """Non-overlapping spans found in ``text`` written in ``lang``."""
        return self._scan(Scan(text, lang, self.params))

    def _scan(self, scan: Scan) -> list[Span]:
        candidates = [span for finder in FINDERS for span in finder(scan)]
        candidates += find_declared(self.custom, scan)
        return mark_births(scan, resolve_overlaps(candidates))
