"""Readers of numeric dates, clock times and bare numbers, and ``dateparser`` for the rest.

Each reader returns a ``Layout``: the template of the text and the value read from it. A strict reader
(the default, for ``dp_date``) never accepts a span in which some digits would be left out of its
template (they could leak) and always reads a value. ``loose=True`` (the ``fake`` operator's layouts)
also accepts any separators, seconds, hours written ``14h`` and impossible dates, leaving the value unread.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Final

from anonymed.dates import words
from anonymed.dates.model import (
    LOOSE_NUMERIC_DATE,
    NUMERIC_DATE,
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

_TIME = re.compile(
    r"(?<!\d)(?P<hour>\d{1,2})(?:(?P<sep>[:h])(?P<minute>\d{2}))?"
    r"(?:(?P<space>\s?)(?P<mer>[aApP])(?P<dot1>\.?)(?P<m>[mM])(?P<dot2>\.?))?(?![\d:])"
)
#: a UTC offset right after a time, or after its fraction of a second ("+02:00", ".123-0500" of an ISO 8601
#: timestamp, RFC 3339): a time zone, written back as it is (group ``zone``)
UTC_OFFSET: Final = re.compile(r"(?:\.\d{1,9})?(?P<zone>[+-](?:0\d|1[0-4]):?[0-5]\d)(?!\d)")
_LOOSE_TIME = re.compile(
    r"(?<!\d)(?P<hour>\d{1,2})(?:(?P<sep>:)(?P<minute>\d{2})(?::(?P<second>\d{2}))?"
    r"|(?P<hsep>\s?[hH])(?P<hminute>\d{2})?(?![^\W\d_]))?"
    r"(?:(?P<space>\s?)(?P<mer>[aApP])(?P<dot1>\.?)(?P<m>[mM])(?P<dot2>\.?)(?![^\W\d_]))?(?![\d:])"
)
_TOKEN = re.compile(
    r"(?P<num>\d+(?:[.,]\d{1,3}(?!\d))?)(?P<suf>(?:st|nd|rd|th|er|re|ème|eme|e)(?![^\W\d_]))?"
    r"|(?P<word>[^\W\d_]+(?:'[^\W\d_]+)?)(?P<dot>\.)?|(?P<other>\s+|.)",
    re.S,
)
_WORDS = re.compile(r"[^\W\d_]+")
_RANGE_OF_NUMBERS = re.compile(r"\d\s*(?:-|–|\bau\b|\bto\b)\s*\d")
_COMPACT = re.compile(r"(\s*)(\d{8})(\s*)")
_SPACED = re.compile(r"(\s*)(\d(?: \d){7})(\s*)")


@dataclass(frozen=True)
class Tok:
    """A token: ``num`` (with its ordinal suffix), ``word`` (with a trailing dot) or ``other``."""

    kind: str
    text: str
    suffix: str = ""
    dot: bool = False

    @property
    def surface(self) -> str:
        """The token as written."""
        return self.text + self.suffix + ("." if self.dot else "")


def tokens(text: str) -> list[Tok]:
    """Numbers (decimals up to three places, ordinal suffixes), words (trailing dot) and other characters."""
    toks: list[Tok] = []
    for m in _TOKEN.finditer(text):
        if m.group("num") is not None:
            toks.append(Tok("num", m.group("num"), m.group("suf") or ""))
        elif m.group("word") is not None:
            toks.append(Tok("word", m.group("word"), dot=m.group("dot") is not None))
        else:
            toks.append(Tok("other", m.group("other")))
    return toks


def name_slot(tok: Tok, name: words.Name) -> Slot:
    """The slot of a month or weekday word, written back in its language, form and case.

    Accents are dropped on output only when the original dropped them ("fevrier", not "mars").
    """
    table = words.MONTHS if name.kind == "month" else words.WEEKDAYS
    unaccented = tok.text.isascii() and not table[(name.lang, name.form)][name.number - 1].isascii()
    kind = "month_name" if name.kind == "month" else "weekday"
    return Slot(kind, lang=name.lang, form=name.form, case=case_of(tok.text), dot=tok.dot, ascii=unaccented)


def ordinal_family(suffix: str, lang: str = "") -> str:
    """How a day's ordinal is written back: ``en`` (1st), ``fr`` (1er), ``fr-e`` (1er, 2e) or none."""
    if suffix in ("st", "nd", "rd", "th"):
        return "en"
    if suffix in ("e", "ème", "eme"):
        return "fr-e"
    return "fr" if suffix in ("er", "re") or lang == "fr" else ""


def parse_numeric(text: str, order: str, reference: dt.date, *, loose: bool = False) -> Layout | None:
    """A numeric date (D/M/Y, M/D/Y, Y-M-D, D/M, M/YY, M/YYYY), read in ``order`` unless impossible."""
    matches = list((LOOSE_NUMERIC_DATE if loose else NUMERIC_DATE).finditer(text))
    if len(matches) != 1:
        return None
    m = matches[0]
    pre, post = text[: m.start()], text[m.end() :]
    if any(c.isdigit() for c in pre + post) or _names_a_month(pre + " " + post):
        return None  # "March 12-15" is a range of days of March, not December 15
    found = _read_numeric(m.groups(), order, reference)
    if found is None or (found[1] is None and not loose):
        return None
    slots, kind, quantity = found
    head, weekday = _weekday_before(pre, kind)
    # "Mon 11/4": the latest year up to the reference's whose 4 November is a Monday
    if weekday is not None and m.group(5) is None:
        quantity = _agreeing_year(quantity, weekday, reference)
    parts = (*head, *slots, post)
    return Layout(parts, None if kind is None else Temporal(kind, _UNITS[kind], quantity, parts))


def _agreeing_year(day: int, weekday: int, reference: dt.date) -> int:
    """The ordinal of the same month and day in the latest year, of the reference's and the six before it,
    whose ISO weekday is ``weekday``; ``day`` itself when none is."""
    date = dt.date.fromordinal(day)
    for year in range(reference.year, reference.year - 7, -1):
        try:
            candidate = date.replace(year=year)
        except ValueError:  # 29 February
            continue
        if candidate.isoweekday() == weekday:
            return candidate.toordinal()
    return day


#: a weekday word ending the text before a numeric date, with its comma or dot: "Monday ", "Mon, ", "lun. "
_WEEKDAY_END = re.compile(r"([^\W\d_]+)(\.?,?\s*)$")


def _weekday_before(pre: str, kind: Kind | None) -> tuple[tuple[Part, ...], int | None]:
    """``pre`` with a weekday word right before a day's numeric date as a slot, and that weekday (ISO, 1 is
    Monday): "Monday 11/4/2024" moves its weekday with the date instead of keeping the true date's."""
    found = _WEEKDAY_END.search(pre) if kind is Kind.DATE else None
    name = None if found is None else words.weekday_in_any(found.group(1))
    if found is None or name is None:
        return (pre,), None
    gap = found.group(2)
    dotted = gap.startswith(".")
    slot = name_slot(Tok("word", found.group(1), dot=dotted), name)
    return (pre[: found.start()], slot, gap[1:] if dotted else gap), name.number


def _names_a_month(text: str) -> bool:
    return any(words.month_of(w, "en") or words.month_of(w, "fr") for w in _WORDS.findall(text))


def _read_numeric(groups: tuple[str, ...], order: str, reference: dt.date) -> _Found | None:
    """The fields of a numeric date's three (or two) numbers; the kind is ``None`` for impossible dates."""
    first, sep, second, sep2, third = groups
    sep2 = sep2 or ""
    if len(first) == 4:
        return _year_first(int(first), sep, second, sep2, third)
    if len(first) > 2 or (third is not None and len(third) not in (2, 4)):
        return None
    a, b = int(first), int(second)
    if third is None and (len(second) == 4 or (len(second) == 2 and b > 31)):  # 12/83, 12/2020
        year = b if len(second) == 4 else two_digit_year(b, reference)
        slots = (Slot("month", _width(first, second, third)), sep, Slot("year", len(second)))
        return slots, Kind.MONTH_YEAR if 1 <= a <= 12 else None, 12 * year + a - 1
    if len(second) > 2:
        return None
    return _day_month(a, b, (first, sep, second, sep2, third), order, reference)


_UNITS = {Kind.DATE: Unit.DAY, Kind.MONTH_YEAR: Unit.MONTH}
_Found = tuple[tuple[Part, ...], Kind | None, int]


def _width(first: str, second: str, third: str | None) -> int:
    padded = first.startswith("0") or second.startswith("0")
    return 2 if padded or (len(first) == len(second) == 2 and third is not None) else 0


def _year_first(year: int, sep: str, month_text: str, sep2: str, day_text: str | None) -> _Found:
    """YYYY-MM (a month) or YYYY-MM-DD; the month and day keep two digits when the month has two."""
    month, width = int(month_text), 2 if len(month_text) == 2 else 0
    if day_text is None:
        kind = Kind.MONTH_YEAR if 1 <= month <= 12 and len(month_text) <= 2 else None
        return (Slot("year", 4), sep, Slot("month", width)), kind, 12 * year + month - 1
    slots = (Slot("year", 4), sep, Slot("month", width), sep2, Slot("day", width))
    day = int(day_text)
    if len(day_text) != 2 or len(month_text) > 2 or not valid_date(year, month, day):
        return slots, None, 0
    return slots, Kind.DATE, dt.date(year, month, day).toordinal()


def _day_month(
    a: int, b: int, texts: tuple[str, str, str, str, str | None], order: str, ref: dt.date
) -> _Found:
    """D/M or M/D with an optional year: ``order`` first, the other order when it is impossible."""
    first, sep, second, sep2, third = texts
    year = ref.year if third is None else int(third)
    if third is not None and len(third) == 2:
        year = two_digit_year(year, ref)
    width = _width(first, second, third)
    tail: tuple[Part, ...] = () if third is None else (sep2, Slot("year", len(third)))
    for choice in (order, "MDY" if order == "DMY" else "DMY"):
        day, month = (a, b) if choice == "DMY" else (b, a)
        if valid_date(year, month, day):
            return _pair(choice, width, sep) + tail, Kind.DATE, dt.date(year, month, day).toordinal()
    return _pair(order, width, sep) + tail, None, 0


def _pair(order: str, width: int, sep: str) -> tuple[Part, ...]:
    day, month = Slot("day", width), Slot("month", width)
    return (day, sep, month) if order == "DMY" else (month, sep, day)


def parse_time(text: str, *, loose: bool = False) -> Layout | None:
    """A clock time: ``10:30``, ``14h30``, ``10:30 P.M.``, ``3 pm`` (loose: also ``14h``, ``10:22:31``)."""
    found = time_match(text, loose=loose)
    if found is None:
        return None
    pre, post = text[: found.start()], text[found.end() :]
    if any(c.isdigit() for c in pre + post):
        return None
    layout = time_layout(found, pre, post)
    return layout if loose or layout.value is not None else None


def time_match(text: str, *, loose: bool = False) -> re.Match[str] | None:
    """The first clock time of ``text``: a number with minutes, ``h`` or am/pm."""
    pattern = _LOOSE_TIME if loose else _TIME
    return next((m for m in pattern.finditer(text) if _is_time(m)), None)


def _is_time(m: re.Match[str]) -> bool:
    return any(m.groupdict().get(g) for g in ("sep", "hsep", "mer"))


def time_layout(m: re.Match[str], pre: str = "", post: str = "") -> Layout:
    """The template of a clock time match; its value when it is a real time without seconds."""
    g = m.groupdict()
    hour_text, meridiem = g["hour"], g["mer"]
    hour, minute = int(hour_text), int(g.get("minute") or g.get("hminute") or 0)
    two_digits = hour_text.startswith("0") or (len(hour_text) == 2 and meridiem is None)
    parts: list[Part] = [pre, Slot("hour", len(hour_text) if two_digits else 0)]
    if g.get("sep"):
        parts += [g["sep"], Slot("minute", 2)]
        if g.get("second"):
            parts += [":", Slot("second", 2)]
    elif g.get("hsep"):
        parts += [g["hsep"]] + ([Slot("minute", 2)] if g.get("hminute") else [])
    if meridiem is not None:
        am = ("A" if meridiem.isupper() else "a") + g["dot1"] + g["m"] + g["dot2"]
        parts += [g["space"], Slot("meridiem", forms=(am, ("P" if meridiem.isupper() else "p") + am[1:]))]
        hour = hour % 12 + (12 if meridiem in "pP" else 0)
    parts.append(post)
    if minute > 59 or hour > 23 or (meridiem is not None and int(hour_text) > 12) or g.get("second"):
        return Layout(tuple(parts))
    if not (g.get("sep") or g.get("hminute")):
        return Layout(tuple(parts), Temporal(Kind.HOUR, Unit.HOUR, hour, tuple(parts)))
    return Layout(tuple(parts), Temporal(Kind.TIME, Unit.MINUTE, 60 * hour + minute, tuple(parts)))


def parse_bare(text: str, *, year_only: bool, reference: dt.date) -> Layout | None:
    """A lone year (``1992``, ``1980s``, two digits when ``year_only``) or day of the month (``11th``)."""
    m = re.fullmatch(r"(\s*)(\d{1,4})(st|nd|rd|th|er|e|'?[sS])?(\s*)", text)
    if m is None:
        return None
    digits, suffix = m.group(2), m.group(3) or ""
    value = int(digits)
    pre, post = m.group(1), m.group(4)
    parts: tuple[Part, ...]
    if len(digits) == 4 and 1000 <= value <= 2999 and suffix in ("", "s", "S", "'s"):
        parts = (pre, Slot("year", 4, form="decade" if suffix else "full"), suffix, post)
        return Layout(parts, Temporal(Kind.YEAR, Unit.YEAR, value, parts))
    if len(digits) == 2 and (year_only or value > 31) and not suffix:
        parts = (pre, Slot("year", 2), post)
        return Layout(parts, Temporal(Kind.YEAR, Unit.YEAR, two_digit_year(value, reference), parts))
    if len(digits) <= 2 and 1 <= value <= 31 and not year_only and suffix.lower() not in ("s", "'s"):
        parts = (pre, Slot("day", 2 if digits.startswith("0") else 0, suffix=ordinal_family(suffix)), post)
        return Layout(parts, Temporal(Kind.DAY_OF_MONTH, Unit.DAY, value, parts))
    return None


def parse_compact(text: str, lang: str) -> Layout | None:
    """Eight digits: YYYYMMDD, DDMMYYYY (French) or MMDDYYYY, the first that is a real date of 1800-2200.

    Without a real reading, YYYYMMDD when the digits start with a year from 1800 to 2200, else the
    language's order (a layout without value). The digits may be written one by one with single spaces
    ("2 9 0 2 1 9 9 5"): each field is then written back spaced out too.
    """
    spaced = _SPACED.fullmatch(text)
    m = spaced or _COMPACT.fullmatch(text)
    if m is None:
        return None
    digits = m.group(2).replace(" ", "")
    form = "spaced" if spaced else "full"
    year, day, month = Slot("year", 4, form=form), Slot("day", 2, form=form), Slot("month", 2, form=form)
    year_first = ((year, month, day), (digits[:4], digits[4:6], digits[6:]))
    day_first = ((day, month, year), (digits[4:], digits[2:4], digits[:2]))
    month_first = ((month, day, year), (digits[4:], digits[:2], digits[2:4]))
    readings = [year_first, day_first if lang == "fr" else month_first]
    joined = (" ", " ") if spaced else ("", "")
    for slots, (y, mo, d) in readings:
        if 1800 <= int(y) <= 2200 and valid_date(int(y), int(mo), int(d)):
            parts = (m.group(1), slots[0], joined[0], slots[1], joined[1], slots[2], m.group(3))
            ordinal = dt.date(int(y), int(mo), int(d)).toordinal()
            return Layout(parts, Temporal(Kind.DATE, Unit.DAY, ordinal, parts))
    slots = readings[0][0] if 1800 <= int(digits[:4]) <= 2200 else readings[1][0]
    return Layout((m.group(1), slots[0], joined[0], slots[1], joined[1], slots[2], m.group(3)))


def parse_dateparser(text: str, lang: str, order: str, reference: dt.date) -> Temporal | None:
    """A full date read by ``dateparser``, written back in the language's long format."""
    if not any(c.isalpha() for c in text) or not any(c.isdigit() for c in text):
        return None
    if _RANGE_OF_NUMBERS.search(text):
        return None  # "March 12-15" is a range (``pieces``), not March 12, 2015
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
