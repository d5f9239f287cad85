"""Person names known in advance (the record's patient and relatives, the site's clinicians), found in a
note's word tokens in the forms notes write them:

* whole names, case and accents folded, hyphens and spaces alike ("JEAN-PIERRE MARTIN", "jean pierre
  martin"), written together ("delacruz" for "de la Cruz");
* a word of the name alone ("Smith", "smith's"; for a roster, the family name only); a short word (three
  letters or less) or a common word of the language ("White", "Hope") only when capitalised in a note
  that is not written in capitals;
* initials next to a name ("J. Smith", "Smith, J", "J. R. Smith"), and the record's names' dotted
  initials alone ("J.S."; never "JS", which clinical abbreviations such as "BS" or "MD" look like);
* neighbouring pieces of one person's name joined into one span ("SMITH, JOHN");
* light typos of a word of five letters or more (``fuzzy``), and a word split in two by a stray space
  ("Bweighou se" for Bweighouse; ``fuzzy.split_words``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from anonymed.detect.known.fuzzy import split_words, typo_map
from anonymed.detect.phrases import PhraseIndex, phrase_words, token_keys
from anonymed.detect.tokens import LOWER, Token, upper_ratio
from anonymed.labels import Label

#: separators that join two pieces of one person's name into one span
_JOINERS: Final = frozenset({"", ",", "-"})


@dataclass(frozen=True)
class Target:
    """What a match is labelled: label, subtype, its score, the detector source, and a typo's score."""

    label: Label
    subtype: str | None
    score: float
    source: str
    typo_score: float


#: a piece of a name found: characters, tokens, whom it names, and whether a typo was read
Hit = tuple[int, int, int, int, Target, bool]


@cache
def _titles_and_particles() -> tuple[frozenset[str], frozenset[str]]:
    from anonymed.substitute.fake.names import PARTICLES, TITLES

    return TITLES, PARTICLES


def name_keys(value: str) -> list[str]:
    """The folded words of a name as written, titles and suffixes left out ("Dr. J. Smith Jr" -> j, smith)."""
    titles, _ = _titles_and_particles()
    return [token.key for token in phrase_words(value) if token.key not in titles]


@cache
def _common(lang: str) -> frozenset[str]:
    from anonymed.detect.lexicons.resources import name_lists

    lists = name_lists()
    return lists.common.get(lang, lists.common["en"]) | lists.common["en"]


def weak(key: str, lang: str) -> bool:
    """Whether a word found alone needs capitals: three letters or less, or a common word of ``lang``."""
    return len(key) <= 3 or key in _common(lang)


def in_capitals(words: Sequence[Token]) -> bool:
    """Whether the note is written in capitals (where capitals say nothing about a word)."""
    return upper_ratio(list(words)) >= 0.5


def stands_out(token: Token, key: str, lang: str, caps: bool) -> bool:
    """Whether a word found alone is taken: a strong word, or a weak one capitalised in a cased note."""
    return not weak(key, lang) or (not caps and token.shape != LOWER)


class People:
    """Names to look for: whole names, words that match alone, the initials of each person
    (``initials_alone``: a name's dotted initials alone, "J.S.", are a match too)."""

    def __init__(self, *, initials_alone: bool = True) -> None:
        self.initials_alone = initials_alone
        self.phrases: PhraseIndex[Target] = PhraseIndex("fold")
        self.alone: dict[str, Target] = {}
        self.words: set[str] = set()
        self.acronyms: dict[str, Target] = {}
        self.initials: dict[Target, set[str]] = {}
        self.words_of: dict[Target, set[str]] = {}

    def __bool__(self) -> bool:
        return bool(self.words)

    def add(
        self,
        words: Sequence[str],
        target: Target,
        *,
        alone: Iterable[str] | None = None,
        family_first: Sequence[str] | None = None,
    ) -> None:
        """A person's name as folded words; every word of two letters or more matches alone unless
        ``alone`` names those that do (a roster's family names). The name is also looked for family name
        first: ``family_first``, else its last word first."""
        _, particles = _titles_and_particles()
        words = [w for w in words if w]
        if not words:
            return
        self.phrases.add_keys(words, target)
        if len(words) > 1:  # family name first: "WHITE HOPE" for Hope White
            self.phrases.add_keys(family_first or [words[-1], *words[:-1]], target)
        self.words.update(words)
        self.initials.setdefault(target, set()).update(w[0] for w in words if w[0].isalpha())
        self.words_of.setdefault(target, set()).update(words)
        solo = [w for w in (words if alone is None else alone) if w]
        for word in solo:
            if len(word) >= 2 and word not in particles and not word.isdigit():
                self.alone.setdefault(word, target)
        if len(words) > 1 and self.initials_alone:
            letters = "".join(w[0] for w in words if w not in particles)
            if 2 <= len(letters) <= 3:
                self.acronyms.setdefault(letters, target)
        for start, word in enumerate(words):  # "Maria de la Cruz": "de la Cruz", "delacruz" too
            if start == 0 or (word in particles and words[start - 1] not in particles):
                tail = words[start:]
                if start > 0:
                    self.phrases.add_keys(tail, target)
                joined = "".join(tail)
                if len(tail) > 1 and len(joined) >= 5 and (alone is None or start > 0 or len(solo) > 1):
                    self.alone.setdefault(joined, target)

    def find(self, text: str, words: Sequence[Token], lang: str, *, typos: bool) -> list[Hit]:
        """The known names in the note: pieces found, grown over initials, joined per person."""
        if not self:
            return []
        hits = [self.absorb_initials(words, hit) for hit in self._pieces(text, words, lang, typos)]
        return join_hits(text, hits)

    def _pieces(self, text: str, words: Sequence[Token], lang: str, typos: bool) -> Iterator[Hit]:
        """Every piece of a known name in the note (before initials and joining)."""
        fixes: Mapping[str, str] = {}
        common = _common(lang)
        if typos:
            unknown = (t.key for t in words if t.key not in self.words and t.key not in common)
            fixes = typo_map(unknown, self.words)
        caps = in_capitals(words)

        def keys_of(token: Token) -> Iterator[tuple[str, int]]:
            yield from token_keys(token, "fold")
            if token.key in fixes:
                yield fixes[token.key], token.end

        for match in self.phrases.find(text, words, keys_of):
            first, last = match.first, match.last
            if first == last and not stands_out(words[first], words[first].key, lang, caps):
                continue
            typo = any(words[i].key in fixes for i in range(first, last + 1))
            yield match.start, match.end, first, last, match.payload, typo
        for index, token in enumerate(words):
            for key, end in keys_of(token):
                target = self.alone.get(key)
                if target is not None and stands_out(token, key, lang, caps):
                    yield token.start, end, index, index, target, token.key in fixes
        if typos:
            for index, key in split_words(text, words, self.alone, common):
                if stands_out(words[index], key, lang, caps):
                    start, end = words[index].start, words[index + 1].end
                    yield start, end, index, index + 1, self.alone[key], True
        yield from self._dotted_initials(words)

    def _dotted_initials(self, words: Sequence[Token]) -> Iterator[Hit]:
        """ "J.S." and "J. S." read as a name's initials."""
        index = 0
        while index < len(words):
            run: list[int] = []
            while index + len(run) < len(words) and _letter(words[index + len(run)]):
                run.append(index + len(run))
                if words[run[-1]].gap != "." or words[run[-1]].newline:
                    break
            letters = "".join(words[i].key for i in run)
            if len(run) >= 2 and letters in self.acronyms:
                yield words[run[0]].start, words[run[-1]].end, run[0], run[-1], self.acronyms[letters], False
            index = run[-1] + 1 if run else index + 1

    def absorb_initials(self, words: Sequence[Token], hit: Hit) -> Hit:
        """The hit grown over initials of the same person next to it ("J. Smith", "Smith, J"), and over a
        word of their name after a comma ("JONES, ANNA" when only the family name matches alone)."""
        _, end, first, last, target, typo = hit
        letters = self.initials.get(target, set())
        names = self.words_of.get(target, set())

        def initial(i: int) -> bool:
            return _letter(words[i]) and words[i].key in letters

        def before(i: int) -> bool:
            return i >= 0 and initial(i) and words[i].gap in ("", ".") and not words[i].newline

        while before(first - 1):
            first -= 1
        after = last + 1
        joined = after < len(words) and words[last].gap in ("", ",") and not words[last].newline
        if joined and (initial(after) or (words[last].gap == "," and words[after].key in names)):
            last, end = after, words[after].end
        return words[first].start, end, first, last, target, typo


def _letter(token: Token) -> bool:
    """One capital letter."""
    return len(token.text) == 1 and token.text.isupper()


def join_hits(text: str, hits: Iterable[Hit]) -> list[Hit]:
    """Overlapping hits, and hits of one target separated by a space, comma or hyphen, as one hit."""
    joined: list[Hit] = []
    for hit in sorted(hits, key=lambda h: (h[0], -h[1])):
        if joined:
            start, end, first, last, target, typo = joined[-1]
            between = text[end : hit[0]]
            same = hit[4] == target
            if hit[0] < end or (same and "\n" not in between and between.strip() in _JOINERS):
                if hit[0] < end and not same and hit[4].score > target.score:
                    target = hit[4]
                joined[-1] = (start, max(end, hit[1]), first, max(last, hit[3]), target, typo or hit[5])
                continue
        joined.append(hit)
    return joined
