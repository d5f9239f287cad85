"""Holidays as dates: "Christmas Eve 2023", "over Thanksgiving", "à la Toussaint".

A holiday names one day of the year, so in a note about a patient it is a date element (HIPAA Safe Harbor
removes "all elements of dates (except year)"). ``holiday_day`` reads a holiday phrase, with or without its
year, into the day it falls on: fixed days from the calendar (Christmas, 25 December), moveable ones from
their rule (US Thanksgiving: fourth Thursday of November; Easter: the Gregorian computus of ``dateutil``). A
phrase without a year falls in the reference year, as "July 4th" does. ``parse_holiday`` gives the day a
layout of month name and day (and year when written), so that a shifted holiday reads as a date ("December
27, 2023").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Final

from dateutil.easter import easter

from anonymed.dates.model import Kind, Part, Slot, Temporal, Unit, case_of
from anonymed.dates.words import fold

DayRule = Callable[[int], dt.date]


def _fixed(month: int, day: int) -> DayRule:
    return lambda year: dt.date(year, month, day)


def _nth_weekday(month: int, weekday: int, nth: int) -> DayRule:
    """The ``nth`` ``weekday`` (0 Monday) of ``month``; ``nth`` -1 is the last one."""

    def rule(year: int) -> dt.date:
        if nth > 0:
            first = dt.date(year, month, 1)
            return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
        last = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
        return last - dt.timedelta(days=(last.weekday() - weekday) % 7)

    return rule


def _after_easter(days: int) -> DayRule:
    return lambda year: easter(year) + dt.timedelta(days=days)


#: per language: folded holiday phrase (apostrophes and dots dropped, one space) -> the day it names
HOLIDAYS: Final[dict[str, dict[str, DayRule]]] = {
    "en": {
        "christmas": _fixed(12, 25),
        "christmas day": _fixed(12, 25),
        "xmas": _fixed(12, 25),
        "christmas eve": _fixed(12, 24),
        "new years day": _fixed(1, 1),
        "new years eve": _fixed(12, 31),
        "independence day": _fixed(7, 4),
        "fourth of july": _fixed(7, 4),
        "halloween": _fixed(10, 31),
        "valentines day": _fixed(2, 14),
        "veterans day": _fixed(11, 11),
        "st patricks day": _fixed(3, 17),
        "saint patricks day": _fixed(3, 17),
        "thanksgiving": _nth_weekday(11, 3, 4),
        "thanksgiving day": _nth_weekday(11, 3, 4),
        "memorial day": _nth_weekday(5, 0, -1),
        "labor day": _nth_weekday(9, 0, 1),
        "martin luther king day": _nth_weekday(1, 0, 3),
        "martin luther king jr day": _nth_weekday(1, 0, 3),
        "mlk day": _nth_weekday(1, 0, 3),
        "presidents day": _nth_weekday(2, 0, 3),
        "mothers day": _nth_weekday(5, 6, 2),
        "fathers day": _nth_weekday(6, 6, 3),
        "easter": _after_easter(0),
        "easter sunday": _after_easter(0),
        "good friday": _after_easter(-2),
    },
    "fr": {
        "noel": _fixed(12, 25),
        "reveillon de noel": _fixed(12, 24),
        "saint-sylvestre": _fixed(12, 31),
        "la saint-sylvestre": _fixed(12, 31),
        "jour de lan": _fixed(1, 1),
        "nouvel an": _fixed(1, 1),
        "toussaint": _fixed(11, 1),
        "la toussaint": _fixed(11, 1),
        "saint-valentin": _fixed(2, 14),
        "la saint-valentin": _fixed(2, 14),
        "fete du travail": _fixed(5, 1),
        "fete nationale": _fixed(7, 14),
        "paques": _after_easter(0),
        "lundi de paques": _after_easter(1),
        "ascension": _after_easter(39),
        "pentecote": _after_easter(49),
        "lundi de pentecote": _after_easter(50),
    },
}

_YEAR_AFTER: Final = re.compile(r"(?P<name>.*?)(?P<sep>,? )(?P<year>(?:19|20)\d{2})")


def phrase_key(text: str) -> str:
    """The lookup form of a holiday phrase: folded, apostrophes and dots dropped, one space between words."""
    return " ".join(fold(text).replace("'", "").replace("’", "").replace(".", "").split())


def holiday_day(text: str, lang: str, year: int) -> dt.date | None:
    """The day a holiday phrase names in ``year`` (None when ``text`` is no holiday of ``lang``)."""
    rule = HOLIDAYS.get(lang, {}).get(phrase_key(text))
    return rule(year) if rule is not None else None


def parse_holiday(text: str, lang: str, reference: dt.date) -> Temporal | None:
    """A holiday phrase, with or without a four-digit year, as the day it names, laid out as a date."""
    stripped = text.strip()
    with_year = _YEAR_AFTER.fullmatch(stripped)
    name, year = (with_year["name"], int(with_year["year"])) if with_year else (stripped, reference.year)
    day = holiday_day(name, lang, year)
    if day is None:
        return None
    month = Slot("month_name", lang=lang, form="full", case="lower" if lang == "fr" else case_of(name))
    parts: tuple[Part, ...] = (Slot("day"), " ", month) if lang == "fr" else (month, " ", Slot("day"))
    if with_year:
        parts += (with_year["sep"], Slot("year", 4))
    return Temporal(Kind.DATE, Unit.DAY, day.toordinal(), parts)
