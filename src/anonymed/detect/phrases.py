"""Phrases found as whole words among a note's word tokens (``NoteView.words``), indexed by their first word.

One matcher serves the allow and deny lists, the site's rosters and the record's known identifiers: a
phrase is a tuple of word keys; each text token offers one or more keys (its own, its possessive-less
form, a known word it is a light typo of), and a phrase matches consecutive tokens whose keys equal its
words. Finding every phrase costs one dictionary look-up per token plus the candidates that start with it,
whatever the number of phrases.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Generic, TypeVar

from anonymed.detect.tokens import Token, fold, tokenize

P = TypeVar("P")

#: how a word's key is made: ``fold`` (case and accents folded), ``case`` (case folded), ``exact``
KEY_MODES: Final = ("fold", "case", "exact")
_POSSESSIVE: Final = ("'s", "’s", "'S", "’S")
#: the separators words of a phrase may have between them in the text besides white space (``word`` mode)
_LOOSE_GAPS: Final = frozenset({"", "-"})


def word_key(text: str, mode: str) -> str:
    """The key of one word under ``mode``."""
    if mode == "fold":
        return fold(text)
    return text.casefold() if mode == "case" else text


def phrase_words(text: str) -> list[Token]:
    """The word tokens of a phrase (the same tokenizer as the note's)."""
    return tokenize(text)


def token_keys(token: Token, mode: str) -> Iterator[tuple[str, int]]:
    """The keys a text token offers and where each ends: its own, and without a possessive ``'s``."""
    key = token.key if mode == "fold" else word_key(token.text, mode)
    yield key, token.end
    if len(token.text) > 3 and token.text.endswith(_POSSESSIVE):
        yield key[:-2], token.end - 2


@dataclass(frozen=True)
class Phrase(Generic[P]):
    """A phrase's word keys, the separators it was written with (for ``exact``), and what it stands for."""

    keys: tuple[str, ...]
    payload: P
    gaps: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Match(Generic[P]):
    """A phrase found at characters ``start:end`` of the text, over tokens ``first`` to ``last``."""

    start: int
    end: int
    first: int
    last: int
    payload: P


#: a function giving the keys (and end offsets) a text token offers
KeyFn = Callable[[Token], Iterable[tuple[str, int]]]


class PhraseIndex(Generic[P]):
    """Phrases indexed by their first key; ``find`` yields every occurrence among a note's tokens."""

    def __init__(self, mode: str = "fold") -> None:
        self.mode = mode
        self._index: dict[str, list[Phrase[P]]] = defaultdict(list)

    def __len__(self) -> int:
        return sum(len(items) for items in self._index.values())

    def add(self, text: str, payload: P, *, exact_gaps: bool = False) -> bool:
        """Index the phrase ``text``; False when it holds no word."""
        words = phrase_words(text)
        if not words:
            return False
        keys = tuple(word_key(w.text, self.mode) for w in words)
        gaps = tuple(text[a.end : b.start] for a, b in pairwise(words))
        self.add_keys(keys, payload, gaps if exact_gaps else None)
        return True

    def add_keys(self, keys: Sequence[str], payload: P, gaps: tuple[str, ...] | None = None) -> None:
        """Index a phrase given as its word keys."""
        if keys:
            self._index[keys[0]].append(Phrase(tuple(keys), payload, gaps))

    def find(self, text: str, words: Sequence[Token], key_fn: KeyFn | None = None) -> Iterator[Match[P]]:
        """Every occurrence of an indexed phrase in ``text`` (tokenized as ``words``)."""
        keys_of = key_fn or (lambda token: token_keys(token, self.mode))
        offered = [list(keys_of(token)) for token in words]
        for first, options in enumerate(offered):
            for key, end in options:
                for phrase in self._index.get(key, ()):
                    last = _extend(text, words, offered, first, end, phrase)
                    if last is not None:
                        yield Match(words[first].start, last[1], first, last[0], phrase.payload)


def _extend(
    text: str,
    words: Sequence[Token],
    offered: Sequence[Sequence[tuple[str, int]]],
    first: int,
    end: int,
    phrase: Phrase[P],
) -> tuple[int, int] | None:
    """The last token and end offset of ``phrase`` read from token ``first`` (ending at ``end``), or None."""
    position = first
    for index, key in enumerate(phrase.keys[1:]):
        if end != words[position].end:  # a possessive form ends the phrase
            return None
        following = position + 1
        if following >= len(words):
            return None
        between = text[words[position].end : words[following].start]
        if phrase.gaps is not None:
            if between != phrase.gaps[index]:
                return None
        elif between.strip() not in _LOOSE_GAPS:
            return None
        ends = [e for k, e in offered[following] if k == key]
        if not ends:
            return None
        position, end = following, ends[0]
    return position, end
