"""Postal codes: US ZIP codes after a state or a "zip" word, French codes before a city or after a street."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.addresses import DESIGNATORS, STATE_CODES, SUFFIXES
from anonymed.detect.patterns.base import Scan, opening
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
_STATE_CODES: Final = "|".join(STATE_CODES)
_US_STATE: Final = re.compile(
    opening(_STATE_CODES) + rf"\b(?:{_STATE_CODES}),? " + r"(\d{5}(?:-\d{4})?)(?![\w-])"
)
_ZIP_WORDS: Final = r"zip(?: ?code)?|postal code|post ?code|code postal|cp"
_ZIP_WORD: Final = re.compile(
    opening(_ZIP_WORDS) + rf"\b(?:{_ZIP_WORDS})\b(?: is)? ?:? ?"
    r"(\d{3,5}(?:[ -]\d{2,4})?(?: [A-Z]{2}\b)?|2[AB] ?\d{3}|[A-Z]\d[A-Z] ?\d[A-Z]\d)(?![\w-])",
    re.I,
)
#: a French code: 75018, 75 018, 2A004; checked against its neighbours in code
_FR_CODE: Final = re.compile(r"(?=\d)(?<![\w.,/-])(?:\d{2} ?\d{3}|2[AB] ?\d{3})(?![\w]|[.,/-]\d)")
#: a place name after the code: Paris, SAINT-DENIS, Créteil Cedex
_CITY_AFTER: Final = re.compile(r",? ?(?:[A-ZÀ-Ý][a-zà-ÿ'’]+|[A-ZÀ-Ý]{2,})(?:[- ][A-ZÀ-Ýa-zà-ÿ'’]+){0,4}")
_STREET: Final = re.compile(
    r"\b(?:rue|avenue|av|bd|boulevard|allée|allee|chemin|place|impasse|route|quai|cours|square|voie|"
    r"sentier|faubourg|cité|lieu-dit|résidence|strasse|straße|street|st|ave|road|rd|lane|drive|blvd)\b",
    re.I,
)
#: capitalised words after a number that are units or common words, not towns
_NOT_CITY: Final = word_set(
    "UI IU U UFC CFU Unités Units Unit Le La Les Et Ou De Du Des En Au Dr Pr Mme Mr Mlle Monsieur Madame "
    "Patients Patient Cas Mg Ml"
)

PATTERNS: Final = (_US_STATE, _ZIP_WORD, _FR_CODE, _CITY_AFTER, _STREET)


def _department_ok(code: str) -> bool:
    """Whether a French postal code starts with a real department (01-95, 97, 98, 2A, 2B)."""
    head = code[:2].upper()
    return head in {"2A", "2B"} or (head.isdigit() and (1 <= int(head) <= 95 or head in {"97", "98"}))


def _city_follows(scan: Scan, end: int) -> bool:
    city = _CITY_AFTER.match(scan.text, end)
    if city is None:
        return False
    first = re.split(r"[- ,]+", city.group(0).strip(", "))[0]
    return first not in _NOT_CITY and len(first) >= 3


def _french(scan: Scan) -> Iterator[Span]:
    for match in _FR_CODE.finditer(scan.text):
        if not _department_ok(match.group(0)):
            continue
        street = _STREET.search(scan.line_before(match.start(), 60)) is not None
        if street:
            yield scan.span(match.start(), match.end(), Label.LOCATION, "zip", 0.8)
        elif _city_follows(scan, match.end()):
            yield scan.span(match.start(), match.end(), Label.LOCATION, "zip", 0.6)


def find_zips(scan: Scan) -> Iterator[Span]:
    """US and French postal codes with an address context; the town before a US state and ZIP code."""
    for pattern, score in ((_US_STATE, 0.8), (_ZIP_WORD, 0.9)):
        for match in pattern.finditer(scan.text):
            if not scan.unit_follows(match.end()):
                yield scan.span(match.start(1), match.end(1), Label.LOCATION, "zip", score)
                if pattern is _US_STATE:
                    yield from _town_before(scan, match.start())
    yield from _french(scan)


#: the last line of a US address names its town before the state ("Boise ID 83706", "Springfield, IL"): one
#: to three capitalised words (USPS Publication 28, 2: the last line is city, state, ZIP code)
_TOWN_BEFORE: Final = re.compile(
    r"(?<![\w'’.-])((?:[A-Z][a-z'’]+|[A-Z]{3,})(?:[ -](?:[A-Z][a-z'’]+|[A-Z]{3,})){0,2}),? $"
)
#: words that end a street or a unit, never a town's first word ("12 Oak St Boise ID"): USPS street suffixes
#: and secondary unit designators, and a post office box
_NOT_TOWN: Final = SUFFIXES | DESIGNATORS | {"box"}


def _town_before(scan: Scan, state: int) -> Iterator[Span]:
    offset = max(0, state - 60)
    line = scan.text[offset:state]
    offset += line.rfind("\n") + 1
    match = _TOWN_BEFORE.search(scan.text, offset, state)
    if match is None:
        return
    first = match.start(1)
    for word in re.finditer(r"[^ -]+", match.group(1)):
        if word.group(0).lower() in _NOT_TOWN:
            first = match.start(1) + word.end() + 1
    if first < match.end(1):
        yield scan.span(first, match.end(1), Label.LOCATION, "city", 0.8)
