"""Temporal expressions: quantity + unit + format, written back in the original format and language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonymed.dates import words
from anonymed.dates.temporal import Kind, Unit, detect_order, parse_temporal, render_temporal
from anonymed.dates.words import spelled_number

REF = dt.date(2021, 5, 1)


def day(y: int, m: int, d: int) -> int:
    return dt.date(y, m, d).toordinal()


@pytest.mark.parametrize(
    ("text", "lang", "kind", "unit", "quantity"),
    [
        ("12/02/2020", "en", Kind.DATE, Unit.DAY, day(2020, 12, 2)),  # English reads MM/DD
        ("12/02/2020", "fr", Kind.DATE, Unit.DAY, day(2020, 2, 12)),  # French reads DD/MM
        ("13/02/2020", "en", Kind.DATE, Unit.DAY, day(2020, 2, 13)),  # MM/DD impossible: DD/MM
        ("February 26, 2020", "en", Kind.DATE, Unit.DAY, day(2020, 2, 26)),
        ("26 février 2020", "fr", Kind.DATE, Unit.DAY, day(2020, 2, 26)),
        ("le 1er mars 2020", "fr", Kind.DATE, Unit.DAY, day(2020, 3, 1)),  # French ordinal
        ("2020-02-26", "en", Kind.DATE, Unit.DAY, day(2020, 2, 26)),  # ISO
        ("26.02.2020", "fr", Kind.DATE, Unit.DAY, day(2020, 2, 26)),  # dotted
        ("6-17-21", "en", Kind.DATE, Unit.DAY, day(2021, 6, 17)),  # two-digit year
        ("8/14", "en", Kind.DATE, Unit.DAY, day(2021, 8, 14)),  # yearless: reference year
        ("12/83", "en", Kind.MONTH_YEAR, Unit.MONTH, 12 * 1983 + 11),  # month and two-digit year
        ("March 2020", "en", Kind.MONTH_YEAR, Unit.MONTH, 12 * 2020 + 2),
        ("1992", "en", Kind.YEAR, Unit.YEAR, 1992),
        ("July", "en", Kind.MONTH, Unit.MONTH, 12 * 2021 + 6),
        ("11th", "en", Kind.DAY_OF_MONTH, Unit.DAY, 11),
        ("3 months ago", "en", Kind.AMOUNT, Unit.MONTH, 3),
        ("il y a 10 ans", "fr", Kind.AMOUNT, Unit.YEAR, 10),  # French relative expression
        ("three weeks ago", "en", Kind.AMOUNT, Unit.WEEK, 3),  # number in words
        ("il y a deux jours", "fr", Kind.AMOUNT, Unit.DAY, 2),
        ("10:30", "en", Kind.TIME, Unit.MINUTE, 630),
        ("3 pm", "en", Kind.HOUR, Unit.HOUR, 15),
    ],
)
def test_expressions_parse_to_a_quantity_in_their_own_unit(
    text: str, lang: str, kind: Kind, unit: Unit, quantity: int
) -> None:
    value = parse_temporal(text, lang=lang, reference=REF)
    assert value is not None
    assert (value.kind, value.unit, value.quantity) == (kind, unit, quantity)


@pytest.mark.parametrize(
    ("text", "lang", "age"),
    [
        ("02/12/2020", "en", False),
        ("12/02/2020", "fr", False),
        ("February 26, 2020", "en", False),
        ("Feb. 26th, 2020", "en", False),
        ("26 février 2020", "fr", False),
        ("26 fevrier 2020", "fr", False),  # no accents stays without accents
        ("mercredi 26 févr. 2020", "fr", False),
        ("WEDNESDAY, FEBRUARY 26, 2020", "en", False),
        ("the 3rd of March, 2021", "en", False),
        ("Feb 26 '20", "en", False),
        ("8/14", "en", False),
        ("10/14/82", "en", False),
        ("1980s", "en", False),
        ("il y a un an", "fr", False),
        ("a year ago", "en", False),
        ("2,5 semaines", "fr", False),
        ("10:30 P.M.", "en", False),
        ("14h30", "fr", False),
        ("40 years old", "en", True),
        ("40-year-old", "en", True),
        ("40 y/o", "en", True),
        ("âgé de 40 ans", "fr", True),
        ("18 months old", "en", True),
        ("98", "en", True),
    ],
)
def test_rendering_the_same_quantity_gives_back_the_original_text(text: str, lang: str, age: bool) -> None:
    value = parse_temporal(text, lang=lang, reference=REF, age=age)
    assert value is not None
    assert render_temporal(value, value.quantity) == text


@pytest.mark.parametrize(
    ("text", "lang", "shift", "expected"),
    [
        ("02/12/2020", "en", 8, "02/20/2020"),  # MM/DD kept, zero padding kept
        ("12/02/2020", "fr", 8, "20/02/2020"),  # DD/MM kept
        ("February 26, 2020", "en", 4, "March 1, 2020"),
        ("26 février 2020", "fr", 4, "1er mars 2020"),  # French first of the month
        ("le 1er mars 2020", "fr", 1, "le 2 mars 2020"),
        ("Tue Feb 25 2020", "en", 1, "Wed Feb 26 2020"),  # weekday recomputed
        ("Dec. 30, 2020", "en", 3, "Jan. 2, 2021"),
        ("8/14", "en", 20, "9/3"),  # yearless stays yearless and unpadded
        ("12/83", "en", 1, "1/84"),
        ("1980s", "en", 12, "1990s"),
        ("3 months ago", "en", -2, "1 month ago"),  # singular agreement
        ("il y a 10 ans", "fr", -9, "il y a 1 an"),
        ("40 years old", "en", -3, "37 years old"),
        ("three weeks ago", "en", 2, "five weeks ago"),
        ("10:30 P.M.", "en", 120, "12:30 A.M."),
    ],
)
def test_surrogates_keep_format_and_language(text: str, lang: str, shift: int, expected: str) -> None:
    value = parse_temporal(text, lang=lang, reference=REF, age="old" in text)
    assert value is not None
    assert render_temporal(value, value.quantity + shift) == expected


@pytest.mark.parametrize(
    "text",
    [
        "2/31",  # no such day in either order
        "10/03/10/04",  # two dates glued together
        "3-4 weeks",  # a range: one number would be left as it is
        "le 3 mars 2020 à 14h",  # date and time: the hour would leak
        "11/21.93",  # mixed separators
    ],
)
def test_spans_whose_digits_cannot_all_be_replaced_are_not_parsed(text: str) -> None:
    assert parse_temporal(text, lang="fr" if "mars" in text else "en", reference=REF) is None


def test_numeric_order_follows_unambiguous_dates_of_the_document() -> None:
    assert detect_order(["13/02/2020", "02/03/2020"], "en") == "DMY"
    assert detect_order(["02/13/2020"], "fr") == "MDY"
    assert detect_order(["02/03/2020"], "fr") == "DMY"


def test_two_digit_years_stay_two_digit() -> None:
    value = parse_temporal("92", reference=REF, year_only=True)
    assert value is not None and value.quantity == 1992
    assert render_temporal(value, 1995) == "95"


@pytest.mark.parametrize(
    ("text", "lang", "written"),
    [
        ("Wed, 26 Feb 2020 10:30:00 GMT", "en", "February 26, 2020"),  # the time is dropped, not leaked
        ("26 févr. 2020 à 10:30", "fr", "26 février 2020"),
    ],
)
def test_textual_dates_the_template_misses_fall_back_to_dateparser(
    text: str, lang: str, written: str
) -> None:
    value = parse_temporal(text, lang=lang, reference=REF)
    assert value is not None and value.quantity == day(2020, 2, 26)
    assert render_temporal(value, value.quantity) == written


@given(
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)), st.sampled_from(["en", "fr"])
)
def test_numeric_dates_round_trip_in_their_language(date: dt.date, lang: str) -> None:
    text = (
        f"{date.day:02d}/{date.month:02d}/{date.year}"
        if lang == "fr"
        else f"{date.month:02d}/{date.day:02d}/{date.year}"
    )
    value = parse_temporal(text, lang=lang, reference=REF)
    assert value is not None and value.quantity == date.toordinal()
    assert render_temporal(value, value.quantity) == text


@pytest.mark.parametrize(
    "text",
    [
        "le deux janvier mille neuf cent soixante dix huit",  # only the month was a slot: day, year leaked
        "vingt mars 20",  # "vingt" (the day) was kept while 20 was read as the day
        "le premier mars 2020",  # "premier" (the 1st) was kept beside the noisy date
    ],
)
def test_dates_with_spelled_out_numbers_are_not_parsed(text: str) -> None:
    assert parse_temporal(text, lang="fr", reference=REF) is None


@pytest.mark.parametrize(
    ("text", "lang", "shift", "expected"),
    [
        ("Sept 01,2026", "en", 1, "Sep 02,2026"),  # "01,2026" was read as a decimal number
        ("12/2020", "en", 1, "1/2021"),  # month and four-digit year, like 12/83
        ("2020-12", "en", 1, "2021-01"),  # ISO year-month keeps two-digit months (was "2021-1")
        ("12 mars 2020", "fr", -30, "11 février 2020"),  # "mars" has no accent to drop: accents kept
        ("12 fevrier 2020", "fr", 30, "13 mars 2020"),  # an unaccented original stays unaccented
        ("Tues, Feb 25 2020", "en", 1, "Wed, Feb 26 2020"),  # "Tues" was kept, telling the true weekday
        ("mar 3 mars 2020", "fr", 1, "mer 4 mars 2020"),  # "mar" is mardi in French, not March
        ("le 2e mars 2020", "fr", 1, "le 3e mars 2020"),  # the French ordinal "e" is kept
        ("10:30", "en", -60, "09:30"),  # a 24-hour time keeps a two-digit hour
        ("3:45 PM", "en", -60, "2:45 PM"),  # a 12-hour time does not gain a zero
    ],
)
def test_formats_read_and_written_back(text: str, lang: str, shift: int, expected: str) -> None:
    value = parse_temporal(text, lang=lang, reference=REF)
    assert value is not None
    assert render_temporal(value, value.quantity + shift) == expected


def test_month_year_numbers_do_not_vote_for_the_numeric_order() -> None:
    assert detect_order(["12/2020", "02/03/2020"], "fr") == "DMY"


@pytest.mark.parametrize(("table", "kind"), [(words.MONTHS, "month"), (words.WEEKDAYS, "weekday")])
def test_every_name_of_the_tables_reads_back_as_itself(
    table: Mapping[tuple[str, str], tuple[str, ...]], kind: str
) -> None:
    for (lang, _form), names in table.items():
        for number, name in enumerate(names, start=1):
            found = words.name_of(name, lang)
            assert found is not None and (found.kind, found.lang, found.number) == (kind, lang, number)


def test_synthetic_notes_write_months_from_the_shared_table() -> None:
    from anonymed.train import synthetic

    assert words.MONTHS[("en", "full")] == synthetic._EN_MONTHS
    assert words.MONTHS[("fr", "full")] == synthetic._FR_MONTHS


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("ninety-two", "en", 92),
        ("Ninety", "en", 90),
        ("one hundred and one", "en", 101),
        ("a hundred", "en", 100),
        ("twenty one", "en", 21),
        ("quatre-vingt-douze", "fr", 92),
        ("quatre-vingt-dix-neuf", "fr", 99),
        ("quatre-vingts", "fr", 80),
        ("soixante et onze", "fr", 71),
        ("nonante-deux", "fr", 92),
        ("cent un", "fr", 101),
        ("ninety minutes", "en", None),
        ("and", "en", None),
        ("deux cents", "fr", None),  # 200: past the reader's range
    ],
)
def test_numbers_spelled_in_words(text: str, lang: str, value: int | None) -> None:
    assert spelled_number(text, lang) == value


def test_an_age_in_words_is_read_in_years() -> None:
    value = parse_temporal("ninety-two", lang="en", age=True)
    assert value is not None and value.quantity == 92 and value.unit is Unit.YEAR


@pytest.mark.parametrize(
    ("texts", "lang", "order"),
    [
        (["12.04.1950"], "en", "DMY"),  # dots and a year: the European and British convention
        (["12.04.1950", "3 March 2024"], "en", "DMY"),
        (["12/04/1950"], "en", "MDY"),  # slashes: the language's order
        (["12.04"], "en", "MDY"),  # no year: "12.04" may be a number
        (["12.04.1950", "04/13/1950"], "en", "MDY"),  # an unambiguous date still decides
    ],
)
def test_dotted_dates_with_a_year_are_day_first_when_nothing_decides(
    texts: list[str], lang: str, order: str
) -> None:
    assert detect_order(texts, lang) == order
