"""Decoding rules that fix the edges of a tagged place: a compound name joined by hyphens
("Saint-Paul-lès-Dax"), the common words the model runs into a French street ("Chute de trottinette rue
Saint-Malo"), and clock times that are no places ("14h30")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from anonymed.detect.lexicons.context import STREET_TYPES_EN, STREET_TYPES_FR
from anonymed.detect.lexicons.resources import NameLists
from anonymed.detect.patterns.addresses import DESIGNATORS_FR
from anonymed.detect.tagger.decode import label_runs, sentence_end
from anonymed.detect.tagger.model import OUTSIDE
from anonymed.detect.tokens import TaggerToken, capitalised, fold, word_set

#: the words that join the parts of a place's name after a hyphen ("Saint-Paul-lès-Dax", "Villers-sur-Mer",
#: "Châlons-en-Champagne"): a lower-case part after a hyphen is part of the name only if it is one of these
_PLACE_LINKS: Final = word_set("les lez sur sous en le la les de du des aux au et d l")


def join_hyphenated_places(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``LOCATION`` on the rest of a place's name joined to a tagged place by bare hyphens: capitalised
    parts and the links between them ("Saint-Paul" of "Saint-Paul-lès-Dax" had left "-lès-Dax" as text).
    French notes only: English ones join eponyms so ("Jackson-Pratt", where "Jackson" was read as a town)."""
    for _, last in label_runs(tokens, labels, "LOCATION"):
        end = last + 1
        while end < len(tokens) and _joined(tokens, end) and labels[end] == OUTSIDE:
            text = tokens[end].text
            if not (_name_part(text) or fold(text) in _PLACE_LINKS):
                break
            end += 1
        while end > last + 1 and not _name_part(tokens[end - 1].text):
            end -= 1  # a name ends with a capitalised part ("Saint-Paul-lès" alone is no name)
        labels[last + 1 : end] = ["LOCATION"] * (end - last - 1)


def _name_part(text: str) -> bool:
    """A capitalised part of a place's name, a letter alone excepted ("Roux-en-Y", "Ester-C")."""
    return len(text) > 1 and text[:1].isupper()


def _joined(tokens: Sequence[TaggerToken], index: int) -> bool:
    """Whether token ``index`` follows the one before it after a single hyphen, or after the apostrophe of an
    elided link ("Saint-Didier-au-Mont-d'Or"), no space."""
    token = tokens[index]
    if token.newline_before or token.start != tokens[index - 1].end + 1:
        return False
    return token.before == "-" or (token.before in ("'", "’") and fold(tokens[index - 1].text) in _ELIDED)


#: links written elided before a vowel, joined to the next part by an apostrophe ("d'Or", "l'Isle")
_ELIDED: Final = word_set("d l")


def trim_before_streets(tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists) -> None:
    """Untag the words a French place run holds right before its street ("Chute de trottinette rue
    Saint-Malo", "domicilié 5 rue de Fougères", "plain-pied, 12 chemin de Bellocq"): lower-case words that are
    no unit of an address, and a capitalised common word that opens a sentence; the street, its number and
    what follows stay tagged."""
    for first, last in label_runs(tokens, labels, "LOCATION"):
        street = _street_start(tokens, first, last)
        index = street - 1
        while index >= first and _common_before_street(tokens, index, lists):
            labels[index] = OUTSIDE
            index -= 1


def _street_start(tokens: Sequence[TaggerToken], first: int, last: int) -> int:
    """The first token of a run's street: its number ("28 bis", "sept"), or its street word; ``first`` when it
    has none."""
    for index in range(first + 1, last + 1):
        if fold(tokens[index].text) in STREET_TYPES_FR and tokens[index].text.islower():
            start = index
            while start > first and _house_number(tokens[start - 1].text):
                start -= 1
            return start
    return first


def _house_number(text: str) -> bool:
    """A house number, in digits or in words, or its suffix ("28", "sept", "bis")."""
    return text.isdigit() or fold(text) in _NUMBER_WORDS


#: French house numbers in words ("sept allée des roses") and their suffixes ("28 bis")
_NUMBER_WORDS: Final = word_set(
    "un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt "
    "trente quarante cinquante soixante cent bis ter quater"
)


def _common_before_street(tokens: Sequence[TaggerToken], index: int, lists: NameLists) -> bool:
    """A lower-case word that is no unit of an address, or a capitalised common word that is no first name
    opening its line or sentence ("Chute")."""
    token = tokens[index]
    text, key = token.text, fold(token.text)
    if not text.isalpha() or key in _ADDRESS_WORDS:
        return False
    if text.islower():
        return True
    opens = index == 0 or token.newline_before or "." in token.before
    return opens and capitalised(text) and lists.is_common(key, "fr") and key not in lists.first


#: lower-case words of a French address before its number: units ("bâtiment B, 5 rue..."), lieu-dit, streets
_ADDRESS_WORDS: Final = word_set(" ".join(DESIGNATORS_FR)) | word_set("lieu dit") | STREET_TYPES_FR


def end_places_at_sentence_end(tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists) -> None:
    """Untag the rest of a place run from a capitalised common word that opens the next sentence ("14 rue de
    la Convention. Aide à domicile": "Aide" had gone into the address and out of the text); a street type's
    abbreviation is no sentence end ("Ave. Boston")."""
    for first, last in label_runs(tokens, labels, "LOCATION"):
        for index in range(first + 1, last + 1):
            left, word = tokens[index - 1], tokens[index]
            if fold(left.text) in _STREET_ABBREVIATIONS or not sentence_end(left, word):
                continue
            if capitalised(word.text) and lists.is_common(fold(word.text), "fr"):
                labels[index : last + 1] = [OUTSIDE] * (last + 1 - index)
            break


#: street types that notes abbreviate with a period ("Ave.", "Blvd.", "Bd.", "Av.")
_STREET_ABBREVIATIONS: Final = STREET_TYPES_EN | STREET_TYPES_FR


#: a clock time as French and English notes write it: "14h30", "8h", "09H15"
_CLOCK: Final = re.compile(r"\d{1,2}[hH]\d{0,2}")


def drop_clock_times(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Untag a clock time tagged as a place, a name or a contact ("RDV le 9 décembre à 14h30": "14h30" had
    become the place "18l37"); a time of day identifies no one, and the date before it stays tagged."""
    for index, token in enumerate(tokens):
        if labels[index] in _NOT_TIMES and _CLOCK.fullmatch(token.text):
            labels[index] = OUTSIDE


_NOT_TIMES: Final = frozenset({"LOCATION", "NAME", "CONTACT"})
