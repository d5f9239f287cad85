"""HIPAA Safe Harbor for dates: which values imply an age over 89, the reference date, the marker."""

from __future__ import annotations

import datetime as dt

import pytest

from anonymed.dates.over89 import (
    age_at,
    age_reference,
    aggregate,
    birth_in_past,
    earliest_day,
    implies_over89,
)
from anonymed.dates.temporal import Slot, Temporal, parse_temporal
from anonymed.document import Document, Span
from anonymed.labels import Label

REF = dt.date(2021, 5, 1)


def value_of(text: str, lang: str = "en") -> Temporal:
    value = parse_temporal(text, lang=lang, reference=REF)
    assert value is not None
    return value


@pytest.mark.parametrize(
    ("text", "over"),
    [
        ("05/01/1931", True),  # 90th birthday on the reference date
        ("05/02/1931", False),  # 90 the day after: still 89
        ("1931", True),  # a year: its 1 January, so possibly 90
        ("1932", False),  # born in 1932: at most 89
        ("May 1931", True),  # a month: its first day
        ("June 1931", False),
        ("95 years ago", True),  # an event 95 years ago: the patient is older than 89
        ("89 years ago", False),
        ("05/01", False),  # yearless: says nothing of an age
    ],
)
def test_dates_90_years_before_the_reference_imply_an_age_over_89(text: str, over: bool) -> None:
    value = value_of(text)
    assert implies_over89(value, value.quantity, REF) is over


def test_a_birth_date_with_two_digit_year_is_read_in_the_past() -> None:
    value = birth_in_past(value_of("03/04/25"), REF)  # 2025 is after the reference: 1925
    day = earliest_day(value, value.quantity)
    assert day == dt.date(1925, 3, 4) and age_at(day, REF) == 96
    assert birth_in_past(value_of("03/04/15"), REF) == value_of("03/04/15")  # 2015 is in the past


@pytest.mark.parametrize(
    ("parts", "written"),
    [
        (("le ", Slot("day"), " ", Slot("month_name"), " ", Slot("year", 4)), "le [90+]"),  # words kept
        (("", Slot("year", 4, form="decade"), "s", ""), "[90+]"),  # the "s" of 1920s goes with its field
        (("", Slot("day"), " mars ", Slot("year", 4), " à ", Slot("hour"), "h"), "[90+]"),  # the "h" too
        (("born ", Slot("year", 4), "."), "born [90+]"),  # only separate words are kept
    ],
)
def test_the_marker_replaces_the_date_fields(parts: tuple[str | Slot, ...], written: str) -> None:
    assert aggregate(parts) == written


def _doc(metadata: dict[str, object], dates: list[tuple[str, str | None]]) -> Document:
    text = " ; ".join(d for d, _ in dates)
    spans, cursor = [], 0
    for date, subtype in dates:
        start = text.index(date, cursor)
        spans.append(Span.of(text, start, start + len(date), Label.DATE, subtype=subtype))
        cursor = start + len(date)
    return Document("d", text, {"lang": "en", **metadata}, spans=tuple(spans))


@pytest.mark.parametrize(
    ("metadata", "dates", "reference"),
    [
        ({"reference_date": "2010-06-01"}, [("2020-01-01", None)], dt.date(2010, 6, 1)),  # the steward's
        ({}, [("2020-01-01", None)], dt.date(2025, 1, 1)),  # older note dates: the run date
        ({}, [("2030-01-01", None)], dt.date(2030, 1, 1)),  # a note dated after the run date
        ({}, [("2031-01-01", "birth")], dt.date(2025, 1, 1)),  # a birth date is not the note's date
        ({}, [("2099-01-01", None)], dt.date(2025, 1, 1)),  # beyond 10 years: a misreading
    ],
)
def test_ages_are_counted_at_the_reference_date(
    metadata: dict[str, object], dates: list[tuple[str, str | None]], reference: dt.date
) -> None:
    assert age_reference(_doc(metadata, dates), today=dt.date(2025, 1, 1)) == reference
