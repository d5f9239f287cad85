"""The ``known`` detector: the record's own identifiers (``doc.metadata["known"]``) and the site's rosters,
found in the note (``people`` for names, ``values`` for the rest, ``rosters`` for the site's lists).

A match of the record's identifiers has the identifier's label and subtype, source ``known`` and score 1
(0.9 when read through a typo); a roster match has source ``roster`` and score 0.9 (0.8). The pipeline
runs this detector on every document whatever the configured detectors (it costs nothing when the
document carries no known identifier and no roster is configured).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from anonymed.detect.base import Detector
from anonymed.detect.known.people import People, Target, name_keys
from anonymed.detect.known.rosters import Roster
from anonymed.detect.known.values import (
    KnownDates,
    Phrases,
    dates_of,
    find_patterns,
    is_number,
    literal_pattern,
    matching_dates,
    number_forms,
    number_pattern,
)
from anonymed.detect.patterns.detector import PatternDetector
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span
from anonymed.known import Known, document_known
from anonymed.labels import Label

SOURCE: Final = "known"
#: how many documents' sorted known identifiers a detector keeps (a bound on memory, not a tuning knob)
_RECORDS_KEPT: Final = 64
#: the score of a match of the record's own identifiers, and of one read through a typo
KNOWN_SCORE: Final = 1.0
KNOWN_TYPO_SCORE: Final = 0.9


@dataclass(frozen=True)
class KnownParams:
    """Options: typos for the record's names (and for the roster's), and the site's roster."""

    typos: bool = True
    roster: Roster = field(default_factory=Roster)
    roster_typos: bool = False


@dataclass
class _Record:
    """One document's known identifiers, sorted by how they are looked for."""

    people: People = field(default_factory=People)
    patterns: list[Any] = field(default_factory=list)
    dates: list[KnownDates] = field(default_factory=list)
    phrases: Phrases = field(default_factory=Phrases)


def _sort(items: Iterable[Known], lang: str) -> _Record:
    record = _Record()
    for item in items:
        target = Target(item.label, item.subtype, KNOWN_SCORE, SOURCE, KNOWN_TYPO_SCORE)
        value = item.value
        if item.label is Label.NAME:
            record.people.add(name_keys(value), target)
        elif item.label is Label.CONTACT and (item.subtype in ("email", "url") or "@" in value):
            record.patterns.append((literal_pattern(value), target))
        elif item.label is Label.DATE and (dates := dates_of(value, lang)):
            record.dates.append((dates, target))
        elif is_number(value):
            record.patterns += [(number_pattern(form), target) for form in number_forms(item)]
        else:
            record.phrases.add(value, target)
    return record


class KnownDetector(Detector):
    """Finds the record's known identifiers and the site's clinicians and places in the note."""

    name: ClassVar[str] = "known"
    params_type = KnownParams

    def __init__(self, params: KnownParams | None = None) -> None:
        self.params = params if params is not None else KnownParams()
        self._dates = PatternDetector()
        #: the last records built, by (items, lang): the texts of one patient (a FHIR export's notes,
        #: narratives and codes' text) carry the same list, and building it is half the detector's time
        self._records: dict[tuple[tuple[Known, ...], str], _Record] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the kept records (they hold known identifiers: secrets stay in this process)."""
        return {**self.__dict__, "_records": {}}

    def detect(self, doc: Document) -> list[Span]:
        """Spans of the known identifiers and roster entries in ``doc``."""
        return self.detect_view(NoteView(doc))

    def detect_view(self, view: NoteView) -> list[Span]:
        """Spans of the known identifiers and roster entries, using the view's tokens."""
        items = tuple(document_known(view.doc.metadata))
        if not items and not self.params.roster:
            return []
        found = list(self._record(view, items)) if items else []
        if self.params.roster:
            found += self._roster(view)
        return [_span(view.text, start, end, target, typo) for start, end, target, typo in found]

    def _record(self, view: NoteView, items: tuple[Known, ...]) -> Iterator[tuple[int, int, Target, bool]]:
        record = self._records.get((items, view.lang))
        if record is None:
            if len(self._records) >= _RECORDS_KEPT:
                self._records.clear()
            record = self._records[(items, view.lang)] = _sort(items, view.lang)
        text, words = view.text, view.words
        names = record.people.find(text, words, view.lang, typos=self.params.typos)
        for start, end, _, _, target, typo in names:
            yield start, end, target, typo
        for start, end, target in find_patterns(text, record.patterns):
            yield start, end, target, False
        if record.dates:
            candidates = [s for s in view.spans_of(self._dates) if s.label is Label.DATE]
            for start, end, target in matching_dates(candidates, view.lang, record.dates):
                yield start, end, target, False
        for start, end, target in record.phrases.find(text, words, view.lang):
            yield start, end, target, False

    def _roster(self, view: NoteView) -> list[tuple[int, int, Target, bool]]:
        roster, text, words = self.params.roster, view.text, view.words
        names = roster.people.find(text, words, view.lang, typos=self.params.roster_typos)
        found = [(start, end, target, typo) for start, end, _, _, target, typo in names]
        places = roster.place_names.find(text, words, view.lang)
        found += [(start, end, target, False) for start, end, target in places]
        found += [(m.start, m.end, m.payload, False) for m in roster.abbreviations.find(text, words)]
        return found


def _span(text: str, start: int, end: int, target: Target, typo: bool) -> Span:
    return Span.of(
        text,
        start,
        end,
        target.label,
        source=target.source,
        score=target.typo_score if typo else target.score,
        subtype=target.subtype,
    )
