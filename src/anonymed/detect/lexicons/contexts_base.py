"""The words of one English note as the context rules read them: name words, listed names, sentence starts."""

from __future__ import annotations

from collections.abc import Callable

from anonymed.detect.lexicons.context import FUNCTION_WORDS
from anonymed.detect.lexicons.contexts_words import (
    FIELD_LABELS,
    ROLE_WORDS,
)
from anonymed.detect.lexicons.resources import NameLists
from anonymed.detect.tokens import LOWER, UPPER, Token
from anonymed.labels import Label

#: a hit: (first word, end word exclusive, label, subtype, rule)
Hit = tuple[int, int, Label, str | None, str]


class RuleWords:
    """The words of one note and what the rules ask of each (shared by the name and place rules)."""

    def __init__(self, text: str, tokens: list[Token], lists: NameLists, lang: str, caps: bool) -> None:
        self.text = text
        self.tokens = tokens
        self.lists = lists
        self.lang = lang
        self.caps = caps
        self.cased = not self.caps and any(t.shape not in (LOWER, UPPER) for t in tokens)

    def common(self, i: int) -> bool:
        """Whether word i is a common word of the note's language (its possessive "'s" aside)."""
        return self.lists.is_common(self.tokens[i].key.removesuffix("'s"), self.lang)

    def joined(self, i: int) -> bool:
        """Whether word i and word i+1 are on one line, separated by a space, a hyphen or an initial's dot."""
        token = self.tokens[i]
        if token.newline or i + 1 >= len(self.tokens):
            return False
        return token.gap == "" or token.hyphen or (token.gap == "." and len(token.text) == 1)

    def name_word(self, i: int, *, loose: bool = False) -> bool:
        """Whether word i can be (part of) a person's name here."""
        token = self.tokens[i]
        key = token.key.removesuffix("'s")
        if not key.replace("'", "").replace("-", "").isalpha() or key in FUNCTION_WORDS or key in ROLE_WORDS:
            return False
        if key in FIELD_LABELS:
            return False
        if len(key) == 1:
            return token.text.isupper() or token.dot or loose
        if not self.caps and token.shape == LOWER and not loose and self.common(i):
            return False
        return loose or not self.common(i)

    def listed(self, i: int) -> bool:
        """Whether word i is a listed first or last name."""
        return self.lists.is_name(self.tokens[i].key.removesuffix("'s"))

    def sentence_start(self, i: int) -> bool:
        """Whether word i opens its line or a sentence."""
        if i == 0 or self.tokens[i - 1].newline:
            return True
        previous = self.tokens[i - 1]
        if (previous.gap == "." and len(previous.key) == 1) or previous.hyphen:
            return False  # after an initial ("D. Phyl") or inside a hyphenated name ("Stord-Painter")
        return previous.gap[-1:] in (".", ":", ";", "!", "?", "-", "*", "/", "(")

    def strong(self, i: int) -> bool:
        """A name word that looks like one: listed, long, or capitalised inside a sentence of a cased note."""
        if not self.name_word(i):
            return False
        token = self.tokens[i]
        if self.cased and token.shape == LOWER:
            return False  # a note that capitalises names would have capitalised this one
        if self.listed(i) or len(token.key) >= 5:
            return True
        return self.cased and token.shape != LOWER and not self.sentence_start(i)

    def name_from(self, i: int, *, loose: bool = False, limit: int = 3) -> int:
        """End (exclusive) of the name starting at word i: an initial and up to ``limit`` words."""
        end = i
        while end < len(self.tokens) and end - i < limit and self.name_word(end, loose=loose and end == i):
            if len(self.tokens[end].key) > 1:
                loose = False
            end += 1
            if not self.joined(end - 1):
                break
        return self.without_final_initials(i, end)

    def without_final_initials(self, start: int, end: int) -> int:
        """``end`` moved back over the initials a run of words ends on: a name does not end on an initial."""
        while end > start and len(self.tokens[end - 1].key) == 1:
            end -= 1
        return end

    def joined_run(self, start: int, most: int, word: Callable[[int], bool]) -> int:
        """End of a run of at most ``most`` tokens from ``start`` passing ``word``, each joined onward."""
        stop = start
        while stop < len(self.tokens) and stop - start < most and word(stop):
            stop += 1
            if not self.joined(stop - 1):
                break
        return stop
