"""Ages: "40 years old", "40-year-old", "40 y/o", "aged 40", "âgé de 40 ans", "(27 ans)"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, any_in, opening
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
_NUMBER: Final = r"(?=\d)(?<![\w.,/-])(?P<age>\d{1,3})"
_AFTER: Final = re.compile(
    _NUMBER + r"(?:[ -]?(?:years?|yrs?)[ -]?old\b|[ -]?y ?[/.]? ?o\b\.?|[ -]?years? of age\b|"
    r"[ -]?(?:months?|mos?|weeks?|wks?|days?)[ -]old\b)",
    re.I,
)
_AGE_WORDS: Final = r"aged|age|ages|turned|turns|turn|âgée?s?|agée?s?|âge"
_BEFORE: Final = re.compile(
    opening(_AGE_WORDS) + rf"\b(?:{_AGE_WORDS})\b(?: ?: ?| of | de | )"
    r"(?P<age>\d{1,3})(?![\w]|[.,/]\d)",
    re.I,
)
_ANS: Final = re.compile(_NUMBER + r" ?ans\b", re.I)

PATTERNS: Final = (_AFTER, _BEFORE, _ANS)

#: words before "N ans" that name a person, making the number an age (une femme de 40 ans)
_PERSON: Final = word_set(
    "patient patiente homme femme enfant garçon garcon fille monsieur madame mme m mr mlle nourrisson bébé "
    "bebe adolescent adolescente sujet dame fils frère soeur sœur mère père mari épouse"
)
#: words before "N ans" that make it a duration (depuis 10 ans)
_DURATION: Final = word_set(
    "depuis pendant durant dans après apres tous il y a en sur avant plus moins de ces"
)


def _age_span(scan: Scan, match: re.Match[str], score: float) -> Span | None:
    age = int(match.group("age"))
    if age > 125:
        return None
    subtype = "over89" if age > 89 else None
    return scan.span(match.start("age"), match.end("age"), Label.AGE, subtype, score)


def _ans_score(scan: Scan, match: re.Match[str]) -> float | None:
    start = match.start("age")
    before = scan.words_before(start, 2, 30)
    prefix = scan.line_before(start, 3).rstrip()
    if prefix.endswith("(") and scan.line_after(match.end(), 2).lstrip().startswith(")"):
        return 0.85
    if any_in(before[-1:], _PERSON) or (before[-1:] == ["de"] and any_in(before[:1], _PERSON)):
        return 0.85
    if any_in(before[-1:], _DURATION):
        return None
    if prefix == "" or prefix.endswith((",", "|", ":")):
        return 0.6
    return 0.4 if scan.params.high_recall else None


def find_ages(scan: Scan) -> Iterator[Span]:
    """Ages in years (or months, weeks, days for infants)."""
    spans: list[Span | None] = []
    spans += [_age_span(scan, match, 0.9) for match in _AFTER.finditer(scan.text)]
    spans += [_age_span(scan, match, 0.9) for match in _BEFORE.finditer(scan.text)]
    for match in _ANS.finditer(scan.text):
        score = _ans_score(scan, match)
        if score is not None:
            spans.append(_age_span(scan, match, score))
    yield from (span for span in spans if span is not None)
