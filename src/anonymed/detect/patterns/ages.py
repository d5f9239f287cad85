"""Ages: "40 years old", "40-year-old", "40 y/o", "aged 40", "âgé de 40 ans", "(27 ans)", "90th birthday"."""

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
#: an age as a birthday's ordinal: "his 90th birthday", "her 101st bday", "son 92e anniversaire"; most notes
#: hold none of the words
_BIRTHDAY_WORD: Final = re.compile(r"birthday|bday|b-day|anniversaire", re.I)
_BIRTHDAY_KEYS: Final = word_set("birthday bday day anniversaire")
_BIRTHDAY: Final = re.compile(
    _NUMBER + r"(?:st|nd|rd|th|e|ème|eme)[ -](?:birthday|bday|b-day|anniversaire)\b", re.I
)
#: ages over 89 written in words, the ones HIPAA's Safe Harbor groups (90 to 119): "ninety-two year old",
#: "aged one hundred and one", "quatre-vingt-douze ans", "nonante-deux ans" (Belgium, Switzerland)
_UNITS_EN: Final = r"one|two|three|four|five|six|seven|eight|nine"
_TEENS_EN: Final = r"ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_WORDS_EN: Final = (
    rf"ninety(?:[- ](?:{_UNITS_EN}))?|(?:one |a )?hundred(?:(?: and)? (?:{_TEENS_EN}|{_UNITS_EN}))?"
)
_UNITS_FR: Final = r"un|deux|trois|quatre|cinq|six|sept|huit|neuf"
_TEENS_FR: Final = r"dix|onze|douze|treize|quatorze|quinze|seize|dix-sept|dix-huit|dix-neuf"
_WORDS_FR: Final = (
    rf"quatre-vingt-(?:{_TEENS_FR})|nonante(?:-et-un|-(?:{_UNITS_FR}))?|"
    rf"cent(?: (?:et un|{_TEENS_FR}|{_UNITS_FR}))?"
)
_WORDS_AFTER: Final = re.compile(
    rf"(?<![\w-])(?P<age>{_WORDS_EN})(?:[ -](?:years?|yrs?)[ -]old\b|[ -]years? of age\b)"
    rf"|(?<![\w-])(?P<ans>{_WORDS_FR}) ans\b",
    re.I,
)
_WORDS_BEFORE: Final = re.compile(
    rf"\b(?:aged|âgée?|agée?) (?:de )?(?P<age>{_WORDS_EN}|{_WORDS_FR})(?![\w-])", re.I
)

#: a word every age over 89 in words holds: most notes have none, and skip both patterns
_WORD_AGE_HINT: Final = re.compile(r"ninety|hundred|vingt|nonante|cent", re.I)

PATTERNS: Final = (
    _AFTER, _BEFORE, _ANS, _BIRTHDAY, _BIRTHDAY_WORD, _WORDS_AFTER, _WORDS_BEFORE, _WORD_AGE_HINT
)  # fmt: skip

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


def _ans_score(scan: Scan, start: int, end: int) -> float | None:
    """How sure "N ans" is an age from the words around it (None: a duration, or too unsure)."""
    before = scan.words_before(start, 2, 30)
    prefix = scan.line_before(start, 3).rstrip()
    if prefix.endswith("(") and scan.line_after(end, 2).lstrip().startswith(")"):
        return 0.85
    if any_in(before[-1:], _PERSON) or (before[-1:] == ["de"] and any_in(before[:1], _PERSON)):
        return 0.85
    if any_in(before[-1:], _DURATION):
        return None
    if prefix == "" or prefix.endswith((",", "|", ":")):
        return 0.6
    return 0.4 if scan.params.high_recall else None


def _ages_in_words(scan: Scan) -> Iterator[Span]:
    """Ages over 89 written in words (always ``AGE/over89``)."""
    for pattern in (_WORDS_AFTER, _WORDS_BEFORE):
        for match in pattern.finditer(scan.text):
            if match.group("age") is not None:
                yield scan.span(match.start("age"), match.end("age"), Label.AGE, "over89", 0.9)
                continue
            score = _ans_score(scan, match.start("ans"), match.end())  # "cent ans", like "100 ans"
            if score is not None:
                yield scan.span(match.start("ans"), match.end("ans"), Label.AGE, "over89", score)


def find_ages(scan: Scan) -> Iterator[Span]:
    """Ages in years (or months, weeks, days for infants); ages over 89 also in words."""
    spans: list[Span | None] = []
    spans += [_age_span(scan, match, 0.9) for match in _AFTER.finditer(scan.text)]
    spans += [_age_span(scan, match, 0.9) for match in _BEFORE.finditer(scan.text)]
    keys = scan.keys
    if (keys is None or not keys.isdisjoint(_BIRTHDAY_KEYS)) and _BIRTHDAY_WORD.search(scan.text) is not None:
        spans += [_age_span(scan, match, 0.9) for match in _BIRTHDAY.finditer(scan.text)]
    for match in _ANS.finditer(scan.text):
        score = _ans_score(scan, match.start("age"), match.end())
        if score is not None:
            spans.append(_age_span(scan, match, score))
    yield from (span for span in spans if span is not None)
    if _WORD_AGE_HINT.search(scan.text) is not None:
        yield from _ages_in_words(scan)
