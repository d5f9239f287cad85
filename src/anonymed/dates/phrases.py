"""Readers of temporal expressions with words: dates with a month name, amounts with a unit word.

Like the numeric readers (``parse``), a strict reader never leaves a digit or a spelled-out
number outside its template; ``loose=True`` turns unaccounted digits into random-digit slots instead.
"""

from __future__ import annotations

import datetime as dt

from anonymed.dates import words
from anonymed.dates.model import (
    Kind,
    Layout,
    Part,
    Slot,
    Temporal,
    Unit,
    case_of,
    two_digit_year,
    valid_date,
)
from anonymed.dates.parse import Tok, name_slot, ordinal_family

_FILLERS = {"", "of", "the", "de", "du", "le", ",", "."}


def spelled(toks: list[Tok], lang: str) -> bool:
    """Whether numbers are spelled out ("le deux janvier", "vingt-six"): such a date is not read.

    ``sept`` alone is a month; two number words, or one that is not a month or weekday, spell a number.
    """
    found = [t for t in toks if t.kind == "word" and words.fold(t.text) in words.SPELLED]
    return len(found) > 1 or any(words.name_of(t.text, lang) is None for t in found)


def digit_slots(tok: Tok) -> list[Part]:
    """Random-digit slots for the digits of a number token, other characters kept."""
    parts: list[Part] = []
    for piece in _split_digits(tok.text):
        parts.append(Slot("digits", len(piece)) if piece.isdecimal() else piece)
    return [*parts, tok.suffix] if tok.suffix else parts


def _split_digits(text: str) -> list[str]:
    pieces: list[str] = []
    for ch in text:
        if pieces and pieces[-1].isdecimal() == ch.isdecimal():
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces


def parse_textual(toks: list[Tok], lang: str, reference: dt.date, *, loose: bool = False) -> Layout | None:
    """A date with a month name, an optional day, year and weekday (English or French)."""
    months = [(i, m) for i, t in enumerate(toks) if t.kind == "word" and (m := words.month_of(t.text, lang))]
    if len(months) != 1:
        return None
    mi, month = months[0]
    slots: dict[int, list[Part]] = {mi: [name_slot(toks[mi], month)]}
    day = _find_day(toks, mi)
    year_i = _find_year(toks, day, mi)
    for i, t in enumerate(toks):
        weekday = words.weekday_of(t.text, lang) if t.kind == "word" and i != mi else None
        if weekday is not None:
            slots[i] = [name_slot(t, weekday)]
    year = reference.year
    if year_i is not None:
        width = len(toks[year_i].text)
        year = int(toks[year_i].text) if width == 4 else two_digit_year(int(toks[year_i].text), reference)
        slots[year_i] = [Slot("year", width)]
    if day is not None:
        width = 2 if toks[day].text.startswith("0") else 0  # "1er" is not added to a zero-padded day
        family = ordinal_family(toks[day].suffix, month.lang if width == 0 else "")
        slots[day] = [Slot("day", width, suffix=family)]
    for i, t in enumerate(toks):
        if t.kind == "num" and i not in slots:
            if not loose:
                return None
            slots[i] = digit_slots(t)
    parts = tuple(p for i, t in enumerate(toks) for p in slots.get(i, [t.surface]))
    value = _textual_value(parts, toks, day, year, month.number, year_i is not None)
    return Layout(parts, value) if loose or value is not None else None


def _textual_value(
    parts: tuple[Part, ...], toks: list[Tok], day: int | None, year: int, month: int, has_year: bool
) -> Temporal | None:
    if any(isinstance(p, Slot) and p.name == "digits" for p in parts):
        return None
    if day is not None:
        number = int(toks[day].text)
        if not valid_date(year, month, number):
            return None
        return Temporal(Kind.DATE, Unit.DAY, dt.date(year, month, number).toordinal(), parts)
    kind = Kind.MONTH_YEAR if has_year else Kind.MONTH
    return Temporal(kind, Unit.MONTH, 12 * year + month - 1, parts)


def _find_year(toks: list[Tok], day: int | None, mi: int) -> int | None:
    """A four-digit number, else two digits after an apostrophe ('20), else the one two-digit number
    after the month that is not its day ("12 Mar, 91", "décembre 93")."""
    for i, t in enumerate(toks):
        if t.kind == "num" and len(t.text) == 4 and t.text.isdecimal() and not t.suffix and i != day:
            return i
    for i in range(1, len(toks)):
        t = toks[i]
        if toks[i - 1].text == "'" and t.kind == "num" and len(t.text) == 2 and i not in (day, mi):
            return i
    numbers = [i for i, t in enumerate(toks) if t.kind == "num" and i != day]
    if len(numbers) == 1 and numbers[0] > mi and toks[numbers[0] - 1].text in (" ", ","):
        t = toks[numbers[0]]
        if len(t.text) == 2 and t.text.isdecimal() and not t.suffix and (day is not None or int(t.text) > 31):
            return numbers[0]
    return None


def _find_day(toks: list[Tok], mi: int) -> int | None:
    for step in (-1, 1):
        i = mi + step
        while 0 <= i < len(toks) and (toks[i].kind == "other" or words.fold(toks[i].text) in _FILLERS):
            if toks[i].kind == "other" and toks[i].text.strip() not in ("", ",", ".", "-", "/"):
                break
            i += step
        if (
            0 <= i < len(toks)
            and toks[i].kind == "num"
            and toks[i].text.isdecimal()
            and len(toks[i].text) <= 2
            and 1 <= int(toks[i].text) <= 31
        ):
            return i
    return None


def _number_slot(tok: Tok, lang: str) -> tuple[Slot, int | float] | None:
    if tok.kind == "num" and not tok.suffix:
        text = tok.text
        if "." in text or "," in text:
            sep = "." if "." in text else ","
            return Slot("number", decimals=len(text.split(sep)[1]), suffix=sep), float(text.replace(",", "."))
        return Slot("number"), int(text)
    if tok.kind == "word":
        value = words.number_of(tok.text, lang)
        if value is not None:
            kept = (tok.text, tok.text) if value == 1 else ("", "")
            return Slot("number", lang=lang, form="word", case=case_of(tok.text), forms=kept), value
    return None


def _unit_slot(tok: Tok, value: float) -> tuple[Part, Unit] | None:
    found = words.unit_of(tok.text) if tok.kind == "word" else None
    if found is None:
        return None
    unit, lang, singular, plural = found
    word = words.fold(tok.text)
    singular_now = value < 2 if lang == "fr" else value == 1
    agrees = singular != plural and word == words.fold(singular if singular_now else plural)
    if not agrees:
        return tok.surface, Unit(unit)
    return Slot("unit", lang=lang, case=case_of(tok.text), forms=(singular, plural), dot=tok.dot), Unit(unit)


def parse_amount(toks: list[Tok], lang: str, *, age: bool) -> Temporal | None:
    """A number followed by a unit word; with ``age`` a bare number counts as years."""
    for i, tok in enumerate(toks):
        number = _number_slot(tok, lang)
        if number is None:
            continue
        j = i + 1
        while j < len(toks) and toks[j].kind == "other" and toks[j].text.strip() in ("", "-"):
            j += 1
        unit = _unit_slot(toks[j], number[1]) if j < len(toks) and j - i <= 3 else None
        if unit is None and not (age and tok.kind == "num"):
            continue
        parts: list[Part] = [t.surface for t in toks[:i]] + [number[0]]
        if unit is None:
            rest = toks[i + 1 :]
            parts += [t.surface for t in rest]
            return _amount(parts, Unit.YEAR, number[1], rest)
        parts += [t.surface for t in toks[i + 1 : j]] + [unit[0]]
        parts += [t.surface for t in toks[j + 1 :]]
        return _amount(parts, unit[1], number[1], toks[:i] + toks[j + 1 :])
    return None


def _amount(parts: list[Part], unit: Unit, value: int | float, others: list[Tok]) -> Temporal | None:
    if any(t.kind == "num" for t in others):
        return None
    return Temporal(Kind.AMOUNT, unit, value, tuple(parts))
