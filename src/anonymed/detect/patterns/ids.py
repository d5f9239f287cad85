"""Identifiers: US SSN, French NIR (checked key), record and account numbers after a context word,
and long bare numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, opening
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
_SSN: Final = re.compile(r"(?=\d)(?<![\w-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![\w-])")
_SSN_CUE: Final = re.compile(r"\b(?:ssn|social security|soc\.? sec\.?)\b", re.I)
#: sex digit then 12 or 14 characters, spaces allowed anywhere between them (2A/2B for Corsica)
_NIR: Final = re.compile(r"(?=\d)(?<![\w/.,-])[1-478](?: ?[0-9ABab]){12,14}(?![\w]|[/.,-]\d)")
#: the words that name a French social security number before it
_NIR_CUE: Final = re.compile(
    r"\b(?:nir|insee|s[ée]curit[ée] sociale|s[ée]cu|num[ée]ro ss|n° ss|matricule)\b", re.I
)
_NIR_SHAPE: Final = re.compile(r"[1-478]\d{2}(?:0[1-9]|1[0-2]|[2-4]\d|[5-9]\d)(?:\d{2}|2[AB])\d{6}(?:\d{2})?")

#: cues of health plan member numbers and of military service numbers, written plainly or in digit groups
_MEMBER_ID: Final = r"member id|subscriber id|insurance id"
_SERVICE_NUMBER: Final = r"service (?:number|no\.?|#)"
_CUES: Final = (
    (
        "mrn",
        r"mrn|medical record(?: number| no\.?| #)?|mr ?#|ipp|ip|unit (?:no\.?|number)|"
        r"hospital (?:no\.?|number)|"
        r"patient id|id patient|identifiant (?:du |de la )?patient|n° patient|num[ée]ro patient|"
        r"r[ée]f[ée]rence interne(?: de la patiente| du patient)?",
        None,
    ),
    (
        "account",
        r"nda|account(?: number| no\.?| #)?|acct\.?|n° de s[ée]jour|num[ée]ro de s[ée]jour|"
        r"visit (?:number|no\.?|id)|encounter(?: number| id)?|dossier|"
        r"identifiant de (?:l['’]hospitalisation|la visite|s[ée]jour)|billing",
        None,
    ),
    #: HIPAA's identifier kinds that records name by a short word, English only ("fin" ends a French
    #: phrase: "fin 2019"): the financial number of an encounter (FIN), vehicle licence plates, device serial
    #: numbers and unique device identifiers (UDI), driver's licence numbers written "DL#" or "DL:" (no cue
    #: right after a slash: "mg/dL: 120" is a unit)
    ("account", r"fin", frozenset({"en"})),
    (
        "vehicle",
        r"licen[cs]e plate(?: number| no\.?| #)?|plate(?: number| no\.?)?|tag number",
        frozenset({"en"}),
    ),
    ("device", r"serial(?: number| no\.?| #)?|s/n|sn|udi|device id(?:entifier)?", frozenset({"en"})),
    ("license", r"dl ?[#:]", frozenset({"en"})),
    ("license", r"licen[cs]e|permis", None),
    ("plan", rf"policy|{_MEMBER_ID}|medicaid(?: id)?", None),
    #: an insurance group number ("Group 0704512", "group # 88-1204"), English only
    ("plan", r"group(?: number| no\.?| #)?", frozenset({"en"})),
    #: a military service number ("service number RA 12 345 678" in groups: below)
    ("other", _SERVICE_NUMBER, frozenset({"en"})),
    #: Canadian provincial health card numbers ("OHIP 1234-567-890-AB", "health card #", "PHN")
    ("plan", r"ohip|health card(?: number| no\.?)?|phn", frozenset({"en"})),
    #: insurance and workers' compensation claims ("claim WC-2025-118274"), English only
    ("other", r"claim(?: id)?", frozenset({"en"})),
    (
        "other",
        r"#|no\.|n°|nº|num[ée]ro|number|id|identifiant|identifier|r[ée]f\.?|r[ée]f[ée]rence|case|specimen|"
        r"accession|requisition|rpps|adeli|finess|badge|passport|passeport",
        None,
    ),
)
#: the first word of every cue above, as a folded word key (plus "#", "°", "º", looked for in the text)
_CUE_KEYS: Final = word_set(
    "mrn medical mr ipp ip unit hospital patient id identifiant n numero reference nda account acct visit "
    "encounter dossier billing no number identifier ref case specimen accession requisition license licence "
    "rpps adeli finess policy member badge passport passeport permis fin plate tag serial s sn udi device dl "
    "subscriber insurance medicaid claim ohip health phn group service"
)
#: the first words of the access cues below (common words: "user", "access", "screen"), their own gate
_ACCESS_KEYS: Final = word_set("meeting webinar passcode access username user login screen")
_CUE_SIGNS: Final = ("#", "°", "º")
#: the subtypes of numbers named by a word of HIPAA's kinds (I, K, L, M) and of any other number
_NAMED_KINDS: Final = frozenset({"other", "plan", "license", "vehicle", "device"})
#: separators and filler words between a cue and its value; possessive spaces keep matching linear
_FILLER_WORDS: Final = r"(?:est|étant|le|la|de|du|d['’]|is|number|no\.?|n°|num[ée]ro)(?![^\W\d_])"
#: a state's code in parentheses may stand between them too ("Driver's license (NY) 123456789")
_FILLER: Final = r"[ \t]*+(?:(?:[:#=°.]|\([A-Za-z]{2}\)|" + _FILLER_WORDS + r")[ \t]*+){0,4}"
_VALUE: Final = r"(?P<value>(?:[A-Za-z]{1,4}-?)?\d[\dA-Za-z]*+(?:[-/.][\dA-Za-z]++){0,4}+)(?![\w]|[-/.]\w)"
#: after a cue, a word cue ends its word; a sign ("#", "n°") may touch letters ("report #CPD-25-00871")
_CUE_END: Final = r"(?:(?<=[#°º])|(?![^\W\d_]))"


#: digits in groups of three, perhaps after the issuer's letters in capitals ("RA 12 345 678")
_GROUPS_OF_THREE: Final = r"(?-i:[A-Z]{1,4} )?\d{2,3}(?: \d{3}){2,3}"
#: a video meeting's ID as its services print it ("812 4471 9920", "934 221 0457")
_MEETING_GROUPS: Final = r"\d{3}(?: \d{3,4}){2}"


def _spaced(
    subtype: str, cue: str, groups: str = _GROUPS_OF_THREE
) -> tuple[str, re.Pattern[str], frozenset[str]]:
    """A number in groups of digits after its cue (English): its subtype, pattern and languages."""
    pattern = re.compile(
        opening(cue) + rf"(?<![\w#°/])(?:{cue})" + _CUE_END + _FILLER
        + rf"(?P<value>{groups})(?![\w]|[-/.]\w| \d)",
        re.I,
    )  # fmt: skip
    return subtype, pattern, frozenset({"en"})


#: numbers in groups of three digits: a claim number as the VA writes its file numbers ("VA claim # 28 443
#: 912"), a driver's licence as New York prints it ("Driver's license (NY) 123 456 789"), an Army service
#: number ("service number RA 12 345 678"), a member ID after its insurer's letters ("ID UHC 998 877 665")
_SPACED: Final = (
    _spaced("other", "claim"),
    _spaced("license", r"licen[cs]e|dl"),
    _spaced("other", _SERVICE_NUMBER),
    _spaced("plan", rf"{_MEMBER_ID}|id"),
)
#: an account's user name after its cue: letters first, then a digit, a dot or an underscore somewhere in it
#: ("username: gwhitaker52", "login j.doe"; not "username: pending"), English only
_USERNAME: Final = re.compile(
    opening("user|login|screen name") + r"(?<![\w#°/])(?:user ?name|user id|login|screen name)(?![^\W\d_])"
    r"[ \t]*+(?:[:=-][ \t]*+)?(?P<value>[A-Za-z](?=[A-Za-z-]*+(?:[\d_]|\.\w))[\w.-]{2,63}?)"
    r"(?=[\s,;)]|\.?$|\.\s)",
    re.I | re.M,
)


def _compiled(
    subtype: str, cue: str, languages: frozenset[str] | None
) -> tuple[str, re.Pattern[str], frozenset[str] | None]:
    """A number after its cue: its subtype, pattern and languages."""
    pattern = re.compile(opening(cue) + rf"(?<![\w#°/])(?:{cue}){_CUE_END}" + _FILLER + _VALUE, re.I)
    return subtype, pattern, languages


_CUED: Final = (*(_compiled(*cue) for cue in _CUES), *_SPACED)
#: a video visit's meeting ID and passcode (they open the patient's visit), English only
_ACCESS_CUED: Final = (
    _compiled("other", r"meeting id|webinar id|passcode|access code", frozenset({"en"})),
    _spaced("other", r"meeting id|webinar id", _MEETING_GROUPS),
)
_DECIMAL: Final = re.compile(r"\d+[.,]\d+")
#: readings, not identifiers, after "#" or "ID": decimal ranges (95.8-97.2), pressures (34-40/24-30)
_NUMBER_RANGE: Final = r"\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?"
_READING: Final = re.compile(_NUMBER_RANGE + r"(?:/" + _NUMBER_RANGE + r")*")
_LONG: Final = re.compile(r"(?=\d)(?<![\w.,/-])\d{8,24}(?![\w]|[.,/-]\d)")
_SHORTER: Final = re.compile(r"(?=\d)(?<![\w.,/-])\d{6,7}(?![\w]|[.,/-]\d)")
#: numbers joined by "x": ventilator settings (700x12x5, 500x14), sizes (3x4x2), repetitions
_SETTING: Final = re.compile(r"(?<![\dA-Za-z])[A-Za-z]{0,4}\d++(?:[xX]\d*+)+[A-Za-z]{0,4}")
#: a ClinicalTrials.gov identifier ("NCT" and eight digits)
_TRIAL: Final = re.compile(r"NCT\d{8}")
_MIXED: Final = re.compile(r"(?<![\w-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{7,24}(?![\w-])")

PATTERNS: Final = (
    _SSN,
    _SSN_CUE,
    _NIR,
    _NIR_SHAPE,
    _NIR_CUE,
    *(p for _, p, _ in (*_CUED, *_ACCESS_CUED)),
    _LONG,
    _SHORTER,
    _SETTING,
    _READING,
    _MIXED,
    _USERNAME,
)


def ssn_is_valid(area: str, group: str, serial: str) -> bool:
    """Whether an SSN's parts are issuable (area not 000, 666 or 9xx; group and serial not zero)."""
    return area not in {"000", "666"} and area[0] != "9" and group != "00" and serial != "0000"


def nir_key_is_valid(nir: str) -> bool:
    """Whether a 15-character NIR (spaces removed; 2A/2B allowed) has the right key: 97 - (number mod 97)."""
    if len(nir) != 15 or not nir[-2:].isdigit():
        return False
    body = nir[:13].upper()
    if body[5:7] == "2A":
        body = body[:5] + "19" + body[7:]
    elif body[5:7] == "2B":
        body = body[:5] + "18" + body[7:]
    if not body.isdigit():
        return False
    return 97 - int(body) % 97 == int(nir[-2:])


def reads_as_nir(text: str, *, key: bool = True) -> bool:
    """Whether ``text`` (its letters and digits) is a whole NIR: INSEE's layout and (with ``key``) the right
    key; without, a mistyped NIR reads as one too."""
    compact = "".join(ch for ch in text if ch.isalnum()).upper()
    shaped = len(compact) == 15 and _NIR_SHAPE.fullmatch(compact) is not None
    return shaped and (not key or nir_key_is_valid(compact))


def _ssns(scan: Scan) -> Iterator[Span]:
    for match in _SSN.finditer(scan.text):
        area, sep, group, serial = match.groups()
        cued = _SSN_CUE.search(scan.line_before(match.start(), 30)) is not None
        if not ssn_is_valid(area, group, serial) or not (sep or cued):
            continue
        score = 0.95 if cued else (0.8 if sep == "-" else 0.55)
        yield scan.span(match.start(), match.end(), Label.ID, "ssn", score)


def _nirs(scan: Scan) -> Iterator[Span]:
    for match in _NIR.finditer(scan.text):
        compact = match.group(0).replace(" ", "").upper()
        if nir_key_is_valid(compact):
            yield scan.span(match.start(), match.end(), Label.ID, "nir", 0.97)
        elif len(compact) in (13, 15) and _NIR_SHAPE.fullmatch(compact):
            cued = _NIR_CUE.search(scan.line_before(match.start(), 40)) is not None
            # a mistyped key is still an identifier: named as a social security number, it outranks a phone
            yield scan.span(match.start(), match.end(), Label.ID, "other", 0.95 if cued else 0.6)


def _may_hold_cue(scan: Scan) -> bool:
    """Whether a record or account number's cue may be in the note (always, without the view's words)."""
    if scan.keys is None or any(sign in scan.text for sign in _CUE_SIGNS):
        return True
    return not scan.keys.isdisjoint(_CUE_KEYS) or any(key.startswith("n") and "°" in key for key in scan.keys)


def _may_hold_access(scan: Scan) -> bool:
    """Whether a user name's or video meeting's cue may be in the note (always, without the view's words)."""
    return scan.lang == "en" and (scan.keys is None or not scan.keys.isdisjoint(_ACCESS_KEYS))


def _cued(scan: Scan) -> Iterator[Span]:
    cued = (*(_CUED if _may_hold_cue(scan) else ()), *(_ACCESS_CUED if _may_hold_access(scan) else ()))
    for subtype, pattern, languages in cued:
        if languages is not None and scan.lang not in languages:
            continue
        for match in pattern.finditer(scan.text):
            value = match.group("value")
            digits = sum(char.isdigit() for char in value)
            loose = subtype in _NAMED_KINDS  # the HIPAA kinds named by a word: scored as any cued number
            if digits < (4 if loose else 3) or scan.unit_follows(match.end()):
                continue
            decimal_or_ratio = any(char in value for char in "/.,")
            if _DECIMAL.fullmatch(value) or (decimal_or_ratio and _READING.fullmatch(value)):
                continue  # "ID: 101.2", "ID=95.8-97.2": temperatures; "PA # 34-40/24-30": pressures
            score = 0.75 if loose else 0.9
            yield scan.span(match.start("value"), match.end("value"), Label.ID, subtype, score)


def _usernames(scan: Scan) -> Iterator[Span]:
    if not _may_hold_access(scan):
        return
    for match in _USERNAME.finditer(scan.text):
        yield scan.span(match.start("value"), match.end("value"), Label.ID, "account", 0.75)


def _bare(scan: Scan) -> Iterator[Span]:
    for match in _LONG.finditer(scan.text):
        if not scan.unit_follows(match.end()):
            yield scan.span(match.start(), match.end(), Label.ID, "other", 0.5)
    for match in _MIXED.finditer(scan.text):
        token = match.group(0)
        if _SETTING.fullmatch(token):
            continue  # 700x12x5: volume x rate (x PEEP), a ventilator setting; 3x4x5 a size
        if _TRIAL.fullmatch(token):
            continue  # a ClinicalTrials.gov study (NCT and 8 digits): a public registry's, no person's
        if sum(char.isdigit() for char in token) >= 5 and not scan.unit_follows(match.end()):
            yield scan.span(match.start(), match.end(), Label.ID, "other", 0.5)
    if scan.params.high_recall:
        for match in _SHORTER.finditer(scan.text):
            if not scan.unit_follows(match.end()):
                yield scan.span(match.start(), match.end(), Label.ID, "other", 0.35)


def find_ids(scan: Scan) -> Iterator[Span]:
    """Social security numbers, NIRs, record/account numbers and other identifiers."""
    yield from _ssns(scan)
    yield from _nirs(scan)
    yield from _cued(scan)
    yield from _usernames(scan)
    yield from _bare(scan)
