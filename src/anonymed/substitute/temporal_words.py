"""English and French words of temporal expressions: months, weekdays, units and small numbers."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

MONTHS: Final[Mapping[tuple[str, str], tuple[str, ...]]] = MappingProxyType(
    {
        ("en", "full"): (
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ),
        ("en", "abbr"): ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        ("fr", "full"): (
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ),
        ("fr", "abbr"): (
            "janv",
            "févr",
            "mars",
            "avr",
            "mai",
            "juin",
            "juil",
            "août",
            "sept",
            "oct",
            "nov",
            "déc",
        ),
    }
)

#: extra spellings recognised on input: word -> (lang, form, month number)
_MONTH_VARIANTS: Final = {"sept": ("en", "abbr", 9), "fev": ("fr", "abbr", 2), "fevr": ("fr", "abbr", 2)}

WEEKDAYS: Final[Mapping[tuple[str, str], tuple[str, ...]]] = MappingProxyType(
    {
        ("en", "full"): ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        ("en", "abbr"): ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        ("fr", "full"): ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        ("fr", "abbr"): ("lun", "mar", "mer", "jeu", "ven", "sam", "dim"),
    }
)

#: unit words: word -> (unit, lang, singular form, plural form); the unit names match temporal.Unit values
UNIT_WORDS: Final = MappingProxyType(
    {
        **{w: ("hour", "en", "hour", "hours") for w in ("hour", "hours")},
        **{w: ("hour", "en", w, w) for w in ("hr", "hrs", "h")},
        **{w: ("day", "en", "day", "days") for w in ("day", "days")},
        **{w: ("week", "en", "week", "weeks") for w in ("week", "weeks")},
        **{w: ("week", "en", w, w) for w in ("wk", "wks")},
        **{w: ("month", "en", "month", "months") for w in ("month", "months")},
        **{w: ("month", "en", w, w) for w in ("mo", "mos", "mth", "mths")},
        **{w: ("year", "en", "year", "years") for w in ("year", "years")},
        **{w: ("year", "en", w, w) for w in ("yr", "yrs", "y", "yo")},
        **{w: ("hour", "fr", "heure", "heures") for w in ("heure", "heures")},
        **{w: ("day", "fr", "jour", "jours") for w in ("jour", "jours")},
        **{w: ("day", "fr", w, w) for w in ("j",)},
        **{w: ("week", "fr", "semaine", "semaines") for w in ("semaine", "semaines")},
        **{w: ("week", "fr", w, w) for w in ("sem",)},
        **{w: ("month", "fr", "mois", "mois") for w in ("mois",)},
        **{w: ("year", "fr", "an", "ans") for w in ("an", "ans")},
        **{w: ("year", "fr", "année", "années") for w in ("année", "années", "annee", "annees")},
    }
)

NUMBER_WORDS: Final = MappingProxyType(
    {
        "en": (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ),
        "fr": (
            "zéro",
            "un",
            "deux",
            "trois",
            "quatre",
            "cinq",
            "six",
            "sept",
            "huit",
            "neuf",
            "dix",
            "onze",
            "douze",
            "treize",
            "quatorze",
            "quinze",
            "seize",
            "dix-sept",
            "dix-huit",
            "dix-neuf",
            "vingt",
        ),
    }
)
_NUMBER_EXTRA: Final = {"a": ("en", 1), "an": ("en", 1), "une": ("fr", 1)}


def fold(word: str) -> str:
    """Lower case without accents or a trailing dot (the lookup form of a word)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().rstrip("."))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _index(table: Mapping[tuple[str, str], tuple[str, ...]]) -> dict[str, tuple[str, str, int]]:
    found: dict[str, tuple[str, str, int]] = {}
    for (lang, form), names in table.items():
        for number, name in enumerate(names, start=1):
            found.setdefault(fold(name), (lang, form, number))
    return found


_MONTH_INDEX: Final = {**_index(MONTHS), **_MONTH_VARIANTS}
_MONTH_BY_LANG: Final = {
    lang: _index(MappingProxyType({k: v for k, v in MONTHS.items() if k[0] == lang})) for lang in ("en", "fr")
}
_WEEKDAY_INDEX: Final = _index(WEEKDAYS)
_NUMBER_INDEX: Final = {
    lang: {
        **{fold(w): n for n, w in enumerate(words)},
        **{k: n for k, (wl, n) in _NUMBER_EXTRA.items() if wl == lang},
    }
    for lang, words in NUMBER_WORDS.items()
}


def month_of(word: str, lang: str) -> tuple[str, str, int] | None:
    """(lang, form, month number) of a month word, preferring the document's language on ambiguity."""
    key = fold(word)
    return _MONTH_BY_LANG.get(lang, {}).get(key) or _MONTH_INDEX.get(key)


def weekday_of(word: str) -> tuple[str, str, int] | None:
    """(lang, form, ISO weekday) of a weekday word."""
    return _WEEKDAY_INDEX.get(fold(word))


def number_of(word: str, lang: str) -> int | None:
    """The value of a small number written in words in ``lang`` ("three", "trois", "a", "une")."""
    return _NUMBER_INDEX.get(lang, {}).get(fold(word))


def unit_of(word: str) -> tuple[str, str, str, str] | None:
    """(unit, lang, singular, plural) of a unit word."""
    return UNIT_WORDS.get(fold(word))


def ascii_only(text: str) -> str:
    """``text`` without accents."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
