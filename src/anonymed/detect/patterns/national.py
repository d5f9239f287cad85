"""National identifiers of French-speaking countries besides France, in French notes, from their
specifications: the Belgian national register number (NISS, check digits mod 97), the Swiss social insurance
number (AVS / AHV, an EAN-13 with its GS1 check digit) and the Quebec health insurance number (RAMQ NAM:
four letters, then the birth date with 50 added to a woman's month). A number whose check fails is still an
identifier after its name (a mistyped number identifies as well): named, it outranks a phone reading of its
digits.
"""

from __future__ import annotations

import re
from typing import Final

from anonymed.detect.patterns.checksums import digits_of, gtin_ok
from anonymed.detect.patterns.recognizer import Recognizer
from anonymed.labels import Label

#: French-speaking notes only: a Belgian, Swiss or Quebec record written in English is not looked at
_FRENCH: Final = frozenset({"fr"})

#: YY.MM.DD-SSS.CC, dots and hyphen optional or spaces ("85.07.30-033.28", "85073003328")
NISS: Final = re.compile(r"(?<![\w.-])\d{2}[. ]?\d{2}[. ]?\d{2}[- ]?\d{3}[. ]?\d{2}(?![\w]|[.-]\d)")
#: 756.XXXX.XXXX.XX (756 is Switzerland's ISO 3166 code)
AVS: Final = re.compile(r"(?<![\w.-])756[. ]?\d{4}[. ]?\d{4}[. ]?\d{2}(?![\w]|[.-]\d)")
#: AAAA YYMM DDSS: three letters of the family name, one of the given name, then eight digits
NAM: Final = re.compile(r"(?<![\w-])[A-Z]{4} ?\d{4} ?\d{4}(?![\w]|[.-]\d)")
#: the words that name each number (French, Dutch, German, English)
_NISS_WORDS: Final = ("niss", "nn", "registre national", "rijksregister", "numéro national", "inss", "bis")
_AVS_WORDS: Final = ("avs", "ahv", "assurance sociale", "sozialversicherung", "social security", "no avs")
_NAM_WORDS: Final = ("nam", "ramq", "assurance maladie", "carte soleil", "health insurance")
#: the AVS number's precondition, searched once per note (the named numbers' is their name: ``needs_context``)
SWISS_PREFIX: Final = re.compile(r"756")


def niss_ok(text: str) -> bool:
    """Whether a Belgian NISS has the right check digits: 97 minus the first nine digits mod 97 (with a 2 in
    front of them for people born from 2000)."""
    digits = digits_of(text)
    if len(digits) != 11:
        return False
    body, check = digits[:9], int(digits[9:])
    return check in (97 - int(body) % 97, 97 - int("2" + body) % 97)


def avs_ok(text: str) -> bool:
    """Whether a Swiss AVS number (13 digits from 756) has the right EAN-13 check digit."""
    digits = digits_of(text)
    return len(digits) == 13 and digits.startswith("756") and gtin_ok(digits)


def nam_ok(text: str) -> bool:
    """Whether a Quebec NAM's birth month is a month (01-12, or 51-62 for a woman)."""
    month = int(digits_of(text)[2:4])
    return 1 <= month <= 12 or 51 <= month <= 62


RECOGNIZERS: Final[tuple[Recognizer, ...]] = (
    Recognizer(
        "niss", NISS, Label.ID, "other", 0.9, context=_NISS_WORDS, context_score=0.97, validator=niss_ok,
        invalid_score=0.95, needs_context=True, languages=_FRENCH,
    ),
    Recognizer(
        "avs", AVS, Label.ID, "other", 0.9, context=_AVS_WORDS, context_score=0.97, validator=avs_ok,
        invalid_score=0.95, requires=SWISS_PREFIX, languages=_FRENCH,
    ),
    Recognizer(
        "nam", NAM, Label.ID, "plan", 0.85, context=_NAM_WORDS, context_score=0.95, validator=nam_ok,
        invalid_score=0.95, needs_context=True, languages=_FRENCH,
    ),
)  # fmt: skip

PATTERNS: Final = (NISS, AVS, NAM, SWISS_PREFIX)
