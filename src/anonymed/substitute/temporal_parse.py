"""The parsers behind ``temporal.parse_temporal``: numeric and textual dates, times, amounts, bare numbers.

Each parser returns a ``Temporal`` (quantity, unit and the template of the text) or ``None``; a parser
never accepts a span in which some digits would be left out of its template (they could leak).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from anonymed.substitute import temporal_words as words
from anonymed.substitute.temporal_model import (
    NUMERIC_DATE,
    Kind,
    Part,
    Slot,
    Temporal,
    Unit,
    case_of,
    two_digit_year,
    valid_date,
)

_TIME = re.compile(r"(?<!\d)(\d{1,2})(?:([:h])(\d{2}))?(?:\s?([aApP])(\.?)([mM])(\.?))?(?![\d:])")
_TOKEN = re.compile(
    r"(?P<num>\d+(?:[.,]\d+)?)(?P<suf>(?:st|nd|rd|th|er|re|ème|eme|e)(?![^\W\d_]))?"
    r"|(?P<word>[^\W\d_]+(?:'[^\W\d_]+)?)(?P<dot>\.)?|(?P<other>\s+|.)"
)
_FILLERS = {"", "of", "the", "de", "du", "le", ",", "."}


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    suffix: str = ""
    dot: bool = False


def tokens(text: str) -> list[_Tok]:
    """Numbers (with ordinal suffixes), words (with a trailing dot) and single other characters."""
    toks: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        if m.group("num") is not None:
            toks.append(_Tok("num", m.group("num"), m.group("suf") or ""))
        elif m.group("word") is not None:
            toks.append(_Tok("word", m.group("word"), dot=m.group("dot") is not None))
        else:
            toks.append(_Tok("other", m.group("other")))
    return toks


def _surface(tok: _Tok) -> str:
    return tok.text + tok.suffix + ("." if tok.dot else "")


def parse_numeric(text: str, order: str, reference: dt.date) -> Temporal | None:
    """A numeric date (D/M/Y, M/D/Y, Y-M-D, D/M, M/YY), read in ``order`` unless impossible."""
    matches = list(NUMERIC_DATE.finditer(text))
    if len(matches) != 1:
        return None
    m = matches[0]
    a_txt, sep, b_txt, y_txt = m.group(1), m.group(2), m.group(3), m.group(4)
    pre, post = text[: m.start()], text[m.end() :]
    if any(c.isdigit() for c in pre + post):
        return None
    a, b = int(a_txt), int(b_txt)
    padded = any(t.startswith("0") for t in (a_txt, b_txt)) or (
        len(a_txt) == len(b_txt) == 2 and y_txt is not None and len(y_txt) == 4
    )
    width = 2 if padded else 0
    parts: tuple[Part, ...]
    if len(a_txt) == 4:  # YYYY-MM-DD or YYYY-MM
        if y_txt is None:
            if not 1 <= b <= 12:
                return None
            parts = (pre, Slot("year", 4), sep, Slot("month", width), post)
            return Temporal(Kind.MONTH_YEAR, Unit.MONTH, 12 * a + b - 1, parts)
        d = int(y_txt)
        if len(y_txt) != 2 or not valid_date(a, b, d):
            return None
        width = 2 if len(b_txt) == 2 else 0
        parts = (pre, Slot("year", 4), sep, Slot("month", width), sep, Slot("day", width), post)
        return Temporal(Kind.DATE, Unit.DAY, dt.date(a, b, d).toordinal(), parts)
    if len(a_txt) > 2:
        return None
    if y_txt is None and b > 31 and 1 <= a <= 12:  # 12/83: month and two-digit year
        parts = (pre, Slot("month", width), sep, Slot("year", 2), post)
        return Temporal(Kind.MONTH_YEAR, Unit.MONTH, 12 * two_digit_year(b, reference) + a - 1, parts)
    year = reference.year if y_txt is None else int(y_txt)
    if y_txt is not None and len(y_txt) == 2:
        year = two_digit_year(year, reference)
    orders = [order, "MDY" if order == "DMY" else "DMY"]
    for choice in orders:
        day, month = (a, b) if choice == "DMY" else (b, a)
        if valid_date(year, month, day):
            first, second = (Slot("day", width), Slot("month", width))
            if choice == "MDY":
                first, second = second, first
            tail: tuple[Part, ...] = () if y_txt is None else (sep, Slot("year", len(y_txt)))
            parts = (pre, first, sep, second, *tail, post)
            return Temporal(Kind.DATE, Unit.DAY, dt.date(year, month, day).toordinal(), parts)
    return None


def parse_time(text: str) -> Temporal | None:
    """A clock time: ``10:30``, ``14h30``, ``10:30 P.M.``, ``3 pm``."""
    m = next((m for m in _TIME.finditer(text) if m.group(2) or m.group(4)), None)
    if m is None:
        return None
    pre, post = text[: m.start()], text[m.end() :]
    if any(c.isdigit() for c in pre + post):
        return None
    hour, minute = int(m.group(1)), int(m.group(3) or 0)
    meridiem = m.group(4)
    if minute > 59 or hour > (12 if meridiem else 23):
        return None
    parts: list[Part] = [pre, Slot("hour", len(m.group(1)) if m.group(1).startswith("0") else 0)]
    if m.group(2) is not None:
        parts += [m.group(2), Slot("minute", 2)]
    if meridiem is not None:
        space = (
            " " if m.group(0)[len(m.group(1)) + len(m.group(2) or "") + len(m.group(3) or "")] == " " else ""
        )
        am = ("A" if meridiem.isupper() else "a") + m.group(5) + m.group(6) + m.group(7)
        pm = ("P" if meridiem.isupper() else "p") + am[1:]
        parts += [space, Slot("meridiem", forms=(am, pm))]
        hour = hour % 12 + (12 if meridiem in "pP" else 0)
    parts.append(post)
    if m.group(2) is None:
        return Temporal(Kind.HOUR, Unit.HOUR, hour, tuple(parts))
    return Temporal(Kind.TIME, Unit.MINUTE, 60 * hour + minute, tuple(parts))


def _number_slot(tok: _Tok, lang: str) -> tuple[Slot, int | float] | None:
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


def _unit_slot(tok: _Tok, value: float) -> tuple[Part, Unit] | None:
    found = words.unit_of(tok.text) if tok.kind == "word" else None
    if found is None:
        return None
    unit, lang, singular, plural = found
    word = words.fold(tok.text)
    singular_now = value < 2 if lang == "fr" else value == 1
    agrees = singular != plural and word == words.fold(singular if singular_now else plural)
    if not agrees:
        return _surface(tok), Unit(unit)
    return Slot("unit", lang=lang, case=case_of(tok.text), forms=(singular, plural), dot=tok.dot), Unit(unit)


def parse_amount(toks: list[_Tok], lang: str, *, age: bool) -> Temporal | None:
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
        parts: list[Part] = [_surface(t) for t in toks[:i]] + [number[0]]
        if unit is None:
            rest = toks[i + 1 :]
            parts += [_surface(t) for t in rest]
            return _amount(parts, Unit.YEAR, number[1], rest)
        parts += [_surface(t) for t in toks[i + 1 : j]] + [unit[0]]
        parts += [_surface(t) for t in toks[j + 1 :]]
        return _amount(parts, unit[1], number[1], toks[:i] + toks[j + 1 :])
    return None


def _amount(parts: list[Part], unit: Unit, value: int | float, others: list[_Tok]) -> Temporal | None:
    if any(t.kind == "num" for t in others):
        return None
    return Temporal(Kind.AMOUNT, unit, value, tuple(parts))


def _month_slot(tok: _Tok, found: tuple[str, str, int]) -> Slot:
    lang, form, _ = found
    return Slot(
        "month_name", lang=lang, form=form, case=case_of(tok.text), dot=tok.dot, ascii=tok.text.isascii()
    )


def parse_textual(toks: list[_Tok], lang: str, reference: dt.date) -> Temporal | None:
    """A date with a month name, an optional day, year and weekday (English or French)."""
    found = [(i, words.month_of(t.text, lang)) for i, t in enumerate(toks) if t.kind == "word"]
    months = [(i, m) for i, m in found if m is not None]
    if len(months) != 1:
        return None
    mi, entry = months[0]
    mlang, _, month = entry
    slots: dict[int, Slot] = {mi: _month_slot(toks[mi], entry)}
    day = _find_day(toks, mi)
    year_i = next(
        (i for i, t in enumerate(toks) if t.kind == "num" and len(t.text) == 4 and not t.suffix and i != day),
        None,
    )
    if year_i is None:
        year_i = next(
            (
                i
                for i in range(1, len(toks))
                if toks[i - 1].text == "'"
                and toks[i].kind == "num"
                and len(toks[i].text) == 2
                and i not in (day, mi)
            ),
            None,
        )
    for i, t in enumerate(toks):
        weekday = words.weekday_of(t.text) if t.kind == "word" and i != mi else None
        if weekday is not None:
            slots[i] = Slot("weekday", lang=weekday[0], form=weekday[1], case=case_of(t.text), dot=t.dot)
    year = reference.year
    if year_i is not None:
        width = len(toks[year_i].text)
        year = int(toks[year_i].text) if width == 4 else two_digit_year(int(toks[year_i].text), reference)
        slots[year_i] = Slot("year", width)
    if day is not None:
        family = "fr" if mlang == "fr" else ("en" if toks[day].suffix else "")
        family = family or ("fr-e" if toks[day].suffix in ("e", "ème", "eme") else "")
        slots[day] = Slot("day", 2 if toks[day].text.startswith("0") else 0, suffix=family)
    if any(t.kind == "num" and i not in slots for i, t in enumerate(toks)):
        return None
    parts = tuple(slots.get(i, _surface(t)) for i, t in enumerate(toks))
    if day is not None:
        dnum = int(toks[day].text)
        if not valid_date(year, month, dnum):
            return None
        return Temporal(Kind.DATE, Unit.DAY, dt.date(year, month, dnum).toordinal(), parts)
    kind = Kind.MONTH_YEAR if year_i is not None else Kind.MONTH
    return Temporal(kind, Unit.MONTH, 12 * year + month - 1, parts)


def _find_day(toks: list[_Tok], mi: int) -> int | None:
    for step in (-1, 1):
        i = mi + step
        while 0 <= i < len(toks) and (toks[i].kind == "other" or words.fold(toks[i].text) in _FILLERS):
            if toks[i].kind == "other" and toks[i].text.strip() not in ("", ",", ".", "-", "/"):
                break
            i += step
        if (
            0 <= i < len(toks)
            and toks[i].kind == "num"
            and len(toks[i].text) <= 2
            and 1 <= int(toks[i].text) <= 31
        ):
            return i
    return None


def parse_bare(text: str, *, year_only: bool, reference: dt.date) -> Temporal | None:
    """A lone year (``1992``, ``1980s``, two digits when ``year_only``) or day of the month (``11th``)."""
    m = re.fullmatch(r"(\s*)(\d{1,4})(st|nd|rd|th|er|e|'?[sS])?(\s*)", text)
    if m is None:
        return None
    digits, suffix = m.group(2), m.group(3) or ""
    value = int(digits)
    pre, post = m.group(1), m.group(4)
    if len(digits) == 4 and 1000 <= value <= 2999 and suffix in ("", "s", "S", "'s"):
        slot = Slot("year", 4, form="decade" if suffix else "full")
        return Temporal(Kind.YEAR, Unit.YEAR, value, (pre, slot, suffix, post))
    if len(digits) == 2 and (year_only or value > 31) and not suffix:
        return Temporal(Kind.YEAR, Unit.YEAR, two_digit_year(value, reference), (pre, Slot("year", 2), post))
    if len(digits) <= 2 and 1 <= value <= 31 and not year_only and suffix.lower() not in ("s", "'s"):
        family = "en" if suffix in ("st", "nd", "rd", "th") else ("fr" if suffix in ("er", "e") else "")
        slot = Slot("day", 2 if digits.startswith("0") else 0, suffix=family)
        return Temporal(Kind.DAY_OF_MONTH, Unit.DAY, value, (pre, slot, post))
    return None


def parse_dateparser(text: str, lang: str, order: str, reference: dt.date) -> Temporal | None:
    """A full date read by ``dateparser``, written back in the language's long format."""
    if not any(c.isalpha() for c in text) or not any(c.isdigit() for c in text):
        return None
    import dateparser

    settings = {
        "REQUIRE_PARTS": ["day", "month", "year"],
        "DATE_ORDER": order,
        "RELATIVE_BASE": dt.datetime(reference.year, reference.month, reference.day),
    }
    parsed = dateparser.parse(text, languages=[lang if lang in ("en", "fr") else "en"], settings=settings)
    if parsed is None:
        return None
    parts: tuple[Part, ...]
    if lang == "fr":
        parts = (
            Slot("day", suffix="fr"),
            " ",
            Slot("month_name", lang="fr", case="lower"),
            " ",
            Slot("year", 4),
        )
    else:
        parts = (Slot("month_name", lang="en", case="title"), " ", Slot("day"), ", ", Slot("year", 4))
    return Temporal(Kind.DATE, Unit.DAY, parsed.date().toordinal(), parts)
