"""Replacements for words the space has never seen: via fastText subwords, or by shape for Word2Vec spaces."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
import numpy.typing as npt

from anonymed.embeddings.neighbours import nearest
from anonymed.embeddings.spaces import Space
from anonymed.randomness import RandomSource

MIN_POOL = 20
RETRIES = 8
CACHE = 100_000
#: characters of an unseen word its subword vector is built from: a longer "word" (a megabyte of letters)
#: would otherwise cost time and memory in proportion to its length, and stay in the cache
SUBWORD_CHARS = 64


class UnseenWords(ABC):
    """Chooses a replacement candidate for each out-of-vocabulary word."""

    def __init__(self, space: Space) -> None:
        self.space = space

    def choose(
        self, keys: list[str], degrees: npt.NDArray[np.int64], rng: RandomSource
    ) -> npt.NDArray[np.int64]:
        """One candidate id per key (lower-cased word), never equal to the key under ``str.casefold``."""
        chosen = self._draw(keys, degrees, rng)
        folded = [k.casefold() for k in keys]
        tokens = self.space.tokens
        pending = [i for i, c in enumerate(chosen.tolist()) if tokens[c].casefold() == folded[i]]
        rounds = 0
        while pending:
            index = np.asarray(pending)
            if rounds < RETRIES:
                chosen[index] = self._draw([keys[i] for i in pending], degrees[index], rng)
            else:  # the key's own spelling fills its pool: fall back to any candidate
                candidates = self.space.candidates
                chosen[index] = candidates[rng.integers(len(candidates), size=len(pending))]
            pending = [i for i in pending if tokens[int(chosen[i])].casefold() == folded[i]]
            rounds += 1
        return chosen

    @abstractmethod
    def _draw(
        self, keys: list[str], degrees: npt.NDArray[np.int64], rng: RandomSource
    ) -> npt.NDArray[np.int64]:
        """One random candidate id per key."""


class SubwordNeighbours(UnseenWords):
    """fastText: the subword vector names the nearest known word; a random one of *its* neighbours is used."""

    def __init__(self, space: Space) -> None:
        super().__init__(space)
        self._anchors: dict[str, int] = {}

    def anchors(self, keys: list[str]) -> npt.NDArray[np.int64]:
        """The nearest known word (cosine of full fastText vectors) of each key, cached per process."""
        subwords = self.space.subwords
        assert subwords is not None
        keys = [k[:SUBWORD_CHARS] for k in keys]
        new = [k for k in dict.fromkeys(keys) if k not in self._anchors]
        if new:
            if len(self._anchors) + len(new) > CACHE:
                self._anchors.clear()
            found = nearest(self.space.unit_anchor_vectors, np.stack([subwords.vector(k) for k in new]))
            self._anchors.update(zip(new, found.tolist(), strict=True))
        return np.asarray([self._anchors[k] for k in keys], dtype=np.int64)

    def _draw(
        self, keys: list[str], degrees: npt.NDArray[np.int64], rng: RandomSource
    ) -> npt.NDArray[np.int64]:
        rows = np.asarray(self.space.neighbours[self.anchors(keys)])
        return rows[np.arange(len(keys)), rng.integers(degrees)].astype(np.int64)


class SameShape(UnseenWords):
    """Word2Vec: a random candidate of about the same length (at least ``MIN_POOL`` to choose from)."""

    def __init__(self, space: Space) -> None:
        super().__init__(space)
        candidates = np.asarray(space.candidates, dtype=np.int64)
        lengths = np.asarray([len(space.tokens[i]) for i in candidates.tolist()], dtype=np.int64)
        order = np.argsort(lengths, kind="stable")
        self.by_length, lengths = candidates[order], lengths[order]
        self.longest = int(lengths[-1])
        pool = min(MIN_POOL, len(candidates))
        self.lo = np.zeros(self.longest + 1, dtype=np.int64)
        self.hi = np.zeros(self.longest + 1, dtype=np.int64)
        for length in range(self.longest + 1):
            width = 1
            while True:
                lo = int(np.searchsorted(lengths, length - width, "left"))
                hi = int(np.searchsorted(lengths, length + width, "right"))
                if hi - lo >= pool:
                    break
                width += 1
            self.lo[length], self.hi[length] = lo, hi

    def _draw(
        self, keys: list[str], degrees: npt.NDArray[np.int64], rng: RandomSource
    ) -> npt.NDArray[np.int64]:
        lengths = np.minimum(np.fromiter(map(len, keys), dtype=np.int64, count=len(keys)), self.longest)
        lo, hi = self.lo[lengths], self.hi[lengths]
        chosen: npt.NDArray[np.int64] = self.by_length[lo + rng.integers(hi - lo)]
        return chosen


def unseen_words(space: Space) -> UnseenWords:
    """The strategy the space supports: subwords for fastText spaces, shape for Word2Vec ones."""
    return SubwordNeighbours(space) if space.subwords is not None else SameShape(space)
