"""Temporal expressions as a quantity in their own unit, plus a template to write a new quantity back.

``parse_temporal("February 26, 2020")`` gives a full date (unit: day, quantity: the proleptic ordinal),
``"3 months ago"`` an amount of 3 months, ``"il y a 10 ans"`` 10 years, ``"40 years old"`` 40 years,
``"12/83"`` a month (December 1983), ``"1992"`` a year, ``"10:30"`` minutes since midnight. The template
keeps every character of the original that is not a date field, and each field's style (zero padding,
order DD/MM or MM/DD, month names in English or French, full or abbreviated, case, accents, ordinal
suffixes, two- or four-digit years, number words), so ``render_temporal(value, new_quantity)`` writes the
surrogate in the original format and language. A span whose digits cannot all be accounted for, or
whose day or year is spelled out in words ("le deux janvier"), is not parsed (``None``): the caller must
then fall back to another operator rather than leak a number. Numeric dates are read with the order
given (``DMY``/``MDY``) unless a component makes it impossible (13/02 is DMY whatever the language).
``dateparser`` reads textual dates the template parser does not; those are written back in the
language's long format.

The readers live in ``parse`` (numbers, times) and ``phrases`` (month names,
amounts), the words in ``words``; ``layout`` reads the same spans more loosely for
the ``fake`` operator, and ``render_fields`` writes any template from explicit fields.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from anonymed.dates import words
from anonymed.dates.holidays import parse_holiday
from anonymed.dates.model import (
    NUMERIC_DATE,
    Kind,
    Layout,
    Part,
    Slot,
    Temporal,
    Unit,
    apply_case,
    case_of,
    valid_date,
)
from anonymed.dates.parse import (
    parse_bare,
    parse_compact,
    parse_dateparser,
    parse_numeric,
    parse_time,
    tokens,
)
from anonymed.dates.phrases import parse_amount, parse_textual, spelled
from anonymed.dates.seasons import parse_season, season_of

__all__ = [
    "Kind",
    "Layout",
    "Part",
    "Slot",
    "Temporal",
    "Unit",
    "case_of",
    "detect_order",
    "fields_of",
    "parse_temporal",
    "render_fields",
    "render_temporal",
    "with_year",
]


def detect_order(texts: list[str], lang: str) -> str:
    """``DMY`` or ``MDY`` for numeric dates: a majority of unambiguous dates decides, else day first when the
    dates are written with dots and a year ("12.04.1950": the European convention, DIN 5008 and the UK's;
    US dates take slashes), else the language."""
    votes = {"DMY": 0, "MDY": 0}
    dotted = False
    for text in texts:
        for m in NUMERIC_DATE.finditer(text):
            a, b = int(m.group(1)), int(m.group(3))
            if len(m.group(1)) > 2 or len(m.group(3)) > 2:
                continue
            if a > 12 >= b:
                votes["DMY"] += 1
            elif b > 12 >= a:
                votes["MDY"] += 1
            dotted = dotted or (m.group(2) == "." and m.group(5) is not None)
    if votes["DMY"] != votes["MDY"]:
        return max(votes, key=lambda k: votes[k])
    return "DMY" if lang == "fr" or dotted else "MDY"


def parse_temporal(
    text: str,
    *,
    lang: str = "en",
    order: str | None = None,
    reference: dt.date | None = None,
    age: bool = False,
    year_only: bool = False,
) -> Temporal | None:
    """Parse a date, time, relative expression, duration or (with ``age``) an age; ``None`` if unsure."""
    ref = reference or dt.date.today()
    numeric_order = order or ("DMY" if lang == "fr" else "MDY")
    toks = tokens(text)
    if age:
        return parse_amount(toks, lang, age=True) or _spelled_age(text, lang)
    holiday = parse_holiday(text, lang, ref)
    if holiday is not None:
        return holiday
    season = parse_season(text)
    if season is not None:
        return season
    has_unit = any(t.kind == "word" and words.unit_of(t.text) for t in toks)
    dated = not spelled(toks, lang)
    if dated and not has_unit:
        found = (
            parse_numeric(text, numeric_order, ref)
            or parse_bare(text, year_only=year_only, reference=ref)
            or parse_compact(text, lang)
        )
        if found is not None:
            return found.value
    amount = parse_amount(toks, lang, age=False)
    if amount is not None:
        return amount
    found = (parse_textual(toks, lang, ref) or parse_time(text)) if dated else None
    if found is not None:
        return found.value
    return None if has_unit else parse_dateparser(text, lang, numeric_order, ref)


def _spelled_age(text: str, lang: str) -> Temporal | None:
    """An age written in words alone ("ninety-two", "quatre-vingt-douze"), in years, rewritten in digits."""
    number = words.spelled_number(text, lang)
    if number is None:
        return None
    return Temporal(Kind.AMOUNT, Unit.YEAR, number, (Slot("number"),))


def with_year(value: Temporal, year: int) -> Temporal:
    """A yearless day-month date moved to ``year`` (used to infer the year of partial dates)."""
    if value.kind is not Kind.DATE or any(isinstance(p, Slot) and p.name == "year" for p in value.parts):
        return value
    old = dt.date.fromordinal(int(value.quantity))
    if not valid_date(year, old.month, old.day):
        return value
    return replace(value, quantity=dt.date(year, old.month, old.day).toordinal())


def fields_of(kind: Kind, quantity: int | float) -> dict[str, int | float]:
    """The fields (day, month, year, weekday, hour, minute, number) a quantity of ``kind`` is written with."""
    if kind is Kind.DATE:
        day = dt.date.fromordinal(min(max(int(quantity), 1), dt.date.max.toordinal()))
        return {"day": day.day, "month": day.month, "year": day.year, "weekday": day.isoweekday()}
    if kind in (Kind.MONTH_YEAR, Kind.MONTH):
        year, month = divmod(int(quantity), 12)
        return {"month": month + 1, "year": min(max(year, 1), 9999)}
    if kind is Kind.YEAR:
        return {"year": min(max(int(quantity), 0), 9999)}
    if kind is Kind.DAY_OF_MONTH:
        return {"day": min(max(int(quantity), 1), 31)}
    if kind is Kind.TIME:
        hour, minute = divmod(int(quantity) % 1440, 60)
        return {"hour": hour, "minute": minute}
    if kind is Kind.HOUR:
        return {"hour": int(quantity) % 24, "minute": 0}
    return {"number": quantity}


def _zeros(width: int) -> str:
    return "0" * width


def _ordinal(day: int, family: str) -> str:
    if family == "en":
        return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    if family.startswith("fr"):
        return "er" if day == 1 else ("e" if family == "fr-e" else "")
    return ""


def _name(table: Sequence[str], full: Sequence[str], index: int, slot: Slot) -> str:
    name = table[index]
    if slot.ascii:
        name = words.ascii_only(name)
    if slot.dot and len(name) < len(full[index]):
        name += "."
    return apply_case(name, slot.case)


def _number(value: int | float, slot: Slot) -> str:
    if slot.decimals:
        return f"{float(value):.{slot.decimals}f}".replace(".", slot.suffix or ".")
    number = round(value)
    vocabulary = words.NUMBER_WORDS.get(slot.lang, ())
    if slot.form == "word" and number == 1 and slot.forms[0]:
        return slot.forms[0]  # "a year ago", "il y a un an": keep the article
    if slot.form == "word" and 0 <= number < len(vocabulary):
        return apply_case(vocabulary[number], slot.case)
    return str(number)


def _fill(slot: Slot, fields: Mapping[str, int | float], twelve_hour: bool) -> str:
    text = _fill_field(slot, fields, twelve_hour)
    return " ".join(text) if slot.form == "spaced" else text


def _fill_field(slot: Slot, fields: Mapping[str, int | float], twelve_hour: bool) -> str:
    name = slot.name
    if name == "day":
        day = int(fields["day"])
        return str(day).zfill(slot.width) + _ordinal(day, slot.suffix)
    if name == "month":
        return str(int(fields["month"])).zfill(slot.width)
    if name == "month_name":
        full = words.MONTHS[(slot.lang, "full")]
        return _name(words.MONTHS[(slot.lang, slot.form)], full, int(fields["month"]) - 1, slot)
    if name == "year":
        year = int(fields["year"])
        if slot.width == 2:
            return f"{year % 100:02d}"
        return str(year // 10 * 10 if slot.form == "decade" else year).zfill(slot.width)
    if name == "season":
        full = words.SEASONS[(slot.lang, "full")]
        return _name(words.SEASONS[(slot.lang, slot.form)], full, season_of(int(fields["month"])) - 1, slot)
    if name == "weekday":
        full = words.WEEKDAYS[(slot.lang, "full")]
        return _name(words.WEEKDAYS[(slot.lang, slot.form)], full, int(fields["weekday"]) - 1, slot)
    if name == "hour":
        hour = int(fields["hour"])
        return str((hour % 12 or 12) if twelve_hour else hour).zfill(slot.width)
    if name in ("minute", "second"):
        return f"{int(fields[name]):02d}"
    if name == "meridiem":
        return slot.forms[int(fields["hour"]) >= 12]
    if name == "unit":
        value = fields["number"]
        singular = value < 2 if slot.lang == "fr" else value == 1
        return apply_case(slot.forms[0] if singular else slot.forms[1], slot.case) + ("." if slot.dot else "")
    return _number(fields["number"], slot)


def render_temporal(value: Temporal, quantity: int | float, *, number_text: str | None = None) -> str:
    """``value`` written with ``quantity`` in place of its own (``number_text`` overrides an amount)."""
    return render_fields(value.parts, fields_of(value.kind, quantity), number_text=number_text)


def render_fields(
    parts: Sequence[Part],
    fields: Mapping[str, int | float],
    *,
    number_text: str | None = None,
    digits: Callable[[int], str] = _zeros,
) -> str:
    """A template written with ``fields`` (day, month, year, weekday, hour, minute, second, number).

    ``digits(width)`` writes the random-digit slots of loose layouts; ``number_text`` overrides an amount.
    """
    twelve_hour = any(isinstance(p, Slot) and p.name == "meridiem" for p in parts)
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part.name == "number" and number_text is not None:
            out.append(number_text)
        elif part.name == "digits":
            out.append(digits(part.width))
        else:
            out.append(_fill(part, fields, twelve_hour))
    return "".join(out)
