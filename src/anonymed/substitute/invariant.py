"""The invariant of every non-DP surrogate: the value is not written back, nor any word of it.

A surrogate *leaks* its original when, after case folding, accent stripping and whitespace collapsing,
it equals the original, or when it holds as a whole word any word of two or more letters of the original.
Words that name no one are excepted (``COMMON_WORDS``): courtesy titles ("Dr", "Mme"), name particles
("de", "van"), month and weekday names, the words of temporal expressions ("days", "ago", "ans"), a few
articles and prepositions, the generic words of institutions and streets ("Hospital", "rue"), of web
addresses ("www", "org") and the labels of phone numbers ("Standard", "fax"). So
"Mme Claire Martin" may become "Mme Anne Dubois" and "3 days ago" "5 days ago", but "John Smith" may not
become "Mary Smith", nor "Smith" a Faker city "Port Smith".

The substitution stage checks every surrogate of an operator that promises a change (``Operator.
promises_change``) and replaces a leaking one by ``safe_surrogate``; the ``fake`` operator checks its own
candidates first, so the stage rarely has to.
"""

from __future__ import annotations

import re
import string
from typing import Final

from anonymed.dates import words
from anonymed.detect.patterns.addresses import DESIGNATORS, DIRECTIONALS, SUFFIXES
from anonymed.randomness import RandomSource
from anonymed.substitute.fake.names import MARITAL, PARTICLES, TITLES
from anonymed.substitute.fake.numbers import MEASURE_WORDS
from anonymed.substitute.shape import random_like

_WORD: Final = re.compile(r"[^\W\d_]+")
_SPACES: Final = re.compile(r"\s+")

#: articles, prepositions and the function words of dates and ages (English and French)
_FUNCTION_WORDS: Final = frozenset(
    {"the", "of", "and", "at", "on", "in", "to", "from", "by", "for", "ago", "old", "am", "pm", "st", "nd",
     "rd", "th", "le", "la", "les", "de", "du", "des", "au", "aux", "en", "et", "il", "dans", "depuis",
     "vers", "sur", "ne", "nee", "age", "agee", "er", "re", "eme", "e"}
)  # fmt: skip
#: the generic parts of web addresses
_WEB_WORDS: Final = frozenset(
    {"www", "http", "https", "mailto", "com", "org", "net", "edu", "gov", "fr", "html", "htm", "example"}
)
#: the labels of phone numbers and pagers ("Standard 01 ...", "Tel:", "cell"); not the tagger's
#: CONTACT_LABELS (detect/tagger/prune.py: words that end a name, e-mail labels too)
_CONTACT_WORDS: Final = frozenset(
    {"tel", "telephone", "phone", "fax", "standard", "accueil", "poste", "secretariat", "bureau", "domicile",
     "portable", "mobile", "cell", "home", "office", "work", "pager", "bip", "beeper", "ext", "extension"}
)  # fmt: skip
#: words saying what kind of place or institution a value is, not which one
_KIND_WORDS: Final = frozenset(
    {"hospital", "hospitals", "clinic", "clinics", "center", "centre", "medical", "general", "memorial",
     "saint", "sainte", "university", "health", "care", "hopital", "clinique", "chu", "chr", "hospitalier",
     "universitaire", "street", "avenue", "ave", "road", "boulevard", "blvd", "lane", "ln", "drive", "dr",
     "rue", "bd", "chemin", "allee", "impasse", "place", "route", "quai", "cedex", "hosp", "hop", "rehab",
     "rehabilitation", "infirmary", "nursing", "home", "med", "ctr", "ch", "sante", "polyclinique", "ehpad",
     "institut", "st", "av", "bis", "ter", "appt", "apt", "studio", "suite", "batiment", "bat", "etage",
     "square", "cours", "passage", "voie", "court", "way", "terrace", "apartment", "building", "bldg",
     "department", "dept", "floor", "fl", "room", "rm", "ste", "trailer", "trlr", "unit", "spc", "hangar",
     "hngr", "chru", "esc", "escalier", "appartement", "ssr", "smr", "usld",
     "psychiatric", "pavilion", "institute", "bp", "cs"}
)  # fmt: skip


def fold(text: str) -> str:
    """Case-folded, accents stripped, whitespace runs collapsed to one space, stripped."""
    return _SPACES.sub(" ", words.ascii_only(text.casefold())).strip()


def _common_words() -> frozenset[str]:
    dated = {fold(name) for table in (*words.MONTHS.values(), *words.WEEKDAYS.values()) for name in table}
    units = {fold(unit) for unit in words.UNIT_WORDS}
    numbers = {fold(n) for table in words.NUMBER_WORDS.values() for n in table}
    streets = {*SUFFIXES, *DESIGNATORS, *DIRECTIONALS}  # USPS street suffixes, unit designators, directionals
    marital = {fold(word) for word in MARITAL}  # "épouse", "née": the words of a married name
    generic = {*_FUNCTION_WORDS, *_KIND_WORDS, *_WEB_WORDS, *_CONTACT_WORDS, *MEASURE_WORDS}
    return frozenset({*TITLES, *PARTICLES, *dated, *units, *numbers, *generic, *streets, *marital})


#: words of two or more letters that may survive in a surrogate (folded; see the module docstring)
COMMON_WORDS: Final = _common_words()


def identifying_words(text: str) -> frozenset[str]:
    """The folded words of two or more letters of ``text`` that no surrogate may hold."""
    return frozenset(w for w in _WORD.findall(fold(text)) if len(w) >= 2 and w not in COMMON_WORDS)


def leaks(surrogate: str, original: str) -> bool:
    """Whether ``surrogate`` is ``original`` again, or holds one of its identifying words."""
    folded = fold(surrogate)
    if folded == fold(original):
        return True
    return not identifying_words(original).isdisjoint(_WORD.findall(folded))


def safe_surrogate(original: str, rng: RandomSource, *, tries: int = 20) -> str:
    """A surrogate in the shape of ``original`` (letters and digits redrawn) that does not leak it.

    Text without any letter or digit, or a shape that keeps matching, becomes random lower-case letters.
    """
    for _ in range(tries):
        candidate = random_like(original, rng)
        if not leaks(candidate, original):
            return candidate
    while True:
        candidate = "".join(rng.choice(string.ascii_lowercase) for _ in range(max(3, len(original))))
        if not leaks(candidate, original):
            return candidate
