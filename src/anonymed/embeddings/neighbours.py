"""The neighbour table: for every word of a space, its nearest replacement candidates (exact faiss search)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from anonymed.errors import ConfigError, ResourceError

Progress = Callable[[str, int, int | None], None]
BATCH = 2048


def normalised(vectors: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Rows scaled to unit L2 norm, as float32 (zero rows stay zero)."""
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return np.ascontiguousarray(array / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def build_table(
    vectors: npt.ArrayLike,
    candidates: npt.NDArray[np.int32],
    groups: npt.NDArray[np.int32],
    n_max: int,
    *,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> npt.NDArray[np.int32]:
    """``table[i]``: the ``n_max`` candidates nearest to word ``i`` by cosine, nearest first.

    Exact inner-product search (faiss ``IndexFlatIP``) on L2-normalised vectors, in batches of queries. A
    word never lists itself nor any word equal to it under ``str.casefold`` (same ``groups`` id).
    """
    import faiss

    unit = normalised(vectors)
    worst = int(np.bincount(groups[candidates]).max()) if len(candidates) else 0
    k = n_max + worst
    if n_max < 2 or len(candidates) < k + 1:
        raise ConfigError(f"need n_max >= 2 and more than {k} replacement candidates, have {len(candidates)}")
    index = faiss.IndexFlatIP(unit.shape[1])
    index.add(unit[candidates])
    table = np.empty((len(unit), n_max), dtype=np.int32)
    for start in range(0, len(unit), batch):
        stop = min(start + batch, len(unit))
        _, found = index.search(unit[start:stop], k)
        table[start:stop] = _first_valid(candidates[found], groups, np.arange(start, stop), n_max)
        if progress is not None:
            progress("neighbours", stop, len(unit))
    check_table(table, candidates, groups)
    return table


def _first_valid(
    ids: npt.NDArray[np.int32], groups: npt.NDArray[np.int32], queries: npt.NDArray[np.int64], n_max: int
) -> npt.NDArray[np.int32]:
    """Per row, the first ``n_max`` ids that are neither the query nor in its casefold group."""
    valid = groups[ids] != groups[queries][:, None]
    order = np.argsort(~valid, axis=1, kind="stable")[:, :n_max]
    return np.take_along_axis(ids, order, axis=1).astype(np.int32)


def check_table(
    table: npt.NDArray[np.int32], candidates: npt.NDArray[np.int32], groups: npt.NDArray[np.int32]
) -> None:
    """Raise ``ResourceError`` unless every entry is a candidate outside its row's casefold group."""
    rows = np.arange(len(table))[:, None]
    if table.shape[0] != len(groups) or table.shape[1] < 2:
        raise ResourceError(
            f"neighbour table of shape {table.shape} does not fit a vocabulary of {len(groups)}"
        )
    if np.any(groups[table] == groups[rows]) or np.any(table == rows):
        raise ResourceError("neighbour table lists a word as its own neighbour")
    is_candidate = np.zeros(len(groups), dtype=bool)
    is_candidate[candidates] = True
    if not is_candidate[table].all():
        raise ResourceError("neighbour table lists a word outside the replacement vocabulary")


def nearest(unit_vectors: npt.NDArray[np.float32], queries: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Index of the row of ``unit_vectors`` nearest (cosine) to each query: a small exact search in numpy."""
    scores = normalised(np.atleast_2d(np.asarray(queries, dtype=np.float32))) @ unit_vectors.T
    return np.asarray(scores.argmax(axis=1), dtype=np.int64)
