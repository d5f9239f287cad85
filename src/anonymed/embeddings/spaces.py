"""Embedding spaces on disk: vocabulary with counts, vectors, the neighbour table and fastText subwords.

A space is a folder::

    meta.json           format, version, training and hygiene parameters, corpus statistics, SHA-256 of files
    vocab.json          {"tokens": [...], "counts": [...], "doc_freq": [...]}: lower-cased words, id = index
    candidates.npy      int32, ascending ids of the replacement vocabulary (the only words ever written)
    vectors.npy         float32 or float16, vocab x dim: word-level vectors (the table is built from them)
    neighbours.npy      int32, vocab x n_max: per word its nearest candidates, nearest first (memory-mapped)
    subword_ngrams.npy  fastText only, bucket x dim: character n-gram vectors (vectors for unseen words)
    subword_vectors.npy fastText only, vocab x dim: full fastText word vectors (anchor unseen words)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from anonymed.embeddings.neighbours import Progress, build_table, check_table, normalised
from anonymed.embeddings.subwords import Subwords
from anonymed.embeddings.vocab import Hygiene, candidate_ids, casefold_groups
from anonymed.errors import ResourceError
from anonymed.io.hashed_folder import read_meta, save_folder, write_hashed_meta

FORMAT, VERSION = "anonymed-space", 1
DEFAULT_SPACE = Path(__file__).resolve().parents[1] / "resources" / "spaces" / "mtsamples"
_ARRAYS = ("candidates", "vectors", "neighbours")
_SUBWORDS = ("subword_ngrams", "subword_vectors")


@dataclass(frozen=True, eq=False)
class Space:
    """A trained embedding space with its hygienic replacement vocabulary and neighbour table."""

    tokens: tuple[str, ...]
    counts: npt.NDArray[np.int64]
    doc_freq: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.floating]
    candidates: npt.NDArray[np.int32]
    neighbours: npt.NDArray[np.int32]
    subwords: Subwords | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def index(self) -> dict[str, int]:
        """Word -> id."""
        return {token: i for i, token in enumerate(self.tokens)}

    @cached_property
    def words(self) -> npt.NDArray[np.object_]:
        """The vocabulary as an object array (for vectorised id -> word lookups)."""
        return np.asarray(self.tokens, dtype=object)

    @cached_property
    def groups(self) -> npt.NDArray[np.int32]:
        """Casefold group id of every word."""
        return casefold_groups(self.tokens)

    @cached_property
    def candidate_set(self) -> frozenset[str]:
        """The replacement vocabulary as strings."""
        return frozenset(self.tokens[i] for i in self.candidates.tolist())

    @property
    def n_max(self) -> int:
        """Neighbours stored per word."""
        return int(self.neighbours.shape[1])

    @property
    def hygiene(self) -> Hygiene:
        """The hygiene the candidates were chosen with."""
        return Hygiene(**self.meta.get("hygiene", {}))

    @cached_property
    def unit_anchor_vectors(self) -> npt.NDArray[np.float32]:
        """Normalised full fastText vectors (to anchor unseen words); requires subwords."""
        if self.subwords is None:
            raise ResourceError("this space has no subword vectors")
        return normalised(self.subwords.word_vectors)

    def retable(
        self, n_max: int | None = None, hygiene: Hygiene | None = None, progress: Progress | None = None
    ) -> Space:
        """A copy with the candidates and neighbour table recomputed (in memory)."""
        hygiene = hygiene or self.hygiene
        n_max = n_max or self.n_max
        candidates = candidate_ids(self.tokens, self.counts, self.doc_freq, hygiene)
        table = build_table(self.vectors, candidates, self.groups, n_max, progress=progress)
        meta = {**self.meta, "hygiene": hygiene.__dict__, "n_max": n_max, "candidates": len(candidates)}
        return replace(self, candidates=candidates, neighbours=table, meta=meta)

    def save(self, path: Path) -> Path:
        """Write the space folder atomically (a temporary sibling renamed into place)."""
        return save_folder(path, self._write, "space")

    def _write(self, folder: Path) -> None:
        arrays: dict[str, npt.NDArray[Any]] = {name: getattr(self, name) for name in _ARRAYS}
        if self.subwords is not None:
            arrays["subword_ngrams"] = self.subwords.ngrams
            arrays["subword_vectors"] = self.subwords.word_vectors
        vocab = {
            "tokens": list(self.tokens),
            "counts": self.counts.tolist(),
            "doc_freq": self.doc_freq.tolist(),
        }
        (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
        for name, array in arrays.items():
            np.save(folder / f"{name}.npy", np.ascontiguousarray(array))
        meta = {**self.meta, "format": FORMAT, "version": VERSION, "n_max": self.n_max}
        meta.update(
            vocab_size=len(self.tokens), candidates=len(self.candidates), dim=int(self.vectors.shape[1])
        )
        write_hashed_meta(folder, meta)


def load_space(path: Path | str, *, verify: bool = True) -> Space:
    """Load a space folder; arrays are memory-mapped; with ``verify`` the files' SHA-256 are checked."""
    folder = Path(path)
    try:
        meta = read_meta(folder, FORMAT, VERSION, what="space", verify=verify)
        vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        arrays = {name: np.load(folder / f"{name}.npy", mmap_mode="r") for name in _ARRAYS}
        subwords = None
        if (folder / "subword_ngrams.npy").exists():
            ngrams, vectors = (np.load(folder / f"{name}.npy", mmap_mode="r") for name in _SUBWORDS)
            subwords = Subwords(ngrams, vectors, int(meta["train"]["min_n"]), int(meta["train"]["max_n"]))
    except (OSError, ValueError, KeyError) as exc:
        raise ResourceError(f"cannot load space from {str(folder)!r}: {type(exc).__name__}") from None
    space = Space(
        tuple(vocab["tokens"]),
        np.asarray(vocab["counts"], dtype=np.int64),
        np.asarray(vocab["doc_freq"], dtype=np.int64),
        arrays["vectors"],
        arrays["candidates"],
        arrays["neighbours"],
        subwords,
        meta,
    )
    check_table(space.neighbours, space.candidates, space.groups)
    return space


@lru_cache(maxsize=4)
def cached_space(path: str) -> Space:
    """Load a space once per process (spaces are shared by reference)."""
    return load_space(path)


def default_space() -> Space:
    """The space shipped with anonymed (fastText on MTSamples), loaded once per process."""
    if not (DEFAULT_SPACE / "meta.json").exists():
        raise ResourceError(f"the default space is missing from {str(DEFAULT_SPACE)!r}; reinstall anonymed")
    return cached_space(str(DEFAULT_SPACE))
