"""Holidays, a day of the year by name: "on Christmas Eve", "over Thanksgiving 2023", "depuis la Toussaint".

The phrases and the days they name are ``anonymed.dates.holidays``. A phrase of several words ("Labor Day",
"lundi de Pâques") or followed by a year is a date wherever it stands; a one-word holiday needs a word before
it that announces a time ("on Christmas", "pour Noël"): "Christmas tree", "Dr Noël", "Toussaint Louverture" or
"Ascension Health" are no dates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.dates.holidays import holiday_day
from anonymed.detect.patterns.base import Scan, any_in, opening
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

_EN: Final = (
    r"christmas(?: day| eve)?|xmas|new year['’]?s(?: day| eve)|independence day|fourth of july|halloween|"
    r"valentine['’]?s day|veterans['’]? day|st\.? patrick['’]?s day|saint patrick['’]?s day|"
    r"thanksgiving(?: day)?|memorial day|labor day|martin luther king(?: jr\.?)? day|mlk day|"
    r"presidents['’]? day|mother['’]?s day|father['’]?s day|easter(?: sunday)?|good friday"
)
_FR: Final = (
    r"r[ée]veillon de no[ëe]l|no[ëe]l|la saint-sylvestre|saint-sylvestre|jour de l['’]an|nouvel an|"
    r"la toussaint|toussaint|la saint-valentin|saint-valentin|f[êe]te du travail|f[êe]te nationale|"
    r"lundi de p[âa]ques|p[âa]ques|ascension|lundi de pentec[ôo]te|pentec[ôo]te"
)
_PATTERNS: Final = {
    lang: re.compile(
        opening(alternatives) + rf"(?<![\w-])(?P<name>{alternatives})(?![\w-])"
        r"(?:(?P<sep>,? )(?P<year>(?:19|20)\d{2})(?![\w]|[.,/-]\d))?",
        re.IGNORECASE,
    )
    for lang, alternatives in (("en", _EN), ("fr", _FR))
}
PATTERNS: Final = tuple(_PATTERNS.values())
#: words before a one-word holiday that make it a time ("on Christmas", "à Noël", "depuis Pâques")
_CUES: Final = word_set(
    "on at over since from until till by during before after around for this last next early late mid "
    "à pour depuis avant après apres jusqu'à vers pendant dès"
)


def _kept(scan: Scan, match: re.Match[str]) -> bool:
    """Whether a holiday phrase is a date here: several words, a year, or a time word before one word."""
    if match["year"] is not None or len(match["name"].split()) > 1:
        return True
    return any_in(scan.words_before(match.start(), 1, 20), _CUES)


def find_holidays(scan: Scan) -> Iterator[Span]:
    """Holidays named in the note's language, with their year when one follows."""
    pattern = _PATTERNS.get(scan.lang)
    if pattern is None:
        return
    for match in pattern.finditer(scan.text):
        if holiday_day(match["name"], scan.lang, 2000) is not None and _kept(scan, match):
            yield scan.span(match.start(), match.end(), Label.DATE, None, 0.85)
