"""Decoding rules that complete or trim a tagged name: a listed first or last name next to it, a relative's
name after a relation word, a hyphenated surname, a name particle, and (French) the lower-case words at a
name's edges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from anonymed.detect.lexicons.context import RELATIVES
from anonymed.detect.lexicons.contexts_words import AMBIGUOUS_TITLES, TITLES
from anonymed.detect.lexicons.detector import LexiconParams
from anonymed.detect.lexicons.resources import NameLists, gazetteer
from anonymed.detect.tagger.decode import label_runs, sentence_end
from anonymed.detect.tagger.model import OUTSIDE
from anonymed.detect.tokens import TaggerToken, capitalised, fold, in_lower_case
from anonymed.substitute.fake.names import (  # the same words as the surrogates
    AGE_UNITS,
    BIRTH_OR_MARRIED,
    PARTICLES,
    SAINTS,
    is_staff_role,
)


def extend_names(tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str) -> None:
    """Tag ``NAME`` on a listed first name right before a tagged name, and on a listed last name right
    after one, when written in the same case and separated by spaces only ("NORA QUELL" when the model
    found "QUELL"): one part of a name found and the other not. A common word is no such name, except a
    capitalised surname right after a capitalised first name (``surname_after_given``)."""
    for index in range(len(tokens) - 1):
        left, right = tokens[index], tokens[index + 1]
        if right.before or right.newline_before or left.text.isupper() != right.text.isupper():
            continue
        if labels[index + 1] == "NAME" and labels[index] == OUTSIDE:
            candidate, names = index, lists.first
        elif labels[index] == "NAME" and labels[index + 1] == OUTSIDE:
            candidate, names = index + 1, lists.last
        else:
            continue
        word = tokens[candidate].text
        key = fold(word)
        if len(key) < 2 or not word.isalpha() or key not in names:
            continue
        if not lists.is_common(key, lang) or (candidate > index and surname_after_given(left, right, lists)):
            labels[candidate] = "NAME"


#: the lexicons' gazetteer floor, read once
_MIN_CITY_POPULATION: Final = LexiconParams().min_city_population


def relatives_named(
    tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str
) -> set[str]:
    """Tag ``NAME`` on a capitalised word right after a relation word ("roommate Caitlin", "Daughter-in-law
    Priyanka", "son Michael") when it is a listed first name or no common word; their folded words."""
    named: set[str] = set()
    places = gazetteer(_MIN_CITY_POPULATION).index
    for index in range(1, len(tokens)):
        word = tokens[index]
        if word.newline_before or word.before not in _RELATION_GAPS or not capitalised(word.text):
            continue
        key = fold(word.text)
        if len(key) < 2 or not word.text.isalpha() or (key not in lists.first and lists.is_common(key, lang)):
            continue
        plain = labels[index] == OUTSIDE and not word.before
        if not plain and not _first_name_not_place(labels, index, key, lists, places):
            continue  # "fille, Aminata", "épouse : Nadia", where the model read a place
        if _relation_before(tokens, index):
            labels[index] = "NAME"
            named.add(key)
    return named


def staff_named(tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str) -> set[str]:
    """Tag ``NAME`` on a capitalised listed first name that is no common word right after a staff role
    ("interpreter Olga", "PCA Keisha"); their folded words."""
    named: set[str] = set()
    for index in range(1, len(tokens)):
        word, role = tokens[index], tokens[index - 1]
        if not is_staff_role(role.text) or labels[index] != OUTSIDE or word.before or word.newline_before:
            continue
        if not capitalised(word.text):
            continue
        _tag_first_name(word, index, labels, lists, lang, named)
    return named


#: the shortest first name tagged without context in a note written in lower case ("ann", "ina", "tod" and
#: "fem" read as text more often than as names)
LOWER_NOTE_MIN_LETTERS: Final = 5


def lower_note_first_names(
    tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str
) -> set[str]:
    """In a note written in lower case, tag ``NAME`` on a listed first name of five letters or more that is no
    common word ("family discussed this janet"): capitals cannot show it there; their folded words."""
    named: set[str] = set()
    if not in_lower_case(tokens):
        return named
    for index, word in enumerate(tokens):
        if labels[index] == OUTSIDE and len(word.text) >= LOWER_NOTE_MIN_LETTERS and word.text.isalpha():
            _tag_first_name(word, index, labels, lists, lang, named)
    return named


def _tag_first_name(
    word: TaggerToken, index: int, labels: list[str], lists: NameLists, lang: str, named: set[str]
) -> None:
    """Tag ``NAME`` on token ``index`` if it is a listed first name that is no common word; note its key."""
    key = fold(word.text)
    if key in lists.first and not lists.is_common(key, lang):
        labels[index] = "NAME"
        named.add(key)


#: what may stand between a relation word and the name: nothing, a comma ("sa fille, Aminata"), a colon
_RELATION_GAPS: Final = frozenset({"", ",", ":"})


def _first_name_not_place(
    labels: list[str], index: int, key: str, lists: NameLists, places: Mapping[str, object]
) -> bool:
    """A listed first name or no gazetteer place, untagged or a place of one word."""
    return (key in lists.first or key not in places) and _alone_as(labels, index, "LOCATION", OUTSIDE)


def _alone_as(labels: list[str], index: int, *allowed: str) -> bool:
    """Whether token ``index`` has one of ``allowed`` and is a run of one (its neighbours' labels differ)."""
    if labels[index] not in allowed:
        return False
    same = labels[index]
    before = labels[index - 1] if index > 0 else OUTSIDE
    after = labels[index + 1] if index + 1 < len(labels) else OUTSIDE
    return same == OUTSIDE or (before != same and after != same)


def _relation_before(tokens: Sequence[TaggerToken], index: int) -> bool:
    """Whether a relation word ends right before token ``index`` ("son", "daughter-in-law")."""
    before = index - 1
    in_law = before >= 2 and fold(tokens[before].text) == "law" and fold(tokens[before - 1].text) == "in"
    if in_law and tokens[before].before == "-" and tokens[before - 1].before == "-":
        before -= 2
    return fold(tokens[before].text) in RELATIVES and not tokens[before].text.isupper()


def married_names(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a capitalised word right after "née" / "épouse" / "veuve" that follows a tagged name or
    that the model read as a place ("Jeanne Martin née Dupuis": "née Dupuis" had become a village); the word
    "née" itself is text."""
    for index in range(1, len(tokens) - 1):
        word, name = tokens[index], tokens[index + 1]
        if word.text not in BIRTH_OR_MARRIED or not capitalised(name.text):
            continue
        if name.newline_before or name.before or labels[index + 1] == "NAME":
            continue
        after_name = labels[index - 1] == "NAME" and not word.newline_before
        if after_name or (labels[index + 1] == "LOCATION" and _alone_as(labels, index + 1, "LOCATION")):
            labels[index + 1] = "NAME"
            if labels[index] == "LOCATION":
                labels[index] = OUTSIDE
        elif labels[index + 1] == "LOCATION" and labels[index] == "LOCATION":  # "née Dupuis" one place
            end = index + 2
            if end >= len(tokens) or labels[end] != "LOCATION":
                labels[index], labels[index + 1] = OUTSIDE, "NAME"


def titled_places_named(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a place run right after a person's title on its line ("Dr. St. John", "Mr. Boston"): a
    title names a person (ambiguous titles only as written for one, "Ms", not "MS" for mental status); and on
    a saint and one word right after a name ("John St. Clair")."""
    for first, last in label_runs(tokens, labels, "LOCATION"):
        title = tokens[first - 1] if first > 0 else None
        if title is None or tokens[first].newline_before or tokens[first].before not in ("", "."):
            continue
        key = fold(title.text)
        written = not (key in AMBIGUOUS_TITLES and title.text.isupper())
        titled = labels[first - 1] == OUTSIDE and key in TITLES and written
        sainted = labels[first - 1] == "NAME" and last == first + 1 and fold(tokens[first].text) in SAINTS
        if titled or sainted:
            end = first
            while end < last and not sentence_end(tokens[end], tokens[end + 1]):
                end += 1  # "Dr. St. John. Transport by cab": the name ends with its sentence
            labels[first : end + 1] = ["NAME"] * (end + 1 - first)


def join_hyphenated(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a capitalised word joined by a bare hyphen to a tagged name ("Nguyen-Le", "Al-Hassan"):
    one surname, whose short part ("Le", "Al") the model reads as a common word."""
    for index in range(len(tokens) - 1):
        left, right = tokens[index], tokens[index + 1]
        if right.before != "-" or right.newline_before or right.start != left.end + 1:
            continue
        pair = (labels[index], labels[index + 1])
        if pair == ("NAME", OUTSIDE) and capitalised(right.text):
            labels[index + 1] = "NAME"
        elif pair == (OUTSIDE, "NAME") and capitalised(left.text):
            labels[index] = "NAME"


def join_breton_ch(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on the "h" of a Breton "c'h" that ends a tagged name ("Le Floc'h", "Le Goarnic'h"): the
    apostrophe split the word, and "Le Floc" alone had left "'h" after its surrogate."""
    for index in range(1, len(tokens)):
        word, head = tokens[index], tokens[index - 1]
        if labels[index - 1] != "NAME" or labels[index] != OUTSIDE or word.text not in ("h", "H"):
            continue
        if word.before in ("'", "’") and word.start == head.end + 1 and head.text[-1:] in ("c", "C"):
            labels[index] = "NAME"


def named_before_age(
    tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str
) -> set[str]:
    """Tag ``NAME`` on a capitalised listed first name that is no common word right before an age ("deux
    enfants (Léa 9 ans, Hugo 6 ans)", "son Ethan 12 yo"); their folded words."""
    named: set[str] = set()
    for index in range(len(tokens) - 2):
        word, number, unit = tokens[index], tokens[index + 1], tokens[index + 2]
        if labels[index] != OUTSIDE or not capitalised(word.text) or number.before or unit.before:
            continue
        if not number.text.isdigit() or len(number.text) > 3 or fold(unit.text) not in _AGE_UNITS:
            continue
        _tag_first_name(word, index, labels, lists, lang, named)
    return named


_AGE_UNITS: Final = frozenset(AGE_UNITS)


def bridge_particles(tokens: Sequence[TaggerToken], labels: list[str]) -> None:
    """Tag ``NAME`` on a name particle after a tagged name and the capitalised word after it: a lower-case
    particle ("Abdullah bin Rashid", "Maria del Carmen": the model had read "Rashid" as a place) or a
    capitalised one that is a particle only ("Siobhan Ni Bhriain", "Ahmed Al Mansouri"; the model may
    have tagged the particle and not the family name)."""
    for index in range(1, len(tokens) - 1):
        particle, word = tokens[index], tokens[index + 1]
        if labels[index - 1] != "NAME" or labels[index + 1] not in _BRIDGED:
            continue
        lower = labels[index] == OUTSIDE and particle.text in PARTICLES
        upper = labels[index] in _BRIDGED_PARTICLE and particle.text in CAPITAL_PARTICLES
        joined = not (particle.before or word.before or particle.newline_before or word.newline_before)
        if joined and (lower or upper) and capitalised(word.text):
            labels[index] = labels[index + 1] = "NAME"


#: the labels a word after a name particle may have been given instead of a name
_BRIDGED: Final = frozenset({OUTSIDE, "LOCATION"})
_BRIDGED_PARTICLE: Final = frozenset({OUTSIDE, "NAME"})
#: capitalised particles of Irish ("Ní", "Nic", "Ó", "Ua", "Uí", "Mac") and Arabic ("Al", "El", "Abu")
#: family names, written between a given name and the family name; not words of English or French
CAPITAL_PARTICLES: Final = frozenset({"Ní", "Ni", "Nic", "Ó", "Ua", "Uí", "Mac", "Al", "El", "Abu"})


def surname_after_given(given: TaggerToken, word: TaggerToken, lists: NameLists) -> bool:
    """Whether ``word`` reads as the surname of the listed first name before it, though also a common word:
    both capitalised, not in capitals ("Amanda Liu", "Jim Wu", "Jennifer Ho"; not "JIM WU" or "Amanda will").

    Surnames frequent worldwide are common words by their frequency alone ("liu", "wu", "chen", "singh");
    after a first name written alike they are the name.
    """
    return (
        capitalised(given.text)
        and capitalised(word.text)
        and fold(given.text) in lists.first
        and fold(word.text) in lists.last
    )


def trim_lower_edges(tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str) -> None:
    """Untag the lower-case common words at the edges of a tagged name (a run on one line) that holds a
    capitalised word: in "son voisin M. Lopez passe" the name is "M. Lopez" ("voisin", "passe" are text)."""
    for first, last in label_runs(tokens, labels, "NAME"):
        run = list(range(first, last + 1))
        if any(tokens[i].text[:1].isupper() for i in run):
            if len(run) > 1 and _relation_word(tokens[run[0]], lists):
                labels[run.pop(0)] = OUTSIDE  # "Épouse Monique" at a sentence start
            while run and _lower_common(tokens[run[0]], lists, lang):
                labels[run.pop(0)] = OUTSIDE
            while run and _lower_common(tokens[run[-1]], lists, lang):
                labels[run.pop()] = OUTSIDE


def drop_common_headings(
    tokens: Sequence[TaggerToken], labels: list[str], lists: NameLists, lang: str
) -> None:
    """Untag a name of two words or more in capitals (initials aside) whose every word is a common word and no
    listed name: a heading ("COMPTE RENDU D'HOSPITALISATION" had become "NICOLE MARIE DA COSTA")."""
    for first, last in label_runs(tokens, labels, "NAME"):
        words = [tokens[i].text for i in range(first, last + 1)]
        if not all(word.isupper() for word in words if word.isalpha()):
            continue
        keys = [fold(word) for word in words if len(word) > 1]  # initials ("C.-R") are no words
        if len(keys) < 2:
            continue
        if all(lists.is_common(key, lang) and not lists.is_name(key) for key in keys):
            labels[first : last + 1] = [OUTSIDE] * (last + 1 - first)


def _relation_word(token: TaggerToken, lists: NameLists) -> bool:
    """A capitalised word for a relative that is no listed name ("Épouse", "Fille"; not "Fils"-like names)."""
    key = fold(token.text)
    return capitalised(token.text) and key in RELATIVES and not lists.is_name(key)


def _lower_common(token: TaggerToken, lists: NameLists, lang: str) -> bool:
    """A lower-case common word or word for a relative ("voisin" is a surname too); in English of three
    letters or more (a typo splits a surname as often: "Mr. Bweighou se is"), or of four letters or more that
    no name list holds ("Marcus Hook refinery": a word too rare for the common-word list)."""
    text = token.text
    key = fold(text)
    if lang == "en" and len(text) < 3:
        return False
    if not (text.isalpha() and text.islower()):
        return False
    unlisted = lang == "en" and len(text) >= 4 and not lists.is_name(key)
    return key in RELATIVES or lists.is_common(key, lang) or unlisted
