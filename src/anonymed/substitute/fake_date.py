"""Date surrogates written in the layout of the original: numeric, month names (en, fr), ordinals, times."""

from __future__ import annotations

import calendar
import re
import unicodedata
from dataclasses import dataclass

from anonymed.randomness import RandomSource
from anonymed.substitute.shape import apply_case, case_pattern, random_like

#: digit runs are decimal digits (``str.isdecimal``), never "²" (``isdigit`` but not ``int``-able)
_TOKEN = re.compile(r"\d+|[^\W\d_]+|\s+|.", re.S)

MONTHS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("January", "Jan"), ("February", "Feb"), ("March", "Mar"), ("April", "Apr"), ("May", "May"),
        ("June", "Jun"), ("July", "Jul"), ("August", "Aug"), ("September", "Sep"), ("October", "Oct"),
        ("November", "Nov"), ("December", "Dec"),
    ),
    "fr": (
        ("janvier", "janv"), ("février", "févr"), ("mars", "mars"), ("avril", "avr"), ("mai", "mai"),
        ("juin", "juin"), ("juillet", "juil"), ("août", "août"), ("septembre", "sept"), ("octobre", "oct"),
        ("novembre", "nov"), ("décembre", "déc"),
    ),
}  # fmt: skip
WEEKDAYS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("Monday", "Mon"), ("Tuesday", "Tue"), ("Wednesday", "Wed"), ("Thursday", "Thu"), ("Friday", "Fri"),
        ("Saturday", "Sat"), ("Sunday", "Sun"),
    ),
    "fr": (
        ("lundi", "lun"), ("mardi", "mar"), ("mercredi", "mer"), ("jeudi", "jeu"), ("vendredi", "ven"),
        ("samedi", "sam"), ("dimanche", "dim"),
    ),
}  # fmt: skip
_EXTRA_ABBREVIATIONS = {
    ("en", "month"): {"sept": 9},
    ("en", "weekday"): {"tues": 2, "thur": 4, "thurs": 4},
    ("fr", "month"): {"janv": 1, "fev": 2, "fevr": 2, "juil": 7},
}
#: number words: a date written in words is rewritten in the language's numeric layout (nothing kept)
_NUMBER_WORDS = frozenset(
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
_SUFFIXES = {"st", "nd", "rd", "th", "er", "e", "eme", "ème"}
_AMPM = {"am", "pm"}
_NUMERIC_ROLES = ("year", "month", "day", "hour", "minute", "second")


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _names_lookup() -> dict[tuple[str, str], tuple[str, int, str]]:
    table: dict[tuple[str, str], tuple[str, int, str]] = {}
    for kind, names in (("month", MONTHS), ("weekday", WEEKDAYS)):
        for lang, pairs in names.items():
            for index, (full, abbr) in enumerate(pairs, start=1):
                table[(lang, _fold(abbr))] = (kind, index, "abbr")
                table[(lang, _fold(full))] = (kind, index, "full")
            for word, index in _EXTRA_ABBREVIATIONS.get((lang, kind), {}).items():
                table[(lang, word)] = (kind, index, "abbr")
    return table


_NAMES = _names_lookup()


@dataclass
class _Token:
    text: str
    role: str | None = None
    lang: str = "en"
    style: str = "full"
    index: int = 0
    pad: bool = True


@dataclass(frozen=True)
class DateValue:
    """One drawn date and time; the layout decides which parts are written."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    pm: bool


def parse_layout(text: str, lang: str, subtype: str | None = None) -> list[_Token] | None:
    """The tokens of ``text`` with their date roles, or ``None`` when no date part is recognised."""
    tokens = [_Token(m.group(0)) for m in _TOKEN.finditer(text)]
    _mark_words(tokens, lang)
    _mark_times(tokens)
    _mark_date_digits(tokens, lang, subtype)
    if not any(t.role is not None for t in tokens) or _in_words(tokens):
        return None
    return tokens


def _in_words(tokens: list[_Token]) -> bool:
    """Whether numbers are spelled out (``sept`` alone may be September)."""
    words = [t for t in tokens if t.text[0].isalpha() and _fold(t.text) in _NUMBER_WORDS]
    return any(t.role is None for t in words) or len(words) > 1


def _mark_words(tokens: list[_Token], lang: str) -> None:
    langs = (lang, *(other for other in MONTHS if other != lang))
    for i, tok in enumerate(tokens):
        if not tok.text[0].isalpha():
            continue
        folded = _fold(tok.text)
        if i > 0 and tokens[i - 1].text.isdecimal() and folded in _SUFFIXES:
            tok.role = "suffix"
        elif folded in _AMPM:
            tok.role = "ampm"
        else:
            for candidate in langs:
                hit = _NAMES.get((candidate, folded))
                if hit is not None:
                    tok.role, tok.lang, tok.index, tok.style = f"{hit[0]}_name", candidate, hit[1], hit[2]
                    break


def _next(tokens: list[_Token], i: int) -> int:
    """Index of the next token after ``i`` skipping one whitespace token (len(tokens) if none)."""
    j = i + 1
    if j < len(tokens) and tokens[j].text.isspace():
        j += 1
    return j


def _is_digits(tokens: list[_Token], j: int) -> bool:
    return j < len(tokens) and tokens[j].text.isdecimal() and tokens[j].role is None


def _mark_times(tokens: list[_Token]) -> None:
    for i, tok in enumerate(tokens):
        if not _is_digits(tokens, i) or len(tok.text) > 2:
            continue
        j = i + 1
        if j + 1 < len(tokens) and tokens[j].text == ":" and _is_digits(tokens, j + 1):
            tok.role, tokens[j + 1].role = "hour", "minute"
            if j + 3 < len(tokens) and tokens[j + 2].text == ":" and _is_digits(tokens, j + 3):
                tokens[j + 3].role = "second"
            continue
        j = _next(tokens, i)
        if j < len(tokens) and tokens[j].text in ("h", "H"):
            tok.role, tokens[j].role = "hour", "h"
            k = _next(tokens, j)
            if _is_digits(tokens, k):
                tokens[k].role = "minute"
        elif j < len(tokens) and tokens[j].role == "ampm":
            tok.role = "hour"


def _mark_date_digits(tokens: list[_Token], lang: str, subtype: str | None) -> None:
    runs = [i for i in range(len(tokens)) if _is_digits(tokens, i)]
    has_month_name = any(t.role == "month_name" for t in tokens)
    if subtype == "time" and len(runs) == 1 and len(tokens[runs[0]].text) in (3, 4) and not has_month_name:
        tokens[runs[0]].role = "hhmm"
        return
    if has_month_name:
        for i in runs:
            tok = tokens[i]
            apostrophe = i > 0 and tokens[i - 1].text in ("'", "’")
            if len(tok.text) == 4 or (apostrophe and len(tok.text) == 2):
                tok.role = "year"
            elif len(tok.text) <= 2 and not any(t.role == "day" for t in tokens):
                tok.role, tok.pad = "day", tok.text.startswith("0")
        return
    many = len(runs) > 3  # spaced-out digits: each digit random
    roles = ["digits"] * len(runs) if many else _numeric_roles([tokens[i].text for i in runs], lang)
    for i, role in zip(runs, roles, strict=False):
        tokens[i].role = role
    day_month = [tokens[i] for i in runs if tokens[i].role in ("day", "month")]
    padded = any(t.text.startswith("0") for t in day_month) or all(len(t.text) == 2 for t in day_month)
    for tok in day_month:
        tok.pad = padded


def _numeric_roles(runs: list[str], lang: str) -> list[str | None]:
    """Roles of the digit runs of an all-numeric date, in order (``None``: not a date part)."""
    if not runs:
        return []
    lengths = [len(r) for r in runs]
    if len(runs) == 1:
        if lengths[0] == 4:
            return ["year"]
        if lengths[0] == 8:
            return ["compact_ymd" if 1800 <= int(runs[0][:4]) <= 2200 else f"compact_{_order(lang)}y"]
        return ["day"] if lengths[0] <= 2 else [None]
    if lengths[0] == 4:
        middle: list[str | None] = ["month", "day"] if int(runs[1]) <= 12 else ["day", "month"]
        return ["year", *middle, *[None] * (len(runs) - 3)][: len(runs)]
    if len(runs) == 2 and lengths[1] == 4:
        return ["month", "year"]
    if len(runs) == 2:
        a, b = int(runs[0]), int(runs[1])
        if b > 31 and lengths[1] == 2:
            return ["month", "year"]
        return list(_pair_order(a, b, lang))
    head: list[str | None] = list(_pair_order(int(runs[0]), int(runs[1]), lang))
    return [*head, "year" if lengths[2] in (2, 4) else None, *[None] * (len(runs) - 3)]


def _order(lang: str) -> str:
    return "md" if lang == "en" else "dm"


def _pair_order(a: int, b: int, lang: str) -> tuple[str, str]:
    if a > 12 >= b:
        return ("day", "month")
    if b > 12 >= a:
        return ("month", "day")
    return ("month", "day") if _order(lang) == "md" else ("day", "month")


def draw_value(rng: RandomSource, years: tuple[int, int], *, twelve_hour: bool) -> DateValue:
    """A uniformly random date (year in ``years``, inclusive) and time."""
    year = years[0] + rng.randbelow(years[1] - years[0] + 1)
    month = 1 + rng.randbelow(12)
    day = 1 + rng.randbelow(calendar.monthrange(year, month)[1])
    hour = 1 + rng.randbelow(12) if twelve_hour else rng.randbelow(24)
    return DateValue(year, month, day, hour, rng.randbelow(60), rng.randbelow(60), rng.randbelow(2) == 1)


def render(tokens: list[_Token], value: DateValue, rng: RandomSource) -> str:
    """The layout filled with ``value``; unassigned digits become random digits."""
    out: list[str] = []
    numbers: list[int] = []
    for tok in tokens:
        piece = _render_token(tok, value, numbers, rng)
        if tok.text.isdecimal():
            numbers.append(int(piece) if piece.isdecimal() else 0)
        out.append(piece)
    return "".join(out)


def _render_token(tok: _Token, value: DateValue, numbers: list[int], rng: RandomSource) -> str:
    role, width = tok.role, len(tok.text)
    if role in _NUMERIC_ROLES:
        number = getattr(value, role)
        if role == "year":
            return f"{number % 100:02d}" if width == 2 else f"{number:04d}"
        padded = role in ("minute", "second") or (role == "hour" and width >= 2)
        return f"{number:02d}" if padded or (role in ("day", "month") and tok.pad) else str(number)
    if role is not None and role.startswith("compact_"):
        parts = {"y": f"{value.year:04d}", "m": f"{value.month:02d}", "d": f"{value.day:02d}"}
        return "".join(parts[c] for c in role.removeprefix("compact_"))
    if role == "hhmm":
        return f"{value.hour}{value.minute:02d}" if width == 3 else f"{value.hour:02d}{value.minute:02d}"
    if role in ("month_name", "weekday_name"):
        return _name(tok, value)
    if role == "suffix":
        return apply_case(_suffix(tok, numbers[-1] if numbers else value.day), case_pattern(tok.text))
    if role == "ampm":
        return apply_case("pm" if value.pm else "am", case_pattern(tok.text))
    if tok.text.isdecimal():
        return random_like(tok.text, rng)
    return tok.text


def _name(tok: _Token, value: DateValue) -> str:
    table = MONTHS if tok.role == "month_name" else WEEKDAYS
    if tok.role == "month_name":
        new = value.month - 1
    else:
        new = calendar.weekday(value.year, value.month, value.day)
    column = 0 if tok.style == "full" else 1
    name = table[tok.lang][new][column]
    if tok.text.isascii() and not table[tok.lang][tok.index - 1][column].isascii():
        name = _fold(name)
    return apply_case(name, case_pattern(tok.text))


def _suffix(tok: _Token, number: int) -> str:
    if _fold(tok.text) in ("er", "e", "eme"):
        return "er" if number == 1 else ""
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def default_layout(value: DateValue, lang: str) -> str:
    """The usual numeric date of the language, for originals whose layout was not recognised."""
    if lang == "fr":
        return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"
    return f"{value.month:02d}/{value.day:02d}/{value.year:04d}"


def fake_date(
    text: str, rng: RandomSource, lang: str, years: tuple[int, int], subtype: str | None = None
) -> str:
    """A random date (and time) written in the layout of ``text``."""
    tokens = parse_layout(text, lang, subtype)
    twelve_hour = tokens is not None and any(t.role == "ampm" for t in tokens)
    value = draw_value(rng, years, twelve_hour=twelve_hour)
    if tokens is None:
        return default_layout(value, lang)
    return render(tokens, value, rng)
