"""Clock times when they are clearly times (10:30, 3pm, 10h30, 2130 HRS, @ 0400, 1900-0700) as DATE/time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, any_in
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

_HOUR: Final = r"(?:[01]?\d|2[0-3])"
_HH: Final = r"(?:[01]\d|2[0-3])"
_END: Final = r"(?![\w:]|[.,]\d)"
_START: Final = r"(?<![\w:.,/])"

_COLON: Final = re.compile(_START + _HOUR + r":[0-5]\d(?::[0-5]\d)?(?: ?[ap](?:\.m\.|m\b))?" + _END, re.I)
_FRENCH: Final = re.compile(_START + _HOUR + r" ?h ?[0-5]\d" + _END, re.I)
_FRENCH_HOUR: Final = re.compile(r"(?:\bà|\bvers|\bdès|\bjusqu'à) (" + _HOUR + r" ?h)(?![\w])", re.I)
_MERIDIEM: Final = re.compile(_START + r"(?:1[0-2]|0?[1-9])(?:[:.]?[0-5]\d)? ?[ap](?:\.m\.|m\b)", re.I)
_HOURS_WORD: Final = re.compile(_START + _HH + r"[0-5]\d ?(?:hrs?|hours|heures|h)\b", re.I)
_CUED: Final = re.compile(r"(?:@|\bat|\buntil|\bsince|\bvers|\bà) ?(" + _HH + r"[0-5]\d)" + _END, re.I)
_RANGE: Final = re.compile(
    _START + r"(" + _HH + r"[0-5]\d) ?(?:-+>?|–|to|à|a|->) ?(" + _HH + r"[0-5]\d)" + _END, re.I
)

PATTERNS: Final = (_COLON, _FRENCH, _FRENCH_HOUR, _MERIDIEM, _HOURS_WORD, _CUED, _RANGE)

_RATIO: Final = word_set("ratio titer titre titers dilution i:e ie i/e dilué diluted odds scale")


def _maybe_year(digits: str) -> bool:
    return 1900 <= int(digits) <= 2099


def _clock(scan: Scan) -> Iterator[Span]:
    for match in _COLON.finditer(scan.text):
        near = scan.words_before(match.start(), 2, 20) + scan.words_after(match.end(), 1, 15)
        if not any_in(near, _RATIO):
            yield scan.span(match.start(), match.end(), Label.DATE, "time", 0.8)
    for pattern in (_FRENCH, _MERIDIEM, _HOURS_WORD):
        for match in pattern.finditer(scan.text):
            yield scan.span(match.start(), match.end(), Label.DATE, "time", 0.8)
    for pattern in (_FRENCH_HOUR, _CUED):
        for match in pattern.finditer(scan.text):
            if not scan.unit_follows(match.end(1)):
                yield scan.span(match.start(1), match.end(1), Label.DATE, "time", 0.7)


def _ranges(scan: Scan) -> Iterator[Span]:
    for match in _RANGE.finditer(scan.text):
        if _maybe_year(match.group(1)) and _maybe_year(match.group(2)):
            continue  # 1990-2000 is a span of years
        if scan.unit_follows(match.end()):
            continue
        for group in (1, 2):
            yield scan.span(match.start(group), match.end(group), Label.DATE, "time", 0.7)


def find_times(scan: Scan) -> Iterator[Span]:
    """Clock times (skipped when ``params.times`` is off)."""
    if not scan.params.times:
        return
    yield from _clock(scan)
    yield from _ranges(scan)
