"""Word-cluster ids for the tagger: the nearest k-means centroid of a word's fastText vector, per size.

The centroids are stored with the model (``clusters.npy``, one block of rows per granularity); the word
vectors come from the embedding space named in the model's metadata (fastText subwords give a vector to any
word, e.g. a rare surname never seen when the space was trained).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from anonymed.errors import ResourceError

CLUSTER_FILE: Final = "clusters.npy"
#: characters of a word its subword vector is built from (bounds the cost of a hostile megabyte "word")
MAX_CHARS: Final = 32
#: the shipped spaces a model may name, under ``anonymed/resources/spaces/``
SPACE_NAMES: Final = frozenset({"mtsamples"})


def space_folder(name: str) -> Path:
    """The folder of the shipped embedding space ``name``."""
    if name not in SPACE_NAMES:
        raise ResourceError(
            f"unknown embedding space {name!r} for tagger clusters; known: {sorted(SPACE_NAMES)}"
        )
    from anonymed.embeddings.spaces import DEFAULT_SPACE

    return DEFAULT_SPACE.parent / name


def space_fingerprint(name: str) -> str:
    """SHA-256 over the recorded hashes of the space's vector files (a model refuses another space)."""
    from anonymed.embeddings.spaces import cached_space

    files = cached_space(str(space_folder(name))).meta.get("files", {})
    parts = [
        f"{key}:{files.get(key, '')}" for key in ("subword_ngrams.npy", "subword_vectors.npy", "vocab.json")
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


class WordVectors:
    """Unit fastText vectors of lower-cased words from a space (its own vector if known, else subwords)."""

    def __init__(self, space_name: str) -> None:
        from anonymed.embeddings.spaces import cached_space

        space = cached_space(str(space_folder(space_name)))
        if space.subwords is None:
            raise ResourceError(f"embedding space {space_name!r} has no fastText subwords")
        self.name = space_name
        self._index = space.index
        self._subwords = space.subwords

    def vector(self, word: str) -> npt.NDArray[np.float32]:
        """The unit vector of ``word`` (case-insensitive; zeros if it has no n-gram)."""
        key = word.lower()[:MAX_CHARS]
        known = self._index.get(key)
        if known is not None:
            raw = np.asarray(self._subwords.word_vectors[known], dtype=np.float32)
        else:
            raw = self._subwords.vector(key)
        norm = float(np.linalg.norm(raw))
        return raw / norm if norm > 0 else raw


@dataclass(frozen=True, eq=False)
class WordClusters:
    """Centroids at several granularities and the word vectors they are compared with."""

    sizes: tuple[int, ...]
    centroids: npt.NDArray[np.float32]  # sum(sizes) x dim, unit rows, one block per size
    vectors: WordVectors

    def ids(self, word: str) -> tuple[int, ...]:
        """The cluster id of ``word`` at each granularity (nearest centroid by cosine)."""
        scores = self.centroids @ self.vectors.vector(word)
        ids, start = [], 0
        for size in self.sizes:
            ids.append(int(np.argmax(scores[start : start + size])))
            start += size
        return tuple(ids)

    def features(self, word: str) -> list[str]:
        """``cl<size>=<id>`` per granularity."""
        return [f"cl{size}={index}" for size, index in zip(self.sizes, self.ids(word), strict=True)]

    def describe(self) -> dict[str, Any]:
        """Metadata stored with the model."""
        return {
            "space": self.vectors.name,
            "sizes": list(self.sizes),
            "fingerprint": space_fingerprint(self.vectors.name),
        }

    def save(self, folder: Path) -> None:
        """Write the centroids as float16 (reproducible bytes)."""
        np.save(folder / CLUSTER_FILE, np.ascontiguousarray(self.centroids, dtype=np.float16))

    @classmethod
    def load(cls, folder: Path, info: dict[str, Any]) -> WordClusters:
        """The clusters of a model folder, described by ``info`` (the model's ``meta["clusters"]``)."""
        name, sizes = str(info["space"]), tuple(int(s) for s in info["sizes"])
        if info.get("fingerprint") != space_fingerprint(name):
            raise ResourceError(f"tagger model in {folder} was built on another version of space {name!r}")
        try:
            centroids = np.load(folder / CLUSTER_FILE).astype(np.float32)
        except (OSError, ValueError) as exc:
            raise ResourceError(f"cannot load tagger clusters from {folder}: {type(exc).__name__}") from None
        if centroids.shape[0] != sum(sizes):
            raise ResourceError(
                f"tagger clusters in {folder} have {centroids.shape[0]} rows, expected {sum(sizes)}"
            )
        return cls(sizes, centroids, WordVectors(name))
