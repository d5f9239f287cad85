"""Tokens and CRF features of the PHI tagger: word shape, affixes, lexicon membership, context."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
        words = [self.word_features(token.text) for token in tokens]
        marked = _hint_rows(hint_marks(tokens, hints), len(tokens))
        doc_case = "doc=caps" if mostly_upper(tokens) else "doc=mixed"
        classes = [w.triggers for w in words] if self.triggers else []
        known = self.known
        gaps = _GAPS
        size = len(tokens)
        rows: list[list[str]] = []
        for i, token in enumerate(tokens):
            word = words[i]
            own = word.own
            row = list(word.kept)  # the cached parts come filtered already; the others are few and known
            extra = [
                "bias",
                doc_case,
                f"{doc_case}|{word.case_key}",
                gaps[0].get(token.before) or _gap(0, token),
            ]
            if token.newline_before or i == 0:
                extra.append("line_start")
            if i + 1 < size:
                after = tokens[i + 1]
                right = words[i + 1]
                row.extend(right.around[1])
                extra.append(gaps[1].get(after.before) or _gap(1, after))
                if after.newline_before:
                    extra.append("line_end")
                extra.append(gaps[3].get(after.before) or _gap(3, after))
                bigram = f"bigram>{own[0]}|{right.own[0]}"
                if known is None or bigram in known:  # word pairs: most are unknown to the model
                    extra.append(bigram)
                if i + 2 < size:
                    row.extend(words[i + 2].around[2])
                else:
                    extra.extend(_PAD_AFTER2)
            else:
                extra.extend(_LAST)
            if i > 0:
                before = tokens[i - 1]
                left = words[i - 1]
                row.extend(left.around[-1])
                extra.append(gaps[2].get(before.before) or _gap(2, before))
                bigram = f"bigram<{left.own[0]}|{own[0]}"
                if known is None or bigram in known:
                    extra.append(bigram)
                if i >= 2:
                    row.extend(words[i - 2].around[-2])
                else:
                    extra.extend(_PAD_BEFORE2)
            else:
                extra.extend(_FIRST)
            if classes:
                extra.extend(context_features(classes, i, word.case_key))
            if marked:
                extra.extend(marked.get(i, ()))
            row.extend(extra)
            rows.append(row)
        return rows


#: cached gap features: 0 ``gap<`` of the token, 1 ``gap>`` (the next token's), 2 ``-1:gap<``, 3 ``1:gap<``
_GAP_PREFIXES: Final = ("gap<", "gap>", "-1:gap<", "1:gap<")
_GAPS: Final[tuple[dict[str, str], ...]] = ({}, {}, {}, {})
_PAD_BEFORE2: Final = ("-2:pad",)
_PAD_AFTER2: Final = ("2:pad",)
_FIRST: Final = ("-1:pad", "-2:pad")
_LAST: Final = ("doc_end", "1:pad", "2:pad")


def _gap(kind: int, token: TaggerToken) -> str:
    """The gap feature of ``kind`` for the separator before ``token`` (cached: separators repeat)."""
    feature = _GAP_PREFIXES[kind] + token.before
    if len(_GAPS[kind]) < 10_000:
        _GAPS[kind][token.before] = feature
    return feature


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
