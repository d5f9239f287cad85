"""Place surrogates of the original's kind: addresses and hospitals here; towns, states, countries and
abbreviations drawn by ``towns``.

The kind is read from the span and the words around it (``place_kind``): a hospital's kind word in the
span ("Hôpital Bichat", "Kessler Adventist Hosp") keeps its kind word and gets a new name; a name whose
kind word is outside the span ("CALVERT Hospital", "Hôpital HERNERET", "CHU de Dijon") gets a name of a
hospital (a saint, a virtue, a real town); capitals of 2 to 5 letters that are no known town ("GH",
"GBMC") another abbreviation of the same length; an address a number, a street name of the language, and
(where the original has them) a postcode of the new town's format and a real town; a US state another
state; a country another country; any other name a real town of similar population in the same country
(``gazetteer``), or of the note's country when the town is unknown. Street and hospital names are generic
(trees, landmarks, saints, virtues, towns), never the name of a person.
"""

from __future__ import annotations

import re
from typing import Final

from anonymed.detect.patterns.addresses import (
    DESIGNATORS,
    DESIGNATORS_FR,
    DIRECTIONAL_WRITTEN,
    DIRECTIONALS,
    SUFFIXES,
)
from anonymed.randomness import RandomSource
from anonymed.substitute.fake.gazetteer import Town, gazetteer
from anonymed.substitute.fake.towns import COUNTRY_OF, reads_as_abbreviation, state_after, town
from anonymed.substitute.places import place_key
from anonymed.substitute.shape import apply_case, case_pattern

#: words saying that a name is a hospital's (in the span, or right before or after it)
HOSPITAL_WORDS: Final = re.compile(
    r"\b(hospital|hosp|medical cent(?:er|re)|med ctr|clinic|infirmary|rehab|rehabilitation|nursing home|"
    r"psychiatric (?:cent(?:er|re)|institute)|pavilion|"
    r"h[oô]pital|hop|clinique|polyclinique|chru|chu|chr|ch|centre hospitalier|centre de sant[eé]|ehpad|"
    r"ssr|smr|usld)\b\.?",
    re.I,
)
_STREET_WORDS: Final = re.compile(
    r"\b(street|st|avenue|ave|av|road|rd|boulevard|blvd|bd|lane|ln|drive|dr|way|court|ct|place|pl|terrace|"
    r"parkway|pkwy|highway|hwy|circle|cir|trail|trl|close|crescent|mews|gardens|grove|walk|row|plaza|pike|"
    r"rue|chemin|all[ée]e|impasse|route|quai|cours|square|passage|voie|sentier)\b\.?",
    re.I,
)
#: a street named without its number ("Park Road, Leeds", "Clark St", "rue des Lilas"): a name word and a
#: street word written in full or as an abbreviation of USPS Publication 28 that means nothing else, or a
#: British "Close" / "Mews" capitalised ("Larkspur Close, Harrogate"); "St" only at the end ("St Luke's" is a
#: saint, "Dr" a doctor as often)
_STREET_NAME: Final = re.compile(
    r"\b[A-Z][\w'’-]* (?i:street|road|avenue|lane|drive|boulevard|terrace|crescent)\b"
    r"|\b[A-Z][\w'’-]* (?:Close|Mews|CLOSE|MEWS)\b"
    r"|\b[A-Z][\w'’-]* (?:Rd|Ave|Blvd|Ln|Hwy|Pkwy|RD|AVE|BLVD|HWY|PKWY)\b|\b[A-Z][\w'’-]* (?:St|ST)\.?$"
    r"|\b(?:rue|avenue|boulevard|chemin|all[ée]e|impasse|quai) (?:de |du |des |de la |d')?[A-ZÀ-Ý]"
)
_POSTCODE: Final = re.compile(r"(?<![\w])(\d{5}|\d{2} \d{3}|2[AB] ?\d{3})(?![\w])")
#: a French mail box or special delivery number before five digits ("BP 45", "CS 70012", "TSA 30001"): no
#: postcode
_MAIL_BOX: Final = re.compile(r"\b(?:BP|CS|TSA)\s*$")
#: runs of an address: a postcode, a number, or words joined by spaces, hyphens and apostrophes
_RUNS: Final = re.compile(
    r"\d{2} \d{3}(?![\w])|2[AB] ?\d{3}|\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH)(?![\w])|\d+|"
    r"[^\W\d_]+(?:\.?(?:[ '’-]|\. ?)?[^\W\d_]+)*\.?"
)
_WORD: Final = re.compile(r"[^\W\d_]+")
#: an ordinal street name ("45th Street", "W. 3RD ST"): its number and suffix
_ORDINAL: Final = re.compile(r"(\d{1,3})(st|nd|rd|th|ST|ND|RD|TH)")
#: the directionals of US street names before or after the name (USPS Publication 28, Appendix B): kept
_DIRECTIONAL: Final = re.compile(r"(?i:" + "|".join(sorted(DIRECTIONALS, key=len, reverse=True)) + r")\.?")
#: words of addresses that name no place (kept)
_GENERIC: Final = frozenset(
    {"bis", "ter", "cedex", "appt", "apt", "studio", "suite", "bat", "batiment", "bâtiment", "etage", "étage",
     "floor", "unit", "bp", "cs", *DESIGNATORS}
)  # fmt: skip
#: a secondary unit's designator (USPS Publication 28, C2) before its number or letter: "Apt 4B", "Ste. #2",
#: "Bldg C"; a designator word with no unit after it ("Key West Blvd") is a name
#: French ones too (``DESIGNATORS_FR``)
_UNIT_DESIGNATOR: Final = re.compile(
    r"(?<![\w])(?i:"
    + "|".join(sorted((*DESIGNATORS, *DESIGNATORS_FR), key=len, reverse=True))
    + r")(?![\w])\.?(?= ?#? ?\d| [A-Z](?![\w]))"
)
#: the letters of a unit ("4B", "B2", "Apt C"): at most two, after or before a digit or after a designator
_UNIT_LETTERS: Final = re.compile(r"[^\W\d_]{1,2}")

#: generic street names, by language: landmarks, trees and seasons, no person's name
STREETS: Final = {
    "en": ("Maple", "Oak", "Elm", "Pine", "Cedar", "Birch", "Walnut", "Willow", "Park", "Main", "Lake",
           "Hill", "Church", "Mill", "River", "Spring", "Highland", "Meadow", "Sunset", "Valley", "Ridge",
           "Orchard", "Forest"),
    "fr": ("de la Gare", "du Moulin", "des Roses", "de l'Église", "du Château", "des Écoles", "de la Mairie",
           "du Stade", "de la Paix", "du Parc", "du Lac", "de la Source", "des Vignes", "de la Fontaine",
           "des Jardins", "du Marché", "de la République", "de la Libération", "du Port", "des Champs",
           "de la Prairie", "du Soleil Levant", "des Fleurs"),
}  # fmt: skip
#: hospital names after the kind word (French) or before it (English): saints, virtues, landmarks
HOSPITAL_NAMES: Final = {
    "en": ("St. Mary's", "St. Joseph's", "St. Luke's", "St. Agnes", "St. Anthony", "St. Vincent",
           "St. Francis", "St. Elizabeth", "St. John's", "St. Catherine", "Mercy", "Sacred Heart",
           "Holy Family", "Trinity", "Good Hope", "Valley", "Lakeside", "Riverside", "Community"),
    "fr": ("Saint-Joseph", "Saint-Louis", "Sainte-Anne", "Saint-Antoine", "Sainte-Marie", "Saint-Jacques",
           "Saint-Luc", "Saint-Martin", "Saint-Vincent", "du Parc", "du Lac", "de la Source", "des Alpes",
           "du Val", "de l'Espérance", "du Pont", "des Champs", "du Bois"),
}  # fmt: skip


def place_kind(text: str, before: str, after: str, lang: str = "en") -> str:
    """``hospital``, ``hospital-name``, ``abbreviation``, ``address``, ``state``, ``country`` or ``town``."""
    stripped = text.strip()
    places = gazetteer()
    country = COUNTRY_OF.get(lang, "US")
    if HOSPITAL_WORDS.search(stripped):
        return "abbreviation" if reads_as_abbreviation(stripped, places, country) else "hospital"
    next_to_kind = HOSPITAL_WORDS.match(after.strip()) or re.search(
        r"\b(h[oô]pital|hop|clinique|hospital|chr?u de|ch de|centre hospitalier( de)?)\s*$", before, re.I
    )
    if reads_as_abbreviation(stripped, places, country):
        return "abbreviation"
    if any(ch.isdigit() for ch in stripped) or _STREET_NAME.search(stripped):
        return "address"
    key = place_key(stripped)
    if key in places.states and (len(stripped) > 2 or stripped.isupper()) and state_after(after) is None:
        return "state"  # "New York, NY" is the town: a state is not followed by a state
    if key in places.countries:
        return "country"
    if next_to_kind and places.town(stripped, country) is None:
        return "hospital-name"
    return "town"


def hospital(original: str, lang: str, rng: RandomSource) -> str:
    """The original's kind word kept where it stands, with a new name (a saint, a virtue, a real town).

    An address written after the hospital's name ("Centre de Santé X, 88 boulevard ...") is an address.
    """
    split = re.search(r",\s*(?=\d)", original)
    if split is not None and HOSPITAL_WORDS.search(original[: split.start()]):
        head, tail = original[: split.start()], original[split.end() :]
        return hospital(head, lang, rng) + split.group(0) + address(tail, lang, rng)
    found = HOSPITAL_WORDS.search(original)
    if found is None or split is not None:
        return address(original, lang, rng)
    kind = original[: found.end()] if re.match(r"centre de sant", found.group(0), re.I) else found.group(0)
    name = hospital_name(lang, rng)
    if lang == "fr" or found.start() < len(original) - found.end():  # the kind comes first: "Hôpital X"
        return f"{kind} {name}"
    return f"{name} {kind}"


def hospital_name(lang: str, rng: RandomSource) -> str:
    """The name part of a hospital: a saint or a landmark, or a real town of the note's country."""
    pool = HOSPITAL_NAMES.get(lang, HOSPITAL_NAMES["en"])
    if rng.randbelow(3) == 0:
        place = town("", lang, rng).name
        return of_town(place) if lang == "fr" else place
    return rng.choice(pool)


def of_town(name: str) -> str:
    """French "de" before a town's name: "de Dole", "du Creusot", "des Goulles", "d'Auxerre"."""
    for article, contracted in (("Le ", "du "), ("Les ", "des ")):
        if name.startswith(article):
            return contracted + name[len(article) :]
    return "d'" + name if name[:1] in "AEIOUYÉÈ" else "de " + name


def ward(original: str, rng: RandomSource) -> str:
    """A building or ward with its number ("Quartermain 2", "QUARTERMAIN7"): a landmark, another number."""
    name = rng.choice(("Lakeside", "Riverside", "Parkview", "Hillside", "Meadow", "Valley"))
    letters = re.search(r"[^\W\d_]+", original)
    assert letters is not None
    rest = re.sub(r"\d+", lambda m: _number_like(m.group(0), rng), original[letters.end() :])
    return original[: letters.start()] + name + rest


def address(original: str, lang: str, rng: RandomSource, *, state: str | None = None) -> str:
    """The address rewritten run by run in its own layout (see the module docstring).

    Numbers get other numbers of their width, a postcode one of the new town's department, a street name
    run a generic street of the language (its street word kept), the run after the postcode or the last
    comma a real town (of the US state ``state`` when the note names one after the address); generic words
    (bis, ter, cedex, appt) stay.
    """
    lang = lang if lang in STREETS else "en"
    place = rng.choice(gazetteer().communes) if lang == "fr" else town("", lang, rng, state=state)
    postcode = _postcode_in(original)
    town_at = postcode.end() if postcode else _town_start(original, lang)
    out, cursor, unit_next = [], 0, False
    for start, end, designator in _split_at(_address_runs(original), town_at):
        out.append(original[cursor:start])
        cursor, text = end, original[start:end]
        if postcode is not None and start == postcode.start():
            out.append(_postcode_of(place, text, rng))
        elif _ORDINAL.fullmatch(text):
            out.append(_ordinal_like(text, rng))
        elif text[0].isdigit():
            out.append(_number_like(text, rng))
        elif designator or all(w.casefold() in _GENERIC for w in _WORD.findall(text)):
            out.append(text)
        elif _is_unit_letters(original, start, end, unit_next):
            out.append(_letters_like(text, rng))
        elif start >= town_at and not _STREET_WORDS.search(text):
            out.append(_town_run(text, place, lang, rng))
        else:
            out.append(_street_run(text, lang, rng))
        unit_next = designator
    out.append(original[cursor:])
    return "".join(out)


def _postcode_in(original: str) -> re.Match[str] | None:
    """The postcode of an address: five digits not after "BP", "CS" or "TSA", the one before the town when
    there are two ("70012, 75001 Paris": the first is a special delivery number)."""
    found = [m for m in _POSTCODE.finditer(original) if not _MAIL_BOX.search(original, 0, m.start())]
    before_town = [m for m in found if _TOWN_NEXT.match(original, m.end())]
    chosen = before_town or found
    return chosen[0] if chosen else None


_TOWN_NEXT: Final = re.compile(r"[ \t]+[^\W\d_]")


def _address_runs(original: str) -> list[tuple[int, int, bool]]:
    """The runs of ``_RUNS`` as (start, end, is a unit designator), a word run cut around each designator."""
    units = [(m.start(), m.end()) for m in _UNIT_DESIGNATOR.finditer(original)]
    runs: list[tuple[int, int, bool]] = []
    for run in _RUNS.finditer(original):
        cut = run.start()
        for start, end in (u for u in units if run.start() <= u[0] < run.end()):
            if original[cut:start].strip():
                runs.append((cut, cut + len(original[cut:start].rstrip()), False))
            runs.append((start, end, True))
            cut = end + len(original[end : run.end()]) - len(original[end : run.end()].lstrip())
        if cut < run.end():
            runs.append((cut, run.end(), False))
    return runs


#: the end of a US street before a town written without a comma ("12 Oak Ave Springfield", "400 Elm St NW
#: Washington"): a USPS suffix, a directional, a space and a capitalised word
_STREET_END: Final = re.compile(
    r"\b(?i:" + "|".join(sorted(SUFFIXES, key=len, reverse=True)) + r")\b\.?"
    rf"(?: {DIRECTIONAL_WRITTEN}\b\.?)? (?=[A-Z][a-z])"
)


def _split_at(runs: list[tuple[int, int, bool]], at: int) -> list[tuple[int, int, bool]]:
    """The runs with the one that holds position ``at`` (a town's start after a space) cut there."""
    out: list[tuple[int, int, bool]] = []
    for start, end, designator in runs:
        if start < at < end and not designator:
            out += [(start, at - 1, False), (at, end, False)]
        else:
            out.append((start, end, designator))
    return out


def _town_start(original: str, lang: str) -> int:
    """Where the town of an address without postcode starts: after the last comma, unless a unit follows;
    without a comma, in English, after the street's suffix (and directional), unless a unit follows."""
    comma = original.rfind(",")
    if comma < 0:
        ends = list(_STREET_END.finditer(original)) if lang == "en" else []
        rest = original[ends[-1].end() :] if ends else ""
        return ends[-1].end() if rest and not _UNIT_DESIGNATOR.match(rest) else len(original)
    rest = original[comma + 1 :].lstrip()
    return len(original) if rest.startswith("#") or _UNIT_DESIGNATOR.match(rest) else comma + 1


def _is_unit_letters(original: str, start: int, end: int, after_designator: bool) -> bool:
    """Whether a run is the letters of a unit: "4B", "B2" (glued to a digit) or "Apt C"."""
    if _UNIT_LETTERS.fullmatch(original[start:end]) is None:
        return False
    glued = (start > 0 and original[start - 1].isdigit()) or (end < len(original) and original[end].isdigit())
    return glued or after_designator


def _letters_like(letters: str, rng: RandomSource) -> str:
    """Other letters of the same count and case ("B" -> "F")."""
    drawn = "".join(rng.choice("ABCDEFGHJKLMNPRSTVW".replace(ch.upper(), "")) for ch in letters)
    return apply_case(drawn, case_pattern(letters))


def _town_run(run: str, place: Town, lang: str, rng: RandomSource) -> str:
    """The town of an address; a "cedex" after it kept, a hospital after it ("Pessac CHU X") one too."""
    kind = HOSPITAL_WORDS.search(run)
    if kind is not None and kind.start() == 0:
        return apply_case(hospital(run, lang, rng), case_pattern(run))
    head = run[: kind.start()].rstrip() if kind is not None else run
    cedex = re.search(r"\s+(?:cedex|CEDEX|Cedex)\b.*$", head)
    name = head[: cedex.start()] if cedex else head
    written = apply_case(place.name, case_pattern(name)) + (cedex.group(0) if cedex else "")
    if kind is not None:
        written += run[len(head) : kind.start()] + apply_case(
            hospital(run[kind.start() :], lang, rng), case_pattern(run)
        )
    return written


def _street_run(run: str, lang: str, rng: RandomSource) -> str:
    """A street run with its English directionals kept where they stand ("NE Peachtree Pl", "Elm St SW")."""
    words = run.split(" ")
    head = 0
    tail = len(words)
    if lang == "en":
        while head < tail and _DIRECTIONAL.fullmatch(words[head]):
            head += 1
        while tail > head and _DIRECTIONAL.fullmatch(words[tail - 1]):
            tail -= 1
    name = " ".join(words[head:tail])
    if head == tail or _STREET_WORDS.fullmatch(name):
        return run  # directionals only ("W." before "45th"), a street word only ("Street" after "45th")
    street = apply_case(_street(name, lang, rng), case_pattern(name))
    return " ".join([*words[:head], street, *words[tail:]])


def _street(run: str, lang: str, rng: RandomSource) -> str:
    """A street name run: its street word (and the words before it) kept, the name a generic one."""
    found = _STREET_WORDS.search(run)
    name = rng.choice(STREETS[lang])
    if found is None:
        return name
    if lang == "en" and found.end() >= len(run.rstrip(".")) and found.start() > 0:
        return f"{name} {found.group(0)}"  # "Clover St.", "Main Street"
    return f"{run[: found.end()]} {name}"  # "rue du Lys", "bis chemin Etienne", "avenue Foch"


def _number_like(digits: str, rng: RandomSource) -> str:
    """Another number of the same width (no leading zero)."""
    width = len(digits)
    if not digits.isdigit() or width == 1:
        return str(1 + rng.randbelow(9)) if digits.isdigit() else digits
    return str(10 ** (width - 1) + rng.randbelow(9 * 10 ** (width - 1)))


def _ordinal_like(ordinal: str, rng: RandomSource) -> str:
    """Another ordinal of the same width and case ("45th" -> "72nd", "3RD" -> "8TH")."""
    number = _ORDINAL.fullmatch(ordinal)
    assert number is not None
    drawn = int(_number_like(number.group(1), rng))
    suffix = "th" if 10 <= drawn % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(drawn % 10, "th")
    return f"{drawn}{suffix.upper() if number.group(2).isupper() else suffix}"


def _postcode_of(place: Town, layout: str, rng: RandomSource) -> str:
    """A postcode in the layout of ``layout``: the town's department first for a French commune."""
    digits = (
        f"{place.department}{rng.randbelow(100):02d}0"
        if place.department.isdigit()
        else (f"{1 + rng.randbelow(9)}{rng.randbelow(10_000):04d}")
    )
    out, it = [], iter(digits)
    for ch in layout:
        out.append(next(it, "0") if ch.isalnum() else ch)
    return "".join(out)
