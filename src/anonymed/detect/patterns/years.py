"""Years in context ("in 1992", "S/P MI 1992", "CABG '95", "1980s", "depuis 2004") as DATE/year."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, any_in
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: 1900-2099, optionally a decade (1980s, 1980's)
_FOUR: Final = re.compile(r"(?=\d)(?<![\w./,:+=-])(?:19|20)\d{2}(?:'?[sS]\b)?(?![\w/]|[.,:-]\d)")
#: '92 or 92' (the apostrophe marks a year; 90's is a decade of values, not taken)
_APOSTROPHE: Final = re.compile(
    r"(?=[\d'’])(?:(?<![\w'’])['’]\d{2}(?![\w'’])|(?<![\w'’.,/])\d{2}['’](?![\w'’]))"
)
#: a two-digit number right after a history event (PMH: MI 92, CABG 81)
_TWO: Final = re.compile(r"(?=\d)(?<![\w./,:+=-])\d{2}(?![\w/%'’]|[.,:-]\d)")

PATTERNS: Final = (_FOUR, _APOSTROPHE, _TWO)

_YEAR_CUES: Final = word_set(
    "in since from until till of en depuis année annee year years born né née circa dès des vers avant "
    "après jusqu'en fin début debut summer winter spring fall autumn été hiver printemps automne early "
    "late mid between and et around about dated class"
)
#: cues shared by years and clock times ("until 2000" is more often 8 pm than a year)
_TIME_CUES: Final = word_set("until till from by to between and around about vers après avant dès")
#: events of a medical history that are often followed by their year (general clinical abbreviations)
_EVENTS: Final = word_set(
    "mi cva cabg avr mvr ptca pci stent stents tia dvt pe aaa redo repair ca cancer dx diagnosed fx "
    "surgery chole cholecystectomy appy appendectomy tah bso hysterectomy nephrectomy mastectomy "
    "lobectomy colectomy transplant ablation cardioversion pacer pacemaker aicd icd thr tkr orif "
    "lami laminectomy craniotomy iddm niddm dm htn chf copd hx h/o s/p sp operated opéré opérée "
    "avc idm infarctus pontage angioplastie chirurgie"
)
#: history markers that make a bare two-digit number after an event a year
_HISTORY: Final = re.compile(r"\b(?:pmh|pmhx|pshx|psh|hx|history|h/o|s/p|antécédents|atcd|atcds)\b", re.I)
_IO_AFTER: Final = re.compile(r"^\W{0,3}(?:out|cc|ml|in|kcal|ml/|/)", re.I)


def _can_be_time(digits: str) -> bool:
    """Whether four digits could be a 24-hour time (1900 and 2030 can; 1975 cannot)."""
    return int(digits[:2]) <= 23 and int(digits[2:4]) <= 59


def _four_digit_score(scan: Scan, match: re.Match[str]) -> float | None:
    start, end = match.start(), match.end()
    before = scan.words_before(start, 2, 30)
    after = scan.line_after(end, 12)
    if scan.unit_follows(end) or _IO_AFTER.match(after) or "total" in before:
        return None
    if before[-1:] in (["at"], ["@"], ["by"], ["à"], ["a"]) or "@" in scan.text[max(0, start - 2) : start]:
        return None
    if match.group(0).lower().endswith("s"):
        return 0.8
    if any_in(before[-1:], _YEAR_CUES):
        weak = _can_be_time(match.group(0)) and before[-1] in _TIME_CUES
        return 0.4 if weak and scan.params.high_recall else (None if weak else 0.85)
    if any_in(before[-2:], _EVENTS):
        return 0.75
    if not _can_be_time(match.group(0)):
        return 0.6
    return 0.4 if scan.params.high_recall else None


def _two_digit_ok(scan: Scan, match: re.Match[str]) -> bool:
    before = scan.words_before(match.start(), 2, 25)
    if not any_in(before[-1:], _EVENTS) and not (before[-1:] == ["in"] and any_in(before[:1], _EVENTS)):
        return False
    if scan.unit_follows(match.end()):
        return False
    context = scan.text[max(0, match.start() - 200) : match.start()]
    return _HISTORY.search(context) is not None


def find_years(scan: Scan) -> Iterator[Span]:
    """Years and decades that context marks as such."""
    for match in _FOUR.finditer(scan.text):
        score = _four_digit_score(scan, match)
        if score is not None:
            yield scan.span(match.start(), match.end(), Label.DATE, "year", score)
    for match in _APOSTROPHE.finditer(scan.text):
        leading = match.group(0)[0] in "'’"
        left = match.start() + (1 if leading else 0)
        if scan.unit_follows(match.end()) or not (leading or _two_digit_ok(scan, match)):
            continue  # 30' and 70-80' are feet, minutes or ranges unless a history event precedes
        yield scan.span(left, left + 2, Label.DATE, "year", 0.7)
    for match in _TWO.finditer(scan.text):
        if _two_digit_ok(scan, match):
            yield scan.span(match.start(), match.end(), Label.DATE, "year", 0.55)
