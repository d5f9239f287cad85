"""US secondary address units declared as data, from the designators of USPS Publication 28 (Appendix C2):
a unit after a street address on its line ("12 Oak Ave, Apt 4B", "12 Oak Ave #12"), and the designators no
clinical text uses for anything else standing alone ("Apt. 236", "Apartment 7", "Suite 279", "Ste 4B").

Hospital notes say "transferred to unit 5", "rm 12", "floor 3", "bldg C" and "OR suite 2": those words are
a unit of an address only after a street address (a number, capitalised name words, a street suffix), which
the match takes in, so that the whole address is one ``LOCATION/street`` span. Alone, "Suite" and "Ste" need
a line start, a punctuation mark, a preposition or "is" before them; "Apt" and "Apartment" a capital (a
lower-case "apt" is an appointment); and no unit number is followed by a time word ("Apt 2 wks") or the rest
of a date ("Apt 12/5").
"""

from __future__ import annotations

import re
from typing import Final

from anonymed.detect.patterns.base import opening
from anonymed.detect.patterns.recognizer import Recognizer
from anonymed.detect.tokens import tokenize
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: USPS Publication 28, Appendix C2: the designators that require a unit number, and their abbreviations, and
#: the British flat
_DESIGNATORS: Final = (
    "apartment apt building bldg department dept floor fl hangar hngr key lot pier room rm slip space spc "
    "stop suite ste trailer trlr unit flat"
)  # "flat": the Royal Mail's, not USPS
#: the same designators as a set of lower-case words (the surrogates keep them)
DESIGNATORS: Final = frozenset(_DESIGNATORS.split())
#: French unit designators, as written (bâtiment, appartement, escalier, étage: "Bât. C", "Appt 12", "Esc. 2")
DESIGNATORS_FR: Final = (
    "bâtiment", "batiment", "appartement", "escalier", "étage", "etage", "appt", "bât", "bat", "esc"
)  # fmt: skip
#: the designators that name no place of a hospital (Appendix C2's apartment and suite), written capitalised
_ALONE_APARTMENT: Final = "Apartment|APARTMENT|Apt|APT"
_ALONE_SUITE: Final = "Suite|SUITE|Ste|STE"
#: USPS street suffixes (Appendix C1) and their abbreviations
_SUFFIXES: Final = (
    "street st avenue ave av road rd boulevard blvd lane ln drive dr court ct way place pl terrace ter "
    "parkway pkwy highway hwy circle cir square sq trail trl pike turnpike tpke plaza plz alley aly row "
    "crescent close grove walk route rte expressway expy freeway fwy mews gardens gdns"
)
#: the same suffixes as a set of lower-case words
SUFFIXES: Final = frozenset(_SUFFIXES.split())
#: USPS Publication 28, Appendix B: the directionals of street names, abbreviated ("NE") and in full
DIRECTIONAL_ABBREVIATIONS: Final = frozenset(["n", "s", "e", "w", "ne", "nw", "se", "sw"])
DIRECTIONALS: Final = DIRECTIONAL_ABBREVIATIONS | frozenset(
    ["north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
)
#: a directional abbreviation as written, in capitals ("N", "SW"), as a pattern
DIRECTIONAL_WRITTEN: Final = r"(?:[NS][EW]?|[EW])"
#: abbreviations that clinical text writes in capitals for something else: a scan (CT), a lymph node (LN),
#: subcutaneous (SQ), platelets (PL), atrioventricular (AV)
_NOT_IN_CAPITALS: Final = frozenset({"ct", "ln", "sq", "pl", "av"})


def _alternatives(words: str, *, capitals: bool) -> str:
    """The words capitalised ("Street") or in capitals ("STREET"), longest first, joined by ``|``."""
    ordered = sorted(words.split(), key=len, reverse=True)
    if capitals:
        return "|".join(word.upper() for word in ordered if word not in _NOT_IN_CAPITALS)
    return "|".join(word.title() for word in ordered)


#: a unit number: 236, 4B, 12-C, B, B2 (a "#" may come first: "Apt #4"); at most four digits, so that a ZIP
#: code after Florida's "FL" is no floor
_NUMBER_ONLY: Final = r"(?:\d{1,4}(?:-?[A-Z])?|[A-Z](?:-?\d{1,4})?)"
_NUMBER: Final = r"(?:# ?)?" + _NUMBER_ONLY
#: nothing that would make the number a time, a date, a count or a longer code
_NUMBER_END: Final = (
    r"(?![\w]|[/:.,-]\d)(?! ?(?i:weeks?|wks?|days?|months?|mos?|years?|yrs?|hours?|hrs?|minutes?|mins?|"
    r"am|pm|a\.m|p\.m|o'clock)\b)"
)
_DESIGNATOR: Final = "(?i:" + "|".join(sorted(_DESIGNATORS.split(), key=len, reverse=True)) + r")\b\.?"
#: one unit after the street: "Apt 4B", "Ste. 200", "#12", "3rd Floor"
_ORDINAL_FLOOR: Final = r"\d{1,3}(?:st|nd|rd|th) (?i:floor|fl)\b\.?"
_UNIT: Final = rf"(?:{_DESIGNATOR} ?{_NUMBER}|# ?{_NUMBER_ONLY}|{_ORDINAL_FLOOR}){_NUMBER_END}"
#: a name word of a street: Main, O'Neil, 5th, a directional (N, SW)
_TITLE_WORD: Final = r"(?:[A-Z][a-z'’]+(?:[A-Z][a-z]+)?|[NSEW]|[NS][EW]|\d{1,3}(?:st|nd|rd|th))\.?"
_CAPS_WORD: Final = r"(?:[A-Z][A-Z'’]*|\d{1,3}(?:ST|ND|RD|TH))\.?"
_STREET_NUMBER: Final = r"(?=\d)(?<![\w/.,:#-])\d{1,6}(?:-?[A-Z])?"
#: a building number, a street's name words and its suffix, capitalised or in capitals ("12 Oak Ave")
_STREET: Final = (
    rf"{_STREET_NUMBER}(?:"
    rf" {_TITLE_WORD}(?:[ -]{_TITLE_WORD}){{0,4}} (?:{_alternatives(_SUFFIXES, capitals=False)})"
    rf"|"
    rf" {_CAPS_WORD}(?:[ -]{_CAPS_WORD}){{0,4}} (?:{_alternatives(_SUFFIXES, capitals=True)})"
    rf")\b\.?"
)
#: a street address and its unit(s), in capitalised words or in capitals: "12 Oak Ave, Apt 4", "12 OAK AVE #4"
STREET_UNIT: Final = re.compile(rf"{_STREET}(?: (?:[NS][EW]|[NSEW])\b\.?)?(?:,? {_UNIT}){{1,2}}")
#: the two-letter codes of the US states, DC and the territories (USPS Publication 28, Appendix B)
_STATE_CODES: Final = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY "
    "NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP"
)
STATE_CODES: Final = tuple(_STATE_CODES.split())
_STATE: Final = "|".join(STATE_CODES)
#: a town of one to three capitalised words or words in capitals
_TOWN: Final = r"(?:[A-Z][a-z'’]+|[A-Z]{3,})(?:[ -](?:[A-Z][a-z'’]+|[A-Z]{3,})){0,2}"
#: a delivery line and the last line of a US address on one line, without a ZIP code (USPS Publication 28, 2:
#: number, street name, suffix, unit; city, state): "88 Old Mill Pkwy, Crescent City, CA"; the town is found
#: here even when it is too small for the gazetteer
STREET_TOWN_STATE: Final = re.compile(
    rf"(?P<street>{_STREET}(?: (?:[NS][EW]|[NSEW])\b\.?)?(?:,? {_UNIT})?)"
    rf", (?P<town>{_TOWN}),? (?:{_STATE})(?![\w-]|\.\w)"
)
#: the state codes a town may be followed by after a place preposition: not MD and PA, credentials after
#: a surname too ("seen in Rounds, MD aware")
_TOWN_STATE_CODES: Final = "|".join(code for code in STATE_CODES if code not in ("MD", "PA"))
#: a town and its state after a place preposition, without a street or ZIP code: "home in Brattleboro, VT",
#: "moved from Crescent City, CA"; the town is found even when it is too small for the gazetteer; not before
#: a word in capitals, where the code is a word ("EPISODES OF DESATS, AS LOW AS", "OF ADRIAMYCIN, IN THIS")
TOWN_STATE: Final = re.compile(
    rf"\b(?i:in|from|near|of|to|at)\b (?P<town>{_TOWN}), (?:{_TOWN_STATE_CODES})(?![\w-]|\.\w| [A-Z]{{2}})"
)


def town_ok(town: str) -> bool:
    """Whether a town before a state code reads as one: a city of the gazetteer, or no word of it a common
    English word or hospital unit ("Admitted to Unit, OR" is the operating room, "TO ICU, CO 4.5" a cardiac
    output; "Brattleboro, VT" is a town)."""
    from anonymed.detect.lexicons.contexts_words import UNITS
    from anonymed.detect.lexicons.detector import LexiconParams
    from anonymed.detect.lexicons.resources import gazetteer, name_lists

    keys = tuple(token.key for token in tokenize(town))
    if not keys or any(key in UNITS for key in keys):
        return False
    places = gazetteer(LexiconParams().min_city_population).candidates(keys[0])
    if any(name == keys for name, _ in places):
        return True
    common = name_lists().common["en"]
    return not any(key in common for key in keys)


#: a British flat before its building number and street, as the Royal Mail writes a sub-building first ("Flat
#: 2, 17 Mill Row", "FLAT 4B 22 ELM GROVE")
FLAT_STREET: Final = re.compile(rf"\b(?:Flat|FLAT) {_NUMBER_ONLY},? {_STREET}")
#: "Apt. 236", "APARTMENT 7": never a hospital's word when capitalised
APARTMENT: Final = re.compile(
    opening(_ALONE_APARTMENT) + rf"\b(?:{_ALONE_APARTMENT})\b\.? ?{_NUMBER}{_NUMBER_END}"
)
#: "Suite 279" at a line start, after a punctuation mark, a preposition or "is" ("OR Suite 2" is a room)
SUITE: Final = re.compile(
    rf"(?:(?m:^)[ \t]*|[,;:(] ?|\b(?i:at|in|to|from|of|is|and|address)\b:? )"
    rf"(?P<unit>(?:{_ALONE_SUITE})\b\.? ?{_NUMBER}){_NUMBER_END}"
)

#: preconditions, searched once per note: a street suffix before a unit; a designator written alone
_ANY_SUFFIX: Final = _alternatives(_SUFFIXES, capitals=False) + "|" + _alternatives(_SUFFIXES, capitals=True)
SUFFIX_THEN_UNIT: Final = re.compile(
    opening(_ANY_SUFFIX) + rf"\b(?:{_ANY_SUFFIX})\b\.?(?: [NSEW]{{1,2}}\.?)?,? (?:#|\d|{_DESIGNATOR})"
)
#: a comma and a state code: the end of an address's last line
COMMA_STATE: Final = re.compile(rf", ?(?:{_STATE})\b")
#: "Flat" and a number: a British address may follow
FLAT: Final = re.compile(r"\b(?:Flat|FLAT) [\dA-Z]")
_ANY_ALONE: Final = _ALONE_APARTMENT + "|" + _ALONE_SUITE
ALONE: Final = re.compile(opening(_ANY_ALONE) + rf"\b(?:{_ANY_ALONE})\b")

_ENGLISH: Final = frozenset({"en"})

RECOGNIZERS: Final[tuple[Recognizer, ...]] = (
    Recognizer(
        "street_unit",
        STREET_UNIT,
        Label.LOCATION,
        "street",
        0.85,
        languages=_ENGLISH,
        requires=SUFFIX_THEN_UNIT,
    ),
    Recognizer(
        "street_of_town",
        STREET_TOWN_STATE,
        Label.LOCATION,
        "street",
        0.85,
        group="street",
        languages=_ENGLISH,
        requires=COMMA_STATE,
    ),
    Recognizer(
        "town_of_street",
        STREET_TOWN_STATE,
        Label.LOCATION,
        "city",
        0.95,  # above a signature's 0.92: "12 Oak St, Glen Echo, MD" is a town in Maryland
        group="town",
        languages=_ENGLISH,
        requires=COMMA_STATE,
    ),
    Recognizer(
        "town_state",
        TOWN_STATE,
        Label.LOCATION,
        "city",
        0.85,
        group="town",
        validator=town_ok,
        languages=_ENGLISH,
        requires=COMMA_STATE,
    ),
    Recognizer("flat_street", FLAT_STREET, Label.LOCATION, "street", 0.85, languages=_ENGLISH, requires=FLAT),
    Recognizer("apartment", APARTMENT, Label.LOCATION, "street", 0.8, languages=_ENGLISH, requires=ALONE),
    Recognizer(
        "suite", SUITE, Label.LOCATION, "street", 0.8, group="unit", languages=_ENGLISH, requires=ALONE
    ),
)

PATTERNS: Final = (
    STREET_UNIT, STREET_TOWN_STATE, TOWN_STATE, FLAT_STREET, APARTMENT, SUITE, SUFFIX_THEN_UNIT, COMMA_STATE,
    FLAT, ALONE,
)  # fmt: skip
