"""Dates written with month names, in English and French ("February 26, 2020", "26th of February",
"le 3 mars", "mars 2019", "vingt mars 2020"), bare months and weekdays in context, ordinals ("the 11th")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, any_in
from anonymed.detect.tokens import fold, word_set
from anonymed.document import Span
from anonymed.labels import Label

_EN_FULL: Final = "january february march april may june july august september october november december"
_EN_ABBR: Final = "jan feb mar apr jun jul aug sep sept oct nov dec"
_FR_FULL: Final = (
    "janvier février fevrier mars avril mai juin juillet août aout "
    "septembre octobre novembre décembre decembre"
)
_FR_ABBR: Final = "janv févr fevr fév fev avr juil aoû déc"
_FULL_NAMES: Final = sorted({*(_EN_FULL + " " + _FR_FULL).split()}, key=len)[::-1]
_ABBR_NAMES: Final = sorted({*(_EN_ABBR + " " + _FR_ABBR).split()} - set(_FULL_NAMES), key=len)[::-1]
_MONTH_NAMES: Final = sorted(_FULL_NAMES + _ABBR_NAMES, key=len)[::-1]
_MONTH: Final = (
    r"(?<![^\W\d_])(?P<month>(?:"
    + "|".join(_FULL_NAMES)
    + r")(?![^\W\d_])|(?:"
    + "|".join(_ABBR_NAMES)
    + r")(?![^\W\d_])\.?)"
)
_WEEKDAY_NAMES: Final = (
    "monday tuesday wednesday thursday friday saturday sunday "
    "lundi mardi mercredi jeudi vendredi samedi dimanche"
)
_WEEKDAY_ALT: Final = "|".join(_WEEKDAY_NAMES.split())
_WEEKDAY: Final = "(?:" + _WEEKDAY_ALT + ")"
_DAY: Final = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th|er|ème|eme|e)?(?![\w])"
_DAY_GLUED: Final = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th|er|ème|eme|e)?"
_RANGE: Final = r"(?:" + _DAY + r" ?(?:-+>?|–|au|to|&|et|and|ou|or) ?)?"

_UNITS: Final = "un deux trois quatre cinq six sept huit neuf"
_TEENS: Final = "dix onze douze treize quatorze quinze seize"
_DAY_WORD: Final = (
    r"(?:premier|(?:vingt|trente)(?:[- ]et[- ]un|-(?:deux|trois|quatre|cinq|six|sept|huit|neuf))?|"
    r"dix-(?:sept|huit|neuf)|" + "|".join(_TEENS.split()) + "|" + "|".join(_UNITS.split()) + ")"
)
_NUM_WORD: Final = (
    r"(?:dix-(?:sept|huit|neuf)|quatre-vingts?|soixante|cinquante|quarante|trente|vingt|cent|et|"
    + "|".join(_TEENS.split())
    + "|"
    + "|".join(_UNITS.split())
    + ")"
)
_YEAR_WORDS: Final = r"(?:deux[- ]mille|mille|mil)(?:[- ]" + _NUM_WORD + r"){0,6}(?![\w-])"

_WEEKDAY_PREFIX: Final = r"(?:" + _WEEKDAY + r",? )?"
#: 26 février 2020, 26th of February, 1->2 nov, 96, 01sep2018, le 3 mars
_DAY_FIRST: Final = re.compile(
    r"(?<![\w.,/-])"
    + _WEEKDAY_PREFIX
    + _RANGE
    + r"(?P<day>"
    + _DAY_GLUED
    + r")(?:,? ?(?:of |de |d')?|-)"
    + _MONTH,
    re.IGNORECASE,
)
#: February 26, 2020 - Feb. 26 - July 29th
_MONTH_FIRST: Final = re.compile(
    _WEEKDAY_PREFIX + _MONTH + r" ?(?P<day>" + _DAY + r")(?![.:/]?\d|,\d(?!\d{3}))", re.IGNORECASE
)
#: mars 2019, MARCH OF 1993, Feb '92
_MONTH_YEAR: Final = re.compile(
    _MONTH + r",? ?(?:of |de |d')?(?P<year>(?:19|20)\d{2}|'\d{2})(?!\d)", re.IGNORECASE
)
#: a month and a year joined by a hyphen, as forms and lab systems print them: May-21, SEP-2019
_MONTH_HYPHEN_YEAR: Final = re.compile(
    _MONTH + r"-(?P<year>(?:19|20)\d{2}|\d{2})(?![\w-]|[.,/:]\d)", re.IGNORECASE
)
#: vingt mars 2020, le deux janvier mille neuf cent soixante dix huit
_WORD_DAY: Final = re.compile(r"(?<![\w-])" + _DAY_WORD + r" " + _MONTH, re.IGNORECASE)
#: a year after a day and a month: ", 2020", " 96", " '92", " mille neuf cent ..."
_YEAR_TAIL: Final = re.compile(
    r"(?:,? ?|-)(?:(?:19|20)\d{2}|'?\d{2}|" + _YEAR_WORDS + r")(?![\w:/.,-]\d|\d|[:h]\d)", re.IGNORECASE
)
#: a bare month or weekday name, checked against context in code
_BARE: Final = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(_MONTH_NAMES) + "|" + _WEEKDAY_ALT + r")(?![^\W\d_])", re.I
)
# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: the 11th.
_ORDINAL: Final = re.compile(
    r"(?=\d)(?<=\bthe )(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)(?= ?[.,;:)!?]| ?$)", re.I | re.M
)

PATTERNS: Final = (
    _DAY_FIRST,
    _MONTH_FIRST,
    _MONTH_YEAR,
    _MONTH_HYPHEN_YEAR,
    _WORD_DAY,
    _YEAR_TAIL,
    _BARE,
    _ORDINAL,
)

#: month tokens that are also common words (may, mar = MAR chart, dec = decreased, sept = seven)
_AMBIGUOUS: Final = word_set("may march mar dec sep sept")
_BARE_EN: Final = word_set("january february april june july august september october november december")
_BARE_FR: Final = word_set(_FR_FULL)
_WEEKDAYS: Final = word_set(_WEEKDAY_NAMES)
_BARE_CUES: Final = word_set(
    "in on since from until till early late mid last next this of by during en depuis début fin mi dès "
    "jusqu'en le ce au du courant avant après"
)


def _with_year(scan: Scan, end: int, *, four_digits: bool = False) -> int:
    """The end of a year written after a day and a month, or ``end`` when there is none (``four_digits``:
    only a year of four digits, as after an ordinal day: "Dec 3rd, 2024" but "July 29th 15 patients")."""
    tail = _YEAR_TAIL.match(scan.text, end)
    if tail is None or scan.unit_follows(tail.end()):
        return end
    year = tail.group(0).strip(" ,-")
    if four_digits and not (len(year) == 4 and year.isdigit()):
        return end
    written = tail.group(0).strip()
    if len(written) == 2 and written.isdigit() and re.match(r" *[^\W_]", scan.text[tail.end() :]):
        return end  # "le 3 mars 15 patients": a bare two-digit number followed by a word is no year
    return tail.end()


#: French month forms that English has not ("avr", "mai", "juil"): in capitals in an English note they are
#: abbreviations ("AVR 2011": an aortic valve replacement; "MAI": Mycobacterium avium-intracellulare)
FRENCH_ONLY_MONTHS: Final = frozenset(f"{_FR_FULL} {_FR_ABBR}".split()) - frozenset(
    f"{_EN_FULL} {_EN_ABBR}".split()
)


def _in_language(scan: Scan, match: re.Match[str]) -> bool:
    """Whether the month's form belongs to the note: no French-only form in capitals in an English note."""
    month = match.group("month").rstrip(".")
    return not (scan.lang == "en" and month.isupper() and month.lower() in FRENCH_ONLY_MONTHS)


def _month_ok(scan: Scan, match: re.Match[str], has_year: bool) -> bool:
    """Whether a month token that is also a common word (may, mar, dec, sept) is really a month here."""
    month = match.group("month").rstrip(".")
    if not _in_language(scan, match):
        return False
    if has_year or month.lower() not in _AMBIGUOUS:
        return True
    if month.isupper() and month.lower() in {"mar", "dec"}:
        return False  # MAR = medication administration record, DEC = decreased
    return month[0].isupper() or any_in(scan.words_before(match.start(), 1, 15), _BARE_CUES | {"the"})


def _named_dates(scan: Scan) -> Iterator[Span]:
    for match in _DAY_FIRST.finditer(scan.text):
        end = _with_year(scan, match.end())
        if _month_ok(scan, match, end > match.end()):
            yield scan.span(match.start(), end, Label.DATE, None, 0.9 if end > match.end() else 0.85)
    for match in _MONTH_FIRST.finditer(scan.text):
        end = _with_year(scan, match.end(), four_digits=not match.group("day")[-1].isdigit())
        if _month_ok(scan, match, end > match.end()) and not scan.unit_follows(match.end()):
            yield scan.span(match.start(), end, Label.DATE, None, 0.85)
    for match in _MONTH_YEAR.finditer(scan.text):
        if _in_language(scan, match):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.9)
    for match in _MONTH_HYPHEN_YEAR.finditer(scan.text):
        if _month_ok(scan, match, len(match.group("year")) == 4):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.85)
    for match in _WORD_DAY.finditer(scan.text):
        end = _with_year(scan, match.end())
        yield scan.span(match.start(), end, Label.DATE, None, 0.9 if end > match.end() else 0.8)


def _bare_ok(scan: Scan, match: re.Match[str]) -> bool:
    token = match.group(0)
    lower = token.lower()
    cued = any_in(scan.words_before(match.start(), 1, 20), _BARE_CUES)
    if lower in _WEEKDAYS:  # a weekday alone says little; kept only when recall matters most
        return scan.params.high_recall and cued and (token[0].isupper() or scan.lang == "fr")
    if lower in (_BARE_FR if scan.lang == "fr" else _BARE_EN):
        return True
    if scan.lang == "en" and lower in {"march", "may"}:
        return cued and token == lower.title()
    if scan.lang == "en" and lower == "sept":
        return cued
    return scan.params.high_recall and cued and lower not in _AMBIGUOUS


def _bare_names(scan: Scan) -> Iterator[Span]:
    for match in _BARE.finditer(scan.text):
        if _bare_ok(scan, match):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.5)
    yield from _ordinals(scan)


def _ordinals(scan: Scan) -> Iterator[Span]:
    for match in _ORDINAL.finditer(scan.text):
        yield scan.span(match.start(), match.end(), Label.DATE, None, 0.6)


#: month and weekday names as folded word keys, and the abbreviations that may be glued to digits (01sep2018)
_NAME_KEYS: Final = frozenset(fold(name) for name in (*_MONTH_NAMES, *_WEEKDAY_NAMES.split()))
_GLUED: Final = tuple(sorted({fold(name) for name in _ABBR_NAMES} | {fold(name[:3]) for name in _FULL_NAMES}))


def _may_hold_names(scan: Scan) -> bool:
    """Whether the note may hold a month or weekday name: a word that is one, or one glued to digits."""
    keys = scan.keys
    if keys is None:
        return _BARE.search(scan.text) is not None
    if not keys.isdisjoint(_NAME_KEYS):
        return True
    if any(key.partition("'")[0] in _NAME_KEYS for key in keys if "'" in key):
        return True  # May's, lundi'
    glued = [key for key in keys if not key.isalpha() and any(char.isalpha() for char in key)]
    return any(name in key for key in glued for name in _GLUED)


def find_text_dates(scan: Scan) -> Iterator[Span]:
    """Dates and date parts written with month or weekday names (most notes have none: checked first)."""
    if _may_hold_names(scan):
        yield from _named_dates(scan)
        yield from _bare_names(scan)
    else:
        yield from _ordinals(scan)
