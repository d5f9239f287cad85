"""Detection's two token views of a note (``NoteView.words`` and ``NoteView.tokens``), and word keys.

* words (``tokenize``): letters/digits with inner apostrophes, French elisions apart, each with a folded
  lookup key, a case shape and the gap to the next word: the unit of the lexicons, context rules, lists,
  known identifiers and pattern keywords;
* alphanumeric tokens (``alnum_tokens``, ``TOKEN_RE``): maximal runs of letters or digits, with the
  characters before each: the tagger's unit, and the evaluation's (``evaluate.tokens``), so that a tagged
  token is a scored token.

Word substitution cuts text otherwise (``embeddings.tokenize``: letters and digits apart, layout kept).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

#: a word: letters/digits, with inner apostrophes ("O'Rourke", "aujourd'hui"); hyphens split words
#: French elisions ("l'Hôpital", "d'Orge") are tokens of their own
_WORD: Final = re.compile(r"(?:[lLdDjJnNsScCmMtT]|[qQ]u)['’](?=[^\W\d_])|[^\W_]+(?:['’][^\W_]+)*")

#: shapes
UPPER: Final = 1  # "SMITH" (two or more letters, all upper case)
TITLE: Final = 2  # "Smith", "J", "O'Rourke"
LOWER: Final = 3  # "smith"
OTHER: Final = 4  # digits, "McDonald"-like mixtures, "3rd"


@lru_cache(maxsize=200_000)
def fold(word: str) -> str:
    """Lookup key of a word: case-folded, accents stripped, curly apostrophe made straight."""
    lowered = word.casefold().replace("’", "'")
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFKD", lowered)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _shape(word: str) -> int:
    if not word[0].isalpha():
        return OTHER
    if word.isupper():
        return UPPER if len(word) > 1 else TITLE
    if word.islower():
        return LOWER
    if word[0].isupper() and (word[1:].islower() or _title_parts(word)):
        return TITLE
    return OTHER


def _title_parts(word: str) -> bool:
    """'O'Rourke', 'McDonald', 'DeGiorgio': capitalised parts."""
    return all(part[:1].isupper() for part in re.split(r"['’]", word) if part)


class Token(NamedTuple):
    """One word of the text: offsets, surface, folded key, shape, and the characters around it."""

    start: int
    end: int
    text: str
    key: str
    shape: int
    dot: bool  # immediately followed by "."
    gap: str  # the non-word characters between this token and the next one (stripped of spaces)
    newline: bool  # a line break separates this token from the next one
    hyphen: bool  # the next token is attached by a bare hyphen ("Forman-Lyons", "Saint-Louis")


#: word -> (folded key, shape); words repeat a lot across notes, so both are computed once
_WORDS: dict[str, tuple[str, int]] = {}
_WORDS_MAX: Final = 500_000


def _describe(word: str) -> tuple[str, int]:
    found = _WORDS.get(word)
    if found is None:
        if len(_WORDS) >= _WORDS_MAX:
            _WORDS.clear()
        found = _WORDS[word] = (fold(word), _shape(word))
    return found


#: gaps met before: the gap string -> (dot, stripped gap, line break, bare hyphen)
_GAPS: dict[str, tuple[bool, str, bool, bool]] = {" ": (False, "", False, False)}


def tokenize(text: str) -> list[Token]:
    """The word tokens of ``text`` in order, with the gap that separates each from the next."""
    spans = [m.span() for m in _WORD.finditer(text)]
    spans.append((len(text), len(text)))
    tokens: list[Token] = []
    append = tokens.append
    gaps = _GAPS
    words = _WORDS
    for i in range(len(spans) - 1):
        start, end = spans[i]
        word = text[start:end]
        between = text[end : spans[i + 1][0]]
        described = words.get(word) or _describe(word)
        gap = gaps.get(between)
        if gap is None:
            stripped = between.strip()
            gap = (stripped[:1] == ".", stripped, "\n" in between, between == "-")
            if len(between) < 16 and len(gaps) < 10_000:
                gaps[between] = gap
        append(Token(start, end, word, described[0], described[1], *gap))
    return tokens


def capitalised(text: str) -> bool:
    """Whether ``text`` is written with a capital and lower-case letters after it ("Smith", not "SMITH")."""
    return text[:1].isupper() and text[1:].islower()


def word_set(text: str) -> frozenset[str]:
    """A vocabulary written as one whitespace-separated string (the keyword lists of the recognizers)."""
    return frozenset(text.split())


def upper_ratio(tokens: list[Token]) -> float:
    """Share of all-capital words among words of two or more letters (near 1.0 for notes in capitals)."""
    upper = lower = 0
    for token in tokens:
        if token.shape == UPPER:
            upper += 1
        elif token.shape != OTHER and len(token.text) > 1:
            lower += 1
    return upper / (upper + lower) if upper + lower else 0.0


#: an alphanumeric token (the tagger's and the evaluation's unit): a maximal run of letters or digits of any
#: script, no underscore
TOKEN_RE: Final = re.compile(r"[^\W_]+")


class TaggerToken(NamedTuple):
    """One alphanumeric token with its offsets and the characters that separate it from its neighbours."""

    start: int
    end: int
    text: str
    before: str  # the non-space characters between the previous token and this one (at most 3)
    newline_before: bool


#: gaps met before: the gap string -> (its non-space characters, at most three; whether it breaks a line)
_GAP_CACHE: dict[str, tuple[str, bool]] = {}


def alnum_tokens(text: str) -> list[TaggerToken]:
    """The alphanumeric tokens of ``text`` in order (the tagger's unit)."""
    tokens: list[TaggerToken] = []
    append = tokens.append
    cache = _GAP_CACHE
    previous_end = 0
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        gap = text[previous_end:start]
        described = cache.get(gap)
        if described is None:
            described = ("".join(gap.split())[:3], "\n" in gap)
            if len(gap) < 16 and len(cache) < 10_000:
                cache[gap] = described
        append(TaggerToken(start, end, text[start:end], described[0], described[1]))
        previous_end = end
    return tokens


def in_lower_case(tokens: Sequence[TaggerToken]) -> bool:
    """Whether a note is written in lower case: fewer than one word in fifty (and fewer than two) starts with
    a capital, so capitals say nothing about names (the threshold of the lexicons' "cased" test, counted over
    the tagger's tokens)."""
    words = capitals = 0
    for token in tokens:
        if token.text[0].isalpha():
            words += 1
            capitals += token.text[0].isupper()
    return capitals < max(2, words // 50)
