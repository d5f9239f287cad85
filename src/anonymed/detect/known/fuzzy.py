"""Light typos of known words: a bounded edit distance (rapidfuzz's optimal string alignment, where swapping
two neighbouring letters costs one edit) between a note's words and the known ones, and a word split in two
by a stray space.

Bounds, so that nothing explodes: only words of ``MIN_LETTERS`` to ``MAX_LETTERS`` letters take part (a
longer token is never compared); one edit is allowed up to 8 letters, two from 9; the distance is computed
with a cut-off (rapidfuzz stops once it is exceeded) in one call over the note's distinct words and the
known words. A note word that is a common word of the language is never read as a typo.

A split word is two neighbouring words of the note, one space apart on one line, that written together are
a known word of ``MIN_LETTERS`` letters or more, where not both pieces are common words ("Bweighou se" for
Bweighouse; not "new man" for Newman).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from typing import Final

from anonymed.detect.tokens import Token

#: words shorter than this are matched exactly only; longer ones are not compared at all
MIN_LETTERS: Final = 5
MAX_LETTERS: Final = 40


def allowed_edits(length: int) -> int:
    """How many edits a known word of ``length`` letters tolerates."""
    if length < MIN_LETTERS:
        return 0
    return 1 if length <= 8 else 2


def eligible(key: str) -> bool:
    """Whether a folded word can take part in typo matching (letters only, within the length bounds)."""
    return MIN_LETTERS <= len(key) <= MAX_LETTERS and key.isalpha()


def typo_map(words: Iterable[str], known: Iterable[str]) -> Mapping[str, str]:
    """Each note word (folded) that is a light typo of a known word (folded) -> that known word.

    Exact equals are left out (they match without a typo); ties go to the nearest, then the first.
    """
    queries = sorted({w for w in words if eligible(w)})
    choices = sorted({k for k in known if eligible(k)})
    if not queries or not choices:
        return {}
    import numpy as np
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    choice_set = set(choices)
    queries = [w for w in queries if w not in choice_set]
    if not queries:
        return {}
    distances = process.cdist(queries, choices, scorer=OSA.distance, score_cutoff=2, dtype=np.int8, workers=1)
    limits = np.array([allowed_edits(len(c)) for c in choices], dtype=np.int8)
    found: dict[str, str] = {}
    for row, word in enumerate(queries):
        close = np.flatnonzero(distances[row] <= limits)
        if close.size:
            best = close[np.argmin(distances[row][close])]
            found[word] = choices[int(best)]
    return found


def split_words(
    text: str, words: Sequence[Token], known: Container[str], common: Container[str]
) -> Iterator[tuple[int, str]]:
    """(index of the first piece, the known word) for each word of ``known`` split by a stray space into two
    neighbouring words, not both of them ``common`` words."""
    for index in range(len(words) - 1):
        first, second = words[index], words[index + 1]
        if first.gap or first.newline or text[first.end : second.start] != " ":
            continue
        joined = first.key + second.key
        if not eligible(joined) or joined not in known:
            continue
        if first.key in common and second.key in common:
            continue
        yield index, joined
