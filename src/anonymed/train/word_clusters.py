"""Build the tagger's word clusters: deterministic spherical k-means over a fastText space's word vectors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from anonymed.detect.tagger.clusters import WordClusters, WordVectors, space_folder
from anonymed.errors import ConfigError

#: Lloyd iterations of each k-means (enough for stable assignments on a 20k-word vocabulary)
ITERATIONS = 20


def _unit(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.asarray(rows / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def spherical_kmeans(
    points: npt.NDArray[np.float32], k: int, iterations: int = ITERATIONS
) -> npt.NDArray[np.float32]:
    """``k`` unit centroids of unit ``points`` (cosine k-means from evenly spaced points: no randomness).

    Points are expected in descending frequency order, so the start covers frequent and rare words alike.
    A cluster left empty keeps its previous centroid.
    """
    if not 0 < k <= len(points):
        raise ConfigError(f"cannot make {k} clusters of {len(points)} words")
    start = np.linspace(0, len(points) - 1, k).round().astype(np.int64)
    centroids = points[start].copy()
    for _ in range(iterations):
        assign = np.argmax(points @ centroids.T, axis=1)
        sums = np.stack([np.bincount(assign, weights=column, minlength=k) for column in points.T], axis=1)
        filled = np.bincount(assign, minlength=k) > 0
        centroids[filled] = _unit(sums[filled].astype(np.float32))
    return centroids


def build_clusters(sizes: Sequence[int], space_name: str = "mtsamples") -> WordClusters:
    """Clusters at each of ``sizes`` over every word of the shipped space ``space_name``.

    Centroids are rounded to float16, as stored, so training sees the ids the saved model will give.
    """
    from anonymed.embeddings.spaces import cached_space

    space = cached_space(str(space_folder(space_name)))
    if space.subwords is None:
        raise ConfigError(f"embedding space {space_name!r} has no fastText subwords")
    points = _unit(np.asarray(space.subwords.word_vectors, dtype=np.float32))
    blocks = [spherical_kmeans(points, int(k)) for k in sizes]
    stored = np.concatenate(blocks).astype(np.float16).astype(np.float32)
    return WordClusters(tuple(int(k) for k in sizes), stored, WordVectors(space_name))
