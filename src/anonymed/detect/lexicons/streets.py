"""Streets of the lexicon detector: English and French street addresses, a street named without its number
("on Clark St"), and the plain street shape the tagger trusts."""

from __future__ import annotations

import re
from typing import Final

from anonymed.detect.lexicons import context as cx
from anonymed.detect.lexicons.names import NO, View
from anonymed.detect.lexicons.places import LINKS, Hit, name_word
from anonymed.detect.lexicons.resources import NameLists
from anonymed.detect.patterns.addresses import DIRECTIONAL_ABBREVIATIONS, DIRECTIONAL_WRITTEN, DIRECTIONALS
from anonymed.detect.tokens import TITLE, UPPER, word_set


def street_hits(view: View, lists: NameLists) -> list[Hit]:
    """``12 rue de la Paix``, ``47 bis, boulevard de l'Hôpital``, ``123 Main Street``."""
    hits: list[Hit] = []
    tokens = view.tokens
    for i, token in enumerate(tokens):
        if not token.text[0].isdigit() or not token.text.replace("-", "").isdigit() or len(token.text) > 5:
            continue
        j = i + 1
        if j < len(tokens) and tokens[j].key in cx.NUMBER_SUFFIXES and not tokens[i].newline:
            j += 1
        if j >= len(tokens) or tokens[j - 1].newline or tokens[j - 1].gap not in ("", ","):
            continue
        hit = _street_fr(view, i, j, lists) or _street_en(view, i, j, lists)
        if hit is not None:
            hits.append(hit)
    return hits


def _street_fr(view: View, start: int, j: int, lists: NameLists) -> Hit | None:
    if view.tokens[j].key not in cx.STREET_TYPES_FR:
        return None
    end = j + 1
    while end < len(view.tokens) and end - j <= 7 and view.joined(end - 1):
        if not name_word(view, end, lists, loose=True) or view.tokens[end].text.isdigit():
            break
        end += 1
    while end > j + 1 and view.tokens[end - 1].key in LINKS:
        end -= 1
    if end == j + 1:
        return None
    return (start, end, 0.85, "street")


_STRICT_TYPES: Final = word_set("dr ct st pl way close walk route row ter av")


def _strict_word(view: View, i: int) -> bool:
    """Before an ambiguous street type ("St", "Dr", "Ct"): a capitalised word, not a common one if uncased."""
    return view.tokens[i].shape == TITLE if view.cased else view.kinds[i] != NO


def _street_en(view: View, start: int, j: int, lists: NameLists) -> Hit | None:
    """``123 Main Street``; a directional before the name ("12 NE Peachtree Pl") or after the type."""
    hit = _street_en_name(view, start, j, lists)
    if hit is None and _directional(view, j, DIRECTIONALS) and view.joined(j):
        hit = _street_en_name(view, start, j + 1, lists)
    if hit is None:
        return None
    after = hit[1]
    last = view.tokens[after - 1]
    if (
        after < len(view.tokens)
        and not last.newline
        and last.gap == ""
        and _directional(view, after, DIRECTIONAL_ABBREVIATIONS)  # "Peachtree Pl NE"
    ):
        return (start, after + 1, hit[2], hit[3])
    return hit


def _directional(view: View, i: int, words: frozenset[str]) -> bool:
    """Whether token ``i`` is a directional of ``words`` (capitalised or in capitals if the note is cased)."""
    token = view.tokens[i]
    return token.key in words and (not view.cased or token.shape in (TITLE, UPPER))


def _street_en_name(view: View, start: int, j: int, lists: NameLists) -> Hit | None:
    for end in range(j, min(j + 5, len(view.tokens))):
        if end > j and not view.joined(end - 1):
            return None
        token = view.tokens[end]
        if token.key in cx.STREET_TYPES_EN and end > j:
            words = range(j, end)
            if token.key in _STRICT_TYPES and not all(_strict_word(view, w) for w in words):
                return None
            return (start, end + 1, 0.8, "street")
        if not name_word(view, end, lists, loose=view.cased) or token.text.isdigit():
            return None
    return None


#: words before a street named without its number ("Walgreens on Clark St", "lives off Elm Road")
_STREET_CUES: Final = word_set("on off along near")
#: a street written as a mixed-case note writes one: an optional number, one to three capitalised words, a
#: street type that names streets only ("4030 Bee Ridge Rd", "Clark St"; not "294,Dear Dr" or "000Units SQ"),
#: a directional before the name or after the type ("12 NE Elm St", "12 Elm St SW")
_PLAIN_STREET: Final = re.compile(
    rf"(?:\d{{1,6}}[A-Z]? )?(?:{DIRECTIONAL_WRITTEN}\.? )?(?:[A-Z][a-z'’]+ ){{1,3}}([A-Z][a-z]+)\.?"
    rf"(?: {DIRECTIONAL_WRITTEN})?"
)


def plain_street(text: str) -> bool:
    """Whether a street found by the lexicon rules is written plainly enough to be trusted as found."""
    match = _PLAIN_STREET.fullmatch(text)
    return match is not None and match.group(1).lower() in cx.NAMING_STREET_TYPES


def named_street_hits(view: View, lists: NameLists) -> list[Hit]:
    """``on Clark St``, ``off Elm Road``: one to three capitalised words and a street type after a cue, in
    an English note that mixes cases; not ``St`` before a first name ("on St. Luke's")."""
    hits: list[Hit] = []
    if not view.cased or view.lang != "en":
        return hits
    tokens = view.tokens
    for i, token in enumerate(tokens):
        if token.key not in _STREET_CUES or token.newline or token.gap:
            continue
        for end in range(i + 2, min(i + 5, len(tokens))):  # the type at ``end``, one to three words before
            if not view.joined(end - 1) or tokens[end - 1].shape != TITLE:
                break
            if tokens[end].shape == TITLE and tokens[end].key in cx.NAMING_STREET_TYPES:
                if _names_street(view, end, lists):
                    hits.append((i + 1, end + 1, 0.7, "street"))
                break
    return hits


def _names_street(view: View, type_index: int, lists: NameLists) -> bool:
    """Whether the street type at ``type_index`` ends the name: no first name after "St" ("St. Luke")."""
    if view.tokens[type_index].key != "st" or type_index + 1 >= len(view.tokens):
        return True
    after = view.tokens[type_index + 1]
    return after.shape != TITLE or after.key.removesuffix("'s") not in lists.first
