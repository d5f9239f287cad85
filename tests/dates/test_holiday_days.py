"""Holidays read as the day they name: fixed days, rules checked against published calendars, layouts."""

from __future__ import annotations

import datetime as dt

import pytest

from anonymed.dates.holidays import holiday_day, parse_holiday
from anonymed.dates.temporal import Kind, parse_temporal, render_temporal


@pytest.mark.parametrize(
    ("phrase", "lang", "year", "day"),
    [
        ("Christmas", "en", 2023, dt.date(2023, 12, 25)),
        ("Christmas Eve", "en", 2023, dt.date(2023, 12, 24)),
        ("New Year's Eve", "en", 2021, dt.date(2021, 12, 31)),
        ("Fourth of July", "en", 2020, dt.date(2020, 7, 4)),
        ("St. Patrick's Day", "en", 2022, dt.date(2022, 3, 17)),
        ("Thanksgiving", "en", 2024, dt.date(2024, 11, 28)),  # fourth Thursday of November
        ("Thanksgiving", "en", 2023, dt.date(2023, 11, 23)),
        ("Memorial Day", "en", 2025, dt.date(2025, 5, 26)),  # last Monday of May
        ("Labor Day", "en", 2024, dt.date(2024, 9, 2)),  # first Monday of September
        ("MLK Day", "en", 2025, dt.date(2025, 1, 20)),  # third Monday of January
        ("Presidents' Day", "en", 2025, dt.date(2025, 2, 17)),
        ("Mother's Day", "en", 2024, dt.date(2024, 5, 12)),  # second Sunday of May
        ("Father's Day", "en", 2024, dt.date(2024, 6, 16)),  # third Sunday of June
        ("Easter", "en", 2024, dt.date(2024, 3, 31)),
        ("Easter Sunday", "en", 2025, dt.date(2025, 4, 20)),
        ("Good Friday", "en", 2024, dt.date(2024, 3, 29)),
        ("Noël", "fr", 2023, dt.date(2023, 12, 25)),
        ("la Toussaint", "fr", 2022, dt.date(2022, 11, 1)),
        ("jour de l'an", "fr", 2022, dt.date(2022, 1, 1)),
        ("lundi de Pâques", "fr", 2024, dt.date(2024, 4, 1)),
        ("Ascension", "fr", 2024, dt.date(2024, 5, 9)),
        ("Pentecôte", "fr", 2024, dt.date(2024, 5, 19)),
    ],
)
def test_a_holiday_names_its_day(phrase: str, lang: str, year: int, day: dt.date) -> None:
    assert holiday_day(phrase, lang, year) == day


@pytest.mark.parametrize(("phrase", "lang"), [("Christmas tree", "en"), ("Noël", "en"), ("Easter", "fr")])
def test_other_phrases_are_no_holiday(phrase: str, lang: str) -> None:
    assert holiday_day(phrase, lang, 2024) is None


@pytest.mark.parametrize(
    ("text", "lang", "moved"),
    [
        ("Christmas Day 2023", "en", "December 28 2023"),
        ("Thanksgiving, 2022", "en", "November 27, 2022"),
        ("Christmas Eve", "en", "December 27"),  # no year: the reference year's day
        ("CHRISTMAS", "en", "DECEMBER 28"),
        ("Noël 2022", "fr", "28 décembre 2022"),
    ],
)
def test_a_holiday_is_written_back_as_a_date_in_its_language(text: str, lang: str, moved: str) -> None:
    value = parse_holiday(text, lang, dt.date(2024, 6, 1))
    assert value is not None and value.kind is Kind.DATE
    assert render_temporal(value, value.quantity + 3) == moved


def test_a_holiday_and_its_date_are_one_value() -> None:
    """Same day, same memoization key: a date shift moves "Christmas 2023" and "12/25/2023" alike."""
    holiday = parse_temporal("Christmas 2023", lang="en")
    numeric = parse_temporal("12/25/2023", lang="en")
    assert holiday is not None and numeric is not None and holiday.key == numeric.key
