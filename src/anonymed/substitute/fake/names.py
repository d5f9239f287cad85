"""Name layouts: which words of a name span are first names, last names, initials or titles to keep."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import Enum
from typing import Final

from anonymed.dates.words import fold
from anonymed.substitute.shape import Case, case_pattern, is_initial

_PIECE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\s+|.", re.S)
_LAST_WORD = re.compile(r"([^\W\d_]+)\.?\s*$")

#: courtesy and academic titles written before a name, kept there (they name no one)
PREFIX_TITLES = frozenset(
    {"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "pr", "sir", "dame", "mme", "mlle", "mmes", "mlles", "mm",
     "messrs", "docteur", "professeur", "madame", "monsieur", "mademoiselle"}
)  # fmt: skip
#: suffixes written after a name, kept anywhere
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "md", "phd"})
#: every title and suffix (the words the invariant lets survive)
TITLES = PREFIX_TITLES | SUFFIXES
#: titles written as an abbreviation with a dot that reads as an initial, per language ("M. Dupont" is
#: Monsieur Dupont; "M Dupont", without the dot, is read as an initial)
INITIAL_TITLES = {"fr": frozenset({"M", "MM"})}
#: lower-case name particles, kept as they are
PARTICLES = frozenset(
    {"de", "du", "des", "la", "le", "van", "von", "der", "den", "da", "di", "del", "della", "dos", "bin",
     "ibn", "bint"}
)  # fmt: skip


class Role(Enum):
    """What a piece of a name span is and how it is replaced."""

    FIRST = "first"
    LAST = "last"
    INITIAL = "initial"
    KEEP = "keep"
    RANDOM = "random"


@dataclass(frozen=True)
class Piece:
    """One piece of a name span: its offset in the span, its text and its role."""

    offset: int
    text: str
    role: Role


def name_layout(
    text: str,
    first_names: Collection[str],
    lang: str = "en",
    *,
    after_title: bool = False,
    after_kin: bool = False,
    after_marital: bool = False,
) -> list[Piece]:
    """Split a name span into pieces with roles; ``first_names`` (case-folded) decides lone words, and a lone
    name after a kin word is a first name (``after_kin``: "son Jamal", "niece (Tanisha)").

    ``after_marital``: every name word is a surname ("née Martin").
    Titles are kept before the name only ("DUPONT Mr" holds a name part, not a title). In French a
    leading "M." or "MM." followed by another name word is a title (Monsieur), kept, unless the span
    follows another title (``after_title``: "Dr M. Durand" is an initial).
    """
    raw = [(m.start(), m.group(0)) for m in _PIECE.finditer(text)]
    roles = [_fixed_role(t, len(raw)) for _, t in raw]
    words = [i for i, (_, t) in enumerate(raw) if t[0].isalnum()]
    first = words[0] if words else 0
    dotted = first + 1 < len(raw) and raw[first + 1][1] == "."
    if not after_title and len(words) > 1 and dotted and raw[first][1] in INITIAL_TITLES.get(lang, ()):
        roles[first] = Role.KEEP
    for n, i in enumerate(words):
        named_before = any(roles[j] is not Role.KEEP for j in words[:n])
        if named_before and raw[i][1].casefold() in PREFIX_TITLES:
            roles[i] = Role.INITIAL if is_initial(raw[i][1]) else None
    _keep_capital_particles(raw, roles, words, lang)
    names = [i for i, r in enumerate(roles) if r is None]
    comma = next((i for i, (_, t) in enumerate(raw) if t == ","), None)
    if comma is not None and any(i < comma for i in names) and any(i > comma for i in names):
        for i in names:
            roles[i] = Role.LAST if i < comma else Role.FIRST
    elif after_marital:  # "née Martin": a birth name
        for i in names:
            roles[i] = Role.LAST
    else:
        _positional_roles(raw, roles, names, first_names, after_kin)
    _surnames_before_marital_words(raw, roles, words)
    return [Piece(o, t, r or Role.KEEP) for (o, t), r in zip(raw, roles, strict=True)]


_MARITAL_BEFORE = re.compile(r"(?<![^\W\d_])(née|nee|veuve)[ \t]+$", re.I)
#: "épouse" is a wife too ("son épouse Svetlana"): a married name only after a name ("Perrin épouse ")
_MARRIED_BEFORE = re.compile(r"[A-ZÀ-Ý][^\W\d_]*[ \t]+(?:épouse|epouse)[ \t]+$")


def marital_before(before: str) -> bool:
    """Whether ``before`` ends with "née ", "veuve " or a name and "épouse ": a birth or married name."""
    return _MARITAL_BEFORE.search(before) is not None or _MARRIED_BEFORE.search(before) is not None


def _surnames_before_marital_words(
    raw: list[tuple[int, str]], roles: list[Role | None], words: list[int]
) -> None:
    """The name word right before "épouse" / "née" is a surname ("Odile Perrin épouse Lambert", "Mary Smith
    nee Jones"), the word after it too."""
    for n, i in enumerate(words):
        if roles[i] is not Role.KEEP or raw[i][1].casefold() not in MARITAL:
            continue
        for j in (words[n - 1] if n > 0 else None, words[n + 1] if n + 1 < len(words) else None):
            if j is not None and roles[j] is Role.FIRST:
                roles[j] = Role.LAST


#: words right before a birth or a married name ("née Dupuis", "veuve Martin", "Perrin épouse Lambert")
BIRTH_OR_MARRIED = frozenset({"née", "nee", "veuve", "épouse", "epouse"})
#: lower-case words joining a birth name and a married name ("Odile Perrin épouse Lambert", "veuve", "née")
MARITAL = BIRTH_OR_MARRIED | {"ép", "ep", "divorcée", "divorcee", "dite", "dit"}
#: the saint of a surname before a name word ("Dr. St. John", "Saint-Exupéry"), kept like a particle
SAINTS = frozenset({"st", "ste", "saint", "sainte"})
#: capitalised particles that open a French surname ("Mme Le Goff", "Le Bihan", "De Gaulle")
_FRENCH_SURNAME_PARTICLES = frozenset({"le", "la", "de", "du"})


def _keep_capital_particles(
    raw: list[tuple[int, str]], roles: list[Role | None], words: list[int], lang: str
) -> None:
    """A capitalised particle between name words is kept ("Anne-Sophie Le Goff", "Maria De La Cruz",
    "Nguyen Van An"), and in French one before a name word too ("Le Goff"): it is part of the surname, no
    given name of its own."""
    named_before = False
    for n, i in enumerate(words[:-1]):
        piece = raw[i][1]
        folded = piece.casefold()
        particle = roles[i] is None and piece[0].isupper() and (folded in PARTICLES or folded in SAINTS)
        if not particle:
            named_before = named_before or roles[i] is None
            continue
        if roles[words[n + 1]] not in (None, Role.KEEP) or not raw[words[n + 1]][1][0].isupper():
            named_before = True
            continue
        if folded in SAINTS:  # "St. John", "Sainte-Marie": the saint's name is the surname's
            roles[i], roles[words[n + 1]] = Role.KEEP, Role.LAST
        elif named_before or (lang == "fr" and folded in _FRENCH_SURNAME_PARTICLES):
            roles[i] = Role.KEEP


def _fixed_role(piece: str, count: int) -> Role | None:
    if piece.isspace() or not piece[0].isalnum():
        return Role.KEEP
    if not piece[0].isalpha():
        return Role.RANDOM
    folded = piece.casefold()
    if folded in TITLES or (count > 1 and piece.islower() and (folded in PARTICLES or folded in MARITAL)):
        return Role.KEEP
    if is_initial(piece):
        return Role.INITIAL
    return None


def _groups(raw: list[tuple[int, str]], names: list[int]) -> list[list[int]]:
    """Name words joined by anything but whitespace or commas (``Jean-Pierre``) form one group."""
    groups: list[list[int]] = []
    previous = -1
    for i in names:
        between = "".join(t for _, t in raw[previous + 1 : i])
        if groups and not any(ch.isspace() or ch == "," for ch in between):
            groups[-1].append(i)
        else:
            groups.append([i])
        previous = i
    return groups


def _positional_roles(
    raw: list[tuple[int, str]],
    roles: list[Role | None],
    names: list[int],
    first_names: Collection[str],
    after_kin: bool = False,
) -> None:
    groups = _groups(raw, names)
    if len(groups) == 1:
        known = after_kin or all(raw[i][1].casefold() in first_names for i in groups[0])
        for i in groups[0]:
            roles[i] = Role.FIRST if known else Role.LAST
        return
    upper = [all(case_pattern(raw[i][1]) is Case.UPPER for i in g) for g in groups]
    mixed = any(upper) and not all(upper)  # once, not per group: a run of 10,000 name words was quadratic
    for g, is_upper in zip(groups, upper, strict=True):
        if mixed:
            role = Role.LAST if is_upper else Role.FIRST
        else:
            role = Role.LAST if g is groups[-1] else Role.FIRST
        for i in g:
            roles[i] = role


def render_name(pieces: list[Piece], draw: Callable[[Piece], str]) -> str:
    """The name with every first, last, initial and random piece replaced by ``draw(piece)``."""
    return "".join(p.text if p.role is Role.KEEP else draw(p) for p in pieces)


def ends_with_title(text: str, lang: str = "en") -> bool:
    """Whether ``text`` ends with a title ("Dr. ", "Madame ", in French "M. "), as before a name span."""
    found = _LAST_WORD.search(text)
    if found is None:
        return False
    word = found.group(1)
    return word.casefold() in PREFIX_TITLES or word in INITIAL_TITLES.get(lang, ())


#: courtesy titles that say the person's gender (folded, without their dot)
MALE_TITLES = frozenset({"mr", "monsieur", "sir", "messrs", "mm"})
FEMALE_TITLES = frozenset(
    {"mrs", "ms", "miss", "mme", "mlle", "madame", "mademoiselle", "dame", "mmes", "mlles"}
)
_TITLE_WORD = re.compile(r"([^\W\d_]+)\.?\s*$")
_FIRST_WORD = re.compile(r"\s*([^\W\d_]+)(\.?)")
_AGREEMENT = re.compile(r"^\s*,?\s*(née|nee|né)(?![^\W\d_])", re.I)


#: kin words before a relative's name, by the gender they say (English and French, folded)
MALE_KIN = frozenset(
    {"son", "husband", "father", "dad", "brother", "nephew", "grandson", "grandfather", "uncle", "boyfriend",
     "fiance", "stepson", "stepfather", "fils", "mari", "pere", "frere", "neveu", "oncle", "compagnon",
     "grand-pere", "petit-fils", "beau-pere", "beau-frere"}
)  # fmt: skip
FEMALE_KIN = frozenset(
    {"daughter", "wife", "mother", "mom", "mum", "sister", "niece", "granddaughter", "grandmother", "aunt",
     "girlfriend", "fiancee", "stepdaughter", "stepmother", "fille", "epouse", "femme", "mere", "soeur",
     "tante", "compagne", "grand-mere", "petite-fille", "belle-mere", "belle-soeur", "belle-fille"}
)  # fmt: skip
OTHER_KIN = frozenset(
    {"partner", "spouse", "friend", "cousin", "sibling", "child", "grandchild", "conjoint", "conjointe",
     "ami", "amie", "cousine"}
)  # fmt: skip
#: staff written before a first name: role words in lower case or capitalised, role abbreviations in capitals
#: ("interpreter Olga", "Sitter Jasmine", "PCA Keisha", "PT Kayla"); English
STAFF_WORDS = frozenset(
    {"interpreter", "translator", "sitter", "aide", "chaplain", "nurse", "tech", "technician", "therapist",
     "doula", "midwife", "scribe", "volunteer", "caseworker", "coordinator", "navigator", "dietitian",
     "pharmacist", "phlebotomist", "paramedic"}
)  # fmt: skip
STAFF_ABBREVIATIONS = frozenset(
    {"PCA", "CNA", "RN", "LPN", "NP", "PA", "PT", "OT", "RT", "SW", "CM", "EMT", "CRNA", "PTA", "OTA", "SLP"}
)
#: the staff roles as written before a name: abbreviations in capitals, words in lower case or capitalised
_STAFF_FORMS = STAFF_ABBREVIATIONS | STAFF_WORDS | {word.capitalize() for word in STAFF_WORDS}
_STAFF_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+$")


def is_staff_role(word: str) -> bool:
    """Whether ``word`` names a staff role before a first name: a role word not in capitals ("interpreter",
    "Sitter") or a role abbreviation in capitals ("PCA", "RN")."""
    return word in _STAFF_FORMS


def staff_before(before: str) -> bool:
    """Whether ``before`` ends with a staff role and a space ("interpreter ", "PCA ")."""
    found = _STAFF_BEFORE.search(before)
    return found is not None and is_staff_role(found.group(1))


#: the words of an age after its number ("9 ans", "12 yo", "3 mois", "6 years"), for the detector's rule too
AGE_UNITS: Final = ("ans", "an", "mois", "yo", "years", "year", "yrs", "months")
#: an age right after a name ("Léa 9 ans", "Jake 12 yo")
_AGE_AFTER = re.compile(
    r"[ \t]*\d{1,3}[ \t]*(?:" + "|".join(sorted(AGE_UNITS, key=len, reverse=True)) + r")(?![^\W\d_])", re.I
)


def age_after(after: str) -> bool:
    """Whether ``after`` starts with an age ("Léa 9 ans": a child's first name, not a surname)."""
    return _AGE_AFTER.match(after) is not None


_KIN_WORD = re.compile(r"([^\W\d_]+(?:-[^\W\d_]+)?)(?:-in-laws?)?(?:['’]s)?[\s,:(]*$")


def kin_before(before: str) -> str | None:
    """``male``, ``female`` or ``any`` when ``before`` ends with a kin word ("son ", "pt's niece (",
    "daughter-in-law ", "épouse : "), else None."""
    found = _KIN_WORD.search(before)
    return None if found is None else _kin_gender(found.group(1))


#: a kin word in parentheses right after a name ("Okonjo, Adaeze (niece)", "Reggie (partner)")
_KIN_AFTER = re.compile(r"[ \t]*\([ \t]*([^\W\d_]+(?:-[^\W\d_]+)?)(?:-in-laws?)?[ \t]*\)")


def kin_after(after: str) -> str | None:
    """``male``, ``female`` or ``any`` when ``after`` starts with a kin word in parentheses ("(niece)")."""
    found = _KIN_AFTER.match(after)
    return None if found is None else _kin_gender(found.group(1))


def _kin_gender(kin: str) -> str | None:
    """The gender a kin word gives (``any`` for one of both genders), None for no kin word."""
    word = fold(kin)
    if word in MALE_KIN:
        return "male"
    if word in FEMALE_KIN:
        return "female"
    return "any" if word in OTHER_KIN else None


def title_gender(before: str, text: str, after: str, lang: str = "en") -> str | None:
    """``male``, ``female`` or ``None``: what a title before or in the span, or "né"/"née" after it, says.

    French "M." is Monsieur only with its dot; "né" and "née" after the name agree with its gender.
    """
    first = _FIRST_WORD.match(text)
    words = []
    if first is not None:
        words.append((first.group(1), first.group(2)))
    found = _TITLE_WORD.search(before)
    if found is not None:
        words.append((found.group(1), "." if before.rstrip().endswith(".") else ""))
    for word, dot in words:
        folded = word.casefold()
        if folded in FEMALE_TITLES:
            return "female"
        if folded in MALE_TITLES or (lang == "fr" and word == "M" and dot):
            return "male"
    agreement = _AGREEMENT.match(after) if lang == "fr" else None
    if agreement is not None:
        return (
            "female"
            if agreement.group(1).casefold().endswith("e") and len(agreement.group(1)) == 3
            else "male"
        )
    return None
