"""fastText character n-gram hashing (as in gensim and Facebook's fastText) and vectors for unseen words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

_CONTINUATION_MASK, _CONTINUATION = 0xC0, 0x80


def ngrams_bytes(word: str, min_n: int, max_n: int) -> list[bytes]:
    """The UTF-8 character n-grams of ``<word>``, lengths ``min_n`` to ``max_n`` (fastText's order)."""
    data = f"<{word}>".encode()
    size = len(data)
    grams: list[bytes] = []
    for i in range(size):
        if data[i] & _CONTINUATION_MASK == _CONTINUATION:
            continue
        j, n = i, 1
        while j < size and n <= max_n:
            j += 1
            while j < size and data[j] & _CONTINUATION_MASK == _CONTINUATION:
                j += 1
            if n >= min_n and not (n == 1 and (i == 0 or j == size)):
                grams.append(data[i:j])
            n += 1
    return grams


def fnv_hash(data: bytes) -> int:
    """fastText's 32-bit FNV-1a variant (bytes taken as signed chars)."""
    h = 2166136261
    for b in data:
        h = ((h ^ ((b - 256) & 0xFFFFFFFF if b > 127 else b)) * 16777619) & 0xFFFFFFFF
    return h


def ngram_hashes(word: str, min_n: int, max_n: int, bucket: int) -> list[int]:
    """The bucket of each n-gram of ``word``."""
    return [fnv_hash(gram) % bucket for gram in ngrams_bytes(word, min_n, max_n)]


@dataclass(frozen=True)
class Subwords:
    """The n-gram vectors of a fastText space and the full vectors of its words (to anchor unseen words)."""

    ngrams: npt.NDArray[np.floating]
    word_vectors: npt.NDArray[np.floating]
    min_n: int
    max_n: int

    def vector(self, word: str) -> npt.NDArray[np.float32]:
        """fastText's vector for an unseen word: the mean of its n-gram vectors (zeros if it has none)."""
        hashes = ngram_hashes(word, self.min_n, self.max_n, self.ngrams.shape[0])
        if not hashes:
            return np.zeros(self.ngrams.shape[1], dtype=np.float32)
        mean: npt.NDArray[np.float32] = np.asarray(self.ngrams[hashes], dtype=np.float32).mean(axis=0)
        return mean
