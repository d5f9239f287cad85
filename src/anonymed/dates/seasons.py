"""Seasons with a year as dates: "Spring 2023", "SUMMER 2019", "Fall of 2022" (English).

A season and its year place an event within three months, finer than the year alone that HIPAA Safe Harbor
lets stay; and "Spring" or "Summer" alone read as surnames to a tagger ("Last seen Spring 2023" had become
"Last seen Davis 2021"). ``parse_season`` reads the pair as the season's middle month of that year (winter:
January, spring: April, summer: July, fall: October), in a layout that writes a season back, so a moved
value reads as a season and a year ("Fall 2021").
"""

from __future__ import annotations

import re
from typing import Final

from anonymed.dates.model import Kind, Part, Slot, Temporal, Unit, case_of
from anonymed.dates.words import SEASONS, fold

#: folded season word -> (language, form, number: 1 winter, 2 spring, 3 summer, 4 fall)
_WORDS: Final[dict[str, tuple[str, str, int]]] = {}
for (_lang, _form), _names in SEASONS.items():  # the full form first: "summer" is of both English forms
    if _lang != "en":
        continue  # French seasons take "le" or "l'" by their first letter ("l'été", "le printemps"): not read
    for _number, _name in enumerate(_names, start=1):
        _WORDS.setdefault(fold(_name), (_lang, _form, _number))
#: the month that stands for a season's value
_MIDDLE_MONTH: Final = (1, 4, 7, 10)
_SEASON_YEAR: Final = re.compile(
    r"(?P<pre>\s*)(?P<season>[^\W\d_]+)(?P<gap>\s+(?:(?i:of)\s+)?)(?P<year>(?:19|20)\d{2})(?P<post>\s*)"
)


def parse_season(text: str) -> Temporal | None:
    """A season and its year as a month-and-year value written back as a season; ``None`` otherwise."""
    found = _SEASON_YEAR.fullmatch(text)
    season = None if found is None else _WORDS.get(fold(found.group("season")))
    if found is None or season is None:
        return None
    lang, form, number = season
    slot = Slot("season", lang=lang, form=form, case=case_of(found.group("season")))
    parts: tuple[Part, ...] = (found["pre"], slot, found["gap"], Slot("year", 4), found["post"])
    month = _MIDDLE_MONTH[number - 1]
    return Temporal(Kind.MONTH_YEAR, Unit.MONTH, 12 * int(found["year"]) + month - 1, parts)


def season_of(month: int) -> int:
    """The season (1 winter ... 4 fall) of a month (1-12): meteorological seasons, northern hemisphere."""
    return (month % 12) // 3 + 1
