"""Tokens and CRF features of the PHI tagger: word shape, affixes, lexicon membership, context."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Final, NamedTuple

from anonymed.detect.tagger.clusters import WordClusters
from anonymed.detect.tagger.triggers import context_features, trigger_classes
from anonymed.detect.tokens import TaggerToken, fold
from anonymed.document import Span

#: how many neighbours on each side contribute their word features
WINDOW: Final = 2
_OFFSETS: Final = tuple(offset for offset in range(-WINDOW, WINDOW + 1) if offset)


def _squeeze(classes: str) -> str:
    """Runs of one character class made one: ``XXxxx`` -> ``Xx``."""
    return "".join(char for index, char in enumerate(classes) if index == 0 or char != classes[index - 1])


def _shape(word: str) -> str:
    """Compressed character classes: ``Xx``, ``X``, ``x``, ``d``, ``Xd``, ``xXx``..."""
    classes = "".join(
        "X" if c.isupper() else "x" if c.isalpha() else "d" if c.isdigit() else "o" for c in word
    )
    return _squeeze(classes)


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
    kept: tuple[str, ...]  # of ``own``, the features the model knows (all of them while training)
    case_key: str  # ``case=<upper|title|lower|initial|digit|mixed>``
    around: Mapping[int, tuple[str, ...]]  # offset -> features this word gives the token at -offset
    triggers: tuple[str, ...]  # the context-word classes of the word (see ``tagger.triggers``)


def _around(own: tuple[str, ...], known: frozenset[str] | None) -> dict[int, tuple[str, ...]]:
    packs: dict[int, tuple[str, ...]] = {}
    lexicon = [f for f in own[2:] if f.startswith(("lex=", "cl"))]
    for offset in _OFFSETS:
        if offset:
            extra = lexicon if abs(offset) == 1 else []
            pack = (f"{offset}:{f}" for f in (own[0], own[1], *extra))
            packs[offset] = tuple(pack if known is None else (f for f in pack if f in known))
    return packs


def _pairs(known: frozenset[str] | None, prefix: str) -> frozenset[str]:
    """The ``a|b`` of the known features ``<prefix>a|b`` (none while training)."""
    return frozenset(f.removeprefix(prefix) for f in known or () if f.startswith(prefix))


class Featurizer:
    """Turns a text into tokens and one list of string features per token (cached per word)."""

    def __init__(
        self,
        lexicons: FeatureLexicons,
        clusters: WordClusters | None = None,
        *,
        triggers: bool = False,
        known: frozenset[str] | None = None,
    ) -> None:
        self.lexicons = lexicons
        self.clusters = clusters
        self.triggers = triggers
        #: the features a trained model gives a weight: the others are left out of the rows (they change
        #: nothing and cost a conversion each); None while training
        self.known = known
        self._cache: dict[str, WordFeatures] = {}
        #: the word pairs of the ``bigram>`` and ``bigram<`` features the model knows
        self._known_pairs = (_pairs(known, "bigram>"), _pairs(known, "bigram<"))

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
        known = self.known
        kept = own if known is None else tuple(f for f in own if f in known)
        result = WordFeatures(own, kept, own[1], _around(own, known), trigger_classes(word))
        if len(self._cache) < 500_000:
            self._cache[word] = result
        return result

    def featurize(self, tokens: Sequence[TaggerToken], hints: Sequence[Span] = ()) -> list[list[str]]:
        """The feature list of each token (own features plus neighbours', prefixed by offset).

        ``hints`` are spans of other detectors: each token they cover gets ``hint=<source>:<label>``.
        """
        if not tokens:
            return []
        words = [self.word_features(token.text) for token in tokens]
        size = len(tokens)
        marked = _hint_rows(hint_marks(tokens, hints), size)
        heads = _heads("doc=caps" if mostly_upper(tokens) else "doc=mixed")
        classes = [w.triggers for w in words] if self.triggers else []
        near = _neighbour_packs(words)
        edges = _edges(tokens, self._bigrams(words))
        rows: list[list[str]] = []
        for i, (word, right1, right2, left1, left2, opening, ahead, behind) in enumerate(
            zip(words, *near, *edges, strict=True)
        ):
            # same order as ever: a feature's weight is added in row order, and sums in another order
            # could differ in the last bit
            row = [
                *word.kept,
                *right1,
                *right2,
                *left1,
                *left2,
                *heads[word.case_key],
                *opening,
                *ahead,
                *behind,
            ]
            if classes:
                row.extend(context_features(classes, i, word.case_key))
            if i in marked:
                row.extend(marked[i])
            rows.append(row)
        return rows

    def _bigrams(self, words: Sequence[WordFeatures]) -> list[tuple[str | None, str | None]]:
        """Per pair of neighbours ``i, i + 1``: ``bigram>`` of ``i`` and ``bigram<`` of ``i + 1`` (None
        where the model does not know it)."""
        pairs = [f"{left.own[0]}|{right.own[0]}" for left, right in pairwise(words)]
        known = self.known
        if known is None:
            return [(f"bigram>{pair}", f"bigram<{pair}") for pair in pairs]
        after, before = self._known_pairs
        return [
            (f"bigram>{pair}" if pair in after else None, f"bigram<{pair}" if pair in before else None)
            for pair in pairs
        ]


def _neighbour_packs(words: Sequence[WordFeatures]) -> list[list[tuple[str, ...]]]:
    """Per token of a note (one at least), the features its neighbours at +1, +2, -1 and -2 give it."""
    ends = [()] * min(2, len(words))  # past the ends of the note
    return [
        [w.around[1] for w in words[1:]] + ends[:1],
        [w.around[2] for w in words[2:]] + ends,
        ends[:1] + [w.around[-1] for w in words[:-1]],
        ends + [w.around[-2] for w in words[:-2]],
    ]


_Edges = tuple[list[tuple[str, ...]], list[tuple[str, ...]], list[tuple[str, ...]]]


def _edges(tokens: Sequence[TaggerToken], bigrams: Sequence[tuple[str | None, str | None]]) -> _Edges:
    """Per token of a note (one at least), the features of its own gap, of the token after it (with
    their bigram) and of the token before it."""
    gaps = [(token.before, token.newline_before) for token in tokens]
    parts = [_GAP_PARTS.get(gap) or _gap_parts(*gap) for gap in gaps]
    size = len(tokens)
    opening = [part[0] for part in parts]
    opening[0] = parts[0][3]  # the first token starts a line
    ahead = [
        parts[i + 1][1] + (() if after is None else (after,)) + (_PAD_AFTER2 if i + 2 == size else ())
        for i, (after, _) in enumerate(bigrams)
    ]
    behind = [
        (parts[i - 1][2],) + (() if before is None else (before,)) + (_PAD_BEFORE2 if i == 1 else ())
        for i, (_, before) in enumerate(bigrams, start=1)
    ]
    return opening, [*ahead, _LAST], [_FIRST, *behind]


#: a token's (before, newline_before) -> its opening features, those it gives the token before it, the one
#: it gives the token after it, and its opening features when it starts the note (gaps repeat: cached)
_GAP_PARTS: Final[dict[tuple[str, bool], tuple[tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]]] = {}
_PAD_BEFORE2: Final = ("-2:pad",)
_PAD_AFTER2: Final = ("2:pad",)
_FIRST: Final = ("-1:pad", "-2:pad")
_LAST: Final = ("doc_end", "1:pad", "2:pad")


def _gap_parts(before: str, newline: bool) -> tuple[tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]:
    """The gap features a token's separator gives it and its neighbours (see ``_GAP_PARTS``)."""
    first = (f"gap<{before}", "line_start")
    opening = first if newline else first[:1]
    ahead = (
        (f"gap>{before}", "line_end", f"1:gap<{before}") if newline else (f"gap>{before}", f"1:gap<{before}")
    )
    parts = (opening, ahead, f"-1:gap<{before}", first)
    if len(_GAP_PARTS) < 10_000:
        _GAP_PARTS[before, newline] = parts
    return parts


@cache
def _heads(doc_case: str) -> dict[str, tuple[str, ...]]:
    """``case=<class>`` -> the first features of a token of that case in a note of case ``doc_case``."""
    cases = ("digit", "upper", "initial", "lower", "title", "mixed")
    return {f"case={case}": ("bias", doc_case, f"{doc_case}|case={case}") for case in cases}


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


def _hint_rows(marks: Mapping[int, list[str]], size: int) -> dict[int, list[str]]:
    """Token index -> its hint features: ``0:hint=<mark>`` and ``hint=<label>`` for the marks it holds,
    ``-1:hint=`` / ``1:hint=`` for those of the token before / after it."""
    rows: dict[int, list[str]] = {}
    for index, found in marks.items():
        for mark in found:
            rows.setdefault(index, []).extend((f"0:hint={mark}", f"hint={mark.split('/')[0]}"))
            if index + 1 < size:
                rows.setdefault(index + 1, []).append(f"-1:hint={mark}")
            if index > 0:
                rows.setdefault(index - 1, []).append(f"1:hint={mark}")
    return rows


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
