"""Surrogates for numbers with a layout: phone numbers, valid NIR and SSN, ages."""

from __future__ import annotations

import re
import string

from anonymed.randomness import RandomSource
from anonymed.substitute.shape import count_alnum, overlay, random_like

#: international dialling codes kept as they are (longest match first)
COUNTRY_CODES = ("352", "212", "213", "216", "351", "33", "32", "41", "44", "49", "34", "39", "31", "1")
_INTERNATIONAL = re.compile(r"\s*\(?(?:\+|00)\s?(\d+)")
_DIGITS = re.compile(r"\d+")
#: units and settings of clinical measurements: they name no one, and a surrogate may keep them
MEASURE_WORDS = frozenset(
    {"x", "f", "fr", "cc", "ml", "mg", "mcg", "kg", "g", "cm", "mm", "l", "dl", "peep", "ac", "cpap", "simv",
     "psv", "ps", "fio", "pacing", "paced", "rate", "mode", "vent", "ui", "uij", "iu", "u", "mmhg", "bpm",
     "hr", "min", "sec", "meq", "mmol", "h", "gtt", "mcgkgmin", "ea"}
)  # fmt: skip
_MEASURE = re.compile(
    r"\d\s*[xX*]\s*\d|\d\s*(?:f|fr|cc|ml|mg|mcg|kg|cm|mm|ui|iu|u)\b|@\s*\d|\d\s*[xX]\b", re.I
)
_LETTERS = re.compile(r"[^\W\d_]+")


def fake_phone(text: str, rng: RandomSource, *, north_american: bool = True) -> str:
    """Every digit random, separators kept, a leading ``+33``/``+1``/``0033`` kept, trunk zeros kept; a North
    American number (ten digits after ``+1``, or with ``north_american`` after ``1`` or nothing) keeps its
    trunk ``1`` and gets an area code and an exchange that start with 2-9, as the NANP numbering plan has them
    ("1-800-222-1222" -> "1-563-...")."""
    keep = 0
    match = _INTERNATIONAL.match(text)
    if match is not None:
        run = match.group(1)
        code = next((c for c in COUNTRY_CODES if run.startswith(c)), run if len(run) <= 3 else run[:2])
        keep = match.start(1) + len(code)
    positions = [index for index in range(keep, len(text)) if text[index].isdigit()]
    plus_one = match is not None and text[match.start(1) : keep] == "1"
    nanp = (plus_one or (north_american and match is None)) and _north_american(text, positions, plus_one)
    if nanp and len(positions) == 11:
        keep, positions = positions[0] + 1, positions[1:]  # the trunk prefix "1" stays
    starts = {positions[0], positions[3]} if nanp else set()
    out = [text[:keep]]
    leading = not nanp
    for index in range(keep, len(text)):
        ch = text[index]
        if not ch.isdigit():
            out.append(ch)
        elif leading and ch == "0":
            out.append("0")
        elif leading or index in starts:
            out.append(rng.choice("23456789"))
            leading = False
        else:
            out.append(rng.choice(string.digits))
    return "".join(out)


def _north_american(text: str, positions: list[int], plus_one: bool) -> bool:
    """Whether the digits at ``positions`` are a NANP number: ten after ``+1``, or ten (or eleven starting
    with the trunk prefix ``1``) starting with 2-9 after it."""
    if plus_one:
        return len(positions) == 10
    if len(positions) == 11 and text[positions[0]] == "1":
        positions = positions[1:]
    return len(positions) == 10 and text[positions[0]] in "23456789"


def nir_key(body: str) -> int:
    """The two-digit control key of a 13-character French NIR (Corsica ``2A``/``2B`` handled)."""
    number = int(body.upper().replace("2A", "19", 1).replace("2B", "18", 1))
    return 97 - number % 97


def fake_nir(text: str, rng: RandomSource) -> str | None:
    """A valid random NIR (sex, year, month, department, commune, order, key) in the layout of ``text``.

    ``None`` when ``text`` does not hold 13 (no key) or 15 letters and digits.
    """
    size = count_alnum(text)
    if size not in (13, 15):
        return None
    department = 1 + rng.randbelow(94)
    department += department >= 20  # 20 is Corsica, written 2A/2B
    first = next((ch for ch in text if ch.isalnum()), "")
    sex = first if first in "12" else str(1 + rng.randbelow(2))  # the sex digit kept, as names keep gender
    body = (
        f"{sex}{rng.randbelow(100):02d}{1 + rng.randbelow(12):02d}{department:02d}"
        f"{1 + rng.randbelow(990):03d}{1 + rng.randbelow(999):03d}"
    )
    return overlay(text, (body + f"{nir_key(body):02d}")[:size])


def fake_ssn(text: str, rng: RandomSource) -> str | None:
    """A random SSN with a valid area (001-899 but 666), group and serial, in the layout of ``text``.

    ``None`` when ``text`` does not hold exactly nine digits and no letters.
    """
    if count_alnum(text) != 9 or sum(ch.isdigit() for ch in text) != 9:
        return None
    area = 1 + rng.randbelow(898)
    area += area >= 666
    digits = f"{area:03d}{1 + rng.randbelow(99):02d}{1 + rng.randbelow(9999):04d}"
    return overlay(text, digits)


def fake_age(text: str, rng: RandomSource) -> str:
    """The first number replaced by a random age of the same width and bracket (90 and over stay so)."""
    if _DIGITS.search(text) is None:
        return str(18 + rng.randbelow(72))
    seen = False

    def replace(match: re.Match[str]) -> str:
        nonlocal seen
        if seen:
            return random_like(match.group(0), rng)
        seen = True
        return _age_like(match.group(0), rng)

    return _DIGITS.sub(replace, text)


def _age_like(digits: str, rng: RandomSource) -> str:
    value, width = int(digits), len(digits)
    if value >= 90:
        age = 90 + rng.randbelow(16)
    elif width == 1:
        age = 1 + rng.randbelow(9)
    else:
        age = 10 + rng.randbelow(80)
    return f"{age:0{width}d}"


def measurement_like(text: str) -> bool:
    """Digits with units or settings ("700x12x", "#30f/30cc", "PACING @ 60", "AC700X10"), no other word."""
    if _MEASURE.search(text) is None:
        return False
    return all(word.casefold() in MEASURE_WORDS for word in _LETTERS.findall(text))


def fake_measurement(text: str, rng: RandomSource) -> str:
    """The same units and separators, every number another one of its width within 30% where it can be."""
    return _DIGITS.sub(lambda m: _near(m.group(0), rng), text)


def _near(digits: str, rng: RandomSource) -> str:
    value, width = int(digits), len(digits)
    low, high = (
        max(int(value * 0.7), 10 ** (width - 1) if width > 1 else 0),
        min(int(value * 1.3) + 1, 10**width - 1),
    )
    inside = low <= value <= high
    count = high - low + 1 - inside  # numbers of the range but the value (never listed: may be huge)
    if count <= 0:
        return random_like(digits, rng)
    drawn = low + rng.randbelow(count)
    return f"{drawn + (inside and drawn >= value):0{width}d}"
