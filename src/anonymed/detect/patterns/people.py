"""Names that a record's layout gives away, declared as data: a "SURNAME,FIRSTNAME" header followed by a
record number or after a "Patient:" / "Name:" field label, a dictation line of initials ("ABC/xyz": author in
capitals, typist in lower case, alone on its line or after "Dictated by:"), and a signature line "NAME, M.D."
/ "Jane Doe, RN"."""

from __future__ import annotations

import re
from typing import Final

from anonymed.detect.lexicons.resources import name_lists
from anonymed.detect.patterns.recognizer import Recognizer
from anonymed.detect.tokens import fold
from anonymed.labels import Label

_CAPS_WORD: Final = r"[A-Z][A-Z'’-]*[A-Z]"
#: a capitalised name word: Smith, O'Neil, McDonald, Forman-Lyons
_TITLE_WORD: Final = r"(?:[A-Z]['’])?[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:[-'’][A-Z]?[a-z]+)?"
#: a surname (one or two words), a comma, a given name of three letters or more (not a state code: "Boston,
#: MA 02114") and perhaps an initial, then a record number of six characters or more (not a ZIP code), perhaps
#: in parentheses ("Boateng, Kwame (MRN 4471823)")
_SURNAME: Final = r"(?:" + _CAPS_WORD + r"|" + _TITLE_WORD + r")"
_GIVEN: Final = r"(?:[A-Z][A-Z'’-]+[A-Z]|[A-Z][a-z]{2,}(?:[-'’][A-Z]?[a-z]+)?)"
HEADER: Final = re.compile(
    r"(?m)^[ \t]*(?P<name>" + _SURNAME + r"(?: " + _SURNAME + r")?, ?" + _GIVEN + r"(?: [A-Z]\.?)?)"
    r"[ \t]++\(?(?:(?:MRN|MR|UNIT|ID|NO|#)[ \t]*+[:#.]?[ \t]*+)?"
    r"(?!\d{5}-\d{4}(?![\w-]))(?P<number>\d[\d-]{4,14}\d)(?![\w-])"
)
#: a "SURNAME, GIVEN" name after a field label ("Patient: HALVORSEN, INGRID M", "Name: Doe, Jane"), where no
#: record number follows it
NAME_FIELD: Final = re.compile(
    r"(?<![\w/])(?:(?i:patient|pt)(?:[ \t]+(?i:name))?|(?i:name))[ \t]*+:[ \t]*+"
    r"(?P<name>" + _SURNAME + r"(?: " + _SURNAME + r"){0,2}, ?" + _GIVEN + r"(?: [A-Z]\.?)?)(?![\w'’.-])"
)
#: a dictation line: the author's initials in capitals, a slash, the typist's in lower case, nothing else
#: on the line but a date or the "D:" / "T:" (dictated, typed) stamps
DICTATION: Final = re.compile(
    r"(?m)^[ \t]*(?P<author>[A-Z]{2,4})/(?P<typist>[a-z]{2,4})(?=[ \t]*(?:$|[DT]:|\d))"
)
#: the same initials after "Dictated by:" / "Transcribed by" anywhere on a line ("... 16:42. Dictated by:
#: PYG/kld")
DICTATED_BY: Final = re.compile(
    r"(?<![\w])(?i:dictated|transcribed|typed)(?:[ \t]+(?i:by))?[ \t]*+:?[ \t]*+"
    r"(?P<author>[A-Z]{2,4})/(?P<typist>[a-z]{2,4})(?![\w/])"
)
_CREDENTIAL: Final = r"(?:MD|DO|RN|NP|PA-C|PA|PhD|DDS|CRNA|LPN|RRT|CNM|MSW|LCSW|PharmD|APRN)"
_DOTTED: Final = r"(?:M\.D\.|D\.O\.|R\.N\.|N\.P\.|Ph\.D\.|P\.A\.(?:-C)?|D\.D\.S\.)"
#: a signature: a given name or an initial and a surname, a comma, a credential ("Jane Doe, RN"); with a
#: dotted credential ("M.D.") a single word suffices and capitals are allowed
SIGNATURE: Final = re.compile(
    r"(?<![\w'’.-])(?P<name>(?:[A-Z]\. ?|" + _TITLE_WORD + r" )(?:[A-Z]\. )?" + _TITLE_WORD + r")"
    r" ?, ?" + _CREDENTIAL + r"(?![\w-]| ?\d{5})"
)
_WORD: Final = r"(?:" + _CAPS_WORD + r"|" + _TITLE_WORD + r")"
#: a first word or an initial before the surname; words are separated by one space (an initial's dot may
#: stand for it), so that a long run of capitals cannot be split in quadratically many ways
_FIRST: Final = r"(?:" + _WORD + r" |[A-Z]\. ?)"
SIGNATURE_DOTTED: Final = re.compile(
    r"(?<![\w'’.-])(?P<name>" + _FIRST + r"?(?:[A-Z]\. ?)?" + _WORD + r") ?, ?" + _DOTTED + r"(?!\w)"
)
#: a signature line in capitals: "JANE DOE, RN" ending its line
SIGNATURE_CAPS: Final = re.compile(
    r"(?m)(?<![\w'’.-])(?P<name>(?:" + _CAPS_WORD + r" |[A-Z]\. ?)(?:[A-Z]\. ?)?" + _CAPS_WORD + r")"
    r" ?, ?" + _CREDENTIAL + r"[ \t.]*$"
)

#: preconditions, searched once per note: a comma before a credential; a capital slash lower-case pair
CREDENTIAL_AFTER_COMMA: Final = re.compile(r", ?(?:" + _CREDENTIAL + "|" + _DOTTED + ")")
SLASHED_INITIALS: Final = re.compile(r"[A-Z]{2}/[a-z]{2}")
FIELD_COMMA: Final = re.compile(r"(?i:patient|pt|name)[ \t]*:[ \t]*[A-Z][\w'’ -]*,")


def given_name_after_comma(name: str) -> bool:
    """Whether a name field's given name (the word after its comma) is a listed first name or no common word
    ("HALVORSEN, INGRID", "Okafor, Chidi"; not "PT: ALERT, ORIENTED")."""
    given = fold(name.partition(",")[2].split()[0])
    lists = name_lists()
    return given in lists.first or not lists.is_common(given, "en")


RECOGNIZERS: Final[tuple[Recognizer, ...]] = (
    Recognizer("name_header", HEADER, Label.NAME, "patient", 0.95, group="name", languages=frozenset({"en"})),
    Recognizer("number_header", HEADER, Label.ID, "mrn", 0.9, group="number", languages=frozenset({"en"})),
    Recognizer(
        "dictation_author",
        DICTATION,
        Label.NAME,
        "clinician",
        0.85,
        group="author",
        requires=SLASHED_INITIALS,
    ),
    Recognizer(
        "dictation_typist", DICTATION, Label.NAME, None, 0.85, group="typist", requires=SLASHED_INITIALS
    ),
    Recognizer(
        "dictated_by_author",
        DICTATED_BY,
        Label.NAME,
        "clinician",
        0.9,
        group="author",
        requires=SLASHED_INITIALS,
    ),
    Recognizer(
        "dictated_by_typist", DICTATED_BY, Label.NAME, None, 0.9, group="typist", requires=SLASHED_INITIALS
    ),
    Recognizer(
        "name_field",
        NAME_FIELD,
        Label.NAME,
        "patient",
        0.9,
        group="name",
        validator=given_name_after_comma,
        languages=frozenset({"en"}),
        requires=FIELD_COMMA,
    ),
    Recognizer(
        "signature", SIGNATURE, Label.NAME, "clinician", 0.92, group="name", requires=CREDENTIAL_AFTER_COMMA
    ),
    Recognizer(
        "signature_dotted",
        SIGNATURE_DOTTED,
        Label.NAME,
        "clinician",
        0.92,
        group="name",
        requires=CREDENTIAL_AFTER_COMMA,
    ),
    Recognizer(
        "signature_caps",
        SIGNATURE_CAPS,
        Label.NAME,
        "clinician",
        0.9,
        group="name",
        requires=CREDENTIAL_AFTER_COMMA,
    ),
)

PATTERNS: Final = (HEADER, NAME_FIELD, DICTATION, DICTATED_BY, SIGNATURE, SIGNATURE_DOTTED, SIGNATURE_CAPS)
