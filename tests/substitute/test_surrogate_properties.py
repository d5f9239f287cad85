"""Properties of surrogates a clinician reads: dates stay real dates in their layout, places and names
are made of real words."""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
import re
from functools import cache
from importlib import resources

from hypothesis import example, given, settings
from hypothesis import strategies as st

from anonymed.dates.pieces import read_pieces
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource
from anonymed.substitute.fake.gazetteer import gazetteer
from anonymed.substitute.invariant import fold
from anonymed.substitute.registry import build_operator
from anonymed.substitute.stage import Substituter

KEY = b"patient-key-0123456789abcdef0123"
REF = dt.date(2030, 1, 1)
LEAP = dt.date(2028, 1, 1)
MONTHS_FR = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
             "octobre", "novembre", "décembre"]  # fmt: skip
MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _run(text: str, target: str, label: Label, lang: str, operator: str, seed: int) -> str:
    start = text.index(target)
    doc = Document("d", text, {"lang": lang, "patient_id": f"p{seed}", "reference_date": REF.isoformat()})
    doc = doc.with_spans([Span.of(text, start, start + len(target), label)])
    operators = {lab: build_operator("tag") for lab in Label}
    operators[label] = build_operator(operator)
    (rep,) = Substituter(operators, patient_key=KEY)(doc, RandomSource()).replacements
    return rep.surrogate


def _layout(text: str) -> str:
    """Runs of digits and of letters; French writes the first of a month "1er"."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "9", re.sub(r"(?<=\b1)er\b", "", text)))


@st.composite
def date_spans(draw: st.DrawFn) -> tuple[str, str]:
    """(text, lang): single dates, ranges, partial dates and merged dates of the notes' layouts."""
    lang = draw(st.sampled_from(["en", "fr"]))
    day = draw(st.dates(dt.date(1950, 1, 1), dt.date(2025, 12, 31)))
    other = min(day + dt.timedelta(days=draw(st.integers(1, 20))), dt.date(day.year, 12, 31))
    other = other if other > day else day + dt.timedelta(days=1)
    if lang == "en":
        forms = [
            f"{day.month}/{day.day}-{other.month}/{other.day}",
            f"{day.month}/{day.day} - {other.month}/{other.day}",
            f"{day.day} {MONTHS_EN[day.month - 1]}, {day.year % 100:02d}",
            f"{day.month:02d}/{day.day:02d}/{day.year}",
            f"{day.month}/{day.day}, {other.month}/{other.day}",
        ]
    else:
        month = MONTHS_FR[day.month - 1]
        end = min(day.day + 3, 28)
        forms = [
            f"{day.day:02d}/{day.month:02d}/{day.year} {other.day:02d}-{other.month:02d}-{other.year}",
            " ".join(f"{day.day:02d}{day.month:02d}{day.year}"),
            f"du {min(day.day, end - 1)} au {end} {month} {day.year}",
            f"{day.day} {month} {day.year}",
            f"{day.day:02d}/{day.month:02d}/{day.year % 100:02d} {other.strftime('%d/%m/%Y')}",
        ]
    return draw(st.sampled_from(forms)), lang


@settings(max_examples=150, deadline=None)
@given(span=date_spans(), operator=st.sampled_from(["date_shift", "fake"]), seed=st.integers(0, 50))
@example(span=("12/31-1/1", "en"), operator="date_shift", seed=7)  # a yearless range over the new year
@example(span=("5/28-5/29", "en"), operator="date_shift", seed=40)  # shifted onto 12/31-1/1 (a leap year)
def test_every_date_surrogate_is_a_real_date_in_the_original_layout(
    span: tuple[str, str], operator: str, seed: int
) -> None:
    text, lang = span
    out = _run(f"Vu le {text} .", text, Label.DATE, lang, operator, seed)
    assert _layout(out) == _layout(text), (text, out)
    order = "DMY" if lang == "fr" else "MDY"
    before = read_pieces(text, lang, order, LEAP)
    after = read_pieces(out, lang, order, LEAP)  # a yearless "2/29" may be a real date: read it so
    assert len(after) >= len([p for p in before if p.value is not None]), (text, out)
    assert all(p.value is not None for p in after), (text, out)  # every date group is a real date
    for first, second in itertools.pairwise(after):
        if first.range_start and first.value is not None and second.value is not None:
            gap = second.value.quantity - first.value.quantity
            if not re.search(r"\d{4}|\d/\d+/\d", out):  # yearless: a range may cross the new year
                gap %= (dt.date(LEAP.year + 1, 1, 1) - LEAP).days  # yearless dates are read in LEAP's year
            assert gap > 0, (text, out)  # ranges stay in order


@cache
def known_words() -> frozenset[str]:
    """The shipped lexicons, the gazetteer's words and the generic words of places."""
    ref = resources.files("anonymed") / "resources" / "lexicons"
    words: set[str] = set()
    for name in ("common_en.txt.gz", "common_fr.txt.gz", "first_names.txt.gz", "last_names.txt.gz"):
        words |= set(gzip.decompress((ref / name).read_bytes()).decode().split())
    places = gazetteer()
    for town in (*places.towns, *places.communes):
        words.update(re.findall(r"[^\W\d_]+", fold(town.name)))
    for name in (*places.states.values(), *places.countries.values()):
        words.update(re.findall(r"[^\W\d_]+", fold(name)))
    return frozenset(words | {"hosp", "rehab", "cedex", "bis", "ter", "av", "chu", "hop", "st", "lakeside",
                              "riverside", "parkview", "hillside"})  # fmt: skip


def non_words(text: str) -> list[str]:
    return [
        w
        for w in re.findall(r"[^\W\d_]+", text)
        if len(w) >= 2 and not (w.isupper() and len(w) <= 5) and fold(w) not in known_words()
    ]


PLACES = {
    "en": ["Catonsville", "Towson", "Baltimore", "Seattle", "Maryland", "Holy Cross Hospital",
           "19 Clover St.", "Kessler Adventist Hosp", "Sacred Heart Memorial Hospital", "Harbor"],
    "fr": ["Dijon", "Nogent sur Marne", "Hôpital Bichat", "Clinique du Parc", "12 rue du Lys 75002 Paris",
           "28 bis chemin Etienne d'Orge 21000 Dijon cedex 29", "CHU de Besançon", "Béziers",
           "17 RUE DE RENNES, APPT 188, 35000 RENNES"],
}  # fmt: skip
NAMES = {
    "en": ["John Smith", "Mrs. Mary Nicholson", "SMITH, JOHN"],
    "fr": ["Claire DURAND", "M. Jean Martin"],
}


@settings(max_examples=120, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["en", "fr"]), seed=st.integers(0, 10_000))
def test_no_non_word_in_a_name_place_or_address_surrogate(data: st.DataObject, lang: str, seed: int) -> None:
    label = data.draw(st.sampled_from([Label.LOCATION, Label.NAME]))
    value = data.draw(st.sampled_from(PLACES[lang] if label is Label.LOCATION else NAMES[lang]))
    out = _run(f"Vu à {value} hier.", value, label, lang, "fake", seed)
    assert not non_words(out), (value, out)
    assert fold(out) != fold(value)
