"""The layout of a date span for writing random values in it (the ``fake`` operator's date surrogates).

The readers are those of ``parse_temporal`` (the ``dp_date`` operator's), strict first: numeric dates,
lone years and days, dates with a month name, clock times. What they refuse is read loosely: clock times
are cut out ("2014-03-05 10:22:31", "le 3 mars 2020 à 14h", with seconds or ``14h``), and the pieces
between them are read with any separators ("13 / 03", "22|8|1923"), as eight compact digits
("20200212"), or token by token (month and weekday names become name slots, other digits random digits,
as in spaced-out "2 9 0 2 1 9 9 5"). Dates spelled out in words, and spans with no date part, have no
layout: the caller writes the language's usual numeric date instead. A layout never keeps a digit.
"""

from __future__ import annotations

import datetime as dt

from anonymed.dates import words
from anonymed.dates.model import Layout, Part, Slot, Temporal
from anonymed.dates.parse import (
    UTC_OFFSET,
    Tok,
    name_slot,
    ordinal_family,
    parse_bare,
    parse_compact,
    parse_numeric,
    parse_time,
    time_layout,
    time_match,
    tokens,
)
from anonymed.dates.phrases import digit_slots, parse_textual, spelled


def parse_layout(
    text: str, lang: str, *, subtype: str | None = None, reference: dt.date | None = None
) -> Layout | None:
    """The layout of ``text`` (with its value when one is read), or ``None`` when no date part is found."""
    toks = tokens(text)
    if spelled(toks, lang):
        return None
    ref = reference or dt.date.today()
    order = "DMY" if lang == "fr" else "MDY"
    if subtype == "time":
        hhmm = _hhmm(toks, lang)
        if hhmm is not None:
            return hhmm
    has_unit = any(t.kind == "word" and words.unit_of(t.text) for t in toks)
    strict = None if has_unit else parse_numeric(text, order, ref)
    strict = strict or (None if has_unit else parse_bare(text, year_only=subtype == "year", reference=ref))
    strict = strict or parse_textual(toks, lang, ref) or parse_time(text)
    if strict is not None:
        return strict
    layout = _loose(text, lang, order, ref)
    return layout if layout.slots() else None


def _hhmm(toks: list[Tok], lang: str) -> Layout | None:
    """A clock time written as three or four digits ("1430"), when the span is known to be a time."""
    numbers = [i for i, t in enumerate(toks) if t.kind == "num"]
    if len(numbers) != 1 or any(t.kind == "word" and words.month_of(t.text, lang) for t in toks):
        return None
    tok = toks[numbers[0]]
    if not tok.text.isdecimal() or len(tok.text) not in (3, 4) or tok.suffix:
        return None
    hour = Slot("hour", 2 if len(tok.text) == 4 else 0)
    parts = [
        p for i, t in enumerate(toks) for p in ([hour, Slot("minute", 2)] if i == numbers[0] else [t.surface])
    ]
    return Layout(tuple(parts))


def _loose(text: str, lang: str, order: str, ref: dt.date) -> Layout:
    """Clock times cut out, each piece between them read as a date (strictly, loosely, or token by token)."""
    parts: list[Part] = []
    values: list[Temporal] = []
    rest = text
    while (found := time_match(rest, loose=True)) is not None:
        before = _piece(rest[: found.start()], lang, order, ref)
        parts += [*before.parts, *time_layout(found).parts]
        values += [before.value] if before.value is not None else []
        rest = rest[found.end() :]
        zone = UTC_OFFSET.match(rest)
        if zone is not None:  # "T09:05:00.250-05:00": the fraction's digits, then the zone as written
            parts += [*_piece(rest[: zone.start("zone")], lang, order, ref).parts, zone.group("zone")]
            rest = rest[zone.end() :]
    last = _piece(rest, lang, order, ref)
    parts += last.parts
    values += [last.value] if last.value is not None else []
    return Layout(tuple(p for p in parts if p != ""), values[0] if len(values) == 1 else None)


def _piece(text: str, lang: str, order: str, ref: dt.date) -> Layout:
    if not text:
        return Layout(())
    toks = tokens(text)
    found = (
        parse_numeric(text, order, ref)
        or parse_textual(toks, lang, ref)
        or parse_numeric(text, order, ref, loose=True)
        or parse_textual(toks, lang, ref, loose=True)
        or parse_compact(text, lang)
        or parse_bare(text, year_only=False, reference=ref)
    )
    return found if found is not None else Layout(tuple(_token_parts(toks, lang)))


def _token_parts(toks: list[Tok], lang: str) -> list[Part]:
    """Names as name slots, the first small number as the day, four digits as a year, other digits random.

    More than three numbers are digits spelled out one by one ("2 9 0 2 1 9 9 5"): all random digits.
    """
    spaced = sum(t.kind == "num" for t in toks) > 3
    parts: list[Part] = []
    for tok in toks:
        name = words.name_of(tok.text, lang) if tok.kind == "word" else None
        after_day = bool(parts) and isinstance(parts[-1], Slot) and parts[-1].name == "day"
        if name is not None and name.kind == "weekday" and after_day:
            name = words.month_in_any(tok.text, lang) or name  # "20mar": a day then a month, not mardi
        if name is not None:
            parts.append(name_slot(tok, name))
        elif tok.kind != "num":
            parts.append(tok.surface)
        elif spaced:
            parts += digit_slots(tok)
        else:
            day_free = not any(isinstance(p, Slot) and p.name == "day" for p in parts)
            parts += _number_parts(tok, day_free)
    return parts


def _number_parts(tok: Tok, day_free: bool) -> list[Part]:
    digits = tok.text.isdecimal()
    if digits and day_free and len(tok.text) <= 2 and 1 <= int(tok.text) <= 31:
        return [Slot("day", 2 if tok.text.startswith("0") else 0, suffix=ordinal_family(tok.suffix))]
    if digits and len(tok.text) == 4 and not tok.suffix:
        return [Slot("year", 4)]
    return digit_slots(tok)
