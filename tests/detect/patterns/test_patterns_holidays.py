"""Holidays found as dates: several words or a year always, one word only after a time word."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector


def dates(text: str, lang: str = "en") -> set[str]:
    """The text of every DATE span the pattern detector finds."""
    return {s.text for s in PatternDetector().detect_text(text, lang) if s.label.value == "DATE"}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Admitted on Christmas Day 2023 after a fall.", "en", "Christmas Day 2023"),
        ("Fell on Thanksgiving.", "en", "Thanksgiving"),
        ("chest pain over Thanksgiving, 2022", "en", "Thanksgiving, 2022"),
        ("Seen on Christmas Eve.", "en", "Christmas Eve"),
        ("Memorial Day weekend at the lake", "en", "Memorial Day"),
        ("since New Year's Day", "en", "New Year's Day"),
        ("home for Christmas", "en", "Christmas"),
        ("last Easter", "en", "Easter"),
        ("depuis la Toussaint", "fr", "la Toussaint"),
        ("chute à Noël 2022", "fr", "Noël 2022"),
        ("chute le lundi de Pâques", "fr", "lundi de Pâques"),
    ],
)
def test_holidays_are_dates(text: str, lang: str, expected: str) -> None:
    assert expected in dates(text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("put up the Christmas tree", "en"),  # one word, no time word before it
        ("an Easter egg", "en"),
        ("referred by Ascension Health", "en"),  # a health system, and "Ascension" is French only
        ("Dr Noël a vu la patiente", "fr"),  # a surname
        ("Toussaint Louverture", "fr"),
        ("Christmas on the ward", "fr"),  # an English holiday in a French note
    ],
)
def test_holiday_words_that_are_no_dates(text: str, lang: str) -> None:
    assert not dates(text, lang)
