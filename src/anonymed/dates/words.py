"""The one table of date words (English, French): months, weekdays, units, numbers, ordinal suffixes.

Every reader and writer of dates uses these tables: ``parse_temporal`` and its renderer (``dp_date``,
``dp_age``), the ``fake`` operator's date surrogates, and the synthetic training notes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

#: month names by (language, form); form is ``full`` or ``abbr``
MONTHS: Final[Mapping[tuple[str, str], tuple[str, ...]]] = MappingProxyType(
    {
        ("en", "full"): ("January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"),
        ("en", "abbr"): ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        ("fr", "full"): ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
                         "octobre", "novembre", "décembre"),
        ("fr", "abbr"): ("janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov",
                         "déc"),
    }
)  # fmt: skip

#: seasons (1 winter, 2 spring, 3 summer, 4 fall), per language and form ("autumn" is a form of English)
SEASONS: Final[Mapping[tuple[str, str], tuple[str, ...]]] = MappingProxyType(
    {
        ("en", "full"): ("winter", "spring", "summer", "fall"),
        ("en", "autumn"): ("winter", "spring", "summer", "autumn"),
        ("fr", "full"): ("hiver", "printemps", "été", "automne"),
    }
)
#: weekday names by (language, form), Monday first (ISO order)
WEEKDAYS: Final[Mapping[tuple[str, str], tuple[str, ...]]] = MappingProxyType(
    {
        ("en", "full"): ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        ("en", "abbr"): ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        ("fr", "full"): ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        ("fr", "abbr"): ("lun", "mar", "mer", "jeu", "ven", "sam", "dim"),
    }
)

#: other spellings read on input (written back with the table's abbreviation): word -> (kind, lang, number)
_VARIANTS: Final = {
    "sept": ("month", "en", 9),
    "fev": ("month", "fr", 2),
    "fevr": ("month", "fr", 2),
    "tues": ("weekday", "en", 2),
    "thur": ("weekday", "en", 4),
    "thurs": ("weekday", "en", 4),
}

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

#: small numbers written in words, 0 to 20 (amounts such as "three weeks ago" are written back in words)
NUMBER_WORDS: Final = MappingProxyType(
    {
        "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
               "nineteen", "twenty"),
        "fr": ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
               "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf", "vingt"),
    }
)  # fmt: skip
_NUMBER_EXTRA: Final = {"a": ("en", 1), "an": ("en", 1), "une": ("fr", 1)}

#: words that spell out a day, month or year number: a date holding one is written in words, not read
SPELLED: Final = frozenset(
    {
        "zero", "un", "une", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
        "douze", "treize", "quatorze", "quinze", "seize", "vingt", "trente", "quarante", "cinquante",
        "soixante", "cent", "cents", "mille", "premier", "one", "two", "three", "four", "five", "seven",
        "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty", "thirty", "hundred", "thousand", "first", "second", "third",
        "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth",
        "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
        "twentieth", "thirtieth",
    }
)  # fmt: skip


class Name(NamedTuple):
    """A month or weekday word: ``kind`` (month | weekday), language, form (full | abbr), number from 1."""

    kind: str
    lang: str
    form: str
    number: int


def fold(word: str) -> str:
    """Lower case without accents or a trailing dot (the lookup form of a word)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().rstrip("."))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _names() -> dict[str, dict[str, Name]]:
    """Language -> folded word -> name (the first spelling listed wins within a language)."""
    found: dict[str, dict[str, Name]] = {}
    for kind, table in (("month", MONTHS), ("weekday", WEEKDAYS)):
        for (lang, form), names in table.items():
            for number, name in enumerate(names, start=1):
                found.setdefault(lang, {}).setdefault(fold(name), Name(kind, lang, form, number))
    for word, (kind, lang, number) in _VARIANTS.items():
        found[lang].setdefault(word, Name(kind, lang, "abbr", number))
    return found


_NAMES: Final = _names()
_NUMBER_INDEX: Final = {
    lang: {
        **{fold(w): n for n, w in enumerate(words)},
        **{k: n for k, (wl, n) in _NUMBER_EXTRA.items() if wl == lang},
    }
    for lang, words in NUMBER_WORDS.items()
}


def _names_of(word: str, lang: str) -> Iterator[Name]:
    """The months and weekdays ``word`` names, in ``lang`` first, then in the other languages."""
    key = fold(word)
    for candidate in (lang, *(other for other in _NAMES if other != lang)):
        found = _NAMES.get(candidate, {}).get(key)
        if found is not None:
            yield found


def name_of(word: str, lang: str) -> Name | None:
    """The month or weekday ``word`` names, in the document's language first ("mar": mardi in French)."""
    return next(_names_of(word, lang), None)


def month_of(word: str, lang: str) -> Name | None:
    """The month ``word`` names (see ``name_of``), else ``None``."""
    found = name_of(word, lang)
    return found if found is not None and found.kind == "month" else None


def month_in_any(word: str, lang: str) -> Name | None:
    """The month ``word`` names in ``lang`` or, failing that, in another language ("mar": March)."""
    return next((found for found in _names_of(word, lang) if found.kind == "month"), None)


def weekday_of(word: str, lang: str) -> Name | None:
    """The weekday ``word`` names (see ``name_of``), else ``None``."""
    found = name_of(word, lang)
    return found if found is not None and found.kind == "weekday" else None


def weekday_in_any(word: str) -> Name | None:
    """The weekday ``word`` names in English, else in French, else ``None`` (a weekday before a numeric date,
    whose digits say nothing of the language)."""
    return weekday_of(word, "en") or weekday_of(word, "fr")


#: number words of compound numbers (0 to 199), per language: added up, "hundred"/"cent" multiply what came
#: before (or 1), and French "vingt" after "quatre" makes 80 ("quatre-vingt-douze" = 4 x 20 + 12)
_COMPOUND: Final = MappingProxyType(
    {
        "en": {
            **{fold(w): n for n, w in enumerate(NUMBER_WORDS["en"][:20])},
            "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90, "a": 1,
        },
        "fr": {
            **{fold(w): n for n, w in enumerate(NUMBER_WORDS["fr"][:17])},
            "vingt": 20, "vingts": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60,
            "septante": 70, "octante": 80, "huitante": 80, "nonante": 90,
        },
    }
)  # fmt: skip
_HUNDRED: Final = {"en": "hundred", "fr": "cent"}
_JOINING: Final = {"en": "and", "fr": "et"}


def spelled_number(text: str, lang: str) -> int | None:
    """The value of a number written in words, 0 to 199 ("ninety-two", "one hundred and one",
    "quatre-vingt-dix-neuf", "nonante-deux", "cent un"); None when ``text`` is not one."""
    table = _COMPOUND.get(lang)
    pieces = [fold(w) for w in re.split(r"[\s-]+", text.strip()) if w]
    if table is None or not pieces or pieces[-1] in ("a", _JOINING[lang]):
        return None
    total = current = 0
    previous = ""
    for piece in pieces:
        piece = "cent" if lang == "fr" and piece == "cents" else piece
        if piece == _JOINING[lang]:
            continue
        if piece == _HUNDRED[lang]:
            total += (current or 1) * 100
            current = 0
        elif piece in table:
            four_twenties = lang == "fr" and table[piece] == 20 and previous == "quatre"
            current += 76 if four_twenties else table[piece]  # 4 already counted: 4 + 76 = 80
        else:
            return None
        previous = piece
    number = total + current
    return number if number < 200 else None


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
