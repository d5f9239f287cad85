"""Identifier formats declared as data (pattern, label, context words, validator), built from their
specifications: ISO 8601 timestamps, payment cards (ISO/IEC 7812, Luhn), IBANs (ISO 13616, mod 97), US
ITINs, NPIs, Medicare MBIs and HICNs, ABA routing numbers, UK NHS numbers (mod 11), National Insurance numbers
and postcodes, Canadian postal codes after a province, MAC addresses, an SSN announced by its name whatever
its grouping, the last four digits of an SSN announced or masked ("last 4 SSN 4471", "XXX-XX-4471":
``ID/other``), unique device identifiers in GS1's human-readable form (FDA UDI: "(01)" GTIN, then production
identifiers such as lot and serial), social-media handles announced by their network ("Instagram
@maria_g_1985": ``CONTACT/handle``), and a capitalised season with its year ("Spring 2023": a date).

Labels follow anonymed's taxonomy: card, IBAN and routing numbers are ``ID/account``; a Medicare MBI (a
health plan beneficiary number, HIPAA's kind I) is ``ID/plan``; an NHS number (a patient's record number
across the NHS) is ``ID/mrn``; an ITIN (a US taxpayer number in place of an SSN) is ``ID/ssn``; a MAC address
and a UDI (device identifiers, kind M: a UDI names one implanted or used device) are ``ID/device``; an NPI and
a National Insurance number are ``ID/other``; a UK postcode is ``LOCATION/zip``.
"""

from __future__ import annotations

import re
from typing import Final

from anonymed.dates.words import SEASONS
from anonymed.detect.patterns.checksums import aba_ok, card_ok, digits_of, gtin_ok, iban_ok, nhs_ok, npi_ok
from anonymed.detect.patterns.ids import ssn_is_valid
from anonymed.detect.patterns.recognizer import VALID, Recognizer
from anonymed.labels import Label

_HEX: Final = "[0-9A-Fa-f]"
#: MBI letters: A-Z without S, L, O, I, B, Z (CMS, "Understanding the MBI format")
_MBI_ALPHA: Final = "[AC-HJKMNP-RT-Y]"
_MBI_ALNUM: Final = "[AC-HJKMNP-RT-Y0-9]"

ISO_TIMESTAMP: Final = re.compile(
    r"(?<![\w.:/+-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])"
    r"(?:T|[ ](?=\d{2}:\d{2}))(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d{1,9})?)?"
    r"(?:Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?(?![\w:+-]|\.\d)"
    r"|(?<![\w.:/+-])(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3])[0-5]\d"
    r"(?:[0-5]\d)?(?:Z|[+-](?:[01]\d|2[0-3])(?:[0-5]\d)?)?(?![\w:+-])"
)
# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: 16 digits in fours (19 with a fifth group of three), Amex 4-6-5, or 13 to 19 digits in one run
CARD: Final = re.compile(
    r"(?=\d)(?<![\w-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|3[47]\d{2}([ -])\d{6}\2\d{5}|\d{13,19})"
    r"(?![\w]|-\d)"
)
IBAN: Final = re.compile(r"(?<![\w-])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![\w-])")
#: ITIN: 9XX-7X-XXXX, middle group 50-65, 70-88, 90-92 or 94-99 (IRS)
ITIN: Final = re.compile(
    r"(?=\d)(?<![\w-])9\d{2}(?P<sep>[- ]?)(?:5\d|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])(?P=sep)\d{4}(?![\w-])"
)
NPI: Final = re.compile(r"(?=\d)(?<![\w-])[12]\d{9}(?![\w-])")
ABA: Final = re.compile(r"(?=\d)(?<![\w-])\d{9}(?![\w-])")
MBI: Final = re.compile(
    rf"(?=\d)(?<![\w-])[1-9]{_MBI_ALPHA}{_MBI_ALNUM}\d(-?){_MBI_ALPHA}{_MBI_ALNUM}\d\1{_MBI_ALPHA}{_MBI_ALPHA}\d\d"
    r"(?![\w-])"
)
NHS: Final = re.compile(r"(?=\d)(?<![\w.,/+-])\d{3}([ -]?)\d{3}\1\d{4}(?![\w]|[.,/-]\d)")
#: first letter not D F I Q U V; second not D F I O Q U V; BG GB KN NK NT TN ZZ never issued (HMRC)
NINO: Final = re.compile(
    r"(?<![\w-])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r" ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\w-])"
)
#: outward code (A9, A99, A9A, AA9, AA99, AA9A) and inward code (9AA) with the letters each position allows
_UK_OUTWARD: Final = r"(?:[A-PR-UWYZ]\d[\dA-HJKPSTUW]?|[A-PR-UWYZ][A-HK-Y]\d[\dABEHMNPRV-Y]?)"
_UK_INWARD: Final = r"\d[ABD-HJLNP-UW-Z]{2}(?![\w-])"
UK_POSTCODE: Final = re.compile(r"(?<![\w-])" + _UK_OUTWARD + r"(?P<space> ?)" + _UK_INWARD)
#: the post town before a UK postcode on an address's last line, after a comma ("17 Mill Row, Oxford OX1
#: 2AB"): Royal Mail writes the town, then the postcode; one to three capitalised words or words in capitals
UK_TOWN: Final = re.compile(
    r"(?<=, )(?P<town>[A-Z][a-z'’]+(?:[ -][A-Z][a-z'’]+){0,2}|[A-Z]{3,}(?:[ -][A-Z]{3,}){0,2})"
    r",? " + _UK_OUTWARD + " " + _UK_INWARD
)
#: a Medicare HICN (before the MBI, still on older records): an SSN and a beneficiary code of a letter and
#: perhaps a digit or letter ("123-45-6789A", "123456789C1"); kept only after "HICN", "HIC" or "Medicare"
HICN: Final = re.compile(r"(?=\d)(?<![\w-])\d{3}-?\d{2}-?\d{4}[A-Z][0-9A-Z]?(?![\w-])")
DIGITS_LETTER: Final = re.compile(r"\d{4}[A-Z]")
#: a Canadian postal code after its province's code (Canada Post: "A1A 1A1"; no D, F, I, O, Q, U, nor W or Z
#: first): "Montréal, QC H2X 1L3"
CA_POSTCODE: Final = re.compile(
    r"(?<![\w-])(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT),? "
    r"(?P<code>[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d)(?![\w-])"
)
MAC: Final = re.compile(
    rf"(?<![\w:.-])(?:{_HEX}{{2}}([:-])(?:{_HEX}{{2}}\1){{4}}{_HEX}{{2}}|{_HEX}{{4}}\.{_HEX}{{4}}\.{_HEX}{{4}})"
    r"(?![\w:-]|\.\w)"
)
#: GS1 element string in human-readable form: AI (01) and a 14-digit GTIN, then the production identifiers of
#: the FDA's UDI rule and GS1's General Specifications: expiry (17), production (11) and best-before (15)
#: dates, lot (10), serial (21), quantity (30), additional identifiers (240, 241), origin (422), UDI (7003)
GS1_UDI: Final = re.compile(
    r"(?<![\w)])\(01\)(?P<gtin>\d{14})"
    r"(?:[ ]?\((?:1[0157]|21|30|24[01]|422|7003)\)[0-9A-Za-z!\"%&'*+,./:;<=>?_-]{1,20})*+(?![\w(])"
)
#: an SSN written in any grouping (3-6, 3-2-4, 9 digits) after its name: "my ssn is 078-051121"
CUED_SSN: Final = re.compile(r"(?=\d)(?<![\w-])\d{3}[- ]?\d{2,3}[- ]?\d{3,4}(?![\w-])")

#: the last four digits of an SSN, announced as such ("last 4 SSN 4471", "SSN ending in 4471") or masked
#: ("XXX-XX-4471", "***-**-4471"): a part of the number, kept as an identifier of its own
SSN_LAST_FOUR: Final = re.compile(
    r"(?i:(?<![\w])(?:last (?:4|four)(?: digits)?(?: of)?(?: (?:the|his|her|pt'?s|patient'?s))? "
    r"(?:ssn|social security(?: number| no\.?| #)?|ss ?#)|(?:ssn|social security(?: number)?|ss ?#)"
    r"(?: \(last (?:4|four)\)| ending(?: in| with)?| last (?:4|four)(?: digits)?))[ \t]*+[:#=-]?[ \t]*+"
    r"(?:is[ \t]++)?|(?<![\w*-])(?:XXX|xxx|\*\*\*)-(?:XX|xx|\*\*)-)(?P<value>\d{4})(?![\w-])"
)

#: preconditions, searched once per note: nine digits in a row (separators allowed) for the numbers, a
#: date with its time for timestamps, letters and digits in the places each format puts them
NINE_DIGITS: Final = re.compile(r"\d(?:[ -]?\d){8}")
DATE_TIME: Final = re.compile(r"\d(?:\d{3}-\d{2}-\d{2}[T ]\d|\d{7}T\d)")
LETTERS_DIGITS: Final = re.compile(r"[A-Z]{2} ?\d{2}")
LETTER_DIGIT: Final = re.compile(r"[A-Z]\d|\d[A-Z]")
GS1_OPENING: Final = re.compile(r"\(01\)\d")
#: a French plate of the SIV (since 2009): two letters, three digits, two letters, hyphenated; never I, O, U;
#: SS and WW are not issued first, "000" is not issued (arrêté du 9 février 2009)
FR_PLATE: Final = re.compile(r"(?<![\w-])(?!SS|WW)[A-HJ-NP-TV-Z]{2}-(?!000)\d{3}-[A-HJ-NP-TV-Z]{2}(?![\w-])")
LETTERS_HYPHEN_DIGITS: Final = re.compile(r"[A-Z]-\d{3}-[A-Z]")
AT_SIGN: Final = re.compile(r"@[\w.]*[A-Za-z]")
SSN_WORDS: Final = re.compile(r"(?i)ssn|social security|ss ?#|[x*]{3}-[x*]{2}-\d")
HEX_PAIRS: Final = re.compile(r"[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}[:-]|[0-9A-Fa-f]{2}\.[0-9A-Fa-f]{4}\.)")

#: a capitalised season and its year ("Spring 2023", "SUMMER of 2019"): a date element, and the season alone
#: reads as a surname to the tagger ("Last seen Spring 2023" had become "Last seen Davis 2021")
#: the English season words of the dates' reader (``dates.words.SEASONS``), capitalised or in capitals
_SEASON_NAMES: Final = sorted(
    {name for (lang, _), names in SEASONS.items() if lang == "en" for name in names}
)
_SEASONS: Final = "|".join(
    [*(name.title() for name in _SEASON_NAMES), *(name.upper() for name in _SEASON_NAMES)]
)
SEASON_YEAR: Final = re.compile(rf"(?<![\w])(?:{_SEASONS}) (?:of |OF )?(?:19|20)\d{{2}}(?![\w]|[.,/-]\d)")
SEASON_WORD: Final = re.compile(rf"(?:{_SEASONS}) ")
#: a social-media handle: "@", then 1 to 30 letters, digits, underscores and inner dots with a letter among
#: them (Instagram's limit of 30 characters, X's letters, digits and underscores, TikTok's dots); never the
#: domain of an e-mail address (a word character before "@") nor a dotted word's end
SOCIAL_HANDLE: Final = re.compile(
    r"(?<![\w@.])@(?=[\w.]*[A-Za-z])[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?(?![\w@]|\.\w)"
)
#: where a handle is announced; nursing notes write "@home", "@bedside", "@ 60": without one of these words
#: on the line before it, "@word" is no handle
_SOCIAL_WORDS: Final = (
    "instagram", "insta", "ig", "twitter", "tweet", "tweeted", "tiktok", "snapchat", "snap", "facebook", "fb",
    "threads", "bluesky", "youtube", "reddit", "discord", "telegram", "social media", "handle", "username",
    "user name", "account", "dm", "dms", "messaged", "posts", "posted",
)  # fmt: skip
_CARD_WORDS: Final = ("card", "credit", "debit", "visa", "mastercard", "amex", "american express", "cc")
_BANK_WORDS: Final = ("iban", "bank", "account", "acct", "rib", "bic", "swift", "transfer", "virement")


#: four groups of four digits: the shape of a card even when its check digit is wrong
CARD_GROUPED: Final = re.compile(r"(?=\d)(?<![\w-])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?![\w]|[ -]?\d)")


def _issuable_ssn(text: str) -> bool:
    """Whether a cued SSN has nine digits and issuable parts (else it is a mistyped identifier)."""
    digits = digits_of(text)
    return len(digits) == 9 and ssn_is_valid(digits[:3], digits[3:5], digits[5:])


def _udi_gtin_ok(text: str) -> bool:
    """Whether a UDI's GTIN (the 14 digits after "(01)") has the right check digit."""
    return gtin_ok(text[4:18])


def _spaced(text: str) -> bool:
    """Whether a postcode has the space before its inward code (without it, it needs context)."""
    return " " in text


RECOGNIZERS: Final[tuple[Recognizer, ...]] = (
    Recognizer("iso_timestamp", ISO_TIMESTAMP, Label.DATE, None, 0.97, requires=DATE_TIME),
    Recognizer(
        "season_year", SEASON_YEAR, Label.DATE, None, 0.95, languages=frozenset({"en"}), requires=SEASON_WORD
    ),
    Recognizer(
        "social_handle",
        SOCIAL_HANDLE,
        Label.CONTACT,
        "handle",
        0.9,
        context=_SOCIAL_WORDS,
        context_score=0.95,
        needs_context=True,
        window=60,
        requires=AT_SIGN,
    ),
    Recognizer(
        "card",
        CARD,
        Label.ID,
        "account",
        0.99,
        context=_CARD_WORDS,
        context_score=VALID,
        validator=card_ok,
        invalid_score=0.85,
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "card_shape",
        CARD_GROUPED,
        Label.ID,
        "account",
        0.7,
        context=_CARD_WORDS,
        context_score=0.85,
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "iban",
        IBAN,
        Label.ID,
        "account",
        0.98,
        context=_BANK_WORDS,
        context_score=VALID,
        validator=iban_ok,
        invalid_score=0.85,
        requires=LETTERS_DIGITS,
    ),
    Recognizer(
        "itin",
        ITIN,
        Label.ID,
        "ssn",
        0.85,
        context=("itin", "taxpayer", "tin", "tax id"),
        context_score=0.98,
        group=0,
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "npi",
        NPI,
        Label.ID,
        "other",
        0.6,
        context=("npi", "national provider", "provider id", "prescriber"),
        context_score=VALID,
        validator=npi_ok,
        invalid_score=0.9,
        needs_context=True,
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "aba",
        ABA,
        Label.ID,
        "account",
        0.9,
        context=("routing", "aba", "rtn", "transit"),
        context_score=VALID,
        validator=aba_ok,
        invalid_score=0.85,
        needs_context=True,
        languages=frozenset({"en"}),
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "mbi",
        MBI,
        Label.ID,
        "plan",
        0.9,
        context=("mbi", "medicare", "beneficiary", "hicn"),
        context_score=0.98,
        requires=LETTER_DIGIT,
    ),
    Recognizer(
        "nhs",
        NHS,
        Label.ID,
        "mrn",
        0.55,
        context=("nhs", "national health service", "nhs no"),
        context_score=VALID,
        validator=nhs_ok,
        invalid_score=0.96,
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "nino",
        NINO,
        Label.ID,
        "other",
        0.85,
        context=("ni", "nino", "nin", "national insurance", "insurance number"),
        context_score=0.98,
        requires=LETTERS_DIGITS,
    ),
    Recognizer(
        "uk_postcode",
        UK_POSTCODE,
        Label.LOCATION,
        "zip",
        0.6,
        context=("postcode", "post code", "postal code", "address", "uk", "england", "scotland", "wales"),
        context_score=0.9,
        validator=_spaced,
        invalid_score=0.85,
        requires=LETTER_DIGIT,
    ),
    Recognizer("uk_town", UK_TOWN, Label.LOCATION, "city", 0.9, group="town", requires=LETTER_DIGIT),
    Recognizer(
        "hicn",
        HICN,
        Label.ID,
        "plan",
        0.9,
        context=("hicn", "hic", "medicare"),
        needs_context=True,
        languages=frozenset({"en"}),
        requires=DIGITS_LETTER,
    ),
    Recognizer("ca_postcode", CA_POSTCODE, Label.LOCATION, "zip", 0.9, group="code", requires=LETTER_DIGIT),
    Recognizer(
        "mac",
        MAC,
        Label.ID,
        "device",
        0.85,
        context=("mac", "hardware address", "ethernet", "wifi", "wi-fi", "bluetooth", "device"),
        context_score=0.97,
        requires=HEX_PAIRS,
    ),
    Recognizer(
        "gs1_udi",
        GS1_UDI,
        Label.ID,
        "device",
        0.95,
        context=("udi", "device", "implant", "lot", "serial", "gtin"),
        context_score=VALID,
        validator=_udi_gtin_ok,
        invalid_score=0.92,  # the "(01)" shape says more than a phone reading of its 14 digits (0.9)
        requires=GS1_OPENING,
    ),
    Recognizer(
        "cued_ssn",
        CUED_SSN,
        Label.ID,
        "ssn",
        0.95,
        context=("ssn", "social security", "soc sec", "ss#", "ss #"),
        validator=_issuable_ssn,
        invalid_score=0.8,
        invalid_subtype="other",
        needs_context=True,
        languages=frozenset({"en"}),
        requires=NINE_DIGITS,
    ),
    Recognizer(
        "fr_plate",
        FR_PLATE,
        Label.ID,
        "vehicle",
        0.8,
        context=("immatriculation", "immatriculé", "plaque", "véhicule", "voiture", "plate", "vehicle"),
        context_score=0.95,
        languages=frozenset({"fr"}),
        requires=LETTERS_HYPHEN_DIGITS,
    ),
    Recognizer(
        "ssn_last_four",
        SSN_LAST_FOUR,
        Label.ID,
        "other",  # four digits: written back as four digits, not as a whole SSN
        0.9,
        group="value",
        languages=frozenset({"en"}),
        requires=SSN_WORDS,
    ),
)

PATTERNS: Final = tuple(recognizer.pattern for recognizer in RECOGNIZERS)
