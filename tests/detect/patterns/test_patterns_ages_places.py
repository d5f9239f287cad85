"""Ages (AGE, AGE/over89 past 89) and postal codes (LOCATION/zip)."""

from __future__ import annotations

import pytest

from anonymed.detect.patterns.detector import PatternDetector, PatternParams
from anonymed.labels import Label


def found(text: str, lang: str = "en", **options: bool) -> set[tuple[str, str]]:
    """(full label, text) of every span the detector finds."""
    spans = PatternDetector(PatternParams(**options)).detect_text(text, lang)
    return {(span.full_label, span.text) for span in spans}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("a 40 years old man", "en", "40"),  # years old
        ("40 yo F with CP", "en", "40"),  # yo
        ("59 YO WITH HX OF MI", "en", "59"),  # upper case
        ("40 y/o female", "en", "40"),  # y/o
        ("40 y.o. female", "en", "40"),  # y.o.
        ("a 40-year-old woman", "en", "40"),  # hyphenated
        ("aged 40, seen today", "en", "40"),  # aged
        ("He just turned 60", "en", "60"),  # turned
        ("40 years of age", "en", "40"),  # of age
        ("3 month old infant", "en", "3"),  # months
        ("patiente âgée de 46 ans", "fr", "46"),  # French
        ("M. X âgé de 73 ans, né le", "fr", "73"),  # French, masculine
        ("| H | 30-12-1974 (27 ans) |", "fr", "27"),  # in parentheses
        ("une femme de 65 ans", "fr", "65"),  # person word before
        ("Agée de 65 ans", "fr", "65"),  # no accent, capital
    ],
)
def test_ages_are_found(text: str, lang: str, expected: str) -> None:
    assert ("AGE", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("98 yo gentleman admitted", "en", "98"),  # PhysioNet form
        ("aged 95 at admission", "en", "95"),  # aged
        ("patiente âgée de 102 ans", "fr", "102"),  # French
        ("a 90-year-old man", "en", "90"),  # just over the limit
        ("admitted 2 days after his 90th birthday", "en", "90"),  # a birthday's ordinal
        ("her 101st bday party", "en", "101"),
        ("elle a fêté son 92e anniversaire", "fr", "92"),
    ],
)
def test_ages_over_89_are_marked(text: str, lang: str, expected: str) -> None:
    assert ("AGE/over89", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Patient is a ninety-two year old man.", "en", "ninety-two"),
        ("a Ninety year-old woman", "en", "Ninety"),
        ("ninety-two years of age", "en", "ninety-two"),
        ("aged one hundred and one, lives alone", "en", "one hundred and one"),
        ("She is a hundred years old.", "en", "a hundred"),
        ("Patiente de quatre-vingt-douze ans", "fr", "quatre-vingt-douze"),
        ("âgée de quatre-vingt-dix-neuf ans", "fr", "quatre-vingt-dix-neuf"),
        ("Mme X (nonante-cinq ans)", "fr", "nonante-cinq"),  # Belgium, Switzerland
    ],
)
def test_ages_over_89_in_words_are_marked(text: str, lang: str, expected: str) -> None:
    assert ("AGE/over89", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("a seventy-two year old man", "en"),  # under 90: HIPAA lets it stand, the tagger decides
        ("ninety minutes later", "en"),  # no age word
        ("one hundred mg given", "en"),
        ("quatre-vingts ans", "fr"),  # 80
        ("depuis cent ans", "fr"),  # a duration, as "depuis 100 ans"
    ],
)
def test_numbers_in_words_that_are_no_age_over_89(text: str, lang: str) -> None:
    assert not any(label.startswith("AGE") for label, _ in found(text, lang))


def test_age_89_is_not_over89() -> None:
    assert ("AGE", "89") in found("an 89 yo woman")


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("diabète depuis 10 ans", "fr"),  # duration
        ("il y a 5 ans", "fr"),  # duration
        ("tabagisme pendant 20 ans", "fr"),  # duration
        ("for 3 years", "en"),  # duration without old
        ("age 150 yo", "en"),  # impossible age
        ("stage 4 disease", "en"),  # stage is not age
    ],
)
def test_durations_are_not_ages(text: str, lang: str) -> None:
    spans = PatternDetector().detect_text(text, lang)
    assert not any(span.label is Label.AGE for span in spans)


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Boston, MA 02114", "en", "02114"),  # state then ZIP
        ("Austin TX 78701-1234", "en", "78701-1234"),  # ZIP+4
        ("zip code: 10001", "en", "10001"),  # zip word
        ("42 rue de Belleville, 75020 Paris", "fr", "75020"),  # street before
        ("30 RUE DU CHATEAU, 92100 BOULOGNE", "fr", "92100"),  # upper case
        ("70 RUE DU CALVAIRE, 33 215 NANTES", "fr", "33 215"),  # spaced code
        ("sept allée des roses 2A782 Chelles", "fr", "2A782"),  # Corsica
        ("résidant 13006 Marseille", "fr", "13006"),  # code before a city
        ("code postal 69003", "fr", "69003"),  # code postal
    ],
)
def test_postal_codes_are_found(text: str, lang: str, expected: str) -> None:
    assert ("LOCATION/zip", expected) in found(text, lang)


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("1400 Hillcrest Ave, Apt 212, Boise ID 83706. Emergency", "Boise"),  # no comma before the state
        ("Springfield, IL 62704", "Springfield"),
        ("SAN DIEGO, CA 92101", "SAN DIEGO"),
        ("Winston-Salem NC 27101", "Winston-Salem"),
        ("Salt Lake City, UT 84101-1234", "Salt Lake City"),
        ("12 Oak St Boise ID 83706", "Boise"),  # the street's words are not the town's
    ],
)
def test_the_town_before_a_state_and_zip_code_is_a_place(text: str, town: str) -> None:
    assert ("LOCATION/city", town) in found(text, "en")


@pytest.mark.parametrize("text", ["BP 120/80 IN 10101", "WA 98101", "Apt 212, ID 83706", "IN 12000 units"])
def test_no_town_without_capitalised_words_before_the_state(text: str) -> None:
    assert not any(label == "LOCATION/city" for label, _ in found(text, "en"))


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("héparine 25000 UI par jour", "fr"),  # dose in units
        ("plt 12345 today", "en"),  # count with no address around
        ("00123 Paris", "fr"),  # department 00 does not exist
        ("IN 12000 units", "en"),  # state-like word before a quantity
    ],
)
def test_quantities_are_not_postal_codes(text: str, lang: str) -> None:
    assert not any(label == "LOCATION/zip" for label, _ in found(text, lang))
