"""Tokens and CRF features of the PHI tagger: word shape, affixes, lexicon membership, context."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from anonymed.detect.lexicons.tokens import fold
from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.triggers import context_features, trigger_classes
from anonymed.document import Span

#: tagger tokens are the evaluation's tokens: maximal alphanumeric runs
TOKEN_RE: Final = re.compile(r"[^\W_]+")

#: how many neighbours on each side contribute their word features
WINDOW: Final = 2
_OFFSETS: Final = tuple(offset for offset in range(-WINDOW, WINDOW + 1) if offset)

_SHAPE_RUNS: Final = re.compile(r"(.)\1+")


class TaggerToken(NamedTuple):
    """One alphanumeric token with its offsets and the characters that separate it from its neighbours."""

    start: int
    end: int
    text: str
    before: str  # the non-space characters between the previous token and this one (at most 3)
    newline_before: bool


def tokenize(text: str) -> list[TaggerToken]:
    """The tagger's tokens of ``text`` in order."""
    tokens: list[TaggerToken] = []
    previous_end = 0
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        gap = text[previous_end:start]
        tokens.append(TaggerToken(start, end, match.group(), "".join(gap.split())[:3], "\n" in gap))
        previous_end = end
    return tokens


def _shape(word: str) -> str:
    """Compressed character classes: ``Xx``, ``X``, ``x``, ``d``, ``Xd``, ``xXx``..."""
    classes = "".join(
        "X" if c.isupper() else "x" if c.isalpha() else "d" if c.isdigit() else "o" for c in word
    )
    return _SHAPE_RUNS.sub(r"\1", classes)


def case_of(word: str) -> str:
    """The case class of a word: digit, upper, initial, lower, title or mixed."""
    if word.isdigit():
        return "digit"
    if word.isupper():
        return "upper" if len(word) > 1 else "initial"
    if word.islower():
        return "lower"
    if word[0].isupper() and word[1:].islower():
        return "title"
    return "mixed"


def _length(word: str) -> str:
    size = len(word)
    return str(size) if size < 5 else "5-6" if size < 7 else "7+"


def _digits(word: str) -> list[str]:
    value = int(word) if len(word) < 7 and word.isdecimal() else -1  # '¹'.isdigit() but int('¹') fails
    features = [f"nd={len(word)}"]
    if 1 <= value <= 12:
        features.append("num=month")
    elif 13 <= value <= 31:
        features.append("num=day")
    elif len(word) == 4 and 1900 <= value <= 2099:
        features.append("num=year")
    elif len(word) == 2:
        features.append("num=2d")
    return features


@dataclass(frozen=True)
class FeatureLexicons:
    """Word lists (folded keys) whose membership is a feature: names, places, common words..."""

    sets: Mapping[str, frozenset[str]]

    def memberships(self, key: str) -> list[str]:
        """``lex=<name>`` for every list holding ``key``."""
        return [f"lex={name}" for name, words in self.sets.items() if key in words]


class WordFeatures(NamedTuple):
    """The cached features of one word: its own, and the prefixed copies its neighbours take."""

    own: tuple[str, ...]
    case_key: str  # ``case=<upper|title|lower|initial|digit|mixed>``
    around: Mapping[int, tuple[str, ...]]  # offset -> features this word gives the token at -offset
    triggers: tuple[str, ...]  # the context-word classes of the word (see ``tagger.triggers``)


def _around(own: tuple[str, ...]) -> dict[int, tuple[str, ...]]:
    packs: dict[int, tuple[str, ...]] = {}
    lexicon = [f for f in own[2:] if f.startswith(("lex=", "cl"))]
    for offset in _OFFSETS:
        if offset:
            extra = lexicon if abs(offset) == 1 else []
            packs[offset] = tuple(f"{offset}:{f}" for f in (own[0], own[1], *extra))
    return packs


class Featurizer:
    """Turns a text into tokens and one list of string features per token (cached per word)."""

    def __init__(
        self, lexicons: FeatureLexicons, clusters: WordClusters | None = None, *, triggers: bool = False
    ) -> None:
        self.lexicons = lexicons
        self.clusters = clusters
        self.triggers = triggers
        self._cache: dict[str, WordFeatures] = {}

    def word_features(self, word: str) -> WordFeatures:
        """Features of the word alone (identity, shape, affixes, lexicons), cached."""
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        key = fold(word)
        features = [f"w={key}", f"case={case_of(word)}", f"shape={_shape(word)}", f"len={_length(word)}"]
        if word.isdigit():
            features.extend(_digits(word))
        elif len(key) > 3:
            features.extend((f"p3={key[:3]}", f"s3={key[-3:]}", f"s2={key[-2:]}"))
        features.extend(self.lexicons.memberships(key))
        if self.clusters is not None and not word.isdigit():
            features.extend(self.clusters.features(word))
        own = tuple(features)
        result = WordFeatures(own, own[1], _around(own), trigger_classes(word))
        if len(self._cache) < 500_000:
            self._cache[word] = result
        return result

    def featurize(self, tokens: Sequence[TaggerToken], hints: Sequence[Span] = ()) -> list[list[str]]:
        """The feature list of each token (own features plus neighbours', prefixed by offset).

        ``hints`` are spans of other detectors: each token they cover gets ``hint=<source>:<label>``.
        """
        words = [self.word_features(token.text) for token in tokens]
        marks = hint_marks(tokens, hints)
        doc_case = "doc=caps" if mostly_upper(tokens) else "doc=mixed"
        rows: list[list[str]] = []
        classes = [w.triggers for w in words] if self.triggers else []
        last = len(tokens) - 1
        for index, token in enumerate(tokens):
            row = ["bias", doc_case, f"{doc_case}|{words[index].case_key}", f"gap<{token.before}"]
            if token.newline_before or index == 0:
                row.append("line_start")
            if index < last:
                row.append(f"gap>{tokens[index + 1].before}")
                if tokens[index + 1].newline_before:
                    row.append("line_end")
            else:
                row.append("doc_end")
            row.extend(words[index].own)
            _add_context(row, words, tokens, index)
            if classes:
                row.extend(context_features(classes, index, words[index].case_key))
            if marks:
                _add_hints(row, marks, index)
            rows.append(row)
        return rows


_PADS: Final = {offset: f"{offset}:pad" for offset in _OFFSETS}


def _add_context(
    row: list[str], words: Sequence[WordFeatures], tokens: Sequence[TaggerToken], i: int
) -> None:
    size = len(tokens)
    append, extend = row.append, row.extend
    for offset in _OFFSETS:
        j = i + offset
        if 0 <= j < size:
            extend(words[j].around[offset])
            if offset == 1 or offset == -1:
                append(f"{offset}:gap<{tokens[j].before}")
        else:
            append(_PADS[offset])
    word = words[i].own[0]
    if i > 0:
        append(f"bigram<{words[i - 1].own[0]}|{word}")
    if i + 1 < size:
        append(f"bigram>{word}|{words[i + 1].own[0]}")


def hint_marks(tokens: Sequence[TaggerToken], hints: Sequence[Span]) -> dict[int, list[str]]:
    """Token index -> ``source:LABEL`` of the hint spans covering it."""
    if not hints:
        return {}
    starts = [token.start for token in tokens]
    ends = [token.end for token in tokens]
    marks: dict[int, list[str]] = {}
    for span in hints:
        first, last = bisect_right(ends, span.start), bisect_left(starts, span.end)
        source = span.source.split("+")[0]
        for index in range(first, last):
            marks.setdefault(index, []).append(f"{source}:{span.full_label}")
    return marks


def _add_hints(row: list[str], marks: Mapping[int, list[str]], i: int) -> None:
    for offset in (-1, 0, 1):
        for mark in marks.get(i + offset, ()):
            row.append(f"{offset}:hint={mark}")
            if offset == 0:
                row.append(f"hint={mark.split('/')[0]}")


def mostly_upper(tokens: Sequence[TaggerToken]) -> bool:
    """Whether the note is written in capitals (upper-case words outnumber the others two to one)."""
    upper = lower = 0
    for token in tokens:
        word = token.text
        if len(word) > 1 and word.isalpha():
            if word.isupper():
                upper += 1
            else:
                lower += 1
    return upper > 2 * lower
