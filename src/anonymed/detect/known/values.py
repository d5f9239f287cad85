"""Known values other than person names, found in a note in the forms notes write them:

* numbers (record numbers, phones, postal codes): the same letters and digits with any separators between
  them (spaces, dots, hyphens, slashes, brackets; at most three in a row), case folded; a phone given with
  its country code also in its national forms ("+33 6 12..." as "06 12..."); a ZIP+4 also as its five
  digits. Values of fewer than four letters and digits are not looked for (too many chance matches);
* e-mail addresses and URLs: as written, case folded;
* dates: every date the pattern detector finds is read by the package's date parser (both day-month
  orders) and compared with the known date; a date written without its year matches its day and month;
* everything else (streets, cities, hospitals): the words as a phrase, case and accents folded, street
  and place words and their abbreviations alike ("Street"/"St", "Saint"/"St"); a one-word value that is
  short or a common word only when capitalised.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Final

from anonymed.detect.known.people import Target, in_capitals, stands_out
from anonymed.detect.phrases import PhraseIndex, phrase_words, token_keys
from anonymed.detect.tokens import Token
from anonymed.document import Span
from anonymed.known import Known
from anonymed.labels import Label

#: the fewest letters and digits a number-like value needs to be looked for
MIN_CHARACTERS: Final = 4
_SEPARATORS: Final = r"[\s().\-/]{0,3}"
#: equivalent words of addresses and place names; a word may belong to several groups ("st")
_EQUIVALENT: Final = (
    ("street", "st", "str"), ("avenue", "ave", "av"), ("boulevard", "blvd", "bd", "bvd"), ("road", "rd"),
    ("drive", "dr"), ("lane", "ln"), ("court", "ct"), ("place", "pl"), ("square", "sq"), ("highway", "hwy"),
    ("parkway", "pkwy"), ("saint", "st"), ("sainte", "ste"), ("mount", "mt"), ("fort", "ft"),
    ("hospital", "hosp"), ("hopital", "hop"), ("centre", "center", "ctr"), ("allee", "all"),
    ("chemin", "ch", "chem"), ("impasse", "imp"), ("route", "rte"), ("faubourg", "fg", "fbg"),
)  # fmt: skip


@cache
def _canonical() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for group in _EQUIVALENT:
        for word in group:
            found.setdefault(word, []).append(group[0])
    return {word: tuple(dict.fromkeys(canon)) for word, canon in found.items()}


def canonical_keys(key: str) -> tuple[str, ...]:
    """The canonical words ``key`` can stand for (itself when it has no equivalent)."""
    return _canonical().get(key, (key,))


def _alnum(value: str) -> str:
    return "".join(char for char in value if char.isalnum())


def is_number(value: str) -> bool:
    """Whether a value reads as a number (digits are at least half of its letters and digits)."""
    chars = _alnum(value)
    return bool(chars) and sum(char.isdigit() for char in chars) * 2 >= len(chars)


def number_forms(known: Known) -> list[str]:
    """The letters and digits to look for: the value's, a phone's national forms, a ZIP+4's first five."""
    chars = _alnum(known.value).lower()
    forms = [chars]
    international = known.value.lstrip().startswith(("+", "00"))
    if international and chars.isdigit():
        digits = chars[2:] if known.value.lstrip().startswith("00") else chars
        for code in (1, 2, 3):
            national = digits[code:]
            if len(national) >= 7:
                forms += [national, "0" + national]
    if known.label is Label.LOCATION and known.subtype == "zip" and chars.isdigit() and len(chars) == 9:
        forms.append(chars[:5])
    return [form for form in dict.fromkeys(forms) if len(form) >= MIN_CHARACTERS]


def number_pattern(chars: str) -> re.Pattern[str]:
    """Letters and digits in order, any short run of separators between them, not inside a longer word."""
    body = _SEPARATORS.join(re.escape(char) for char in chars)
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])", re.IGNORECASE)


def literal_pattern(value: str) -> re.Pattern[str]:
    """An e-mail address or URL as written, case folded, not inside a longer address."""
    return re.compile(rf"(?<![\w.@/-]){re.escape(value)}(?![\w@/-]|\.\w)", re.IGNORECASE)


Found = tuple[int, int, Target]
#: the dates a known value can be read as, and what a match is labelled
KnownDates = tuple[set[tuple[int, int, int | None]], Target]


def find_patterns(text: str, items: Iterable[tuple[re.Pattern[str], Target]]) -> Iterator[Found]:
    """Every match of each pattern (with the opening bracket of a number written "(617) 555...")."""
    for pattern, target in items:
        for match in pattern.finditer(text):
            start, end = match.span()
            if start > 0 and text[start - 1] == "(" and ")" in text[start:end]:
                start -= 1
            yield start, end, target


def _date_of(text: str, lang: str, order: str) -> tuple[int, int, int | None] | None:
    """(month, day, year or None) of a full date, or None when ``text`` is not one."""
    from anonymed.dates.model import Kind, Slot
    from anonymed.dates.parse import parse_compact
    from anonymed.dates.temporal import parse_temporal

    value = parse_temporal(text, lang=lang, order=order)
    if value is None:
        layout = parse_compact(text.strip(), lang)
        value = layout.value if layout is not None else None
    if value is None or value.kind is not Kind.DATE or not isinstance(value.quantity, int):
        return None
    date = dt.date.fromordinal(value.quantity)
    has_year = any(isinstance(part, Slot) and part.name == "year" for part in value.parts)
    return date.month, date.day, date.year if has_year else None


def dates_of(text: str, lang: str) -> set[tuple[int, int, int | None]]:
    """The dates ``text`` can be read as (both day-month orders)."""
    found = {_date_of(text, lang, order) for order in ("MDY", "DMY")}
    return {date for date in found if date is not None}


def matching_dates(candidates: Sequence[Span], lang: str, known: Sequence[KnownDates]) -> Iterator[Found]:
    """The candidate date spans that read as a known date (day and month only when written without year)."""
    for span in candidates:
        readings = dates_of(span.text, lang)
        for dates, target in known:
            if any(
                (m, d) == (month, day) and year in (None, y)
                for month, day, year in readings
                for m, d, y in dates
            ):
                yield span.start, span.end, target
                break


class Phrases:
    """Text values (streets, cities, hospitals) as folded phrases with equivalent words."""

    def __init__(self) -> None:
        self.index: PhraseIndex[Target] = PhraseIndex("fold")

    def __bool__(self) -> bool:
        return len(self.index) > 0

    def add(self, value: str, target: Target) -> None:
        """Index ``value`` (every combination of its words' canonical forms)."""
        forms: list[tuple[str, ...]] = [()]
        for token in phrase_words(value):
            forms = [(*form, canon) for form in forms for canon in canonical_keys(token.key)][:16]
        for form in forms:
            if form:
                self.index.add_keys(form, target)

    def find(self, text: str, words: Sequence[Token], lang: str) -> Iterator[Found]:
        """Every occurrence; a one-word value that is short or common only when capitalised."""

        def keys_of(token: Token) -> Iterator[tuple[str, int]]:
            for key, end in token_keys(token, "fold"):
                for canon in canonical_keys(key):
                    yield canon, end

        caps = in_capitals(words)
        for match in self.index.find(text, words, keys_of):
            token = words[match.first]
            if match.first == match.last and not stands_out(token, token.key, lang, caps):
                continue
            yield match.start, match.end, match.payload
